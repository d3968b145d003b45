"""The Play page and its JSON calls, added to the preview server's routes.

The browser only ever sends a setup, an action text, undo, restart or a log; the server
answers with the game's status, and draws a seat's view (``present``) only for the seat whose
turn it is (or, once the game is over, any human seat)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from gachapress.assembly import names
from gachapress.book.words import StringTable
from gachapress.engine.contract import contract_failure
from gachapress.engine.core import Game, IllegalAction, load_game
from gachapress.errors import GachapressError
from gachapress.project import Templates
from gachapress.publish import templating
from gachapress.serve.files import NO_CACHE
from gachapress.serve.guard import body_json
from gachapress.serve.play.present import SPOKEN, bot_name, language, page_words, seat_view
from gachapress.serve.play.session import PlayError, Session, Sessions, from_log

PAGES = Path(__file__).resolve().parents[1] / "pages"
VIEWS = templating.environment(PAGES)


def status(key: str, session: Session) -> dict[str, Any]:
    """What the page needs to know to go on: whose turn, whether it is over, who is human."""
    state = session.state
    return {
        "session": key,
        "game": session.game.id,
        "turn": state.current_player,
        "over": state.current_player is None,
        "humans": session.humans,
        "moves": len(session.moves),
    }


def draw(session: Session, seat: int, card_lang: str | None = None, lang: str | None = None) -> str:
    """The HTML of ``seat``'s view, as the Play page puts it on the table, in ``lang`` (by
    default the preview's pages' language), its cards drawn in that language (``card_lang``:
    the language of ``cards/``, ``serve --lang``)."""
    model = session.game.model
    view = seat_view(session, seat, lang)
    context = {
        "game": session.game.id,
        "cards": names.cards_dir(view["lang"], model.card_language(card_lang)),
        "view": view,
    }
    return templating.render(VIEWS, "play_view.html.j2", context)


def _mode_name(game: Game, mode: str, lang: str) -> str:
    """A mode as its rulebook names it (``通常ルール``), else its id."""
    described = game.model.modes.get(mode)
    return described.name.get(lang, mode) if described is not None else mode.capitalize()


def refused(message: str, code: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=code)


#: A route's work once its game in play is found: the request, the game's key and session.
SessionHandler = Callable[[Request, str, Session], Awaitable[Response]]


def play_routes(
    rules_dir: Path,
    games: list[str],
    page: Callable[[str], HTMLResponse],
    tables: Sessions,
    card_lang: str | None = None,
) -> list[Route]:
    """The routes of the Play pages of ``games``, their rules read from ``rules_dir`` at
    every new game (so a designer's last save is what is played); ``card_lang``: the language
    of the faces in ``cards/`` (``serve --lang``)."""

    def fresh(request: Request) -> Game | None:
        """The game of the request as saved last (None when the preview has no such game);
        PlayError when its engine fails the engine contract."""
        game_id = request.path_params["game"]
        if game_id not in games:
            return None
        game = load_game(game_id, rules_dir)
        failure = contract_failure(game.data)
        if failure is not None:
            raise PlayError(
                f"this game's engine fails the engine contract, so it is not played: {failure}"
            )
        return game

    def of_session(handler: SessionHandler) -> Callable[[Request], Awaitable[Response]]:
        """A route of one game in play (``key`` in the path): 404 saying why when there is
        none."""

        async def route(request: Request) -> Response:
            key = request.path_params["key"]
            try:
                session = tables.get(key)
            except PlayError as exc:
                return refused(str(exc), 404)
            return await handler(request, key, session)

        return route

    async def play_page(request: Request) -> Response:
        try:
            game = fresh(request)
        except PlayError as exc:
            return Response(str(exc), status_code=500)
        except GachapressError as exc:
            return Response(f"this game does not load: {exc}", status_code=500)
        if game is None:
            return Response("no such game in this preview", status_code=404)
        lang = language(game, request.query_params.get("lang", ""))
        words = page_words(lang)
        bots = ["random", *game.engine.bots]
        others = [other for other in game.model.languages if other in SPOKEN and other != lang]
        try:
            strings = StringTable.load(Templates(rules_dir.parent))
        except GachapressError as exc:
            return Response(f"the project's strings.yaml does not load: {exc}", status_code=500)
        html = templating.render(
            VIEWS,
            "play.html.j2",
            {
                "lang": lang,
                "game": game.id,
                "name": game.model.name.get(lang, game.id),
                "modes": {
                    mode: {"counts": counts, "name": _mode_name(game, mode, lang)}
                    for mode, counts in game.modes.items()
                },
                "bots": bots,
                "words": words,
                "script_words": {
                    key: words[key]
                    for key in ("person", "player", "pass_to", "ready", "nobody_plays")
                }
                | {"bots": {bot: bot_name(words, bot) for bot in bots}},
                "others": [
                    {
                        "lang": other,
                        "label": strings.lookup(("ui", f"lang_{other}"), other) or other,
                    }
                    for other in others
                ],
            },
        )
        return page(html)

    async def new(request: Request) -> Response:
        try:
            game = fresh(request)
            if game is None:
                return refused("no such game in this preview", 404)
            setup = body_json(request)
            if not isinstance(setup, dict):
                raise PlayError("the setup is not an object")
            mode, seed, seats = str(setup.get("mode")), setup.get("seed", 0), setup.get("seats")
            session = Session(game, mode, seed, seats)
        except (PlayError, GachapressError) as exc:
            return refused(str(exc))
        return JSONResponse(status(tables.add(session), session))

    async def upload(request: Request) -> Response:
        try:
            game = fresh(request)
            if game is None:
                return refused("no such game in this preview", 404)
            session = from_log(game, body_json(request))
        except (PlayError, GachapressError) as exc:
            return refused(str(exc))
        return JSONResponse(status(tables.add(session), session))

    @of_session
    async def view(request: Request, key: str, session: Session) -> Response:
        try:
            seat = int(request.query_params.get("seat", ""))
        except ValueError:
            return Response("which seat?", status_code=400)
        if not session.may_see(seat):
            return Response("that seat's cards are not yours to see now", status_code=403)
        lang = language(session.game, request.query_params.get("lang", ""))
        return HTMLResponse(draw(session, seat, card_lang, lang), headers=NO_CACHE)

    @of_session
    async def act(request: Request, key: str, session: Session) -> Response:
        try:
            move = body_json(request)
            if not isinstance(move, dict) or not isinstance(move.get("action"), str):
                raise PlayError('send {"action": "..."}')
            session.act(move["action"])
        except PlayError as exc:
            return refused(str(exc))
        except IllegalAction as exc:
            return refused(str(exc), 409)
        return JSONResponse(status(key, session))

    @of_session
    async def current(request: Request, key: str, session: Session) -> Response:
        return JSONResponse(status(key, session))

    @of_session
    async def undo(request: Request, key: str, session: Session) -> Response:
        asked = body_json(request)
        seat = asked.get("seat") if isinstance(asked, dict) else None
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
            return refused(f"the seat asking to take a move back is a number, not {seat!r}")
        try:
            session.undo(seat)
        except PlayError as exc:
            return refused(str(exc), 409)
        return JSONResponse(status(key, session))

    @of_session
    async def restart(request: Request, key: str, session: Session) -> Response:
        session.restart()
        return JSONResponse(status(key, session))

    @of_session
    async def download(request: Request, key: str, session: Session) -> Response:
        humans = session.humans
        asked = request.query_params.get("seat", str(humans[0]) if len(humans) == 1 else "")
        try:
            document = session.log(int(asked) if asked.isascii() and asked.isdigit() else None)
        except PlayError as exc:
            return refused(str(exc), 403)
        name = f"{session.game.id}-{session.seed}.json"
        if "seat" in document:
            name = f"{session.game.id}-{session.seed}-player-{document['seat'] + 1}-view.json"
        return JSONResponse(
            document, headers={"Content-Disposition": f'attachment; filename="{name}"'}
        )

    def asset(name: str, media: str) -> Callable[[Request], Any]:
        async def serve(request: Request) -> Response:
            return FileResponse(PAGES / name, media_type=media, headers=NO_CACHE)

        return serve

    return [
        Route("/_serve/play.js", asset("play.js", "text/javascript")),
        Route("/_serve/play.css", asset("play.css", "text/css")),
        Route("/_serve/play/{game}", play_page),
        Route("/_serve/play/{game}/new", new, methods=["POST"]),
        Route("/_serve/play/{game}/upload", upload, methods=["POST"]),
        Route("/_serve/table/{key}", view),
        Route("/_serve/table/{key}/status", current),
        Route("/_serve/table/{key}/act", act, methods=["POST"]),
        Route("/_serve/table/{key}/undo", undo, methods=["POST"]),
        Route("/_serve/table/{key}/restart", restart, methods=["POST"]),
        Route("/_serve/table/{key}/log", download),
    ]
