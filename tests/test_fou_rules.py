"""Every FOU-* rule of RULES.md, with legal and illegal examples on hand-made logs."""

from __future__ import annotations

import pytest

from replay.engine.simulate import simulate_game
from replay.games.base import Phase, RuleViolation
from replay.games.fou import (
    COLOUR,
    DECK,
    PLAY,
    RULES,
    VALUE,
    FouState,
    card_name,
    colour_counts,
    default_deck,
    fool_due_position,
    fool_position,
    legal_mask,
    lowest_total_seat,
    trick_winner,
    trick_winner_seat,
)
from replay.model.cards import bits
from replay.model.events import Event
from tests.builders import GameLog


def new_log(n: int, *, deck: list[str] | None = None, dealer: int | None = None) -> GameLog:
    """A game of ``n`` seats with its deck and first dealer recorded (seat 0 leads by default)."""
    log = GameLog(RULES, {"players": n, "names": [f"s{i}" for i in range(n)]})
    log.add("deck", cards=tuple(deck or default_deck(n)))
    log.add("dealer", player=n - 1 if dealer is None else dealer)
    return log


def deal(log: GameLog, hands: list[str] | list[list[str]]) -> GameLog:
    for seat, hand in enumerate(hands):
        cards = tuple(hand.split()) if isinstance(hand, str) else tuple(hand)
        log.add("deal", round=log.state.round, player=seat, cards=cards)
    return log


def play(log: GameLog, seat: int, card: str) -> Event:
    state: FouState = log.state
    return log.add("play", round=state.round, trick=state.trick, player=seat, card=card)


def trick(log: GameLog, plays: str) -> list[Event]:
    """Play ``"seat:card ..."`` in order, then record the trick's rulings the rules give
    (``trick_won`` and the Fools; round scores are left due)."""
    for item in plays.split():
        seat, card = item.split(":")
        play(log, int(seat), card)
    out = []
    while RULES.due(log.state).what in ("trick_won", "fool"):
        out.append(record_next_ruling(log))
    return out


def violation(log: GameLog, seat: int, card: str) -> RuleViolation:
    state: FouState = log.state
    return log.violation("play", round=state.round, trick=state.trick, player=seat, card=card)


def record_next_ruling(log: GameLog) -> Event:
    """Record only the next ruling due (not the ones after it)."""
    ruling = RULES.due(log.state).ruling
    assert ruling is not None
    log.state = RULES.step(log.state, ruling)
    log.events.append(ruling)
    return ruling


def ruled(events: list[Event], type_: str) -> list[int | None]:
    return [e.player for e in events if e.type == type_]


# A four-player deal of the default 48-card deck (G2-15 R2-12 Y2-11 B2-8, six 1s):
# seat 0 leads (dealer 3); seats 1 and 2 are void in green, seat 3 holds the low greens.
MIXED = [
    "1a 1b G10 G11 G12 G13 G14 G15 B2 B3 B4 B5",
    "1c R2 R3 R4 R5 R6 Y2 Y3 Y4 B6 B7 B8",
    "1d R7 R8 R9 R10 R11 R12 Y5 Y6 Y7 Y8 Y9",
    "1e 1f G2 G3 G4 G5 G6 G7 G8 G9 Y10 Y11",
]

# A four-player round in which seats 0 and 1 empty their hands in trick 12 and seat 1 is its Fool:
# seat 0 leads and wins every trick, seats 2 and 3 take turns as the Fool until then.
LAST_TRICK_DEAL = [
    "G11 G12 G13 G14 G15 B2 B3 B4 B5 B6 B7 B8",
    "G2 G3 G4 G5 G6 G7 G8 G9 G10 1a 1b 1c",
    "R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 1d",
    "Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 Y10 Y11 1e 1f",
]
LAST_TRICK_PLAYS = [
    "0:G15 1:G2 2:R2 3:Y3",
    "0:G14 1:G3 3:Y2",
    "0:G13 1:G4 2:R3",
    "0:G12 1:G5 3:Y4",
    "0:G11 1:G6 2:R4",
    "0:B8 1:1a 3:Y5",
    "0:B7 1:1b 2:R5",
    "0:B6 1:1c 3:Y6",
    "0:B5 1:G10 2:R6",
    "0:B4 1:G9 3:Y7",
    "0:B3 1:G8 2:R7",
    "0:B2 1:G7 3:1e",
]
LAST_TRICK_FOOLS = [2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 1]


def play_last_trick_round(log: GameLog) -> list[list[Event]]:
    deal(log, LAST_TRICK_DEAL)
    return [trick(log, plays) for plays in LAST_TRICK_PLAYS]


# ----------------------------------------------------------------------------- FOU-SETUP
@pytest.mark.parametrize("players", [3, 9])
def test_setup_takes_four_to_eight_players(players: int) -> None:
    with pytest.raises(RuleViolation) as err:
        GameLog(RULES, {"players": players})
    assert err.value.rule == "FOU-SETUP"


@pytest.mark.parametrize(
    ("players", "size", "counts"),
    [
        (4, 48, (14, 11, 10, 7)),
        (5, 60, (17, 15, 13, 9)),
        (6, 72, (21, 18, 16, 11)),
        (7, 84, (25, 21, 19, 13)),
        (8, 88, (26, 22, 20, 14)),
    ],
)
def test_default_deck_keeps_the_ones_and_the_lowest_values(
    players: int, size: int, counts: tuple[int, ...]
) -> None:
    deck = default_deck(players)
    assert len(deck) == size and colour_counts(players) == counts
    assert deck[:6] == ("1a", "1b", "1c", "1d", "1e", "1f")
    for colour, count in zip("GRYB", counts, strict=True):
        assert [c for c in deck if c[0] == colour] == [f"{colour}{v}" for v in range(2, count + 2)]


def test_full_deck_has_88_cards_in_four_colours_and_six_ones() -> None:
    assert len(DECK) == 88
    assert {c: sum(1 for x in DECK.order if x[0] == c) for c in "GRYB1"} == {
        "G": 26, "R": 22, "Y": 20, "B": 14, "1": 6,
    }  # fmt: skip


def test_deck_of_the_wrong_size_is_rejected() -> None:
    log = GameLog(RULES, {"players": 5})
    assert log.violation("deck", cards=default_deck(4)).rule == "FOU-SETUP"
    assert log.violation("deck", cards=(*default_deck(5)[:-1], "1a")).rule == "LOG-CARD"
    assert log.violation("deck", cards=(*default_deck(5)[:-1], "P9")).rule == "LOG-CARD"
    log.add("deck", cards=default_deck(5))  # any 60 distinct cards are a valid deck in play


def test_twelve_cards_each_and_eleven_at_eight_players() -> None:
    log = new_log(8)
    deck = default_deck(8)
    assert log.violation("deal", round=1, player=0, cards=tuple(deck[:12])).rule == "FOU-SETUP"
    log.add("deal", round=1, player=0, cards=tuple(deck[:11]))
    log4 = new_log(4)
    assert log4.violation("deal", round=1, player=0, cards=tuple(MIXED[0].split()[:11])).rule == (
        "FOU-SETUP"
    )


def test_dealing_a_card_outside_the_deck_in_play_or_twice_is_log_card() -> None:
    log = new_log(4)
    outside = ("G27", *MIXED[0].split()[1:])  # G27 is not in the 4-player deck
    assert log.violation("deal", round=1, player=0, cards=outside).rule == "LOG-CARD"
    log.add("deal", round=1, player=0, cards=tuple(MIXED[0].split()))
    twice = ("1a", *MIXED[1].split()[1:])
    err = log.violation("deal", round=1, player=1, cards=twice)
    assert err.rule == "LOG-CARD" and "1a" in err.message


# ----------------------------------------------------------------------------- FOU-LEAD
def test_player_left_of_the_dealer_leads_the_first_trick() -> None:
    log = deal(new_log(4, dealer=1), MIXED)
    assert RULES.due(log.state).seats == (2,)
    err = violation(log, 0, "G15")
    assert err.rule == "FOU-LEAD" and "seat 2" in err.message
    play(log, 2, "R12")


def test_first_dealer_must_be_a_seat() -> None:
    log = GameLog(RULES, {"players": 4})
    log.add("deck", cards=default_deck(4))
    assert log.violation("dealer", player=4).rule == "FOU-LEAD"


def test_trick_winner_leads_the_next_trick() -> None:
    log = deal(new_log(4), MIXED)
    rulings = trick(log, "0:G10 1:R6 2:R12 3:G6")
    assert ruled(rulings, "trick_won") == [0]
    assert RULES.due(log.state).seats == (0,)
    log2 = deal(new_log(4), MIXED)
    rulings = trick(log2, "0:G10 1:1c 2:1d 3:G9")  # no discard: the lowest card (1d) is the Fool
    assert ruled(rulings, "fool") == [2]
    assert violation(log2, 3, "G8").rule == "FOU-LEAD"


def test_lowest_total_leads_the_next_round() -> None:
    log = new_log(4)
    play_last_trick_round(log)
    log.rulings()
    assert log.state.totals == [10, 0, -55, -43]
    deal(log, LAST_TRICK_DEAL)
    assert log.state.round == 2 and RULES.due(log.state).seats == (2,)
    assert violation(log, 0, "G15").rule == "FOU-LEAD"


def test_lowest_total_ties_go_to_the_first_clockwise_from_the_previous_first_leader() -> None:
    assert lowest_total_seat([-5, -9, 0, -9], 0) == 1
    assert lowest_total_seat([-5, -9, 0, -9], 2) == 3
    assert lowest_total_seat([-9, -9, -9, -9], 3) == 3  # the previous first leader leads again


# ----------------------------------------------------------------------------- FOU-TURN
def test_play_goes_clockwise_from_the_leader() -> None:
    log = deal(new_log(4), MIXED)
    play(log, 0, "G15")
    err = violation(log, 2, "Y5")
    assert err.rule == "FOU-TURN" and "seat 1" in err.message


@pytest.mark.parametrize("seat", [-1, 4, 9])
def test_a_play_by_a_seat_that_does_not_exist_is_fou_turn_not_a_crash(seat: int) -> None:
    log = deal(new_log(4), MIXED)
    play(log, 0, "G15")
    err = violation(log, seat, "G2")
    assert err.rule == "FOU-TURN" and f"seat {seat}" in err.message


KEPT_BY_SEAT_2 = ["1d", "R7", "R8", "R9", "R10", "R11", "R12", "Y7", "Y8", "Y9"]


def test_the_fool_sits_out_the_next_trick_and_plays_again_after() -> None:
    log = deal(new_log(4), MIXED)
    rulings = trick(log, "0:G15 1:R5 2:Y5 3:G6")
    assert ruled(rulings, "fool") == [2]
    play(log, 0, "G14")
    play(log, 1, "R4")
    err = violation(log, 2, "Y6")
    assert err.rule == "FOU-TURN" and "Fool" in err.message
    assert RULES.due(log.state).seats == (3,)
    rulings = trick(log, "3:G7")  # three cards complete the trick
    assert [e.cards for e in rulings if e.type == "trick_won"] == [("G14", "R4", "G7")]
    assert ruled(rulings, "fool") == [1]
    trick(log, "0:G13 2:Y6 3:G8")  # seat 2 plays again; seat 1 sits out
    assert log.state.hands[2] == DECK.mask(KEPT_BY_SEAT_2)


# ----------------------------------------------------------------------------- FOU-FOLLOW
def test_holding_the_led_colour_forces_that_colour_or_a_one() -> None:
    log = deal(new_log(4), MIXED)
    play(log, 0, "G15")
    play(log, 1, "R5")  # void in green: any card
    play(log, 2, "Y5")
    err = violation(log, 3, "Y10")
    assert err.rule == "FOU-FOLLOW" and err.recoverable
    assert err.message == "seat 3 played Y10 while holding G2 and green was led"
    play(log, 3, "G6")


def test_a_card_not_held_is_log_card_and_not_recoverable() -> None:
    log = deal(new_log(4), MIXED)
    err = violation(log, 0, "G2")
    assert err.rule == "LOG-CARD" and not err.recoverable
    assert violation(log, 0, "G99").rule == "LOG-CARD"


# ----------------------------------------------------------------------------- FOU-JOKER
def test_a_one_may_be_played_while_holding_the_led_colour_and_is_never_a_discard() -> None:
    log = deal(new_log(4), MIXED)
    rulings = trick(log, "0:G15 1:R5 2:Y5 3:1e")  # seat 3 holds greens and plays a 1
    assert ruled(rulings, "trick_won") == [0]
    assert ruled(rulings, "fool") == [2]  # the lower discard, not the 1


def test_a_led_one_then_a_one_then_a_colour_sets_the_led_colour() -> None:
    log = deal(new_log(4), MIXED)
    play(log, 0, "1a")
    play(log, 1, "1c")
    play(log, 2, "Y9")  # the first card other than a 1 sets yellow
    err = violation(log, 3, "G6")
    assert err.rule == "FOU-JOKER" and err.recoverable
    assert "Y10" in err.message and "Y9" in err.message
    rulings = trick(log, "3:Y10")
    assert ruled(rulings, "trick_won") == [3]
    assert ruled(rulings, "fool") == [1]  # two 1s tie at value 1: the later one loses


def test_after_a_led_one_any_card_may_set_the_colour() -> None:
    log = deal(new_log(4), MIXED)
    play(log, 0, "1a")
    play(log, 1, "B8")  # seat 1 holds reds and yellows too: nothing to follow yet
    play(log, 2, "R7")  # blue is set, seat 2 holds none: a discard
    rulings = trick(log, "3:G2")
    assert ruled(rulings, "trick_won") == [1]
    assert ruled(rulings, "fool") == [3]  # discards R7 and G2: the lower one


def test_holding_only_ones_is_not_holding_the_led_colour() -> None:
    hands = [
        "G10 G11 G12 G13 G14 G15 B2 B3 B4 B5 R12 Y11",
        "1a 1b 1c 1d R2 R3 R4 R5 R6 B6 B7 B8",
        "1e 1f R7 R8 R9 R10 R11 Y2 Y3 Y4 Y5 Y6",
        "G2 G3 G4 G5 G6 G7 G8 G9 Y7 Y8 Y9 Y10",
    ]
    log = deal(new_log(4), hands)
    play(log, 0, "G15")
    play(log, 1, "R2")  # seat 1 holds four 1s but no green: a discard is legal


# ----------------------------------------------------------------------------- FOU-TRICK
def test_highest_card_of_the_led_colour_wins_and_a_discard_never_wins() -> None:
    log = deal(new_log(4), MIXED)
    for seat, card in ((0, "G10"), (1, "R6"), (2, "R12"), (3, "G6")):
        play(log, seat, card)
    expected = RULES.due(log.state).ruling
    assert expected is not None and expected.player == 0
    assert expected.cards == ("G10", "R6", "R12", "G6")
    err = log.violation("trick_won", round=1, trick=1, player=2, cards=expected.cards)
    assert err.rule == "FOU-TRICK" and err.expected == expected
    assert ruled(log.rulings(), "fool") == [1]  # R6 is the lower discard


def test_all_ones_the_first_card_wins_and_the_last_is_the_fool() -> None:
    log = deal(new_log(4), MIXED)
    for seat, card in ((0, "1a"), (1, "1c"), (2, "1d"), (3, "1e")):
        play(log, seat, card)
    err = log.violation("trick_won", round=1, trick=1, player=3, cards=("1a", "1c", "1d", "1e"))
    assert err.rule == "FOU-TRICK"
    rulings = log.rulings()
    assert ruled(rulings, "trick_won") == [0] and ruled(rulings, "fool") == [3]


def test_a_ruling_before_the_trick_is_complete_is_log_order() -> None:
    log = deal(new_log(4), MIXED)
    play(log, 0, "G15")
    assert log.violation("trick_won", round=1, trick=1, player=0, cards=("G15",)).rule == (
        "LOG-ORDER"
    )


# ----------------------------------------------------------------------------- FOU-FOOL
def test_two_discards_of_the_same_value_the_later_one_is_the_fool() -> None:
    log = deal(new_log(4), MIXED)
    for seat, card in ((0, "G15"), (1, "R5"), (2, "Y5"), (3, "G6")):
        play(log, seat, card)
    record_next_ruling(log)  # trick_won
    state: FouState = log.state
    assert state.stage == 4  # FOOL: the fool ruling is due
    err = log.violation("fool", round=1, trick=1, player=1, card="R5")
    assert err.rule == "FOU-FOOL" and err.expected is not None
    assert (err.expected.player, err.expected.card) == (2, "Y5")


def test_the_lowest_followed_card_is_the_fool_when_nobody_discards() -> None:
    log = deal(new_log(4), MIXED)
    rulings = trick(log, "0:G12 1:R4 2:Y5 3:G2")
    assert ruled(rulings, "fool") == [1]  # discards are worse than G2; R4 is the lowest
    log2 = deal(new_log(4), MIXED)
    rulings = trick(log2, "0:G12 1:1c 2:1d 3:G2")
    assert [(e.player, e.card) for e in rulings if e.type == "fool"] == [(2, "1d")]


def seven_player_hands() -> list[list[str]]:
    """Seven hands of the default 84-card deck for one trick: seat 0 leads B14, seats 1 and 5
    follow blue, seat 4 plays 1a, seats 2, 3 and 6 (void in blue) discard R3, Y3 and G20."""
    fixed = {0: ["B14"], 1: ["B2"], 2: ["R3"], 3: ["Y3"], 4: ["1a"], 5: ["B3"], 6: ["G20"]}
    void = {2: "B", 3: "B", 6: "B"}
    hands = [list(cards) for _, cards in sorted(fixed.items())]
    used = {c for cards in fixed.values() for c in cards}
    rest = sorted((c for c in default_deck(7) if c not in used), key=lambda c: c[0] != "B")
    for card in rest:
        allowed = [s for s in range(7) if len(hands[s]) < 12 and void.get(s) != card[0]]
        seat = max(allowed, key=lambda s: (12 - len(hands[s]), -s))
        hands[seat].append(card)
    return hands


def test_two_fools_at_seven_players_both_sit_out() -> None:
    log = deal(new_log(7, dealer=6), seven_player_hands())
    rulings = trick(log, "0:B14 1:B2 2:R3 3:Y3 4:1a 5:B3 6:G20")
    assert [(e.player, e.card) for e in rulings if e.type == "fool"] == [(3, "Y3"), (2, "R3")]
    state: FouState = log.state
    assert state.need == 5 and RULES.view(state)["game"]["sitting_out"] == [2, 3]
    play(log, 0, card_name(min(bits(legal_mask(log.state.hand(0), log.state.led)))))
    play(log, 1, card_name(min(bits(legal_mask(log.state.hand(1), log.state.led)))))
    held = card_name(min(bits(log.state.hand(2))))
    assert violation(log, 2, held).rule == "FOU-TURN"
    assert RULES.due(log.state).seats == (4,)
    for seat in (4, 5, 6):
        play(log, seat, card_name(min(bits(legal_mask(log.state.hand(seat), log.state.led)))))
    rulings = log.rulings()
    assert len(ruled(rulings, "fool")) == 2
    assert RULES.due(log.state).phase is Phase.DECISION


# ----------------------------------------------------------------------------- FOU-ROUND-END
def test_round_ends_when_a_hand_empties_with_the_fool_still_assigned() -> None:
    log = new_log(4)
    deal(log, LAST_TRICK_DEAL)
    for plays, fool in zip(LAST_TRICK_PLAYS[:-1], LAST_TRICK_FOOLS, strict=False):
        assert ruled(trick(log, plays), "fool") == [fool]
    assert RULES.due(log.state).phase is Phase.DECISION
    assert log.violation("round_scored", round=1, player=0, amount=0, total=0).rule == (
        "FOU-ROUND-END"
    )
    rulings = trick(log, LAST_TRICK_PLAYS[-1])
    assert [e.type for e in rulings] == ["trick_won", "fool"]
    assert ruled(rulings, "fool") == [1]
    err = log.violation("play", round=1, trick=13, player=0, card="G11")
    assert err.rule == "FOU-ROUND-END"
    assert RULES.due(log.state).what == "round_scored"


# ----------------------------------------------------------------------------- FOU-SCORE
def test_two_hands_empty_in_the_last_trick_and_the_fool_scores_zero() -> None:
    log = new_log(4)
    play_last_trick_round(log)
    scores = log.rulings()
    assert [(e.player, e.amount, e.total) for e in scores] == [
        (0, 10, 10),
        (1, 0, 0),
        (2, -55, -55),  # R8..R12 and a 1 counting 5
        (3, -43, -43),  # Y8..Y11 and a 1 counting 5
    ]
    assert log.state.plus == [1, 0, 0, 0]  # only an actual +10 counts toward six


def test_a_wrong_round_score_is_fou_score() -> None:
    log = new_log(4)
    play_last_trick_round(log)
    fresh = new_log(4)
    play_last_trick_round(fresh)
    assert fresh.violation("round_scored", round=1, player=0, amount=0, total=0).rule == (
        "FOU-SCORE"
    )
    fresh.add("round_scored", round=1, player=0, amount=10, total=10)
    assert fresh.violation("round_scored", round=1, player=1, amount=10, total=10).rule == (
        "FOU-SCORE"
    )


# ----------------------------------------------------------------------------- FOU-END
def minus_80_round() -> tuple[GameLog, list[str]]:
    """A 4-player round whose last trick leaves seat 2 with five high reds (-110 in all)."""
    deck = [c for c in default_deck(4) if c not in {"R8", "R9", "R10", "R11", "R12"}]
    deck += ["R19", "R20", "R21", "R22", "R23"]
    hands = list(LAST_TRICK_DEAL)
    hands[2] = "R2 R3 R4 R5 R6 R7 R19 R20 R21 R22 R23 1d"
    log = deal(new_log(4, deck=deck), hands)
    for plays in LAST_TRICK_PLAYS:
        trick(log, plays)
    return log, hands


def test_a_total_of_minus_80_ends_the_game_and_the_highest_total_wins() -> None:
    log, hands = minus_80_round()
    scores = log.rulings()
    assert [e.total for e in scores if e.type == "round_scored"] == [10, 0, -110, -43]
    assert scores[-1].type == "game_end" and scores[-1].values == (0,)
    assert log.state.over
    assert log.violation("deal", round=2, player=0, cards=tuple(hands[0].split())).rule == (
        "LOG-AFTER-END"
    )


def test_a_deal_instead_of_the_game_end_is_fou_end() -> None:
    log, hands = minus_80_round()
    while RULES.due(log.state).what != "game_end":
        record_next_ruling(log)
    err = log.violation("deal", round=2, player=0, cards=tuple(hands[0].split()))
    assert err.rule == "FOU-END" and "-110" in err.message


SIX_PLUS_SEAT = 5


def six_plus_deck_and_hands() -> tuple[list[str], list[list[str]]]:
    """Six players: seat 5 holds the top green, red and yellow and nine blues, nobody else
    holds blue, so seat 5 wins every trick and empties first; the others hold low cards."""
    low = [f"G{v}" for v in range(2, 23)] + [f"R{v}" for v in range(2, 22)]
    low += [f"Y{v}" for v in range(2, 21)]
    low.sort(key=lambda c: (VALUE[DECK.index(c)], COLOUR[DECK.index(c)]))
    hands: list[list[str]] = [low[seat::5] for seat in range(5)]
    hands.append(["G27", "R23", "Y21", *(f"B{v}" for v in range(7, 16))])
    return low + hands[SIX_PLUS_SEAT], hands


def play_highest(log: GameLog, seat: int) -> None:
    legal = legal_mask(log.state.hand(seat), log.state.led)
    play(log, seat, card_name(max(bits(legal), key=VALUE.__getitem__)))


def test_six_rounds_of_plus_ten_end_the_game() -> None:
    deck, hands = six_plus_deck_and_hands()
    log = new_log(6, deck=deck, dealer=5)  # seat 0 leads round 1
    for round_no in range(1, 7):
        deal(log, hands)
        while (due := RULES.due(log.state)).what != "round_scored":
            if due.phase is Phase.DECISION:
                play_highest(log, due.seats[0])
            else:
                record_next_ruling(log)
        scores = [e for e in log.rulings() if e.type == "round_scored"]
        assert [e.amount for e in scores if e.player == SIX_PLUS_SEAT] == [10]
        state: FouState = log.state
        assert min(state.totals) > -80 and state.plus[SIX_PLUS_SEAT] == round_no
        if round_no < 6:
            assert RULES.due(state).what == "deal"
            err = log.violation("game_end", values=(SIX_PLUS_SEAT,))
            assert err.rule == "FOU-END"
    assert log.state.over and log.events[-1].type == "game_end"
    assert log.events[-1].values == (SIX_PLUS_SEAT,)


def test_highest_total_tie_is_a_shared_victory() -> None:
    from replay.games.base import game_winners

    assert game_winners([10, -3, 10, -90]) == (0, 2)


def test_seat_views_hide_another_seats_deal_and_hand() -> None:
    log = new_log(4)
    log.add("deal", round=1, player=0, cards=tuple(MIXED[0].split()))
    state: FouState = log.state
    own, other = RULES.view(state, 0), RULES.view(state, 1)
    assert own["last_event"] is not None and "G15" in own["last_event"]
    assert other["last_event"] == "#3 deal seat 0"
    assert other["hands"][0] is None and other["hand_sizes"][0] == 12
    assert "G15" not in RULES.render(state, 1)


@pytest.mark.parametrize("players", range(4, 9))
def test_the_rulings_on_the_table_rule_as_the_trick_and_fool_rules_of_a_listed_trick(
    players: int,
) -> None:
    """FOU-TRICK, FOU-FOOL: the winner and the Fools the rulings name (from the trick packed on
    the table, kept there until its Fools are named) are those :func:`trick_winner` and
    :func:`fool_position` find on the trick listed, on every trick of simulated games."""
    tricks = fools = 0
    for seed in range(3):
        events = simulate_game(RULES, f"r{seed}", players=players, seed=seed,
                               bots=("heuristic", "random"))  # fmt: skip
        state = RULES.start(events[0])
        for event in events[1:]:
            if state.stage == PLAY and state.played == state.need and state.played:
                best = trick_winner(state.table, state.led)
                assert trick_winner_seat(state) == state.table_seats[best]
                tricks += 1
            if event.type == "fool":
                plain = fool_position(state.table, state.table_seats, state.led, state.fools)
                assert fool_due_position(state) == plain
                assert event.player == state.table_seats[plain] or state.n >= 7
                fools += 1
            state = RULES.reduce(state, event)
    assert tricks > 20 and fools >= tricks
