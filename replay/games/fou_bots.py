"""The heuristic Fou! bot: shed high cards, avoid the worst card, keep 1s for discard tricks.

>>> from replay.engine.simulate import simulate_game
>>> from replay.games.fou import RULES
>>> events = simulate_game(RULES, "doc", players=4, seed=5, bots=("heuristic",), check=True)
>>> events[-1].type
'game_end'
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from replay.games.base import Bot, first_undealt, random_bot
from replay.games.fou import (
    COLOUR,
    COLOUR_MASK,
    DEALER,
    DECK,
    DECK_STAGE,
    ONE,
    VALUE,
    Fou,
    FouState,
    default_deck,
    fools_per_trick,
    legal_mask,
)
from replay.model.cards import bits, lowest
from replay.model.events import Event


def bots(rules: Fou) -> Mapping[str, Bot]:
    """Fou!'s bots by name (:meth:`~replay.games.game.Game.bots`)."""

    def heuristic(state: FouState, seat: int, rng: random.Random) -> Event:
        return rules.play_event(state, seat, heuristic_play(state, seat))

    return {"random": random_bot(rules), "heuristic": heuristic}


def highest_value(mask: int) -> int:
    """The card of a non-empty bit set with the highest value (first colour on a tie)."""
    return max(bits(mask), key=VALUE.__getitem__)


def discards_below(state: FouState, value: int) -> int:
    """How many discards already on the table are worse than a discard of ``value``."""
    led = state.led
    return sum(1 for c in state.table if COLOUR[c] != ONE and COLOUR[c] != led and VALUE[c] < value)


def heuristic_play(state: FouState, seat: int) -> int:
    """The card (index) the heuristic bot plays now.

    - leading, or only 1s on the table: the highest card (it sets the colour and sheds points);
    - holding the led colour: its highest card (sheds points, rarely the lowest), keeping 1s;
    - void: discard the highest card if enough lower discards are already on the table to make
      others the Fool, else play a 1 when holding one (a 1 is never a discard).
    """
    legal = legal_mask(state.hands[seat], state.led)
    plain = legal & ~COLOUR_MASK[ONE]
    ones = legal & COLOUR_MASK[ONE]
    if not plain:
        return lowest(ones)
    if not state.table or state.led < 0:
        return highest_value(plain)
    suited = plain & COLOUR_MASK[state.led]
    if suited:
        return highest_value(suited)
    discard = highest_value(plain)
    if ones and discards_below(state, VALUE[discard]) < fools_per_trick(state.n):
        return lowest(ones)
    return discard


def sample_chance(rules: Fou, state: FouState, rng: random.Random) -> Event:
    """The deck in play (the [default] one), the first dealer, or a deal, drawn with ``rng``."""
    if state.stage == DECK_STAGE:
        return rules.new_event(state, "deck", cards=default_deck(state.n))
    if state.stage == DEALER:
        return rules.new_event(state, "dealer", player=rng.randrange(state.n))
    remaining = list(bits(state.undealt()))
    hand = sorted(rng.sample(remaining, state.hand_size))
    return rules.new_event(
        state, "deal", round=state.round, player=first_undealt(state.dealt_seats),
        cards=DECK.codes_of(tuple(hand)),
    )  # fmt: skip
