"""The engine core every game is built on: actions, states, games, bots, replay and play."""

from gachapress.engine.core import Action, Game, IllegalAction, State, load_game
from gachapress.engine.replay import ReplayError, replay

__all__ = ["Action", "Game", "IllegalAction", "ReplayError", "State", "load_game", "replay"]
