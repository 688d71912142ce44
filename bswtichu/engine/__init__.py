"""The pure Tichu rules engine: no Twisted, no I/O, an injected random generator.

    >>> from random import Random
    >>> from bswtichu.engine import Round
    >>> rnd = Round.deal_random(Random(7))
    >>> rnd.phase
    'grand'
"""

from .actions import (
    Action, CallGrand, CallTichu, DeclineGrand, DogLead, Exchange, GiveDragon, MakeWish, Pass, Play,
    action_text,
)
from .cards import (
    DECK, Card, card, card_points, format_cards, parse_bsw_card, parse_card, parse_cards,
    parse_rank, rank_text, sort_cards,
)
from .combos import Combo, ComboType, bombs, classify, plays, readings
from .errors import AmbiguousError, CardsNotHeld, IllegalActionError, ParseError, TichuError
from .events import Event
from .game import (
    DUMMY, PARTNERSHIPS, TOURNAMENT_SCHEDULE, Game, GameOptions, Standing, seats_from_join_order,
    tournament_victory_points,
)
from .notation import parse_exchange, parse_play, parse_wish, suggested_exchange
from .round import EXCHANGE, GRAND, OVER, PLAY, Round, RoundResult, RoundView, partner_of, team_of
from .selection import SelectionCheck, Suggestions, check_selection, combo_name, suggestions
from .variant import DUO, NANJING, TIENTSIN, TRICHU, VARIANTS, Variant, variant_named

__all__ = [
    "Action", "CallGrand", "CallTichu", "DeclineGrand", "DogLead", "Exchange", "GiveDragon", "MakeWish",
    "Pass", "Play", "action_text", "DECK", "Card", "card", "card_points", "format_cards",
    "parse_bsw_card", "parse_card", "parse_cards", "parse_rank", "rank_text", "sort_cards",
    "Combo", "ComboType", "bombs", "classify", "plays", "readings", "AmbiguousError",
    "CardsNotHeld", "IllegalActionError", "ParseError", "TichuError", "Event", "DUMMY", "PARTNERSHIPS",
    "TOURNAMENT_SCHEDULE", "Game", "GameOptions", "Standing", "seats_from_join_order",
    "tournament_victory_points", "parse_exchange", "parse_play", "parse_wish", "suggested_exchange", "EXCHANGE", "GRAND", "OVER", "PLAY",
    "Round", "RoundResult", "RoundView", "partner_of", "team_of",
    "SelectionCheck", "Suggestions", "check_selection", "combo_name", "suggestions",
    "DUO", "NANJING", "TIENTSIN", "TRICHU", "VARIANTS", "Variant", "variant_named",
]
