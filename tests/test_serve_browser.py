"""`gachapress serve` in a real browser (Debian's chromium driven by Playwright): the designer's
loop. Edit a card's text and the open gallery shows it without a manual reload; save broken YAML
and the page shows the located error over the old cards; fix it and the error goes.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from tests.conftest import ROOT, RULES
from tests.test_rulebooks_browser import BROWSER_ARGS, CHROMIUM, _require_browser

GAME = "gachapon-trick"
#: The longest wait for anything: a rebuild on a busy two-core machine.
WAIT_MS = 120_000
OLD, NEW = "it is worth nothing.", "it is worth Zanzibar."


@dataclass
class Server:
    process: subprocess.Popen[str]
    url: str
    root: Path
    log: list[str]


def _read_url(process: subprocess.Popen[str], log: list[str], found: threading.Event) -> None:
    assert process.stdout is not None
    for line in process.stdout:
        log.append(line)
        if line.startswith("serving "):
            found.set()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """`gachapress serve GAME --port 0` in a copied project; always stopped afterwards."""
    _require_browser()
    shutil.copytree(RULES, tmp_path / "rules")
    shutil.copytree(ROOT / "templates", tmp_path / "templates")
    process = subprocess.Popen(
        [sys.executable, "-m", "gachapress.cli.main", "serve", GAME, "--port", "0"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "GACHAPRESS_BOOK_GAMES": "2"},
    )
    log: list[str] = []
    found = threading.Event()
    threading.Thread(target=_read_url, args=(process, log, found), daemon=True).start()
    try:
        assert found.wait(WAIT_MS / 1000), "serve did not start:\n" + "".join(log)
        url = re.search(r"http://\S+/", next(x for x in log if x.startswith("serving ")))
        assert url is not None
        yield Server(process, url.group(0), tmp_path, log)
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)  # Ctrl-C
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)


def _text(pdf: Path) -> str:
    return "".join(page.extract_text() for page in PdfReader(pdf).pages)


@pytest.fixture
def page(server: Server) -> Iterator[Any]:
    module = _require_browser()
    with module.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=BROWSER_ARGS)
        try:
            tab = chromium.new_page()
            tab.set_default_timeout(WAIT_MS)
            yield tab
        finally:
            chromium.close()


def test_an_edit_shows_in_the_open_gallery_and_an_error_over_it(server: Server, page: Any) -> None:
    page.goto(server.url + f"_serve/gallery/{GAME}")
    refund = page.locator('li.card[data-id="refund"] .text')
    assert OLD in refund.inner_text()
    page.evaluate("window.notReloaded = true")

    decks = server.root / "rules" / GAME / "decks.yaml"
    good = decks.read_text(encoding="utf-8")
    assert good.count(OLD) == 1
    decks.write_text(good.replace(OLD, NEW), encoding="utf-8")
    page.wait_for_function(
        "document.querySelector('li.card[data-id=refund] .text')?.innerText.includes('Zanzibar')"
    )
    assert page.evaluate("window.notReloaded") is None  # the page reloaded by itself
    svg = page.evaluate(
        "fetch(document.querySelector('li.card[data-id=refund] img').src).then(r => r.text())"
    )
    assert "Zanzibar" in svg  # the card's face itself, not only its caption
    assert page.locator("#gachapress-problems").is_hidden()
    sheets = server.root / "out" / GAME / f"{GAME}-pnp-a4.pdf"  # made after the faces
    deadline = time.monotonic() + WAIT_MS / 1000
    while "Zanzibar" not in _text(sheets) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert "Zanzibar" in _text(sheets)

    lines = good.replace(OLD, NEW).splitlines()
    broken_at = next(i for i, line in enumerate(lines) if "square:" in line)
    lines[broken_at] = lines[broken_at].replace("square:", "square: [unclosed")
    decks.write_text("\n".join(lines) + "\n", encoding="utf-8")
    overlay = page.locator("#gachapress-problems")
    overlay.wait_for(state="visible")
    message = overlay.inner_text()
    assert re.search(rf"rules/{GAME}/decks\.yaml:\d+:\d+: error: ", message), message
    assert "Zanzibar" in refund.inner_text()  # the last good cards are still shown
    assert page.locator("li.card").count() > 40

    decks.write_text(good.replace(OLD, NEW), encoding="utf-8")
    overlay.wait_for(state="hidden")
    assert "Zanzibar" in page.locator('li.card[data-id="refund"] .text').inner_text()

    server.process.send_signal(signal.SIGINT)
    assert server.process.wait(timeout=30) == 0  # Ctrl-C stops it cleanly
    assert "stopped" in "".join(server.log)
