"""Build ``sample_logs/``: small deterministic corpora of the four games and the dispute set.

Run ``python -m replay.samples [OUT]`` (``make samples``). The same seeds give the same games.

- ``OUT/store``: an event store with a few dozen games of every kind and player count;
- ``OUT/jsonl/<kind>.jsonl``: a few of those games as JSON Lines (for ``replay import``);
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

from replay.disputes import Dispute, find_disputes, integrity_disputes
from replay.events import Event
from replay.games import available_kinds, get_rules
from replay.simulate import simulate_game
from replay.store import EventStore
from replay.store.jsonl import event_to_line

#: (kind, players, games, bots) of the sample corpora.
CORPORA: list[tuple[str, int, int, tuple[str, ...]]] = [
    ("hearts", 4, 36, ("random", "heuristic")),
    ("hez2", 2, 10, ("random", "heuristic")),
    ("hez2", 3, 10, ("heuristic",)),
    ("hez2", 4, 10, ("random",)),
    ("hiifuu", 4, 10, ("random", "heuristic")),
    ("hiifuu", 5, 10, ("heuristic",)),
    ("hiifuu", 6, 10, ("random",)),
    ("fou", 4, 8, ("random", "heuristic")),
    ("fou", 6, 8, ("heuristic",)),
    ("fou", 8, 8, ("random",)),
]

#: How many games per kind the dispute search may play before it gives up on a rule.
DISPUTE_SEARCH_GAMES = 300


def corpus(kind: str, players: int, games: int, bots: tuple[str, ...]) -> list[list[Event]]:
    """A deterministic corpus: game ``i`` uses seed ``i``."""
    rules = get_rules(kind)
    return [
        simulate_game(rules, f"{kind}{players}-{i:03d}", players=players, seed=i, bots=bots)
        for i in range(games)
    ]


def write_jsonl(path: Path, events: Sequence[Event]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(event_to_line(e) + "\n" for e in events), encoding="utf-8")


def disputes_for(kind: str) -> dict[str, Dispute]:
    """One dispute per rule ID the search can break, for one game kind."""
    rules = get_rules(kind)
    wanted = {*rules.rule_ids, "LOG-CARD", "LOG-ORDER"}
    found: dict[str, Dispute] = {}
    players = range(rules.min_players, rules.max_players + 1)
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
        for rule, dispute in sorted(found.items()):
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
    for name in ("store", "jsonl", "disputes"):
        shutil.rmtree(out / name, ignore_errors=True)
    kinds = available_kinds()
    store = EventStore.open(out / "store", create=True)
    for kind, players, games, bots in CORPORA:
        if kind not in kinds:
            continue
        games_ = corpus(kind, players, games, bots)
        report = store.ingest(games_)
        if report.rejected:
            raise SystemExit(f"sample corpus rejected: {report.rejected[0]}")
        write_jsonl(out / "jsonl" / f"{kind}{players}.jsonl", games_[0])
    store.compact()
    missing = write_disputes(out / "disputes", kinds)
    return {"kinds": kinds, "unbroken_rules": missing}


def main(argv: list[str]) -> None:
    out = Path(argv[1]) if len(argv) > 1 else Path("sample_logs")
    summary = build(out)
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main(sys.argv)
