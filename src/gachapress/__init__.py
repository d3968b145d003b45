"""gachapress: card games specified once as YAML, published as engine, cards and rulebooks."""

from gachapress.data.load import GameData, load_rules
from gachapress.engine import Action, Game, IllegalAction, ReplayError, State, load_game, replay
from gachapress.errors import GachapressError, Problem, RulesError

__all__ = [
    "Action",
    "GachapressError",
    "Game",
    "GameData",
    "IllegalAction",
    "Problem",
    "ReplayError",
    "RulesError",
    "State",
    "load_game",
    "load_rules",
    "replay",
]
