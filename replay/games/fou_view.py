"""How Fou! is shown (:class:`~replay.games.presentation.Presentation`): the state as data and
text, the one-line situation. The rules are :mod:`replay.games.fou`;
``replay/data/fou.view.json`` is the schema of the view's ``game`` object.
"""

from __future__ import annotations

from typing import Any

from replay.games.base import (
    Phase,
    Presentation,
    hand_keys,
    seat_description,
    view_start,
    winners_line,
)
from replay.games.fou import (
    COLOUR_NAMES,
    DECK,
    FOOL,
    PRIVATE_EVENTS,
    Fou,
    FouState,
    card_name,
)
from replay.model.cards import popcount
from replay.text import shown as shown_id


class FouView(Presentation[FouState]):
    """Fou!'s states shown."""

    def __init__(self, rules: Fou) -> None:
        self.rules = rules

    def view(self, state: FouState, seat: int | None = None) -> dict[str, Any]:
        due = self.rules.due(state)
        table = _current_trick(state)
        return {
            **view_start(self.rules.kind, state, seat, due, state.names),
            "round": state.round,
            "trick": state.trick,
            **hand_keys(DECK, state.hands, seat),
            "table": [{"seat": s, "card": card_name(c)} for s, c in table],
            "totals": list(state.totals),
            "over": state.over,
            "last_event": seat_description(state.last, seat, PRIVATE_EVENTS),
            "game": {
                "deck_size": popcount(state.deck),
                "dealer": self.dealer(state),
                "round_leader": state.round_leader,
                "leader": state.leader,
                "led_colour": describe_colour(state.led if table else -1),
                "sitting_out": [s for s in range(state.n) if state.out >> s & 1],
                "fools": list(state.fools),
                "plus_rounds": list(state.plus),
                "winners": list(state.winners),
            },
        }

    def dealer(self, state: FouState) -> int | None:
        """The dealer of the current round (rotating clockwise from the first dealer)."""
        if state.first_dealer < 0:
            return None
        return (state.first_dealer + state.round - 1) % state.n

    def render(self, state: FouState, seat: int | None = None) -> str:
        lines = [self.headline(state)]
        for s in range(state.n):
            hand = state.hand(s)
            shown = seat is None or seat == s
            cards = " ".join(DECK.codes(hand)) if shown else f"({popcount(hand)} cards)"
            status = "sits out" if state.out >> s & 1 else "Fool" if s in state.fools else ""
            line = (
                f"  seat {s} {shown_id(state.names[s]):<8} total {state.totals[s]:>4}  "
                f"+10 x{state.plus[s]}  {status:<8}  {cards}"
            )
            lines.append(line.rstrip())
        trick = " ".join(
            f"{s}:{card_name(c)}" for s, c in zip(state.table_seats, state.table, strict=True)
        )
        if state.stage == FOOL:
            lines.append(f"  last trick: {trick}")
        else:
            led = describe_colour(state.led if state.played else -1)
            lines.append(f"  table: {trick or '-'}   led: {led}")
        if state.over:
            lines.append(winners_line(state.winners))
        return "\n".join(lines)

    def headline(self, state: FouState) -> str:
        """The one-line situation: round, trick and what is due (first line of :meth:`render`)."""
        due = self.rules.due(state)
        if state.over:
            who = "over"
        elif due.phase is Phase.RULING:
            who = f"ruling {due.what} due"
        elif due.phase is Phase.DECISION:
            who = f"play by seat {due.seats[0]}"
        else:
            who = f"{due.what} due"
        return f"fou round {state.round} trick {state.trick}: {who}"


def describe_colour(colour: int) -> str:
    """A colour's name (``none`` when no colour is set)."""
    return COLOUR_NAMES[colour] if 0 <= colour < 4 else "none"


def _current_trick(state: FouState) -> list[tuple[int, int]]:
    """The (seat, card) of the trick in play: none while its Fools are named (it is over)."""
    if state.stage == FOOL:
        return []
    return list(zip(state.table_seats, state.table, strict=True))


def presentation(rules: Fou) -> FouView:
    """Fou!'s presentation, as :class:`~replay.games.game.Game` finds it."""
    return FouView(rules)
