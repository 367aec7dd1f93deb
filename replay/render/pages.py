"""Pages to send: a dispute report (Markdown or HTML) and a single-file HTML replay of a game.

Both are self-contained: no network, no external URL, cards drawn as inline SVG
(:mod:`replay.render.svg`), styles and the replay's step controls inline. A dispute report holds the
game, the position before the disputed event drawn as a table of cards, the event, the verdict
(with the fields that differ, or the cards that made a decision illegal), and the rule with its
text. Every text from a log is escaped.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from html import escape
from typing import TYPE_CHECKING, Any

from replay.audit import audit_game
from replay.audit.explain import Verdict
from replay.engine.cursor import CONTINUES_WORDS, Cursor, cards_in_text, event_words
from replay.games import UnknownGame, get_rules
from replay.model.events import Event
from replay.model.faces import plain_card_label
from replay.model.rulebook import rule_text
from replay.render.svg import card_svg, cards_html
from replay.review.impact import Impact
from replay.review.report import (
    loss_words,
    paid,
    ranked_alternatives,
    review_caption,
    stop_words,
)
from replay.text import escaped

if TYPE_CHECKING:
    from replay.review.engine import GameReview

_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:2em auto;
max-width:60em;color:#212121;line-height:1.4;padding:0 1em}
h1{font-size:1.5em}h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #ddd}
table.seats{border-collapse:collapse}table.seats td,table.seats th{padding:.3em .6em;
text-align:left;vertical-align:middle;border-bottom:1px solid #eee}
.verdict{padding:.6em 1em;border-radius:6px;font-weight:600}
.bad{background:#fdecea;border-left:5px solid #c62828}
.good{background:#e8f5e9;border-left:5px solid #2e7d32}
.rule{background:#f5f5f5;padding:.6em 1em;border-radius:6px}
code{background:#f5f5f5;padding:0 .3em;border-radius:3px}
.controls button{font-size:1em;margin:0 .15em;padding:.2em .6em}
.muted{color:#757575}
"""


# --------------------------------------------------------------------- what both pages show
def position_before(events: Sequence[Event], seq: int) -> dict[str, Any] | None:
    """The omniscient state view just before the event of seq ``seq`` (None: none exists,
    or the log cannot be replayed that far)."""
    if seq <= 0:
        return None
    try:
        cursor = Cursor(get_rules(events[0].kind), events)
        cursor.seek(seq - 1)
    except (UnknownGame, ValueError, IndexError):
        return None
    return cursor.view(None)


def _label(kind: str, code: str) -> str:
    """A card in text: rank and mark, or its code where the marks alone do not tell the suits
    apart (Hiifuu's and Fou!'s colours, which text has not)."""
    return plain_card_label(kind, code)


def _labels(kind: str, codes: Sequence[str] | None) -> str:
    return " ".join(_label(kind, c) for c in codes or []) or "—"


def _md(text: str) -> str:
    """A log text for Markdown: escaped controls, no table pipes, no HTML."""
    return escape(escaped(text), quote=False).replace("|", "\\|")


def _seat_rows(view: Mapping[str, Any]) -> list[tuple[int, str, Any, list[str] | None, str]]:
    """(seat, name, total, hand, the card on the table) per seat."""
    names = view.get("names") or []
    totals = view.get("totals") or []
    hands = view.get("hands") or []
    table = {e.get("seat"): str(e.get("card")) for e in view.get("table") or []}
    rows = []
    for seat in range(int(view.get("players", 0))):
        rows.append(
            (
                seat,
                str(names[seat]) if seat < len(names) else "",
                totals[seat] if seat < len(totals) else None,
                hands[seat] if seat < len(hands) else None,
                table.get(seat, ""),
            )
        )
    return rows


def _loose(view: Mapping[str, Any]) -> list[str]:
    """The cards on the table that belong to no seat (Hez2's exposed card)."""
    return [str(e.get("card")) for e in view.get("table") or [] if e.get("seat") is None]


# --------------------------------------------------------------------- the dispute report
def dispute_report(
    events: Sequence[Event], verdict: Verdict, origin: str, fmt: str, impact: Impact | None = None
) -> str:
    """The report on one disputed event as ``markdown`` or ``html`` (with its adjusted result
    when ``impact`` is given)."""
    view = position_before(events, verdict.seq)
    if fmt == "html":
        return _dispute_html(events, verdict, origin, view, _impact_html(impact))
    return _dispute_markdown(events, verdict, origin, view) + _impact_markdown(impact)


def _impact_markdown(impact: Impact | None) -> str:
    """The section "Had the irregularity not happened" of a markdown report."""
    if impact is None:
        return ""
    head, rows = impact.table()
    out = ["", "## Had the irregularity not happened", ""]
    out += [_md(line) for line in impact.headline]
    if rows:
        out += ["", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        out += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(out) + "\n"


def _impact_html(impact: Impact | None) -> str:
    """The section "Had the irregularity not happened" of an HTML report."""
    if impact is None:
        return ""
    head, rows = impact.table()
    body = ["<h2>Had the irregularity not happened</h2>"]
    body += [f"<p>{_html(line)}</p>" for line in impact.headline]
    if rows:
        body.append('<table class="impact"><tr>' + "".join(f"<th>{h}</th>" for h in head) + "</tr>")
        body += ["<tr>" + "".join(f"<td>{_html(v)}</td>" for v in row) + "</tr>" for row in rows]
        body.append("</table>")
    return "\n".join(body)


def _dispute_markdown(
    events: Sequence[Event], v: Verdict, origin: str, view: Mapping[str, Any] | None
) -> str:
    kind = v.kind
    players = ", ".join(_md(n) for n in v.names) or "—"
    out = [
        f"# Dispute: game {_md(v.game_id)} ({kind}), step {v.seq}",
        "",
        f"- file: `{_md(origin)}`",
        f"- players: {players}",
        f"- events in the log: {len(events)}",
        "",
        "## The position before the event",
        "",
    ]
    if view is None:
        out += ["```", escaped(v.before), "```"]
    else:
        out += [
            f"round {view.get('round') or '—'}, trick {view.get('trick') or '—'}",
            "",
            "| seat | name | total | on the table | hand |",
            "|---|---|---|---|---|",
        ]
        for seat, name, total, hand, played in _seat_rows(view):
            shown = _labels(kind, hand) if hand is not None else "(hidden)"
            on_table = _label(kind, played) if played else ""
            total_text = "—" if total is None else str(total)
            out.append(f"| {seat} | {_md(name)} | {total_text} | {on_table} | {shown} |")
        loose = _loose(view)
        if loose:
            out += ["", f"table: {_labels(kind, loose)}"]
    out += [
        "",
        "## The event",
        "",
        f"{'event' if v.ok else 'recorded'}: `{_md(_words(v, v.event))}` ({v.category})",
        "",
        "## Verdict",
        "",
        f"**{_md(_notation(v, v.sentence))}**",
    ]
    if v.differs:
        out += ["", "What differs (recorded vs the rules):", ""]
        out += [f"- {_md(_notation(v, d.words))}" for d in v.differs]
    if v.cards:
        out += ["", f"Cards concerned: {_labels(kind, v.cards)} ({' '.join(v.cards)})"]
    given = _given(v)
    if given:
        out += ["", f"The rules give: `{_md(given)}`"]
    if v.rule:
        out += ["", "## The rule", "", f"**{v.rule}**: {_md(rule_text(v.rule))}"]
    if _continues(v):
        out += ["", f"Play continues from: {_continues(v)}"]
    return "\n".join(out) + "\n"


def _words(v: Verdict, event: Event) -> str:
    """An event in words, seats named, cards in the faces' notation."""
    return event_words(event, v.names, lambda code: _label(v.kind, code))


def _notation(v: Verdict, text: str) -> str:
    """A verdict's text with its card codes in the faces' notation."""
    return cards_in_text(text, lambda code: _label(v.kind, code))


def _given(v: Verdict) -> str:
    """What the rules give in place of the recorded event, in words ('' when nothing)."""
    given = None if v.outcome is None else v.outcome.rules_event
    return _words(v, given) if given is not None else v.expected


def _continues(v: Verdict) -> str:
    """The state play continues from, for an event the rules do not accept ('' otherwise)."""
    return "" if v.ok or v.outcome is None else CONTINUES_WORDS[v.outcome.continues]


def _cards(kind: str, codes: Sequence[str | None], width: int = 38) -> str:
    return cards_html(kind, list(codes), width=width, overlap=0.35, empty="—")


def _dispute_html(
    events: Sequence[Event],
    v: Verdict,
    origin: str,
    view: Mapping[str, Any] | None,
    extra: str = "",
) -> str:
    kind = v.kind
    e = _html
    body = [
        f"<h1>Dispute: game {e(escaped(v.game_id))} ({e(kind)}), step {v.seq}</h1>",
        "<ul>",
        f"<li>file: <code>{e(escaped(origin))}</code></li>",
        f"<li>players: {e(', '.join(v.names) or '—')}</li>",
        f"<li>events in the log: {len(events)}</li>",
        "</ul>",
        "<h2>The position before the event</h2>",
    ]
    if view is None:
        body.append(f"<pre>{e(escaped(v.before))}</pre>")
    else:
        body.append(
            f"<p>round {e(str(view.get('round') or '—'))}, "
            f"trick {e(str(view.get('trick') or '—'))}</p>"
        )
        body.append(
            '<table class="seats"><tr><th>seat</th><th>name</th><th>total</th>'
            "<th>on the table</th><th>hand</th></tr>"
        )
        for seat, name, total, hand, played in _seat_rows(view):
            on_table = card_svg(kind, played, width=38) if played else ""
            shown = _cards(kind, hand) if hand is not None else '<span class="muted">hidden</span>'
            body.append(
                f"<tr><td>{seat}</td><td>{e(name)}</td><td>{'—' if total is None else total}</td>"
                f"<td>{on_table}</td><td>{shown}</td></tr>"
            )
        body.append("</table>")
        loose = _loose(view)
        if loose:
            body.append(f'<p><span class="muted">table:</span></p>{_cards(kind, loose)}')
    good = "good" if v.ok else "bad"
    body += [
        "<h2>The event</h2>",
        f"<p>{'event' if v.ok else 'recorded'}: <code>{e(escaped(_words(v, v.event)))}</code> "
        f"({e(v.category)})</p>",
    ]
    if v.event.card:
        body.append(_cards(kind, [v.event.card], 48))
    sentence = _notation(v, v.sentence)
    body += ["<h2>Verdict</h2>", f'<p class="verdict {good}">{e(escaped(sentence))}</p>']
    if v.differs:
        body.append("<p>What differs (recorded vs the rules):</p><ul>")
        body += [f"<li>{e(escaped(_notation(v, d.words)))}</li>" for d in v.differs]
        body.append("</ul>")
    if v.cards:
        body.append(f"<p>Cards concerned: {e(' '.join(v.cards))}</p>")
        body.append(_cards(kind, v.cards, 48))
    given = _given(v)
    if given:
        body.append(f"<p>The rules give: <code>{e(escaped(given))}</code></p>")
    if v.rule:
        body += [
            "<h2>The rule</h2>",
            f'<p class="rule"><b>{e(v.rule)}</b>: {e(rule_text(v.rule))}</p>',
        ]
    if _continues(v):
        body.append(f"<p>Play continues from: {e(_continues(v))}</p>")
    if extra:
        body.append(extra)
    title = f"Dispute: {v.game_id} step {v.seq}"
    return _page(title, "\n".join(body))


def _html(text: str) -> str:
    """A log text in HTML: controls escaped (:mod:`replay.text`), then the markup."""
    return escape(escaped(text))


#: What JSON keeps raw that an HTML script element must not hold: ``<`` (``</script>`` ends
#: the element, ``<!--<script>`` makes the parser look past its end), ``>``, ``&`` and the
#: two line separators old JavaScript parsers took for line ends.
_SCRIPT_SAFE = str.maketrans(
    {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}
)


def script_json(data: Any) -> str:
    """``data`` as JSON to embed in a ``<script>`` element: no value can end the element,
    open a comment in it or start another script; ``JSON.parse`` reads the same data.

    >>> script_json({"game": "<!--<script>", "n": "a&b"})
    '{"game":"\\\\u003c!--\\\\u003cscript\\\\u003e","n":"a\\\\u0026b"}'
    """
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).translate(_SCRIPT_SAFE)


def _page(title: str, body: str, script: str = "") -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{escape(escaped(title))}</title><style>{_CSS}</style></head>\n"
        f"<body>\n{body}\n{script}</body></html>\n"
    )


# --------------------------------------------------------------------- the replay page
def replay_frame(cursor: Cursor, step: int, names: Sequence[str] = ()) -> dict[str, Any]:
    """What the replay page shows at one step: the omniscient view's table and hands, the event
    in words (labelled ``recorded`` when the rules do not accept it) and the rules' verdict
    beside it (``[label, words]`` lines of :meth:`~replay.engine.cursor.Outcome.lines`)."""
    kind = cursor.events[0].kind
    view = cursor.seek(step).view(None)
    lines = cursor.outcome().lines(names, lambda c: _label(kind, c), rule_text)
    return {
        "event": escaped(lines[0][1]),  # its label: "recorded" when there is a verdict
        "verdict": [[label, escaped(text)] for label, text in lines[1:]],
        "round": view.get("round"),
        "trick": view.get("trick"),
        "over": bool(view.get("over")),
        "turn": view.get("turn") or [],
        "totals": view.get("totals") or [],
        "hands": view.get("hands") or [],
        "table": [[t.get("seat"), str(t.get("card"))] for t in view.get("table") or []],
    }


def replay_frames(events: Sequence[Event]) -> dict[str, Any]:
    """What the replay page steps through: each step's view (omniscient), the trick, round
    and finding stops, and each card's SVG once."""
    rules = get_rules(events[0].kind)
    cursor = Cursor(rules, events)

    def in_notation(text: str) -> str:
        return cards_in_text(text, lambda code: _label(events[0].kind, code))

    names = [str(n) for n in cursor.view(None).get("names") or []]
    frames = [replay_frame(cursor, step, names) for step in range(len(cursor))]
    findings = audit_game(list(events)).findings
    codes = sorted(
        {c for f in frames for h in f["hands"] for c in h or []}
        | {t[1] for f in frames for t in f["table"]}
    )
    return {
        "game": escaped(events[0].game_id),
        "kind": events[0].kind,
        "names": [escaped(n) for n in cursor.view(None).get("names") or []],
        "frames": frames,
        "tricks": cursor.trick_stops,
        "rounds": cursor.round_stops,
        "findings": [
            {
                "step": min(f.seq, cursor.last_step),
                "text": escaped(f"{in_notation(f.message)} ({f.rule})"),
            }
            for f in findings
        ],
        "cards": {c: card_svg(events[0].kind, c, width=36) for c in codes},
    }


_SCRIPT = r"""
<script>
"use strict";
const D = JSON.parse(document.getElementById("replay-data").textContent);
let step = 0;
const $ = (id) => document.getElementById(id);
function card(code) {
  const span = document.createElement("span");
  span.style.display = "inline-block"; span.style.marginRight = "2px";
  span.innerHTML = D.cards[code] || "";  // SVG written by replay.render.svg, codes escaped there
  if (!D.cards[code]) span.textContent = code;
  return span;
}
function cell(row, content) {
  const td = document.createElement("td");
  if (typeof content === "string") td.textContent = content; else if (content) td.append(content);
  row.append(td);
  return td;
}
function draw() {
  const f = D.frames[step];
  $("counter").textContent = "step " + step + "/" + (D.frames.length - 1);
  $("slider").value = step;
  $("event-label").textContent = f.verdict.length ? "recorded:" : "event:";
  $("event").textContent = f.event;
  $("verdict").replaceChildren(...f.verdict.map(([label, text]) => {
    const li = document.createElement("li");
    const b = document.createElement("b");
    b.textContent = label + ": ";
    li.append(b, text);
    return li;
  }));
  $("verdict").hidden = f.verdict.length === 0;
  const where = [];
  if (f.round !== null) where.push("round " + f.round);
  if (f.trick !== null) where.push("trick " + f.trick);
  where.push(f.over ? "game over" : (f.turn.length ? "turn: seat " + f.turn.join(", ") : ""));
  $("where").textContent = where.filter(Boolean).join(" · ");
  const rows = $("seats"); rows.replaceChildren();
  const onTable = new Map(f.table.filter((t) => t[0] !== null).map((t) => [t[0], t[1]]));
  const loose = f.table.filter((t) => t[0] === null).map((t) => t[1]);
  for (let s = 0; s < D.names.length; s++) {
    const row = document.createElement("tr");
    cell(row, (f.turn.includes(s) ? "▶ " : "") + s);
    cell(row, D.names[s]);
    cell(row, f.totals[s] === undefined || f.totals[s] === null ? "—" : String(f.totals[s]));
    cell(row, onTable.has(s) ? card(onTable.get(s)) : "");
    const hand = document.createElement("div");
    (f.hands[s] || []).forEach((c) => hand.append(card(c)));
    cell(row, hand);
    rows.append(row);
  }
  const table = $("loose"); table.replaceChildren();
  loose.forEach((c) => table.append(card(c)));
  table.parentElement.hidden = loose.length === 0;
  const here = D.findings.filter((x) => x.step === step).map((x) => x.text);
  $("finding").textContent = here.join("; ");
  $("finding").hidden = here.length === 0 || f.verdict.length > 0;  // the verdict says it
  history.replaceState(null, "", "#step=" + step);
}
function go(s) {
  step = Math.max(0, Math.min(D.frames.length - 1, s)); draw();
  if (typeof drawReview === "function") drawReview(step);  // the review, when included
}
function next(stops) { const s = stops.find((x) => x > step); if (s !== undefined) go(s); }
function prev(stops) { const s = stops.filter((x) => x < step).pop(); if (s !== undefined) go(s); }
const finds = D.findings.map((x) => x.step);
const actions = {
  first: () => go(0), last: () => go(D.frames.length - 1),
  prev: () => go(step - 1), next: () => go(step + 1),
  prevTrick: () => prev(D.tricks), nextTrick: () => next(D.tricks),
  prevRound: () => prev(D.rounds), nextRound: () => next(D.rounds),
  prevFinding: () => prev(finds), nextFinding: () => next(finds),
};
document.querySelectorAll("button[data-do]").forEach((b) => {
  b.addEventListener("click", () => actions[b.dataset.do]());
});
// what a game does not have is not offered: trick jumps without tricks, findings without any
const absent = (what) => document.querySelectorAll('[data-do$="' + what + '"]')
  .forEach((b) => { b.hidden = true; });
if (D.tricks.length === 0) absent("Trick");
if (D.findings.length === 0) { absent("Finding"); $("findings-head").hidden = true; }
$("slider").max = D.frames.length - 1;
$("slider").addEventListener("input", (e) => go(Number(e.target.value)));
const keys = {ArrowRight: "next", ArrowLeft: "prev", Home: "first", End: "last",
  t: "nextTrick", T: "prevTrick", r: "nextRound", R: "prevRound", f: "nextFinding",
  F: "prevFinding"};
document.addEventListener("keydown", (e) => { if (keys[e.key]) actions[keys[e.key]](); });
$("findings").replaceChildren(...D.findings.map((x) => {
  const li = document.createElement("li");
  const a = document.createElement("button");
  a.textContent = "step " + x.step; a.addEventListener("click", () => go(x.step));
  li.append(a, " " + x.text); return li;
}));
const start = /^#step=(\d+)$/.exec(location.hash);
go(start ? Number(start[1]) : 0);
</script>
"""

_CONTROLS = """
<p class="controls">
<button data-do="first" title="first step (Home)">first</button>
<button data-do="prevRound" title="previous round end (R)">« round</button>
<button data-do="prevTrick" title="previous trick (T)">&lsaquo; trick</button>
<button data-do="prev" title="previous event (←)">◀</button>
<span id="counter"></span>
<button data-do="next" title="next event (→)">▶</button>
<button data-do="nextTrick" title="next trick (t)">trick &rsaquo;</button>
<button data-do="nextRound" title="next round end (r)">round »</button>
<button data-do="last" title="last step (End)">last</button>
<button data-do="prevFinding" title="previous finding (F)">&lsaquo; finding</button>
<button data-do="nextFinding" title="next finding (f)">finding &rsaquo;</button>
</p>
<input id="slider" type="range" min="0" value="0" style="width:100%">
<p id="where"></p>
<table class="seats"><thead><tr><th>seat</th><th>name</th><th>total</th><th>on the table</th>
<th>hand</th></tr></thead><tbody id="seats"></tbody></table>
<p hidden><span class="muted">table:</span> <span id="loose"></span></p>
<p><span class="muted" id="event-label">event:</span> <code id="event"></code></p>
<ul id="verdict" class="verdict bad" hidden></ul>
<p id="finding" class="verdict bad" hidden></p>
<h2 id="findings-head">Findings of the audit</h2><ul id="findings"></ul>
"""


def replay_page(events: Sequence[Event], origin: str, review: GameReview | None = None) -> str:
    """One game as a single HTML file that steps through it (buttons, slider, keys), with its
    ``review`` (:mod:`replay.review`) beside each reviewed decision when one is given."""
    data = replay_frames(events)
    if review is not None:
        data["review"] = review_frames(review, len(data["frames"]) - 1)
    payload = script_json(data)
    head = (
        f"<h1>{escape(data['game'])} ({escape(data['kind'])})</h1>"
        f'<p class="muted">from {escape(escaped(origin))}; players '
        f"{escape(', '.join(data['names']))}; keys: ← → t T r R f F Home End"
        f"{' m M' if review is not None else ''}</p>"
    )
    script = f'<script type="application/json" id="replay-data">{payload}</script>{_SCRIPT}'
    controls = _CONTROLS
    if review is not None:
        controls += _REVIEW_CONTROLS
        script += _REVIEW_SCRIPT
    return _page(f"Replay: {events[0].game_id}", head + controls, script)


# --------------------------------------------------------------------- the review in the replay
def review_frames(review: GameReview, last_step: int) -> dict[str, Any]:
    """What the replay page shows of a game's review: what it is made with, where the audit
    stopped it, and per reviewed decision (by step) its alternatives best first, the move
    played marked, its loss and label; where the seat is paid (a staked table), each
    alternative's expected payout too."""
    lower = review.unit.lower_is_better
    money = paid(review)

    def shown(text: str) -> str:  # cards in the faces' notation, controls escaped
        return escaped(cards_in_text(text, lambda code: _label(review.kind, code)))

    def cells(row: dict[str, str]) -> list[str]:
        payout = [row.get("payout", "-")] if money else []
        return [row["mark"], shown(row["move"]), row["expected"], *payout]

    decisions = {
        str(d.seq): {
            "seat": d.seat,
            "played": shown(d.played),
            "best": shown(d.best),
            "label": d.label,
            "words": escaped(loss_words(d)),
            "alternatives": [cells(r) for r in ranked_alternatives(d, lower)],
        }
        for d in review.decisions
        if d.seq <= last_step
    }
    return {
        "caption": review_caption(review),
        "columns": ["", "move", "expected [95%]", *(["expected payout [95%]"] if money else [])],
        "stop": shown(stop_words(review) or ""),
        "decisions": decisions,
        "mistakes": [s for s in review.mistakes if s <= last_step],
    }


_REVIEW_CONTROLS = """
<h2>Review</h2>
<p class="muted" id="review-caption"></p>
<p id="review-stop" class="muted" hidden></p>
<p class="controls">
<button data-do="prevMistake" title="previous labelled decision (M)">&lsaquo; mistake</button>
<button data-do="nextMistake" title="next labelled decision (m)">mistake &rsaquo;</button>
</p>
<p id="review-words"></p>
<table class="seats" id="review-table"><thead><tr id="review-columns"></tr></thead>
<tbody id="review-alternatives"></tbody></table>
<h3>Labelled decisions</h3><ul id="review-mistakes"></ul>
"""

_REVIEW_SCRIPT = r"""
<script>
"use strict";
const R = D.review;
function drawReview(s) {
  const d = R.decisions[String(s)];
  $("review-table").hidden = !d;
  const words = $("review-words");
  words.className = d && d.label ? "verdict bad" : "";
  words.textContent = d
    ? "Seat " + d.seat + " chose " + d.played + "; best " + d.best + "; " + d.words
    : "Step " + s + " is not a reviewed decision.";
  const rows = $("review-alternatives"); rows.replaceChildren();
  (d ? d.alternatives : []).forEach((a) => {
    const row = document.createElement("tr"); a.forEach((c) => cell(row, c)); rows.append(row);
  });
}
$("review-columns").replaceChildren(...R.columns.map((c) => {
  const th = document.createElement("th"); th.textContent = c; return th;
}));
$("review-caption").textContent = R.caption;
$("review-stop").textContent = R.stop; $("review-stop").hidden = !R.stop;
actions.prevMistake = () => prev(R.mistakes); actions.nextMistake = () => next(R.mistakes);
keys.m = "nextMistake"; keys.M = "prevMistake";
$("review-mistakes").replaceChildren(...R.mistakes.map((s) => {
  const d = R.decisions[String(s)];
  const li = document.createElement("li");
  const a = document.createElement("button");
  a.textContent = "step " + s; a.addEventListener("click", () => go(s));
  li.append(a, " seat " + d.seat + " " + d.played + ": " + d.words); return li;
}));
drawReview(step);
</script>
"""
