"""`gachapress serve`: preview the cards, sheets and rulebooks, rebuilt and reloaded on save."""

from __future__ import annotations

import contextlib
import socket
from pathlib import Path
from typing import Annotated

import typer

from gachapress.assembly.builder import BuildOptions
from gachapress.cli.common import LangOption, RootOption, check_card_language, echo, select_games

#: Seconds an open request (an event stream) may hold up stopping.
GRACE = 2


def serve(
    games: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="[GAME]...", show_default=False, help="Games to preview (default: all)."
        ),
    ] = None,
    port: Annotated[
        int, typer.Option("--port", min=0, max=65535, help="Port to listen on (0: any free).")
    ] = 8000,
    host: Annotated[
        str,
        typer.Option("--host", help="Address to listen on; only this machine by default."),
    ] = "127.0.0.1",
    allow_host: Annotated[
        list[str] | None,
        typer.Option(
            "--allow-host",
            metavar="NAME",
            help="Another name the preview answers to when --host opens it to the network "
            "(this machine's own names and addresses always work); repeat for more.",
        ),
    ] = None,
    lang: LangOption = None,
    root: RootOption = Path("."),
) -> None:
    """Preview the games in a browser while you edit them.

    Builds the games into out/ and serves it: the index, the rulebooks, the PDFs,
    and for each game a card gallery, its sheets as pictures and a Play page to
    play it against the bots (or hot-seat) with the current rules.

    Every save under rules/ or templates/ rebuilds only the games it touches (a
    save of project.yaml, every game), and the open pages reload by themselves: the
    cards and pages at once, the PDFs a few seconds later. A save that fails `check`
    shows its errors (file:line:col and message) over the last good build until the
    file is fixed.

    Listens on this machine only unless --host says otherwise (--host 0.0.0.0: the
    network); it answers only to this machine's names and addresses and those named
    with --allow-host, never to another site's page. Ctrl-C stops it.
    """
    import uvicorn

    from gachapress.serve.app import Preview, PreviewServer, create_app
    from gachapress.serve.guard import machine_names
    from gachapress.serve.rebuild import prepare

    selected = select_games(games, root)
    check_card_language(selected, root, lang)
    options = BuildOptions(root=root, out=root / "out", lang=lang)
    preview = Preview(options, selected, report=lambda line: echo(line, err=True))
    try:
        listener = socket.create_server(
            (host, port), family=socket.AF_INET6 if ":" in host else socket.AF_INET
        )
    except OSError as exc:
        echo(f"error: cannot listen on {host}:{port}: {exc.strerror or exc}", err=True)
        raise typer.Exit(1) from None
    echo(f"building {', '.join(selected)} ...", err=True)
    try:
        preview.build(selected)
        prepare(options, selected)
    except KeyboardInterrupt:
        listener.close()
        echo("stopped", err=True)
        raise typer.Exit(130) from None
    bound = listener.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    hosts = machine_names(host, allow_host or [])
    app = create_app(preview, allowed_hosts=hosts)
    config = uvicorn.Config(
        app, log_level="warning", timeout_graceful_shutdown=GRACE, lifespan="on"
    )
    server = PreviewServer(config, preview)
    echo(f"serving http://{shown}:{bound}/ (Ctrl-C to stop)")
    with contextlib.suppress(KeyboardInterrupt):  # uvicorn raises Ctrl-C again once stopped
        server.run(sockets=[listener])
    echo("stopped", err=True)
