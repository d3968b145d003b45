"""The parts of a game's data model that every game shares.

Each game's package subclasses these with its own card fields, decks and parameters; the loader
validates a game's YAML against that subclass, strictly (no unknown keys, no type coercion).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Any, Generic, Literal, TypeVar

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationInfo,
    model_validator,
)

Id = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$", max_length=64)]
"""An id: lowercase letters, digits and single hyphens; safe in a file name or a URL."""
Lang = Annotated[str, StringConstraints(pattern=r"^[a-z]{2}$")]
Line = Annotated[str, StringConstraints(min_length=1, max_length=2000)]


def _plain_text(value: Any, info: ValidationInfo) -> Any:
    """A plain string is the text in the game's only language (a game in one language need not
    name it at every text); the loader says which, as the validation context ``lang``."""
    lang = (info.context or {}).get("lang")
    return {lang: value} if isinstance(value, str) and lang else value


LangTexts = dict[Lang, Line]
"""A text's languages and lines, as a field's annotation shows a :data:`Text`."""
Text = Annotated[LangTexts, BeforeValidator(_plain_text, json_schema_input_type=Line | LangTexts)]
"""Text in each language the game publishes, keyed by ISO 639-1 code (in a game of one
language, plain text will do)."""
Count = Annotated[int, Field(ge=1, le=1000)]
"""How many copies: a positive integer, and not absurdly many."""
PlayerCount = Annotated[int, Field(ge=1, le=12)]
Percent = Annotated[int, Field(ge=0, le=100)]
Provenance = Literal["seed", "project"]
"""Whether something is taken from the seed rulebook or is this project's own design."""
ExampleSource = Literal["seed-example", "seed", "project"]
"""Where a worked example comes from: worked in the original rules themselves
(``seed-example``), checking a rule they state (``seed``), or the project's own case."""


class Strict(BaseModel):
    """A model that refuses unknown keys and never coerces types."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Art(Strict):
    """A card's picture: an OpenMoji emoji by hexcode, or an image file in the game folder."""

    openmoji: (
        Annotated[str, StringConstraints(pattern=r"^[0-9A-F]{4,6}(-[0-9A-F]{4,6})*$")] | None
    ) = None
    file: (
        Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]+(/[A-Za-z0-9_.-]+)*\.(svg|png)$")]
        | None
    ) = None

    @model_validator(mode="after")
    def _one_source(self) -> Art:
        if (self.openmoji is None) == (self.file is None):
            raise ValueError("give exactly one of 'openmoji' or 'file'")
        if self.file is not None and ".." in self.file:
            raise ValueError("an art file must lie inside the game's folder")
        return self


class Card(Strict):
    """One distinct face of a deck; ``count`` copies of it are in the deck."""

    id: Id
    count: Count = 1
    name: Text
    text: Text | None = None
    art: Art | None = None
    """The card's picture, if it has one (a layout's ``art: card`` then draws nothing)."""

    # Card ids are unique within a game, so a card is its id: fast to hash and compare, which
    # the engines rely on (a hand is searched and emptied many times per game).
    def __hash__(self) -> int:
        return hash(self.id)

    def __eq__(self, other: object) -> bool:
        return self is other or (type(other) is type(self) and other.id == self.id)  # type: ignore[attr-defined]

    def __deepcopy__(self, memo: dict[int, object]) -> Card:
        return self  # immutable: a copied game state shares its cards


CardT = TypeVar("CardT", bound=Card)


FieldRef = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]*$", max_length=40)]
"""A card field named by a deck check."""


class LatinSquare(Strict):
    """Each value of ``field`` once for each value of each of the ``across`` fields (the
    Gachapon Trick toys: each toy once in each colour and once at each cost)."""

    field: FieldRef
    across: Annotated[list[FieldRef], Field(min_length=1, max_length=4)]


class GroupSum(Strict):
    """The ``field`` values of the cards (copies counted), in all or for each value of
    ``per``, add up to ``total``."""

    field: FieldRef
    per: FieldRef | None = None
    total: int | float


class DeckChecks(Strict):
    """The consistency checks a deck declares, each failure located (``checks.declared``)."""

    total: Annotated[int, Field(ge=1, le=100_000)] | None = None
    """Cards in the deck, copies counted."""
    per_value: dict[FieldRef, Annotated[int, Field(ge=1, le=100_000)] | Literal["equal"]] = {}
    """Cards (copies counted) of each value of a field: a number, or ``equal`` (as many of
    each value)."""
    unique: list[Annotated[list[FieldRef], Field(min_length=1, max_length=6)]] = []
    """Fields whose values no two faces share (together)."""
    latin_square: LatinSquare | None = None
    sums: list[GroupSum] = []


class DeckBase(Strict):
    """What every deck says about itself; subclasses say how its cards are given."""

    name: Text
    form: Literal["card", "token"] = "card"
    provenance: Provenance | None = None
    """Whether the card list comes from the original rules or is the project's own design; a
    designer's own game need not say (nothing is then said of it)."""
    clarification: Id | None = None
    """The clarification that explains a deck of the project's own design."""
    checks: DeckChecks | None = None
    """Consistency checks declared for the deck's cards."""

    def faces(self) -> list[Card]:
        """Every distinct face, in a stable order."""
        raise NotImplementedError

    def face_paths(self) -> list[tuple[str | int, ...]]:
        """Where each face (in the order of ``faces()``) is defined, relative to the deck."""
        raise NotImplementedError

    def size(self) -> int:
        return sum(card.count for card in self.faces())

    def text_fields(self) -> list[str]:
        """The card fields of this deck that hold a text in each language, besides ``name``
        and ``text`` (a deck of declared fields has them)."""
        return []


class Deck(DeckBase, Generic[CardT]):
    """A deck listed card by card."""

    cards: Annotated[list[CardT], Field(min_length=1, max_length=500)]

    def faces(self) -> list[CardT]:  # type: ignore[override]
        return list(self.cards)

    def face_paths(self) -> list[tuple[str | int, ...]]:
        return [("cards", i) for i in range(len(self.cards))]


class Decks(Strict):
    """The decks of a game, one field each; a deck's id is its field name with hyphens."""

    model_config = ConfigDict(alias_generator=lambda name: name.replace("_", "-"))


class Mode(Strict):
    """A way to play the game, with the player counts it supports."""

    players: Annotated[list[PlayerCount], Field(min_length=1)]
    name: Text
    text: Text


class PlayTime(Strict):
    """Minutes a game takes, as printed on the box."""

    min: Annotated[int, Field(ge=1, le=600)]
    max: Annotated[int, Field(ge=1, le=600)]


class EngineModule(Strict):
    """``engine: {module: engine.py}``: the game is played by a Python module of its own folder
    (see ``gachapress.local_engine`` for what it must define), loaded only when named."""

    module: Annotated[str, StringConstraints(min_length=1, max_length=200)]
    """The module's path inside the game's folder."""


class Component(Strict):
    """A line of the component list: a deck (with the size the seed states) or another item."""

    deck: Id | None = None
    count: Count | None = None
    """How many; a deck's count may be left out (it is the deck's size, never typed twice)."""
    name: Text | None = None
    provide_your_own: bool = False

    @model_validator(mode="after")
    def _deck_or_name(self) -> Component:
        if (self.deck is None) == (self.name is None):
            raise ValueError("give either 'deck' (a deck of this game) or 'name' (another item)")
        if self.deck is None and self.count is None:
            raise ValueError(f"give the 'count' of {next(iter(self.name.values()), 'it')!r}")
        return self


class Example(Strict):
    """A worked example: a rule function called with ``given`` must return ``expect``."""

    id: Id
    rule: Id | Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]*$")]
    given: dict[Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]*$")], Any]
    expect: Any
    source: ExampleSource
    clarification: Id | None = None
    """The recorded clarification the answer depends on (the book links it)."""
    text: Text


class PlaythroughExpect(Strict):
    """What must hold once a playthrough's actions are played."""

    events: list[dict[str, Any]] = []
    """Events the log must show, in this order (each matches a log entry holding its keys)."""
    observation: dict[str, Any] = {}
    """Values of seat ``seat``'s observation (public ones, like money, for the rulebook)."""
    seat: Annotated[int, Field(ge=0, le=11)] = 0
    scores: list[int] | None = None
    winners: list[int] | None = None


class Playthrough(Strict):
    """A whole-game example: a seeded deal, the actions played, and what follows, checked
    through the engine API."""

    id: Id
    players: PlayerCount
    mode: Id | None = None
    seed: Annotated[int, Field(ge=0, le=2**63)]
    actions: Annotated[
        list[Annotated[str, StringConstraints(min_length=1, max_length=80)]],
        Field(min_length=1, max_length=2000),
    ]
    expect: PlaythroughExpect
    source: Provenance
    text: Text


class Clarification(Strict):
    """A gap in the seed, and how this project fills it."""

    id: Id
    question: Text
    decision: Text
    reason: Text


class BookSection(Strict):
    """A titled part of the rulebook's prose; paragraphs are separated by blank lines, and
    ``{path}`` placeholders take their values from the game's data (see data/placeholders.py)."""

    id: Id
    title: Text
    text: Text


ObsPath = Annotated[str, StringConstraints(pattern=r"^[a-z0-9_]+(\.([a-z0-9_]+|\*))*$")]
"""A path into the engine's observation of the start position (``decks.*.size``: ``*`` repeats
an item for every entry of that list)."""


#: The kinds of thing a setup diagram shows (a :class:`DiagramItem` gives exactly one).
DIAGRAM_KINDS = ("pile", "row", "hand", "slots", "money")


class DiagramItem(Strict):
    """One thing on the table in a setup diagram, read from the engine's start position: a
    face-down ``pile`` (its count), a ``row`` of face-up cards, a ``hand`` of card backs (its
    count), empty ``slots`` (how many) or ``money``. In a player's area the path names a list
    with one entry per player."""

    pile: ObsPath | None = None
    row: ObsPath | None = None
    hand: ObsPath | None = None
    slots: ObsPath | None = None
    money: ObsPath | None = None
    top: ObsPath | None = None
    """A pile's face-up top card."""
    deck: Id | None = None
    """The deck whose back a pile or a hand shows (a row's: the shape of its empty place)."""
    label: Text | None = None

    @property
    def kind(self) -> str:
        return next(k for k in DIAGRAM_KINDS if getattr(self, k))

    @property
    def path(self) -> str:
        return str(getattr(self, self.kind))

    @model_validator(mode="after")
    def _one_kind(self) -> DiagramItem:
        kinds = [k for k in DIAGRAM_KINDS if getattr(self, k)]
        if len(kinds) != 1:
            raise ValueError("give exactly one of 'pile', 'row', 'hand', 'slots' or 'money'")
        if kinds[0] in ("pile", "hand") and self.deck is None:
            raise ValueError(f"a {kinds[0]} needs the 'deck' whose back it shows")
        return self


class SetupDiagram(Strict):
    """The picture of the table when play begins, for one mode at one player count: the
    items in the middle (rows of them, top to bottom) and those in front of every player.
    The engine deals the start position; ``setup_phases`` are the phases of it (a draft, a
    redraw) that it plays through first, taking the first move each time."""

    mode: Id | None = None
    players: PlayerCount | None = None
    """Defaults to the mode's smallest player count."""
    setup_phases: list[Id] = []
    table: Annotated[list[list[DiagramItem]], Field(min_length=1)]
    player: list[DiagramItem]


class TurnSummary(Strict):
    """The short numbered "on your turn" box of a mode, in the rules' own words."""

    mode: Id | None = None
    title: Text | None = None
    """Instead of "On your turn" (a trick-taking game's box is about a trick)."""
    steps: Annotated[list[Text], Field(min_length=1, max_length=8)]


class Book(Strict):
    """The rulebook's prose, in the project's own words. Tables, card lists, examples and
    clarifications are generated from the rest of the data and need no prose here."""

    overview: Text
    goal: Text
    play: Annotated[list[BookSection], Field(min_length=1)]
    """How the game is played: setup steps beyond the setup table, a turn, a round."""
    scoring: list[BookSection]
    end: Text
    variants: list[BookSection] = []
    quick_reference: Annotated[list[Text], Field(min_length=1)]
    """The few lines a player needs at the table once they know the game."""
    diagrams: list[SetupDiagram] = []
    turn_summaries: list[TurnSummary] = []


class UnknownLanguage(ValueError):
    """A card language that the game does not publish."""


class GameBase(Strict):
    """The fields every game's rules share; each game adds its decks and parameters."""

    id: Id
    name: Text
    languages: Annotated[list[Lang], Field(min_length=1)] = ["en"]
    """Languages the game publishes; the first is the language of its cards by default (for
    the five example games, of their original rules)."""
    seed: Annotated[str, StringConstraints(pattern=r"^[a-z0-9.-]+\.txt$")] | None = None
    """The original rulebook a game is made from, if it has one."""
    modes: dict[Id, Mode] = {}
    """Ways to play with their player counts; a game of data alone may leave them out."""
    play_time: PlayTime | None = None
    engine: EngineModule | None = None
    """The game's own engine module, when it has one (a package may register one instead)."""
    components: list[Component] = []
    """The component list; left out, it is the decks, each with its size."""
    decks: Decks
    examples: list[Example] = []
    playthroughs: list[Playthrough] = []
    clarifications: list[Clarification] = []
    book: Book | None = None
    words: dict[Id, Text] = {}
    """The game's own values (card types, kinds...) as a player reads them in each language:
    ``{card.type|word}`` prints the word for the card's type in the text's language."""

    def component_list(self) -> list[Component]:
        """The components as written, a deck's count filled in from its size; a deck of each
        when none are written."""
        if not self.components:  # a deck's size is not a written count: any size goes
            return [
                Component.model_construct(deck=deck, count=cards.size())
                for deck, cards in self.deck_items()
            ]
        return [
            c
            if c.count is not None
            else c.model_copy(update={"count": self.deck(str(c.deck)).size()})
            for c in self.components
        ]

    def deck_items(self) -> Iterator[tuple[str, DeckBase]]:
        """Each deck of the game with its id, in declaration order."""
        for name, field in type(self.decks).model_fields.items():
            deck = getattr(self.decks, name)
            if deck is not None:
                yield field.alias or name, deck

    def deck(self, deck_id: str) -> DeckBase:
        return dict(self.deck_items())[deck_id]

    def cards(self) -> dict[str, Card]:
        """Every distinct face of every deck, by id."""
        return {card.id: card for _, deck in self.deck_items() for card in deck.faces()}

    def card_decks(self) -> dict[str, str]:
        """The deck id of every card id."""
        return {card.id: deck_id for deck_id, deck in self.deck_items() for card in deck.faces()}

    def player_counts(self) -> list[int]:
        return sorted({n for mode in self.modes.values() for n in mode.players})

    def card_language(self, requested: str | None = None) -> str:
        """The language the cards are printed in: ``requested`` (``--lang``), else the game's
        first language. UnknownLanguage when the game does not publish ``requested``."""
        if requested is None:
            return self.languages[0]
        if requested not in self.languages:
            raise UnknownLanguage(
                f"{self.id} has no text in {requested!r} (languages: {', '.join(self.languages)})"
            )
        return requested

    def card_values(self, card: Card) -> dict[str, Any]:
        """Values a card's own texts may name besides its fields, as ``{card.<name>}`` (a game
        adds its own)."""
        return {}

    def derived_values(self) -> dict[str, Any]:
        """Numbers worked out from the data that prose may name as placeholders (a game adds
        its own; see ``placeholders.model_data``)."""
        return {}
