"""The all-cards-visible solver (replay.solver) against a plain max^n search through the reducer
(tests/solver_brute.py): every legal card's value for every seat, on random endgame positions of
each game (fixed seeds; benchmarks/solver_agreement.py runs 10,000 a game), and along the last
tricks of recorded games, where one table serves every play of a hand."""

from __future__ import annotations

from typing import Any

import pytest

from replay.engine.simulate import simulate_game
from replay.games import get_rules
from replay.games.base import Phase
from replay.games.hearts import DECK
from replay.games.hearts_solver import HeartsModel
from replay.solver import (
    NotSolvable,
    build_model,
    card_losses,
    cards_in_play,
    deck_order,
    sign,
    solvable_kinds,
    solve,
)
from replay.solver.search import CardMap, deck_cards
from tests.solver_brute import card_values, endgames

#: The games the solver knows.
KINDS = solvable_kinds()

#: Positions a game, and the largest plain tree among them (2-5 cards a hand).
POSITIONS = 150
LIMIT = 2500
MOON_POSITIONS = 100


@pytest.mark.parametrize("kind", KINDS)
def test_values_equal_a_plain_search_through_the_reducer(kind: str) -> None:
    rules = get_rules(kind)
    checked = 0
    for state in endgames(kind, seed=41, count=POSITIONS, limit=LIMIT):
        solution = solve(state, rules, line=False)
        assert solution.values == card_values(rules, state), state.seq
        checked += 1
    assert checked == POSITIONS


def test_hearts_endgames_with_the_moon_open_equal_the_plain_search() -> None:
    """Every point taken so far held by one seat: the bound's moon (a seat that may still
    shoot it) on every position."""
    rules = get_rules("hearts")
    for state in endgames("hearts", seed=43, count=MOON_POSITIONS, limit=LIMIT, moon=1.0):
        assert solve(state, rules, line=False).values == card_values(rules, state), state.seq


def test_the_moon_stays_open_under_a_trick_without_points() -> None:
    """Seat 0 took 25 points, seat 1 holds the last heart, seat 2 leads, three cards each: a
    card of seat 0 that does not top a trick with no point on it leaves the moon open (a bound
    that closed it there would skip seat 0's best card; found among random deals)."""
    rules = get_rules("hearts")
    hands = (("6D", "TS", "KS"), ("5C", "5D", "6H"), ("KC", "4D", "5S"), ("JD", "9S", "JS"))
    start = next(
        s for s in _play_states("hearts", 4, seed=5)
        if not s.table and s.leader == 2 and len(deck_cards(s.hand(0))) == 3
    )  # fmt: skip
    state = start.clone()
    order = deck_order(state)
    for seat, cards in enumerate(hands):
        state.set_hand(seat, sum(1 << order.index(card) for card in cards))
    state.taken, state.broken = [25, 0, 0, 0], True
    assert solve(state, rules, line=False).values == card_values(rules, state)


@pytest.mark.parametrize("kind", KINDS)
def test_longer_endgames_equal_the_plain_search(kind: str) -> None:
    """Four and five cards a hand (Fou!: three to five), where the table, the merging and
    the cut-off do most."""
    rules = get_rules(kind)
    low = 3 if kind == "fou" else 4  # Fou!'s small trees at four cards are rare: found slowly
    for state in endgames(kind, seed=7, count=3, low=low, high=5, limit=15_000):
        assert solve(state, rules, line=False).values == card_values(rules, state)


@pytest.mark.parametrize(
    ("kind", "players", "cards"), [("hearts", 4, 3), ("hiifuu", 4, 3), ("fou", 4, 2)]
)
def test_card_losses_along_a_game_equal_the_plain_search(
    kind: str, players: int, cards: int
) -> None:
    """Every play with few cards in hand, one table kept across a unit's plays (the past
    differs from play to play: the key must hold what of it matters)."""
    rules = get_rules(kind)
    events = simulate_game(rules, "g", players=players, seed=3)
    losses = {loss.seq: loss for loss in card_losses(events, max_cards=cards)}
    assert len(losses) > 10
    state = rules.start(events[0])
    for event in events[1:]:
        if event.seq in losses:
            values = card_values(rules, state)
            loss = losses[event.seq]
            seat = loss.seat
            assert values[loss.card][seat] == loss.played_value
            assert values[loss.best][seat] == loss.best_value
            assert loss.loss >= 0
        state = rules.apply(state, event)


def _other_past(state: Any) -> Any:
    """The state with another past and the same cards: Hearts' points taken, Hiifuu's tricks
    and tokens moved one seat on."""
    other = state.clone()
    if state.kind == "hearts":
        other.taken = state.taken[-1:] + state.taken[:-1]
    else:
        other.tricks = state.tricks[-1:] + state.tricks[:-1]
        other.token_of = state.token_of[-1:] + state.token_of[:-1]
        other.covered = state.covered[-1:] + state.covered[:-1]
    return other


@pytest.mark.parametrize("kind", ["hearts", "hiifuu"])
def test_a_table_filled_from_one_past_answers_right_for_another(kind: str) -> None:
    """The table's key holds what of the past decides the future: a table filled at one
    position gives the plain search's values at the same cards with another past (Fou!'s past
    is the seats sitting out, which its exactness test already varies)."""
    rules = get_rules(kind)
    for state in endgames(kind, seed=11, count=60, limit=LIMIT):
        shared: dict[int, tuple[int, ...]] = {}
        solve(state, rules, line=False, table=shared)
        other = _other_past(state)
        assert solve(other, rules, line=False, table=shared).values == card_values(rules, other)


def _play_states(kind: str, players: int, seed: int) -> list[Any]:
    rules = get_rules(kind)
    events = simulate_game(rules, "g", players=players, seed=seed)
    state = rules.start(events[0])
    out = []
    for event in events[1:]:
        if event.type == "play":
            out.append(state)
        state = rules.apply(state, event)
    return out


@pytest.mark.parametrize(("kind", "players"), [("hearts", 4), ("hiifuu", 6), ("fou", 7)])
def test_the_model_moves_are_the_reducer_moves(kind: str, players: int) -> None:
    """At every play of a whole game (first tricks, broken hearts, Fools sitting out), the
    model's legal cards are the reducer's, and a card played and taken back leaves the model
    as it was."""
    rules = get_rules(kind)
    for state in _play_states(kind, players, seed=5):
        cards = CardMap(deck_cards(cards_in_play(state)))
        model = build_model(state, cards)
        seat = rules.due(state).seats[0]
        assert model.mover() == seat
        legal = {cards.cards[c] for c in deck_cards(model.legal())}
        order = rules.legal_decisions(state, seat)
        assert legal == {rules_index(state, str(e.card)) for e in order}
        before = (list(model.hands), model.leader, model.tlen, model.live)
        for card in deck_cards(model.legal()):
            model.play(card)
            model.undo()
        assert (list(model.hands), model.leader, model.tlen, model.live) == before


def rules_index(state: Any, code: str) -> int:
    return deck_order(state).index(code)


def test_a_full_table_is_cleared_and_counted() -> None:
    rules = get_rules("hearts")
    state = next(iter(endgames("hearts", seed=2, count=1, low=4, high=4, limit=40_000)))
    small = solve(state, rules, capacity=3, line=False)
    assert small.resets > 0 and small.entries <= 3
    assert small.values == solve(state, rules, line=False).values


def test_the_line_of_best_play_follows_the_best_cards() -> None:
    rules = get_rules("hiifuu")
    state = next(iter(endgames("hiifuu", seed=4, count=1, low=3, high=3)))
    solution = solve(state, rules)
    seat, card = solution.line[0]
    assert (seat, card) == (solution.seat, solution.best)
    for seat, card in solution.line:  # each card of the line is legal where it is played
        while (due := rules.due(state)).phase is Phase.RULING:
            assert due.ruling is not None
            state = rules.apply(state, due.ruling)
        event = rules.new_event(state, "play", round=state.round, trick=state.trick_no,
                                player=seat, card=card)  # fmt: skip
        state = rules.step(state, event)


def test_no_card_to_solve_is_one_clear_error() -> None:
    rules = get_rules("hearts")
    events = simulate_game(rules, "g", players=4, seed=1)
    with pytest.raises(NotSolvable, match="deal"):
        solve(rules.start(events[0]), rules)
    hez2 = get_rules("hez2")
    start = simulate_game(hez2, "h", players=2, seed=1)[0]
    with pytest.raises(NotSolvable, match="hez2"):
        solve(hez2.start(start), hez2)
    assert card_losses([start]) == []


@pytest.mark.parametrize("kind", KINDS)
def test_the_bound_after_a_card_is_never_below_its_value(kind: str) -> None:
    """``Model.upper`` (the cut-off's bound: Hearts' sure and forced points and the moon,
    Hiifuu's tokens, Fou!'s cards surely kept) is at least the plain search's value of each
    legal card for the seat that played it."""
    rules = get_rules(kind)
    better = sign(kind)
    for state in endgames(kind, seed=17, count=40, limit=LIMIT):
        values = card_values(rules, state)
        order = deck_order(state)
        cards = CardMap(deck_cards(cards_in_play(state)))
        model = build_model(state, cards)
        seat = model.mover()
        for card in deck_cards(model.legal()):
            model.play(card)
            value = values[order[cards.cards[card]]][seat]
            assert model.upper(seat) >= better * value, (state.seq, order[cards.cards[card]])
            model.undo()


def test_a_follower_with_a_spade_beside_the_queen_adds_no_forced_point() -> None:
    """The ace of spades led: a follower holding the queen and the king of spades may play
    the king, one holding the queen alone must play it, one holding hearts alone adds none to
    a spade trick."""
    state = next(s for s in _play_states("hearts", 4, seed=5) if not s.table and s.trick_no > 1)
    order = deck_order(state)
    hands = (("AS", "2D"), ("QS", "KS"), ("3H", "4H"), ("QD", "KD"))
    for seat, held in enumerate(hands):
        state.set_hand((state.leader + seat) % 4, sum(1 << order.index(c) for c in held))
    cards = CardMap(deck_cards(cards_in_play(state)))
    model = build_model(state, cards)
    model.play(cards.index[order.index("AS")])
    assert isinstance(model, HeartsModel) and model.forced_points() == 0
    state.set_hand((state.leader + 1) % 4, sum(1 << order.index(c) for c in ("QS", "2C")))
    cards = CardMap(deck_cards(cards_in_play(state)))
    model = build_model(state, cards)
    model.play(cards.index[order.index("AS")])
    assert isinstance(model, HeartsModel) and model.forced_points() == 13


def test_the_key_tells_apart_hands_alike_by_rank_in_other_suits() -> None:
    """Two Hearts positions of one table (the same cards in play at the root) whose hands are
    alike by rank among the cards left, one card a seat, but in other suits (the four clubs
    left; two clubs and two diamonds): the key's suit counts tell them apart."""
    cards = CardMap([DECK.index(c) for c in ("2C", "3C", "4C", "5C", "2D", "3D")])

    def key(held: tuple[str, ...]) -> int:
        hands = [1 << cards.index[DECK.index(card)] for card in held]
        return HeartsModel(cards, hands, 0, [], False, False, [0, 0, 0, 0]).key()

    assert key(("2C", "3C", "4C", "5C")) != key(("2C", "3C", "2D", "3D"))
