"""``replay show`` and ``replay step`` through the CLI, on a small store of simulated games."""

from __future__ import annotations

import doctest
import json
import re
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner

import replay.cli.replay_cmds as replay_cmds
import replay.render.terminal
from replay.cli import app
from replay.engine.cursor import Cursor, event_words
from replay.engine.simulate import simulate_game
from replay.games import available_kinds, get_rules
from replay.model.events import Event
from replay.model.faces import PLAIN, card_label, card_style
from replay.model.specs import state_schema
from replay.store import EventStore

SCHEMA = state_schema()
RUNNER = CliRunner()

#: (game id, kind, players) of the test store; two Hearts ids share the prefix ``hearts-``.
GAMES = [
    ("hearts-alpha", "hearts", 4),
    ("hearts-beta", "hearts", 4),
    ("hez2-one", "hez2", 2),
    ("hiifuu-one", "hiifuu", 4),
    ("fou-one", "fou", 4),
]


def events_of(game_id: str) -> list[Event]:
    _, kind, players = next(g for g in GAMES if g[0] == game_id)
    return simulate_game(get_rules(kind), game_id, players=players, seed=5)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("replay") / "store"
    games = [events_of(g) for g, kind, _ in GAMES if kind in available_kinds()]
    report = EventStore.open(path, create=True).ingest(games)
    assert report.ok, report.summary()
    return path


def run(*args: str | Path, input: str | None = None) -> tuple[int, str, str]:
    result = RUNNER.invoke(app, [str(a) for a in args], input=input)
    return result.exit_code, result.stdout, result.stderr


def steps_shown(output: str) -> list[int]:
    """The step counters of the frames drawn, in order."""
    return [int(s) for s in re.findall(r"step (\d+)/\d+", output)]


# --------------------------------------------------------------------- show
@pytest.mark.parametrize(
    ("game_id", "step", "seat"), [("hearts-alpha", 30, 2), ("fou-one", 7, None)]
)
def test_show_json_is_the_cursor_view(
    store: Path, game_id: str, step: int, seat: int | None
) -> None:
    args: list[str | Path] = ["show", store, "--game", game_id, "--step", str(step), "--json"]
    code, out, err = run(*args, *(["--as", str(seat)] if seat is not None else []))
    assert code == 0, err
    data = json.loads(out)
    events = events_of(game_id)
    expected = Cursor(get_rules(events[0].kind), events).seek(step).view(seat)
    assert data == expected
    jsonschema.validate(data, SCHEMA)


def test_show_defaults_to_final_state_and_counts_negative_steps(store: Path) -> None:
    last = len(events_of("hiifuu-one")) - 1
    code, out, _ = run("show", store, "--game", "hiifuu-one", "--json")
    assert code == 0 and json.loads(out)["step"] == last and json.loads(out)["over"] is True
    code, out, _ = run("show", store, "--game", "hiifuu-one", "--step", "-3", "--json")
    assert code == 0 and json.loads(out)["step"] == last - 2


def test_show_resolves_a_unique_prefix(store: Path) -> None:
    code, out, _ = run("show", store, "--game", "hearts-b", "--step", "0", "--json")
    assert code == 0 and json.loads(out)["game_id"] == "hearts-beta"


def test_show_panel_from_a_seat(store: Path) -> None:
    events = events_of("hearts-alpha")
    cursor = Cursor(get_rules("hearts"), events).seek(40)
    view = cursor.view(1)
    code, out, _ = run("show", store, "--game", "hearts-alpha", "--step", "40", "--as", "1")
    assert code == 0
    assert f"step 40/{len(events) - 1}" in out
    assert "seat 1's view" in out
    words = event_words(events[40], view["names"], lambda c: card_label("hearts", c))
    assert f"event: {words}" in out  # the face's card notation, seats named
    assert " ".join(card_label("hearts", c) for c in view["hands"][1]) in out
    assert out.count("(hidden)") == 3
    for other in (0, 2, 3):
        assert " ".join(card_label("hearts", c) for c in cursor.view()["hands"][other]) not in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--game", "nope"], "no game id starts with 'nope'"),
        (["--game", "hearts-"], "matches several games"),
        (["--game", "fou-one", "--step", "100000"], "out of range"),
        (["--game", "fou-one", "--step", "-100000"], "out of range"),
        (["--game", "fou-one", "--as", "4"], "seats 0..3"),
        (["--game", "fou-one", "--as", "-1"], "seats 0..3"),
    ],
)
def test_show_errors_are_one_line_and_exit_2(store: Path, args: list[str], message: str) -> None:
    code, out, err = run("show", store, *args)
    assert code == 2
    assert out == ""
    assert err.startswith("error: ") and message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_unreadable_store_is_a_clean_error(tmp_path: Path) -> None:
    for path in (tmp_path / "missing", tmp_path):
        code, _, err = run("show", path, "--game", "x")
        assert code == 2 and err.startswith("error: ") and err.count("\n") == 1
    broken = tmp_path / "broken"
    (broken / "_delta_log").mkdir(parents=True)
    (broken / "_delta_log" / "00000000000000000000.json").write_text("{not json", "utf-8")
    code, _, err = run("step", broken, "--game", "x")
    assert code == 2 and err.startswith("error: ") and "Traceback" not in err


# --------------------------------------------------------------------- step
def first_step(events: list[Event], type_: str, after: int = 0) -> int:
    return next(i for i, e in enumerate(events) if i > after and e.type == type_)


def test_step_next_prev_and_arrows(store: Path) -> None:
    keys = "n\nn\np\n\x1b[C\x1b[C\x1b[D\nq\n"
    code, out, err = run("step", store, "--game", "hearts-alpha", input=keys)
    assert code == 0, err
    assert steps_shown(out) == [0, 1, 2, 1, 2, 3, 2]


def test_step_several_keys_on_a_line_and_prev_at_start(store: Path) -> None:
    code, out, _ = run("step", store, "--game", "fou-one", input="pnnn\nq\n")
    assert code == 0 and steps_shown(out) == [0, 0, 1, 2, 3]


def test_step_jump_trick_and_round(store: Path) -> None:
    events = events_of("hearts-alpha")
    # the trick stops: the last card of a trick on the table (the trick_won that follows)
    trick = first_step(events, "trick_won", 25) - 1
    second_trick = first_step(events, "trick_won", trick + 1) - 1
    # one stop per round: after its last scoring event, before the next round's first event
    round_end = next(i for i, e in enumerate(events) if e.round == 2) - 1
    keys = "g\n25\nt\nt\ng 0\nr\ng-1\nq\n"
    code, out, _ = run("step", store, "--game", "hearts-alpha", input=keys)
    assert code == 0
    assert steps_shown(out) == [0, 25, trick, second_trick, 0, round_end, len(events) - 1]


def test_step_round_ends_once_per_round_and_says_when_there_is_no_further_one(
    store: Path,
) -> None:
    events = events_of("hez2-one")
    round_end = max(i for i, e in enumerate(events) if e.round is not None)
    code, out, _ = run("step", store, "--game", "hez2-one", input="t\nr\nr\nq\n")
    assert code == 0
    assert steps_shown(out) == [0, 0, round_end, round_end]
    assert "no further trick end" in out and "no further round end" in out


def test_step_switches_seat_views_in_a_cycle(store: Path) -> None:
    code, out, _ = run("step", store, "--game", "hiifuu-one", input="g 40\nsssss\nq\n")
    assert code == 0
    labels = re.findall(r"omniscient view|seat \d's view", out)
    assert labels == [
        "omniscient view",
        "omniscient view",
        "seat 0's view",
        "seat 1's view",
        "seat 2's view",
        "seat 3's view",
        "omniscient view",
    ]


def test_step_starts_from_the_given_seat_and_hides_hands(store: Path) -> None:
    code, out, _ = run("step", store, "--game", "hearts-alpha", "--as", "2", input="g 20\nq\n")
    assert code == 0 and "seat 2's view" in out and "(hidden)" in out


def test_step_bad_input_is_a_message_not_a_crash(store: Path) -> None:
    code, out, _ = run("step", store, "--game", "fou-one", input="x\ng abc\ng 99999\nn\n")
    assert code == 0  # end of input quits
    assert "unknown key 'x'" in out
    assert "not a step number: 'abc'" in out
    assert "out of range" in out
    assert steps_shown(out) == [0, 0, 0, 0, 1]


def test_step_errors_exit_2(store: Path) -> None:
    code, _, err = run("step", store, "--game", "nothing-here", input="q\n")
    assert code == 2 and err.startswith("error: ")


def test_split_keys_reads_arrows() -> None:
    assert replay_cmds.split_keys("n \x1b[C\x1bOD q") == ["n", "RIGHT", "LEFT", "q"]


# --------------------------------------------------------------------- rendering
def test_render_doctests() -> None:
    for module in (replay.render.terminal, replay_cmds):
        result = doctest.testmod(module)
        assert result.failed == 0 and result.attempted > 0


@pytest.mark.parametrize("kind", available_kinds())
def test_every_card_of_every_game_has_a_suit_colour(kind: str) -> None:
    rules = get_rules(kind)
    players = rules.max_players
    cursor = Cursor(rules, simulate_game(rules, "colours", players=players, seed=1))
    seen: set[str] = set()
    for step in range(len(cursor)):
        hands = cursor.state_at(step)
        view = rules.view(hands)
        seen.update(c for hand in view["hands"] for c in hand)
    assert len(seen) >= 40
    assert all(card_style(kind, c) != PLAIN for c in seen), kind
    assert card_style(kind, "??") == PLAIN


def test_version_names_the_engine_build_that_runs() -> None:
    from replay import is_compiled

    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0, result.output
    engine = "compiled by mypyc" if is_compiled() else "pure Python"
    assert re.fullmatch(rf"replay \d+\.\d+\.\d+ \(rules engine: {engine}\)\n", result.output)
