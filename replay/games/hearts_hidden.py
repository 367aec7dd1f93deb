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
from dataclasses import dataclass, field

from replay.cards import bits, popcount
from replay.events import Event
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
from replay.games.hidden import Slot, check_seat, fill, redrawn

SEATS = 4


@dataclass
class _Hand:
    """One hand of the log as far as it goes: its deals, passes and tricks (cards as indices)."""

    number: int
    deals: dict[int, tuple[int, int]] = field(default_factory=dict)  # seat -> (index, cards)
    passes: dict[int, tuple[int, int]] = field(default_factory=dict)  # seat -> (index, cards)
    tricks: dict[int, list[tuple[int, int]]] = field(default_factory=dict)  # (seat, card)s

    def played(self, seat: int) -> int:
        """The cards ``seat`` has played in this hand."""
        return sum(1 << c for plays in self.tricks.values() for s, c in plays if s == seat)

    def passed(self, seat: int) -> int:
        return self.passes[seat][1]


def _hands(events: Sequence[Event]) -> list[_Hand]:
    hands: dict[int, _Hand] = {}
    for index, event in enumerate(events):
        if event.round is None or event.player is None:
            continue
        hand = hands.setdefault(event.round, _Hand(event.round))
        if event.type == "deal":
            hand.deals[event.player] = (index, DECK.mask(event.cards or ()))
        elif event.type == "pass":
            hand.passes[event.player] = (index, DECK.mask(event.cards or ()))
        elif event.type == "play" and event.card is not None and event.trick is not None:
            hand.tricks.setdefault(event.trick, []).append((event.player, DECK.find(event.card)))
    return list(hands.values())


def revealed(hand: _Hand) -> list[int]:
    """The cards each seat is known not to hold at the end of ``hand`` (as far as it goes),
    from what its plays revealed."""
    excluded = [0] * SEATS
    broken = False
    for number in sorted(hand.tricks):
        (leader, lead), *follows = hand.tricks[number]
        led = lead // 13
        if led == HEARTS and not broken and number > 1:  # HEARTS-BREAK
            excluded[leader] |= DECK.full & ~HEARTS_MASK
        for seat, card in follows:
            if card // 13 != led:  # HEARTS-FOLLOW
                excluded[seat] |= SUIT_MASK[led]
                if number == 1 and 1 << card & POINT_CARDS:  # HEARTS-FIRST-TRICK
                    excluded[seat] |= DECK.full & ~POINT_CARDS
        broken = broken or any(card // 13 == HEARTS for _, card in hand.tricks[number])
    return excluded


def _before_play(hand: _Hand, seat: int, rng: random.Random) -> dict[int, int]:
    """The unseen deals and passes of a hand whose passes are not all made: new cards by
    event index."""
    own = hand.deals[seat][1] if seat in hand.deals else 0
    others = [s for s in hand.deals if s != seat]
    pool = DECK.full & ~own
    undealt = len(DECK.order) - HAND_SIZE * (len(others) + (seat in hand.deals))
    *deals, _ = fill(pool, [Slot(HAND_SIZE)] * len(others) + [Slot(undealt)], rng)
    out = {hand.deals[s][0]: cards for s, cards in zip(others, deals, strict=True)}
    for s, cards in zip(others, deals, strict=True):
        if s in hand.passes:
            out[hand.passes[s][0]] = _any_three(cards, rng)
    return out


def _in_play(hand: _Hand, seat: int, rng: random.Random) -> dict[int, int]:
    """The unseen deals and passes of a hand whose passes are made (or which keeps)."""
    offset = pass_offset(hand.number)
    receiver = (seat + offset) % SEATS
    giver = (seat - offset) % SEATS
    passed_on = hand.passed(seat) if offset else 0  # in the receiver's hand, unless played
    received = hand.passed(giver) if offset else 0
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
    passes = {seat: hand.passed(seat), giver: received}
    out = {}
    for s in others:
        if s != giver:  # an unseen pass: any three cards of its receiver's hand
            passes[s] = _any_three(after[(s + offset) % SEATS], rng)
            out[hand.passes[s][0]] = passes[s]
    for s in others:
        out[hand.deals[s][0]] = after[s] & ~passes[(s - offset) % SEATS] | passes[s]
    return out


def _any_three(cards: int, rng: random.Random) -> int:
    return sum(1 << c for c in rng.sample(list(bits(cards)), PASS_SIZE))


class HeartsSampler:
    """The :class:`~replay.games.hidden.HiddenSampler` of Hearts."""

    def sample(self, events: Sequence[Event], seat: int, rng: random.Random) -> list[Event]:
        check_seat(seat, SEATS)
        new: dict[int, int] = {}
        for hand in _hands(events):
            passing = pass_offset(hand.number) and len(hand.passes) < SEATS
            if len(hand.deals) < SEATS or passing:
                new.update(_before_play(hand, seat, rng))
            else:
                new.update(_in_play(hand, seat, rng))
        return redrawn(events, {i: tuple(DECK.codes(cards)) for i, cards in new.items()})


SAMPLER = HeartsSampler()
