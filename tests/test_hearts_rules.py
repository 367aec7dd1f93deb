"""Every HEARTS-* rule of RULES.md, with legal and illegal examples."""

from __future__ import annotations

import pytest

from replay.games.base import Phase, RuleViolation
from replay.games.hearts import DECK, PLAY, RULES, HeartsState
from tests.builders import GameLog

NAMES = ["ann", "bob", "cy", "dee"]

# A no-pass hand (hand 4) built for the first-trick rules:
# seat 0 holds 2C; seat 1 is void in clubs with diamonds and one heart; seat 2 holds only hearts
# and the queen of spades; seat 3 holds clubs.
FIRST_TRICK_DEAL = [
    "2C 3C 4C 5C 6C 7C 8C 2S 3S 4S 5S 6S 7S",
    "AH 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
    "QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
    "9C TC JC QC KC AC AD 8S 9S TS JS KS AS",
]


def new_log(hand_no: int = 1) -> GameLog:
    log = GameLog(RULES, {"players": 4, "names": NAMES})
    log.state.hand_no = hand_no
    return log


def dealt(hands: list[str], hand_no: int = 1) -> GameLog:
    log = new_log(hand_no)
    for seat, hand in enumerate(hands):
        log.add("deal", round=hand_no, player=seat, cards=tuple(hand.split()))
    return log


def play(log: GameLog, seat: int, card: str) -> None:
    log.add("play", round=log.state.hand_no, trick=log.state.trick_no, player=seat, card=card)


def mid_hand(hands: list[str], *, leader: int = 0, trick: int = 2, broken: bool = False) -> GameLog:
    """A log whose state is set to the middle of a hand (for lead and break rules)."""
    log = new_log(4)
    state: HeartsState = log.state
    state.hands = [DECK.mask(h.split()) for h in hands]
    state.stage = PLAY
    state.trick_no = trick
    state.leader = state.turn = leader
    state.broken = broken
    return log


def rule_of(log: GameLog, type_: str, **fields: object) -> str:
    return log.violation(type_, **fields).rule


# ----------------------------------------------------------------------------- HEARTS-SETUP
def test_setup_needs_four_players() -> None:
    with pytest.raises(RuleViolation) as err:
        GameLog(RULES, {"players": 3, "names": NAMES[:3]})
    assert err.value.rule == "HEARTS-SETUP"


def test_deal_of_twelve_cards_is_rejected() -> None:
    log = new_log()
    cards = tuple(FIRST_TRICK_DEAL[0].split()[:12])
    assert rule_of(log, "deal", round=1, player=0, cards=cards) == "HEARTS-SETUP"


def test_card_dealt_twice_is_log_card() -> None:
    log = new_log()
    log.add("deal", round=1, player=0, cards=tuple(FIRST_TRICK_DEAL[0].split()))
    twice = ("2C", *FIRST_TRICK_DEAL[1].split()[1:])
    violation = log.violation("deal", round=1, player=1, cards=twice)
    assert violation.rule == "LOG-CARD" and "2C" in violation.message


def test_unknown_card_code_is_log_card() -> None:
    log = new_log()
    cards = ("ZZ", *FIRST_TRICK_DEAL[0].split()[1:])
    assert rule_of(log, "deal", round=1, player=0, cards=cards) == "LOG-CARD"


# ----------------------------------------------------------------------------- HEARTS-PASS
def test_pass_cycle_left_right_across_none() -> None:
    targets = {}
    for hand_no in (1, 2, 3, 5):
        log = dealt(FIRST_TRICK_DEAL, hand_no)
        targets[hand_no] = log.rules.legal_decisions(log.state, 0)[0].target
    assert targets == {1: 1, 2: 3, 3: 2, 5: 1}
    no_pass = dealt(FIRST_TRICK_DEAL, 4)
    assert RULES.due(no_pass.state).what == "play"


def test_pass_must_be_three_cards_to_the_right_seat() -> None:
    log = dealt(FIRST_TRICK_DEAL, 1)
    assert rule_of(log, "pass", round=1, player=0, target=1, cards=("2C", "3C")) == "HEARTS-PASS"
    wrong = log.violation("pass", round=1, player=0, target=2, cards=("2C", "3C", "4C"))
    assert wrong.rule == "HEARTS-PASS" and wrong.recoverable
    assert rule_of(log, "pass", round=1, player=0, target=1, cards=("2C", "3C", "AH")) == (
        "LOG-CARD"
    )


def test_passed_cards_are_received_only_after_all_four_passed() -> None:
    log = dealt(FIRST_TRICK_DEAL, 1)
    log.add("pass", round=1, player=2, target=3, cards=("QS", "KH", "QH"))
    log.add("pass", round=1, player=0, target=1, cards=("2C", "3C", "4C"))
    log.add("pass", round=1, player=1, target=2, cards=("AH", "KD", "QD"))
    assert "QS" not in DECK.codes(log.state.hands[3])
    assert "QS" not in DECK.codes(log.state.hands[2])  # gone from the giver, not yet received
    log.add("pass", round=1, player=3, target=0, cards=("AS", "KS", "AD"))
    assert {"QS", "KH", "QH"} <= set(DECK.codes(log.state.hands[3]))
    assert {"2C", "3C", "4C"} <= set(DECK.codes(log.state.hands[1]))
    # The 2 of clubs moved to seat 1, who now leads.
    assert RULES.due(log.state).seats == (1,)


def test_play_before_passing_is_rejected() -> None:
    log = dealt(FIRST_TRICK_DEAL, 1)
    assert rule_of(log, "play", round=1, trick=1, player=0, card="2C") == "HEARTS-PASS"


# ----------------------------------------------------------------------------- FIRST-LEAD, TURN
def test_first_lead_is_the_two_of_clubs_by_its_holder() -> None:
    log = dealt(FIRST_TRICK_DEAL, 4)
    assert rule_of(log, "play", round=4, trick=1, player=0, card="3C") == "HEARTS-FIRST-LEAD"
    assert rule_of(log, "play", round=4, trick=1, player=1, card="2D") == "HEARTS-TURN"
    play(log, 0, "2C")
    assert rule_of(log, "play", round=4, trick=1, player=2, card="QS") == "HEARTS-TURN"


# ----------------------------------------------------------------------------- FIRST-TRICK, FOLLOW
def test_first_trick_forbids_points_to_a_void_player_with_other_cards() -> None:
    log = dealt(FIRST_TRICK_DEAL, 4)
    play(log, 0, "2C")
    assert rule_of(log, "play", round=4, trick=1, player=1, card="AH") == "HEARTS-FIRST-TRICK"
    play(log, 1, "2D")


def test_first_trick_exception_only_hearts_and_queen() -> None:
    log = dealt(FIRST_TRICK_DEAL, 4)
    play(log, 0, "2C")
    play(log, 1, "2D")
    legal = {e.card for e in RULES.legal_decisions(log.state, 2)}
    assert legal == set(FIRST_TRICK_DEAL[2].split())
    play(log, 2, "QS")


def test_follow_suit_when_holding_it() -> None:
    log = dealt(FIRST_TRICK_DEAL, 4)
    play(log, 0, "2C")
    play(log, 1, "2D")
    play(log, 2, "QS")
    violation = log.violation("play", round=4, trick=1, player=3, card="AD")
    assert violation.rule == "HEARTS-FOLLOW" and violation.recoverable
    assert violation.message == "seat 3 played AD while holding 9C and clubs were led"


def test_card_not_held_is_log_card_and_not_recoverable() -> None:
    log = dealt(FIRST_TRICK_DEAL, 4)
    violation = log.violation("play", round=4, trick=1, player=0, card="AS")
    assert violation.rule == "LOG-CARD" and not violation.recoverable


def test_card_not_held_with_a_wrong_round_number_is_still_log_card() -> None:
    # A wrong round number alone is recoverable; a card from nowhere must not be absorbed.
    log = dealt(FIRST_TRICK_DEAL, 4)
    violation = log.violation("play", round=5, trick=1, player=0, card="AS")
    assert violation.rule == "LOG-CARD" and not violation.recoverable


def test_pass_with_a_wrong_round_number_is_checked_for_its_cards_first() -> None:
    log = dealt(FIRST_TRICK_DEAL, 1)
    not_held = log.violation("pass", round=2, player=0, target=1, cards=("AS", "2C", "3C"))
    assert not_held.rule == "LOG-CARD" and not not_held.recoverable
    two_cards = log.violation("pass", round=2, player=0, target=1, cards=("2C", "3C"))
    assert two_cards.rule == "HEARTS-PASS" and not two_cards.recoverable
    wrong_round = log.violation("pass", round=2, player=0, target=1, cards=("2C", "3C", "4C"))
    assert wrong_round.rule == "LOG-ORDER" and wrong_round.recoverable


# ----------------------------------------------------------------------------- HEARTS-TRICK, POINTS
def test_highest_card_of_led_suit_wins_and_off_suit_never_wins() -> None:
    log = dealt(FIRST_TRICK_DEAL, 4)
    for seat, card in enumerate(["2C", "KD", "QS", "9C"]):
        play(log, seat, card)
    due = RULES.due(log.state)
    assert due.phase is Phase.RULING and due.rule == "HEARTS-TRICK"
    assert due.ruling is not None
    assert (due.ruling.player, due.ruling.amount) == (3, 13)
    assert due.ruling.cards == ("2C", "KD", "QS", "9C")


def test_trick_given_to_wrong_seat_is_found() -> None:
    log = dealt(FIRST_TRICK_DEAL, 4)
    for seat, card in enumerate(["2C", "KD", "QS", "9C"]):
        play(log, seat, card)
    wrong = log.violation(
        "trick_won", round=4, trick=1, player=1, cards=("2C", "KD", "QS", "9C"), amount=13
    )
    assert wrong.rule == "HEARTS-TRICK" and wrong.expected is not None
    assert wrong.expected.player == 3


def test_missing_trick_ruling_is_log_order() -> None:
    log = dealt(FIRST_TRICK_DEAL, 4)
    for seat, card in enumerate(["2C", "KD", "QS", "9C"]):
        play(log, seat, card)
    assert rule_of(log, "play", round=4, trick=2, player=3, card="TC") == "LOG-ORDER"


def test_winner_leads_next_trick() -> None:
    log = dealt(FIRST_TRICK_DEAL, 4)
    for seat, card in enumerate(["2C", "KD", "QS", "9C"]):
        play(log, seat, card)
    log.rulings()
    assert RULES.due(log.state).seats == (3,)
    assert log.state.taken == [0, 0, 0, 13]


# ----------------------------------------------------------------------------- HEARTS-BREAK
BREAK_HANDS = ["2H 3H 5C", "4H 6C 7C", "QS 5H 6H", "8C 9C TC"]


def test_heart_lead_before_break_is_illegal() -> None:
    log = mid_hand(BREAK_HANDS)
    violation = log.violation("play", round=4, trick=2, player=0, card="2H")
    assert violation.rule == "HEARTS-BREAK"
    assert "5C" in violation.message


def test_heart_lead_after_break_is_legal() -> None:
    log = mid_hand(BREAK_HANDS, broken=True)
    play(log, 0, "2H")


def test_queen_of_spades_may_be_led_and_does_not_break_hearts() -> None:
    log = mid_hand(BREAK_HANDS, leader=2)
    play(log, 2, "QS")
    assert not log.state.broken


def test_heart_played_on_a_trick_breaks_hearts() -> None:
    log = mid_hand(BREAK_HANDS, leader=3)
    play(log, 3, "8C")
    play(log, 0, "5C")
    play(log, 1, "6C")
    play(log, 2, "5H")  # void in clubs: may discard a heart after the first trick
    assert log.state.broken


def test_leader_with_only_hearts_may_lead_a_heart() -> None:
    log = mid_hand(["2H 3H 4H", "5C 6C 7C", "8C 9C TC", "JC QC KC"])
    play(log, 0, "3H")


def test_leader_with_only_hearts_and_queen_must_lead_the_queen() -> None:
    log = mid_hand(["QS 5H 6H", "2H 6C 7C", "3H 5C TC", "8C 9C 4H"])
    assert rule_of(log, "play", round=4, trick=2, player=0, card="5H") == "HEARTS-BREAK"
    assert {e.card for e in RULES.legal_decisions(log.state, 0)} == {"QS"}


# ----------------------------------------------------------------------------- scoring, moon, end
def finish_hand(log: GameLog, taken: tuple[int, int, int, int]) -> list[int]:
    """Jump to the scoring of the hand with the given points taken; return recorded amounts."""
    state: HeartsState = log.state
    state.stage = 3  # SCORE
    state.taken = list(taken)
    amounts = []
    while (due := RULES.due(log.state)).what == "round_scored":
        assert due.ruling is not None
        log.add("round_scored", **{k: v for k, v in due.ruling.payload().items() if k != "type"})
        amounts.append(due.ruling.amount or 0)
    return amounts


def test_round_scores_are_the_points_taken() -> None:
    log = new_log()
    assert finish_hand(log, (3, 0, 13, 10)) == [3, 0, 13, 10]
    assert log.state.totals == (3, 0, 13, 10)


def test_score_off_by_one_is_found() -> None:
    log = new_log()
    log.state.stage = 3
    log.state.taken = [3, 0, 13, 10]
    wrong = log.violation("round_scored", round=1, player=0, amount=4, total=4)
    assert wrong.rule == "HEARTS-POINTS"


def test_shooting_the_moon() -> None:
    log = new_log()
    log.state.stage = 3
    log.state.taken = [0, 26, 0, 0]
    assert RULES.due(log.state).rule == "HEARTS-MOON"
    assert finish_hand(log, (0, 26, 0, 0)) == [26, 0, 26, 26]


def test_game_ends_at_100_with_lowest_total_winning() -> None:
    log = new_log()
    log.state.totals = (90, 40, 60, 70)
    finish_hand(log, (13, 5, 4, 4))
    due = RULES.due(log.state)
    assert due.rule == "HEARTS-END" and due.ruling is not None and due.ruling.values == (1,)
    log.rulings()
    assert log.state.over
    assert rule_of(log, "deal", round=2, player=0, cards=()) == "LOG-AFTER-END"


def test_tie_for_lowest_at_100_continues() -> None:
    log = new_log()
    log.state.totals = (90, 40, 45, 70)
    finish_hand(log, (13, 10, 3, 0))  # totals 103, 50, 48, 70: seat 2 alone lowest -> ends
    assert RULES.due(log.state).rule == "HEARTS-END"
    tie = new_log()
    tie.state.totals = (90, 40, 45, 70)
    finish_hand(tie, (13, 8, 3, 2))  # 103, 48, 48, 72: tie for lowest -> next hand
    assert RULES.due(tie.state).what == "deal"
    assert tie.state.hand_no == 2 and not tie.state.over


def test_end_ruling_cannot_be_skipped() -> None:
    """HEARTS-END [decision]: a missing game end cites HEARTS-END (a deal in its place)."""
    log = new_log()
    log.state.totals = (90, 40, 60, 70)
    finish_hand(log, (13, 5, 4, 4))
    assert rule_of(log, "deal", round=2, player=0, cards=()) == "HEARTS-END"


def test_sequence_gap_is_log_sequence() -> None:
    log = new_log()
    event = log.event("deal", round=1, player=0, cards=tuple(FIRST_TRICK_DEAL[0].split()))
    with pytest.raises(RuleViolation) as err:
        RULES.verify(log.state, event.at(5))
    assert err.value.rule == "LOG-SEQUENCE"


def test_an_illegal_play_with_a_wrong_trick_number_reports_the_game_rule() -> None:
    log = dealt(FIRST_TRICK_DEAL, 4)
    play(log, 0, "2C")
    play(log, 1, "2D")
    play(log, 2, "QS")
    violation = log.violation("play", round=4, trick=7, player=3, card="AD")
    assert violation.rule == "HEARTS-FOLLOW"
    numbering = log.violation("play", round=4, trick=7, player=3, card="9C")
    assert numbering.rule == "LOG-ORDER" and numbering.recoverable
