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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final

from mypy_extensions import i64

from replay.games import register
from replay.games.base import (
    OVER,
    Due,
    Game,
    RuleViolation,
    bot_flags,
    check_deal,
    check_hand_size,
    check_players,
    dealt_cards,
    event_table,
    first_undealt,
    game_winners,
    held_fault,
    highest_of,
    known_cards,
    lowest_of,
    new_state,
    played_card,
    seat_names,
    setup_of,
    undealt_seats,
)
from replay.games.split_hands import LOW_HALF, SPLIT, SplitHandsState, known_halves
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
COLOUR: Final = tuple(ONE if c[0] == "1" else COLOURS.index(c[0]) for c in DECK.order)
#: Points of a card left in hand at the end of a round (FOU-SCORE: a 1 counts 5).
PENALTY: Final[tuple[int, ...]] = tuple(5 if v == 1 else v for v in VALUE)
COLOUR_MASK: Final[tuple[int, ...]] = tuple(
    sum(1 << i for i, c in enumerate(COLOUR) if c == colour) for colour in range(5)
)
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


def card_strength(card: int, led: int) -> int:
    """How strong a played card is: of the led colour or a 1 above a discard, then by value; of
    two equally strong, the later played is the weaker (FOU-TRICK, FOU-FOOL)."""
    return VALUE[card] + (100 if COLOUR[card] in (ONE, led) else 0)


def winning_position(cards: i64, count: int, led: int) -> int:
    """FOU-TRICK: the position of the card that wins a complete trick of ``count`` cards packed
    in ``cards`` (:mod:`replay.model.packed`): the strongest, the first played of equals."""
    best = best_strength = -1
    for pos in range(count):
        strength = card_strength(nth(cards, pos, CARD_BITS), led)
        if strength > best_strength:
            best, best_strength = pos, strength
    return best


def worst_position(cards: i64, seats: i64, count: int, led: int, fooled: int) -> int:
    """FOU-FOOL: the position of the worst card of a trick of ``count`` cards packed in
    ``cards`` (their players in ``seats``) whose player is not in the bit set ``fooled``: the
    weakest, the last played of equals; -1 when every player is."""
    worst = -1
    worst_strength = 1 << 16
    for pos in range(count):
        if fooled >> nth(seats, pos, SEAT_BITS) & 1:
            continue
        strength = card_strength(nth(cards, pos, CARD_BITS), led)
        if strength <= worst_strength:
            worst, worst_strength = pos, strength
    return worst


def trick_winner(cards: list[int], led: int) -> int:
    """:func:`winning_position` of the trick ``cards`` (a list).

    >>> trick_winner([DECK.index("G5"), DECK.index("G9"), DECK.index("R20")], COLOUR[6])
    1
    """
    return winning_position(pack(cards, CARD_BITS), len(cards), led)


def fool_position(cards: list[int], seats: list[int], led: int, fools: Sequence[int]) -> int:
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
    >>> DECK.codes(legal_mask(hand, 0)), DECK.codes(legal_mask(hand, 3))
    (['1a', 'G5'], ['1a', 'G5', 'R7'])
    """
    legal = 0
    for card in bits(hand):
        if may_play(hand, led, card):
            legal |= 1 << card
    return legal


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
    """A Fou! game between events, each field at its first value in a new game.

    The hands are :class:`SplitHandsState`'s (``hand(seat)``), the trick on the table is packed
    (:mod:`replay.model.packed`); the lists (``fools``, ``totals``, ``plus``) are changed in place
    by the reducer and copied by :meth:`clone`. The other fields are immutable.
    """

    names: tuple[str, ...] = ()
    bots: tuple[bool, ...] = ()
    stage: int = DECK_STAGE
    deck: int = 0  # the deck in play (bit set)
    hand_size: int = 12
    first_dealer: int = -1
    round: int = 0
    # Whether a seat's hand is empty since the round's last deal: set by the deal and by
    # ``play_card`` (a hand empties only by a play), read at each trick's end (FOU-ROUND-END).
    emptied: bool = False
    # The cards of the deck in play not dealt yet this round, in two halves (see SPLIT).
    undealt_low: int = 0
    undealt_high: int = 0
    deals: int = 0  # deal events this round
    dealt_seats: int = 0  # seats dealt this round (bit set)
    round_leader: int = -1  # leader of the round's first trick
    trick: int = 0
    leader: int = -1  # leader of the current trick
    turn: int = -1  # seat to play next, -1 when the trick is complete
    out: int = 0  # seats sitting out the current trick (bit set of seats)
    need: int = 0  # cards the current trick takes (seats not sitting out)
    # The current trick, kept until its Fools are named: ``played`` cards, their indices and
    # their players packed (CARD_BITS, SEAT_BITS each); ``table`` and ``table_seats`` list them.
    played: int = 0
    table_cards: i64 = 0
    table_players: i64 = 0
    led: int = -1  # the led colour, -1 until a card other than a 1 is played
    fools: list[int] = field(default_factory=list)  # the last trick's Fools, in naming order
    scored: int = 0  # round_scored events recorded this round
    totals: list[int] = field(default_factory=list)
    plus: list[int] = field(default_factory=list)  # rounds scored +10, per seat
    winners: tuple[int, ...] = ()

    @property
    def table(self) -> list[int]:
        """The cards of the current trick in play order."""
        return unpack(self.table_cards, self.played, CARD_BITS)

    @property
    def table_seats(self) -> list[int]:
        """Who played the cards of :attr:`table`."""
        return unpack(self.table_players, self.played, SEAT_BITS)

    def undealt(self) -> int:
        """The cards of the deck in play not dealt yet this round (a bit set)."""
        return self.undealt_high << SPLIT | self.undealt_low

    def fooled(self) -> int:
        """The seats named Fool for the last complete trick, as a bit set."""
        seats = 0
        for seat in self.fools:
            seats |= 1 << seat
        return seats


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
    return next(s % n for s in range(start, start + n) if totals[s % n] == low)


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

    # ----------------------------------------------------------------- setup
    def start(self, event: Event) -> FouState:
        names, bots = setup_of(event, self.kind, _seats)
        n = len(names)
        state = new_state(FouState, event.game_id, self.kind, n, 1, event)
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
                event = self.new_event(
                    state, "trick_won", round=state.round, trick=state.trick,
                    player=trick_winner_seat(state), cards=DECK.codes_of(state.table),
                )  # fmt: skip
                return Due.of_ruling(event, Rule.TRICK)
            return _PLAY_DUE[state.turn]
        if stage == FOOL:
            return Due.of_ruling(self.fool_at(state, fool_due_position(state)), Rule.FOOL)
        if stage == DEAL:
            return Due.chance(*undealt_seats(state.dealt_seats, state.n), what="deal")
        if stage == SCORE:
            seat = state.scored
            amount = self.round_score(state, seat)
            event = self.new_event(
                state, "round_scored", round=state.round, player=seat, amount=amount,
                total=state.totals[seat] + amount,
            )  # fmt: skip
            return Due.of_ruling(event, Rule.SCORE)
        if stage == END:
            event = self.new_event(state, "game_end", values=game_winners(state.totals))
            return Due.of_ruling(event, Rule.END)
        if stage == DECK_STAGE:
            return Due.chance(what="deck")
        if stage == DEALER:
            return Due.chance(what="dealer")
        return OVER

    def fool_at(self, state: FouState, pos: int) -> Event:
        """The ``fool`` ruling naming the player of the card at ``pos`` in the last trick."""
        seat = nth(state.table_players, pos, SEAT_BITS)
        card = card_name(nth(state.table_cards, pos, CARD_BITS))
        return self.new_event(
            state, "fool", round=state.round, trick=state.trick, player=seat, card=card
        )

    def round_score(self, state: FouState, seat: int) -> int:
        """FOU-SCORE for one seat at the end of the round."""
        penalty = state.weight(seat, PENALTY)  # the points of the cards left, a 1 counting 5
        if penalty:
            return -penalty
        return 0 if state.fooled() >> seat & 1 else EMPTY_HAND_SCORE  # a Fool of the last trick: 0

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
        """Name FOU-TURN/FOU-LEAD/FOU-FOOL/FOU-ROUND-END/FOU-END where a generic check caught
        the fault."""
        seat, kind, stage = event.player, event.type, state.stage
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
        fools = self._fool_count_fault(state, event) if self.refinable(exc) else ""
        if fools:
            return RuleViolation(
                Rule.FOOL, fools, recoverable=exc.recoverable, expected=exc.expected
            )
        if exc.rule == Rule.END and kind == "deal":
            return RuleViolation(
                Rule.END, f"deal for round {event.round} but the game is over: "
                f"{self._end_reason(state)}",
            )  # fmt: skip
        if exc.rule == LogRule.ORDER and kind == "play" and stage == SCORE:
            empty = next(s for s in range(state.n) if not state.hand(s))
            return RuleViolation(
                Rule.ROUND_END, f"seat {seat} played after round {state.round} ended: seat "
                f"{empty} has no cards left",
            )  # fmt: skip
        if exc.rule == LogRule.ORDER and kind == "round_scored" and stage in (PLAY, DEAL):
            return RuleViolation(
                Rule.ROUND_END,
                f"round_scored recorded in round {state.round} while every player holds cards",
            )
        return exc

    def _fool_count_fault(self, state: FouState, event: Event) -> str:
        """FOU-FOOL's reason for a Fool too many (a ``fool`` where none is due) or too few
        (another event where a Fool is due) (RULES.md FOU-FOOL [decision]); "" otherwise."""
        if event.type == "fool" and state.stage != FOOL:
            return f"a Fool too many: trick {state.trick} of round {state.round} has its Fools"
        if event.type not in ("fool", "game_end") and state.stage == FOOL:
            return (
                f"{event.type} recorded but trick {state.trick} has {len(state.fools)} of its "
                f"{fools_per_trick(state.n)} Fools"
            )
        return ""

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
        """The deck in play: distinct cards (LOG-CARD), as many as the hands take (FOU-SETUP);
        the first dealer, a seat (FOU-LEAD); then each round's deals."""
        stage = state.stage
        if stage == DEAL:
            self.verify_deal(state, event)
        elif event.type != ("deck" if stage == DECK_STAGE else "dealer"):
            what, rule = ("the deck in play", Rule.SETUP) if stage == DECK_STAGE else (
                "the first dealer", Rule.LEAD
            )  # fmt: skip
            raise RuleViolation(LogRule.ORDER, f"{event.type} before {what} is recorded ({rule})")
        elif stage == DECK_STAGE:
            cards = event.cards or ()
            if popcount(known_cards(DECK, cards)) != len(cards):
                raise RuleViolation(
                    LogRule.CARD, f"card twice in the deck: {' '.join(repeated(cards))}"
                )
            size = state.hand_size * state.n
            if len(cards) != size:
                raise RuleViolation(
                    Rule.SETUP, f"a deck of {len(cards)} cards for {state.n} players, not {size}"
                )
        elif not isinstance(event.player, int) or not 0 <= event.player < state.n:
            raise RuleViolation(
                Rule.LEAD, f"first dealer {event.player} is not a seat of {state.n} players"
            )

    def verify_deal(self, state: FouState, event: Event) -> tuple[int, int]:
        """A deal where one is due (FOU-SETUP), to a seat not dealt yet this round (Recording
        order), of cards in play and not dealt already (LOG-CARD), as many as a hand holds
        (FOU-SETUP); returns its cards as the halves of a hand (see SPLIT)."""
        if event.type != "deal":
            raise RuleViolation(LogRule.ORDER, f"{event.type} while a deal is due (FOU-SETUP)")
        check_deal(event, state.dealt_seats, state.n, state.round)
        cards = event.cards or ()
        low, high, repeats = known_halves(DECK, cards)
        if repeats or low & ~state.undealt_low or high & ~state.undealt_high:
            mask = high << SPLIT | low
            if mask & ~state.deck:
                outside = " ".join(DECK.codes(mask & ~state.deck))
                raise RuleViolation(
                    LogRule.CARD, f"seat {event.player} dealt {outside} not in play"
                )
            dealt_cards(DECK, cards, state.deck & ~state.undealt())
        check_hand_size(event, state.hand_size, Rule.SETUP)
        return low, high

    def verify_decision(self, state: FouState, event: Event) -> None:
        """A play (Fou!'s one decision): a card its seat holds (LOG-CARD), following the led
        colour (FOU-FOLLOW, FOU-JOKER), numbered in this round and trick."""
        seat = event.player
        assert seat is not None
        hand = state.hand(seat)
        card = played_card(event, DECK, hand)
        if not may_play(hand, state.led, card):  # the game's rule before the numbering
            raise self._follow_violation(state, seat, card)
        if event.round != state.round or event.trick != state.trick:
            raise RuleViolation(
                LogRule.ORDER, f"play in round {event.round} trick {event.trick} during round "
                f"{state.round} trick {state.trick}", recoverable=True,
            )  # fmt: skip

    def _follow_violation(self, state: FouState, seat: int, card: int) -> RuleViolation:
        """FOU-FOLLOW (or FOU-JOKER when a led 1 let a later card set the colour)."""
        held = DECK.codes(state.hand(seat) & COLOUR_MASK[state.led])[0]
        colour = COLOUR_NAMES[state.led]
        played = f"seat {seat} played {card_name(card)} while holding {held} and {colour}"
        if COLOUR[state.table[0]] == ONE:
            setter = card_name(next(c for c in state.table if COLOUR[c] != ONE))
            why = f"{played} was set by {setter} after a led 1"
            return RuleViolation(Rule.JOKER, why, recoverable=True)
        return RuleViolation(Rule.FOLLOW, f"{played} was led", recoverable=True)

    # ----------------------------------------------------------------- reducer
    def reduce(self, state: FouState, event: Event) -> FouState:
        kind = event.type
        seat = event.player
        if kind == "play":
            assert seat is not None and event.card is not None
            play_card(state, seat, DECK.find(event.card))  # a verified play: a card of the deck
        elif kind == "trick_won":  # its winner leads the next trick, once the Fools are named
            if seat is None or not holds(state.table_players, state.played, SEAT_BITS, seat):
                seat = trick_winner_seat(state)  # keep it sound
            state.leader = seat
            state.out = 0  # the trick is over: nobody sits out until the next one starts
            state.fools = []
            state.stage = FOOL
        elif kind == "fool":
            self._reduce_fool(state, seat)
        elif kind == "deal":
            seat = seat if seat is not None else first_undealt(state.dealt_seats)
            mask = DECK.mask(event.cards or ())
            self.deal_hand(state, seat, mask & LOW_HALF, mask >> SPLIT)
        elif kind == "round_scored":
            self._reduce_round_scored(state, event)
        elif kind == "game_end":
            state.winners = tuple(event.values or game_winners(state.totals))
            state.stage = DONE
            state.over = True
        elif kind == "deck":
            state.deck = DECK.mask(event.cards or ())
            state.undealt_low, state.undealt_high = state.deck & LOW_HALF, state.deck >> SPLIT
            state.stage = DEALER
        elif kind == "dealer":
            state.first_dealer = seat or 0
            state.round = 1
            state.round_leader = (state.first_dealer + 1) % state.n
            state.stage = DEAL
        return state

    def deal_hand(self, state: FouState, seat: int, low: int, high: int) -> None:
        """``seat`` is dealt the halves ``low`` and ``high``; the last deal starts the play."""
        state.set_low(seat, low)
        state.set_high(seat, high)
        state.undealt_low &= ~low
        state.undealt_high &= ~high
        state.deals += 1
        state.dealt_seats |= 1 << seat
        if state.deals == state.n:
            state.emptied = state.an_empty_hand()
            self._start_trick(state, state.round_leader, 0)

    def _start_trick(self, state: FouState, leader: int, out: int) -> None:
        """A trick led by ``leader``, the seats of the bit set ``out`` sitting it out."""
        state.stage = PLAY
        state.trick += 1
        state.leader = state.turn = leader
        state.out = out
        state.need = state.n - popcount(out)
        state.played = state.table_cards = state.table_players = 0
        state.led = -1

    def _reduce_fool(self, state: FouState, fool: int | None) -> None:
        """The Fool named sits out the next trick (FOU-FOOL); after the trick's last Fool, the
        next trick starts, or the round ends if a hand is empty (FOU-ROUND-END)."""
        if (
            fool is None or not holds(state.table_players, state.played, SEAT_BITS, fool)
            or state.fooled() >> fool & 1 or fool == state.leader
        ):  # fmt: skip
            fool = nth(state.table_players, fool_due_position(state), SEAT_BITS)  # keep it sound
        state.fools.append(fool)
        if len(state.fools) < fools_per_trick(state.n):
            return
        if state.emptied:
            state.stage = SCORE
            state.played = state.table_cards = state.table_players = 0
        else:
            self._start_trick(state, state.leader, state.fooled())

    def _reduce_round_scored(self, state: FouState, event: Event) -> None:
        """A seat's score as recorded; after the last, the end of the game (FOU-END) or the next
        round, led by the lowest total (FOU-LEAD)."""
        seat = state.scored
        amount = event.amount if isinstance(event.amount, int) else self.round_score(state, seat)
        total = event.total if isinstance(event.total, int) else state.totals[seat] + amount
        state.totals[seat] = total
        if amount == EMPTY_HAND_SCORE:
            state.plus[seat] += 1
        state.scored += 1
        if state.scored < state.n:
            return
        if game_is_over(state.totals, state.plus):
            state.stage = END
            return
        state.round_leader = lowest_total_seat(state.totals, state.round_leader)
        state.round += 1
        state.stage = DEAL
        state.clear_hands()
        state.undealt_low, state.undealt_high = state.deck & LOW_HALF, state.deck >> SPLIT
        state.deals = state.dealt_seats = state.trick = state.scored = 0
        state.fools = []

    # ----------------------------------------------------------------- decisions
    def legal_decisions(self, state: FouState, seat: int) -> list[Event]:
        if state.stage != PLAY or seat != state.turn:
            return []
        legal = legal_mask(state.hand(seat), state.led)
        return [self.play_event(state, seat, card) for card in bits(legal)]

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
    assert pos >= 0, "every player of the trick is already a Fool"
    return pos


def second_fool_position(state: FouState) -> int:
    """FOU-FOOL: the position in the last trick of the second Fool, which may be named first
    at 7-8 players (RULES.md FOU-FOOL [decision]): the worst card but the first Fool's; -1
    when no second Fool may be named first (at 4-6 players, or once a Fool is named)."""
    if fools_per_trick(state.n) < 2 or state.fools:
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
    if state.led < 0 and COLOUR[card] != ONE:  # the first card but a 1 sets the colour (FOU-JOKER)
        state.led = COLOUR[card]
    state.turn = -1 if position + 1 == state.need else next_seat(seat, state.n, state.out)


def game_is_over(totals: list[int], plus: list[int]) -> bool:
    """FOU-END: six rounds of +10 for a player, or a total of -80 or less."""
    return highest_of(plus) >= PLUS_ROUNDS_TO_END or lowest_of(totals) <= LOSING_TOTAL


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
