"""Every HEZ2-* rule of RULES.md, with legal and illegal examples from hand-made logs."""

from __future__ import annotations

from typing import Any

import pytest

from replay.games.base import Phase, RuleViolation
from replay.games.hez2 import DECK, RULES, SUITS, TURN, Hez2State, split_pot
from replay.model.cards import popcount
from tests.builders import GameLog

NAMES = ["ann", "bob", "cy", "dee"]


def new_log(
    n: int = 4,
    *,
    bots: list[bool] | None = None,
    stakes: list[int | None] | None = None,
    dealer: int | None = None,
) -> GameLog:
    """A game start; by default humans without stakes, and seat 0 starts (dealer n-1)."""
    setup = {
        "players": n,
        "names": NAMES[:n],
        "bots": bots or [False] * n,
        "stakes": stakes or [None] * n,
        "dealer": n - 1 if dealer is None else dealer,
    }
    return GameLog(RULES, setup)


def dealt(hands: list[str], start: str, **setup: Any) -> GameLog:
    """A log with explicit deals (seat order) and start card."""
    log = new_log(len(hands), **setup)
    for seat, hand in enumerate(hands):
        log.add("deal", round=1, player=seat, cards=tuple(hand.split()))
    log.add("start_card", round=1, card=start)
    return log


def mid_round(
    hands: list[str],
    top: str,
    *,
    turn: int = 0,
    suit: str | None = None,
    stock: str | None = None,
    **setup: Any,
) -> GameLog:
    """A log set to the middle of the round: the given hands, exposed card and stock.

    Cards in neither hands nor ``stock`` lie in the discard pile (under ``top``). By default
    every other card is in the stock and the discard pile is ``top`` alone.
    """
    log = new_log(len(hands), **setup)
    state: Hez2State = log.state
    state.hands = [DECK.mask(h.split()) for h in hands]
    held = 0
    for h in state.hands:
        held |= h
    top_bit = DECK.bit(top)
    state.stock = DECK.mask(stock.split()) if stock is not None else DECK.full & ~held & ~top_bit
    state.discard = DECK.full & ~held & ~state.stock
    assert state.discard & top_bit and not state.stock & held
    state.top = DECK.index(top)
    state.suit = SUITS.index(suit or top[-1])
    state.turn = turn
    state.dealt = len(hands)
    state.stage = TURN
    return log


def play(log: GameLog, seat: int, card: str) -> None:
    log.add("play", round=1, player=seat, card=card)


def declare(log: GameLog, seat: int, suit: str) -> None:
    log.add("declare_suit", round=1, player=seat, suit=suit)


def draw(log: GameLog, seat: int, card: str) -> None:
    log.add("draw", round=1, player=seat)
    log.add("card_drawn", round=1, player=seat, card=card)


def decide(log: GameLog, type_: str, seat: int) -> None:
    log.add(type_, round=1, player=seat)


def rule_of(log: GameLog, type_: str, **fields: object) -> str:
    return log.violation(type_, round=1, **fields).rule


def hand(log: GameLog, seat: int) -> list[str]:
    return DECK.codes(log.state.hands[seat])


def due(log: GameLog) -> tuple[Phase, tuple[int, ...], str]:
    d = RULES.due(log.state)
    return d.phase, d.seats, d.what


def ruling_types(log: GameLog) -> list[tuple[str, int | None, int | None]]:
    return [(e.type, e.player, e.amount) for e in log.rulings()]


def legal(log: GameLog, seat: int) -> list[str]:
    return [e.card or e.suit or e.type for e in RULES.legal_decisions(log.state, seat)]


def total_cards(state: Hez2State) -> int:
    return sum(map(popcount, state.hands)) + popcount(state.stock) + popcount(state.discard)


FOUR_HANDS = ["1O 3O 4O 5O", "1C 3C 4C 5C", "1E 3E 4E 5E", "RB SB CB 6B"]
TWOS_HANDS = ["2O 3O 4O 5O", "2C 3C 4C 5C", "2E 3E 4E 5E", "RB SB CB 6B"]


# ----------------------------------------------------------------------------- HEZ2-SETUP
@pytest.mark.parametrize("players", [1, 5])
def test_setup_takes_two_to_four_players(players: int) -> None:
    with pytest.raises(RuleViolation) as err:
        GameLog(RULES, {"players": players, "names": ["x"] * players, "bots": [False] * players})
    assert err.value.rule == "HEZ2-SETUP"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_two_to_four_players_are_accepted(players: int) -> None:
    """Every seat may be dealt first (RULES.md, Recording order: any seat order)."""
    log = new_log(players)
    assert due(log) == (Phase.CHANCE, tuple(range(players)), "deal")


def test_setup_without_dealer_or_bots_is_rejected() -> None:
    with pytest.raises(RuleViolation) as err:
        GameLog(RULES, {"players": 2, "names": ["a", "b"], "bots": [False, False]})
    assert err.value.rule == "HEZ2-SETUP"
    with pytest.raises(RuleViolation) as err:
        GameLog(RULES, {"players": 2, "names": ["a", "b"], "dealer": 0})
    assert err.value.rule == "LOG-SETUP"


def test_deal_of_four_cards_each_then_start_card() -> None:
    log = dealt(["1O 2O 3O 4O", "5O 6O 7O SO"], "CO")
    assert [len(hand(log, s)) for s in range(2)] == [4, 4]
    assert popcount(log.state.stock) == 40 - 9 and total_cards(log.state) == 40


def test_deal_of_five_cards_is_rejected() -> None:
    log = new_log(2)
    assert rule_of(log, "deal", player=0, cards=("1O", "2O", "3O", "4O", "5O")) == "HEZ2-SETUP"


def test_card_dealt_twice_or_unknown_is_log_card() -> None:
    log = new_log(2)
    log.add("deal", round=1, player=0, cards=("1O", "2O", "3O", "4O"))
    assert rule_of(log, "deal", player=1, cards=("1O", "5O", "6O", "7O")) == "LOG-CARD"
    violation = log.violation("deal", round=1, player=1, cards=("8O", "5O", "6O", "7O"))
    assert violation.rule == "LOG-CARD" and "8O" in violation.message


def test_start_card_must_come_from_the_stock() -> None:
    log = new_log(2)
    log.add("deal", round=1, player=0, cards=("1O", "2O", "3O", "4O"))
    log.add("deal", round=1, player=1, cards=("5O", "6O", "7O", "SO"))
    assert rule_of(log, "start_card", card="2O") == "LOG-CARD"


def test_chance_events_numbered_outside_round_one_are_log_order() -> None:
    log = new_log(2)
    bad_deal = log.violation("deal", round=2, player=0, cards=("1O", "2O", "3O", "4O"))
    assert bad_deal.rule == "LOG-ORDER" and bad_deal.recoverable
    log.add("deal", round=1, player=0, cards=("1O", "2O", "3O", "4O"))
    log.add("deal", round=1, player=1, cards=("5O", "6O", "7O", "SO"))
    bad_start = log.violation("start_card", round=None, card="RO")
    assert bad_start.rule == "LOG-ORDER" and bad_start.recoverable
    assert rule_of(log, "start_card", card="2O") == "LOG-CARD"  # the card is checked first
    log.add("start_card", round=1, card="RO")
    log.add("draw", round=1, player=0)
    bad_draw = log.violation("card_drawn", round=3, player=0, card="CO")
    assert bad_draw.rule == "LOG-ORDER" and bad_draw.recoverable


def test_player_after_the_dealer_starts() -> None:
    log = dealt(["1O 2O 3O 4O", "5O 6O 7O SO", "1C 2C 3C 4C"], "RO", dealer=1)
    assert due(log) == (Phase.DECISION, (2,), "play or draw")


@pytest.mark.parametrize("start", ["1B", "2B", "7B"])
def test_special_start_card_has_no_effect(start: str) -> None:
    log = dealt(["3B 3O 4O 5O", "3C 4C 5C 6C"], start)
    assert due(log) == (Phase.DECISION, (0,), "play or draw")
    assert not log.state.pending_skip and not log.state.pending_draw
    assert legal(log, 0) == ["3B", "draw"]  # a 7 start card stands in its own suit


# ----------------------------------------------------------------------------- HEZ2-TURN
def test_turns_go_clockwise_and_only_the_turn_seat_decides() -> None:
    log = dealt(FOUR_HANDS, "6O")
    assert rule_of(log, "play", player=1, card="3C") == "HEZ2-TURN"
    play(log, 0, "3O")
    assert due(log)[1] == (1,)
    draw(log, 1, "7B")
    assert due(log)[1] == (2,)


def test_players_who_are_out_are_passed_over() -> None:
    """A seat that is out acting cites HEZ2-TURN; its play of a card it does not hold is
    LOG-CARD (RULES.md, "Which rule a finding cites", 1.)."""
    log = mid_round(["3O", "4O 6C", "5C 6E"], "SO")
    play(log, 0, "3O")
    assert ruling_types(log) == [("player_out", 0, 1)]
    draw(log, 1, "7B")
    draw(log, 2, "RB")
    assert due(log)[1] == (1,)
    assert rule_of(log, "draw", player=0) == "HEZ2-TURN"
    assert rule_of(log, "play", player=0, card="4O") == "LOG-CARD"


# ----------------------------------------------------------------------------- HEZ2-MATCH
def test_match_by_suit_or_rank() -> None:
    log = mid_round(["3O 5C RB 6E", "4C 5E 6B SB"], "5O")
    assert legal(log, 0) == ["3O", "5C", "draw"]
    play(log, 0, "5C")
    assert legal(log, 1) == ["4C", "5E", "draw"]


def test_card_matching_neither_suit_nor_rank_is_rejected() -> None:
    log = mid_round(["3O 5C RB 6E", "4C 5E 6B SB"], "5O")
    violation = log.violation("play", round=1, player=0, card="RB")
    assert violation.rule == "HEZ2-MATCH" and violation.recoverable
    assert "RB" in violation.message and "5O" in violation.message


@pytest.mark.parametrize("card", ["1B", "2B"])
def test_special_cards_must_match_too(card: str) -> None:
    log = mid_round([f"{card} 3C", "4C 5E"], "5O")
    assert rule_of(log, "play", player=0, card=card) == "HEZ2-MATCH"


def test_card_not_held_is_log_card_and_not_recoverable() -> None:
    log = mid_round(["3O 5C", "4C 5E"], "5O")
    violation = log.violation("play", round=1, player=0, card="4O")
    assert violation.rule == "LOG-CARD" and not violation.recoverable
    assert rule_of(log, "play", player=0, card="9O") == "LOG-CARD"


def test_card_not_held_with_a_wrong_round_number_is_still_log_card() -> None:
    # A wrong round number alone is recoverable; a card from nowhere must not be absorbed.
    log = mid_round(["3O 5C", "4C 5E"], "5O")
    violation = log.violation("play", round=2, player=0, card="4O")
    assert violation.rule == "LOG-CARD" and not violation.recoverable
    wrong_round = log.violation("play", round=2, player=0, card="3O")
    assert wrong_round.rule == "LOG-ORDER" and wrong_round.recoverable


def test_bad_declaration_with_a_wrong_round_number_is_still_hez2_seven() -> None:
    log = mid_round(["7O 5C", "4C 5E"], "5O")
    play(log, 0, "7O")
    violation = log.violation("declare_suit", round=2, player=0, suit="X")
    assert violation.rule == "HEZ2-SEVEN" and not violation.recoverable


def test_declared_suit_replaces_the_sevens_suit_but_a_seven_matches_by_rank() -> None:
    log = mid_round(["7O 3C", "4O 5E 7C 6E"], "5O")
    play(log, 0, "7O")
    declare(log, 0, "E")
    assert legal(log, 1) == ["7C", "5E", "6E", "draw"]
    assert rule_of(log, "play", player=1, card="4O") == "HEZ2-MATCH"


def test_served_ace_is_an_ordinary_card_for_matching() -> None:
    log = mid_round(["1O 3C 4C", "3O 5E", "1C 4E"], "5O")
    play(log, 0, "1O")
    decide(log, "accept_skip", 1)
    assert ruling_types(log) == [("skip", 1, None)]
    assert due(log) == (Phase.DECISION, (2,), "play or draw")
    assert legal(log, 2) == ["1C", "draw"]  # by rank; a new skip would follow
    play(log, 2, "1C")
    assert log.state.pending_skip


def test_two_on_a_served_two_starts_a_new_draw_of_two() -> None:
    log = mid_round(["2O 3C", "3E 4E", "2C 5E"], "5O")
    play(log, 0, "2O")
    decide(log, "accept_draw", 1)
    assert ruling_types(log) == [("forced_draw", 1, 2)]
    draw_cards = ["6B", "7B"]
    for card in draw_cards:
        log.add("card_drawn", round=1, player=1, card=card)
    play(log, 2, "2C")
    assert log.state.pending_draw == 2


# ----------------------------------------------------------------------------- HEZ2-DRAW
def test_draw_is_allowed_when_a_play_was_possible_and_ends_the_turn() -> None:
    log = mid_round(["3O 4C", "6C 6E"], "5O")
    assert "3O" in legal(log, 0)
    draw(log, 0, "6O")  # playable, but the turn is over
    assert due(log) == (Phase.DECISION, (1,), "play or draw")
    violation = log.violation("play", round=1, player=0, card="6O")
    assert violation.rule == "HEZ2-DRAW"


def test_drawing_a_second_card_is_rejected() -> None:
    log = mid_round(["3O 4C", "6C 6E"], "5O")
    draw(log, 0, "6O")
    assert rule_of(log, "card_drawn", player=0, card="7O") == "HEZ2-DRAW"


def test_drawn_card_must_be_in_the_stock() -> None:
    log = mid_round(["3O 4C", "6C 6E"], "5O")
    decide(log, "draw", 0)
    assert due(log) == (Phase.CHANCE, (0,), "card drawn")
    assert rule_of(log, "card_drawn", player=0, card="6C") == "LOG-CARD"
    assert rule_of(log, "card_drawn", player=0, card="5O") == "LOG-CARD"


def test_no_draw_while_a_skip_or_draw_is_pending() -> None:
    log = mid_round(["1O 3C", "3O 5E", "2O 1E"], "5O")
    play(log, 0, "1O")
    assert rule_of(log, "draw", player=1) == "HEZ2-ACE"
    log = mid_round(["2O 3C", "3O 5E", "2C 1E"], "5O")
    play(log, 0, "2O")
    assert rule_of(log, "draw", player=1) == "HEZ2-TWO"


# ----------------------------------------------------------------------------- HEZ2-RESHUFFLE
def test_draw_that_needs_a_reshuffle() -> None:
    hands = ["3O 4C", "6C 6E"]
    log = mid_round(hands, "7O", suit="E", stock="")  # the 7 declared Espadas
    discard = DECK.full & ~DECK.mask(" ".join(hands).split()) & ~DECK.bit("7O")
    decide(log, "draw", 0)
    [reshuffle] = log.rulings()
    assert reshuffle.type == "reshuffle" and reshuffle.amount == popcount(discard)
    assert reshuffle.cards == tuple(DECK.codes(discard))
    assert log.state.stock == discard and log.state.discard == DECK.bit("7O")
    log.add("card_drawn", round=1, player=0, card="RB")
    assert log.state.suit == SUITS.index("E")  # the declared suit survives
    assert total_cards(log.state) == 40


def test_drawing_from_the_discard_pile_without_reshuffle_is_rejected() -> None:
    log = mid_round(["3O 4C", "6C 6E"], "7O", stock="")
    decide(log, "draw", 0)
    assert rule_of(log, "card_drawn", player=0, card="RB") == "LOG-ORDER"
    wrong = log.violation("reshuffle", round=1, cards=("RB",), amount=1)
    assert wrong.rule == "HEZ2-RESHUFFLE" and wrong.expected is not None


def test_reshuffle_only_when_the_stock_is_empty() -> None:
    log = mid_round(["3O 4C", "6C 6E"], "5O", stock="RB")
    decide(log, "draw", 0)
    assert rule_of(log, "reshuffle", cards=(), amount=0) == "LOG-ORDER"


def test_draw_with_stock_and_discard_both_empty_draws_nothing() -> None:
    everything = [c for c in DECK.order if c != "5O"]
    hands = [" ".join(everything[:20]), " ".join(everything[20:])]
    log = mid_round(hands, "5O", stock="")
    before = log.state.hands
    decide(log, "draw", 0)
    assert log.state.hands == before
    assert due(log) == (Phase.DECISION, (1,), "play or draw")


def penalty_log(discard: str, seat0: str) -> GameLog:
    """Seats 0 and 1 stack 2O and 2C on 5O; seat 2 faces a draw of 4; the stock is RB alone."""
    kept = {"RB", "2C", *discard.split(), *seat0.split()}
    others = [c for c in DECK.order if c not in kept]
    hands = [seat0, "2C " + " ".join(others[:16]), " ".join(others[16:])]
    log = mid_round(hands, "5O", stock="RB")
    play(log, 0, "2O")
    play(log, 1, "2C")
    decide(log, "accept_draw", 2)
    assert ruling_types(log) == [("forced_draw", 2, 4)]
    return log


def test_penalty_draws_the_stock_dry_then_reshuffles_then_draws_the_rest() -> None:
    log = penalty_log("5O SB", "2O 3O 4O")
    size = len(hand(log, 2))
    log.add("card_drawn", round=1, player=2, card="RB")
    assert [(e.type, e.cards) for e in log.rulings()] == [("reshuffle", ("2O", "5O", "SB"))]
    assert due(log) == (Phase.CHANCE, (2,), "card drawn")
    for card in ("SB", "5O", "2O"):
        log.add("card_drawn", round=1, player=2, card=card)
    assert len(hand(log, 2)) == size + 4 and due(log)[1] == (0,)
    assert total_cards(log.state) == 40


def test_penalty_ends_with_fewer_cards_when_nothing_is_left() -> None:
    log = penalty_log("5O", "2O 3O")
    size = len(hand(log, 2))
    log.add("card_drawn", round=1, player=2, card="RB")
    assert [e.cards for e in log.rulings()] == [("2O", "5O")]
    log.add("card_drawn", round=1, player=2, card="5O")
    log.add("card_drawn", round=1, player=2, card="2O")
    assert len(hand(log, 2)) == size + 3  # 3 drawn of 4: nothing left
    assert due(log) == (Phase.DECISION, (0,), "play or draw")


# ----------------------------------------------------------------------------- HEZ2-ACE
def test_ace_makes_the_next_player_skip() -> None:
    log = dealt(FOUR_HANDS, "6O")
    play(log, 0, "1O")
    assert due(log) == (Phase.DECISION, (1,), "answer the skip")
    assert legal(log, 1) == ["1C", "accept_skip"]
    decide(log, "accept_skip", 1)
    assert ruling_types(log) == [("skip", 1, None)]
    assert due(log) == (Phase.DECISION, (2,), "play or draw")


def test_skip_passed_on_twice() -> None:
    log = dealt(FOUR_HANDS, "6O")
    play(log, 0, "1O")
    play(log, 1, "1C")
    play(log, 2, "1E")
    assert legal(log, 3) == ["accept_skip"]
    decide(log, "accept_skip", 3)
    assert ruling_types(log) == [("skip", 3, None)]
    assert due(log) == (Phase.DECISION, (0,), "play or draw")
    assert log.state.top == DECK.index("1E") and not log.state.pending_skip


def test_only_an_ace_answers_a_skip() -> None:
    log = dealt(FOUR_HANDS, "6O")
    play(log, 0, "1O")
    violation = log.violation("play", round=1, player=1, card="3C")
    assert violation.rule == "HEZ2-ACE" and violation.recoverable
    log = mid_round(["1O 3C", "2O 5E", "4E 6E"], "5O")
    play(log, 0, "1O")
    assert rule_of(log, "play", player=1, card="2O") == "HEZ2-ACE"


def test_accepting_a_skip_that_is_not_pending_is_rejected() -> None:
    log = dealt(FOUR_HANDS, "6O")
    assert rule_of(log, "accept_skip", player=0) == "HEZ2-ACE"


def test_duel_ace_gives_the_turn_back() -> None:
    log = mid_round(["1O 3O 3C", "4C 5E"], "5O")
    play(log, 0, "1O")
    decide(log, "accept_skip", 1)
    log.rulings()
    assert due(log) == (Phase.DECISION, (0,), "play or draw")


def test_wrong_skip_ruling_is_found() -> None:
    log = dealt(FOUR_HANDS, "6O")
    play(log, 0, "1O")
    decide(log, "accept_skip", 1)
    assert rule_of(log, "skip", player=2) == "HEZ2-ACE"


# ----------------------------------------------------------------------------- HEZ2-TWO
def test_three_stacked_twos_are_drawn_as_six_by_the_fourth_player() -> None:
    log = dealt(TWOS_HANDS, "6O")
    play(log, 0, "2O")
    play(log, 1, "2C")
    play(log, 2, "2E")
    assert due(log) == (Phase.DECISION, (3,), "answer the draw")
    assert legal(log, 3) == ["accept_draw"]
    decide(log, "accept_draw", 3)
    assert ruling_types(log) == [("forced_draw", 3, 6)]
    for card in ("1O", "1C", "1E", "1B", "6C", "7C"):
        assert due(log) == (Phase.CHANCE, (3,), "card drawn")
        log.add("card_drawn", round=1, player=3, card=card)
    assert len(hand(log, 3)) == 10
    assert due(log) == (Phase.DECISION, (0,), "play or draw")  # seat 3 lost its turn


def test_only_a_two_answers_a_draw() -> None:
    log = dealt(TWOS_HANDS, "6O")
    play(log, 0, "2O")
    violation = log.violation("play", round=1, player=1, card="3C")
    assert violation.rule == "HEZ2-TWO" and violation.recoverable
    log = mid_round(["2O 3C", "1O 5E", "4E 6E"], "5O")
    play(log, 0, "2O")
    assert rule_of(log, "play", player=1, card="1O") == "HEZ2-TWO"
    assert rule_of(log, "accept_skip", player=1) == "HEZ2-ACE"


def test_accepting_a_draw_that_is_not_pending_is_rejected() -> None:
    log = dealt(TWOS_HANDS, "6O")
    assert rule_of(log, "accept_draw", player=0) == "HEZ2-TWO"


def test_wrong_penalty_amount_is_found_and_player_loses_the_turn() -> None:
    log = dealt(TWOS_HANDS, "6O")
    play(log, 0, "2O")
    play(log, 1, "2C")
    decide(log, "accept_draw", 2)
    wrong = log.violation("forced_draw", round=1, player=2, amount=2)
    assert wrong.rule == "HEZ2-TWO" and wrong.expected is not None
    assert wrong.expected.amount == 4
    log.rulings()
    for card in ("1O", "1C", "1E", "1B"):
        log.add("card_drawn", round=1, player=2, card=card)
    assert rule_of(log, "play", player=2, card="3E") == "HEZ2-TWO"


# ----------------------------------------------------------------------------- HEZ2-SEVEN
def test_seven_must_match() -> None:
    log = mid_round(["7B 3C", "4C 5E"], "5O")
    violation = log.violation("play", round=1, player=0, card="7B")
    assert violation.rule == "HEZ2-SEVEN" and violation.recoverable


def test_seven_then_declare_any_suit() -> None:
    log = mid_round(["7O 3C", "4C 5E"], "5O")
    play(log, 0, "7O")
    assert due(log) == (Phase.DECISION, (0,), "declare a suit")
    assert legal(log, 0) == ["O", "C", "E", "B"]
    assert rule_of(log, "play", player=0, card="3C") == "HEZ2-SEVEN"
    assert rule_of(log, "declare_suit", player=0, suit="X") == "HEZ2-SEVEN"
    assert rule_of(log, "declare_suit", player=1, suit="B") == "HEZ2-TURN"
    declare(log, 0, "B")
    assert log.state.suit == SUITS.index("B")
    assert legal(log, 1) == ["draw"]


def test_declare_without_a_seven_is_rejected() -> None:
    log = mid_round(["3O 3C", "4C 5E"], "5O")
    assert rule_of(log, "declare_suit", player=0, suit="B") == "HEZ2-SEVEN"


# ----------------------------------------------------------------------------- HEZ2-OUT
@pytest.mark.parametrize("last", ["1O", "2O"])
def test_final_one_or_two_affects_nobody(last: str) -> None:
    log = mid_round([last, "4C 5E", "3C 6E"], "5O")
    play(log, 0, last)
    assert ruling_types(log) == [("player_out", 0, 1)]
    assert due(log) == (Phase.DECISION, (1,), "play or draw")
    assert not log.state.pending_skip and not log.state.pending_draw


def test_final_seven_declares() -> None:
    log = mid_round(["7O", "4C 5E", "3C 6E"], "5O")
    play(log, 0, "7O")
    assert due(log) == (Phase.DECISION, (0,), "declare a suit")
    declare(log, 0, "E")
    assert ruling_types(log) == [("player_out", 0, 1)]
    assert legal(log, 1) == ["5E", "draw"]


def test_final_seven_ending_a_duel_still_declares() -> None:
    log = mid_round(["7O", "4C 5E"], "5O")
    play(log, 0, "7O")
    declare(log, 0, "C")
    assert ruling_types(log) == [("player_out", 0, 1), ("placed", 1, 2), ("game_end", None, None)]
    assert log.events[-1].values == (0,)


@pytest.mark.parametrize(("first", "answer"), [("1O", "1C"), ("2O", "2C")])
def test_final_card_answering_a_pending_effect_cancels_it(first: str, answer: str) -> None:
    log = mid_round([f"{first} 3O", answer, "3C 6E"], "5O")
    play(log, 0, first)
    play(log, 1, answer)
    assert ruling_types(log) == [("player_out", 1, 1)]
    assert due(log) == (Phase.DECISION, (2,), "play or draw")


def test_wrong_place_is_found() -> None:
    log = mid_round(["3O", "4C 5E", "3C 6E"], "5O")
    play(log, 0, "3O")
    assert rule_of(log, "player_out", player=0, amount=2) == "HEZ2-OUT"
    assert rule_of(log, "draw", player=1) == "LOG-ORDER"  # the ruling is missing


# ----------------------------------------------------------------------------- HEZ2-RANKING
def test_three_players_ranked_to_the_last() -> None:
    log = mid_round(["3O", "4O 4C", "5C 6E"], "SO")
    play(log, 0, "3O")
    log.rulings()
    play(log, 1, "4O")
    draw(log, 2, "RB")
    play(log, 1, "4C")
    assert ruling_types(log) == [("player_out", 1, 2), ("placed", 2, 3), ("game_end", None, None)]
    assert log.state.over and log.events[-1].values == (0,)
    assert RULES.result(log.state)["places"] == [0, 1, 2]
    assert rule_of(log, "draw", player=2) == "LOG-AFTER-END"


def test_four_players_ranked_to_the_last() -> None:
    log = mid_round(["3O", "4O 6C", "5O", "6O 5B"], "SO")
    play(log, 0, "3O")
    log.rulings()
    play(log, 1, "4O")
    play(log, 2, "5O")
    assert ruling_types(log) == [("player_out", 2, 2)]
    play(log, 3, "6O")
    play(log, 1, "6C")
    assert ruling_types(log) == [("player_out", 1, 3), ("placed", 3, 4), ("game_end", None, None)]
    assert RULES.result(log.state)["places"] == [0, 2, 1, 3]


def test_duel_ends_at_the_first_out() -> None:
    log = mid_round(["3O", "4C 5E 6E"], "5O")
    play(log, 0, "3O")
    assert ruling_types(log) == [("player_out", 0, 1), ("placed", 1, 2), ("game_end", None, None)]
    assert log.state.over


def test_wrong_winner_is_found() -> None:
    log = mid_round(["3O", "4C 5E 6E"], "5O")
    play(log, 0, "3O")
    log.add("player_out", round=1, player=0, amount=1)
    log.add("placed", round=1, player=1, amount=2)
    assert log.violation("game_end", values=(1,)).rule == "HEZ2-RANKING"


# ----------------------------------------------------------------------------- HEZ2-BOTS
def test_bots_places_assigned_at_once_by_fewest_cards_then_turn_order() -> None:
    bots = [False, True, True, True]
    log = mid_round(["3O", "4C 5E", "6C 6E 7E", "3C 5B"], "5O", bots=bots, turn=0)
    play(log, 0, "3O")
    assert ruling_types(log) == [
        ("player_out", 0, 1),
        ("placed", 1, 2),  # 2 cards, first in turn order after seat 0
        ("placed", 3, 3),  # 2 cards
        ("placed", 2, 4),  # 3 cards
        ("game_end", None, None),
    ]
    assert RULES.due(log.state).phase is Phase.OVER


def test_bots_assignment_ties_start_after_the_player_who_went_out() -> None:
    bots = [True, True, False, True]
    log = mid_round(["4C 5E", "6C 6E", "3O", "3C 5B"], "5O", bots=bots, turn=2)
    play(log, 2, "3O")
    placed = [(e.player, e.amount) for e in log.rulings() if e.type == "placed"]
    assert placed == [(3, 2), (0, 3), (1, 4)]


def test_wrong_bots_assignment_is_found() -> None:
    log = mid_round(["3O", "4C 5E", "6C 6E 7E"], "5O", bots=[False, True, True])
    play(log, 0, "3O")
    log.add("player_out", round=1, player=0, amount=1)
    assert rule_of(log, "placed", player=2, amount=2) == "HEZ2-BOTS"


def test_bots_only_table_plays_the_round_out() -> None:
    log = mid_round(["3O", "4C 5E", "6C 6E 7E"], "5O", bots=[True, True, True])
    play(log, 0, "3O")
    assert ruling_types(log) == [("player_out", 0, 1)]
    assert due(log) == (Phase.DECISION, (1,), "play or draw")


def test_no_assignment_while_a_human_holds_cards() -> None:
    log = mid_round(["3O", "4C 5E", "6C 6E 7E"], "5O", bots=[True, False, True])
    play(log, 0, "3O")
    assert ruling_types(log) == [("player_out", 0, 1)]


# ----------------------------------------------------------------------------- HEZ2-STAKES
@pytest.mark.parametrize(
    ("stakes", "payouts"),
    [
        ([500], [500]),  # a lone staked player gets the stake back
        ([100, 100], [200, 0]),
        ([100, 100, 100], [210, 90, 0]),
        ([100, 100, 100, 100], [240, 120, 40, 0]),
        ([100, 101, 100, 32], [201, 99, 33, 0]),  # pot 333: 199+99+33, remainder 2 to the first
        ([1, 1, 1], [3, 0, 0]),  # shares 2 and 0, remainder 1 to the first
        ([], []),
    ],
)
def test_every_payout_split(stakes: list[int], payouts: list[int]) -> None:
    assert split_pot(stakes) == payouts
    assert sum(payouts) == sum(stakes)


def finish_four(log: GameLog) -> list[tuple[str, int | None, int | None]]:
    """Seat 0 goes out first, then 2, then 1; seat 3 is last."""
    play(log, 0, "3O")
    log.rulings()
    play(log, 1, "4O")
    play(log, 2, "5O")
    log.rulings()
    play(log, 3, "6O")
    play(log, 1, "6C")
    return ruling_types(log)


FINISH_HANDS = ["3O", "4O 6C", "5O", "6O 5B"]


def test_payouts_by_rank_among_staked_players_in_seat_order() -> None:
    log = mid_round(FINISH_HANDS, "SO", stakes=[100, 200, 300, 400])
    rulings = finish_four(log)
    # ranking 0, 2, 1, 3; pot 1000: 600 / 300 / 100 / 0
    assert [r for r in rulings if r[0] == "payout"] == [
        ("payout", 0, 600),
        ("payout", 1, 100),
        ("payout", 2, 300),
        ("payout", 3, 0),
    ]
    assert RULES.result(log.state)["totals"] == [500, -100, 0, -400]


def test_unstaked_players_take_no_share() -> None:
    log = mid_round(FINISH_HANDS, "SO", stakes=[None, 250, None, 250])
    rulings = finish_four(log)
    assert [r for r in rulings if r[0] == "payout"] == [("payout", 1, 500), ("payout", 3, 0)]


def test_no_stakes_no_payouts() -> None:
    log = mid_round(FINISH_HANDS, "SO")
    assert [r[0] for r in finish_four(log)] == ["player_out", "placed", "game_end"]


def test_wrong_payout_is_found() -> None:
    log = mid_round(["3O", "4C 5E"], "5O", stakes=[100, 100])
    play(log, 0, "3O")
    log.add("player_out", round=1, player=0, amount=1)
    log.add("placed", round=1, player=1, amount=2)
    assert log.violation("payout", player=0, amount=150).rule == "HEZ2-STAKES"


def test_a_bot_that_stakes_is_a_finding() -> None:
    with pytest.raises(RuleViolation) as err:
        new_log(2, bots=[False, True], stakes=[100, 100])
    assert err.value.rule == "HEZ2-STAKES" and "seat 1" in err.value.message


@pytest.mark.parametrize("stake", [0, -5, 2.5, "100", True])
def test_a_stake_is_a_positive_integer(stake: object) -> None:
    with pytest.raises(RuleViolation) as err:
        new_log(2, stakes=[stake, None])  # type: ignore[list-item]
    assert err.value.rule == "HEZ2-STAKES"


# ----------------------------------------------------------------------------- views
def test_seat_view_hides_other_hands_and_drawn_cards() -> None:
    log = mid_round(["3O 4C", "6C 6E"], "5O")
    draw(log, 0, "RB")
    view = RULES.view(log.state, 1)
    assert view["hands"] == [None, ["6C", "6E"]] and view["hand_sizes"] == [3, 2]
    assert "RB" not in str(view)
    assert "RB" in str(RULES.view(log.state, 0)) and "RB" in str(RULES.view(log.state))
    assert view["turn"] == [1] and view["table"] == [{"seat": None, "card": "5O"}]
    assert "RB" not in RULES.render(log.state, 1)


def test_render_first_line_is_a_summary() -> None:
    log = dealt(FOUR_HANDS, "6O")
    first = RULES.render(log.state).splitlines()[0]
    assert first.startswith("hez2 round 1") and "seat 0" in first and "6O" in first
