"""RuleViolation: a recorded event that the rules do not allow, naming the rule.

Its own module, kept out of the compiled build (setup.py): the store's ``InvalidGame`` extends
it together with ``StoreError``, which a class compiled by mypyc does not allow.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from replay.events import Event


class RuleViolation(Exception):
    """A recorded event that the rules do not allow, naming the rule that decides it.

    ``recoverable`` says whether the state can still soundly absorb the event (an illegal but
    possible play, for example): the audit then applies it and carries on. ``expected`` is the
    event the rules give, for a wrong ruling.
    """

    def __init__(
        self,
        rule: str,
        message: str,
        *,
        recoverable: bool = False,
        expected: Event | None = None,
    ) -> None:
        super().__init__(f"{message} ({rule})")
        self.rule = rule
        self.message = message
        self.recoverable = recoverable
        self.expected = expected
