"""Hearts: its model for the all-cards-visible solver (:mod:`replay.solver`), found by the solver as
the registry finds a game's ``_fast`` sibling. The model plays a hand from a position of its play
(HEARTS-*); the reducer's own functions rule the tricks and score the hand.
"""

from __future__ import annotations

from typing import Any

from mypy_extensions import i64

from replay.games import hearts
from replay.games.solving import CardMap, GameSolver, Model, count_bits
from replay.model.cards import popcount


class HeartsModel(Model):
    """A Hearts hand from a position of its play (HEARTS-*). ``taken`` are the points each seat
    took so far; the moon (HEARTS-MOON) makes the result depend on the past only through who
    holds the points when a single seat does, so the key holds that seat (or -1: nobody yet,
    -2: several, when the table stores the future points only)."""

    def __init__(
        self, cards: CardMap, hands: list[int], leader: int, table: list[int],
        broken: bool, first: bool, taken: list[int],
    ) -> None:  # fmt: skip
        Model.__init__(self, 4, cards, hands, leader)
        self.broken = broken
        self.broken_at = -1 if not broken else -2  # ply at which hearts broke (-2: before)
        self.first = first
        self.taken = taken
        self.suit = [c // 13 for c in cards.cards]
        self.points = [hearts.card_points(c) for c in cards.cards]
        self.suit_mask = [0, 0, 0, 0]
        self.point_mask = 0
        self.two_clubs = 0
        self.heart_mask = 0  # the hearts (HEARTS-BREAK)
        self.queen_points = hearts.card_points(hearts.QUEEN_OF_SPADES)
        for i, card in enumerate(cards.cards):
            self.suit_mask[card // 13] |= 1 << i
            if self.points[i]:
                self.point_mask |= 1 << i
            if card // 13 == hearts.HEARTS:
                self.heart_mask |= 1 << i
            if card == hearts.TWO_OF_CLUBS:
                self.two_clubs = 1 << i
        #: Per ruled trick: winner | points << 2 | leader << 9 | first << 11 | holder + 2 << 12.
        self.tricks: list[int] = []
        self.holds = -1  # :meth:`holder`, kept up to date as tricks are ruled
        for seat in range(4):
            if taken[seat]:
                self.holds = seat if self.holds == -1 else -2
        self.count_bits = count_bits(self.suit_mask)
        self.set_runs(self.suit, self.suit_mask[hearts.SPADES] & self.point_mask)  # the queen
        self.lay(table)

    def legal(self) -> int:
        """As :func:`replay.games.hearts.legal_mask`."""
        hand = self.hands[self.mover()]
        if self.tlen == 0:
            if self.first:
                return hand & self.two_clubs
            if self.broken:
                return hand
            safe = hand & ~self.heart_mask
            return safe or hand
        suited = hand & self.suit_mask[self.suit[self.plays[len(self.plays) - self.tlen]]]
        if suited:
            return suited
        if self.first:
            return (hand & ~self.point_mask) or hand
        return hand

    def play(self, card: int) -> None:
        seat = self.mover()
        self.hands[seat] = self.hands[seat] & ~(1 << card)  # not &=: see Model.play
        self.put(card)
        if not self.broken and self.heart_mask >> card & 1:
            self.broken = True
            self.broken_at = len(self.plays)
        if self.tlen == 4:
            self._rule_trick()

    def _rule_trick(self) -> None:
        """The highest card of the led suit wins the trick's points (HEARTS-TRICK, as
        :func:`replay.games.hearts.trick_winner` and ``trick_points``)."""
        winner = self.seat_after(self.leader, self.top_position(self.suit))
        points = self.table_points()
        self.tricks.append(
            winner | points << 2 | self.leader << 9 | int(self.first) << 11
            | (self.holds + 2) << 12
        )  # fmt: skip
        self.taken[winner] = self.taken[winner] + points
        if points and self.holds != winner:
            self.holds = winner if self.holds == -1 else -2
        self.remove_trick()
        self.leader = winner
        self.first = False
        self.tlen = 0

    def undo(self) -> None:
        if self.tlen == 0:
            record = self.tricks.pop()
            winner = record & 3
            self.taken[winner] = self.taken[winner] - (record >> 2 & 127)
            self.leader = record >> 9 & 3
            self.first = bool(record >> 11 & 1)
            self.holds = (record >> 12) - 2
            self.restore_trick(4)
            self.tlen = 4
        if self.broken_at == len(self.plays):
            self.broken = False
            self.broken_at = -1
        card = self.take_back()
        seat = self.mover()
        self.hands[seat] = self.hands[seat] | 1 << card

    def over(self) -> bool:
        return not self.live & self.point_mask

    def final(self) -> tuple[int, ...]:
        taken = self.taken
        if hearts.shot_the_moon(taken):
            return tuple([-hearts.round_score(taken, seat) for seat in range(4)])
        return (-taken[0], -taken[1], -taken[2], -taken[3])  # as hearts.round_score

    def holder(self) -> int:
        """The one seat holding every point taken so far, -1 if none is taken, -2 if several
        seats took some (no moon is left)."""
        return self.holds

    def key(self) -> int:
        """The hands relative to the cards left (:meth:`Model.owners`), how many of each suit
        are left, where the queen of spades is among them, the leader, broken hearts and the
        first trick, and the points' holder."""
        queen = self.suit_mask[hearts.SPADES] & self.point_mask & self.live
        past: int = popcount(self.live & (queen - 1)) << 8 | self.leader << 5
        past |= int(self.broken) << 4 | int(self.first) << 3 | self.holds + 2
        counts = self.suit_counts(self.suit_mask, self.count_bits)
        return (self.owners() << 4 * self.count_bits | counts) << 14 | past

    def relative(self, value: tuple[int, ...]) -> tuple[int, ...]:
        if self.holder() != -2:
            return value
        t = self.taken
        return (value[0] + t[0], value[1] + t[1], value[2] + t[2], value[3] + t[3])

    def absolute(self, stored: tuple[int, ...]) -> tuple[int, ...]:
        if self.holder() != -2:
            return stored
        t = self.taken
        return (stored[0] - t[0], stored[1] - t[1], stored[2] - t[2], stored[3] - t[3])

    def upper(self, seat: i64) -> int:
        """No more points, or the moon, while the seat may still shoot it (:meth:`may_shoot`);
        otherwise the points it took, and those on the table when the trick on it is surely
        the seat's."""
        top = self.top_position(self.suit)
        if self.may_shoot(seat, top):
            return 0
        return -self.taken[seat] - self.sure_points(seat, top)

    def may_shoot(self, seat: i64, top: i64) -> bool:
        """Whether the seat, having just played, may still take every point of the hand:
        nobody else took one, and no point lies in the trick on the table unless the seat's
        card is its highest of the led suit (at position ``top`` in the trick: a later card
        cannot make the seat the winner)."""
        holder = self.holds
        if holder != -1 and holder != seat:
            return False
        if top < 0 or self.seat_after(self.leader, top) == seat:
            return True
        return self.table_points() + self.forced_points() == 0

    def table_points(self) -> int:
        """The points of the cards on the table (as :func:`replay.games.hearts.mask_points`)."""
        cards = self.on_table & self.point_mask
        if not cards:
            return 0
        queen = self.queen_points if cards & ~self.heart_mask else 0
        return popcount(cards & self.heart_mask) + queen

    def sure_points(self, seat: i64, top: i64) -> int:
        """The points on the table, and those the seats still to play must add, when the trick
        in progress is surely ``seat``'s (:meth:`Model.sure_winner`, the trick's top card at
        position ``top``)."""
        if self.sure_winner(self.suit, self.suit_mask, top) != seat:
            return 0
        return self.table_points() + self.forced_points()

    def forced_points(self) -> int:
        """The points the seats still to play must add to the trick on the table: each holding
        the led suit in point cards only (hearts; the queen of spades alone) plays one."""
        plays = self.plays
        led = self.suit_mask[self.suit[plays[len(plays) - self.tlen]]]
        points = 0
        for position in range(self.tlen, 4):
            cards = self.hands[self.seat_after(self.leader, position)] & led
            if cards and not cards & ~self.point_mask:
                points += self.points[(cards & -cards).bit_length() - 1]
        return points

    def sweeps(self) -> bool:
        return self.top_cards_sweep(self.suit_mask)

    def swept(self) -> tuple[int, ...]:
        """The leader takes every point left."""
        return self.takes_the_rest(self.leader)

    def forced_out(self) -> tuple[int, ...]:
        """The last trick, one card a seat: the highest card of the led suit (HEARTS-TRICK)
        takes every point left."""
        led = self.hands[self.leader]
        suit = self.suit_mask[self.suit[led.bit_length() - 1]]
        top = 1 << ((self.live & suit).bit_length() - 1)  # the suit's highest card in play
        winner = 0
        while not self.hands[winner] & top:
            winner += 1
        return self.takes_the_rest(winner)

    def takes_the_rest(self, seat: int) -> tuple[int, ...]:
        """The result when ``seat`` takes every point left (at a trick's start)."""
        cards = self.live & self.point_mask
        queen = self.queen_points if cards & ~self.heart_mask else 0
        left = popcount(cards & self.heart_mask) + queen  # as hearts.mask_points
        taken = self.taken
        taken[seat] = taken[seat] + left
        value = self.final()
        taken[seat] = taken[seat] - left
        return value

    def same_move(self, low: int, high: int) -> bool:
        return self.in_one_run(low, high)


class HeartsSolver(GameSolver):
    """Hearts' part of the solver: points, lower is better; the unit is the hand."""

    def model(self, state: Any, cards: CardMap) -> Model:
        hands = [cards.mask(state.hand(seat)) for seat in range(state.n)]
        table = [cards.index[card] for card in state.table]
        return HeartsModel(
            cards, hands, state.leader, table, state.broken, state.trick_no == 1,
            list(state.taken),
        )  # fmt: skip

    def deck_order(self, state: Any) -> tuple[str, ...]:
        return hearts.DECK.order

    def unit(self, state: Any) -> int:
        return int(state.hand_no)


SOLVER = HeartsSolver(-1, exact_cards=4, visible_cards=6)
