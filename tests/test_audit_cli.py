"""``replay simulate``, ``replay audit`` and ``replay explain`` through the CLI."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from replay.cli import app
from replay.engine.simulate import simulate_game
from replay.games.hearts import RULES
from replay.model.events import Event
from replay.store.jsonl import event_to_line

RUNNER = CliRunner()


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("audit") / "store"
    for kind, players in (("hearts", "4"), ("hez2", "3"), ("hiifuu", "5"), ("fou", "6")):
        result = RUNNER.invoke(
            app, ["simulate", kind, "--games", "3", "--seed", "7", "--players", players,
                  "--out", str(path), "--bots", "random,heuristic"],
        )  # fmt: skip
        assert result.exit_code == 0, result.output
        assert f"3 {kind} games" in result.output
    return path


def write_log(path: Path, events: list[Event]) -> Path:
    path.write_text("".join(event_to_line(e) + "\n" for e in events), encoding="utf-8")
    return path


def wrong_trick(seed: int = 3) -> tuple[list[Event], int]:
    events = simulate_game(RULES, f"dispute-{seed}", players=4, seed=seed)
    i = next(i for i, e in enumerate(events) if e.type == "trick_won")
    winner = events[i].player
    assert winner is not None
    events[i] = dataclasses.replace(events[i], player=(winner + 1) % 4)
    return events, i


def test_simulated_store_audits_clean_with_one_and_two_jobs(store: Path) -> None:
    one = RUNNER.invoke(app, ["audit", str(store), "--format", "json"])
    two = RUNNER.invoke(app, ["audit", str(store), "--format", "json", "--jobs", "2"])
    assert one.exit_code == 0 and two.exit_code == 0, one.output
    assert one.output == two.output
    assert json.loads(one.output)["games"] == 12


def test_audit_one_game_by_prefix_and_kind_filter(store: Path) -> None:
    result = RUNNER.invoke(app, ["audit", str(store), "--game", "hez2-7-000001"])
    assert result.exit_code == 0 and "1 game," in result.output
    result = RUNNER.invoke(app, ["audit", str(store), "--kind", "fou", "--format", "markdown"])
    assert result.exit_code == 0 and "3 games" in result.output


def test_audit_of_a_jsonl_file_with_a_wrong_ruling(tmp_path: Path) -> None:
    events, i = wrong_trick()
    log = write_log(tmp_path / "d.jsonl", events)
    result = RUNNER.invoke(app, ["audit", str(log)])
    assert result.exit_code == 1
    assert f"seq {i}  HEARTS-TRICK" in result.output
    assert "highest card of the led suit wins" in result.output


def test_explain_a_wrong_ruling_and_a_right_one(tmp_path: Path) -> None:
    events, i = wrong_trick()
    log = write_log(tmp_path / "d.jsonl", events)
    wrong = RUNNER.invoke(app, ["explain", str(log), "--game", "dispute", "--step", str(i)])
    assert wrong.exit_code == 1
    assert "verdict: ruling wrong: recorded trick_won" in wrong.output
    assert "(HEARTS-TRICK)" in wrong.output and "state before the event" in wrong.output
    right = RUNNER.invoke(app, ["explain", str(log), "--game", "dispute", "--step", str(i - 1)])
    assert right.exit_code == 0 and "verdict: legal: " in right.output


def test_explain_an_illegal_play_as_json(tmp_path: Path) -> None:
    events = simulate_game(RULES, "revoke", players=4, seed=11)
    i = next(i for i, e in enumerate(events) if e.type == "play" and e.trick == 1) + 1
    led = events[i - 1].card
    assert led == "2C"
    # A club was led: give the second player a diamond they hold while they hold a club.
    state = RULES.replay(events[:i], check=False)
    seat = events[i].player
    assert seat is not None
    hand = RULES.deck.codes(state.hands[seat])
    if not any(c.endswith("C") for c in hand) or not any(not c.endswith("C") for c in hand):
        pytest.skip("seat cannot revoke in this deal")
    card = next(c for c in hand if not c.endswith("C"))
    events[i] = dataclasses.replace(events[i], card=card)
    log = write_log(tmp_path / "r.jsonl", events)
    result = RUNNER.invoke(
        app, ["explain", str(log), "--game", "revoke", "--step", str(i), "--json"]
    )
    verdict = json.loads(result.output)
    assert result.exit_code == 1
    assert verdict["rule"] in ("HEARTS-FOLLOW", "HEARTS-FIRST-TRICK")
    assert verdict["verdict"].startswith(f"illegal: seat {seat} played {card}")


def test_errors_are_one_line_without_traceback(tmp_path: Path, store: Path) -> None:
    missing = RUNNER.invoke(app, ["audit", str(tmp_path / "nowhere")])
    assert missing.exit_code == 2 and "Traceback" not in missing.output
    ambiguous = RUNNER.invoke(app, ["explain", str(store), "--game", "h", "--step", "3"])
    assert ambiguous.exit_code == 2 and "several games" in ambiguous.output
    out_of_range = RUNNER.invoke(
        app, ["explain", str(store), "--game", "hez2-7-000000", "--step", "99999"]
    )
    assert out_of_range.exit_code == 2 and "not in this game" in out_of_range.output
    unknown = RUNNER.invoke(app, ["simulate", "poker", "--out", str(tmp_path / "s")])
    assert unknown.exit_code == 2 and "unknown game kind 'poker'" in unknown.output


def test_malformed_jsonl_lines_exit_2_and_the_rest_is_audited(tmp_path: Path) -> None:
    events, _ = wrong_trick()
    log = tmp_path / "bad.jsonl"
    lines = [event_to_line(e) for e in events]
    lines.insert(5, '{"game_id": "broken", "seq": ')
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = RUNNER.invoke(app, ["audit", str(log)])
    assert result.exit_code == 2
    assert "HEARTS-TRICK" in result.output  # the good lines were audited
    assert "bad.jsonl:6: malformed JSON" in result.output


def test_game_ids_in_a_jsonl_file_resolve_as_in_a_store(tmp_path: Path) -> None:
    one = simulate_game(RULES, "g1", players=4, seed=3)
    ten = simulate_game(RULES, "g10", players=4, seed=4)
    log = write_log(tmp_path / "two.jsonl", list(reversed(one)) + ten)  # out of order too
    exact = RUNNER.invoke(app, ["explain", str(log), "--game", "g1", "--step", "5"])
    assert exact.exit_code == 0 and "game g1 (hearts), event 5" in exact.output
    audit = RUNNER.invoke(app, ["audit", str(log), "--game", "g1"])
    assert audit.exit_code == 0 and "1 game," in audit.output
    ambiguous = RUNNER.invoke(app, ["audit", str(log), "--game", "g"])
    assert ambiguous.exit_code == 2 and "several games" in ambiguous.output
    missing = RUNNER.invoke(app, ["audit", str(log), "--game", "zz"])
    assert missing.exit_code == 2 and "no game id starts with 'zz'" in missing.output


def test_explain_names_unreadable_lines_of_a_jsonl_file(tmp_path: Path) -> None:
    events, i = wrong_trick()
    lines = [event_to_line(e) for e in events]
    lines.insert(2, '{"game_id": "dispute-3", "seq": ')
    log = tmp_path / "bad.jsonl"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = RUNNER.invoke(app, ["explain", str(log), "--game", "dispute", "--step", str(i)])
    assert result.exit_code == 1 and "(HEARTS-TRICK)" in result.output
    assert "bad.jsonl:3: malformed JSON" in result.output


def test_an_empty_jsonl_file_is_an_input_error(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    result = RUNNER.invoke(app, ["audit", str(empty)])
    assert result.exit_code == 2 and "no events" in result.output


def test_bulk_audit_runs_with_no_other_thread_alive(
    store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The audit forks its workers while the progress bar is shown: no refresh thread may be
    running then (a fork copies the locks it holds; a child that met one would hang)."""
    import threading

    from replay.audit import audit_many
    from replay.audit import store as store_audit

    threads_seen: list[list[str]] = []

    def recording(*args: object, **kwargs: object) -> object:
        threads_seen.append([t.name for t in threading.enumerate()])
        return audit_many(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(store_audit, "audit_many", recording)
    result = RUNNER.invoke(app, ["audit", str(store), "--jobs", "2"])
    assert result.exit_code == 0, result.output
    assert threads_seen  # one call per slice of the streamed audit: each forks alone
    assert all(names == [threading.main_thread().name] for names in threads_seen)
