"""Every page `build`, `sweep` and `serve` make is valid HTML and passes axe-core.

The books in both languages, the site index and a sweep report as written to out/; as `serve`
shows them once their scripts ran: the index, a book, a sheets page, a Play page's setup form
in English and Japanese, every game's gallery, and every game's Play page in both languages
with a game started. The Nu Html Checker (npm `vnu-jar`, run by Java) reads them all in one
JVM; axe-core (npm) runs inside each page in Debian's chromium. Both come from
tests/validators/ (`npm ci` there: see README).
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from gachapress.assembly.builder import BuildOptions
from gachapress.data.load import load_rules
from gachapress.serve.app import Preview, create_app
from tests.conftest import GAME_IDS, run_cli
from tests.test_rulebooks_browser import BROWSER_ARGS, CHROMIUM, _require_browser

VALIDATORS = Path(__file__).with_name("validators") / "node_modules"
VNU = VALIDATORS / "vnu-jar" / "build" / "dist" / "vnu.jar"
AXE = VALIDATORS / "axe-core" / "axe.min.js"
#: What the Nu Html Checker reports that is no fault of the page: CSS it does not know yet.
KNOWN = (
    # CSS container queries (the setup diagrams' narrow layout), in every browser since 2023.
    "CSS: “container-type”: Property “container-type” doesn't exist.",
    "CSS: Unrecognized at-rule “@container”",
)
SWEEP = """\
game: rps-fire
players: [3]
games: 6
seed: 1
variants:
  - name: as-written
  - name: one-two-way-alarm
    set:
      decks.main.cards.fire-alarm-both.count: 1
      components.0.count: 55
"""
SERVED_GAME = "gotchacards"  # two modes: the Play page's every field
PLAY_LANGUAGES = ("en", "ja")  # every game of the example is published in both
WAIT_MS = 60_000

BUILT = [
    "index.html",
    *(
        f"{game}/rulebook.{lang}.html"
        for game in GAME_IDS
        for lang in load_rules(game).model.languages
    ),
    "rps-fire/sweeps/small.html",
]
#: The served pages: one of each template for one game, and every game's gallery and table
#: (their contents differ by game).
SERVED = [
    "/index.html",
    f"/{SERVED_GAME}/rulebook.en.html",
    f"/_serve/sheets/{SERVED_GAME}",
    *(f"/_serve/play/{SERVED_GAME}?lang={lang}" for lang in PLAY_LANGUAGES),
    *(f"/_serve/gallery/{game}" for game in GAME_IDS),
    *(f"/_serve/play/{game}?lang={lang} started" for game in GAME_IDS for lang in PLAY_LANGUAGES),
]


@dataclass
class Findings:
    """What the validators found, by page: the checker's errors and axe's violations."""

    errors: dict[str, list[str]] = field(default_factory=dict)
    violations: dict[str, list[str]] = field(default_factory=dict)


def _require_validators() -> None:
    missing = [str(p) for p in (VNU, AXE) if not p.is_file()]
    if shutil.which("java") is None:
        missing.append("java (apt-get install default-jre-headless)")
    if missing:
        pytest.fail(f"the validators need {', '.join(missing)} (cd tests/validators && npm ci)")


def _axe(page: Any) -> list[str]:
    """axe-core's violations of the page as it stands, one line per element."""
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{rule['id']}: {rule['help']}: {node['html'][:160]}"
        for rule in result["violations"]
        for node in rule["nodes"]
    ]


def _vnu(files: dict[str, Path]) -> dict[str, list[str]]:
    """The Nu Html Checker's errors in each of ``files`` (all read by one JVM)."""
    done = subprocess.run(
        ["java", "-jar", str(VNU), "--format", "json", "--exit-zero-always",
         *(str(f) for f in files.values())],
        capture_output=True, text=True, timeout=600, check=True,
    )  # fmt: skip
    by_uri = {f"file:{f.resolve()}": name for name, f in files.items()}
    errors: dict[str, list[str]] = {name: [] for name in files}
    for message in json.loads(done.stderr)["messages"]:
        if message["type"] == "error" and message["message"] not in KNOWN:
            line = f"{message.get('lastLine')}: {message['message']}"
            errors[by_uri[message["url"]]].append(f"{line}: {message.get('extract', '')!r}")
    return errors


def _sweep_report(site: Path, scratch: Path) -> Path:
    """A small sweep's report, made by `gachapress sweep` from the site's rules."""
    shutil.copytree(site.parent / "rules", scratch / "rules")
    (scratch / "small.yaml").write_text(SWEEP)
    swept = run_cli("sweep", "small.yaml", "--out", str(scratch / "out"), cwd=scratch)
    assert swept.code == 0, swept.err
    return scratch / "out" / "rps-fire" / "sweeps" / "small.html"


class Served:
    """`serve`'s application in a thread, over a copy of the built site (nothing to rebuild)."""

    def __init__(self, site: Path, scratch: Path) -> None:
        root = scratch / "project"
        for folder in ("rules", "templates", "build", "out"):
            shutil.copytree(site.parent / folder, root / folder, symlinks=True)
        self.preview = Preview(BuildOptions(root=root, out=root / "out"), list(GAME_IDS))
        self.preview.build(list(GAME_IDS))
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        config = uvicorn.Config(create_app(self.preview), log_level="warning", lifespan="off")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.listener]}, daemon=True
        )
        self.thread.start()
        deadline = time.monotonic() + WAIT_MS / 1000
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)
        self.listener.close()


def _open_served(tab: Any, served: Served, name: str) -> None:
    """Open a served page; ``... started``: its Play page with a game begun (Player 1 a
    person, the others bots), shown once the table is drawn."""
    path, _, started = name.partition(" ")
    tab.goto(served.url + path, wait_until="load")
    if started:
        tab.locator("#setup button[type=submit]").click()
        tab.locator("#table .view").wait_for()
    tab.wait_for_load_state("networkidle")


@pytest.fixture(scope="module")
def findings(built_site: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Findings]:
    """Every page checked by both validators: the built ones as files, the served ones as the
    browser holds them once their scripts ran."""
    module = _require_browser()
    _require_validators()
    scratch = tmp_path_factory.mktemp("pages")
    files = {name: built_site / name for name in BUILT if not name.endswith("small.html")}
    files["rps-fire/sweeps/small.html"] = _sweep_report(built_site, scratch)
    found = Findings()
    served = Served(built_site, scratch)
    try:
        with module.sync_playwright() as playwright:
            chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=BROWSER_ARGS)
            try:
                tab = chromium.new_page()
                tab.set_default_timeout(WAIT_MS)
                for name, file in files.items():
                    tab.goto(file.as_uri(), wait_until="load")
                    found.violations[name] = _axe(tab)
                for number, name in enumerate(SERVED):
                    _open_served(tab, served, name)
                    files[name] = scratch / f"served-{number}.html"
                    files[name].write_text(tab.content(), encoding="utf-8")  # axe's not in it
                    found.violations[name] = _axe(tab)
            finally:
                chromium.close()
    finally:
        served.stop()
    found.errors = _vnu(files)
    yield found


@pytest.mark.parametrize("page", BUILT + SERVED)
def test_the_page_is_valid_html(findings: Findings, page: str) -> None:
    assert findings.errors[page] == []


@pytest.mark.parametrize("page", BUILT + SERVED)
def test_the_page_passes_axe(findings: Findings, page: str) -> None:
    assert findings.violations[page] == []
