"""A fast synthetic corpus of Hearts-shaped games, built with numpy (tests and benchmarks).

The games have the shape and the statistics of real Hearts logs (sorted deals, passes of three
cards, 13 tricks of four plays, the trick's cards on ``trick_won``, four ``round_scored`` per
hand, ``ts`` on start and end) but are not legal games: use the simulator for those.

>>> table = hearts_like_table(games=3, seed=1)
>>> table.num_rows > 3 * 300, table.schema.equals(SCHEMA)
(True, True)
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyarrow as pa

from replay.model.events import SCHEMA

CARD_CODES = [r + s for s in "CDSH" for r in "23456789TJQKA"]
HAND_TYPES = (
    ["deal"] * 4 + ["pass"] * 4 + (["play"] * 4 + ["trick_won"]) * 13 + ["round_scored"] * 4
)
TYPE_NAMES = ["game_start", "deal", "pass", "play", "trick_won", "round_scored", "game_end"]
_TYPE_CODE = {name: i for i, name in enumerate(TYPE_NAMES)}
_HAND = np.array([_TYPE_CODE[t] for t in HAND_TYPES], dtype=np.int8)
_HAND_LEN = len(HAND_TYPES)


def _dict_strings(indices: np.ndarray, words: list[str], mask: np.ndarray | None) -> Any:
    """Strings picked by index from ``words`` (null where ``mask`` is True), built in C++."""
    idx: Any = pa.array(indices.astype(np.int32), mask=mask)
    return pa.DictionaryArray.from_arrays(idx, pa.array(words)).cast(pa.string())


def hearts_like_table(games: int, seed: int = 0, hands: tuple[int, int] = (6, 12)) -> pa.Table:
    """``games`` synthetic Hearts games (``hands`` = min and max hands per game) in SCHEMA."""
    rng = np.random.default_rng(seed)
    n_hands = rng.integers(hands[0], hands[1] + 1, size=games)
    sizes = n_hands * _HAND_LEN + 2
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    total = int(sizes.sum())
    hand_game = np.repeat(np.arange(games), n_hands)
    hand_no = np.arange(len(hand_game)) - np.repeat(np.cumsum(n_hands) - n_hands, n_hands)
    hand_rows = (starts[hand_game] + 1 + hand_no * _HAND_LEN)[:, None] + np.arange(_HAND_LEN)

    game_of_row = np.repeat(np.arange(games), sizes)
    type_code = np.full(total, _TYPE_CODE["game_end"], dtype=np.int8)
    type_code[starts] = _TYPE_CODE["game_start"]
    type_code[hand_rows] = _HAND
    round_ = np.zeros(total, dtype=np.int16)
    round_[hand_rows] = (hand_no + 1)[:, None]
    is_type = {name: type_code == code for name, code in _TYPE_CODE.items()}
    in_hand = ~(is_type["game_start"] | is_type["game_end"])

    nh = len(hand_game)
    deal = np.sort(np.argsort(rng.random((nh, 52)), axis=1).reshape(nh, 4, 13), axis=2)
    plays = np.argsort(rng.random((nh, 52)), axis=1)
    passes = np.sort(deal[:, :, rng.permutation(13)[:3]], axis=2)
    winners = rng.integers(0, 4, size=(nh, 13))
    leaders = np.concatenate((rng.integers(0, 4, size=(nh, 1)), winners[:, :-1]), axis=1)
    play_seat = (leaders[:, :, None] + np.arange(4)) % 4

    player = np.zeros(total, dtype=np.int8)
    hand_player = np.zeros((nh, _HAND_LEN), dtype=np.int8)
    hand_player[:, 0:4] = np.arange(4)
    hand_player[:, 4:8] = np.arange(4)
    trick_cols = 8 + np.arange(13)[:, None] * 5 + np.arange(5)
    hand_player[:, trick_cols[:, :4]] = play_seat
    hand_player[:, trick_cols[:, 4]] = winners
    hand_player[:, -4:] = np.arange(4)
    player[hand_rows] = hand_player
    trick = np.zeros(total, dtype=np.int16)
    hand_trick = np.zeros((nh, _HAND_LEN), dtype=np.int16)
    hand_trick[:, trick_cols] = (np.arange(13) + 1)[:, None]
    trick[hand_rows] = hand_trick

    direction = np.array([1, 3, 2, 0])[hand_no % 4]
    target = np.zeros(total, dtype=np.int8)
    target[hand_rows[:, 4:8]] = (np.arange(4) + direction[:, None]) % 4
    has_pass = np.repeat(direction != 0, 4)
    pass_rows = hand_rows[:, 4:8].reshape(-1)
    keep = np.ones(total, dtype=bool)
    keep[pass_rows[~has_pass]] = False

    card = np.zeros(total, dtype=np.int32)
    card[hand_rows[:, trick_cols[:, :4]].reshape(nh, 52)] = plays
    points = (plays >= 39).astype(np.int32) + 13 * (plays == CARD_CODES.index("QS"))
    trick_points = points.reshape(nh, 13, 4).sum(axis=2)
    amount = np.zeros(total, dtype=np.int32)
    amount[hand_rows[:, trick_cols[:, 4]]] = trick_points
    hand_scores = np.zeros((nh, 4), dtype=np.int32)
    np.add.at(
        hand_scores, (np.repeat(np.arange(nh), 13), winners.reshape(-1)), trick_points.ravel()
    )
    amount[hand_rows[:, -4:]] = hand_scores
    totals = np.zeros(total, dtype=np.int32)
    game_first_hand = np.cumsum(n_hands) - n_hands
    running = np.cumsum(hand_scores, axis=0)
    before_game = (running - hand_scores)[game_first_hand]
    totals[hand_rows[:, -4:]] = running - before_game[hand_game]

    list_values = np.concatenate(
        (deal.reshape(nh, 52), passes.reshape(nh, 12), plays), axis=1
    ).reshape(-1)
    list_len = np.zeros(total, dtype=np.int32)
    list_len[hand_rows[:, 0:4]] = 13
    list_len[hand_rows[:, 4:8]] = 3
    list_len[hand_rows[:, trick_cols[:, 4]]] = 4

    ends = starts + sizes - 1
    final = totals[hand_rows[np.cumsum(n_hands) - 1][:, -4:]]
    winner = np.argmin(final, axis=1).astype(np.int32)
    base_ms = 1_700_000_000_000 + np.arange(games, dtype=np.int64) * 600_000
    ts = np.zeros(total, dtype=np.int64)
    ts[starts] = base_ms
    ts[ends] = base_ms + 60_000 * n_hands

    ids = [f"hearts-s{seed}-{g:07d}" for g in range(games)]
    setup = json.dumps({"players": 4, "names": ["p0", "p1", "p2", "p3"], "bots": [True] * 4})
    is_list = list_len > 0
    offsets = np.concatenate(([0], np.cumsum(list_len))).astype(np.int32)
    values_offsets = np.concatenate(([0], np.cumsum(is_type["game_end"]))).astype(np.int32)
    list_cls: Any = pa.ListArray
    columns = {
        "game_id": _dict_strings(game_of_row, ids, None),
        "seq": pa.array(_seq_after_filter(game_of_row, keep)),
        "kind": _dict_strings(np.zeros(total), ["hearts"], None),
        "type": _dict_strings(type_code, TYPE_NAMES, None),
        "round": pa.array(round_, mask=~in_hand),
        "trick": pa.array(trick, mask=trick == 0),
        "player": pa.array(player, mask=~in_hand),
        "target": pa.array(target, mask=~is_type["pass"]),
        "card": _dict_strings(card, CARD_CODES, ~is_type["play"]),
        "cards": list_cls.from_arrays(
            pa.array(offsets), _dict_strings(list_values, CARD_CODES, None), mask=pa.array(~is_list)
        ),
        "suit": pa.nulls(total, pa.string()),
        "amount": pa.array(amount, mask=~(is_type["trick_won"] | is_type["round_scored"])),
        "total": pa.array(totals, mask=~is_type["round_scored"]),
        "values": list_cls.from_arrays(
            pa.array(values_offsets),
            pa.array(winner),
            mask=pa.array(~is_type["game_end"]),
        ),
        "ts": pa.array(ts, mask=~(is_type["game_start"] | is_type["game_end"])).cast(
            pa.timestamp("ms", tz="UTC")
        ),
        "data": _dict_strings(np.zeros(total), [setup], ~is_type["game_start"]),
    }
    table = pa.Table.from_arrays([columns[n] for n in SCHEMA.names], schema=SCHEMA)
    return table.filter(pa.array(keep))


def _seq_after_filter(game_of_row: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """Sequence numbers 0..n-1 per game once the rows not kept are gone (full length)."""
    kept_games = game_of_row[keep]
    first = np.searchsorted(kept_games, kept_games, side="left")
    seq = np.zeros(len(game_of_row), dtype=np.int32)
    seq[keep] = np.arange(len(kept_games)) - first
    return seq
