"""RuleViolation: a recorded event that the rules do not allow, naming the rule.

Its own module, kept out of the compiled build (setup.py): the store's ``InvalidGame`` extends
it together with ``StoreError``, which a class compiled by mypyc does not allow.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from replay.model.events import Event


class RuleId(StrEnum):
    """A rule's ID in RULES.md (``HEARTS-FOLLOW``): the base of each game's ``Rule`` enum and
    of :class:`LogRule`, so that a misspelt rule is a type error, not a finding citing nothing.

    A member is its ID as a string (``Rule.FOLLOW == "HEARTS-FOLLOW"``), printed, shown and
    stored as the ID:

    >>> LogRule.CARD, f"{LogRule.CARD}", LogRule.CARD == "LOG-CARD"
    ('LOG-CARD', 'LOG-CARD', True)
    """

    def __repr__(self) -> str:
        return repr(self.value)


class LogRule(RuleId):
    """The rules of every log, whatever the game (RULES.md LOG-*)."""

    AFTER_END = "LOG-AFTER-END"
    CARD = "LOG-CARD"
    ORDER = "LOG-ORDER"
    SEQUENCE = "LOG-SEQUENCE"
    SETUP = "LOG-SETUP"


class RuleViolation(Exception):
    """A recorded event that the rules do not allow, naming the rule that decides it.

    ``recoverable`` says whether the state can still soundly absorb the event (an illegal but
    possible play, for example): the audit then applies it and carries on. ``expected`` is the
    event the rules give, for a wrong ruling.
    """

    def __init__(
        self,
        rule: RuleId,
        message: str,
        *,
        recoverable: bool = False,
        expected: Event | None = None,
    ) -> None:
        # Exception's own (StoreError, beside it in InvalidGame, adds none), with the text
        # joined: a third of the cost of super() and an f-string, once per finding.
        Exception.__init__(self, message + " (" + rule + ")")
        self.rule = rule
        self.message = message
        self.recoverable = recoverable
        self.expected = expected

    def cited(self, rule: RuleId, message: str) -> RuleViolation:
        """The same fault cited under ``rule`` (the game's rule that names its situation, where
        a generic check caught it), as soundly absorbed and expecting the same event."""
        return RuleViolation(rule, message, recoverable=self.recoverable, expected=self.expected)
