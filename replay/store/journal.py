"""The live journal: one append-only JSON Lines file per game in progress, under ``_live/``.

An append takes an exclusive ``fcntl`` lock on the game's file, checks that the caller's
expected sequence number is the stream's next one (optimistic concurrency), writes the events in
one ``write`` and ``fsync``\\ s before returning, so an acknowledged event survives a crash of the
writer. A last line without its newline was never acknowledged: readers ignore it and the next
append cuts it off.

A journal is deleted only when the table holds exactly its events (a seal, or a seal that
crashed after its commit) or it holds no complete event; otherwise the store keeps it and reports
it (:meth:`Journal.unsettled`: STORE-JOURNAL, with the file, the game and the first differing seq).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import quote, unquote

from replay.model.events import Event
from replay.store.errors import ConcurrencyConflict, InvalidGame, StorageFailure, StoreRule
from replay.store.jsonl import event_to_line, line_to_event
from replay.store.storage import storage_cause
from replay.store.validate import Rejection, check_appended, first_difference

SUFFIX = ".jsonl"
#: The errors of a file or file system this process may read but not write.
READ_ONLY = frozenset({errno.EACCES, errno.EPERM, errno.EROFS})


#: The longest percent-encoded id kept as a file name (file systems allow 255 bytes).
MAX_QUOTED = 200
#: The first character of a hashed file name (percent-encoding writes ``#`` as ``%23``, so a
#: hashed name is never the encoding of an id).
HASHED = "#"


def file_name(game_id: str) -> str:
    """The journal file name of a game: its id percent-encoded (``/``, ``..``, controls and
    non-ASCII characters cannot lead out of ``_live/``), or, when that is longer than
    :data:`MAX_QUOTED`, ``#`` and the id's SHA-256.

    >>> file_name("g/../1"), file_name("x" * 300)[:12]
    ('g%2F..%2F1.jsonl', '#0d4e2ca9e9c')
    """
    quoted = quote(game_id, safe="", errors="surrogatepass")
    if len(quoted) <= MAX_QUOTED:
        return quoted + SUFFIX
    return HASHED + hashlib.sha256(game_id.encode("utf-8", "surrogatepass")).hexdigest() + SUFFIX


def _unquoted(name: str) -> str:
    return unquote(name.removesuffix(SUFFIX), errors="surrogatepass")


def _hashed_id(path: Path) -> str | None:
    """The game id of a journal under a hashed name, from its first complete line."""
    try:
        with path.open("rb") as file:
            line = file.readline()
        game_id = json.loads(line)["game_id"] if line.endswith(b"\n") else None
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        return None
    return game_id if isinstance(game_id, str) and file_name(game_id) == path.name else None


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _open_journal(path: Path, create: bool) -> int | None:
    """A descriptor of a journal for appending (None: no such journal); read-only when the
    file may not be written and ``create`` is not asked."""
    try:
        return os.open(path, os.O_RDWR | os.O_APPEND | (os.O_CREAT if create else 0), 0o644)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if create or exc.errno not in READ_ONLY:
            raise
    try:
        return os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return None


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
    except (ValueError, KeyError, TypeError, RecursionError) as exc:
        raise InvalidGame(
            StoreRule.JOURNAL, f"corrupt journal line: {exc}", game_id=game_id
        ) from None


class Journal:
    """The ``_live/`` directory of a store."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def path(self, game_id: str) -> Path:
        """The journal file of a game: :func:`file_name`."""
        return self.directory / file_name(game_id)

    def games(self) -> list[str]:
        """The ids of the games with a journal (a hashed name's id is read from its first
        line; one without a complete line holds no acknowledged event and is left out)."""
        if not self.directory.exists():
            return []
        names = sorted(p.name for p in self.directory.iterdir() if p.name.endswith(SUFFIX))
        ids = (
            _hashed_id(self.directory / n) if n.startswith(HASHED) else _unquoted(n) for n in names
        )
        return [game_id for game_id in ids if game_id is not None]

    def read(self, game_id: str) -> list[Event]:
        """The acknowledged events of a live game (a partial last line is ignored); ``[]`` when
        it has no journal. A journal that cannot be read, has a corrupt line or holds no
        complete line is a STORE-JOURNAL error naming the file and the game."""
        events = self._events(game_id)
        if events is None:
            return []
        if not events:
            raise self._error(game_id, "no complete event (an empty journal)")
        return events

    def _events(self, game_id: str) -> list[Event] | None:
        """The journal's complete events (None: no journal)."""
        try:
            data = self.path(game_id).read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise self._error(game_id, f"cannot read the journal: {exc.strerror or exc}") from None
        lines = data.split(b"\n")[:-1]
        events = []
        for number, line in enumerate(lines, start=1):
            try:
                events.append(line_to_event(line.decode("utf-8")))
            except (ValueError, UnicodeDecodeError) as exc:
                raise self._error(game_id, f"corrupt line {number}: {exc}") from None
        return events

    def _error(self, game_id: str, reason: str) -> InvalidGame:
        return InvalidGame(
            StoreRule.JOURNAL, reason, game_id=game_id, source=str(self.path(game_id))
        )

    @contextlib.contextmanager
    def locked(self, game_id: str, create: bool = False) -> Iterator[int | None]:
        """Hold the game's journal locked; yields its descriptor (None when it has none).

        Without ``create``, a journal this process may not write (a read-only store) is locked
        through a read-only descriptor: reading it needs no write access.
        """
        if create:
            self.directory.mkdir(parents=True, exist_ok=True)
        path = self.path(game_id)
        while True:
            fd = _open_journal(path, create)
            if fd is None:
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
            try:
                os.write(fd, data)
                os.fsync(fd)
            except OSError as exc:
                self._undo(game_id, fd, tail.valid_size, size == 0)
                cause = storage_cause(exc)
                if cause is None:
                    raise
                raise StorageFailure(str(self.path(game_id)), cause) from None
            if size == 0:
                _fsync_dir(self.directory)
            return expected_seq + len(events)

    def _undo(self, game_id: str, fd: int, valid_size: int, created: bool) -> None:
        """After a failed write: the journal cut back to what it held (removed if new)."""
        with contextlib.suppress(OSError):
            if created:
                os.unlink(self.path(game_id))
            else:
                os.ftruncate(fd, valid_size)

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

    def remove(self, game_id: str) -> bool:
        """Delete a game's journal (the caller holds its lock, and has made sure the table holds
        its events: :meth:`unsettled`). A copy this process may not delete (a read-only store)
        is kept quietly, and False returned: it loses nothing."""
        try:
            os.unlink(self.path(game_id))
        except FileNotFoundError:
            pass
        except OSError as exc:
            if exc.errno in READ_ONLY:
                return False
            raise
        _fsync_dir(self.directory)
        return True

    def unsettled(self, game_id: str, stored: list[Event]) -> Rejection | None:
        """Why the journal of a game the table holds as ``stored`` may not be deleted: a
        STORE-JOURNAL problem naming the file, the game and the first differing seq, or the
        reason it cannot be read. None: the table holds every event of it (or it holds none)."""
        try:
            held = self._events(game_id) or []
        except InvalidGame as exc:
            return self._kept(game_id, exc.message)
        seq = first_difference(held, stored) if held else None  # none held: nothing to lose
        if seq is None:
            return None
        reason = f"the stored game differs from seq {seq} on (reads use the stored one)"
        return self._kept(game_id, reason, seq)

    def _kept(self, game_id: str, reason: str, seq: int | None = None) -> Rejection:
        reason = "journal kept: " + reason.splitlines()[0]
        return Rejection(StoreRule.JOURNAL, reason, game_id, seq, str(self.path(game_id)))
