"""The event store: finished games in a Delta Lake table, live games in an fsync'ed journal.

>>> import tempfile
>>> from replay.store.synthetic import hearts_like_table
>>> store = EventStore.open(tempfile.mkdtemp(), create=True)
>>> store.ingest(hearts_like_table(games=2, seed=1)).summary()[:14]
'2 games (1,374'
>>> [g.kind for g in store.list_games()]
['hearts', 'hearts']
"""

from replay.store.errors import (
    AmbiguousGameId,
    ConcurrencyConflict,
    GameNotFound,
    InvalidGame,
    StorageFailure,
    StoreError,
    StoreNotFound,
)
from replay.store.table import (
    DataFile,
    EventStore,
    GameSummary,
    IngestReport,
    KindInfo,
    StoreInfo,
)
from replay.store.validate import Rejection

__all__ = [
    "AmbiguousGameId",
    "ConcurrencyConflict",
    "DataFile",
    "EventStore",
    "GameNotFound",
    "GameSummary",
    "IngestReport",
    "InvalidGame",
    "KindInfo",
    "Rejection",
    "StorageFailure",
    "StoreError",
    "StoreInfo",
    "StoreNotFound",
]
