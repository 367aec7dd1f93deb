"""Luck: the share of each seat's result that the cards dealt and drawn decided, and the
luck-adjusted result that is left when it is taken out (docs/review.md, "Luck").

The estimator is AIVAT's chance correction (Burch et al., AAAI 2018), the one GNU Backgammon's
luck also is. A **chance block** is a run of chance events (with the rulings among them) between
two decisions: a round's deal, a Hez2 draw. For every block and seat,

    luck = V(state after the block) - E[V(state after the block) | state before it]

where V is a value of the state for the seat: whatever V is, the luck of every block has mean 0
given what came before, as long as the expectation is estimated without bias. The
**luck-adjusted result** of a seat in a scoring unit (a Hearts hand, a Hiifuu or Fou! round, a
Hez2 game) is its result minus the luck of the unit's blocks: it has the same expectation as the
result, and less variance the better V predicts the result.

Results are **relative**: the seat's result minus the table's mean result in the unit, so that
seats played alike have a mean of 0; V is relative too.

- A **deal** (a block that deals every seat a hand): V is the unit played out by the reference
  policy in every seat (:func:`play_relative`); its expectation the mean of V over the n
  rotations of the dealt hands among the seats, duplicate-style (a uniform deal is the same in
  law whichever seat gets which hand).
- **Another block** (Hez2's draws): V is a :class:`ValueModel`, a linear function of the hand
  fitted on the policy's self-play (``python -m replay.review.luck fit``; the fits ship in
  ``replay/data/luck/``); its expectation the mean over ``draws`` draws of the block by the
  game's own ``sample_chance``. Or (``playouts`` > 0) V the mean of that many playouts of the
  unit by the policy, its expectation over :data:`PLAYOUT_DRAWS` draws, all with the same
  streams.

The statistics take out the luck times a weight (:func:`luck_weight`, the view ``luck_units``):
the luck as a control variate, still unbiased, with less variance where V overstates the luck.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from importlib import resources
from typing import Any

from replay.engine.simulate import simulate_corpus
from replay.games import get_rules
from replay.games.base import Game, Phase
from replay.games.fast import apply_in_place
from replay.model.events import Category, Event
from replay.review import DEFAULT_POLICY
from replay.review.rollout import MAX_UNIT_EVENTS, next_event, score_unit

#: Draws of each chance block that its expectation is the mean of.
DEFAULT_DRAWS = 16
#: Draws of a later chance block whose expectation is the mean of their playout values
#: (``playouts`` > 0): few draws valued precisely beat many valued roughly (docs/review.md).
PLAYOUT_DRAWS = 2
#: The version of the method: raise it when the same settings would give other numbers.
LUCK_VERSION = 1
#: The most events of one chance block (a runaway sampler is a bug).
MAX_BLOCK_EVENTS = 1_000


@dataclass(frozen=True, slots=True)
class ValueModel:
    """V: a seat's expected relative result from its hand, fitted on the policy's self-play."""

    kind: str
    players: int
    policy: str
    weights: tuple[float, ...]  # one per deck index
    size: tuple[float, float]  # the weights of the hand's size and of its square
    units: int  # scoring units fitted on
    r2: float  # the share of the relative results' variance V explains on them

    def hand_value(self, hand: int) -> float:
        """The hand's term of V (before the table's mean is taken off)."""
        weights = self.weights
        total, count = 0.0, 0
        while hand:
            low = hand & -hand
            total += weights[low.bit_length() - 1]
            hand ^= low
            count += 1
        return total + self.size[0] * count + self.size[1] * count * count

    def values(self, state: Any) -> list[float]:
        """V for every seat of ``state``: its hand's term minus the table's mean."""
        raw = [self.hand_value(state.hand(seat)) for seat in range(state.n)]
        mean = sum(raw) / len(raw)
        return [r - mean for r in raw]


@dataclass(frozen=True, slots=True)
class UnitLuck:
    """One seat's luck in one scoring unit."""

    game_id: str
    kind: str
    unit: int  # 1, 2, ... within the game
    seat: int
    players: int
    result: float  # the seat's result in the game's measure (ScoreUnit)
    relative: float  # the result minus the table's mean result in the unit
    luck: float  # the sum of the unit's chance blocks' luck (in the measure, same sign)
    adjusted: float  # relative - luck
    blocks: int  # chance blocks in the unit


# --------------------------------------------------------------------- the luck's weight
def luck_weight(relative: Sequence[float], luck: Sequence[float]) -> float:
    """The weight the statistics give the luck (``luck_units.sql`` computes the same per kind
    and seat count): the least-squares slope of the relative results on the luck, kept within
    [0, 1]; 1 where the luck does not vary. The luck has mean 0 whatever the weight, so the
    weighted adjusted result ``relative - weight * luck`` keeps the result's expectation; the
    slope is the weight that leaves it the least variance (the luck as a control variate).
    Below 1 where V, the policy's playout, overstates what the deal does for the players
    actually seated: random moves blur its effect."""
    n = len(luck)
    if n < 2:
        return 1.0
    mean_r, mean_l = sum(relative) / n, sum(luck) / n
    spread = sum((x - mean_l) ** 2 for x in luck)
    if spread == 0:
        return 1.0
    slope = sum((r - mean_r) * (x - mean_l) for r, x in zip(relative, luck, strict=True)) / spread
    return min(1.0, max(0.0, slope))


# --------------------------------------------------------------------- models
def model_name(kind: str, players: int, policy: str = DEFAULT_POLICY) -> str:
    return f"{kind}-{players}-{policy}.json"


def load_model(kind: str, players: int, policy: str = DEFAULT_POLICY) -> ValueModel:
    """The shipped fit for a kind, seat count and policy; LookupError when none is shipped."""
    path = resources.files("replay.data").joinpath("luck", model_name(kind, players, policy))
    if not path.is_file():
        raise LookupError(f"no luck model for {kind} with {players} players ({policy} policy): "
                          "`python -m replay.review.luck fit` makes one")  # fmt: skip
    return model_from_json(path.read_text(encoding="utf-8"))


def shipped_model(kind: str, players: int, policy: str = DEFAULT_POLICY) -> ValueModel | None:
    """:func:`load_model`, or None when none is shipped (then only deals are valued)."""
    try:
        return load_model(kind, players, policy)
    except LookupError:
        return None


def model_from_json(text: str) -> ValueModel:
    data = json.loads(text)
    return ValueModel(
        data["kind"], int(data["players"]), data["policy"], tuple(data["weights"]),
        (float(data["size"][0]), float(data["size"][1])), int(data["units"]), float(data["r2"]),
    )  # fmt: skip


def model_to_json(model: ValueModel) -> str:
    return json.dumps(asdict(model), indent=None) + "\n"


# --------------------------------------------------------------------- one game
def game_luck(
    events: Sequence[Event],
    model: ValueModel | None = None,
    *,
    draws: int = DEFAULT_DRAWS,
    seed: int = 0,
    policy: str = DEFAULT_POLICY,
    playouts: int = 0,
) -> list[UnitLuck]:
    """Every seat's luck in every complete scoring unit of a game (``events`` in seq order,
    assumed valid: see :func:`checked_luck`). The same seed gives the same figures.
    ``playouts``: the chance blocks after a unit's deal (Hez2's draws) valued by that many
    playouts of the policy per draw of the block (:data:`PLAYOUT_DRAWS` draws) instead of the
    hand model (0)."""
    return _luck(events, model, draws, seed, policy, playouts, check=False)[0]


def checked_luck(
    events: Sequence[Event],
    model: ValueModel | None = None,
    *,
    draws: int = DEFAULT_DRAWS,
    seed: int = 0,
    policy: str = DEFAULT_POLICY,
    playouts: int = 0,
) -> tuple[list[UnitLuck], str | None]:
    """:func:`game_luck` of the units before the log's first fault (an event the rules refuse),
    and that fault's description (None: the log is sound)."""
    return _luck(events, model, draws, seed, policy, playouts, check=True)


def _luck(
    events: Sequence[Event],
    model: ValueModel | None,
    draws: int,
    seed: int,
    policy: str,
    playouts: int,
    *,
    check: bool,
) -> tuple[list[UnitLuck], str | None]:
    rules = get_rules(events[0].kind)
    state = rules.start(events[0])
    model = model or shipped_model(rules.kind, state.n, policy)
    walk = LuckWalk(rules, model, draws, seed, policy, playouts)
    for event in events[1:]:
        if check:
            try:
                rules.verify(state, event)
            except Exception as exc:  # a RuleViolation, or a reducer refusing a broken event
                return walk.rows, f"step {event.seq}: {exc}"
        state = walk.step(state, event)
    return walk.rows, None


class LuckWalk:
    """The walk through one log: chance blocks' luck per seat, rows per complete unit (a
    variant of the method overrides how a block is valued, as the benchmarks do)."""

    def __init__(
        self, rules: Game[Any], model: ValueModel | None, draws: int, seed: int,
        policy: str = DEFAULT_POLICY, playouts: int = 0,
    ) -> None:  # fmt: skip
        self.rules, self.model, self.draws, self.seed = rules, model, draws, seed
        self.block_playouts = playouts
        self.bot = rules.bots()[policy] if rules.bots() else None
        self.scoring = frozenset(score_unit(rules.kind).events)
        self.before: Any = None  # the state before the open chance block
        self.block: list[Event] = []  # the open block's chance events
        self.unit = 1
        self.luck: list[float] = []
        self.blocks = 0
        self.results: dict[int, float] = {}
        self.rows: list[UnitLuck] = []

    def step(self, state: Any, event: Event) -> Any:
        """Account for ``event`` (the next in the log) and return the state after it."""
        category = self.rules.event_types.get(event.type)
        if not self.luck:
            self.luck = [0.0] * state.n
        if self.before is not None and (
            category is Category.DECISION or event.type in self.scoring
        ):
            self.close(state)
        if category is Category.CHANCE:
            if self.before is None:
                self.before = state.clone()
            self.block.append(event)
        if event.type in self.scoring and event.player is not None:
            self.results[event.player] = float(event.amount or 0)
        state = self.rules.apply(state, event)
        if len(self.results) == state.n:
            self.emit(state)
        return state

    def close(self, after: Any) -> None:
        """The open block's luck, added to every seat's."""
        before, block = self.before, self.block
        self.before, self.block = None, []
        name = f"{self.seed}/{before.game_id}/{before.seq}"
        if is_full_deal(block, after.n) and self.bot is not None:
            luck = self.deal_luck(before, block, name)
        elif self.block_playouts > 0 and self.bot is not None:
            luck = self.playout_luck(before, after, name)
        elif self.model is not None:
            luck = self.model_luck(before, after, name)
        else:
            luck = [0.0] * after.n  # V = 0: no luck counted for this block
        for seat in range(after.n):
            self.luck[seat] += luck[seat]
        self.blocks += 1

    def deal_luck(self, before: Any, block: Sequence[Event], name: str) -> list[float]:
        """A deal's luck: V is the unit played out by the policy in every seat (the mean of
        ``draws`` playouts where chance comes later in the unit, as Hez2's draws); its
        expectation the mean over the n rotations of the hands among the seats
        (duplicate-style)."""
        n = before.n
        values = [self.playouts(rotated(self.rules, before.clone(), block, r, self.scoring),
                                name) for r in range(n)]  # fmt: skip
        return [values[0][s] - sum(v[s] for v in values) / n for s in range(n)]

    def playouts(self, state: Any, name: str) -> list[float]:
        """V of every seat: the policy's playout of the unit from ``state``; the mean of
        ``draws`` of them when the first meets chance (the same streams for every rotation)."""
        assert self.bot is not None
        bots = [self.bot] * state.n
        rng = random.Random(name)
        first, chance = play_relative(self.rules, state.clone(), bots, rng, self.scoring)
        if not chance or self.draws <= 1:
            return first
        total = list(first)
        for _ in range(self.draws - 1):
            more, _ = play_relative(self.rules, state.clone(), bots, rng, self.scoring)
            total = [t + m for t, m in zip(total, more, strict=True)]
        return [t / self.draws for t in total]

    def model_luck(self, before: Any, after: Any, name: str) -> list[float]:
        """Another block's luck: V the hand model, its expectation the mean over draws."""
        assert self.model is not None
        rng = random.Random(name)
        expected = [0.0] * after.n
        for _ in range(self.draws):
            drawn = sample_block(self.rules, before.clone(), self.scoring, rng)
            for seat, value in enumerate(self.model.values(drawn)):
                expected[seat] += value
        actual = self.model.values(after)
        return [actual[s] - expected[s] / self.draws for s in range(after.n)]

    def playout_luck(self, before: Any, after: Any, name: str) -> list[float]:
        """Another block's luck with V the mean of ``block_playouts`` playouts of the unit by
        the policy; its expectation the mean of V over :data:`PLAYOUT_DRAWS` draws of the
        block; every V from the same streams (common random numbers)."""
        rng = random.Random(name)
        expected = [0.0] * after.n
        for _ in range(PLAYOUT_DRAWS):
            drawn = sample_block(self.rules, before.clone(), self.scoring, rng)
            for seat, value in enumerate(self.mean_playout(drawn, name)):
                expected[seat] += value / PLAYOUT_DRAWS
        actual = self.mean_playout(after, name)
        return [actual[s] - expected[s] for s in range(after.n)]

    def mean_playout(self, state: Any, name: str) -> list[float]:
        assert self.bot is not None
        bots, count = [self.bot] * state.n, self.block_playouts
        total = [0.0] * state.n
        for j in range(count):
            rng = random.Random(f"{name}/{j}")
            values, _ = play_relative(
                self.rules, state.clone(), bots, rng, self.scoring, self.results
            )
            total = [t + v / count for t, v in zip(total, values, strict=True)]
        return total

    def emit(self, state: Any) -> None:
        n = state.n
        mean = sum(self.results.values()) / n
        for seat in range(n):
            result = self.results[seat]
            relative = result - mean
            self.rows.append(UnitLuck(
                state.game_id, state.kind, self.unit, seat, n, result, relative,
                self.luck[seat], relative - self.luck[seat], self.blocks,
            ))  # fmt: skip
        self.unit += 1
        self.luck = [0.0] * n
        self.blocks = 0
        self.results = {}


def is_full_deal(block: Sequence[Event], players: int) -> bool:
    """Whether a chance block deals every seat a hand once (a round's deal: its outcomes are
    the same in law whichever seat gets which hand, so the rotations of its hands average to V's
    expectation given the block's other outcomes, such as a first leader drawn)."""
    dealt = [e.player for e in block if e.player is not None and e.cards]
    return len(dealt) == players and set(dealt) == set(range(players))


def rotated(
    rules: Game[Any], state: Any, block: Sequence[Event], shift: int, scoring: Iterable[str]
) -> Any:
    """``state`` (changed in place) after ``block`` with each seat's dealt cards given to the
    seat ``shift`` places on (the block's other outcomes as they were), and the rulings due
    among and after them."""
    for event in block:
        state = _rulings(rules, state, scoring)
        seat = event.player
        if seat is not None and event.cards:
            seat = (seat + shift) % state.n
        state = apply_in_place(rules, state, dataclasses.replace(event, player=seat, seq=state.seq))
    return _rulings(rules, state, scoring)


def _rulings(rules: Game[Any], state: Any, scoring: Iterable[str]) -> Any:
    for _ in range(MAX_BLOCK_EVENTS):
        due = rules.due(state)
        if due.phase is not Phase.RULING or due.ruling is None or due.ruling.type in scoring:
            return state
        state = apply_in_place(rules, state, due.ruling)
    raise RuntimeError(f"{state.game_id}: over {MAX_BLOCK_EVENTS} rulings in a row")


def play_relative(
    rules: Game[Any],
    state: Any,
    bots: Sequence[Any],
    rng: random.Random,
    scoring: Iterable[str],
    known: Mapping[int, float] | None = None,
) -> tuple[list[float], int]:
    """Every seat's result of the unit played on from ``state`` (changed in place) by
    ``bots``, minus the table's mean; and the chance events met on the way. ``known``: the
    results the unit has given already (Hez2's places taken before ``state``)."""
    wanted = frozenset(scoring)
    results: dict[int, float] = dict(known or {})
    chance = 0
    for _ in range(MAX_UNIT_EVENTS):
        if rules.due(state).phase is Phase.CHANCE:
            chance += 1
        event = next_event(rules, state, bots, rng)
        if event is None:
            break
        if event.type in wanted and event.player is not None:
            results[event.player] = float(event.amount or 0)
            if len(results) == state.n:
                mean = sum(results.values()) / state.n
                return [results[s] - mean for s in range(state.n)], chance
        state = apply_in_place(rules, state, event)
    raise RuntimeError(f"{state.game_id}: the unit did not end in a rollout from {state.seq}")


def sample_block(rules: Game[Any], state: Any, scoring: Iterable[str], rng: random.Random) -> Any:
    """``state`` (changed in place) after one draw of the chance block due in it: chance
    outcomes from ``rng`` and the rulings among them, up to the next decision, scoring ruling or
    the end of the game."""
    for _ in range(MAX_BLOCK_EVENTS):
        due = rules.due(state)
        if due.phase is Phase.CHANCE:
            event = rules.sample_chance(state, rng)
        elif due.phase is Phase.RULING and due.ruling is not None:
            if due.ruling.type in scoring:
                return state
            event = due.ruling
        else:
            return state
        state = apply_in_place(rules, state, event)
    raise RuntimeError(f"{state.game_id}: a chance block of over {MAX_BLOCK_EVENTS} events")


# --------------------------------------------------------------------- fitting V
class _FitWalk(LuckWalk):
    """A walk that keeps, for every block, each seat's hand after it (V's regressors), and
    pairs them with the unit's relative results once it is scored."""

    def __init__(self, rules: Game[Any]) -> None:
        super().__init__(rules, _NO_MODEL, 0, 0)
        self.hands: list[list[int]] = []  # per block of the open unit: every seat's hand
        self.samples: list[tuple[list[int], list[float]]] = []  # (hands, relative results)

    def close(self, after: Any) -> None:
        self.before, self.block = None, []
        self.hands.append([after.hand(seat) for seat in range(after.n)])

    def emit(self, state: Any) -> None:
        mean = sum(self.results.values()) / state.n
        relative = [self.results[seat] - mean for seat in range(state.n)]
        self.samples += [(hands, relative) for hands in self.hands]
        self.hands, self.results = [], {}
        self.unit += 1


_NO_MODEL = ValueModel("", 0, "", (), (0.0, 0.0), 0, 0.0)


def fit_model(
    kind: str, players: int, games: int, *, seed: int = 0, policy: str = DEFAULT_POLICY
) -> ValueModel:
    """V fitted by least squares (a small ridge) on ``games`` games of self-play, every seat
    ``policy``: the seat's relative result on its hand's cards, size and size squared, each
    minus the table's mean."""
    import numpy as np

    rules = get_rules(kind)
    samples: list[tuple[list[int], list[float]]] = []
    units = 0
    for events in simulate_corpus(rules, games=games, seed=seed, players=players, bots=[policy]):
        walk = _FitWalk(rules)
        state = rules.start(events[0])
        for event in events[1:]:
            state = walk.step(state, event)
        samples += walk.samples
        units += walk.unit - 1
    width = max(h.bit_length() for hands, _ in samples for h in hands)
    rows, targets = [], []
    for hands, relative in samples:
        table = np.array([_features(h, width) for h in hands])
        rows.append(table - table.mean(axis=0))
        targets.append(relative)
    x, y = np.vstack(rows), np.concatenate(targets)
    ridge = 1e-3 * len(y)
    coef = np.linalg.solve(x.T @ x + ridge * np.eye(x.shape[1]), x.T @ y)
    r2 = 1.0 - float(np.var(y - x @ coef)) / float(np.var(y))
    return ValueModel(
        kind, players, policy, tuple(round(float(c), 6) for c in coef[:width]),
        (round(float(coef[width]), 6), round(float(coef[width + 1]), 6)), units, round(r2, 4),
    )  # fmt: skip


def _features(hand: int, width: int) -> list[float]:
    cards = [float(hand >> i & 1) for i in range(width)]
    size = float(hand.bit_count())
    return [*cards, size, size * size]


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m replay.review.luck fit KIND PLAYERS [GAMES] [SEED]``: fit V and write it to
    replay/data/luck/ (the shipped fits are made this way, seed 0)."""
    import sys
    from pathlib import Path

    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) < 3 or args[0] != "fit":
        raise SystemExit("usage: python -m replay.review.luck fit KIND PLAYERS [GAMES] [SEED]")
    kind, players = args[1], int(args[2])
    games = int(args[3]) if len(args) > 3 else 2000
    seed = int(args[4]) if len(args) > 4 else 0
    model = fit_model(kind, players, games, seed=seed)
    folder = Path(__file__).resolve().parent.parent / "data" / "luck"
    folder.mkdir(exist_ok=True)
    (folder / model_name(kind, players)).write_text(model_to_json(model), encoding="utf-8")
    print(f"{kind} {players} players: {model.units} units, R2 {model.r2}")


if __name__ == "__main__":
    main()
