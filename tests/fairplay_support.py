"""The bot that sees every hand, for the fair-play signal's tests and benchmark: the solver's
best card (all cards visible) when every hand holds at most ``max_cards`` cards, the heuristic
bot's decision otherwise."""

from __future__ import annotations

import random
from typing import Any

from replay.games import get_rules
from replay.games.base import Bot
from replay.model.events import Event


def cheater(kind: str, max_cards: int = 4) -> Bot:
    rules = get_rules(kind)
    heuristic = rules.bots()["heuristic"]

    def choose(state: Any, seat: int, rng: random.Random) -> Event:
        from replay.solver import NotSolvable, solve

        honest = heuristic(state, seat, rng)
        if honest.type != "play" or any(
            state.hand(s).bit_count() > max_cards for s in range(state.n)
        ):
            return honest
        try:
            best = solve(state, line=False).best
        except NotSolvable:
            return honest
        return next(e for e in rules.legal_decisions(state, seat) if e.card == best)

    return choose
