"""The live journal: one append-only JSON Lines file per game in progress, under ``_live/``.

An append takes an exclusive ``fcntl`` lock on the game's file, checks that the caller's
expected sequence number is the stream's next one (optimistic concurrency), writes the events in
one ``write`` and ``fsync``\\ s before returning, so an acknowledged event survives a crash of the
writer. A last line without its newline was never acknowledged: readers ignore it and the next
append cuts it off.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import quote, unquote

from replay.events import Event
from replay.store.errors import ConcurrencyConflict, InvalidGame
from replay.store.jsonl import event_to_line, line_to_event
from replay.store.validate import check_appended

SUFFIX = ".jsonl"


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class Tail:
    """What an append needs of a stream: its next seq, kind, whether it ended, valid size."""

    __slots__ = ("ended", "kind", "next_seq", "valid_size")

    def __init__(self, next_seq: int, kind: str | None, ended: bool, valid_size: int) -> None:
        self.next_seq = next_seq
        self.kind = kind
        self.ended = ended
        self.valid_size = valid_size


def read_tail(fd: int, game_id: str) -> Tail:
    """The tail of a journal file: its last complete line, read backwards from the end."""
    size = os.fstat(fd).st_size
    chunk = 4096
    while True:
        start = max(0, size - chunk)
        data = os.pread(fd, size - start, start)
        end = data.rfind(b"\n")
        if end < 0 and start == 0:
            return Tail(0, None, False, 0)
        if end >= 0:
            begin = data.rfind(b"\n", 0, end) + 1
            if begin > 0 or start == 0:
                break
        chunk *= 4
    try:
        last = json.loads(data[begin:end])
        return Tail(
            int(last["seq"]) + 1, str(last["kind"]), last["type"] == "game_end", start + end + 1
        )
    except (ValueError, KeyError, TypeError) as exc:
        raise InvalidGame(
            "STORE-JOURNAL", f"corrupt journal line: {exc}", game_id=game_id
        ) from None


class Journal:
    """The ``_live/`` directory of a store."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def path(self, game_id: str) -> Path:
        """The journal file of a game (its id, percent-encoded)."""
        return self.directory / (quote(game_id, safe="") + SUFFIX)

    def games(self) -> list[str]:
        """The ids of the games with a journal."""
        if not self.directory.exists():
            return []
        names = sorted(p.name for p in self.directory.iterdir() if p.name.endswith(SUFFIX))
        return [unquote(name.removesuffix(SUFFIX)) for name in names]

    def read(self, game_id: str) -> list[Event]:
        """The acknowledged events of a live game (a partial last line is ignored)."""
        try:
            data = self.path(game_id).read_bytes()
        except FileNotFoundError:
            return []
        lines = data.split(b"\n")[:-1]
        events = []
        for number, line in enumerate(lines, start=1):
            try:
                events.append(line_to_event(line.decode("utf-8")))
            except (ValueError, UnicodeDecodeError) as exc:
                raise InvalidGame(
                    "STORE-JOURNAL",
                    f"corrupt line {number}: {exc}",
                    game_id=game_id,
                    source=str(self.path(game_id)),
                ) from None
        return events

    @contextlib.contextmanager
    def locked(self, game_id: str, create: bool = False) -> Iterator[int | None]:
        """Hold the game's journal locked; yields its descriptor (None when it has none)."""
        self.directory.mkdir(parents=True, exist_ok=True)
        path = self.path(game_id)
        flags = os.O_RDWR | os.O_APPEND | (os.O_CREAT if create else 0)
        while True:
            try:
                fd = os.open(path, flags, 0o644)
            except FileNotFoundError:
                yield None
                return
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
                try:
                    same = os.stat(path).st_ino == os.fstat(fd).st_ino
                except FileNotFoundError:
                    same = False
                if same:
                    yield fd
                    return
            finally:
                os.close(fd)  # closing releases the lock

    def append(
        self,
        game_id: str,
        events: list[Event],
        expected_seq: int,
        stored_length: Callable[[str], int | None],
    ) -> int:
        """Append ``events`` at ``expected_seq``; durable on return. Returns the next seq.

        ``stored_length`` tells how many events a sealed game has (None when not sealed).
        """
        with self.locked(game_id, create=True) as fd:
            assert fd is not None
            tail = read_tail(fd, game_id)
            size = os.fstat(fd).st_size
            try:
                self._check(game_id, events, expected_seq, tail, stored_length)
            except Exception:
                if size == 0:
                    os.unlink(self.path(game_id))
                raise
            if tail.valid_size < size:
                os.ftruncate(fd, tail.valid_size)
            data = "".join(event_to_line(e) + "\n" for e in events).encode("utf-8")
            os.write(fd, data)
            os.fsync(fd)
            if size == 0:
                _fsync_dir(self.directory)
            return expected_seq + len(events)

    @staticmethod
    def _check(
        game_id: str,
        events: list[Event],
        expected_seq: int,
        tail: Tail,
        stored_length: Callable[[str], int | None],
    ) -> None:
        actual = tail.next_seq
        if actual == 0:
            stored = stored_length(game_id)
            actual = stored if stored is not None else 0
            if stored is not None:
                raise ConcurrencyConflict(game_id, expected_seq, actual)
        if expected_seq != actual:
            raise ConcurrencyConflict(game_id, expected_seq, actual)
        check_appended(game_id, events, expected_seq, tail.kind, tail.ended)

    def remove(self, game_id: str) -> None:
        """Delete a game's journal (the caller holds its lock)."""
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path(game_id))
        _fsync_dir(self.directory)
