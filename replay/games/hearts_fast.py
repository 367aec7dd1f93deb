"""Hearts' fast path: :class:`FastHearts`, the rules of :mod:`replay.games.hearts` checked
without building what is due (:class:`~replay.games.fast.FastPath`).

The engine's hot loop (replay with checks, the audit) hands every event to
:meth:`FastHearts.advance`, which goes by the event's type: a legal play, a correct ruling
(trick won, hand score), a sound deal or pass is checked and applied in one pass; anything else
answers "not sure" and goes to the general path, which finds the precise rule broken.

A play (two events in three) and a trick won (one in six) are checked and applied here on the
state's native fields, with no call into the plain rules: :func:`is_legal_play` is
``legal_mask`` of :mod:`replay.games.hearts` for one card (HEARTS-FIRST-LEAD, HEARTS-FOLLOW,
HEARTS-FIRST-TRICK, HEARTS-BREAK), :func:`apply_play` its ``play_card``,
:func:`trick_winner_and_points` its ``trick_winner`` and ``trick_points`` (HEARTS-TRICK,
HEARTS-POINTS); :func:`advance_trick_won`, :func:`advance_deal` and :func:`advance_pass`
apply what the reducer does with those events (but the hand's last deal and pass, which start
the passing and the play: the rules' own ``reduce``). Every other check calls the rules
(``round_score``, ``verify_chance``, ``verify_pass``, ``reduce``).
``tests/test_fast_paths.py`` checks that the registered :data:`FAST` and the plain
``replay.games.hearts.RULES`` give the same verdicts and states on simulated games, their
one-field mutants and every card of the deck played at every play.

>>> from replay.games.fast import FastPath
>>> from replay.engine.simulate import simulate_game
>>> events = simulate_game(RULES, "doc", players=4, seed=2)
>>> fast, plain = FAST.replay(events), FastPath(RULES).replay(events)
>>> (fast.seq, fast.totals) == (plain.seq, plain.totals), fast.seq == len(events)
(True, True)
"""

from __future__ import annotations

from typing import Final

from mypy_extensions import i64

from replay.games.fast import ABSENT, FastPath, is_payload
from replay.games.hearts import (
    DEAL,
    DECK,
    HAND_SIZE,
    HEARTS,
    HEARTS_MASK,
    PASS,
    PASS_SIZE,
    PLAY,
    POINT_CARDS,
    QUEEN_OF_SPADES,
    RULES,
    SCORE,
    TRICKS,
    TWO_OF_CLUBS,
    Hearts,
    HeartsState,
    pass_offset,
    round_score,
)
from replay.games.native import all_recorded, replace_at
from replay.model.cards import popcount
from replay.model.events import Event
from replay.model.packed import CARD_BITS, nth, placed

#: A suit's 13 cards, as the lowest suit's bits (shifted to a suit by ``placed``).
SUIT_BITS: Final[i64] = 0x1FFF
#: The bits of one card packed in a trick (:data:`~replay.model.packed.CARD_BITS`).
CARD_MASK: Final[i64] = 0x7F
#: The first heart's index: a card from here on is a heart.
FIRST_HEART: Final[i64] = HEARTS * HAND_SIZE


class FastHearts(FastPath[HeartsState]):
    """The engine's fast path of :class:`~replay.games.hearts.Hearts`."""

    def __init__(self, rules: Hearts) -> None:
        FastPath.__init__(self, rules)
        self.hearts = rules

    def advance(self, state: HeartsState, event: Event) -> bool:
        """A legal play, a correct ruling (trick won, hand score), a sound deal or pass,
        checked and applied in one pass (all but the game's end)."""
        seq = state.seq
        if event.seq != seq:
            return False
        kind = event.type
        if kind == "play":
            if not advance_play(state, event):
                return False
        elif kind == "trick_won":
            if not advance_trick_won(state, event):
                return False
        elif kind == "round_scored":
            if not round_scored_due(state, event):
                return False
            self.hearts.reduce(state, event)
        elif kind == "deal":
            if not advance_deal(state, event):
                return False
        elif kind != "pass" or not advance_pass(state, event):
            return False
        state.seq = seq + 1
        state.last = event
        return True

    def verify(self, state: HeartsState, event: Event) -> None:
        """Fast acceptance of a legal play (the common case), a deal or a pass; anything else
        takes the rules' own :meth:`Hearts.verify` (:meth:`FastPath.verify`)."""
        if event.seq == state.seq:
            if event.type == "play" and play_card_of(state, event) >= 0:
                return
            if self.verify_dealt(state, event):
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
        kind = event.type
        if kind == "trick_won":
            return trick_won_due(state, event) >= 0
        if kind == "round_scored":
            return round_scored_due(state, event)
        return False


def advance_play(state: HeartsState, event: Event) -> bool:
    """Apply ``event`` if it is a legal play numbered as the next one (:func:`play_of`);
    False, the state untouched, otherwise."""
    card, hand = play_of(state, event)
    if card < 0:
        return False
    apply_play(state, card, hand)
    return True


def play_card_of(state: HeartsState, event: Event) -> i64:
    """The card of ``event`` if it is a legal play by the seat in turn, numbered as the next
    one in this trick and hand (its type and sequence number are the caller's to check); else
    -1."""
    return play_of(state, event)[0]


def play_of(state: HeartsState, event: Event) -> tuple[i64, i64]:
    """:func:`play_card_of`, and the hand of the seat in turn."""
    played: i64 = state.played
    if state.stage != PLAY or played == 4:
        return -1, 0
    player = event.player
    trick = event.trick
    round_ = event.round
    code = event.card
    if (
        player is None or player != state.turn
        or trick is None or trick != state.trick_no
        or round_ is None or round_ != state.hand_no
        or code is None
    ):  # fmt: skip
        return -1, 0
    card: i64 = DECK.find(code)
    if card < 0:
        return -1, 0
    hand = seat_hand(state, player)
    if not is_legal_play(state, hand, card, played):
        return -1, 0
    return card, hand


def is_legal_play(state: HeartsState, hand: i64, card: i64, played: i64) -> bool:
    """Whether ``card`` (an index) is in ``hand``, the hand of the seat in turn, and one it may
    play now: ``legal_mask`` of :mod:`replay.games.hearts` for one card (HEARTS-FIRST-LEAD,
    HEARTS-BREAK when leading; HEARTS-FOLLOW, HEARTS-FIRST-TRICK when following)."""
    if not hand >> card & 1:
        return False
    if played == 0:
        if state.trick_no == 1:
            return card == TWO_OF_CLUBS
        # a heart only once broken, or from a hand of hearts alone
        return card < FIRST_HEART or state.broken or hand & ~HEARTS_MASK == 0
    led: i64 = nth(state.table_cards, 0, CARD_BITS) // HAND_SIZE
    if card // HAND_SIZE == led:
        return True
    if hand & placed(SUIT_BITS, led, HAND_SIZE):
        return False  # it holds the led suit
    # no point card on the first trick, unless the hand holds nothing else
    return state.trick_no != 1 or not POINT_CARDS >> card & 1 or hand & ~POINT_CARDS == 0


def apply_play(state: HeartsState, card: i64, hand: i64) -> None:
    """The seat in turn, holding ``hand``, plays ``card``: ``play_card`` of
    :mod:`replay.games.hearts`."""
    seat: i64 = state.turn
    played: i64 = state.played
    set_seat_hand(state, seat, hand & ~placed(1, card, 1))
    state.table_cards |= placed(card, played, CARD_BITS)
    state.played = played + 1
    if card >= FIRST_HEART:
        state.broken = True
    if seat == 3:
        state.turn = 0
    else:
        state.turn = seat + 1


def trick_won_due(state: HeartsState, event: Event) -> i64:
    """The winner of the trick on the table if ``event`` (a ``trick_won``) is exactly the
    ruling due (as ``Hearts._trick_won`` builds it: :func:`trick_winner_and_points`, the cards
    in play order); else -1."""
    if state.stage != PLAY or state.played != 4:
        return -1
    table: i64 = state.table_cards
    winner, points = trick_winner_and_points(state.leader, table)
    cards = event.cards
    if (
        is_payload(
            event, state.hand_no, state.trick_no, winner, amount=points, has_cards=True
        )
        and cards is not None and DECK.matches_packed(cards, table, 4)
    ):  # fmt: skip
        return winner
    return -1


def trick_winner_and_points(leader: i64, table: i64) -> tuple[i64, i64]:
    """The seat that wins the complete trick ``table`` led by ``leader``, and the trick's
    points: ``trick_winner`` and ``trick_points`` of :mod:`replay.games.hearts` in one
    pass over the four cards (HEARTS-TRICK: the highest card of the led suit; HEARTS-POINTS: a
    point a heart, 13 the queen of spades)."""
    best: i64 = table & CARD_MASK
    led: i64 = best // HAND_SIZE
    best_at: i64 = 0
    points: i64 = 0
    for position in range(4):
        card: i64 = table >> position * CARD_BITS & CARD_MASK
        if card // HAND_SIZE == led and card > best:
            best, best_at = card, position
        if card >= FIRST_HEART:
            points += 1
        elif card == QUEEN_OF_SPADES:
            points += 13
    winner = leader + best_at
    if winner >= 4:
        winner -= 4
    return winner, points


def advance_trick_won(state: HeartsState, event: Event) -> bool:
    """Apply ``event`` if it is the trick won that is due (:func:`trick_won_due`): the
    reducer of a ``trick_won`` (``Hearts.reduce``), its winner takes its points and
    leads the next trick, or the hand is scored after the last; False, the state untouched,
    otherwise."""
    winner = trick_won_due(state, event)
    if winner < 0:
        return False
    points = event.amount
    assert points is not None
    taken = state.taken
    before: int = taken[winner]
    taken[winner] = before + points
    state.played = state.table_cards = 0
    state.leader = state.turn = winner
    if state.trick_no == TRICKS:
        state.stage = SCORE
    else:
        state.trick_no += 1
    return True


def advance_deal(state: HeartsState, event: Event) -> bool:
    """Apply ``event``, a deal, if it is sound: ``Hearts.verify_chance`` (a seat not dealt yet
    this hand, 13 cards of the deck, none dealt before) and ``Hearts._reduce_deal`` (after the
    fourth, the passing or, in a hand that keeps, the play begins: HEARTS-PASS); False, the
    state untouched, otherwise."""
    seat = event.player
    round_ = event.round
    cards = event.cards
    if (
        state.stage != DEAL or seat is None or not 0 <= seat < 4 or state.dealt_seats >> seat & 1
        or round_ is None or round_ != state.hand_no
        or cards is None or len(cards) != HAND_SIZE
    ):  # fmt: skip
        return False
    mask = card_set(cards, HAND_SIZE)
    if mask < 0 or mask & state.dealt:
        return False
    set_seat_hand(state, seat, mask)
    state.dealt |= mask
    state.deals += 1
    state.dealt_seats |= placed(1, seat, 1)
    if state.deals == 4:
        if pass_offset(state.hand_no):
            state.stage = PASS
        else:
            start_play(state)
    return True


def advance_pass(state: HeartsState, event: Event) -> bool:
    """Apply ``event``, a pass, if it is sound: ``Hearts.verify_pass`` (a seat that has not
    passed, three cards it holds, to the seat this hand passes to) and ``Hearts._reduce_pass``
    (the cards leave the hand; once all four have passed, each seat receives its cards and
    the play begins); False, the state untouched, otherwise."""
    seat = event.player
    round_ = event.round
    target = event.target
    cards = event.cards
    passes = state.passes
    if (
        state.stage != PASS or seat is None or not 0 <= seat < 4 or passes[seat] >= 0
        or round_ is None or round_ != state.hand_no
        or target is None or target != (seat + pass_offset(state.hand_no)) % 4
        or cards is None or len(cards) != PASS_SIZE
    ):  # fmt: skip
        return False
    mask = card_set(cards, PASS_SIZE)
    hand = seat_hand(state, seat)
    if mask < 0 or mask & ~hand:
        return False
    passes = state.passes = replace_at(passes, seat, mask)
    set_seat_hand(state, seat, hand & ~mask)
    if all_recorded(passes):
        offset = pass_offset(state.hand_no)
        for giver in range(4):
            receiver = (giver + offset) % 4
            set_seat_hand(state, receiver, seat_hand(state, receiver) | passes[giver])
        start_play(state)
    return True


def start_play(state: HeartsState) -> None:
    """The play begins, led by the holder of the two of clubs (``Hearts._start_play``,
    HEARTS-FIRST-LEAD)."""
    holder: i64 = 0
    for seat in range(4):
        if seat_hand(state, seat) >> TWO_OF_CLUBS & 1:
            holder = seat
            break
    state.stage = PLAY
    state.leader = state.turn = holder


def round_scored_due(state: HeartsState, event: Event) -> bool:
    """Whether ``event`` (a ``round_scored``) is exactly the ruling due (as
    ``Hearts._round_scored_due`` builds it: ``round_score``, the running total)."""
    if state.stage != SCORE:
        return False
    seat = state.scored
    amount = round_score(state.taken, seat)
    return is_payload(
        event, state.hand_no, ABSENT, seat, amount=amount, total=state.totals[seat] + amount
    )


def seat_hand(state: HeartsState, seat: i64) -> i64:
    """The hand of ``seat`` (0-3)."""
    if seat == 0:
        return state.hand0
    if seat == 1:
        return state.hand1
    if seat == 2:
        return state.hand2
    return state.hand3


def card_set(cards: tuple[str, ...], size: int) -> int:
    """The bit set of ``cards`` if they are ``size`` distinct cards of the deck, else -1."""
    try:
        mask = DECK.mask(cards)
    except ValueError:  # a code of no card
        return -1
    return mask if popcount(mask) == size else -1


def set_seat_hand(state: HeartsState, seat: i64, hand: i64) -> None:
    """Make ``hand`` the hand of ``seat`` (0-3)."""
    if seat == 0:
        state.hand0 = hand
    elif seat == 1:
        state.hand1 = hand
    elif seat == 2:
        state.hand2 = hand
    else:
        state.hand3 = hand


#: Hearts' fast path, as the registry hands it out (:func:`replay.games.fast_path`).
FAST: Final = FastHearts(RULES)
