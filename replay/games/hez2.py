"""Hez2 (RULES.md HEZ2-*): 2-4 players, 40-card Spanish deck, match suit or rank, go out first.

Cards are ``<rank><suit>`` codes: ranks ``1234567`` then ``S`` (Sota), ``C`` (Caballo), ``R``
(Rey); suits ``O C E B`` (Oros, Copas, Espadas, Bastos): ``1O``, ``7E``, ``SB``, ``CC``, ``RO``.
Inside, a card is an index ``suit * 10 + rank`` (rank 0 is the ace) and a hand is a 40-bit set.

One game is one round. The stock is a set of unknown order: every card taken from it is a chance
event naming the card (``deal``, ``start_card``, ``card_drawn``). Places, payouts and the end are
rulings. See ``docs/games/hez2.md`` for every event type.

>>> from replay.engine.simulate import simulate_game
>>> events = simulate_game(RULES, "doc", players=3, seed=4, check=True)
>>> final = RULES.replay(events)
>>> final.over, sorted(final.places)
(True, [0, 1, 2])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from replay.games import register
from replay.games.base import (
    OVER,
    Due,
    Game,
    RuleViolation,
    SeatHandsState,
    check_deal,
    check_hand_size,
    check_players,
    check_round,
    dealt_cards,
    event_table,
    first_undealt,
    new_state,
    played_card,
    replace_at,
    round_fault,
    same,
    seat_hand_fault,
    seat_list,
    setup_of,
    undealt_seats,
)
from replay.model import decks
from replay.model.cards import Deck, bits, popcount
from replay.model.events import Category, Event
from replay.model.specs import GameSpec, ScoreUnit, packaged_view_schema
from replay.model.violation import LogRule, RuleId

RANKS: Final = "1234567SCR"
SUITS: Final = "OCEB"
SUIT_CODES: Final[tuple[str, ...]] = tuple(SUITS)
SUIT_NAMES: Final[tuple[str, ...]] = ("Oros", "Copas", "Espadas", "Bastos")
DECK: Final = Deck([r + s for s in SUITS for r in RANKS], "40-card Spanish deck")

ACE: Final = 0
TWO: Final = 1
SEVEN: Final = 6
SUIT_MASK: Final[tuple[int, ...]] = tuple(0x3FF << (10 * s) for s in range(4))
RANK_MASK: Final[tuple[int, ...]] = tuple(
    sum(1 << (10 * s + r) for s in range(4)) for r in range(10)
)
ACES: Final = RANK_MASK[ACE]
TWOS: Final = RANK_MASK[TWO]
SEVENS: Final = RANK_MASK[SEVEN]
HAND_SIZE: Final = 4
ROUND: Final = 1

# Stages of the round (a queue of rulings, when not empty, comes first).
DEAL: Final = 0
START: Final = 1
TURN: Final = 2
DECLARE: Final = 3
DRAW: Final = 4
END: Final = 5

#: Shares of the pot in percent by rank among staked players (HEZ2-STAKES), for 2-4 of them.
SPLITS: Mapping[int, tuple[int, ...]] = {2: (100, 0), 3: (70, 30, 0), 4: (60, 30, 10, 0)}

#: Events whose cards only their own seat sees.
PRIVATE_EVENTS = frozenset({"deal", "card_drawn"})


def suit_of(card: int) -> int:
    """The suit (0-3) of a card index."""
    return card // 10


def rank_of(card: int) -> int:
    """The rank (0 = ace ... 9 = Rey) of a card index."""
    return card % 10


def split_pot(stakes_by_rank: Sequence[int]) -> list[int]:
    """Payouts of staked players listed best placed first (HEZ2-STAKES).

    Shares are rounded down; the remainder goes to the best placed, so they sum to the pot.

    >>> split_pot([100, 100, 100])
    [210, 90, 0]
    >>> split_pot([101, 100, 100, 32])
    [201, 99, 33, 0]
    >>> split_pot([250])
    [250]
    """
    pot = sum(stakes_by_rank)
    if len(stakes_by_rank) <= 1:
        return [pot] if stakes_by_rank else []
    shares = [pot * pct // 100 for pct in SPLITS[len(stakes_by_rank)]]
    shares[0] += pot - sum(shares)
    return shares


#: A queued ruling: (event type, player, amount, rule ID).
Ruling = tuple[str, int, int | None, RuleId]
#: A fault refined: the rule that names its situation, and why.
Refined = tuple[RuleId, str]


class Rule(RuleId):
    """The rules of Hez2 (RULES.md HEZ2-*), in the order RULES.md gives them."""

    SETUP = "HEZ2-SETUP"
    TURN = "HEZ2-TURN"
    MATCH = "HEZ2-MATCH"
    DRAW = "HEZ2-DRAW"
    RESHUFFLE = "HEZ2-RESHUFFLE"
    ACE = "HEZ2-ACE"
    TWO = "HEZ2-TWO"
    SEVEN = "HEZ2-SEVEN"
    OUT = "HEZ2-OUT"
    RANKING = "HEZ2-RANKING"
    BOTS = "HEZ2-BOTS"
    STAKES = "HEZ2-STAKES"


@dataclass(slots=True, init=False)
class Hez2State(SeatHandsState):
    """A Hez2 round between events, each field at its first value before the deal; the hands
    are :class:`SeatHandsState`'s, the other fields immutable values."""

    names: tuple[str, ...] = ()
    bots: tuple[bool, ...] = ()
    stakes: tuple[int | None, ...] = ()
    dealer: int = 0
    stage: int = DEAL
    dealt: int = 0  # deal events recorded
    dealt_seats: int = 0  # seats dealt (bit set)
    stock: int = DECK.full  # cards not yet seen (set of unknown order)
    discard: int = 0  # the discard pile, its top card included
    top: int = -1  # the exposed card
    top_seat: int = -1  # who played it (-1: the start card)
    suit: int = -1  # the suit to match (a 7's declared suit)
    turn: int = 0
    pending_skip: bool = False
    pending_draw: int = 0
    to_draw: int = 0  # cards still to draw by ``turn`` in the DRAW stage
    turns: int = 0  # turns begun (a served skip is a turn)
    places: tuple[int, ...] = ()  # seats in order of places, 1st first
    payouts: tuple[int, ...] = ()  # payout per seat once paid (0 for unstaked seats)
    forced: bool = False  # the current or last draw is a penalty (HEZ2-TWO), not a choice
    queue: tuple[Ruling, ...] = ()  # rulings due, first first


def holders_after(hands: list[int], seat: int) -> list[int]:
    """Seats holding cards, clockwise starting after ``seat``."""
    n = len(hands)
    return [(seat + step) % n for step in range(1, n + 1) if hands[(seat + step) % n]]


def playable_mask(state: Hez2State, seat: int) -> int:
    """The cards ``seat`` may play now on their turn (HEZ2-MATCH, HEZ2-ACE, HEZ2-TWO)."""
    hand = state.hand(seat)
    if state.pending_skip:
        return hand & ACES
    if state.pending_draw:
        return hand & TWOS
    return hand & (SUIT_MASK[state.suit] | RANK_MASK[rank_of(state.top)])


def payout_list(stakes: Sequence[int | None], places: Sequence[int]) -> list[int]:
    """Payout per seat for a complete ranking (0 for unstaked seats)."""
    staked = [seat for seat in places if stakes[seat] is not None]
    amounts = split_pot([stakes[seat] or 0 for seat in staked])
    out = [0] * len(stakes)
    for seat, amount in zip(staked, amounts, strict=True):
        out[seat] = amount
    return out


class Hez2(Game[Hez2State]):
    """The Hez2 rules of RULES.md."""

    turn_rule: ClassVar[RuleId] = Rule.TURN
    end_rule: ClassVar[RuleId] = Rule.RANKING
    due_rules: ClassVar[Mapping[str, RuleId]] = {
        "deal": Rule.SETUP,
        "start card": Rule.SETUP,
        "card drawn": Rule.DRAW,
        "play or draw": Rule.TURN,
        "answer the skip": Rule.ACE,
        "answer the draw": Rule.TWO,
        "declare a suit": Rule.SEVEN,
    }
    rule_ids: ClassVar[tuple[RuleId, ...]] = tuple(Rule)
    deck: ClassVar[Deck] = DECK

    def start(self, event: Event) -> Hez2State:
        setup = setup_of(event, self.kind, _seats)
        state = new_state(Hez2State, event.game_id, self.kind, len(setup[0]), 1, event)
        state.names, state.bots, state.stakes, state.dealer = setup
        state.payouts = (0,) * state.n
        return state

    def due(self, state: Hez2State) -> Due:
        if state.queue:
            return self._queued_ruling(state)
        stage = state.stage
        if stage == TURN:
            if state.pending_skip:
                return _ANSWER_SKIP[state.turn]
            if state.pending_draw:
                return _ANSWER_DRAW[state.turn]
            return _PLAY_OR_DRAW[state.turn]
        if stage == DRAW:
            if state.stock:
                return _CARD_DRAWN[state.turn]
            moved = reshuffled(state)
            event = self.new_event(
                state, "reshuffle", round=ROUND, cards=tuple(DECK.codes(moved)),
                amount=popcount(moved),
            )  # fmt: skip
            return Due.of_ruling(event, Rule.RESHUFFLE)
        if stage == DECLARE:
            return _DECLARE[state.turn]
        if stage == DEAL:
            return Due.chance(*undealt_seats(state.dealt_seats, state.n), what="deal")
        if stage == START:
            return Due.chance(what="start card")
        return OVER

    def _queued_ruling(self, state: Hez2State) -> Due:
        type_, player, amount, rule = state.queue[0]
        if type_ == "game_end":
            event = self.new_event(state, "game_end", values=(player,))
        else:
            round_ = queued_round(type_)
            event = self.new_event(state, type_, round=round_, player=player, amount=amount)
        return Due.of_ruling(event, rule)

    def verify(self, state: Hez2State, event: Event) -> None:
        """As :meth:`Rules.verify`, citing the game's rule that names the situation where a
        generic check caught the fault (RULES.md, "Which rule a finding cites", 2.)."""
        try:
            super().verify(state, event)
        except RuleViolation as exc:
            if exc.rule not in (Rule.TURN, LogRule.ORDER, Rule.ACE, Rule.TWO, Rule.SEVEN):
                raise
            refined = (
                self._imposed_by_final_card(state, event)
                or self._final_seven_undeclared(state, event)
                or self._skipped_seat_acts(state, event)
                or self._acts_after_draw(state, event, exc.rule)
                or self._play_after_round(state, event)
            )
            if refined is None:
                raise
            raise exc.cited(*refined) from None

    def _imposed_by_final_card(self, state: Hez2State, event: Event) -> Refined | None:
        """HEZ2-OUT: a skip or a draw imposed after a final 1 or 2, which imposes nothing."""
        top_seat = state.top_seat
        imposed = event.type in ("accept_skip", "skip", "accept_draw", "forced_draw")
        if not imposed or top_seat < 0 or state.hand(top_seat) or state.top < 0:
            return None
        if rank_of(state.top) not in (ACE, TWO) or state.pending_skip or state.pending_draw:
            return None
        return Rule.OUT, (
            f"{event.type} recorded after seat {top_seat} went out with "
            f"{DECK.order[state.top]}: a last card imposes nothing"
        )

    def _final_seven_undeclared(self, state: Hez2State, event: Event) -> Refined | None:
        """HEZ2-OUT: another event than ``declare_suit`` where a final 7's suit is due."""
        if state.stage != DECLARE or state.queue or state.hand(state.turn):
            return None
        if event.type == "declare_suit" and same(event.player, state.turn):
            return None
        return Rule.OUT, (
            f"{event.type} recorded but seat {state.turn} went out with a 7 and declared no "
            "suit; a final 7 still declares it"
        )

    def _skipped_seat_acts(self, state: Hez2State, event: Event) -> Refined | None:
        """HEZ2-ACE: a skipped seat that plays or draws in the turn it lost."""
        if event.type not in ("play", "draw", "card_drawn"):
            return None
        seat = event.player
        skip_due = bool(state.queue) and state.queue[0][0] == "skip" and state.queue[0][1] == seat
        last = state.last
        skipped = last is not None and last.type == "skip" and same(last.player, seat)
        if seat is None or not (skip_due or skipped):
            return None
        return Rule.ACE, f"seat {seat} made a {event.type} in the turn it lost to a skip"

    def _acts_after_draw(self, state: Hez2State, event: Event, caught: RuleId) -> Refined | None:
        """HEZ2-DRAW (HEZ2-TWO after a penalty): acting again after one's own draw."""
        last = state.last
        if not (
            caught in (Rule.TURN, LogRule.ORDER)
            and last is not None
            and last.type in ("card_drawn", "draw")
            and event.type in ("play", "draw", "card_drawn")
            and event.player == last.player
            and state.stage == TURN
        ):
            return None
        why = f"seat {event.player} made a {event.type} after drawing; the draw ended its turn"
        return (Rule.TWO if state.forced else Rule.DRAW), why

    def _play_after_round(self, state: Hez2State, event: Event) -> Refined | None:
        """HEZ2-RANKING: a decision or a card recorded after the round ended."""
        played = self.event_types.get(event.type) in (Category.DECISION, Category.CHANCE)
        if state.stage != END or not played:
            return None
        first = state.places[0] if state.places else state.queue[0][1]
        return Rule.RANKING, (
            f"{event.type} recorded after the round ended (seat {first} went out first)"
        )

    def card_fault(self, state: Hez2State, event: Event) -> RuleViolation | None:
        return seat_hand_fault(event, state, DECK)

    def verify_chance(self, state: Hez2State, event: Event) -> None:
        expected = _CHANCE_TYPES.get(state.stage)
        if event.type != expected:
            due = self.due(state)
            raise RuleViolation(LogRule.ORDER, f"{event.type} while {self._due_words(due)}")
        if event.type == "deal":  # to a seat not dealt yet, of cards of the stock (LOG-CARD)
            check_deal(event, state.dealt_seats, state.n, None)  # the round: check_round below
            dealt_cards(DECK, event.cards or (), DECK.full & ~state.stock)
            check_hand_size(event, HAND_SIZE, Rule.SETUP)
        else:
            fault = self.stock_fault(state, event)
            if fault is not None:
                raise fault
        check_round(event, ROUND)

    def stock_fault(self, state: Hez2State, event: Event) -> RuleViolation | None:
        """Why a start card or a drawn card is not from the stock, to the seat drawing."""
        if event.type == "card_drawn" and not same(event.player, state.turn):
            return RuleViolation(
                LogRule.ORDER, f"card drawn by seat {event.player} but seat {state.turn} is drawing"
            )
        code = event.card
        card = DECK.find(code) if code is not None else -1
        if card < 0:
            return RuleViolation(LogRule.CARD, f"{event.type} names unknown card {code!r}")
        if not state.stock >> card & 1:
            return RuleViolation(
                LogRule.CARD, f"{event.type} names {event.card} which is not in the stock"
            )
        return None

    def verify_decision(self, state: Hez2State, event: Event) -> None:
        seat = event.player
        assert seat is not None
        fault = self.decision_fault(state, seat, event)
        if fault is not None:
            raise fault

    def decision_fault(self, state: Hez2State, seat: int, event: Event) -> RuleViolation | None:
        """Why a decision by the seat whose turn it is breaks the rules; ``None`` when legal."""
        kind = event.type
        if state.stage == DECLARE:
            if kind != "declare_suit":
                return RuleViolation(
                    Rule.SEVEN, f"seat {seat} made a {kind} before declaring the suit of its 7"
                )
            if event.suit not in SUIT_CODES:
                return RuleViolation(
                    Rule.SEVEN, f"seat {seat} declared {event.suit!r}, not one of O C E B"
                )
        elif kind == "play":
            return self._play_fault(state, seat, event)
        elif kind == "draw":
            if state.pending_skip:
                return RuleViolation(
                    Rule.ACE, f"seat {seat} drew while facing a skip; only an ace or accepting"
                )
            if state.pending_draw:
                return RuleViolation(
                    Rule.TWO,
                    f"seat {seat} drew one card while facing a draw of {state.pending_draw}; "
                    "only a 2 or accepting",
                )
        else:
            fault = self.misplaced_decision(state, event)
            if fault is not None:
                return fault
        return round_fault(event, ROUND)

    def misplaced_decision(self, state: Hez2State, event: Event) -> RuleViolation | None:
        """HEZ2-SEVEN, HEZ2-ACE or HEZ2-TWO (before HEZ2-TURN) for a suit declared where no 7
        was played, a skip or a draw accepted where none is pending, whoever made it."""
        if state.stage == DECLARE:
            return None
        seat = event.player
        kind = event.type
        if kind == "declare_suit":
            return RuleViolation(Rule.SEVEN, f"seat {seat} declared a suit without playing a 7")
        if kind == "accept_skip" and not state.pending_skip:
            return RuleViolation(Rule.ACE, f"seat {seat} accepted a skip but none is pending")
        if kind == "accept_draw" and not state.pending_draw:
            return RuleViolation(Rule.TWO, f"seat {seat} accepted a draw but none is pending")
        return None

    def _play_fault(self, state: Hez2State, seat: int, event: Event) -> RuleViolation | None:
        try:
            card = played_card(event, DECK, state.hand(seat))  # LOG-CARD first
        except RuleViolation as fault:
            return fault
        code = DECK.order[card]
        if playable_mask(state, seat) >> card & 1:
            return round_fault(event, ROUND)  # the game's rule before the numbering
        draw = state.pending_draw
        if state.pending_skip:
            rule, why = Rule.ACE, f"seat {seat} played {code} on a pending skip; only an ace"
        elif draw:
            rule, why = Rule.TWO, f"seat {seat} played {code} on a pending draw of {draw}; only a 2"
        else:
            rule = Rule.SEVEN if rank_of(card) == SEVEN else Rule.MATCH
            why = (
                f"seat {seat} played {code} on {DECK.order[state.top]} with "
                f"{SUIT_NAMES[state.suit]} to follow; it matches neither suit nor rank"
            )
        return RuleViolation(rule, why, recoverable=True)

    def reduce(self, state: Hez2State, event: Event) -> Hez2State:
        kind = event.type
        if state.queue and kind in self.ruling_types:
            state.queue = state.queue[1:]
        if kind == "card_drawn":
            bit = DECK.bit(event.card or "")
            state.stock &= ~bit
            state.set_hand(state.turn, state.hand(state.turn) | bit)
            state.to_draw -= 1
            self._settle_draw(state)
        elif kind == "play":
            self._reduce_play(state, event)
        elif kind == "draw":  # one card, by choice
            state.forced = False
            state.to_draw = 1
            state.stage = DRAW
            self._settle_draw(state)
        elif kind == "declare_suit":
            state.suit = SUITS.index(event.suit or "")
            self._after_play(state, state.turn)
        elif kind == "accept_draw":  # the penalty is drawn (HEZ2-TWO)
            state.queue = (("forced_draw", state.turn, state.pending_draw, Rule.TWO),)
        elif kind == "forced_draw":
            state.forced = True
            state.to_draw = state.pending_draw
            state.pending_draw = 0
            state.stage = DRAW
            self._settle_draw(state)
        elif kind == "accept_skip":  # the turn is lost (HEZ2-ACE)
            state.queue = (("skip", state.turn, None, Rule.ACE),)
        elif kind == "skip":
            state.pending_skip = False
            _end_turn(state)
        elif kind == "reshuffle":
            state.stock |= reshuffled(state)
            state.discard = 1 << state.top
        elif kind == "player_out" or kind == "placed":
            assert event.player is not None
            state.places = (*state.places, event.player)
        elif kind == "payout":
            assert event.player is not None
            state.payouts = replace_at(state.payouts, event.player, event.amount or 0)
        elif kind == "deal":
            self._reduce_deal(state, event)
        elif kind == "start_card":
            self._reduce_start_card(state, event)
        elif kind == "game_end":
            state.over = True
        return state

    def _reduce_deal(self, state: Hez2State, event: Event) -> None:
        seat = event.player if event.player is not None else first_undealt(state.dealt_seats)
        mask = DECK.mask(event.cards or ())
        state.set_hand(seat, mask)
        state.stock &= ~mask
        state.dealt += 1
        state.dealt_seats |= 1 << seat
        if state.dealt == state.n:
            state.stage = START

    def _reduce_start_card(self, state: Hez2State, event: Event) -> None:
        card = DECK.index(event.card or "")
        state.stock &= ~(1 << card)
        state.discard = 1 << card
        state.top = card
        state.suit = suit_of(card)
        state.turn = (state.dealer + 1) % state.n
        state.turns = 1
        state.stage = TURN

    def _settle_draw(self, state: Hez2State) -> None:
        """End the turn once nothing (more) can be drawn (HEZ2-DRAW, HEZ2-RESHUFFLE)."""
        if state.to_draw <= 0 or not (state.stock or reshuffled(state)):
            state.to_draw = 0
            _end_turn(state)

    def _reduce_play(self, state: Hez2State, event: Event) -> None:
        seat = event.player
        assert seat is not None
        card = DECK.index(event.card or "")
        bit = 1 << card
        state.set_hand(seat, state.hand(seat) & ~bit)
        state.discard |= bit
        state.top = card
        state.top_seat = seat
        state.suit = suit_of(card)
        rank = rank_of(card)
        state.pending_skip = rank == ACE
        state.pending_draw = state.pending_draw + 2 if rank == TWO else 0
        if rank == SEVEN:
            state.stage = DECLARE
        else:
            self._after_play(state, seat)

    def _after_play(self, state: Hez2State, seat: int) -> None:
        """``seat``'s card is down (a 7's suit declared): the turn passes, or ``seat`` goes out."""
        if state.hand(seat):
            _end_turn(state)
        else:
            self._go_out(state, seat)

    def _go_out(self, state: Hez2State, seat: int) -> None:
        """``seat`` played its last card, takes the next place; the rest may follow (HEZ2-OUT)."""
        state.pending_skip = False
        state.pending_draw = 0
        queue: list[Ruling] = [("player_out", seat, len(state.places) + 1, Rule.OUT)]
        remaining = holders_after(state.hands, seat)
        bots = state.bots  # HEZ2-BOTS: every human is out, two or more bots hold cards
        bots_only = not all(bots) and len(remaining) >= 2 and all(bots[s] for s in remaining)
        if not (state.n == 2 or len(remaining) == 1 or bots_only):
            state.queue = tuple(queue)
            state.turn = remaining[0]
            state.turns += 1
            state.stage = TURN
            return
        remaining.sort(key=lambda s: popcount(state.hand(s)))  # stable: turn order breaks ties
        order = [*state.places, seat, *remaining]
        rule = Rule.BOTS if bots_only else Rule.RANKING
        first_free = len(order) - len(remaining) + 1
        queue += [("placed", s, place, rule) for place, s in enumerate(remaining, first_free)]
        paid = payout_list(state.stakes, order)
        queue += [
            ("payout", s, paid[s], Rule.STAKES)
            for s in range(state.n)
            if state.stakes[s] is not None
        ]
        queue.append(("game_end", order[0], None, Rule.RANKING))
        state.queue = tuple(queue)
        state.stage = END

    def legal_decisions(self, state: Hez2State, seat: int) -> list[Event]:
        if state.queue or seat != state.turn:
            return []
        if state.stage == DECLARE:
            return [
                self.new_event(state, "declare_suit", round=ROUND, player=seat, suit=s)
                for s in SUITS
            ]
        if state.stage != TURN:
            return []
        plays = [self.play_event(state, seat, c) for c in bits(playable_mask(state, seat))]
        return [*plays, self.pass_event(state, seat)]

    def play_event(self, state: Hez2State, seat: int, card: int) -> Event:
        """The ``play`` decision of ``card`` by ``seat``."""
        return self.new_event(state, "play", round=ROUND, player=seat, card=DECK.order[card])

    def pass_event(self, state: Hez2State, seat: int) -> Event:
        """The decision of not playing: draw, or accept the pending skip or draw."""
        kind = (
            "accept_skip" if state.pending_skip else "accept_draw" if state.pending_draw else "draw"
        )
        return self.new_event(state, kind, round=ROUND, player=seat)

    def result(self, state: Hez2State) -> dict[str, Any]:
        return {
            "winners": list(state.places[:1]),
            "places": list(state.places),
            "payouts": list(state.payouts),
            "totals": net_winnings(state),
        }


def net_winnings(state: Hez2State) -> list[int]:
    """Net winnings per seat (payout less stake), all 0 until the payouts are recorded."""
    if not state.over:
        return [0] * state.n
    return [state.payouts[s] - (state.stakes[s] or 0) for s in range(state.n)]


# What is due on a seat's turn, one immutable value per seat.
_ANSWER_SKIP = tuple(Due.decision(s, what="answer the skip") for s in range(4))
_ANSWER_DRAW = tuple(Due.decision(s, what="answer the draw") for s in range(4))
_PLAY_OR_DRAW = tuple(Due.decision(s, what="play or draw") for s in range(4))
_DECLARE = tuple(Due.decision(s, what="declare a suit") for s in range(4))
_CARD_DRAWN = tuple(Due.chance(s, what="card drawn") for s in range(4))
_CHANCE_TYPES = {DEAL: "deal", START: "start_card", DRAW: "card_drawn"}


def reshuffled(state: Hez2State) -> int:
    """The cards a reshuffle turns into the stock: the discard pile but its top card
    (HEZ2-RESHUFFLE)."""
    return state.discard & ~(1 << state.top)


def queued_round(type_: str) -> int | None:
    """The round number of a queued ruling's event (a payout has none)."""
    return None if type_ == "payout" else ROUND


def _end_turn(state: Hez2State) -> None:
    """Pass the turn to the next seat clockwise still holding cards."""
    n = state.n
    for step in range(1, n + 1):
        seat = (state.turn + step) % n
        if state.hand(seat):
            state.turn = seat
            break
    state.turns += 1
    state.stage = TURN


def _seats(
    setup: Mapping[str, Any],
) -> tuple[tuple[str, ...], tuple[bool, ...], tuple[int | None, ...], int]:
    """The names, bot flags and stakes of each seat and the dealer of a game's setup
    (LOG-SETUP, HEZ2-SETUP, HEZ2-STAKES)."""
    n = check_players(setup, 2, 4, Rule.SETUP)
    names = seat_list(setup, "names", n, str, "a player id")
    bots = seat_list(setup, "bots", n, bool, "true or false")
    stakes = _stakes(setup, n, bots)
    dealer = setup.get("dealer")
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < n:
        raise RuleViolation(Rule.SETUP, f"dealer must be a seat 0..{n - 1}, not {dealer!r}")
    return tuple(names), tuple(bots), tuple(stakes), dealer


def _stakes(setup: Mapping[str, Any], n: int, bots: Sequence[bool]) -> list[int | None]:
    """The stakes of a setup: a positive integer in minor units or null per seat."""
    stakes = setup.get("stakes", [None] * n)
    if not isinstance(stakes, list) or len(stakes) != n:
        raise RuleViolation(
            LogRule.SETUP, f"stakes must list one stake or null per seat: {stakes!r}"
        )
    for seat, stake in enumerate(stakes):
        if stake is None:
            continue
        if not isinstance(stake, int) or isinstance(stake, bool) or stake <= 0:
            raise RuleViolation(
                Rule.STAKES, f"seat {seat} staked {stake!r}; a stake is a positive integer"
            )
        if bots[seat]:
            raise RuleViolation(Rule.STAKES, f"seat {seat} is a bot and staked {stake}")
    return list(stakes)


#: Every event type of the game: its category, and the fields it carries besides its position
#: (``ts`` on any event; another field set is a fault, in the store's checks and the audit alike).
CATEGORIES, EVENT_FIELDS = event_table({
    "deal": (Category.CHANCE, ("round", "player", "cards")),
    "start_card": (Category.CHANCE, ("round", "card")),
    "play": (Category.DECISION, ("round", "player", "card")),
    "declare_suit": (Category.DECISION, ("round", "player", "suit")),
    "draw": (Category.DECISION, ("round", "player")),
    "accept_skip": (Category.DECISION, ("round", "player")),
    "accept_draw": (Category.DECISION, ("round", "player")),
    "card_drawn": (Category.CHANCE, ("round", "player", "card")),
    "skip": (Category.RULING, ("round", "player")),
    "forced_draw": (Category.RULING, ("round", "player", "amount")),
    "reshuffle": (Category.RULING, ("round", "cards", "amount")),
    "player_out": (Category.RULING, ("round", "player", "amount")),
    "placed": (Category.RULING, ("round", "player", "amount")),
    "payout": (Category.RULING, ("player", "amount")),
})  # fmt: skip

#: The plug-in contract of Hez2 (:mod:`replay.model.specs`).
SPEC: Final = GameSpec(
    kind="hez2",
    title="Hez2",
    categories=CATEGORIES,
    event_fields=EVENT_FIELDS,
    deck=DECK.order,
    faces=decks.SPANISH_DECK,
    players=(2, 3, 4),
    options=("stakes", "dealer"),
    sample_players=4,
    view_schema=packaged_view_schema("hez2"),
    score_unit=ScoreUnit(
        "game",
        "place",
        ("player_out", "placed"),
        lower_is_better=True,
        thresholds=(0.1, 0.25, 0.5),
        payout=("payout",),
    ),
)

#: The rules of Hez2, registered under their kind.
RULES: Final = register(Hez2(SPEC))
