"""`gachapress serve` without a browser: what an edit rebuilds, what may be served, the pages."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import time
from pathlib import Path

import pytest
from reportlab.pdfgen.canvas import Canvas
from starlette.testclient import TestClient

from gachapress.assembly.builder import BuildOptions, load_game_data
from gachapress.checks.playtest import playtest
from gachapress.data.load import load_rules
from gachapress.engine.contract import verdict
from gachapress.serve.app import Preview, create_app
from gachapress.serve.gallery import PAGE_SIZE, game_gallery
from gachapress.serve.rebuild import Rebuilt, prepare, touched_games
from tests.conftest import ROOT, RULES, run_cli

GAMES = ("gachapon-trick", "gotcha", "rps-fire")


def test_an_edit_rebuilds_only_the_games_it_touches(tmp_path: Path) -> None:
    root = tmp_path
    rules, templates = root / "rules", root / "templates"
    assert touched_games([rules / "gotcha" / "decks.yaml"], root, GAMES) == ["gotcha"]
    assert touched_games([rules / "gasha" / "decks.yaml"], root, GAMES) == []  # not previewed
    assert touched_games([rules / "gotcha" / "art" / "x.svg"], root, GAMES) == ["gotcha"]
    assert touched_games([templates / "cards" / "rps-fire.yaml"], root, GAMES) == ["rps-fire"]
    assert touched_games([templates / "rulebook.css"], root, GAMES) == list(GAMES)
    assert touched_games([root / "out" / "index.html", root / "notes.txt"], root, GAMES) == []
    assert touched_games([root / "project.yaml"], root, GAMES) == list(GAMES)
    changes = [str(rules / "rps-fire" / "game.yaml"), str(rules / "gotcha" / "book.yaml")]
    assert touched_games(changes, root, GAMES) == ["gotcha", "rps-fire"]  # each once, in order


@pytest.fixture
def preview(tmp_path: Path) -> Preview:
    """A preview of a project whose out/ holds a page, a card, a PDF; a secret lies beside it."""
    out = tmp_path / "out"
    (out / "gotcha" / "cards").mkdir(parents=True)
    (out / "index.html").write_text("<html><body><h1>games</h1></body></html>")
    (out / "gotcha" / "cards" / "gacha-01.svg").write_text("<svg/>")
    canvas = Canvas(str(out / "gotcha" / "gotcha-pnp-a4.pdf"), pagesize=(200, 100))
    for page in range(2):
        canvas.drawString(10, 50, f"page {page}")
        canvas.showPage()
    canvas.save()
    (tmp_path / "secret.txt").write_text("not for the browser")
    (out / "gotcha" / "link.txt").symlink_to(tmp_path / "secret.txt")
    (out / "gotcha" / "up").symlink_to(tmp_path)
    return Preview(BuildOptions(root=tmp_path, out=out), ["gotcha"])


def test_out_is_served_and_nothing_outside_it(preview: Preview) -> None:
    client = TestClient(create_app(preview))
    assert client.get("/gotcha/cards/gacha-01.svg").text == "<svg/>"
    index = client.get("/")
    assert index.status_code == 200 and index.headers["cache-control"] == "no-cache"
    for path in (
        "/%2e%2e/secret.txt",
        "/gotcha/%2e%2e/%2e%2e/secret.txt",
        "/gotcha/..%2f..%2fsecret.txt",
        "/gotcha/link.txt",  # a symlink to the secret
        "/gotcha/up/secret.txt",  # through a symlinked folder
        "/%2fetc%2fpasswd",
        "/gotcha/cards/missing.svg",
    ):
        response = client.get(path)
        assert response.status_code == 404, path
        assert "not for the browser" not in response.text


def test_a_literal_dot_dot_is_refused(preview: Preview) -> None:
    """Clients tidy ``..`` away before sending; a raw request keeps it, as an attacker's would."""
    from gachapress.serve.files import inside

    out = preview.options.out
    assert inside(out, "../secret.txt") is None
    assert inside(out, "gotcha/../../secret.txt") is None
    assert inside(out, "gotcha/cards/gacha-01.svg") == (out / "gotcha/cards/gacha-01.svg").resolve()


def test_pages_carry_the_live_script(preview: Preview) -> None:
    """With the languages of each game's rulebooks in out/, which its toolbar link picks from."""
    preview.live.generation = 7
    client = TestClient(create_app(preview))
    assert client.get("/").text.endswith(
        '<script src="/_serve/live.js" data-generation="7" data-games="gotcha" '
        'data-playable="gotcha" data-books="" defer></script></body></html>'
    )
    for lang in ("ja", "en"):
        (preview.options.out / "gotcha" / f"rulebook.{lang}.html").write_text("<p>book</p>")
    assert 'data-books="gotcha:en,ja"' in client.get("/").text


def test_the_sheets_page_reloads_with_the_pdfs_and_not_before(preview: Preview) -> None:
    preview.live.generation, preview.live.pdfs = 3, 2
    html = TestClient(create_app(preview)).get("/_serve/sheets/gotcha").text
    assert 'data-generation="3" data-pdfs="2" data-games="gotcha"' in html


def test_an_edit_publishes_its_pages_first_and_its_pdfs_next(
    preview: Preview, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The quick pass moves the pages' generation on and says PDFs are coming; the complete
    pass after it moves only the PDFs' generation on; a failed check moves nothing."""
    passes: list[bool] = []
    results = {
        True: Rebuilt(True, {"gotcha": []}, ("gotcha/cards/gacha-01.svg",), deferred=True),
        False: Rebuilt(True, {"gotcha": []}, ("gotcha/gotcha-pnp-a4.pdf",)),
    }

    def fake(
        options: BuildOptions, games: list[str], *, quick: bool = False, **kwargs: object
    ) -> Rebuilt:
        passes.append(quick)
        return results[quick]

    monkeypatch.setattr("gachapress.serve.app.rebuild", fake)
    live = preview.live
    assert preview.build(["gotcha"], quick=True) is True
    assert (live.generation, live.pdfs, live.pending) == (1, 0, True)
    assert json.loads(live.message())["pending"] is True
    assert preview.build(["gotcha"]) is False
    assert (live.generation, live.pdfs, live.pending) == (1, 1, False)
    results[True] = Rebuilt(False, {"gotcha": ["rules/gotcha/decks.yaml:3:1: error: x"]})
    assert preview.build(["gotcha"], quick=True) is False
    assert (live.generation, live.pdfs, live.pending) == (1, 1, False)
    assert passes == [True, False, True]


def test_only_this_machine_may_call_a_loopback_preview(preview: Preview) -> None:
    client = TestClient(create_app(preview, allowed_hosts=["127.0.0.1", "localhost"]))
    assert client.get("/", headers={"host": "localhost:8000"}).status_code == 200
    assert client.get("/", headers={"host": "attacker.example"}).status_code == 400


def test_the_sheets_are_shown_as_pictures(preview: Preview) -> None:
    client = TestClient(create_app(preview))
    page = client.get("/_serve/sheets/gotcha").text
    pictures = re.findall(r'<img src="(/_serve/sheets/gotcha/a4/\d+\.png)\?v=\w+"', page)
    assert pictures == ["/_serve/sheets/gotcha/a4/0.png", "/_serve/sheets/gotcha/a4/1.png"]
    picture = client.get(pictures[1])
    assert picture.headers["content-type"] == "image/png"
    assert picture.content.startswith(b"\x89PNG\r\n\x1a\n")
    cached = list((preview.options.build_dir / "serve" / "sheets").glob("*.png"))
    assert len(cached) == 1  # rendered once, kept
    assert client.get("/_serve/sheets/gotcha/a4/2.png").status_code == 404
    assert client.get("/_serve/sheets/gotcha/tabloid/0.png").status_code == 404
    assert client.get("/_serve/sheets/gasha/a4/0.png").status_code == 404


def test_the_sheets_page_links_every_rulebook_pdf(preview: Preview) -> None:
    folder = preview.options.out / "gotcha"
    for name in ("rulebook.en.pdf", "rulebook.en.a4.pdf", "rulebook.ja.letter.pdf"):
        shutil.copy(folder / "gotcha-pnp-a4.pdf", folder / name)
    page = TestClient(create_app(preview)).get("/_serve/sheets/gotcha").text
    links = re.findall(r'<a href="(/gotcha/rulebook[^"]+)">[^<]+</a> \((\d+) pages\)', page)
    assert links == [
        ("/gotcha/rulebook.en.a4.pdf", "2"),
        ("/gotcha/rulebook.en.pdf", "2"),
        ("/gotcha/rulebook.ja.letter.pdf", "2"),
    ]


def test_the_gallery_shows_every_face_and_back_with_counts(preview: Preview) -> None:
    """In the page's language: GOTCHA!'s English faces (its cards/ are Japanese), or with
    `serve --lang ja` the Japanese ones."""
    game = load_rules("gotcha", RULES)
    for lang, folder in ((None, "cards/en"), ("ja", "cards")):
        preview.galleries["gotcha"] = game_gallery(game, lang)
        html = TestClient(create_app(preview)).get("/_serve/gallery/gotcha").text
        for deck_id, deck in game.model.deck_items():
            assert f'<a href="?deck={deck_id}" data-deck="{deck_id}"' in html
            assert f'<section class="deck" data-deck="{deck_id}">' in html
            for card in deck.faces():
                assert f'src="/gotcha/{folder}/{card.id}.svg?v=0"' in html
                assert f"<code>{card.id}</code> × {card.count}</p>" in html
                assert f">{card.name[lang or 'en']}</p>" in html
            assert f"<code>back-{deck_id}</code> × {deck.size()}</p>" in html
            assert f'src="/gotcha/{folder}/back-{deck_id}.svg?v=0"' in html


def test_the_deck_filter_pages_within_the_deck(preview: Preview) -> None:
    """`?deck=` shows that deck alone, in pages of its own: a deck whose faces begin past the
    first page of the whole gallery is there from its first face, and its pages keep to it."""
    from tests.test_deck_scale import gallery_deck

    preview.galleries["gotcha"] = [gallery_deck("toys", 150), gallery_deck("coins", 450)]
    client = TestClient(create_app(preview))
    whole = client.get("/_serve/gallery/gotcha").text
    first = re.findall(r'<li class="card" data-id="([^"]+)"', whole)
    assert first[-1] == f"coins-{PAGE_SIZE - 150}"  # the whole gallery's page 1 ends in coins
    assert 'href="?deck=coins" data-deck="coins"' in whole  # on page 1 of the whole gallery
    second = client.get("/_serve/gallery/gotcha?deck=coins&page=2").text
    ids = re.findall(r'<li class="card" data-id="([^"]+)"', second)
    assert ids == [f"coins-{n}" for n in range(PAGE_SIZE + 1, 2 * PAGE_SIZE + 1)]
    assert '<section class="deck" data-deck="toys">' not in second
    assert "Cards 201–400 of 450:" in second
    assert 'href="?deck=coins&amp;page=3"' in second and 'href="?deck=coins&amp;page=1"' in second
    assert 'href="?deck=toys" data-deck="toys"' in second  # the other deck, to choose
    assert 'data-deck="coins" aria-current="true"' in second


def test_serve_help_explains_it() -> None:
    from tests.conftest import run_cli

    result = run_cli("serve", "--help")
    assert result.code == 0
    text = " ".join(result.out.split())
    for words in (
        "--port",
        "--host",
        "127.0.0.1",
        "--root",
        "gallery",
        "file:line:col",
        "Ctrl-C",
        "--allow-host",
        "0.0.0.0",
    ):
        assert words in text, words


def test_a_lone_game_runs_its_book_simulations_across_the_jobs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    from gachapress.assembly.builder import build
    from gachapress.publish import stats
    from tests.conftest import ROOT

    shutil.copytree(RULES, tmp_path / "rules")
    shutil.copytree(ROOT / "templates", tmp_path / "templates")
    asked: list[tuple[list[str], int]] = []

    def recording(loaded: list, *args: object, jobs: int = 1, **kwargs: object) -> list[dict]:
        asked.append(([game.id for game in loaded], jobs))
        return [{} for _ in loaded]

    monkeypatch.setattr(stats, "simulate_books", recording)
    options = BuildOptions(root=tmp_path, out=tmp_path / "out", papers=("a4",))
    assert not build(["rps-fire"], options, jobs=2).problems
    assert asked[0] == (["rps-fire"], 2)  # played first, over the jobs; the book reads the cache


def test_a_taken_port_is_said_at_once(tmp_path: Path) -> None:
    import socket

    from tests.conftest import run_cli

    shutil.copytree(RULES / "gotcha", tmp_path / "rules" / "gotcha")  # a project with the game
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        result = run_cli("serve", "gotcha", "--port", str(port), "--root", str(tmp_path))
    assert result.code == 1
    assert f"error: cannot listen on 127.0.0.1:{port}" in result.err
    assert not (tmp_path / "out").exists()  # said before building anything


def test_the_first_save_finds_the_checks_random_games_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a start whose build had nothing to do, ``prepare`` has played the check's random
    games of each previewed game, so the first save's rebuild does not."""
    shutil.copytree(RULES / "rps-fire", tmp_path / "rules" / "rps-fire")
    shutil.copytree(ROOT / "templates", tmp_path / "templates")
    monkeypatch.setattr(verdict, "_PASSED", set())
    prepare(BuildOptions(root=tmp_path, out=tmp_path / "out"), ["rps-fire"])

    def replayed(game: object) -> None:
        raise AssertionError("played again")

    monkeypatch.setattr(verdict, "run_contract", replayed)
    assert list(playtest(load_game_data("rps-fire", tmp_path / "rules"))) == []


def test_a_save_of_project_yaml_rebuilds_the_books(tmp_path: Path) -> None:
    """project.yaml (the credits every rulebook carries) is watched like the rules: each save
    rebuilds the books, also when an editor saves it by replacing the file."""
    assert run_cli("new", "tide-pool", cwd=tmp_path).code == 0
    preview = Preview(BuildOptions(root=tmp_path, out=tmp_path / "out"), ["tide-pool"])
    book = tmp_path / "out" / "tide-pool" / "rulebook.en.html"
    project = tmp_path / "project.yaml"
    before = project.read_text(encoding="utf-8")

    def save(credits: str) -> None:
        """Save as many editors do: write a new file, then move it over the old one."""
        staged = tmp_path / ".project.yaml.swp"
        staged.write_text(f"{before}credits: {credits}\n", encoding="utf-8")
        os.replace(staged, project)

    async def shown(credits: str, seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if book.is_file() and credits in book.read_text(encoding="utf-8"):
                return True
            await asyncio.sleep(0.2)
        return False

    async def edits() -> None:
        preview.stop = asyncio.Event()
        watching = asyncio.create_task(preview.watch())
        try:
            for _ in range(10):  # until the watch has started: it may miss a save before
                save("Drawn by Ada")
                if await shown("Drawn by Ada", 6):
                    break
            else:
                raise AssertionError("a save of project.yaml rebuilt nothing")
            save("Drawn by Grace")  # the file replaced again: still watched
            assert await shown("Drawn by Grace", 60), "the second save was not rebuilt"
        finally:
            preview.stop.set()
            await asyncio.wait_for(watching, 10)

    asyncio.run(edits())
