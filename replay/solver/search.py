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

from typing import Final

from mypy_extensions import i64, mypyc_attr

from replay.games import fou, hearts, hiifuu
from replay.model.cards import popcount
from replay.model.packed import CARD_BITS, placed

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

    def ordered(self, moves: list[int]) -> list[int]:
        """The moves in the order to search them (the default: deck order)."""
        return moves

    # ------------------------------------------------------------- shared
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

    def deck_card(self, card: int) -> int:
        return self.map.cards[card]

    def packed_table(self, trick: list[int]) -> i64:
        """The trick's deck cards packed as the reducers pack a table
        (:mod:`replay.model.packed`)."""
        packed: i64 = 0
        for position in range(len(trick)):
            packed |= placed(self.map.cards[trick[position]], position, CARD_BITS)
        return packed


# --------------------------------------------------------------------- Hearts
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
        for i, card in enumerate(cards.cards):
            self.suit_mask[card // 13] |= 1 << i
            if self.points[i]:
                self.point_mask |= 1 << i
            if card == hearts.TWO_OF_CLUBS:
                self.two_clubs = 1 << i
        self.tricks: list[
            int
        ] = []  # per ruled trick: winner | points << 2 | leader << 9 | first << 11
        for card in table:
            self.live |= 1 << card
            self.plays.append(card)
        self.tlen = len(table)

    def legal(self) -> int:
        """As :func:`replay.games.hearts.legal_mask`."""
        hand = self.hands[self.mover()]
        if self.tlen == 0:
            if self.first:
                return hand & self.two_clubs
            if self.broken:
                return hand
            safe = hand & ~self.suit_mask[hearts.HEARTS]
            return safe or hand
        suited = hand & self.suit_mask[self.suit[self.plays[len(self.plays) - self.tlen]]]
        if suited:
            return suited
        if self.first:
            return (hand & ~self.point_mask) or hand
        return hand

    def play(self, card: int) -> None:
        seat = self.mover()
        self.hands[seat] &= ~(1 << card)
        self.plays.append(card)
        self.tlen += 1
        if not self.broken and self.suit[card] == hearts.HEARTS:
            self.broken = True
            self.broken_at = len(self.plays)
        if self.tlen == 4:
            self._rule_trick()

    def _rule_trick(self) -> None:
        trick = self.table()
        packed = self.packed_table(trick)
        winner = hearts.trick_winner(self.leader, packed)
        points = hearts.trick_points(packed)
        self.tricks.append(winner | points << 2 | self.leader << 9 | int(self.first) << 11)
        self.taken[winner] += points
        for card in trick:
            self.live &= ~(1 << card)
        self.leader = winner
        self.first = False
        self.tlen = 0

    def undo(self) -> None:
        if self.tlen == 0:
            record = self.tricks.pop()
            winner = record & 3
            self.taken[winner] -= record >> 2 & 127
            self.leader = record >> 9 & 3
            self.first = bool(record >> 11 & 1)
            for card in self.plays[len(self.plays) - 4 :]:
                self.live |= 1 << card
            self.tlen = 4
        if self.broken_at == len(self.plays):
            self.broken = False
            self.broken_at = -1
        card = self.plays.pop()
        self.tlen -= 1
        self.hands[self.mover()] |= 1 << card

    def over(self) -> bool:
        return not self.live & self.point_mask

    def final(self) -> tuple[int, ...]:
        taken = self.taken
        return (
            -hearts.round_score(taken, 0), -hearts.round_score(taken, 1),
            -hearts.round_score(taken, 2), -hearts.round_score(taken, 3),
        )  # fmt: skip

    def holder(self) -> int:
        """The one seat holding every point taken so far, -1 if none is taken, -2 if several
        seats took some (no moon is left)."""
        holder = -1
        for seat in range(4):
            if self.taken[seat]:
                if holder >= 0:
                    return -2
                holder = seat
        return holder

    def key(self) -> tuple[int, ...]:
        """The hands relative to the cards left (:meth:`Model.owners`), where the queen of
        spades is among them, the leader, broken hearts and the first trick, and the points'
        holder."""
        queen = self.suit_mask[hearts.SPADES] & self.point_mask & self.live
        return (
            self.owners(), self.suit_counts(self.suit_mask), popcount(self.live & (queen - 1)),
            self.leader, int(self.broken) | int(self.first) << 1, self.holder(),
        )  # fmt: skip

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

    def upper(self, seat: int) -> int:
        holder = self.holder()
        if holder == -1 or holder == seat:
            return 0  # no more points, or the moon
        return -self.taken[seat]

    def same_move(self, low: int, high: int) -> bool:
        return (
            self.suit[low] == self.suit[high] and self.points[low] == self.points[high]
            and self.no_live_between(low, high)
        )  # fmt: skip

    def ordered(self, moves: list[int]) -> list[int]:
        """Following, the cards that lose the trick first, highest first; leading, lowest
        first."""
        if self.tlen == 0 or len(moves) < 2:
            return moves
        trick = self.table()
        led = self.suit[trick[0]]
        top = -1
        for card in trick:
            if self.suit[card] == led and card > top:
                top = card
        under = [c for c in moves if self.suit[c] != led or c < top]
        under.reverse()
        return under + [c for c in moves if self.suit[c] == led and c > top]


# --------------------------------------------------------------------- Hiifuu
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
        for card in table:
            self.live |= 1 << card
            self.plays.append(card)
        self.tlen = len(table)

    def legal(self) -> int:
        """As :func:`replay.games.hiifuu.legal_mask`."""
        hand = self.hands[self.mover()]
        if self.tlen == 0:
            return hand
        suited = hand & self.suit_mask[self.suit[self.plays[len(self.plays) - self.tlen]]]
        return suited or hand

    def play(self, card: int) -> None:
        self.hands[self.mover()] &= ~(1 << card)
        self.plays.append(card)
        self.tlen += 1
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
        for card in trick:
            self.live &= ~(1 << card)
        self.leader = winner
        self.tlen = 0

    def undo(self) -> None:
        if self.tlen == 0:
            record = self.records.pop()
            winner = record & 7
            change = record >> 3 & 3
            self.won[winner] -= 1
            if change == 1:
                self.token_of[winner] = UNTAKEN
                self.next_token -= 1
            elif change == 2:
                self.covered[winner] = False
            self.leader = record >> 5
            for card in self.plays[len(self.plays) - self.n :]:
                self.live |= 1 << card
            self.tlen = self.n
        card = self.plays.pop()
        self.tlen -= 1
        self.hands[self.mover()] |= 1 << card

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

    def key(self) -> tuple[int, ...]:
        past = 0
        for seat in range(self.n):
            past = past << 4 | (self.standing(seat) + 1)
        return (self.owners(), self.suit_counts(self.suit_mask), self.leader, self.next_token, past)

    def upper(self, seat: int) -> int:
        standing = self.standing(seat)
        if standing < 0:
            return 0
        if standing >= 2:
            return self.layout[standing - 2]
        best = 0
        for index in range(self.next_token, len(self.layout)):
            best = max(best, self.layout[index])
        return best

    def same_move(self, low: int, high: int) -> bool:
        return self.suit[low] == self.suit[high] and self.no_live_between(low, high)


# --------------------------------------------------------------------- Fou!
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
        for card, seat in zip(table, seats, strict=True):
            self.live |= 1 << card
            self.plays.append(card)
            self.seats.append(seat)
        self.tlen = len(table)

    def need(self) -> int:
        """The cards the trick takes (seats not sitting out)."""
        return self.n - popcount(self.out)

    def mover(self) -> int:
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
        self.hands[seat] &= ~(1 << card)
        self.plays.append(card)
        self.seats.append(seat)
        self.tlen += 1
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
        for card in trick:
            self.live &= ~(1 << card)
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
            for card in self.plays[len(self.plays) - self.tlen :]:
                self.live |= 1 << card
        card = self.plays.pop()
        seat = self.seats.pop()
        self.tlen -= 1
        self.hands[seat] |= 1 << card

    def over(self) -> bool:
        return self.ended

    def finished(self) -> bool:
        return self.ended

    def final(self) -> tuple[int, ...]:
        return self.result

    def key(self) -> tuple[int, ...]:
        return (*self.hands, self.leader, self.out)

    def upper(self, seat: int) -> int:
        return fou.EMPTY_HAND_SCORE

    def same_move(self, low: int, high: int) -> bool:
        """The 1s: one value, one penalty, no colour (a tie goes by position, not card)."""
        return self.colour[low] == fou.ONE and self.colour[high] == fou.ONE


# --------------------------------------------------------------------- the search
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

    def best(self, seat: int) -> tuple[int, ...]:
        """The value of the best move of ``seat``, the seat to play (tie: the first card)."""
        model = self.model
        top = model.upper(seat)
        best: tuple[int, ...] = ()
        best_card = -1
        for card in model.ordered(model.merged(model.legal())):
            if best_card >= 0 and card > best_card and best[seat] >= top:
                continue  # cannot beat the best: at most equal, and later in deck order
            model.play(card)
            value = self.value()
            model.undo()
            if (
                best_card < 0 or value[seat] > best[seat]
                or (value[seat] == best[seat] and card < best_card)
            ):  # fmt: skip
                best = value
                best_card = card
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
