"""Hearts' fast path: :class:`FastHearts`, the rules of :mod:`replay.games.hearts` checked
without building what is due (:class:`~replay.games.fast.FastPath`).

The engine's hot loop (replay with checks, the audit) hands every event to
:meth:`~replay.games.fast.FastPath.advance`. Here a legal play, a correct ruling (trick won, hand
score), a sound deal or pass is checked and applied in one pass, reading the state's packed
table, and a ruling is compared field by field instead of being built. Every test here calls
the rules of :mod:`replay.games.hearts` (``legal_mask``, ``trick_winner``, ``trick_points``,
``round_score``): no rule is written twice. Anything else answers "not sure" and goes to the
general path, which finds the precise rule broken. ``tests/test_fast_paths.py`` checks that the
registered :data:`FAST` and the plain ``replay.games.hearts.RULES`` give the same verdicts and
states on simulated games and their one-field mutants.

>>> from replay.games.fast import FastPath
>>> from replay.engine.simulate import simulate_game
>>> events = simulate_game(RULES, "doc", players=4, seed=2)
>>> fast, plain = FAST.replay(events), FastPath(RULES).replay(events)
>>> (fast.seq, fast.totals) == (plain.seq, plain.totals), fast.seq == len(events)
(True, True)
"""

from __future__ import annotations

from typing import Final

from replay.games.base import card_in_turn
from replay.games.fast import ABSENT, FastPath, is_payload
from replay.games.hearts import (
    DEAL,
    DECK,
    PASS,
    PLAY,
    RULES,
    SCORE,
    Hearts,
    HeartsState,
    legal_mask,
    play_card,
    round_score,
    trick_points,
    trick_winner,
)
from replay.model.events import Event


class FastHearts(FastPath[HeartsState]):
    """The engine's fast path of :class:`~replay.games.hearts.Hearts`."""

    def __init__(self, rules: Hearts) -> None:
        FastPath.__init__(self, rules)
        self.hearts = rules

    def advance(self, state: HeartsState, event: Event) -> bool:
        """A legal play, a correct ruling (trick won, hand score), a sound deal or pass,
        checked and applied in one pass (all but the game's end)."""
        card = legal_play(state, event)
        if card >= 0:
            play_card(state, state.turn, card)
        elif event.seq != state.seq:
            return False
        elif self.is_due_ruling(state, event):
            self.hearts.reduce(state, event)
        elif not self.advance_dealt(state, event):
            return False
        state.seq = event.seq + 1
        state.last = event
        return True

    def verify(self, state: HeartsState, event: Event) -> None:
        """Fast acceptance of a legal play (the common case), a deal or a pass; anything else
        takes the rules' own :meth:`Hearts.verify` (:meth:`FastPath.verify`)."""
        if legal_play(state, event) >= 0:
            return
        if event.seq == state.seq and self.verify_dealt(state, event):
            return
        FastPath.verify(self, state, event)

    def verify_dealt(self, state: HeartsState, event: Event) -> bool:
        """A deal or a pass where one is due (see :meth:`FastPath.verify_dealt`)."""
        stage = state.stage
        kind = event.type
        if stage == DEAL and kind == "deal":
            self.hearts.verify_chance(state, event)
            return True
        player = event.player
        if (
            stage == PASS and kind == "pass"
            and player is not None and 0 <= player < 4 and state.passes[player] < 0
        ):  # fmt: skip
            self.hearts.verify_pass(state, player, event)
            return True
        return False

    def is_due_ruling(self, state: HeartsState, event: Event) -> bool:
        """A trick won or a hand's score as :meth:`Hearts.due` gives it, compared without
        building it (the same rules as ``_trick_won`` and ``_round_scored_due``)."""
        stage = state.stage
        kind = event.type
        if stage == PLAY and kind == "trick_won" and state.played == 4:
            table = state.table_cards
            cards = event.cards
            return (
                is_payload(
                    event, state.hand_no, state.trick_no, trick_winner(state.leader, table),
                    amount=trick_points(table), has_cards=True,
                )
                and cards is not None and DECK.matches_packed(cards, table, 4)
            )  # fmt: skip
        if stage == SCORE and kind == "round_scored":
            seat = state.scored
            amount = round_score(state.taken, seat)
            return is_payload(
                event, state.hand_no, ABSENT, seat, amount=amount, total=state.totals[seat] + amount
            )
        return False


def legal_play(state: HeartsState, event: Event) -> int:
    """The card of ``event`` if it is a legal play now (``legal_mask``, the rule), numbered as
    the next one; else -1."""
    if state.stage != PLAY or state.played == 4:
        return -1
    card = card_in_turn(event, DECK, state.seq, state.turn, state.trick_no, state.hand_no)
    if card >= 0 and legal_mask(state, state.turn) >> card & 1:
        return card
    return -1


#: Hearts' fast path, as the registry hands it out (:func:`replay.games.fast_path`).
FAST: Final = FastHearts(RULES)
