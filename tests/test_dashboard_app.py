"""The dashboard's pages under Streamlit's AppTest: every page renders on the sample store, an
empty store, a damaged store and JSON Lines files; filters change the figures; the replay moves
between steps and shows the right cards and scores; the audit links a finding to its step."""

from __future__ import annotations

import dataclasses
import io
import json
import re
import shutil
from collections.abc import Callable
from html import unescape
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest
from streamlit.testing.v1 import AppTest

from dashboards.data import SOURCE_ENV
from dashboards.verdicts import in_notation
from replay.engine.cursor import Cursor
from replay.engine.simulate import simulate_game
from replay.games import get_rules
from replay.model.events import Event
from replay.store import EventStore

ROOT = Path(__file__).parent.parent
APP = ROOT / "dashboards" / "app.py"
SAMPLE = ROOT / "sample_logs" / "store"
FOLLOW = ROOT / "sample_logs" / "disputes" / "hearts" / "HEARTS-FOLLOW.jsonl"
PAGES = ("overview", "statistics", "player", "replay", "audit")
TIMEOUT = 120

Open = Callable[..., AppTest]


@pytest.fixture
def open_page(monkeypatch: pytest.MonkeyPatch) -> Open:
    """``open_page(source, page, **query)``: the app run on ``source`` at ``page``."""

    def run(source: Path, page: str = "overview", **query: str) -> AppTest:
        monkeypatch.setenv(SOURCE_ENV, str(source))
        at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
        for name, value in query.items():
            at.query_params[name] = value
        at.run()
        if page != "overview":
            at.switch_page(f"views/{page}.py").run()
        assert not at.exception, [e.value for e in at.exception]
        return at

    return run


def html_of(at: AppTest) -> str:
    return "".join(str(h.proto.body) for h in at.get("html"))


def texts(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    parts += [w.value for w in at.warning] + [e.value for e in at.error]
    return "\n".join(str(p) for p in parts)


def charts(at: AppTest) -> dict[str, list[dict[str, Any]]]:
    """The data of each Vega-Lite chart of the page (its rows, as the browser gets them), by
    the chart's title."""
    out = {}
    for chart in at.get("vega_lite_chart"):
        spec = json.loads(chart.proto.spec)
        data = {d.name: pa.ipc.open_stream(d.data.data).read_all() for d in chart.proto.datasets}
        out[str(spec.get("title"))] = data[spec["data"]["name"]].to_pylist()
    return out


def metric(at: AppTest, label: str) -> str:
    return next(str(m.value) for m in at.metric if m.label == label)


@pytest.fixture(scope="module")
def empty_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("empty") / "store"
    EventStore.open(path, create=True)
    return path


@pytest.fixture(scope="module")
def damaged_store(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    """A copy of the sample store with one Hearts data file overwritten by garbage, and a game
    that file held."""
    path = Path(shutil.copytree(SAMPLE, tmp_path_factory.mktemp("damaged") / "store"))
    victim = sorted((path / "kind=hearts").glob("*.parquet"))[0]
    game = str(pq.read_table(victim, columns=["game_id"]).column("game_id")[0])
    victim.write_bytes(b"this is not a parquet file" * 10)
    return path, victim, game


KNOWN = {"hearts": ("known-hearts", 4), "hez2": ("known-hez2", 3), "hiifuu": ("known-hiifuu", 4),
         "fou": ("known-fou", 5)}  # fmt: skip


def known_game(kind: str) -> list[Event]:
    game_id, players = KNOWN[kind]
    return simulate_game(get_rules(kind), game_id, players=players, seed=7)


@pytest.fixture(scope="module")
def known_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store of one simulated game per kind (seed 7), whose events the tests read."""
    path = tmp_path_factory.mktemp("known") / "store"
    EventStore.open(path, create=True).ingest([known_game(kind) for kind in KNOWN])
    return path


@pytest.fixture(scope="module")
def bad_line_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A JSON Lines file of sample games with one malformed line in the middle."""
    lines = (ROOT / "sample_logs" / "jsonl" / "hez23.jsonl").read_text().splitlines()
    lines.insert(10, '{"game_id": "broken", "seq": ')
    path = tmp_path_factory.mktemp("badline") / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


# --------------------------------------------------------------------- every page renders
@pytest.mark.parametrize("page", PAGES)
@pytest.mark.slow
def test_every_page_renders_on_the_sample_store(open_page: Open, page: str) -> None:
    at = open_page(SAMPLE, page)
    assert [t.value for t in at.title] == [page.capitalize()]
    assert not at.warning, texts(at)


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.slow
def test_every_page_renders_on_an_empty_store(
    open_page: Open, empty_store: Path, page: str
) -> None:
    at = open_page(empty_store, page)
    assert [t.value for t in at.title] == [page.capitalize()]


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.slow
def test_a_damaged_store_file_is_a_warning_naming_it(
    open_page: Open, damaged_store: tuple[Path, Path, str], page: str
) -> None:
    path, victim, game = damaged_store
    at = open_page(path, page)
    if page == "replay":  # the replay reads one game: open one of the damaged file
        at.query_params["game"] = game
        at.run()
    assert any(victim.name in str(w.value) for w in at.warning), texts(at)


@pytest.mark.parametrize("page", PAGES)
def test_a_malformed_line_is_a_warning_naming_the_file(
    open_page: Open, bad_line_file: Path, page: str
) -> None:
    at = open_page(bad_line_file, page)
    assert any(str(bad_line_file) in str(w.value) for w in at.warning), texts(at)


def test_a_missing_source_is_a_warning(open_page: Open, tmp_path: Path) -> None:
    at = open_page(tmp_path / "nothing")
    assert any("nothing" in str(w.value) for w in at.warning)


# --------------------------------------------------------------------- filters
def test_filters_change_the_figures_and_live_in_the_url(open_page: Open) -> None:
    store = EventStore.open(SAMPLE)
    every = open_page(SAMPLE)
    assert metric(every, "Games") == str(len(store.list_games()))
    hez2 = open_page(SAMPLE, kind="hez2")
    assert metric(hez2, "Games") == str(len(store.list_games(kind="hez2")))
    assert hez2.query_params["kind"] == "hez2"
    three = open_page(SAMPLE, kind="hez2", players="3")
    expected = sum(1 for g in store.list_games(kind="hez2") if len(g.players) == 3)
    assert metric(three, "Games") == str(expected) and expected < len(store.list_games("hez2"))
    spring = open_page(SAMPLE, since="2026-04-01", until="2026-04-30")
    in_april = sum(1 for g in store.list_games() if g.started and g.started.month == 4)
    assert metric(spring, "Games") == str(in_april) and 0 < in_april < len(store.list_games())
    every.sidebar.selectbox(key="kind").set_value("fou").run()
    assert metric(every, "Games") == str(len(store.list_games(kind="fou")))
    # the widget writes the URL in the browser (bind="query-params"): tests/e2e checks it


def test_each_kind_gets_its_own_statistics_and_the_ratings(open_page: Open) -> None:
    fou = open_page(SAMPLE, "statistics", kind="fou")
    hearts = open_page(SAMPLE, "statistics", kind="hearts")
    titles_fou = {h.value for h in fou.subheader}
    titles_hearts = {h.value for h in hearts.subheader}
    assert titles_fou - titles_hearts and titles_hearts - titles_fou  # per-kind statistics
    assert any("Ratings" in str(h.value) for h in fou.header)
    ratings = next(d.value for d in fou.dataframe if "conservative" in d.value.columns)
    assert len(ratings) > 0 and set(ratings["kind"]) == {"fou"}
    assert list(ratings["conservative"]) == sorted(ratings["conservative"], reverse=True)


@pytest.mark.slow
def test_the_statistics_follow_the_filters(open_page: Open) -> None:
    every = open_page(SAMPLE, "statistics", kind="hearts")
    hearts = open_page(SAMPLE, "statistics", kind="hearts", since="2026-05-01")
    games = re.compile(r"rests on ([\d,]+) games", re.IGNORECASE)
    counts_all = {int(n.replace(",", "")) for n in games.findall(texts(every))}
    counts_hearts = {int(n.replace(",", "")) for n in games.findall(texts(hearts))}
    assert counts_all and counts_hearts and max(counts_hearts) < max(counts_all)
    assert len(every.get("vega_lite_chart")) >= 2
    assert len(every.get("download_button")) >= 2


# --------------------------------------------------------------------- replay
def plates(at: AppTest) -> dict[str, int]:
    """Total per player name on the board's seat plates."""
    found = re.findall(r'class="name">([^<(]+?)(?: \(you\))?</div><div class="meta">seat \d+ · '
                       r"total <b>(-?\d+)</b>", html_of(at))  # fmt: skip
    return {name: int(total) for name, total in found}


def played(at: AppTest) -> list[str]:
    """The names of the cards on the table (in front of the seats)."""
    return re.findall(r'class="played"[^>]*><img [^>]*alt="([^"]+)"', html_of(at))


def names_of(kind: str, cards: list[str | None]) -> list[str]:
    from replay.model.faces import card_face

    return sorted(card_face(kind, str(c)).name for c in cards)


@pytest.mark.slow
def test_the_replay_shows_the_cards_and_moves_by_tricks_and_rounds(
    open_page: Open, known_store: Path
) -> None:
    events = known_game("hearts")
    cursor = Cursor(get_rules("hearts"), events)
    first, second = cursor.trick_stops[:2]
    names = cursor.view()["names"]
    at = open_page(known_store, "replay", game="known-hearts", step=str(first))
    last = len(events) - 1
    assert f"step {first} / {last}" in texts(at)
    fourth = events[first]
    said = f"#{first} play seat {fourth.player} ({names[fourth.player]}) {fourth.card}"
    assert in_notation("hearts", said) in html_of(at)  # the card as the faces show it
    trick = [e.card for e in events[: first + 1] if e.type == "play" and e.trick == 1]
    assert len(trick) == 4 and sorted(played(at)) == names_of("hearts", trick)
    at.button(key="jump_next_trick").click().run()
    assert at.query_params["step"] == str(second) and f"step {second} / {last}" in texts(at)
    trick = [e.card for e in events[: second + 1] if e.type == "play" and e.trick == 2]
    assert sorted(played(at)) == names_of("hearts", trick)
    at.button(key="jump_next_round").click().run()  # the end of hand 1
    end = cursor.round_stops[0]
    assert at.query_params["step"] == str(end)
    scored = {names[e.player]: e.total for e in events[: end + 1] if e.type == "round_scored"}
    assert plates(at) == scored and len(scored) == 4 and any(scored.values())
    at.button(key="jump_prev").click().run()
    assert at.query_params["step"] == str(end - 1)
    at.slider(key="replay_step").set_value(5).run()
    fifth = events[5]
    assert f"#5 {fifth.type} seat {fifth.player} ({names[fifth.player]})" in html_of(at)
    assert at.query_params["step"] == "5"
    at.button(key="jump_first").click().run()
    assert at.query_params["step"] == "0" and at.button(key="jump_prev").disabled


def test_a_seat_view_shows_other_hands_face_down(open_page: Open, known_store: Path) -> None:
    cursor = Cursor(get_rules("hearts"), known_game("hearts"))
    step = cursor.trick_stops[0]
    view = cursor.seek(step).view(1)
    at = open_page(known_store, "replay", game="known-hearts", step=str(step), seat="1")
    html = html_of(at)
    hidden = sum(view["hand_sizes"][s] for s in (0, 2, 3))
    assert html.count('alt="face down"') == hidden > 0
    assert f"{view['names'][1]} (you)" in html
    assert all(f'alt="{n}"' in html for n in names_of("hearts", view["hands"][1]))
    everyone = cursor.seek(step).view()
    passed = set(view["game"]["passes"][1])  # seen by seat 1: it passed them
    hidden_cards = [c for s in (0, 2, 3) for c in everyone["hands"][s] if c not in passed]
    assert not [n for n in names_of("hearts", hidden_cards) if f'"{n}"' in html]
    words = texts(at) + re.sub(r'src="[^"]*"', "", html)  # what is written, not the pictures
    assert not [c for c in hidden_cards if re.search(rf"(?<![\w-]){c}(?![\w-])", words)]
    at.segmented_control(key="replay_seat").set_value("everyone").run()
    assert 'alt="face down"' not in html_of(at) and "seat" not in at.query_params


@pytest.mark.parametrize(
    ("kind", "marks"),
    [("hez2", ("stock", "exposed")), ("hiifuu", ('class="token"',)), ("fou", ("Fool",))],
)
def test_every_game_kind_replays_with_its_game_data(
    open_page: Open, known_store: Path, kind: str, marks: tuple[str, ...]
) -> None:
    events = known_game(kind)
    cursor = Cursor(get_rules(kind), events)
    step = (cursor.trick_stops or cursor.round_stops)[min(2, len(cursor.trick_stops) - 1)]
    if kind == "fou":  # a Fool of the first trick holds the disc after it
        step = next(i for i, e in enumerate(events) if e.type == "fool")
    at = open_page(known_store, "replay", game=KNOWN[kind][0], step=str(step))
    html = html_of(at)
    assert all(m in html for m in marks), (kind, marks)
    assert 'src="data:image/svg+xml;base64,' in html


def test_a_search_narrows_the_game_picker(open_page: Open, known_store: Path) -> None:
    at = open_page(known_store, "replay")
    at.text_input(key="replay_search").set_value("known-h").run()
    options = at.selectbox(key="replay_game").options
    assert sorted(options) == ["known-hearts", "known-hez2", "known-hiifuu"]


# --------------------------------------------------------------------- audit
def test_the_audit_links_a_finding_to_the_replay_at_its_step(open_page: Open) -> None:
    at = open_page(FOLLOW, "audit")
    table = at.dataframe[0].value
    assert list(table["rule"]) == ["HEARTS-FOLLOW"] and list(table["seq"]) == [10]
    counts = charts(at)  # the one finding, counted per rule and per kind
    assert counts["Findings per rule"] == [{"rule": "HEARTS-FOLLOW", "findings": 1}]
    assert counts["Findings per game kind"] == [{"kind": "hearts", "findings": 1}]
    for chart in at.get("vega_lite_chart"):  # a count's axis has whole numbers, not 0.1 steps
        axis = json.loads(chart.proto.spec)["encoding"]["x"]["axis"]
        assert axis["tickMinStep"] == 1 and axis["format"] == "d"
    at.query_params["finding"] = "0"
    at.run()
    words = texts(at)
    assert "seat 0 played 2♦ while holding 4♣ and clubs were led" in words  # the faces' cards
    html = unescape(html_of(at))
    assert "<b>Recorded</b>: #10 play seat 0 (p0) 2♦" in html
    assert "<b>Rule</b>: HEARTS-FOLLOW" in html
    assert "<b>Play continues from</b>: the recorded event" in html
    assert any(b.key == "run_impact" for b in at.button)  # did it change the result?
    at.button(key="run_impact").click().run()  # replay explain --impact, 64 rollouts
    assert not at.exception
    assert "The winner changes in" in texts(at)
    assert at.dataframe[-1].value.shape[0] == 4  # a row per seat, recorded beside adjusted
    at.button(key="open_replay").click().run()
    assert not at.exception
    assert at.query_params["game"] == "hearts-HEARTS-FOLLOW" and at.query_params["step"] == "10"
    assert "step 10 /" in texts(at) and "HEARTS-FOLLOW" in texts(at)
    finding_jumps = [at.button(key=f"jump_{d}_finding").disabled for d in ("prev", "next")]
    assert finding_jumps == [True, True]  # the one finding is here


def test_a_seat_view_keeps_the_verdict_for_everyone_s_view(open_page: Open) -> None:
    at = open_page(FOLLOW, "replay", game="hearts-HEARTS-FOLLOW", step="10", seat="2")
    assert "verdict may name hidden cards" in "".join(str(i.value) for i in at.info)
    assert "while holding" not in texts(at)


def test_the_replay_jumps_between_findings(open_page: Open) -> None:
    at = open_page(FOLLOW, "replay", game="hearts-HEARTS-FOLLOW")
    at.button(key="jump_next_finding").click().run()
    assert at.query_params["step"] == "10" and "while holding" in texts(at)


def test_the_replay_shows_the_ruling_as_recorded_and_the_rules_beside_it(open_page: Open) -> None:
    trick = ROOT / "sample_logs" / "disputes" / "hearts" / "HEARTS-TRICK.jsonl"
    at = open_page(trick, "replay", game="hearts-HEARTS-TRICK", step="13")
    html = unescape(html_of(at))
    assert "<b>Recorded</b>: #13 trick_won seat 0 (p0) [2♣ 4♣ 5♣ A♣] amount 0" in html
    assert "<b>The rules give</b>: #13 trick_won seat 2 (p2) [2♣ 4♣ 5♣ A♣] amount 0" in html
    assert "<b>Play continues from</b>: the rules' event" in html


def test_board_doctests() -> None:
    import doctest

    import dashboards.board

    result = doctest.testmod(dashboards.board)
    assert result.failed == 0 and result.attempted > 0


def test_the_overview_counts_findings_per_kind_and_rule(open_page: Open) -> None:
    at = open_page(FOLLOW)
    if any(b.key == "run_audit" for b in at.button):  # not yet audited in this process
        at.button(key="run_audit").click().run()
    assert metric(at, "Findings") == "1"
    counts = next(d.value for d in at.dataframe if "rule" in d.value.columns)
    assert counts.to_dict("records") == [{"kind": "hearts", "rule": "HEARTS-FOLLOW", "findings": 1}]


# --------------------------------------------------------------------- a store that changes
def rows_of(at: AppTest, column: str) -> list[dict[str, Any]]:
    """The rows of the page's first table with ``column``."""
    frame = next(d.value for d in at.dataframe if column in d.value.columns)
    return [{str(k): v for k, v in row.items()} for row in frame.to_dict("records")]


def test_an_import_is_read_on_the_next_run_and_nothing_before_it(
    open_page: Open, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store's info, games, players and findings are kept per snapshot (the Delta version
    and the live games): read once while the store stays as it is, read again after an
    import."""
    path = tmp_path / "store"
    store = EventStore.open(path, create=True)
    store.ingest([known_game("hez2")])
    infos: list[EventStore] = []
    info = EventStore.info

    def counted(self: EventStore) -> Any:
        infos.append(self)
        return info(self)

    monkeypatch.setattr(EventStore, "info", counted)
    version = store.table().version()
    first, again = open_page(path), open_page(path)
    assert len(infos) == 1  # the second visitor's run reads no figure again
    for at in (first, again):
        assert f"Delta table version {version} ·" in texts(at)
        assert (metric(at, "Games"), metric(at, "Players")) == ("1", "3")
    assert "1 game audited, 1,638 events; 0 findings" in texts(open_page(path, "audit"))
    follow = [dataclasses.replace(e, game_id="dispute") for e in read_events(FOLLOW)]
    store.ingest([known_game("hearts"), follow])
    after = open_page(path)
    assert len(infos) == 2 and f"Delta table version {version + 1} ·" in texts(after)
    names = {p for g in store.list_games() for p in g.players}
    assert (metric(after, "Games"), metric(after, "Players")) == ("3", f"{len(names)}")
    kinds = {r["kind"]: (r["games"], r["players"]) for r in rows_of(after, "players")}
    assert kinds == {"hearts": (2, 4), "hez2": (1, 3)}
    assert any(b.key == "run_audit" for b in after.button)  # the new snapshot is not audited
    audit = open_page(path, "audit")
    assert [(r["game_id"], r["rule"]) for r in rows_of(audit, "rule")] == [
        ("dispute", "HEARTS-FOLLOW")
    ]


def read_events(path: Path) -> list[Event]:
    from replay.model.decode import events_from_table
    from replay.store.jsonl import read_jsonl

    return events_from_table(read_jsonl(path).table)


def test_the_audit_page_is_replay_audit_slice_by_slice(
    open_page: Open, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a store of many slices (a small SLICE_ROWS), with a game stored in two ingests and a
    live game, the audit page lists the findings of ``replay audit STORE``, in its order; no
    table the audit reads holds more than a slice and a game."""
    from replay.audit import audit_many
    from replay.store import slices
    from tests.store_helpers import run_cli

    path = tmp_path / "store"
    run_cli("import", str(ROOT / "sample_logs" / "disputes"), "--into", str(path))
    store = EventStore.open(path)
    games = [known_game(kind) for kind in KNOWN]
    store.ingest([games[0][:40], games[1]])  # known-hearts cut short...
    store.ingest([games[0], games[2]])  # ...and continued: two runs, audited last
    follow = read_events(FOLLOW)
    store.append("live-follow", [dataclasses.replace(e, game_id="live-follow")
                                 for e in follow[:15]], 0)  # fmt: skip
    monkeypatch.setattr(slices, "SLICE_ROWS", 1000)
    largest = pc.max(store.list_games_table().column("events")).as_py()
    read: list[int] = []

    def audit_slice(table: Any, *args: Any, **kwargs: Any) -> Any:
        read.append(table.num_rows)
        return audit_many(table, *args, **kwargs)

    monkeypatch.setattr("replay.audit.store.audit_many", audit_slice)
    at = open_page(path, "audit")
    by_page = list(read)  # the page's slices (the CLI below reads through audit_slices too)
    cli = json.loads(run_cli("audit", str(path), "--format", "json").output)
    columns = ("game_id", "kind", "seq", "rule", "rule_text", "message")
    shown = [{c: r[c] for c in columns} for r in rows_of(at, "rule_text")]
    as_shown = [{**f, "message": in_notation(f["kind"], f["message"])} for f in cli["findings"]]
    assert shown == [{c: f[c] for c in columns} for f in as_shown]  # cards as the faces show them
    assert len(shown) > 40 and "live-follow" in {r["game_id"] for r in shown}
    assert f"{cli['games']:,} games audited, {cli['events']:,} events" in texts(at)
    assert len(by_page) > 8 and max(by_page) < 1000 + largest, by_page
    assert 4 * max(by_page) < sum(by_page), by_page
    assert sum(by_page) == store.info().events  # every stored event once (the live one apart)


def test_the_games_csv_is_made_when_asked_and_is_the_table(
    open_page: Open, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Overview hands its download button a callable (Streamlit runs it on a click), so a
    run builds no CSV; what it makes is the games table, list columns joined by spaces."""
    import pyarrow.csv as pacsv
    import streamlit

    buttons: dict[str, Any] = {}
    button = streamlit.download_button

    def recorded(label: str, data: Any, *args: Any, **kwargs: Any) -> Any:
        buttons[label] = data
        return button(label, data, *args, **kwargs)

    monkeypatch.setattr(streamlit, "download_button", recorded)
    open_page(SAMPLE, kind="hez2")
    made = buttons["Download the games (CSV)"]
    assert callable(made)
    table = pacsv.read_csv(io.BytesIO(made()))
    games = EventStore.open(SAMPLE).list_games_table(kind="hez2")
    assert table.column_names == ["game_id", "kind", "players", "seats", "events", "started",
                                  "winners"]  # fmt: skip
    assert table.column("game_id").to_pylist() == games.column("game_id").to_pylist()
    players = [[str(n) for n in p or []] for p in games.column("players").to_pylist()]
    assert table.column("players").to_pylist() == [" ".join(p) for p in players]
    assert table.column("events").to_pylist() == games.column("events").to_pylist()
    assert table.column("seats").to_pylist() == [len(p) for p in players]
