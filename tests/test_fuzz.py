"""Fuzzed logs of all four games (seeded): never exit 3 or a traceback, every game id accounted
for, and one verdict per game whether a log is audited as a file or imported and audited."""

from __future__ import annotations

import contextlib
import json
import random
from collections import defaultdict
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from replay.audit import audit_game, audit_many, group_games
from replay.engine.simulate import simulate_game
from replay.games import get_rules
from replay.model.decode import events_from_table
from replay.model.events import COLUMNS
from replay.store import EventStore
from replay.store.jsonl import event_to_line, read_jsonl
from replay.store.stream import import_jsonl
from tests.store_helpers import run_cli

KINDS = {"hearts": 4, "hez2": 3, "hiifuu": 5, "fou": 4}
FILES = 4
GAMES_PER_FILE = 750  # 3,000 mutated logs in all
WEIRD_IDS = ["", "g\x1b]0;t\x07", "a\u202eb", "x" * 300, "../up", "\u00e9\U0001f0a1"]
VALUES: list[Any] = [None, -1, 0, 1, 2, 127, 128, 40_000, 2**31, "", "QS", "ZZ", "2C", [], ["2C"],
                     [1, 2], [None], 1.5, True, {}, "2026-01-01T00:00:00Z", "\x1b[2J"]  # fmt: skip


@cache
def base_lines(kind: str, seed: int) -> tuple[str, ...]:
    events = simulate_game(get_rules(kind), "base", players=KINDS[kind], seed=seed)
    return tuple(event_to_line(e) for e in events)


def _mutated(rng: random.Random, game_id: str) -> list[str]:
    """A prefix of a simulated game (or the whole game), under its own id, with 0 to 3
    mutations; each line is valid JSON Lines text or deliberately not."""
    kind = rng.choice(sorted(KINDS))
    lines = list(base_lines(kind, rng.randrange(3)))
    lines = lines if rng.random() < 0.03 else lines[: rng.randrange(2, 40)]
    objects: list[Any] = [json.loads(line) for line in lines]
    for obj in objects:
        obj["game_id"] = game_id
    for _ in range(rng.choice([0, 1, 1, 2, 3])):
        _mutate(rng, objects)
    out = [o if isinstance(o, str) else json.dumps(o, ensure_ascii=rng.random() < 0.5)
           for o in objects]  # fmt: skip
    if rng.random() < 0.05 and out:
        i = rng.randrange(len(out))
        out[i] = out[i][: rng.randrange(len(out[i]) + 1)]  # a truncated line
    return out


def _mutate(rng: random.Random, objects: list[Any]) -> None:
    if not objects:
        return
    i = rng.randrange(len(objects))
    what = rng.randrange(10)
    if isinstance(objects[i], str):
        return
    if what <= 2:  # a changed field (any column, any value)
        objects[i][rng.choice(COLUMNS)] = rng.choice(VALUES)
    elif what == 3:
        del objects[i]
    elif what == 4:
        objects.insert(i, dict(objects[i]))
    elif what == 5:
        j = rng.randrange(len(objects))
        objects[i], objects[j] = objects[j], objects[i]
    elif what == 6:
        objects[i]["values"] = "[" * rng.choice([10, 1_000, 20_000]) + "x"  # then made text
        objects[i] = json.dumps(objects[i]).replace('"[', "[").replace('x"', "")
    elif what == 7:
        noise = (chr(rng.randrange(11, 256)) for _ in range(rng.randrange(40)))  # no newline
        objects[i] = "".join(noise)
    elif what == 8:
        objects[i]["card"] = rng.choice(["\x1b[31mQS", "Q\u202eS", "\x00", "QS\n"])
    else:
        objects[i]["seq"] = rng.randrange(-2, 80)


def _write(path: Path, rng: random.Random) -> dict[str, list[int]]:
    """A file of mutated games; returns each game id's line numbers."""
    lines_of: dict[str, list[int]] = defaultdict(list)
    rows: list[tuple[str, str]] = []
    for n in range(GAMES_PER_FILE):
        game_id = f"f-{n}" if n % 50 else rng.choice(WEIRD_IDS) + f"-{n}"
        rows.extend((game_id, line) for line in _mutated(rng, game_id))
    if rng.random() < 0.5:  # games interleaved, as a platform logs its tables
        rng.shuffle(rows)
    with path.open("wb") as out:
        for number, (game_id, line) in enumerate(rows, start=1):
            raw = line.encode("utf-8", "surrogatepass")
            out.write(raw + b"\n")
            if raw.strip():  # a blank line is skipped: nobody's
                lines_of[_owner(line, game_id)].append(number)
    return lines_of


def _owner(line: str, game_id: str) -> str:
    """The game a line belongs to: the id it names (a mutation may have changed it), else
    the game it was written for."""
    try:
        obj = json.loads(line)
    except (ValueError, RecursionError):
        return game_id
    named = obj.get("game_id") if isinstance(obj, dict) else None
    return named if isinstance(named, str) else game_id


def _verdicts(audits: Any) -> dict[str, list[tuple[str, int, str]]]:
    return {g.game_id: [(f.rule, f.seq, f.message) for f in g.findings] for g in audits}


@pytest.mark.parametrize("seed", range(FILES))
@pytest.mark.slow
def test_fuzzed_logs_get_one_verdict_from_the_file_and_from_the_store(
    tmp_path: Path, seed: int
) -> None:
    rng = random.Random(seed)
    path = tmp_path / "fuzz.jsonl"
    lines_of = _write(path, rng)
    read = read_jsonl(path)
    events = events_from_table(read.table)
    file_audits = [audit_game(game) for game in group_games(events)]
    in_file = {g.game_id for g in file_audits}
    unreadable = {r.line for r in read.rejected}
    assert read.table.num_rows + len(unreadable) == sum(map(len, lines_of.values()))
    for game_id, numbers in lines_of.items():  # audited, or every line named by number
        assert game_id in in_file or set(numbers) <= unreadable, game_id

    store = EventStore.open(tmp_path / "s", create=True)
    done = import_jsonl(store, path)
    assert {r.line for r in done.unreadable} == unreadable
    rejected = {r.game_id or "" for r in done.report.rejected}
    assert all(r.game_id is not None for r in done.report.rejected)  # each names its game
    stored = set(done.report.ingested)
    assert rejected | stored == in_file and not rejected & stored
    store_audits = audit_many(_all(store))
    by_file, by_store = _verdicts(file_audits), _verdicts(store_audits.games)
    assert set(by_store) == stored
    for game_id in stored:
        assert by_store[game_id] == by_file[game_id], game_id
    for game_id in rejected:  # a game import refuses is not clean as a file either
        assert by_file[game_id], game_id

    if seed == 0:  # the commands themselves: no exit 3, no traceback (run_cli checks)
        for args in (["audit", str(path)], ["import", str(path), "--into", str(tmp_path / "c")],
                     ["audit", str(tmp_path / "c")]):  # fmt: skip
            assert run_cli(*args).exit_code in (1, 2)


def _all(store: EventStore) -> Any:
    import pyarrow as pa

    batches = list(store.scan(dictionary=True))
    return pa.Table.from_batches(batches)


#: Player names a hostile platform may send (terminal escapes, CR, BS, C1, bidi, markup, HTML).
HOSTILE_NAMES = ["t\x1b]0;x\x07", "cr\r", "bs\x08", "c1\x85", "r\u202el", "[red]m[/red]",
                 "<!--<script>", "</script>"]  # fmt: skip
#: Every command that prints, with each of its formats (one statistic: CI time).
OUTPUTS = [
    *(["games", "-f", f] for f in ("table", "json", "jsonl", "csv")),
    *(["info", "-f", f] for f in ("table", "json", "jsonl", "csv")),
    *(["audit", "-f", f] for f in ("table", "json", "jsonl", "csv", "markdown")),
    *(["stats", "--stat", "games_played", "-f", f] for f in ("table", "json", "jsonl", "csv")),
    *(["show", "-g", "f-1", "-f", f] for f in ("table", "json", "jsonl", "csv")),
    *(["explain", "-g", "f-1", "-s", "3", "-f", f] for f in ("table", "json", "markdown", "html")),
    ["export", "-g", "f-1", "-f", "html", "--out", "-"],
    ["export", "--out", "-"],
]


def _hostile_folder(tmp_path: Path, rng: random.Random) -> Path:
    """A folder of fuzzed games under weird ids, seated by hostile names, with two links that
    loop back into it."""
    folder = tmp_path / "in"
    (folder / "sub").mkdir(parents=True)
    lines: list[str] = []
    for n in range(30):
        game_id = f"f-{n}" if n % 3 else rng.choice(WEIRD_IDS) + f"-{n}"
        for line in _mutated(rng, game_id):
            obj = json.loads(line) if line.startswith("{") and "game_start" in line else None
            if isinstance(obj, dict) and isinstance(obj.get("data"), str):
                with contextlib.suppress(ValueError):
                    setup = json.loads(obj["data"])
                    setup["names"] = rng.sample(HOSTILE_NAMES, len(setup.get("names") or []))
                    obj["data"] = json.dumps(setup)
                    line = json.dumps(obj)
            lines.append(line)
    (folder / "sub" / "fuzz.jsonl").write_bytes(
        "".join(line + "\n" for line in lines).encode("utf-8", "surrogatepass")
    )
    (folder / "loop").symlink_to(".")
    (folder / "sub" / "up").symlink_to("..")
    return folder


def test_every_output_format_of_a_hostile_folder_is_escaped_and_a_full_disk_exits_4(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.test_reliability_outputs import _main, _stdout_on_dev_full

    folder = str(_hostile_folder(tmp_path, random.Random(7)))
    for args in OUTPUTS:
        result = run_cli(args[0], folder, *args[1:])
        assert result.exit_code in (0, 1, 2), (args, result.output)
        assert result.output.count("a link back into") == 2, (args, result.output)
        if not {"json", "jsonl"} & set(args) and args != ["export", "--out", "-"]:  # JSON: raw
            raw = [c for c in result.output if c != "\n" and not c.isprintable()]
            assert raw == [], (args, result.output)
    for args in OUTPUTS[::4]:  # a fresh /dev/full each (a failure points stdout elsewhere)
        with _stdout_on_dev_full(monkeypatch):
            assert _main(args[0], folder, *args[1:]) == 4, args
        assert "error: <stdout>: no space left on device" in capsys.readouterr().err, args
