"""The fair-play signal: does a seat pick the card that is best with every hand visible more
often than what it could see allows (docs/review.md, "Fair play")? A signal for an arbiter to
look further, never proof.

**Decisions counted.** Near the end of a trick game's scoring unit (every hand at most
``max_cards`` cards, where the exact solver, :mod:`replay.solver`, is fast), a play is
*telling* when the all-cards-visible best cards (those of the best value to the seat, the
solver's max^n) do not include the card the honest reference policy (a bot that sees only the
seat's hand and the table) picks, and do not include every legal card. A *hit*: the seat played
one of the all-visible best cards.

**The honest rate.** A seat's *agreement* is the share of its other decisions (every decision
with a choice that is not telling, in the same games) where it played the policy's card. An
honest seat is modelled as playing the policy's card with that probability and otherwise a
uniformly chosen other legal card, so at a telling decision with ``L`` legal cards, ``B`` of them
all-visible best, it hits with probability ``(1 - agreement) * B / (L - 1)``. For the policy's
own games (agreement 1, no hit) and for uniformly random play (``B / L``) this is exact; the
benchmark (``benchmarks/bench_fairplay.py``) measures how often honest seats of several
strengths pass the threshold.

**The test.** Hits against the sum of those probabilities: a z-score, and the exact one-sided
p-value of so many hits or more (the Poisson-binomial law of independent decisions). A seat is
flagged when p < :data:`THRESHOLD`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from replay.games import get_rules
from replay.model.events import Category, Event
from replay.review import DEFAULT_POLICY
from replay.solver import KINDS, NotSolvable, solve

#: Every hand at most this many cards for a play to be judged (the solver's fast range).
DEFAULT_MAX_CARDS = 4
#: A seat is flagged below this one-sided p-value.
THRESHOLD = 0.001
#: The version of the method: raise it when the same settings would give other numbers.
FAIRPLAY_VERSION = 1


@dataclass(frozen=True, slots=True)
class Telling:
    """One telling decision (see the module)."""

    game_id: str
    kind: str
    seq: int
    seat: int
    played: str
    policy: str  # the honest policy's card
    best: tuple[str, ...]  # the all-cards-visible best cards
    legal: int
    hit: bool


@dataclass(frozen=True, slots=True)
class SeatPlay:
    """One seat's decisions in one game: its telling ones, and its agreement with the policy
    over the others (decisions with a choice)."""

    game_id: str
    kind: str
    seat: int
    player: str
    telling: list[Telling]
    agreed: int
    other: int  # decisions with a choice that are not telling


@dataclass(frozen=True, slots=True)
class Signal:
    """The signal of one player (or seat) over a set of games."""

    kind: str
    player: str
    games: int
    decisions: int  # telling decisions
    hits: int
    expected: float  # hits an honest seat of that agreement makes, in expectation
    agreement: float
    z: float | None  # None: an honest seat of that agreement could not hit at all
    p_value: float
    flagged: bool

    @property
    def rate(self) -> float:
        return self.hits / self.decisions if self.decisions else 0.0


def game_plays(
    events: Sequence[Event],
    *,
    policy: str = DEFAULT_POLICY,
    max_cards: int = DEFAULT_MAX_CARDS,
) -> list[SeatPlay]:
    """Every seat's :class:`SeatPlay` in one game (``events`` in seq order; a log the rules
    refuse is read up to its fault). ValueError for a game the solver does not know."""
    rules = get_rules(events[0].kind)
    if rules.kind not in KINDS:
        raise ValueError(f"no fair-play signal for {rules.kind}: the solver knows "
                         f"{', '.join(KINDS)}")  # fmt: skip
    bot = rules.bots()[policy]
    state = rules.start(events[0])
    names = _names(events[0], state.n)
    telling: list[list[Telling]] = [[] for _ in range(state.n)]
    agreed, other = [0] * state.n, [0] * state.n
    for event in events[1:]:
        try:
            rules.verify(state, event)
        except Exception:  # a faulty log: what came before it is judged
            break
        seat = event.player
        if rules.event_types.get(event.type) is Category.DECISION and seat is not None:
            legal = rules.legal_decisions(state, seat)
            if len(legal) > 1:
                honest = bot(state, seat, random.Random(f"{event.game_id}/{event.seq}"))
                judged = None
                if event.type == "play" and _few_cards(state, max_cards):
                    try:
                        judged = _judge(state, event, honest, len(legal))
                    except NotSolvable:
                        judged = None
                if judged is not None:
                    telling[seat].append(judged)
                else:
                    agreed[seat] += _same(event, honest)
                    other[seat] += 1
        state = rules.apply(state, event)
    return [
        SeatPlay(events[0].game_id, rules.kind, s, names[s], telling[s], agreed[s], other[s])
        for s in range(state.n)
    ]


def _judge(state: Any, event: Event, honest: Event, legal: int) -> Telling | None:
    """The decision as a :class:`Telling` one, or None when it is not telling."""
    seat = event.player
    assert seat is not None
    solution = solve(state, line=False)
    mine = {card: values[seat] for card, values in solution.values.items()}
    top = max(v * solution.better for v in mine.values())
    best = tuple(c for c, v in mine.items() if v * solution.better == top)
    if honest.card in best or len(best) == len(mine):
        return None
    return Telling(
        event.game_id, event.kind, event.seq, seat, str(event.card), str(honest.card), best,
        legal, event.card in best,
    )  # fmt: skip


def _few_cards(state: Any, max_cards: int) -> bool:
    return all(state.hand(s).bit_count() <= max_cards for s in range(state.n))


def _same(event: Event, honest: Event) -> int:
    return int(event.card == honest.card and event.cards == honest.cards)


def _names(start: Event, players: int) -> list[str]:
    import json

    try:
        names = json.loads(start.data or "{}").get("names") or []
    except (ValueError, AttributeError):
        names = []
    return [str(names[s]) if s < len(names) else f"seat {s}" for s in range(players)]


# --------------------------------------------------------------------- the test
def honest_chance(t: Telling, agreement: float) -> float:
    """The probability that an honest seat of this agreement hits at ``t``."""
    return (1.0 - agreement) * len(t.best) / (t.legal - 1)


def signal(plays: Iterable[SeatPlay], player: str, threshold: float = THRESHOLD) -> Signal:
    """The signal of ``plays`` (one player's seats, one kind) together."""
    plays = list(plays)
    agreed = sum(p.agreed for p in plays)
    other = sum(p.other for p in plays)
    agreement = agreed / other if other else 0.0
    decisions = [t for p in plays for t in p.telling]
    chances = [honest_chance(t, agreement) for t in decisions]
    hits = sum(t.hit for t in decisions)
    expected = sum(chances)
    spread = math.sqrt(sum(c * (1 - c) for c in chances))
    z = (hits - expected) / spread if spread > 0 else (0.0 if hits <= expected else None)
    p = upper_tail(chances, hits)
    kind = plays[0].kind if plays else ""
    return Signal(
        kind, player, len({p.game_id for p in plays}), len(decisions), hits, expected,
        agreement, z, p, p < threshold,
    )  # fmt: skip


def upper_tail(chances: Sequence[float], hits: int) -> float:
    """P(at least ``hits`` successes) among independent trials of these chances (exact)."""
    if hits <= 0:
        return 1.0
    law = [1.0]  # law[k]: P(k successes so far)
    for c in chances:
        nxt = [0.0] * (len(law) + 1)
        for k, p in enumerate(law):
            nxt[k] += p * (1 - c)
            nxt[k + 1] += p * c
        law = nxt
    return min(1.0, max(0.0, sum(law[hits:])))


def signals(
    plays: Iterable[SeatPlay], player: str | None = None, threshold: float = THRESHOLD
) -> list[Signal]:
    """One :class:`Signal` per kind and player (only ``player``'s when given), by name."""
    groups: dict[tuple[str, str], list[SeatPlay]] = {}
    for p in plays:
        if player is None or p.player == player:
            groups.setdefault((p.kind, p.player), []).append(p)
    return [signal(g, name, threshold) for (_, name), g in sorted(groups.items())]
