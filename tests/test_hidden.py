"""The samplers of what a seat cannot see (replay/games/hidden.py and the ``*_hidden`` modules).

Consistency: at random steps of simulated games (every player count), a sampled log replays
through the rules without a finding, differs from the truth only in the cards of other seats'
private events, and leaves the seat's view unchanged. Uniformity: on small endgames every
assignment of the unseen cards is tried through the rules (the oracle knows nothing of voids),
and the sampler's frequencies over the consistent ones pass a chi-square test.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import Any

import pytest

from replay.cards import bits, popcount
from replay.events import Event
from replay.games import get_rules
from replay.games.base import Phase, RuleViolation
from replay.games.hearts import DECK as HEARTS_DECK
from replay.games.hidden import Inconsistent, NoSampler, Slot, fill, sampler_for
from replay.simulate import simulate_game
from tests.builders import simulated_games

KINDS = ["hearts"]

#: Events whose cards only their own seat sees, per game (the games' PRIVATE_EVENTS).
PRIVATE = {
    "hearts": {"deal", "pass"},
    "hez2": {"deal", "card_drawn"},
    "hiifuu": {"deal", "discard"},
    "fou": {"deal"},
}

#: The significance of the chi-square tests: a sampler that is uniform fails one in a thousand
#: seeds (the seeds are fixed).
SIGNIFICANCE_Z = 3.090  # the standard normal's 0.999 quantile


def chi_square_limit(df: int) -> float:
    """The 0.999 quantile of the chi-square distribution (Wilson-Hilferty; within 1% for
    df >= 3)."""
    h = 2 / (9 * df)
    return df * (1 - h + SIGNIFICANCE_Z * math.sqrt(h)) ** 3


def assert_uniform(counts: Counter[Any], support: Sequence[Any], draws: int) -> None:
    """``counts`` (of ``draws`` draws) lie in ``support`` and fit a uniform law over it."""
    assert set(counts) <= set(support), "a draw outside the consistent assignments"
    expected = draws / len(support)
    statistic = sum((counts[key] - expected) ** 2 / expected for key in support)
    assert statistic < chi_square_limit(len(support) - 1), (statistic, len(support))


def replays_clean(kind: str, before: Any, events: Sequence[Event]) -> bool:
    """Whether the rules accept every event of ``events`` after the state ``before``."""
    rules = get_rules(kind)
    state = before.clone()
    try:
        for event in events:
            rules.verify(state, event)
            state = rules.apply_in_place(state, event)
    except RuleViolation:
        return False
    return True


# --------------------------------------------------------------------- the shared fill
def test_fill_is_uniform_over_the_assignments_within_the_allowed_cards() -> None:
    pool = 0b1111111  # seven cards into 3 + 2 + 2, two slots barred from some cards
    slots = [Slot(3, 0b0011111), Slot(2, 0b1111100), Slot(2)]
    support = [
        (a, b, pool & ~a & ~b)
        for a in _subsets(pool, 3)
        for b in _subsets(pool & ~a, 2)
        if not a & ~slots[0].allowed and not b & ~slots[1].allowed
    ]
    rng = random.Random(5)
    draws = 40 * len(support)
    counts = Counter(tuple(fill(pool, slots, rng)) for _ in range(draws))
    assert_uniform(counts, support, draws)


def test_fill_refuses_what_no_assignment_fits() -> None:
    with pytest.raises(Inconsistent):
        fill(0b111, [Slot(2, 0b001), Slot(1)], random.Random(0))
    with pytest.raises(Inconsistent):
        fill(0b111, [Slot(2)], random.Random(0))


def test_a_game_without_a_sampler_is_a_clear_key_error() -> None:
    with pytest.raises(NoSampler, match="no sampler"):
        sampler_for("chess")
    assert issubclass(NoSampler, KeyError)


def _subsets(mask: int, size: int) -> list[int]:
    return [sum(1 << c for c in combo) for combo in itertools.combinations(bits(mask), size)]


# --------------------------------------------------------------------- consistency
def visible_view(kind: str, state: Any, seat: int) -> dict[str, Any]:
    """The seat's view of ``state``; for Hearts, whose turn it is before the first card of a
    hand depends on who holds the two of clubs, which nobody has seen yet."""
    view = get_rules(kind).view(state, seat)
    if kind == "hearts" and view["phase"] == "decision" and view["trick"] == 1 and not state.played:
        view["turn"] = view["game"]["leader"] = None
    return view


def check_sample(kind: str, events: list[Event], seat: int, sampled: list[Event]) -> None:
    """The sampled log replays, keeps what the seat saw, and shows the seat the same view."""
    rules = get_rules(kind)
    assert len(sampled) == len(events)
    for true, drawn in zip(events, sampled, strict=True):
        if true.type in PRIVATE[kind] and true.player != seat:
            assert replace(drawn, card=true.card, cards=true.cards) == true
            assert len(drawn.cards or ()) == len(true.cards or ())
        else:
            assert drawn == true, true
    state = rules.replay(sampled, check=True)
    assert visible_view(kind, state, seat) == visible_view(kind, rules.replay(events), seat)


@pytest.mark.parametrize("kind", KINDS)
def test_sampled_logs_replay_and_keep_what_the_seat_saw(kind: str) -> None:
    sampler = sampler_for(kind)
    rng = random.Random(11)
    changed = 0
    for events in simulated_games(kind, 6):
        for _ in range(25):
            step = rng.randrange(1, len(events) + 1)
            seat = rng.randrange(events[0].setup()["players"])
            sampled = sampler.sample(events[:step], seat, rng)
            check_sample(kind, events[:step], seat, sampled)
            changed += sampled != events[:step]
    assert changed > 100  # the hidden cards are drawn anew, not kept


# --------------------------------------------------------------------- uniformity
def endgame_key(events: Sequence[Event], seat: int, kind: str) -> tuple[Any, ...]:
    """What the sampler drew in the last round of ``events``: the cards of its other seats'
    private events."""
    last = events[-1].round
    return tuple(
        e.cards for e in events if e.round == last and e.type in PRIVATE[kind] and e.player != seat
    )


def hearts_endgames() -> Iterator[tuple[list[Event], int]]:
    """Steps of hands that keep (no pass), late in the hand, where the seat is to play and
    another seat has shown a void."""
    rules = get_rules("hearts")
    for seed in itertools.count():
        events = simulate_game(rules, f"e{seed}", players=4, seed=seed, bots=("random",))
        for step, event in enumerate(events):
            if event.type == "play" and event.round == 4 and event.trick == 11:
                state = rules.replay(events[:step])
                due = rules.due(state)
                if due.phase is Phase.DECISION and state.played in (1, 2):
                    yield events[:step], due.seats[0]


def hearts_redeals(events: list[Event], seat: int) -> Iterator[list[Event]]:
    """Every log in which the other seats' hands at the step are any partition of their cards
    (the sizes kept): deals are what a seat played plus what it holds."""
    rules = get_rules("hearts")
    state = rules.replay(events)
    others = [s for s in range(4) if s != seat]
    pool = sum(state.hand(s) for s in others)
    sizes = [popcount(state.hand(s)) for s in others]
    deal_at = {e.player: i for i, e in enumerate(events) if e.type == "deal" and e.round == 4}
    for hands in _partitions(pool, sizes):
        log = list(events)
        for s, hand in zip(others, hands, strict=True):
            deal = log[deal_at[s]]
            dealt = HEARTS_DECK.mask(deal.cards or ()) & ~state.hand(s) | hand
            log[deal_at[s]] = replace(deal, cards=tuple(HEARTS_DECK.codes(dealt)))
        yield log


def _partitions(pool: int, sizes: list[int]) -> Iterator[list[int]]:
    if not sizes:
        yield []
        return
    for first in _subsets(pool, sizes[0]):
        for rest in _partitions(pool & ~first, sizes[1:]):
            yield [first, *rest]


ENDGAMES: dict[str, tuple[Callable[[], Iterator[tuple[list[Event], int]]], Any]] = {
    "hearts": (hearts_endgames, hearts_redeals),
}


@pytest.mark.parametrize("kind", KINDS)
def test_uniform_over_the_consistent_deals_of_small_endgames(kind: str) -> None:
    """Two endgames where the voids shown rule some partitions out."""
    find, redeals = ENDGAMES[kind]
    sampler = sampler_for(kind)
    rng = random.Random(2)
    tested = 0
    for events, seat in find():
        start = next(i for i, e in enumerate(events) if e.round == events[-1].round)
        before = get_rules(kind).replay(events[:start])
        candidates = [log[start:] for log in redeals(events, seat)]
        support = [
            endgame_key(log, seat, kind) for log in candidates if replays_clean(kind, before, log)
        ]
        if not 4 <= len(support) < min(len(candidates), 60):
            continue  # no void shown, or too many deals for a quick test
        draws = 20 * len(support)
        counts = Counter(
            endgame_key(sampler.sample(events, seat, rng), seat, kind) for _ in range(draws)
        )
        assert_uniform(counts, support, draws)
        tested += 1
        if tested == 2:
            return
