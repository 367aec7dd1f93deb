"""The audit: every recorded decision checked, every recorded ruling recomputed.

- :mod:`.findings`: what an audit finds (:class:`Finding`, :class:`GameAudit`,
  :class:`AuditReport`) and their JSON objects;
- :mod:`.check`: the check of one game (:func:`audit_game`) and of an Arrow table;
- :mod:`.parallel`: a whole table on forked worker processes (:func:`audit_many`);
- :mod:`.store`: a store's audit slice by slice; :mod:`.spool`: a report of any size in
  bounded memory; :mod:`.report`: reports as text, Markdown, CSV and JSON;
- :mod:`.explain`: one disputed ruling explained; :mod:`.results`: each game's result as the
  rules compute it beside the recorded one.
"""

from __future__ import annotations

from replay.audit.check import audit_game, audit_table
from replay.audit.findings import AuditReport, Finding, GameAudit, group_games, problem_object
from replay.audit.parallel import audit_many

__all__ = [
    "AuditReport",
    "Finding",
    "GameAudit",
    "audit_game",
    "audit_many",
    "audit_table",
    "group_games",
    "problem_object",
]
