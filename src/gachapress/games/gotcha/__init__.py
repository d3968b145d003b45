"""GOTCHA!: twelve gacha pulls, fought over with iTuned money and operator notices."""

from gachapress.games.gotcha import checks
from gachapress.games.gotcha.bots import GreedyBot
from gachapress.games.gotcha.engine import GotchaState
from gachapress.games.gotcha.model import Gotcha
from gachapress.games.gotcha.rules import RULES
from gachapress.spec import EngineSpec, GameSpec

SPEC = GameSpec(
    model=Gotcha,
    rules=RULES,
    engine=EngineSpec(state=GotchaState, bots={"greedy": GreedyBot}),
    checks={
        "deck-roles": checks.deck_roles,
        "gacha-rates": checks.gacha_rates,
        "die-covers-percent": checks.die_covers_percent,
        "notice-effects": checks.notice_effects,
        "ituned-amounts": checks.ituned_amounts,
        "setup-feasible": checks.setup_feasible,
    },
)
