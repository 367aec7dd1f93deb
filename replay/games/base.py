"""The names the game modules import, gathered from the modules that define them (every name
here is a re-export).

A game is one :class:`Game` class (:mod:`replay.games.game`: the rules protocol
:class:`Rules` of :mod:`replay.games.rules`, with :mod:`replay.games.simulation` and
:mod:`replay.games.presentation`), over a state of :mod:`replay.games.state`. The shared checks
are in :mod:`replay.games.checks`, the reading of a ``game_start`` in :mod:`replay.games.setups`,
the helpers written for the compiled build in :mod:`replay.games.native`, and the engine's walk
through a log in :mod:`replay.engine`.
"""

from __future__ import annotations

from replay.games.checks import card_in_turn as card_in_turn
from replay.games.checks import check_deal as check_deal
from replay.games.checks import check_hand_size as check_hand_size
from replay.games.checks import check_round as check_round
from replay.games.checks import check_trick as check_trick
from replay.games.checks import deal_fault as deal_fault
from replay.games.checks import dealt_cards as dealt_cards
from replay.games.checks import describe_payload as describe_payload
from replay.games.checks import first_undealt as first_undealt
from replay.games.checks import game_winners as game_winners
from replay.games.checks import given_cards as given_cards
from replay.games.checks import held_fault as held_fault
from replay.games.checks import known_cards as known_cards
from replay.games.checks import led_suit_best as led_suit_best
from replay.games.checks import numbered as numbered
from replay.games.checks import played_card as played_card
from replay.games.checks import round_fault as round_fault
from replay.games.checks import seat_hand_fault as seat_hand_fault
from replay.games.checks import undealt_seats as undealt_seats
from replay.games.game import Game as Game
from replay.games.native import all_recorded as all_recorded
from replay.games.native import highest_of as highest_of
from replay.games.native import lowest_of as lowest_of
from replay.games.native import replace_at as replace_at
from replay.games.native import same as same
from replay.games.presentation import Presentation as Presentation
from replay.games.presentation import due_words as due_words
from replay.games.presentation import hand_keys as hand_keys
from replay.games.presentation import seat_description as seat_description
from replay.games.presentation import trick_words as trick_words
from replay.games.presentation import view_start as view_start
from replay.games.presentation import winners_line as winners_line
from replay.games.rules import COMMON_EVENT_FIELDS as COMMON_EVENT_FIELDS
from replay.games.rules import COMMON_EVENT_TYPES as COMMON_EVENT_TYPES
from replay.games.rules import OVER as OVER
from replay.games.rules import Due as Due
from replay.games.rules import Phase as Phase
from replay.games.rules import Rules as Rules
from replay.games.rules import RuleViolation as RuleViolation
from replay.games.rules import event_table as event_table
from replay.games.setups import _SETUPS as _SETUPS
from replay.games.setups import SETUPS_KEPT as SETUPS_KEPT
from replay.games.setups import bot_flags as bot_flags
from replay.games.setups import check_players as check_players
from replay.games.setups import check_start as check_start
from replay.games.setups import parse_setup as parse_setup
from replay.games.setups import seat_list as seat_list
from replay.games.setups import seat_names as seat_names
from replay.games.setups import setup_of as setup_of
from replay.games.simulation import Bot as Bot
from replay.games.simulation import random_bot as random_bot
from replay.games.simulation import simulated_seats as simulated_seats
from replay.games.state import GameState as GameState
from replay.games.state import SeatHandsState as SeatHandsState
from replay.games.state import SeatTrickState as SeatTrickState
from replay.games.state import new_state as new_state
