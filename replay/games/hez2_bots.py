"""The Hez2 heuristic bot: answers 2s and aces, holds its 7s until blocked, sheds risky cards.

>>> from replay.games.hez2 import RULES
>>> from replay.engine.simulate import simulate_game
>>> events = simulate_game(RULES, "doc", players=4, seed=2, bots=["heuristic"], check=True)
>>> events[-1].type
'game_end'
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

from replay.games.base import Bot, first_undealt, random_bot
from replay.games.hez2 import (
    ACES,
    DEAL,
    DECK,
    DECLARE,
    HAND_SIZE,
    RANK_MASK,
    ROUND,
    SEVENS,
    START,
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

#: Stakes ``setup_event`` draws for a human seat when options do not give them (minor units).
STAKE_CHOICES = (None, 100, 250, 500, 1000)


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


def setup_event(
    rules: Hez2, game_id: str, players: int, rng: random.Random, options: Mapping[str, Any]
) -> Event:
    """A game start; bots, stakes and dealer are drawn with ``rng`` when not given."""
    bots = list(options.get("bots") or [rng.random() < 0.5 for _ in range(players)])
    names = list(options.get("names") or _default_names(bots))
    stakes = options.get("stakes")
    if stakes is None:
        stakes = [None if bot else rng.choice(STAKE_CHOICES) for bot in bots]
    dealer = options.get("dealer")
    if dealer is None:
        dealer = rng.randrange(players)
    data = {
        "players": players,
        "names": names,
        "bots": bots,
        "stakes": list(stakes),
        "dealer": dealer,
    }
    return Event(game_id, 0, rules.kind, "game_start", data=json.dumps(data))


def sample_chance(rules: Hez2, state: Hez2State, rng: random.Random) -> Event:
    """A deal, the start card or a drawn card, from the stock, with ``rng``."""
    stock = list(bits(state.stock))
    if state.stage == DEAL:
        hand = sorted(rng.sample(stock, HAND_SIZE))
        return rules.new_event(
            state, "deal", round=ROUND, player=first_undealt(state.dealt_seats),
            cards=tuple(DECK.order[c] for c in hand),
        )  # fmt: skip
    card = DECK.order[rng.choice(stock)]
    if state.stage == START:
        return rules.new_event(state, "start_card", round=ROUND, card=card)
    return rules.new_event(state, "card_drawn", round=ROUND, player=state.turn, card=card)


def _default_names(bots: Sequence[bool]) -> list[str]:
    return [f"{'bot' if bot else 'p'}{seat}" for seat, bot in enumerate(bots)]
