"""Rule IDs and their texts, read from the packaged copy of ``RULES.md``.

Audit findings cite a rule by ID and quote its text from here.

>>> rule_text("HEARTS-TRICK").startswith("the highest card of the led suit wins")
True
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

_RULE_LINE = re.compile(r"^- ([A-Z0-9]+(?:-[A-Z0-9]+)+): (.*)$")


@cache
def rules() -> dict[str, str]:
    """Every rule ID of RULES.md mapped to its text (continuation lines joined)."""
    text = resources.files("replay.data").joinpath("RULES.md").read_text(encoding="utf-8")
    out: dict[str, str] = {}
    current: str | None = None
    for line in text.splitlines():
        match = _RULE_LINE.match(line)
        if match:
            current = match.group(1)
            out[current] = match.group(2).strip()
        elif current and line.startswith("  ") and line.strip():
            out[current] += " " + line.strip()
        else:
            current = None
    return out


def rule_text(rule_id: str) -> str:
    """The text of a rule, or an empty string for an unknown ID."""
    return rules().get(rule_id, "")


def has_rule(rule_id: str) -> bool:
    """Whether RULES.md defines this ID (TURN rules of each game included)."""
    return rule_id in rules()
