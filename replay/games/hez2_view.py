"""How Hez2 is shown (:class:`~replay.games.presentation.Presentation`): the state as data and
text, the one-line situation, where each seat stands. The rules are :mod:`replay.games.hez2`;
``replay/data/hez2.view.json`` is the schema of the view's ``game`` object.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from replay.games.base import Presentation, due_words, hand_keys, seat_description, view_start
from replay.games.hez2 import (
    DEAL,
    DECK,
    PRIVATE_EVENTS,
    ROUND,
    SUIT_NAMES,
    SUITS,
    Hez2,
    Hez2State,
    net_winnings,
)
from replay.model.cards import popcount
from replay.text import shown as shown_id


class Hez2View(Presentation[Hez2State]):
    """Hez2's states shown."""

    def __init__(self, rules: Hez2) -> None:
        self.rules = rules

    def view(self, state: Hez2State, seat: int | None = None) -> dict[str, Any]:
        due = self.rules.due(state)
        table = []
        if state.top >= 0:
            owner = state.top_seat if state.top_seat >= 0 else None
            table.append({"seat": owner, "card": DECK.order[state.top]})
        return {
            **view_start(self.rules.kind, state, seat, due, state.names),
            "round": ROUND,
            "trick": None,
            **hand_keys(DECK, state.hands, seat),
            "table": table,
            "totals": net_winnings(state),
            "over": state.over,
            "last_event": seat_description(state.last, seat, PRIVATE_EVENTS),
            "game": {
                "suit": SUITS[state.suit] if state.suit >= 0 else None,
                "pending_skip": state.pending_skip,
                "pending_draw": state.pending_draw,
                "stock_size": popcount(state.stock) if state.stage != DEAL else None,
                "discard_size": popcount(state.discard),
                "dealer": state.dealer,
                "bots": list(state.bots),
                "stakes": list(state.stakes),
                "places": list(state.places),
                "payouts": list(state.payouts),
                "turns": state.turns,
            },
        }

    def standing(self, view: Mapping[str, Any]) -> dict[str, list[Any]]:
        """Cards left in each hand (the fewest leads), the place of each seat gone out, and
        once paid, the net winnings."""
        places = list(view["game"]["places"])
        figures: dict[str, list[Any]] = {
            "cards left": list(view["hand_sizes"]),
            "place": [places.index(s) + 1 if s in places else None for s in range(view["players"])],
        }
        if view["over"] and any(s is not None for s in view["game"]["stakes"]):
            figures["net winnings"] = list(view["totals"])
        return figures

    def render(self, state: Hez2State, seat: int | None = None) -> str:
        lines = [self.headline(state)]
        place_of = {s: i + 1 for i, s in enumerate(state.places)}
        for s in range(state.n):
            hand = state.hands[s]
            shown = seat is None or seat == s
            cards = " ".join(DECK.codes(hand)) if shown else f"({popcount(hand)} cards)"
            who = "bot" if state.bots[s] else "human"
            stake = state.stakes[s]
            money = f" stake {stake}" if stake is not None else ""
            if state.over and stake is not None:
                money += f" paid {state.payouts[s]}"
            place = f" place {place_of[s]}" if s in place_of else ""
            name = shown_id(state.names[s])
            lines.append(f"  seat {s} {name:<8} {who}{money}{place}: {cards or '-'}")
        pending = ""
        if state.pending_skip:
            pending = "  pending: skip"
        elif state.pending_draw:
            pending = f"  pending: draw {state.pending_draw}"
        lines.append(f"  stock {popcount(state.stock)}  discard {popcount(state.discard)}{pending}")
        return "\n".join(lines)

    def headline(self, state: Hez2State) -> str:
        """The one-line summary that heads :meth:`render`: turn count, what is due, the top."""
        who = due_words(self.rules.due(state), state.over, "")
        top = "-"
        if state.top >= 0:
            top = f"{DECK.order[state.top]} ({SUIT_NAMES[state.suit]} to follow)"
        return f"hez2 round {ROUND} turn {state.turns}: {who}; top {top}"


def presentation(rules: Hez2) -> Hez2View:
    """Hez2's presentation, as :class:`~replay.games.game.Game` finds it."""
    return Hez2View(rules)
