# ruff: noqa: F811  (the fixtures of test_dashboard_app, imported, are arguments here)
"""What the dashboard's pages say, read as a user reads them: the inputs of the CLI with its
messages, the replay's standing up to the step shown in each game's own terms, the result of a
finished game and the game's data in words, a table whose notes cover no card, and the
statistics a kind at a time with a player page. Each test reuses one app run for several
assertions (AppTest is slow)."""

from __future__ import annotations

import re
from pathlib import Path

from replay.cursor import Cursor
from replay.games import get_rules
from replay.sources import open_sources
from tests.store_helpers import run_cli
from tests.test_dashboard_app import (
    KNOWN,
    ROOT,
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
    assert "**Payouts**: " in won
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
    assert {"Points this hand", "Winners", "Pass direction"} <= set(keys), keys
    assert not [k for k in keys if "_" in k]
    values = dict(zip(keys, facts.iloc[:, 1], strict=True))
    taken = view["game"]["points_this_hand"]
    assert values["Points this hand"] == " · ".join(
        f"{n} {p}" for n, p in zip(view["names"], taken, strict=True)
    )
    assert values["Winners"] == "none" and not at.success


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
