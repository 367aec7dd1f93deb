"""Fou! (Foppen, RULES.md FOU-*): 4 to 8 players, follow colour, 1s as jokers, the Fool sits out.

Cards are ``<colour><value>`` codes: ``G2``..``G27`` (green), ``R2``..``R23`` (red), ``Y2``..``Y21``
(yellow), ``B2``..``B15`` (blue), and the six colourless 1s ``1a``..``1f``. Inside, a card is an
index into the full 88-card deck (the 1s first, then each colour in increasing value), and a hand
is a bit set; the deck in play is a bit set recorded by the ``deck`` chance event.

Event order: ``game_start``, ``deck`` (chance: the cards in play), ``dealer`` (chance: the first
dealer), then per round ``deal`` x n, and per trick ``play`` by each seat not sitting out,
``trick_won`` and one ``fool`` (two at 7-8 players); a round ends with ``round_scored`` x n, the
game with ``game_end``.

>>> from replay.engine.simulate import simulate_game
>>> events = simulate_game(RULES, "doc", players=5, seed=3, check=True)
>>> final = RULES.replay(events)
>>> final.over, min(final.totals) <= -80 or max(final.plus) >= 6
(True, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from mypy_extensions import i64

from replay.games import register
from replay.games.base import (
    OVER,
    Due,
    Game,
    RuleViolation,
    bot_flags,
    check_players,
    deal_fault,
    event_table,
    first_undealt,
    game_winners,
    held_fault,
    known_cards,
    lowest_of,
    seat_names,
    setup_of,
    undealt_seats,
)
from replay.games.split_hands import HALF_POS, LOW_HALF, SPLIT, SplitHandsState
from replay.model import decks
from replay.model.cards import Deck, bits, popcount, repeated
from replay.model.events import Category, Event, same_payload
from replay.model.packed import CARD_BITS, SEAT_BITS, holds, nth, pack, placed, unpack
from replay.model.specs import GameSpec, ScoreUnit, packaged_view_schema
from replay.model.violation import LogRule, RuleId

COLOURS: Final = "GRYB"
COLOUR_NAMES: Final = ("green", "red", "yellow", "blue")
#: Highest value of each colour in the full deck (every colour starts at 2).
TOP_VALUES: Final = (27, 23, 21, 15)
FULL_SIZES: Final = tuple(top - 1 for top in TOP_VALUES)  # 26, 22, 20, 14
ONE_CODES: Final = ("1a", "1b", "1c", "1d", "1e", "1f")
ONE: Final = 4  # the "colour" of a 1 (it has none)

DECK: Final = Deck(
    [*ONE_CODES, *(c + str(v) for c, top in zip(COLOURS, TOP_VALUES, strict=True)
                   for v in range(2, top + 1))],
    "Fou! deck",
)  # fmt: skip
VALUE: Final[tuple[int, ...]] = tuple(1 if c[0] == "1" else int(c[1:]) for c in DECK.order)
COLOUR: Final[tuple[int, ...]] = tuple(
    ONE if c[0] == "1" else COLOURS.index(c[0]) for c in DECK.order
)
#: Points of a card left in hand at the end of a round (FOU-SCORE: a 1 counts 5).
PENALTY: Final[tuple[int, ...]] = tuple(5 if v == 1 else v for v in VALUE)
ONES_MASK: Final = DECK.mask(ONE_CODES)
COLOUR_MASK: Final[tuple[int, ...]] = tuple(
    sum(1 << i for i, c in enumerate(COLOUR) if c == colour) for colour in range(5)
)
#: Each hand is kept in two halves (:mod:`replay.games.split_hands`): the low half holds
#: the 1s, green and red (cards 0..53), the high one yellow and blue: each colour lies in one
#: half, so following it is one test of one half (:mod:`replay.games.fou_fast`).
assert len(DECK) == 88 and DECK.index("Y2") == SPLIT and COLOUR_MASK[1] >> SPLIT == 0
#: ``VALUE[card] << 7 | COLOUR[card]``: what :func:`card_rank` needs of a card, in one lookup.
_RANK_INFO: Final[tuple[int, ...]] = tuple(v << 7 | c for v, c in zip(VALUE, COLOUR, strict=True))

EMPTY_HAND_SCORE: Final = 10
PLUS_ROUNDS_TO_END: Final = 6
LOSING_TOTAL: Final = -80

# Stages of a game.
DECK_STAGE: Final = 0
DEALER: Final = 1
DEAL: Final = 2
PLAY: Final = 3
FOOL: Final = 4
SCORE: Final = 5
END: Final = 6
DONE: Final = 7
_PLAY_DUE: Final = tuple(Due.decision(seat, what="play") for seat in range(8))

#: Events whose cards only their own seat sees.
PRIVATE_EVENTS: Final = frozenset({"deal"})


def hand_size(players: int) -> int:
    """Cards dealt to each player: 12, or 11 at 8 players (FOU-SETUP)."""
    return 11 if players == 8 else 12


def fools_per_trick(players: int) -> int:
    """Fools made by each trick: two at 7 or 8 players, else one (FOU-FOOL)."""
    return 2 if players >= 7 else 1


def colour_counts(players: int) -> tuple[int, ...]:
    """Cards kept per colour in the [default] deck for ``players`` (largest remainder).

    >>> colour_counts(4), colour_counts(8)
    ((14, 11, 10, 7), (26, 22, 20, 14))
    """
    coloured = hand_size(players) * players - len(ONE_CODES)
    full = sum(FULL_SIZES)
    counts = [size * coloured // full for size in FULL_SIZES]
    remainders = [size * coloured % full for size in FULL_SIZES]
    by_remainder = sorted(range(4), key=lambda c: (-remainders[c], c))
    for colour in by_remainder[: coloured - sum(counts)]:
        counts[colour] += 1
    return tuple(counts)


def default_deck(players: int) -> tuple[str, ...]:
    """The [default] deck in play: all six 1s and each colour's lowest values (FOU-SETUP).

    >>> deck = default_deck(4)
    >>> len(deck), deck[6], deck[-1]
    (48, 'G2', 'B8')
    """
    kept = [c + str(v) for c, n in zip(COLOURS, colour_counts(players), strict=True)
            for v in range(2, n + 2)]  # fmt: skip
    return (*ONE_CODES, *kept)


def card_name(card: int) -> str:
    """The code of a card index."""
    return DECK.order[card]


def describe_colour(colour: int) -> str:
    """A colour's name for messages (``none`` when no colour is set)."""
    return COLOUR_NAMES[colour] if 0 <= colour < 4 else "none"


def card_rank(card: int, position: int, led: int) -> int:
    """A sortable strength of a played card: led colour (and 1s) above discards, then value,
    then the earlier card (ties are lost by the later card; FOU-TRICK, FOU-FOOL)."""
    info = _RANK_INFO[card]
    colour = info & 7
    rank = (info >> 3) | (15 - position)  # the value, shifted left by 4
    return rank | (1 << 10) if colour in (ONE, led) else rank


NO_RANK: Final = 1 << 16  # above every card_rank


def rank_position(rank: int) -> int:
    """The position in the trick of a card from its :func:`card_rank`."""
    return 15 - (rank & 15)


def winning_position(cards: i64, count: int, led: int) -> int:
    """FOU-TRICK: the position of the card that wins a complete trick of ``count`` cards packed
    in ``cards`` (:mod:`replay.model.packed`): the best :func:`card_rank`."""
    best = 0
    for pos in range(count):
        rank = card_rank(nth(cards, pos, CARD_BITS), pos, led)
        if rank > best:
            best = rank
    return rank_position(best)


def worst_position(cards: i64, seats: i64, count: int, led: int, fooled: int) -> int:
    """FOU-FOOL: the position of the worst card of a trick of ``count`` cards packed in
    ``cards`` (their players in ``seats``) whose player is not in the bit set ``fooled``; -1
    when every player is."""
    worst = -1
    worst_rank = NO_RANK
    for pos in range(count):
        if fooled >> nth(seats, pos, SEAT_BITS) & 1:
            continue
        rank = card_rank(nth(cards, pos, CARD_BITS), pos, led)
        if rank < worst_rank:
            worst, worst_rank = pos, rank
    return worst


def trick_winner(cards: list[int], led: int) -> int:
    """:func:`winning_position` of the trick ``cards`` (a list).

    >>> trick_winner([DECK.index("G5"), DECK.index("G9"), DECK.index("R20")], COLOUR[6])
    1
    """
    return winning_position(pack(cards, CARD_BITS), len(cards), led)


def fool_position(cards: list[int], seats: list[int], led: int, fools: list[int]) -> int:
    """:func:`worst_position` of the trick ``cards`` played by ``seats`` (lists), ``fools``
    left out.

    >>> cards = [DECK.index("G5"), DECK.index("1a"), DECK.index("R9")]
    >>> fool_position(cards, [3, 4, 5], COLOUR[6], []), fool_position(cards, [3, 4, 5], 0, [5])
    (2, 1)
    """
    fooled = 0
    for seat in fools:
        fooled |= 1 << seat
    return worst_position(pack(cards, CARD_BITS), pack(seats, SEAT_BITS), len(cards), led, fooled)


def may_play(hand: int, led: int, card: int) -> bool:
    """Whether ``card`` of ``hand`` may be played when ``led`` is the led colour (-1: not set):
    a 1, a card of the led colour, or any card when the hand has none of it (FOU-FOLLOW).

    The rule for one card: a hand past 62 cards is a long int, and testing one card costs
    less than building the whole legal set.

    >>> hand = DECK.mask(["1a", "G5", "R7"])
    >>> may_play(hand, 0, DECK.index("R7")), may_play(hand, 2, DECK.index("R7"))
    (False, True)
    """
    if not hand >> card & 1:
        return False
    colour = COLOUR[card]
    return led < 0 or colour in (ONE, led) or not hand & COLOUR_MASK[led]


def legal_mask(hand: int, led: int) -> int:
    """The cards of ``hand`` that may be played when ``led`` is the led colour (-1: not set):
    those :func:`may_play` allows.

    >>> hand = DECK.mask(["1a", "G5", "R7"])
    >>> DECK.codes(legal_mask(hand, 0))
    ['1a', 'G5']
    >>> DECK.codes(legal_mask(hand, 3))
    ['1a', 'G5', 'R7']
    """
    legal = 0
    for card in bits(hand):
        if may_play(hand, led, card):
            legal |= 1 << card
    return legal


def hand_penalty(hand: int) -> int:
    """The points of the cards left in a hand (a 1 counts 5).

    >>> hand_penalty(DECK.mask(["1a", "G5", "B15"]))
    25
    """
    return _half_penalty(hand & LOW_HALF, 0) + _half_penalty(hand >> SPLIT, SPLIT)


def _half_penalty(half: int, first: int) -> int:
    """The points of the cards of one half of a hand (``first``: the index of its bit 0)."""
    total = 0
    while half:
        low = half & -half
        total += PENALTY[first + low.bit_length() - 1]
        half ^= low
    return total


class Rule(RuleId):
    """The rules of Fou! (RULES.md FOU-*), in the order RULES.md gives them."""

    SETUP = "FOU-SETUP"
    LEAD = "FOU-LEAD"
    TURN = "FOU-TURN"
    FOLLOW = "FOU-FOLLOW"
    JOKER = "FOU-JOKER"
    TRICK = "FOU-TRICK"
    FOOL = "FOU-FOOL"
    ROUND_END = "FOU-ROUND-END"
    SCORE = "FOU-SCORE"
    END = "FOU-END"


@dataclass(slots=True, init=False)
class FouState(SplitHandsState):
    """A Fou! game between events.

    The hands, the tricks and the Fools are bit sets and packed ints (:mod:`replay.model.packed`);
    the lists (``totals``, ``plus``) are changed in place by the reducer and copied by
    :meth:`clone`. The other fields are immutable.
    """

    names: tuple[str, ...]
    bots: tuple[bool, ...]
    stage: int
    deck: int  # the deck in play (bit set)
    hand_size: int
    first_dealer: int
    round: int
    # Whether a seat's hand is empty since the round's last deal: set by the deal and by
    # ``play_card`` (a hand empties only by a play), read at each trick's end (FOU-ROUND-END).
    emptied: bool
    # The cards of the deck not dealt yet this round, in two halves (see SPLIT).
    undealt_low: int
    undealt_high: int
    deals: int  # deal events this round
    dealt_seats: int  # seats dealt this round (bit set)
    round_leader: int  # leader of the round's first trick
    trick: int
    leader: int  # leader of the current trick
    turn: int  # seat to play next, -1 when the trick is complete
    out: int  # seats sitting out the current trick (bit set of seats)
    need: int  # cards the current trick takes (seats not sitting out)
    # The current trick in play order, packed (see replay.model.packed), kept until its Fools
    # are named; ``table`` and ``table_seats`` list them.
    played: int  # cards on the table
    table_cards: i64  # CARD_BITS per card
    table_players: i64  # SEAT_BITS per seat
    led: int  # the led colour, -1 until a card other than a 1 is played
    # The Fools named for the last complete trick, packed in naming order; ``fools`` lists them.
    fool_count: int
    fool_seats: i64  # SEAT_BITS per seat
    scored: int  # round_scored events recorded this round
    totals: list[int]
    plus: list[int]  # rounds scored +10, per seat
    winners: tuple[int, ...]

    def __init__(
        self, game_id: str, kind: str, n: int, seq: int = 0, last: Event | None = None
    ) -> None:
        SplitHandsState.__init__(self, game_id, kind, n, seq, last)
        self.names = ()
        self.bots = ()
        self.stage = DECK_STAGE
        self.deck = 0
        self.hand_size = 12
        self.first_dealer = -1
        self.round = 0
        self.emptied = False
        self.undealt_low = 0
        self.undealt_high = 0
        self.deals = 0
        self.dealt_seats = 0
        self.round_leader = -1
        self.trick = 0
        self.leader = -1
        self.turn = -1
        self.out = 0
        self.need = 0
        self.played = 0
        self.table_cards = 0
        self.table_players = 0
        self.led = -1
        self.fool_count = 0
        self.fool_seats = 0
        self.scored = 0
        self.totals = []
        self.plus = []
        self.winners = ()

    @property
    def table(self) -> list[int]:
        """The cards of the current trick in play order."""
        return unpack(self.table_cards, self.played, CARD_BITS)

    @property
    def table_seats(self) -> list[int]:
        """Who played the cards of :attr:`table`."""
        return unpack(self.table_players, self.played, SEAT_BITS)

    @property
    def fools(self) -> list[int]:
        """The Fools named for the last complete trick, in naming order."""
        return unpack(self.fool_seats, self.fool_count, SEAT_BITS)

    def fooled(self) -> int:
        """The seats named Fool for the last complete trick, as a bit set."""
        seats = 0
        for position in range(self.fool_count):
            seats |= 1 << nth(self.fool_seats, position, SEAT_BITS)
        return seats

    def is_fool(self, seat: int) -> bool:
        """Whether ``seat`` is named Fool for the last complete trick."""
        return holds(self.fool_seats, self.fool_count, SEAT_BITS, seat)

    def clear_fools(self) -> None:
        """No Fool named yet."""
        self.fool_count = 0
        self.fool_seats = 0


def _seats(setup: Mapping[str, Any]) -> tuple[tuple[str, ...], tuple[bool, ...]]:
    """The names and bot flags of a game's setup, one per seat (LOG-SETUP, FOU-SETUP)."""
    n = check_players(setup, min(SPEC.players), max(SPEC.players), Rule.SETUP)
    return seat_names(setup, n), bot_flags(setup, n)


def next_seat(seat: int, n: int, out: int) -> int:
    """The next seat clockwise after ``seat`` that is not sitting out (FOU-TURN)."""
    seat = seat + 1 if seat + 1 < n else 0
    while out >> seat & 1:
        seat = seat + 1 if seat + 1 < n else 0
    return seat


def lowest_total_seat(totals: list[int], start: int) -> int:
    """The seat with the lowest total; ties go to the first clockwise from ``start`` (FOU-LEAD).

    >>> lowest_total_seat([-5, -9, 0, -9], 2)
    3
    """
    n = len(totals)
    low = lowest_of(totals)
    for s in range(start, start + n):
        if totals[s % n] == low:
            return s % n
    raise AssertionError("the lowest total belongs to a seat")


class Fou(Game[FouState]):
    """The Fou! rules of RULES.md."""

    turn_rule: ClassVar[RuleId] = Rule.TURN
    end_rule: ClassVar[RuleId] = Rule.END
    due_rules: ClassVar[Mapping[str, RuleId]] = {
        "deck": Rule.SETUP,
        "dealer": Rule.LEAD,
        "deal": Rule.SETUP,
        "play": Rule.TURN,
    }
    rule_ids: ClassVar[tuple[RuleId, ...]] = tuple(Rule)
    #: The end of a round is no event of its own: breaking it takes an inserted or a removed
    #: event (docs/audit.md).
    not_breakable_alone: ClassVar[frozenset[RuleId]] = frozenset({Rule.ROUND_END})
    deck: ClassVar[Deck] = DECK

    # ----------------------------------------------------------------- setup
    def start(self, event: Event) -> FouState:
        names, bots = setup_of(event, self.kind, _seats)
        n = len(names)
        state = FouState(event.game_id, self.kind, n, 1, event)
        state.names, state.bots = names, bots
        state.hand_size = hand_size(n)
        state.totals = [0] * n
        state.plus = [0] * n
        return state

    # ----------------------------------------------------------------- what is due
    def due(self, state: FouState) -> Due:
        stage = state.stage
        if stage == PLAY:
            if state.played == state.need:
                return Due.of_ruling(self._trick_won(state), Rule.TRICK)
            return _PLAY_DUE[state.turn]
        if stage == FOOL:
            return Due.of_ruling(self._fool(state), Rule.FOOL)
        if stage == DEAL:
            return Due.chance(*undealt_seats(state.dealt_seats, state.n), what="deal")
        if stage == SCORE:
            return Due.of_ruling(self._round_scored(state), Rule.SCORE)
        if stage == END:
            event = self.new_event(state, "game_end", values=game_winners(state.totals))
            return Due.of_ruling(event, Rule.END)
        if stage == DECK_STAGE:
            return Due.chance(what="deck")
        if stage == DEALER:
            return Due.chance(what="dealer")
        return OVER

    def _trick_won(self, state: FouState) -> Event:
        return self.new_event(
            state, "trick_won", round=state.round, trick=state.trick,
            player=trick_winner_seat(state), cards=DECK.codes_of(state.table),
        )  # fmt: skip

    def _fool(self, state: FouState) -> Event:
        return self.fool_at(state, fool_due_position(state))

    def fool_at(self, state: FouState, pos: int) -> Event:
        """The ``fool`` ruling naming the player of the card at ``pos`` in the last trick."""
        seat = nth(state.table_players, pos, SEAT_BITS)
        card = card_name(nth(state.table_cards, pos, CARD_BITS))
        return self.new_event(
            state, "fool", round=state.round, trick=state.trick, player=seat, card=card
        )

    def round_score(self, state: FouState, seat: int) -> int:
        """FOU-SCORE for one seat at the end of the round."""
        low = state.low(seat)
        high = state.high(seat)
        if low or high:
            return -(_half_penalty(low, 0) + _half_penalty(high, SPLIT))
        return 0 if state.is_fool(seat) else EMPTY_HAND_SCORE

    def _round_scored(self, state: FouState) -> Event:
        seat = state.scored
        amount = self.round_score(state, seat)
        return self.new_event(
            state, "round_scored", round=state.round, player=seat, amount=amount,
            total=state.totals[seat] + amount,
        )  # fmt: skip

    # ----------------------------------------------------------------- verification
    def verify(self, state: FouState, event: Event) -> None:
        """The generic checks (:meth:`Rules.verify`), with Fou!'s own rule named where one
        decides the fault (:meth:`_refine`), and the second Fool of a trick accepted first."""
        try:
            if self._second_fool_first(state, event):
                return
            super().verify(state, event)
        except RuleViolation as exc:
            raise self._refine(state, event, exc) from None

    def _second_fool_first(self, state: FouState, event: Event) -> bool:
        """FOU-FOOL: at 7-8 players the two Fools of a trick may be recorded in either order
        (RULES.md FOU-FOOL [decision]): whether ``event``, next in sequence, names the second
        Fool before the first, as the rules give it."""
        if event.seq != state.seq or state.stage != FOOL or event.type != "fool":
            return False
        pos = second_fool_position(state)
        return pos >= 0 and same_payload(event, self.fool_at(state, pos))

    def _refine(self, state: FouState, event: Event, exc: RuleViolation) -> RuleViolation:
        """Name FOU-TURN/FOU-LEAD/FOU-ROUND-END/FOU-END where a generic check caught the fault."""
        seat = event.player
        if exc.rule == self.turn_rule and isinstance(seat, int) and 0 <= seat < state.n:
            if state.out >> seat & 1:
                return RuleViolation(
                    Rule.TURN, f"seat {seat} played in trick {state.trick} but is the Fool "
                    f"sitting it out; seat {state.turn} is to play",
                )  # fmt: skip
            if not state.table:
                return RuleViolation(
                    Rule.LEAD, f"seat {seat} led trick {state.trick} of round {state.round} "
                    f"but seat {state.turn} leads it",
                )  # fmt: skip
            return exc
        fools = self._fool_count_fault(state, event, exc) if self.refinable(exc) else None
        if fools is not None:
            return fools
        if exc.rule == Rule.END and event.type == "deal":
            return RuleViolation(
                Rule.END, f"deal for round {event.round} but the game is over: "
                f"{self._end_reason(state)}",
            )  # fmt: skip
        if exc.rule != LogRule.ORDER:
            return exc
        if event.type == "play" and state.stage == SCORE:
            empty = [s for s in range(state.n) if not state.hand(s)]
            return RuleViolation(
                Rule.ROUND_END, f"seat {seat} played after round {state.round} ended: seat "
                f"{empty[0]} has no cards left",
            )  # fmt: skip
        if event.type == "round_scored" and state.stage in (PLAY, DEAL):
            return RuleViolation(
                Rule.ROUND_END,
                f"round_scored recorded in round {state.round} while every player holds cards",
            )
        return exc

    def _fool_count_fault(
        self, state: FouState, event: Event, exc: RuleViolation
    ) -> RuleViolation | None:
        """FOU-FOOL for a Fool too many (a ``fool`` where none is due) or too few (another
        event where a Fool is due) (RULES.md FOU-FOOL [decision]); None otherwise."""
        if event.type == "fool" and state.stage != FOOL:
            why = f"a Fool too many: trick {state.trick} of round {state.round} has its Fools"
        elif event.type != "fool" and state.stage == FOOL and event.type != "game_end":
            named = state.fool_count
            why = (
                f"{event.type} recorded but trick {state.trick} has {named} of its "
                f"{fools_per_trick(state.n)} Fools"
            )
        else:
            return None
        return RuleViolation(Rule.FOOL, why, recoverable=exc.recoverable, expected=exc.expected)

    def _end_reason(self, state: FouState) -> str:
        for seat in range(state.n):
            if state.plus[seat] >= PLUS_ROUNDS_TO_END:
                return f"seat {seat} scored +10 in {state.plus[seat]} rounds"
        seat = min(range(state.n), key=state.totals.__getitem__)
        return f"seat {seat} has a total of {state.totals[seat]}"

    def card_fault(self, state: FouState, event: Event) -> RuleViolation | None:
        seat = event.player
        if seat is None or not 0 <= seat < state.n:
            return None
        return held_fault(event, state.hand(seat), DECK)

    def verify_chance(self, state: FouState, event: Event) -> None:
        stage = state.stage
        if stage == DEAL:
            self.verify_deal(state, event)
        elif stage == DECK_STAGE:
            self._verify_deck(state, event)
        else:
            self._verify_dealer(state, event)

    def _verify_deck(self, state: FouState, event: Event) -> None:
        if event.type != "deck":
            raise RuleViolation(
                LogRule.ORDER, f"{event.type} before the deck in play is recorded (FOU-SETUP)"
            )
        cards = event.cards or ()
        mask = known_cards(DECK, cards)
        if popcount(mask) != len(cards):
            raise RuleViolation(
                LogRule.CARD, f"card twice in the deck: {' '.join(repeated(cards))}"
            )
        size = state.hand_size * state.n
        if len(cards) != size:
            raise RuleViolation(
                Rule.SETUP, f"a deck of {len(cards)} cards for {state.n} players, not {size}"
            )

    def _verify_dealer(self, state: FouState, event: Event) -> None:
        if event.type != "dealer":
            raise RuleViolation(
                LogRule.ORDER, f"{event.type} before the first dealer is recorded (FOU-LEAD)"
            )
        if not isinstance(event.player, int) or not 0 <= event.player < state.n:
            raise RuleViolation(
                Rule.LEAD, f"first dealer {event.player} is not a seat of {state.n} players"
            )

    def verify_deal(self, state: FouState, event: Event) -> tuple[int, int]:
        """Check a deal; return its cards as the halves of a hand (see SPLIT)."""
        if event.type != "deal":
            raise RuleViolation(LogRule.ORDER, f"{event.type} while a deal is due (FOU-SETUP)")
        fault = deal_fault(event, state.dealt_seats, state.n, state.round)
        if fault is not None:
            raise fault
        cards = event.cards or ()
        # The hand in its two halves, and whether a card repeats.
        low = high = 0
        repeats = False
        try:
            for code in cards:
                card = DECK.find(code)
                if card < 0:
                    raise KeyError(code)
                bit = 1 << HALF_POS[card]
                if card < SPLIT:
                    repeats = repeats or low & bit != 0
                    low |= bit
                else:
                    repeats = repeats or high & bit != 0
                    high |= bit
        except (KeyError, TypeError):  # TypeError: not a str, or unhashable
            known_cards(DECK, cards)  # raises LOG-CARD naming the unknown code
            raise
        if repeats or low & ~state.undealt_low or high & ~state.undealt_high:
            mask = high << SPLIT | low
            if mask & ~state.deck:
                outside = " ".join(DECK.codes(mask & ~state.deck))
                raise RuleViolation(
                    LogRule.CARD, f"seat {event.player} dealt {outside} not in play"
                )
            dealt = state.deck & ~(state.undealt_high << SPLIT | state.undealt_low)
            twice = DECK.codes(mask & dealt) or repeated(cards)
            raise RuleViolation(LogRule.CARD, f"card dealt twice: {' '.join(twice)}")
        if len(cards) != state.hand_size:
            raise RuleViolation(
                Rule.SETUP,
                f"seat {event.player} dealt {len(cards)} cards, not {state.hand_size}",
            )
        return low, high

    def verify_decision(self, state: FouState, event: Event) -> None:
        seat = event.player
        assert seat is not None
        code = event.card  # a play: Fou!'s one decision
        if code is None or code not in DECK:
            raise RuleViolation(LogRule.CARD, f"seat {seat} played unknown card {code!r}")
        card = DECK.index(code)
        hand = state.hand(seat)
        if not hand >> card & 1:
            raise RuleViolation(LogRule.CARD, f"seat {seat} played {code} which it does not hold")
        if not may_play(hand, state.led, card):  # the game's rule before the numbering
            raise self._follow_violation(state, seat, card)
        if event.round != state.round or event.trick != state.trick:
            raise RuleViolation(
                LogRule.ORDER, f"play in round {event.round} trick {event.trick} during round "
                f"{state.round} trick {state.trick}", recoverable=True,
            )  # fmt: skip

    def _follow_violation(self, state: FouState, seat: int, card: int) -> RuleViolation:
        """FOU-FOLLOW (or FOU-JOKER when a led 1 let a later card set the colour)."""
        led = state.led
        held = DECK.codes(state.hand(seat) & COLOUR_MASK[led])
        colour = COLOUR_NAMES[led]
        if COLOUR[state.table[0]] == ONE:
            setter = next(c for c in state.table if COLOUR[c] != ONE)
            return RuleViolation(
                Rule.JOKER, f"seat {seat} played {card_name(card)} while holding {held[0]} and "
                f"{colour} was set by {card_name(setter)} after a led 1", recoverable=True,
            )  # fmt: skip
        return RuleViolation(
            Rule.FOLLOW, f"seat {seat} played {card_name(card)} while holding {held[0]} and "
            f"{colour} was led", recoverable=True,
        )  # fmt: skip

    # ----------------------------------------------------------------- reducer
    def reduce(self, state: FouState, event: Event) -> FouState:
        kind = event.type
        if kind == "play":
            return self._reduce_play(state, event)
        if kind == "trick_won":
            return self._reduce_trick_won(state, event)
        if kind == "fool":
            return self._reduce_fool(state, event)
        if kind == "deal":
            return self._reduce_deal(state, event)
        if kind == "round_scored":
            return self._reduce_round_scored(state, event)
        if kind == "game_end":
            state.winners = tuple(event.values or game_winners(state.totals))
            state.stage = DONE
            state.over = True
        elif kind == "deck":
            state.deck = DECK.mask(event.cards or ())
            state.undealt_low = state.deck & LOW_HALF
            state.undealt_high = state.deck >> SPLIT
            state.stage = DEALER
        elif kind == "dealer":
            state.first_dealer = event.player or 0
            state.round = 1
            state.round_leader = (state.first_dealer + 1) % state.n
            state.stage = DEAL
        return state

    def _reduce_deal(self, state: FouState, event: Event) -> FouState:
        seat = event.player if event.player is not None else first_undealt(state.dealt_seats)
        mask = DECK.mask(event.cards or ())
        self.deal_hand(state, seat, mask & LOW_HALF, mask >> SPLIT)
        return state

    def deal_hand(self, state: FouState, seat: int, low: int, high: int) -> None:
        """``seat`` is dealt the hand of halves ``low`` and ``high`` (see SPLIT)."""
        state.set_low(seat, low)
        state.set_high(seat, high)
        state.undealt_low &= ~low
        state.undealt_high &= ~high
        state.deals += 1
        state.dealt_seats |= 1 << seat
        if state.deals == state.n:
            state.emptied = state.an_empty_hand()
            state.trick = 0
            state.clear_fools()
            self._start_trick(state, state.round_leader, 0)

    def _start_trick(self, state: FouState, leader: int, out: int) -> None:
        state.stage = PLAY
        state.trick += 1
        state.leader = state.turn = leader
        state.out = out
        state.need = state.n - popcount(out)
        state.played = state.table_cards = state.table_players = 0
        state.led = -1

    def _reduce_play(self, state: FouState, event: Event) -> FouState:
        seat = event.player
        assert seat is not None and event.card is not None
        play_card(state, seat, DECK.find(event.card))  # a verified play: the card is in the deck
        return state

    def _reduce_trick_won(self, state: FouState, event: Event) -> FouState:
        winner = event.player
        if winner is None or not holds(state.table_players, state.played, SEAT_BITS, winner):
            winner = state.table_seats[trick_winner(state.table, state.led)]  # keep it sound
        state.leader = winner
        state.out = 0  # the trick is over: nobody sits out until the next one starts
        state.clear_fools()
        state.stage = FOOL
        return state

    def _reduce_fool(self, state: FouState, event: Event) -> FouState:
        fool = event.player
        if (
            fool is None or not holds(state.table_players, state.played, SEAT_BITS, fool)
            or state.is_fool(fool) or fool == state.leader
        ):  # fmt: skip
            fool = nth(state.table_players, fool_due_position(state), SEAT_BITS)  # keep it sound
        state.fool_seats |= placed(fool, state.fool_count, SEAT_BITS)
        state.fool_count += 1
        if state.fool_count < fools_per_trick(state.n):
            return state
        if state.emptied:  # FOU-ROUND-END: the trick is complete, a hand empty
            state.stage = SCORE
            state.scored = 0
            state.played = state.table_cards = state.table_players = 0
            return state
        out = 0
        for position in range(state.fool_count):
            seat: int = nth(state.fool_seats, position, SEAT_BITS)
            out |= 1 << seat
        self._start_trick(state, state.leader, out)
        return state

    def _reduce_round_scored(self, state: FouState, event: Event) -> FouState:
        seat = state.scored
        amount = event.amount if isinstance(event.amount, int) else self.round_score(state, seat)
        total = event.total if isinstance(event.total, int) else state.totals[seat] + amount
        state.totals[seat] = total
        if amount == EMPTY_HAND_SCORE:
            state.plus[seat] += 1
        state.scored += 1
        if state.scored < state.n:
            return state
        if game_is_over(state.totals, state.plus):
            state.stage = END
            return state
        state.round_leader = lowest_total_seat(state.totals, state.round_leader)
        state.round += 1
        state.stage = DEAL
        state.clear_hands()
        state.undealt_low = state.deck & LOW_HALF
        state.undealt_high = state.deck >> SPLIT
        state.deals = state.dealt_seats = 0
        state.trick = 0
        state.clear_fools()
        return state

    # ----------------------------------------------------------------- decisions and chance
    def legal_cards(self, state: FouState, seat: int) -> int:
        """The cards ``seat`` may play now (a bit set; assumes it is their turn)."""
        return legal_mask(state.hand(seat), state.led)

    def legal_decisions(self, state: FouState, seat: int) -> list[Event]:
        if state.stage != PLAY or seat != state.turn:
            return []
        return [self.play_event(state, seat, c) for c in bits(self.legal_cards(state, seat))]

    def play_event(self, state: FouState, seat: int, card: int) -> Event:
        """The ``play`` event of ``card`` (an index) by ``seat`` in the current trick."""
        return self.new_event(
            state, "play", round=state.round, trick=state.trick, player=seat,
            card=card_name(card),
        )  # fmt: skip

    def result(self, state: FouState) -> dict[str, Any]:
        return {"winners": list(state.winners), "totals": list(state.totals)}


def trick_winner_seat(state: FouState) -> int:
    """FOU-TRICK: the seat that wins the complete trick on the table, the ruling ``trick_won``
    names."""
    return nth(state.table_players, winning_position(state.table_cards, state.played, state.led),
               SEAT_BITS)  # fmt: skip


def fool_due_position(state: FouState) -> int:
    """FOU-FOOL: the position in the trick on the table of the next Fool, the ruling ``fool``
    names: the worst card whose player is not yet named Fool."""
    pos = worst_position(
        state.table_cards, state.table_players, state.played, state.led, state.fooled()
    )
    if pos < 0:
        raise AssertionError("every player of the trick is already a Fool")
    return pos


def second_fool_position(state: FouState) -> int:
    """FOU-FOOL: the position in the last trick of the second Fool, which may be named first
    at 7-8 players (RULES.md FOU-FOOL [decision]): the worst card but the first Fool's; -1
    when no second Fool may be named first (at 4-6 players, or once a Fool is named)."""
    if fools_per_trick(state.n) < 2 or state.fool_count:
        return -1
    cards, seats, count, led = state.table_cards, state.table_players, state.played, state.led
    first = nth(seats, worst_position(cards, seats, count, led, 0), SEAT_BITS)
    return worst_position(cards, seats, count, led, 1 << first)


def play_card(state: FouState, seat: int, card: int) -> None:
    """``seat`` plays ``card`` (the reducer's part of a play)."""
    if state.remove(seat, card):
        state.emptied = True
    position = state.played
    state.table_cards |= placed(card, position, CARD_BITS)
    state.table_players |= placed(seat, position, SEAT_BITS)
    state.played = position + 1
    if state.led < 0:
        colour = COLOUR[card]
        if colour != ONE:
            state.led = colour
    if position + 1 == state.need:
        state.turn = -1
    else:
        state.turn = next_seat(seat, state.n, state.out)


def game_is_over(totals: list[int], plus: list[int]) -> bool:
    """FOU-END: six rounds of +10 for a player, or a total of -80 or less."""
    for seat in range(len(totals)):
        if plus[seat] >= PLUS_ROUNDS_TO_END or totals[seat] <= LOSING_TOTAL:
            return True
    return False


#: Every event type of the game: its category, and the fields it carries besides its position
#: (``ts`` on any event; another field set is a fault, in the store's checks and the audit alike).
CATEGORIES, EVENT_FIELDS = event_table({
    "deck": (Category.CHANCE, ("cards",)),
    "dealer": (Category.CHANCE, ("player",)),
    "deal": (Category.CHANCE, ("round", "player", "cards")),
    "play": (Category.DECISION, ("round", "trick", "player", "card")),
    "trick_won": (Category.RULING, ("round", "trick", "player", "cards")),
    "fool": (Category.RULING, ("round", "trick", "player", "card")),
    "round_scored": (Category.RULING, ("round", "player", "amount", "total")),
})  # fmt: skip

#: The plug-in contract of Fou! (:mod:`replay.model.specs`): four colours and six jokers.
SPEC: Final = GameSpec(
    kind="fou",
    title="Fou!",
    categories=CATEGORIES,
    event_fields=EVENT_FIELDS,
    deck=DECK.order,
    faces=decks.COLOURS_AND_JOKERS,
    players=(4, 5, 6, 7, 8),
    sample_players=6,
    view_schema=packaged_view_schema("fou"),
    score_unit=ScoreUnit(
        "round", "score", ("round_scored",), lower_is_better=False, thresholds=(1.0, 3.0, 8.0)
    ),
)

#: The rules of Fou!, registered under their kind.
RULES: Final = register(Fou(SPEC))
