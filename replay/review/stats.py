"""Means with their 95% intervals (Student's t), the figures every review number carries, and
shares with theirs (Wilson's score interval, which the statistics' rates use too).

>>> m = mean_interval([1.0, 2.0, 3.0, 4.0])
>>> round(m.mean, 2), round(m.low, 2), round(m.high, 2), m.n
(2.5, 0.45, 4.55, 4)
>>> mean_interval([2.0]).low, mean_interval([]).n
(2.0, 0)
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

#: The normal quantile of a two-sided 95% interval.
Z95 = NormalDist().inv_cdf(0.975)

#: The 0.975 quantile of Student's t for 1 to 30 degrees of freedom.
_T975 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip


def t975(df: int) -> float:
    """The 0.975 quantile of Student's t with ``df`` degrees of freedom (a table to 30, then
    the Cornish-Fisher expansion, within 0.001 of the exact value).

    >>> t975(4), round(t975(60), 3), round(t975(10_000), 3)
    (2.776, 2.0, 1.96)
    """
    if df <= len(_T975):
        return _T975[max(df, 1) - 1]
    z = Z95
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df * df)


def wilson(hits: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``hits`` successes in ``n`` trials (n > 0).

    >>> [round(x, 3) for x in wilson(8, 10)]
    [0.49, 0.943]
    """
    p = hits / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if hits <= 0 else max(0.0, centre - half)
    return low, 1.0 if hits >= n else min(1.0, centre + half)


@dataclass(frozen=True, slots=True)
class Estimate:
    """A mean with its 95% interval over ``n`` values (the interval is the mean alone for one
    value or none)."""

    mean: float
    low: float
    high: float
    n: int

    def excludes_zero(self) -> bool:
        """Whether the interval lies wholly on one side of 0."""
        return self.low > 0 or self.high < 0

    def as_dict(self, digits: int = 3) -> dict[str, float | int]:
        return {
            "mean": round(self.mean, digits),
            "low": round(self.low, digits),
            "high": round(self.high, digits),
            "n": self.n,
        }


def mean_interval(values: Sequence[float]) -> Estimate:
    """The mean of ``values`` with its t interval."""
    n = len(values)
    if n == 0:
        return Estimate(0.0, 0.0, 0.0, 0)
    mean = math.fsum(values) / n
    if n == 1:
        return Estimate(mean, mean, mean, 1)
    variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = t975(n - 1) * math.sqrt(variance / n)
    return Estimate(mean, mean - half, mean + half, n)


def welch_p(a: Sequence[float], b: Sequence[float]) -> float:
    """The two-sided p-value of Welch's t test that ``a`` and ``b`` have the same mean (the
    normal approximation of t: the samples it is used on are large).

    >>> welch_p([1.0, 2.0, 3.0] * 20, [1.0, 2.0, 3.0] * 20)
    1.0
    """
    ma, mb = mean_interval(a), mean_interval(b)
    va = math.fsum((x - ma.mean) ** 2 for x in a) / (len(a) - 1)
    vb = math.fsum((x - mb.mean) ** 2 for x in b) / (len(b) - 1)
    se = math.sqrt(va / len(a) + vb / len(b))
    if se == 0:
        return 1.0 if ma.mean == mb.mean else 0.0
    z = abs(ma.mean - mb.mean) / se
    return math.erfc(z / math.sqrt(2))


def t_p(t: float, df: int) -> float:
    """The two-sided p-value of Student's t with ``df`` degrees of freedom (Wallace's normal
    approximation, within a few percent of the exact value from 5 degrees of freedom).

    >>> round(t_p(3.25, 9), 4), round(t_p(2.0, 10_000), 4)  # exact: 0.01, 0.0455
    (0.0101, 0.0455)
    """
    if df <= 0:
        return 1.0
    z = (8 * df + 1) / (8 * df + 3) * math.sqrt(df * math.log1p(t * t / df))
    return math.erfc(z / math.sqrt(2))


def clustered_p(a: Sequence[tuple[object, float]], b: Sequence[tuple[object, float]]) -> float:
    """The two-sided p-value that the values of ``a`` and ``b`` (``(cluster, value)`` pairs,
    e.g. a hand and one decision's loss) have the same mean, the difference of the means'
    variance taken over the clusters (the sandwich estimator, referred to Student's t with one
    degree of freedom less than the clusters): values of one cluster may be correlated, as the
    decisions of one hand are, and both groups may share a cluster (two seats of one hand).

    >>> same = [(k % 10, float(k % 3)) for k in range(60)]
    >>> clustered_p(same, same)
    1.0
    >>> clustered_p(same, [(c, v + 1.0) for c, v in same]) < 1e-6
    True
    """
    mean_a = math.fsum(v for _, v in a) / len(a)
    mean_b = math.fsum(v for _, v in b) / len(b)
    by_cluster: dict[object, float] = {}
    for values, mean, sign in ((a, mean_a, 1.0), (b, mean_b, -1.0)):
        for cluster, v in values:
            by_cluster[cluster] = by_cluster.get(cluster, 0.0) + sign * (v - mean) / len(values)
    clusters = len(by_cluster)
    variance = math.fsum(s * s for s in by_cluster.values()) * clusters / max(clusters - 1, 1)
    if variance == 0:
        return 1.0 if mean_a == mean_b else 0.0
    return t_p(abs(mean_a - mean_b) / math.sqrt(variance), clusters - 1)


def seat_permutation_p(
    hands: Sequence[Sequence[Sequence[float]]], rounds: int = 9_999, seed: int = 0
) -> float:
    """The two-sided p-value that one seat's values (a decision's loss each) have the mean of
    the other seats' of the same hands, by permutation: ``hands[k][0]`` are the tested seat's
    values in hand ``k``, ``hands[k][1:]`` the other seats'. The statistic is the tested seat's
    mean less the others' mean (over the decisions); under the null every seat of a hand is
    equally likely to be the tested one (the seats of a hand are exchangeable), so the tested
    seat is drawn again in each hand, ``rounds`` times (a seeded stream). The hand is the unit,
    as in :func:`clustered_p`: the decisions of a hand may be correlated. Exact up to the draw
    of the permutations, whatever the law of the losses (they are heavy-tailed).

    >>> seat_permutation_p([[[1.0, 2.0], [1.0, 2.0]]] * 12)
    1.0
    >>> seat_permutation_p([[[3.0, 4.0], [1.0], [1.0, 0.0]]] * 12) < 0.001
    True
    """
    sums = [[math.fsum(seat) for seat in hand] for hand in hands]
    counts = [[len(seat) for seat in hand] for hand in hands]
    total = math.fsum(map(math.fsum, sums))
    count = sum(map(sum, counts))

    def statistic(choice: Sequence[int]) -> float:
        mine = math.fsum(s[c] for s, c in zip(sums, choice, strict=True))
        n = sum(c[k] for c, k in zip(counts, choice, strict=True))
        if n in (0, count):
            return 0.0
        return mine / n - (total - mine) / (count - n)

    observed = statistic([0] * len(hands))
    rng = random.Random(seed)
    drawn = [statistic([rng.randrange(len(hand)) for hand in hands]) for _ in range(rounds)]
    above = sum(x >= observed for x in drawn)
    below = sum(x <= observed for x in drawn)
    return min(1.0, 2 * (1 + min(above, below)) / (1 + rounds))
