"""The table of one replay step as HTML: seats around a felt, the cards in front of each seat,
the hands below, from a state view alone (``docs/state.md``).

Only the view's common keys and the shapes of its ``game`` data are read, never a game's
name: a per-seat list of cards (Hearts' passes, Hiifuu's discards) shows beside each hand,
``tokens`` shows as chips in the middle or at their holder, ``fools`` and ``sitting_out`` as
discs on seats, ``dealer`` and ``leader`` as badges, ``stock_size``, ``pending_skip`` and
``pending_draw`` in the middle (in a strip below the felt while a trick's cards lie there);
every other key is listed by the title its game's view schema gives it, seats by name.

>>> view = {"kind": "hearts", "players": 2, "names": ["ann", "bob"], "seat_view": 0,
...         "hands": [["QS"], None], "hand_sizes": [1, 1], "table": [{"seat": 1, "card": "2H"}],
...         "totals": [3, 0], "turn": [0], "game": {"leader": 1}}
>>> html = board_html(view)
>>> "ann" in html and "two of hearts" in html and "to play" in html
True
>>> hands = hands_html(view)
>>> 'alt="queen of spades"' in hands and 'alt="face down"' in hands
True
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from html import escape
from typing import Any

from replay.model import specs
from replay.model.faces import card_face
from replay.render.svg import card_img, cards_html
from replay.render.terminal import format_value

#: Keys of ``game`` drawn on the board itself (the rest are listed as facts).
ON_BOARD = frozenset(
    {"tokens", "fools", "sitting_out", "dealer", "leader", "stock_size", "pending_skip",
     "pending_draw", "next_token", "discard_size"}
)  # fmt: skip
TABLE_CARD = 54
HAND_CARD = 46
#: The colours of a card on the table by its loss with all cards visible (as the BBO hand
#: viewer colours a card by the tricks it threw away): (colour, largest loss, words).
LOSS_BANDS: tuple[tuple[str, float, str], ...] = (
    ("#2e7d32", 0, "best with all cards visible (loss 0)"),
    ("#f9a825", 3, "loss 1 to 3 points"),
    ("#c62828", math.inf, "loss 4 points or more"),
)


def _seat_spot(seat: int, players: int, radius: float) -> tuple[float, float]:
    """Where a seat sits on the felt, in percent: seat 0 at the bottom, then clockwise."""
    angle = 2 * math.pi * seat / max(players, 1)
    return 50 - 40 * radius * math.sin(angle), 50 + 40 * radius * math.cos(angle)


def _names(view: Mapping[str, Any]) -> list[str]:
    names = [str(n) for n in view.get("names") or []]
    return names + [f"seat {i}" for i in range(len(names), int(view.get("players") or 0))]


def _is_cards(kind: str, value: Any) -> bool:
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(c, str) and card_face(kind, c).known for c in value)
    )


def seat_badges(view: Mapping[str, Any], seat: int) -> list[str]:
    """The badges of one seat: turn, dealer, leader, Fool disc, sitting out, tokens held."""
    game = view.get("game") or {}
    badges = []
    if seat in (view.get("turn") or []):
        badges.append('<span class="b turn">▶ to play</span>')
    if game.get("dealer") == seat:
        badges.append('<span class="b">dealer</span>')
    if game.get("leader") == seat and view.get("table"):
        badges.append('<span class="b">led</span>')
    if seat in (game.get("fools") or []):
        badges.append('<span class="b fool" title="holds the Fool disc">● Fool</span>')
    if seat in (game.get("sitting_out") or []):
        badges.append('<span class="b">sits out</span>')
    for token in game.get("tokens") or []:
        if isinstance(token, Mapping) and token.get("holder") == seat:
            badges.append(_token(token))
    return badges


def _token(token: Mapping[str, Any]) -> str:
    covered = bool(token.get("covered"))
    tip = "token (covered)" if covered else "token"
    style = "token covered" if covered else "token"
    return f'<span class="{style}" title="{tip}">{escape(str(token.get("value")))}</span>'


def board_html(view: Mapping[str, Any], losses: Mapping[int, int] | None = None) -> str:
    """The felt: each seat's plate (name, total, badges) with its card of the trick in front;
    a game without tricks (``trick`` null) has its table cards in the middle, exposed.
    ``losses``: a seat's card of the trick framed by its loss with all cards visible
    (:data:`LOSS_BANDS`), for the seats given."""
    kind = str(view.get("kind", ""))
    players = int(view.get("players") or 0)
    names = _names(view)
    totals = list(view.get("totals") or [])
    parts = [_STYLE, '<div class="felt">']
    for seat in range(players):
        x, y = _seat_spot(seat, players, 1.0)
        total = totals[seat] if seat < len(totals) else "-"
        you = " (you)" if view.get("seat_view") == seat else ""
        parts.append(
            f'<div class="plate" style="left:clamp(48px,{x:.1f}%,calc(100% - 48px));'
            f'top:{y:.1f}%">'
            f'<div class="name">{escape(names[seat])}{you}</div>'
            f'<div class="meta">seat {seat} · total <b>{escape(str(total))}</b></div>'
            f"<div>{''.join(seat_badges(view, seat))}</div></div>"
        )
    centre: list[str] = []
    for entry in view.get("table") or []:
        seat = entry.get("seat")
        card = card_img(kind, str(entry.get("card")), width=TABLE_CARD)
        if view.get("trick") is not None and isinstance(seat, int) and 0 <= seat < players:
            x, y = _seat_spot(seat, players, 0.52)
            frame = _loss_frame((losses or {}).get(seat))
            parts.append(f'<div class="played" style="left:{x:.1f}%;top:{y:.1f}%{frame}">'
                         f"{card}</div>")  # fmt: skip
        else:
            by = f" by {escape(names[seat])}" if isinstance(seat, int) and seat < players else ""
            centre.append(f'<div class="pile">{card}<div>exposed{by}</div></div>')
    middle = _middle(view)
    if view.get("trick") is None:  # no trick in front of the seats: the middle is free
        parts.append(f'<div class="centre">{"".join([*centre, *middle])}</div></div>')
    else:  # the trick's cards fill the middle: the rest lies in a strip below the felt
        parts.append(f'<div class="centre">{"".join(centre)}</div></div>')
        parts.append(f'<div class="strip">{"".join(middle)}</div>' if middle else "")
    return "".join(parts)


def _loss_frame(loss: int | None) -> str:
    """The end of a played card's style framing it by its loss, and its tooltip."""
    if loss is None:
        return ""
    colour = next(colour for colour, upper, _ in LOSS_BANDS if loss <= upper)
    return (f';outline:4px solid {colour};line-height:0" '
            f'title="loss with all cards visible: {loss}')  # fmt: skip


def loss_legend_html() -> str:
    """What the frames of the trick's cards mean (:data:`LOSS_BANDS`)."""
    keys = "".join(
        f'<span class="key"><span class="swatch" style="background:{colour}"></span>'
        f"{escape(words)}</span>"
        for colour, _, words in LOSS_BANDS
    )
    return f'{_STYLE}<div class="legend">{keys}; no frame: not solved (too many cards)</div>'


def _middle(view: Mapping[str, Any]) -> list[str]:
    """What lies in the middle: the stock, pending skips and draws, tokens not yet taken."""
    kind = str(view.get("kind", ""))
    game = view.get("game") or {}
    out = []
    if game.get("stock_size") is not None:
        back = card_img(kind, "", face_down=True, width=TABLE_CARD, title="stock")
        out.append(f'<div class="pile">{back}<div>stock {int(game["stock_size"])}</div></div>')
    if game.get("discard_size"):
        title = _property(kind, "discard_size").get("title") or "discard pile"
        out.append(f'<div class="note">{escape(str(title).lower())} '
                   f'{escape(str(game["discard_size"]))}</div>')  # fmt: skip
    if game.get("pending_skip"):
        out.append('<div class="note alert">skip pending</div>')
    if game.get("pending_draw"):
        out.append(
            f'<div class="note alert">draw {escape(str(game["pending_draw"]))} pending</div>'
        )
    free = [
        t for t in game.get("tokens") or [] if isinstance(t, Mapping) and t.get("holder") is None
    ]
    if free:
        out.append(f'<div class="note">tokens {"".join(_token(t) for t in free)}</div>')
    return out


def hands_html(view: Mapping[str, Any]) -> str:
    """One row per seat: name, hand (face down when hidden) and its per-seat cards."""
    kind = str(view.get("kind", ""))
    names = _names(view)
    hands = list(view.get("hands") or [])
    sizes = list(view.get("hand_sizes") or [])
    game = view.get("game") or {}
    players = int(view.get("players") or 0)
    per_seat = {
        k: v for k, v in game.items() if isinstance(v, list) and len(v) == players and players
    }
    rows = [_STYLE, '<table class="hands">']
    for seat in range(players):
        hand = hands[seat] if seat < len(hands) else None
        size = int(sizes[seat]) if seat < len(sizes) else 0
        shown: Sequence[str | None] = list(hand) if hand is not None else [None] * size
        overlap = 0.45 if len(shown) > 10 else 0.2 if len(shown) > 6 else 0.0
        cards = cards_html(
            kind, shown, width=HAND_CARD, overlap=overlap, empty="no cards", img=True
        )
        extra = []
        for key, values in per_seat.items():
            value = values[seat]
            if _is_cards(kind, value):
                title = _property(kind, key).get("title") or key
                extra.append(f'<div class="extra">{escape(str(title))}: '
                             f"{cards_html(kind, value, width=30, img=True)}</div>")  # fmt: skip
        rows.append(
            f'<tr><td class="who">{escape(names[seat])}<br><span class="meta">seat {seat} · '
            f"{size} cards</span></td><td>{cards}{''.join(extra)}</td></tr>"
        )
    rows.append("</table>")
    return "".join(rows)


def game_facts(view: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The game data not drawn on the board and not one value per seat, in words: each key by
    the title its game's view schema gives it (``hearts_broken``: Hearts broken), seats by name,
    yes/no for flags, ``none`` for an empty list."""
    names = _names(view)
    return [
        (title, _in_words(str(view.get("kind", "")), value, schema, names))
        for title, schema, value, per_seat in _data(view)
        if not per_seat
    ]


def seat_facts(view: Mapping[str, Any]) -> dict[str, list[str]]:
    """The game data of one value per seat (``points_this_hand``, ``stakes``...) by title, in
    words, in seat order."""
    kind = str(view.get("kind", ""))
    return {
        title: [_plain(kind, v) for v in value]
        for title, _, value, per_seat in _data(view)
        if per_seat
    }


def _data(view: Mapping[str, Any]) -> Iterator[tuple[str, Mapping[str, Any], Any, bool]]:
    """(title, schema, value, one value per seat) of each key of the view's game data that
    the board does not draw (per-seat cards show beside the hands)."""
    kind = str(view.get("kind", ""))
    players = int(view.get("players") or 0)
    for key, value in (view.get("game") or {}).items():
        if key in ON_BOARD:
            continue
        per_seat = isinstance(value, list) and len(value) == players and players > 0
        if per_seat and all(v is None or v == [] or _is_cards(kind, v) for v in value):
            continue
        schema = _property(kind, key)
        title = str(schema.get("title") or key.replace("_", " ").capitalize())
        yield title, schema, value, per_seat and not str(schema.get("$ref", "")).endswith("/seats")


def _property(kind: str, key: str) -> Mapping[str, Any]:
    """The schema of one key of a game's ``game`` data (empty when the game declares none)."""
    spec = specs.spec(kind)
    properties = (spec.view_schema.get("properties") or {}) if spec is not None else {}
    found = properties.get(key)
    return found if isinstance(found, Mapping) else {}


def _in_words(kind: str, value: Any, schema: Mapping[str, Any], names: Sequence[str]) -> str:
    ref = str(schema.get("$ref", ""))
    if ref.endswith("/seat") or schema.get("x-seat"):
        return _seat_name(value, names)
    if isinstance(value, list) and ref.endswith("/seats"):
        return ", ".join(_seat_name(s, names) for s in value) or "none"
    if isinstance(value, list) and value and len(value) == len(names):
        return " · ".join(f"{n} {_plain(kind, v)}" for n, v in zip(names, value, strict=True))
    return _plain(kind, value)


def _seat_name(seat: Any, names: Sequence[str]) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return "none"


def _plain(kind: str, value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None or value == []:
        return "none" if value == [] else "-"
    return format_value(kind, value).plain


def result_words(result: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    """A finished game's result (``Rules.result``: winners, places, payouts, totals, the keys
    the game has) in words, seats by name.

    >>> result_words({"winners": [1], "places": [1, 0], "payouts": [0, 250]}, ["ann", "bob"])
    ['**Won by** bob', '**Places**: 1. bob · 2. ann', '**Payouts**: ann 0 · bob 250']
    """
    lines = []
    winners = [_seat_name(s, names) for s in result.get("winners") or []]
    if winners:
        lines.append(f"**Won by** {', '.join(winners)}")
    places = result.get("places") or []
    if places:
        lines.append("**Places**: " + " · ".join(
            f"{i}. {_seat_name(s, names)}" for i, s in enumerate(places, 1)))  # fmt: skip
    for key, title in (("payouts", "Payouts"), ("totals", "Final scores")):
        values = result.get(key)
        if key == "totals" and "payouts" in result:
            continue  # the net of the payouts and stakes
        if values and len(values) == len(names):
            paid = " · ".join(f"{n} {v:,}" for n, v in zip(names, values, strict=True))
            lines.append(f"**{title}**: {paid if any(values) or key == 'totals' else 'none'}")
    return lines


_STYLE = """<style>
.felt{position:relative;height:380px;border-radius:190px;background:radial-gradient(#2f8a4a,#1d5e31);
 border:10px solid #6d4c2f;margin:4px 0 8px 0;font-family:sans-serif}
.plate{position:absolute;transform:translate(-50%,-50%);background:#fffdf5;border-radius:8px;
 padding:4px 8px;min-width:110px;text-align:center;box-shadow:0 1px 3px #0006;font-size:13px}
.plate .name{font-weight:bold;font-size:14px;color:#222}
.meta{color:#555;font-size:12px}
.played{position:absolute;transform:translate(-50%,-50%)}
.legend{font-family:sans-serif;font-size:12px;color:#333;margin:2px 0 6px 0}
.legend .key{margin-right:10px;white-space:nowrap}
.legend .swatch{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:4px}
.centre{position:absolute;left:50%;top:50%;transform:translate(-50%,-50%);display:flex;gap:10px;
 align-items:center;color:#fff;font-size:13px;text-align:center}
.pile{display:flex;flex-direction:column;align-items:center}
.note{background:#0005;border-radius:6px;padding:2px 6px}
.alert{background:#b71c1c}
.b{display:inline-block;background:#e0e0e0;border-radius:8px;padding:0 6px;margin:1px;
 font-size:11px;color:#222}
.b.turn{background:#ffca28}
.b.fool{background:#6a1b9a;color:#fff}
.token{display:inline-block;background:#ffd54f;border:2px solid #8d6e00;border-radius:50%;
 width:22px;height:22px;line-height:22px;text-align:center;font-weight:bold;margin:1px;color:#222;font-size:12px}
.token.covered{background:#bdbdbd;border-color:#616161;text-decoration:line-through}
.strip{display:flex;gap:10px;justify-content:center;align-items:center;margin:0 0 8px 0;
 font-family:sans-serif;font-size:13px;color:#fff}
.strip .note{background:#1d5e31}
@media (max-width:640px){.plate{min-width:0;max-width:96px;padding:2px 4px;font-size:11px;
 overflow-wrap:anywhere}
 .plate .name{font-size:12px}.meta{font-size:11px}.felt{height:340px}}
table.hands{border-collapse:collapse;width:100%}
table.hands td{padding:4px 6px;border-bottom:1px solid #ddd;vertical-align:middle}
td.who{width:120px;font-weight:bold}
.extra{font-size:12px;color:#555;display:flex;gap:6px;align-items:center;margin-top:2px}
</style>"""
