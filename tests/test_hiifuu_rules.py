"""Every HIIFUU-* rule of RULES.md, with legal and illegal examples, on hand-made logs.

Most tests play a *scripted round*: given the winner of each trick, every trick is one suit, all
seats follow it, and the winner holds its highest card. The cards that no trick uses are dealt too
and make up the discards, so each log is a genuine round: tokens, deals, discards, plays, rulings.
"""

from __future__ import annotations

import json
import random

import pytest

from replay.engine.simulate import simulate_game
from replay.games.base import Phase, RuleViolation
from replay.games.hiifuu import DEFAULT_TOKENS, RULES, SUITS, TABLE_SIZES, HiifuuState
from replay.model.cards import popcount
from replay.model.events import Event
from tests.builders import GameLog

Deal = list[list[str]]  # per seat: the cards dealt
Plays = list[list[str]]  # per trick: each seat's card, by seat


def code(value: int, suit: int) -> str:
    return f"{value}{SUITS[suit]}"


def script(n: int, winners: list[int]) -> tuple[Deal, Plays, Deal]:
    """Deals, per-trick plays and discards of a round in which trick k is won by winners[k]."""
    values, deal_size, discard_size = TABLE_SIZES[n]
    assert len(winners) == deal_size - discard_size
    plays: Plays = []
    used: set[str] = set()
    for k, winner in enumerate(winners):
        suit, block = k % 4, k // 4
        low = [code(block * n + v, suit) for v in range(1, n)]
        top = code(block * n + n, suit)
        cards = [top if s == winner else low.pop() for s in range(n)]
        plays.append(cards)
        used.update(cards)
    rest = [code(v, s) for s in range(4) for v in range(1, values + 1) if code(v, s) not in used]
    discards = [rest[i * discard_size : (i + 1) * discard_size] for i in range(n)]
    deals = [[p[s] for p in plays] + discards[s] for s in range(n)]
    return deals, plays, discards


def new_log(n: int = 4, first: int = 0, **options: object) -> GameLog:
    setup: dict[str, object] = {"players": n, "names": [f"s{i}" for i in range(n)]}
    setup.update(options)
    log = GameLog(RULES, setup)
    log.add("first_leader", round=1, player=first)
    return log


def start_round(log: GameLog, deals: Deal, layout: tuple[int, ...] | None = None) -> None:
    """Lay out the tokens and deal (no discard yet)."""
    state: HiifuuState = log.state
    number = state.round + 1
    if layout is None:
        layout = (state.setup.tokens or DEFAULT_TOKENS)[number - 1]
    log.add("tokens", round=number, values=layout)
    for seat, cards in enumerate(deals):
        log.add("deal", round=number, player=seat, cards=tuple(cards))


def discard_all(log: GameLog, discards: Deal) -> None:
    for seat, cards in enumerate(discards):
        log.add("discard", round=log.state.round, player=seat, cards=tuple(cards))


def play(log: GameLog, seat: int, card: str) -> Event:
    state: HiifuuState = log.state
    return log.add("play", round=state.round, trick=state.trick_no, player=seat, card=card)


def play_all(log: GameLog, cards: list[str]) -> None:
    """Every seat plays its card of ``cards`` (indexed by seat) in turn order."""
    for _ in range(log.state.n):
        seat = log.state.turn
        play(log, seat, cards[seat])


def play_trick(log: GameLog, cards: list[str]) -> list[Event]:
    """A whole trick as :func:`play_all`, then its rulings (returned)."""
    play_all(log, cards)
    return log.rulings()


def scripted_round(
    log: GameLog, winners: list[int], layout: tuple[int, ...] | None = None
) -> list[Event]:
    """A whole round in which trick k is won by winners[k]; returns all its rulings."""
    deals, plays, discards = script(log.state.n, winners)
    start_round(log, deals, layout)
    discard_all(log, discards)
    rulings: list[Event] = []
    for cards in plays:
        rulings += play_trick(log, cards)
    return rulings


def at_play(log: GameLog, winners: list[int]) -> Plays:
    """Start a scripted round up to its first play; returns the plays per trick."""
    deals, plays, discards = script(log.state.n, winners)
    start_round(log, deals)
    discard_all(log, discards)
    return plays


def on_table(log: GameLog) -> tuple[str, ...]:
    """The cards of the current trick in play order."""
    return tuple(log.state.setup.deck.order[c] for c in log.state.table)


def of_type(events: list[Event], type_: str) -> list[Event]:
    return [e for e in events if e.type == type_]


def scores(events: list[Event]) -> list[int]:
    return [e.amount or 0 for e in of_type(events, "round_scored")]


def rule_of(log: GameLog, type_: str, **fields: object) -> str:
    return log.violation(type_, **fields).rule


# ----------------------------------------------------------------------------- HIIFUU-SETUP
@pytest.mark.parametrize("n", [3, 7])
def test_setup_takes_four_to_six_players(n: int) -> None:
    with pytest.raises(RuleViolation) as err:
        GameLog(RULES, {"players": n})
    assert err.value.rule == "HIIFUU-SETUP"


@pytest.mark.parametrize(
    ("n", "top", "dealt", "kept"), [(4, 13, 13, 9), (5, 15, 12, 9), (6, 18, 12, 10)]
)
def test_deck_hand_and_discard_sizes_per_player_count(
    n: int, top: int, dealt: int, kept: int
) -> None:
    log = new_log(n)
    deck = log.state.setup.deck
    assert len(deck) == 4 * top and code(top, 3) in deck and code(top + 1, 0) not in deck
    deals, _, discards = script(n, [0] * kept)
    assert {len(d) for d in deals} == {dealt} and {len(d) for d in discards} == {dealt - kept}
    start_round(log, deals)
    discard_all(log, discards)
    assert [popcount(h) for h in log.state.hands] == [kept] * n


def test_card_outside_the_deck_in_play_is_log_card() -> None:
    log = new_log(4)
    deals, _, _ = script(4, [0] * 9)
    log.add("tokens", round=1, values=(1, 2, 3, 4))
    bad = ["14R", *deals[0][1:]]  # 14 exists only from 5 players up
    assert rule_of(log, "deal", round=1, player=0, cards=tuple(bad)) == "LOG-CARD"


def test_deal_of_the_wrong_size_is_rejected() -> None:
    log = new_log(5)
    deals, _, _ = script(5, [0] * 9)
    log.add("tokens", round=1, values=(1, 2, 3, 4))
    short = tuple(deals[0][:11])
    assert rule_of(log, "deal", round=1, player=0, cards=short) == "HIIFUU-SETUP"


def test_card_dealt_twice_is_log_card() -> None:
    log = new_log(4)
    deals, _, _ = script(4, [0] * 9)
    log.add("tokens", round=1, values=(1, 2, 3, 4))
    log.add("deal", round=1, player=0, cards=tuple(deals[0]))
    twice = (deals[0][0], *deals[1][1:])
    violation = log.violation("deal", round=1, player=1, cards=twice)
    assert violation.rule == "LOG-CARD" and deals[0][0] in violation.message


@pytest.mark.parametrize("n", [4, 5, 6])
def test_discard_must_be_exactly_four_three_or_two_cards(n: int) -> None:
    log = new_log(n)
    deals, _, discards = script(n, [0] * (9 if n < 6 else 10))
    start_round(log, deals)
    too_many = (*discards[0], deals[0][0])
    assert rule_of(log, "discard", round=1, player=0, cards=too_many) == "HIIFUU-SETUP"
    too_few = tuple(discards[0][1:])
    assert rule_of(log, "discard", round=1, player=0, cards=too_few) == "HIIFUU-SETUP"
    log.add("discard", round=1, player=0, cards=tuple(discards[0]))


def test_discarding_a_card_not_held_is_log_card() -> None:
    log = new_log(4)
    deals, _, discards = script(4, [0] * 9)
    start_round(log, deals)
    foreign = (deals[1][0], *discards[0][1:])
    violation = log.violation("discard", round=1, player=0, cards=foreign)
    assert violation.rule == "LOG-CARD" and not violation.recoverable
    assert deals[1][0] in violation.message


def test_cards_not_held_with_a_wrong_round_number_are_still_log_card() -> None:
    # A wrong round number alone is recoverable; a card from nowhere must not be absorbed.
    log = new_log(4)
    deals, plays, discards = script(4, [0] * 9)
    start_round(log, deals)
    foreign = (deals[1][0], *discards[0][1:])
    violation = log.violation("discard", round=2, player=0, cards=foreign)
    assert violation.rule == "LOG-CARD" and not violation.recoverable
    short = tuple(discards[0][1:])
    assert rule_of(log, "discard", round=2, player=0, cards=short) == "HIIFUU-SETUP"
    discard_all(log, discards)
    violation = log.violation("play", round=2, trick=1, player=0, card=plays[0][1])
    assert violation.rule == "LOG-CARD" and not violation.recoverable
    wrong_round = log.violation("play", round=2, trick=1, player=0, card=plays[0][0])
    assert wrong_round.rule == "LOG-ORDER" and wrong_round.recoverable


def test_discards_come_in_any_seat_order_and_all_before_play() -> None:
    """A second discard cites HIIFUU-SETUP, or LOG-CARD for cards already out of the hand
    (RULES.md, "Which rule a finding cites", 1. and 2.)."""
    log = new_log(4)
    deals, plays, discards = script(4, [0] * 9)
    start_round(log, deals)
    log.add("discard", round=1, player=2, cards=tuple(discards[2]))
    assert log.rules.due(log.state).seats == (0, 1, 3)
    assert rule_of(log, "play", round=1, trick=1, player=0, card=plays[0][0]) == "HIIFUU-SETUP"
    for seat in (3, 0, 1):
        log.add("discard", round=1, player=seat, cards=tuple(discards[seat]))
    assert log.rules.due(log.state).phase is Phase.DECISION
    assert rule_of(log, "discard", round=1, player=0, cards=tuple(discards[0])) == "LOG-CARD"
    held = tuple(plays[t][0] for t in range(4))  # four cards seat 0 still holds
    assert rule_of(log, "discard", round=1, player=0, cards=held) == "HIIFUU-SETUP"


def test_discarded_cards_are_out_of_the_round() -> None:
    log = new_log(4)
    _, _, discards = script(4, [0] * 9)
    at_play(log, [0] * 9)
    violation = log.violation("play", round=1, trick=1, player=0, card=discards[0][0])
    assert violation.rule == "LOG-CARD"


def test_setup_values_that_contradict_the_player_count_are_rejected() -> None:
    with pytest.raises(RuleViolation) as err:
        GameLog(RULES, {"players": 4, "values": 15})
    assert err.value.rule == "HIIFUU-SETUP"
    for bad in ({"variant": "reverse"}, {"tokens": [[1, 2, 3]] * 5}, {"names": ["a"]}):
        with pytest.raises(RuleViolation) as err:
            GameLog(RULES, {"players": 4, **bad})
        assert err.value.rule == "LOG-SETUP"


def test_all_cards_are_dealt_anew_each_round() -> None:
    log = new_log(4)
    winners = [0, 1, 2, 3, 0, 1, 2, 3, 3]
    scripted_round(log, winners)
    rulings = scripted_round(log, winners)  # the very same cards again: legal
    assert [e.round for e in of_type(rulings, "round_scored")] == [2] * 4
    assert log.state.totals == [2, 4, 7, 0]


# ----------------------------------------------------------------------------- HIIFUU-TOKENS
def test_normal_rule_lays_tokens_out_in_increasing_order() -> None:
    log = new_log(4)
    violation = log.violation("tokens", round=1, values=(2, 1, 3, 4))
    assert violation.rule == "HIIFUU-TOKENS" and violation.recoverable
    log.add("tokens", round=1, values=(1, 2, 3, 4))


def test_variant_accepts_any_order_of_the_rounds_tokens_only() -> None:
    """The values the setup states (RULES.md HIIFUU-TOKENS), in any order in the variant."""
    log = new_log(4, variant="random-tokens", tokens=[list(t) for t in DEFAULT_TOKENS])
    violation = log.violation("tokens", round=1, values=(1, 2, 3, 5))
    assert violation.rule == "HIIFUU-TOKENS" and not violation.recoverable
    log.add("tokens", round=1, values=(3, 1, 4, 2))


def test_token_values_come_from_the_log() -> None:
    custom = [[10, 20, 30, 40], [1, 1, 1, 1], [0, 0, 0, 0], [1, 2, 3, 4], [5, 6, 7, 8]]
    log = new_log(4, tokens=custom)
    assert rule_of(log, "tokens", round=1, values=(1, 2, 3, 4)) == "HIIFUU-TOKENS"
    rulings = scripted_round(log, [0, 0, 1, 1, 2, 2, 3, 3, 3])
    assert [e.amount for e in of_type(rulings, "token_taken")] == [10, 20, 30, 40]
    assert scores(rulings) == [10, 20, 30, 0]
    assert of_type(rulings, "game_end")[0].values == (2,)


def test_default_token_values_only_write_logs_and_never_judge_one() -> None:
    """RULES.md HIIFUU-TOKENS [decision]: where the setup states no values, each round's
    recorded layout is the record (increasing in the normal rule)."""
    event = RULES.setup_event("g", 4, random.Random(1), {})
    assert json.loads(event.data or "{}")["tokens"] == [list(t) for t in DEFAULT_TOKENS]
    log = new_log(4)  # a setup without "tokens"
    assert log.state.setup.tokens == ()
    assert RULES.can(log.state, log.event("tokens", round=1, values=(2, 5, 7, 30)))
    assert rule_of(log, "tokens", round=1, values=(5, 2, 7, 30)) == "HIIFUU-TOKENS"
    assert rule_of(log, "tokens", round=1, values=(1, 2, 3)) == "HIIFUU-TOKENS"


def test_simulated_variant_records_a_random_order_per_round() -> None:
    orders = set()
    for seed in range(10):
        events = simulate_game(
            RULES, "v", players=4, seed=seed, options={"variant": "random-tokens"}
        )
        orders |= {e.values for e in events if e.type == "tokens" and e.round == 1}
    assert len(orders) > 1 and all(sorted(o) == [1, 2, 3, 4] for o in orders if o)


# ----------------------------------------------------------------------------- HIIFUU-LEAD
def test_first_leader_is_recorded_and_leads_the_first_trick() -> None:
    log = new_log(4, first=2)
    plays = at_play(log, [2] * 9)
    assert log.rules.due(log.state).seats == (2,)
    violation = log.violation("play", round=1, trick=1, player=0, card=plays[0][0])
    assert violation.rule == "HIIFUU-LEAD"
    play(log, 2, plays[0][2])


def test_first_leader_must_be_a_seat_of_round_one() -> None:
    log = GameLog(RULES, {"players": 4})
    assert rule_of(log, "first_leader", round=1, player=4) == "HIIFUU-LEAD"
    assert rule_of(log, "first_leader", round=2, player=1) == "HIIFUU-LEAD"
    assert rule_of(log, "tokens", round=1, values=(1, 2, 3, 4)) == "LOG-ORDER"


def test_trick_winner_leads_the_next_trick() -> None:
    log = new_log(4)
    plays = at_play(log, [1, 3, 0, 0, 0, 0, 0, 0, 0])
    play_trick(log, plays[0])
    assert log.state.turn == 1
    assert rule_of(log, "play", round=1, trick=2, player=0, card=plays[1][0]) == "HIIFUU-LEAD"
    play_trick(log, plays[1])
    assert log.state.turn == 3


def test_winner_of_the_last_trick_leads_the_next_round() -> None:
    log = new_log(4, first=0)
    rulings = scripted_round(log, [0, 0, 1, 1, 2, 2, 3, 3, 2])
    assert of_type(rulings, "trick_won")[-1].player == 2
    plays = at_play(log, [2] * 9)
    assert log.state.round == 2 and log.rules.due(log.state).seats == (2,)
    assert rule_of(log, "play", round=2, trick=1, player=0, card=plays[0][0]) == "HIIFUU-LEAD"


# ----------------------------------------------------------------------------- HIIFUU-TURN
def test_play_goes_clockwise_and_everyone_plays_every_trick() -> None:
    log = new_log(5, first=3)
    plays = at_play(log, [3] * 9)
    play(log, 3, plays[0][3])
    assert rule_of(log, "play", round=1, trick=1, player=2, card=plays[0][2]) == "HIIFUU-TURN"
    play(log, 4, plays[0][4])
    play(log, 0, plays[0][0])
    play(log, 1, plays[0][1])
    early = Event("t1", log.state.seq, "hiifuu", "trick_won", round=1, trick=1, player=3)
    with pytest.raises(RuleViolation) as err:
        RULES.verify(log.state, early)
    assert err.value.rule == "LOG-ORDER"
    play(log, 2, plays[0][2])
    assert [e.type for e in log.rulings()] == ["trick_won"]


# ----------------------------------------------------------------------------- HIIFUU-FOLLOW
def test_must_follow_suit_even_with_a_risky_card() -> None:
    """Seat 1 holds two tricks and 13R; it may not duck with 1G when red is led (seed FAQ)."""
    log = new_log(4)
    at_play(log, [0] * 9)
    state: HiifuuState = log.state
    hands = [["5R", "6R"], ["13R", "1G"], ["2G", "3G"], ["4G", "5G"]]
    state.hands = [state.setup.deck.mask(h) for h in hands]
    state.trick_no, state.tricks = 8, [5, 2, 0, 0]
    state.token_of, state.covered, state.next_token = (0, 1, -1, -1), (True, False, False, False), 2
    play(log, 0, "5R")
    violation = log.violation("play", round=1, trick=8, player=1, card="1G")
    assert violation.rule == "HIIFUU-FOLLOW" and violation.recoverable
    assert violation.message == "seat 1 played 1G while holding 13R and red was led"
    play(log, 1, "13R")
    play(log, 2, "2G")
    play(log, 3, "4G")
    rulings = log.rulings()
    assert [(e.type, e.player, e.amount) for e in rulings] == [
        ("trick_won", 1, None),
        ("token_covered", 1, 2),
    ]


def test_any_value_of_the_led_suit_is_legal() -> None:
    log = new_log(4)
    plays = at_play(log, [0] * 9)
    play(log, 0, plays[0][0])  # 4R
    # seat 1 holds 3R (trick 1) and 7R (trick 5) and 11R (trick 9): the highest is legal too
    hand = log.state.setup.deck.codes(log.state.hands[1])
    reds = [c for c in hand if c.endswith("R")]
    assert len(reds) == 3
    high = max(reds, key=lambda c: int(c[:-1]))
    play(log, 1, high)


def test_a_void_player_may_play_any_card() -> None:
    log = new_log(4)
    plays = at_play(log, [0] * 9)
    state: HiifuuState = log.state
    deck = state.setup.deck
    state.hands = [state.hands[0], deck.mask(["2G", "3B", "5Y"]), *state.hands[2:]]
    play(log, 0, plays[0][0])
    legal = {e.card for e in RULES.legal_decisions(log.state, 1)}
    assert legal == {"2G", "3B", "5Y"}
    play(log, 1, "5Y")


# ----------------------------------------------------------------------------- HIIFUU-TRICK
def test_an_off_suit_high_card_never_wins() -> None:
    log = new_log(6)
    state: HiifuuState = log.state
    at_play(log, [0] * 10)
    deck = state.setup.deck
    hands = [["1R"], ["18G"], ["18B"], ["18Y"], ["17G"], ["17B"]]
    log.state.hands = [deck.mask(h) for h in hands]
    for seat in range(6):
        play(log, seat, hands[seat][0])
    due = RULES.due(log.state)
    assert due.ruling is not None and due.ruling.player == 0 and due.rule == "HIIFUU-TRICK"
    assert due.ruling.cards == ("1R", "18G", "18B", "18Y", "17G", "17B")


def test_a_wrong_trick_winner_is_rejected_with_the_expected_ruling() -> None:
    log = new_log(4)
    plays = at_play(log, [2] * 9)
    for seat in range(4):
        play(log, seat, plays[0][seat])
    wrong = log.violation("trick_won", round=1, trick=1, player=1, cards=tuple(plays[0]), total=1)
    assert wrong.rule == "HIIFUU-TRICK" and wrong.expected is not None
    assert wrong.expected.player == 2


# ----------------------------------------------------------------------------- HIIFUU-SECOND
def test_second_trick_takes_the_first_token_still_available() -> None:
    log = new_log(4)
    rulings = scripted_round(log, [0, 1, 0, 1, 2, 3, 2, 3, 3])
    taken = [(e.player, e.target, e.amount) for e in of_type(rulings, "token_taken")]
    assert taken == [(0, 0, 1), (1, 1, 2), (2, 2, 3), (3, 3, 4)]
    assert [e.type for e in rulings[:3]] == ["trick_won", "trick_won", "trick_won"]
    assert rulings[3].type == "token_taken" and rulings[3].player == 0


def test_no_choice_of_token() -> None:
    log = new_log(4)
    plays = at_play(log, [0] * 9)
    play_trick(log, plays[0])
    play_all(log, plays[1])
    log.add("trick_won", round=1, trick=2, player=0, cards=tuple(plays[1]), total=2)
    better = log.violation("token_taken", round=1, player=0, target=3, amount=4)
    assert better.rule == "HIIFUU-SECOND"
    assert better.expected is not None and better.expected.amount == 1
    assert better.expected.target == 0


def test_variant_takes_the_first_token_in_layout_order_not_the_smallest() -> None:
    log = new_log(4, variant="random-tokens")
    rulings = scripted_round(log, [1, 1, 0, 0, 2, 2, 3, 3, 3], layout=(4, 1, 3, 2))
    assert [e.amount for e in of_type(rulings, "token_taken")] == [4, 1, 3, 2]
    assert scores(rulings) == [1, 4, 3, 0]


def test_six_players_five_reach_two_tricks_and_the_fifth_finds_no_token() -> None:
    log = new_log(6)
    rulings = scripted_round(log, [0, 0, 1, 1, 2, 2, 3, 3, 4, 4])
    taken = of_type(rulings, "token_taken")
    assert [e.player for e in taken] == [0, 1, 2, 3]
    assert log.state.tricks == [2, 2, 2, 2, 2, 0]
    assert of_type(rulings, "token_covered") == []
    assert scores(rulings) == [1, 2, 3, 4, 0, 0]


# ----------------------------------------------------------------------------- HIIFUU-THIRD
def test_a_third_trick_covers_the_token_and_the_player_keeps_playing() -> None:
    log = new_log(4)
    winners = [0, 0, 1, 1, 0, 2, 2, 3, 0]
    rulings = scripted_round(log, winners)
    covered = of_type(rulings, "token_covered")
    assert [(e.player, e.target, e.amount) for e in covered] == [(0, 0, 1)]
    assert log.state.tricks == [4, 2, 2, 1]  # a fourth trick: no elimination, no new event
    assert scores(rulings) == [0, 2, 3, 0]


def test_a_covered_token_is_not_offered_again() -> None:
    log = new_log(4)
    rulings = scripted_round(log, [0, 0, 0, 1, 1, 2, 2, 3, 3])
    assert [e.amount for e in of_type(rulings, "token_taken")] == [1, 2, 3, 4]
    assert scores(rulings) == [0, 2, 3, 4]


def test_the_covering_ruling_cannot_be_skipped() -> None:
    log = new_log(4)
    plays = at_play(log, [0, 0, 0, 1, 1, 1, 2, 2, 3])
    for k in range(2):
        play_trick(log, plays[k])
    for _ in range(4):
        play(log, log.state.turn, plays[2][log.state.turn])
    log.add("trick_won", round=1, trick=3, player=0, cards=tuple(plays[2]), total=3)
    assert rule_of(log, "play", round=1, trick=4, player=0, card=plays[3][0]) == "LOG-ORDER"
    log.add("token_covered", round=1, player=0, target=0, amount=1)
    play(log, 0, plays[3][0])


# ----------------------------------------------------------------------------- HIIFUU-SCORE
def test_only_uncovered_tokens_score_and_the_centre_is_removed() -> None:
    log = new_log(5)
    rulings = scripted_round(log, [0, 0, 1, 1, 1, 2, 3, 4, 4])
    assert [e.player for e in of_type(rulings, "token_taken")] == [0, 1, 4]
    assert scores(rulings) == [1, 0, 0, 0, 3]  # token 4 stayed in the centre
    assert [e.total for e in of_type(rulings, "round_scored")] == [1, 0, 0, 0, 3]


def test_a_wrong_round_score_is_rejected() -> None:
    log = new_log(4)
    plays = at_play(log, [0, 0, 1, 1, 2, 2, 3, 3, 3])
    for cards in plays[:-1]:
        play_trick(log, cards)
    for _ in range(4):
        play(log, log.state.turn, plays[-1][log.state.turn])
    log.add("trick_won", round=1, trick=9, player=3, cards=on_table(log), total=3)
    log.add("token_covered", round=1, player=3, target=3, amount=4)
    wrong = log.violation("round_scored", round=1, player=0, amount=2, total=2)
    assert wrong.rule == "HIIFUU-SCORE" and wrong.expected is not None
    assert wrong.expected.amount == 1


# ----------------------------------------------------------------------------- HIIFUU-END
def test_ten_points_end_the_game_only_after_the_round_is_scored() -> None:
    tokens = [[1, 2, 3, 12], *DEFAULT_TOKENS[1:]]
    log = new_log(4, tokens=tokens)
    plays = at_play(log, [0, 1, 0, 1, 2, 2, 3, 3, 1])
    for cards in plays[:8]:
        play_trick(log, cards)
    assert log.state.token_of[3] == 3 and not log.state.over  # 12 held, the round goes on
    assert RULES.due(log.state).phase is Phase.DECISION
    rulings = play_trick(log, plays[8])
    assert [e.type for e in rulings] == [
        "trick_won",
        "token_covered",
        *["round_scored"] * 4,
        "game_end",
    ]
    assert scores(rulings) == [1, 0, 3, 12] and rulings[-1].values == (3,)
    assert log.state.over
    after = log.violation("tokens", round=2, values=(1, 2, 4, 5))
    assert after.rule == "LOG-AFTER-END"


def test_exactly_ten_points_is_enough() -> None:
    log = new_log(4, tokens=[[1, 2, 3, 10], *DEFAULT_TOKENS[1:]])
    rulings = scripted_round(log, [0, 0, 1, 1, 2, 2, 3, 3, 0])
    assert of_type(rulings, "game_end")[0].values == (3,)


def test_a_covered_ten_does_not_end_the_game() -> None:
    log = new_log(4, tokens=[[1, 2, 3, 10], *DEFAULT_TOKENS[1:]])
    rulings = scripted_round(log, [0, 0, 1, 1, 2, 2, 3, 3, 3])
    assert scores(rulings) == [1, 2, 3, 0] and not log.state.over


def test_nine_points_do_not_end_the_game() -> None:
    log = new_log(4, tokens=[[0, 0, 0, 9], *DEFAULT_TOKENS[1:]])
    rulings = scripted_round(log, [0, 0, 1, 1, 2, 2, 3, 3, 0])
    assert scores(rulings) == [0, 0, 0, 9] and not of_type(rulings, "game_end")
    assert not log.state.over and RULES.due(log.state).what == "tokens"


def test_the_game_ends_after_the_fifth_round() -> None:
    log = new_log(4, tokens=[[1, 1, 1, 1]] * 5)
    for number in range(1, 6):
        rulings = scripted_round(log, [0, 0, 1, 1, 2, 2, 3, 3, 3])
        assert bool(of_type(rulings, "game_end")) == (number == 5)
    assert log.state.totals == [5, 5, 5, 0]
    assert rulings[-1].type == "game_end" and rulings[-1].values == (0, 1, 2)


def test_a_tie_for_the_highest_total_is_a_shared_victory() -> None:
    log = new_log(4, tokens=[[0, 0, 5, 5], *[[0, 0, 0, 0]] * 4])
    rulings = scripted_round(log, [2, 2, 3, 3, 0, 0, 1, 1, 2])
    assert scores(rulings) == [5, 5, 0, 0] and not log.state.over
    for _ in range(4):
        rulings = scripted_round(log, [2, 2, 3, 3, 0, 0, 1, 1, 2])
    assert log.state.totals == [5, 5, 0, 0]
    assert rulings[-1].type == "game_end" and rulings[-1].values == (0, 1)
    assert RULES.result(log.state) == {"winners": [0, 1], "totals": [5, 5, 0, 0]}


# ----------------------------------------------------------------------------- views
def test_a_seat_view_hides_other_hands_and_discards() -> None:
    log = new_log(4)
    deals, _, discards = script(4, [0] * 9)
    start_round(log, deals)
    discard_all(log, discards)
    view = RULES.view(log.state, 1)
    assert view["hands"][0] is None and view["hands"][1] is not None
    assert view["game"]["discards"][0] is None
    assert view["game"]["discards"][1] == discards[1]
    assert "[" not in (view["last_event"] or "")  # seat 3's discard, cards hidden
    text = json.dumps(view)
    for card in discards[0] + discards[2] + discards[3]:
        assert f'"{card}"' not in text
    everything = RULES.view(log.state)
    assert everything["game"]["discards"][3] == discards[3]
    assert RULES.render(log.state, 1).splitlines()[0].startswith("hiifuu round 1/5 trick 1")
