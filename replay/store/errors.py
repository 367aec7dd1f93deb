"""Errors of the event store.

Faults of the record itself are :class:`~replay.model.violation.RuleViolation` subclasses naming a
rule ID of RULES.md (``LOG-SEQUENCE``, ``LOG-CARD``...) or a store rule (``STORE-SCHEMA``,
``STORE-JSON``, ``STORE-GAME-ID``, ``STORE-CORRUPT``, ``STORE-JOURNAL``); every message names the
file, the game and the sequence number when they are known.

>>> from replay.model.violation import LogRule
>>> str(InvalidGame(LogRule.SEQUENCE, "missing seq 4", game_id="g1", seq=4, source="a.jsonl"))
'a.jsonl: game g1 seq 4: missing seq 4 (LOG-SEQUENCE)'
"""

from __future__ import annotations

from replay.model.violation import RuleId, RuleViolation
from replay.text import escaped, shown


class StoreRule(RuleId):
    """The store's own rules, for faults of a file or a store that RULES.md does not name
    (docs/interpretations.md)."""

    SCHEMA = "STORE-SCHEMA"
    JSON = "STORE-JSON"
    GAME_ID = "STORE-GAME-ID"
    CORRUPT = "STORE-CORRUPT"
    JOURNAL = "STORE-JOURNAL"


class StoreError(Exception):
    """Base class of the store's own errors (not faults of a game record)."""


def locate(source: str | None, game_id: str | None, seq: int | None) -> str:
    """``file: game G seq N: `` (only the known parts), the prefix of every message; the file
    and the id printable whatever they hold (:mod:`replay.text`).

    >>> locate("a.jsonl", "", 3), locate(None, "g\\x1b[2J", None)
    ('a.jsonl: game "" seq 3: ', 'game g\\\\x1b[2J: ')
    """
    parts = []
    if source:
        parts.append(escaped(source))
    if game_id is not None:
        parts.append(f"game {shown(game_id)}" + (f" seq {seq}" if seq is not None else ""))
    return ": ".join(parts) + ": " if parts else ""


class InvalidGame(RuleViolation, StoreError):
    """A game (or a part of a file) rejected by the store's integrity checks."""

    def __init__(
        self,
        rule: RuleId,
        message: str,
        *,
        game_id: str | None = None,
        seq: int | None = None,
        source: str | None = None,
    ) -> None:
        super().__init__(rule, message)
        self.game_id = game_id
        self.seq = seq
        self.source = source
        self.args = (f"{locate(source, game_id, seq)}{escaped(message)} ({rule})",)

    def __str__(self) -> str:
        return str(self.args[0])


class ConcurrencyConflict(StoreError):
    """An append named a sequence number that is not the stream's next one."""

    def __init__(self, game_id: str, expected: int, actual: int) -> None:
        where = f"game {shown(game_id)}"
        super().__init__(
            f"{where}: append expected next seq {expected}, but the stream is at {actual}"
        )
        self.game_id = game_id
        self.expected = expected
        self.actual = actual


class GameNotFound(StoreError, KeyError):
    """No game has this id (or id prefix)."""

    def __str__(self) -> str:
        return str(self.args[0])


class AmbiguousGameId(StoreError):
    """An id prefix that matches several games."""


class StoreNotFound(StoreError):
    """The path holds no event store (and creating one was not asked)."""


class StorageFailure(StoreError):
    """The store's storage failed a write (disk full, quota, permission, I/O error): nothing
    was committed, unless ``committed`` says otherwise (a failure after the commit).

    >>> str(StorageFailure("st", "no space left on device"))
    'st: no space left on device: nothing was committed'
    """

    #: The exit code of a command that ends on this error (README: exit codes).
    exit_code = 4

    def __init__(self, store: str, cause: str, committed: bool = False) -> None:
        outcome = (
            "the commit was made, a later step failed" if committed else "nothing was committed"
        )
        super().__init__(f"{escaped(store)}: {cause}: {outcome}")
        self.store = store
        self.cause = cause
        self.committed = committed

    def after(self, before: str, this: str) -> str:
        """The line of this failure when earlier commits of the same command stored
        ``before``, and this one was to store ``this``: what is stored, exactly.

        >>> failure = StorageFailure("st", "no space left on device")
        >>> failure.after("the first 200 games", "the next 200")
        'st: no space left on device: the first 200 games were committed, the next 200 were not'
        """
        if self.committed:
            outcome = f"{before} and {this} were committed, a later step failed"
        else:
            outcome = f"{before} were committed, {this} were not"
        return f"{escaped(self.store)}: {self.cause}: {outcome}"
