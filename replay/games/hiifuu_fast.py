"""Hiifuu's fast path: :class:`FastHiifuu`, the rules of :mod:`replay.games.hiifuu` checked
without building what is due (:class:`~replay.games.fast.FastPath`).

The engine's hot loop (replay with checks, the audit) hands every event to
:meth:`~replay.games.fast.FastPath.advance`. Here a legal play, a correct ruling (trick won, token
taken or covered, round score), a sound deal, discard or round's tokens is checked and applied
in one pass, reading the state's packed trick, and a ruling is compared field by field instead
of being built. Every test here calls the rules of :mod:`replay.games.hiifuu` (``may_play``,
``trick_winner``, ``round_score``, ``verify_deal``, ``verify_discard``, ``verify_tokens``,
``take_trick``): no rule is written twice. Anything else answers "not sure" and goes to the
general path, which finds the precise rule broken. ``tests/test_fast_paths.py`` checks that the
registered :data:`FAST` and the plain ``replay.games.hiifuu.RULES`` give the same verdicts and
states on simulated games and their one-field mutants.

>>> from replay.games.fast import FastPath
>>> from replay.engine.simulate import simulate_game
>>> events = simulate_game(RULES, "doc", players=5, seed=3)
>>> fast, plain = FAST.replay(events), FastPath(RULES).replay(events)
>>> (fast.seq, fast.totals, fast.winners) == (plain.seq, plain.totals, plain.winners)
True
>>> fast.seq == len(events)
True
"""

from __future__ import annotations

from typing import Final

from replay.games.base import card_in_turn
from replay.games.fast import ABSENT, FastPath, is_payload
from replay.games.hiifuu import (
    DEAL,
    DISCARD,
    PLAY,
    RULES,
    SCORE,
    TAKE,
    TOKENS,
    Hiifuu,
    HiifuuState,
    may_play,
    play_card,
    round_score,
    trick_winner,
)
from replay.model.events import Event


class FastHiifuu(FastPath[HiifuuState]):
    """The engine's fast path of :class:`~replay.games.hiifuu.Hiifuu`."""

    def __init__(self, rules: Hiifuu) -> None:
        FastPath.__init__(self, rules)
        self.hiifuu = rules

    def advance(self, state: HiifuuState, event: Event) -> bool:
        """A legal play, a correct ruling, a sound deal, discard or round's tokens, checked
        and applied in one pass."""
        card = legal_play(state, event)
        if card >= 0:
            play_card(state, state.turn, card)
        elif event.seq != state.seq:
            return False
        elif self.is_due_ruling(state, event):
            winner = event.player
            if event.type == "trick_won" and winner is not None:
                self.hiifuu.take_trick(state, winner)  # the winner the rules give: checked just now
            else:
                self.hiifuu.reduce(state, event)
        elif not self.advance_dealt(state, event):
            return False
        state.seq = event.seq + 1
        state.last = event
        return True

    def verify(self, state: HiifuuState, event: Event) -> None:
        """Fast acceptance of a legal play (the common case), a deal, a discard or a round's
        tokens; anything else takes the rules' own :meth:`Hiifuu.verify`."""
        if legal_play(state, event) >= 0:
            return
        if event.seq == state.seq and self.verify_dealt(state, event):
            return
        FastPath.verify(self, state, event)

    def verify_dealt(self, state: HiifuuState, event: Event) -> bool:
        """A deal, a discard or a round's tokens where one is due (see
        :meth:`FastPath.verify_dealt`)."""
        stage = state.stage
        kind = event.type
        player = event.player
        if stage == DEAL and kind == "deal":
            self.hiifuu.verify_deal(state, event)
            return True
        if stage == TOKENS and kind == "tokens":
            self.hiifuu.verify_tokens(state, event)
            return True
        if (
            stage == DISCARD and kind == "discard" and player is not None
            and 0 <= player < state.n and state.discards[player] < 0
        ):  # fmt: skip
            self.hiifuu.verify_discard(state, player, event)
            return True
        return False

    def is_due_ruling(self, state: HiifuuState, event: Event) -> bool:
        """A trick won, a token taken or covered or a round's score as :meth:`Hiifuu.due`
        gives it, compared without building it (the same rules as ``_trick_won``,
        ``_token_due`` and ``_round_scored_due``)."""
        stage = state.stage
        kind = event.type
        if stage == SCORE:
            seat = state.scored
            score = round_score(state, seat)
            return kind == "round_scored" and is_payload(
                event, state.round, ABSENT, seat, amount=score, total=state.totals[seat] + score
            )
        if stage != PLAY:
            return False
        token_due = state.token_due
        if token_due:
            seat = state.leader
            index = state.next_token if token_due == TAKE else state.token_of[seat]
            return kind == ("token_taken" if token_due == TAKE else "token_covered") and (
                is_payload(event, state.round, ABSENT, seat, index, amount=state.layout[index])
            )
        if kind != "trick_won" or state.played != state.n:
            return False
        setup = state.setup
        winner = trick_winner(state.leader, state.table_cards, setup.values, state.n)
        cards = event.cards
        return (
            is_payload(
                event, state.round, state.trick_no, winner, total=state.tricks[winner] + 1,
                has_cards=True,
            )
            and cards is not None and setup.deck.matches_packed(cards, state.table_cards, state.n)
        )  # fmt: skip


def legal_play(state: HiifuuState, event: Event) -> int:
    """The card of ``event`` if it is a legal play now (``may_play``, the rule), numbered as
    the next one; else -1."""
    if state.stage != PLAY or state.token_due or state.played >= state.n:
        return -1
    card = card_in_turn(event, state.setup.deck, state.seq, state.turn, state.trick_no, state.round)
    if card >= 0 and may_play(state, state.turn, card):
        return card
    return -1


#: Hiifuu's fast path, as the registry hands it out (:func:`replay.games.fast_path`).
FAST: Final = FastHiifuu(RULES)
