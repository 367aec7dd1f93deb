"""The engine: a game's log walked through its rules (:mod:`.walker`), a cursor that seeks any
step of a game (:mod:`.cursor`), and the simulator that plays whole games with bots
(:mod:`.simulate`)."""

from __future__ import annotations

from replay.engine.walker import Step, checked_step, walk

__all__ = ["Step", "checked_step", "walk"]
