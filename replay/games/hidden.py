"""What a seat cannot see: deals of the hidden cards consistent with everything it knows.

A game's sampler (:class:`HiddenSampler`) takes a log from ``game_start`` up to some step and a
seat, and returns a log of the same length in which every chance outcome and every decision
whose content the seat cannot see (other seats' deals, passes, discards, drawn cards) is
replaced by a draw, uniform over all the assignments consistent with what the seat knows at that
step: its own cards, every card it saw played, passed to it or exposed, the cards it passed
away, the voids others revealed by not following, the rulings it saw. The events the seat sees
are kept as they are, and the sampled log replays through the game's rules without a finding.

Each game keeps its sampler apart, in a sibling module named ``<module>_hidden``
(``hearts_hidden`` beside ``hearts``) exposing ``SAMPLER``; :func:`sampler_for` finds it as the
registry finds a game's ``_fast`` sibling. The shared piece is :func:`fill`: the uniform
assignment of a pool of cards to hidden slots of given sizes, each slot limited to the cards it
may hold.

>>> import random
>>> a, b = fill(0b1111, [Slot(2, 0b0011), Slot(2)], random.Random(1))
>>> a, b  # the first slot may hold only cards 0 and 1
(3, 12)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from math import comb, factorial
from operator import is_
from typing import Protocol, TypeVar, cast

from replay.games import GAME_MODULES, UnknownGame, _import
from replay.model.cards import Deck, bits, popcount
from replay.model.events import Event

T = TypeVar("T")

#: The suffix of a game module's sibling that holds its sampler (``hearts_hidden``).
HIDDEN_SUFFIX = "_hidden"

#: Every card: the ``allowed`` of a slot without a constraint.
ANY = -1


class HiddenSampler(Protocol):
    """A game's sampler of what a seat cannot see (see the module docstring)."""

    def sample(self, events: Sequence[Event], seat: int, rng: random.Random) -> list[Event]:
        """``events`` with what ``seat`` cannot see drawn anew, uniform over the consistent
        assignments."""
        ...


class NoSampler(UnknownGame):
    """A game kind with no sampler of hidden information (no ``<module>_hidden`` sibling)."""


class Inconsistent(ValueError):
    """No assignment of the hidden cards is consistent with the log (the log is not legal)."""


def sampler_for(kind: str) -> HiddenSampler:
    """The sampler of a game kind; raises :class:`NoSampler` (a ``KeyError``, like
    :class:`~replay.games.UnknownGame`) for a kind with none."""
    module_name = GAME_MODULES.get(kind)
    module = _import(module_name + HIDDEN_SUFFIX) if module_name is not None else None
    sampler: HiddenSampler | None = getattr(module, "SAMPLER", None)
    if sampler is None:
        raise NoSampler(f"no sampler of hidden information for the game {kind!r}")
    return sampler


@dataclass(frozen=True, slots=True)
class Slot:
    """A place of hidden cards: ``size`` cards, all within the bit set ``allowed``."""

    size: int
    allowed: int = ANY


def fill(pool: int, slots: Sequence[Slot], rng: random.Random) -> list[int]:
    """Share out the cards of ``pool`` (a bit set) among ``slots``, each getting exactly its
    size in cards it is allowed, uniformly over all such assignments: one bit set per slot.

    Exact and rejection-free: slots allowed the same cards form a group, cards allowed in the
    same groups a class; the number of cards of each class in each group is drawn with
    probability proportional to its number of assignments (counted class by class over the
    groups' remaining room), then the cards are shuffled into place. Raises
    :class:`Inconsistent` when no assignment exists.
    """
    if sum(slot.size for slot in slots) != popcount(pool):
        raise Inconsistent(f"{popcount(pool)} hidden cards for {sum(s.size for s in slots)} places")
    groups: dict[int, list[int]] = {}  # allowed cards -> the slots allowed them
    for index, slot in enumerate(slots):
        if slot.size:
            groups.setdefault(slot.allowed & pool, []).append(index)
    allowed = list(groups)
    by_key: dict[tuple[int, ...], list[int]] = {}  # groups allowing a card -> those cards
    for card in bits(pool):
        key = tuple(g for g, mask in enumerate(allowed) if mask >> card & 1)
        by_key.setdefault(key, []).append(card)
    # The class with the most ways to share it out last, where its share-out is forced.
    classes = sorted(by_key.items(), key=lambda c: comb(len(c[1]) + len(c[0]), len(c[0])))
    room = tuple(sum(slots[i].size for i in members) for members in groups.values())
    counts = _counts(tuple((key, len(cards)) for key, cards in classes))
    if not counts.ways(0, room):
        raise Inconsistent("no assignment of the hidden cards fits what the seat knows")
    in_group: list[list[int]] = [[] for _ in allowed]
    for index, (_, cards) in enumerate(classes):
        shares = counts.draw(index, room, rng)
        rng.shuffle(cards)
        start = 0
        for group, share in shares:
            in_group[group] += cards[start : start + share]
            start += share
        room = tuple(r - dict(shares).get(g, 0) for g, r in enumerate(room))
    out = [0] * len(slots)
    for members, cards in zip(groups.values(), in_group, strict=True):
        rng.shuffle(cards)
        for index in members:
            out[index] = sum(1 << c for c in cards[: slots[index].size])
            cards = cards[slots[index].size :]
    return out


#: The counts of recent fills, by their classes (a review samples one step many times).
_RECENT: dict[tuple[tuple[tuple[int, ...], int], ...], _Counts] = {}
_RECENT_MAX = 64


def _counts(classes: tuple[tuple[tuple[int, ...], int], ...]) -> _Counts:
    counts = _RECENT.get(classes)
    if counts is None:
        if len(_RECENT) >= _RECENT_MAX:
            _RECENT.clear()
        counts = _RECENT[classes] = _Counts(classes)
    return counts


class _Counts:
    """The number of assignments of the classes ``index``... to the groups' remaining room
    (each weighted by the ways to choose which cards of a class go where), memoised. The
    classes are (the groups allowed its cards, how many cards) pairs."""

    def __init__(self, classes: tuple[tuple[tuple[int, ...], int], ...]) -> None:
        self.classes = classes
        self.memo: dict[tuple[int, tuple[int, ...]], int] = {}

    def ways(self, index: int, room: tuple[int, ...]) -> int:
        if index == len(self.classes):
            return 0 if any(room) else 1
        key = (index, room)
        if key not in self.memo:
            self.memo[key] = sum(w for _, w in self._options(index, room))
        return self.memo[key]

    def _options(
        self, index: int, room: tuple[int, ...]
    ) -> Iterator[tuple[list[tuple[int, int]], int]]:
        """Each way to share out class ``index`` among its groups, with its weight."""
        groups, count = self.classes[index]
        bounds = [room[g] for g in groups]
        choices: Iterable[tuple[int, ...]] = _compositions(count, bounds)
        if index == len(self.classes) - 1:  # the last class fills what room is left
            choices = [tuple(bounds)] if sum(bounds) == count == sum(room) else []
        for shares in choices:
            rest = list(room)
            for g, share in zip(groups, shares, strict=True):
                rest[g] -= share
            after = self.ways(index + 1, tuple(rest))
            if after:
                spread = factorial(count)
                for share in shares:
                    spread //= factorial(share)
                yield list(zip(groups, shares, strict=True)), spread * after

    def draw(self, index: int, room: tuple[int, ...], rng: random.Random) -> list[tuple[int, int]]:
        """A share-out of class ``index``, drawn in proportion to its number of assignments."""
        pick = rng.randrange(self.ways(index, room))
        for shares, weight in self._options(index, room):
            if pick < weight:
                return shares
            pick -= weight
        raise AssertionError("the weights add up to the count")


def _compositions(total: int, bounds: list[int]) -> Iterator[tuple[int, ...]]:
    """Every way to write ``total`` as a sum of ``len(bounds)`` parts, each within its bound."""
    if not bounds:
        if total == 0:
            yield ()
        return
    head, rest = bounds[0], bounds[1:]
    for first in range(max(0, total - sum(rest)), min(head, total) + 1):
        for tail in _compositions(total - first, rest):
            yield (first, *tail)


@dataclass
class RoundLog:
    """One round of a trick game's log, as far as it goes: where its deals and its secret
    decisions (a pass, a discard: one per seat) are, and its tricks (cards as indices into
    ``deck``)."""

    number: int
    deals: dict[int, tuple[int, int]] = field(default_factory=dict)  # seat -> (index, cards)
    secrets: dict[int, tuple[int, int]] = field(default_factory=dict)  # seat -> (index, cards)
    tricks: dict[int, list[tuple[int, int]]] = field(default_factory=dict)  # (seat, card)s
    scored: bool = False  # a round_scored ruling is recorded
    plays: dict[int, int] = field(default_factory=dict)  # seat -> the cards it played

    def played(self, seat: int) -> int:
        """The cards ``seat`` has played in the round."""
        return self.plays.get(seat, 0)

    def in_order(self) -> list[tuple[int, list[tuple[int, int]]]]:
        """The tricks in order: (number, [(seat, card)...] in play order)."""
        return sorted(self.tricks.items())


#: The last parse of each kind of log (see :func:`parsed`): the events parsed, and the parse.
_PARSED: dict[object, tuple[list[Event], object]] = {}


def parsed(events: Sequence[Event], key: object, parse: Callable[[Sequence[Event]], T]) -> T:
    """``parse(events)``, or what it gave last time for the same ``key`` if ``events`` are the
    same objects: a review samples one step many times. A parse is read, never changed."""
    last = _PARSED.get(key)
    if last is not None and len(last[0]) == len(events) and all(map(is_, last[0], events)):
        return cast(T, last[1])
    value = parse(events)
    _PARSED[key] = (list(events), value)
    return value


def trick_rounds(events: Sequence[Event], deck: Deck, secret: str = "") -> list[RoundLog]:
    """The rounds of a trick game's log: ``deal``, the ``secret`` decision type (``pass``,
    ``discard``), ``play`` and ``round_scored`` events, found by their ``round``."""
    return parsed(events, (deck.name, secret), lambda log: _rounds(log, deck, secret))


def _rounds(events: Sequence[Event], deck: Deck, secret: str) -> list[RoundLog]:
    rounds: dict[int, RoundLog] = {}
    for index, event in enumerate(events):
        seat = event.player
        if event.round is None or seat is None:
            continue
        part = rounds.get(event.round)
        if part is None:
            part = rounds[event.round] = RoundLog(event.round)
        if event.type == "play" and event.card is not None and event.trick is not None:
            card = deck.find(event.card)
            part.tricks.setdefault(event.trick, []).append((seat, card))
            part.plays[seat] = part.plays.get(seat, 0) | 1 << card
        elif event.type == "deal":
            part.deals[seat] = (index, deck.mask(event.cards or ()))
        elif event.type == secret:
            part.secrets[seat] = (index, deck.mask(event.cards or ()))
        elif event.type == "round_scored":
            part.scored = True
    return list(rounds.values())


def before_play(
    part: RoundLog, seat: int, cards: int, hand: int, secret: int, rng: random.Random
) -> dict[int, int]:
    """The unseen deals of a round in which nothing is played yet (some deals, some secret
    decisions may be missing), and each unseen secret (``secret`` cards of its seat's deal):
    the new cards by event index. ``cards`` is the deck in play, ``hand`` a deal's size."""
    own = part.deals[seat][1] if seat in part.deals else 0
    others = [s for s in part.deals if s != seat]
    undealt = popcount(cards) - hand * len(part.deals)
    *deals, _ = fill(cards & ~own, [Slot(hand)] * len(others) + [Slot(undealt)], rng)
    out = {}
    for s, dealt in zip(others, deals, strict=True):
        out[part.deals[s][0]] = dealt
        if s in part.secrets:
            out[part.secrets[s][0]] = any_of(dealt, secret, rng)
    return out


def in_play(
    part: RoundLog, seat: int, cards: int, hand: int, excluded: list[int], rng: random.Random
) -> dict[int, int]:
    """The unseen deals and secrets (kept out of play, as Hiifuu's discards) of a round whose
    deals and secrets are all made: the unseen cards are shared out among the others' hands as
    they stand, within what each is known not to hold (``excluded``), and their secrets.
    ``cards`` is the deck in play, ``hand`` a deal's size."""
    others = [s for s in part.deals if s != seat]
    seen = part.deals[seat][1]
    for s in others:
        seen |= part.played(s)
    kept = [popcount(part.secrets[s][1]) if s in part.secrets else 0 for s in others]
    slots = [
        Slot(hand - popcount(part.played(s)) - k, ~excluded[s])
        for s, k in zip(others, kept, strict=True)
    ]
    drawn = fill(cards & ~seen, [*slots, *(Slot(k) for k in kept if k)], rng)
    secrets = iter(drawn[len(others) :])
    out = {}
    for s, held, k in zip(others, drawn[: len(others)], kept, strict=True):
        secret = next(secrets) if k else 0
        out[part.deals[s][0]] = part.played(s) | held | secret
        if k:
            out[part.secrets[s][0]] = secret
    return out


def any_of(cards: int, count: int, rng: random.Random) -> int:
    """``count`` of ``cards`` (a bit set), uniformly."""
    return sum(1 << c for c in rng.sample(list(bits(cards)), count))


def redrawn(events: Sequence[Event], cards: dict[int, int], deck: Deck) -> list[Event]:
    """``events`` with the cards of the events at the given indices replaced by the bit sets
    of ``cards`` (``cards`` of a deal, pass or discard, in deck order; ``card`` of an event
    carrying one)."""
    out = list(events)
    for index, mask in cards.items():
        codes = tuple(deck.codes(mask))
        e = out[index]
        card, many = (None, codes) if e.cards is not None else (codes[0], None)
        out[index] = Event(
            e.game_id, e.seq, e.kind, e.type, e.round, e.trick, e.player, e.target, card, many,
            e.suit, e.amount, e.total, e.values, e.ts, e.data,
        )  # fmt: skip
    return out


def check_seat(seat: int, players: int) -> None:
    """A :class:`ValueError` for a seat that is not one of the table's."""
    if not 0 <= seat < players:
        raise ValueError(f"seat {seat} is not a seat of this {players}-player game")
