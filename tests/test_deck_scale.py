"""Decks of any size: a deck of more than 1,000 cards checks; a one-card edit rewrites only
that card's face and the files that show it, and renders one face whatever the deck's size;
the preview's gallery comes in pages."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from gachapress.assembly.builder import BuildOptions, build
from gachapress.book.build import GALLERY_ALL, GALLERY_FIRST
from gachapress.cli.new_cmd import new
from gachapress.data.load import load_rules
from gachapress.publish.pnp import PnpDocument
from gachapress.render import svg
from gachapress.render.faceforms import FaceForms
from gachapress.render.layout import Face
from gachapress.serve.gallery import DeckGallery, gallery_page, game_gallery
from gachapress.serve.gallery import Face as GalleryFace

GAME = "deck"
DECKS = """\
decks:
  main:
    name: Sample cards
    fields:
      suit: {type: enum, values: [sun, moon, star]}
      value: {type: int, min: 1, max: 5}
      effect: {type: text, required: false}
    cards: {from: cards.csv}
"""
SUITS = ("sun", "moon", "star")


def deck_project(root: Path, faces: int) -> Path:
    """A project made by `gachapress new` whose deck has ``faces`` faces of two copies each;
    returns its spreadsheet."""
    new(GAME, root=root)
    rules = root / "rules" / GAME
    (rules / "decks.yaml").write_text(DECKS, encoding="utf-8")
    rows = ["id,count,name,suit,value,effect"]
    for i in range(faces):
        effect = "Draw a card." if i % 3 == 0 else ""
        rows.append(f"card-{i + 1},2,Card {i + 1},{SUITS[i % 3]},{1 + i % 5},{effect}")
    sheet = rules / "cards.csv"
    sheet.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return sheet


def test_a_deck_of_more_than_a_thousand_cards_loads_at_its_size(tmp_path: Path) -> None:
    deck_project(tmp_path, 600)
    game = load_rules(GAME, tmp_path / "rules")
    assert [(c.deck, c.count) for c in game.model.component_list()] == [("main", 1200)]


def _files(out: Path) -> dict[str, tuple[str, int]]:
    """Each file of out/ (but the tool's own list of them): its digest and its mtime."""
    return {
        str(path.relative_to(out)): (hashlib.sha256(path.read_bytes()).digest().hex(),
                                     path.stat().st_mtime_ns)
        for path in out.rglob("*")
        if path.is_file() and path.name != ".gachapress-out.json"
    }  # fmt: skip


@dataclass(frozen=True)
class Edited:
    """What a second build did after one card's text was edited."""

    changed: set[str]
    """The files of out/ it changed."""
    svg: list[str]
    """The faces it drew as SVG."""
    pdf: int
    """The faces it drew for the print-and-play PDF (not found kept from the first build)."""
    sheets: int
    """The sheets of cards it drew for that PDF (not found kept)."""


def _edit(root: Path, faces: int, card: int, monkeypatch: pytest.MonkeyPatch) -> Edited:
    """Build a deck of ``faces`` faces, edit card ``card``'s text (with letters no card had)
    and build again."""
    sheet = deck_project(root, faces)
    options = BuildOptions(root=root, out=root / "out", papers=("a4",))
    assert not build([GAME], options).problems
    before = _files(options.out)
    old = f"card-{card},2,Card {card},{SUITS[(card - 1) % 3]},{1 + (card - 1) % 5},"
    rows = sheet.read_text(encoding="utf-8").splitlines()
    (index,) = [n for n, row in enumerate(rows) if row.startswith(old)]
    rows[index] = old + '"Gain 2 jewels, quick!"'
    sheet.write_text("\n".join(rows) + "\n", encoding="utf-8")
    rendered: list[str] = []
    face_svg = svg.face_svg
    pdf_drawn: list[int] = []
    finish = FaceForms.finish
    sheets: list[int] = []
    save = PnpDocument.save

    def counted(face: Face, *args: Any) -> str:
        rendered.append(face.key)
        return face_svg(face, *args)

    def drawn(forms: FaceForms) -> None:
        pdf_drawn.append(forms.drawn)
        finish(forms)

    def saved(document: PnpDocument) -> None:
        sheets.append(document.sheets_drawn)
        save(document)

    with monkeypatch.context() as patch:
        patch.setattr(svg, "face_svg", counted)
        patch.setattr(FaceForms, "finish", drawn)
        patch.setattr(PnpDocument, "save", saved)
        assert not build([GAME], options).problems
    after = _files(options.out)
    assert set(after) == set(before)
    changed = {rel for rel in after if after[rel] != before[rel]}
    return Edited(changed, rendered, sum(pdf_drawn), sum(sheets))


SHEETS = {f"{GAME}/{GAME}-pnp-a4.pdf"}
BOOKS = {f"{GAME}/rulebook.en.pdf", f"{GAME}/rulebook.en.a4.pdf",
         f"{GAME}/rulebook.en.booklet-a4.pdf"}  # fmt: skip


@pytest.mark.parametrize("faces", [svg.STABLE_SUBSET_FACES, 2 * svg.STABLE_SUBSET_FACES])
def test_a_one_card_edit_redraws_that_card_alone_whatever_the_deck(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, faces: int
) -> None:
    """A deck of 100 faces and one of 200: an edit of a card the rulebook pictures (its
    first) draws that one face, once as SVG and once for the print sheets (whose pages, which
    show it by name, are all kept), and rewrites its SVG, the print sheets and the rulebook
    PDFs; an edit of a card it does not picture leaves the rulebooks as they were. Nothing
    else of the game is rewritten."""
    pictured = _edit(tmp_path / "pictured", faces, 4, monkeypatch)
    assert pictured.changed == {f"{GAME}/cards/card-4.svg"} | SHEETS | BOOKS
    assert (pictured.svg, pictured.pdf, pictured.sheets) == (["card-4"], 1, 0)
    last = faces - 1
    unpictured = _edit(tmp_path / "unpictured", faces, last, monkeypatch)
    assert unpictured.changed == {f"{GAME}/cards/card-{last}.svg"} | SHEETS
    assert (unpictured.svg, unpictured.pdf, unpictured.sheets) == ([f"card-{last}"], 1, 0)


def test_a_large_decks_rulebook_pictures_its_first_faces_and_says_so(tmp_path: Path) -> None:
    deck_project(tmp_path, GALLERY_ALL + 1)
    options = BuildOptions(root=tmp_path, out=tmp_path / "out", papers=("a4",))
    assert not build([GAME], options).problems
    html = (options.out / GAME / "rulebook.en.html").read_text(encoding="utf-8")
    gallery = html.split('class="gallery"', 1)[1].split("</div>", 1)[0]
    shown = re.findall(r'src="cards/(card-\d+)\.svg"', gallery)
    assert shown == [f"card-{n}" for n in range(1, GALLERY_FIRST + 1)]
    assert f"the first {GALLERY_FIRST} of its {GALLERY_ALL + 1} different faces" in html
    deck_project(tmp_path / "whole", GALLERY_ALL)
    options = BuildOptions(root=tmp_path / "whole", out=tmp_path / "whole" / "out")
    assert not build([GAME], options).problems
    html = (options.out / GAME / "rulebook.en.html").read_text(encoding="utf-8")
    gallery = html.split('class="gallery"', 1)[1].split("</div>", 1)[0]
    assert len(re.findall(r'src="cards/card-\d+\.svg"', gallery)) == GALLERY_ALL
    assert "different faces. Every card" not in html


def test_the_gallery_comes_in_pages_each_face_once(tmp_path: Path) -> None:
    deck_project(tmp_path, 450)
    decks = game_gallery(load_rules(GAME, tmp_path / "rules"))
    pages = [gallery_page(decks, n, size=200) for n in (1, 2, 3)]
    shown = [face.id for page in pages for deck in page.decks for face in deck.faces]
    assert shown == [f"card-{i}" for i in range(1, 451)]
    assert [(p.number, p.pages, p.first, p.last, p.faces) for p in pages] == [
        (1, 3, 1, 200, 450), (2, 3, 201, 400, 450), (3, 3, 401, 450, 450),
    ]  # fmt: skip
    assert all(page.decks[0].back.id == "back-main" for page in pages)
    assert all(page.decks[0].distinct == 450 for page in pages)
    assert gallery_page(decks, 9, size=200).number == 3  # past the last: the last
    assert gallery_page(decks, 0, size=200).number == 1


def gallery_deck(deck_id: str, faces: int) -> DeckGallery:
    """A deck of the gallery with ``faces`` faces, ``DECK-1`` on."""
    shown = tuple(
        GalleryFace(f"{deck_id}-{n}", f"{deck_id}-{n}", 1, "", "") for n in range(1, faces + 1)
    )
    back = GalleryFace(f"back-{deck_id}", f"back-{deck_id}", faces, "", "")
    return DeckGallery(deck_id, deck_id.title(), faces, shown, back, "cards", "en", faces)


def test_a_deck_of_the_gallery_is_paged_alone() -> None:
    """The deck filter pages within the deck, whichever page of the whole gallery it is on."""
    decks = [gallery_deck("toys", 150), gallery_deck("coins", 450), gallery_deck("tokens", 3)]
    pages = [gallery_page(decks, n, size=200, deck="coins") for n in (1, 2, 3)]
    shown = [face.id for page in pages for deck in page.decks for face in deck.faces]
    assert shown == [f"coins-{i}" for i in range(1, 451)]
    assert [(p.number, p.pages, p.first, p.last, p.faces, p.deck) for p in pages] == [
        (1, 3, 1, 200, 450, "coins"),
        (2, 3, 201, 400, 450, "coins"),
        (3, 3, 401, 450, 450, "coins"),
    ]
    assert all([deck.id for deck in page.decks] == ["coins"] for page in pages)
    assert all(page.decks[0].back.id == "back-coins" for page in pages)
    every = (("toys", "Toys"), ("coins", "Coins"), ("tokens", "Tokens"))
    assert all(page.every == every for page in pages)  # every deck to choose, on every page
    last = gallery_page(decks, 1, size=200, deck="tokens")  # on page 4 of the whole gallery
    assert [face.id for face in last.decks[0].faces] == ["tokens-1", "tokens-2", "tokens-3"]
    assert (last.pages, last.faces) == (1, 3)
    for unknown in ("", "nothing"):  # every deck
        whole = gallery_page(decks, 4, size=200, deck=unknown)
        assert (whole.deck, whole.pages, whole.first, whole.faces) == ("", 4, 601, 603)
