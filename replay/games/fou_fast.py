"""Fou!'s fast path: :class:`FastFou`, the rules of :mod:`replay.games.fou` checked without
building what is due (:class:`~replay.games.fast.FastPath`).

The engine's hot loop (replay with checks, the audit) hands every event to
:meth:`~replay.games.fast.FastPath.advance`. Here a legal play, a correct ruling (trick won, Fool,
round score) or a sound deal is checked and applied in one pass, reading the state's packed
table and the two native halves of each hand (:mod:`replay.games.split_hands`), and a ruling
is compared field by field instead of being built. Every test here calls the rules of
:mod:`replay.games.fou` (``may_play`` in its form on the halves, ``trick_winner_seat``,
``fool_due_position``, ``second_fool_position``, ``round_score``, ``verify_deal``): no rule is
written twice. Anything else answers "not sure" and goes to the general path, which finds the
precise rule broken. ``tests/test_fast_paths.py`` checks that the registered :data:`FAST` and
the plain ``replay.games.fou.RULES`` give the same verdicts and states on simulated games and
their one-field mutants.

>>> from replay.games.fast import FastPath
>>> from replay.engine.simulate import simulate_game
>>> events = simulate_game(RULES, "doc", players=7, seed=4)
>>> fast, plain = FAST.replay(events), FastPath(RULES).replay(events)
>>> (fast.seq, fast.totals, fast.plus) == (plain.seq, plain.totals, plain.plus)
True
>>> fast.seq == len(events), fast.over
(True, True)
"""

from __future__ import annotations

from typing import Final

from replay.games.base import RuleViolation, card_in_turn
from replay.games.fast import ABSENT, FastPath, is_payload
from replay.games.fou import (
    COLOUR,
    COLOUR_MASK,
    DEAL,
    DECK,
    FOOL,
    ONE,
    PLAY,
    RULES,
    SCORE,
    Fou,
    FouState,
    fool_due_position,
    play_card,
    second_fool_position,
    trick_winner_seat,
)
from replay.games.split_hands import HALF_POS, SPLIT
from replay.model.events import Event
from replay.model.packed import CARD_BITS, SEAT_BITS, nth

#: Each colour's cards in its half of a hand (green and red low, yellow and blue high: each
#: colour lies in one half, so following it is one test of one half).
assert len(DECK) == 88 and DECK.index("Y2") == SPLIT and COLOUR_MASK[1] >> SPLIT == 0
HALF_COLOUR_MASK: Final[tuple[int, ...]] = tuple(
    COLOUR_MASK[c] if c < 2 else COLOUR_MASK[c] >> SPLIT for c in range(4)
)


class FastFou(FastPath[FouState]):
    """The engine's fast path of :class:`~replay.games.fou.Fou`."""

    def __init__(self, rules: Fou) -> None:
        FastPath.__init__(self, rules)
        self.fou = rules

    def advance(self, state: FouState, event: Event) -> bool:
        """A legal play, a correct ruling or a sound deal, checked and applied in one pass."""
        card = legal_play(state, event)
        if card >= 0:
            play_card(state, state.turn, card)
        elif event.seq != state.seq:
            return False
        elif self.is_due_ruling(state, event):
            self.fou.reduce(state, event)
        elif state.stage == DEAL and event.type == "deal":
            try:
                low, high = self.fou.verify_deal(state, event)
            except RuleViolation:
                return False  # verify() raises it again
            seat = event.player
            assert seat is not None  # checked by verify_deal
            self.fou.deal_hand(state, seat, low, high)
        else:
            return False
        state.seq = event.seq + 1
        state.last = event
        return True

    def verify(self, state: FouState, event: Event) -> None:
        """Fast acceptance of a legal play (the common case) or a deal; anything else takes
        the rules' own :meth:`Fou.verify`."""
        if legal_play(state, event) >= 0:
            return
        if event.seq == state.seq and self.verify_dealt(state, event):
            return
        FastPath.verify(self, state, event)

    def verify_dealt(self, state: FouState, event: Event) -> bool:
        """A deal where one is due (see :meth:`FastPath.verify_dealt`; a fault is worded as
        :meth:`Fou.verify` words it: none at the deal is refined)."""
        if state.stage == DEAL and event.type == "deal":
            self.fou.verify_deal(state, event)
            return True
        return False

    def is_due_ruling(self, state: FouState, event: Event) -> bool:
        """A trick won, a Fool or a round's score as :meth:`Fou.due` gives it (or, at 7-8
        players, the second Fool first, which :meth:`Fou.verify` accepts), compared without
        building it (the same rules as :meth:`Fou.due` and ``fool_at``)."""
        stage = state.stage
        kind = event.type
        player = event.player
        if player is None:
            return False
        if stage == PLAY and kind == "trick_won" and state.played == state.need:
            cards = event.cards
            return (
                is_payload(
                    event, state.round, state.trick, trick_winner_seat(state), has_cards=True
                )
                and cards is not None
                and DECK.matches_packed(cards, state.table_cards, state.played)
            )  # fmt: skip
        if stage == FOOL and kind == "fool":
            if self._names_fool(state, event, fool_due_position(state)):
                return True
            second = second_fool_position(state)
            return second >= 0 and self._names_fool(state, event, second)
        if stage == SCORE and kind == "round_scored":
            seat = state.scored
            amount = self.fou.round_score(state, seat)
            return is_payload(
                event, state.round, ABSENT, seat, amount=amount, total=state.totals[seat] + amount
            )
        return False

    def _names_fool(self, state: FouState, event: Event, pos: int) -> bool:
        """Whether ``event`` names the player and the card at ``pos`` of the last trick as a
        Fool, numbered in the trick: ``fool_at``'s event, compared without building it."""
        return is_payload(
            event,
            state.round,
            state.trick,
            nth(state.table_players, pos, SEAT_BITS),
            card=DECK.order[nth(state.table_cards, pos, CARD_BITS)],
        )


def legal_play(state: FouState, event: Event) -> int:
    """The card of ``event`` if it is a legal play now (``_may_play_now``, FOU-FOLLOW),
    numbered as the next one; else -1."""
    if state.stage != PLAY or state.played >= state.need:
        return -1
    card = card_in_turn(event, DECK, state.seq, state.turn, state.trick, state.round)
    if card >= 0 and _may_play_now(state, state.turn, card):
        return card
    return -1


def _may_play_now(state: FouState, seat: int, card: int) -> bool:
    """:func:`~replay.games.fou.may_play` on the halves of ``seat``'s hand (FOU-FOLLOW's fast
    form, tested equal to it: no long int built; :meth:`~SplitHandsState.holds` written out,
    one call less)."""
    half = state.low(seat) if card < SPLIT else state.high(seat)
    if not half >> HALF_POS[card] & 1:
        return False
    led = state.led
    if led < 0:
        return True
    colour = COLOUR[card]
    if colour in (ONE, led):
        return True
    suited = state.low(seat) if led < 2 else state.high(seat)
    return not suited & HALF_COLOUR_MASK[led]


#: Fou!'s fast path, as the registry hands it out (:func:`replay.games.fast_path`).
FAST: Final = FastFou(RULES)
