"""A sweep file: the game, the players and bots, and the variants of its rules to play.

```yaml
game: rps-fire
players: [3, 5]
games: 2000          # per cell: one variant at one player count
seed: 1
cross:               # every combination of these values (or `variants:`, a list)
  decks.main.cards.fire-alarm-both.count: [1, 3, 5]
```
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field, ValidationError, model_validator

from gachapress.data.folders import find_games
from gachapress.data.load import read_rules_data
from gachapress.data.model import Id, Strict
from gachapress.data.validate import located_problems
from gachapress.data.yamlsource import Locations, Mark, load_yaml
from gachapress.engine.core import Game
from gachapress.engine.play import make_bots
from gachapress.errors import Problem, RulesError
from gachapress.sim.runner import MAX_GAMES
from gachapress.sweep.overrides import Override, check_variant, vary

#: Games per unit of work handed to a worker.
CHUNK = 250
#: Most variants one sweep may have: each is built and checked (a few games played) before
#: anything runs, so a ``cross:`` of many paths (6 of 10 values: a million) is refused at once.
MAX_VARIANTS = 1000

Dotted = Annotated[str, Field(pattern=r"^[A-Za-z0-9_+-]+(\.[A-Za-z0-9_+-]+)*$")]


class ListedVariant(Strict):
    """One variant of a ``variants:`` list: a name and the values it sets."""

    name: Id
    set: dict[Dotted, Any] = {}


class SweepFile(Strict):
    """The top of a sweep file."""

    game: Id
    name: Id | None = None
    mode: str | None = None
    options: list[Id] = []
    players: Annotated[list[Annotated[int, Field(ge=1, le=12)]], Field(min_length=1)]
    bots: Annotated[list[Id], Field(min_length=1)] = ["random"]
    games: Annotated[int, Field(ge=1, le=MAX_GAMES)]
    seed: int = 0
    chunk: Annotated[int, Field(ge=1, le=100_000)] = CHUNK
    cross: dict[Dotted, Annotated[list[Any], Field(min_length=1)]] = {}
    variants: list[ListedVariant] = []

    @model_validator(mode="after")
    def _one_kind(self) -> SweepFile:
        if self.cross and self.variants:
            raise ValueError("give either cross (every combination) or variants (a list), not both")
        return self


@dataclass(frozen=True)
class Variant:
    """One version of the rules: its name, what it sets, and the checked game it makes."""

    name: str
    overrides: tuple[Override, ...]
    data: dict[str, Any]
    rules_hash: str

    def settings(self) -> dict[str, Any]:
        return {o.path: o.value for o in self.overrides}


@dataclass(frozen=True)
class Cell:
    """One variant at one player count: the unit of results kept and resumed."""

    variant: Variant
    players: int
    key: str
    """A hash of everything the cell's results depend on: rules, players, bots, games, seed."""
    seed: int
    """The seed each game's is derived from with its index (the same whatever the count)."""
    games: int
    """The games the cell plays (its kept results must count exactly these)."""


@dataclass(frozen=True)
class Sweep:
    """A loaded, checked sweep file."""

    file: Path
    name: str
    spec: SweepFile
    folder: Path
    game_name: str
    mode: str
    cells: tuple[Cell, ...]

    @property
    def total_games(self) -> int:
        return self.spec.games * len(self.cells)


def load_sweep(file: Path, rules_dir: Path) -> Sweep:
    """Read a sweep file and check every variant's rules; RulesError with problems located in
    the sweep file when anything is off, before anything is played."""
    raw, where = load_yaml(file)
    if not isinstance(raw, dict):
        raise RulesError([where.at(()).problem("expected a mapping with game, players, games")])
    try:
        spec = SweepFile.model_validate(raw)
    except ValidationError as exc:
        raise RulesError(located_problems(exc, raw, where)) from None
    games = find_games(rules_dir)
    if spec.game not in games:
        message = f"unknown game {spec.game!r} (games: {', '.join(games)})"
        raise RulesError([where.at(("game",)).problem(message)])
    name = spec.name or file.stem
    if spec.name is None and not _is_id(name):
        message = f"the file name {name!r} is no id ([a-z0-9-]): give the sweep a name:"
        raise RulesError([where.at(()).problem(message)])
    folder, data, locations = read_rules_data(spec.game, rules_dir)
    base = Game(check_variant(spec.game, folder, data, locations, None))
    mode = _check_play(base, spec, where)
    settings = _variant_settings(spec, where)
    if len(settings) * len(spec.players) * spec.games > MAX_GAMES:
        raise RulesError([where.at(("games",)).problem(f"more than {MAX_GAMES:,} games in all")])
    labels = [label for label, _, _ in settings]
    for i, label in enumerate(labels):
        if label in labels[:i]:
            raise RulesError([where.at(("variants", i, "name")).problem("duplicate name")])
    variants = [
        _variant(spec.game, folder, data, locations, label, overrides, anchor)
        for label, overrides, anchor in settings
    ]
    cells = tuple(
        _cell(spec, mode, variant, players) for variant in variants for players in spec.players
    )
    titles = base.model.name
    title = titles.get("en") or next(iter(titles.values()))
    return Sweep(file, name, spec, folder, title, mode, cells)


def _is_id(text: str) -> bool:
    try:
        ListedVariant.model_validate({"name": text})
    except ValidationError:
        return False
    return True


def _variant_settings(spec: SweepFile, where: Locations) -> list[tuple[str, list[Override], Mark]]:
    """(name, overrides, mark for problems without a place of their own) of each variant."""
    if len(spec.variants) > MAX_VARIANTS:
        message = (
            f"{len(spec.variants):,} variants; a sweep may have at most {MAX_VARIANTS:,}: "
            "split it into several sweep files"
        )
        raise RulesError([where.at(("variants",), key=True).problem(message)])
    if spec.variants:
        return [
            (
                listed.name,
                [
                    Override(
                        path,
                        value,
                        where.at(("variants", i, "set", path)),
                        where.at(("variants", i, "set", path), key=True),
                    )
                    for path, value in listed.set.items()
                ],
                where.at(("variants", i)),
            )
            for i, listed in enumerate(spec.variants)
        ]
    if not spec.cross:
        return [("as-written", [], where.at(()))]
    paths = list(spec.cross)
    count = math.prod(len(spec.cross[p]) for p in paths)
    if count > MAX_VARIANTS:
        sizes = " x ".join(str(len(spec.cross[p])) for p in paths)
        message = (
            f"cross makes {count:,} variants ({sizes} values); a sweep may have at most "
            f"{MAX_VARIANTS:,}: sweep fewer paths or values at once"
        )
        raise RulesError([where.at(("cross",), key=True).problem(message)])
    settings = []
    for combination in itertools.product(*(range(len(spec.cross[p])) for p in paths)):
        overrides = [
            Override(
                path,
                spec.cross[path][i],
                where.at(("cross", path, i)),
                where.at(("cross", path), key=True),
            )
            for path, i in zip(paths, combination, strict=True)
        ]
        label = ", ".join(f"{o.path}={json.dumps(o.value)}" for o in overrides)
        settings.append((label, overrides, overrides[0].mark))
    return settings


def _variant(
    game_id: str,
    folder: Path,
    data: dict[str, Any],
    locations: Locations,
    label: str,
    overrides: list[Override],
    anchor: Mark,
) -> Variant:
    varied, marks = vary(data, locations, overrides)
    check_variant(game_id, folder, varied, marks, anchor)
    return Variant(label, tuple(overrides), varied, _hash(varied))


def _check_play(game: Game, spec: SweepFile, where: Locations) -> str:
    """The mode played (named or the game's only one); located errors for a player count,
    mode, option or bot the game does not have."""
    modes = game.modes
    mode = spec.mode or (next(iter(modes)) if len(modes) == 1 else "standard")
    if mode not in modes:
        message = f"{game.id} has no mode {mode!r} (modes: {', '.join(modes)})"
        raise RulesError([where.at(("mode",) if spec.mode else ()).problem(message)])
    problems: list[Problem] = []
    options = spec.options
    try:
        game.check_options(options, mode)
    except ValueError as exc:
        problems.append(where.at(("options",)).problem(str(exc)))
        options = []
    try:
        make_bots(game, spec.bots, len(spec.bots), 0)
    except ValueError as exc:
        problems.append(where.at(("bots",)).problem(str(exc)))
    for i, players in enumerate(spec.players):
        try:
            game.new_game(players=players, seed=0, mode=mode, options=options)
        except ValueError as exc:
            problems.append(where.at(("players", i)).problem(str(exc)))
    if problems:
        raise RulesError(problems)
    if len(set(spec.players)) != len(spec.players):
        raise RulesError([where.at(("players",)).problem("a player count is listed twice")])
    return mode


def _hash(data: Any) -> str:
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _cell(spec: SweepFile, mode: str, variant: Variant, players: int) -> Cell:
    plays = {
        "game": spec.game,
        "rules": variant.rules_hash,
        "mode": mode,
        "options": sorted(spec.options),
        "players": players,
        "bots": spec.bots,
        "seed": spec.seed,
    }
    seed = int(_hash(plays)[:16], 16)
    return Cell(variant, players, _hash({**plays, "games": spec.games}), seed, spec.games)
