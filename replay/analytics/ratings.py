"""Player ratings per game kind: OpenSkill's Plackett-Luce model over finishing places.

The results are one row per game x player (``game_id``, ``kind``, ``started``, ``player``,
``place``; place 1 is best, tied players share a place; optionally ``day``, the start date, and
``players``, the game's seat count). The games are played in date order (ties broken by game
id) through **ladders**: one per kind, and, for the stored tables, one per kind and seat count.
Each player starts at the model's default rating (mu 25, sigma 25/3); ``conservative`` is
mu - 3 sigma (OpenSkill's ``ordinal``), which ranks a table.

:func:`update` is the Plackett-Luce update of one game of one-player teams, as plain float
arithmetic in the order OpenSkill's ``PlackettLuce().rate`` does it (the same values, to the
bit: the tests compare them), without its rating objects and the copies it makes of them.
:func:`rate` gives the ratings after the last game; :func:`rating_log` each player's rating at
the end of every day they played, from which ``Analytics.ratings`` reads the ratings at any
date (``replay reindex`` stores it).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from openskill.models import PlackettLuce

from replay.analytics import engine

#: The model whose defaults :func:`update` uses (mu 25, sigma 25/3, beta 25/6, kappa 0.0001,
#: tau 25/300; no sigma limit, no balance, no weights).
_MODEL = PlackettLuce()
MU: float = float(_MODEL.mu)
SIGMA: float = float(_MODEL.sigma)
_BETA_SQUARED: float = float(_MODEL.beta) ** 2
_KAPPA: float = float(_MODEL.kappa)
_TAU_SQUARED: float = float(_MODEL.tau) * float(_MODEL.tau)

#: Columns of ``rate``'s result (and of ``Analytics.ratings``).
_FIELDS: list[pa.Field[Any]] = [
    pa.field("kind", pa.string()),
    pa.field("player", pa.string()),
    pa.field("mu", pa.float64()),
    pa.field("sigma", pa.float64()),
    pa.field("conservative", pa.float64()),
    pa.field("games", pa.int64()),
]
RATINGS_SCHEMA = pa.schema(_FIELDS)

#: Columns of :func:`rating_log`: a player's rating in a ladder (``players`` null: every seat
#: count of the kind) at the end of a day (null: games without a start time, rated last) and the
#: games that player had played in that ladder by then.
_LOG_FIELDS: list[pa.Field[Any]] = [
    pa.field("kind", pa.string()),
    pa.field("players", pa.int32()),
    pa.field("player", pa.string()),
    pa.field("day", pa.date32()),
    pa.field("games", pa.int64()),
    pa.field("mu", pa.float64()),
    pa.field("sigma", pa.float64()),
    pa.field("conservative", pa.float64()),
]
LOG_SCHEMA = pa.schema(_LOG_FIELDS)
#: The version of what :func:`rating_log` writes: stored logs of another version are not read.
LOG_FORMAT = 1

#: The results the ratings rate: every seat with a place and a player, in date order (a seat
#: recorded twice by a faulty log, in the order of its places on every engine).
ALL_RESULTS = """
SELECT s.game_id, s.kind, s.started, s.day, s.players, s.player, s.place
FROM seats s
WHERE s.place IS NOT NULL AND s.player IS NOT NULL
ORDER BY s.started, s.game_id, s.kind, s.seat, s.place
"""

#: Columns ``rate`` and ``rating_log`` read (``day`` and ``players`` when present).
RESULT_COLUMNS = ("game_id", "kind", "started", "player", "place")


def update(
    mus: Sequence[float], sigmas: Sequence[float], places: Sequence[int]
) -> tuple[list[float], list[float]]:
    """The ratings (mu, sigma per seat) after one game of ``len(places)`` one-player teams,
    from their ratings before it; ``places``: 1 is best, equal places are a tie.

    OpenSkill's ``PlackettLuce().rate([[r] for r in ratings], ranks=places)`` (Weng and Lin's
    algorithm 4), operation for operation: sigma widened by tau; the teams sorted by place
    (stably); c, the root of the sum of sigma^2 + beta^2; for each team q, the sum of
    exp(mu / c) over the teams placed at q's place or below, and A_q, the teams sharing it; then
    each team's omega and delta over the teams placed at its place or above, scaled by
    sigma^2 / c, sigma^2 / c^2 and gamma = sigma / c; mu + omega, sigma * sqrt(max(1 - delta,
    kappa)). (OpenSkill's averaging of the mu changes of tied teams changes nothing: it
    averages the differences between each updated rating and itself.)
    """
    n = len(places)
    sqrt = math.sqrt
    exp = math.exp
    order = sorted(range(n), key=places.__getitem__)
    ranks = [places[i] for i in order]
    sig = [sqrt(sigmas[i] * sigmas[i] + _TAU_SQUARED) for i in order]
    var = [s**2 for s in sig]
    total = 0.0
    for v in var:
        total += v + _BETA_SQUARED
    c = sqrt(total)
    c2 = c**2
    e = [exp(mus[i] / c) for i in order]
    # per sorted position q: the sum of e over the positions ranked at q's rank or below (added
    # in position order, as OpenSkill adds them), the end of q's group of equal ranks, its size
    sums: list[float] = []
    ends: list[int] = []
    counts: list[int] = []
    tied = False
    q = 0
    while q < n:
        end = q + 1
        while end < n and ranks[end] == ranks[q]:
            end += 1
        acc = e[q]
        for k in range(q + 1, n):
            acc += e[k]
        size = end - q
        tied = tied or size > 1
        sums += [acc] * size
        ends += [end] * size
        counts += [size] * size
        q = end
    new_mu = [0.0] * n
    new_sigma = [0.0] * n
    for i in range(n):
        ei = e[i]
        omega = 0.0
        delta = 0.0
        if tied:
            for q in range(ends[i]):
                t = ei / sums[q]
                a = counts[q]
                delta += t * (1 - t) / a
                if q == i:
                    omega += (1 - t) / a
                else:
                    omega -= t / a
        else:  # every A_q is 1: the same sums without dividing by it
            for q in range(i):
                t = ei / sums[q]
                delta += t * (1 - t)
                omega -= t
            t = ei / sums[i]
            delta += t * (1 - t)
            omega += 1 - t
        v = var[i]
        omega *= v / c
        delta *= v / c2
        delta *= sqrt(v) / c
        seat = order[i]
        new_mu[seat] = mus[seat] + omega
        new_sigma[seat] = sig[i] * sqrt(max(1 - delta, _KAPPA))
    return new_mu, new_sigma


class _Ladders:
    """The ratings of every ladder, updated one game at a time, and the log of each day."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.keys: dict[tuple[str, int | None], int] = {}
        self.mu: list[list[float]] = []
        self.sigma: list[list[float]] = []
        self.games: list[list[int]] = []
        self.touched: list[tuple[int, int]] = []  # (ladder, player) rated on the current day
        self.stamp: list[list[int]] = []  # the day number at which each was last touched
        self.day_number = 0
        # the log's columns
        self.log_ladder: list[int] = []
        self.log_player: list[int] = []
        self.log_day: list[int | None] = []
        self.log_games: list[int] = []
        self.log_mu: list[float] = []
        self.log_sigma: list[float] = []

    def grow(self, players: int) -> None:
        """Make room for ``players`` players in every ladder (the new ones unrated)."""
        extra = players - self.players
        if extra <= 0:
            return
        for index in range(len(self.mu)):
            self.mu[index] += [MU] * extra
            self.sigma[index] += [SIGMA] * extra
            self.games[index] += [0] * extra
            self.stamp[index] += [-1] * extra
        self.players = players

    def ladder(self, kind: str, players: int | None) -> int:
        key = (kind, players)
        index = self.keys.get(key)
        if index is None:
            index = self.keys[key] = len(self.mu)
            self.mu.append([MU] * self.players)
            self.sigma.append([SIGMA] * self.players)
            self.games.append([0] * self.players)
            self.stamp.append([-1] * self.players)
        return index

    def play(self, ladder: int, who: list[int], places: list[int]) -> None:
        """Rate one game in one ladder: the seats' players and places."""
        mu, sigma, games, stamp = (
            self.mu[ladder], self.sigma[ladder], self.games[ladder], self.stamp[ladder]
        )  # fmt: skip
        new_mu, new_sigma = update([mu[p] for p in who], [sigma[p] for p in who], places)
        day = self.day_number
        for p, m, s in zip(who, new_mu, new_sigma, strict=True):
            mu[p] = m
            sigma[p] = s
            games[p] += 1
            if stamp[p] != day:
                stamp[p] = day
                self.touched.append((ladder, p))

    def end_day(self, day: int | None) -> None:
        """Log the rating of each player rated since the last call, as of ``day``'s end."""
        for ladder, p in self.touched:
            self.log_ladder.append(ladder)
            self.log_player.append(p)
            self.log_day.append(day)
            self.log_games.append(self.games[ladder][p])
            self.log_mu.append(self.mu[ladder][p])
            self.log_sigma.append(self.sigma[ladder][p])
        self.touched = []
        self.day_number += 1


def game_starts(ordered: pa.Table) -> list[int]:
    """The first row of each game of results in game order (a new ``game_id`` or ``kind``)."""
    rows = ordered.num_rows
    if rows == 0:
        return []
    compute: Any = pc  # the stubs miss these signatures
    game_ids = ordered.column("game_id").combine_chunks()
    kinds = ordered.column("kind").combine_chunks()
    boundary = np.ones(rows, dtype=bool)
    if rows > 1:
        boundary[1:] = np.asarray(
            compute.or_(
                compute.not_equal(game_ids[1:], game_ids[:-1]),
                compute.not_equal(kinds[1:], kinds[:-1]),
            ).to_numpy(zero_copy_only=False)
        )
    starts: list[int] = np.flatnonzero(boundary).tolist()
    return starts


class _Rating:
    """Results played through the ladders in order, fed a table of whole games at a time (the
    whole log at once, or a store's results slice by slice: the same ratings and log)."""

    def __init__(self, *, whole: bool, split: bool) -> None:
        self.whole, self.split = whole, split
        self.ladders = _Ladders(0)
        self.names: list[str] = []
        self.number: dict[str, int] = {}
        self.day: int | None = None  # the day being played
        self.begun = False

    def feed(self, ordered: pa.Table) -> None:
        """Play the games of ``ordered`` (whole games, in date then game order)."""
        starts = game_starts(ordered)
        if not starts:
            return
        compute: Any = pc
        encoded = compute.dictionary_encode(ordered.column("player").combine_chunks())
        codes = np.array([self._player(str(n)) for n in encoded.dictionary.to_pylist()], np.int64)
        self.ladders.grow(len(self.names))
        who: list[int] = codes[encoded.indices.to_numpy(zero_copy_only=False)].tolist()
        places: list[int] = ordered.column("place").to_numpy().astype(np.int64).tolist()
        first = pa.array(starts, pa.int64())
        game_kinds = [
            str(k) for k in ordered.column("kind").combine_chunks().take(first).to_pylist()
        ]
        columns = ordered.column_names
        if "day" in columns:
            days = ordered.column("day").combine_chunks().take(first).cast(pa.date32())
            game_days: list[int | None] = days.cast(pa.int32()).to_pylist()
        else:
            game_days = [None] * len(starts)
        if "players" in columns:
            seat_counts: list[int | None] = (
                ordered.column("players").combine_chunks().take(first).to_pylist()
            )
        else:
            seat_counts = [None] * len(starts)
        if not self.begun:
            self.day, self.begun = game_days[0], True
        ladders = self.ladders
        ends = [*starts[1:], ordered.num_rows]
        for g, (start, end) in enumerate(zip(starts, ends, strict=True)):
            if end - start < 2:  # one rated seat: no game to rate (OpenSkill refuses it)
                continue
            day = game_days[g]
            if day != self.day:
                ladders.end_day(self.day)
                self.day = day
            seats = who[start:end]
            placed = places[start:end]
            kind = game_kinds[g]
            if self.whole:
                ladders.play(ladders.ladder(kind, None), seats, placed)
            if self.split:
                count = seat_counts[g]
                ladders.play(ladders.ladder(kind, end - start if count is None else count), seats,
                             placed)  # fmt: skip

    def _player(self, name: str) -> int:
        number = self.number.get(name)
        if number is None:
            number = self.number[name] = len(self.names)
            self.names.append(name)
        return number

    def finish(self) -> None:
        """Log the last day played."""
        self.ladders.end_day(self.day)

    def take_log(self) -> pa.Table:
        """The log rows written since the last call (:data:`LOG_SCHEMA`), then forgotten."""
        ladders = self.ladders
        kinds = {index: kind for (kind, _), index in ladders.keys.items()}
        counts = {index: players for (_, players), index in ladders.keys.items()}
        mu, sigma = ladders.log_mu, ladders.log_sigma
        columns: dict[str, list[Any]] = {
            "kind": [kinds[i] for i in ladders.log_ladder],
            "players": [counts[i] for i in ladders.log_ladder],
            "player": [self.names[p] for p in ladders.log_player],
            "day": ladders.log_day,
            "games": ladders.log_games,
            "mu": mu,
            "sigma": sigma,
            "conservative": [m - 3.0 * s for m, s in zip(mu, sigma, strict=True)],
        }
        ladders.log_ladder, ladders.log_player, ladders.log_day = [], [], []
        ladders.log_games, ladders.log_mu, ladders.log_sigma = [], [], []
        return pa.table(columns, schema=LOG_SCHEMA)


def _play(results: pa.Table, whole: bool, split: bool) -> _Rating:
    """Play the results' games in order through the ladders."""
    columns = [c for c in (*RESULT_COLUMNS, "day", "players") if c in results.column_names]
    ordered = results.select(columns).sort_by(
        [("started", "ascending"), ("game_id", "ascending"), ("kind", "ascending")]
    )
    rating = _Rating(whole=whole, split=split)
    rating.feed(ordered)
    if rating.begun:
        rating.finish()
    return rating


def rate(results: pa.Table) -> pa.Table:
    """Ratings per kind and player after the last game, sorted by kind, then conservative
    rating (best first), then player (RATINGS_SCHEMA)."""
    rating = _play(results, whole=True, split=False)
    ladders, names = rating.ladders, rating.names
    entries = [
        (kind, names[p], ladders.mu[index][p], ladders.sigma[index][p], games)
        for (kind, _), index in ladders.keys.items()
        for p, games in enumerate(ladders.games[index])
        if games
    ]
    conservative = [mu - 3.0 * sigma for _, _, mu, sigma, _ in entries]
    order = sorted(range(len(entries)), key=lambda i: (entries[i][0], -conservative[i],
                                                       entries[i][1]))  # fmt: skip
    columns: dict[str, list[Any]] = {
        "kind": [entries[i][0] for i in order],
        "player": [entries[i][1] for i in order],
        "mu": [entries[i][2] for i in order],
        "sigma": [entries[i][3] for i in order],
        "conservative": [conservative[i] for i in order],
        "games": [entries[i][4] for i in order],
    }
    return pa.table(columns, schema=RATINGS_SCHEMA)


def rating_log(results: pa.Table, *, whole: bool = True, split: bool = False) -> pa.Table:
    """Each player's rating at the end of every day they played (LOG_SCHEMA), in one ladder per
    kind (``whole``: ``players`` null) and one per kind and seat count (``split``: the
    ``players`` column of the results, else the number of results of the game)."""
    return _play(results, whole=whole, split=split).take_log()


def rating_log_parts(
    batches: Iterable[pa.RecordBatch], *, whole: bool = True, split: bool = False
) -> Iterator[pa.Table]:
    """:func:`rating_log` of results read a batch at a time, already in order (``started``,
    ``game_id``, ``kind``, then seat), in parts (their rows in the order :func:`rating_log`
    gives them): memory bounded by a batch and the ladders, not by the results. The last game
    of each batch is held back for the next one, so that every game is rated whole."""
    rating = _Rating(whole=whole, split=split)
    held: list[pa.Table] = []
    for batch in batches:
        table = pa.concat_tables([*held, pa.Table.from_batches([batch])])
        starts = game_starts(table)
        cut = starts[-1] if starts else 0
        rating.feed(table.slice(0, cut))
        held = [table.slice(cut)]
        yield rating.take_log()
    if held:
        rating.feed(held[0])
    if rating.begun:
        rating.finish()
    yield rating.take_log()


#: The ratings under the filters, from a rating log (``rating_log``: :data:`LOG_SCHEMA`): in the
#: ladder of the kind, or of the kind and seat count (``:players``), each player's last rating
#: up to the end of ``:until`` (every day, and the games without a time, with no date filter),
#: with the games played from ``:since`` on; players with no game there are left out. ``games``
#: counts up by one at each of a player's games, so the row of the most games is the last one.
LOG_RATINGS = """
SELECT kind, player,
  max_by(mu, games) AS mu,
  max_by(sigma, games) AS sigma,
  max_by(conservative, games) AS conservative,
  max(games) - coalesce(max(CASE WHEN day < :since THEN games END), 0) AS games
FROM rating_log
WHERE ((:players IS NULL AND players IS NULL) OR players = :players)
  AND (:kind IS NULL OR kind = :kind)
  AND (:player IS NULL OR player = :player)
  AND (:until IS NULL OR day <= :until)
  AND ((:since IS NULL AND :until IS NULL) OR day IS NOT NULL)
GROUP BY kind, player
HAVING max(games) - coalesce(max(CASE WHEN day < :since THEN games END), 0) > 0
ORDER BY kind, conservative DESC, player
"""


#: A player's ratings over time from a rating log: in the ladder of the kind (or of the kind
#: and seat count), at the end of each day from ``:since`` to ``:until``, ``games`` counted
#: from the start of the ladder.
HISTORY = """
SELECT kind, player, day, games, mu, sigma, conservative
FROM rating_log
WHERE ((:players IS NULL AND players IS NULL) OR players = :players)
  AND (:kind IS NULL OR kind = :kind)
  AND (:player IS NULL OR player = :player)
  AND (:since IS NULL OR day >= :since)
  AND (:until IS NULL OR day <= :until)
ORDER BY kind, player, day NULLS LAST
"""
#: The stored rating log (``replay reindex``), every ladder.
STORED_LOG = "SELECT * FROM rating_log"


def ratings_of_log(log: pa.Table, params: Mapping[str, object], sql: str = LOG_RATINGS) -> pa.Table:
    """:data:`LOG_RATINGS` (or ``sql``) over ``log`` (a table :func:`rating_log` made), in
    DuckDB."""
    import duckdb

    con = duckdb.connect()
    try:
        con.register("rating_log", log)
        return engine.run(con, sql, params)
    finally:
        con.close()
