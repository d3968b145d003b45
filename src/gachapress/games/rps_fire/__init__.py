"""Rock, Paper, Scissors, Fire: a shedding game of rock, paper, scissors values and fire alarms."""

from gachapress.games.rps_fire import checks
from gachapress.games.rps_fire.bots import GreedyBot
from gachapress.games.rps_fire.engine import RpsFireState
from gachapress.games.rps_fire.model import RpsFire
from gachapress.games.rps_fire.rules import RULES
from gachapress.spec import EngineSpec, GameSpec

SPEC = GameSpec(
    model=RpsFire,
    rules=RULES,
    engine=EngineSpec(state=RpsFireState, bots={"greedy": GreedyBot}),
    checks={
        "setup-feasible": checks.setup_feasible,
        "type-cycle": checks.type_cycle,
        "card-values": checks.card_values,
        "alarm-scoring": checks.alarm_scoring,
    },
)
