"""Audit reports as text: a table for the terminal, Markdown, or JSON."""

from __future__ import annotations

import json

from replay.audit import AuditReport, Finding
from replay.text import escaped, shown


def format_report(report: AuditReport, fmt: str = "table") -> str:
    """The report in ``table``, ``markdown`` or ``json`` form."""
    if fmt == "json":
        return json.dumps(report.to_dict(), indent=2, default=str)
    if fmt == "markdown":
        return _markdown(report)
    return _table(report)


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


def _finding_block(f: Finding) -> str:
    lines = [f"{clip(shown(f.game_id))}  seq {f.seq}  {f.rule}", f"  finding:  {_text(f.message)}"]
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


def _table(report: AuditReport) -> str:
    parts = [_finding_block(f) for f in report.findings]
    for g in report.games:
        if g.stopped_at is not None:
            stop = f"{shown(g.game_id)}: audit stopped at seq {g.stopped_at}: {g.stop_reason}"
            parts.append(_text(stop))
    parts.extend(f"unreadable: {_text(p)}" for p in report.problems)
    parts.append(summary_line(report))
    return "\n\n".join(parts)


def _cell(text: str) -> str:
    return _text(text).replace("|", "\\|")


def _markdown(report: AuditReport) -> str:
    lines = [f"# Audit report\n\n{summary_line(report)}\n"]
    if report.findings:
        lines.append("| game | seq | rule | finding | expected |")
        lines.append("|---|---|---|---|---|")
        for f in report.findings:
            lines.append(
                f"| {_cell(shown(f.game_id))} | {f.seq} | {f.rule} | {_cell(f.message)} "
                f"| {_cell(f.expected)} |"
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
