"""The event model: constructor, copies and pickles, payload comparison; card decks."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from typing import Any

import pytest

from replay.audit import Finding, GameAudit
from replay.games import hearts
from replay.games.base import Due, Phase
from replay.model import cards
from replay.model.cards import Deck, UnknownCard
from replay.model.events import COLUMNS, PAYLOAD_FIELDS, Event, field_values, same_payload

FULL = Event(
    "g1", 7, "hearts", "trick_won", round=2, trick=3, player=1, target=2, card="QS",
    cards=("2C", "QS"), suit="H", amount=13, total=40, values=(1, 2), data="{}",
)  # fmt: skip


def test_the_constructor_takes_the_columns_in_order() -> None:
    values = [getattr(FULL, name) for name in COLUMNS]
    by_position = Event(*values)
    by_name = Event(**dict(zip(COLUMNS, values, strict=True)))
    assert by_position == by_name == FULL
    assert [getattr(by_position, name) for name in COLUMNS] == values
    assert tuple(f.name for f in dataclasses.fields(Event)) == COLUMNS


def test_field_values_are_the_columns_in_order() -> None:
    assert field_values(FULL) == tuple(getattr(FULL, name) for name in COLUMNS)


def test_findings_keep_their_fields_and_are_frozen() -> None:
    values: tuple[Any, ...] = ("g1", "hearts", 7, "HEARTS-TRICK", "wrong", "#7 x", "y",
                               "state", {"a": 1}, {"b": 2}, {"c": 3})  # fmt: skip
    finding = Finding(*values)
    names = [f.name for f in dataclasses.fields(Finding)]
    assert [getattr(finding, name) for name in names] == list(values)
    assert Finding(**dict(zip(names, values, strict=True))) == finding
    assert Finding("g1", "hearts", 7, "R", "m").state_data is None
    with pytest.raises(dataclasses.FrozenInstanceError):
        finding.seq = 3  # type: ignore[misc]


def test_events_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        FULL.player = 3  # type: ignore[misc]


@pytest.mark.parametrize(
    "value",
    [
        FULL,
        Due(Phase.RULING, (), FULL, hearts.Rule.TRICK, "trick_won"),
        Finding("g1", "hearts", 7, "HEARTS-TRICK", "wrong", "#7 x", "y", "state"),
        GameAudit("g1", "hearts", 10, [Finding("g1", "hearts", 7, "R", "m")], 7, "stopped"),
    ],
    ids=["event", "due", "finding", "game audit"],
)
def test_pickles_and_copies_are_equal(value: Any) -> None:
    """Audit workers send findings back pickled; the compiled build must do it too."""
    assert pickle.loads(pickle.dumps(value)) == value
    assert copy.copy(value) == value
    assert copy.deepcopy(value) == value


@pytest.mark.parametrize("name", PAYLOAD_FIELDS)
def test_same_payload_compares_every_payload_field(name: str) -> None:
    other = dataclasses.replace(FULL, **{name: _different(getattr(FULL, name))})
    assert not same_payload(FULL, other) and not same_payload(other, FULL)


def test_same_payload_ignores_position_kind_and_time() -> None:
    moved = dataclasses.replace(FULL, game_id="g2", seq=99, kind="fou", ts=None, data=None)
    assert same_payload(FULL, moved)


def _different(value: object) -> Any:
    if isinstance(value, str):
        return value + "x"
    if isinstance(value, int):
        return value + 1
    assert isinstance(value, tuple)
    return value[:-1]


DECK = Deck(["2C", "3C", "4C"], "test deck")


@pytest.mark.parametrize(
    "codes",
    [["2C", "ZZ"], (c for c in ["2C", "ZZ"]), ["2C", None], ("3C", 4)],
    ids=["unknown", "generator", "none", "int"],
)
def test_a_code_outside_the_deck_is_named(codes: Any) -> None:
    with pytest.raises(UnknownCard) as info:
        DECK.mask(codes)
    assert info.value.code in ("ZZ", None, 4)


def test_mask_of_codes_from_a_generator() -> None:
    assert DECK.mask(c for c in ["2C", "4C"]) == 0b101


def _decks() -> list[Deck]:
    """Every game's deck (Hiifuu's for each player count), a 255-card deck (past the identity
    table's reach) and a deck of strings made at run time."""
    from replay.games import fou, hearts, hez2, hiifuu

    made = Deck(["".join(("x", str(i))) for i in range(40)], "made at run time")
    wide = Deck([f"c{i}" for i in range(256)], "256 cards")
    return [hearts.DECK, hez2.DECK, fou.DECK, *hiifuu.DECKS.values(), made, wide]


@pytest.mark.parametrize("deck", _decks(), ids=lambda deck: deck.name)
def test_find_gives_each_code_its_index_and_minus_one_outside(deck: Deck) -> None:
    for index, code in enumerate(deck.order):
        assert deck.find(code) == index == deck.index(code)
        assert deck.find("".join(code)) == index  # an equal string, not the same object
        assert deck.find(code + "?") == -1
    with pytest.raises(UnknownCard):
        deck.index("??")


@pytest.mark.parametrize("deck", _decks(), ids=lambda deck: deck.name)
def test_codes_of_a_set_are_its_cards_in_deck_order(deck: Deck) -> None:
    import random

    rng = random.Random(len(deck))
    for _ in range(20):
        mask = rng.getrandbits(len(deck)) & rng.getrandbits(len(deck))
        assert deck.codes(mask) == [deck.order[i] for i in cards.bits(mask)]
    assert deck.codes(deck.full) == list(deck.order)
    assert deck.codes(0) == []


@pytest.mark.skipif(not cards.COMPILED, reason="the identity table serves compiled code only")
@pytest.mark.parametrize("deck", _decks()[:-1], ids=lambda deck: deck.name)
def test_compiled_find_finds_the_decks_own_codes_without_the_dict(deck: Deck) -> None:
    without_dict = Deck(deck.order, deck.name)
    without_dict._index = {}  # the fallback: now only the identity table can answer
    assert [without_dict.find(code) for code in deck.order] == list(range(len(deck)))
