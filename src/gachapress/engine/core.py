"""Actions, states and games: the engine API of DESIGN.md, shared by the five games."""

from __future__ import annotations

import copy
import functools
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Iterable
from pathlib import Path
from typing import Any, ClassVar

from gachapress.data.load import GameData, load_rules
from gachapress.errors import GachapressError
from gachapress.spec import EngineOption

#: What a seat's view of the log shows in place of a card that seat may not see.
HIDDEN = "?"


class IllegalAction(GachapressError, ValueError):
    """An action that is not legal in the current state; the state is left unchanged."""


class Action:
    """A small decision: a verb and what it applies to, read as ``play blue-700``,
    ``buy top of deck`` or ``done``.

    Actions are interned: ``Action("play", "red-800")`` always returns the same object, so
    equality is identity and comparing actions costs nothing.
    """

    __slots__ = ("_text", "target", "verb")
    _interned: ClassVar[dict[tuple[str, str | None], Action]] = {}
    verb: str
    target: str | None

    def __new__(cls, verb: str, target: str | None = None) -> Action:
        key = (verb, target)
        action = cls._interned.get(key)
        if action is None:
            action = super().__new__(cls)
            object.__setattr__(action, "verb", verb)
            object.__setattr__(action, "target", target)
            object.__setattr__(action, "_text", verb if target is None else f"{verb} {target}")
            cls._interned[key] = action
        return action

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("actions are immutable")

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Action({self._text!r})"

    def __reduce__(self) -> tuple[type[Action], tuple[str, str | None]]:
        return (Action, (self.verb, self.target))

    def __deepcopy__(self, memo: dict[int, object]) -> Action:
        return self

    @classmethod
    def parse(cls, text: str) -> Action:
        """The action whose ``str()`` is ``text``."""
        verb, _, target = text.strip().partition(" ")
        return cls(verb, target or None)


class State(ABC):
    """One game in progress. Subclasses implement the procedure of one game.

    The base class keeps the log and the contract: ``apply`` accepts only an action from
    ``legal_actions()`` (raising IllegalAction and changing nothing otherwise), and every random
    choice comes from ``self.rng``, seeded by the game's seed.
    """

    #: The most actions a game of this kind may take, per player; the harness enforces it.
    max_actions_per_player: ClassVar[int] = 10_000
    #: Attributes holding immutable data derived from the model, shared by ``clone()``.
    shared_attributes: ClassVar[tuple[str, ...]] = ()

    def __init__(
        self, game: Game, players: int, seed: int, mode: str, options: Iterable[str] = ()
    ) -> None:
        self.game = game
        self.players = players
        self.seed = seed
        self.mode = mode
        self.rng = random.Random(seed)
        start = {"event": "start", "game": game.id, "players": players, "seed": seed, "mode": mode}
        if options:
            start["options"] = sorted(options)
        self.log: list[dict[str, Any]] = [start]
        self._legal: list[Action] | None = None

    # -- the API ------------------------------------------------------------------------------
    @property
    @abstractmethod
    def current_player(self) -> int | None:
        """The seat to act, or None when the game is over."""

    def legal_actions(self) -> list[Action]:
        """The actions the current player may take now (empty once the game is over)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = [] if self.is_terminal() else self._legal_actions()
        return legal

    def apply(self, action: Action | str) -> None:
        """Play ``action`` for the current player; IllegalAction if it is not legal now."""
        legal = self._legal
        if legal is None:
            legal = self.legal_actions()
        if action not in legal:  # interned actions: a legal one is found by identity
            self._apply_other(action, legal)
            return
        self.log.append({"player": self.current_player, "action": action._text})
        self._legal = None
        self._apply(action)

    def _apply_other(self, action: Action | str, legal: list[Action]) -> None:
        """``apply`` of an action not found in ``legal``: its text, parsed, else IllegalAction."""
        if isinstance(action, str):
            self.apply(Action.parse(action))
            return
        raise IllegalAction(
            f"{action} is not legal for seat {self.current_player} now "
            f"(legal: {', '.join(map(str, legal)) or 'nothing, the game is over'})"
        )

    @abstractmethod
    def observation(self, player: int) -> dict[str, Any]:
        """What ``player`` may see, as JSON-serialisable data; never another's hidden cards."""

    def log_view(self, player: int, start: int = 0) -> list[dict[str, Any]]:
        """The log from entry ``start`` on as ``player`` may see it, for a user interface or a
        replay shown to that player: public events in full, the player's own moves as made,
        and ``HIDDEN`` in place of every card the player may not see (another seat's face-down
        card, a card passed between two others...). The start entry leaves out the seed, which
        would tell every deal."""
        redact = self.redact
        view = [redact(entry, player) for entry in self.log[max(start, 1) :]]
        if start <= 0:
            first = {key: value for key, value in self.log[0].items() if key != "seed"}
            view.insert(0, first)
        return view

    def redact(self, entry: dict[str, Any], player: int) -> dict[str, Any]:
        """One log entry as ``player`` may see it (``log_view``): the entry itself unless the
        game hides part of it; a game with hidden moves overrides this."""
        return entry

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def scores(self) -> list[int]:
        """Each seat's score so far (final once the game is over)."""

    @abstractmethod
    def winners(self) -> list[int]:
        """The winning seats once the game is over (several when they share), else []."""

    # -- for subclasses, replay and tests ----------------------------------------------------
    def shuffle(self, items: list[Any], size: int | None = None, steps: int | None = None) -> None:
        """Shuffle ``items`` in place with the game's generator: the very order
        ``self.rng.shuffle`` gives (the same draws of ``getrandbits``), without its per-card
        method calls, which cost more than a short game's play.

        A shuffle fixes the last place first, then the one below, and so on; ``size`` and
        ``steps`` take only the first ``steps`` of the steps that shuffle ``items[:size]``, so
        that a game may settle just the top of a deck and go on later with the same draws."""
        getrandbits = self.rng.getrandbits
        order = _shuffle_steps(len(items) if size is None else size)
        for i, n, bits in order if steps is None else order[:steps]:
            j = getrandbits(bits)
            while j >= n:
                j = getrandbits(bits)
            items[i], items[j] = items[j], items[i]

    def event(self, kind: str, **data: Any) -> None:
        """Record something the rules made happen (a trick won, a round scored...)."""
        self.log.append({"event": kind, **data})

    @abstractmethod
    def _legal_actions(self) -> list[Action]: ...

    @abstractmethod
    def _apply(self, action: Action) -> None: ...

    @abstractmethod
    def snapshot(self) -> Any:
        """A complete, comparable picture of the state (equal snapshots: the same state)."""

    @abstractmethod
    def check_invariants(self) -> None:
        """Raise AssertionError when the game's own invariants do not hold (cards, money...)."""

    @abstractmethod
    def hidden_from(self, player: int) -> set[str]:
        """Ids of the cards ``player`` must not see now (others' hands, face-down piles...)."""

    @abstractmethod
    def redeal(self, player: int, unseen: Collection[str], rng: random.Random) -> None:
        """Deal again, in place, the cards hidden from ``player`` now whose ids are in
        ``unseen``: they trade places among the places ``player`` cannot see (the decks,
        others' hands, face-down cards), each within its own deck. The re-deal test of
        hidden information plays the result against the original game (``permute_hidden``
        does the shared part)."""

    def other_copies(self, action: Action) -> list[State]:
        """The states ``action`` (legal now) would leave had it moved other copies of the card
        it names: at the table identical copies cannot be told apart, but the engine moves
        particular ones, and which it moves decides where the rest lie. The re-deal test plays
        these too; a game whose moves name cards held in several copies overrides this."""
        return []

    def clone(self) -> State:
        """An independent copy. Immutable data (the game, cards, actions, the attributes named in
        ``shared_attributes``) is shared; log entries are never changed once written, so the
        copy gets a new list of the same entries."""
        rng = random.Random()
        rng.setstate(self.rng.getstate())  # far faster than deep-copying its state tuple
        memo: dict[int, Any] = {id(self.log): list(self.log), id(self.rng): rng}
        for name in self.shared_attributes:
            value = getattr(self, name)
            memo[id(value)] = value
        return copy.deepcopy(self, memo)

    def flat_clone(self) -> State:
        """``clone()`` for a state of flat data, far faster than the deep copy: every attribute
        (the instance dict's and every class's slots) is a number, string, tuple, immutable
        object, or a list or dict of them, or a list of such lists. A new state of the same
        class gets each attribute, with lists copied two levels deep, dicts copied, the
        generator copied through its state, a new list of the log's entries (never changed
        once written) and the ``shared_attributes`` shared. A game whose state is flat data
        says so with ``clone = State.flat_clone`` (a game that holds more overrides ``clone``)."""
        copied = object.__new__(type(self))
        shared = self.shared_attributes
        for name in (*vars(self), *_slot_names(type(self))):
            value = getattr(self, name)
            if name in shared:
                pass
            elif type(value) is list:
                value = [v[:] if type(v) is list else v for v in value]
            elif type(value) is dict:
                value = value.copy()
            elif isinstance(value, random.Random):
                generator = random.Random()
                generator.setstate(value.getstate())
                value = generator
            object.__setattr__(copied, name, value)
        return copied

    def rounds_played(self) -> int:
        """Rounds (or turns, for games without rounds) completed so far."""
        return 0

    def end_condition(self) -> str:
        """Why the game ended, for statistics (one word or short phrase)."""
        return "finished"

    def rare_events(self) -> dict[str, bool]:
        """Paths a game could take but should (almost) never, each True if this game took it:
        `sim` and the rulebook count the games that did, zeros included."""
        return {}


@functools.cache
def _slot_names(kind: type) -> tuple[str, ...]:
    """The slot names of a class and its bases (``flat_clone`` copies them)."""
    return tuple(name for klass in kind.__mro__ for name in getattr(klass, "__slots__", ()))


@functools.cache
def _shuffle_steps(length: int) -> tuple[tuple[int, int, int], ...]:
    """For a shuffle of ``length`` items, each position from the last down to 1 with the
    number of choices for it and the bits ``getrandbits`` draws to choose (as ``random``)."""
    return tuple((i, i + 1, (i + 1).bit_length()) for i in range(length - 1, 0, -1))


#: The phase of a PhasedState once its game is over.
OVER = "over"


class PhasedState(State):
    """A state that keeps the step it is at in ``phase`` (``OVER`` once the game has ended) and
    the seat to act in ``turn``: the shape every game's engine here takes."""

    phase: str
    turn: int

    @property
    def current_player(self) -> int | None:
        return None if self.phase == OVER else self.turn

    def is_terminal(self) -> bool:
        return self.phase == OVER

    # ``legal_actions`` and ``apply`` as State has them, reading ``phase`` and ``turn`` where
    # State calls ``is_terminal`` and ``current_player``: every action of every game pays for
    # these two, and two Python calls are a tenth of a short action's cost.
    def legal_actions(self) -> list[Action]:
        legal = self._legal
        if legal is None:
            legal = self._legal = [] if self.phase == OVER else self._legal_actions()
        return legal

    def apply(self, action: Action | str) -> None:
        legal = self._legal
        if legal is None:
            legal = self.legal_actions()
        if action not in legal:  # the game is not over once a legal action is found
            self._apply_other(action, legal)
            return
        self.log.append({"player": self.turn, "action": action._text})
        self._legal = None
        self._apply(action)


def card_ids(cards: Iterable[Any]) -> tuple[str, ...]:
    """The ids of some cards, in order: how snapshots record a hand or a pile."""
    return tuple(card.id for card in cards)


def conceal_target(entry: dict[str, Any], player: int, verbs: Collection[str]) -> dict[str, Any]:
    """A log ``entry`` as ``player`` sees it when the cards of the verbs ``verbs`` are played
    unseen: another seat's ``place red-3`` reads ``place ?``; everything else is public."""
    if entry.get("player", player) == player:
        return entry
    verb, _, target = entry["action"].partition(" ")
    if verb not in verbs or not target:
        return entry
    return {**entry, "action": f"{verb} {HIDDEN}"}


def permute_hidden(
    places: Iterable[list[Any]], unseen: Collection[str], rng: random.Random
) -> None:
    """Shuffle among themselves, in place, the cards of ``places`` (lists of cards or of card
    ids; None for an empty spot) whose ids are in ``unseen``; everything else stays put."""
    slots = [
        (place, index)
        for place in places
        for index, card in enumerate(place)
        if (card if isinstance(card, str) else getattr(card, "id", None)) in unseen
    ]
    cards = [place[index] for place, index in slots]
    rng.shuffle(cards)
    for (place, index), card in zip(slots, cards, strict=True):
        place[index] = card


class Game:
    """A loaded game: its validated data and the engine that plays it."""

    def __init__(self, data: GameData) -> None:
        engine = data.spec.engine
        if engine is None:
            raise GachapressError(
                f"{data.id} has no rules engine, so it cannot be played or simulated (a game "
                "of data alone still checks, builds and exports)"
            )
        self.data = data
        self.model = data.model
        self.id = data.id
        self.engine = engine
        self.options: dict[str, EngineOption] = {
            option.name: option for option in (engine.options(self.model) if engine.options else [])
        }
        self._tables: dict[str, Any] = {}
        self._counts = {
            mode_id: frozenset(mode.players) for mode_id, mode in self.model.modes.items()
        }

    def __deepcopy__(self, memo: dict[int, object]) -> Game:
        return self  # a copied state still plays the same game

    def tables(self, name: str, build: Callable[[], Any]) -> Any:
        """Data an engine derives once from the model (cards by id, pre-made actions...)."""
        if name not in self._tables:
            self._tables[name] = build()
        return self._tables[name]

    @property
    def modes(self) -> dict[str, list[int]]:
        return {mode_id: list(mode.players) for mode_id, mode in self.model.modes.items()}

    def new_game(
        self, players: int, seed: int = 0, mode: str | None = None, options: Iterable[str] = ()
    ) -> State:
        """A new game for ``players`` seats, dealt from ``seed``, with the named ``options``
        switched on (see ``self.options``)."""
        counts = self._counts
        if mode is None and len(counts) > 1 and "standard" not in counts:
            raise ValueError(f"{self.id} has several modes: choose one of {', '.join(counts)}")
        if mode is None:
            mode = next(iter(counts)) if len(counts) == 1 else "standard"
        if mode not in counts:
            raise ValueError(f"{self.id} has no mode {mode!r} (modes: {', '.join(counts)})")
        if players not in counts[mode]:
            allowed = ", ".join(map(str, self.modes[mode]))
            raise ValueError(f"{self.id} {mode} is for {allowed} players, not {players}")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError("seed must be an integer")
        if not options:
            return self.engine.state(self, players, seed, mode)
        switches = self.check_options(options, mode)
        return self.engine.state(self, players, seed, mode, **dict.fromkeys(switches, True))

    def check_options(self, options: Iterable[str], mode: str) -> list[str]:
        """The option names, sorted, once each known and allowed in ``mode``; else ValueError."""
        if isinstance(options, str):
            raise TypeError("options is a collection of option names, not one string")
        names = sorted(set(options))
        for name in names:
            option = self.options.get(name)
            if option is None:
                known = ", ".join(self.options) or "none"
                raise ValueError(f"{self.id} has no option {name!r} (options: {known})")
            if mode not in option.modes:
                raise ValueError(f"the {name} option is not used in {mode} mode")
        return names


def load_game(game_id: str, rules_dir: Path | None = None) -> Game:
    """Load a game's rules (from ``rules_dir`` or the project's rules/) and its engine."""
    return Game(load_rules(game_id, rules_dir))
