"""Hearts: what a seat cannot see, drawn anew (:mod:`replay.games.hidden`).

A seat sees its own deal and pass, the cards passed to it once all four have passed, and every
play. It does not see the other seats' deals nor the passes between them (nor the pass to it
before all four are made). What the plays reveal about a hand:

- HEARTS-FOLLOW: a seat that did not follow the led suit holds none of it;
- HEARTS-FIRST-TRICK: a seat that played a heart or the queen of spades on the first trick
  holds nothing but hearts and the queen;
- HEARTS-BREAK: a seat that led a heart before hearts were broken holds nothing but hearts.

Each hand is drawn on its own (a hand's deal tells nothing about the next): the cards the seat
has not seen are shared out among the other hands as they stand at the step, within what the
plays revealed (:func:`~replay.games.hidden.fill`); then each unseen pass is any three cards of
its receiver's hand after the passes, and the deals follow (a hand after the passes, less the
cards received, plus the cards passed). Before the passes are all made nothing has been played:
the deals are drawn from the unseen cards and each unseen pass from its seat's deal.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from replay.games.hearts import (
    DECK,
    HAND_SIZE,
    HEARTS,
    HEARTS_MASK,
    PASS_SIZE,
    POINT_CARDS,
    SUIT_MASK,
    pass_offset,
)
from replay.games.hidden import (
    RoundLog,
    Slot,
    any_of,
    before_play,
    check_seat,
    fill,
    redrawn,
    trick_rounds,
)
from replay.model.cards import popcount
from replay.model.events import Event

SEATS = 4


def revealed(hand: RoundLog) -> list[int]:
    """The cards each seat is known not to hold at the end of ``hand`` (as far as it goes),
    from what its plays revealed."""
    excluded = [0] * SEATS
    broken = False
    for number, plays in hand.in_order():
        (leader, lead), *follows = plays
        led = lead // 13
        if led == HEARTS and not broken and number > 1:  # HEARTS-BREAK
            excluded[leader] |= DECK.full & ~HEARTS_MASK
        for seat, card in follows:
            if card // 13 != led:  # HEARTS-FOLLOW
                excluded[seat] |= SUIT_MASK[led]
                if number == 1 and 1 << card & POINT_CARDS:  # HEARTS-FIRST-TRICK
                    excluded[seat] |= DECK.full & ~POINT_CARDS
        broken = broken or any(card // 13 == HEARTS for _, card in plays)
    return excluded


def _in_play(hand: RoundLog, seat: int, rng: random.Random) -> dict[int, int]:
    """The unseen deals and passes of a hand whose passes are made (or which keeps)."""
    offset = pass_offset(hand.number)
    receiver = (seat + offset) % SEATS
    giver = (seat - offset) % SEATS
    passed_on = hand.secrets[seat][1] if offset else 0  # in the receiver's hand, unless played
    received = hand.secrets[giver][1] if offset else 0
    seen = hand.deals[seat][1] | received
    played = [hand.played(s) for s in range(SEATS)]
    for cards in played:
        seen |= cards
    excluded = revealed(hand)
    others = [s for s in range(SEATS) if s != seat]
    kept = {s: passed_on & ~played[s] if s == receiver and offset else 0 for s in others}
    slots = [
        Slot(HAND_SIZE - popcount(played[s]) - popcount(kept[s]), DECK.full & ~excluded[s])
        for s in others
    ]
    held = fill(DECK.full & ~seen, slots, rng)
    after = {s: played[s] | kept[s] | cards for s, cards in zip(others, held, strict=True)}
    if not offset:
        return {hand.deals[s][0]: after[s] for s in others}
    passes = {seat: hand.secrets[seat][1], giver: received}
    out = {}
    for s in others:
        if s != giver:  # an unseen pass: any three cards of its receiver's hand
            passes[s] = any_of(after[(s + offset) % SEATS], PASS_SIZE, rng)
            out[hand.secrets[s][0]] = passes[s]
    for s in others:
        out[hand.deals[s][0]] = after[s] & ~passes[(s - offset) % SEATS] | passes[s]
    return out


class HeartsSampler:
    """The :class:`~replay.games.hidden.HiddenSampler` of Hearts."""

    def sample(self, events: Sequence[Event], seat: int, rng: random.Random) -> list[Event]:
        check_seat(seat, SEATS)
        new: dict[int, int] = {}
        for hand in trick_rounds(events, DECK, "pass"):
            passing = pass_offset(hand.number) and len(hand.secrets) < SEATS
            if len(hand.deals) < SEATS or passing:
                new.update(before_play(hand, seat, DECK.full, HAND_SIZE, PASS_SIZE, rng))
            else:
                new.update(_in_play(hand, seat, rng))
        return redrawn(events, new, DECK)


SAMPLER = HeartsSampler()
