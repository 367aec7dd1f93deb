"""replay: event-sourced log analyzer and replay toolkit for four card games."""

from __future__ import annotations


def is_compiled() -> bool:
    """Whether the rules engine runs compiled by mypyc (``make native``, see setup.py).

    >>> isinstance(is_compiled(), bool)
    True
    """
    from replay.games import base

    return not base.__file__.endswith(".py")
