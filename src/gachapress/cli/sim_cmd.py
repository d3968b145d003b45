"""`gachapress sim`: play many seeded games with bots and report the statistics."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from gachapress.cli.common import (
    RootOption,
    cap_processes,
    echo,
    load_or_report,
    print_problems,
    progress_bar,
    rules_dir,
    select_games,
)
from gachapress.data.load import GameData
from gachapress.errors import GachapressError
from gachapress.sim import SimSpec, run_sim
from gachapress.sim.runner import MAX_GAMES


def sim(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="A game id.")],
    players: Annotated[int, typer.Option("--players", min=1, help="Number of players.")],
    games: Annotated[
        int, typer.Option("--games", min=1, max=MAX_GAMES, help="Games to play.")
    ] = 1000,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the whole run.")] = 0,
    mode: Annotated[str | None, typer.Option("--mode", help="Game mode (see `list`).")] = None,
    options: Annotated[
        list[str] | None,
        typer.Option(
            "--option", metavar="NAME", help="Switch on a game option (see `list`); repeatable."
        ),
    ] = None,
    bots: Annotated[
        str,
        typer.Option(
            "--bots", help="Bot per seat, comma-separated (random, greedy, ...); the last repeats."
        ),
    ] = "random",
    jobs: Annotated[
        int, typer.Option("--jobs", min=1, help="Processes to use (at most the CPU count).")
    ] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    root: RootOption = Path("."),
) -> None:
    """Play seeded games and print win rate by seat, score spread and game length.

    The same seed gives the same output, byte for byte, whatever --jobs is.
    """
    select_games([game_id], root)
    jobs = cap_processes("--jobs", jobs)
    game = load_or_report(game_id, root)
    if game is None:
        raise typer.Exit(1)
    if mode is None and len(game.model.modes) > 1 and "standard" not in game.model.modes:
        modes = ", ".join(game.model.modes)
        raise typer.BadParameter(
            f"{game_id} has several modes: choose one of {modes}", param_hint="'--mode'"
        )
    names = tuple(b.strip() for b in bots.split(",") if b.strip()) or ("random",)
    if len(names) > players:
        raise typer.BadParameter(
            f"{len(names)} bots for {players} player{'s' if players != 1 else ''}: name at "
            "most one per seat (the last repeats for the seats left)",
            param_hint="'--bots'",
        )
    _refuse_failing_rules(game)
    switches = tuple(sorted(set(options or ())))
    spec = SimSpec(game_id, players, games, seed, mode, names, rules_dir(root), switches)
    started = time.perf_counter()
    try:
        summary = _run(spec, jobs, show_progress=sys.stderr.isatty() and not as_json)
    except (ValueError, GachapressError) as exc:
        raise typer.BadParameter(str(exc)) from None
    elapsed = time.perf_counter() - started
    report = {
        "game": game_id,
        "mode": mode,
        "options": list(switches),
        "players": players,
        "seed": seed,
        "bots": list(names),
        **summary.report(),
    }
    if as_json:
        typer.echo(json.dumps(report, sort_keys=True))
    else:
        _print(report, elapsed)


def _refuse_failing_rules(game: GameData) -> None:
    """Exit 1 with the located problems when the game fails the checks `check` runs: the
    games played would be those of rules that are known to be wrong."""
    from gachapress.checks import run_checks

    problems = [p for r in run_checks(game) for p in r.problems if p.severity == "error"]
    if problems:
        print_problems(sorted(problems))
        echo(f"sim refused: {game.id} fails its checks (see `gachapress check`)", err=True)
        raise typer.Exit(1)


def _run(spec: SimSpec, jobs: int, show_progress: bool):
    if not show_progress:
        return run_sim(spec, jobs)
    with progress_bar(eta=True) as bar:
        task = bar.add_task(f"{spec.game} {spec.players}p", total=spec.games)
        return run_sim(spec, jobs, progress=lambda n: bar.advance(task, n))


def _print(report: dict[str, Any], elapsed: float) -> None:
    console = Console()
    variant = "".join(f" {name}" for name in (report["mode"], *report["options"]) if name)
    console.print(
        f"[bold]{report['game']}[/]{variant} {report['players']} players, {report['games']} "
        f"games, seed {report['seed']}, bots {','.join(report['bots'])}  "
        f"({report['games'] / elapsed:,.0f} games/s)",
        soft_wrap=True,
    )
    table = Table("seat", "win rate", "95% CI", "wins", "shared", "mean score", "p10-p90")
    for win, score in zip(report["win_rate"], report["scores"]["by_seat"], strict=True):
        low, high = win["ci95"]
        table.add_row(
            str(win["seat"]),
            f"{win['rate']:.1%}",
            f"{low:.1%}-{high:.1%}",
            str(win["wins"]),
            str(win["shared_wins"]),
            f"{score['mean']:.1f}",
            f"{score['p10']}-{score['p90']}",
        )
    console.print(table)
    actions, rounds = report["length"]["actions"], report["length"]["rounds"]
    console.print(
        f"length: {actions['mean']:.0f} actions (p10 {actions['p10']}, p90 "
        f"{actions['p90']}), {rounds['mean']:.2f} rounds"
    )
    ends = ", ".join(f"{name} {share:.1%}" for name, share in report["end_conditions"].items())
    console.print(f"end conditions: {ends}")
    if report["rare_events"]:
        rare = ", ".join(f"{name} {games}" for name, games in report["rare_events"].items())
        console.print(f"games taking a rare path: {rare}")
