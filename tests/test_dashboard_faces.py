"""Card faces (replay.model.faces) and SVG cards (replay.render.svg): every card of every game
is drawn."""

from __future__ import annotations

import importlib
import xml.etree.ElementTree as ET

import pytest

from replay.engine.cursor import Cursor
from replay.engine.simulate import simulate_game
from replay.games import GAME_MODULES, available_kinds, get_rules
from replay.model.decks import JOKER
from replay.model.faces import DECKS, PLAIN, card_face
from replay.render.svg import card_svg, cards_html

SVG_NS = "{http://www.w3.org/2000/svg}"


def dealt_cards(kind: str) -> set[str]:
    """Every card code seen in a hand of a simulated game at the most seats."""
    rules = get_rules(kind)
    cursor = Cursor(rules, simulate_game(rules, "faces", players=rules.max_players, seed=2))
    seen: set[str] = set()
    for step in range(len(cursor)):
        seen.update(c for hand in rules.view(cursor.state_at(step))["hands"] for c in hand)
    return seen


@pytest.mark.parametrize("kind", available_kinds())
def test_every_dealt_card_has_a_face_that_tells_it_apart(kind: str) -> None:
    cards = dealt_cards(kind)
    faces = [card_face(kind, c) for c in cards]
    assert len(cards) >= 40
    assert all(f.known and f.style != PLAIN and f.css.startswith("#") for f in faces)
    # rank label + suit identify the card, and so does the name
    assert len({(f.rank, f.suit) for f in faces}) == len(cards)
    assert len({f.name for f in faces}) == len(cards)


@pytest.mark.parametrize("kind", available_kinds())
def test_suit_letters_are_the_game_modules(kind: str) -> None:
    module = importlib.import_module(GAME_MODULES[kind])
    letters = getattr(module, "SUITS", None) or module.COLOURS
    assert {s for s in DECKS[kind].suits if s != JOKER} == set(letters)


def test_fou_jokers_and_colours() -> None:
    from replay.games.fou import DECK, ONE_CODES

    faces = {c: card_face("fou", c) for c in DECK.order}
    assert all(f.known for f in faces.values())
    assert {str(getattr(faces[c].suit, "name", None)) for c in ONE_CODES} == {"joker"}
    assert faces["1a"].label != faces["1b"].label
    assert faces["Y21"].name == "yellow 21" and faces["Y21"].style == "bold yellow"


@pytest.mark.parametrize(
    ("kind", "code", "name", "label"),
    [
        ("hearts", "QS", "queen of spades", "Q♠"),
        ("hearts", "2C", "two of clubs", "2♣"),
        ("hez2", "SO", "sota de oros", "S◉"),
        ("hez2", "RB", "rey de bastos", "R⚚"),
        ("hez2", "1C", "as de copas", "1⚱"),
        ("hiifuu", "18B", "blue 18", "18◆"),
        ("fou", "G2", "green 2", "2●"),
    ],
)
def test_names_and_labels(kind: str, code: str, name: str, label: str) -> None:
    face = card_face(kind, code)
    assert (face.name, face.label, face.ascii) == (name, label, code)


@pytest.mark.parametrize(
    ("kind", "code"),
    [("hearts", "XH"), ("hearts", "Q"), ("hez2", "9O"), ("hiifuu", "R12"), ("fou", "12G"),
     ("fou", "1"), ("chess", "QS"), ("hearts", "")],
)  # fmt: skip
def test_unknown_codes_are_plain(kind: str, code: str) -> None:
    face = card_face(kind, code)
    assert not face.known and face.style == PLAIN and face.label == code


@pytest.mark.parametrize("kind", available_kinds())
def test_every_card_svg_is_well_formed_and_self_contained(kind: str) -> None:
    for code in sorted(dealt_cards(kind)):
        svg = card_svg(kind, code, width=48)
        root = ET.fromstring(svg)
        assert root.tag == f"{SVG_NS}svg"
        assert (root.get("width"), root.get("height")) == ("48", "67")
        assert "href" not in svg and svg.count("http") == 1  # the xmlns only
        title = root.find(f"{SVG_NS}title")
        assert title is not None and title.text == card_face(kind, code).name
        texts = [t.text for t in root.iter(f"{SVG_NS}text")]
        assert card_face(kind, code).rank in texts


def test_face_down_hides_the_card() -> None:
    svg = card_svg("hearts", "QS", face_down=True)
    ET.fromstring(svg)
    assert "Q" not in svg.replace("Liberation", "") and "spades" not in svg
    assert "face down" in svg


def test_hostile_codes_are_escaped() -> None:
    for code in ("<script>alert(1)</script>", '"><img src=x onerror=alert(1)>', "&amp;"):
        svg = card_svg("hearts", code)
        root = ET.fromstring(svg)  # still one well-formed element
        assert not root.findall(".//script") and "<script" not in svg and "<img" not in svg
        html = cards_html("hearts", [code])
        assert "<script" not in html and "<img" not in html


def test_cards_html_draws_each_card_and_the_backs() -> None:
    html = cards_html("hez2", ["7O", None, "RE"], width=40, overlap=0.5)
    assert html.count("<svg") == 3 and html.count('aria-label="card face down"') == 1
    assert "margin-left:-20px" in html
    assert "none" in cards_html("hez2", [], empty="none")
