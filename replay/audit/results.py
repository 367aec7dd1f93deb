"""Each game's result as the rules compute it, beside the one its log records.

``replay games --json`` gives both for every game, so that a program can compare them without
the Python API: the recomputed result is what the rules give after walking the log (a wrong
ruling replaced by the rules' own, as the audit does), the recorded one what the log's
``game_end`` and payout events say.

>>> from replay.games import get_rules
>>> from replay.engine.simulate import simulate_game
>>> events = simulate_game(get_rules("hez2"), "doc", players=3, seed=4)
>>> result = recomputed_result(events)
>>> result["over"], sorted(result["places"])
(True, [0, 1, 2])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from replay.engine import walk
from replay.games import UnknownGame, get_rules
from replay.games.base import RuleViolation
from replay.model.events import Event


def recomputed_result(events: Sequence[Event]) -> dict[str, Any]:
    """The result of one game (its events in seq order, ``game_start`` first) as the rules
    compute it: the game's own keys (``winners``, ``totals``, ``places``, ``payouts``...),
    ``over`` (whether the game reached its end) and ``seq`` (the last event the rules could
    apply). A log the rules cannot start gives ``{"over": False, "seq": None}`` and the
    reason."""
    try:
        rules = get_rules(events[0].kind)
        state = None
        for step in walk(rules, list(events), faults_only=True):
            state = step.state  # the working state: the last one yielded is the final state
    except (UnknownGame, RuleViolation) as exc:
        return {"over": False, "seq": None, "error": str(exc)}
    assert state is not None
    return {**rules.result(state), "over": bool(state.over), "seq": state.seq - 1}
