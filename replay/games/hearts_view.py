"""How Hearts is shown (:class:`~replay.games.presentation.Presentation`): the state as data and
text, the one-line situation, where each seat stands. The rules are :mod:`replay.games.hearts`;
``replay/data/hearts.view.json`` is the schema of the view's ``game`` object.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from replay.games.base import (
    Presentation,
    hand_keys,
    seat_description,
    trick_words,
    view_start,
    winners_line,
)
from replay.games.hearts import DECK, PASS_NAMES, PRIVATE_EVENTS, Hearts, HeartsState, pass_offset
from replay.model.cards import popcount
from replay.text import shown as shown_id


class HeartsView(Presentation[HeartsState]):
    """Hearts' states shown."""

    def __init__(self, rules: Hearts) -> None:
        self.rules = rules

    def standing(self, view: Mapping[str, Any]) -> dict[str, list[Any]]:
        """Penalty points so far (the fewest wins)."""
        return {"points": list(view["totals"])}

    def view(self, state: HeartsState, seat: int | None = None) -> dict[str, Any]:
        due = self.rules.due(state)
        passes: list[list[str] | None] = [
            (DECK.codes(p) if p >= 0 else []) if seat is None or seat == s else None
            for s, p in enumerate(state.passes)
        ]
        return {
            **view_start(self.rules.kind, state, seat, due, state.names),
            "round": state.hand_no,
            "trick": state.trick_no,
            **hand_keys(DECK, state.hands, seat),
            "table": [
                {"seat": (state.leader + i) % 4, "card": DECK.order[c]}
                for i, c in enumerate(state.table)
            ],
            "totals": list(state.totals),
            "over": state.over,
            "last_event": seat_description(state.last, seat, PRIVATE_EVENTS),
            "game": {
                "pass": PASS_NAMES[pass_offset(state.hand_no)],
                "passes": passes,
                "hearts_broken": state.broken,
                "points_this_hand": list(state.taken),
                "leader": state.leader,
                "winners": list(state.winners),
            },
        }

    def render(self, state: HeartsState, seat: int | None = None) -> str:
        lines = [self.headline(state)]
        for s in range(4):
            hand = state.hand(s)
            shown = seat is None or seat == s
            cards = " ".join(DECK.codes(hand)) if shown else f"({popcount(hand)} cards)"
            lines.append(
                f"  seat {s} {shown_id(state.names[s]):<8} total {state.totals[s]:>3}  "
                f"hand pts {state.taken[s]:>2}  {cards}"
            )
        table = trick_words(state.leader, state.table, 4, DECK.order)
        lines.append(f"  table: {table}   hearts broken: {'yes' if state.broken else 'no'}")
        if state.over:
            lines.append(winners_line(state.winners))
        return "\n".join(lines)

    def headline(self, state: HeartsState) -> str:
        """The one-line situation: hand (and its pass), trick and what is due (first line of
        :meth:`render`)."""
        due = self.rules.due(state)
        who = "over" if state.over else f"{due.what} by seat {','.join(map(str, due.seats))}"
        if due.phase.value == "ruling":
            who = f"ruling {due.what} due"
        return (
            f"hearts hand {state.hand_no} ({PASS_NAMES[pass_offset(state.hand_no)]}) "
            f"trick {state.trick_no}: {who}"
        )


def presentation(rules: Hearts) -> HeartsView:
    """Hearts' presentation, as :class:`~replay.games.game.Game` finds it."""
    return HeartsView(rules)
