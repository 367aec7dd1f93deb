"""Hiifuu's fast path: :class:`FastHiifuu`, the rules of :mod:`replay.games.hiifuu` checked
without building what is due.

The engine's hot loop (replay with checks, the audit) hands every event to
:meth:`~replay.games.rules.Rules.advance`. Here a legal play, a correct ruling (trick won, token
taken or covered, round score), a sound deal, discard or round's tokens is checked and applied
in one pass, reading the state's packed trick, and a ruling is compared field by field instead
of being built. Every test here calls the rules of :mod:`replay.games.hiifuu` (``may_play``,
``trick_winner``, ``round_score``, ``verify_deal``, ``verify_discard``, ``verify_tokens``,
``take_trick``): no rule is written twice. Anything else answers "not sure" and goes to the
general path, which finds the precise rule broken. ``tests/test_fast_paths.py`` checks that the
registered :data:`RULES` and the plain ``replay.games.hiifuu.RULES`` give the same verdicts and
states on simulated games and their one-field mutants.

>>> from replay.games.hiifuu import RULES as PLAIN
>>> from replay.engine.simulate import simulate_game
>>> events = simulate_game(RULES, "doc", players=5, seed=3)
>>> fast, plain = RULES.replay(events), PLAIN.replay(events)
>>> (fast.seq, fast.totals, fast.winners) == (plain.seq, plain.totals, plain.winners)
True
>>> fast.seq == len(events)
True
"""

from __future__ import annotations

from typing import Final

from replay.games.base import card_in_turn, numbered
from replay.games.hiifuu import (
    DEAL,
    DISCARD,
    PLAY,
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


class FastHiifuu(Hiifuu):
    """:class:`~replay.games.hiifuu.Hiifuu` with the engine's fast path."""

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
                self.take_trick(state, winner)  # the winner the rules give: checked just now
            else:
                self.reduce(state, event)
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
        super().verify(state, event)

    def verify_dealt(self, state: HiifuuState, event: Event) -> bool:
        """A deal, a discard or a round's tokens where one is due (see
        :meth:`Rules.verify_dealt`)."""
        stage = state.stage
        kind = event.type
        player = event.player
        if stage == DEAL and kind == "deal":
            self.verify_deal(state, event)
            return True
        if stage == TOKENS and kind == "tokens":
            self.verify_tokens(state, event)
            return True
        if (
            stage == DISCARD and kind == "discard" and player is not None
            and 0 <= player < state.n and state.discards[player] < 0
        ):  # fmt: skip
            self.verify_discard(state, player, event)
            return True
        return False

    def is_due_ruling(self, state: HiifuuState, event: Event) -> bool:
        """A trick won, a token taken or covered or a round's score as :meth:`due` gives it,
        compared field by field (the same rules as ``_trick_won``, ``_token_due`` and
        ``_round_scored_due``)."""
        if event.card is not None or event.suit is not None or event.values is not None:
            return False
        stage = state.stage
        kind = event.type
        player = event.player
        amount = event.amount
        total = event.total
        if player is None or (stage != PLAY and stage != SCORE):
            return False
        if stage == SCORE:
            seat = state.scored
            score = round_score(state, seat)
            return (
                kind == "round_scored" and numbered(event, state.round, None)
                and event.target is None and event.cards is None and player == seat
                and amount is not None and amount == score
                and total is not None and total == state.totals[seat] + score
            )  # fmt: skip
        token_due = state.token_due
        if token_due:
            seat = state.leader
            index = state.next_token if token_due == TAKE else state.token_of[seat]
            target = event.target
            return (
                kind == ("token_taken" if token_due == TAKE else "token_covered")
                and numbered(event, state.round, None)
                and event.cards is None and total is None and player == seat
                and target is not None and target == index
                and amount is not None and amount == state.layout[index]
            )  # fmt: skip
        if kind != "trick_won" or state.played != state.n:
            return False
        setup = state.setup
        winner = trick_winner(state.leader, state.table_cards, setup.values, state.n)
        cards = event.cards
        return (
            numbered(event, state.round, state.trick_no)
            and event.target is None and amount is None and player == winner
            and total is not None and total == state.tricks[winner] + 1
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


#: The Hiifuu rules the registry hands out (:func:`replay.games.get_rules`).
RULES: Final = FastHiifuu()
