"""Hiifuu bots: a uniform random legal player and a heuristic that aims at exactly two tricks.

Both are deterministic given the ``random.Random`` passed in.

>>> from replay.games.hiifuu import RULES
>>> from replay.engine.simulate import simulate_game
>>> events = simulate_game(RULES, "b", players=4, seed=2, bots=("heuristic",), check=True)
>>> events[-1].type
'game_end'
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

from replay.games.base import Bot, first_undealt, simulated_seats
from replay.games.hiifuu import (
    DEAL,
    DEFAULT_TOKENS,
    DISCARD,
    NORMAL,
    RANDOM_TOKENS,
    TABLE_SIZES,
    TOKENS,
    TOKENS_PER_ROUND,
    Hiifuu,
    HiifuuState,
    legal_mask,
)
from replay.model.cards import bits, highest, lowest
from replay.model.events import Event


def bots(rules: Hiifuu) -> Mapping[str, Bot]:
    """Hiifuu's bots by name (:meth:`~replay.games.game.Game.bots`)."""
    return {"random": random_legal_bot(rules), "heuristic": heuristic_bot(rules)}


def random_legal_bot(rules: Hiifuu) -> Bot:
    """Uniform over the legal decisions, like ``base.random_bot``.

    A discard is drawn with ``rng.sample`` (uniform over the same subsets) instead of listing up
    to C(13, 4) = 715 options first; a play is ``rng.choice`` over the legal cards.
    """

    def choose(state: HiifuuState, seat: int, rng: random.Random) -> Event:
        if state.stage == DISCARD:
            hand = list(bits(state.hands[seat]))
            return rules.discard_event(state, seat, rng.sample(hand, state.setup.discard_size))
        return rules.play_event(state, seat, rng.choice(list(bits(legal_mask(state, seat)))))

    return choose


def heuristic_bot(rules: Hiifuu) -> Bot:
    """Keeps two strong cards, takes tricks until it has two, then ducks (see module doc)."""

    def choose(state: HiifuuState, seat: int, rng: random.Random) -> Event:
        if state.stage == DISCARD:
            return rules.discard_event(state, seat, heuristic_discard(state, seat))
        return rules.play_event(state, seat, heuristic_play(state, seat))

    return choose


def heuristic_discard(state: HiifuuState, seat: int) -> list[int]:
    """Keep the two highest values to win two tricks, discard the next highest ones.

    High cards are what wins unwanted third tricks, so all but two of them go.
    """
    values = state.setup.values
    ranked = sorted(bits(state.hands[seat]), key=lambda c: (c % values, c), reverse=True)
    return ranked[2 : 2 + state.setup.discard_size]


def wants_tricks(state: HiifuuState, seat: int) -> bool:
    """Whether winning the current trick helps ``seat``.

    Below two tricks with a token still in the centre, a trick is progress (and taking early gets
    the cheap tokens while they last); with exactly two, a trick would cover the token; after a
    third the round is lost and taking tricks only denies them to the others.
    """
    won = state.tricks[seat]
    if won >= 3:
        return True
    return won < 2 and state.next_token < TOKENS_PER_ROUND


def heuristic_play(state: HiifuuState, seat: int) -> int:
    """The card index the heuristic plays now."""
    legal = legal_mask(state, seat)
    values = state.setup.values
    wants = wants_tricks(state, seat)
    if not state.table:
        pick = max if wants else min
        return pick(bits(legal), key=lambda c: c % values)
    led = state.table[0] // values
    suited = legal & state.setup.suit_mask(led)
    if not suited:  # void: any card, and it cannot win
        pick = min if wants else max
        return pick(bits(legal), key=lambda c: c % values)
    best = max(c for c in state.table if c // values == led)
    last = len(state.table) == state.n - 1
    above = suited & ~((1 << (best + 1)) - 1)
    below = suited & ((1 << best) - 1)
    if wants:
        if not above:
            return lowest(suited)
        return lowest(above) if last else highest(above)
    if below:
        return highest(below)
    return highest(suited) if last else lowest(suited)


def setup_event(
    rules: Hiifuu, game_id: str, players: int, rng: random.Random, options: Mapping[str, Any]
) -> Event:
    """A game start at the table's sizes and the tokens of ``options`` (the [default] ones)."""
    values, deal_size, discard_size = TABLE_SIZES[players]
    tokens = options.get("tokens") or DEFAULT_TOKENS
    data = {
        **simulated_seats(players, options),
        "variant": options.get("variant") or NORMAL,
        "values": values,
        "deal": deal_size,
        "discard": discard_size,
        "tokens": [list(t) for t in tokens],
    }
    return Event(game_id, 0, rules.kind, "game_start", data=json.dumps(data))


def sample_chance(rules: Hiifuu, state: HiifuuState, rng: random.Random) -> Event:
    """A deal, a round's tokens or the first leader, drawn with ``rng``."""
    if state.stage == DEAL:
        return _sample_deal(rules, state, rng)
    if state.stage == TOKENS:
        values = list((state.setup.tokens or DEFAULT_TOKENS)[state.round])  # writing a log
        if state.setup.variant == RANDOM_TOKENS:
            rng.shuffle(values)
        return rules.new_event(state, "tokens", round=state.round + 1, values=tuple(values))
    return rules.new_event(state, "first_leader", round=1, player=rng.randrange(state.n))


def _sample_deal(rules: Hiifuu, state: HiifuuState, rng: random.Random) -> Event:
    deck = state.setup.deck
    remaining = list(bits(deck.full & ~state.dealt))
    hand = sorted(rng.sample(remaining, state.setup.deal_size))
    return rules.new_event(
        state, "deal", round=state.round, player=first_undealt(state.dealt_seats),
        cards=tuple(deck.order[c] for c in hand),
    )  # fmt: skip
