"""The rulebooks and the index in a real browser: Debian's chromium driven by Playwright.

Every page loads with no console error and no failed request, requests nothing from the network,
shows every image, lands every table-of-contents link on its heading, fits 390 px and 1280 px
wide windows without sideways scrolling, and prints to PDF.

The site under test is the real ``gachapress build`` output. Without chromium or Playwright
these tests fail, saying what to install: README's test command and CI's are one and the same.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pypdfium2
import pytest

from gachapress.data.load import load_rules
from tests.conftest import GAME_IDS

CHROMIUM = Path("/usr/bin/chromium")
BROWSER_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
WIDTHS = (390, 1280)


def _playwright() -> Any:
    try:
        return importlib.import_module("playwright.sync_api")
    except ImportError:
        return None


def _require_browser() -> Any:
    module = _playwright()
    missing = []
    if module is None:
        missing.append("the playwright package")
    if not CHROMIUM.exists():
        missing.append(str(CHROMIUM))
    if missing:
        pytest.fail(
            f"browser tests need {' and '.join(missing)} (apt-get install chromium; "
            "pip install -e '.[test]')"
        )
    return module


# -- the site under test -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def site(request: pytest.FixtureRequest) -> Path:
    """The site as `gachapress build` publishes it (conftest's, shared by the run)."""
    _require_browser()  # say what to install before building anything
    return request.getfixturevalue("built_site")


def site_pages(site: Path) -> list[Path]:
    return [site / "index.html", *sorted(site.glob("*/rulebook.*.html"))]


PAGES = ["index.html"] + [
    f"{game_id}/rulebook.{lang}.html"
    for game_id in GAME_IDS
    for lang in load_rules(game_id).model.languages
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    module = _require_browser()
    with module.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=BROWSER_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


class Visit:
    """A page opened in the browser, with everything that went wrong while loading it."""

    def __init__(self, browser: Any, file: Path, width: int) -> None:
        self.context = browser.new_context(viewport={"width": width, "height": 900})
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.failed: list[str] = []
        self.requests: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("requestfailed", lambda r: self.failed.append(f"{r.url} {r.failure}"))
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.goto(file.as_uri(), wait_until="load")

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def visit(browser: Any) -> Iterator[Any]:
    opened: list[Visit] = []

    def open_page(file: Path, width: int = 1280) -> Visit:
        opened.append(Visit(browser, file, width))
        return opened[-1]

    yield open_page
    for item in opened:
        item.close()


# -- the tests -----------------------------------------------------------------------------------


def test_the_site_has_every_page(site: Path) -> None:
    assert sorted(p.relative_to(site).as_posix() for p in site_pages(site)) == sorted(PAGES)


@pytest.mark.parametrize("page", PAGES)
def test_page_loads_cleanly_and_offline(site: Path, visit: Any, page: str) -> None:
    seen = visit(site / page)
    assert seen.errors == []
    assert seen.failed == []
    assert [url for url in seen.requests if not url.startswith(("file://", "data:"))] == []
    broken = seen.page.evaluate(
        """() => [...document.images]
            .filter(img => !img.complete || img.naturalWidth === 0)
            .map(img => img.getAttribute('src'))"""
    )
    assert broken == []
    assert seen.page.evaluate("document.images.length") > 0
    assert seen.page.evaluate("document.documentElement.lang") in {"en", "ja"}


@pytest.mark.parametrize("page", [p for p in PAGES if p != "index.html"])
def test_every_contents_link_lands_on_its_heading(site: Path, visit: Any, page: str) -> None:
    seen = visit(site / page)
    p = seen.page
    missing = p.evaluate(
        """() => [...document.querySelectorAll('a[href^="#"]')]
            .map(a => a.getAttribute('href').slice(1))
            .filter(id => !document.getElementById(id))"""
    )
    assert missing == []
    links = p.evaluate(
        "() => [...document.querySelectorAll('nav.toc a')].map(a => a.getAttribute('href'))"
    )
    assert len(links) >= 10
    for href in links:
        p.click(f'nav.toc a[href="{href}"]')
        landed = p.evaluate(
            """(id) => {
                const el = document.getElementById(id);
                const r = el.getBoundingClientRect();
                const bottom = Math.ceil(window.scrollY + window.innerHeight)
                    >= document.documentElement.scrollHeight - 1;
                return {hash: location.hash, top: r.top, bottom: r.bottom,
                        height: window.innerHeight, atBottom: bottom, tag: el.tagName};
            }""",
            href[1:],
        )
        assert landed["hash"] == href
        assert landed["tag"] in {"H2", "H3"}
        assert landed["top"] >= 0 and landed["bottom"] <= landed["height"], (href, landed)
        assert landed["top"] < 40 or landed["atBottom"], (href, landed)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("page", PAGES)
def test_layout_fits_the_window(site: Path, visit: Any, page: str, width: int) -> None:
    seen = visit(site / page, width)
    sizes = seen.page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert sizes[0] <= sizes[1], f"{page} is {sizes[0]} px wide in a {width} px window"
    wide = seen.page.evaluate(
        """() => [...document.querySelectorAll('main *, header *, nav *')]
            .filter(el => !el.closest('.table-wrap') && !el.closest('svg'))
            .filter(el => el.getBoundingClientRect().right
                > document.documentElement.clientWidth + 1)
            .map(el => el.tagName + '.' + el.className).slice(0, 5)"""
    )
    assert wide == []
    clipped = seen.page.evaluate(
        """() => [...document.querySelectorAll('.table-wrap, .diagram-wrap')]
            .filter(wrap => wrap.scrollWidth > wrap.clientWidth + 1)
            .map(wrap => (wrap.querySelector('caption') || wrap).textContent.trim().slice(0, 40))"""
    )
    assert clipped == [], f"{page}: tables or diagrams wider than a {width} px window: {clipped}"


#: Each card count on a page: whether it lies on one line, whether it is alone on its line (the
#: caption before it ends higher), the caption before it, and the caption's language.
COUNTS = """() => [...document.querySelectorAll('.card .caption .count')].map(count => {
    const caption = count.parentElement;
    const before = document.createRange();
    before.setStart(caption, 0);
    before.setEndBefore(count);
    const text = [...before.getClientRects()].filter(r => r.width > 0);
    const last = text[text.length - 1], own = count.getClientRects();
    return {
        lines: own.length,
        alone: !!last && Math.abs(last.bottom - own[0].bottom) > 2,
        caption: before.toString().trim(),
        lang: caption.closest('[lang]').lang,
    };
})"""


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("page", [p for p in PAGES if p.startswith(("rps-fire/", "gasha/"))])
def test_a_cards_count_is_whole_on_its_captions_last_line(
    site: Path, visit: Any, page: str, width: int
) -> None:
    """A card's count ("×3") is never broken, nor alone on a line under its caption, but
    where an English caption is one word too wide to share a line with it (Kitsune ×15 on a
    phone): RPS-Fire's Japanese book left the ×3 of 火災報知器（両隣） alone in print."""
    counts = visit(site / page, width).page.evaluate(COUNTS)
    assert counts, f"{page}: no card count"
    assert [c for c in counts if c["lines"] != 1] == []
    alone = [c for c in counts if c["alone"] and (c["lang"] == "ja" or " " in c["caption"])]
    assert alone == [], f"{page} at {width} px: counts alone on a line under {alone}"


@pytest.mark.parametrize("page", PAGES)
def test_page_prints_to_pdf(site: Path, visit: Any, page: str) -> None:
    """A book printed from the browser fills its second page (the components) at least to
    the middle: a deck's long card list breaks between rows instead of leaving it blank."""
    seen = visit(site / page)
    seen.page.emulate_media(media="print")
    pdf = seen.page.pdf(format="A4", print_background=True)
    assert pdf.startswith(b"%PDF-") and len(pdf) > 10_000
    if page != "index.html":
        second = pypdfium2.PdfDocument(pdf)[1]
        text = second.get_textpage()
        lowest = min(text.get_charbox(i)[1] for i in range(text.count_chars()))
        assert lowest < second.get_height() / 2, f"{page}: page 2 is blank below its top half"


def test_index_links_resolve(site: Path, visit: Any) -> None:
    seen = visit(site / "index.html")
    hrefs = seen.page.evaluate(
        "() => [...document.querySelectorAll('a[href]')].map(a => a.getAttribute('href'))"
    )
    books = [h for h in hrefs if h.endswith(".html")]
    assert len(books) == len(PAGES) - 1
    for href in books:
        assert (site / href).is_file(), href
    for href in hrefs:  # the PDFs too
        assert (site / href).is_file(), href


JAPANESE_PAGES = [p for p in PAGES if p.endswith(".ja.html")]


def _fonts_used(seen: Visit, selector: str) -> list[dict[str, Any]]:
    """The fonts chromium drew the text of the first ``selector`` element with."""
    cdp = seen.context.new_cdp_session(seen.page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument")["root"]["nodeId"]
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    assert node, f"no {selector} on the page"
    return cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]


@pytest.mark.parametrize(
    ("page", "selector"),
    [
        *((p, "h1") for p in JAPANESE_PAGES),
        *((p, ".example-text p") for p in JAPANESE_PAGES),
        ("index.html", 'a[hreflang="ja"] [lang="ja"]'),
    ],
)
def test_japanese_renders_in_the_embedded_font(
    site: Path, visit: Any, page: str, selector: str
) -> None:
    """This machine has no CJK system font: Japanese shows only through the page's own
    IPAexGothic subset, loaded from its data URI and used for the Japanese text."""
    seen = visit(site / page, 390)
    seen.page.evaluate("document.fonts.ready.then(() => true)")
    family = "Gachapress IPAexGothic"
    assert seen.page.evaluate(f"document.fonts.check(\"16px '{family}'\", 'ガチャ')")
    used = _fonts_used(seen, selector)
    assert [(f["familyName"], f["isCustomFont"]) for f in used] == [("IPAexGothic", True)]
