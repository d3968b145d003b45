"""Gasha: draw Gasha cards, trade sets of them for Set Rewards, pair ticket halves for bonuses."""

from gachapress.games.gasha import checks
from gachapress.games.gasha.bots import GreedyBot
from gachapress.games.gasha.engine import GashaState, engine_options
from gachapress.games.gasha.faces import face_context
from gachapress.games.gasha.model import Gasha
from gachapress.games.gasha.rules import RULES
from gachapress.spec import EngineSpec, GameSpec

SPEC = GameSpec(
    model=Gasha,
    rules=RULES,
    engine=EngineSpec(state=GashaState, bots={"greedy": GreedyBot}, options=engine_options),
    checks={
        "setup-feasible": checks.setup_feasible,
        "kinds-and-colours": checks.kinds_and_colours,
        "reward-requirements": checks.reward_requirements,
        "rewards-completable": checks.rewards_completable,
        "reward-markers": checks.reward_markers,
        "reward-points": checks.reward_points,
        "tickets-for-tokens": checks.tickets_for_tokens,
        "bonus-tokens": checks.bonus_tokens,
        "token-choices": checks.token_choices,
    },
    face_context=face_context,
)
