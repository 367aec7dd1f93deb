"""Fou!: what a seat cannot see, drawn anew (:mod:`replay.games.hidden`).

A seat sees the deck in play, its own deal and every play (a discard is played face up). It does
not see the other seats' deals. What the plays reveal about a hand:

- FOU-FOLLOW (FOU-JOKER after a led 1): a seat that played a card of another colour than the
  led one, not a 1, holds none of the led colour. A 1 reveals nothing: it may always be played.

A round's scoring counts the cards left in each hand (FOU-SCORE): once a round is scored, its
deals are known to every seat and kept. In a round not yet scored, the cards the seat has not
seen are shared out among the other hands as they stand, within what the plays revealed
(:func:`~replay.games.hidden.in_play`); before every seat is dealt, the recorded deals are drawn
from the cards the seat has not seen. Each round is drawn on its own.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from replay.games.fou import COLOUR, COLOUR_MASK, DECK, ONE, hand_size
from replay.games.hidden import RoundLog, before_play, check_seat, in_play, redrawn, trick_rounds
from replay.model.events import Event


def revealed(part: RoundLog, players: int) -> list[int]:
    """The cards each seat is known not to hold at the end of ``part`` (as far as it goes),
    from what its plays revealed."""
    excluded = [0] * players
    for _, plays in part.in_order():
        led = -1  # set by the trick's first card that is not a 1
        for seat, card in plays:
            colour = COLOUR[card]
            if led >= 0 and colour not in (ONE, led):  # FOU-FOLLOW, FOU-JOKER
                excluded[seat] |= COLOUR_MASK[led]
            elif led < 0 and colour != ONE:
                led = colour
    return excluded


class FouSampler:
    """The :class:`~replay.games.hidden.HiddenSampler` of Fou!."""

    def sample(self, events: Sequence[Event], seat: int, rng: random.Random) -> list[Event]:
        players = events[0].setup()["players"]
        check_seat(seat, players)
        in_deck = next((DECK.mask(e.cards or ()) for e in events if e.type == "deck"), 0)
        size = hand_size(players)
        new: dict[int, int] = {}
        for part in trick_rounds(events, DECK):
            if part.scored:
                continue  # the scoring showed the hands
            if len(part.deals) < players:
                new.update(before_play(part, seat, in_deck, size, 0, rng))
            else:
                new.update(in_play(part, seat, in_deck, size, revealed(part, players), rng))
        return redrawn(events, new, DECK)


SAMPLER = FouSampler()
