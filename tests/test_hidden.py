"""The samplers of what a seat cannot see (replay/games/hidden.py and the ``*_hidden`` modules).

Consistency: at random steps of simulated games (every player count), a sampled log replays
through the rules without a finding, differs from the truth only in the cards of other seats'
private events, and leaves the seat's view unchanged. Uniformity: on small endgames every
assignment of the unseen cards is tried through the rules (the oracle knows nothing of voids),
and the sampler's frequencies over the consistent ones pass a chi-square test.
"""

from __future__ import annotations

import importlib
import itertools
import math
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, cast

import pytest

from replay.engine.simulate import simulate_game
from replay.games import GAME_MODULES, available_kinds, get_rules
from replay.games.base import RuleViolation
from replay.games.fast import apply_in_place
from replay.games.hearts import DECK as HEARTS_DECK
from replay.games.hearts import PLAY as HEARTS_PLAY
from replay.games.hidden import Inconsistent, NoSampler, Slot, fill, sampler_for
from replay.model.cards import Deck, bits, popcount
from replay.model.events import Event
from tests.builders import GameLog, simulated_games


def _has_sampler(kind: str) -> bool:
    try:
        sampler_for(kind)
    except NoSampler:
        return False
    return True


KINDS = [kind for kind in available_kinds() if _has_sampler(kind)]


def private_events(kind: str) -> frozenset[str]:
    """The event types whose cards only their own seat sees (the game module's)."""
    events: frozenset[str] = importlib.import_module(GAME_MODULES[kind]).PRIVATE_EVENTS
    return events


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
            state = apply_in_place(rules, state, event)
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
    if kind == "hearts" and state.stage == HEARTS_PLAY and state.trick_no == 1 and not state.played:
        view["turn"] = view["game"]["leader"] = None
    return view


def check_sample(kind: str, events: list[Event], seat: int, sampled: list[Event]) -> None:
    """The sampled log replays, keeps what the seat saw, and shows the seat the same view."""
    rules = get_rules(kind)
    assert len(sampled) == len(events)
    for true, drawn in zip(events, sampled, strict=True):
        if true.type in private_events(kind) and true.player != seat:
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
@dataclass(frozen=True)
class Endgames:
    """Where a game's small endgames are looked for: ``players``, the plays worth a look, and
    the decision type whose cards leave a hand unseen (Hiifuu's discard)."""

    players: int
    late: Callable[[Event], bool]
    secret: str = ""


ENDGAMES = {
    "hearts": Endgames(4, lambda e: e.round == 4 and (e.trick or 0) >= 11),  # a hand that keeps
    "fou": Endgames(4, lambda e: True),
    "hiifuu": Endgames(4, lambda e: (e.trick or 0) >= 8, "discard"),
}

#: The simulated games searched for an endgame (the first few seeds have them).
SEEDS = 300

#: The most redeals an endgame may have (each is tried through the rules), and the fewest
#: consistent ones for a test with some power.
MOST_REDEALS = 400
FEWEST_CONSISTENT = 8


def deck_of(kind: str, events: Sequence[Event]) -> Deck:
    """The game's deck of card codes (Hiifuu's depends on the player count)."""
    module = importlib.import_module(f"replay.games.{kind}")
    if kind == "hiifuu":
        deck: Deck = module.DECKS[module.TABLE_SIZES[events[0].setup()["players"]][0]]
        return deck
    return cast(Deck, module.DECK)


@dataclass
class Unseen:
    """What the other seats' cards are made of in the last round of a log: per seat, its deal's
    event index, what it played, its secret (index and cards), its hand at the step."""

    deals: dict[int, int]
    played: dict[int, int]
    secrets: dict[int, tuple[int, int]]
    hands: dict[int, int]

    @staticmethod
    def of(kind: str, events: Sequence[Event], seat: int) -> Unseen:
        deck, last = deck_of(kind, events), events[-1].round
        out = Unseen({}, {}, {}, {})
        for index, e in enumerate(events):
            s = e.player
            if e.round != last or s is None or s == seat:
                continue
            if e.type == "deal":
                out.deals[s] = index
                out.hands[s] = out.hands.get(s, 0) | deck.mask(e.cards or ())
            elif e.type == ENDGAMES[kind].secret:
                out.secrets[s] = (index, deck.mask(e.cards or ()))
            elif e.type == "play" and e.card is not None:
                out.played[s] = out.played.get(s, 0) | 1 << deck.index(e.card)
        for s in out.deals:
            out.hands[s] &= ~out.played.get(s, 0) & ~out.secrets.get(s, (0, 0))[1]
        return out

    def key(self) -> tuple[int, ...]:
        """The hands at the step, in seat order."""
        return tuple(self.hands[s] for s in sorted(self.hands))

    def redeals(self, kind: str, events: list[Event]) -> Iterator[list[Event]]:
        """``events`` with every sharing out of the others' unseen cards (their hands and
        secrets) into hands of the same sizes; the rest goes to the secrets, in seat order."""
        deck = deck_of(kind, events)
        seats = sorted(self.hands)
        pool = sum(self.hands.values()) | sum(c for _, c in self.secrets.values())
        for hands in _partitions(pool, [popcount(self.hands[s]) for s in seats]):
            rest = sorted(bits(pool & ~sum(hands)))
            log = list(events)
            for s, hand in zip(seats, hands, strict=True):
                aside = 0
                if s in self.secrets:
                    index, cards = self.secrets[s]
                    aside = sum(1 << c for c in rest[: popcount(cards)])
                    rest = rest[popcount(cards) :]
                    log[index] = replace(log[index], cards=tuple(deck.codes(aside)))
                dealt = self.played.get(s, 0) | hand | aside
                log[self.deals[s]] = replace(log[self.deals[s]], cards=tuple(deck.codes(dealt)))
            yield log


def endgames(kind: str) -> Iterator[tuple[list[Event], int]]:
    """Steps of simulated games in the middle of a late trick where a seat is to play and the
    others' unseen cards are few: the log up to there and the seat."""
    rules, where = get_rules(kind), ENDGAMES[kind]
    for seed in range(SEEDS):
        events = simulate_game(rules, f"e{seed}", players=where.players, seed=seed)
        for step, event in enumerate(events[1:], 1):
            if event.type == "play" and events[step - 1].type == "play" and where.late(event):
                assert event.player is not None
                unseen = Unseen.of(kind, events[:step], event.player)
                pool = sum(unseen.hands.values()) | sum(c for _, c in unseen.secrets.values())
                redeals = math.factorial(popcount(pool))
                for hand in unseen.hands.values():
                    redeals //= math.factorial(popcount(hand))
                redeals //= math.factorial(popcount(pool) - popcount(sum(unseen.hands.values())))
                if redeals <= MOST_REDEALS:
                    yield events[:step], event.player


def _partitions(pool: int, sizes: list[int]) -> Iterator[list[int]]:
    """Every list of disjoint subsets of ``pool`` of the given sizes."""
    if not sizes:
        yield []
        return
    for first in _subsets(pool, sizes[0]):
        for rest in _partitions(pool & ~first, sizes[1:]):
            yield [first, *rest]


@pytest.mark.parametrize("kind", sorted(ENDGAMES))
def test_uniform_over_the_consistent_deals_of_small_endgames(kind: str) -> None:
    """Two endgames where what the plays revealed rules some redeals out."""
    sampler = sampler_for(kind)
    rules = get_rules(kind)
    rng = random.Random(2)
    tested = 0
    for events, seat in endgames(kind):
        start = next(i for i, e in enumerate(events) if e.round == events[-1].round)
        before = rules.replay(events[:start])
        unseen = Unseen.of(kind, events, seat)
        candidates = list(unseen.redeals(kind, events))
        support = [
            Unseen.of(kind, log, seat).key()
            for log in candidates
            if replays_clean(kind, before, log[start:])
        ]
        if not FEWEST_CONSISTENT <= len(support) < len(candidates):
            continue  # nothing revealed, or too few deals for a test with power
        draws = 20 * len(support)
        counts = Counter(
            Unseen.of(kind, sampler.sample(events, seat, rng), seat).key() for _ in range(draws)
        )
        assert_uniform(counts, support, draws)
        tested += 1
        if tested == 2:
            return
    pytest.fail(f"fewer than two small {kind} endgames in {SEEDS} games")


def hez2_last_stocks() -> Iterator[tuple[list[Event], int, int]]:
    """Steps of two-player Hez2 games just after the other seat drew an unseen card from the
    last stock, having played a card of that stock before (so that when it drew what matters):
    the log, the seat, the reshuffle's index."""
    rules = get_rules("hez2")
    deck = deck_of("hez2", [])
    for seed in range(SEEDS):
        events = simulate_game(rules, f"z{seed}", players=2, seed=seed)
        reshuffle, stock, played_from_it = -1, 0, set[int | None]()
        for step, event in enumerate(events):
            if event.type == "reshuffle":
                reshuffle, stock, played_from_it = step, deck.mask(event.cards or ()), set()
            elif event.type == "play" and stock >> deck.index(event.card or "") & 1:
                played_from_it.add(event.player)
            elif event.type == "card_drawn" and event.player in played_from_it:
                assert event.player is not None
                seat = 1 - event.player
                drawn = hez2_unseen_draws(events[: step + 1], seat, reshuffle)
                unseen = popcount(hez2_unseen_stock(events[: step + 1], seat, reshuffle))
                if math.perm(unseen, len(drawn)) <= MOST_REDEALS:
                    yield events[: step + 1], seat, reshuffle


def hez2_unseen_draws(events: Sequence[Event], seat: int, reshuffle: int) -> list[int]:
    """The indices of the other seat's draws since the reshuffle."""
    return [
        i
        for i, e in enumerate(events)
        if i > reshuffle and e.type == "card_drawn" and e.player != seat
    ]


def hez2_unseen_stock(events: Sequence[Event], seat: int, reshuffle: int) -> int:
    """The reshuffled cards the seat has not drawn itself."""
    deck = deck_of("hez2", events)
    own = sum(
        1 << deck.index(e.card or "")
        for e in events[reshuffle:]
        if e.type == "card_drawn" and e.player == seat
    )
    return deck.mask(events[reshuffle].cards or ()) & ~own


def test_hez2_uniform_over_the_consistent_draws_from_the_last_stock() -> None:
    """Every way the other seat's draws from the last stock could have gone, tried through the
    rules (the earlier stocks as they were: the stocks are drawn independently)."""
    sampler, rules, deck = sampler_for("hez2"), get_rules("hez2"), deck_of("hez2", [])
    rng = random.Random(4)
    for events, seat, reshuffle in hez2_last_stocks():
        before = rules.replay(events[:reshuffle])
        drawn = hez2_unseen_draws(events, seat, reshuffle)
        support = []
        candidates = itertools.permutations(
            bits(hez2_unseen_stock(events, seat, reshuffle)), len(drawn)
        )
        for cards in candidates:
            log = list(events)
            for index, card in zip(drawn, cards, strict=True):
                log[index] = replace(log[index], card=deck.order[card])
            if replays_clean("hez2", before, log[reshuffle:]):
                support.append(tuple(deck.order[c] for c in cards))
        if len(support) < FEWEST_CONSISTENT or len(support) == math.perm(
            popcount(hez2_unseen_stock(events, seat, reshuffle)), len(drawn)
        ):
            continue
        draws = 20 * len(support)
        counts = Counter(
            tuple(sampled[i].card for i in drawn)
            for sampled in (sampler.sample(events, seat, rng) for _ in range(draws))
        )
        assert_uniform(counts, support, draws)
        return
    pytest.fail(f"no Hez2 draws from a last stock in {SEEDS} games")


def test_hearts_unseen_pass_is_any_three_cards_of_its_receivers_hand() -> None:
    """At the end of a hand passing left, seat 0 has seen every card played, its own pass (to
    1) and the pass to it (from 3): the pass from 1 to 2 may be any three cards of seat 2's
    hand after the passes, each as likely."""
    rules = get_rules("hearts")
    events = simulate_game(rules, "p", players=4, seed=3)
    end = next(i for i, e in enumerate(events) if e.type == "round_scored") + 4
    deck = deck_of("hearts", events)
    after = sum(
        1 << deck.index(e.card or "") for e in events[:end] if e.player == 2 and e.type == "play"
    )
    support = [tuple(deck.codes(cards)) for cards in _subsets(after, 3)]
    at = next(i for i, e in enumerate(events) if e.type == "pass" and e.player == 1)
    rng = random.Random(8)
    draws = 10 * len(support)
    counts = Counter(
        sampler_for("hearts").sample(events[:end], 0, rng)[at].cards for _ in range(draws)
    )
    assert_uniform(counts, support, draws)


def test_hez2_uniform_over_the_deals_that_hold_what_was_played() -> None:
    """Once the other seat of a duel has played three cards without drawing, its deal is those
    three and any one card the seat has not seen, each as likely (a deal without them does not
    replay: the consistency test)."""
    sampler, rules, deck = sampler_for("hez2"), get_rules("hez2"), deck_of("hez2", [])
    for seed in range(SEEDS):
        events = simulate_game(rules, f"d{seed}", players=2, seed=seed)
        plays = [i for i, e in enumerate(events) if e.type == "play" and e.player == 1]
        drew = [i for i, e in enumerate(events) if e.type == "card_drawn" and e.player == 1]
        if len(plays) >= 3 and (not drew or drew[0] > plays[2]):
            break
    else:
        pytest.fail(f"no Hez2 duel with three plays before a draw in {SEEDS} games")
    log = events[: plays[2] + 1]
    seen = sum(
        deck.mask(e.cards or (e.card or "",))
        for e in log
        if e.type == "start_card" or (e.player == 0 and e.type in ("deal", "card_drawn"))
    )
    played = sum(1 << deck.index(log[i].card or "") for i in plays[:3])
    deal = next(i for i, e in enumerate(log) if e.type == "deal" and e.player == 1)
    support = []
    for card in bits(deck.full & ~seen & ~played):
        dealt = tuple(deck.codes(played | 1 << card))
        if replays_clean(
            "hez2",
            rules.start(log[0]),
            [*log[1:deal], replace(log[deal], cards=dealt), *log[deal + 1 :]],
        ):
            support.append(dealt)
    rng = random.Random(6)
    draws = 20 * len(support)
    counts = Counter(sampler.sample(log, 0, rng)[deal].cards for _ in range(draws))
    assert_uniform(counts, support, draws)


# --------------------------------------------------------------------- Hearts' rarer reveals
#: Hand 1 (passing left) dealt so that seat 1 ends up with the thirteen hearts: seat 0 passes it
#: three hearts, it passes its three clubs on.
ALL_HEARTS_DEAL = [
    ("2H 3H 4H 2C 3C 4C 5C 6C 7C 8C 9C TC JC", "2H 3H 4H"),
    ("5H 6H 7H 8H 9H TH JH QH KH AH QC KC AC", "QC KC AC"),
    ("2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD", "2D 3D 4D"),
    ("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS", "2S 3S 4S"),
]


def test_hearts_a_heart_on_the_first_trick_shows_a_hand_of_hearts() -> None:
    """HEARTS-FIRST-TRICK: seat 1, void in clubs, plays a heart on the first trick, so it holds
    nothing but hearts (and the queen of spades, which seat 3 holds): in every deal seat 3 draws,
    seat 1 holds all the hearts left."""
    log = GameLog(get_rules("hearts"), {"players": 4, "names": ["a", "b", "c", "d"]})
    for seat, (hand, _) in enumerate(ALL_HEARTS_DEAL):
        log.add("deal", round=1, player=seat, cards=tuple(hand.split()))
    for seat, (_, passed) in enumerate(ALL_HEARTS_DEAL):
        log.add("pass", round=1, player=seat, target=(seat + 1) % 4, cards=tuple(passed.split()))
    for seat, card in enumerate(["2C", "5H", "QC", "2D"]):
        log.add("play", round=1, trick=1, player=seat, card=card)
    log.rulings()
    rng = random.Random(3)
    hearts = HEARTS_DECK.mask(c + "H" for c in "2346789TJQKA")
    for _ in range(20):
        sampled = sampler_for("hearts").sample(log.events, 3, rng)
        check_sample("hearts", log.events, 3, sampled)
        assert get_rules("hearts").replay(sampled).hand(1) == hearts


def test_hearts_a_heart_led_before_hearts_are_broken_shows_a_hand_of_hearts() -> None:
    """HEARTS-BREAK: after a heart is led before hearts were broken, every deal the others draw
    gives the leader hearts only (a deal that does not fails to replay)."""
    rules, rng = get_rules("hearts"), random.Random(5)
    for seed in range(SEEDS):
        events = simulate_game(rules, f"b{seed}", players=4, seed=seed, bots=("heuristic",))
        step = next((i for i, e in enumerate(events) if unbroken_heart_lead(events, i)), None)
        if step is not None:
            break
    else:
        pytest.fail(f"no heart led before hearts were broken in {SEEDS} games")
    leader = events[step].player
    for seat in range(4):
        if seat != leader:
            for _ in range(10):
                check_sample(
                    "hearts",
                    events[: step + 1],
                    seat,
                    sampler_for("hearts").sample(events[: step + 1], seat, rng),
                )


def unbroken_heart_lead(events: list[Event], index: int) -> bool:
    """Whether ``events[index]`` leads a heart to a trick after the first, no heart played yet
    in its hand, the leader holding more than one card."""
    event = events[index]
    if event.type != "play" or not (event.card or "").endswith("H") or event.trick in (None, 1, 13):
        return False
    before = [e for e in events[:index] if e.round == event.round and e.type == "play"]
    led = not before or before[-1].trick != event.trick
    return led and not any((e.card or "").endswith("H") for e in before)
