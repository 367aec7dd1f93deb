"""Luck (``replay reindex --luck``, docs/review.md "Luck"): the figures too heavy for the suite.

Run: ``PYTHONPATH=build/native .venv/bin/python benchmarks/bench_luck.py [--part P ...]``
(the compiled build: ``REPLAY_PGO=0 make native``; the pure build without PYTHONPATH). Parts:

- ``variance``: per kind, a table where seat 0 is careless (the heuristic bot playing a
  uniformly random legal move 20% of the time) and the others play the heuristic bot: the paired
  difference (seat 0's relative result minus the others' mean, per scoring unit), raw and
  luck-adjusted: means, standard deviations, the variance ratio (the factor by which fewer units
  tell the seat apart) and the units each needs for the mean to stand 2 standard errors from 0.
  The mean paired luck with its standard error (0 in expectation: the check of unbiasedness);
  then the same with the luck weighted as the statistics weight it (``luck_weight`` over every
  seat's rows);
- ``ceiling``: the most any luck correction can reach in the ``variance`` tables without
  knowing the careless seat's policy (:func:`ceiling`);
- ``decisions``: AIVAT's correction at the other seats' decisions with the reference policy,
  beside the deals-only luck: the careless seat told apart, and each seat's mean adjusted result
  (the bias where the seats do not play the policy);
- ``tried``: other values of chance (:func:`tried`);
- ``bias``: ``--hands`` (10,000) Hearts hands, every seat the same careless bot: each seat's mean
  luck-adjusted result (the whole luck taken out, and the luck weighted), its standard error
  and their ratio;
- ``speed``: CPU seconds of the luck of about ``--speed-hands`` Hearts hands (and a tenth as
  many Hez2 games) in one process, units per CPU second; then what ``replay reindex --luck``
  runs (``update_luck``) over a store of about ``--store-hands`` Hearts hands (20,000): with
  ``--jobs`` 1, again on the unchanged store (incremental: nothing to value), and with
  ``--jobs`` 2 (the workers' CPU counted); the CPU time for a 1M-hand store follows (linear:
  each game's luck is its own);
- ``store``: ``replay reindex STORE --luck`` end to end, each run a fresh process timed by
  ``/usr/bin/time -v`` (wall, user + system CPU of the process and its workers, the peak RSS of
  the largest of them), over a store of at least ``--hands`` Hearts hands kept at ``--store``
  (built when it holds fewer: ``replay simulate hearts --bots heuristic``, chunks of 10,000
  games, seeds 1, 2, ...): from no stored luck with ``--jobs`` 1 and 2; again on the unchanged
  store; ``replay reindex STORE`` alone (the derived tables every reindex rebuilds first); then
  ``--append`` new games simulated into the store (so a later run sees them as old) and
  ``reindex --luck --jobs 2`` again: only those are valued. The load average is printed beside
  each run (the machine may be shared).
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from replay import engine_build
from replay.analytics.luck import LuckSettings, luck_path, update_luck
from replay.games import get_rules
from replay.games.base import Game
from replay.games.fast import apply_in_place
from replay.model.events import Category, Event
from replay.review.luck import (
    LuckWalk,
    UnitLuck,
    game_luck,
    luck_weight,
    play_relative,
    shipped_model,
)
from replay.review.rollout import score_unit
from replay.store import EventStore

sys.path.append(str(Path(__file__).resolve().parent.parent))  # tests.luck_support
from tests.luck_support import careless_bot, corpus, paired, play_streams, units_to_tell

TABLES = {"hearts": (4, 300), "hiifuu": (4, 150), "fou": (5, 40), "hez2": (4, 600)}


def variance(scale: float) -> None:
    print("kind    units  raw mean  raw sd  adj mean  adj sd  var ratio  units raw  units adj"
          "  luck mean (se)  weight  weighted: adj sd  var ratio  units adj")  # fmt: skip
    for kind, (players, games) in TABLES.items():
        heuristic = get_rules(kind).bots()["heuristic"]
        bots = [careless_bot(kind, 0.2)] + [heuristic] * (players - 1)
        rows = [
            r for g in corpus(kind, int(games * scale), 11, players, bots) for r in game_luck(g)
        ]
        raw, adj = paired(rows, 0, "relative"), paired(rows, 0, "adjusted")
        ratio = statistics.variance(raw) / statistics.variance(adj)
        luck = [r - a for r, a in zip(raw, adj, strict=True)]
        luck_se = statistics.stdev(luck) / len(luck) ** 0.5
        weight, shrunk = weighted(rows)
        fewer, tell = statistics.variance(raw) / statistics.variance(shrunk), units_to_tell(shrunk)
        print(f"{kind:7} {len(raw):5} {statistics.fmean(raw):9.3f} {statistics.stdev(raw):7.3f} "
              f"{statistics.fmean(adj):9.3f} {statistics.stdev(adj):7.3f} {ratio:10.2f} "
              f"{units_to_tell(raw):10.0f} {units_to_tell(adj):10.0f}  "
              f"{statistics.fmean(luck):+.3f} ({luck_se:.3f})  {weight:6.2f} "
              f"{statistics.stdev(shrunk):16.3f} {fewer:10.2f} {tell:10.0f}")  # fmt: skip
    print("AIVAT (Burch et al. 2018, heads-up no-limit poker): 85% less spread, 6.7x variance")


def weighted(rows: Sequence[UnitLuck], seat: int = 0) -> tuple[float, list[float]]:
    """The luck's weight over every seat's rows (as the statistics give it) and ``seat``'s
    paired difference with the luck so weighted."""
    weight = luck_weight([r.relative for r in rows], [r.luck for r in rows])
    shrunk = [dataclasses.replace(r, adjusted=r.relative - weight * r.luck) for r in rows]
    return weight, paired(shrunk, seat, "adjusted")


def ceiling(scale: float, replays: int = 6) -> None:
    """The most any luck correction can take out when it does not know the careless seat's
    policy: with the table's other seats the (deterministic) reference policy and no chance in
    a unit but its deal (Hearts, Hiifuu, Fou!), every correction AIVAT allows is a function of
    the chance outcomes, so the adjusted result keeps Var(result | chance), the careless seat's
    own randomness. Measured by common random numbers: every game replayed ``replays`` times
    with the same chance stream and other streams for the bots' decisions; the ceiling is the
    paired difference's variance over its mean variance within a unit's replays. At Hez2 a
    replay whose stock differs draws other cards from the same stream: its ceiling is a lower
    bound."""
    print(f"ceiling: the variance ratio of a perfect value of chance ({replays} replays of every "
          "game with the same chance stream)")  # fmt: skip
    print("kind    units  raw var  within var  ceiling  units raw  units floor")
    for kind, (players, games) in TABLES.items():
        rules = get_rules(kind)
        heuristic = rules.bots()["heuristic"]
        bots = [careless_bot(kind, 0.2)] + [heuristic] * (players - 1)
        every, within, weights = [], 0.0, 0
        for g in range(max(2, int(games * scale))):
            runs = [
                paired_by_unit(play_streams(kind, players, f"{kind}-{g}", f"chance/{g}",
                                            f"bots/{g}/{r}", bots), players)
                for r in range(replays)
            ]  # fmt: skip
            for u in range(max(map(len, runs))):
                values = [run[u] for run in runs if len(run) > u]
                every += values
                if len(values) > 1:
                    within += statistics.variance(values) * (len(values) - 1)
                    weights += len(values) - 1
        total, residual = statistics.variance(every), within / weights
        floor = units_to_tell(every) * residual / total
        print(f"{kind:7} {len(every):5} {total:8.2f} {residual:11.2f} {total / residual:8.2f} "
              f"{units_to_tell(every):10.0f} {floor:12.0f}")  # fmt: skip


def paired_by_unit(events: Sequence[Event], players: int) -> list[float]:
    """Seat 0's paired difference in every complete unit of a game's log."""
    scoring = frozenset(score_unit(events[0].kind).events)
    units: list[float] = []
    results: dict[int, float] = {}
    for event in events:
        if event.type in scoring and event.player is not None:
            results[event.player] = float(event.amount or 0)
            if len(results) == players:
                others = sum(results[s] for s in range(1, players)) / (players - 1)
                units.append(results[0] - others)
                results = {}
    return units


class _OthersWalk(LuckWalk):
    """The luck with AIVAT's correction at every decision too, the reference policy taken as
    the player's: for every other seat, ``v(state + move) - v(state + policy's move)``, v the
    policy's playout (exact for a deterministic policy in a unit with no later chance: Hearts,
    Hiifuu, Fou!). It is 0 wherever the move is the policy's; the seat's own decisions are not
    corrected. ``centred``: each unit's adjusted results minus their table mean."""

    def __init__(self, rules: Game[Any], centred: bool) -> None:
        super().__init__(rules, None, 1, 0)
        self.centred = centred

    def step(self, state: Any, event: Event) -> Any:
        if self.rules.event_types.get(event.type) is Category.DECISION and event.player is not None:
            if not self.luck:
                self.luck = [0.0] * state.n
            for seat, value in enumerate(self.decision_luck(state, event)):
                if seat != event.player:
                    self.luck[seat] += value
        return super().step(state, event)

    def decision_luck(self, state: Any, event: Event) -> list[float]:
        assert self.bot is not None and event.player is not None
        policy = self.bot(state, event.player, random.Random(0))
        if _move(policy) == _move(event):
            return [0.0] * state.n
        played, chosen = (self.value_after(state, move) for move in (event, policy))
        return [p - c for p, c in zip(played, chosen, strict=True)]

    def value_after(self, state: Any, move: Event) -> list[float]:
        after = apply_in_place(self.rules, state.clone(), move)
        bots = [self.bot] * state.n
        return play_relative(self.rules, after, bots, random.Random(0), self.scoring)[0]

    def emit(self, state: Any) -> None:
        if self.centred:
            mean = sum(self.luck) / len(self.luck)
            self.luck = [luck - mean for luck in self.luck]
        super().emit(state)


def _move(event: Event) -> tuple[Any, ...]:
    cards = tuple(sorted(event.cards)) if event.cards is not None else None
    return event.type, event.player, event.card, cards, event.suit


def others_luck(events: Sequence[Event], *, centred: bool) -> list[UnitLuck]:
    """The rows of :func:`game_luck` with the correction at the other seats' decisions."""
    rules = get_rules(events[0].kind)
    state = rules.start(events[0])
    walk = _OthersWalk(rules, centred)
    for event in events[1:]:
        state = walk.step(state, event)
    return walk.rows


def decisions(scale: float) -> None:
    """AIVAT's correction at the other seats' decisions with the reference policy: the
    careless seat told apart (as ``variance``), and its bias where the seats do not play the
    policy: four careless seats (as ``bias``) and a table where the others are careless 5%."""
    print("decisions: luck of the others' decisions too (the policy's playout as v)")
    print("table                         method             units  var ratio  units raw"
          "  units adj  fewer  seat means (se)")  # fmt: skip
    for kind, players, games in (("hearts", 4, 100), ("fou", 5, 20), ("hiifuu", 4, 60)):
        heuristic = get_rules(kind).bots()["heuristic"]
        careless, slightly = careless_bot(kind, 0.2), careless_bot(kind, 0.05)
        tables = {
            "careless 20% + policy": [careless] + [heuristic] * (players - 1),
            "careless 20% + 5%": [careless] + [slightly] * (players - 1),
            "four careless 20%": [careless] * players,
        }
        for name, bots in tables.items():
            logs = list(corpus(kind, int(games * scale), 17, players, bots))
            for method, luck in (
                ("deals only", game_luck),
                ("+ others' moves", functools.partial(others_luck, centred=False)),
                ("+ others', centred", functools.partial(others_luck, centred=True)),
            ):
                rows = [r for g in logs for r in luck(g)]
                raw, adj = paired(rows, 0, "relative"), paired(rows, 0, "adjusted")
                means = []
                for seat in range(players):
                    mine = [r.adjusted for r in rows if r.seat == seat]
                    error = statistics.stdev(mine) / len(mine) ** 0.5
                    means.append(f"{statistics.fmean(mine):+.2f} ({error:.2f})")
                ratio = statistics.variance(raw) / statistics.variance(adj)
                before, after = units_to_tell(raw), units_to_tell(adj)
                print(f"{kind:6} {name:22} {method:18} {len(raw):5} {ratio:9.2f} "
                      f"{before:10.0f} {after:10.0f} {before / after:6.2f}  "
                      f"{', '.join(means)}")  # fmt: skip


class _CarelessDealWalk(LuckWalk):
    """The deal valued by ``playouts`` playouts of a careless policy (the heuristic bot random
    ``share`` of the time) in every seat, the same streams for every rotation."""

    def __init__(self, rules: Game[Any], share: float, playouts: int) -> None:
        super().__init__(rules, None, 1, 0)
        self.careless, self.count = careless_bot(rules.kind, share), playouts

    def playouts(self, state: Any, name: str) -> list[float]:
        bots, total = [self.careless] * state.n, [0.0] * state.n
        for j in range(self.count):
            rng = random.Random(f"{name}/{j}")
            values, _ = play_relative(self.rules, state.clone(), bots, rng, self.scoring)
            total = [t + v / self.count for t, v in zip(total, values, strict=True)]
        return total


def walk_rows(events: Sequence[Event], walk: LuckWalk) -> list[UnitLuck]:
    state = walk.rules.start(events[0])
    for event in events[1:]:
        state = walk.step(state, event)
    return walk.rows


def tried(scale: float) -> None:
    """Other values of chance: Hez2's draws by playouts (``--luck-playouts``; 150 games), and
    the Hearts deal by a careless policy's playouts (60 games); the careless seat's table of
    ``variance``, the variance ratio of its paired difference with the whole luck and with the
    luck weighted, beside the shipped method on the same games."""
    print("tried: other values of chance (the careless seat's paired difference)")
    hez2, hearts = get_rules("hez2"), get_rules("hearts")
    variants: list[tuple[str, int, Any]] = [
        ("hez2 shipped (hand model)", 150, lambda: LuckWalk(hez2, shipped_model("hez2", 4), 16, 0)),
        ("hez2 draws: 8 playouts", 150, lambda: LuckWalk(hez2, None, 16, 0, playouts=8)),
        ("hez2 draws: 16 playouts", 150, lambda: LuckWalk(hez2, None, 16, 0, playouts=16)),
        ("hez2 draws: 32 playouts", 150, lambda: LuckWalk(hez2, None, 16, 0, playouts=32)),
        ("hez2 draws: 64 playouts", 150, lambda: LuckWalk(hez2, None, 16, 0, playouts=64)),
        ("hez2 draws: 128 playouts", 150, lambda: LuckWalk(hez2, None, 16, 0, playouts=128)),
        ("hearts shipped (policy playout)", 60, lambda: LuckWalk(hearts, None, 16, 0)),
        ("hearts deal: random 10%, 8 playouts", 60, lambda: _CarelessDealWalk(hearts, 0.1, 8)),
        ("hearts deal: random 10%, 16 playouts", 60, lambda: _CarelessDealWalk(hearts, 0.1, 16)),
        ("hearts deal: random 20%, 8 playouts", 60, lambda: _CarelessDealWalk(hearts, 0.2, 8)),
    ]  # fmt: skip
    for name, games, walk in variants:
        kind = name.split()[0]
        heuristic = get_rules(kind).bots()["heuristic"]
        bots = [careless_bot(kind, 0.2)] + [heuristic] * 3
        start = time.process_time()
        rows = [
            r for g in corpus(kind, int(games * scale), 11, 4, bots) for r in walk_rows(g, walk())
        ]
        raw, adj = paired(rows, 0, "relative"), paired(rows, 0, "adjusted")
        weight, shrunk = weighted(rows)
        whole = statistics.variance(raw) / statistics.variance(adj)
        print(f"  {name:38} {len(raw):5} units: whole {whole:.2f}, weight {weight:.2f} "
              f"{statistics.variance(raw) / statistics.variance(shrunk):.2f} "
              f"({time.process_time() - start:.1f} CPU s)")  # fmt: skip


def bias(hands: int) -> None:
    bots = [careless_bot("hearts", 0.2)] * 4
    rows = []
    for g in corpus("hearts", hands, 3, 4, bots):
        rows += game_luck(g)
        if len(rows) >= 4 * hands:
            break
    weight = luck_weight([r.relative for r in rows], [r.luck for r in rows])
    print(f"the luck's weight over the {len(rows)} rows: {weight:.3f}")
    for seat in range(4):
        mine = [r for r in rows if r.seat == seat][:hands]
        raw = statistics.fmean([r.relative for r in mine])
        for name, adjusted in (
            ("adjusted", [r.adjusted for r in mine]),
            ("weighted", [r.relative - weight * r.luck for r in mine]),
        ):
            mean = statistics.fmean(adjusted)
            error = statistics.stdev(adjusted) / len(adjusted) ** 0.5
            ratio = abs(mean) / error
            print(f"seat {seat}: {len(adjusted)} hands, raw mean {raw:+.3f}, {name} mean "
                  f"{mean:+.3f}, standard error {error:.3f}, |mean|/se {ratio:.2f}")  # fmt: skip


def speed(hands: int, store_hands: int) -> None:
    """The luck's rate in one process (``hands`` Hearts hands, a tenth as many Hez2 games),
    then ``replay reindex --luck`` (``update_luck``) over a store of about ``store_hands``
    Hearts hands: with --jobs 1, again on the unchanged store (incremental: it values
    nothing), and with --jobs 2 (the workers' CPU counted)."""
    heuristic = get_rules("hearts").bots()["heuristic"]
    for kind in ("hearts", "hez2"):
        bots = [get_rules(kind).bots()["heuristic"]] * 4
        logs = list(corpus(kind, max(1, hands // 10), 5, 4, bots))
        start = time.process_time()
        units = sum(len(game_luck(g)) for g in logs) // 4  # four seats a unit
        spent = time.process_time() - start
        print(f"{kind}: {units} units ({len(logs)} games), {spent:.2f} CPU s, "
              f"{units / spent:.0f} units/CPU s (a unit: a Hearts hand, a Hez2 game)")  # fmt: skip
    games = list(corpus("hearts", max(1, store_hands // 10), 6, 4, [heuristic] * 4))
    units = sum(1 for g in games for e in g if e.type == "round_scored") // 4
    with tempfile.TemporaryDirectory() as folder:
        store = EventStore.open(Path(folder) / "store", create=True)
        store.ingest(games)
        del games
        for jobs, fresh in ((1, True), (1, False), (2, True)):
            if fresh:
                luck_path(store).unlink(missing_ok=True)
            start, cpu = time.perf_counter(), time.process_time() + _children_cpu()
            done = update_luck(store, LuckSettings(), jobs=jobs)
            wall = time.perf_counter() - start
            cpu = time.process_time() + _children_cpu() - cpu
            print(f"update_luck (reindex --luck) --jobs {jobs}: {units} Hearts hands "
                  f"({done.computed} games valued, {done.kept} kept), {wall:.1f} s wall, "
                  f"{cpu:.1f} CPU s; 1M hands: {cpu / units * 1e6 / 60:.1f} CPU min")  # fmt: skip


#: Games a ``replay simulate`` of the store part writes at once (each chunk its own seed).
CHUNK = 10_000


def store_part(
    store: Path, hands: int, append: int, memory: str | None, jobs: Sequence[int] = (1, 2)
) -> None:
    """``replay reindex STORE --luck`` timed end to end (see the module; ``memory``: its
    ``--memory-limit``; ``jobs``: the ``--jobs`` of the runs from no stored luck)."""
    limit = ("--memory-limit", memory) if memory else ()
    built = build_store(store, hands)
    print(f"store {store}: {built:,} Hearts hands in {store_games(store):,} games")
    luck = store / "_analytics" / "luck.parquet"
    for j in jobs:
        luck.unlink(missing_ok=True)
        timed(f"reindex --luck --jobs {j}, no stored luck", "reindex", store, *limit, "--luck",
              "--jobs", str(j))  # fmt: skip
    timed("reindex --luck --jobs 2, unchanged store", "reindex", store, *limit, "--luck", "--jobs",
          "2")  # fmt: skip
    timed("reindex alone (the derived tables)", "reindex", store, *limit)
    seed = 1_000 + store_games(store)  # new game ids at every run
    timed(f"simulate {append} new games", "simulate", "hearts", "--out", store, "--games",
          str(append), "--bots", "heuristic", "--seed", str(seed))  # fmt: skip
    timed(f"reindex --luck --jobs 2, {append} new games", "reindex", store, *limit, "--luck",
          "--jobs", "2")  # fmt: skip


def build_store(store: Path, hands: int) -> int:
    """Simulate Hearts games into ``store`` (seeds 1, 2, ... a chunk each) until it holds
    ``hands`` hands; the hands it holds."""
    done = store_hands(store)
    seed = store_games(store) // CHUNK + 1
    while done < hands:
        timed(f"simulate {CHUNK} games (seed {seed})", "simulate", "hearts", "--out", store,
              "--games", str(CHUNK), "--bots", "heuristic", "--seed", str(seed))  # fmt: skip
        done, seed = store_hands(store), seed + 1
    return done


def store_games(store: Path) -> int:
    if not (store / "_delta_log").is_dir():
        return 0
    return int(EventStore.open(store).list_games_table().num_rows)


def store_hands(store: Path) -> int:
    """The Hearts hands of a store: its ``round_scored`` rulings, one a seat."""
    if not (store / "_delta_log").is_dir():
        return 0
    kinds = EventStore.open(store).scan("hearts", ["type"])
    scored = pa.scalar("round_scored")
    return sum(len(b.filter(pc.equal(b.column(0), scored))) for b in kinds) // 4


_TIME_FIELDS = {
    "user": r"User time \(seconds\): ([\d.]+)",
    "system": r"System time \(seconds\): ([\d.]+)",
    "wall": r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)",
    "rss": r"Maximum resident set size \(kbytes\): (\d+)",
}


def timed(label: str, *args: object) -> None:
    """``replay ARGS`` under ``/usr/bin/time -v``: its last line of output, wall, CPU, peak
    RSS, and the load average before and after."""
    replay = Path(sys.executable).with_name("replay")
    before = os.getloadavg()[0]
    run = subprocess.run(["/usr/bin/time", "-v", replay, *map(str, args)], capture_output=True,
                         text=True, check=False)  # fmt: skip
    after = os.getloadavg()[0]
    got = {k: m.group(1) for k, p in _TIME_FIELDS.items() if (m := re.search(p, run.stderr))}
    if run.returncode or len(got) < len(_TIME_FIELDS):
        print(f"{label}: failed ({run.returncode})\n{run.stdout[-2000:]}{run.stderr[-2000:]}")
        return
    user, system, rss = float(got["user"]), float(got["system"]), int(got["rss"]) / 1024
    wall = sum(float(x) * 60**i for i, x in enumerate(reversed(got["wall"].split(":"))))
    said = run.stdout.strip().splitlines()[-1] if run.stdout.strip() else ""
    print(f"{label}: {wall:.1f} s wall, {user + system:.1f} s CPU ({user:.1f} user, "
          f"{system:.1f} system), peak RSS {rss:.0f} MB, load {before:.1f} -> {after:.1f}\n"
          f"    {said}")  # fmt: skip


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    known = ["variance", "ceiling", "decisions", "tried", "bias", "speed", "store"]
    parser.add_argument("--part", action="append", choices=known)
    parser.add_argument("--scale", type=float, default=1.0, help="of the variance corpora")
    parser.add_argument("--hands", type=int, default=10_000, help="of the bias and store parts")
    parser.add_argument("--speed-hands", type=int, default=2_000)
    parser.add_argument("--store-hands", type=int, default=20_000, help="of the speed part")
    parser.add_argument("--store", type=Path, help="the store part's store (kept; built if short)")
    parser.add_argument("--append", type=int, default=20, help="new games of the store part")
    parser.add_argument("--memory-limit", help="of the store part's reindex (its default: 1GB)")
    parser.add_argument("--store-jobs", type=int, nargs="+", default=[1, 2],
                        help="the --jobs of the store part's runs from no stored luck")  # fmt: skip
    args = parser.parse_args()
    print(f"replay engine: {engine_build()}")
    parts = args.part or known[:-1]  # the store part only when asked (it takes an hour)
    if "variance" in parts:
        variance(args.scale)
    if "ceiling" in parts:
        ceiling(args.scale)
    if "decisions" in parts:
        decisions(args.scale)
    if "tried" in parts:
        tried(args.scale)
    if "bias" in parts:
        bias(args.hands)
    if "speed" in parts:
        speed(args.speed_hands, args.store_hands)
    if "store" in parts:
        if args.store is None:
            parser.error("--part store needs --store PATH (a store kept between runs)")
        store_part(args.store, args.hands, args.append, args.memory_limit, args.store_jobs)


if __name__ == "__main__":
    main()
