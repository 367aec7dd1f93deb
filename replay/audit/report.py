"""Audit reports as text: a table for the terminal, Markdown, CSV, JSON or JSON Lines.

A report is written as it is read, a game at a time: from an :class:`~replay.audit.AuditReport`
in memory, or from a :class:`~replay.audit.spool.SpooledReport` that keeps the audits of a large
store on disk, so that printing the report of any store takes memory for one game, not for the
store.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, TextIO

from replay.audit.findings import AuditReport, Finding, GameAudit, problem_object
from replay.engine.cursor import cards_in_text
from replay.model.faces import plain_card_label
from replay.text import escaped, shown
from replay.words import counted

#: The columns of ``--format csv``: one row per finding.
CSV_COLUMNS = ("file", "game_id", "kind", "seq", "rule", "message", "event", "expected")

#: The file a game came from ('' when unknown).
Origins = Callable[[str], str]


class Adjustment(Protocol):
    """The adjusted result of a finding (:class:`replay.review.impact.Impact`)."""

    @property
    def summary(self) -> str: ...

    def to_dict(self) -> dict[str, Any]: ...


#: The adjusted results shown with the findings (``replay audit --impact``), by game id and seq.
Adjustments = Mapping[tuple[str, int], Adjustment]


@dataclass(slots=True)
class Counts:
    """What a report's summary counts, gathered a game at a time."""

    games: int = 0
    events: int = 0
    findings: int = 0
    faulty: int = 0  # games with at least one finding
    stopped: int = 0
    incomplete: int = 0
    internal_errors: int = 0

    def add(self, game: GameAudit) -> None:
        self.games += 1
        self.events += game.events
        self.findings += len(game.findings)
        self.faulty += bool(game.findings)
        self.stopped += game.stopped_at is not None
        self.incomplete += game.incomplete
        self.internal_errors += game.internal_error


def counts_of(games: Iterable[GameAudit]) -> Counts:
    """The counts of ``games``."""
    counts = Counts()
    for game in games:
        counts.add(game)
    return counts


def noteworthy(game: GameAudit) -> bool:
    """Whether a report says anything of ``game`` but count it (a finding, a stop, a wait)."""
    return bool(game.findings) or game.stopped_at is not None or game.incomplete


class Reported(Protocol):
    """What a report is written from: its games worth a line, in order, and its counts."""

    @property
    def problems(self) -> list[Any]: ...

    def noteworthy(self) -> Iterator[GameAudit]:
        """The games with a finding, a stop or a wait, in the report's order (kind, game id)."""
        ...

    def counts(self) -> Counts: ...


class InMemory:
    """An :class:`AuditReport` as a :class:`Reported`."""

    def __init__(self, report: AuditReport) -> None:
        self.report = report

    @property
    def problems(self) -> list[Any]:
        return self.report.problems

    def noteworthy(self) -> Iterator[GameAudit]:
        return (g for g in self.report.games if noteworthy(g))

    def counts(self) -> Counts:
        return counts_of(self.report.games)


def format_report(
    report: AuditReport, fmt: str = "table", origins: Mapping[str, str] | None = None
) -> str:
    """The report as ``table``, ``markdown``, ``json``, ``jsonl`` (one finding per line, then
    the games audited only in part and the unreadable inputs, each line with its ``record``
    type) or ``csv`` (one row per finding). ``origins`` maps a game id to the file it came
    from, named with each finding."""
    where = dict(origins or {})
    out = io.StringIO()
    write_report(InMemory(report), fmt, out, lambda game_id: where.get(game_id, ""))
    return out.getvalue()


def write_report(
    report: Reported, fmt: str, out: TextIO, where: Origins, impacts: Adjustments | None = None
) -> None:
    """Write ``report`` to ``out`` as :func:`format_report` formats it (no final newline),
    a game at a time; with ``impacts``, each finding's adjusted result beside it (an
    ``impact`` object in JSON, a line in a table or markdown; not in CSV)."""
    writers = {"json": _json, "jsonl": _jsonl, "csv": _csv, "markdown": _markdown}
    writers.get(fmt, _table)(report, out, where, impacts or {})


# --------------------------------------------------------------------------- JSON
def _findings(
    report: Reported, where: Origins, impacts: Adjustments | None = None
) -> Iterator[dict[str, Any]]:
    for game in report.noteworthy():
        for finding in game.findings:
            row = {**finding.to_dict(), "file": where(finding.game_id)}
            if impacts:
                impact = impacts.get((finding.game_id, finding.seq))
                row["impact"] = impact.to_dict() if impact is not None else None
            yield row


def _stopped(report: Reported) -> Iterator[dict[str, Any]]:
    for g in report.noteworthy():
        if g.stopped_at is not None:
            yield {
                "game_id": g.game_id,
                "kind": g.kind,
                "seq": g.stopped_at,
                "reason": g.stop_reason,
            }


def _incomplete(report: Reported) -> Iterator[dict[str, Any]]:
    for g in report.noteworthy():
        if g.waiting_seq is not None:
            yield {"game_id": g.game_id, "kind": g.kind, **(g.waiting() or {})}


def _dumps(value: Any, indent: int | None = None) -> str:
    return json.dumps(value, indent=indent, default=str, ensure_ascii=False)


def _json(
    report: Reported, out: TextIO, where: Origins, impacts: Adjustments | None = None
) -> None:
    """The report as one JSON document, the same text as ``json.dumps(..., indent=2)`` of
    :meth:`AuditReport.to_dict` with each finding's file, written an item at a time."""
    counts = report.counts()
    out.write(f'{{\n  "games": {counts.games},\n  "events": {counts.events},\n')
    problems = (problem_object(p) for p in report.problems)
    lists = [("findings", _findings(report, where, impacts)), ("stopped", _stopped(report)),
             ("incomplete", _incomplete(report)), ("problems", problems)]  # fmt: skip
    for i, (name, items) in enumerate(lists):
        out.write(f'  "{name}": ')
        _json_list(items, out)
        out.write(",\n" if i < len(lists) - 1 else "\n")
    out.write("}")


def _json_list(items: Iterable[Any], out: TextIO) -> None:
    """A list as a member of the top object (items indented by four spaces)."""
    empty = True
    for item in items:
        out.write("[\n    " if empty else ",\n    ")
        out.write(_dumps(item, 2).replace("\n", "\n    "))  # JSON strings hold no raw newline
        empty = False
    out.write("[]" if empty else "\n  ]")


def _jsonl(
    report: Reported, out: TextIO, where: Origins, impacts: Adjustments | None = None
) -> None:
    records = _records(report, where, impacts)
    first = next(records, None)
    if first is None:
        return
    out.write(_dumps(first))
    for record in records:
        out.write("\n" + _dumps(record))


def _records(
    report: Reported, where: Origins, impacts: Adjustments | None = None
) -> Iterator[dict[str, Any]]:
    for finding in _findings(report, where, impacts):
        game = finding["game_id"]
        yield {"record": "finding", "file": where(game), **finding}
    for stop in _stopped(report):
        yield {"record": "stopped", "file": where(stop["game_id"]), **stop}
    for wait in _incomplete(report):
        yield {"record": "incomplete", "file": where(wait["game_id"]), **wait}
    for problem in report.problems:
        yield {"record": "problem", "problem": problem_object(problem)}


# --------------------------------------------------------------------------- CSV
def _csv(report: Reported, out: TextIO, where: Origins, impacts: Adjustments | None = None) -> None:
    """One row per finding, after the header (no final newline)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for game in report.noteworthy():
        for f in game.findings:
            out.write(buffer.getvalue())
            buffer.seek(0)
            buffer.truncate()
            row = {"file": where(f.game_id), "game_id": f.game_id, "kind": f.kind,
                   "seq": f.seq, "rule": f.rule, "message": f.message, "event": f.event,
                   "expected": f.expected}  # fmt: skip
            writer.writerow([_csv_text(row[c]) for c in CSV_COLUMNS])
    out.write(buffer.getvalue().rstrip("\n"))


def _csv_text(value: Any) -> Any:
    """A cell's text with control characters escaped (numbers and nulls as they are)."""
    return escaped(value) if isinstance(value, str) else value


# --------------------------------------------------------------------------- text
def summary_line(counts: Counts, problems: int) -> str:
    """One line: games, events, findings, stops, unreadable input."""
    line = (
        f"{counted(counts.games, 'game')}, "
        f"{counted(counts.events, 'event')} audited: "
        f"{counted(counts.findings, 'finding')} in {counted(counts.faulty, 'game')}"
    )
    if counts.stopped:
        line += f"; {counted(counts.stopped, 'game')} could not be audited to the end"
    if counts.incomplete:
        line += f"; {counted(counts.incomplete, 'game')} incomplete (the log stops before the end)"
    if problems:
        line += f"; {counted(problems, 'input')} could not be read"
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
    """A finding as a text block, its cards as the faces show them (``--ascii``: codes)."""

    def words(text: str) -> str:
        return _text(cards_in_text(text, lambda w: plain_card_label(f.kind, w)))

    head = f"{clip(shown(f.game_id))}  seq {f.seq}  {f.rule}"
    lines = [f"{_text(origin)}: {head}" if origin else head, f"  finding:    {words(f.message)}"]
    if f.event:
        lines.append(f"  recorded:   {words(f.event)}")
    if f.expected:
        lines.append(f"  rules give: {words(f.expected)}")
    if f.state:
        lines.append(f"  state:      {words(f.state)}")
    lines.append(f"  rule:       {f.rule_text}")
    return "\n".join(lines)


def _text(text: str) -> str:
    """A text from a log (or quoting one) as a text report shows it: escaped, then clipped."""
    return clip(escaped(text))


def _table(
    report: Reported, out: TextIO, where: Origins, impacts: Adjustments | None = None
) -> None:
    """Each finding as a block, then the stops and waits, the unreadable input and the
    summary, a blank line between."""
    for game in report.noteworthy():
        for f in game.findings:
            out.write(_finding_block(f, where(f.game_id)) + "\n")
            impact = (impacts or {}).get((f.game_id, f.seq))
            if impact is not None:
                out.write(f"  adjusted result: {_text(impact.summary)}\n")
            out.write("\n")
    for g in report.noteworthy():
        if g.stopped_at is not None:
            stop = f"{shown(g.game_id)}: audit stopped at seq {g.stopped_at}: {g.stop_reason}"
            out.write(_text(stop) + "\n\n")
        if g.incomplete:
            wait = (
                f"{shown(g.game_id)}: incomplete, waits at seq {g.waiting_seq} for {g.waiting_for}"
            )
            out.write(_text(wait) + "\n\n")
    for p in report.problems:
        out.write(f"unreadable: {_text(p)}\n\n")
    out.write(summary_line(report.counts(), len(report.problems)))


def _cell(text: str) -> str:
    return _text(text).replace("|", "\\|")


def _markdown(
    report: Reported, out: TextIO, where: Origins, impacts: Adjustments | None = None
) -> None:
    counts = report.counts()
    out.write(f"# Audit report\n\n{summary_line(counts, len(report.problems))}\n")
    if counts.findings:
        out.write("\n| file | game | seq | rule | finding | expected |\n|---|---|---|---|---|---|")
        for game in report.noteworthy():
            for f in game.findings:
                out.write(
                    f"\n| {_cell(where(f.game_id))} | {_cell(shown(f.game_id))} | {f.seq} "
                    f"| {f.rule} | {_cell(f.message)} | {_cell(f.expected)} |"
                )
    if impacts:
        out.write("\n\n## Adjusted results\n")
        for key in sorted(impacts):
            out.write(f"\n- {_cell(shown(key[0]))}: {_cell(impacts[key].summary)}")
    if counts.stopped:
        out.write("\n\n## Games audited only in part\n")
        for g in report.noteworthy():
            if g.stopped_at is not None:
                stop = f"- {shown(g.game_id)}: stopped at seq {g.stopped_at}: {g.stop_reason}"
                out.write("\n" + _cell(stop))
    if report.problems:
        out.write("\n\n## Unreadable input\n")
        for p in report.problems:
            out.write(f"\n- {_cell(p)}")
