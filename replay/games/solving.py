"""What a game gives the all-cards-visible solver (:mod:`replay.solver`): a compact model of
one scoring unit's play, every hand known, which the solver's search (:mod:`replay.solver.search`)
plays and takes back card by card. Each game's model is in its ``<module>_solver`` sibling
(``hearts_solver`` beside ``hearts``), whose ``SOLVER`` (a :class:`GameSolver`) the solver finds
as the registry finds a ``_fast`` sibling.

A :class:`Model` renumbers the cards left in play 0..K-1 in the game's deck order
(:class:`CardMap`), so a hand is a small bit set and two cards of one suit with no card left in
play between them have no live index between them either. It lists the legal cards, plays and
takes back a card, scores the end of the unit with the reducer's own functions where it has
them (trick winners, points, Fools), and gives the search its table key, a bound on each seat's
result and the cards that are one move; the solver's tests check it equal to the reducer's legal
moves and scores through a plain search over :meth:`replay.games.rules.Rules.apply`.
"""

from __future__ import annotations

from typing import Any

from mypy_extensions import i64, mypyc_attr

from replay.model.cards import popcount
from replay.model.packed import CARD_BITS, placed


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
    table; ``code`` is who holds each card still in play (:meth:`owners`), kept up to date
    as tricks are ruled (:meth:`remove_trick`) and taken back (:meth:`restore_trick`)."""

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
        self.code = 0
        self.codes: list[int] = []  # the code before each ruled trick

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
        """The best utility ``seat`` can still reach, asked right after its card (a bound: the
        cut-off's)."""
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
        for hand in self.hands:  # noqa: SIM110 (a loop compiles to tighter code)
            if hand & (hand - 1):
                return False
        return True

    def sweeps(self) -> bool:
        """At a trick's start, whether the leader surely wins every trick left, whatever is
        played (then every line of play gives the same result: :meth:`swept`). Default: never
        known."""
        return False

    def swept(self) -> tuple[int, ...]:
        """The result when :meth:`sweeps`: by default, one line played out."""
        return self.played_out()

    def played_out(self) -> tuple[int, ...]:
        """The result of playing the first legal card at every turn to the unit's end (the
        model is left as it was): the value where every line gives the same."""
        plies = 0
        while not self.over():
            legal = self.legal()
            self.play((legal & -legal).bit_length() - 1)
            plies += 1
        value = self.final()
        for _ in range(plies):
            self.undo()
        return value

    # ------------------------------------------------------------- shared
    def lay(self, table: list[int]) -> None:
        """Put the trick in progress on the table (at the model's start)."""
        for card in table:
            self.live |= 1 << card
            self.plays.append(card)
        self.tlen = len(table)
        self.code = self.owners_code()

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
        """Who holds each card still in play, in deck order (3 bits a seat, the lowest card in
        the lowest bits), at a trick's start: the hands relative to the cards left, so that
        positions differing only by which equivalent cards were played share a key."""
        return self.code

    def owners_code(self) -> int:
        """:meth:`owners` computed from the hands (7 for a card on the table)."""
        out = 0
        live = self.live
        rank = 0
        while live:
            low = live & -live
            live ^= low
            seat = 0
            while seat < self.n and not self.hands[seat] & low:
                seat += 1
            out |= min(seat, 7) << 3 * rank
            rank += 1
        return out

    def remove_trick(self) -> None:
        """Take the ruled trick's cards (the last ``tlen`` played) out of play: ``live`` and
        the owners' code."""
        self.codes.append(self.code)
        gone = 0
        for position in range(len(self.plays) - self.tlen, len(self.plays)):
            gone |= 1 << self.plays[position]
        code = self.code
        while gone:  # each card's 3 bits cut out at its rank among the cards still live
            low = gone & -gone
            gone ^= low
            rank = popcount(self.live & (low - 1))
            code = code >> (3 * rank + 3) << (3 * rank) | code & ((1 << 3 * rank) - 1)
            self.live &= ~low
        self.code = code

    def restore_trick(self, count: int) -> None:
        """Undo :meth:`remove_trick` of a trick of ``count`` cards."""
        for position in range(len(self.plays) - count, len(self.plays)):
            self.live |= 1 << self.plays[position]
        self.code = self.codes.pop()

    def suit_counts(self, suit_masks: list[int]) -> int:
        """The cards still in play of each suit, packed 7 bits a suit (where the owners' suits
        begin and end)."""
        packed = 0
        for mask in suit_masks:
            packed = packed << 7 | popcount(self.live & mask)
        return packed

    def top_position(self, suit: list[int]) -> int:
        """For a game where the highest card of the led suit wins: the position in the trick
        on the table of its highest card of the led suit so far (-1: no trick on the table)."""
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
        return winner

    def sure_winner(self, suit: list[int], suit_masks: list[int]) -> int:
        """For a game where the highest card of the led suit wins: the seat that surely wins
        the trick in progress (it played the trick's highest card of the led suit and no seat
        still to play holds a higher one), or -1 (not known yet, or no trick on the table)."""
        winner = self.top_position(suit)
        if winner < 0:
            return -1
        plays = self.plays
        top = plays[len(plays) - self.tlen + winner]
        above = suit_masks[suit[top]] & ~((2 << top) - 1)
        for position in range(self.tlen, self.n):
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
        """The trick's deck cards packed as the reducers pack a table
        (:mod:`replay.model.packed`)."""
        packed: i64 = 0
        for position in range(len(trick)):
            packed |= placed(self.map.cards[trick[position]], position, CARD_BITS)
        return packed


# --------------------------------------------------------------------- the search
class GameSolver:
    """A game's part of the solver, the ``SOLVER`` of its ``<module>_solver`` sibling in
    :mod:`replay.games`: its :class:`Model`, its deck's card codes, its scoring unit and whether
    its scores are better high (1) or low (-1)."""

    def __init__(self, better: int, exact_cards: int, visible_cards: int) -> None:
        self.better = better
        #: The review's thresholds (docs/review.md), in cards in the hand of the seat to play:
        #: up to ``exact_cards`` it values each sampled deal with the solver (one solve costs
        #: at most a few times the rollouts it replaces), up to ``visible_cards`` it gives
        #: each play's loss with all cards visible (one solve costs less than the decision's
        #: rollouts); measured with ``benchmarks/bench_solver.py --review``.
        self.exact_cards = exact_cards
        self.visible_cards = visible_cards

    def model(self, state: Any, cards: CardMap) -> Model:
        """The compact model of a reducer state where a card is to be played."""
        raise NotImplementedError

    def deck_order(self, state: Any) -> tuple[str, ...]:
        """The card codes of the state's deck, by index."""
        raise NotImplementedError

    def unit(self, state: Any) -> int:
        """Which scoring unit (hand or round) the state is in."""
        raise NotImplementedError
