"""Hiifuu (RULES.md HIIFUU-*): 4-6 players, secret discard, exactly two tricks for a token.

Cards are ``<value><suit>`` codes: values 1-13 (4 players), 1-15 (5) or 1-18 (6), suits
``R G B Y`` (red, green, blue, yellow): ``1R``, ``13Y``, ``18G``. Inside, a card is the index
``suit * V + value - 1`` (``V`` values per suit) and a hand is a bit set, so within one suit a
higher index is a higher card.

A game is five rounds at most. Each round lays out its four tokens (``tokens``), deals every card
(``deal`` per seat), collects one secret ``discard`` per seat, then plays 9 or 10 tricks. Winning a
second trick takes the first token left (``token_taken``), a third covers it (``token_covered``).

>>> from replay.engine.simulate import simulate_game
>>> events = simulate_game(RULES, "doc", players=5, seed=3, check=True)
>>> final = RULES.replay(events)
>>> final.over, final.round <= 5
(True, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
    game_winners,
    given_cards,
    highest_of,
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
from replay.model.cards import Deck, bits, lowest
from replay.model.events import Category, Event
from replay.model.packed import CARD_BITS, nth, placed
from replay.model.specs import GameSpec, ScoreUnit, packaged_view_schema
from replay.model.violation import LogRule, RuleId

SUITS: Final = "RGBY"
SUIT_NAMES: Final = ("red", "green", "blue", "yellow")
ROUNDS: Final = 5
TARGET: Final = 10
TOKENS_PER_ROUND: Final = 4
NORMAL: Final = "normal"
RANDOM_TOKENS: Final = "random-tokens"
VARIANTS: Final = (NORMAL, RANDOM_TOKENS)

#: [default] token values per round (HIIFUU-TOKENS), used only when a setup gives none.
DEFAULT_TOKENS: Final[tuple[tuple[int, ...], ...]] = (
    (1, 2, 3, 4),
    (1, 2, 4, 5),
    (2, 3, 4, 6),
    (2, 3, 5, 7),
    (3, 4, 6, 8),
)

#: Per player count: (values per suit, cards dealt, cards discarded) — HIIFUU-SETUP.
TABLE_SIZES: Final[dict[int, tuple[int, int, int]]] = {
    4: (13, 13, 4),
    5: (15, 12, 3),
    6: (18, 12, 2),
}

# Stages of a game.
FIRST_LEADER: Final = 0
TOKENS: Final = 1
DEAL: Final = 2
DISCARD: Final = 3
PLAY: Final = 4
SCORE: Final = 5
END: Final = 6
DONE: Final = 7
# Token ruling due after a trick (PLAY stage).
NO_TOKEN: Final = 0
TAKE: Final = 1
COVER: Final = 2
UNTAKEN: Final = -1  # ``token_of`` entry of a seat without a token

#: Events whose cards only their own seat sees.
PRIVATE_EVENTS: Final = frozenset({"deal", "discard"})
_PLAY_DUE: Final = tuple(Due.decision(seat, what="play") for seat in range(6))


def make_deck(values: int) -> Deck:
    """The deck of four suits with values 1..``values``.

    >>> make_deck(13).order[:3], len(make_deck(18))
    (('1R', '2R', '3R'), 72)
    """
    return Deck([f"{v}{s}" for s in SUITS for v in range(1, values + 1)], f"1-{values} deck")


DECKS: Final[dict[int, Deck]] = {v: make_deck(v) for v, _, _ in TABLE_SIZES.values()}
#: ``~(1 << card)`` per card of the largest deck: removing a card from a hand in one operation.
_WITHOUT: Final = tuple(~(1 << card) for card in range(len(DECKS[18])))


@dataclass(frozen=True, slots=True)
class Setup:
    """What a game's setup fixes: seats, deck in play, hand and discard sizes, tokens, variant."""

    names: tuple[str, ...]
    bots: tuple[bool, ...]
    values: int
    deal_size: int
    discard_size: int
    variant: str
    tokens: tuple[tuple[int, ...], ...]  # each round's token values, sorted; () if unstated
    deck: Deck

    @property
    def tricks(self) -> int:
        """Tricks per round (cards kept after the discard)."""
        return self.deal_size - self.discard_size

    def suit_mask(self, suit: int) -> int:
        """The bit set of every card of ``suit``.

        >>> bin(_parse_setup({"players": 4}).suit_mask(1))
        '0b11111111111110000000000000'
        """
        values = self.values
        return ((1 << values) - 1) << (suit * values)


#: The setup of a state not started yet (:meth:`Hiifuu.start` gives each game its own).
NO_SETUP: Final = Setup((), (), 0, 0, 0, "", (), Deck([], "empty deck"))


class Rule(RuleId):
    """The rules of Hiifuu (RULES.md HIIFUU-*), in the order RULES.md gives them."""

    SETUP = "HIIFUU-SETUP"
    TOKENS = "HIIFUU-TOKENS"
    LEAD = "HIIFUU-LEAD"
    TURN = "HIIFUU-TURN"
    FOLLOW = "HIIFUU-FOLLOW"
    TRICK = "HIIFUU-TRICK"
    SECOND = "HIIFUU-SECOND"
    THIRD = "HIIFUU-THIRD"
    SCORE = "HIIFUU-SCORE"
    END = "HIIFUU-END"


@dataclass(slots=True, init=False)
class HiifuuState(SeatTrickState):
    """A Hiifuu game between events, each field at its first value in a new game.

    ``discards``, ``tricks`` and ``totals`` are lists changed in place by the reducer;
    :meth:`clone` copies them. The hands and the trick on the table are
    :class:`SeatTrickState`'s (``hand(seat)``, ``table``). The other fields are immutable.
    """

    setup: Setup = NO_SETUP  # the game's fixed setup
    stage: int = FIRST_LEADER
    round: int = 0
    first_leader: int = -1
    layout: tuple[int, ...] = ()  # this round's token values in layout order
    next_token: int = 0  # index in ``layout`` of the first token still in the centre
    dealt: int = 0  # cards dealt this round (bit set)
    deals: int = 0  # deal events this round
    dealt_seats: int = 0  # seats dealt this round (bit set)
    discards: list[int] = field(default_factory=list)  # discarded cards per seat, -1 = not yet
    trick_no: int = 1
    leader: int = 0
    turn: int = 0
    tricks: list[int] = field(default_factory=list)  # tricks won this round per seat
    token_of: tuple[int, ...] = ()  # layout index of each seat's token, UNTAKEN if none
    covered: tuple[bool, ...] = ()
    token_due: int = NO_TOKEN
    scored: int = 0  # round_scored events recorded this round
    totals: list[int] = field(default_factory=list)
    winners: tuple[int, ...] = ()

    def hands_dealt(self) -> bool:
        """No hands before the first round."""
        return self.round > 0


def trick_winner(leader: int, cards: i64, values: int, n: int) -> int:
    """Seat that wins a complete trick of ``n`` cards packed in ``cards`` (see
    :mod:`replay.model.packed`): the highest card of the led suit (HIIFUU-TRICK).

    >>> from replay.model.packed import pack
    >>> trick_winner(2, pack([5, 40, 7, 9], CARD_BITS), values=13, n=4)  # 6R led, 2B, 8R, 10R
    1
    """
    return (leader + led_suit_best(cards, n, values)) % n


def may_play(state: HiifuuState, seat: int, card: int) -> bool:
    """Whether ``seat`` may play ``card`` now: a card it holds, of the led suit if it holds
    one (HIIFUU-FOLLOW). The rule for one card (the fast path's, in
    :mod:`replay.games.hiifuu_fast`); :func:`legal_mask` filters a hand by it."""
    hand = state.hand(seat)
    if not hand >> card & 1:
        return False
    if not state.played:
        return True
    setup = state.setup
    first: int = nth(state.table_cards, 0, CARD_BITS)
    led = first // setup.values
    return card // setup.values == led or not hand & setup.suit_mask(led)


def legal_mask(state: HiifuuState, seat: int) -> int:
    """The cards ``seat`` may play now: those :func:`may_play` allows."""
    legal = 0
    for card in bits(state.hand(seat)):
        if may_play(state, seat, card):
            legal |= 1 << card
    return legal


def play_card(state: HiifuuState, seat: int, card: int) -> None:
    """``seat`` plays ``card`` (the reducer's part of a play)."""
    state.set_hand(seat, state.hand(seat) & _WITHOUT[card])
    state.table_cards |= placed(card, state.played, CARD_BITS)
    state.played += 1
    state.turn = (seat + 1) % state.n


def round_score(state: HiifuuState, seat: int) -> int:
    """What ``seat`` scores this round: its token's value unless covered (HIIFUU-SCORE)."""
    index = state.token_of[seat]
    if index == UNTAKEN or state.covered[seat]:
        return 0
    return state.layout[index]


class Hiifuu(Game[HiifuuState]):
    """The Hiifuu rules of RULES.md."""

    turn_rule: ClassVar[RuleId] = Rule.TURN
    end_rule: ClassVar[RuleId] = Rule.END
    due_rules: ClassVar[Mapping[str, RuleId]] = {
        "first_leader": Rule.LEAD,
        "tokens": Rule.TOKENS,
        "deal": Rule.SETUP,
        "discard": Rule.SETUP,
        "play": Rule.TURN,
    }
    rule_ids: ClassVar[tuple[RuleId, ...]] = tuple(Rule)

    # ----------------------------------------------------------------- setup
    def start(self, event: Event) -> HiifuuState:
        fixed = setup_of(event, self.kind, _parse_setup)
        n = len(fixed.names)
        state = new_state(HiifuuState, event.game_id, self.kind, n, 1, event)
        state.setup = fixed
        state.totals = [0] * n
        return state

    # ----------------------------------------------------------------- what is due
    def due(self, state: HiifuuState) -> Due:
        stage = state.stage
        if stage == PLAY:
            if state.token_due:
                return self._token_due(state)
            if state.played == state.n:
                return Due.of_ruling(self._trick_won(state), Rule.TRICK)
            return _PLAY_DUE[state.turn]
        if stage == DISCARD:
            waiting = tuple(s for s in range(state.n) if state.discards[s] < 0)
            return Due.decision(*waiting, what="discard")
        if stage == DEAL:
            return Due.chance(*undealt_seats(state.dealt_seats, state.n), what="deal")
        if stage == TOKENS:
            return Due.chance(what="tokens")
        if stage == SCORE:
            return self._round_scored_due(state)
        if stage == END:
            winners = game_winners(state.totals)
            return Due.of_ruling(self.new_event(state, "game_end", values=winners), Rule.END)
        if stage == FIRST_LEADER:
            return Due.chance(what="first_leader")
        return OVER

    def _trick_won(self, state: HiifuuState) -> Event:
        setup = state.setup
        winner = trick_winner(state.leader, state.table_cards, setup.values, state.n)
        return self.new_event(
            state, "trick_won", round=state.round, trick=state.trick_no, player=winner,
            cards=setup.deck.codes_of(state.table), total=state.tricks[winner] + 1,
        )  # fmt: skip

    def _token_due(self, state: HiifuuState) -> Due:
        """The winner of the trick just ruled takes the first token left (HIIFUU-SECOND) or
        covers its own (HIIFUU-THIRD)."""
        seat = state.leader
        take = state.token_due == TAKE
        index = state.next_token if take else state.token_of[seat]
        event = self.new_event(
            state, "token_taken" if take else "token_covered", round=state.round, player=seat,
            target=index, amount=state.layout[index],
        )  # fmt: skip
        return Due.of_ruling(event, Rule.SECOND if take else Rule.THIRD)

    def _round_scored_due(self, state: HiifuuState) -> Due:
        seat = state.scored
        amount = round_score(state, seat)
        event = self.new_event(
            state, "round_scored", round=state.round, player=seat, amount=amount,
            total=state.totals[seat] + amount,
        )  # fmt: skip
        return Due.of_ruling(event, Rule.SCORE)

    # ----------------------------------------------------------------- verification
    def verify(self, state: HiifuuState, event: Event) -> None:
        """As :meth:`Rules.verify`, citing HIIFUU-LEAD when the wrong seat opens a trick, and
        HIIFUU-SECOND or HIIFUU-THIRD for a token taken or covered where none is due."""
        try:
            super().verify(state, event)
        except RuleViolation as exc:
            if exc.rule == self.turn_rule and state.stage == PLAY and not state.table:
                raise RuleViolation(
                    Rule.LEAD, f"seat {event.player} led trick {state.trick_no} of round "
                    f"{state.round} but seat {state.leader} leads it", recoverable=exc.recoverable,
                ) from None  # fmt: skip
            token = self._token_not_due(state, event, exc) if self.refinable(exc) else None
            if token is not None:
                raise token from None
            raise

    def _token_not_due(
        self, state: HiifuuState, event: Event, exc: RuleViolation
    ) -> RuleViolation | None:
        """HIIFUU-SECOND for a token taken where none is due: none is left, or no seat has
        just won its second trick (RULES.md HIIFUU-SECOND [decision]); HIIFUU-THIRD for a
        token covered where no seat has just won its third trick holding a token. None for
        any other event, or a token event that is due."""
        if event.type == "token_taken" and state.token_due != TAKE:
            if state.stage == PLAY and state.next_token >= len(state.layout):
                why = f"no token is left in round {state.round}"
            else:
                why = "no seat has just won its second trick"
            rule = Rule.SECOND
        elif event.type == "token_covered" and state.token_due != COVER:
            why, rule = "no seat holding a token has just won its third trick", Rule.THIRD
        else:
            return None
        return RuleViolation(
            rule, f"{event.type} recorded but {why}",
            recoverable=exc.recoverable, expected=exc.expected,
        )  # fmt: skip

    def ruling_rule(self, state: HiifuuState, due: Due, event: Event) -> RuleId:
        """HIIFUU-THIRD for a round's score that counts a covered token (RULES.md
        HIIFUU-THIRD [decision]); else the rule of the ruling due."""
        expected = due.ruling
        assert expected is not None and due.rule is not None
        seat = expected.player
        if (
            event.type == expected.type == "round_scored" and seat is not None
            and same(event.player, seat) and state.covered[seat]
            and not same(event.amount, expected.amount)
        ):  # fmt: skip
            return Rule.THIRD
        return due.rule

    def card_fault(self, state: HiifuuState, event: Event) -> RuleViolation | None:
        return seat_hand_fault(event, state, state.setup.deck)

    def verify_chance(self, state: HiifuuState, event: Event) -> None:
        due = self.due(state)
        if event.type != due.what:
            raise RuleViolation(LogRule.ORDER, f"{event.type} while {self._due_words(due)}")
        if event.type == "deal":
            self.verify_deal(state, event)
        elif event.type == "tokens":
            self.verify_tokens(state, event)
        elif event.player is None or not 0 <= event.player < state.n or event.round != 1:
            raise RuleViolation(
                Rule.LEAD,
                f"first_leader names seat {event.player} in round {event.round}; "
                f"expected a seat 0..{state.n - 1} in round 1",
            )

    def verify_tokens(self, state: HiifuuState, event: Event) -> None:
        """A round's tokens: the next round's (Recording order), the game's values for it, in
        increasing order in the normal rule (HIIFUU-TOKENS). Where the setup states no values,
        the recorded layout is the record (four values), never judged against the [default]
        (RULES.md HIIFUU-TOKENS [decision])."""
        number = state.round + 1
        if event.round != number:
            raise RuleViolation(LogRule.ORDER, f"tokens for round {event.round}, expected {number}")
        values = tuple(event.values or ())
        stated = state.setup.tokens
        expected = stated[number - 1] if stated else _token_round(values)
        recoverable = False
        if expected is None:
            why = f"; a round has {TOKENS_PER_ROUND} tokens of non-negative values"
        elif values != expected and tuple(sorted(values)) != expected:
            why = f", the game's tokens for it are {_join(expected)}"
        elif state.setup.variant == NORMAL and values != expected:
            why, recoverable = ", not in increasing order as the normal rule requires", True
        else:
            return
        laid = f"round {number} lays out tokens {_join(values)}"
        raise RuleViolation(Rule.TOKENS, laid + why, recoverable=recoverable)

    def verify_deal(self, state: HiifuuState, event: Event) -> None:
        """A deal to a seat not dealt yet this round (Recording order), of cards known and not
        dealt already (LOG-CARD), as many as the table size deals (HIIFUU-SETUP)."""
        check_deal(event, state.dealt_seats, state.n, state.round)
        cards = event.cards or ()
        dealt_cards(state.setup.deck, cards, state.dealt)
        check_hand_size(event, state.setup.deal_size, Rule.SETUP)

    def verify_decision(self, state: HiifuuState, event: Event) -> None:
        """A discard while the seats discard, else a play: a card its seat holds (LOG-CARD),
        following the led suit (HIIFUU-FOLLOW), numbered in this round and trick."""
        seat = event.player
        assert seat is not None
        if state.stage == DISCARD:
            self.verify_discard(state, seat, event)
            return
        misplaced = self.misplaced_decision(state, event)  # a discard once every seat discarded
        if misplaced is not None:
            raise self.card_fault(state, event) or misplaced
        deck = state.setup.deck
        hand = state.hand(seat)
        card = played_card(event, deck, hand)
        if not may_play(state, seat, card):  # the game's rule before the numbering
            led = state.table[0] // state.setup.values
            suited = hand & state.setup.suit_mask(led)
            raise RuleViolation(
                Rule.FOLLOW,
                f"seat {seat} played {event.card} while holding {deck.order[lowest(suited)]} "
                f"and {SUIT_NAMES[led]} was led",
                recoverable=True,
            )
        check_trick(event, state.round, state.trick_no)

    def misplaced_decision(self, state: HiifuuState, event: Event) -> RuleViolation | None:
        """HIIFUU-SETUP for a discard once every seat discarded, whoever made it (before
        HIIFUU-TURN and HIIFUU-LEAD)."""
        if state.stage == DISCARD or event.type != "discard":
            return None
        return RuleViolation(
            Rule.SETUP, f"seat {event.player} discarded a second time in round {state.round}"
        )

    def verify_discard(self, state: HiifuuState, seat: int, event: Event) -> None:
        """``seat``'s secret discard: cards it holds (LOG-CARD), as many as the table size
        discards (HIIFUU-SETUP), in this round."""
        if event.type != "discard":
            raise RuleViolation(
                Rule.SETUP, f"seat {seat} made a {event.type} before every seat discarded"
            )
        cards = event.cards or ()
        given_cards(state.setup.deck, cards, state.hand(seat), seat, "discarded")
        size = state.setup.discard_size
        if len(cards) != size:
            raise RuleViolation(
                Rule.SETUP,
                f"seat {seat} discarded {len(cards)} cards, not {size} with {state.n} players",
            )
        check_round(event, state.round)

    # ----------------------------------------------------------------- reducer
    def reduce(self, state: HiifuuState, event: Event) -> HiifuuState:
        kind = event.type
        seat = event.player
        if kind == "play":
            assert seat is not None and event.card is not None
            play_card(state, seat, state.setup.deck.index(event.card))  # a verified play
        elif kind == "trick_won":
            values = state.setup.values
            self.take_trick(state, trick_winner(state.leader, state.table_cards, values, state.n))
        elif kind == "token_taken" or kind == "token_covered":
            if state.token_due == TAKE:
                state.token_of = replace_at(state.token_of, state.leader, state.next_token)
                state.next_token += 1
            else:
                state.covered = replace_at(state.covered, state.leader, True)
            state.token_due = NO_TOKEN
            self._after_trick(state)
        elif kind == "deal":
            seat = seat if seat is not None else first_undealt(state.dealt_seats)
            mask = state.setup.deck.mask(event.cards or ())
            state.set_hand(seat, mask)
            state.dealt |= mask
            state.deals += 1
            state.dealt_seats |= 1 << seat
            if state.deals == state.n:
                state.stage = DISCARD
        elif kind == "discard":  # the cards leave the hand; the play starts after the last
            assert seat is not None
            mask = state.setup.deck.mask(event.cards or ())
            state.discards[seat] = mask
            state.set_hand(seat, state.hand(seat) & ~mask)
            if all_recorded(state.discards):
                state.stage = PLAY
        elif kind == "round_scored":  # after the last seat's, a new round or the end
            seat = state.scored
            state.totals[seat] += round_score(state, seat)
            state.scored += 1
            if state.scored == state.n:
                over = state.round == ROUNDS or highest_of(state.totals) >= TARGET  # HIIFUU-END
                state.stage = END if over else TOKENS
        elif kind == "tokens":
            self._start_round(state, tuple(event.values or ()))
        elif kind == "first_leader":
            state.first_leader = state.leader = state.turn = seat or 0
            state.stage = TOKENS
        elif kind == "game_end":
            state.winners = tuple(event.values or ())
            state.stage = DONE
            state.over = True
        return state

    def _start_round(self, state: HiifuuState, layout: tuple[int, ...]) -> None:
        n = state.n
        state.round += 1
        state.layout = layout
        state.next_token = 0
        state.stage = DEAL
        state.clear_hands()
        state.discards = [-1] * n
        state.dealt = state.deals = state.dealt_seats = state.scored = 0
        state.trick_no = 1
        state.clear_table()
        state.tricks = [0] * n
        state.token_of = (UNTAKEN,) * n
        state.covered = (False,) * n
        state.token_due = NO_TOKEN

    def take_trick(self, state: HiifuuState, winner: int) -> None:
        """``winner`` takes the complete trick (the reducer's part of a trick won): a second
        trick won takes the next token if one is left (HIIFUU-SECOND), a third covers the
        winner's token (HIIFUU-THIRD)."""
        won: int = state.tricks[winner] + 1
        state.tricks[winner] = won
        state.clear_table()
        state.leader = state.turn = winner
        if won == 2 and state.next_token < len(state.layout):
            state.token_due = TAKE
        elif won == 3 and state.token_of[winner] != UNTAKEN:
            state.token_due = COVER
        else:
            self._after_trick(state)

    def _after_trick(self, state: HiifuuState) -> None:
        if state.trick_no == state.setup.tricks:
            state.stage = SCORE
        else:
            state.trick_no += 1

    # ----------------------------------------------------------------- decisions
    def legal_decisions(self, state: HiifuuState, seat: int) -> list[Event]:
        if state.stage == DISCARD:
            discards = combinations(bits(state.hand(seat)), state.setup.discard_size)
            return [self.discard_event(state, seat, cards) for cards in discards]
        return [self.play_event(state, seat, c) for c in bits(legal_mask(state, seat))]

    def discard_event(self, state: HiifuuState, seat: int, cards: Sequence[int]) -> Event:
        """The ``discard`` decision of ``seat`` for these card indices."""
        order = state.setup.deck.order
        return self.new_event(
            state, "discard", round=state.round, player=seat,
            cards=tuple(order[c] for c in sorted(cards)),
        )  # fmt: skip

    def play_event(self, state: HiifuuState, seat: int, card: int) -> Event:
        """The ``play`` decision of ``seat`` for this card index."""
        return self.new_event(
            state, "play", round=state.round, trick=state.trick_no, player=seat,
            card=state.setup.deck.order[card],
        )  # fmt: skip

    def result(self, state: HiifuuState) -> dict[str, Any]:
        return {"winners": list(state.winners), "totals": list(state.totals)}


# --------------------------------------------------------------------- helpers
def _parse_setup(setup: Mapping[str, Any]) -> Setup:
    """The fixed setup of a game from its ``game_start`` data (LOG-SETUP / HIIFUU-SETUP)."""
    n = check_players(setup, min(SPEC.players), max(SPEC.players), Rule.SETUP)
    names = seat_names(setup, n)
    bots = bot_flags(setup, n)
    variant = setup.get("variant") or NORMAL
    if variant not in VARIANTS:
        raise RuleViolation(LogRule.SETUP, f"unknown hiifuu variant {variant!r}")
    values, deal_size, discard_size = TABLE_SIZES[n]
    for key, expected in (("values", values), ("deal", deal_size), ("discard", discard_size)):
        if setup.get(key, expected) != expected:
            raise RuleViolation(
                Rule.SETUP, f"{key} {setup.get(key)!r} with {n} players, expected {expected}"
            )
    return Setup(
        names=names, bots=bots, values=values,
        deal_size=deal_size, discard_size=discard_size, variant=str(variant),
        tokens=_parse_tokens(setup["tokens"]) if "tokens" in setup else (), deck=DECKS[values],
    )  # fmt: skip


def _parse_tokens(raw: object) -> tuple[tuple[int, ...], ...]:
    """Five rounds of four non-negative integer token values, each round sorted.

    >>> _parse_tokens([[4, 3, 2, 1]] * 5)[0]
    (1, 2, 3, 4)
    """
    rounds = [_token_round(values) for values in raw] if isinstance(raw, list | tuple) else []
    if len(rounds) != ROUNDS or None in rounds:
        raise RuleViolation(
            LogRule.SETUP, f"tokens must give {ROUNDS} rounds of {TOKENS_PER_ROUND} values"
        )
    return tuple(r for r in rounds if r is not None)


def _token_round(values: object) -> tuple[int, ...] | None:
    """One round's token values sorted, or None when malformed."""
    if not isinstance(values, list | tuple) or len(values) != TOKENS_PER_ROUND:
        return None
    if not all(type(v) is int and v >= 0 for v in values):
        return None
    return tuple(sorted(values))


def _join(values: Sequence[int]) -> str:
    return " ".join(map(str, values)) or "(none)"


#: Every event type of the game: its category, and the fields it carries besides its position
#: (``ts`` on any event; another field set is a fault, in the store's checks and the audit alike).
CATEGORIES, EVENT_FIELDS = event_table({
    "first_leader": (Category.CHANCE, ("round", "player")),
    "tokens": (Category.CHANCE, ("round", "values")),
    "deal": (Category.CHANCE, ("round", "player", "cards")),
    "discard": (Category.DECISION, ("round", "player", "cards")),
    "play": (Category.DECISION, ("round", "trick", "player", "card")),
    "trick_won": (Category.RULING, ("round", "trick", "player", "cards", "total")),
    "token_taken": (Category.RULING, ("round", "player", "target", "amount")),
    "token_covered": (Category.RULING, ("round", "player", "target", "amount")),
    "round_scored": (Category.RULING, ("round", "player", "amount", "total")),
})  # fmt: skip

#: The plug-in contract of Hiifuu (:mod:`replay.model.specs`). Its deck depends on the table
#: size: the rules check the cards, the store's ingest does not.
SPEC: Final = GameSpec(
    kind="hiifuu",
    title="Hiifuu",
    categories=CATEGORIES,
    event_fields=EVENT_FIELDS,
    deck=None,
    faces=decks.Deck("last", decks.colours("diamond"), {}, "{suit} {rank}"),
    players=(4, 5, 6),
    variants=VARIANTS,
    options=("tokens",),
    sample_players=5,
    view_schema=packaged_view_schema("hiifuu"),
    score_unit=ScoreUnit(
        "round", "tokens", ("round_scored",), lower_is_better=False, thresholds=(0.25, 0.75, 2.0)
    ),
)

#: The rules of Hiifuu, registered under their kind.
RULES: Final = register(Hiifuu(SPEC))
