"""RULES.md, "Which rule a finding cites": one test per precedence class, asserting the rule.

Each test finds the situation in a simulated game, records the faulty event there and asks the
rules which rule it breaks.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Callable, Iterator
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from replay.audit import audit_game
from replay.engine.simulate import simulate_game
from replay.games import fou, get_rules, hearts, hez2
from replay.games.base import Phase, RuleViolation
from replay.model.cards import bits
from replay.model.events import Event

DECKS = {"hearts": hearts.DECK, "hez2": hez2.DECK, "fou": fou.DECK}
Situation = tuple[Any, Event, list[Event], int]  # state before events[i], events[i], log, i


@cache
def simulated(kind: str, players: int, seed: int, bots: str = "random") -> list[Event]:
    """One simulated game, played once for all the tests that look at it."""
    rules = get_rules(kind)
    return simulate_game(rules, f"{kind}-{seed}", players=players, seed=seed, bots=(bots,))


def corpus(kind: str, players: int, seeds: int, bots: str = "random") -> Iterator[list[Event]]:
    """The games of seeds ``0 .. seeds - 1``, each played when first reached (a search stops
    at its first find)."""
    return (simulated(kind, players, seed, bots) for seed in range(seeds))


def situations(kind: str, players: int, seeds: int, bots: str = "random") -> Iterator[Situation]:
    """Every (state before the event, event, log, index) of a small simulated corpus."""
    rules = get_rules(kind)
    for events in corpus(kind, players, seeds, bots):
        state = rules.start(events[0])
        for i, event in enumerate(events[1:], 1):
            yield state, event, events, i
            state = rules.apply(state, event)


def find(kind: str, players: int, found: Callable[[Any, Event], bool], seeds: int = 40,
         bots: str = "random") -> Situation:  # fmt: skip
    for situation in situations(kind, players, seeds, bots):
        if found(situation[0], situation[1]):
            return situation
    raise AssertionError("no such situation in the corpus")


def rule_of(kind: str, state: Any, event: Event) -> str:
    try:
        get_rules(kind).verify(state, replace(event, seq=state.seq))
    except RuleViolation as exc:
        return exc.rule
    raise AssertionError(f"{event} was accepted")


def event(state: Any, type_: str, **fields: Any) -> Event:
    return Event(state.game_id, state.seq, state.kind, type_, **fields)


# ----------------------------------------------------------------------------- the END rules
END_RULES = [("hearts", 4, "HEARTS-END"), ("hez2", 3, "HEZ2-RANKING"), ("hiifuu", 5, "HIIFUU-END"),
             ("fou", 5, "FOU-END")]  # fmt: skip


@pytest.mark.parametrize(("kind", "players", "rule"), END_RULES)
def test_a_game_end_where_the_game_goes_on_cites_the_end_rule(
    kind: str, players: int, rule: str
) -> None:
    """RULES.md precedence 2: a `game_end` where the game must go on cites the END rule, in
    every game, whatever is due (a decision, a deal, a ruling)."""
    rules = get_rules(kind)
    seen = set()
    for state, _, _, _ in situations(kind, players, 2):
        phase = rules.due(state).phase
        if phase in seen or (rules.due(state).ruling or Event("", 0, "", "")).type == "game_end":
            continue
        seen.add(phase)
        assert rule_of(kind, state, event(state, "game_end", values=(0,))) == rule
    assert {Phase.DECISION, Phase.CHANCE, Phase.RULING} <= seen


def before_the_end(kind: str, players: int) -> tuple[Any, Any, list[Event]]:
    """A simulated game: the state where its `game_end` is due, the state after it, the log."""
    rules = get_rules(kind)
    log = simulated(kind, players, 0)
    assert log[-1].type == "game_end"
    state = rules.start(log[0])
    for recorded in log[1:-1]:
        state = rules.apply(state, recorded)
    return state, rules.apply(state, log[-1]), log


@pytest.mark.parametrize(("kind", "players", "rule"), END_RULES)
def test_a_missing_game_end_cites_the_end_rule(kind: str, players: int, rule: str) -> None:
    """RULES.md, "Recording order" and HEARTS-END [decision]: a game end that is due and
    missing cites the game's END rule in every game, whatever is recorded in its place (a
    decision, a chance event, another ruling: not LOG-ORDER, nor the ruling's own rule), and
    where the log is judged complete. After the recorded end, the same events are
    LOG-AFTER-END (precedence 1)."""
    state, over, log = before_the_end(kind, players)
    firsts = {e.type: e for e in reversed(log[1:-1])}
    for type_, first in firsts.items():
        assert rule_of(kind, state, first) == rule, type_
        assert rule_of(kind, over, first) == "LOG-AFTER-END", type_
    audit = audit_game(log[:-1], complete=True)
    assert [(f.rule, f.seq) for f in audit.findings] == [(rule, len(log) - 1)]


# ----------------------------------------------------------------------------- Hearts
def test_a_deal_where_the_game_end_is_due_cites_hearts_end() -> None:
    """RULES.md HEARTS-END [decision]: a missing game end cites HEARTS-END, so a deal (or a
    pass, a play) recorded where the end is due cites it, not LOG-ORDER."""
    state, _, log = before_the_end("hearts", 4)
    assert state.hand_no > 1 and min(state.totals) < 100 <= max(state.totals)
    for type_ in ("deal", "pass", "play"):
        recorded = next(e for e in log if e.type == type_)
        with pytest.raises(RuleViolation) as caught:
            get_rules("hearts").verify(state, replace(recorded, seq=state.seq))
        assert caught.value.rule == "HEARTS-END"
        assert "game_end" in caught.value.message


def test_a_pass_in_a_hand_that_keeps_cites_hearts_pass() -> None:
    """RULES.md HEARTS-PASS [decision]: a pass in a hand that keeps (hand 4), by the seat to
    play, not HEARTS-TURN or LOG-ORDER."""
    state, play, _, _ = find("hearts", 4, lambda s, e: s.hand_no == 4 and e.type == "play")
    cards = tuple(DECKS["hearts"].codes(state.hand(play.player))[:3])
    pass_ = event(state, "pass", round=4, player=play.player, target=play.player, cards=cards)
    assert rule_of("hearts", state, pass_) == "HEARTS-PASS"


def test_a_second_pass_by_a_seat_cites_hearts_pass() -> None:
    """RULES.md HEARTS-PASS [decision]: a second pass by a seat, while others still choose."""
    state, _, log, i = find("hearts", 4, lambda s, e: e.type == "pass" and s.passes.count(-1) == 3)
    first = log[i - 1]
    kept = tuple(DECKS["hearts"].codes(state.hand(first.player))[:3])
    assert first.type == "pass"
    assert rule_of("hearts", state, replace(first, cards=kept)) == "HEARTS-PASS"
    assert rule_of("hearts", state, first) == "LOG-CARD"  # its cards are passed already


def test_a_wrong_point_count_on_a_trick_cites_hearts_points() -> None:
    """RULES.md HEARTS-POINTS [decision]: the trick's count; its winner is HEARTS-TRICK."""
    state, won, _, _ = find("hearts", 4, lambda s, e: e.type == "trick_won")
    assert rule_of("hearts", state, replace(won, amount=(won.amount or 0) + 1)) == "HEARTS-POINTS"
    other = ((won.player or 0) + 1) % 4
    assert rule_of("hearts", state, replace(won, player=other)) == "HEARTS-TRICK"


def moon_hand(state: Any, scored: Event) -> bool:
    return scored.type == "round_scored" and 26 in state.taken


def test_a_wrong_running_total_cites_hearts_points_and_a_moon_score_hearts_moon() -> None:
    """RULES.md HEARTS-POINTS [decision]: a wrong running total cites HEARTS-POINTS, in a moon
    hand too; wrong hand scores in a moon hand stay HEARTS-MOON."""
    state, scored, _, _ = find("hearts", 4, lambda s, e: e.type == "round_scored")
    wrong_total = replace(scored, total=(scored.total or 0) + 1)
    assert rule_of("hearts", state, wrong_total) == "HEARTS-POINTS"
    state, scored, _, _ = find("hearts", 4, moon_hand, seeds=300, bots="heuristic")
    moon_total = replace(scored, total=(scored.total or 0) + 1)
    assert rule_of("hearts", state, moon_total) == "HEARTS-POINTS"
    moon_score = replace(scored, amount=26 - (scored.amount or 0), total=scored.total)
    assert rule_of("hearts", state, moon_score) == "HEARTS-MOON"


# ----------------------------------------------------------------------------- Hez2
def final_seven(state: Any, declared: Event) -> bool:
    return declared.type == "declare_suit" and not state.hand(declared.player)


def test_a_final_seven_with_no_declared_suit_cites_hez2_out() -> None:
    """RULES.md HEZ2-OUT [decision]: a final 7 still declares the suit; the seat's going out
    recorded instead cites HEZ2-OUT, not LOG-ORDER."""
    state, declared, _, _ = find("hez2", 3, final_seven, seeds=200)
    out = event(state, "player_out", round=1, player=declared.player, amount=1)
    assert rule_of("hez2", state, out) == "HEZ2-OUT"
    next_seat = ((declared.player or 0) + 1) % 3
    assert rule_of("hez2", state, event(state, "draw", round=1, player=next_seat)) == "HEZ2-OUT"


def nothing_pending(state: Any, play: Event) -> bool:
    return play.type == "play" and not state.pending_skip and not state.pending_draw


def test_a_suit_declared_after_no_seven_cites_hez2_seven_whoever_declares() -> None:
    """RULES.md precedence 2 before 3: a suit declared where no 7 was played cites HEZ2-SEVEN,
    by a seat whose turn it is not too (not HEZ2-TURN); so does a skip or a draw accepted where
    none is pending (HEZ2-ACE, HEZ2-TWO). A declaration due from another seat is HEZ2-TURN."""
    state, play, _, _ = find("hez2", 3, nothing_pending)
    seat = play.player or 0
    for by in (seat, (seat + 1) % 3, (seat + 2) % 3):
        declared = event(state, "declare_suit", round=1, player=by, suit="O")
        assert rule_of("hez2", state, declared) == "HEZ2-SEVEN", by
        accepted = event(state, "accept_skip", round=1, player=by)
        assert rule_of("hez2", state, accepted) == "HEZ2-ACE", by
        accepted = event(state, "accept_draw", round=1, player=by)
        assert rule_of("hez2", state, accepted) == "HEZ2-TWO", by
    state, declared, _, _ = find("hez2", 3, lambda s, e: e.type == "declare_suit")
    other = replace(declared, player=((declared.player or 0) + 1) % 3)
    assert rule_of("hez2", state, other) == "HEZ2-TURN"


def skip_due(state: Any, ruling: Event) -> bool:
    return ruling.type == "skip" and bool(state.hand(ruling.player))


def test_a_skipped_seat_that_plays_cites_hez2_ace() -> None:
    """RULES.md HEZ2-ACE [decision]: a skipped seat that plays or draws in the turn it lost,
    before or after its skip is recorded, not LOG-ORDER or HEZ2-TURN."""
    rules = get_rules("hez2")
    state, skip, _, _ = find("hez2", 3, skip_due, seeds=60)
    seat = skip.player
    card = DECKS[rules.kind].order[next(iter(bits(state.hand(seat))))]
    assert rule_of("hez2", state, event(state, "play", round=1, player=seat, card=card)) == (
        "HEZ2-ACE"
    )
    after = rules.apply(state, skip)
    played = event(after, "play", round=1, player=seat, card=card)
    assert rule_of("hez2", after, played) == "HEZ2-ACE"
    assert rule_of("hez2", after, event(after, "draw", round=1, player=seat)) == "HEZ2-ACE"


def final_two(state: Any, out: Event) -> bool:
    last = state.last
    return (
        out.type == "player_out" and last is not None and last.type == "play"
        and (last.card or "").startswith("2") and state.stage != 5
    )  # fmt: skip


def test_a_draw_imposed_by_a_final_two_cites_hez2_out() -> None:
    """RULES.md HEZ2-OUT [decision]: a final 2 makes nobody draw."""
    rules = get_rules("hez2")
    state, out, _, _ = find("hez2", 4, final_two, seeds=400)
    after = rules.apply(state, out)
    seat = rules.due(after).seats[0]
    accept = event(after, "accept_draw", round=1, player=seat)
    assert rule_of("hez2", after, accept) == "HEZ2-OUT"
    forced = event(after, "forced_draw", round=1, player=seat, amount=2)
    assert rule_of("hez2", after, forced) == "HEZ2-OUT"


def duel_over(state: Any, out: Event) -> bool:
    return out.type == "player_out"


def test_play_after_a_duel_ended_cites_hez2_ranking() -> None:
    """RULES.md HEZ2-RANKING [decision]: with 2 players the first out ends the round; a play
    recorded after it cites HEZ2-RANKING, not LOG-ORDER."""
    rules = get_rules("hez2")
    state, out, _, _ = find("hez2", 2, duel_over)
    other = 1 - (out.player or 0)
    card = DECKS[rules.kind].order[next(iter(bits(state.hand(other))))]
    for at in (state, rules.apply(state, out)):
        played = event(at, "play", round=1, player=other, card=card)
        assert rule_of("hez2", at, played) == "HEZ2-RANKING"


# ----------------------------------------------------------------------------- Hiifuu
def no_token_left(state: Any, won: Event) -> bool:
    return won.type == "trick_won" and won.total == 2 and state.next_token >= 4


def test_a_token_recorded_when_none_is_left_cites_hiifuu_second() -> None:
    """RULES.md HIIFUU-SECOND [decision]: a token recorded when none is left (6 players, a
    fifth seat at two tricks), or where no second trick was just won."""
    rules = get_rules("hiifuu")
    state, won, _, _ = find("hiifuu", 6, no_token_left, seeds=300)
    after = rules.apply(state, won)
    taken = event(after, "token_taken", round=won.round, player=won.player, target=3, amount=4)
    assert rule_of("hiifuu", after, taken) == "HIIFUU-SECOND"
    state, won, _, _ = find("hiifuu", 4, lambda s, e: e.type == "trick_won" and e.total == 1)
    after = rules.apply(state, won)
    taken = event(after, "token_taken", round=won.round, player=won.player, target=0, amount=1)
    assert rule_of("hiifuu", after, taken) == "HIIFUU-SECOND"


def test_a_token_covered_where_no_third_trick_was_won_cites_hiifuu_third() -> None:
    """RULES.md HIIFUU-THIRD, the twin of HIIFUU-SECOND [decision]: a token covered where no
    seat has just won its third trick cites HIIFUU-THIRD, whatever is due (a play: not
    LOG-ORDER; a trick's ruling; the token a second trick takes)."""
    rules = get_rules("hiifuu")
    state, won, _, _ = find("hiifuu", 4, lambda s, e: e.type == "trick_won" and e.total == 1)
    covered = event(state, "token_covered", round=won.round, player=won.player, target=0,
                    amount=1)  # fmt: skip
    assert rule_of("hiifuu", state, covered) == "HIIFUU-THIRD"
    after = rules.apply(state, won)
    assert rules.due(after).phase is Phase.DECISION
    assert rule_of("hiifuu", after, covered) == "HIIFUU-THIRD"
    state, won, _, _ = find("hiifuu", 4, lambda s, e: e.type == "trick_won" and e.total == 2)
    after = rules.apply(state, won)
    assert (rules.due(after).ruling or won).type == "token_taken"
    assert rule_of("hiifuu", after, replace(covered, seq=after.seq)) == "HIIFUU-THIRD"


def test_a_discard_once_every_seat_discarded_cites_hiifuu_setup_whoever_discards() -> None:
    """RULES.md precedence 2 before 3: a second discard cites HIIFUU-SETUP, by a seat whose
    turn it is not too (not HIIFUU-TURN or HIIFUU-LEAD)."""
    state, play, log, _ = find("hiifuu", 4, lambda s, e: e.type == "play")
    discard = next(e for e in log if e.type == "discard" and e.player != play.player)
    assert rule_of("hiifuu", state, discard) == "LOG-CARD"  # its cards left the hand
    held = tuple(state.setup.deck.codes(state.hand(discard.player or 0))[:4])
    assert rule_of("hiifuu", state, replace(discard, cards=held)) == "HIIFUU-SETUP"


def covered_scored(state: Any, scored: Event) -> bool:
    return scored.type == "round_scored" and state.covered[scored.player]


def test_a_covered_token_scored_cites_hiifuu_third() -> None:
    """RULES.md HIIFUU-THIRD [decision]: a covered token scored anyway."""
    state, scored, _, _ = find("hiifuu", 4, covered_scored)
    value = state.layout[state.token_of[scored.player]]
    wrong = replace(scored, amount=value, total=(scored.total or 0) + value)
    assert rule_of("hiifuu", state, wrong) == "HIIFUU-THIRD"
    assert rule_of("hiifuu", state, replace(scored, total=(scored.total or 0) + 1)) == (
        "HIIFUU-SCORE"
    )


# ----------------------------------------------------------------------------- Fou!
def test_a_fool_too_many_or_too_few_cites_fou_fool() -> None:
    """RULES.md FOU-FOOL [decision]: a Fool too many (after the trick's Fools, at the end of a
    round too), or too few (at 7-8 players, a play after one Fool)."""
    rules = get_rules("fou")
    state, fool, _, _ = find("fou", 5, lambda s, e: e.type == "fool")
    after = rules.apply(state, fool)
    assert rule_of("fou", after, fool) == "FOU-FOOL"
    state, _, log, i = find("fou", 5, lambda s, e: e.type == "round_scored")
    assert rule_of("fou", state, log[i - 1]) == "FOU-FOOL"
    state, fool, log, i = find("fou", 8, lambda s, e: e.type == "fool" and len(s.fools) == 1)
    play = next(e for e in log[i:] if e.type == "play")
    assert rule_of("fou", state, play) == "FOU-FOOL"


def test_an_illegal_play_numbered_wrong_cites_the_game_rule() -> None:
    """RULES.md precedence 2 before 4: a play that breaks FOU-FOLLOW and carries a wrong trick
    number cites FOU-FOLLOW, not LOG-ORDER."""
    rules = get_rules("fou")

    def revoke(state: Any, play: Event) -> bool:
        if play.type != "play" or state.led < 0:
            return False
        return any(not rules.can(state, replace(play, card=c)) for c in DECKS[rules.kind].codes(
            state.hand(play.player)))  # fmt: skip

    state, play, _, _ = find("fou", 4, revoke)
    illegal = next(
        c for c in DECKS[rules.kind].codes(state.hand(play.player))
        if not rules.can(state, replace(play, card=c))
    )  # fmt: skip
    wrong = replace(play, card=illegal, trick=(play.trick or 0) + 1)
    assert rule_of("fou", state, wrong) in ("FOU-FOLLOW", "FOU-JOKER")


# ----------------------------------------------------------------------------- LOG-ORDER sites
GAMES_DIR = Path(__file__).resolve().parents[1] / "replay" / "games"
#: Where the game modules may raise LOG-ORDER, and why no game rule names the fault there.
LOG_ORDER_SITES = {
    ("rules.py", "verify"): "an unknown event type, or an event where the rules allow none",
    ("rules.py", "_verify_ruling"): "a ruling missing: the message names the rule due",
    ("checks.py", "round_fault"): "an event numbered with another round",
    ("checks.py", "check_trick"): "a play numbered with another trick",
    ("checks.py", "deal_fault"): "a deal to no seat, a second deal to a seat (Recording order)",
    ("hiifuu.py", "verify_chance"): "a chance event of another type: names the rule due",
    ("hiifuu.py", "verify_tokens"): "tokens numbered with another round",
    ("hez2.py", "verify_chance"): "a chance event of another type: names the rule due",
    ("hez2.py", "stock_fault"): "a card drawn by a seat that is not drawing",
    ("fou.py", "verify_chance"): "an event before the deck (names FOU-SETUP) or the first dealer "
    "(names FOU-LEAD) is recorded",
    ("fou.py", "verify_deal"): "another event while a deal is due (names FOU-SETUP)",
    ("fou.py", "verify_decision"): "a play numbered with another round or trick",
}


def log_order_sites() -> Iterator[tuple[str, str, str]]:
    """(module, function, message source) of every ``RuleViolation(LogRule.ORDER, ...)``."""
    for path in sorted(GAMES_DIR.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef):
                continue
            for node in ast.walk(function):
                if (
                    isinstance(node, ast.Call) and getattr(node.func, "id", "") == "RuleViolation"
                    and node.args and ast.unparse(node.args[0]) == "LogRule.ORDER"
                ):  # fmt: skip
                    yield path.name, function.name, ast.unparse(node.args[1])


def test_no_log_order_where_a_game_rule_names_the_event_due() -> None:
    """RULES.md precedence 4: LOG-ORDER only where no game rule names the fault, and where an
    event of a named type was due, its message names that rule."""
    sites = list(log_order_sites())
    assert {(module, function) for module, function, _ in sites} == set(LOG_ORDER_SITES)
    for module, function, message in sites:
        if "is due" in message or "while" in message:
            assert "rule" in message or "_due_words" in message or "(FOU-" in message, (
                module, function, message,
            )  # fmt: skip
        for named in ("while a play is due", "while a pass", "before passing"):
            assert named not in message, (module, function, message)


@pytest.mark.parametrize("kind", ["hearts", "hez2", "hiifuu", "fou"])
def test_every_event_a_game_waits_for_names_its_rule(kind: str) -> None:
    """Every chance event and decision a game waits for has the rule that requires it (named
    by a LOG-ORDER message there), a rule of the game."""
    rules = get_rules(kind)
    players = {"hearts": 4, "hez2": 3, "hiifuu": 6, "fou": 8}[kind]
    waits = set()
    for state, _, _, _ in situations(kind, players, 2):
        due = rules.due(state)
        if due.phase in (Phase.CHANCE, Phase.DECISION):
            waits.add(due.what)
    assert waits <= set(rules.due_rules) and set(rules.due_rules.values()) <= set(rules.rule_ids)


@pytest.mark.parametrize("kind", ["hearts", "hez2", "hiifuu", "fou"])
@pytest.mark.parametrize("key", ["names", "bots"])
def test_a_seat_list_of_the_wrong_length_cites_log_setup(kind: str, key: str) -> None:
    """docs/interpretations.md 4: a malformed seat list is a fault LOG-SETUP names (no game's
    SETUP rule names it), in every game; a wrong player count cites the game's SETUP rule."""
    rules = get_rules(kind)
    first = simulated(kind, rules.min_players, 0)[0]
    setup = first.setup()
    short = replace(first, data=json.dumps({**setup, key: setup[key][:-1]}))
    with pytest.raises(RuleViolation) as caught:
        rules.start(short)
    assert caught.value.rule == "LOG-SETUP"
    crowded = replace(first, data=json.dumps({**setup, "players": rules.max_players + 1}))
    with pytest.raises(RuleViolation) as caught:
        rules.start(crowded)
    assert caught.value.rule == f"{kind.upper()}-SETUP"


def test_a_setup_without_bots_seats_no_bot() -> None:
    for kind in ("hiifuu", "fou"):
        rules = get_rules(kind)
        first = simulated(kind, rules.min_players, 0)[0]
        setup = {k: v for k, v in first.setup().items() if k != "bots"}
        state = rules.start(replace(first, data=json.dumps(setup)))
        bots = state.setup.bots if kind == "hiifuu" else state.bots
        assert bots == (False,) * state.n
