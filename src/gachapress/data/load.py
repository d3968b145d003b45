"""Load a game's rules folder into its validated model, or fail with located problems."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from gachapress.data.card_sheets import expand_sheets
from gachapress.data.declared import declared_fields, declared_model
from gachapress.data.files import file_kind
from gachapress.data.folders import GAME_FILE, RULES_FILE_NAMES, is_game_id, meant_name
from gachapress.data.model import GameBase
from gachapress.data.validate import located_problems
from gachapress.data.yamlsource import Locations, Mark, PathKey, load_yaml
from gachapress.errors import Problem, RulesError
from gachapress.local_engine import local_spec, named_module
from gachapress.registry import game_spec, registered_by
from gachapress.spec import GameSpec

#: The files of a game's folder and the top-level keys each one holds (None: all the others).
RULES_FILES: dict[str, frozenset[str] | None] = {
    "game.yaml": None,
    "decks.yaml": frozenset({"decks"}),
    "examples.yaml": frozenset({"examples", "playthroughs"}),
    "clarifications.yaml": frozenset({"clarifications"}),
    "book.yaml": frozenset({"book"}),
}
assert tuple(RULES_FILES) == RULES_FILE_NAMES
_OWNED = {key: name for name, keys in RULES_FILES.items() if keys for key in keys}


@dataclass(frozen=True)
class GameData:
    """A game's validated model together with where each part of it was written."""

    model: GameBase
    spec: GameSpec
    folder: Path
    locations: Locations

    @property
    def id(self) -> str:
        return self.model.id

    @property
    def root(self) -> Path:
        """The project the game belongs to (``<root>/rules/<game>``)."""
        return self.folder.parent.parent

    def where(self, path: PathKey, *, key: bool = False) -> Mark:
        """The mark of a data path, falling back to its nearest ancestor."""
        return self.locations.at(path, key=key)

    def card_path(self, card_id: str) -> PathKey:
        """Where in the YAML a card's face is defined."""
        for deck_id, deck in self.model.deck_items():
            for card, path in zip(deck.faces(), deck.face_paths(), strict=True):
                if card.id == card_id:
                    return ("decks", deck_id, *path)
        raise KeyError(card_id)


def default_rules_dir() -> Path:
    """``rules/`` of the project in the current directory, else of this source checkout."""
    here = Path.cwd() / "rules"
    if here.is_dir():
        return here
    return Path(__file__).resolve().parents[3] / "rules"


def load_rules(game_id: str, rules_dir: Path | None = None) -> GameData:
    """Read, validate and cross-check ``rules/<game_id>/``; RulesError when anything is off."""
    folder, data, locations = read_rules_data(game_id, rules_dir)
    return rules_from_data(game_id, folder, data, locations)


def read_rules_data(
    game_id: str, rules_dir: Path | None = None
) -> tuple[Path, dict[str, Any], Locations]:
    """The folder of a game, its plain data and where each part was written, before the model
    sees it (a sweep varies the data, then builds each variant with ``rules_from_data``)."""
    rules_dir = Path(rules_dir) if rules_dir is not None else default_rules_dir()
    folder = rules_dir / game_id
    if not is_game_id(game_id):
        raise RulesError([Problem(folder, 1, 1, f"{game_id!r} is no game id")])
    if not folder.is_dir():
        raise RulesError([Problem(folder, 1, 1, f"no rules folder for game {game_id!r}")])
    data, locations = _read_folder(folder)
    expand_sheets(folder, data, locations)
    return folder, data, locations


def rules_from_data(
    game_id: str, folder: Path, data: dict[str, Any], locations: Locations
) -> GameData:
    """Validate and cross-check a game's plain data (as read from ``folder``, possibly varied);
    RulesError, located through ``locations``, when anything is off. A game with a registered
    package is validated by its package's model; a game of data alone by its declared fields."""
    spec = _game_spec(game_id, folder, data, locations)
    try:
        model = spec.model.model_validate(data, context={"lang": _only_language(data)})
    except ValidationError as exc:  # with the duplicate ids, so one pass reports every defect
        duplicates = [locations.at(path).problem(what) for path, what in _listed_twice(data)]
        raise RulesError(sorted({*located_problems(exc, data, locations), *duplicates})) from None
    game = GameData(model, spec, folder, locations)
    problems = list(spec.references(game)) if spec.references is not None else []
    if not problems:
        problems = list(_integrity(game))
    if problems:
        raise RulesError(problems)
    return game


def _only_language(data: dict[str, Any]) -> str | None:
    """The game's language when it has only one (its texts may then be plain strings)."""
    languages = data.get("languages", ["en"])
    if isinstance(languages, list) and len(languages) == 1 and isinstance(languages[0], str):
        return languages[0]
    return None


def _game_spec(game_id: str, folder: Path, data: dict[str, Any], locations: Locations) -> GameSpec:
    """What validates and plays a game: its registered package (with the model its decks
    declare when the package leaves the model out), the engine module of its folder that
    game.yaml names, or neither (a game of data alone). A package and a module for one game
    are refused: which plays it would depend on what happens to be installed."""
    package = game_spec(game_id)
    module = named_module(data)
    where = Mark(folder / GAME_FILE, 1, 1)  # a sweep's worker has the data without locations
    if locations.values:
        where = locations.at(("engine", "module"))
    if package is not None and module is not None:
        message = (
            f"game.yaml names the engine module {module}, but the installed package "
            f"{registered_by(game_id)} also registers {game_id}: remove one of them"
        )
        raise RulesError([where.problem(message)])
    if package is not None and package.model is not None:
        return package
    declared = data_spec(game_id, data, locations)
    if package is not None:
        return replace(package, model=declared.model)
    if module is not None:
        return local_spec(game_id, folder, module, where, declared.model)
    return declared


def data_spec(game_id: str, data: dict[str, Any], locations: Locations) -> GameSpec:
    """The spec of a game of data alone: the model its decks' declared fields make, no rules."""
    try:
        fields = declared_fields(data)
    except ValidationError as exc:
        raise RulesError(located_problems(exc, data, locations)) from None
    return GameSpec(model=declared_model(game_id, fields))


def _read_folder(folder: Path) -> tuple[dict[str, Any], Locations]:
    data: dict[str, Any] = {}
    locations = Locations()
    problems: list[Problem] = []
    root: Mark | None = None
    misnamed: set[str] = set()
    for path in sorted(folder.iterdir()):
        if path.suffix.lower() not in {".yaml", ".yml"} or path.name in RULES_FILES:
            continue
        meant = meant_name(path.name)
        if meant is not None:
            misnamed.add(meant)
            message = (
                f"a rules file must be named {meant} (lowercase, ending .yaml): rename "
                f"{path.name} to {meant}"
            )
        else:
            message = f"unexpected rules file (expected {', '.join(RULES_FILES)})"
        problems.append(Problem(path, 1, 1, message))
    inside = folder.parent.parent.resolve()
    for name, owned in RULES_FILES.items():
        file = folder / name
        kind = file_kind(file)
        if kind == "is missing":
            if name == GAME_FILE and GAME_FILE not in misnamed:
                problems.append(Problem(file, 1, 1, "missing game.yaml"))
            continue
        if kind is not None:  # a folder, a named pipe, a link that loops: say which
            problems.append(Problem(file, 1, 1, f"cannot read {name}: it {kind}"))
            continue
        if not file.resolve().is_relative_to(inside):
            problems.append(
                Problem(file, 1, 1, f"resolves to {file.resolve()}, outside the project {inside}")
            )
            continue
        try:
            content, where = load_yaml(file)
        except RulesError as exc:
            problems.extend(exc.problems)
            continue
        if content is None and owned:
            continue
        if not isinstance(content, dict):
            problems.append(where.at(()).problem("expected a mapping at the top of the file"))
            continue
        for key in content:
            home = _OWNED.get(key, "game.yaml")
            if home != name:
                problems.append(
                    where.at((key,), key=True).problem(f"key {key!r} belongs in {home}")
                )
                continue
            data[key] = content[key]
        if name == "game.yaml":
            root = where.at(())
        locations.update(where)
    if problems:
        raise RulesError(problems)
    # the document is game.yaml's mapping
    locations.values[()] = root or Mark(folder / GAME_FILE, 1, 1)
    return data, locations


def _integrity(game: GameData) -> Iterable[Problem]:
    """Cross-references the schema cannot see: the folder's id, unique ids, dangling references."""
    model = game.model
    if model.id != game.folder.name:
        yield game.where(("id",)).problem(
            f"id {model.id!r} does not match the folder name {game.folder.name!r}"
        )
    for path, what in _duplicates(game):
        yield game.where(path).problem(what)
    decks = dict(model.deck_items())
    for i, component in enumerate(model.components):
        if component.deck is not None and component.deck not in decks:
            yield game.where(("components", i, "deck")).problem(
                f"component names unknown deck {component.deck!r}"
            )
    clarifications = {c.id for c in model.clarifications}
    for deck_id, deck in decks.items():
        if deck.clarification is not None and deck.clarification not in clarifications:
            yield game.where(("decks", deck_id, "clarification")).problem(
                f"unknown clarification {deck.clarification!r}"
            )
    for i, example in enumerate(model.examples):
        if example.rule not in game.spec.rules:
            known = ", ".join(game.spec.rules.names())
            yield game.where(("examples", i, "rule")).problem(
                f"unknown rule {example.rule!r} (this game has: {known})"
            )
        if example.clarification is not None and example.clarification not in clarifications:
            yield game.where(("examples", i, "clarification")).problem(
                f"unknown clarification {example.clarification!r}"
            )
    for i, mode in enumerate(model.modes.values()):
        counts = Counter(mode.players)
        if any(n > 1 for n in counts.values()):
            name = list(model.modes)[i]
            yield game.where(("modes", name, "players")).problem("a player count is listed twice")
    if len(set(model.languages)) != len(model.languages):
        yield game.where(("languages",)).problem("a language is listed twice")


def _listed_twice(data: dict[str, Any]) -> Iterable[tuple[PathKey, str]]:
    """The card ids listed twice in the plain data (before the model: a card that fails it
    still has its id)."""
    seen: set[str] = set()
    decks = data.get("decks")
    for deck_id, deck in decks.items() if isinstance(decks, dict) else ():
        cards = deck.get("cards") if isinstance(deck, dict) else None
        for i, card in enumerate(cards if isinstance(cards, list) else ()):
            card_id = card.get("id") if isinstance(card, dict) else None
            if isinstance(card_id, str) and card_id in seen:
                yield ("decks", deck_id, "cards", i, "id"), f"duplicate card id {card_id!r}"
            if isinstance(card_id, str):
                seen.add(card_id)


def _duplicates(game: GameData) -> Iterable[tuple[PathKey, str]]:
    seen: set[str] = set()
    for deck_id, deck in game.model.deck_items():
        for card, path in zip(deck.faces(), deck.face_paths(), strict=True):
            if card.id in seen:
                yield ("decks", deck_id, *path, "id"), f"duplicate card id {card.id!r}"
            seen.add(card.id)
    for section in ("examples", "playthroughs", "clarifications"):
        ids: set[str] = set()
        for i, item in enumerate(getattr(game.model, section)):
            if item.id in ids:
                yield (section, i, "id"), f"duplicate {section[:-1]} id {item.id!r}"
            ids.add(item.id)
