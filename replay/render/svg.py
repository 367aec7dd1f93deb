"""Cards as inline SVG: self-contained markup (no external URL, no font download).

Each card is a rounded white card with its rank label in two corners and its suit mark drawn
as a shape in the middle, in the suit's colour (:mod:`replay.model.faces`): hearts, diamonds, clubs
and spades; the Spanish coins, cups, swords and batons; the colours of Hiifuu (diamonds) and
Fou! (discs, on a tinted card); Fou!'s jokers (a star). Text uses the system's sans-serif font.
A card face down is a patterned back; a code the game does not know is shown as its text on a
grey card. Everything taken from a log is escaped.

>>> svg = card_svg("hearts", "QS")
>>> svg.startswith("<svg") and "Q" in svg and "queen of spades" in svg
True
>>> "<script>" in card_svg("hearts", "<script>")
False
>>> "face down" in card_svg("hez2", "7O", face_down=True) and "7O" not in card_svg(
...     "hez2", "7O", face_down=True)
True
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from functools import lru_cache
from html import escape
from typing import Final

from replay.model.faces import Face, card_face

#: Height / width of a card (the poker ratio, 63 x 88 mm).
RATIO: Final = 1.4
#: The font stack: what the system has, never a download.
FONT: Final = "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif"
BACK: Final = "#1a3d7c"

# Suit marks in a 100 x 100 box, drawn as paths (a font may lack the Spanish suits).
_SHAPES: Final[dict[str, str]] = {
    "heart": '<path d="M50 88 C20 64 6 48 6 30 C6 15 18 6 30 6 C40 6 47 12 50 20 '
    'C53 12 60 6 70 6 C82 6 94 15 94 30 C94 48 80 64 50 88 Z"/>',
    "diamond": '<path d="M50 4 L86 50 L50 96 L14 50 Z"/>',
    "spade": '<path d="M50 6 C70 30 92 44 92 62 C92 76 80 84 68 84 C60 84 55 80 52 76 '
    'L58 96 L42 96 L48 76 C45 80 40 84 32 84 C20 84 8 76 8 62 C8 44 30 30 50 6 Z"/>',
    "club": '<circle cx="50" cy="28" r="20"/><circle cx="28" cy="60" r="20"/>'
    '<circle cx="72" cy="60" r="20"/><path d="M45 55 L55 55 L60 96 L40 96 Z"/>',
    "coin": '<circle cx="50" cy="50" r="42"/><circle cx="50" cy="50" r="30" fill="#fff3c4"/>'
    '<circle cx="50" cy="50" r="16"/>',
    "cup": '<path d="M18 10 L82 10 C82 40 70 56 56 60 L56 80 L72 92 L28 92 L44 80 L44 60 '
    'C30 56 18 40 18 10 Z"/>',
    "sword": '<path d="M50 2 L60 14 L60 64 L40 64 L40 14 Z"/>'
    '<path d="M18 62 L82 62 L82 72 L18 72 Z"/><path d="M44 72 L56 72 L56 88 L44 88 Z"/>'
    '<circle cx="50" cy="92" r="7"/>',
    "baton": '<path d="M34 8 C50 0 68 4 66 20 L60 92 C60 98 40 98 40 92 L34 20 Z"/>'
    '<circle cx="30" cy="36" r="8"/><circle cx="70" cy="52" r="8"/>'
    '<circle cx="30" cy="70" r="8"/>',
    "disc": '<circle cx="50" cy="50" r="44"/>',
    "star": '<path d="M50 4 L61 37 L96 37 L68 58 L78 92 L50 72 L22 92 L32 58 L4 37 L39 37 Z"/>',
}


@lru_cache(maxsize=4096)  # a page draws the same cards again and again; bounded for odd codes
def card_svg(
    kind: str, code: str, *, face_down: bool = False, width: int = 60, title: str | None = None
) -> str:
    """One card as an ``<svg>`` element ``width`` pixels wide (``face_down``: its back).

    ``title`` is the tooltip (default: the card's name; for a card face down: ``face down``).
    """
    height = round(width * RATIO)
    if face_down:
        body = _back()
        tip = title or "face down"
        label = "card face down"
    else:
        face = card_face(kind, code)
        body = _front(face) if face.known else _unknown(face)
        tip = title or face.name
        label = f"card {face.name}"
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 100 140" role="img" aria-label="{escape(label)}" '
        f'font-family="{FONT}"><title>{escape(tip)}</title>{body}</svg>'
    )


@lru_cache(maxsize=4096)
def card_img(
    kind: str, code: str, *, face_down: bool = False, width: int = 60, title: str | None = None
) -> str:
    """The same card as an ``<img>`` with the SVG in a ``data:`` URI, for pages whose HTML
    sanitizer drops inline SVG (Streamlit's ``st.html``); ``alt`` and ``title`` name the card."""
    svg = card_svg(kind, code, face_down=face_down, width=width, title=title)
    data = base64.b64encode(svg.encode()).decode("ascii")
    name = title or ("face down" if face_down else card_face(kind, code).name)
    return (
        f'<img src="data:image/svg+xml;base64,{data}" width="{width}" '
        f'height="{round(width * RATIO)}" alt="{escape(name)}" title="{escape(name)}">'
    )


def cards_html(
    kind: str,
    codes: Sequence[str | None],
    *,
    width: int = 60,
    overlap: float = 0.0,
    empty: str = "",
    img: bool = False,
) -> str:
    """Cards side by side in one ``<div>`` (``None``: a card face down); ``overlap``, a share
    of the width, fans them; ``empty`` is the text shown when there are no cards; ``img``:
    each card as :func:`card_img`."""
    if not codes:
        return f'<div class="cards empty">{escape(empty)}</div>'
    shift = -round(width * overlap)
    parts = []
    for i, code in enumerate(codes):
        margin = f"margin-left:{shift}px;" if i and shift else ""
        draw = card_img if img else card_svg
        svg = draw(kind, code or "", face_down=code is None, width=width)
        parts.append(f'<span style="display:inline-block;{margin}">{svg}</span>')
    return (
        '<div class="cards" style="display:flex;flex-wrap:wrap;gap:'
        f'{0 if shift else 4}px;align-items:flex-end">{"".join(parts)}</div>'
    )


def _frame(fill: str, stroke: str) -> str:
    return (
        f'<rect x="2" y="2" width="96" height="136" rx="9" ry="9" fill="{fill}" '
        f'stroke="{stroke}" stroke-width="2.5"/>'
    )


def _front(face: Face) -> str:
    assert face.suit is not None
    colour = face.css
    shape = _SHAPES.get(face.suit.shape, _SHAPES["disc"])
    tinted = face.suit.shape in ("disc", "star")  # colour cards: the card takes the colour
    fill = "#ffffff" if not tinted else _tint(colour)
    size = 30 if len(face.rank) < 2 else 24
    corner = (
        f'<text x="9" y="{8 + size}" font-size="{size}" font-weight="bold" '
        f'fill="{colour}">{escape(face.rank)}</text>'
    )
    turned = (
        f'<g transform="rotate(180 50 70)"><text x="9" y="{8 + size}" font-size="{size}" '
        f'font-weight="bold" fill="{colour}">{escape(face.rank)}</text></g>'
    )
    mark = f'<g transform="translate(20 40) scale(0.6)" fill="{colour}">{shape}</g>'
    centre = ""
    if face.suit.shape == "disc":  # the value is the card: write it big on the disc
        centre = (
            f'<text x="50" y="82" font-size="{34 if len(face.rank) < 2 else 28}" '
            f'font-weight="bold" fill="#ffffff" text-anchor="middle">{escape(face.rank)}</text>'
        )
    return _frame(fill, "#455a64") + corner + turned + mark + centre


def _unknown(face: Face) -> str:
    text = face.code if len(face.code) <= 6 else face.code[:5] + "…"
    return _frame("#eceff1", "#90a4ae") + (
        f'<text x="50" y="78" font-size="22" fill="#37474f" text-anchor="middle">'
        f"{escape(text)}</text>"
    )


def _back() -> str:
    lines = "".join(
        f'<path d="M{x} 10 L{x + 60} 130 M{x + 60} 10 L{x} 130" stroke="#5c7cc4" stroke-width="3"/>'
        for x in range(-40, 100, 20)
    )
    return (
        _frame(BACK, "#0d1f40")
        + '<clipPath id="card-back-clip"><rect x="10" y="10" width="80" height="120" rx="5"/>'
        + f'</clipPath><g clip-path="url(#card-back-clip)">{lines}</g>'
        + '<rect x="10" y="10" width="80" height="120" rx="5" fill="none" stroke="#ffffff" '
        'stroke-width="2"/>'
    )


def _tint(css: str) -> str:
    """A light tint of a ``#rrggbb`` colour (the background of a colour card)."""
    red, green, blue = (int(css[i : i + 2], 16) for i in (1, 3, 5))
    return "#{:02x}{:02x}{:02x}".format(*(c + (255 - c) * 3 // 4 for c in (red, green, blue)))
