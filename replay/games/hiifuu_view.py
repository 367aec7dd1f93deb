"""How Hiifuu is shown (:class:`~replay.games.presentation.Presentation`): the state as data and
text, the one-line situation. The rules are :mod:`replay.games.hiifuu`;
``replay/data/hiifuu.view.json`` is the schema of the view's ``game`` object.
"""

from __future__ import annotations

from typing import Any

from replay.games.base import (
    Presentation,
    due_words,
    hand_keys,
    seat_description,
    trick_words,
    view_start,
    winners_line,
)
from replay.games.hiifuu import PRIVATE_EVENTS, ROUNDS, Hiifuu, HiifuuState
from replay.model.cards import Deck, popcount
from replay.text import shown as shown_id


class HiifuuView(Presentation[HiifuuState]):
    """Hiifuu's states shown."""

    def __init__(self, rules: Hiifuu) -> None:
        self.rules = rules

    def view(self, state: HiifuuState, seat: int | None = None) -> dict[str, Any]:
        due = self.rules.due(state)
        setup = state.setup
        deck = setup.deck
        shown = [seat is None or seat == s for s in range(state.n)]
        discards = [
            (deck.codes(d) if d >= 0 else []) if shown[s] else None
            for s, d in enumerate(state.discards)
        ]
        return {
            **view_start(self.rules.kind, state, seat, due, setup.names),
            "round": state.round,
            "trick": state.trick_no,
            **hand_keys(deck, state.hands, seat),
            "table": [
                {"seat": (state.leader + i) % state.n, "card": deck.order[c]}
                for i, c in enumerate(state.table)
            ],
            "totals": list(state.totals),
            "over": state.over,
            "last_event": seat_description(state.last, seat, PRIVATE_EVENTS),
            "game": {
                "variant": setup.variant,
                "values": setup.values,
                "discard_size": setup.discard_size,
                "tokens": [
                    {
                        "value": v,
                        "holder": self._holder(state, i),
                        "covered": self._covered(state, i),
                    }
                    for i, v in enumerate(state.layout)
                ],
                "next_token": state.next_token,
                "tricks_won": list(state.tricks),
                "discards": discards,
                "discarded": [d >= 0 for d in state.discards],
                "leader": state.leader,
                "first_leader": state.first_leader if state.first_leader >= 0 else None,
                "winners": list(state.winners),
            },
        }

    @staticmethod
    def _holder(state: HiifuuState, index: int) -> int | None:
        for seat, held in enumerate(state.token_of):
            if held == index:
                return seat
        return None

    @staticmethod
    def _covered(state: HiifuuState, index: int) -> bool:
        seat = HiifuuView._holder(state, index)
        return seat is not None and state.covered[seat]

    def render(self, state: HiifuuState, seat: int | None = None) -> str:
        lines = [self.headline(state)]
        lines.append(f"  tokens: {self._render_tokens(state)}")
        deck = state.setup.deck
        for s in range(state.n):
            lines.append(self._render_seat(state, s, seat is None or seat == s, deck))
        lines.append(f"  table: {trick_words(state.leader, state.table, state.n, deck.order)}")
        if state.over:
            lines.append(winners_line(state.winners))
        return "\n".join(lines)

    def headline(self, state: HiifuuState) -> str:
        """The one-line situation: round, trick and what is due (first line of :meth:`render`)."""
        who = due_words(self.rules.due(state), state.over)
        return f"hiifuu round {state.round}/{ROUNDS} trick {state.trick_no}: {who}"

    def _render_tokens(self, state: HiifuuState) -> str:
        """The layout in order, e.g. ``1(seat 2) 2(seat 0, covered) 3 4``."""
        parts = []
        for i, value in enumerate(state.layout):
            holder = self._holder(state, i)
            if holder is None:
                parts.append(str(value))
            else:
                cover = ", covered" if state.covered[holder] else ""
                parts.append(f"{value}(seat {holder}{cover})")
        return " ".join(parts) or "-"

    def _render_seat(self, state: HiifuuState, s: int, shown: bool, deck: Deck) -> str:
        hand = state.hand(s)
        cards = (" ".join(deck.codes(hand)) or "-") if shown else f"({popcount(hand)} cards)"
        tricks = state.tricks[s] if state.tricks else 0
        discard = state.discards[s] if state.discards else -1
        aside = f"  discard {' '.join(deck.codes(discard))}" if shown and discard > 0 else ""
        return (
            f"  seat {s} {shown_id(state.setup.names[s]):<8} total {state.totals[s]:>3}  "
            f"tricks {tricks:>2}  {cards}{aside}"
        )


def presentation(rules: Hiifuu) -> HiifuuView:
    """Hiifuu's presentation, as :class:`~replay.games.game.Game` finds it."""
    return HiifuuView(rules)
