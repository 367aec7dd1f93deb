"""The Hearts bots: ``random`` (uniform among legal decisions) and ``heuristic`` (pass the
dangerous cards, duck under the led suit, dump the queen and hearts when void).

>>> from replay.engine.simulate import simulate_game
>>> from replay.games.hearts import RULES
>>> events = simulate_game(RULES, "doc", players=4, seed=5, bots=("heuristic",), check=True)
>>> events[-1].type
'game_end'
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from replay.games.base import Bot, first_undealt
from replay.games.hearts import (
    DECK,
    HAND_SIZE,
    HEARTS,
    PASS,
    PASS_SIZE,
    POINT_CARDS,
    QS_BIT,
    QUEEN_OF_SPADES,
    SPADES,
    SUIT_MASK,
    Hearts,
    HeartsState,
    card_points,
    legal_mask,
)
from replay.model.cards import bits, highest, lowest
from replay.model.events import Event


def bots(rules: Hearts) -> Mapping[str, Bot]:
    """Hearts' bots by name (:meth:`~replay.games.game.Game.bots`)."""

    def random_decision(state: HeartsState, seat: int, rng: random.Random) -> Event:
        """Uniform among legal decisions (passes drawn directly, not from all 286 triples)."""
        if state.stage == PASS:
            cards = tuple(rng.sample(list(bits(state.hand(seat))), PASS_SIZE))
            return rules.pass_event(state, seat, cards)
        return rules.play_event(state, seat, rng.choice(list(bits(legal_mask(state, seat)))))

    def heuristic_decision(state: HeartsState, seat: int, rng: random.Random) -> Event:
        """:func:`heuristic_pass` or :func:`heuristic_play`, as the hand's stage asks."""
        if state.stage == PASS:
            return rules.pass_event(state, seat, heuristic_pass(state.hand(seat)))
        return rules.play_event(state, seat, heuristic_play(state, seat))

    return {"random": random_decision, "heuristic": heuristic_decision}


def danger(card: int) -> int:
    """How dangerous a card is to keep (higher = pass or dump first)."""
    suit, rank = divmod(card, 13)
    if card == QUEEN_OF_SPADES:
        return 100
    if suit == SPADES and rank > 10:  # K, A of spades catch the queen
        return 90 + rank
    if suit == HEARTS:
        return 40 + rank
    return rank


def heuristic_pass(hand: int) -> tuple[int, int, int]:
    """Pass the three most dangerous cards: the queen, high spades, high hearts, high cards."""
    ranked = sorted(bits(hand), key=danger, reverse=True)
    return ranked[0], ranked[1], ranked[2]


def heuristic_play(state: HeartsState, seat: int) -> int:
    """Avoid points: duck under the led suit's best card, dump the queen and hearts when void."""
    legal = legal_mask(state, seat)
    if not state.table:
        safe = legal & ~POINT_CARDS
        pool = safe or legal
        return min(bits(pool), key=lambda c: c % 13)
    led = state.table[0] // 13
    suited = legal & SUIT_MASK[led]
    if not suited:
        return max(bits(legal), key=danger)
    best = max(c for c in state.table if c // 13 == led)
    under = suited & ((1 << best) - 1)
    if under:
        return highest(under)
    if len(state.table) == 3 and not any(card_points(c) for c in state.table):
        highest_safe = suited & ~QS_BIT
        return highest(highest_safe) if highest_safe else highest(suited)
    return lowest(suited & ~QS_BIT) if suited & ~QS_BIT else lowest(suited)


def sample_chance(rules: Hearts, state: HeartsState, rng: random.Random) -> Event:
    """A deal of 13 cards to the next seat not dealt (HEARTS-SETUP), drawn with ``rng``."""
    remaining = list(bits(DECK.full & ~state.dealt))
    hand = sorted(rng.sample(remaining, HAND_SIZE))
    return rules.new_event(
        state, "deal", round=state.hand_no, player=first_undealt(state.dealt_seats),
        cards=tuple(DECK.order[c] for c in hand),
    )  # fmt: skip
