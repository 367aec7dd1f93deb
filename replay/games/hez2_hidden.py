"""Hez2: what a seat cannot see, drawn anew (:mod:`replay.games.hidden`).

A seat sees its own deal and the cards it draws, the start card, every play, declaration and
ruling, and each reshuffle (the discard pile less its top card becomes the stock: cards all
seen). It does not see the other seats' deals, the cards they draw, nor the order of the stock.
A seat's decisions reveal nothing of its hand: it may draw whether or not it could play
(HEZ2-DRAW), and let a pending skip or draw fall on it while holding an ace or a 2 (HEZ2-ACE,
HEZ2-TWO). What the seat does know is that a card another seat plays was in its hand: dealt to
it, or drawn by it, before that play and since the stock the card was in was formed (LOG-CARD).

The game falls into stocks: the first (the deck less what the seat saw: its deal, its draws and
the start card), then one per reshuffle (its cards, less what the seat drew of them). The
cards of a stock go to the places it fills unseen (the other seats' deals, their draws from it)
and what is left of the last stock. In each stock, a card another seat plays goes to one of that
seat's places before the play, drawn uniformly (the seat's plays in order of time: each has as
many choices whatever the earlier ones took); the other cards are shuffled into the places left.
Every assignment that fits is as likely as any other.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from replay.games.hez2 import DECK, HAND_SIZE
from replay.games.hidden import Inconsistent, check_seat, parsed, redrawn
from replay.model.cards import bits
from replay.model.events import Event


@dataclass
class _Stock:
    """The cards of one stock the seat has not seen, the places they fill unseen (each the
    index of a deal or a drawn card's event, and the seat it goes to), and the cards other seats
    played from it (card, seat, index of the play)."""

    cards: int
    places: list[tuple[int, int]] = field(default_factory=list)
    played: list[tuple[int, int, int]] = field(default_factory=list)


def _stocks(events: Sequence[Event], seat: int) -> list[_Stock]:
    stocks = [_Stock(DECK.full)]
    stock_of = [0] * len(DECK)  # the stock each card was last in
    for index, event in enumerate(events):
        kind, player = event.type, event.player
        current = stocks[-1]
        if kind == "reshuffle":
            cards = DECK.mask(event.cards or ())
            for card in bits(cards):
                stock_of[card] = len(stocks)
            stocks.append(_Stock(cards))
        elif kind == "start_card" or (player == seat and kind in ("deal", "card_drawn")):
            current.cards &= ~DECK.mask(event.cards or (event.card or "",))
        elif kind == "deal" and player is not None:
            current.places += [(index, player)] * HAND_SIZE
        elif kind == "card_drawn" and player is not None:
            current.places.append((index, player))
        elif kind == "play" and player != seat and player is not None:
            card = DECK.index(event.card or "")
            stocks[stock_of[card]].played.append((card, player, index))
    return stocks


def _share_out(stock: _Stock, rng: random.Random) -> dict[int, int]:
    """New cards, by event index, for the places of one stock."""
    taken: list[int | None] = [None] * len(stock.places)
    places_of: dict[int, list[int]] = {}  # seat -> its places, in order of time
    for place, (_, owner) in enumerate(stock.places):
        places_of.setdefault(owner, []).append(place)
    for card, player, played_at in sorted(stock.played, key=lambda p: p[2]):
        free = [
            place
            for place in places_of.get(player, ())
            if stock.places[place][0] < played_at and taken[place] is None
        ]
        if not free:
            raise Inconsistent(f"seat {player} played {DECK.order[card]} it could not hold")
        taken[rng.choice(free)] = card
    rest = list(bits(stock.cards & ~sum(1 << c for c in taken if c is not None)))
    if len(rest) < taken.count(None):
        raise Inconsistent(f"{len(rest)} unseen cards for {taken.count(None)} places")
    rng.shuffle(rest)
    out: dict[int, int] = {}
    for (index, _), chosen in zip(stock.places, taken, strict=True):
        out[index] = out.get(index, 0) | 1 << (chosen if chosen is not None else rest.pop())
    return out


class Hez2Sampler:
    """The :class:`~replay.games.hidden.HiddenSampler` of Hez2."""

    def sample(self, events: Sequence[Event], seat: int, rng: random.Random) -> list[Event]:
        check_seat(seat, events[0].setup()["players"])
        new: dict[int, int] = {}
        for stock in parsed(events, ("hez2", seat), lambda log: _stocks(log, seat)):
            new.update(_share_out(stock, rng))
        return redrawn(events, new, DECK)


SAMPLER = Hez2Sampler()
