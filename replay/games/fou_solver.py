"""Fou!: its model for the all-cards-visible solver (:mod:`replay.solver`), found by the solver as
the registry finds a game's ``_fast`` sibling. The model plays a round from a position of its
play (FOU-*); the reducer's own functions rule the tricks, the Fools and the seats sitting out.
"""

from __future__ import annotations

from typing import Any

from mypy_extensions import i64

from replay.games import fou
from replay.games.solving import CardMap, GameSolver, Model
from replay.model.cards import popcount


class FouModel(Model):
    """A Fou! round from a position of its play (FOU-*): the Fool(s) of a trick sit out the
    next; the round ends with the trick after which a hand is empty."""

    def __init__(
        self, n: int, cards: CardMap, hands: list[int], leader: int, table: list[int],
        seats: list[int], out: int,
    ) -> None:  # fmt: skip
        Model.__init__(self, n, cards, hands, leader)
        self.colour = [fou.COLOUR[c] for c in cards.cards]
        self.penalty = [fou.PENALTY[c] for c in cards.cards]
        self.colour_mask = [0, 0, 0, 0, 0]
        for i, card in enumerate(cards.cards):
            self.colour_mask[fou.COLOUR[card]] |= 1 << i
        self.out = out
        self.seats: list[int] = []  # who played each card of ``plays``
        self.records: list[int] = []  # per ruled trick: leader | out << 3
        self.ended = False
        self.result: tuple[int, ...] = ()
        self.lay(table)
        self.seats.extend(seats)

    def need(self) -> int:
        """The cards the trick takes (seats not sitting out)."""
        return self.n - popcount(self.out)

    def mover(self) -> i64:
        if self.tlen == 0:
            return self.leader
        return fou.next_seat(self.seats[len(self.seats) - 1], self.n, self.out)

    def led(self) -> int:
        """The led colour of the trick on the table, -1 until a card other than a 1."""
        for card in self.table():
            colour = self.colour[card]
            if colour != fou.ONE:
                return colour
        return -1

    def legal(self) -> int:
        """As :func:`replay.games.fou.legal_mask`."""
        hand = self.hands[self.mover()]
        led = self.led()
        if led < 0:
            return hand
        suited = hand & self.colour_mask[led]
        if not suited:
            return hand
        return suited | (hand & self.colour_mask[fou.ONE])

    def play(self, card: int) -> None:
        seat = self.mover()
        self.hands[seat] = self.hands[seat] & ~(1 << card)  # not &=: see Model.play
        self.put(card)
        self.seats.append(seat)
        if self.tlen == self.need():
            self._rule_trick()

    def _rule_trick(self) -> None:
        trick = self.table()
        cards = [self.map.cards[c] for c in trick]
        seats = self.seats[len(self.seats) - self.tlen :]
        led = self.led()
        winner = seats[fou.trick_winner(cards, led)]
        fools: list[int] = []
        for _ in range(fou.fools_per_trick(self.n)):
            fools.append(seats[fou.fool_position(cards, seats, led, fools)])
        self.records.append(self.leader | self.out << 3)
        self.remove_trick()
        self.leader = winner
        self.tlen = 0
        out = 0
        for seat in fools:
            out |= 1 << seat
        self.out = out
        self.ended = any(hand == 0 for hand in self.hands)
        if self.ended:
            self.result = tuple([self.score(seat, out) for seat in range(self.n)])

    def score(self, seat: int, fools: int) -> int:
        """As :meth:`replay.games.fou.Fou.round_score`: minus the cards left, or +10 for an
        empty hand, 0 for a Fool of the last trick."""
        hand = self.hands[seat]
        if hand:
            total = 0
            while hand:
                low = hand & -hand
                total += self.penalty[low.bit_length() - 1]
                hand ^= low
            return -total
        return 0 if fools >> seat & 1 else fou.EMPTY_HAND_SCORE

    def undo(self) -> None:
        if self.tlen == 0:
            record = self.records.pop()
            self.leader = record & 7
            self.out = record >> 3
            self.ended = False
            self.result = ()
            self.tlen = self.need()
            self.restore_trick(self.tlen)
        card = self.take_back()
        seat = self.seats.pop()
        self.hands[seat] = self.hands[seat] | 1 << card

    def over(self) -> bool:
        return self.ended

    def finished(self) -> bool:
        return self.ended

    def final(self) -> tuple[int, ...]:
        return self.result

    def key(self) -> int:
        """The hands as they are (a card's penalty counts), the leader and the seats sitting
        out."""
        width = len(self.map.cards)
        seats: int = self.n
        key: int = self.leader
        for hand in self.hands:
            key = key << width | hand
        return key << seats | self.out

    def upper(self, seat: i64) -> int:
        """+10 while the seat may still empty its hand; otherwise minus its cheapest cards, as
        many as it surely still holds when the round ends (:meth:`cards_kept`)."""
        if self.ended:
            return self.result[seat]
        keep = self.cards_kept(seat)
        if keep <= 0:
            return fou.EMPTY_HAND_SCORE
        penalties: list[int] = []
        hand = self.hands[seat]
        while hand:
            low = hand & -hand
            penalties.append(self.penalty[low.bit_length() - 1])
            hand ^= low
        penalties.sort()
        return -sum(penalties[:keep])

    def cards_kept(self, seat: int) -> int:
        """A lower bound on the cards ``seat`` holds when the round ends: its cards less the
        tricks it may still play. The round ends at the latest with the trick where the first
        hand empties; a seat plays at least every other trick (it sits out only the trick after
        its Fool), so a hand of h cards empties by the (2h)th trick after this one."""
        tlen = self.tlen
        played = 0  # the seats that played the trick on the table
        for position in range(len(self.seats) - tlen, len(self.seats)):
            played |= 1 << self.seats[position]
        playing = 0  # the seats still to play it
        if tlen:
            playing = ((1 << self.n) - 1) & ~(self.out | played)
        mine = popcount(self.hands[seat]) - (playing >> seat & 1)
        last = 1 << 30  # the most tricks after the one on the table the round can last
        for other in range(self.n):
            held = popcount(self.hands[other]) - (playing >> other & 1)
            if held == 0:
                return mine  # the trick on the table is the last
            may_sit_out = self.out if tlen == 0 else ~self.out
            last = min(last, 2 * held - int(not may_sit_out >> other & 1))
        return mine - last

    def same_move(self, low: int, high: int) -> bool:
        """The 1s: one value, one penalty, no colour (a tie goes by position, not card)."""
        return self.colour[low] == fou.ONE and self.colour[high] == fou.ONE


class FouSolver(GameSolver):
    """Fou!'s part of the solver: +10, 0 or minus the cards left, higher is better; the unit is
    the round."""

    def model(self, state: Any, cards: CardMap) -> Model:
        hands = [cards.mask(state.hand(seat)) for seat in range(state.n)]
        table = [cards.index[card] for card in state.table]
        return FouModel(state.n, cards, hands, state.leader, table, state.table_seats, state.out)

    def deck_order(self, state: Any) -> tuple[str, ...]:
        return fou.DECK.order

    def unit(self, state: Any) -> int:
        return int(state.round)


SOLVER = FouSolver(1, exact_cards=2, visible_cards=3)
