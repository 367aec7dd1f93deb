"""What a card code shows, per game: rank label, suit (or colour), mark, name and colours; and a
card as text (its mark, or its code where marks cannot show: :func:`set_ascii`).

Each game declares its suits in its spec (:class:`~replay.model.specs.GameSpec`, ``faces``);
they serve every screen: the terminal (:mod:`replay.render.terminal`, a rich style per
suit), the SVG cards of :mod:`replay.render.svg` (a CSS colour and a drawn mark) and the HTML
reports.
A game's codes put the suit letter last (Hearts ``QS``, Hez2 ``7O``, Hiifuu ``12R``) or the
colour letter first (Fou! ``G12``, and its six 1s ``1a``..``1f``, jokers without a colour).
A code a game does not know (a damaged log, an unknown game) still gets a face: its code as
the label, no suit, the plain style.

>>> face = card_face("hearts", "TH")
>>> face.label, face.rank, face.suit.mark, face.name, face.css
('10♥', '10', '♥', 'ten of hearts', '#c62828')
>>> card_face("hez2", "CE").name, card_face("hez2", "CE").ascii
('caballo de espadas', 'CE')
>>> card_face("fou", "1c").name, card_face("fou", "1c").style
('joker 1c', 'bold magenta')
>>> card_face("hearts", "<b>").known, card_face("hearts", "<b>").style
(False, 'bold')
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Final

from replay.model import specs
from replay.model.decks import JOKER, Deck, Suit
from replay.text import shown

#: The rich style of a card whose suit is unknown (an unknown game, a malformed code).
PLAIN: Final = "bold"
#: The CSS colour of such a card.
PLAIN_CSS: Final = "#37474f"


@dataclass(frozen=True, slots=True)
class Face:
    """What one card code shows."""

    kind: str
    code: str
    rank: str  # the rank label (``10``, ``Q``, ``S``, ``12``; a Fou! joker: ``1a``)
    suit: Suit | None  # None: a code the game does not know
    name: str  # ``queen of spades``, ``sota de copas``, ``green 12``, ``joker 1a``

    @property
    def known(self) -> bool:
        return self.suit is not None

    @property
    def label(self) -> str:
        """Rank and mark, e.g. ``Q♠`` (the code itself when unknown)."""
        return f"{self.rank}{self.suit.mark}" if self.suit else self.code

    @property
    def ascii(self) -> str:
        """The ASCII fallback: the code as the logs write it."""
        return self.code

    @property
    def style(self) -> str:
        return self.suit.style if self.suit else PLAIN

    @property
    def css(self) -> str:
        return self.suit.css if self.suit else PLAIN_CSS


def faces_of(kind: str) -> Deck | None:
    """A game's faces, as its :class:`~replay.model.specs.GameSpec` declares them (None: an
    unknown game, or one that declares none: its codes show plain)."""
    spec = specs.spec(kind)
    return spec.faces if spec is not None else None


class _Decks(Mapping[str, Deck]):
    """Per game kind, its faces: a read-only view of the specs of the catalogue."""

    def __getitem__(self, kind: str) -> Deck:
        deck = faces_of(kind)
        if deck is None:
            raise KeyError(kind)
        return deck

    def __iter__(self) -> Iterator[str]:
        return (kind for kind in specs.kinds() if faces_of(kind) is not None)

    def __len__(self) -> int:
        return sum(1 for _ in self)


#: Per game kind: its deck's faces, as its spec declares them (a game without any still
#: shows its codes, plain).
DECKS: Final[Mapping[str, Deck]] = _Decks()


def _split(deck: Deck, code: str) -> tuple[str, Suit] | None:
    """(rank part, suit) of a code, or None when the deck has no such card."""
    if deck.suit_at == "first":
        if code[:1] == "1" and len(code) == 2 and code[1:].isalpha() and JOKER in deck.suits:
            return code, deck.suits[JOKER]
        letter, rank = code[:1], code[1:]
    else:
        rank, letter = code[:-1], code[-1:]
    suit = deck.suits.get(letter) if letter != JOKER else None
    if suit is None or not rank:
        return None
    if deck.ranks and rank not in deck.ranks:
        return None
    if not deck.ranks and not (rank.isdigit() and rank.isascii()):
        return None
    return rank, suit


@lru_cache(maxsize=8192)  # bounded: a damaged log may hold any number of odd codes
def card_face(kind: str, code: str) -> Face:
    """The face of one card code in a game (an unknown code or game: the code, plain)."""
    deck = faces_of(kind)
    split = _split(deck, code) if deck else None
    if deck is None or split is None:
        return Face(kind, code, code, None, code)
    rank, suit = split
    if suit.letter == JOKER:
        return Face(kind, code, code, suit, f"joker {code}")
    label, word = deck.ranks.get(rank, (rank, rank))
    return Face(kind, code, label, suit, deck.name.format(rank=word, suit=suit.name))


def suit_of(kind: str, code: str) -> str | None:
    """The suit letter of a card code (``joker`` for a Fou! 1), or ``None`` if unknown.

    >>> suit_of("hearts", "TC"), suit_of("hiifuu", "14Y"), suit_of("hearts", "XX")
    ('C', 'Y', None)
    """
    suit = card_face(kind, code).suit
    return suit.letter if suit else None


specs.on_change(card_face.cache_clear)


def card_order(kind: str, code: str) -> tuple[int, int, str]:
    """A sort key that puts a game's cards in its deck's order (by suit, then rank, as the
    game's spec lists its deck), a deck of the table's own size by suit then numeric rank, and
    unknown codes last.

    >>> sorted(["G19", "G2", "1a", "R3"], key=lambda c: card_order("fou", c))
    ['1a', 'G2', 'G19', 'R3']
    >>> sorted(["3G", "12R", "2R"], key=lambda c: card_order("hiifuu", c))
    ['2R', '12R', '3G']
    """
    spec = specs.spec(kind)
    if spec is not None and spec.deck is not None:
        where = _deck_index(spec.deck).get(code)
        return (0, where, code) if where is not None else (2, 0, code)
    face = card_face(kind, code)
    deck = faces_of(kind)
    if deck is None or face.suit is None:
        return (2, 0, code)
    suit = list(deck.suits).index(face.suit.letter)
    rank = _split(deck, code)
    number = int(rank[0]) if rank is not None and rank[0].isdigit() else 0
    return (1, suit * 10_000 + number, code)


@lru_cache(maxsize=16)
def _deck_index(deck: tuple[str, ...]) -> dict[str, int]:
    return {code: i for i, code in enumerate(deck)}


#: ``on``: cards show as the logs write them (``QS``) rather than with their marks (``Q♠``),
#: for a terminal that cannot show the marks (``--ascii``, or an output encoding without
#: them). ``colour``: whether the output has colour; without it, a deck told apart by colour
#: alone (Hiifuu's and Fou!'s colours share one mark) shows its codes (``G12``).
_ASCII = {"on": False, "colour": True}


def set_ascii(on: bool, *, colour: bool = True) -> None:
    """Show cards as their codes (the ASCII fallback) from now on, or with their marks."""
    _ASCII["on"] = on
    _ASCII["colour"] = colour


@cache
def marks_tell_suits_apart(kind: str) -> bool:
    """Whether a game's suits have distinct marks (Hearts, Hez2), not colours alone.

    >>> marks_tell_suits_apart("hearts"), marks_tell_suits_apart("fou")
    (True, False)
    """
    deck = faces_of(kind)
    if deck is None:
        return True
    marks = [s.mark for s in deck.suits.values() if s.letter != JOKER]
    return len(set(marks)) == len(marks)


specs.on_change(marks_tell_suits_apart.cache_clear)


def ascii_on() -> bool:
    """Whether cards show as their codes (:func:`set_ascii`, :func:`ascii_cards`)."""
    return _ASCII["on"]


@contextmanager
def ascii_cards() -> Iterator[None]:
    """Cards as codes within the block."""
    before = _ASCII["on"]
    _ASCII["on"] = True
    try:
        yield
    finally:
        _ASCII["on"] = before


def card_style(kind: str, code: str) -> str:
    """The rich style of a card code in a game (its suit's colour, :mod:`replay.model.faces`)."""
    return card_face(kind, code).style


def card_label(kind: str, code: str) -> str:
    """What a card shows: rank and suit mark (``Q♠``), or its code in ASCII mode."""
    face = card_face(kind, code)
    plain = _ASCII["on"] or (not _ASCII["colour"] and not marks_tell_suits_apart(kind))
    return shown(face.ascii if plain else face.label)  # an unknown code: as the log has it


def plain_card_label(kind: str, code: str) -> str:
    """A card in text without colour (a report, a verdict, a web page's words): as
    :func:`card_label`, but a deck told apart by colour alone shows its codes.

    >>> plain_card_label("hearts", "TS"), plain_card_label("fou", "G12")
    ('10♠', 'G12')
    """
    face = card_face(kind, code)
    plain = _ASCII["on"] or not marks_tell_suits_apart(kind)
    return shown(face.ascii if plain else face.label)
