"""Store commands: import, export, info, compact, games (owned by the store work)."""

from __future__ import annotations
