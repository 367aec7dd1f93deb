"""How each game's deck looks: its suits (or colours) with their marks and colours, where the
suit letter stands in a card code, the rank labels. A game declares its :class:`Deck` in its
spec (:class:`~replay.model.specs.GameSpec`, ``faces``); :mod:`replay.model.faces` reads it
to tell what a card code shows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, Literal

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


#: The French deck (Hearts): ``QS`` is the queen of spades.
FRENCH_DECK: Final = Deck("last", FRENCH_SUITS, FRENCH_RANKS, "{rank} of {suit}")

#: The ranks of the Spanish deck, with their Spanish names.
SPANISH_RANKS: Final[Mapping[str, tuple[str, str]]] = {
    "1": ("1", "as"), "2": ("2", "dos"), "3": ("3", "tres"), "4": ("4", "cuatro"),
    "5": ("5", "cinco"), "6": ("6", "seis"), "7": ("7", "siete"), "S": ("S", "sota"),
    "C": ("C", "caballo"), "R": ("R", "rey"),
}  # fmt: skip

#: The Spanish deck (Hez2), in its own colours: gold coins, red cups, blue swords, green clubs.
SPANISH_DECK: Final = Deck(
    "last",
    suits(
        Suit("O", "oros", "◉", "bold yellow", GOLD, "coin"),
        Suit("C", "copas", "⚱", "bold red", RED, "cup"),
        Suit("E", "espadas", "⚔", "bold blue", BLUE, "sword"),
        Suit("B", "bastos", "⚚", "bold green", GREEN, "baton"),
    ),
    SPANISH_RANKS,
    "{rank} de {suit}",
)

#: Four colours and six colourless 1s, the colour first in a code (Fou!: ``G12``, ``1a``).
COLOURS_AND_JOKERS: Final = Deck(
    "first",
    {**colours("disc"), JOKER: Suit(JOKER, "joker", "★", "bold magenta", MAGENTA, "star")},
    {},
    "{suit} {rank}",
)
