"""`serve`'s watch loop under faults: a broken game read for the site index, and failures
injected at random moments of the rebuild while files are saved, broken and fixed. The loop
never ends; out/ stays a whole build; the overlay says where; the next good save rebuilds."""

from __future__ import annotations

import asyncio
import functools
import json
import random
import re
import shutil
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from gachapress.assembly import builder, outdir
from gachapress.assembly.builder import BuildOptions
from gachapress.serve.app import Preview
from tests.conftest import ROOT, RULES

GAMES = ["gachapon-trick", "rps-fire"]
#: Where an edit goes (game, file, the text it follows) and the output that shows it.
CARD = ("rps-fire", "decks.yaml", "Beats any Scissors", "rps-fire/cards/rock-0.svg")
TOY = ("gachapon-trick", "decks.yaml", "en: Toy cards", "gachapon-trick/rulebook.en.html")
#: A save that is not YAML: the list opened on line 8 is never closed.
BROKEN = ("decks:\n  main:", "decks:\n  main: [")


def broken_at(text: str) -> str:
    """Where a file broken with BROKEN is said to be: the line and column of its ``[``."""
    line = text[: text.index(BROKEN[1])].count("\n") + 2
    return f"{line}:9:"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("GACHAPRESS_BOOK_GAMES", "8")
    for game in GAMES:
        shutil.copytree(RULES / game, tmp_path / "rules" / game)
    shutil.copytree(ROOT / "templates", tmp_path / "templates")
    return tmp_path


class Fed:
    """The watch loop of a preview, fed batches of saves by the test instead of the file
    system; ``save`` returns once the loop has rebuilt them (or fails if the loop died)."""

    def __init__(self, preview: Preview) -> None:
        self.preview = preview
        self.queue: asyncio.Queue[set[tuple[Any, str]] | None] = asyncio.Queue()

        async def changes() -> AsyncIterator[set[tuple[Any, str]]]:
            while (batch := await self.queue.get()) is not None:
                yield batch
                self.queue.task_done()  # asked for the next batch: this one is rebuilt

        preview.changes = changes  # type: ignore[method-assign]

    async def __aenter__(self) -> Fed:
        self.preview.stop = asyncio.Event()
        self.task = asyncio.create_task(self.preview.watch())
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.queue.put_nowait(None)
        self.preview.stop.set()  # type: ignore[union-attr]
        await asyncio.wait_for(self.task, 10)

    async def save(self, *paths: Path) -> None:
        self.queue.put_nowait({(2, str(path)) for path in paths})
        joined = asyncio.ensure_future(self.queue.join())
        await asyncio.wait({joined, self.task}, timeout=60, return_when=asyncio.FIRST_COMPLETED)
        assert not self.task.done(), "the watch loop ended"
        assert joined.done(), "the save was not rebuilt"


def edit(root: Path, spot: tuple[str, str, str, str], text: str) -> Path:
    path = root / "rules" / spot[0] / spot[1]
    path.write_text(path.read_text().replace(spot[2], text, 1))
    return path


def whole(out: Path) -> dict[str, str]:
    """out/'s marker, after checking that every output it lists is there."""
    marker = json.loads((out / ".gachapress-out.json").read_text())
    entries: dict[str, str] = marker["files"]
    files = [rel for rel in entries if not rel.endswith("/")]
    assert files and all((out / rel).is_file() for rel in files), "out/ is not whole"
    return entries


def test_a_broken_game_read_for_the_index_does_not_end_the_watch_loop(project: Path) -> None:
    """rps-fire saved broken, then a good edit of gachapon-trick: its rebuild reads rps-fire
    for the site index. The overlay says where rps-fire is broken; once it is fixed, the
    gachapon-trick edit is published too."""
    lines: list[str] = []
    preview = Preview(
        BuildOptions(root=project, out=project / "out", papers=("a4",)), GAMES, report=lines.append
    )
    preview.build(GAMES)
    decks = project / "rules" / "rps-fire" / "decks.yaml"
    good = decks.read_text()

    async def scenario() -> None:
        async with Fed(preview) as fed:
            decks.write_text(good.replace(*BROKEN, 1))
            await fed.save(decks)
            await fed.save(edit(project, TOY, "en: Toy cardz"))
            shown = [line for lines in preview.live.problems.values() for line in lines]
            at = f"rules/rps-fire/decks.yaml:{broken_at(decks.read_text())}"
            assert shown and all(line.startswith(at) for line in shown), shown
            assert "Toy cardz" not in (project / "out" / TOY[3]).read_text()  # the last good build
            decks.write_text(good)
            await fed.save(decks)
            assert not any(preview.live.problems.values()), preview.live.problems
            assert "Toy cardz" in (project / "out" / TOY[3]).read_text()

    asyncio.run(scenario())
    assert not any("Traceback" in line for line in lines)


def shown_problems(preview: Preview) -> list[str]:
    return [line for lines in preview.live.problems.values() for line in lines]


class Faults:
    """Failures at chosen moments of a rebuild: before or after one of the builder's steps,
    an exception (of a kind nothing plans for), or a save of a file (broken or good) that
    lands during the build. Each armed fault fires once."""

    POINTS = (
        (builder, "_check_and_simulate"),
        (builder, "_build_game"),
        (builder, "_stage_index"),
        (builder, "_fill_stage"),
        (builder, "load_game_data"),
        (outdir, "write_marker"),
        (outdir, "switch"),
    )
    KINDS: tuple[Callable[[], BaseException], ...] = (
        lambda: RuntimeError("injected"),
        lambda: OSError(28, "No space left on device (injected)"),
        lambda: KeyError("injected"),
        lambda: MemoryError(),
    )

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.armed: tuple[str, str, Callable[[], None]] | None = None
        self.fired = 0
        for module, name in self.POINTS:
            monkeypatch.setattr(module, name, self._wrap(name, getattr(module, name)))

    def arm(self, point: str, when: str, action: Callable[[], None]) -> None:
        self.armed = (point, when, action)

    def _fire(self, name: str, when: str) -> None:
        if self.armed and self.armed[:2] == (name, when):
            action, self.armed = self.armed[2], None
            self.fired += 1
            action()

    def _wrap(self, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(function)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            self._fire(name, "before")
            result = function(*args, **kwargs)
            self._fire(name, "after")
            return result

        return wrapper


def test_random_faults_in_rebuilds_always_come_back_to_a_good_build(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(31)
    lines: list[str] = []
    options = BuildOptions(root=project, out=project / "out", papers=("a4",))
    preview = Preview(options, GAMES, report=lines.append)
    preview.build(GAMES)
    files = {spot: project / "rules" / spot[0] / spot[1] for spot in (CARD, TOY)}
    good = {spot: path.read_text() for spot, path in files.items()}
    faults = Faults(monkeypatch)

    def save(spot: tuple[str, str, str, str], text: str) -> Callable[[], None]:
        return lambda: files[spot].write_text(text)

    async def scenario() -> None:
        async with Fed(preview) as fed:
            for round_ in range(10):
                spot = rng.choice([CARD, TOY])
                current = good[spot].replace(spot[2], f"{spot[2]} zq{round_}", 1)
                broken = rng.random() < 0.3
                files[spot].write_text(current.replace(*BROKEN, 1) if broken else current)
                _module, point = rng.choice(Faults.POINTS)
                when = rng.choice(["before", "after"])
                other = rng.choice([CARD, TOY])
                kind = rng.choice(["raise", "raise", "save broken", "save good"])
                if kind == "raise":
                    error = rng.choice(Faults.KINDS)()

                    def action(error: BaseException = error) -> None:
                        raise error
                else:
                    text = files[other].read_text().replace(BROKEN[1], BROKEN[0], 1)
                    action = save(other, text.replace(*BROKEN, 1) if "broken" in kind else text)
                faults.arm(point, when, action)
                await fed.save(files[spot])
                faults.armed = None
                whole(options.out)  # whatever failed, out/ is a whole build
                # the next save, with nothing failing, rebuilds whatever was left; a broken
                # file is shown over the page at its line until it is fixed
                await fed.save(*files.values())
                whole(options.out)
                texts = {spot: path.read_text() for spot, path in files.items()}
                bad = [spot for spot, text in texts.items() if BROKEN[1] in text]
                if bad:
                    wanted = {f"rules/{spot[0]}/{spot[1]}:{broken_at(texts[spot])}" for spot in bad}
                    problems = shown_problems(preview)
                    said = {line[: line.index(": error:") + 1] for line in problems}
                    assert said == wanted, (round_, problems)
                    for spot in bad:
                        files[spot].write_text(texts[spot].replace(BROKEN[1], BROKEN[0], 1))
                    await fed.save(*(files[spot] for spot in bad))
                    whole(options.out)
                assert not shown_problems(preview), round_
                for spot, path in files.items():  # out/ is the files as they are now
                    made = set(re.findall(r"zq\d+", path.read_text()))
                    assert set(re.findall(r"zq\d+", (options.out / spot[3]).read_text())) == made

    asyncio.run(scenario())
    assert faults.fired >= 6, faults.fired  # the faults did happen
