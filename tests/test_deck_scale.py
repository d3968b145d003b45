"""Decks of any size: a deck of more than 1,000 cards checks; a one-card edit rewrites only
that card's face and the files that show it, and renders one face whatever the deck's size;
the preview's gallery comes in pages."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest

from gachapress.assembly.builder import BuildOptions, build
from gachapress.cli.new_cmd import new
from gachapress.data.load import load_rules
from gachapress.render import svg
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
EDITED = "card-4"


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


def _edit(root: Path, faces: int, monkeypatch: pytest.MonkeyPatch) -> tuple[set[str], list[str]]:
    """Build a deck of ``faces`` faces, edit one card's text (with letters no card had) and
    build again: the files that changed, and the faces rendered as SVG by the second build."""
    sheet = deck_project(root, faces)
    options = BuildOptions(root=root, out=root / "out", papers=("a4",))
    assert not build([GAME], options).problems
    before = _files(options.out)
    rows = sheet.read_text(encoding="utf-8").replace(
        f"{EDITED},2,Card 4,sun,4,Draw a card.", f'{EDITED},2,Card 4,sun,4,"Gain 2 jewels, quick!"'
    )  # fmt: skip
    sheet.write_text(rows, encoding="utf-8")
    rendered: list[str] = []
    face_svg = svg.face_svg

    def counted(face: Face, *args: Any) -> str:
        rendered.append(face.key)
        return face_svg(face, *args)

    with monkeypatch.context() as patch:
        patch.setattr(svg, "face_svg", counted)
        assert not build([GAME], options).problems
    after = _files(options.out)
    assert set(after) == set(before)
    return {rel for rel in after if after[rel] != before[rel]}, rendered


def test_a_one_card_edit_rewrites_that_card_alone_whatever_the_deck(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A deck of 100 faces and one of 200: the edit renders the one face, and rewrites its
    SVG, the print-and-play sheets and the rulebook PDFs (which show every card), nothing
    else of the game."""
    small = _edit(tmp_path / "small", svg.STABLE_SUBSET_FACES, monkeypatch)
    large = _edit(tmp_path / "large", 2 * svg.STABLE_SUBSET_FACES, monkeypatch)
    expected = {
        f"{GAME}/cards/{EDITED}.svg",
        f"{GAME}/{GAME}-pnp-a4.pdf",
        f"{GAME}/rulebook.en.pdf",
        f"{GAME}/rulebook.en.a4.pdf",
        f"{GAME}/rulebook.en.booklet-a4.pdf",
    }
    for changed, rendered in (small, large):
        assert changed == expected
        assert rendered == [EDITED]


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
