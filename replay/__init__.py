"""replay: event-sourced log analyzer and replay toolkit for four card games."""

from __future__ import annotations

import os

# replay does no linear algebra: numpy's OpenBLAS threads would only spin and take a core
# (12% of the samples of a 2-core profile). A value set by the user is kept.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


#: The distribution's name on the package index (``pip install cardgame-replay``): ``replay``
#: there is another project. The import package and the command are ``replay``.
DISTRIBUTION = "cardgame-replay"


def is_compiled() -> bool:
    """Whether the rules engine runs compiled by mypyc (``make native``, see setup.py).

    >>> isinstance(is_compiled(), bool)
    True
    """
    from importlib.util import find_spec

    # Found, not imported: importing the engine would load every game (and pyarrow). The card
    # sets are compiled with it (setup.py) and their package imports nothing.
    spec = find_spec("replay.model.cards")
    return spec is not None and spec.origin is not None and not spec.origin.endswith(".py")


def engine_build() -> str:
    """Which build of the rules engine runs, for version lines and benchmark headers.

    >>> engine_build() in ("compiled by mypyc", "pure Python")
    True
    """
    return "compiled by mypyc" if is_compiled() else "pure Python"
