"""GotchaCards: rock-scissors-paper with drafted hands, lanes and item cards; two modes."""

from gachapress.games.gotchacards import checks
from gachapress.games.gotchacards.bots import GreedyBot
from gachapress.games.gotchacards.engine import engine_options, new_state
from gachapress.games.gotchacards.model import GotchaCards
from gachapress.games.gotchacards.rules import RULES
from gachapress.spec import EngineSpec, GameSpec

SPEC = GameSpec(
    model=GotchaCards,
    rules=RULES,
    engine=EngineSpec(state=new_state, bots={"greedy": GreedyBot}, options=engine_options),
    checks={
        "beats-cycle": checks.beats_cycle,
        "effects-fit-types": checks.effects_fit_types,
        "type-balance": checks.type_balance,
        "turn-structure": checks.turn_structure,
        "draft-feasible": checks.draft_feasible,
        "setup-feasible": checks.setup_feasible,
        "party-ends": checks.party_ends,
    },
)
