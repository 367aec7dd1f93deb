"""Build ``sample_logs/``: a club's season of the four games and the dispute set.

Run ``python -m replay.corpus.samples [OUT]`` (``make samples``). The same seeds give the same
games.

- ``OUT/store``: an event store with the season of :mod:`replay.corpus.season` (named players,
  humans and bots, over several months, every kind and player count, stakes at some Hez2 tables);
- ``OUT/jsonl/<kind><players>.jsonl``: the season's first game of each kind and player count
  as JSON Lines (for ``replay import``);
- ``OUT/disputes/<kind>/<RULE>.jsonl``: one game with one wrong event each, and next to it
  ``<RULE>.expected.json`` with the finding the audit must give (rule ID and step).
"""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from replay.corpus.disputes import (
    Dispute,
    find_disputes,
    integrity_disputes,
    renamed,
)
from replay.corpus.season import STAKES_NIGHT, nights, season_games
from replay.engine.simulate import simulate_game
from replay.games import available_kinds, get_rules, get_spec
from replay.model.events import Event
from replay.store import EventStore
from replay.store.jsonl import event_to_line

#: How many games per kind the dispute search may play before it gives up on a rule.
DISPUTE_SEARCH_GAMES = 300


def write_jsonl(path: Path, events: Sequence[Event]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(event_to_line(e) + "\n" for e in events), encoding="utf-8")


def disputes_for(kind: str) -> dict[str, Dispute]:
    """One dispute per rule ID the search can break, for one game kind."""
    rules = get_rules(kind)
    wanted = {*rules.rule_ids, "LOG-CARD", "LOG-ORDER"} - rules.not_breakable_alone
    found: dict[str, Dispute] = {}
    players = get_spec(kind).players
    for seed in range(DISPUTE_SEARCH_GAMES):
        n = players[seed % len(players)]
        bots = ("random",) if seed % 4 == 3 else ("heuristic",)  # heuristic games are shorter
        game = simulate_game(rules, f"{kind}-dispute-{seed:03d}", players=n, seed=seed, bots=bots)
        if seed == 0:
            found.update(integrity_disputes(game))
        for rule, disputes in find_disputes(rules, [game]).items():
            found.setdefault(rule, disputes[0])
        if wanted <= set(found):
            break
    return found


def write_disputes(out: Path, kinds: Sequence[str]) -> dict[str, list[str]]:
    """Write the dispute set; returns the rule IDs of each kind that no search could break."""
    missing: dict[str, list[str]] = {}
    for kind in kinds:
        found = disputes_for(kind)
        for rule, found_dispute in sorted(found.items()):
            dispute = renamed(found_dispute, f"{kind}-{rule}")
            base = out / kind / rule
            write_jsonl(base.with_suffix(".jsonl"), dispute.events)
            expected = {
                "game_id": dispute.events[0].game_id,
                "kind": kind,
                "rule": rule,
                "seq": dispute.seq,
                "message": dispute.message,
            }
            base.with_suffix(".expected.json").write_text(
                json.dumps(expected, indent=2) + "\n", encoding="utf-8"
            )
        missing[kind] = sorted(set(get_rules(kind).rule_ids) - set(found))
    return missing


def build(out: Path) -> dict[str, Any]:
    """Rebuild ``out`` from scratch."""
    shutil.rmtree(out / "disputes", ignore_errors=True)
    kinds = available_kinds()
    games = build_season(out, kinds)
    missing = write_disputes(out / "disputes", kinds)
    return {"kinds": kinds, "games": games, "unbroken_rules": missing}


def build_season(out: Path, kinds: Sequence[str]) -> int:
    """Rebuild ``out/store`` and ``out/jsonl`` from the season; returns the number of games."""
    for name in ("store", "jsonl"):
        shutil.rmtree(out / name, ignore_errors=True)
    games = list(season_games(kinds))
    store = EventStore.open(out / "store", create=True)
    report = store.ingest(games)
    if report.rejected:
        raise SystemExit(f"sample corpus rejected: {report.rejected[0]}")
    store.compact()
    for name, events in jsonl_files(games).items():
        write_jsonl(out / "jsonl" / f"{name}.jsonl", events)
    return len(games)


def jsonl_files(games: Sequence[list[Event]]) -> dict[str, list[Event]]:
    """The JSON Lines samples: ``<kind><players>``, the shortest game of each kind and player
    count; ``night-<date>``, every game of the first night with stakes, in game id order."""
    shortest: dict[str, list[Event]] = {}
    for game in games:
        name = f"{game[0].kind}{json.loads(game[0].data or '{}')['players']}"
        if name not in shortest or len(game) < len(shortest[name]):
            shortest[name] = game
    night = next(day for day in nights() if day.weekday() == STAKES_NIGHT)
    tonight = sorted((g for g in games if g[0].ts and g[0].ts.date() == night), key=_game_id)
    return {**shortest, f"night-{night.isoformat()}": [e for g in tonight for e in g]}


def _game_id(game: list[Event]) -> str:
    return game[0].game_id


def main(argv: list[str]) -> None:
    out = Path(argv[1]) if len(argv) > 1 else Path("sample_logs")
    summary = build(out)
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main(sys.argv)
