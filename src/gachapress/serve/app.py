"""The preview server as a Starlette application: out/ and the index, each game's gallery and
sheets, an event stream that tells open pages to reload or show a check error, and the watcher
that rebuilds what a saved file touches."""

from __future__ import annotations

import asyncio
import contextlib
import traceback
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

import uvicorn
from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, Response, StreamingResponse
from starlette.routing import Route

from gachapress.assembly import names
from gachapress.assembly.builder import PAPERS, BuildOptions, load_game_data
from gachapress.local_engine import loaded_notes
from gachapress.registry import has_engine
from gachapress.render.fonts import japanese_font_path
from gachapress.serve import files, sheets
from gachapress.serve.gallery import DeckGallery, gallery_page, game_gallery
from gachapress.serve.guard import Guard
from gachapress.serve.live import Live
from gachapress.serve.play.routes import play_routes
from gachapress.serve.play.session import Sessions
from gachapress.serve.rebuild import rebuild, touched_games, unexpected
from gachapress.serve.watch import saves

#: Seconds between keep-alive comments on an idle event stream.
KEEP_ALIVE = 15.0
#: A game's rulebooks in out/, whatever their language.
BOOKS = names.rulebook_html("*")
#: Seconds before watching the folders again after the watching itself failed.
WATCH_RETRY = 1.0
PAGES = Environment(
    loader=PackageLoader("gachapress.serve", "pages"), autoescape=select_autoescape(["j2"])
)


@dataclass
class Preview:
    """One preview: the project, the games it shows, and what the pages are told."""

    options: BuildOptions
    games: Sequence[str]
    live: Live = field(default_factory=Live)
    galleries: dict[str, list[DeckGallery]] = field(default_factory=dict)
    report: Callable[[str], None] = lambda line: None
    tables: Sessions = field(default_factory=Sessions)  # the games played on the Play pages
    unpublished: set[str] = field(default_factory=set)  # to rebuild with the next save
    stop: asyncio.Event | None = None
    loop: asyncio.AbstractEventLoop | None = None

    def build(self, games: Sequence[str], quick: bool = False) -> bool:
        """Rebuild ``games`` (blocking: run it in a thread); note problems and galleries.
        ``quick`` publishes the faces and pages first and leaves the PDFs; returns whether
        PDFs were left, for a complete rebuild to make next. A game whose rebuild was not
        published is remembered and built again with the next save, whatever that save
        touches."""
        self.unpublished.update(games)
        result = rebuild(self.options, games, quick=quick, report=self.report)
        for line in loaded_notes():  # an engine module of a game's folder, loaded or reloaded
            self.report(line)
        problems = {**self.live.problems, **result.problems}
        if result.published:  # out/ is whole and current: what blocked it is gone
            self.unpublished.difference_update(games)
            problems = {game: lines for game, lines in problems.items() if game in self.games}
        self.live.problems = problems  # one swap: pages read it
        for lines in result.problems.values():
            for line in lines:
                self.report(line)
        if not result.published:
            self.live.pending = False
            return False
        for game in games:
            self.galleries[game] = self._gallery(game)
        if quick or any(not rel.endswith(".pdf") for rel in result.written):
            self.live.generation += 1
        if not quick:
            self.live.pdfs += 1
        self.live.pending = result.deferred
        self.report(f"rebuilt {', '.join(games)}" + (", PDFs to follow" if result.deferred else ""))
        return result.deferred

    def _gallery(self, game: str) -> list[DeckGallery]:
        try:
            game_data = load_game_data(game, self.options.root / "rules")
            return game_gallery(game_data, self.options.lang)
        except Exception:  # saved again since the build, or worse: keep the last good gallery
            return self.galleries.get(game, [])

    async def changes(self) -> AsyncIterator[set[tuple[Any, str]]]:
        """The batches of saves under rules/ and templates/ and of project.yaml (a test feeds
        its own)."""
        assert self.stop is not None
        async for batch in saves(self.options.root, self.options.templates.folder, self.stop):
            yield batch

    async def rebuild_for(self, changes: Iterable[tuple[Any, str]]) -> None:
        """Rebuild what one batch of saves touches, and every game whose last rebuild was not
        published: the faces and pages first, then the PDFs they left."""
        paths = [path for _, path in changes]
        touched = touched_games(paths, self.options.root, self.games)
        games = [game for game in self.games if game in touched or game in self.unpublished]
        if games and paths:
            if await asyncio.to_thread(self.build, games, True):
                self.live.publish()
                await asyncio.to_thread(self.build, games)
            self.live.publish()

    async def watch(self) -> None:
        """Rebuild on every save of rules/, templates/ or project.yaml, one batch of changes at
        a time. No exception ends it: a rebuild that fails is shown over the page and logged,
        and the next save is rebuilt (with the games that failed)."""
        assert self.stop is not None
        while not self.stop.is_set():
            try:
                async for batch in self.changes():
                    try:
                        await self.rebuild_for(batch)
                    except Exception as exc:  # the rebuild itself already says what it can
                        self.failed(exc, self.games)
                return  # the watcher stopped because the server is stopping
            except Exception as exc:  # the watching itself failed (a folder gone...): again
                self.failed(exc, [])
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.stop.wait(), WATCH_RETRY)

    def failed(self, exc: BaseException, games: Sequence[str]) -> None:
        """Show an unexpected failure over the page, log it with its traceback, and have the
        next save rebuild ``games``."""
        self.unpublished.update(games)
        lines = unexpected(exc, self.options.root, "the preview stopped watching for a moment")
        self.live.problems = {**self.live.problems, "": lines}
        for line in traceback.format_exception(exc):
            self.report(line.rstrip("\n"))
        self.live.pending = False
        self.live.publish()

    @contextlib.asynccontextmanager
    async def lifespan(self, app: Starlette) -> AsyncIterator[None]:
        self.stop = asyncio.Event()
        self.loop = asyncio.get_running_loop()
        watcher = asyncio.create_task(self.watch())
        try:
            yield
        finally:
            self.stop.set()
            self.live.close()
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.wait_for(watcher, timeout=5)

    def close_streams(self) -> None:
        """End the event streams so that the server can stop without waiting for them (safe
        to call from a signal handler or another thread)."""
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self.live.close)


class PreviewServer(uvicorn.Server):
    """uvicorn's server, ending the pages' event streams as soon as it is asked to stop."""

    def __init__(self, config: uvicorn.Config, preview: Preview) -> None:
        super().__init__(config)
        self.preview = preview

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        self.preview.close_streams()
        super().handle_exit(sig, frame)


def create_app(preview: Preview, allowed_hosts: Sequence[str] = ("*",)) -> Starlette:
    out = preview.options.out
    rules = preview.options.root / "rules"
    playable = [game for game in preview.games if has_engine(game, rules / game)]  # Play pages

    def page(html: str, pdfs: bool = False) -> HTMLResponse:
        live = preview.live
        books = {
            game: sorted(path.name.split(".")[1] for path in (out / game).glob(BOOKS))
            for game in preview.games
        }  # the rulebooks out/ holds, by language
        tag = files.live_tag(
            live.generation, list(preview.games), playable, live.pdfs if pdfs else None, books
        )
        return HTMLResponse(files.with_live_script(html, tag), headers=files.NO_CACHE)

    async def out_file(request: Request) -> Response:
        path = files.inside(out, request.path_params["path"])
        if path is None:
            return Response("not found", status_code=404, media_type="text/plain")
        if path.suffix == ".html":
            return page(path.read_text(encoding="utf-8"))
        return FileResponse(path, headers=files.NO_CACHE)

    def known(request: Request) -> str | None:
        game = request.path_params["game"]
        return game if game in preview.games else None

    async def gallery(request: Request) -> Response:
        game = known(request)
        if game is None:
            return Response("no such game in this preview", status_code=404)
        asked, deck = request.query_params.get("page", "1"), request.query_params.get("deck", "")
        number = int(asked) if asked.isdigit() else 1
        shown = gallery_page(preview.galleries.get(game, []), number, deck=deck)
        template = PAGES.get_template("gallery.html.j2")
        return page(template.render(game=game, shown=shown, generation=preview.live.generation))

    async def sheet_list(request: Request) -> Response:
        game = known(request)
        if game is None:
            return Response("no such game in this preview", status_code=404)
        papers = []
        for paper in PAPERS:
            pdf = out / game / f"{game}-pnp-{paper}.pdf"
            if pdf.is_file():
                count = await asyncio.to_thread(sheets.page_count, pdf)
                papers.append(
                    {
                        "id": paper,
                        "pdf": pdf.name,
                        "pages": count,
                        "version": sheets.pdf_digest(pdf),
                    }
                )
        books = []
        for size in names.rulebook_sizes(PAPERS):
            for pdf in sorted((out / game).glob(names.rulebook_pdf("*", size))):
                if pdf.name not in (book["pdf"] for book in books):
                    count = await asyncio.to_thread(sheets.page_count, pdf)
                    books.append({"pdf": pdf.name, "pages": count})
        template = PAGES.get_template("sheets.html.j2")
        return page(template.render(game=game, papers=papers, books=books), pdfs=True)

    async def sheet_picture(request: Request) -> Response:
        game, paper = known(request), request.path_params["paper"]
        pdf = out / str(game) / f"{game}-pnp-{paper}.pdf"
        if game is None or paper not in PAPERS or not pdf.is_file():
            return Response("not found", status_code=404)
        cache = preview.options.build_dir / "serve" / "sheets"
        picture = await asyncio.to_thread(
            sheets.page_picture, pdf, request.path_params["page"], cache
        )
        if picture is None:
            return Response("not found", status_code=404)
        return FileResponse(picture, headers=files.NO_CACHE)

    async def events(request: Request) -> Response:
        queue = preview.live.listen()

        async def stream() -> AsyncIterator[str]:
            try:
                while True:
                    try:
                        message = await asyncio.wait_for(queue.get(), KEEP_ALIVE)
                    except TimeoutError:
                        yield ": keep-alive\n\n"
                        continue
                    if message is None:
                        return
                    yield f"data: {message}\n\n"
            finally:
                preview.live.forget(queue)

        return StreamingResponse(
            stream(), media_type="text/event-stream", headers={"Cache-Control": "no-store"}
        )

    async def live_js(request: Request) -> Response:
        script = Path(__file__).with_name("pages") / "live.js"
        return FileResponse(script, media_type="text/javascript", headers=files.NO_CACHE)

    async def japanese_font(request: Request) -> Response:
        return FileResponse(japanese_font_path(), media_type="font/ttf")

    async def no_icon(request: Request) -> Response:
        return Response(status_code=204)

    routes = [
        Route("/_serve/live.js", live_js),
        Route("/_serve/font/ja.ttf", japanese_font),
        Route("/favicon.ico", no_icon),
        Route("/_serve/events", events),
        Route("/_serve/gallery/{game}", gallery),
        Route("/_serve/sheets/{game}", sheet_list),
        Route("/_serve/sheets/{game}/{paper}/{page:int}.png", sheet_picture),
        *play_routes(rules, playable, page, preview.tables, preview.options.lang),
        Route("/{path:path}", out_file),
    ]
    return Starlette(
        routes=routes,
        lifespan=preview.lifespan,
        middleware=[Middleware(Guard, allowed_hosts=list(allowed_hosts))],
    )
