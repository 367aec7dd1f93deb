"""Hez2 setup drawing, the heuristic bot, hidden information in views, tolerant walks."""

from __future__ import annotations

import json
import random

from replay.engine.simulate import simulate_game
from replay.games.hez2 import DECK, RULES
from replay.model.events import Event
from tests.builders import GameLog
from tests.test_hez2_rules import declare, mid_round, play

HEURISTIC = RULES.bots()["heuristic"]


def choice(log: GameLog, seat: int) -> Event:
    return HEURISTIC(log.state, seat, random.Random(0))


# ----------------------------------------------------------------------------- setup_event
def test_setup_event_draws_bots_and_staked_humans_and_bots_never_stake() -> None:
    rng = random.Random(5)
    seen_bot = seen_stake = False
    for i in range(200):
        setup = RULES.setup_event(f"s{i}", 4, rng, {}).setup()
        RULES.start(RULES.setup_event(f"s{i}", 4, random.Random(i), {}))  # valid setups
        for bot, stake in zip(setup["bots"], setup["stakes"], strict=True):
            assert not (bot and stake is not None)
            seen_bot |= bot
            seen_stake |= stake is not None
        assert 0 <= setup["dealer"] < 4 and len(setup["names"]) == 4
    assert seen_bot and seen_stake


def test_setup_event_respects_options() -> None:
    options = {"bots": [False, True], "stakes": [300, None], "dealer": 1, "names": ["x", "y"]}
    event = RULES.setup_event("s", 2, random.Random(1), options)
    assert json.loads(event.data or "") == {"players": 2, **options}
    state = RULES.start(event)
    assert state.bots == (False, True) and state.stakes == (300, None) and state.dealer == 1


# ----------------------------------------------------------------------------- heuristic bot
def test_heuristic_answers_a_skip_and_a_draw_when_it_can() -> None:
    log = mid_round(["1O 3C 4C", "1C 5C 5E", "4E 6E"], "5O")
    play(log, 0, "1O")
    assert choice(log, 1).card == "1C"
    log = mid_round(["2O 3C 4C", "2C 5C 5E", "4E 6E"], "5O")
    play(log, 0, "2O")
    assert choice(log, 1).card == "2C"
    log = mid_round(["2O 3C 4C", "6C 5C 5E", "4E 6E"], "5O")
    play(log, 0, "2O")
    assert choice(log, 1).type == "accept_draw"


def test_heuristic_keeps_its_seven_while_another_card_plays() -> None:
    log = mid_round(["7O 3O 4C", "1C 5C 5E 6B"], "5O")
    assert choice(log, 0).card == "3O"
    log = mid_round(["7O 3C 4C", "1C 5C 5E 6B"], "5O")
    assert choice(log, 0).card == "7O"  # blocked otherwise: the 7 is the way out


def test_heuristic_declares_the_suit_it_holds_most() -> None:
    log = mid_round(["7O 3E 4E SC", "1C 5C 5E 6B"], "5O")
    play(log, 0, "7O")
    event = choice(log, 0)
    assert event.type == "declare_suit" and event.suit == "E"
    declare(log, 0, "E")


def test_heuristic_attacks_a_player_close_to_going_out() -> None:
    log = mid_round(["2O 3O SO 4C", "5C 6C", "5E 6E RB"], "5O")
    assert choice(log, 0).card == "2O"
    log = mid_round(["2O 3O SO 4C", "5C 6C 1B", "5E 6E RB"], "5O")
    assert choice(log, 0).card != "2O"


def test_heuristic_draws_only_when_it_cannot_play() -> None:
    log = mid_round(["3C 4C", "5C 6C 1B"], "5O")
    assert choice(log, 0).type == "draw"


def test_heuristic_beats_random_most_of_the_time() -> None:
    wins = 0
    for seed in range(200):
        events = simulate_game(
            RULES, f"b{seed}", players=2, seed=seed, bots=("heuristic", "random")
        )
        wins += events[-1].values == (0,)
    assert wins > 160  # random against random wins about 100 of 200


# ----------------------------------------------------------------------------- views
def test_seat_views_never_show_other_hands_during_simulated_games() -> None:
    for seed in range(6):
        events = simulate_game(RULES, f"v{seed}", players=3, seed=seed, bots=("heuristic",))
        state = RULES.start(events[0])
        for event in events[1:]:
            state = RULES.step(state, event)
            for seat in range(3):
                view = RULES.view(state, seat)
                text = json.dumps(view["hands"]) + str(view["last_event"])
                for other in range(3):
                    if other == seat:
                        continue
                    assert view["hands"][other] is None
                    exposed = DECK.codes(state.hands[other])
                    assert not [c for c in exposed if f'"{c}"' in text or f" {c}" in text]


# ----------------------------------------------------------------------------- tolerant walk
def test_an_illegal_play_is_absorbed_and_the_game_goes_on() -> None:
    log = mid_round(["3O 4C RB", "5C 6C 1B", "5E 6E 2B"], "5O")
    events = list(log.events)
    state = log.state
    bad = RULES.new_event(state, "play", round=1, player=0, card="RB")
    events.append(bad)
    state = RULES.apply(state, bad)  # the audit applies a recoverable violation
    follow = RULES.new_event(state, "play", round=1, player=1, card="1B")
    assert RULES.can(state, follow)
    state = RULES.apply(state, follow)
    assert state.pending_skip and RULES.due(state).seats == (2,)
