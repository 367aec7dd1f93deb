"""Every column of every statistic (issue 24's test bar), checked against figures computed here
in Python from the events of the simulated corpus of tests/test_analytics.py (the four games,
several seat counts), under several filter combinations: the whole row, averages and the rate
columns (rate, low, high, flagged from the expected hits and opportunities) included.

The games are reduced by :func:`tests.test_analytics.reference` (common statistics) and by the
walks below (each game's own statistics), written from RULES.md and docs/statistics.md, never
from the SQL."""

from __future__ import annotations

import datetime
import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import pytest

from replay.analytics import Filters
from replay.analytics.rates import MIN_SAMPLE
from replay.model.events import Event
from replay.review.stats import wilson
from tests.test_analytics import Game, Seat, analytics, chosen, corpus, games, stat, suit_of
from tests.test_analytics_games import hearts_hands

Row = dict[str, Any]
Key = tuple[Any, ...]

SPRING = datetime.date(2026, 3, 1)


# --------------------------------------------------------------------- comparison
def avg(values: Sequence[float | int | None]) -> float | None:
    """SQL's AVG: nulls left out, null over no value."""
    kept = [v for v in values if v is not None]
    return sum(kept) / len(kept) if kept else None


def rated(row: Row) -> Row:
    """The row plus the rate columns of its expected hits and opportunities."""
    hits, n = row["hits"], row["opportunities"]
    if n > 0:
        low, high = wilson(hits, n)
        row.update(rate=hits / n, low=low, high=high)
    else:
        row.update(rate=None, low=None, high=None)
    row["flagged"] = n < MIN_SAMPLE
    return row


def check(name: str, f: Filters, keys: Sequence[str], want: dict[Key, Row]) -> None:
    """The statistic's rows under ``f`` are ``want`` (keyed by ``keys``), every column."""
    assert want or f != Filters(), f"{name}: nothing to check in the whole corpus"
    check_rows(name, stat(name, f), keys, want)


def check_rows(name: str, got: list[Row], keys: Sequence[str], want: dict[Key, Row]) -> None:
    """``got`` is ``want`` (keyed by ``keys``), every column; rates from hits/opportunities."""
    assert {tuple(r[k] for k in keys) for r in got} == set(want), name
    for r in got:
        key = tuple(r[k] for k in keys)
        expected = {**dict(zip(keys, key, strict=True)), **want[key]}
        if "hits" in expected and "opportunities" in expected:
            rated(expected)
        assert set(r) == set(expected), (name, key)
        for column, value in expected.items():
            if isinstance(value, float):
                assert r[column] == pytest.approx(value, rel=1e-12, abs=1e-12), (name, key, column)
            else:
                assert r[column] == value, (name, key, column)


def chosen_seats(f: Filters) -> list[tuple[Game, Seat]]:
    """The seats the per-seat statistics count: the chosen games' seats, the player's only."""
    return [(g, s) for g in chosen(f) for s in g.seats if f.player in (None, s.player)]


def grouped(items: Iterable[Any], key: Callable[[Any], Key]) -> dict[Key, list[Any]]:
    out: dict[Key, list[Any]] = defaultdict(list)
    for item in items:
        out[key(item)].append(item)
    return out


def some_player(kind: str) -> str:
    """A player of ``kind``'s first game (a player filter that chooses games of the kind)."""
    return next(g for g in games() if g.kind == kind).seats[0].player


#: Filter combinations for the common statistics: none, seat count, player, kind x date,
#: date window, kind x seat count x player.
COMMON_FILTERS = [
    Filters(),
    Filters(players=4),
    Filters(player="ann"),
    Filters(kind="hez2", since=SPRING),
    Filters(since=SPRING, until=datetime.date(2026, 9, 30)),
    Filters(kind="fou", players=7, player=some_player("fou")),
]


def kind_filters(kind: str, counts: Sequence[int]) -> list[Filters]:
    """Filter combinations for a game's own statistics."""
    return [
        Filters(),
        Filters(kind=kind, players=counts[-1]),
        Filters(player=some_player(kind)),
        Filters(kind=kind, since=SPRING),
        Filters(players=counts[0], until=datetime.date(2026, 9, 30)),
    ]


# --------------------------------------------------------------------- common statistics
@pytest.mark.parametrize("f", COMMON_FILTERS, ids=repr)
def test_seat_statistics_every_column(f: Filters) -> None:
    seats = chosen_seats(f)
    assert seats or f.until is not None

    def per_seat(groups: dict[Key, list[tuple[Game, Seat]]]) -> dict[Key, Row]:
        return {
            k: {"hits": sum(s.won for _, s in v), "opportunities": len(v),
                "avg_place": avg([s.place for _, s in v])}
            for k, v in groups.items()
        }  # fmt: skip

    check("bots_and_humans", f, ("kind", "bot"),
          per_seat(grouped(seats, lambda x: (x[0].kind, x[1].bot))))  # fmt: skip
    check("seat_advantage", f, ("kind", "players", "seat"),
          per_seat(grouped(seats, lambda x: (x[0].kind, x[0].players, x[1].seat))))  # fmt: skip
    dealt = [x for x in seats if x[1].from_dealer is not None]
    by_dealer = grouped(dealt, lambda x: (x[0].kind, x[0].players, x[1].from_dealer))
    check("dealer_advantage", f, ("kind", "players", "from_dealer"), per_seat(by_dealer))

    played = grouped(seats, lambda x: (x[0].kind, x[1].player))
    check("games_played", f, ("kind", "player"), {
        k: {"games": len(v), "rounds": sum(g.rounds for g, _ in v),
            "hits": sum(s.won for _, s in v), "opportunities": len(v),
            "avg_place": avg([s.place for _, s in v]), "avg_score": avg([s.score for _, s in v])}
        for k, v in played.items()
    })  # fmt: skip

    ranked: dict[str, list[tuple[Key, list[tuple[Game, Seat]]]]] = defaultdict(list)
    for k, v in played.items():  # the three players of each kind with most wins, then fewer games
        ranked[k[0]].append((k, v))

    def order(row: tuple[Key, list[tuple[Game, Seat]]]) -> tuple[int, int, str]:
        return -sum(s.won for _, s in row[1]), len(row[1]), row[0][1]

    check("leaders", f, ("kind", "player"), {
        k: {"hits": sum(s.won for _, s in v), "opportunities": len(v)}
        for rows in ranked.values()
        for k, v in sorted(rows, key=order)[:3]
    })  # fmt: skip

    pairs: dict[Key, Row] = defaultdict(
        lambda: {"opportunities": 0, "hits": 0, "behind": 0, "level": 0}
    )
    for g, a in seats:
        for b in g.seats:
            if b.seat == a.seat:
                continue
            row = pairs[(g.kind, a.player, b.player)]
            row["opportunities"] += 1
            if a.place is not None and b.place is not None:
                row["hits"] += a.place < b.place
                row["behind"] += a.place > b.place
                row["level"] += a.place == b.place
    check("head_to_head", f, ("kind", "player", "opponent"), dict(pairs))


@pytest.mark.parametrize("f", COMMON_FILTERS, ids=repr)
def test_game_and_round_statistics_every_column(f: Filters) -> None:
    gs = chosen(f)
    by_table = grouped(gs, lambda g: (g.kind, g.players))
    check("game_length", f, ("kind", "players"), {
        k: {"games": len(v), "min_rounds": min(g.rounds for g in v),
            "avg_rounds": avg([g.rounds for g in v]), "max_rounds": max(g.rounds for g in v),
            "min_events": min(g.events for g in v), "avg_events": avg([g.events for g in v]),
            "max_events": max(g.events for g in v)}
        for k, v in by_table.items()
    })  # fmt: skip

    scores: dict[Key, int] = defaultdict(int)
    rounds: dict[Key, list[int]] = defaultdict(list)
    with_tricks = {g.kind for g in games() if g.tricks}
    for g, s in chosen_seats(f):
        for r in range(1, g.rounds + 1):
            if (r, s.seat) in g.round_scores:
                scores[(g.kind, g.round_scores[(r, s.seat)])] += 1
        if g.kind in with_tricks:
            for r in range(1, g.rounds + 1):
                won = sum(1 for (rd, _), t in g.tricks.items() if rd == r and t.winner == s.seat)
                rounds[(g.kind, g.players, s.seat)].append(won)
    check("round_points", f, ("kind", "score"), {k: {"rounds": n} for k, n in scores.items()})
    check("tricks_by_seat", f, ("kind", "players", "seat"), {
        k: {"rounds": len(v), "tricks": sum(v), "tricks_per_round": avg(v)}
        for k, v in rounds.items()
    })  # fmt: skip

    leads: dict[Key, Row] = defaultdict(lambda: {"opportunities": 0, "hits": 0})
    cards: dict[Key, Row] = defaultdict(lambda: {"opportunities": 0, "hits": 0})
    for g in gs:
        for t in g.tricks.values():
            leads[(g.kind, t.led)]["opportunities"] += 1
            leads[(g.kind, t.led)]["hits"] += t.leader == t.winner
            for c in t.cards:
                cards[(g.kind, c)]["opportunities"] += 1
            cards[(g.kind, t.winning_card)]["hits"] += 1
    check("lead_holds", f, ("kind", "led"), dict(leads))
    check("winning_cards", f, ("kind", "card"), dict(cards))


def test_round_numbers_start_at_one() -> None:
    """The walk above reads rounds 1..rounds (the rounds view's numbering)."""
    for g in games():
        assert {r for r, _ in g.round_scores} <= set(range(1, g.rounds + 1))
        assert {r for r, _ in g.tricks} <= set(range(1, g.rounds + 1))


# --------------------------------------------------------------------- Hearts
def hearts_chosen(f: Filters) -> list[Row]:
    ids = {g.game_id for g in chosen(f)}
    return [h for h in hearts_hands() if h["game"] in ids and f.player in (None, h["player"])]


@pytest.mark.parametrize("f", kind_filters("hearts", (4,)), ids=repr)
def test_hearts_every_column(f: Filters) -> None:
    hands = hearts_chosen(f)
    per = grouped(hands, lambda h: (h["player"],))
    check("hearts_points_per_hand", f, ("player",), {
        k: {"hands": len(v), "avg_score": avg([h["score"] for h in v]),
            "avg_points_taken": avg([h["points"] for h in v]),
            "hits": sum(h["points"] == 0 for h in v), "opportunities": len(v)}
        for k, v in per.items()
    })  # fmt: skip
    check("hearts_moon", f, ("player",), {
        k: {"hands": len(v), "opportunities": sum(h["points"] >= 20 for h in v),
            "hits": sum(h["points"] == 26 for h in v),
            "stopped": sum(20 <= h["points"] < 26 for h in v)}
        for k, v in per.items()
    })  # fmt: skip
    check(
        "hearts_queen_taker",
        f,
        ("player",),
        {k: {"opportunities": len(v), "hits": sum(h["queen"] for h in v)} for k, v in per.items()},
    )
    passed = grouped([h for h in hands if h["received"] is not None], lambda h: (h["player"],))
    check("hearts_pass_points", f, ("player",), {
        k: {"passes": len(v), "points": sum(h["received"] for h in v),
            "avg_points": avg([h["received"] for h in v]),
            "queens": sum(h["recv_queen"] for h in v)}
        for k, v in passed.items()
    })  # fmt: skip
    queens = grouped([h for h in hands if h["queen"]], lambda h: (h["qtrick"],))
    check("hearts_queen_trick", f, ("trick",), {k: {"hands": len(v)} for k, v in queens.items()})

    # game-level: every hand of the chosen games, whoever the player
    ids = {g.game_id for g in chosen(f)}
    whole = [h for h in hearts_hands() if h["game"] in ids and h["seat"] == 0]
    broken = grouped(whole, lambda h: (h["hand"]["broken"],))
    check("hearts_broken", f, ("trick",), {k: {"hands": len(v)} for k, v in broken.items()})
    outcomes = []
    for h in whole:
        hand = h["hand"]
        if hand["recv_queen"] is not None:
            taker = hand["queen"]
            outcomes.append("receiver" if taker == hand["recv_queen"] else
                            "passer" if taker == hand["passed_queen"] else
                            "other seat")  # fmt: skip
    check(
        "hearts_queen_passed",
        f,
        ("taken_by",),
        {(k,): {"hits": outcomes.count(k), "opportunities": len(outcomes)} for k in set(outcomes)},
    )
    if f.kind is None and f.players is None:
        assert hands and outcomes


# --------------------------------------------------------------------- Hez2
TURN_TYPES = ("play", "draw", "accept_skip", "accept_draw")


@dataclass
class Hez2Game:
    game_id: str
    players: int
    turns: int
    reshuffles: int
    longest: int
    names: list[str]
    stakes: list[int | None]
    places: dict[int, int] = field(default_factory=dict)
    payouts: dict[int, int] = field(default_factory=dict)
    held: dict[int, int] = field(default_factory=dict)  # cards held at the first player out
    specials: list[tuple[int, int, bool, bool]] = field(default_factory=list)  # seat, rank...


def hez2_reduce(game: Sequence[Event]) -> Hez2Game:
    setup = json.loads(game[0].data or "{}")
    n = len(setup["names"])
    h = Hez2Game(
        game[0].game_id, n, sum(e.type in TURN_TYPES for e in game),
        sum(e.type == "reshuffle" for e in game),
        max([e.amount or 0 for e in game if e.type == "forced_draw"], default=0),
        list(setup["names"]), list(setup["stakes"]),
    )  # fmt: skip
    held = [0] * n
    out = False
    for e in game:
        s = e.player or 0
        if e.type in ("player_out", "placed"):
            h.places[s] = e.amount or 0
            if not out:
                h.held = {i: c for i, c in enumerate(held)}
            out = True
        elif e.type == "payout":
            h.payouts[s] = e.amount or 0
        elif not out and e.type == "deal":
            held[s] += len(e.cards or ())
        elif not out and e.type == "card_drawn":
            held[s] += 1
        elif not out and e.type == "play":
            held[s] -= 1
    moves = [e for e in game if e.type in (*TURN_TYPES, "player_out")]
    for i, e in enumerate(moves):
        rank = (e.card or "?")[0]
        if e.type != "play" or rank not in "127":
            continue
        after = moves[i + 1] if i + 1 < len(moves) else None
        faced = rank in "12" and after is not None and after.type != "player_out"
        answered = (
            faced and after is not None and after.type == "play" and (after.card or "?")[0] == rank
        )
        h.specials.append((e.player or 0, int(rank), faced, answered))
    return h


@cache
def hez2_games() -> dict[str, Hez2Game]:
    return {g[0].game_id: hez2_reduce(g) for g in corpus() if g[0].kind == "hez2"}


@pytest.mark.parametrize("f", kind_filters("hez2", (2, 4)), ids=repr)
def test_hez2_every_column(f: Filters) -> None:
    gs = [hez2_games()[g.game_id] for g in chosen(f) if g.kind == "hez2"]
    seats = [(h, s) for h in gs for s in range(h.players) if f.player in (None, h.names[s])]
    by_n = grouped(gs, lambda h: (h.players,))
    check("hez2_length", f, ("players",), {
        k: {"games": len(v), "min_turns": min(h.turns for h in v),
            "avg_turns": avg([h.turns for h in v]), "max_turns": max(h.turns for h in v)}
        for k, v in by_n.items()
    })  # fmt: skip
    check("hez2_reshuffles", f, ("players",), {
        k: {"opportunities": len(v), "reshuffles": sum(h.reshuffles for h in v),
            "hits": sum(h.reshuffles > 0 for h in v)}
        for k, v in by_n.items()
    })  # fmt: skip
    longest = grouped(gs, lambda h: (h.longest,))
    check(
        "hez2_pending_draw",
        f,
        ("longest_draw",),
        {k: {"games": len(v)} for k, v in longest.items()},
    )

    per = grouped(seats, lambda x: (x[0].names[x[1]],))
    check("hez2_places_by_player", f, ("player",), {
        k: {"opportunities": len(v), "avg_place": avg([h.places.get(s) for h, s in v]),
            "hits": sum(h.places.get(s) == 1 for h, s in v),
            "last": sum(h.places.get(s) == h.players for h, s in v)}
        for k, v in per.items()
    })  # fmt: skip
    by_place = grouped(seats, lambda x: (x[0].players, x[1], x[0].places.get(x[1])))
    check("hez2_places_by_seat", f, ("players", "seat", "place"),
          {k: {"games": len(v)} for k, v in by_place.items()})  # fmt: skip
    left = grouped([(h.players, h.held[s]) for h, s in seats if h.held.get(s, 0) > 0],
                   lambda x: x)  # fmt: skip
    check(
        "hez2_cards_left", f, ("players", "cards"), {k: {"seats": len(v)} for k, v in left.items()}
    )

    staked = grouped([x for x in seats if x[0].stakes[x[1]] is not None],
                     lambda x: (x[0].names[x[1]],))  # fmt: skip
    want: dict[Key, Row] = {}
    for k, v in staked.items():
        stakes = [h.stakes[s] or 0 for h, s in v]
        paid = [h.payouts.get(s, 0) for h, s in v]
        nets = [p - st for p, st in zip(paid, stakes, strict=True)]
        want[k] = {"games": len(v), "staked": sum(stakes), "paid_out": sum(paid), "net": sum(nets),
                   "won_money": sum(x > 0 for x in nets), "lost_money": sum(x < 0 for x in nets),
                   "roi": sum(nets) / sum(stakes)}  # fmt: skip
    check("hez2_payouts", f, ("player",), want)
    if f == Filters():
        assert any(r["won_money"] for r in want.values())
        assert any(r["lost_money"] for r in want.values())

    specials = grouped([x for h, s in seats for x in h.specials if x[0] == s], lambda x: (x[1],))
    check("hez2_specials", f, ("rank",), {
        k: {"played": len(v), "opportunities": sum(x[2] for x in v), "hits": sum(x[3] for x in v)}
        for k, v in specials.items()
    })  # fmt: skip


def test_hez2_payouts_are_paid_to_staked_seats() -> None:
    """Each staked seat has one payout (the net above reads a missing payout as 0)."""
    for h in hez2_games().values():
        assert set(h.payouts) == {s for s, st in enumerate(h.stakes) if st is not None}


# --------------------------------------------------------------------- Hiifuu
@dataclass
class HiifuuRound:
    game_id: str
    players: int
    variant: str
    round: int
    seat: int
    player: str
    tricks: int = 0
    second: int | None = None
    token: tuple[int, int] | None = None  # position, value
    covered: bool = False
    score: int | None = None


@cache
def hiifuu_rounds() -> tuple[HiifuuRound, ...]:
    out: list[HiifuuRound] = []
    for g in corpus():
        if g[0].kind != "hiifuu":
            continue
        setup = json.loads(g[0].data or "{}")
        who = list(setup["names"])
        n = len(who)
        rounds: dict[int, list[HiifuuRound]] = {}
        covered: dict[int, set[int]] = defaultdict(set)
        for e in g:
            r = e.round or 0
            if e.type == "tokens":
                rounds[r] = [HiifuuRound(g[0].game_id, n, setup["variant"], r, s, who[s])
                             for s in range(n)]  # fmt: skip
            elif e.type == "trick_won":
                x = rounds[r][e.player or 0]
                x.tricks += 1
                if x.tricks == 2:
                    x.second = e.trick
            elif e.type == "token_taken":
                rounds[r][e.player or 0].token = (e.target or 0, e.amount or 0)
            elif e.type == "token_covered":
                covered[r].add(e.target or 0)
            elif e.type == "round_scored":
                rounds[r][e.player or 0].score = e.amount
        for r, xs in rounds.items():
            for x in xs:
                x.covered = x.token is not None and x.token[0] in covered[r]
                out.append(x)
    return tuple(out)


@pytest.mark.parametrize("f", kind_filters("hiifuu", (6, 4)), ids=repr)
def test_hiifuu_every_column(f: Filters) -> None:
    ids = {g.game_id for g in chosen(f)}
    rounds = [x for x in hiifuu_rounds() if x.game_id in ids and f.player in (None, x.player)]
    per = grouped(rounds, lambda x: (x.player,))
    check("hiifuu_trick_counts", f, ("player",), {
        k: {"opportunities": len(v), "hits": sum(x.tricks == 2 for x in v),
            "zero": sum(x.tricks == 0 for x in v), "one": sum(x.tricks == 1 for x in v),
            "three_or_more": sum(x.tricks >= 3 for x in v)}
        for k, v in per.items()
    })  # fmt: skip
    seconds = grouped([x for x in rounds if x.second is not None], lambda x: (x.second,))
    check("hiifuu_second_trick", f, ("trick",), {k: {"rounds": len(v)} for k, v in seconds.items()})
    taken = grouped([x for x in rounds if x.token is not None], lambda x: (x.token[0],))
    check("hiifuu_tokens_by_position", f, ("position",), {
        k: {"opportunities": len(v), "hits": sum(not x.covered for x in v),
            "avg_value": avg([x.token[1] for x in v if x.token])}
        for k, v in taken.items()
    })  # fmt: skip
    check("hiifuu_round_scores", f, ("round",), {
        k: {"opportunities": len(v), "avg_score": avg([x.score for x in v]),
            "hits": sum((x.score or 0) > 0 for x in v)}
        for k, v in grouped(rounds, lambda x: (x.round,)).items()
    })  # fmt: skip
    check("hiifuu_variants", f, ("variant",), {
        k: {"opportunities": len(v), "hits": sum(x.tricks == 2 for x in v),
            "avg_score": avg([x.score for x in v])}
        for k, v in grouped(rounds, lambda x: (x.variant,)).items()
    })  # fmt: skip


# --------------------------------------------------------------------- Fou!
@dataclass
class FouRound:
    game_id: str
    round: int
    seat: int
    player: str
    score: int = 0
    fools: int = 0
    joker_fools: int = 0
    cards: int = 0
    jokers: int = 0
    hows: list[str] = field(default_factory=list)


def fou_round(
    rounds: dict[tuple[int, int], FouRound], game_id: str, who: list[str], e: Event
) -> FouRound:
    """The seat-round of event ``e`` (made on first sight)."""
    key = (e.round or 0, e.player or 0)
    if key not in rounds:
        rounds[key] = FouRound(game_id, key[0], key[1], who[key[1]])
    return rounds[key]


@cache
def fou_rounds() -> tuple[FouRound, ...]:
    out: list[FouRound] = []
    for g in corpus():
        if g[0].kind != "fou":
            continue
        who = list(json.loads(g[0].data or "{}")["names"])
        rounds: dict[tuple[int, int], FouRound] = {}

        trick: list[Event] = []
        last: list[Event] = []
        led: str | None = None
        for e in g:
            if e.type == "play":
                trick.append(e)
                x = fou_round(rounds, g[0].game_id, who, e)
                x.cards += 1
                x.jokers += suit_of("fou", e.card) is None
            elif e.type == "trick_won":
                led = next((suit_of("fou", p.card) for p in trick if suit_of("fou", p.card)), None)
                last, trick = trick, []
            elif e.type == "fool":
                assert any(p.card == e.card for p in last)
                colour = suit_of("fou", e.card)
                x = fou_round(rounds, g[0].game_id, who, e)
                x.fools += 1
                x.joker_fools += colour is None
                x.hows.append("joker" if colour is None else
                              "discard" if colour != led else "low card")  # fmt: skip
            elif e.type == "round_scored":
                fou_round(rounds, g[0].game_id, who, e).score = e.amount or 0
        out.extend(rounds.values())
    return tuple(out)


@pytest.mark.parametrize("f", kind_filters("fou", (4, 7)), ids=repr)
def test_fou_every_column(f: Filters) -> None:
    ids = {g.game_id for g in chosen(f)}
    rounds = [x for x in fou_rounds() if x.game_id in ids and f.player in (None, x.player)]
    per = grouped(rounds, lambda x: (x.player,))
    check("fou_fools_per_player", f, ("player",), {
        k: {"opportunities": len(v), "hits": sum(x.fools > 0 for x in v),
            "fools": sum(x.fools for x in v), "fools_per_round": avg([x.fools for x in v])}
        for k, v in per.items()
    })  # fmt: skip
    check("fou_plus_ten", f, ("player",), {
        k: {"opportunities": len(v), "hits": sum(x.score == 10 for x in v)}
        for k, v in per.items()
    })  # fmt: skip
    penalties = grouped([x for x in rounds if x.score < 0], lambda x: (x.score,))
    check("fou_penalties", f, ("penalty",), {k: {"rounds": len(v)} for k, v in penalties.items()})
    hows = [h for x in rounds for h in x.hows]
    check(
        "fou_fool_cause",
        f,
        ("how",),
        {(k,): {"hits": hows.count(k), "opportunities": len(hows)} for k in set(hows)},
    )
    jokers: dict[Key, Row] = {}
    if rounds:
        jokers = {
            ("colour card",): {"opportunities": sum(x.cards - x.jokers for x in rounds),
                               "hits": sum(x.fools - x.joker_fools for x in rounds)},
            ("joker",): {"opportunities": sum(x.jokers for x in rounds),
                         "hits": sum(x.joker_fools for x in rounds)},
        }  # fmt: skip
    check("fou_jokers", f, ("card",), jokers)


def test_fou_every_seat_round_is_scored() -> None:
    """The walk's seat-rounds are the scored ones (a round row per seat, as the rounds view)."""
    got = {(x.game_id, x.round, x.seat) for x in fou_rounds()}
    want = {(g.game_id, r, s) for g in games() if g.kind == "fou" for r, s in g.round_scores}
    assert got == want


# --------------------------------------------------------------------- what api.py exposes
@pytest.mark.parametrize("f", COMMON_FILTERS, ids=repr)
def test_overview_every_column(f: Filters) -> None:
    by_kind = grouped(chosen(f), lambda g: (g.kind,))
    seated = grouped(chosen_seats(f), lambda x: (x[0].kind,))
    check_rows("overview", analytics().overview(f).to_pylist(), ("kind",), {
        k: {"games": len(v), "events": sum(g.events for g in v),
            "players": len({s.player for _, s in seated[k]}), "rounds": sum(g.rounds for g in v),
            "first": min(g.day for g in v if g.day), "last": max(g.day for g in v if g.day)}
        for k, v in by_kind.items()
    })  # fmt: skip


@pytest.mark.parametrize("f", COMMON_FILTERS, ids=repr)
def test_rating_results_every_column(f: Filters) -> None:
    """Every seat with a place of the chosen games (opponents of a chosen player too)."""
    starts = {g[0].game_id: g[0].ts for g in corpus()}
    want = [
        {"game_id": g.game_id, "kind": g.kind, "started": starts[g.game_id], "day": g.day,
         "players": g.players, "player": s.player, "place": s.place}
        for g in chosen(f) for s in g.seats if s.place is not None
    ]  # fmt: skip
    want.sort(key=lambda r: (r["started"], r["game_id"]))  # seats in seat order within a game
    assert analytics().rating_results(f).to_pylist() == want


def metric_rows(metric: str) -> list[tuple[str, int, bool]]:
    """(game_id, seat, hit) of every opportunity of ``metric``, from the walks above."""
    if metric == "win":
        return [(g.game_id, s.seat, s.won) for g in games() for s in g.seats]
    if metric in ("clean_hand", "moon_shot", "queen_taken"):
        hits: dict[str, Callable[[Row], bool]] = {
            "clean_hand": lambda h: h["points"] == 0,
            "moon_shot": lambda h: h["points"] == 26,
            "queen_taken": lambda h: bool(h["queen"]),
        }
        hit = hits[metric]
        return [(h["game"], h["seat"], hit(h)) for h in hearts_hands()]
    if metric == "stake_won":
        return [(h.game_id, s, h.payouts.get(s, 0) > (h.stakes[s] or 0))
                for h in hez2_games().values() for s in range(h.players)
                if h.stakes[s] is not None]  # fmt: skip
    if metric == "two_tricks":
        return [(x.game_id, x.seat, x.tricks == 2) for x in hiifuu_rounds()]
    if metric in ("fool", "plus_ten"):
        return [(x.game_id, x.seat, x.fools > 0 if metric == "fool" else x.score == 10)
                for x in fou_rounds()]  # fmt: skip
    raise AssertionError(metric)


METRICS = ("win", "clean_hand", "moon_shot", "queen_taken", "stake_won", "two_tricks", "fool",
           "plus_ten")  # fmt: skip


@pytest.mark.parametrize("f", [Filters(), Filters(players=4, since=SPRING), Filters(player="ann")],
                         ids=repr)  # fmt: skip
@pytest.mark.parametrize("metric", METRICS)
def test_insight_every_column(metric: str, f: Filters) -> None:
    assert sorted(METRICS) == sorted(m.name for m in analytics().metrics(None))
    seats = {(g.game_id, s.seat): (g, s) for g, s in chosen_seats(f)}
    counted = [(seats[(gid, seat)], hit) for gid, seat, hit in metric_rows(metric)
               if (gid, seat) in seats]  # fmt: skip
    assert counted or f != Filters()
    for dimension in analytics().dimensions(None):

        def value(x: tuple[Game, Seat], d: str = dimension) -> Key:
            return (x[0].kind if d == "kind" else getattr(x[1], d),)

        groups = grouped(counted, lambda c: value(c[0]))
        want = {k: {"hits": sum(hit for _, hit in v), "opportunities": len(v)}
                for k, v in groups.items()}  # fmt: skip
        got = analytics().insight(metric, dimension, f).to_pylist()
        check_rows(f"{metric} x {dimension}", got, (dimension,), want)
