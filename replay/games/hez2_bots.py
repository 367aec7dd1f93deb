"""The Hez2 heuristic bot: answers 2s and aces, holds its 7s until blocked, sheds risky cards.

>>> from replay.games.hez2 import RULES
>>> from replay.engine.simulate import simulate_game
>>> events = simulate_game(RULES, "doc", players=4, seed=2, bots=["heuristic"], check=True)
>>> events[-1].type
'game_end'
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from replay.games.base import Bot, random_bot
from replay.games.hez2 import (
    ACES,
    DECLARE,
    RANK_MASK,
    ROUND,
    SEVENS,
    SUIT_MASK,
    SUITS,
    TWOS,
    Hez2,
    Hez2State,
    holders_after,
    playable_mask,
)
from replay.model.cards import bits, popcount
from replay.model.events import Event


def bots(rules: Hez2) -> Mapping[str, Bot]:
    """Hez2's bots by name (:meth:`~replay.games.game.Game.bots`)."""
    return {"random": random_bot(rules), "heuristic": heuristic_bot(rules)}


def heuristic_bot(rules: Hez2) -> Bot:
    """A deterministic bot for Hez2 (``rng`` is accepted and unused)."""

    def choose(state: Hez2State, seat: int, rng: random.Random) -> Event:
        if state.stage == DECLARE:
            suit = best_suit(state.hands[seat], state.discard)
            return rules.new_event(state, "declare_suit", round=ROUND, player=seat, suit=suit)
        playable = playable_mask(state, seat)
        if not playable:
            return rules.pass_event(state, seat)
        if state.pending_skip or state.pending_draw:
            return rules.play_event(state, seat, min(bits(playable)))
        return rules.play_event(state, seat, pick_card(state, seat, playable))

    return choose


def best_suit(hand: int, discard: int) -> str:
    """The suit to declare: the one most held, ties to the one most seen in the discard pile.

    >>> from replay.games.hez2 import DECK
    >>> best_suit(DECK.mask(["3E", "RE", "5O"]), 0)
    'E'
    """

    def key(s: int) -> tuple[int, int, int]:
        return popcount(hand & SUIT_MASK[s]), popcount(discard & SUIT_MASK[s]), -s

    return SUITS[max(range(4), key=key)]


def pick_card(state: Hez2State, seat: int, playable: int) -> int:
    """The card to play when free to choose.

    A 7 is kept while anything else can be played (it is the way out when blocked). Attack
    cards (2, ace) go first when the next player is close to going out; otherwise shed the
    riskiest card: the one whose suit and rank the rest of the hand covers least.
    """
    hand = state.hands[seat]
    pool = playable & ~SEVENS or playable
    following = holders_after(state.hands, seat)
    if following and popcount(state.hands[following[0]]) <= 2:
        attack = pool & (TWOS | ACES)
        if attack:
            pool = attack
    return min(bits(pool), key=lambda card: (_cover(hand & ~(1 << card), card), -card))


def _cover(rest: int, card: int) -> int:
    """How many cards of ``rest`` could follow ``card`` (same suit or rank)."""
    return popcount(rest & (SUIT_MASK[card // 10] | RANK_MASK[card % 10]))
