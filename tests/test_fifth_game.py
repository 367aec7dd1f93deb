"""A fifth game in one module: a tiny trick game defined here alone, registered at test time
(:func:`replay.games.register`), then simulated, stored, audited, replayed and rendered with no
other file of the package touched (issue 27; ``docs/adding-a-game.md``).

Twelve: 2 or 3 players, twelve cards (ranks 1-4 of sun, moon and star), all dealt; the leader
plays any card, the others follow the led suit when they can; the highest card of the led suit
takes the trick and leads the next; one point a trick; the most points win.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, ClassVar

import jsonschema
import pytest
from rich.console import Console

from replay.audit import audit_game
from replay.engine.cursor import Cursor
from replay.engine.simulate import simulate_game
from replay.games import available_kinds, get_rules, register, unregister
from replay.games.base import (
    COMMON_EVENT_FIELDS,
    COMMON_EVENT_TYPES,
    OVER,
    Bot,
    Due,
    Game,
    GameState,
    RuleViolation,
    check_players,
    parse_setup,
    random_bot,
    seat_names,
    simulated_seats,
)
from replay.games.hidden import NoSampler, sampler_for
from replay.model import decks, faces
from replay.model.events import Category, Event
from replay.model.specs import GameSpec, state_schema
from replay.model.violation import LogRule, RuleId
from replay.render import svg
from replay.render import terminal as render
from replay.store import EventStore

KIND = "twelve"
SUITS = ("S", "M", "T")
DECK = tuple(f"{rank}{suit}" for suit in SUITS for rank in "1234")


def suit(code: str) -> str:
    return code[-1]


def rank(code: str) -> int:
    return int(code[:-1])


class Rule(RuleId):
    """The rules of Twelve (this file's own IDs: no RULES.md entry)."""

    DEAL = "TWELVE-DEAL"
    TURN = "TWELVE-TURN"
    FOLLOW = "TWELVE-FOLLOW"
    TRICK = "TWELVE-TRICK"
    END = "TWELVE-END"


# No ``slots=True``: a slots dataclass lists every field in its ``__slots__``, the inherited
# ones too when the base declares no ``__slots__`` (a compiled GameState has none), and those
# slots would hide the compiled base's fields (``game_id``... set by GameState.__init__ would
# read as unset). docs/adding-a-game.md
@dataclass(init=False)
class TwelveState(GameState):
    names: tuple[str, ...]
    hands: list[tuple[str, ...]]
    dealt: int
    trick: int
    leader: int
    table: list[str]
    points: list[int]
    winners: tuple[int, ...]

    def __init__(self, game_id: str, kind: str, n: int) -> None:
        GameState.__init__(self, game_id, kind, n)
        self.names = ()
        self.hands = [() for _ in range(n)]
        self.dealt = 0
        self.trick = 1
        self.leader = 0
        self.table = []
        self.points = [0] * n
        self.winners = ()


class Twelve(Game[TwelveState]):
    turn_rule: ClassVar[RuleId] = Rule.TURN
    end_rule: ClassVar[RuleId] = Rule.END
    due_rules: ClassVar[Mapping[str, RuleId]] = {"deal": Rule.DEAL, "play": Rule.TURN}
    rule_ids: ClassVar[tuple[RuleId, ...]] = tuple(Rule)

    def setup_event(
        self, game_id: str, players: int, rng: random.Random, options: Mapping[str, Any]
    ) -> Event:
        data = simulated_seats(players, options)
        return Event(game_id, 0, KIND, "game_start", data=json.dumps(data))

    def start(self, event: Event) -> TwelveState:
        setup = parse_setup(event, KIND)
        n = check_players(setup, self.min_players, self.max_players, Rule.DEAL)
        state = TwelveState(event.game_id, KIND, n)
        state.names = seat_names(setup, n)
        state.seq = 1
        state.last = event
        return state

    def due(self, state: TwelveState) -> Due:
        if state.over:
            return OVER
        if state.dealt < state.n:
            return Due.chance(state.dealt, what="deal")
        if len(state.table) == state.n:
            winner = self.trick_winner(state)
            won = self.new_event(
                state, "trick_won", trick=state.trick, player=winner, cards=tuple(state.table),
                amount=1,
            )  # fmt: skip
            return Due.of_ruling(won, Rule.TRICK)
        if not any(state.hands):
            best = max(state.points)
            winners = tuple(s for s, p in enumerate(state.points) if p == best)
            return Due.of_ruling(self.new_event(state, "game_end", values=winners), Rule.END)
        return Due.decision(self.turn(state), what="play")

    def turn(self, state: TwelveState) -> int:
        return (state.leader + len(state.table)) % state.n

    def trick_winner(self, state: TwelveState) -> int:
        led = suit(state.table[0])
        best = max(
            (i for i, c in enumerate(state.table) if suit(c) == led),
            key=lambda i: rank(state.table[i]),
        )
        return (state.leader + best) % state.n

    def verify_chance(self, state: TwelveState, event: Event) -> None:
        cards = event.cards or ()
        if event.player != state.dealt:
            raise RuleViolation(Rule.DEAL, f"deal to seat {event.player}, not {state.dealt}")
        held = {c for hand in state.hands for c in hand}
        for code in cards:
            if code not in DECK or code in held:
                raise RuleViolation(LogRule.CARD, f"{code} is not in the undealt deck")
        if len(set(cards)) != len(cards) or len(cards) != len(DECK) // state.n:
            raise RuleViolation(Rule.DEAL, f"{len(cards)} cards dealt")

    def card_fault(self, state: TwelveState, event: Event) -> RuleViolation | None:
        seat = event.player
        if event.type != "play" or seat is None or not 0 <= seat < state.n:
            return None
        if event.card not in state.hands[seat]:
            return RuleViolation(LogRule.CARD, f"seat {seat} does not hold {event.card}")
        return None

    def verify_decision(self, state: TwelveState, event: Event) -> None:
        fault = self.card_fault(state, event)
        if fault is not None:
            raise fault
        if event.trick != state.trick:
            raise RuleViolation(LogRule.ORDER, f"trick {event.trick}, expected {state.trick}")
        if event not in self.legal_decisions(state, self.turn(state)):
            raise RuleViolation(Rule.FOLLOW, f"{event.card} does not follow the led suit")

    def reduce(self, state: TwelveState, event: Event) -> TwelveState:
        if event.type == "deal":
            state.hands[state.dealt] = tuple(event.cards or ())
            state.dealt += 1
        elif event.type == "play":
            seat = self.turn(state)
            state.hands[seat] = tuple(c for c in state.hands[seat] if c != event.card)
            state.table.append(str(event.card))
        elif event.type == "trick_won":
            winner = int(event.player or 0)
            state.points[winner] += event.amount or 0
            state.leader = winner
            state.table = []
            state.trick += 1
        elif event.type == "game_end":
            state.winners = tuple(event.values or ())
            state.over = True
        return state

    def legal_decisions(self, state: TwelveState, seat: int) -> list[Event]:
        hand = state.hands[seat]
        led = [c for c in hand if state.table and suit(c) == suit(state.table[0])]
        return [
            self.new_event(state, "play", trick=state.trick, player=seat, card=c)
            for c in (led or hand)
        ]

    def sample_chance(self, state: TwelveState, rng: random.Random) -> Event:
        held = {c for hand in state.hands for c in hand}
        undealt = [c for c in DECK if c not in held]
        cards = tuple(sorted(rng.sample(undealt, len(DECK) // state.n), key=DECK.index))
        return self.new_event(state, "deal", player=state.dealt, cards=cards)

    def view(self, state: TwelveState, seat: int | None = None) -> dict[str, Any]:
        due = self.due(state)
        return {
            "kind": KIND,
            "game_id": state.game_id,
            "seq": state.seq,
            "players": state.n,
            "names": list(state.names),
            "seat_view": seat,
            "phase": due.phase.value,
            "turn": list(due.seats) if due.phase.value == "decision" else [],
            "round": 1,
            "trick": state.trick,
            "hands": [list(h) if seat in (None, s) else None for s, h in enumerate(state.hands)],
            "hand_sizes": [len(h) for h in state.hands],
            "table": [
                {"seat": (state.leader + i) % state.n, "card": c} for i, c in enumerate(state.table)
            ],
            "totals": list(state.points),
            "over": state.over,
            "last_event": None,
            "game": {"leader": state.leader, "winners": list(state.winners)},
        }

    def render(self, state: TwelveState, seat: int | None = None) -> str:
        lines = [f"twelve trick {state.trick}, points {state.points}"]
        lines += [f"seat {s}: {' '.join(h)}" for s, h in enumerate(state.hands)]
        return "\n".join(lines)

    def bots(self) -> Mapping[str, Bot]:
        return {"random": random_bot(self)}


SPEC = GameSpec(
    kind=KIND,
    title="Twelve",
    categories={**COMMON_EVENT_TYPES, "play": Category.DECISION, "trick_won": Category.RULING},
    event_fields={
        **COMMON_EVENT_FIELDS,
        "deal": ("player", "cards"),
        "play": ("trick", "player", "card"),
        "trick_won": ("trick", "player", "cards", "amount"),
    },
    deck=DECK,
    faces=decks.Deck(
        "last",
        decks.suits(
            decks.Suit("S", "suns", "☀", "bold yellow", decks.GOLD, "coin"),
            decks.Suit("M", "moons", "☾", "bold blue", decks.BLUE, "disc"),
            decks.Suit("T", "stars", "★", "bold magenta", decks.MAGENTA, "star"),
        ),
        {},
        "{rank} of {suit}",
    ),
    players=(2, 3),
    sample_players=3,
    view_schema={
        "type": "object",
        "additionalProperties": False,
        "required": ["leader", "winners"],
        "properties": {"leader": {"$ref": "#/$defs/seat"}, "winners": {"$ref": "#/$defs/seats"}},
    },
)
RULES = Twelve(SPEC)


@pytest.fixture
def twelve() -> Iterator[Game[Any]]:
    """The game registered for one test, and taken out again."""
    register(RULES)
    try:
        yield get_rules(KIND)
    finally:
        unregister(KIND)


def games(n: int = 6) -> list[list[Event]]:
    return [
        simulate_game(RULES, f"twelve-{seed}", players=2 + seed % 2, seed=seed, check=True)
        for seed in range(n)
    ]


def test_it_simulates_stores_audits_replays_and_renders(twelve: Game[Any], tmp_path: Path) -> None:
    assert KIND in available_kinds()
    played = games()
    assert all(g[-1].type == "game_end" for g in played)
    assert sum(e.type == "trick_won" for e in played[0]) == 6  # two players: six cards each

    store = EventStore.open(tmp_path / "store", create=True)
    report = store.ingest(played)
    assert not report.rejected
    loaded = store.load_game("twelve-1")
    assert loaded == played[1]

    # audited clean, and a mutated trick is found with its rule
    assert audit_game(loaded).findings == []
    at = next(i for i, e in enumerate(loaded) if e.type == "trick_won")
    won = loaded[at]
    other = (int(won.player or 0) + 1) % 3
    bad = [*loaded[:at], replace(won, player=other), *loaded[at + 1 :]]
    findings = audit_game(bad).findings
    assert [(f.rule, f.seq) for f in findings][:1] == [("TWELVE-TRICK", at)]

    # replayed by the cursor, forward and back
    cursor = Cursor(twelve, loaded)
    assert cursor.stopped is None and not cursor.violations
    cursor.seek(-1)
    assert cursor.view()["over"] and cursor.view()["totals"] == list(cursor.state.points)
    cursor.seek(at - 1)  # the trick on the table, then taken
    assert cursor.view()["trick"] == 1 and len(cursor.view()["table"]) == 3
    assert cursor.next().view()["trick"] == 2 and cursor.view()["table"] == []

    # every view has the documented shape, the game's part as its spec declares it
    validator = jsonschema.Draft202012Validator(state_schema())
    assert "twelve_game" in validator.schema["$defs"]
    for step in range(cursor.last_step + 1):
        for seat in (None, 0):
            assert not list(validator.iter_errors(cursor.seek(step).view(seat))), step
    assert not validator.is_valid({**cursor.view(), "game": {"leader": 0}})

    # rendered: the terminal panel with the spec's marks, SVG cards in the suit's colour
    console = Console(record=True, width=100, color_system=None)
    console.print(render.state_panel(Cursor(twelve, loaded).seek(8).view()))
    text = console.export_text()
    assert "twelve" in text.lower() and any(m in text for m in "☀☾★")
    assert faces.card_label(KIND, "3M") == "3☾"
    card = svg.card_svg(KIND, "4T")
    assert card.startswith("<svg") and decks.MAGENTA in card
    assert faces.card_face(KIND, "2S").name == "2 of suns"


def test_the_store_checks_the_spec(twelve: Game[Any], tmp_path: Path) -> None:
    game = games(1)[0]
    deal = next(i for i, e in enumerate(game) if e.type == "deal")
    cards = ("9S", *(game[deal].cards or ())[1:])
    bad = [*game[:deal], replace(game[deal], cards=cards), *game[deal + 1 :]]
    stray = [replace(e, game_id="stray") for e in game]
    stray[deal] = replace(stray[deal], amount=3)
    report = EventStore.open(tmp_path / "store", create=True).ingest([bad, stray])
    assert sorted(r.rule for r in report.rejected) == ["LOG-CARD", "LOG-ORDER"]


def test_registration_is_undone(tmp_path: Path) -> None:
    register(RULES)
    unregister(KIND)
    assert KIND not in available_kinds() and faces.card_face(KIND, "2S").name == "2S"
    report = EventStore.open(tmp_path / "store", create=True).ingest(games(1))
    assert [r.rule for r in report.rejected] == ["LOG-SETUP"]


def test_a_game_without_a_hidden_sibling_has_no_sampler(twelve: Game[Any]) -> None:
    """The sampler of what a seat cannot see is the module's ``_hidden`` sibling, if any."""
    with pytest.raises(NoSampler, match=KIND):
        sampler_for(KIND)
