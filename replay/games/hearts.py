"""Hearts (RULES.md HEARTS-*): four players, pass cycle, follow suit, 26 points a hand, to 100.

Cards are ``<rank><suit>`` codes: ranks ``23456789TJQKA``, suits ``C D S H`` (``QS``, ``TH``,
``2C``). Inside, a card is an index ``suit * 13 + rank`` and a hand is a 52-bit set.

>>> from replay.engine.simulate import simulate_game
>>> events = simulate_game(RULES, "doc", players=4, seed=1, check=True)
>>> final = RULES.replay(events)
>>> final.over, max(final.totals) >= 100
(True, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, ClassVar, Final

from mypy_extensions import i64

from replay.games import register
from replay.games.base import (
    OVER,
    Due,
    Game,
    RuleViolation,
    SeatTrickState,
    all_recorded,
    bot_flags,
    check_deal,
    check_hand_size,
    check_players,
    check_round,
    check_trick,
    dealt_cards,
    event_table,
    first_undealt,
    given_cards,
    led_suit_best,
    new_state,
    played_card,
    replace_at,
    same,
    seat_hand_fault,
    seat_names,
    setup_of,
    undealt_seats,
)
from replay.model import decks
from replay.model.cards import Deck, bits, lowest, popcount
from replay.model.events import Category, Event
from replay.model.packed import CARD_BITS, nth, placed
from replay.model.specs import GameSpec, ScoreUnit, packaged_view_schema
from replay.model.violation import RuleId

RANKS: Final = "23456789TJQKA"
SUITS: Final = "CDSH"
SUIT_NAMES: Final[tuple[str, ...]] = ("clubs", "diamonds", "spades", "hearts")
DECK: Final = Deck([r + s for s in SUITS for r in RANKS], "52-card deck")

SPADES: Final = 2
HEARTS: Final = 3
SUIT_MASK: Final[tuple[int, ...]] = (0x1FFF, 0x1FFF << 13, 0x1FFF << 26, 0x1FFF << 39)
HEARTS_MASK: Final = 0x1FFF << 39
QUEEN_OF_SPADES: Final = 36  # DECK.index("QS"), checked below
QS_BIT: Final = 1 << 36
TWO_OF_CLUBS: Final = 0  # DECK.index("2C")
POINT_CARDS: Final = HEARTS_MASK | QS_BIT
HAND_SIZE: Final = 13
TRICKS: Final = 13
PASS_SIZE: Final = 3
GAME_TARGET: Final = 100
MOON: Final = 26
assert DECK.index("QS") == QUEEN_OF_SPADES and DECK.index("2C") == TWO_OF_CLUBS
assert SUIT_MASK[HEARTS] == HEARTS_MASK

#: Seat offset of the pass receiver for hands 1, 2, 3, 4 (then the cycle repeats); 0 = no pass.
PASS_OFFSETS: Final[tuple[int, ...]] = (1, 3, 2, 0)
PASS_NAMES: Final = {1: "left", 3: "right", 2: "across", 0: "no pass"}

#: Events whose cards only their own seat sees.
PRIVATE_EVENTS: Final = frozenset({"deal", "pass"})
_PLAY_DUE: Final = tuple(Due.decision(seat, what="play") for seat in range(4))

# Stages of a hand.
DEAL: Final = 0
PASS: Final = 1
PLAY: Final = 2
SCORE: Final = 3
END: Final = 4
DONE: Final = 5


def mask_points(mask: int) -> int:
    """Penalty points of a set of cards: 1 for a heart, 13 for the queen of spades."""
    return popcount(mask & HEARTS_MASK) + (13 if mask & QS_BIT else 0)


def card_points(index: int) -> int:
    """Penalty points of one card."""
    return mask_points(1 << index)


def pass_offset(hand_no: int) -> int:
    """Seat offset of the receiver of passed cards in hand ``hand_no`` (1-based)."""
    return PASS_OFFSETS[(hand_no - 1) % 4]


class Rule(RuleId):
    """The rules of Hearts (RULES.md HEARTS-*), in the order RULES.md gives them."""

    SETUP = "HEARTS-SETUP"
    PASS = "HEARTS-PASS"
    FIRST_LEAD = "HEARTS-FIRST-LEAD"
    TURN = "HEARTS-TURN"
    FOLLOW = "HEARTS-FOLLOW"
    TRICK = "HEARTS-TRICK"
    FIRST_TRICK = "HEARTS-FIRST-TRICK"
    BREAK = "HEARTS-BREAK"
    POINTS = "HEARTS-POINTS"
    MOON = "HEARTS-MOON"
    END = "HEARTS-END"


@dataclass(slots=True, init=False)
class HeartsState(SeatTrickState):
    """A Hearts game between events, each field at its first value in a new game.

    ``taken`` is a list changed in place by the reducer; :meth:`clone` copies it. The hands and
    the trick on the table are :class:`SeatTrickState`'s (``hand(seat)``, ``table``). The rest
    are immutable.
    """

    names: tuple[str, ...] = ()
    hand_no: int = 1
    stage: int = DEAL
    dealt: int = 0  # cards dealt this hand (bit set)
    deals: int = 0  # deal events this hand
    dealt_seats: int = 0  # seats dealt this hand (bit set)
    passes: tuple[int, ...] = (-1, -1, -1, -1)  # passed cards per seat, -1 = not yet
    trick_no: int = 1
    leader: int = 0
    turn: int = 0
    broken: bool = False
    taken: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # points taken this hand
    scored: int = 0  # round_scored events recorded this hand
    totals: tuple[int, ...] = (0, 0, 0, 0)
    winners: tuple[int, ...] = ()


def _seat_names(setup: Mapping[str, Any]) -> tuple[str, ...]:
    """The player ids of a game's setup, one per seat (HEARTS-SETUP)."""
    n = check_players(setup, 4, 4, Rule.SETUP)
    bot_flags(setup, n)  # no rule of Hearts turns on bots, but a malformed list is a fault
    return seat_names(setup, n)


def trick_winner(leader: int, cards: i64) -> int:
    """Seat that wins a complete trick (four cards packed in ``cards``, see
    :mod:`replay.model.packed`): the highest card of the led suit (HEARTS-TRICK)."""
    return (leader + led_suit_best(cards, 4, 13)) % 4


def trick_points(cards: i64) -> int:
    """Penalty points of a complete trick (four cards packed in ``cards``; HEARTS-POINTS)."""
    mask: i64 = 0
    for position in range(4):
        mask |= placed(1, nth(cards, position, CARD_BITS), 1)  # the card's bit
    return mask_points(mask)


def shot_the_moon(taken: list[int]) -> bool:
    """Whether a seat took all 26 points of the hand (HEARTS-MOON)."""
    return any(points == MOON for points in taken)


def round_score(taken: list[int], seat: int) -> int:
    """What ``seat`` scores for the hand: its points, or 26 to the others on a moon
    (HEARTS-POINTS, HEARTS-MOON)."""
    if shot_the_moon(taken):
        return 0 if taken[seat] == MOON else MOON
    return taken[seat]


def game_ends(totals: tuple[int, ...]) -> bool:
    """HEARTS-END after a hand: a total reached 100 and one seat alone has the lowest.

    >>> game_ends((103, 50, 48, 70)), game_ends((103, 48, 48, 70)), game_ends((99, 0, 1, 2))
    (True, False, False)
    """
    low = high = totals[0]
    lows = 0
    for total in totals:
        if total < low:
            low, lows = total, 0
        if total == low:
            lows += 1
        if total > high:
            high = total
    return high >= GAME_TARGET and lows == 1


def legal_mask(state: HeartsState, seat: int) -> int:
    """The cards ``seat`` may play now (assumes it is their turn to play)."""
    hand = state.hand(seat)
    if not state.played:
        if state.trick_no == 1:
            return hand & (1 << TWO_OF_CLUBS)
        if state.broken:
            return hand
        safe = hand & ~HEARTS_MASK
        return safe or hand
    first: int = nth(state.table_cards, 0, CARD_BITS)
    suited = hand & SUIT_MASK[first // 13]
    if suited:
        return suited
    if state.trick_no == 1:
        return (hand & ~POINT_CARDS) or hand
    return hand


def play_card(state: HeartsState, seat: int, card: int) -> None:
    """``seat`` plays ``card`` (the reducer's part of a play)."""
    state.set_hand(seat, state.hand(seat) & ~(1 << card))
    state.table_cards |= placed(card, state.played, CARD_BITS)
    state.played += 1
    if card // 13 == HEARTS:
        state.broken = True
    state.turn = (seat + 1) % 4


class Hearts(Game[HeartsState]):
    """The Hearts rules of RULES.md."""

    turn_rule: ClassVar[RuleId] = Rule.TURN
    end_rule: ClassVar[RuleId] = Rule.END
    due_rules: ClassVar[Mapping[str, RuleId]] = {
        "deal": Rule.SETUP,
        "pass": Rule.PASS,
        "play": Rule.TURN,
    }
    rule_ids: ClassVar[tuple[RuleId, ...]] = tuple(Rule)
    deck: ClassVar[Deck] = DECK

    def start(self, event: Event) -> HeartsState:
        names = setup_of(event, self.kind, _seat_names)
        state = new_state(HeartsState, event.game_id, self.kind, len(names), 1, event)
        state.names = names
        return state

    def due(self, state: HeartsState) -> Due:
        stage = state.stage
        if stage == PLAY:
            if state.played == 4:
                return Due.of_ruling(self._trick_won(state), Rule.TRICK)
            return _PLAY_DUE[state.turn]
        if stage == DEAL:
            return Due.chance(*undealt_seats(state.dealt_seats, 4), what="deal")
        if stage == PASS:
            waiting = tuple(s for s in range(4) if state.passes[s] < 0)
            return Due.decision(*waiting, what="pass")
        if stage == SCORE:
            return self._round_scored_due(state)
        if stage == END:
            winner = state.totals.index(min(state.totals))  # lowest total, first seat
            return Due.of_ruling(self.new_event(state, "game_end", values=(winner,)), Rule.END)
        return OVER

    def _trick_won(self, state: HeartsState) -> Event:
        return self.new_event(
            state, "trick_won", round=state.hand_no, trick=state.trick_no,
            player=trick_winner(state.leader, state.table_cards),
            cards=DECK.codes_of(state.table), amount=trick_points(state.table_cards),
        )  # fmt: skip

    def _round_scored_due(self, state: HeartsState) -> Due:
        seat = state.scored
        amount = round_score(state.taken, seat)
        event = self.new_event(
            state, "round_scored", round=state.hand_no, player=seat, amount=amount,
            total=state.totals[seat] + amount,
        )  # fmt: skip
        return Due.of_ruling(event, Rule.MOON if shot_the_moon(state.taken) else Rule.POINTS)

    def verify(self, state: HeartsState, event: Event) -> None:
        """As :meth:`Rules.verify`, citing HEARTS-PASS first for a pass the hand does not take
        once it is dealt: in a hand that keeps, or a second pass by a seat (RULES.md
        HEARTS-PASS [decision], before HEARTS-TURN; a card not held is LOG-CARD first)."""
        stage = state.stage
        if event.seq == state.seq and event.type == "pass" and DEAL < stage < END:
            seat, hand_no = event.player, state.hand_no
            why = ""
            if not pass_offset(hand_no):
                why = f"seat {seat} passed in hand {hand_no}, which keeps (no pass)"
            elif stage != PASS or (seat is not None and 0 <= seat < 4 and state.passes[seat] >= 0):
                why = f"seat {seat} passed a second time in hand {hand_no}"
            if why:
                raise self.card_fault(state, event) or RuleViolation(Rule.PASS, why)
        super().verify(state, event)

    def ruling_rule(self, state: HeartsState, due: Due, event: Event) -> RuleId:
        """HEARTS-POINTS for a trick's point count, or a running total, that is wrong where
        the seat is right (RULES.md HEARTS-POINTS [decision]; a moon hand's scores stay
        HEARTS-MOON, a trick's winner HEARTS-TRICK)."""
        expected = due.ruling
        assert expected is not None and due.rule is not None
        if event.type != expected.type or not same(event.player, expected.player):
            return due.rule
        amount_right = same(event.amount, expected.amount)
        if event.type == "trick_won":
            return due.rule if amount_right else Rule.POINTS
        total_right = same(event.total, expected.total)  # of a hand's score
        return Rule.POINTS if amount_right and not total_right else due.rule

    def card_fault(self, state: HeartsState, event: Event) -> RuleViolation | None:
        return seat_hand_fault(event, state, DECK)

    def verify_chance(self, state: HeartsState, event: Event) -> None:
        check_deal(event, state.dealt_seats, 4, state.hand_no)
        cards = event.cards or ()
        dealt_cards(DECK, cards, state.dealt)  # a card dealt twice is LOG-CARD first
        check_hand_size(event, HAND_SIZE, Rule.SETUP)

    def verify_decision(self, state: HeartsState, event: Event) -> None:
        seat = event.player
        assert seat is not None
        if state.stage == PASS:
            self.verify_pass(state, seat, event)
            return
        # a play (verify judges a pass outside the passing)
        card = played_card(event, DECK, state.hand(seat))
        if not legal_mask(state, seat) >> card & 1:  # the game's rule before the numbering
            rule, why = self._why_illegal(state, seat, card)
            raise RuleViolation(rule, why, recoverable=True)
        check_trick(event, state.hand_no, state.trick_no)

    def verify_pass(self, state: HeartsState, seat: int, event: Event) -> None:
        if event.type != "pass":
            raise RuleViolation(Rule.PASS, f"seat {seat} made a {event.type} before passing")
        cards = event.cards or ()
        given_cards(DECK, cards, state.hand(seat), seat, "passed")
        if len(cards) != PASS_SIZE:
            raise RuleViolation(
                Rule.PASS, f"seat {seat} passed {len(cards)} cards, not {PASS_SIZE}"
            )
        check_round(event, state.hand_no)
        receiver = (seat + pass_offset(state.hand_no)) % 4
        if event.target != receiver:
            raise RuleViolation(
                Rule.PASS,
                f"seat {seat} passed to seat {event.target}, but hand {state.hand_no} passes "
                f"{PASS_NAMES[pass_offset(state.hand_no)]} to seat {receiver}",
                recoverable=True,
            )

    def _why_illegal(self, state: HeartsState, seat: int, card: int) -> tuple[RuleId, str]:
        """The rule an illegal play breaks, and the reason in a sentence."""
        hand = state.hand(seat)
        code = DECK.order[card]
        if not state.table:
            if state.trick_no == 1:
                return Rule.FIRST_LEAD, f"seat {seat} led {code} but must lead 2C"
            safe = DECK.codes(hand & ~HEARTS_MASK)
            return Rule.BREAK, (
                f"seat {seat} led {code} before hearts were broken while holding {' '.join(safe)}"
            )
        led = state.table[0] // 13
        suited = hand & SUIT_MASK[led]
        if suited:
            return Rule.FOLLOW, (
                f"seat {seat} played {code} while holding {DECK.order[lowest(suited)]} "
                f"and {SUIT_NAMES[led]} were led"
            )
        others = DECK.codes(hand & ~POINT_CARDS)
        return Rule.FIRST_TRICK, (
            f"seat {seat} played {code} on the first trick while holding {' '.join(others)}"
        )

    def reduce(self, state: HeartsState, event: Event) -> HeartsState:
        kind = event.type
        if kind == "play":
            assert event.player is not None and event.card is not None
            play_card(state, event.player, DECK.find(event.card))  # a verified play: a known card
            return state
        if kind == "trick_won":  # the winner takes the trick's points and leads the next
            assert event.player is not None
            taken: int = state.taken[event.player]
            state.taken[event.player] = taken + (event.amount or 0)
            state.clear_table()
            state.leader = state.turn = event.player
            if state.trick_no == TRICKS:
                state.stage = SCORE
            else:
                state.trick_no += 1
            return state
        if kind == "deal":
            return self._reduce_deal(state, event)
        if kind == "pass":
            return self._reduce_pass(state, event)
        if kind == "round_scored":  # after the fourth score, a new hand or the end
            assert event.player is not None and event.total is not None
            state.totals = replace_at(state.totals, event.player, event.total)
            state.scored += 1
            if state.scored == 4 and game_ends(state.totals):
                state.stage = END
            elif state.scored == 4:  # a new hand
                state.hand_no += 1
                state.stage = DEAL
                state.clear_hands()
                state.dealt = state.deals = state.dealt_seats = state.scored = 0
                state.passes = (-1, -1, -1, -1)
                state.trick_no = 1
                state.clear_table()
                state.broken = False
                state.taken = [0, 0, 0, 0]
            return state
        if kind == "game_end":
            state.winners = tuple(event.values or ())
            state.stage = DONE
            state.over = True
        return state

    def _reduce_deal(self, state: HeartsState, event: Event) -> HeartsState:
        seat = event.player if event.player is not None else first_undealt(state.dealt_seats)
        mask = DECK.mask(event.cards or ())
        state.set_hand(seat, mask)
        state.dealt |= mask
        state.deals += 1
        state.dealt_seats |= 1 << seat
        if state.deals == 4 and pass_offset(state.hand_no):
            state.stage = PASS
        elif state.deals == 4:  # a hand that keeps
            self._start_play(state)
        return state

    def _reduce_pass(self, state: HeartsState, event: Event) -> HeartsState:
        """Passed cards leave the hand at once and are received when all four have passed."""
        seat = event.player
        assert seat is not None
        mask = DECK.mask(event.cards or ())
        state.passes = replace_at(state.passes, seat, mask)
        state.set_hand(seat, state.hand(seat) & ~mask)
        if all_recorded(state.passes):
            offset = pass_offset(state.hand_no)
            for giver in range(4):
                receiver = (giver + offset) % 4
                state.set_hand(receiver, state.hand(receiver) | state.passes[giver])
            self._start_play(state)
        return state

    def _start_play(self, state: HeartsState) -> None:
        holder = next((s for s in range(4) if state.hand(s) >> TWO_OF_CLUBS & 1), 0)
        state.stage = PLAY
        state.leader = state.turn = holder

    def legal_decisions(self, state: HeartsState, seat: int) -> list[Event]:
        if state.stage == PASS:
            passes = combinations(bits(state.hand(seat)), PASS_SIZE)
            return [self.pass_event(state, seat, cards) for cards in passes]
        return [self.play_event(state, seat, c) for c in bits(legal_mask(state, seat))]

    def pass_event(self, state: HeartsState, seat: int, cards: tuple[int, ...]) -> Event:
        """``seat`` passes ``cards`` (indices) to the seat this hand passes to."""
        return self.new_event(
            state, "pass", round=state.hand_no, player=seat,
            target=(seat + pass_offset(state.hand_no)) % 4,
            cards=tuple(DECK.order[c] for c in sorted(cards)),
        )  # fmt: skip

    def play_event(self, state: HeartsState, seat: int, card: int) -> Event:
        """``seat`` plays ``card`` (an index) in the current trick."""
        return self.new_event(
            state, "play", round=state.hand_no, trick=state.trick_no, player=seat,
            card=DECK.order[card],
        )  # fmt: skip

    def result(self, state: HeartsState) -> dict[str, Any]:
        return {"winners": list(state.winners), "totals": list(state.totals)}


#: Every event type of the game: its category, and the fields it carries besides its position
#: (``ts`` on any event; another field set is a fault, in the store's checks and the audit alike).
CATEGORIES, EVENT_FIELDS = event_table({
    "deal": (Category.CHANCE, ("round", "player", "cards")),
    "pass": (Category.DECISION, ("round", "player", "target", "cards")),
    "play": (Category.DECISION, ("round", "trick", "player", "card")),
    "trick_won": (Category.RULING, ("round", "trick", "player", "cards", "amount")),
    "round_scored": (Category.RULING, ("round", "player", "amount", "total")),
})  # fmt: skip

#: The plug-in contract of Hearts (:mod:`replay.model.specs`).
SPEC: Final = GameSpec(
    kind="hearts",
    title="Hearts",
    categories=CATEGORIES,
    event_fields=EVENT_FIELDS,
    deck=DECK.order,
    faces=decks.FRENCH_DECK,
    players=(4,),
    sample_players=4,
    view_schema=packaged_view_schema("hearts"),
    score_unit=ScoreUnit(
        "hand", "points", ("round_scored",), lower_is_better=True, thresholds=(0.5, 1.5, 4.0)
    ),
)

#: The rules of Hearts, registered under their kind.
RULES: Final = register(Hearts(SPEC))
