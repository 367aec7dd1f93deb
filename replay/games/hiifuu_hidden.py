"""Hiifuu: what a seat cannot see, drawn anew (:mod:`replay.games.hidden`).

A seat sees its own deal and discard and every play. It does not see the other seats' deals nor
their discards (HIIFUU-SETUP: face down, in secret, out of the round). What the plays reveal
about a hand:

- HIIFUU-FOLLOW: a seat that did not follow the led suit holds none of it (a discard is out of
  the round: it may hold any card).

Each round is drawn on its own (every card is dealt anew). Once every seat has discarded, the
cards the seat has not seen are shared out among the other hands as they stand, within what the
plays revealed, and the others' discards (:func:`~replay.games.hidden.in_play`); before that the
recorded deals are drawn from the cards the seat has not seen, and each recorded discard from its
seat's deal.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from replay.games.hidden import RoundLog, before_play, check_seat, in_play, redrawn, trick_rounds
from replay.games.hiifuu import DECKS, TABLE_SIZES
from replay.model.events import Event


def revealed(part: RoundLog, players: int, values: int) -> list[int]:
    """The cards each seat is known not to hold at the end of ``part`` (as far as it goes),
    from what its plays revealed."""
    excluded = [0] * players
    suit = (1 << values) - 1  # the cards of the first suit
    for _, ((_, lead), *follows) in part.in_order():
        led = lead // values
        for seat, card in follows:
            if card // values != led:  # HIIFUU-FOLLOW
                excluded[seat] |= suit << led * values
    return excluded


class HiifuuSampler:
    """The :class:`~replay.games.hidden.HiddenSampler` of Hiifuu."""

    def sample(self, events: Sequence[Event], seat: int, rng: random.Random) -> list[Event]:
        players = events[0].setup()["players"]
        check_seat(seat, players)
        values, size, discard = TABLE_SIZES[players]
        deck = DECKS[values]
        new: dict[int, int] = {}
        for part in trick_rounds(events, deck, "discard"):
            if len(part.deals) < players or len(part.secrets) < players:
                new.update(before_play(part, seat, deck.full, size, discard, rng))
            else:
                excluded = revealed(part, players, values)
                new.update(in_play(part, seat, deck.full, size, excluded, rng))
        return redrawn(events, new, deck)


SAMPLER = HiifuuSampler()
