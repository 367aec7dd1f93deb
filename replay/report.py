"""Audit reports as text: a table for the terminal, Markdown, or JSON."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping
from typing import Any

from replay.audit import AuditReport, Finding
from replay.text import escaped, shown

#: The columns of ``--format csv``: one row per finding.
CSV_COLUMNS = ("file", "game_id", "kind", "seq", "rule", "message", "event", "expected")


def format_report(
    report: AuditReport, fmt: str = "table", origins: Mapping[str, str] | None = None
) -> str:
    """The report as ``table``, ``markdown``, ``json``, ``jsonl`` (one finding per line, then
    the games audited only in part and the unreadable inputs, each line with its ``record``
    type) or ``csv`` (one row per finding). ``origins`` maps a game id to the file it came
    from, named with each finding."""
    where = dict(origins or {})
    if fmt == "json":
        data = report.to_dict()
        for finding in data["findings"]:
            finding["file"] = where.get(finding.get("game_id", finding.get("game", "")), "")
        return json.dumps(data, indent=2, default=str, ensure_ascii=False)
    if fmt == "jsonl":
        return "\n".join(
            json.dumps(r, default=str, ensure_ascii=False) for r in _records(report, where)
        )
    if fmt == "csv":
        return _csv(report, where)
    if fmt == "markdown":
        return _markdown(report, where)
    return _table(report, where)


def _records(report: AuditReport, where: Mapping[str, str]) -> list[dict[str, Any]]:
    data = report.to_dict()
    out: list[dict[str, Any]] = []
    for finding in data["findings"]:
        game = finding.get("game_id", finding.get("game", ""))
        out.append({"record": "finding", "file": where.get(game, ""), **finding})
    out += [
        {"record": "stopped", "file": where.get(s["game_id"], ""), **s} for s in data["stopped"]
    ]
    out += [
        {"record": "incomplete", "file": where.get(g["game_id"], ""), **g}
        for g in data["incomplete"]
    ]
    out += [{"record": "problem", "problem": p} for p in data["problems"]]
    return out


def _csv(report: AuditReport, where: Mapping[str, str]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for f in report.findings:
        row = {"file": where.get(f.game_id, ""), "game_id": f.game_id, "kind": f.kind,
               "seq": f.seq, "rule": f.rule, "message": f.message, "event": f.event,
               "expected": f.expected}  # fmt: skip
        writer.writerow([row[c] for c in CSV_COLUMNS])
    return out.getvalue().rstrip("\n")


def summary_line(report: AuditReport) -> str:
    """One line: games, events, findings, stops, unreadable input."""
    findings = report.findings
    faulty = len({f.game_id for f in findings})
    stopped = sum(1 for g in report.games if g.stopped_at is not None)
    line = (
        f"{len(report.games)} games, {report.events} events audited: "
        f"{len(findings)} findings in {faulty} games"
    )
    if stopped:
        line += f"; {stopped} games could not be audited to the end"
    incomplete = sum(1 for g in report.games if g.incomplete)
    if incomplete:
        line += f"; {incomplete} games incomplete (the log stops before the end)"
    if report.problems:
        line += f"; {len(report.problems)} inputs could not be read"
    return line


#: The most characters of one recorded value a text report shows (a 100 kB card code or a deal
#: of millions of cards is cut; the JSON report keeps everything).
MAX_SHOWN = 400


def clip(text: str, limit: int = MAX_SHOWN) -> str:
    """``text``, cut to ``limit`` characters with a note of how much was left out.

    >>> clip("x" * 10, 4)
    'xxxx... (6 more characters)'
    """
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit} more characters)"


def _finding_block(f: Finding, origin: str = "") -> str:
    head = f"{clip(shown(f.game_id))}  seq {f.seq}  {f.rule}"
    lines = [f"{_text(origin)}: {head}" if origin else head, f"  finding:  {_text(f.message)}"]
    if f.event:
        lines.append(f"  event:    {_text(f.event)}")
    if f.expected:
        lines.append(f"  expected: {_text(f.expected)}")
    if f.state:
        lines.append(f"  state:    {_text(f.state)}")
    lines.append(f"  rule:     {f.rule_text}")
    return "\n".join(lines)


def _text(text: str) -> str:
    """A text from a log (or quoting one) as a text report shows it: escaped, then clipped."""
    return clip(escaped(text))


def _table(report: AuditReport, where: Mapping[str, str]) -> str:
    parts = [_finding_block(f, where.get(f.game_id, "")) for f in report.findings]
    for g in report.games:
        if g.stopped_at is not None:
            stop = f"{shown(g.game_id)}: audit stopped at seq {g.stopped_at}: {g.stop_reason}"
            parts.append(_text(stop))
        if g.incomplete:
            wait = (
                f"{shown(g.game_id)}: incomplete, waits at seq {g.waiting_seq} for {g.waiting_for}"
            )
            parts.append(_text(wait))
    parts.extend(f"unreadable: {_text(p)}" for p in report.problems)
    parts.append(summary_line(report))
    return "\n\n".join(parts)


def _cell(text: str) -> str:
    return _text(text).replace("|", "\\|")


def _markdown(report: AuditReport, where: Mapping[str, str]) -> str:
    lines = [f"# Audit report\n\n{summary_line(report)}\n"]
    if report.findings:
        lines.append("| file | game | seq | rule | finding | expected |")
        lines.append("|---|---|---|---|---|---|")
        for f in report.findings:
            lines.append(
                f"| {_cell(where.get(f.game_id, ''))} | {_cell(shown(f.game_id))} | {f.seq} "
                f"| {f.rule} | {_cell(f.message)} | {_cell(f.expected)} |"
            )
    stopped = [g for g in report.games if g.stopped_at is not None]
    if stopped:
        lines.append("\n## Games audited only in part\n")
        lines.extend(
            _cell(f"- {shown(g.game_id)}: stopped at seq {g.stopped_at}: {g.stop_reason}")
            for g in stopped
        )
    if report.problems:
        lines.append("\n## Unreadable input\n")
        lines.extend(f"- {_cell(p)}" for p in report.problems)
    return "\n".join(lines)
