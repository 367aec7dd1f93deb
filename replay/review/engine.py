"""The review of a game: for every decision of the chosen seats, each legal alternative's
expected result for the seat, the chosen move's expected loss against the best, and a label
where that loss is significant (docs/review.md).

A decision is judged on what its seat knew: each of ``samples`` deals of the hidden cards
(:func:`replay.games.hidden.sampler_for`) is put in place of the truth, then every alternative
is played on from it with the same random stream (common random numbers), so that the
difference between two moves is measured on the same deals. The same seed gives the same
review, whatever the number of worker processes.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from replay.audit import audit_game
from replay.audit.parallel import fork_context
from replay.games import get_rules
from replay.games.base import Game
from replay.games.fast import apply_in_place
from replay.games.hidden import HiddenSampler, sampler_for
from replay.model.events import Category, Event
from replay.model.specs import ScoreUnit
from replay.review import DEFAULT_ALTERNATIVES, DEFAULT_POLICY, DEFAULT_SAMPLES
from replay.review.exact import exact_play, exact_values, visible_loss
from replay.review.rollout import Evaluator, Rollouts, score_unit
from replay.review.stats import Estimate, mean_interval, wilson

#: The labels, from the least loss to the most (thresholds: the game's ScoreUnit).
LABELS = ("inaccuracy", "mistake", "blunder")
#: The version of the review's method: raise it when the same settings would give other numbers
#: (the reviews stored by ``replay reindex --reviews`` are then made again).
REVIEW_VERSION = 4
#: The estimate of no values (a figure not measured).
NONE = Estimate(0.0, 0.0, 0.0, 0)
#: How far a review thinks longer on a close decision (one whose label is not settled, see
#: :func:`unsettled`): its samples double up to this many times ``--samples``.
THINK_LONGER = 4


@dataclass(frozen=True, slots=True)
class Settings:
    """What a review is made with; the same settings give the same review."""

    samples: int = DEFAULT_SAMPLES
    seed: int = 0
    policy: str = DEFAULT_POLICY
    max_alternatives: int = DEFAULT_ALTERNATIVES
    #: A close decision's samples double up to this many times ``samples`` (1: never).
    think_longer: int = THINK_LONGER

    @property
    def key(self) -> str:
        """The settings and the review's version in one readable text: two reviews with the
        same key are the same."""
        return (
            f"v{REVIEW_VERSION} samples={self.samples} seed={self.seed} policy={self.policy} "
            f"alternatives={self.max_alternatives} think_longer={self.think_longer}"
        )


@dataclass(frozen=True, slots=True)
class Alternative:
    """One legal move of a decision and its expected result for the seat."""

    move: str
    value: Estimate
    chosen: bool
    policy: bool
    #: The seat's expected payout after the move (the game's ``ScoreUnit.payout``: Hez2 at a
    #: staked table, in minor units); None where the seat is not paid.
    payout: Estimate | None = None


@dataclass(frozen=True, slots=True)
class DecisionReview:
    """One decision: its alternatives, the best, the loss of the move played, the label."""

    game_id: str
    kind: str
    seq: int
    seat: int
    type: str
    played: str
    best: str
    legal: int  # legal moves (more than the alternatives valued when over the limit)
    alternatives: list[Alternative]
    loss: Estimate
    label: str | None
    #: The card's loss with all cards visible (:mod:`replay.review.exact`); None where the
    #: solver was not used (another game, a decision other than a play, too many cards).
    visible_loss: int | None = None
    #: The loss in payout against the alternative of the best expected payout (cross-fitted
    #: as ``loss``); None where the seat is not paid.
    payout_loss: Estimate | None = None
    #: The move played's expected cost beyond the policy's own move, on the same samples (0
    #: where the seat played the policy's move; below 0 where its move did better): the
    #: decision's loss with the policy's loss at the same decision taken out.
    beyond_policy: Estimate = NONE

    @property
    def agrees_with_policy(self) -> bool:
        """Whether the move played is the policy's own choice."""
        return any(a.chosen and a.policy for a in self.alternatives)


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """One seat's figures over a game's reviewed decisions."""

    seat: int
    decisions: int
    forced: int  # decisions with one legal move (not reviewed)
    loss: Estimate  # mean loss per decision
    accurate: int  # decisions whose loss is not significant
    labels: dict[str, int]
    worst: list[DecisionReview]
    payout_loss: Estimate | None = None  # mean payout loss per decision (None: not paid)
    agreed: int = 0  # decisions where the seat played the policy's move
    beyond_policy: Estimate = NONE  # mean cost beyond the policy's move

    @property
    def accuracy(self) -> tuple[float, float, float]:
        """The share of decisions without a significant loss, with its Wilson interval."""
        return _share(self.accurate, self.decisions)

    @property
    def agreement(self) -> tuple[float, float, float]:
        """The share of decisions where the seat played the policy's move, with its Wilson
        interval (Mortal's "agreement")."""
        return _share(self.agreed, self.decisions)


def _share(hits: int, total: int) -> tuple[float, float, float]:
    """``hits`` out of ``total`` as a share with its Wilson interval (0s for no decision)."""
    if not total:
        return 0.0, 0.0, 0.0
    low, high = wilson(hits, total)
    return hits / total, low, high


@dataclass(slots=True)
class GameReview:
    """The review of one game (up to its first audit finding)."""

    game_id: str
    kind: str
    unit: ScoreUnit
    settings: Settings
    seats: list[int]
    decisions: list[DecisionReview] = field(default_factory=list)
    forced: dict[int, int] = field(default_factory=dict)
    stopped_at: int | None = None  # seq of the first audit finding: reviewed up to it
    stop_reason: str = ""

    def summaries(self, worst: int = 3) -> list[SeatSummary]:
        return [seat_summary(self, seat, worst) for seat in self.seats]

    def decision_at(self, seq: int) -> DecisionReview | None:
        """The review of the decision recorded at ``seq`` (None: no reviewed decision there)."""
        return next((d for d in self.decisions if d.seq == seq), None)

    @property
    def mistakes(self) -> list[int]:
        """The seqs of the labelled decisions, in order (the replay's mistake jumps)."""
        return sorted(d.seq for d in self.decisions if d.label is not None)


# --------------------------------------------------------------------- one game
def review_game(
    events: Sequence[Event],
    settings: Settings = Settings(),
    seats: Sequence[int] | None = None,
    *,
    sampler: HiddenSampler | None = None,
    evaluator: Evaluator | None = None,
) -> GameReview:
    """Review one game's decisions by ``seats`` (all by default), up to its first finding."""
    review = plan_review(events, seats, settings)
    steps = decision_steps(events, review)
    review.decisions = review_steps(events, steps, settings, sampler=sampler, evaluator=evaluator)
    return review


def plan_review(
    events: Sequence[Event], seats: Sequence[int] | None, settings: Settings
) -> GameReview:
    """The review of a game (``events`` in seq order) before any decision is valued: its
    seats, and where the audit stops it (a log whose setup is faulty has nothing to review).
    ValueError for a review that cannot be made: a seat the table has not, an unknown policy."""
    rules = get_rules(events[0].kind)
    review = GameReview(events[0].game_id, rules.kind, score_unit(rules.kind), settings, [])
    if settings.policy not in rules.bots():
        policies = ", ".join(rules.bots())
        raise ValueError(f"no policy {settings.policy!r} for {rules.kind}; policies: {policies}")
    audit = audit_game(events)
    stops = [f.seq for f in audit.findings]
    if audit.stopped_at is not None:
        stops.append(audit.stopped_at)
    if events[0].type != "game_start" or events[0].seq != 0:
        stops.append(events[0].seq)
    if stops:
        review.stopped_at = min(stops)
        first = next((f for f in audit.findings if f.seq == review.stopped_at), None)
        review.stop_reason = (
            f"{first.rule}: {first.message}" if first else audit.stop_reason or "no game_start"
        )
    if review.stopped_at is not None and review.stopped_at <= events[0].seq:
        return review  # the setup itself is faulty: nothing to review
    players = rules.start(events[0]).n
    review.seats = sorted(set(seats)) if seats else list(range(players))
    wrong = [s for s in review.seats if not 0 <= s < players]
    if wrong:
        raise ValueError(f"no seat {wrong[0]} in a game of {players}")
    return review


def decision_steps(events: Sequence[Event], review: GameReview) -> list[int]:
    """The positions in ``events`` of the decisions to review (counting the forced ones in
    ``review.forced``)."""
    rules = get_rules(review.kind)
    steps: list[int] = []
    if not review.seats:
        return steps  # nothing to review (a faulty setup)
    for i, state, _, _ in _positions(rules, events, review):
        seat = events[i].player
        assert seat is not None
        if len(rules.legal_decisions(state, seat)) > 1:
            steps.append(i)
        else:
            review.forced[seat] = review.forced.get(seat, 0) + 1
    return steps


def review_steps(
    events: Sequence[Event],
    steps: Sequence[int],
    settings: Settings,
    *,
    sampler: HiddenSampler | None = None,
    evaluator: Evaluator | None = None,
) -> list[DecisionReview]:
    """The reviews of the decisions at ``steps`` (positions in ``events``)."""
    if not steps:
        return []
    kind = events[0].kind
    rules = get_rules(kind)
    judge = Judge(rules, settings, sampler or sampler_for(kind), evaluator)
    return [judge.review(events, *at) for at in _positions_at(rules, events, steps)]


def departures(events: Sequence[Event], steps: Sequence[int], settings: Settings) -> list[int]:
    """The steps among ``steps`` (positions in ``events``) where the move played is not the
    policy's own choice: the only decisions whose cost beyond the policy's move is not 0 by
    construction (a first pass over many games costs no rollout at the others)."""
    if not steps:
        return []
    rules = get_rules(events[0].kind)
    judge = Judge(rules, settings, sampler_for(rules.kind))
    out = []
    for i, state, _, _ in _positions_at(rules, events, steps):
        seat = events[i].player
        assert seat is not None
        legal = rules.legal_decisions(state, seat)
        if judge.policy_index(state, legal, events[i]) != _index_of(legal, events[i]):
            out.append(i)
    return out


def _positions_at(
    rules: Game[Any], events: Sequence[Event], steps: Sequence[int]
) -> Iterator[tuple[int, Any, Any, int]]:
    """:func:`_positions` at the decisions ``steps`` (positions in ``events``) alone."""
    wanted = set(steps)
    for at in _positions(rules, events, None, max(steps) + 1):
        if at[0] in wanted:
            yield at


def _positions(
    rules: Game[Any], events: Sequence[Event], review: GameReview | None, end: int | None = None
) -> Iterator[tuple[int, Any, Any, int]]:
    """Walk the log: for each decision by a reviewed seat (every decision without
    ``review``), its position, the state before it, and the state and position where its
    scoring unit began. The walk stops at the review's stop (the first finding) or ``end``."""
    unit = score_unit(rules.kind)
    state = rules.start(events[0])
    unit_state, unit_index, scored = state.clone(), 1, 0
    stop = len(events) if end is None else min(end, len(events))
    seats = set(review.seats) if review else None
    for i in range(1, stop):
        event = events[i]
        if review is not None and review.stopped_at is not None and event.seq >= review.stopped_at:
            return
        is_decision = rules.event_types.get(event.type) is Category.DECISION
        if is_decision and (seats is None or event.player in seats):
            yield i, state, unit_state, unit_index
        state = rules.apply(state, event)
        if event.type in unit.events:
            scored += 1
            if scored == state.n:  # every seat has its result: a new unit begins
                unit_state, unit_index, scored = state.clone(), i + 1, 0


# --------------------------------------------------------------------- one decision
class Judge:
    """Values the alternatives of decisions of one game kind."""

    def __init__(
        self,
        rules: Game[Any],
        settings: Settings,
        sampler: HiddenSampler,
        evaluator: Evaluator | None = None,
    ) -> None:
        self.rules = rules
        self.settings = settings
        self.sampler = sampler
        self.rollouts = Rollouts(rules, settings.policy)
        self.evaluator: Evaluator = evaluator or self.rollouts
        self.exact = evaluator is None  # the solver values the endgames of the default review
        self.unit = self.rollouts.unit
        #: Whether the default rollouts also count the payout (a game with money).
        self.payout = evaluator is None and bool(self.unit.payout)
        self.paid: dict[int, bool] = {}  # per seat, once a rollout has told

    def review(
        self, events: Sequence[Event], i: int, state: Any, unit_state: Any, unit_index: int
    ) -> DecisionReview:
        """The review of the decision ``events[i]`` (``state`` the true state before it)."""
        rules, settings, played = self.rules, self.settings, events[i]
        seat = played.player
        assert seat is not None
        legal = rules.legal_decisions(state, seat)
        chosen = _index_of(legal, played)
        name = _stream_name(settings, played)
        policy_move = self.policy_index(state, legal, played)
        picked = _alternatives(len(legal), chosen, policy_move, settings.max_alternatives, name)
        sign = 1.0 if self.unit.lower_is_better else -1.0
        moves = [legal[index] for index in picked]
        exact = self.exact and exact_play(rules.kind, state, played)
        values: list[list[float]] = [[] for _ in picked]
        payouts: list[list[float]] | None = [[] for _ in picked]
        mine = picked.index(chosen)
        most = settings.samples * settings.think_longer
        loss: Estimate | None = None
        while loss is None or (len(values[0]) < most and unsettled(loss, self.unit)):
            done = len(values[0])  # the first --samples, then the samples double
            deals = range(done, done + (done or settings.samples))
            more, paid = self.results(
                events, i, unit_state, unit_index, moves, f"{name}/", deals, exact=exact
            )
            _extend(values, more)
            payouts = None if payouts is None or paid is None else _extend(payouts, paid)
            costs = [[sign * x for x in v] for v in values]
            loss = mean_interval(held_out_loss(costs, mine))
        samples = len(values[0])
        best = _best(costs, mine, range(samples))
        ours = picked.index(policy_move)
        beyond = mean_interval([c - p for c, p in zip(costs[mine], costs[ours], strict=True)])
        expected, payout_loss = payout_figures(payouts, mine, len(picked))
        options = [
            Alternative(move_text(legal[i]), mean_interval(v), i == chosen, i == policy_move, p)
            for i, v, p in zip(picked, values, expected, strict=True)
        ]
        return DecisionReview(
            played.game_id, played.kind, played.seq, seat, played.type, move_text(played),
            move_text(legal[picked[best]]), len(legal), options, loss, label_of(loss, self.unit),
            self.visible_loss(state, played), payout_loss, beyond,
        )  # fmt: skip

    def policy_index(self, state: Any, legal: Sequence[Event], played: Event) -> int:
        """The position among ``legal`` of the policy's own choice at decision ``played``
        (``state`` before it; the policy's random stream seeded by the decision)."""
        seat = played.player
        assert seat is not None
        choice = self.rollouts.bot(state, seat, random.Random(_stream_name(self.settings, played)))
        return _index_of(legal, choice)

    def visible_loss(self, state: Any, played: Event) -> int | None:
        """The play's loss with all cards visible, where the solver costs little enough."""
        if not exact_play(self.rules.kind, state, played, visible=True):
            return None
        return visible_loss(state, played)

    def results(
        self,
        events: Sequence[Event],
        i: int,
        unit_state: Any,
        unit_index: int,
        moves: Sequence[Event],
        name: str,
        deals: range,
        *,
        exact: bool = False,
    ) -> tuple[list[list[float]], list[list[float]] | None]:
        """Each move's result for the seat of decision ``i`` on the sampled deals ``deals``
        (common random numbers: every move on the same deal and the same random stream);
        with ``exact``, each deal solved (:mod:`replay.review.exact`) instead. Beside them,
        each move's payout on the same rollouts, where the seat is paid (else None)."""
        seat = events[i].player
        assert seat is not None
        out: list[list[float]] = [[] for _ in moves]
        paid: list[list[float]] | None = None
        if self.payout and self.paid.get(seat, True) and not exact:
            paid = [[] for _ in moves]
        cards = [str(move.card) for move in moves]
        for j in deals:
            rng = random.Random(f"{name}{j}")
            world = self.world(events, i, seat, unit_state, unit_index, rng)
            stream = rng.getrandbits(64)
            if exact:  # every move on this deal valued at once, exactly
                for results, value in zip(out, exact_values(world, seat, cards), strict=True):
                    results.append(value)
                continue
            for a, move in enumerate(moves):
                after = apply_in_place(self.rules, world.clone(), move)
                if paid is None:
                    out[a].append(self.evaluator.value(after, seat, random.Random(stream)))
                    continue
                value, payout = self.rollouts.value_and_payout(after, seat, random.Random(stream))
                out[a].append(value)
                self.paid[seat] = payout is not None  # the stakes are the game's: told once
                if payout is None:
                    paid = None
                else:
                    paid[a].append(payout)
        return out, paid

    def world(
        self,
        events: Sequence[Event],
        i: int,
        seat: int,
        unit_state: Any,
        unit_index: int,
        rng: random.Random,
    ) -> Any:
        """The state before decision ``i`` in one deal of what ``seat`` cannot see: the log
        resampled, replayed from the start of the scoring unit (before it, nothing hidden
        bears on what follows)."""
        log = self.sampler.sample(events[:i], seat, rng)
        state = unit_state.clone()
        rules = self.rules
        for event in log[unit_index:i]:
            state = apply_in_place(rules, state, event)
        return state


def _stream_name(settings: Settings, played: Event) -> str:
    """The name that seeds every random stream of one decision's review."""
    return f"{settings.seed}/{played.game_id}/{played.seq}"


def _extend(values: list[list[float]], more: Sequence[Sequence[float]]) -> list[list[float]]:
    """``values`` (one list a move), each list extended by the same move's ``more``."""
    for mine, new in zip(values, more, strict=True):
        mine.extend(new)
    return values


def payout_figures(
    payouts: Sequence[Sequence[float]] | None, mine: int, count: int
) -> tuple[list[Estimate | None], Estimate | None]:
    """Each of the ``count`` alternatives' expected payout and the cross-fitted payout loss of
    alternative ``mine`` (more is better), from their payouts on the common samples; None each
    without payouts."""
    if not payouts or not payouts[0]:
        return [None] * count, None
    costs = [[-x for x in p] for p in payouts]
    return [mean_interval(p) for p in payouts], mean_interval(held_out_loss(costs, mine))


def _best(costs: Sequence[Sequence[float]], mine: int, samples: Iterable[int]) -> int:
    """The alternative of least mean cost over ``samples`` (the move played on a tie)."""
    kept = list(samples)
    totals = [sum(cost[j] for j in kept) for cost in costs]
    return min(range(len(costs)), key=lambda a: (totals[a], a != mine, a))


def held_out_loss(costs: Sequence[Sequence[float]], mine: int) -> list[float]:
    """The loss of alternative ``mine`` against the best, one value a sample, cross-fitted: the
    best is chosen on the odd samples for the even ones and the other way round, so that the
    luck that made a move look best is not counted in its lead (the loss of a move as good as
    any is then about 0, either side, not always above it)."""
    n = len(costs[mine])
    if n < 2:
        return [0.0] * n
    halves = (range(0, n, 2), range(1, n, 2))
    loss = []
    for held, chooser in (halves, halves[::-1]):
        best = _best(costs, mine, chooser)
        loss += [costs[mine][j] - costs[best][j] for j in held]
    return loss


def _index_of(legal: Sequence[Event], event: Event) -> int:
    """The position of ``event`` among the legal decisions (a pass's cards in any order)."""
    key = _move_key(event)
    for index, option in enumerate(legal):
        if _move_key(option) == key:
            return index
    raise ValueError(f"step {event.seq}: {move_text(event)} is not among the legal decisions")


def _move_key(event: Event) -> tuple[Any, ...]:
    cards = tuple(sorted(event.cards)) if event.cards is not None else None
    return event.type, event.player, event.target, event.card, cards, event.suit, event.amount


def _alternatives(legal: int, chosen: int, policy: int, limit: int, name: str) -> list[int]:
    """The legal moves valued: all of them up to ``limit``; beyond, the move played, the
    policy's and a seeded draw of the others."""
    if legal <= limit:
        return list(range(legal))
    kept = {chosen, policy}
    others = [i for i in range(legal) if i not in kept]
    kept.update(random.Random(f"{name}/alternatives").sample(others, max(limit - len(kept), 0)))
    return sorted(kept)


def unsettled(loss: Estimate, unit: ScoreUnit) -> bool:
    """Whether a decision is close: its loss's interval holds the least label's threshold, so
    that other deals could give it a label or take its label away."""
    return loss.low < unit.thresholds[0] <= loss.high


def label_of(loss: Estimate, unit: ScoreUnit) -> str | None:
    """The label of a loss: the worst whose threshold the interval's lower end reaches (the
    move lost at least that much, with 95% confidence; the interval then excludes 0)."""
    label = None
    for name, threshold in zip(LABELS, unit.thresholds, strict=True):
        if loss.low >= threshold:
            label = name
    return label


def move_text(event: Event) -> str:
    """A move as people read it: ``play QS``, ``pass 2C 3C 4C``, ``declare_suit E``, ``draw``."""
    parts = [event.type]
    if event.card is not None:
        parts.append(event.card)
    if event.cards is not None:
        parts.extend(sorted(event.cards))
    if event.suit is not None:
        parts.append(event.suit)
    return " ".join(parts)


# --------------------------------------------------------------------- summaries
def seat_summary(review: GameReview, seat: int, worst: int = 3) -> SeatSummary:
    """A seat's figures over the reviewed decisions of a game."""
    mine = [d for d in review.decisions if d.seat == seat]
    labels = {name: sum(d.label == name for d in mine) for name in LABELS}
    ranked = sorted((d for d in mine if d.loss.mean > 0), key=lambda d: (-d.loss.mean, d.seq))
    paid = [d.payout_loss.mean for d in mine if d.payout_loss is not None]
    return SeatSummary(
        seat, len(mine), review.forced.get(seat, 0),
        mean_interval([d.loss.mean for d in mine]),
        sum(not d.loss.excludes_zero() for d in mine), labels, ranked[:worst],
        mean_interval(paid) if paid else None, sum(d.agrees_with_policy for d in mine),
        mean_interval([d.beyond_policy.mean for d in mine]),
    )  # fmt: skip


# --------------------------------------------------------------------- many games, many cores
def review_games(
    games: Sequence[Sequence[Event]],
    settings: Settings = Settings(),
    seats: Sequence[int] | None = None,
    *,
    jobs: int = 1,
    problems: list[tuple[str, str]] | None = None,
) -> list[GameReview]:
    """Review several games (each in seq order), their decisions spread over ``jobs`` worker
    processes (the review is the same for any ``jobs``: every decision draws from its own
    seeded streams). With ``problems``, a game that cannot be reviewed (see
    :func:`plan_review`) is left out, its id and why added there; without, its ValueError is
    raised."""
    reviews: list[GameReview] = []
    kept: list[Sequence[Event]] = []
    for events in games:
        try:
            reviews.append(plan_review(events, seats, settings))
        except ValueError as exc:
            if problems is None:
                raise
            problems.append((events[0].game_id, str(exc)))
            continue
        kept.append(events)
    games = kept
    tasks = [
        (g, chunk)
        for g, review in enumerate(reviews)
        for chunk in _chunks(decision_steps(games[g], review), jobs)
    ]
    if jobs <= 1 or len(tasks) <= 1:
        done = [review_steps(games[g], steps, settings) for g, steps in tasks]
    else:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(jobs, mp_context=fork_context()) as pool:
            done = list(
                pool.map(
                    review_steps,
                    [games[g] for g, _ in tasks],
                    [steps for _, steps in tasks],
                    [settings] * len(tasks),
                )
            )
    for (g, _), decisions in zip(tasks, done, strict=True):
        reviews[g].decisions.extend(decisions)
    return reviews


def _chunks(steps: list[int], jobs: int) -> list[list[int]]:
    """``steps`` cut into about ``2 * jobs`` runs (one for one job), none empty."""
    if not steps:
        return []
    parts = 1 if jobs <= 1 else min(len(steps), 2 * jobs)
    size = -(-len(steps) // parts)
    return [steps[k : k + size] for k in range(0, len(steps), size)]
