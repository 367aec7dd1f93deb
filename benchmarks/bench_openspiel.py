"""Hearts replay with every decision checked: replay's engine beside OpenSpiel's C++ engine.

Run (OpenSpiel is an optional extra, never needed by the tests: ``.venv/bin/pip install
'open_spiel==2.0.2'`` or ``pip install -e '.[dev,bench]'``)::

    make native && PYTHONPATH=build/native .venv/bin/python benchmarks/bench_openspiel.py \
        [--games N] [--rounds R] [--bots B] [--option NAME=VALUE]

It simulates N Hearts games with replay's bots, cuts them into hands, and replays every hand
in both engines from the same input, prepared before the clock starts:

- replay: ``FastPath.replay(game, check=True)`` over each whole game (every deal, pass and
  play verified, every recorded ruling recomputed: trick winners, points, hand scores, the
  end), as ``benchmarks/bench_games.py`` times it;
- OpenSpiel: each hand is one game of ``pyspiel.load_game("hearts")``: the pass direction and
  the deal (card by card, round robin, as its chance nodes deal) applied as chance outcomes,
  then every pass card and play checked as legal and applied, twice: by
  ``apply_action_with_legality_check`` (the check in its C++) and by ``legal_actions()`` and
  ``apply_action`` (the check in Python), through its Python binding (the pip package's
  interface; the cost of a trivial call into it is printed, for its share of the time).

Both are timed by CPU time (``time.process_time``), R rounds alternated, the median kept.
Before timing, an untimed cross-check walks every hand in both engines: the seat to move, the
set of legal cards at every play (replay's ``Rules.legal_decisions`` against OpenSpiel's
``legal_actions``), each trick's winner (the last one's is in the scores) and the hand's
scores. OpenSpiel's rules
options are set to RULES.md where it has one (``qs_breaks_hearts`` off: the queen of spades
does not break hearts); the differences it cannot express are printed. Exit status 1 when the
engines disagree on any hand.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from replay import engine_build
from replay.engine.simulate import simulate_game
from replay.games import get_fast_path, get_rules
from replay.model.events import Event

#: OpenSpiel's card index: rank * 4 + suit, ranks 2..A, suits clubs, diamonds, hearts, spades.
RANKS = "23456789TJQKA"
SUITS = "CDHS"
#: OpenSpiel's pass direction (its first chance outcome) by how many seats on the cards go.
PASS_DIRECTION = {None: 0, 1: 1, 2: 2, 3: 3}  # none, left, across, right
#: RULES.md's Hearts in OpenSpiel's options (the others at their defaults, which agree).
OPENSPIEL_RULES = {"qs_breaks_hearts": False}
#: What OpenSpiel's Hearts does not express, beside the options above.
DIFFERENCES = (
    "a game is one hand: the game to 100 points (HEARTS-END) and the running totals are "
    "replay's alone; the hand scores are compared",
    "the pass direction is a chance outcome of each hand, not the cycle of HEARTS-PASS "
    "(left, right, across, keep): it is given as the hand was played",
    "a hand's cards are dealt one at a time, round robin; replay's log deals each seat's 13 "
    "at once: the same deal is given in OpenSpiel's order",
    "a pass is 3 decisions of one card (seats 0 to 3 in turn); in replay one decision of 3 "
    "cards per seat, in any order",
)


def card_index(code: str) -> int:
    """OpenSpiel's action for a card code (``QS`` -> 43)."""
    return RANKS.index(code[0]) * 4 + SUITS.index(code[1])


@dataclass(slots=True)
class Hand:
    """One hand of a recorded game: what OpenSpiel replays, and what it must agree with."""

    chance: list[int] = field(default_factory=list)  # pass direction, then 52 dealt cards
    decisions: list[int] = field(default_factory=list)  # 12 passed cards, then 52 plays
    seats: list[int] = field(default_factory=list)  # the seat of each decision
    legal: list[frozenset[int]] = field(default_factory=list)  # replay's legal cards, each play
    winners: list[tuple[int, int]] = field(default_factory=list)  # each trick: winner, points
    scores: list[int] = field(default_factory=lambda: [0, 0, 0, 0])


def hands_of(game: Sequence[Event]) -> list[Hand]:
    """The hands of a recorded Hearts game, with replay's legal cards at every play (the game
    walked through the plain rules)."""
    rules: Any = get_rules("hearts")
    state = rules.start(game[0])
    hands: dict[int, Hand] = {}
    dealt: dict[int, dict[int, tuple[str, ...]]] = {}
    passes: dict[int, dict[int, Event]] = {}
    for event in game[1:]:
        if event.round is not None:
            hand = hands.setdefault(event.round, Hand())
        if event.type == "deal":
            dealt.setdefault(event.round or 0, {})[event.player or 0] = event.cards or ()
        elif event.type == "pass":
            passes.setdefault(event.round or 0, {})[event.player or 0] = event
        elif event.type == "play":
            assert event.player is not None and event.card is not None
            legal = rules.legal_decisions(state, event.player)
            hand.legal.append(frozenset(card_index(e.card) for e in legal))
            hand.seats.append(event.player)
            hand.decisions.append(card_index(event.card))
        elif event.type == "trick_won":
            hand.winners.append((event.player or 0, event.amount or 0))
        elif event.type == "round_scored":
            hand.scores[event.player or 0] = event.amount or 0
        state = rules.apply(state, event)
    for number, hand in hands.items():
        hand.chance = deal_actions(dealt[number], passes.get(number, {}))
        hand.decisions[:0] = pass_actions(passes.get(number, {}))
        hand.seats[:0] = [seat for seat in sorted(passes.get(number, {})) for _ in range(3)]
    return list(hands.values())


def deal_actions(dealt: dict[int, tuple[str, ...]], passes: dict[int, Event]) -> list[int]:
    """OpenSpiel's chance outcomes of a hand: the pass direction, then the deal round robin
    (its n-th dealt card goes to seat n mod 4)."""
    offset = None
    if passes:
        first = passes[min(passes)]
        offset = ((first.target or 0) - (first.player or 0)) % 4
    cards = [card_index(dealt[n % 4][n // 4]) for n in range(52)]
    return [PASS_DIRECTION[offset], *cards]


def pass_actions(passes: dict[int, Event]) -> list[int]:
    """The passed cards as OpenSpiel's decisions: seat 0's three, then seat 1's..."""
    return [card_index(c) for seat in sorted(passes) for c in passes[seat].cards or ()]


def card_code(action: int) -> str:
    """The card code of an OpenSpiel action (43 -> ``QS``)."""
    return RANKS[action // 4] + SUITS[action % 4]


def cross_check(game: Any, hands: Sequence[Hand]) -> list[tuple[int, str]]:
    """Where OpenSpiel and replay disagree: (hand, what) pairs (empty: nowhere)."""
    faults = []
    for number, hand in enumerate(hands):
        state = game.new_initial_state()
        for action in hand.chance:
            state.apply_action(action)
        plays = 0
        for i, (action, seat) in enumerate(zip(hand.decisions, hand.seats, strict=True)):
            where = f"decision {i}"
            if state.current_player() != seat:
                faults.append((number, f"{where}: seat {seat}, OpenSpiel {state.current_player()}"))
                break
            legal = frozenset(state.legal_actions())
            is_play = i >= len(hand.decisions) - 52
            if is_play and legal != hand.legal[plays]:
                only = " ".join(card_code(c) for c in sorted(legal - hand.legal[plays]))
                not_os = " ".join(card_code(c) for c in sorted(hand.legal[plays] - legal))
                faults.append((number, f"{where}: legal in OpenSpiel only {only or '-'}, "
                                       f"in replay only {not_os or '-'}"))  # fmt: skip
            state.apply_action(action)
            if is_play:
                plays += 1
                # (the last trick's winner is in the scores: OpenSpiel's game is over)
                trick_over = plays % 4 == 0 and plays < 52
                if trick_over and state.current_player() != hand.winners[plays // 4 - 1][0]:
                    faults.append((number, f"{where}: trick winner differs"))
        points = [round(26 - r) for r in state.returns()] if state.is_terminal() else None
        if points != hand.scores:
            faults.append((number, f"scores {hand.scores}, OpenSpiel {points}"))
    return faults


def replay_seconds(corpus: Sequence[Sequence[Event]]) -> float:
    """CPU seconds of replay's checked replay of every game."""
    fast: Any = get_fast_path("hearts")
    start = time.process_time()
    for events in corpus:
        fast.replay(events, check=True)
    return time.process_time() - start


def openspiel_seconds(game: Any, hands: Sequence[Hand], *, in_cpp: bool) -> float:
    """CPU seconds of OpenSpiel's replay of every hand, each decision checked as legal: by
    ``apply_action_with_legality_check`` (``in_cpp``: its C++ computes the legal actions and
    looks the action up) or by ``legal_actions()`` and a lookup in Python."""
    start = time.process_time()
    for hand in hands:
        state = game.new_initial_state()
        for action in hand.chance:
            state.apply_action(action)
        if in_cpp:
            for action in hand.decisions:
                state.apply_action_with_legality_check(action)  # an illegal one raises
        else:
            for action in hand.decisions:
                if action not in state.legal_actions():
                    raise AssertionError(f"OpenSpiel: illegal action {action}")
                state.apply_action(action)
        if not state.is_terminal():
            raise AssertionError("OpenSpiel: the hand did not end")
    return time.process_time() - start


def binding_seconds(game: Any, calls: int) -> float:
    """CPU seconds of ``calls`` trivial calls into OpenSpiel (``current_player``): the
    binding's share of each call."""
    state = game.new_initial_state()
    start = time.process_time()
    for _ in range(calls):
        state.current_player()
    return time.process_time() - start


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--bots", default="random,heuristic", help="bots cycled over the seats")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        help="an OpenSpiel hearts option, e.g. qs_breaks_hearts=true (its default; repeatable)",
    )
    return parser.parse_args()


def openspiel_hearts(overrides: Sequence[str]) -> Any:
    """OpenSpiel's Hearts with RULES.md's options, and ``NAME=VALUE`` overrides."""
    try:
        import pyspiel
    except ImportError:
        sys.exit("OpenSpiel is not installed: .venv/bin/pip install 'open_spiel==2.0.2'")
    options = dict(OPENSPIEL_RULES)
    for option in overrides:
        name, _, value = option.partition("=")
        options[name] = value.lower() in ("1", "true", "yes")
    print(f"replay engine: {engine_build()}; OpenSpiel {pyspiel.__version__}")
    return pyspiel.load_game("hearts", options)


def print_cross_check(game: Any, hands: Sequence[Hand]) -> bool:
    """Print where the engines disagree (the first 20) and how many hands agree; whether all."""
    faults = cross_check(game, hands)
    for number, fault in faults[:20]:
        print(f"disagreement: hand {number}, {fault}")
    agree = len(hands) - len({number for number, _ in faults})
    print(f"cross-check: {agree} of {len(hands)} hands agree (seat to move, legal cards, "
          "trick winners, scores)")  # fmt: skip
    print("not expressed in OpenSpiel:", *(f"  - {d}" for d in DIFFERENCES), sep="\n")
    return not faults


def print_timings(
    game: Any, corpus: Sequence[Sequence[Event]], hands: Sequence[Hand], rounds: int
) -> None:
    """Time both engines, ``rounds`` rounds alternated, and print the medians."""
    seconds: dict[str, list[float]] = {"replay": [], "cpp": [], "python": []}
    for _ in range(rounds):
        seconds["replay"].append(replay_seconds(corpus))
        seconds["cpp"].append(openspiel_seconds(game, hands, in_cpp=True))
        seconds["python"].append(openspiel_seconds(game, hands, in_cpp=False))
    mine, cpp, python = (statistics.median(seconds[k]) for k in ("replay", "cpp", "python"))
    events = sum(len(g) for g in corpus)
    ours = sum(e.type in ("pass", "play") for g in corpus for e in g)
    theirs = sum(len(h.decisions) for h in hands)
    actions = theirs + sum(len(h.chance) for h in hands)
    print(f"CPU time, median of {rounds} alternated rounds ({ours:,} decisions in replay, a "
          f"pass one; {theirs:,} in OpenSpiel, a pass three):")  # fmt: skip
    print(f"{'':<36}{'hands/s':>9}{'events/s':>12}{'decisions/s':>13}{'replay is':>11}")
    rows = (
        ("replay, check=True", mine, events, ours),
        ("OpenSpiel, checked in C++", cpp, actions, theirs),
        ("OpenSpiel, legal_actions() + apply", python, actions, theirs),
    )
    for name, took, steps, chosen in rows:
        print(f"{name:<36}{len(hands) / took:>9,.0f}{steps / took:>12,.0f}"
              f"{chosen / took:>13,.0f}{took / mine:>10.1f}x")  # fmt: skip
    call = binding_seconds(game, 200_000) / 200_000
    calls = actions + 2 * len(hands)  # each action, a new state and the end test a hand
    print(f"OpenSpiel's events are its actions (chance outcomes and decisions). Its Python "
          f"binding: {call * 1e9:.0f} ns a trivial call; {calls:,} calls checked in C++ "
          f"(about {call * calls / cpp:.0%} of that time), {calls + theirs:,} with "
          f"legal_actions() (about {call * (calls + theirs) / python:.0%})")  # fmt: skip


def main() -> None:
    args = arguments()
    game = openspiel_hearts(args.option)
    bots = tuple(args.bots.split(","))
    rules = get_rules("hearts")
    corpus = [
        simulate_game(rules, f"os{i}", players=4, seed=i, bots=bots) for i in range(args.games)
    ]
    hands = [hand for events in corpus for hand in hands_of(events)]
    print(f"{game}: {args.games} games ({','.join(bots)} bots), {len(hands)} hands, "
          f"{sum(len(g) for g in corpus):,} events")  # fmt: skip
    agreed = print_cross_check(game, hands)
    print_timings(game, corpus, hands, args.rounds)
    sys.exit(0 if agreed else 1)


if __name__ == "__main__":
    main()
