"""A review written out: one JSON document (``docs/schemas/cli-review.schema.json``), one
decision a line (``jsonl``, ``csv``), or a report for people (``table``, ``markdown``,
``html``)."""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from typing import Any

from replay.review.engine import LABELS, Alternative, DecisionReview, GameReview, SeatSummary
from replay.review.stats import Estimate

#: The columns of a decision row (``csv``; ``jsonl`` adds the alternatives).
DECISION_COLUMNS = (
    "game_id", "kind", "seq", "seat", "type", "played", "best", "legal", "loss", "loss_low",
    "loss_high", "label", "visible_loss",
)  # fmt: skip
#: The columns of the move's cost beyond the policy's move (``csv``: after DECISION_COLUMNS).
POLICY_COLUMNS = ("agrees", "beyond_policy", "beyond_policy_low", "beyond_policy_high")
#: The payout columns a decision row adds (``csv``: after DECISION_COLUMNS; empty where the
#: seat is not paid).
PAYOUT_COLUMNS = ("payout_loss", "payout_loss_low", "payout_loss_high")


def _rounded(estimate: Estimate | None) -> dict[str, float] | None:
    """An estimate's mean and interval (None stays None)."""
    if estimate is None:
        return None
    return {k: v for k, v in estimate.as_dict().items() if k != "n"}


def _columns(name: str, estimate: Estimate | None) -> dict[str, float | None]:
    """An estimate as the three columns ``name``, ``name_low``, ``name_high`` (None each for
    None)."""
    rounded = _rounded(estimate) or dict.fromkeys(("mean", "low", "high"))
    return {name: rounded["mean"], f"{name}_low": rounded["low"], f"{name}_high": rounded["high"]}


def decision_row(decision: DecisionReview) -> dict[str, Any]:
    """A decision as one flat record (its alternatives as a list)."""
    return {
        "game_id": decision.game_id,
        "kind": decision.kind,
        "seq": decision.seq,
        "seat": decision.seat,
        "type": decision.type,
        "played": decision.played,
        "best": decision.best,
        "legal": decision.legal,
        **_columns("loss", decision.loss),
        "label": decision.label,
        "visible_loss": decision.visible_loss,
        **_columns("payout_loss", decision.payout_loss),
        "agrees": decision.agrees_with_policy,
        **_columns("beyond_policy", decision.beyond_policy),
        "alternatives": [
            {
                "move": a.move,
                **{k: v for k, v in a.value.as_dict().items() if k != "n"},
                "payout": _rounded(a.payout),
                "chosen": a.chosen,
                "policy": a.policy,
            }
            for a in decision.alternatives
        ],
    }


def _share_dict(share: tuple[float, float, float]) -> dict[str, float]:
    return dict(zip(("share", "low", "high"), (round(x, 3) for x in share), strict=True))


def summary_dict(summary: SeatSummary) -> dict[str, Any]:
    return {
        "seat": summary.seat,
        "decisions": summary.decisions,
        "forced": summary.forced,
        "mean_loss": summary.loss.as_dict(),
        "mean_payout_loss": summary.payout_loss.as_dict() if summary.payout_loss else None,
        "accuracy": _share_dict(summary.accuracy),
        "agreement": _share_dict(summary.agreement),
        "mean_beyond_policy": summary.beyond_policy.as_dict(),
        "labels": summary.labels,
        "worst": [decision_row(d) for d in summary.worst],
    }


def review_dict(review: GameReview) -> dict[str, Any]:
    """One game's review as data (the ``games`` items of the JSON document)."""
    unit = review.unit
    return {
        "game_id": review.game_id,
        "kind": review.kind,
        "unit": unit.unit,
        "measure": unit.measure,
        "lower_is_better": unit.lower_is_better,
        "paid": paid(review),
        "thresholds": dict(zip(LABELS, unit.thresholds, strict=True)),
        "reviewed_to": review.stopped_at,
        "stop_reason": review.stop_reason or None,
        "seats": [summary_dict(s) for s in review.summaries()],
        "decisions": [decision_row(d) for d in review.decisions],
    }


def review_document(reviews: Sequence[GameReview]) -> dict[str, Any]:
    """The whole review: its settings and every game."""
    settings = reviews[0].settings if reviews else None
    return {
        "settings": {
            "samples": settings.samples,
            "seed": settings.seed,
            "policy": settings.policy,
            "max_alternatives": settings.max_alternatives,
            "think_longer": settings.think_longer,
        }
        if settings
        else None,
        "games": [review_dict(r) for r in reviews],
    }


# --------------------------------------------------------------------- for people
def _interval(mean: float, low: float, high: float) -> str:
    return f"{mean:.2f} [{low:.2f}, {high:.2f}]"


def _stop_line(review: GameReview) -> str | None:
    if review.stopped_at is None:
        return None
    return f"reviewed up to step {review.stopped_at}, the first audit finding: {review.stop_reason}"


def paid(review: GameReview) -> bool:
    """Whether the review gives payouts (a seat paid at a table with money)."""
    return any(d.payout_loss is not None for d in review.decisions)


def _game_head(review: GameReview) -> str:
    unit = review.unit
    better = "lower" if unit.lower_is_better else "higher"
    settings = review.settings
    money = "; payout in minor units (higher is better)" if paid(review) else ""
    return (
        f"{review.kind} game {review.game_id}: loss in {unit.measure} per {unit.unit} "
        f"({better} is better){money}, {settings.samples} samples, policy {settings.policy}, "
        f"seed {settings.seed}"
    )


def _estimate_words(estimate: Estimate | None) -> str:
    return "-" if estimate is None else _interval(estimate.mean, estimate.low, estimate.high)


def _share_words(share: tuple[float, float, float]) -> str:
    return f"{100 * share[0]:.0f}% [{100 * share[1]:.0f}, {100 * share[2]:.0f}]"


def _summary_cells(summary: SeatSummary, money: bool = False) -> list[str]:
    loss = summary.loss
    labels = ", ".join(f"{v} {k}" for k, v in summary.labels.items() if v) or "-"
    worst = ", ".join(f"#{d.seq} {d.played} ({d.loss.mean:.2f})" for d in summary.worst) or "-"
    cells = [
        str(summary.seat), str(summary.decisions), str(summary.forced),
        _interval(loss.mean, loss.low, loss.high), _share_words(summary.accuracy),
        _share_words(summary.agreement), _estimate_words(summary.beyond_policy), labels, worst,
    ]  # fmt: skip
    return [*cells, _estimate_words(summary.payout_loss)] if money else cells


SUMMARY_HEADERS = (
    "seat", "decisions", "forced", "mean loss [95%]", "accuracy", "policy's move",
    "beyond the policy [95%]", "labels", "worst",
)  # fmt: skip
DECISION_HEADERS = (
    "step", "seat", "played", "best", "loss [95%]", "label", "all cards visible", "alternatives",
)  # fmt: skip
#: The column a review with payouts adds to each table.
PAYOUT_SUMMARY_HEADER, PAYOUT_DECISION_HEADER = "mean payout loss [95%]", "payout loss [95%]"


def _tables(review: GameReview) -> list[tuple[tuple[str, ...], list[list[str]]]]:
    """A game's seats and its decisions, each as (headers, rows) of a table, with the payout
    columns where the review gives payouts."""
    money = paid(review)
    seats = [_summary_cells(s, money) for s in review.summaries()]
    decisions = [_decision_cells(d, money) for d in review.decisions]
    if not money:
        return [(SUMMARY_HEADERS, seats), (DECISION_HEADERS, decisions)]
    return [
        ((*SUMMARY_HEADERS, PAYOUT_SUMMARY_HEADER), seats),
        ((*DECISION_HEADERS, PAYOUT_DECISION_HEADER), decisions),
    ]


def visible_words(decision: DecisionReview) -> str:
    """The play's loss with all cards visible, or ``-`` where it was not solved."""
    return "-" if decision.visible_loss is None else str(decision.visible_loss)


def _alternative_words(a: Alternative) -> str:
    """``*play 3S 2.10 [1.90, 2.30]`` (the move played starred), with its payout if any."""
    words = f"{'*' if a.chosen else ''}{a.move} {_estimate_words(a.value)}"
    return words if a.payout is None else f"{words} payout {_estimate_words(a.payout)}"


def _decision_cells(d: DecisionReview, money: bool = False) -> list[str]:
    alternatives = "; ".join(_alternative_words(a) for a in d.alternatives)
    if d.legal > len(d.alternatives):
        alternatives += f" ({len(d.alternatives)} of {d.legal} legal)"
    cells = [
        str(d.seq), str(d.seat), d.played, d.best,
        _interval(d.loss.mean, d.loss.low, d.loss.high), d.label or "", visible_words(d),
        alternatives,
    ]  # fmt: skip
    return [*cells, _estimate_words(d.payout_loss)] if money else cells


def review_text(reviews: Sequence[GameReview]) -> str:
    """The review as plain text: per game, its decisions then its seats."""
    blocks = []
    for review in reviews:
        lines = [_game_head(review)]
        stop = _stop_line(review)
        if stop:
            lines.append(f"  {stop}")
        for d in review.decisions:
            cells = _decision_cells(d)
            label = f"  {cells[5].upper()}" if cells[5] else ""
            visible = f"  all cards visible {cells[6]}" if d.visible_loss is not None else ""
            money = (
                "" if d.payout_loss is None else f"  payout loss {_estimate_words(d.payout_loss)}"
            )
            lines.append(
                f"  #{cells[0]:>4} seat {cells[1]}  {cells[2]:<16} best {cells[3]:<16} "
                f"loss {cells[4]}{label}{visible}{money}"
            )
        headers, rows = _tables(review)[0]
        lines.append("  " + " | ".join(headers))
        lines.extend("  " + " | ".join(row) for row in rows)
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) or "no games"


def _markdown_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"

    return [line(headers), line(["---"] * len(headers)), *(line(r) for r in rows)]


def review_markdown(reviews: Sequence[GameReview]) -> str:
    """The review as Markdown: per game, the seats' figures then every decision."""
    out = ["# Review", ""]
    for review in reviews:
        out += [f"## {_game_head(review)}", ""]
        stop = _stop_line(review)
        if stop:
            out += [f"*{stop}*", ""]
        for headers, rows in _tables(review):
            out += [*_markdown_table(headers, rows), ""]
    return "\n".join(out)


def review_html(reviews: Sequence[GameReview]) -> str:
    """The review as one standalone HTML page."""

    def table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
        head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
        body = "".join(
            "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows
        )
        return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"

    parts = [
        "<!doctype html><html><head><meta charset='utf-8'><title>Review</title>"
        "<style>body{font-family:sans-serif}table{border-collapse:collapse;margin:1em 0}"
        "td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}</style></head><body>"
        "<h1>Review</h1>"
    ]
    for review in reviews:
        parts.append(f"<h2>{html.escape(_game_head(review))}</h2>")
        stop = _stop_line(review)
        if stop:
            parts.append(f"<p><em>{html.escape(stop)}</em></p>")
        parts.extend(table(headers, rows) for headers, rows in _tables(review))
    parts.append("</body></html>")
    return "\n".join(parts)


# --------------------------------------------------------------------- one decision, for a replay
def ranked_alternatives(decision: DecisionReview, lower_is_better: bool) -> list[dict[str, str]]:
    """A decision's alternatives, best first, as a replay shows them: ``mark`` (``played``,
    ``policy``, both or none), ``move``, ``expected`` (mean [95% interval]) and, where the
    seat is paid, ``payout`` (the expected payout, mean [95% interval])."""
    ranked = sorted(
        decision.alternatives, key=lambda a: a.value.mean if lower_is_better else -a.value.mean
    )
    return [
        {
            "mark": " · ".join(m for m, on in (("played", a.chosen), ("policy", a.policy)) if on),
            "move": a.move,
            "expected": _interval(a.value.mean, a.value.low, a.value.high),
            **({} if a.payout is None else {"payout": _estimate_words(a.payout)}),
        }
        for a in ranked
    ]


def loss_words(decision: DecisionReview) -> str:
    """The loss of the move played and its label, or why it has none."""
    loss = decision.loss
    if decision.label:
        verdict = decision.label
    elif loss.excludes_zero():
        verdict = "below the inaccuracy threshold"
    else:
        verdict = "no label: the interval includes 0"
    valued = ""
    if decision.legal > len(decision.alternatives):
        valued = f" ({len(decision.alternatives)} of {decision.legal} legal moves valued)"
    visible = ""
    if decision.visible_loss is not None:
        visible = f"; with all cards visible {decision.visible_loss}"
    paid = ""
    if decision.payout_loss is not None:
        paid = f"; payout loss {_estimate_words(decision.payout_loss)}"
    policy = "; the policy's move"
    if not decision.agrees_with_policy:
        policy = f"; beyond the policy's move {_estimate_words(decision.beyond_policy)}"
    return f"loss {_estimate_words(loss)}: {verdict}{valued}{policy}{visible}{paid}"


def review_caption(review: GameReview) -> str:
    """What a game's review is made with, in what unit, and how many decisions it labels."""
    unit, settings = review.unit, review.settings
    better = "lower" if unit.lower_is_better else "higher"
    labelled = sum(d.label is not None for d in review.decisions)
    return (
        f"Expected {unit.measure} per {unit.unit} for the seat deciding ({better} is better), "
        f"95% intervals; policy {settings.policy}, {settings.samples} samples of the hidden "
        f"cards per decision, seed {settings.seed}; {len(review.decisions)} decisions reviewed, "
        f"{labelled} labelled."
        + (" Payouts in the stakes' minor units, higher is better." if paid(review) else "")
    )


def stop_words(review: GameReview) -> str | None:
    """Where the audit stopped the review, and why (None: the whole game)."""
    return _stop_line(review)


def review_jsonl(reviews: Sequence[GameReview]) -> str:
    """One decision a line."""
    return "\n".join(
        json.dumps(decision_row(d), ensure_ascii=False) for r in reviews for d in r.decisions
    )
