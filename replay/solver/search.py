"""The search of the all-cards-visible solver: max^n over a compact position, compiled by mypyc.

A :class:`Model` is one scoring unit's play (a Hearts hand, a Hiifuu or Fou! round) from a
position where every hand is known, in a compact form: the cards left in play are renumbered
0..K-1 in the game's deck order (:class:`CardMap`), so a hand is a small bit set and two cards of
one suit with no card left in play between them have no live index between them either. Each
game's model plays and takes back a card, lists the legal cards, and scores the end of the unit
with the reducer's own functions where it has them (trick winners, points, Fools); the solver's
tests check it equal to the reducer's legal moves and scores through a plain search over
:meth:`replay.games.rules.Rules.apply`.

:class:`Search` is max^n: every seat chooses the card best for its own score at the end of the
unit (each value is a vector: one utility per seat, higher is better; Hearts' utility is minus
the points). The tie rule: among cards of equal value to the seat to play, the first in the
game's deck order. On top of the plain recursion:

- equivalent cards are one move (:meth:`Model.merged`: cards of one suit held by the seat, with
  no card still in play between them, and the same points);
- a transposition table keyed by the remaining hands, the leader and what of the past still
  matters (:meth:`Model.key`), probed at the start of each trick, capped at ``capacity``
  entries (cleared when full: counted in ``resets``);
- move ordering (:meth:`Model.ordered`) and one cut-off: once a card reaches the best value the
  seat can still get (:meth:`Model.upper`), no later card can beat it, and only the cards before
  it in deck order (which would win a tie) are still searched.
"""

from __future__ import annotations

from typing import Any, Final

from mypy_extensions import i64, mypyc_attr

from replay.cards import popcount
from replay.packed import CARD_BITS, placed

#: The table's default cap: about 260 bytes an entry, so at most about 260 MB.
CAPACITY: Final = 1_000_000


class CardMap:
    """The cards in play of a scoring unit, renumbered in the game's deck order: compact index
    ``i`` is the deck's card ``cards[i]``. ``index`` goes the other way."""

    def __init__(self, cards: list[int]) -> None:
        self.cards = sorted(cards)
        self.index: dict[int, int] = {card: i for i, card in enumerate(self.cards)}

    def mask(self, deck_mask: int) -> int:
        """A deck bit set as a compact one (every card must be mapped)."""
        mask = 0
        while deck_mask:
            low = deck_mask & -deck_mask
            mask |= 1 << self.index[low.bit_length() - 1]
            deck_mask ^= low
        return mask


def deck_cards(mask: int) -> list[int]:
    """The deck indices of a bit set, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@mypyc_attr(allow_interpreted_subclasses=True)
class Model:
    """A position of one scoring unit (see the module docstring). ``plays`` lists the compact
    cards played since the root, ``tlen`` how many of the last of them are the trick on the
    table."""

    def __init__(self, n: int, cards: CardMap, hands: list[int], leader: int) -> None:
        self.n = n
        self.map = cards
        self.hands = hands
        self.leader = leader
        self.plays: list[int] = []
        self.tlen = 0
        self.live = 0
        for hand in hands:
            self.live |= hand

    # ------------------------------------------------------------- the game's own
    def mover(self) -> int:
        """The seat to play."""
        return (self.leader + self.tlen) % self.n

    def legal(self) -> int:
        """The cards the seat to play may play (a compact bit set)."""
        raise NotImplementedError

    def play(self, card: int) -> None:
        """The seat to play plays ``card``, and the trick is ruled if it is complete."""
        raise NotImplementedError

    def undo(self) -> None:
        """Take back the last :meth:`play`."""
        raise NotImplementedError

    def over(self) -> bool:
        """Whether the unit's result is settled (nothing left that changes a value)."""
        raise NotImplementedError

    def final(self) -> tuple[int, ...]:
        """Each seat's utility once :meth:`over`."""
        raise NotImplementedError

    def finished(self) -> bool:
        """Whether the unit's last trick is played (:meth:`over` may come before)."""
        return self.live == 0

    def key(self) -> tuple[int, ...]:
        """The table key at a trick's start: the hands, the leader and what of the past still
        decides the future."""
        raise NotImplementedError

    def upper(self, seat: int) -> int:
        """The best utility ``seat`` can still reach (a bound: the cut-off's)."""
        raise NotImplementedError

    def same_move(self, low: int, high: int) -> bool:
        """Whether two cards of the seat to play (``low < high``, no card of the hand between)
        are one move: exactly the same future for every seat."""
        return False

    def relative(self, value: tuple[int, ...]) -> tuple[int, ...]:
        """A value as stored in the table (minus what of the past the key leaves out)."""
        return value

    def absolute(self, stored: tuple[int, ...]) -> tuple[int, ...]:
        """The inverse of :meth:`relative`."""
        return stored

    def forced(self) -> bool:
        """Whether no seat holds more than one card: every play left is forced."""
        for hand in self.hands:
            if hand & (hand - 1):
                return False
        return True

    def sweeps(self) -> bool:
        """At a trick's start, whether the leader surely wins every trick left, whatever is
        played (then every line of play gives the same result: :meth:`Search.value` plays one
        out instead of searching). Default: never known."""
        return False

    # ------------------------------------------------------------- shared
    def lay(self, table: list[int]) -> None:
        """Put the trick in progress on the table (at the model's start)."""
        for card in table:
            self.live |= 1 << card
            self.plays.append(card)
        self.tlen = len(table)

    def trick_start(self) -> bool:
        return self.tlen == 0

    def table(self) -> list[int]:
        """The compact cards of the trick on the table, in play order."""
        return self.plays[len(self.plays) - self.tlen :]

    def no_live_between(self, low: int, high: int) -> bool:
        """Whether no card still in play (in a hand or on the table) lies between two compact
        cards."""
        between = ((1 << high) - (1 << (low + 1))) & self.live
        return between == 0

    def merged(self, moves: int) -> list[int]:
        """One card per group of equivalent cards of ``moves`` (its lowest), in deck order."""
        out: list[int] = []
        previous = -1
        while moves:
            low = moves & -moves
            card = low.bit_length() - 1
            moves ^= low
            if previous < 0 or not self.same_move(previous, card):
                out.append(card)
            previous = card
        return out

    def owners(self) -> int:
        """Who holds each card still in play, in deck order (``bits`` a seat each), at a
        trick's start: the hands relative to the cards left, so that positions differing only
        by which equivalent cards were played share a key."""
        out = 0
        live = self.live
        hands = self.hands
        while live:
            low = live & -live
            live ^= low
            seat = 0
            while not hands[seat] & low:
                seat += 1
            out = out << 3 | seat
        return out

    def suit_counts(self, suit_masks: list[int]) -> int:
        """The cards still in play of each suit, packed 7 bits a suit (where the owners' suits
        begin and end)."""
        packed = 0
        for mask in suit_masks:
            packed = packed << 7 | popcount(self.live & mask)
        return packed

    def sure_winner(self, suit: list[int], suit_masks: list[int]) -> int:
        """For a game where the highest card of the led suit wins: the seat that surely wins
        the trick in progress (it played the trick's highest card of the led suit and no seat
        still to play holds a higher one), or -1 (not known yet, or no trick on the table)."""
        tlen = self.tlen
        if tlen == 0:
            return -1
        plays = self.plays
        start = len(plays) - tlen
        top = plays[start]
        led = suit[top]
        winner = 0
        for position in range(1, tlen):
            card = plays[start + position]
            if card > top and suit[card] == led:
                top = card
                winner = position
        above = suit_masks[led] & ~((2 << top) - 1)
        for position in range(tlen, self.n):
            if self.hands[(self.leader + position) % self.n] & above:
                return -1
        return (self.leader + winner) % self.n

    def top_cards_sweep(self, suit_masks: list[int]) -> bool:
        """:meth:`sweeps` for a game where the highest card of the led suit wins the trick:
        in every suit, the leader's lowest card beats every card of the suit the others
        hold."""
        hand = self.hands[self.leader]
        others = self.live & ~hand
        for mask in suit_masks:
            own = hand & mask
            theirs = others & mask
            if own and theirs >> ((own & -own).bit_length() - 1):
                return False
        return True

    def deck_card(self, card: int) -> int:
        return self.map.cards[card]

    def packed_table(self, trick: list[int]) -> i64:
        """The trick's deck cards packed as the reducers pack a table (:mod:`replay.packed`)."""
        packed: i64 = 0
        for position in range(len(trick)):
            packed |= placed(self.map.cards[trick[position]], position, CARD_BITS)
        return packed


# --------------------------------------------------------------------- the search
class GameSolver:
    """A game's part of the solver, the ``SOLVER`` of its ``<module>_solver`` sibling in
    :mod:`replay.games`: its :class:`Model`, its deck's card codes, its scoring unit and whether
    its scores are better high (1) or low (-1)."""

    def __init__(self, better: int) -> None:
        self.better = better

    def model(self, state: Any, cards: CardMap) -> Model:
        """The compact model of a reducer state where a card is to be played."""
        raise NotImplementedError

    def deck_order(self, state: Any) -> tuple[str, ...]:
        """The card codes of the state's deck, by index."""
        raise NotImplementedError

    def unit(self, state: Any) -> int:
        """Which scoring unit (hand or round) the state is in."""
        raise NotImplementedError


class Search:
    """Max^n over a :class:`Model` with the table, the merging, the ordering and the cut-off
    of the module docstring. ``nodes`` counts the positions visited."""

    def __init__(self, model: Model, capacity: int = CAPACITY) -> None:
        self.model = model
        self.table: dict[tuple[int, ...], tuple[int, ...]] = {}
        self.capacity = capacity
        self.nodes = 0
        self.resets = 0

    def value(self) -> tuple[int, ...]:
        """Every seat's utility with best play from the model's position."""
        model = self.model
        self.nodes += 1
        if model.over():
            return model.final()
        if not model.trick_start():
            return self.best(model.mover())
        if model.forced() or model.sweeps():
            return self.played_out()
        key = model.key()
        stored = self.table.get(key)
        if stored is not None:
            return model.absolute(stored)
        value = self.best(model.mover())
        if len(self.table) >= self.capacity:
            self.table.clear()
            self.resets += 1
        self.table[key] = model.relative(value)
        return value

    def played_out(self) -> tuple[int, ...]:
        """The result of playing the first legal card at every turn to the unit's end (the
        model is left as it was): the value where every line gives the same."""
        model = self.model
        plies = 0
        while not model.over():
            legal = model.legal()
            model.play((legal & -legal).bit_length() - 1)
            plies += 1
        value = model.final()
        for _ in range(plies):
            model.undo()
        return value

    def best(self, seat: int) -> tuple[int, ...]:
        """The value of the best move of ``seat``, the seat to play (tie: the first card).

        The cards are searched in deck order, one of each group of equivalent cards, so the
        first card of the best value is the tie rule's. A later card is not searched when the
        seat's bound after it (:meth:`Model.upper`) is no better than the best so far: it can
        at most tie, and a tie goes to the earlier card."""
        model = self.model
        best: tuple[int, ...] = ()
        moves = model.legal()
        previous = -1
        while moves:
            low = moves & -moves
            moves ^= low
            card = low.bit_length() - 1
            if previous >= 0 and model.same_move(previous, card):
                previous = card
                continue  # the group's lowest card stands for it
            previous = card
            model.play(card)
            if best and model.upper(seat) <= best[seat]:
                model.undo()
                continue
            value = self.value()
            model.undo()
            if not best or value[seat] > best[seat]:
                best = value
        return best

    def move_values(self) -> dict[int, tuple[int, ...]]:
        """The value of each legal card of the seat to play (compact cards; every card of a
        group of equivalent cards has its group's value)."""
        model = self.model
        legal = model.legal()
        groups = model.merged(legal)
        values: dict[int, tuple[int, ...]] = {}
        for card in groups:
            model.play(card)
            values[card] = self.value()
            model.undo()
        group = -1
        while legal:
            low = legal & -legal
            card = low.bit_length() - 1
            legal ^= low
            if card in values:
                group = card
            else:
                values[card] = values[group]
        return values


def tree_size(model: Model, limit: int) -> int:
    """The positions of the plain max^n tree from the model's position (every legal card, no
    table, no merging), counted up to ``limit`` (a bigger tree answers ``limit``): the size
    of a brute-force search, to choose test positions and to report what the search saves."""
    if model.finished():
        return 1
    size = 1
    legal = model.legal()
    while legal and size < limit:
        low = legal & -legal
        legal ^= low
        model.play(low.bit_length() - 1)
        size += tree_size(model, limit - size)
        model.undo()
    return min(size, limit)
