"""The adjusted result of a finding (docs/review.md, "Did the wrong ruling change the result?"):
had the irregularity not happened, what would the game's result have been?

As bridge's Law 12C1(c) weighs the likely outcomes, the game is played on from the corrected
state to its end many times: the state before the faulty event, with the event the rules give in
its place (a wrong ruling, a wrong field of a decision) or, for an illegal decision, a legal
move chosen by the review's policy, which then plays every seat to the end of the game. Each
rollout draws its chance events (later deals, draws) from its own seeded stream, so the same
seed gives the same result. The rollouts play on from the true state: the arbiter sees every
card.

A correction the log itself went on from (the next events are legal after the rules' ruling,
to the end: the table played as if the ruling had been right, or the field was cosmetic)
changes nothing: the adjusted result is the recorded one, exactly, with no rollout.

>>> from replay.games import get_rules
>>> from replay.engine.simulate import simulate_game
>>> import dataclasses
>>> events = simulate_game(get_rules("hearts"), "doc", players=4, seed=9)
>>> i = next(i for i, e in enumerate(events) if e.type == "trick_won")
>>> events[i] = dataclasses.replace(events[i], player=(events[i].player + 1) % 4)
>>> (impact,) = game_impacts(events, samples=4)
>>> impact.changes_nothing, impact.winner_change.mean
(True, 0.0)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any

from replay.audit import Finding, audit_game
from replay.engine import walk
from replay.games import get_rules
from replay.games.base import Game, Phase, RuleViolation, describe_payload
from replay.games.fast import apply_in_place
from replay.model.events import Category, Event
from replay.review import DEFAULT_IMPACT_SAMPLES, DEFAULT_POLICY
from replay.review.rollout import play_game
from replay.review.stats import Estimate, mean_interval, wilson
from replay.text import aligned


@dataclass(frozen=True, slots=True)
class SeatImpact:
    """One seat: its recorded final total and place, and their distribution once adjusted."""

    seat: int
    recorded_total: float | None
    recorded_place: int | None
    total: Estimate  # the final total over the rollouts (mean, 95% interval, rollouts)
    place: Estimate  # the final place (1 the best)
    places: tuple[float, ...]  # the share of rollouts ending in place 1, 2, ...

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "recorded_total": self.recorded_total,
            "recorded_place": self.recorded_place,
            "total": self.total.as_dict(),
            "place": self.place.as_dict(),
            "places": [round(p, 4) for p in self.places],
        }


@dataclass(frozen=True, slots=True)
class Impact:
    """The adjusted result of one finding."""

    game_id: str
    kind: str
    seq: int
    rule: str
    correction: str  # ``ruling``, ``policy`` (an illegal decision) or ``none`` (no adjustment)
    corrected: str  # what was put in place of the recorded event, in words
    changes_nothing: bool  # the log went on from the correction: adjusted = recorded
    samples: int  # rollouts played (0 when the result is exact or there is none)
    seed: int
    policy: str
    recorded_winners: tuple[int, ...] | None  # None: the log does not reach the game's end
    seats: tuple[SeatImpact, ...]
    winner_change: Estimate  # the share of rollouts whose winners differ from the recorded
    note: str = ""
    #: For an illegal decision played on: the same rollouts (the same streams) from the move as
    #: recorded: how often the winner differs from the recorded one anyway (later luck, the
    #: policy in place of the players), the figure to read ``winner_change`` against.
    baseline_change: Estimate | None = None

    @property
    def summary(self) -> str:
        """One line: ``HEARTS-FOLLOW at 10: winner changes in 12% (5%-25%, 64 rollouts)``."""
        head = f"{self.rule} at {self.seq}"
        if self.correction == "none":
            return f"{head}: no adjusted result ({self.note})"
        if self.changes_nothing:
            return f"{head}: changes nothing (the log went on from the rules' ruling)"
        w = self.winner_change
        if self.recorded_winners is None:
            return (
                f"{head}: adjusted over {self.samples} rollouts (no recorded result: {self.note})"
            )
        b = self.baseline_change
        against = f"; {b.mean:.0%} from the move as recorded" if b is not None else ""
        if self.note:
            against += f"; {self.note}"
        return (
            f"{head}: winner changes in {w.mean:.0%} ({w.low:.0%}-{w.high:.0%}, "
            f"{self.samples} rollouts{against})"
        )

    @property
    def headline(self) -> list[str]:
        """The method in a few lines, for a report: what replaced the event, how often."""
        if self.correction == "none":
            return [f"No adjusted result: {self.note}."]
        if self.changes_nothing:
            return [
                f"In place of the recorded event: {self.corrected}.",
                "The log went on as the rules' ruling requires, to the end of the game: "
                "the adjusted result is the recorded one.",
            ]
        lines = [
            f"In place of the recorded event: {self.corrected}; then the {self.policy} policy "
            f"plays every seat to the end of the game, {self.samples} times (seed {self.seed}), "
            "from the true state (the arbiter sees every card).",
        ]
        w = self.winner_change
        if self.recorded_winners is None:
            lines.append("The log does not reach the end of the game: no recorded result.")
        else:
            if self.note:
                lines.append(f"No recorded totals: {self.note}.")
            winners = ", ".join(str(s) for s in self.recorded_winners)
            lines.append(
                f"Recorded winner: seat {winners}. The winner changes in {w.mean:.0%} of the "
                f"rollouts (95% interval {w.low:.0%}-{w.high:.0%})."
            )
        b = self.baseline_change
        if b is not None:
            lines.append(
                f"From the move as recorded, the same rollouts change the winner in {b.mean:.0%} "
                f"({b.low:.0%}-{b.high:.0%}): the share owed to later luck and the policy."
            )
        return lines

    def table(self) -> tuple[list[str], list[list[str]]]:
        """Per seat: the recorded total and place beside the adjusted ones."""
        head = ["seat", "recorded total", "recorded place", "adjusted total (95%)",
                "adjusted place", "P(1st)"]  # fmt: skip
        rows = []
        for s in self.seats:
            t, p = s.total, s.place
            rows.append([
                str(s.seat), _number(s.recorded_total), _number(s.recorded_place),
                f"{t.mean:.1f}" + (f" ({t.low:.1f} to {t.high:.1f})" if t.n else ""),
                f"{p.mean:.2f}", f"{s.places[0]:.0%}" if s.places else "-",
            ])  # fmt: skip
        return head, rows

    def render(self) -> str:
        """The adjusted result as text for a terminal."""
        lines = ["adjusted result (had the irregularity not happened):"]
        lines += [f"  {line}" for line in self.headline]
        head, rows = self.table()
        if rows:
            table = aligned([head, *rows], right=range(len(head)))
            lines += [f"  {line}" for line in table.splitlines()]
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "kind": self.kind,
            "seq": self.seq,
            "rule": self.rule,
            "correction": self.correction,
            "corrected": self.corrected,
            "changes_nothing": self.changes_nothing,
            "samples": self.samples,
            "seed": self.seed,
            "policy": self.policy,
            "recorded_winners": (
                list(self.recorded_winners) if self.recorded_winners is not None else None
            ),
            "winner_change": self.winner_change.as_dict(),
            "baseline_change": self.baseline_change.as_dict() if self.baseline_change else None,
            "seats": [s.to_dict() for s in self.seats],
            "summary": self.summary,
            "note": self.note,
        }


def _number(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:g}"


# --------------------------------------------------------------------- results and places
def places_of(result: dict[str, Any], n: int) -> list[int]:
    """Each seat's place (1 the best, equal totals share a place) in a game's result: its
    ``places`` (seats in finishing order) when it has them, else its ``totals`` ranked in the
    direction that puts its ``winners`` first."""
    order = result.get("places")
    if order:
        return [order.index(s) + 1 if s in order else len(order) + 1 for s in range(n)]
    totals = list(result.get("totals") or [0] * n)
    winners = list(result.get("winners") or [])
    lower = bool(winners) and totals[winners[0]] == min(totals)
    sign = 1 if lower else -1
    return [1 + sum(sign * t < sign * mine for t in totals) for mine in totals]


Outcome = tuple[list[float], list[int], frozenset[int]]  # final totals, places, winners


def _outcome(rules: Game[Any], state: Any) -> Outcome:
    """The final totals, places and winners of a finished game's state."""
    result = rules.result(state)
    totals = [float(t) for t in result.get("totals") or [0] * state.n]
    return totals, places_of(result, state.n), frozenset(result.get("winners") or ())


# --------------------------------------------------------------------- one game
@dataclass(slots=True)
class _Walked:
    """What the audit's walk of a log gives the impacts: the state before each finding and
    the event the rules applied in its place, the final state."""

    before: dict[int, Any]
    applied: dict[int, Event | None]
    after: dict[int, Any]  # the state after an illegal decision applied as recorded
    final: Any


def _walk(rules: Game[Any], events: Sequence[Event], seqs: set[int]) -> _Walked:
    walked = _Walked({}, {}, {}, None)
    state = None
    steps = walk(rules, list(events))
    try:
        first = next(steps)
    except RuleViolation:  # the game cannot start: no state to play on from
        return walked
    for step in chain([first], steps):
        if step.event.seq + 1 in seqs and step.applied is not None:
            walked.before[step.event.seq + 1] = step.state.clone()
        if step.event.seq in seqs and step.violation is not None:
            walked.applied[step.event.seq] = step.violation.expected
            if step.violation.expected is None and step.applied is not None:
                walked.after[step.event.seq] = step.state.clone()
        state = step.state
    walked.final = state
    return walked


def game_impacts(
    events: Sequence[Event],
    *,
    samples: int = DEFAULT_IMPACT_SAMPLES,
    seed: int = 0,
    policy: str = DEFAULT_POLICY,
    steps: Sequence[int] | None = None,
) -> list[Impact]:
    """The adjusted result of each finding of one game (``events`` in seq order, from its
    ``game_start``), or of the findings at ``steps`` only. ValueError for an unknown policy."""
    rules = get_rules(events[0].kind)
    if policy not in rules.bots():
        names = ", ".join(rules.bots())
        raise ValueError(f"no policy {policy!r} for {rules.kind}; policies: {names}")
    every = audit_game(events).findings
    findings = [f for f in every if steps is None or f.seq in steps]
    if not findings:
        return []
    walked = _walk(rules, events, {f.seq for f in findings})
    final = walked.final
    recorded = _outcome(rules, final) if final is not None and final.over else None
    winners = recorded[2] if recorded is not None else _logged_winners(events)
    last = max(f.seq for f in every)
    settings = _Settings(samples, seed, policy)
    return [
        _impact(
            rules, f, walked, (recorded, winners), f.seq == last and recorded is not None, settings
        )
        for f in findings
    ]


@dataclass(frozen=True, slots=True)
class _Settings:
    samples: int
    seed: int
    policy: str


def _impact(
    rules: Game[Any],
    finding: Finding,
    walked: _Walked,
    result: tuple[Outcome | None, frozenset[int] | None],
    log_goes_on: bool,
    settings: _Settings,
) -> Impact:
    """One finding's impact (``result``: the recorded outcome, when the rules walk the log to
    its end, and the recorded winners; ``log_goes_on``: no later finding, and the log reaches
    the end)."""
    recorded, won = result
    before = walked.before.get(finding.seq)
    applied = walked.applied.get(finding.seq)
    winners = tuple(sorted(won)) if won is not None else None

    def impact(
        correction: str,
        corrected: str,
        seats: tuple[SeatImpact, ...],
        change: Estimate,
        samples: int = 0,
        note: str = "",
        nothing: bool = False,
        baseline: Estimate | None = None,
    ) -> Impact:
        return Impact(
            finding.game_id, finding.kind, finding.seq, finding.rule, correction, corrected,
            nothing, samples, settings.seed, settings.policy, winners, seats, change, note,
            baseline,
        )  # fmt: skip

    if before is None or (applied is None and not _is_decision(rules, before, finding)):
        return impact("none", "", (), _none(), note="the log cannot be played on from this event")
    if applied is not None and log_goes_on:
        assert recorded is not None
        seats = tuple(_exact_seat(s, recorded) for s in range(before.n))
        return impact("ruling", describe_payload(applied), seats, _none(), nothing=True)
    start = _corrected(rules, before, applied)
    outcomes = _rollouts(rules, start, finding, settings)
    played = walked.after.get(finding.seq)
    baseline = None
    if played is not None and won is not None:
        baseline = _winner_change(_rollouts(rules, played, finding, settings), won)
    corrected = (
        describe_payload(applied) if applied is not None
        else f"a legal move chosen by the {settings.policy} policy"
    )  # fmt: skip
    return impact(
        "ruling" if applied is not None else "policy", corrected,
        _seats(before.n, outcomes, recorded), _winner_change(outcomes, won),
        settings.samples, _missing(recorded, won), baseline=baseline,
    )  # fmt: skip


def _rollouts(rules: Game[Any], start: Any, finding: Finding, settings: _Settings) -> list[Outcome]:
    """The outcomes of ``settings.samples`` games played on from ``start`` (not changed), the
    ``j``-th drawing from the ``j``-th stream of the finding (common random numbers)."""
    out = []
    for j in range(settings.samples):
        rng = random.Random(f"{settings.seed}/{finding.game_id}/{finding.seq}/{j}")
        out.append(_outcome(rules, play_game(rules, start.clone(), settings.policy, rng)))
    return out


def _logged_winners(events: Sequence[Event]) -> frozenset[int] | None:
    """The winners the log's last ``game_end`` records (its ``values``), None without one."""
    end = next((e for e in reversed(events) if e.type == "game_end"), None)
    return frozenset(end.values) if end is not None and end.values is not None else None


def _missing(recorded: Outcome | None, winners: frozenset[int] | None) -> str:
    """What the recorded side lacks, in words ("" when nothing)."""
    if recorded is not None:
        return ""
    if winners is not None:
        return "the rules cannot walk the log to its end: the recorded winners are its game_end's"
    return "the log does not reach the end of the game"


def _corrected(rules: Game[Any], before: Any, applied: Event | None) -> Any:
    """The state the rollouts start from: the rules' event applied to (a copy of) the state
    before the finding; for an illegal decision, that state itself (the policy decides)."""
    return before.clone() if applied is None else apply_in_place(rules, before.clone(), applied)


def corrected_state(events: Sequence[Event], seq: int) -> Any | None:
    """The corrected state of the finding at ``seq`` of a game (``events`` in seq order): what
    the adjusted result's rollouts start from; None where there is no correction."""
    rules = get_rules(events[0].kind)
    walked = _walk(rules, events, {seq})
    before = walked.before.get(seq)
    if before is None or seq not in walked.applied:
        return None
    return _corrected(rules, before, walked.applied[seq])


def _is_decision(rules: Game[Any], state: Any, finding: Finding) -> bool:
    """Whether the faulty event was an illegal decision (a legal one may take its place)."""
    kind = rules.event_types.get(str((finding.event_data or {}).get("type")))
    return kind is Category.DECISION and rules.due(state).phase is Phase.DECISION


def _none() -> Estimate:
    return Estimate(0.0, 0.0, 0.0, 0)


def _exact_seat(seat: int, recorded: Outcome) -> SeatImpact:
    total, place = recorded[0][seat], recorded[1][seat]
    shares = tuple(1.0 if p == place else 0.0 for p in range(1, len(recorded[0]) + 1))
    return SeatImpact(seat, total, place, Estimate(total, total, total, 0),
                      Estimate(place, place, place, 0), shares)  # fmt: skip


def _seats(
    n: int,
    outcomes: list[Outcome],
    recorded: Outcome | None,
) -> tuple[SeatImpact, ...]:
    out = []
    for s in range(n):
        places = [o[1][s] for o in outcomes]
        shares = tuple(places.count(p) / len(places) for p in range(1, n + 1)) if places else ()
        out.append(SeatImpact(
            s, recorded[0][s] if recorded else None, recorded[1][s] if recorded else None,
            mean_interval([o[0][s] for o in outcomes]), mean_interval([float(p) for p in places]),
            shares,
        ))  # fmt: skip
    return tuple(out)


def _winner_change(
    outcomes: list[Outcome],
    winners: frozenset[int] | None,
) -> Estimate:
    """The share of rollouts whose winners differ from the recorded, with its Wilson interval."""

    if winners is None or not outcomes:
        return _none()
    changed = sum(o[2] != winners for o in outcomes)
    low, high = wilson(changed, len(outcomes))
    return Estimate(changed / len(outcomes), low, high, len(outcomes))
