"""Hiifuu: its model for the all-cards-visible solver (:mod:`replay.solver`), found by the solver as
the registry finds a game's ``_fast`` sibling. The model plays a round from a position of its
play (HIIFUU-*); the reducer's own function rules the tricks.
"""

from __future__ import annotations

from typing import Any, Final

from mypy_extensions import i64

from replay.games import hiifuu
from replay.games.solving import CardMap, GameSolver, Model, count_bits
from replay.model.cards import popcount

UNTAKEN: Final = -1


class HiifuuModel(Model):
    """A Hiifuu round from a position of its play (HIIFUU-*): a seat's score is the token it
    took on its second trick unless a third covered it."""

    def __init__(
        self, n: int, values: int, cards: CardMap, hands: list[int], leader: int,
        table: list[int], tricks: list[int], token_of: list[int], covered: list[bool],
        next_token: int, layout: list[int],
    ) -> None:  # fmt: skip
        Model.__init__(self, n, cards, hands, leader)
        self.values = values
        self.suit = [c // values for c in cards.cards]
        self.suit_mask = [0, 0, 0, 0]
        for i, card in enumerate(cards.cards):
            self.suit_mask[card // values] |= 1 << i
        self.won = tricks
        self.token_of = token_of
        self.covered = covered
        self.next_token = next_token
        self.layout = layout
        self.records: list[int] = []  # per ruled trick: winner | change << 3 | leader << 5
        self.count_bits = count_bits(self.suit_mask)
        self.set_runs(self.suit, 0)
        self.past_bits = 4 * n + 3 + len(layout).bit_length()  # :meth:`key`'s past
        self.lay(table)

    def legal(self) -> int:
        """As :func:`replay.games.hiifuu.legal_mask`."""
        hand = self.hands[self.mover()]
        if self.tlen == 0:
            return hand
        suited = hand & self.suit_mask[self.suit[self.plays[len(self.plays) - self.tlen]]]
        return suited or hand

    def play(self, card: int) -> None:
        seat = self.mover()
        self.hands[seat] = self.hands[seat] & ~(1 << card)  # not &=: see Model.play
        self.put(card)
        if self.tlen == self.n:
            self._rule_trick()

    def _rule_trick(self) -> None:
        trick = self.table()
        winner = hiifuu.trick_winner(self.leader, self.packed_table(trick), self.values, self.n)
        won = self.won[winner] + 1
        self.won[winner] = won
        change = 0
        if won == 2 and self.next_token < len(self.layout):  # as Hiifuu.take_trick
            self.token_of[winner] = self.next_token
            self.next_token += 1
            change = 1
        elif won == 3 and self.token_of[winner] != UNTAKEN:
            self.covered[winner] = True
            change = 2
        self.records.append(winner | change << 3 | self.leader << 5)
        self.remove_trick()
        self.leader = winner
        self.tlen = 0

    def undo(self) -> None:
        if self.tlen == 0:
            record = self.records.pop()
            winner = record & 7
            change = record >> 3 & 3
            self.won[winner] = self.won[winner] - 1
            if change == 1:
                self.token_of[winner] = UNTAKEN
                self.next_token -= 1
            elif change == 2:
                self.covered[winner] = False
            self.leader = record >> 5
            self.restore_trick(self.n)
            self.tlen = self.n
        card = self.take_back()
        seat = self.mover()
        self.hands[seat] = self.hands[seat] | 1 << card

    def over(self) -> bool:
        return self.live == 0

    def score(self, seat: int) -> int:
        """As :func:`replay.games.hiifuu.round_score`."""
        index = self.token_of[seat]
        if index == UNTAKEN or self.covered[seat]:
            return 0
        return self.layout[index]

    def final(self) -> tuple[int, ...]:
        return tuple([self.score(seat) for seat in range(self.n)])

    def standing(self, seat: int) -> int:
        """What of a seat's past decides its future: 0 or 1 trick, 2 + the token held, or -1
        (its score is 0 whatever happens: covered, or two tricks and no token left)."""
        won = self.won[seat]
        if won < 2:
            return won
        if won == 2 and self.token_of[seat] != UNTAKEN:
            return 2 + self.token_of[seat]
        return -1

    def key(self) -> int:
        """The hands relative to the cards left (:meth:`Model.owners`), how many of each suit
        are left, the leader, the next token and each seat's :meth:`standing`."""
        past: int = self.next_token << 3 | self.leader
        for seat in range(self.n):
            past = past << 4 | (self.standing(seat) + 1)
        counts = self.suit_counts(self.suit_mask, self.count_bits)
        return (self.owners() << 4 * self.count_bits | counts) << self.past_bits | past

    def upper(self, seat: i64) -> int:
        """The token the seat holds (it may take no more trick), 0 for a dead seat or one
        that can no longer reach two tricks (counting the trick in progress when it is surely
        the seat's, :meth:`Model.sure_winner`), else the best token still to take."""
        standing = self.standing(seat)
        if standing < 0:
            return 0
        sure = int(
            self.sure_winner(self.suit, self.suit_mask, self.top_position(self.suit)) == seat
        )
        if standing >= 2:
            return 0 if sure else self.layout[standing - 2]
        on_table = int((seat - self.leader) % self.n < self.tlen)
        if self.won[seat] + on_table + popcount(self.hands[seat]) < 2:
            return 0
        if self.won[seat] + sure == 2:
            return self.layout[self.next_token] if self.next_token < len(self.layout) else 0
        best = 0
        for index in range(self.next_token, len(self.layout)):
            best = max(best, self.layout[index])
        return best

    def same_move(self, low: int, high: int) -> bool:
        return self.in_one_run(low, high)

    def sweeps(self) -> bool:
        return self.top_cards_sweep(self.suit_mask)


class HiifuuSolver(GameSolver):
    """Hiifuu's part of the solver: the token kept, higher is better; the unit is the round."""

    def model(self, state: Any, cards: CardMap) -> Model:
        hands = [cards.mask(state.hand(seat)) for seat in range(state.n)]
        table = [cards.index[card] for card in state.table]
        return HiifuuModel(
            state.n, state.setup.values, cards, hands, state.leader, table, list(state.tricks),
            list(state.token_of), list(state.covered), state.next_token, list(state.layout),
        )  # fmt: skip

    def deck_order(self, state: Any) -> tuple[str, ...]:
        return tuple(state.setup.deck.order)

    def unit(self, state: Any) -> int:
        return int(state.round)


SOLVER = HiifuuSolver(1, exact_cards=4, visible_cards=6)
