"""gachapress: card games specified once as YAML, published as engine, cards and rulebooks."""

from gachapress.data.load import GameData, load_rules
from gachapress.errors import GachapressError, Problem, RulesError

__all__ = ["GachapressError", "GameData", "Problem", "RulesError", "load_rules"]
