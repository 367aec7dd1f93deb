"""What a card code shows, per game: rank label, suit (or colour), mark, name and colours.

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
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Literal

from replay.model import specs

#: The rich style of a card whose suit is unknown (an unknown game, a malformed code).
PLAIN: Final = "bold"
#: The CSS colour of such a card.
PLAIN_CSS: Final = "#37474f"
#: The suit key of Fou!'s 1s (jokers: no colour).
JOKER: Final = "joker"


@dataclass(frozen=True, slots=True)
class Suit:
    """One suit (or colour) of a game's deck."""

    letter: str  # as in the card codes (``H``, ``O``, ``G``), or ``joker``
    name: str  # ``hearts``, ``espadas``, ``green``
    mark: str  # one character: ``♥``; the Spanish suits and the colours get a symbol too
    style: str  # the rich (terminal) style
    css: str  # the CSS colour of its cards
    shape: str  # how :mod:`replay.render.svg` draws the mark: ``heart``, ``coin``, ``disc``...


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


@dataclass(frozen=True, slots=True)
class Deck:
    """How one game writes its cards: where the suit letter is, the suits, the rank labels."""

    suit_at: Literal["first", "last"]
    suits: Mapping[str, Suit]
    ranks: Mapping[str, tuple[str, str]]  # rank part of the code -> (label, name); others: as is
    name: str  # how a card's name is built: {rank} and {suit}, e.g. "{rank} of {suit}"


def suits(*suits: Suit) -> dict[str, Suit]:
    """A deck's suits keyed by their letter."""
    return {s.letter: s for s in suits}


RED, BLACK, GREEN, BLUE, GOLD = "#c62828", "#212121", "#2e7d32", "#1565c0", "#b8860b"
YELLOW, MAGENTA = "#f9a825", "#8e24aa"

#: The ranks of the French deck (codes ``2``..``9``, ``T``, ``J``, ``Q``, ``K``, ``A``).
FRENCH_RANKS: Final[Mapping[str, tuple[str, str]]] = {
    "T": ("10", "ten"), "J": ("J", "jack"), "Q": ("Q", "queen"), "K": ("K", "king"),
    "A": ("A", "ace"), "2": ("2", "two"), "3": ("3", "three"), "4": ("4", "four"),
    "5": ("5", "five"), "6": ("6", "six"), "7": ("7", "seven"), "8": ("8", "eight"),
    "9": ("9", "nine"),
}  # fmt: skip

#: The suits of the French deck, as Hearts draws them.
FRENCH_SUITS: Final[Mapping[str, Suit]] = suits(
    Suit("C", "clubs", "♣", "bold bright_white", BLACK, "club"),
    Suit("D", "diamonds", "♦", "bold red", RED, "diamond"),
    Suit("S", "spades", "♠", "bold bright_white", BLACK, "spade"),
    Suit("H", "hearts", "♥", "bold red", RED, "heart"),
)


def colours(shape: str) -> dict[str, Suit]:
    """The four colours of Hiifuu and Fou! (the same letters and colours, another mark)."""
    mark = "●" if shape == "disc" else "◆"
    return suits(
        Suit("R", "red", mark, "bold red", RED, shape),
        Suit("G", "green", mark, "bold green", GREEN, shape),
        Suit("B", "blue", mark, "bold blue", BLUE, shape),
        Suit("Y", "yellow", mark, "bold yellow", YELLOW, shape),
    )


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
