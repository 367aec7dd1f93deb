"""Each game's own statistics, checked against figures computed here by walking the events of
the simulated corpus of tests/test_analytics.py (written from docs/games/*.md, not from SQL)."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from replay.analytics import Filters
from replay.model.events import Event
from tests.test_analytics import analytics, corpus, stat, suit_of


def of_kind(kind: str) -> Iterator[Sequence[Event]]:
    return (g for g in corpus() if g[0].kind == kind)


def names(game: Sequence[Event]) -> list[str]:
    return list(json.loads(game[0].data or "{}")["names"])


def by_key(rows: list[dict[str, Any]], key: str, *values: str) -> dict[Any, tuple[Any, ...]]:
    return {r[key]: tuple(r[v] for v in values) for r in rows}


# --------------------------------------------------------------------- Hearts
HEARTS_POINTS = {c: (1 if c.endswith("H") else 13 if c == "QS" else 0) for c in
                 [r + s for s in "CDSH" for r in "23456789TJQKA"]}  # fmt: skip


def hearts_hands() -> list[dict[str, Any]]:
    """One dict per hand x seat, from a walk over the events."""
    out = []
    for g in of_kind("hearts"):
        who = names(g)
        hands: dict[int, dict[str, Any]] = {}
        cards: list[str] = []
        for e in g:
            r = e.round or 0
            if e.type == "deal" and r not in hands:
                hands[r] = {"points": [0] * 4, "queen": None, "qtrick": None, "broken": None,
                            "received": [None] * 4, "passed_queen": None, "recv_queen": None,
                            "score": [0] * 4}  # fmt: skip
            elif e.type == "pass":
                h = hands[r]
                h["received"][e.target] = sum(HEARTS_POINTS[c] for c in e.cards or ())
                if "QS" in (e.cards or ()):
                    h["passed_queen"], h["recv_queen"] = e.player, e.target
            elif e.type == "play":
                cards.append(e.card or "")
            elif e.type == "trick_won":
                h = hands[r]
                h["points"][e.player] += sum(HEARTS_POINTS[c] for c in cards)
                if "QS" in cards:
                    h["queen"], h["qtrick"] = e.player, e.trick
                if h["broken"] is None and any(c.endswith("H") for c in cards):
                    h["broken"] = e.trick
                cards = []
            elif e.type == "round_scored":
                hands[r]["score"][e.player] = e.amount
        for r, h in hands.items():
            for s in range(4):
                out.append({"player": who[s], "round": r, "seat": s, "game": g[0].game_id,
                            "points": h["points"][s], "score": h["score"][s],
                            "queen": h["queen"] == s, "qtrick": h["qtrick"], "hand": h,
                            "received": h["received"][s],
                            "recv_queen": h["recv_queen"] == s})  # fmt: skip
    return out


def test_hearts_points_queen_and_moon_per_player() -> None:
    per: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for h in hearts_hands():
        per[h["player"]].append(h)
    got = by_key(
        stat("hearts_points_per_hand"), "player", "hands", "avg_score", "avg_points_taken", "hits"
    )
    want = {
        p: (len(hs), pytest.approx(sum(h["score"] for h in hs) / len(hs)),
            pytest.approx(sum(h["points"] for h in hs) / len(hs)),
            sum(h["points"] == 0 for h in hs))
        for p, hs in per.items()
    }  # fmt: skip
    assert got == want
    got = by_key(stat("hearts_queen_taker"), "player", "hits", "opportunities")
    assert got == {p: (sum(h["queen"] for h in hs), len(hs)) for p, hs in per.items()}
    got = by_key(stat("hearts_moon"), "player", "hands", "opportunities", "hits", "stopped")
    assert got == {
        p: (len(hs), sum(h["points"] >= 20 for h in hs), sum(h["points"] == 26 for h in hs),
            sum(20 <= h["points"] < 26 for h in hs))
        for p, hs in per.items()
    }  # fmt: skip
    assert sum(v[2] for v in got.values()) >= 1  # the corpus has a moon


def test_hearts_queen_trick_and_hearts_broken() -> None:
    hands = hearts_hands()
    queens = Counter(h["qtrick"] for h in hands if h["queen"])
    assert by_key(stat("hearts_queen_trick"), "trick", "hands") == {
        t: (n,) for t, n in queens.items()
    }
    broken = Counter(h["hand"]["broken"] for h in hands if h["seat"] == 0)
    assert by_key(stat("hearts_broken"), "trick", "hands") == {t: (n,) for t, n in broken.items()}


def test_hearts_passes() -> None:
    hands = hearts_hands()
    outcome: Counter[str] = Counter()
    for h in hands:
        hand = h["hand"]
        if h["seat"] == 0 and hand["recv_queen"] is not None:
            taker = hand["queen"]
            outcome["receiver" if taker == hand["recv_queen"] else
                    "passer" if taker == hand["passed_queen"] else "other seat"] += 1  # fmt: skip
    total = sum(outcome.values())
    got = by_key(stat("hearts_queen_passed"), "taken_by", "hits", "opportunities")
    assert got == {k: (n, total) for k, n in outcome.items()} and total > 0
    per: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for h in hands:
        if h["received"] is not None:
            per[h["player"]].append(h)
    got = by_key(stat("hearts_pass_points"), "player", "passes", "points", "queens")
    assert got == {
        p: (len(hs), sum(h["received"] for h in hs), sum(h["recv_queen"] for h in hs))
        for p, hs in per.items()
    }


# --------------------------------------------------------------------- Hez2
TURN_TYPES = ("play", "draw", "accept_skip", "accept_draw")


def hez2_rank(card: str | None) -> str:
    return (card or "?")[0]


def test_hez2_length_reshuffles_and_pending_draw() -> None:
    turns: dict[int, list[int]] = defaultdict(list)
    reshuffles: Counter[int] = Counter()
    with_reshuffle: Counter[int] = Counter()
    longest: Counter[int] = Counter()
    for g in of_kind("hez2"):
        n = len(names(g))
        turns[n].append(sum(e.type in TURN_TYPES for e in g))
        count = sum(e.type == "reshuffle" for e in g)
        reshuffles[n] += count
        with_reshuffle[n] += count > 0
        longest[max([e.amount or 0 for e in g if e.type == "forced_draw"], default=0)] += 1
    got = by_key(stat("hez2_length"), "players", "games", "min_turns", "max_turns")
    assert got == {n: (len(t), min(t), max(t)) for n, t in turns.items()}
    got = by_key(stat("hez2_reshuffles"), "players", "opportunities", "reshuffles", "hits")
    assert got == {n: (len(turns[n]), reshuffles[n], with_reshuffle[n]) for n in turns}
    assert by_key(stat("hez2_pending_draw"), "longest_draw", "games") == {
        k: (v,) for k, v in longest.items()
    }


def test_hez2_cards_left_at_first_out() -> None:
    want: Counter[tuple[int, int]] = Counter()
    for g in of_kind("hez2"):
        n = len(names(g))
        held = [0] * n
        for e in g:
            if e.type == "player_out":
                break
            if e.type == "deal":
                held[e.player or 0] += len(e.cards or ())
            elif e.type == "card_drawn":
                held[e.player or 0] += 1
            elif e.type == "play":
                held[e.player or 0] -= 1
        for h in held:
            if h > 0:
                want[(n, h)] += 1
    got = {(r["players"], r["cards"]): r["seats"] for r in stat("hez2_cards_left")}
    assert got == want


def test_hez2_specials_answered() -> None:
    played: Counter[int] = Counter()
    faced: Counter[int] = Counter()
    answered: Counter[int] = Counter()
    for g in of_kind("hez2"):
        moves = [e for e in g if e.type in (*TURN_TYPES, "player_out")]
        for i, e in enumerate(moves):
            rank = hez2_rank(e.card)
            if e.type != "play" or rank not in "127":
                continue
            played[int(rank)] += 1
            after = moves[i + 1] if i + 1 < len(moves) else None
            if rank in "12" and after is not None and after.type != "player_out":
                faced[int(rank)] += 1
                answered[int(rank)] += after.type == "play" and hez2_rank(after.card) == rank
    got = by_key(stat("hez2_specials"), "rank", "played", "opportunities", "hits")
    assert got == {r: (played[r], faced[r], answered[r]) for r in played}
    assert answered[1] + answered[2] > 0


def test_hez2_places_and_payouts() -> None:
    places: dict[str, list[int]] = defaultdict(list)
    seat_places: Counter[tuple[int, int, int]] = Counter()
    money: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for g in of_kind("hez2"):
        setup = json.loads(g[0].data or "{}")
        n = len(setup["names"])
        for e in g:
            if e.type in ("player_out", "placed"):
                places[setup["names"][e.player]].append(e.amount or 0)
                seat_places[(n, e.player or 0, e.amount or 0)] += 1
            if e.type == "payout":
                stake = setup["stakes"][e.player]
                m = money[setup["names"][e.player]]
                m[0] += 1
                m[1] += stake
                m[2] += e.amount or 0
                m[3] += (e.amount or 0) - stake
    got = by_key(stat("hez2_places_by_player"), "player", "opportunities", "avg_place", "hits")
    assert got == {
        p: (len(v), pytest.approx(sum(v) / len(v)), v.count(1)) for p, v in places.items()
    }
    got = {(r["players"], r["seat"], r["place"]): r["games"] for r in stat("hez2_places_by_seat")}
    assert got == seat_places
    got = by_key(stat("hez2_payouts"), "player", "games", "staked", "paid_out", "net", "roi")
    assert got == {
        p: (m[0], m[1], m[2], m[3], pytest.approx(m[3] / m[1])) for p, m in money.items()
    }
    assert len(money) >= 2


# --------------------------------------------------------------------- Hiifuu
def hiifuu_rounds() -> list[dict[str, Any]]:
    out = []
    for g in of_kind("hiifuu"):
        setup = json.loads(g[0].data or "{}")
        n = len(setup["names"])
        rounds: dict[int, dict[str, Any]] = {}
        for e in g:
            r = e.round or 0
            if e.type == "tokens":
                rounds[r] = {"tricks": [0] * n, "second": [None] * n, "token": [None] * n,
                             "covered": set(), "score": [0] * n}  # fmt: skip
            elif e.type == "trick_won":
                rounds[r]["tricks"][e.player] += 1
                if rounds[r]["tricks"][e.player] == 2:
                    rounds[r]["second"][e.player] = e.trick
            elif e.type == "token_taken":
                rounds[r]["token"][e.player] = (e.target, e.amount)
            elif e.type == "token_covered":
                rounds[r]["covered"].add(e.target)
            elif e.type == "round_scored":
                rounds[r]["score"][e.player] = e.amount
        for r, x in rounds.items():
            for s in range(n):
                token = x["token"][s]
                out.append({"player": setup["names"][s], "round": r, "variant": setup["variant"],
                            "tricks": x["tricks"][s], "second": x["second"][s], "token": token,
                            "covered": token is not None and token[0] in x["covered"],
                            "score": x["score"][s]})  # fmt: skip
    return out


def test_hiifuu_trick_counts_and_second_trick() -> None:
    per: dict[str, list[int]] = defaultdict(list)
    for r in hiifuu_rounds():
        per[r["player"]].append(r["tricks"])
    got = by_key(stat("hiifuu_trick_counts"), "player", "opportunities", "hits", "zero", "one",
                 "three_or_more")  # fmt: skip
    assert got == {
        p: (len(t), t.count(2), t.count(0), t.count(1), sum(x >= 3 for x in t))
        for p, t in per.items()
    }
    second = Counter(r["second"] for r in hiifuu_rounds() if r["second"] is not None)
    assert by_key(stat("hiifuu_second_trick"), "trick", "rounds") == {
        k: (v,) for k, v in second.items()
    }


def test_hiifuu_tokens_rounds_and_variants() -> None:
    rounds = hiifuu_rounds()
    taken: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for r in rounds:
        if r["token"] is not None:
            taken[r["token"][0]].append(r)
    got = by_key(
        stat("hiifuu_tokens_by_position"), "position", "opportunities", "hits", "avg_value"
    )
    assert got == {
        p: (len(v), sum(not r["covered"] for r in v),
            pytest.approx(sum(r["token"][1] for r in v) / len(v)))
        for p, v in taken.items()
    }  # fmt: skip
    per_round: dict[int, list[int]] = defaultdict(list)
    per_variant: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rounds:
        per_round[r["round"]].append(r["score"])
        per_variant[r["variant"]].append(r)
    got = by_key(stat("hiifuu_round_scores"), "round", "opportunities", "avg_score", "hits")
    assert got == {
        k: (len(v), pytest.approx(sum(v) / len(v)), sum(x > 0 for x in v))
        for k, v in per_round.items()
    }
    got = by_key(stat("hiifuu_variants"), "variant", "opportunities", "hits")
    assert got == {k: (len(v), sum(r["tricks"] == 2 for r in v)) for k, v in per_variant.items()}
    assert set(got) == {"normal", "random-tokens"}


# --------------------------------------------------------------------- Fou!
def fou_walk() -> tuple[list[dict[str, Any]], list[str], Counter[bool]]:
    """Seat-rounds, the way each Fool was made, and cards played by joker or not."""
    rounds_out: list[dict[str, Any]] = []
    hows: list[str] = []
    played: Counter[bool] = Counter()
    for g in of_kind("fou"):
        who = names(g)
        n = len(who)
        fools: Counter[tuple[int, int]] = Counter()
        scores: dict[tuple[int, int], int] = {}
        trick: list[Event] = []
        for e in g:
            if e.type == "play":
                trick.append(e)
                played[suit_of("fou", e.card) is None] += 1
            elif e.type == "trick_won":
                led = next((suit_of("fou", p.card) for p in trick if suit_of("fou", p.card)), None)
                last = trick
                trick = []
            elif e.type == "fool":
                fools[(e.round or 0, e.player or 0)] += 1
                colour = suit_of("fou", e.card)
                assert any(p.card == e.card for p in last)
                hows.append(
                    "joker" if colour is None else "discard" if colour != led else "low card"
                )
            elif e.type == "round_scored":
                scores[(e.round or 0, e.player or 0)] = e.amount or 0
        for (r, s), score in scores.items():
            rounds_out.append({"player": who[s], "score": score, "fools": fools[(r, s)], "n": n})
    return rounds_out, hows, played


def test_fou_fools_plus_ten_and_penalties() -> None:
    rounds, _, _ = fou_walk()
    per: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rounds:
        per[r["player"]].append(r)
    got = by_key(stat("fou_fools_per_player"), "player", "opportunities", "hits", "fools")
    assert got == {
        p: (len(v), sum(r["fools"] > 0 for r in v), sum(r["fools"] for r in v))
        for p, v in per.items()
    }
    got = by_key(stat("fou_plus_ten"), "player", "opportunities", "hits")
    assert got == {p: (len(v), sum(r["score"] == 10 for r in v)) for p, v in per.items()}
    penalties = Counter(r["score"] for r in rounds if r["score"] < 0)
    assert by_key(stat("fou_penalties"), "penalty", "rounds") == {
        k: (v,) for k, v in penalties.items()
    }


def test_fou_fool_causes_and_jokers() -> None:
    _, hows, played = fou_walk()
    counts = Counter(hows)
    got = by_key(stat("fou_fool_cause"), "how", "hits", "opportunities")
    assert got == {k: (v, len(hows)) for k, v in counts.items()}
    assert set(got) == {"joker", "discard", "low card"}
    got = by_key(stat("fou_jokers"), "card", "opportunities", "hits")
    assert got == {
        "joker": (played[True], counts["joker"]),
        "colour card": (played[False], len(hows) - counts["joker"]),
    }


# --------------------------------------------------------------------- metrics of each game
@pytest.mark.parametrize(
    ("metric", "kind"),
    [("moon_shot", "hearts"), ("queen_taken", "hearts"), ("clean_hand", "hearts"),
     ("stake_won", "hez2"), ("two_tricks", "hiifuu"), ("plus_ten", "fou"), ("fool", "fou")],
)  # fmt: skip
def test_game_metrics_agree_with_their_statistics(metric: str, kind: str) -> None:
    a = analytics()
    assert metric in [m.name for m in a.metrics(kind)]
    assert metric not in [m.name for m in a.metrics("hearts" if kind != "hearts" else "fou")]
    table = a.insight(metric, "player", Filters(kind=kind)).to_pylist()
    source = {
        "moon_shot": ("hearts_moon", "hands", "hits"),
        "queen_taken": ("hearts_queen_taker", "opportunities", "hits"),
        "clean_hand": ("hearts_points_per_hand", "hands", "hits"),
        "stake_won": ("hez2_payouts", "games", "won_money"),
        "two_tricks": ("hiifuu_trick_counts", "opportunities", "hits"),
        "plus_ten": ("fou_plus_ten", "opportunities", "hits"),
        "fool": ("fou_fools_per_player", "opportunities", "hits"),
    }[metric]
    want = by_key(stat(source[0]), "player", source[1], source[2])
    assert by_key(table, "player", "opportunities", "hits") == want
