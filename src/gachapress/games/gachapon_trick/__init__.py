"""Gachapon Trick: trick-taking over a Latin square of toys, buying the tricks with yen."""

from gachapress.games.gachapon_trick import checks
from gachapress.games.gachapon_trick.bots import GreedyBot
from gachapress.games.gachapon_trick.engine import GachaponState
from gachapress.games.gachapon_trick.faces import face_context
from gachapress.games.gachapon_trick.model import GachaponTrick
from gachapress.games.gachapon_trick.rules import RULES
from gachapress.spec import EngineSpec, GameSpec

SPEC = GameSpec(
    model=GachaponTrick,
    rules=RULES,
    references=checks.square_references,
    engine=EngineSpec(state=GachaponState, bots={"greedy": GreedyBot}),
    face_context=face_context,
    checks={
        "scoring-table": checks.scoring_table,
        "setup-feasible": checks.setup_feasible,
    },
)
