"""``replay simulate``: bot-played games written through the store."""

from __future__ import annotations
