"""Packed tricks (``replay.model.packed``): every value read back as written, at every width and
length a trick can take (compiled, in C int64 arithmetic: the shifts past bit 31 included)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from replay.model.packed import CARD_BITS, SEAT_BITS, holds, nth, pack, placed, unpack


@st.composite
def sequences(draw: st.DrawFn) -> tuple[int, list[int]]:
    """A width and as many values of that width as fit in 63 bits."""
    width = draw(st.sampled_from([CARD_BITS, SEAT_BITS, 1]))
    values = draw(st.lists(st.integers(0, (1 << width) - 1), max_size=63 // width))
    return width, values


@given(sequences())
def test_packed_values_read_back_as_written(sequence: tuple[int, list[int]]) -> None:
    width, values = sequence
    packed = pack(values, width)
    assert unpack(packed, len(values), width) == values
    assert [nth(packed, position, width) for position in range(len(values))] == values
    assert packed >= 0
    appended = 0
    for position, value in enumerate(values):
        appended |= placed(value, position, width)
    assert appended == packed


@given(sequences(), st.integers(0, 127))
def test_holds_is_membership_among_the_first_values(
    sequence: tuple[int, list[int]], value: int
) -> None:
    width, values = sequence
    packed = pack(values, width)
    for count in range(len(values) + 1):
        assert holds(packed, count, width, value) == (value in values[:count])


def test_a_full_trick_of_eight_cards_uses_bits_past_31() -> None:
    cards = [87, 0, 127, 64, 1, 100, 33, 86]
    packed = pack(cards, CARD_BITS)
    assert packed >> 49 == 86
    assert unpack(packed, 8, CARD_BITS) == cards
