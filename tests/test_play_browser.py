"""The Play page in a real browser (Debian's chromium driven by Playwright): every game and
mode played to its final scores by clicking, one person against the bots; hot-seat play hides
one player's cards from the next; the keyboard plays too; what the page shows of the table is
the same when the cards a seat cannot see are dealt again.

The server runs in this process (uvicorn in a thread), so the tests can look at the engine's
state behind the page; it is always stopped afterwards.
"""

from __future__ import annotations

import json
import random
import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from gachapress.assembly.builder import BuildOptions
from gachapress.engine import load_game
from gachapress.serve.app import Preview, create_app
from gachapress.serve.play.session import FORMAT, Session
from tests.conftest import GAME_IDS, ROOT, run_cli
from tests.test_rulebooks_browser import BROWSER_ARGS, CHROMIUM, _require_browser

GAME_ID = "gachapon-trick"
#: The longest wait for one step of the page (a request and a redraw on a busy machine).
WAIT_MS = 30_000
#: The most moves one person makes in a test game (the longest take about two hundred).
MOST_MOVES = 2_000
FOCUSED = "element => element === document.activeElement"
MODES = [(game, mode) for game in GAME_IDS for mode in load_game(game).modes]


class Running:
    """The preview server in a thread, with its preview (and so its games) at hand."""

    def __init__(self, out: Path) -> None:
        self.preview = Preview(BuildOptions(root=ROOT, out=out), list(GAME_IDS))
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        config = uvicorn.Config(create_app(self.preview), log_level="warning", lifespan="off")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.listener]}, daemon=True
        )

    def session(self) -> Session:
        (session,) = self.preview.tables.games.values()
        return session


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    _require_browser()
    here = Running(tmp_path_factory.mktemp("play") / "out")
    here.thread.start()
    try:
        deadline = time.monotonic() + WAIT_MS / 1000
        while not here.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        yield here
    finally:
        here.server.should_exit = True
        here.thread.join(timeout=30)
        here.listener.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One chromium for the module (starting one costs seconds); each test has its own context."""
    module = _require_browser()
    with module.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=BROWSER_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page(running: Running, browser: Any) -> Iterator[Any]:
    """A tab in a fresh browser context: no cookie, storage or cache left by an earlier test."""
    running.preview.tables.games.clear()
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        tab = context.new_page()
        tab.set_default_timeout(WAIT_MS)
        yield tab
    finally:
        context.close()


def begin(
    page: Any, running: Running, game: str, mode: str, seats: list[str], lang: str = "en"
) -> None:
    """Open the game's Play page in ``lang`` and start a game with these seats (seat 0
    first)."""
    page.goto(f"{running.url}/_serve/play/{game}?lang={lang}")
    if len(load_game(game).modes) > 1:
        page.select_option("select[name=mode]", mode)
    page.select_option("select[name=players]", str(len(seats)))
    for seat, who in enumerate(seats):
        page.select_option(f"select[name=seat-{seat}]", who)
    page.get_by_role("button", name="Start", exact=True).click()


def until(page: Any, expression: str, arg: Any = None) -> None:
    """Wait until ``expression`` holds in the page, checked every 100 ms (not at each animation
    frame, which a busy headless browser may hold back); on a timeout, say what the page shows."""
    try:
        page.wait_for_function(expression, arg=arg, polling=100)
    except Exception as exc:  # playwright's TimeoutError: add the page's own words
        said = page.evaluate(
            "() => ['status', 'message'].map(id => document.getElementById(id)?.innerText)"
        )
        raise AssertionError(f"{expression} never held; the page says {said}") from exc


def moves_shown(page: Any) -> int:
    return int(page.locator("#table .view").get_attribute("data-moves"))


def choose(page: Any, rng: random.Random, keyboard: bool = False) -> None:
    """Make a move as a person would, and wait for the page to show the next state."""
    before = moves_shown(page)
    buttons = page.locator("#table button.action")
    button = buttons.nth(rng.randrange(buttons.count()))
    assert button.inner_text().strip() or button.locator("img").count()  # it says what it does
    if keyboard:
        button.focus()
        page.keyboard.press("Enter")
    else:
        button.click()
    shown = "(n) => Number(document.querySelector('#table .view')?.dataset.moves) > n"
    until(page, shown, arg=before)


@pytest.mark.parametrize(("game", "mode"), MODES)
def test_one_person_plays_a_whole_game_against_the_bots(
    page: Any, running: Running, game: str, mode: str
) -> None:
    players = load_game(game).modes[mode][0]
    bots = ["greedy", "random"] * players
    begin(page, running, game, mode, ["human", *bots[: players - 1]])
    page.locator("#table .view").wait_for()
    assert page.locator("#pass").is_hidden()  # one person: nothing to pass
    rng = random.Random(game)
    redealt = False
    for _ in range(MOST_MOVES):
        if page.locator("#table button.action").count() == 0:
            break
        session = running.session()
        if not redealt and len(session.moves) > 6:  # the re-deal check, on the page itself
            redealt = check_redeal(page, running, session)
        choose(page, rng)
    else:
        pytest.fail(f"{game} {mode}: no end after {MOST_MOVES} moves")
    assert redealt, "no re-deal changed the game: the check checked nothing"
    state = running.session().state
    assert state.is_terminal()
    status = page.locator("#status").inner_text()
    winners = ", ".join(f"Player {seat + 1}" for seat in state.winners())
    assert status.startswith(f"Game over: {winners} win"), status
    scores = page.locator(".player").all_inner_texts()
    for seat, score in enumerate(state.scores()):
        assert f"Final score\n{score:,}" in scores[seat], scores[seat]


def check_redeal(page: Any, running: Running, session: Session) -> bool:
    """Deal the cards seat 0 cannot see again behind the page, draw its view again as the
    page would (parsed by the browser) and compare with the page's table: the same DOM. True
    when the re-deal changed the game."""
    state = session.state
    other = state.clone()
    other.redeal(0, state.hidden_from(0), random.Random(len(session.moves)))
    session.state = other
    try:
        same = page.evaluate(
            """async () => {
              const key = document.getElementById("download").getAttribute("href").split("/")[3];
              const drawn = document.createElement("div");
              const lang = document.getElementById("play").dataset.lang;
              const view = await fetch(`/_serve/table/${key}?seat=0&lang=${lang}`);
              drawn.innerHTML = await view.text();
              return drawn.innerHTML === document.getElementById("table").innerHTML;
            }"""
        )
    finally:
        session.state = state
    assert same, "the page would show something of the re-dealt cards"
    return other.snapshot() != state.snapshot()


def test_hot_seat_play_hides_each_players_cards_from_the_next(page: Any, running: Running) -> None:
    begin(page, running, "rps-fire", "standard", ["human", "human"])
    passing = page.locator("#pass")
    passing.wait_for(state="visible")
    assert "Player 1" in passing.inner_text()
    assert page.locator("#table").inner_html() == ""  # nothing shows before Player 1 is ready
    page.get_by_role("button", name="I am Player 1: show my cards").click()
    page.locator("#table .view[data-seat='0']").wait_for()
    hand = page.locator(".hand img").evaluate_all("images => images.map(i => i.alt)")
    assert hand and passing.is_hidden()
    rng = random.Random(1)
    for _ in range(6):  # up to the turn of Player 2, then back
        seat = running.session().state.current_player
        button = page.locator("#table button.action")
        button.nth(rng.randrange(button.count())).click()
        if running.session().state.current_player != seat:
            break
    passing.wait_for(state="visible")
    assert "Player 2" in passing.inner_text()
    assert page.locator("#table .view").count() == 0  # Player 1's hand is gone
    assert page.get_by_role("button", name="I am Player 2: show my cards").evaluate(FOCUSED)
    page.keyboard.press("Enter")
    page.locator("#table .view[data-seat='1']").wait_for()


def test_gotcha_opens_in_japanese_and_its_english_link_goes_on_with_the_game(
    page: Any, running: Running
) -> None:
    """GOTCHA! is a Japanese game: its Play page opens in Japanese, from the setup to the pass
    screen and the table; its language link opens the same game in English."""
    books = running.preview.options.out / "gotcha"
    made = not books.exists()
    stubs = [books / f"rulebook.{lang}.html" for lang in ("en", "ja")]
    books.mkdir(parents=True, exist_ok=True)
    for stub in stubs:  # the toolbar links the rulebooks out/ holds
        stub.write_text("<p>book</p>", encoding="utf-8")
    try:
        page.goto(f"{running.url}/_serve/play/gotcha")
    finally:  # out/ is the tool's again for the tests that build into it
        for stub in stubs:
            stub.unlink()
        if made:
            books.rmdir()
    assert page.locator("html").get_attribute("lang") == "ja"
    # the toolbar's Play and rulebook links keep the page's language
    assert page.locator('#gachapress-bar a[href="/_serve/play/rps-fire?lang=ja"]').count() == 1
    assert page.locator('#gachapress-bar a[href="/gotcha/rulebook.ja.html"]').count() == 1
    page.select_option("select[name=players]", "3")
    for seat in range(3):
        page.select_option(f"select[name=seat-{seat}]", "human")
    assert "プレイヤー3" in page.locator("#seats").inner_text()
    page.get_by_role("button", name="開始", exact=True).click()
    page.locator("#pass").wait_for(state="visible")
    assert page.locator("#pass").inner_text().startswith("画面をプレイヤー")
    page.get_by_role("button", name=re.compile("^プレイヤー.です：自分のカードを見る$")).click()
    status = page.locator("#status")
    status.wait_for()
    assert re.fullmatch(r"プレイヤー\dの番です", status.inner_text()), status.inner_text()
    assert "手札" in page.locator(".hand h3").inner_text()
    page.get_by_role("link", name="English", exact=True).click()
    page.wait_for_url(re.compile(r"\?lang=en#"))
    assert page.locator("html").get_attribute("lang") == "en"
    page.get_by_role("button", name=re.compile("^I am Player .: show my cards$")).click()
    page.locator("#status").wait_for()
    assert re.fullmatch(r"Player \d, your turn", page.locator("#status").inner_text())


def test_the_keyboard_plays_a_reload_goes_on_and_undo_takes_a_move_back(
    page: Any, running: Running
) -> None:
    begin(page, running, GAME_ID, "standard", ["human", "greedy"])
    page.locator("#table .view").wait_for()
    # the toolbar's Play link keeps the page's language
    assert page.locator(f'#gachapress-bar a[href="/_serve/play/{GAME_ID}?lang=en"]').count() == 1
    first = page.locator("#table button.action").first
    assert first.evaluate(FOCUSED)  # the first choice is ready for Enter
    name = first.evaluate("b => b.textContent.trim() + ' ' + b.querySelector('img').alt")
    assert name.startswith("Play ") and "-" not in name  # player words, no card ids
    rng = random.Random(5)
    for _ in range(3):
        choose(page, rng, keyboard=True)
    moves = running.session().moves[:]
    page.reload()  # as after a saved edit: the page goes on with the game
    until(
        page,
        "(n) => document.querySelector('#table .view')?.dataset.moves === String(n)",
        arg=len(moves),
    )
    page.get_by_role("button", name="Undo my last move").click()
    until(
        page,
        "(n) => Number(document.querySelector('#table .view')?.dataset.moves) < n",
        arg=len(moves),
    )
    assert len(running.session().moves) < len(moves)
    page.get_by_role("button", name="Restart this deal").click()
    until(page, "() => document.querySelector('#table .view')?.dataset.moves === '0'")


def test_a_bad_log_file_shows_its_located_error(
    page: Any, running: Running, tmp_path: Path
) -> None:
    begin(page, running, "gasha", "standard", ["human", "random"])
    page.locator("#table .view").wait_for()
    rng = random.Random(2)
    for _ in range(4):
        choose(page, rng)
    with page.expect_download() as download:  # mid-game: Player 1's view, not the game
        page.get_by_role("link", name="Download the log").click()
    view = tmp_path / "view.json"
    download.value.save_as(view)
    session = running.session()
    assert json.loads(view.read_text(encoding="utf-8"))["log"] == session.state.log_view(0)
    saved = tmp_path / "game.json"  # the whole game, as downloaded once it is over
    whole = {"format": FORMAT, "seats": session.seats, "log": session.state.log}
    saved.write_text(json.dumps(whole), encoding="utf-8")
    text = saved.read_text(encoding="utf-8")
    first = session.state.log[1]["action"]
    bad = tmp_path / "bad.json"
    bad.write_text(text.replace(f'"{first}"', '"draw deck-9"', 1), encoding="utf-8")
    page.locator("#new-game summary").click()
    message = page.locator("#message")
    page.set_input_files("#upload input[type=file]", str(view))
    message.wait_for(state="visible")
    assert "view.json: this is Player 1's view" in message.inner_text()
    assert "cannot be replayed" in message.inner_text()
    page.set_input_files("#upload input[type=file]", str(bad))
    until(page, "() => document.getElementById('message').textContent.startsWith('bad.json')")
    assert message.inner_text().startswith("bad.json: move 1: draw deck-9 is not legal")
    page.set_input_files("#upload input[type=file]", str(saved))
    deadline = time.monotonic() + WAIT_MS / 1000
    while len(running.preview.tables.games) < 2:  # the game and its upload
        assert time.monotonic() < deadline, "the saved game did not load"
        time.sleep(0.05)
    message.wait_for(state="hidden")
    until(
        page,
        "(key) => document.getElementById('download').getAttribute('href').includes(key)",
        arg=list(running.preview.tables.games)[-1],
    )
    page.locator("#table .view").wait_for()


def test_every_players_box_holds_its_cards_on_a_wide_screen(running: Running, browser: Any) -> None:
    """At 1280 px a Gasha player with five Set Rewards and their tickets keeps every card
    inside their box (a ticket once read as one unbreakable line wider than the box)."""
    running.preview.tables.games.clear()
    # the card pictures themselves: measured with their alt text instead, the boxes vary
    out = running.preview.options.out
    built = run_cli("build", "gasha", "--out", str(out), env={"GACHAPRESS_BOOK_GAMES": "2"})
    assert built.code == 0, built.err
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        begin(page, running, "gasha", "standard", ["human", "random"])
        page.locator("#table .view").wait_for()
        session, rng = running.session(), random.Random(4)
        while max(map(len, session.state.observation(0)["rewards"])) < 5:
            assert session.state.current_player == 0, "the game ended before five rewards"
            session.act(str(rng.choice(session.state.legal_actions())))
        page.reload()
        until(
            page,
            "(n) => document.querySelector('#table .view')?.dataset.moves === String(n)",
            arg=len(session.moves),
        )
        loaded = "() => [...document.querySelectorAll('.player img')].every(i => i.naturalWidth)"
        until(page, loaded)
        spilled = page.evaluate(
            """() => [...document.querySelectorAll('.player')].flatMap(box => {
                const right = box.getBoundingClientRect().right;
                return [...box.querySelectorAll('img')]
                    .filter(img => img.getBoundingClientRect().right > right)
                    .map(img => `${box.querySelector('h3').innerText}: ${img.alt}`);
            })"""
        )
        assert page.locator(".player img").count() > 5
        assert spilled == []
    finally:
        context.close()
