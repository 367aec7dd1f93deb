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

from typing import Any, Final

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


#: The cards a C integer holds in :func:`compress` (62: a short integer in the compiled build).
WORD: Final = 62
WORD_MASK: Final = (1 << WORD) - 1


def compress(cards: int, live: int) -> int:
    """The cards of ``cards`` among ``live`` as ranks in ``live`` (bit ``r``: the card of rank
    ``r`` among the live cards, lowest first), 62 cards at a time in C integers."""
    out = 0
    shift = 0
    while True:
        word: i64 = live & WORD_MASK
        out |= compress_word(cards & WORD_MASK, word) << shift
        live >>= WORD
        if not live:
            return out
        cards >>= WORD
        shift += popcount(word)


def compress_word(cards: i64, live: i64) -> i64:
    """:func:`compress` of at most 62 cards."""
    out: i64 = 0
    bit: i64 = 1
    while live:
        low = live & -live
        if cards & low:
            out |= bit
        bit <<= 1
        live ^= low
    return out


def count_bits(suit_masks: list[int]) -> int:
    """The bits that hold how many cards of a suit are in play (:meth:`Model.suit_counts`)."""
    return max(popcount(mask) for mask in suit_masks).bit_length()


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
    table (``on_table``, as a bit set), ``live`` the cards still in play (in a hand or on the
    table). The seat numbers and the trick's length are C integers (``i64``) in the compiled
    build; the bit sets are integers, short ones (up to 62 cards) in the compiled build."""

    def __init__(self, n: int, cards: CardMap, hands: list[int], leader: int) -> None:
        self.n: i64 = n
        self.map = cards
        self.hands = hands
        self.leader: i64 = leader
        self.plays: list[int] = []
        self.tlen: i64 = 0
        self.on_table = 0  # the cards of the trick on the table
        self.breaks = 0  # :meth:`set_runs`
        self.alone = 0
        live = 0
        for hand in hands:
            live |= hand
        self.live = live
        #: The table key's layout (:meth:`owners`): the bits of a seat number.
        self.seat_bits: i64 = max(1, (n - 1).bit_length())

    # ------------------------------------------------------------- the game's own
    def mover(self) -> i64:
        """The seat to play."""
        return self.seat_after(self.leader, self.tlen)

    def seat_after(self, seat: i64, count: i64) -> i64:
        """The seat ``count`` places after ``seat`` (``count < n``), without a division."""
        after = seat + count
        return after - self.n if after >= self.n else after

    def legal(self) -> int:
        """The cards the seat to play may play (a compact bit set)."""
        raise NotImplementedError

    def play(self, card: int) -> None:
        """The seat to play plays ``card``, and the trick is ruled if it is complete.

        (In the compiled build an augmented assignment to a list's item, ``hands[seat] &=
        mask``, is a generic operation on objects: the models write ``hands[seat] =
        hands[seat] & mask``.)"""
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

    def key(self) -> int:
        """The table key at a trick's start: the hands, the leader and what of the past still
        decides the future, as one integer."""
        raise NotImplementedError

    def upper(self, seat: i64) -> int:
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

    def forced_out(self) -> tuple[int, ...]:
        """The result when :meth:`forced`: by default, the one line played out."""
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
            self.put(card)

    def put(self, card: int) -> None:
        """Lay ``card`` on the table (``plays``, ``on_table``, ``tlen``)."""
        self.plays.append(card)
        self.on_table |= 1 << card
        self.tlen += 1

    def take_back(self) -> int:
        """Undo :meth:`put`: the card taken back."""
        card = self.plays.pop()
        self.on_table &= ~(1 << card)
        self.tlen -= 1
        return card

    def trick_start(self) -> bool:
        return self.tlen == 0

    def table(self) -> list[int]:
        """The compact cards of the trick on the table, in play order."""
        return self.plays[len(self.plays) - self.tlen :]

    def set_runs(self, suit: list[int], alone: int) -> None:
        """For :meth:`in_one_run`: mark where a suit begins in deck order (``suit``: each
        compact card's), and the cards ``alone`` that are like no other (the queen of
        spades)."""
        for card in range(1, len(suit)):
            if suit[card] != suit[card - 1]:
                self.breaks |= 1 << card
        self.alone = alone

    def in_one_run(self, low: int, high: int) -> bool:
        """Whether two cards (``low < high``) are of one suit, neither of them alone
        (:meth:`set_runs`), with no card still in play between them: a :meth:`same_move` for
        a game where such cards are one move."""
        if ((2 << high) - (2 << low)) & self.breaks or (1 << low | 1 << high) & self.alone:
            return False
        return self.no_live_between(low, high)

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
        """Who holds each card still in play, at a trick's start: the hands relative to the
        cards left, so that positions differing only by which equivalent cards were played
        share a key. Bit ``b`` of the seat holding the card of rank ``r`` among the cards left
        (deck order) is bit ``r`` of plane ``b``; the planes side by side, as wide as the cards
        left (so that a key of few cards left is a short integer: no allocation in the
        compiled build)."""
        live = self.live
        width = popcount(live)
        out = 0
        for plane in range(self.seat_bits):
            cards = 0  # the cards of the seats whose number has bit ``plane`` set
            for seat in range(self.n):
                if seat >> plane & 1:
                    cards |= self.hands[seat]
            out = out << width | compress(cards, live)
        return out

    def remove_trick(self) -> None:
        """Take the ruled trick's cards out of play."""
        self.live &= ~self.on_table
        self.on_table = 0

    def restore_trick(self, count: i64) -> None:
        """Undo :meth:`remove_trick` of a trick of ``count`` cards (the last played)."""
        plays = self.plays
        trick = 0
        for position in range(len(plays) - count, len(plays)):
            trick |= 1 << plays[position]
        self.live |= trick
        self.on_table = trick

    def suit_counts(self, suit_masks: list[int], bits: int) -> int:
        """The cards still in play of each suit, packed ``bits`` a suit (where the owners'
        suits begin and end; :func:`count_bits`)."""
        packed = 0
        for mask in suit_masks:
            packed = packed << bits | popcount(self.live & mask)
        return packed

    def top_position(self, suit: list[int]) -> i64:
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

    def sure_winner(self, suit: list[int], suit_masks: list[int], top: i64) -> i64:
        """For a game where the highest card of the led suit wins: the seat that surely wins
        the trick in progress (it played the trick's highest card of the led suit, at position
        ``top`` (:meth:`top_position`), and no seat still to play holds a higher one), or -1
        (not known yet, or no trick on the table)."""
        if top < 0:
            return -1
        plays = self.plays
        card = plays[len(plays) - self.tlen + top]
        above = suit_masks[suit[card]] & ~((2 << card) - 1)
        for position in range(self.tlen, self.n):
            if self.hands[self.seat_after(self.leader, position)] & above:
                return -1
        return self.seat_after(self.leader, top)

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
