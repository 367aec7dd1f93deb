"""Hez2's fast path: :class:`FastHez2`, the rules of :mod:`replay.games.hez2` checked without
building what is due (:class:`~replay.games.fast.FastPath`).

The engine's hot loop (replay with checks, the audit) hands every event to
:meth:`~replay.games.fast.FastPath.advance`. Here a legal decision, a card drawn from the stock and
the queued ruling (or a reshuffle) are checked and applied in one pass: the checks of
:meth:`~replay.games.rules.Rules.verify` for what is due now, without building the
:class:`~replay.games.rules.Due`, each fault returned by the rules' own functions
(``decision_fault``, ``stock_fault``) instead of raised, and a ruling compared field by field
with the queue entry it comes from. Anything else answers "not sure" and goes to the general
path, which finds the precise rule broken. ``tests/test_fast_paths.py`` checks that the
registered :data:`FAST` and the plain ``replay.games.hez2.RULES`` give the same verdicts and
states on simulated games and their one-field mutants.

>>> from replay.games.fast import FastPath
>>> from replay.engine.simulate import simulate_game
>>> events = simulate_game(RULES, "doc", players=3, seed=2)
>>> fast, plain = FAST.replay(events), FastPath(RULES).replay(events)
>>> (fast.seq, fast.payouts) == (plain.seq, plain.payouts), fast.seq == len(events)
(True, True)
"""

from __future__ import annotations

from typing import Final

from replay.games.base import round_fault
from replay.games.fast import ABSENT, FastPath, is_payload, or_absent
from replay.games.hez2 import (
    DECK,
    DECLARE,
    DRAW,
    ROUND,
    RULES,
    TURN,
    Hez2,
    Hez2State,
    queued_round,
    reshuffled,
)
from replay.model.cards import popcount
from replay.model.events import Event


class FastHez2(FastPath[Hez2State]):
    """The engine's fast path of :class:`~replay.games.hez2.Hez2`."""

    def __init__(self, rules: Hez2) -> None:
        FastPath.__init__(self, rules)
        self.hez2 = rules

    def advance(self, state: Hez2State, event: Event) -> bool:
        """A legal decision, a card drawn from the stock or the queued ruling, checked and
        applied in one pass (nearly every event)."""
        if event.seq != state.seq:
            return False
        if state.queue or (state.stage == DRAW and not state.stock):  # a ruling is due
            if not self.is_due_ruling(state, event):
                return False
        else:
            player = event.player
            if player is None or player != state.turn:
                return False
            stage = state.stage
            if stage in (TURN, DECLARE):
                if event.type not in self.hez2.decision_types:
                    return False
                if self.hez2.decision_fault(state, player, event) is not None:
                    return False
            elif stage == DRAW and state.stock and event.type == "card_drawn":
                if self.hez2.stock_fault(state, event) is not None:
                    return False
                if round_fault(event, ROUND) is not None:
                    return False
            else:
                return False
        self.hez2.reduce(state, event)
        state.seq = event.seq + 1
        state.last = event
        return True

    def is_due_ruling(self, state: Hez2State, event: Event) -> bool:
        """The first queued ruling (but ``game_end``) or a reshuffle as :meth:`Hez2.due` gives
        it, compared without building it (the same queue entry, the same cards)."""
        if not state.queue:
            if state.stage != DRAW or state.stock or event.type != "reshuffle":
                return False
            moved = reshuffled(state)
            cards = event.cards
            return (
                is_payload(event, ROUND, amount=popcount(moved), has_cards=True)
                and cards is not None and DECK.matches_mask(cards, moved)
            )  # fmt: skip
        type_, player, amount, _ = state.queue[0]
        if event.type != type_ or type_ == "game_end":
            return False
        return is_payload(
            event, or_absent(queued_round(type_)), ABSENT, or_absent(player),
            amount=or_absent(amount),
        )  # fmt: skip


#: Hez2's fast path, as the registry hands it out (:func:`replay.games.fast_path`).
FAST: Final = FastHez2(RULES)
