"""Property tests over simulated Fou! games, checked against an independent reading of the log.

The checker below rebuilds hands, tricks, Fools and scores from the events alone (not from the
reducer's state), so the properties test the rules, not the reducer against itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay.engine.simulate import simulate_game
from replay.games.fou import RULES, default_deck, hand_size
from replay.model.events import Event

BOT_MIXES = [("random",), ("heuristic",), ("random", "heuristic")]


def simulate(players: int, seed: int, mix: int) -> list[Event]:
    return simulate_game(RULES, f"f{seed}", players=players, seed=seed, bots=BOT_MIXES[mix])


def strength(code: str, position: int, led: str | None) -> tuple[int, int, int]:
    """How good a played card is: the led colour (a 1 counting as it) above discards, then the
    value, then the earlier card (FOU-TRICK, FOU-FOOL)."""
    one = code.startswith("1")
    follows = one or code[0] == led
    return (1 if follows else 0, 1 if one else int(code[1:]), -position)


def ranked(table: list[tuple[int, str]]) -> list[int]:
    """Seats of a complete trick from the best card to the worst."""
    led = next((c[0] for _, c in table if not c.startswith("1")), None)
    order = sorted(range(len(table)), key=lambda i: strength(table[i][1], i, led), reverse=True)
    return [table[i][0] for i in order]


def penalty(code: str) -> int:
    """Points of a card left in hand: its value, a 1 counting 5 (FOU-SCORE)."""
    return 5 if code.startswith("1") else int(code[1:])


@dataclass
class LogChecker:
    """Follows a game from its events and checks the FOU-* invariants."""

    n: int
    deck: set[str] = field(default_factory=set)
    hands: list[set[str]] = field(default_factory=list)
    played: set[str] = field(default_factory=set)  # cards gone to finished tricks this round
    table: list[tuple[int, str]] = field(default_factory=list)
    last_trick: list[tuple[int, str]] = field(default_factory=list)
    last_ranking: list[int] = field(default_factory=list)  # seats of last_trick, best first
    sitting_out: set[int] = field(default_factory=set)
    fools: list[int] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    plus: list[int] = field(default_factory=list)
    round_over: bool = False
    rounds: int = 0
    dealer: int = -1
    first_leader: int = -1
    next_player: int = -1

    def __post_init__(self) -> None:
        self.totals = [0] * self.n
        self.plus = [0] * self.n

    def conserved(self) -> None:
        places = [*self.hands, {c for _, c in self.table}, self.played]
        assert sum(len(p) for p in places) == len(self.deck), "a card is in two places"
        assert set().union(*places) == self.deck, "a card appeared or vanished"

    def see(self, e: Event) -> None:
        handler = getattr(self, f"on_{e.type}", None)
        if handler is not None:
            handler(e)

    def on_deck(self, e: Event) -> None:
        self.deck = set(e.cards or ())
        assert tuple(e.cards or ()) == default_deck(self.n)

    def on_dealer(self, e: Event) -> None:
        assert e.player is not None
        self.dealer = e.player
        self.first_leader = (e.player + 1) % self.n

    def on_deal(self, e: Event) -> None:
        if e.player == 0:
            self.hands, self.played, self.sitting_out = [], set(), set()
            self.round_over = False
        assert len(e.cards or ()) == hand_size(self.n)
        self.hands.append(set(e.cards or ()))
        if len(self.hands) == self.n:
            self.conserved()
            self.next_player = self.first_leader

    def on_play(self, e: Event) -> None:
        assert e.player is not None and e.card is not None
        assert not self.round_over, "a play after a hand emptied"
        assert e.player not in self.sitting_out, "the Fool played"
        assert e.player == self.next_player, "not this seat's turn"
        seat = (e.player + 1) % self.n
        while seat in self.sitting_out:
            seat = (seat + 1) % self.n
        self.next_player = seat
        self.hands[e.player].remove(e.card)
        self.table.append((e.player, e.card))

    def on_trick_won(self, e: Event) -> None:
        assert len(self.table) == self.n - len(self.sitting_out)
        assert e.cards == tuple(c for _, c in self.table)
        self.last_ranking = ranked(self.table)
        assert e.player == self.last_ranking[0]
        self.next_player = e.player
        self.played |= set(e.cards)
        self.last_trick, self.table = self.table, []
        self.fools = []
        self.conserved()

    def on_fool(self, e: Event) -> None:
        assert e.player is not None
        assert (e.player, e.card) in self.last_trick
        assert e.player == self.last_ranking[-1 - len(self.fools)]
        self.fools.append(e.player)
        if len(self.fools) == (2 if self.n >= 7 else 1):
            self.sitting_out = set(self.fools)
            self.round_over = any(not h for h in self.hands)

    def on_round_scored(self, e: Event) -> None:
        assert self.round_over, "round scored while every hand holds cards"
        seat = e.player
        assert seat is not None and e.amount is not None
        hand = self.hands[seat]
        if hand:
            expected = -sum(penalty(c) for c in hand)
        else:
            expected = 0 if seat in self.fools else 10
        assert e.amount == expected
        self.totals[seat] += expected
        self.plus[seat] += expected == 10
        assert e.total == self.totals[seat]
        if seat == self.n - 1:
            self.rounds += 1
            self.sitting_out = set()
            low = min(self.totals)
            self.first_leader = next(
                s % self.n
                for s in range(self.first_leader, self.first_leader + self.n)
                if self.totals[s % self.n] == low
            )

    def game_should_end(self) -> bool:
        return max(self.plus) >= 6 or min(self.totals) <= -80


def check_game(players: int, events: list[Event]) -> LogChecker:
    checker = LogChecker(players)
    for i, event in enumerate(events[1:], 1):
        checker.see(event)
        if event.type == "round_scored" and event.player == players - 1:
            nxt = events[i + 1]
            assert (nxt.type == "game_end") == checker.game_should_end()
    end = events[-1]
    best = max(checker.totals)
    assert end.type == "game_end"
    assert end.values == tuple(s for s in range(players) if checker.totals[s] == best)
    return checker


@settings(max_examples=900)
@given(players=st.integers(4, 8), seed=st.integers(0, 2**32), mix=st.integers(0, 2))
@pytest.mark.slow
def test_simulated_games_follow_the_rules_and_replay_to_the_same_state(
    players: int, seed: int, mix: int
) -> None:
    events = simulate(players, seed, mix)
    checker = check_game(players, events)
    final = RULES.replay(events, check=True)  # every recorded decision and ruling verified
    assert final.over and list(final.totals) == checker.totals
    assert list(final.plus) == checker.plus and final.round == checker.rounds
    stepped = RULES.start(events[0])
    for event in events[1:]:
        stepped = RULES.step(stepped, event)
    assert stepped == final


@settings(max_examples=40)
@given(players=st.integers(4, 8), seed=st.integers(0, 2**32))
def test_views_never_show_another_seats_hand(players: int, seed: int) -> None:
    events = simulate(players, seed, 0)
    state = RULES.start(events[0])
    for event in events[1 : len(events) // 2]:
        state = RULES.apply(state, event)
    for seat in range(players):
        view = RULES.view(state, seat)
        assert [h is not None for h in view["hands"]] == [s == seat for s in range(players)]
        assert view["hand_sizes"] == [len(h) for h in RULES.view(state)["hands"]]
        lines = RULES.render(state, seat).splitlines()
        for other in range(players):
            line = lines[1 + other]
            assert line.startswith(f"  seat {other} ")
            if other != seat:
                assert line.endswith(f"({view['hand_sizes'][other]} cards)")
