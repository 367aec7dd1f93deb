# ruff: noqa: F811  (the fixtures of test_dashboard_app, imported, are arguments here)
"""What the dashboard's pages say, read as a user reads them: the inputs of the CLI with its
messages, the replay's standing up to the step shown in each game's own terms, the result of a
finished game and the game's data in words, a table whose notes cover no card, and the
statistics a kind at a time with a player page. Each test reuses one app run for several
assertions (AppTest is slow)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pyarrow as pa
from streamlit.testing.v1 import AppTest

from replay.engine.cursor import Cursor
from replay.games import get_rules
from replay.sources import open_sources
from tests.store_helpers import run_cli
from tests.test_dashboard_app import (
    KNOWN,
    ROOT,
    SAMPLE,
    Open,
    charts,
    html_of,
    known_game,
    known_store,  # noqa: F401  (a fixture)
    metric,
    open_page,  # noqa: F401  (a fixture)
    texts,
)

DISPUTES = ROOT / "sample_logs" / "disputes"


# --------------------------------------------------------------------- the inputs of the CLI
def test_a_csv_file_is_refused_in_the_cli_s_one_line(open_page: Open, tmp_path: Path) -> None:
    csv = tmp_path / "games.csv"
    csv.write_text("game_id,kind,players\n" + "".join(f"g{i},hearts,4\n" for i in range(40)))
    refusal = open_sources([csv]).problems
    assert refusal == [f"{csv}: not JSON Lines: first 5 lines unreadable"]
    at = open_page(csv)
    assert [str(w.value) for w in at.warning] == [
        f"Some input could not be read and is left out:\n- {refusal[0]}"
    ]
    cli = run_cli("dashboard", str(csv))
    assert cli.exit_code == 2 and cli.output == f"error: {refusal[0]}\n"


def test_a_folder_is_read_as_the_cli_reads_it(open_page: Open) -> None:
    folder = DISPUTES / "hez2"
    listed = open_sources([folder]).games()
    at = open_page(folder)
    assert metric(at, "Games") == str(len(listed)) and len(listed) > 1
    assert not at.warning, texts(at)
    assert f"Reading folder {folder}" in "".join(str(c.value) for c in at.sidebar.caption)


# --------------------------------------------------------------------- the replay
def test_hez2_s_standing_is_cards_left_up_to_the_step_and_its_end_is_in_words(
    open_page: Open,
    known_store: Path,
) -> None:
    events = known_game("hez2")
    cursor = Cursor(get_rules("hez2"), events)
    step = cursor.last_step // 2
    view = cursor.seek(step).view()
    at = open_page(known_store, "replay", game=KNOWN["hez2"][0], step=str(step))
    rows = charts(at)["Cards left so far"]
    assert max(r["step"] for r in rows) == step  # nothing after the step shown
    now = {r["name"]: r["value"] for r in rows if r["step"] == step}
    assert now == dict(zip(view["names"], view["hand_sizes"], strict=True))
    assert len({r["step"] for r in rows}) > 10  # a line through the game so far
    at.query_params["step"] = str(cursor.last_step)
    at.run()
    end = cursor.seek(cursor.last_step).view()
    names = end["names"]
    places = end["game"]["places"]
    won = "".join(str(s.value) for s in at.success)
    assert f"**Won by** {names[places[0]]}" in won
    assert "**Places**: " + " · ".join(f"{i}. {names[s]}" for i, s in enumerate(places, 1)) in won
    paid = " · ".join(f"{n} {p:,}" for n, p in zip(names, end["game"]["payouts"], strict=True))
    assert f"**Payouts**: {paid if any(end['game']['payouts']) else 'none'}" in won
    seats = next(d.value for d in at.dataframe if "player" in d.value.columns)
    assert list(seats["cards left"]) == end["hand_sizes"] and "Payout" in seats.columns
    assert list(seats["place"]) == [places.index(s) + 1 for s in range(len(names))]
    facts = at.dataframe[-1].value
    keys = list(facts.iloc[:, 0])
    assert "Gone out, in order" in keys and "places" not in keys and "payouts" not in keys
    gone = facts.iloc[keys.index("Gone out, in order"), 1]
    assert gone == ", ".join(names[s] for s in places)


def test_hearts_data_is_in_words_and_its_points_stop_at_the_step(
    open_page: Open,
    known_store: Path,
) -> None:
    cursor = Cursor(get_rules("hearts"), known_game("hearts"))
    step = cursor.round_stops[1] + 3  # in the third hand
    view = cursor.seek(step).view()
    at = open_page(known_store, "replay", game=KNOWN["hearts"][0], step=str(step))
    rows = charts(at)["Points so far"]
    assert max(r["step"] for r in rows) == step
    assert {r["name"]: r["value"] for r in rows if r["step"] == step} == dict(
        zip(view["names"], view["totals"], strict=True)
    )
    facts = at.dataframe[-1].value
    keys = list(facts.iloc[:, 0])
    assert {"Hearts broken", "Winners", "Pass direction"} <= set(keys), keys
    assert not [k for k in keys if "_" in k]
    values = dict(zip(keys, facts.iloc[:, 1], strict=True))
    assert values["Winners"] == "none" and values["Hearts broken"] in ("yes", "no")
    seats = next(d.value for d in at.dataframe if "player" in d.value.columns)
    assert list(seats["player"]) == view["names"]
    assert list(seats["points"]) == view["totals"]
    taken = [str(p) for p in view["game"]["points_this_hand"]]
    assert list(seats["Points this hand"]) == taken and not at.success


def test_hiifuu_s_notes_lie_below_the_trick_not_on_its_cards(
    open_page: Open,
    known_store: Path,
) -> None:
    cursor = Cursor(get_rules("hiifuu"), known_game("hiifuu"))
    step = cursor.trick_stops[0]
    at = open_page(known_store, "replay", game=KNOWN["hiifuu"][0], step=str(step))
    html = html_of(at)
    felt = html[html.index('<div class="felt">') : html.index('<div class="strip">')]
    strip = html[html.index('<div class="strip">') :]
    assert felt.count('class="played"') == 4  # the trick, in front of the seats
    assert "tokens" not in felt and "cards each discards" not in felt
    assert re.search(r'class="strip">.*tokens.*class="token"', strip)
    assert "discard pile" not in html  # Hiifuu's count is what each seat discards


# --------------------------------------------------------------------- statistics and players
def described(at: AppTest, description: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The spec and the rows of the page's chart of that description."""
    for chart in at.get("vega_lite_chart"):
        spec = json.loads(chart.proto.spec)
        if spec.get("description") == description:
            tables = [pa.ipc.open_stream(d.data.data).read_all() for d in chart.proto.datasets]
            return spec, [row for table in tables for row in table.to_pylist()]
    raise AssertionError(f"no chart described {description!r}")


def spec_titles(spec: Any) -> list[str]:
    """Every axis, legend and header title of a Vega-Lite spec."""
    found = []
    if isinstance(spec, dict):
        for key, value in spec.items():
            if key == "title" and isinstance(value, str) and value:
                found.append(value)
            else:
                found += spec_titles(value)
    elif isinstance(spec, list):
        for item in spec:
            found += spec_titles(item)
    return found


def test_the_statistics_show_a_kind_at_a_time_in_sections_and_words(open_page: Open) -> None:
    from replay.analytics import Analytics, Filters
    from replay.model.faces import card_face
    from replay.store import EventStore

    at = open_page(SAMPLE, "statistics")
    at.query_params["metric"] = "moon_shot"  # a Hearts rate in the URL (switch_page drops it)
    at.run()
    kinds = at.segmented_control(key="stats_kind")
    assert kinds.value == "hearts" and list(kinds.options) == ["Hearts", "Hez2", "Hiifuu", "Fou!"]
    sections = [h.value for h in at.header]
    assert sections[:4] == ["Players", "Seats and the deal", "Rounds and scores", "Cards"]
    stats = Analytics.open(EventStore.open(SAMPLE)).statistics(Filters("hearts"))
    questions = [str(h.value) for h in at.subheader]
    assert len(questions) == sum(1 for s in stats if s.table.num_rows) < len(stats)
    assert "Shooting the moon" in questions and not [q for q in questions if "Fool" in q]
    contents = str(at.markdown[0].value)
    assert all(f"(#{re.sub(r'[^a-z0-9]+', '-', q.lower()).strip('-')})" in contents
               for q in questions)  # fmt: skip
    for chart in at.get("vega_lite_chart"):
        spec = json.loads(chart.proto.spec)
        titles = spec_titles(spec)
        assert titles and not [t for t in titles if "_" in t or " · " in t], titles
    cards = next(d.value for d in at.dataframe if "card" in d.value.columns)
    from replay.games.hearts import DECK

    assert list(cards["card"]) == [c for c in DECK.order if c in set(cards["card"])]
    grid, _ = described(at, "Which cards win tricks")
    ranks = grid["encoding"]["x"]["sort"]
    assert ranks == [card_face("hearts", c).rank for c in DECK.order[:13]]  # 2 ... 10 J Q K A
    assert at.query_params["metric"] == "moon_shot"
    kinds.set_value("fou").run()
    assert "metric" not in at.query_params  # Hearts' metric is left behind with Hearts
    assert "What made the Fool" in [str(h.value) for h in at.subheader]


def test_the_player_page_has_results_ratings_and_head_to_head(open_page: Open) -> None:
    from replay.analytics import Analytics, Filters
    from replay.analytics.words import value_words
    from replay.store import EventStore

    at = open_page(SAMPLE, "player")
    at.selectbox(key="player_pick").set_value("Ada").run()
    assert [h.value for h in at.header][:6] == ["Results", "Rating over time", "Head to head",
                                                 "Luck", "Fair play", "Games"]  # fmt: skip
    store = EventStore.open(SAMPLE)
    played = [g for g in store.list_games() if "Ada" in g.players]
    assert metric(at, "Games") == str(len(played))
    found = charts(at)
    won = found["Games won, per game"]
    assert {r["kind"] for r in won} == {g.kind for g in played}
    assert all(r["low"] <= r["rate"] <= r["high"] for r in won)
    history = Analytics.open(store).rating_history(Filters(player="Ada"))
    rated = described(at, "Rating over time")[1]
    assert [(r["kind"], r["games"], r["mu"]) for r in rated] == [
        (value_words("kind", r["kind"]), r["games"], r["mu"]) for r in history.to_pylist()
    ]
    assert {r["kind"] for r in rated} == {value_words("kind", g.kind) for g in played}
    assert len(rated) > 4
    ahead = next(rows for title, rows in found.items() if title.startswith("Finished ahead"))
    assert ahead and all(r["player"] == "Ada" and r["low"] <= r["high"] for r in ahead)
    games = next(d.value for d in at.dataframe if "place" in d.value.columns)
    assert sorted(games["game"]) == sorted(f"/replay?game={g.game_id}" for g in played)
