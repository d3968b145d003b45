"""The nodes of a rulebook: small frozen dataclasses, the same for every game and backend.

Inline nodes (text, a card picture, an icon...) make up paragraphs, table cells and example
values; blocks (paragraphs, lists, tables) make up sections; a :class:`Book` is one game's
rulebook in one language. Every node has a ``t`` (inline) or ``kind`` (section) naming its
sort, so a backend (or a template) dispatches on it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, is_dataclass
from typing import ClassVar

from gachapress.assembly.names import CARDS_DIR

# -- inline nodes ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Text:
    t: ClassVar[str] = "text"
    text: str
    lang: str | None = None
    cls: str | None = None


@dataclass(frozen=True)
class Strong:
    t: ClassVar[str] = "strong"
    text: str


@dataclass(frozen=True)
class Code:
    t: ClassVar[str] = "code"
    text: str


@dataclass(frozen=True)
class Swatch:
    """A colour square (a validated ``#rrggbb``) standing beside the colour's name."""

    t: ClassVar[str] = "swatch"
    hex: str
    label: str


@dataclass(frozen=True)
class Marker:
    """A symbol printed on a card (a player-count marker, the advanced symbol)."""

    t: ClassVar[str] = "marker"
    text: str
    dark: bool = False


@dataclass(frozen=True)
class Icon:
    """An OpenMoji emoji by hexcode."""

    t: ClassVar[str] = "icon"
    hex: str
    label: str
    decorative: bool = False


@dataclass(frozen=True)
class CardPicture:
    """A card's face (the built ``<folder>/<card_id>.svg``, drawn in the page's language), its
    alt text and caption."""

    t: ClassVar[str] = "card"
    card_id: str
    alt: str
    caption: str | None = None
    count: int | None = None
    token: bool = False
    size: str = "s"
    folder: str = CARDS_DIR

    @property
    def src(self) -> str:
        return f"{self.folder}/{self.card_id}.svg"


@dataclass(frozen=True)
class CardRow:
    """Cards side by side; ``places``, when given, says each card's place in the list ("1st",
    "2nd"...)."""

    t: ClassVar[str] = "cards"
    cards: tuple[CardPicture, ...]
    places: tuple[str, ...] = ()


@dataclass(frozen=True)
class ValueRow:
    place: str  # the row's place in the list: "1st", "2nd"...
    nodes: tuple[Inline, ...]


@dataclass(frozen=True)
class ValueRows:
    """A list of values, one numbered row each."""

    t: ClassVar[str] = "rows"
    rows: tuple[ValueRow, ...]


@dataclass(frozen=True)
class Pair:
    key: str
    nodes: tuple[Inline, ...]


@dataclass(frozen=True)
class Pairs:
    """Labelled values, one row each ("Player 1: 3")."""

    t: ClassVar[str] = "pairs"
    pairs: tuple[Pair, ...]


@dataclass(frozen=True)
class Need:
    """``n`` of something a reward asks for: a kind with its icon, or a wild slot."""

    t: ClassVar[str] = "need"
    n: int
    label: str
    icon: Icon | None = None
    wild: bool = False


Inline = (
    Text | Strong | Code | Swatch | Marker | Icon | CardPicture | CardRow | ValueRows | Pairs | Need
)
Inlines = tuple[Inline, ...]


# -- blocks ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Paragraph:
    kind: ClassVar[str] = "p"
    items: tuple[Inlines, ...]
    """One item: the paragraph's runs (the shape lists have, so both read alike)."""

    @property
    def runs(self) -> Inlines:
        return self.items[0]


@dataclass(frozen=True)
class ListBlock:
    """A bulleted (``ul``) or numbered (``ol``) list, one runs per item."""

    kind: str
    items: tuple[Inlines, ...]


Block = Paragraph | ListBlock
Blocks = tuple[Block, ...]


@dataclass(frozen=True)
class Cell:
    nodes: Inlines = ()
    bg: str | None = None
    cls: str | None = None


@dataclass(frozen=True)
class Table:
    """``head`` cells, ``rows`` of cells (the first of each row is its header when
    ``row_heads``), an optional ``foot`` row and a note under the table."""

    caption: str
    head: tuple[Cell, ...]
    rows: tuple[tuple[Cell, ...], ...]
    cls: str = ""
    row_heads: bool = True
    note: str | None = None
    foot: tuple[Cell, ...] | None = None


@dataclass(frozen=True)
class Bar:
    """One bar: ``value`` on the chart's scale, ``text`` the number written beside it, and an
    optional interval (``low`` to ``high``) drawn as whiskers."""

    label: str
    value: float
    text: str
    low: float | None = None
    high: float | None = None


@dataclass(frozen=True)
class Span:
    """One range: ``low`` to ``high`` drawn as a line, ``mid`` as a mark, ``text`` beside it."""

    label: str
    low: float
    mid: float
    high: float
    text: str


@dataclass(frozen=True)
class BarChart:
    kind: ClassVar[str] = "bars"
    id: str
    title: str
    bars: tuple[Bar, ...]
    maximum: float
    axis: tuple[str, str]
    reference: float | None = None
    reference_label: str | None = None


@dataclass(frozen=True)
class RangeChart:
    kind: ClassVar[str] = "ranges"
    id: str
    title: str
    spans: tuple[Span, ...]
    minimum: float
    maximum: float
    axis: tuple[str, str]


Chart = BarChart | RangeChart


# -- pictures -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Shape:
    """One mark of a diagram, placed in millimetres from the diagram's top left: an ``area``
    (a player's place, the middle of the table: a tinted box), an empty ``slot`` (a dashed
    card outline), a ``card`` (its picture, face or back), or a line of ``text`` (``h`` its
    size, ``bold`` for an area's name) written from ``x`` and ``y``, its top left."""

    kind: str
    x: float
    y: float
    w: float
    h: float
    text: str = ""
    card: CardPicture | None = None
    bold: bool = False
    round: bool = False
    """A round slot (a token's place)."""


@dataclass(frozen=True)
class SetupDiagram:
    """The table when play begins, for one mode and player count, as the engine deals it:
    ``shapes`` drawn in order over a ``width`` x ``height`` mm picture; ``description`` says
    the same in words (one line per thing on the table), for readers who cannot see it;
    ``narrow`` is the same table with the players' areas one under another, for a screen
    too narrow for them side by side (None when they are already)."""

    id: str
    title: str
    players: int
    width: float
    height: float
    shapes: tuple[Shape, ...]
    description: tuple[str, ...]
    narrow: SetupDiagram | None = None


@dataclass(frozen=True)
class TurnSummary:
    """A short numbered "on your turn" box."""

    id: str
    title: str
    steps: tuple[Inlines, ...]


# -- parts of sections ----------------------------------------------------------------------------


@dataclass(frozen=True)
class TocEntry:
    id: str
    title: str
    children: tuple[TocEntry, ...] = ()


@dataclass(frozen=True)
class Subsection:
    id: str
    title: str
    blocks: Blocks


@dataclass(frozen=True)
class ComponentItem:
    name: str
    count: str | None  # "49", "49枚": the language's counter
    href: str | None = None
    note: str | None = None


@dataclass(frozen=True)
class Provenance:
    """Where something comes from, said to players, with a link to the clarification."""

    text: str
    href: str | None = None
    link: str | None = None


@dataclass(frozen=True)
class Deck:
    id: str
    title: str
    summary: str
    back: CardPicture
    provenance: Provenance | None
    gallery: tuple[CardPicture, ...]
    tables: tuple[Table, ...]
    more: str | None = None
    """Said under a gallery that pictures only the first faces of a large deck."""


@dataclass(frozen=True)
class Mode:
    id: str
    title: str
    players: str
    text: str


@dataclass(frozen=True)
class Given:
    label: str
    value: Inlines


@dataclass(frozen=True)
class Example:
    """A worked example: the situation, its inputs, the answer, checked by the engine."""

    id: str
    text: Blocks
    given: tuple[Given, ...]
    expect: Inlines
    verified: bool
    provenance: Provenance
    source: str
    """``seed-example``, ``seed`` or ``project`` (see the data's ``ExampleSource``)."""


@dataclass(frozen=True)
class ExampleGroup:
    id: str
    title: str
    items: tuple[Example, ...]


@dataclass(frozen=True)
class StoryStep:
    """A move of a whole-game example in players' words, and what it changed."""

    move: Inlines
    notes: tuple[Inlines, ...]


@dataclass(frozen=True)
class StoryTurn:
    title: str
    steps: tuple[StoryStep, ...]


@dataclass(frozen=True)
class Playthrough:
    """A whole game replayed by the engine and told: the table at the start (each hand, the
    public cards), each turn's moves with what they changed, and the scores it leads to."""

    id: str
    text: Blocks
    setup: str
    table: tuple[Pair, ...]
    turns: tuple[StoryTurn, ...]
    result: tuple[Inlines, ...]


@dataclass(frozen=True)
class Clarification:
    id: str
    question: Blocks
    decision: Blocks
    reason: Blocks


@dataclass(frozen=True)
class ChartFigure:
    caption: str | None
    chart: Chart


@dataclass(frozen=True)
class ChartGroup:
    title: str
    figures: tuple[ChartFigure, ...]


@dataclass(frozen=True)
class NumbersMode:
    id: str
    title: str | None
    charts: tuple[ChartGroup, ...]
    endings: Table | None
    rare: Table | None


# -- sections -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Section:
    """What every section has; ``toc_children`` are its entries under it in the contents."""

    id: str
    title: str

    @property
    def toc_children(self) -> tuple[TocEntry, ...]:
        return ()


@dataclass(frozen=True)
class OverviewSection(Section):
    kind: ClassVar[str] = "overview"
    blocks: Blocks
    goal_title: str
    goal: Blocks


@dataclass(frozen=True)
class ComponentsSection(Section):
    kind: ClassVar[str] = "components"
    items: tuple[ComponentItem, ...]
    decks: tuple[Deck, ...]
    count_first: bool = True  # "12 Gacha cards"; False: the count after, 「ガチャカード12枚」

    @property
    def toc_children(self) -> tuple[TocEntry, ...]:
        return tuple(TocEntry(d.id, d.title) for d in self.decks)


@dataclass(frozen=True)
class PlainSection(Section):
    kind: ClassVar[str] = "plain"
    blocks: Blocks
    tables: tuple[Table, ...] = ()
    children: tuple[Subsection, ...] = ()
    diagrams: tuple[SetupDiagram, ...] = ()
    summaries: tuple[TurnSummary, ...] = ()

    @property
    def toc_children(self) -> tuple[TocEntry, ...]:
        return tuple(TocEntry(c.id, c.title) for c in self.children)


@dataclass(frozen=True)
class ModesSection(Section):
    kind: ClassVar[str] = "modes"
    modes: tuple[Mode, ...]
    children: tuple[Subsection, ...]
    tables: tuple[Table, ...]

    @property
    def toc_children(self) -> tuple[TocEntry, ...]:
        return tuple(TocEntry(c.id, c.title) for c in (*self.modes, *self.children))


@dataclass(frozen=True)
class ExamplesSection(Section):
    kind: ClassVar[str] = "examples"
    intro: str
    groups: tuple[ExampleGroup, ...]
    playthroughs: tuple[Playthrough, ...]


@dataclass(frozen=True)
class ClarificationsSection(Section):
    kind: ClassVar[str] = "clarifications"
    intro: str
    items: tuple[Clarification, ...]


@dataclass(frozen=True)
class NumbersSection(Section):
    kind: ClassVar[str] = "numbers"
    intro: str
    modes: tuple[NumbersMode, ...]


@dataclass(frozen=True)
class QuickRefSection(Section):
    kind: ClassVar[str] = "quickref"
    items: tuple[Blocks, ...]


@dataclass(frozen=True)
class CreditsSection(Section):
    kind: ClassVar[str] = "credits"
    based_on: str | None
    """The original rules the game follows, where its data names them (``seed:``)."""
    project: str | None
    """The project's own credits (``project.yaml``), if it gives them."""
    licence: str | None
    openmoji: str | None
    """The art's licence, in English whatever the book's language, where the book or the game's
    faces show OpenMoji art."""
    fonts: str
    generated: str


AnySection = (
    OverviewSection
    | ComponentsSection
    | PlainSection
    | ModesSection
    | ExamplesSection
    | ClarificationsSection
    | NumbersSection
    | QuickRefSection
    | CreditsSection
)


# -- the book -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Link:
    """A link to another file the build makes beside the book (its other languages, its
    PDF, the print-and-play sheets, the exports)."""

    href: str
    label: str
    lang: str | None = None


@dataclass(frozen=True)
class FileRef:
    """A file the build makes beside the book, to link from it: its name (``{lang}`` stands
    for the book's language) and the UI string (with its fields) that names it."""

    href: str
    label: str
    values: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Header:
    facts: tuple[tuple[str, str], ...]
    summary: str | None


@dataclass(frozen=True)
class Book:
    """One game's rulebook in one language."""

    game_id: str
    lang: str
    title: str
    author: str
    """Who the book names as its author: the project's (``project.yaml``)."""
    header: Header
    sections: tuple[AnySection, ...]
    ui: Mapping[str, str]
    """The page's own words in its language (labels, the verified mark...), by key."""
    icons: tuple[str, ...] = ()
    """The OpenMoji hexcodes the book shows, in order of first use."""
    other_languages: tuple[Link, ...] = ()
    downloads: tuple[Link, ...] = field(default=())

    @property
    def toc(self) -> tuple[TocEntry, ...]:
        return tuple(TocEntry(s.id, s.title, s.toc_children) for s in self.sections)


def pictured(node: object) -> frozenset[str]:
    """The cards a book (or any part of one) pictures, by id."""
    if isinstance(node, CardPicture):
        return frozenset((node.card_id,))
    if isinstance(node, tuple | list):
        return frozenset().union(*(pictured(item) for item in node))
    if isinstance(node, Mapping):
        return frozenset().union(*(pictured(item) for item in node.values()))
    if is_dataclass(node):
        return frozenset().union(*(pictured(getattr(node, f.name)) for f in fields(node)))
    return frozenset()
