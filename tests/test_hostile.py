"""Hostile inputs beyond the rules YAML: art files, templates, huge inputs and odd options.

Each case ends with exit 1 (2 for a usage error), one located message, no traceback, and the
project unchanged; the card made from a hostile art SVG runs no script in a real browser.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from tests.conftest import ROOT, Run, own_template, run_cli

GAME = "rps-fire"
CARD = "rock-0"
DECKS = f"rules/{GAME}/decks.yaml"
ART_LINE = "art: {openmoji: 1FAA8}"
FAST = {"GACHAPRESS_BOOK_GAMES": "10"}

EVIL_SVG = """<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
     viewBox="0 0 72 72" width="72" height="72" onload="window.pwned = 'onload'; alert(1)">
  <script>window.pwned = 'script'; console.log('script ran'); alert(2)</script>
  <circle cx="36" cy="36" r="30" fill="#dd2222" style="fill:#0000ff"
          onclick="alert(3)" onmouseover="alert(4)"/>
  <a href="javascript:alert(5)"><rect x="4" y="4" width="10" height="10" fill="#22d"/></a>
  <foreignObject width="72" height="72">
    <div xmlns="http://www.w3.org/1999/xhtml"><img src="x" onerror="alert(6)"/></div>
  </foreignObject>
  <use xlink:href="http://example.invalid/x.svg#a"/>
  <rect fill="url(http://example.invalid/p)" width="3" height="3" style="fill:url(javascript:1)"/>
  <set attributeName="onload" to="alert(7)"/>
  <animate attributeName="href" to="javascript:alert(8)"/>
</svg>
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    for folder in ("rules", "templates"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    return tmp_path


def use_art(project: Path, name: str, content: str | bytes | None = None) -> Path:
    """Give the first card of the game the art file ``name`` (written when ``content`` is)."""
    decks = project / DECKS
    decks.write_text(
        decks.read_text(encoding="utf-8").replace(ART_LINE, f"art: {{file: {name}}}", 1),
        encoding="utf-8",
    )
    path = project / "rules" / GAME / name
    if content is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            path.write_text(content, encoding="utf-8")
        else:
            path.write_bytes(content)
    return path


def art_mark(project: Path) -> str:
    """Where the first card's art file is named in decks.yaml, as ``PATH:LINE:COL``."""
    text = (project / DECKS).read_text(encoding="utf-8")
    index = text.index("art: {file: ") + len("art: {file: ")
    line = text.count("\n", 0, index) + 1
    return f"{DECKS}:{line}:{index - text.rfind(chr(10), 0, index)}"


def tree(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and "build" not in p.relative_to(folder).parts[:1]
    }


def refused(result: Run, message: str, code: int = 1) -> None:
    """The run failed with ``code`` and exactly one error line, which is ``message``."""
    assert "Traceback" not in result.err + result.out, result.err
    assert result.code == code, result.err
    errors = [line for line in result.err.splitlines() if ": error: " in line or "Error" in line]
    assert errors == [message], result.err


# -- art: confinement ------------------------------------------------------------------------------


def test_art_file_symlinked_outside_the_project_is_refused(project: Path, tmp_path_factory) -> None:
    outside = tmp_path_factory.mktemp("outside") / "secret.svg"
    outside.write_text(EVIL_SVG, encoding="utf-8")
    link = use_art(project, "art/linked.svg")
    link.parent.mkdir()
    link.symlink_to(outside)
    before = tree(project)
    for command in ("check", "build"):
        result = run_cli(command, GAME, cwd=project, env=FAST)
        refused(
            result,
            f"{art_mark(project)}: error: card {CARD!r}: art file 'art/linked.svg' resolves to "
            f"{outside.resolve()}, outside {project.resolve()}",
        )
    assert tree(project) == before


def test_art_folder_symlinked_outside_the_project_is_refused(
    project: Path, tmp_path_factory
) -> None:
    outside = tmp_path_factory.mktemp("outside")
    (outside / "card.svg").write_text(EVIL_SVG, encoding="utf-8")
    use_art(project, "art/card.svg")
    (project / "rules" / GAME / "art").symlink_to(outside, target_is_directory=True)
    result = run_cli("check", GAME, cwd=project)
    refused(
        result,
        f"{art_mark(project)}: error: card {CARD!r}: art file 'art/card.svg' resolves to "
        f"{(outside / 'card.svg').resolve()}, outside {project.resolve()}",
    )


def test_symlinked_rules_file_outside_the_project_is_refused(
    project: Path, tmp_path_factory
) -> None:
    outside = tmp_path_factory.mktemp("outside") / "book.yaml"
    book = project / "rules" / GAME / "book.yaml"
    shutil.move(book, outside)
    book.symlink_to(outside)
    result = run_cli("check", GAME, cwd=project)
    refused(
        result,
        f"rules/{GAME}/book.yaml:1:1: error: resolves to {outside.resolve()}, "
        f"outside the project {project.resolve()}",
    )


@pytest.mark.parametrize(
    ("href", "message"),
    [
        ("../../decks.yaml", "image '../../decks.yaml' resolves to {target}, outside {folder}"),
        ("file:///etc/passwd", "an <image> links outside the art folder: 'file:///etc/passwd'"),
        ("https://example.invalid/a.png", "an <image> links outside the art folder: "
         "'https://example.invalid/a.png'"),
        ("data:text/html;base64,PHNjcmlwdD4=", "an <image> may only hold a PNG or JPEG data URI"),
    ],
)  # fmt: skip
def test_image_leaving_the_art_folder_is_refused(project: Path, href: str, message: str) -> None:
    art = use_art(
        project,
        "art/x/card.svg",
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 72 72">'
        f'<image href="{href}" width="72" height="72"/></svg>',
    )
    folder = art.parent.resolve()
    message = message.format(target=(folder / href).resolve(), folder=folder)
    result = run_cli("check", GAME, cwd=project)
    refused(result, f"rules/{GAME}/art/x/card.svg:1:1: error: {message}")


def test_image_beside_the_art_is_inlined(project: Path) -> None:
    png = (ROOT / "tests" / "snapshots").glob("**/*.png")
    picture = next(png, None)
    if picture is None:  # a 1 x 1 PNG
        data = bytes.fromhex(
            "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
            "0000000d4944415478da63f8cfc0f01f0005000201e2212bc70000000049454e44ae426082"
        )
    else:
        data = picture.read_bytes()
    art = use_art(
        project,
        "art/card.svg",
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 72 72">'
        '<image href="dot.png" width="72" height="72"/></svg>',
    )
    (art.parent / "dot.png").write_bytes(data)
    from gachapress.render import art as artwork

    loaded = artwork.load_art(f"file:{art.resolve()}")
    assert isinstance(loaded, artwork.SvgArt)
    (image,) = loaded.children
    assert image.get("href", "").startswith("data:image/png;base64,")


# -- art: parsing, limits and sanitising -----------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "where", "message"),
    [
        ("<svg xmlns='http://www.w3.org/2000/svg'>\n  <circle r='1'>\n</svg>\n", "3:3",
         "invalid SVG: mismatched tag"),
        ('<?xml version="1.0"?>\n<!DOCTYPE svg [<!ENTITY a "aaaa">]>\n<svg>&a;</svg>', "1:1",
         "invalid SVG: dtd declarations are not allowed"),
        ('<!DOCTYPE svg SYSTEM "file:///etc/passwd">\n<svg/>', "1:1",
         "invalid SVG: dtd declarations are not allowed"),
        ("<html><body/></html>", "1:1", "invalid SVG: the root element is <html>, not <svg>"),
        ("\x00\x01 not xml", "1:1", "invalid SVG: not well-formed (invalid token)"),
        ("<svg>" + "<g>" * 60 + "</g>" * 60 + "</svg>", "1:1",
         "art file nests elements more than 50 deep"),
        ("<svg>" + "<path d='M0 0'/>" * 10_001 + "</svg>", "1:1",
         "art file has 10,002 elements, more than the limit of 10,000"),
    ],
    ids=["malformed", "entities", "external-dtd", "not-svg", "binary", "deep", "many-elements"],
)  # fmt: skip
def test_unusable_art_svg_is_a_located_error_in_check_and_build(
    project: Path, content: str, where: str, message: str
) -> None:
    use_art(project, "art/bad.svg", content)
    before = tree(project)
    for command in ("check", "build"):
        result = run_cli(command, GAME, cwd=project, env=FAST)
        refused(result, f"rules/{GAME}/art/bad.svg:{where}: error: {message}")
    assert tree(project) == before
    assert not (project / "out").exists()


def test_art_bigger_than_the_limit_is_refused_quickly(project: Path) -> None:
    big = "<svg>" + "<path d='M0 0 L1 1'/>" * 330_000 + "</svg>"  # 6.6 MB
    use_art(project, "art/big.svg", big)
    result = run_cli("check", GAME, cwd=project)
    refused(
        result,
        f"{art_mark(project)}: error: card {CARD!r}: art file 'art/big.svg' is "
        f"{len(big):,} bytes, more than the limit of 1,000,000",
    )


def test_unusable_png_art_is_a_located_error(project: Path) -> None:
    use_art(project, "art/bad.png", b"GIF89a not a png")
    result = run_cli("check", GAME, cwd=project)
    refused(
        result,
        f"rules/{GAME}/art/bad.png:1:1: error: art file 'bad.png' is not a PNG or JPEG image",
    )


def test_hostile_art_is_sanitised_with_a_warning(project: Path) -> None:
    use_art(project, "art/evil.svg", EVIL_SVG)
    result = run_cli("check", GAME, cwd=project)
    assert result.code == 0, result.err
    assert result.err.splitlines() == [
        f"{art_mark(project)}: warning: card {CARD!r}: removed from art file 'art/evil.svg' "
        "(not allowed in card art): <a> links, <animate>, <foreignObject>, <script>, <set>, "
        "fill=, href=, onclick=, onload=, onmouseover=, style="
    ]


def _built_card(project: Path) -> Path:
    use_art(project, "art/evil.svg", EVIL_SVG)
    result = run_cli("build", GAME, "--paper", "a4", cwd=project, env=FAST)
    assert result.code == 0, result.err
    return project / "out" / GAME / "cards" / f"{CARD}.svg"


def test_card_and_pdf_are_made_from_the_sanitised_art(project: Path) -> None:
    card = _built_card(project)
    text = card.read_text(encoding="utf-8")
    for bad in ("script", "onload", "onclick", "javascript", "foreignObject", "example.invalid"):
        assert bad not in text
    assert 'fill="#dd2222"' in text and 'fill="#22d"' in text  # the drawing itself is kept
    from reportlab.graphics.shapes import Circle, Group

    from gachapress.render import art as artwork

    source = f"file:{(project / 'rules' / GAME / 'art' / 'evil.svg').resolve()}"
    drawing = artwork.reportlab_drawing(source)  # what the PDF backend draws

    def shapes(node: object) -> list[object]:
        if isinstance(node, Group):
            return [s for child in node.contents for s in shapes(child)]
        return [node]

    (circle,) = [s for s in shapes(drawing) if isinstance(s, Circle)]
    assert circle.fillColor.hexval() == "0xdd2222"  # not the style's blue: svglib read the copy


def test_no_script_of_a_hostile_art_runs_in_the_browser(project: Path) -> None:
    from tests.test_rulebooks_browser import BROWSER_ARGS, CHROMIUM, _require_browser

    module = _require_browser()
    card = _built_card(project)
    with module.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=BROWSER_ARGS)
        try:
            page = browser.new_page()
            dialogs: list[str] = []
            console: list[str] = []
            page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
            page.on("console", lambda message: console.append(message.text))
            page.goto(card.as_uri())
            page.mouse.move(100, 100)
            page.mouse.click(100, 100)
            page.wait_for_timeout(300)
            assert page.evaluate("typeof window.pwned") == "undefined"
            assert page.locator("circle").count() >= 1  # the card did load
        finally:
            browser.close()
    assert dialogs == [] and console == []


# -- templates in a sandbox ------------------------------------------------------------------------

ESCAPE = "{{ cycler.__init__.__globals__.os.popen('touch PWNED').read() }}"


@pytest.mark.parametrize(
    ("template", "line", "message"),
    [
        ("rulebook.html.j2", ESCAPE,
         "unsafe: access to attribute '__init__' of 'type' object is unsafe."),
        ("index.html.j2", ESCAPE,
         "unsafe: access to attribute '__init__' of 'type' object is unsafe."),
        ("rulebook.html.j2", "{{ title }", "template syntax: unexpected '}'"),
        ("index.html.j2", "{% if %}", "template syntax: Expected an expression, got 'end of "
         "statement block'"),
        ("rulebook.html.j2", "{{ no_such_name.x }}", "template: 'no_such_name' is undefined"),
        ("index.html.j2", "{{ no_such_name }}", "template: 'no_such_name' is undefined"),
    ],
    ids=["escape-rulebook", "escape-index", "syntax-rulebook", "syntax-index",
         "undefined-rulebook", "undefined-index"],
)  # fmt: skip
def test_bad_template_is_a_located_error_in_check_and_build(
    project: Path, template: str, line: str, message: str
) -> None:
    path = own_template(project, template)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, text in enumerate(lines) if "<title>" in text)
    lines.insert(at, line + "\n")
    path.write_text("".join(lines), encoding="utf-8")
    before = tree(project)
    for command in ("check", "build"):
        result = run_cli(command, GAME, cwd=project, env=FAST)
        refused(result, f"templates/{template}:{at + 1}:1: error: {message}")
        assert not (project / "PWNED").exists()
        if command == "check" or template == "rulebook.html.j2" or "syntax" in message:
            assert tree(project) == before
        assert not (project / "out").exists()  # nothing published: the index is staged too


# -- bounded work ----------------------------------------------------------------------------------


def test_sim_of_a_billion_games_starts_in_flat_memory() -> None:
    import subprocess
    import sys
    import time

    command = [sys.executable, "-m", "gachapress.cli.main", "sim", GAME, "--players", "2"]
    process = subprocess.Popen(
        [*command, "--games", "1000000000", "--jobs", "1"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        time.sleep(6)
        assert process.poll() is None  # still playing
        status = Path(f"/proc/{process.pid}/status").read_text()
        peak_kib = int(status.split("VmHWM:")[1].split()[0])
        assert peak_kib < 150 * 1024, f"peak RSS {peak_kib} kB after 6 s"
    finally:
        process.kill()
        process.wait()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--games", "1e11"], "'--games': Input should be a valid integer"),
        (["--games", "10000000000"], "'--games': Input should be less than or equal to 1000000000"),
        (["--games", "0"], "'--games': Input should be greater than or equal to 1"),
        (["--jobs", "0"], "'--jobs': Input should be greater than or equal to 1"),
    ],
)
def test_sim_refuses_absurd_counts_as_usage_errors(args: list[str], message: str) -> None:
    result = run_cli("sim", GAME, "--players", "2", *args)
    assert result.code == 2 and "Traceback" not in result.err
    assert message in " ".join(result.err.replace("│", " ").split())


def test_sim_caps_jobs_at_the_cpu_count_with_a_note() -> None:
    import os

    result = run_cli("sim", GAME, "--players", "2", "--games", "20", "--jobs", "1000")
    assert result.code == 0, result.err
    cpus = os.cpu_count()
    assert result.err == f"note: --jobs 1000 capped at this machine's {cpus} CPUs\n"


def test_sim_without_mode_names_the_modes_of_the_game() -> None:
    result = run_cli("sim", "gotchacards", "--players", "2", "--games", "5")
    assert result.code == 2 and "Traceback" not in result.err
    text = " ".join(result.err.replace("│", " ").split())
    assert "gotchacards has several modes: choose one of competitive, party" in text
    assert "'standard'" not in text


def test_examples_file_that_never_ends_is_refused_quickly() -> None:
    import time

    started = time.perf_counter()
    result = run_cli("check", "--examples", "/dev/zero", cwd=Path("/"))
    assert time.perf_counter() - started < 30
    refused(result, "dev/zero:1:1: error: cannot read zero: it is a device, not a file")


def test_oversized_examples_file_is_refused_before_reading(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    with big.open("wb") as handle:  # sparse: 50 MB that take no disk, never read
        handle.truncate(50 * 10**6)
    result = run_cli("check", "--examples", str(big), cwd=tmp_path)
    refused(result, "big.yaml:1:1: error: file is larger than 2,000,000 bytes")


def test_huge_integer_in_an_examples_file_is_a_located_error(tmp_path: Path) -> None:
    file = tmp_path / "ex.yaml"
    file.write_text("game: gasha\nexamples:\n  - id: x\n    expect: " + "9" * 5000 + "\n")
    result = run_cli("check", "--examples", str(file), cwd=tmp_path)
    refused(result, "ex.yaml:4:13: error: an integer of 5,000 digits is out of range (at most 19)")


# -- messages, not tracebacks ----------------------------------------------------------------------


def test_damaged_font_cache_is_made_again(tmp_path: Path) -> None:
    from fontTools.ttLib import TTFont

    from gachapress.render import fonts

    made = fonts._static_instance(fonts._noto_variable(), 400, tmp_path)
    good = made.read_bytes()
    made.write_bytes(good[: len(good) // 3])  # a build killed while copying, a bad disk...
    again = fonts._static_instance(fonts._noto_variable(), 400, tmp_path)
    assert again == made and again.read_bytes() == good
    assert TTFont(again).getBestCmap()[ord("A")]


def test_huge_integer_in_a_rules_file_is_a_located_error(project: Path) -> None:
    game = project / "rules" / GAME / "game.yaml"
    text = game.read_text(encoding="utf-8")
    at = text.index("\nrounds: ") + len("\nrounds: ")
    game.write_text(text[:at] + "7" * 5000 + " #" + text[at:], encoding="utf-8")
    before = tree(project)
    line = text.count("\n", 0, at) + 1
    for command in ("check", "build"):
        result = run_cli(command, GAME, cwd=project, env=FAST)
        refused(
            result,
            f"rules/{GAME}/game.yaml:{line}:9: error: an integer of 5,000 digits is out "
            "of range (at most 19)",
        )
    assert tree(project) == before


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("nan,nan", "the back offset must be two finite numbers of millimetres"),
        ("inf,0", "the back offset must be two finite numbers of millimetres"),
        ("0,1e999", "the back offset must be two finite numbers of millimetres"),
        ("11,0", "a back offset of more than 10 mm is a printer problem"),
        ("1", "give the back offset as X,Y in millimetres, e.g. 0.5,-1"),
    ],
)
def test_back_offset_must_be_finite_millimetres(text: str, message: str) -> None:
    from gachapress.publish.pnp import parse_back_offset

    with pytest.raises(ValueError) as refused_offset:
        parse_back_offset(text)
    assert str(refused_offset.value) == message
    assert parse_back_offset("0.5,-1") == (0.5, -1.0)


# -- no silent wrongness ---------------------------------------------------------------------------


def test_example_text_takes_its_numbers_from_the_answer_and_the_givens() -> None:
    from gachapress.data.load import load_rules
    from gachapress.publish.book_html import render_rulebooks

    html = render_rulebooks(load_rules("gasha"))["en"]
    assert "6 players: all 35." in html  # "{given.players} players: all {expect}."
    assert "2 players: 5 Bonus tokens." in html
    assert "decks of 17, 17, 17, 16 cards." in html
    examples = (ROOT / "rules" / "gasha" / "examples.yaml").read_text(encoding="utf-8")
    assert '"{given.players} players: all {expect}."' in examples


def test_example_text_naming_no_given_value_is_a_located_error(project: Path) -> None:
    examples = project / "rules" / GAME / "examples.yaml"
    text = examples.read_text(encoding="utf-8")
    old = "'{given.players} players: {expect} cards each.'"
    assert old in text
    examples.write_text(text.replace(old, "'{given.seats} players: {expect} cards.'", 1))
    index = text.index(old)
    line = text.count("\n", 0, index) + 1
    column = index - text.rfind("\n", 0, index)
    result = run_cli("check", GAME, cwd=project)
    refused(
        result,
        f"rules/{GAME}/examples.yaml:{line}:{column}: error: placeholder: no value at "
        "'given.seats'",
    )


def test_unknown_folder_in_rules_is_a_warning_naming_it(project: Path) -> None:
    (project / "rules" / "gasha-deluxe").mkdir()
    (project / "rules" / "Notes").mkdir()
    result = run_cli("check", GAME, cwd=project)
    assert result.code == 0, result.err
    assert result.err.splitlines() == [
        "rules/Notes:1:1: warning: folder 'Notes' in rules/ is ignored: its name is no game id "
        "(lowercase letters, digits and hyphens)",
        "rules/gasha-deluxe:1:1: warning: folder 'gasha-deluxe' in rules/ is ignored: it holds "
        "no game.yaml",
    ]


@pytest.mark.parametrize("name", ["rulebook.html.j2", "strings.yaml", "rulebook.css"])
def test_template_file_symlinked_outside_the_project_is_refused(
    project: Path, tmp_path_factory, name: str
) -> None:
    outside = tmp_path_factory.mktemp("outside") / name
    template = own_template(project, name)
    shutil.move(template, outside)
    template.symlink_to(outside)
    folder = (project / "templates").resolve()
    if name.endswith(".j2"):
        message = f"resolves outside the templates folder {folder}"
    else:
        message = f"resolves to {outside.resolve()}, outside {folder}"
    result = run_cli("check", GAME, cwd=project)
    refused(result, f"templates/{name}:1:1: error: {message}")


# -- issue 31, item 19: a message names the real cause ---------------------------------------------


def _game_file_as(kind: str, path: Path) -> None:
    import os

    path.unlink()
    if kind == "folder":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to(path.name)


@pytest.mark.parametrize(
    ("kind", "message"),
    [
        ("folder", "cannot read game.yaml: it is a folder, not a file"),
        ("fifo", "cannot read game.yaml: it is a named pipe (FIFO), not a file"),
        (
            "loop",
            "cannot read game.yaml: it is a symbolic link that loops (it leads back to itself)",
        ),
    ],
)
def test_a_game_yaml_that_is_no_file_says_what_it_is(
    project: Path, kind: str, message: str
) -> None:
    _game_file_as(kind, project / "rules" / GAME / "game.yaml")
    result = run_cli("check", GAME, cwd=project)
    refused(result, f"rules/{GAME}/game.yaml:1:1: error: {message}")


@pytest.mark.parametrize(
    ("kind", "message"),
    [
        ("folder", "is a folder, not a file"),
        ("fifo", "is a named pipe (FIFO), not a file"),
        ("loop", "is a symbolic link that loops (it leads back to itself)"),
    ],
)
def test_an_art_file_that_is_no_file_says_what_it_is(
    project: Path, kind: str, message: str
) -> None:
    art = use_art(project, "art/card.svg")
    art.parent.mkdir(exist_ok=True)
    art.write_text(EVIL_SVG, encoding="utf-8")
    _game_file_as(kind, art)
    result = run_cli("check", GAME, cwd=project)
    refused(
        result,
        f"{art_mark(project)}: error: card {CARD!r}: art file 'art/card.svg' in {GAME}/ {message}",
    )


def test_art_linking_outside_to_nothing_says_it_resolves_outside(
    project: Path, tmp_path_factory
) -> None:
    outside = tmp_path_factory.mktemp("outside") / "gone.svg"
    link = use_art(project, "art/linked.svg")
    link.parent.mkdir()
    link.symlink_to(outside)
    result = run_cli("check", GAME, cwd=project)
    refused(
        result,
        f"{art_mark(project)}: error: card {CARD!r}: art file 'art/linked.svg' resolves to "
        f"{outside.resolve()}, outside {project.resolve()}",
    )


def test_a_missing_examples_file_is_called_missing(tmp_path: Path) -> None:
    result = run_cli("check", "--examples", "nothing.yaml", cwd=tmp_path)
    refused(result, "nothing.yaml:1:1: error: cannot read nothing.yaml: it is missing", code=1)
