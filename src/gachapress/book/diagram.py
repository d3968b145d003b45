"""Setup diagrams: the table when play begins, dealt by the engine and laid out in millimetres.

A game's ``book.yaml`` says what lies where (``diagrams``: the rows of the middle of the table
and what each player has in front of them, each thing a path into the engine's observation of
the start position); here the engine deals that position and every pile, row, hand and purse
becomes positioned :class:`~gachapress.book.model.Shape` marks, the same for both backends.
Nothing here knows a game.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from gachapress.book import model as m
from gachapress.data.model import Card, DiagramItem, GameBase
from gachapress.data.model import SetupDiagram as DiagramData
from gachapress.data.model import Text as DataText
from gachapress.data.placeholders import FORMATS
from gachapress.engine.core import Game, State
from gachapress.errors import RulesError

if TYPE_CHECKING:
    from gachapress.data.load import GameData


class DiagramPage(Protocol):
    """What a diagram needs of the book page it is drawn for: the game, its words and its card
    pictures. The book builder (:class:`gachapress.book.build.BookBuilder`) is one; naming it
    here instead would make the builder and its diagrams import each other."""

    game: GameData
    model: GameBase
    cards: Mapping[str, Card]
    faces_dir: str  # the folder of the faces drawn in the page's language

    def t(self, value: DataText, card: Card | None = None) -> str: ...

    def ui(self, key: str, **values: Any) -> str: ...

    def counted(self, value: float, unit: str) -> str: ...

    def card(
        self, card_id: str, *, size: str = "s", caption: str | None = None, count: bool = False
    ) -> m.CardPicture: ...


#: A card's width and height on a diagram (poker proportions), and a token's diameter.
CARD_W = 12.0
CARD_H = CARD_W * 88 / 63
#: Text sizes: a thing's name, a count under it, an area's name.
LABEL = 3.1
COUNT = 2.9
TITLE = 3.5
GAP = 3.0
PAD = 2.5
#: How far each card back of a hand is set from the one before, and how many show.
FAN = 2.2
FAN_CARDS = 3
#: The narrowest a diagram is (the width of a book page's text, about).
MIN_WIDTH = 120.0
#: The widest two players' areas side by side may make (a page of text shrinks it to 80%).
MAX_WIDTH = 150.0
#: The seed the diagram's deal uses: any deal shows the same piles, counts and areas.
DEAL = 1


def text_width(value: str, size: float, *, bold: bool = False) -> float:
    """About how wide ``value`` is at ``size`` mm: wide (CJK) characters a full em, others
    a little over half of one (two thirds in bold)."""
    narrow = size * (0.66 if bold else 0.56)
    return sum(size if unicodedata.east_asian_width(c) in "WF" else narrow for c in value)


@dataclass
class Block:
    """A thing of the table laid out at (0, 0): its size and its shapes."""

    w: float
    h: float
    shapes: list[m.Shape]
    said: str

    def at(self, x: float, y: float) -> list[m.Shape]:
        return [
            m.Shape(s.kind, s.x + x, s.y + y, s.w, s.h, s.text, s.card, s.bold, s.round)
            for s in self.shapes
        ]


def _sized(area: m.Shape, w: float, h: float) -> m.Shape:
    """An area's box made ``w`` x ``h`` (areas side by side are drawn alike)."""
    return m.Shape(area.kind, area.x, area.y, w, h, area.text)


def _arranged(
    middle: Block, areas: list[Block], columns: int, width: float
) -> tuple[tuple[m.Shape, ...], float]:
    """The middle of the table over the players' areas, ``columns`` of them a line, in a
    picture ``width`` mm wide: its shapes and its height."""
    area_w = (width - (columns - 1) * GAP) / columns
    shapes = [_sized(middle.at(0, 0)[0], width, middle.h), *middle.at(0, 0)[1:]]
    y = middle.h + GAP
    for first in range(0, len(areas), columns):
        line = areas[first : first + columns]
        line_h = max(a.h for a in line)
        for n, area in enumerate(line):
            placed = area.at(n * (area_w + GAP), y)
            shapes += [_sized(placed[0], area_w, line_h), *placed[1:]]
        y += line_h + GAP
    return tuple(shapes), y - GAP


class DiagramBuilder:
    """Builds the setup diagrams of one book (see the module's docstring)."""

    def __init__(self, book: DiagramPage) -> None:
        self.book = book

    def all(self) -> tuple[m.SetupDiagram, ...]:
        spec = self.book.model.book
        if spec is None:
            return ()
        return tuple(self.diagram(d, ("book", "diagrams", i)) for i, d in enumerate(spec.diagrams))

    # -- the start position ----------------------------------------------------------------------
    def mode_and_players(self, data: DiagramData, where: tuple[Any, ...]) -> tuple[str, int]:
        modes = self.book.model.modes
        mode = data.mode or (next(iter(modes)) if len(modes) == 1 else None)
        if mode is None or mode not in modes:
            raise self.error((*where, "mode"), f"name one of the modes: {', '.join(modes)}")
        counts = list(modes[mode].players)
        players = data.players or min(counts)
        if players not in counts:
            allowed = ", ".join(map(str, counts))
            raise self.error((*where, "players"), f"{mode} is for {allowed} players")
        return mode, players

    def start(self, data: DiagramData, mode: str, players: int) -> State:
        """The engine's deal, played through the setup phases the data names (first moves)."""
        state = Game(self.book.game).new_game(players=players, seed=DEAL, mode=mode)
        for _ in range(1000):
            if state.is_terminal() or state.observation(0).get("phase") not in data.setup_phases:
                break
            state.apply(state.legal_actions()[0])
        return state

    def error(self, where: tuple[Any, ...], message: str) -> RulesError:
        return RulesError([self.book.game.where(where).problem(f"setup diagram: {message}")])

    def values(self, obs: dict[str, Any], path: str, where: tuple[Any, ...]) -> list[Any]:
        """The values at ``path`` of the observation, one per ``*`` entry (one without)."""
        nodes = [obs]
        for part in path.split("."):
            found = []
            for node in nodes:
                if part == "*" and isinstance(node, list):
                    found.extend(node)
                elif isinstance(node, dict) and part in node:
                    found.append(node[part])
                elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
                    found.append(node[int(part)])
                else:
                    keys = ", ".join(sorted(obs))
                    raise self.error(where, f"the start position has no {path!r} ({keys})")
            nodes = found
        return nodes

    # -- the picture -----------------------------------------------------------------------------
    def diagram(self, data: DiagramData, where: tuple[Any, ...]) -> m.SetupDiagram:
        book = self.book
        mode, players = self.mode_and_players(data, where)
        obs = self.start(data, mode, players).observation(0)
        rows: list[list[Block]] = []
        for r, row in enumerate(data.table):
            blocks: list[Block] = []
            for i, item in enumerate(row):
                spot = (*where, "table", r, i)
                values = self.values(obs, item.path, (*spot, item.kind))
                tops = self.values(obs, item.top, (*spot, "top")) if item.top else []
                for n, value in enumerate(values):
                    top = tops[n] if n < len(tops) else None
                    blocks.append(self.block(item, value, top, spot))
            rows.append(blocks)
        areas: list[Block] = []
        for p in range(players):
            inside = []
            for i, item in enumerate(data.player):
                spot = (*where, "player", i)
                found = self.values(obs, item.path, (*spot, item.kind))
                per_player = found[0] if len(found) == 1 else None
                if not isinstance(per_player, list) or len(per_player) != players:
                    raise self.error((*spot, item.kind), f"{item.path!r} is not one per player")
                inside.append(self.block(item, per_player[p], None, spot))
            areas.append(self.area(book.ui("player", n=p + 1), inside))
        middle = self.area(book.ui("diagram_middle"), [], rows=rows)
        # the players' areas alike, side by side: as many as the width holds, two if that
        # keeps the picture under MAX_WIDTH (wider, a page would shrink its words)
        area_w = max(a.w for a in areas)
        width = max(MIN_WIDTH, middle.w, area_w)
        columns = max(1, min(players, int((width + GAP) // (area_w + GAP))))
        if columns == 1 and players > 1 and 2 * area_w + GAP <= MAX_WIDTH:
            columns, width = 2, max(width, 2 * area_w + GAP)
        multi = len(book.model.modes) > 1
        title = (
            book.ui("diagram_title_mode", mode=book.t(book.model.modes[mode].name), n=players)
            if multi
            else book.ui("diagram_title", n=players)
        )
        description = tuple(
            [middle.said] + [b.said for row in rows for b in row] + [a.said for a in areas]
        )
        narrow = None
        if columns > 1:  # a phone's screen: the same table, its players one under another
            one = max(MIN_WIDTH, middle.w, max(a.w for a in areas))
            shapes, height = _arranged(middle, areas, 1, one)
            narrow = m.SetupDiagram(
                f"diagram-{mode}-narrow", title, players, round(one, 2), round(height, 2),
                shapes, description,
            )  # fmt: skip
        shapes, height = _arranged(middle, areas, columns, width)
        return m.SetupDiagram(
            f"diagram-{mode}", title, players, round(width, 2), round(height, 2),
            shapes, description, narrow,
        )  # fmt: skip

    def area(self, name: str, inside: list[Block], rows: list[list[Block]] | None = None) -> Block:
        """A tinted area with its name on top and its things in rows (one row without
        ``rows``), each row left to right."""
        rows = rows if rows is not None else [inside]
        shapes = [m.Shape("area", 0, 0, 0, 0, name)]
        name_w = text_width(name, TITLE, bold=True)
        shapes.append(m.Shape("text", PAD, PAD, name_w, TITLE, name, bold=True))
        y = PAD + TITLE + 1.5
        width = PAD + name_w + PAD
        for row in rows:
            x = PAD
            for block in row:
                shapes += block.at(x, y)
                x += block.w + GAP
            width = max(width, x - GAP + PAD)
            y += max((b.h for b in row), default=0) + GAP
        height = y - GAP + PAD
        shapes[0] = m.Shape("area", 0, 0, width, height, name)
        said = self.book.ui("list_sep").join(b.said for b in inside)
        return Block(width, height, shapes, self.said(name, said) if said else name)

    def block(self, item: DiagramItem, value: Any, top: Any, where: tuple[Any, ...]) -> Block:
        """One thing of the table: its name over it, its cards, its count under them."""
        book = self.book
        kind = item.kind
        label = book.t(item.label) if item.label else self.default_label(item)
        shapes: list[m.Shape] = []
        y0 = LABEL + 1.2
        count = ""
        if kind in ("pile", "hand"):
            if not isinstance(value, int) or isinstance(value, bool):
                raise self.error((*where, kind), f"{item.path!r} is not a number of cards")
            assert item.deck is not None
            token = self.book.model.deck(item.deck).form == "token"
            card = self.picture(top) if isinstance(top, str) else self.back(item.deck)
            fanned = min(value, FAN_CARDS) if kind == "hand" else 1
            for n in range(max(fanned, 1)):
                kind_n = "card" if value else "slot"
                size = CARD_W if token else CARD_H
                shapes.append(m.Shape(kind_n, n * FAN, y0, CARD_W, size, card=card, round=token))
            count = book.counted(value, "tokens" if token else "cards")
            body_w = CARD_W + FAN * (max(fanned, 1) - 1)
            body_h = CARD_W if token else CARD_H
        elif kind == "row":
            cards = value if isinstance(value, list) else [value]
            if not all(isinstance(c, str) and c in book.cards for c in cards):
                raise self.error((*where, kind), f"{item.path!r} does not hold card ids")
            token = item.deck is not None and book.model.deck(item.deck).form == "token"
            body_h = CARD_W if token else CARD_H
            for n, card_id in enumerate(cards):
                x = n * (CARD_W + 1.5)
                shapes.append(m.Shape("card", x, y0, CARD_W, body_h, card=self.picture(card_id)))
            if not cards:
                shapes.append(m.Shape("slot", 0, y0, CARD_W, body_h, round=token))
            body_w = max(1, len(cards)) * (CARD_W + 1.5) - 1.5
        elif kind == "slots":
            if not isinstance(value, int) or isinstance(value, bool):
                raise self.error((*where, kind), f"{item.path!r} is not a number")
            slot_w = CARD_W * 0.75
            for n in range(value):
                shapes.append(m.Shape("slot", n * (slot_w + 1), y0, slot_w, CARD_H))
            body_w = max(value * (slot_w + 1) - 1, slot_w)
            body_h = CARD_H
            count = book.counted(value, "slots")
        else:
            if not isinstance(value, int) or isinstance(value, bool):
                raise self.error((*where, kind), f"{item.path!r} is not an amount")
            count = FORMATS["yen"](value)
            body_w = text_width(count, TITLE + 1, bold=True)
            body_h = TITLE + 2
            shapes.append(m.Shape("text", 0, y0 + 0.5, body_w, TITLE + 1, count, bold=True))
            said = f"{label} {count}"
            w = max(body_w, text_width(label, LABEL))
            return Block(w, y0 + body_h, [m.Shape("text", 0, 0, w, LABEL, label), *shapes], said)
        shapes.insert(0, m.Shape("text", 0, 0, text_width(label, LABEL), LABEL, label))
        height = y0 + body_h
        if count:
            shapes.append(m.Shape("text", 0, height + 1, text_width(count, COUNT), COUNT, count))
            height += 1 + COUNT
        width = max(body_w, text_width(label, LABEL), text_width(count, COUNT))
        said = self.said(label, count or self.cards_said(value))
        return Block(width, height, shapes, said)

    def said(self, label: str, value: str) -> str:
        """A thing and what it holds, for the diagram's description ("Hand: 5 cards")."""
        return self.book.ui("label_value", label=label, value=value)

    def cards_said(self, value: Any) -> str:
        cards = value if isinstance(value, list) else [value]
        if not cards:
            return self.book.ui("empty")
        return self.book.ui("list_sep").join(self.picture(c).alt for c in cards)

    def default_label(self, item: DiagramItem) -> str:
        if item.kind == "pile" and item.deck is not None:
            return self.book.t(self.book.model.deck(item.deck).name)
        return self.book.ui(f"diagram_{item.kind}")

    def picture(self, card_id: str) -> m.CardPicture:
        return self.book.card(card_id, size="xs", caption="")

    def back(self, deck_id: str) -> m.CardPicture:
        deck = self.book.model.deck(deck_id)
        return m.CardPicture(
            f"back-{deck_id}",
            self.book.ui("back_of", deck=self.book.t(deck.name)),
            "",
            token=deck.form == "token",
            size="xs",
            folder=self.book.faces_dir,
        )
