"""Checks that several games make the same way: the numbering of a play or a ruling, the
faults of a deal, of its cards and their number, of cards given up, of a card not held, of a
round number, the seats still to be dealt, the winner of a trick without trumps and of a game,
and the wording of an event in a finding."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

from mypy_extensions import i64

from replay.games.native import highest_of, same
from replay.games.state import SeatHandsState
from replay.model.cards import Deck, popcount, repeated
from replay.model.events import COLUMNS, PAYLOAD_FIELDS, Event, field_values
from replay.model.packed import CARD_BITS, nth
from replay.model.violation import LogRule, RuleId, RuleViolation


def game_winners(totals: list[int]) -> tuple[int, ...]:
    """The seats with the highest total, ascending (a tie is a shared victory: HIIFUU-END,
    FOU-END).

    >>> game_winners([10, -3, 10, -90])
    (0, 2)
    """
    best = highest_of(totals)
    return tuple(s for s, t in enumerate(totals) if t == best)


def card_in_turn(event: Event, deck: Deck, seq: int, turn: int, trick: int, round_: int) -> int:
    """The index in ``deck`` of the card of ``event`` when it is a play numbered as the next
    one: ``seq``, by ``turn``, in ``trick`` of ``round_``; -1 for any other event or a code that
    is not a card of ``deck`` (the trick games' fast path for a legal play then asks their
    follow rule about the card).

    Optional fields are narrowed before comparing: compiled, the comparisons are then native.
    """
    if event.type != "play" or event.seq != seq:
        return -1
    player = event.player
    event_trick = event.trick
    event_round = event.round
    code = event.card
    if (
        player is None or player != turn
        or event_trick is None or event_trick != trick
        or event_round is None or event_round != round_
        or code is None
    ):  # fmt: skip
        return -1
    return deck.find(code)


def known_cards(deck: Deck, codes: Iterable[str] | None) -> int:
    """The bit set of the card ``codes`` of ``deck``: LOG-CARD for a code that is none of its
    cards.

    >>> from replay.model.cards import Deck
    >>> known_cards(Deck(["A", "B", "C"], "abc"), ["A", "C"])
    5
    >>> known_cards(Deck(["A", "B", "C"], "abc"), ["A", "Z"])
    Traceback (most recent call last):
    replay.model.violation.RuleViolation: ... (LOG-CARD)
    """
    try:
        return deck.mask(codes or ())
    except ValueError as exc:
        raise RuleViolation(LogRule.CARD, str(exc)) from None


def dealt_cards(deck: Deck, cards: Sequence[str], dealt: int) -> int:
    """The bit set of the dealt ``cards``: LOG-CARD for a code that is no card of ``deck``, or a
    card dealt twice (in ``cards``, or already in the bit set ``dealt``).

    >>> dealt_cards(Deck(["A", "B", "C"], "abc"), ["A", "C"], 0b010)
    5
    >>> dealt_cards(Deck(["A", "B", "C"], "abc"), ["A", "B"], 0b010)
    Traceback (most recent call last):
    replay.model.violation.RuleViolation: card dealt twice: B (LOG-CARD)
    """
    mask = known_cards(deck, cards)
    if popcount(mask) != len(cards) or mask & dealt:
        twice = deck.codes(mask & dealt) or repeated(cards)
        raise RuleViolation(LogRule.CARD, f"card dealt twice: {' '.join(twice)}")
    return mask


def given_cards(deck: Deck, cards: Sequence[str], hand: int, seat: int, verb: str) -> int:
    """The bit set of the ``cards`` that ``seat`` gives up (``verb``: passed, discarded):
    LOG-CARD for a code that is no card of ``deck``, a card named twice, or a card not in its
    ``hand``.

    >>> given_cards(Deck(["A", "B", "C"], "abc"), ["A", "C"], 0b111, 2, "passed")
    5
    >>> given_cards(Deck(["A", "B", "C"], "abc"), ["A", "B"], 0b101, 2, "passed")
    Traceback (most recent call last):
    replay.model.violation.RuleViolation: seat 2 passed B which it does not hold (LOG-CARD)
    """
    mask = known_cards(deck, cards)
    if popcount(mask) != len(cards) or mask & ~hand:
        missing = deck.codes(mask & ~hand) or repeated(cards)
        raise RuleViolation(
            LogRule.CARD, f"seat {seat} {verb} {' '.join(missing)} which it does not hold"
        )
    return mask


def led_suit_best(cards: i64, count: i64, values: i64) -> i64:
    """Position of the highest card of the led suit among the ``count`` cards packed in
    ``cards`` (:mod:`replay.model.packed`), cards being numbered suit by suit with ``values`` per
    suit: the winner of a trick without trumps (HEARTS-TRICK, HIIFUU-TRICK).

    >>> from replay.model.packed import pack
    >>> led_suit_best(pack([5, 40, 7, 9], CARD_BITS), 4, 13)  # 6R led, 2B off-suit, 8R, 10R
    3
    """
    first = nth(cards, 0, CARD_BITS)
    led = first // values
    best: i64 = 0
    best_card = first
    for position in range(1, count):
        card = nth(cards, position, CARD_BITS)
        if card // values == led and card > best_card:
            best, best_card = position, card
    return best


def numbered(event: Event, round_: int, trick: int | None) -> bool:
    """Whether ``event`` is numbered in ``round_`` and ``trick`` (``None``: no trick number),
    for the games' ruling checks (:meth:`~replay.games.fast.FastPath.is_due_ruling`).

    Optional fields are narrowed before comparing: compiled, the comparisons are then native
    (written out rather than through :func:`same`, which would box ``round_`` and ``trick``).
    """
    event_round = event.round
    event_trick = event.trick
    if event_round is None or event_round != round_:
        return False
    if trick is None:
        return event_trick is None
    return event_trick is not None and event_trick == trick


def check_round(event: Event, expected: int) -> None:
    """LOG-ORDER (recoverable) for an event numbered with another round than ``expected``.

    Games call it after the cards and the game's own rules, so that a card from nowhere or an
    illegal play is never hidden behind a mere numbering fault.
    """
    fault = round_fault(event, expected)
    if fault is not None:
        raise fault


def check_trick(event: Event, round_: int, trick: int) -> None:
    """LOG-ORDER (recoverable) for a play numbered with another round or trick than ``round_``
    and ``trick``: checked after the card and the game's own rules, as :func:`check_round`."""
    check_round(event, round_)
    if event.trick != trick:
        raise RuleViolation(
            LogRule.ORDER, f"play in trick {event.trick} during trick {trick}", recoverable=True
        )


def played_card(event: Event, deck: Deck, hand: int) -> int:
    """The index in ``deck`` of the card of a play: LOG-CARD for a code that is no card of
    ``deck`` or a card not in its seat's ``hand`` (a bit set), before any rule of the game.

    >>> deck = Deck(["A", "B", "C"], "abc")
    >>> played_card(Event("g", 5, "x", "play", player=1, card="B"), deck, 0b110)
    1
    >>> played_card(Event("g", 5, "x", "play", player=1, card="A"), deck, 0b110)
    Traceback (most recent call last):
    replay.model.violation.RuleViolation: seat 1 played A which it does not hold (LOG-CARD)
    """
    code = event.card
    card = deck.find(code) if code is not None else -1
    if card < 0:
        raise RuleViolation(LogRule.CARD, f"seat {event.player} played unknown card {code!r}")
    if not hand >> card & 1:
        raise RuleViolation(
            LogRule.CARD, f"seat {event.player} played {code} which it does not hold"
        )
    return card


def round_fault(event: Event, expected: int) -> RuleViolation | None:
    """The violation :func:`check_round` raises, returned instead (``None``: numbered right)."""
    number = event.round
    if number is not None and number == expected:  # narrowed: compiled, a native comparison
        return None
    return RuleViolation(
        LogRule.ORDER, f"{event.type} in round {event.round} during round {expected}",
        recoverable=True,
    )  # fmt: skip


def deal_fault(event: Event, dealt_seats: int, n: int, round_: int | None) -> RuleViolation | None:
    """LOG-ORDER for a deal that names no seat of the table, a seat dealt already this round
    (``dealt_seats``, a bit set) or, unless ``round_`` is None, another round; None for a deal
    that may come now. RULES.md, "Recording order": the deals of a round come in any seat
    order, each seat dealt once."""
    seat = event.player
    if seat is None or not 0 <= seat < n:  # narrowed: compiled, native comparisons
        return RuleViolation(LogRule.ORDER, f"deal for seat {seat}, not a seat of {n} players")
    if dealt_seats >> seat & 1:
        return RuleViolation(LogRule.ORDER, f"a second deal to seat {seat} in one round")
    if round_ is not None and not same(event.round, round_):
        return RuleViolation(LogRule.ORDER, f"deal for round {event.round} during round {round_}")
    return None


def check_deal(event: Event, dealt_seats: int, n: int, round_: int | None) -> None:
    """Raise the violation of :func:`deal_fault`, if any."""
    fault = deal_fault(event, dealt_seats, n, round_)
    if fault is not None:
        raise fault


def check_hand_size(event: Event, size: int, rule: RuleId) -> None:
    """``rule`` (the game's setup rule) unless a deal gives its seat ``size`` cards."""
    count = len(event.cards or ())
    if count != size:
        raise RuleViolation(rule, f"seat {event.player} dealt {count} cards, not {size}")


def held_fault(event: Event, hand: int, deck: Any) -> RuleViolation | None:
    """LOG-CARD when the card (or a card of the cards) of ``event`` is not in ``hand`` (a bit
    set of ``deck``'s indices); None when its seat holds them all."""
    codes = (event.card,) if event.card is not None else (event.cards or ())
    for code in codes:
        card = deck.find(code) if isinstance(code, str) else -1
        if card < 0 or not hand >> card & 1:
            return RuleViolation(
                LogRule.CARD,
                f"seat {event.player} made a {event.type} of {code} which it does not hold",
            )
    return None


def seat_hand_fault(event: Event, state: SeatHandsState, deck: Any) -> RuleViolation | None:
    """:func:`held_fault` for the seat of ``event`` in a state with hands (None: no seat of
    the table, or no hands yet)."""
    seat = event.player
    if seat is None or not 0 <= seat < state.n or not state.hands_dealt():
        return None
    return held_fault(event, state.hand(seat), deck)


def first_undealt(dealt_seats: int) -> int:
    """The lowest seat not in the bit set ``dealt_seats`` (the seat dealt next when none is named).

    >>> first_undealt(0b1011)
    2
    """
    return (~dealt_seats & (dealt_seats + 1)).bit_length() - 1


def undealt_seats(dealt_seats: int, n: int) -> tuple[int, ...]:
    """The seats of ``n`` not in the bit set ``dealt_seats``, ascending.

    >>> undealt_seats(0b0101, 4)
    (1, 3)
    """
    return tuple(seat for seat in range(n) if not dealt_seats >> seat & 1)


def describe_payload(event: Event) -> str:
    """A compact rendering of an event's payload for messages, e.g. ``trick_won(player=2, ...)``.

    >>> describe_payload(Event("g", 9, "hiifuu", "trick_won", 1, 2, 3, cards=("1", "7"), total=4))
    'trick_won(round=1, trick=2, player=3, cards=[1 7], total=4)'
    """
    values = field_values(event)
    names = COLUMNS
    parts: list[str] = []
    for index in _DESCRIBED:
        value = values[index]
        if value is not None:
            parts.append(f"{names[index]}={_fmt(value)}")
    return f"{event.type}({', '.join(parts)})"


#: Where the payload's fields but its type are in :data:`~replay.model.events.COLUMNS`.
_DESCRIBED: Final = tuple(COLUMNS.index(name) for name in PAYLOAD_FIELDS if name != "type")


def _fmt(value: object) -> str:
    """A field's value in :func:`describe_payload`: a tuple's items in brackets."""
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        return str(value)
    if isinstance(value, tuple):
        return "[" + " ".join([i if isinstance(i, str) else str(i) for i in value]) + "]"
    return str(value)
