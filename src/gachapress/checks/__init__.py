"""Deck consistency checks and worked examples: what `gachapress check` runs on a loaded game."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from gachapress.checks.common import COMMON_CHECKS
from gachapress.checks.declared import declared_checks
from gachapress.checks.examples import run_examples
from gachapress.checks.playtest import playtest
from gachapress.checks.playthroughs import play_through
from gachapress.data.load import GameData
from gachapress.errors import Problem


@dataclass(frozen=True)
class CheckReport:
    """The outcome of one named check on one game."""

    check: str
    problems: list[Problem]

    @property
    def ok(self) -> bool:
        return not any(p.severity == "error" for p in self.problems)


def deck_checks(game: GameData) -> dict[str, Callable[[GameData], Iterable[Problem]]]:
    """Every consistency check of a game by name: the shared ones, those its decks declare in
    their data, and its package's own."""
    return {**COMMON_CHECKS, **declared_checks(game), **game.spec.checks}


def run_checks(game: GameData) -> list[CheckReport]:
    """Every shared, declared and game-specific consistency check, then every worked example."""
    checks = deck_checks(game)
    reports = [CheckReport(name, sorted(check(game))) for name, check in checks.items()]
    verdicts = run_examples(game, game.model.examples, ("examples",))
    reports.append(CheckReport("examples", [v.problem for v in verdicts if v.problem]))
    if game.spec.engine is not None and all(report.ok for report in reports):
        played = [play_through(game, i) for i in range(len(game.model.playthroughs))]
        reports.append(CheckReport("playthroughs", [p.problem for p in played if p.problem]))
        reports.append(CheckReport("random-games", list(playtest(game))))
    return reports
