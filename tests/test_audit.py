"""The audit: simulated corpora audit clean; one changed field is found with the right rule."""

from __future__ import annotations

import dataclasses
import itertools
import multiprocessing
import multiprocessing.connection
import pickle
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import replay.audit.check
from replay import is_compiled
from replay.audit import AuditReport, GameAudit, audit_game, audit_many, audit_table
from replay.audit.check import audit_clean_rows, audit_rows, count_games, game_starts, split_by_game
from replay.audit.explain import explain_step
from replay.audit.findings import UNREAD_COLUMNS
from replay.audit.parallel import MAX_SLICE_ROWS, MIN_ROWS_PER_JOB, MIN_SLICE_ROWS, _SlicePlan
from replay.audit.report import format_report
from replay.engine import walk
from replay.engine.simulate import simulate_game
from replay.games import available_kinds, get_fast_path, get_rules
from replay.games.hearts import DECK
from replay.model.decode import decode_columns, decode_table, row_changes
from replay.model.events import COLUMNS, Event, events_to_table
from tests.builders import one_field_away

KINDS = available_kinds()


def game(kind: str, seed: int, players: int | None = None) -> list[Event]:
    rules = get_rules(kind)
    n = players or rules.min_players
    return simulate_game(rules, f"{kind}-{seed}", players=n, seed=seed, bots=("random",))


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.slow
def test_simulated_corpora_audit_clean(kind: str) -> None:
    rules = get_rules(kind)
    for seed in range(30):
        players = rules.min_players + seed % (rules.max_players - rules.min_players + 1)
        audit = audit_game(game(kind, seed, players))
        assert audit.clean, [f.message for f in audit.findings]
        assert audit.stopped_at is None


def rows_of(events: list[Event]) -> Any:
    """The decoded columns of a log, as the bulk audit reads them."""
    return decode_table(events_to_table(events), skip=UNREAD_COLUMNS)


@pytest.mark.skipif(is_compiled(), reason="spies on a game's rules with an interpreted subclass")
@pytest.mark.parametrize("kind", KINDS)
def test_the_clean_path_verifies_with_the_previous_event_as_last(
    kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where advance gives way, ``verify`` sees the event before as ``state.last`` (not the
    scratch event, which holds the current row by then)."""
    seen: list[tuple[Event, Event]] = []
    fast_class = type(get_fast_path(kind))

    class Spy(fast_class):  # type: ignore[valid-type, misc]
        def verify(self, state: Any, event: Event) -> None:
            seen.append((state.last, event))
            super().verify(state, event)

    monkeypatch.setattr(replay.audit.check, "get_fast_path", lambda _: Spy(get_rules(kind)))
    events = cached_game(kind, 0)
    assert audit_clean_rows(rows_of(events), 0, len(events)) is not None
    assert seen  # every game leaves the fast path a few times
    untimed = [dataclasses.replace(event, ts=None) for event in events]  # ts is not read
    assert [last for last, _ in seen] == [untimed[event.seq - 1] for _, event in seen]


@cache
def cached_game(kind: str, seed: int) -> list[Event]:
    rules = get_rules(kind)
    return game(kind, seed, rules.min_players + seed % (rules.max_players - rules.min_players + 1))


@pytest.mark.parametrize("kind", KINDS)
def test_clean_and_unfinished_games_take_the_clean_path_with_the_same_audit(kind: str) -> None:
    for seed in range(4):
        events = cached_game(kind, seed)
        cut = events[: len(events) * 2 // 3]
        cases: list[tuple[list[Event], bool, list[str]]] = [
            (events, False, []),
            (cut, False, []),
            (cut, True, ["LOG-ORDER"]),
        ]
        for log, complete, rules_found in cases:
            columns = rows_of(log)
            changes = row_changes(columns, len(log))
            audit = audit_clean_rows(columns, 0, len(log), changes, complete=complete)
            assert audit is not None  # the clean path took it to the end
            assert [f.rule for f in audit.findings] == rules_found
            assert audit.incomplete == (log is cut and not complete)
            assert audit.to_dict() == audit_game(log, complete=complete).to_dict()


@settings(max_examples=400)
@given(kind=st.sampled_from(KINDS), seed=st.integers(0, 3), data=st.data())
@pytest.mark.slow
def test_a_changed_event_gets_the_same_audit_from_rows_as_from_events(
    kind: str, seed: int, data: st.DataObject
) -> None:
    """The clean path gives way to the general one on any fault: the same findings, stop and
    reason as audit_game's, whichever field of whichever event is changed."""
    events = cached_game(kind, seed)
    index = data.draw(st.integers(1, len(events) - 1), label="index")
    event = events[index]
    variants = [*one_field_away(event), event.at(event.seq + 1), event.at(0)]
    variants.append(dataclasses.replace(event, kind="other"))
    log = list(events)
    log[index] = data.draw(st.sampled_from(variants), label="variant")
    columns = rows_of(log)
    expected = audit_game(log).to_dict()
    assert audit_rows(columns, 0, len(log)).to_dict() == expected
    changes = row_changes(columns, len(log))  # only the fields that change are refilled
    assert audit_rows(columns, 0, len(log), changes).to_dict() == expected


def first(events: list[Event], type_: str, skip: int = 0) -> int:
    return [i for i, e in enumerate(events) if e.type == type_][skip]


def changed(events: list[Event], index: int, **fields: object) -> list[Event]:
    out = list(events)
    out[index] = dataclasses.replace(events[index], **fields)  # type: ignore[arg-type]
    return out


def only_finding(events: list[Event]) -> tuple[str, int]:
    findings = audit_game(events, complete=True).findings
    assert len(findings) == 1, [(f.rule, f.seq, f.message) for f in findings]
    return findings[0].rule, findings[0].seq


def test_trick_given_to_the_wrong_seat_is_found_and_the_audit_goes_on() -> None:
    events = game("hearts", 1)
    i = first(events, "trick_won", 5)
    wrong = changed(events, i, player=(events[i].player + 1) % 4)  # type: ignore[operator]
    audit = audit_game(wrong)
    assert [(f.rule, f.seq) for f in audit.findings] == [("HEARTS-TRICK", i)]
    assert audit.stopped_at is None  # the rules' own ruling is applied and the audit goes on
    assert "the rules give trick_won" in audit.findings[0].message


def test_score_off_by_one_is_found() -> None:
    events = game("hearts", 2)
    i = first(events, "round_scored", 2)
    wrong = changed(events, i, amount=events[i].amount + 1, total=events[i].total + 1)  # type: ignore[operator]
    assert only_finding(wrong) == ("HEARTS-POINTS", i)


@pytest.mark.skipif("hiifuu" not in KINDS, reason="hiifuu module absent")
def test_token_from_the_wrong_place_is_found() -> None:
    events = game("hiifuu", 3)
    i = first(events, "token_taken")
    e = events[i]
    assert e.target is not None and e.amount is not None
    rule, seq = only_finding(changed(events, i, target=(e.target + 1) % 4, amount=e.amount + 1))
    assert (rule, seq) == ("HIIFUU-SECOND", i)


@pytest.mark.skipif("hez2" not in KINDS, reason="hez2 module absent")
def test_payout_split_wrongly_is_found() -> None:
    rules = get_rules("hez2")
    events = simulate_game(
        rules, "pay", players=3, seed=5, bots=("heuristic",),
        options={"bots": [False, False, False], "stakes": [300, 200, 100]},
    )  # fmt: skip
    i = first(events, "payout")
    amount = events[i].amount
    assert amount is not None
    assert only_finding(changed(events, i, amount=amount + 1)) == ("HEZ2-STAKES", i)


@pytest.mark.skipif("fou" not in KINDS, reason="fou module absent")
def test_fool_given_to_the_wrong_player_is_found() -> None:
    events = game("fou", 4, 5)
    i = first(events, "fool", 3)
    e = events[i]
    assert e.player is not None
    assert only_finding(changed(events, i, player=(e.player + 1) % 5)) == ("FOU-FOOL", i)


def test_illegal_play_is_reported_and_the_audit_continues() -> None:
    events = game("hearts", 6)
    rules = get_rules("hearts")
    state = rules.start(events[0])
    for index, event in enumerate(events[1:], 1):
        if event.type == "play" and state.table:
            led = state.table[0] // 13
            hand = state.hands[event.player]
            off = [c for c in DECK.codes(hand) if DECK.index(c) // 13 != led]
            if off and hand & (0x1FFF << 13 * led):
                bad = changed(events, index, card=off[0])
                break
        state = rules.apply(state, event)
    else:
        pytest.fail("no play where a player could revoke")
    audit = audit_game(bad)
    assert audit.findings[0].rule == "HEARTS-FOLLOW"
    assert audit.findings[0].seq == index
    assert "while holding" in audit.findings[0].message and "were led" in audit.findings[0].message


def test_card_not_held_stops_the_game_audit_with_a_reason() -> None:
    events = game("hearts", 7)
    i = first(events, "play", 10)
    held_elsewhere = events[first(events, "deal")].cards
    assert held_elsewhere is not None
    card = next(c for c in held_elsewhere if c != events[i].card)
    audit = audit_game(changed(events, i, card=card))
    assert audit.findings[0].rule in ("LOG-CARD", "HEARTS-FOLLOW")
    if audit.findings[0].rule == "LOG-CARD":
        assert audit.stopped_at == i and "cannot absorb" in audit.stop_reason


def test_integrity_gap_duplicate_after_end_and_missing_ruling() -> None:
    events = game("hearts", 8)
    gap = events[:10] + events[11:]
    assert only_finding(gap) == ("LOG-SEQUENCE", 11)
    dup = [*events[:10], events[9], *events[10:]]
    assert audit_game(dup).findings[0].message == "seq 9 recorded twice (identical)"
    after = [*events, dataclasses.replace(events[-2], seq=len(events))]
    assert only_finding(after) == ("LOG-AFTER-END", len(events))
    i = first(events, "trick_won")
    cut = events[:i]
    rule, seq = only_finding(cut)
    assert (rule, seq) == ("LOG-ORDER", i)
    assert "trick_won" in audit_game(cut, complete=True).findings[0].message


def test_missing_game_start_and_unknown_kind() -> None:
    events = game("hearts", 9)
    no_start = [e.at(i) for i, e in enumerate(events[1:])]
    assert only_finding(no_start) == ("LOG-SETUP", 0)
    alien = [dataclasses.replace(e, kind="poker") for e in events[:3]]
    assert only_finding(alien) == ("LOG-SETUP", 0)


def test_report_is_the_same_whatever_the_split() -> None:
    games = [game("hearts", s) for s in range(6)]
    table = events_to_table([e for g in games for e in g])
    one = AuditReport(games=[a for part in split_by_game(table, 1) for a in audit_table(part)])
    many = AuditReport(games=[a for part in split_by_game(table, 5) for a in audit_table(part)])
    assert format_report(one, "json") == format_report(many, "json")
    assert len(one.games) == 6


@pytest.mark.parametrize("kind", KINDS)
def test_a_walk_of_faults_only_yields_the_same_faults_and_final_state(kind: str) -> None:
    rules = get_rules(kind)
    events = game(kind, 3)
    i = first(events, "play", 7)
    for log in (events, changed(events, i, seq=i + 1), changed(events, i, card="nonsense")):
        every = [(s.event.seq, s.violation and s.violation.rule) for s in walk(rules, log)]
        steps = list(walk(rules, log, faults_only=True))
        faults = [(s.event.seq, s.violation and s.violation.rule) for s in steps]
        assert faults[0] == every[0]  # the start, whose state is the working state
        assert faults[1:] == [f for f in every[1:] if f[1] is not None]
        assert steps[-1].state == list(walk(rules, log))[-1].state
    assert len(list(walk(rules, events, faults_only=True))) == 1  # a clean game: the start only


def test_findings_from_worker_processes_are_the_same_as_in_one_process() -> None:
    """Findings travel back from the workers (pickled): 2 jobs report what 1 job does."""
    games = [game("hearts", s) for s in range(12)] + [game("fou", s) for s in range(4)]
    for g in games[::3]:  # a wrong trick ruling in some games, one bad play in another
        i = first(g, "trick_won", 2)
        g[i] = dataclasses.replace(g[i], player=(g[i].player + 1) % 4)  # type: ignore[operator]
    table = events_to_table([e for g in games for e in g])
    one, two = audit_many(table, 1), audit_many(table, 2, min_rows_per_job=0)
    assert len(one.findings) >= 5
    assert format_report(two, "json") == format_report(one, "json")


def test_game_audits_survive_pickling() -> None:
    """Every field of a game's audit, a stopped one with findings included, crosses processes."""
    events = game("hearts", 2)
    i = first(events, "play")
    stopped = audit_game(changed(events, i, card="ZZ"))
    assert stopped.findings and stopped.stopped_at is not None and stopped.stop_reason
    for audit in (stopped, audit_game(events)):
        copy = pickle.loads(pickle.dumps(audit))
        assert copy == audit and type(copy) is type(audit)


def test_report_formats_cite_rule_and_text() -> None:
    """A trick's wrong point count cites HEARTS-POINTS (RULES.md HEARTS-POINTS [decision])."""
    events = game("hearts", 1)
    i = first(events, "trick_won")
    report = AuditReport(games=[audit_game(changed(events, i, amount=99))])
    table = format_report(report, "table")
    assert "HEARTS-POINTS" in table and "each heart taken is 1 penalty point" in table
    assert "| hearts-1 |" in format_report(report, "markdown")
    assert report.exit_code == 1


def test_negative_seq_is_a_finding_not_a_crash() -> None:
    events = game("hearts", 10)
    for stray in (dataclasses.replace(events[3], seq=-1), dataclasses.replace(events[0], seq=-2)):
        audit = audit_game([stray, *events])
        assert [(f.rule, f.seq) for f in audit.findings] == [("LOG-SEQUENCE", stray.seq)]
        assert audit.stopped_at is None  # the sequence 0..n is whole: the rest is audited


def test_event_of_another_kind_or_game_stops_with_log_setup() -> None:
    events = game("hearts", 11)
    i = first(events, "play", 5)  # Hearts accepts most plays on a fast path
    for alien in (
        dataclasses.replace(events[i], kind="hez2"),
        dataclasses.replace(events[i], game_id="other"),
    ):
        audit = audit_game(changed(events, i, kind=alien.kind, game_id=alien.game_id))
        assert [(f.rule, f.seq) for f in audit.findings] == [("LOG-SETUP", i)]
        assert audit.stopped_at == i
        verdict = explain_step(changed(events, i, kind=alien.kind, game_id=alien.game_id), i)
        assert (verdict.ok, verdict.rule) == (False, "LOG-SETUP")


def test_explain_judges_events_in_any_order_and_identical_duplicates() -> None:
    events = game("hearts", 12)
    i = first(events, "trick_won", 2)
    wrong = changed(events, i, player=(events[i].player + 1) % 4)  # type: ignore[operator]
    expected = explain_step(wrong, i)
    assert (expected.ok, expected.rule) == (False, "HEARTS-TRICK")
    assert explain_step(list(reversed(wrong)), i) == expected
    assert explain_step([*wrong[:5], wrong[4], *wrong[5:]], i) == expected
    assert explain_step(wrong, i + 1).ok  # judged after the rules' own ruling
    with pytest.raises(IndexError, match="not in this game"):
        explain_step(wrong, len(wrong))
    with pytest.raises(IndexError, match="not in this game"):
        explain_step(wrong, -1)


def test_explain_past_a_sequence_fault_says_why() -> None:
    events = game("hearts", 13)
    other = dataclasses.replace(events[9], player=(events[9].player or 0) + 1)
    with pytest.raises(ValueError, match=r"seq 9 recorded twice.*LOG-SEQUENCE"):
        explain_step([*events[:10], other, *events[10:]], 20)
    with pytest.raises(ValueError, match=r"seq 9 to 9 missing.*LOG-SEQUENCE"):
        explain_step([*events[:9], *events[10:]], 20)
    assert explain_step([*events[:9], *events[10:]], 8).ok


def test_explain_of_an_unknown_kind_is_a_verdict_or_a_value_error() -> None:
    alien = [dataclasses.replace(e, kind="poker") for e in game("hearts", 14)[:5]]
    verdict = explain_step(alien, 0)
    assert (verdict.ok, verdict.rule) == (False, "LOG-SETUP")
    with pytest.raises(ValueError, match="unknown game kind 'poker'"):
        explain_step(alien, 3)


def test_a_game_the_audit_could_not_reduce_is_not_clean() -> None:
    broken = GameAudit("g", "hearts", 10, stopped_at=4, stop_reason="internal error while x")
    report = AuditReport(games=[broken])
    assert not broken.clean and report.exit_code == 2
    stopped = GameAudit("h", "hearts", 10, stopped_at=4, stop_reason="events are missing")
    assert AuditReport(games=[stopped]).exit_code == 0  # its findings decide, not the stop


def dictionary_encoded(table: pa.Table) -> pa.Table:
    """The table as ``EventStore.scan(dictionary=True)`` gives it: strings as dictionaries."""
    columns = []
    for column in table.columns:
        if pa.types.is_string(column.type):
            column = pc.dictionary_encode(column)
        elif pa.types.is_list(column.type) and pa.types.is_string(column.type.value_type):
            encoded = pa.list_(pa.dictionary(pa.int32(), pa.string()))
            column = column.cast(encoded)
        columns.append(column)
    return pa.table(columns, names=table.column_names)


def test_dictionary_encoded_tables_audit_as_plain_ones() -> None:
    """The fast read path (dictionary columns) gives the same report, grouped or interleaved
    (a trick's wrong point count: HEARTS-POINTS, RULES.md HEARTS-POINTS [decision])."""
    games = [game("hearts", s) for s in range(5)] + [game("hiifuu", s) for s in range(3)]
    i = first(games[1], "trick_won", 1)
    games[1][i] = dataclasses.replace(games[1][i], amount=(games[1][i].amount or 0) + 1)
    grouped = events_to_table([e for g in games for e in g])
    interleaved = events_to_table([e for pair in zip(*games[:3], strict=False) for e in pair])
    for table in (grouped, interleaved):
        expected = format_report(audit_many(table, 1), "json")
        encoded = dictionary_encoded(table)
        assert pa.types.is_dictionary(encoded.schema.field("card").type)
        assert format_report(audit_many(encoded, 1), "json") == expected
        assert format_report(audit_many(encoded, 2, min_rows_per_job=0), "json") == expected
    assert count_games(dictionary_encoded(grouped)) == count_games(grouped) == 8
    assert [f.rule for f in audit_many(dictionary_encoded(grouped), 1).findings] == [
        "HEARTS-POINTS"
    ]


def test_the_audit_does_not_read_times() -> None:
    """No rule is about time: ``ts`` is not decoded (the costliest column), findings agree."""
    start = datetime(2026, 12, 1, tzinfo=UTC)
    events = game("hearts", 4)
    i = first(events, "play", 5)
    events[i] = dataclasses.replace(events[i], card="ZZ")
    timed = [dataclasses.replace(e, ts=start + timedelta(seconds=e.seq)) for e in events]
    with_times, without = events_to_table(timed), events_to_table(events)
    assert with_times.column("ts").null_count == 0
    report = format_report(audit_many(with_times, 1), "json")
    assert report == format_report(audit_many(without, 1), "json")
    assert [f.rule for f in audit_many(with_times, 1).findings] == ["LOG-CARD"]
    assert decode_columns(with_times, skip=UNREAD_COLUMNS)[COLUMNS.index("ts")][0] is None
    assert decode_columns(with_times)[COLUMNS.index("ts")][0] == start


@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_progress_counts_every_game_once(jobs: int) -> None:
    """Slices done by this process and by workers (reported from another thread) add up."""
    table = events_to_table([e for s in range(20) for e in game("hez2", s)])
    done: list[int] = []
    report = audit_many(table, jobs, done.append, min_rows_per_job=0)
    assert sum(done) == len(report.games) == 20
    assert len(done) > (1 if jobs == 1 else 2)


@settings(max_examples=300, deadline=None)
@given(
    lengths=st.lists(st.integers(1, 40_000), min_size=1, max_size=80),
    jobs=st.integers(1, 4),
    order=st.lists(st.booleans(), min_size=200, max_size=200),
)
@pytest.mark.slow
def test_slice_plans_cover_every_row_once_in_whole_games(
    lengths: list[int], jobs: int, order: list[bool]
) -> None:
    """Processes taking slices from both ends in any order get every game exactly once, each
    slice whole games, of at least the planned size unless less is left, and the slices
    taken from the front shrink as the rows left do."""
    starts = [sum(lengths[:i]) for i in range(len(lengths))]
    rows = sum(lengths)
    plan = _SlicePlan(starts, rows, jobs)
    ends = [0, rows]
    pieces: list[tuple[int, int]] = []
    for from_back in order + [False] * len(lengths):
        left = ends[1] - ends[0]
        piece = plan.take(ends, from_back)
        if piece is None:
            break
        offset, length = piece
        assert length >= min(left, plan.size(left))
        assert offset in starts and (offset + length in starts or offset + length == rows)
        pieces.append(piece)
    assert plan.take(ends, False) is None and plan.take(ends, True) is None
    assert sorted(pieces) == [(a, b - a) for a, b in itertools.pairwise(sorted(
        {o for o, _ in pieces} | {rows}))]  # fmt: skip
    assert sum(length for _, length in pieces) == rows


def test_slices_shrink_towards_where_the_processes_meet() -> None:
    """Two processes auditing 870,000 rows of 870-row games: a few large slices first, small
    ones last, about 20 in all (32 of 27,000 rows before: 1.5 ms of set-up each)."""
    starts = list(range(0, 870_000, 870))
    plan = _SlicePlan(starts, 870_000, 2)
    ends = [0, 870_000]
    sizes: list[int] = []
    while (piece := plan.take(ends, from_back=len(sizes) % 2 == 1)) is not None:
        sizes.append(piece[1])
    assert plan.largest == min(MAX_SLICE_ROWS, 870_000 // 8) and plan.smallest == MIN_SLICE_ROWS
    assert sizes[0] >= plan.largest and sizes[-1] <= plan.smallest + 870
    assert all(later <= earlier + 870 for earlier, later in itertools.pairwise(sizes))
    assert 15 <= len(sizes) <= 25


def test_small_tables_are_audited_without_worker_processes(monkeypatch: Any) -> None:
    """Below MIN_ROWS_PER_JOB rows per process, forking would cost more than it saves."""

    def no_pool(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a worker process was started")

    monkeypatch.setattr(multiprocessing, "get_context", no_pool)
    table = events_to_table([e for s in range(6) for e in game("hearts", s)])
    assert table.num_rows < 2 * MIN_ROWS_PER_JOB
    assert format_report(audit_many(table, 2), "json") == format_report(audit_many(table), "json")
    with pytest.raises(AssertionError, match="worker process"):
        audit_many(table, 2, min_rows_per_job=0)


@pytest.mark.parametrize("encoded", [True, False])
def test_game_runs_go_on_across_batches_whatever_their_dictionaries(encoded: bool) -> None:
    """Batches of one Parquet file share a dictionary, batches of two files do not: a game
    that goes on into the next batch is one run either way, and one that comes back later is
    counted once."""
    chunks: list[Any] = [pa.array(["g1", "g1", "g2"]), pa.array(["g2", "g3"])]
    if encoded:  # the second batch has another dictionary (g2 goes on), the third the same
        chunks = [chunk.dictionary_encode() for chunk in chunks]
        indices = pa.array([1, 1, 0], pa.int32())  # g3 goes on, then g2 comes back
        chunks.append(pa.DictionaryArray.from_arrays(indices, chunks[1].dictionary))
    else:
        chunks.append(pa.array(["g3", "g3", "g2"]))  # g3 goes on, then g2 comes back
    table = pa.Table.from_arrays([pa.chunked_array(chunks)], names=["game_id"])
    assert game_starts(table) == [0, 2, 4, 7]
    assert count_games(table) == 3


def test_a_worker_process_error_stops_the_audit_and_names_it(monkeypatch: Any) -> None:
    """What stops a worker (here: its results cannot be sent) reaches the caller."""

    def send_only_errors(connection: Any, message: Any) -> None:
        if not isinstance(message, BaseException):
            raise ValueError("results lost")
        original(connection, message)

    original = multiprocessing.connection.Connection.send
    monkeypatch.setattr(multiprocessing.connection.Connection, "send", send_only_errors)
    table = events_to_table([e for s in range(8) for e in game("hearts", s)])
    with pytest.raises(RuntimeError, match=r"worker process failed: ValueError.*results lost"):
        audit_many(table, 2, min_rows_per_job=0)


def test_a_worker_process_that_ends_without_its_results_stops_the_audit(
    monkeypatch: Any,
) -> None:
    """A worker that cannot send anything at all (its pipe is broken) is not waited for."""

    def broken_pipe(connection: Any, message: Any) -> None:
        raise OSError("broken pipe")

    monkeypatch.setattr(multiprocessing.connection.Connection, "send", broken_pipe)
    table = events_to_table([e for s in range(8) for e in game("hearts", s)])
    with pytest.raises(RuntimeError, match="ended before its results"):
        audit_many(table, 2, min_rows_per_job=0)


RELOAD_FREED_BLOCKS = """
import resource, sys
from replay.audit.parallel import retain_freed_memory
if sys.argv[1] == "retain":
    retain_freed_memory()
blocks = [bytes(100_000) for _ in range(400)]  # 40 MB from malloc's heap (below mmap's size)
del blocks
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
blocks = [bytes(100_000) for _ in range(400)]
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


@pytest.mark.skipif(sys.platform != "linux", reason="glibc's malloc")
def test_freed_memory_is_reused_without_page_faults() -> None:
    """After retain_freed_memory, memory freed and allocated again costs no page faults."""

    def faults(mode: str) -> int:
        command = [sys.executable, "-c", RELOAD_FREED_BLOCKS, mode]
        return int(subprocess.run(command, check=True, capture_output=True, text=True).stdout)

    assert faults("default") > 5_000  # 40 MB returned to the kernel, then faulted back in
    assert faults("retain") < 500


@pytest.mark.parametrize("data", ["not json {", "[1]", "[" * 100_000 + "]" * 100_000])
def test_game_start_data_that_is_no_json_object_stops_the_game_with_log_setup(data: str) -> None:
    for kind_events in (game("hearts", 13), game("fou", 13)):
        audit = audit_game(changed(kind_events, 0, data=data))
        assert [(f.rule, f.seq) for f in audit.findings] == [("LOG-SETUP", 0)]
        assert audit.stopped_at == 0
        assert explain_step(changed(kind_events, 0, data=data), 0).rule == "LOG-SETUP"
