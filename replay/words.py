"""Words for people: a count with its noun in the right number (:func:`counted`), and the
nearest known names to a mistyped name or prefix (:func:`did_you_mean`, ``difflib``'s ranking of
a name's start as long as what was typed, then of the whole name).

>>> did_you_mean("heats-2026-03-06", ["hez2-2026-03-06-t4", "hearts-2026-03-06-t1"])
"; did you mean 'hearts-2026-03-06-t1', 'hez2-2026-03-06-t4'?"
>>> did_you_mean("zzz", ["hearts-1"])
''
"""

from __future__ import annotations

from collections.abc import Iterable
from difflib import SequenceMatcher


def did_you_mean(word: str, known: Iterable[str], limit: int = 3, cutoff: float = 0.6) -> str:
    """``; did you mean 'a', 'b'?`` naming the known names nearest to ``word`` (their start
    at least ``cutoff`` alike), or '' when none is near."""

    def likeness(name: str) -> tuple[float, float]:
        start = SequenceMatcher(None, word, name[: len(word)]).ratio()
        return start, SequenceMatcher(None, word, name).ratio()

    scored = sorted(
        ((likeness(n), n) for n in set(known)), key=lambda s: (-s[0][0], -s[0][1], s[1])
    )
    near = [name for (start, _), name in scored[:limit] if start >= cutoff]
    return f"; did you mean {', '.join(repr(n) for n in near)}?" if near else ""


def counted(number: int, word: str) -> str:
    """A count and its noun, singular for one (``1 game``, ``2 games``, ``0 findings``).

    >>> counted(1, "game"), counted(2, "finding"), counted(81643, "event")
    ('1 game', '2 findings', '81,643 events')
    """
    return f"{number:,} {word if number == 1 else word + 's'}"
