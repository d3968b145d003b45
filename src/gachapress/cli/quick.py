"""A build with nothing to do, answered without loading typer, rich, pydantic or the
publishing code: the arguments of a plain `gachapress build` are read here, and when every
game's inputs hash and the index match out/'s marker it prints what `build` prints and is done.
Anything else (another command, --help, an option it does not know, a build with work to do,
an error) goes to the full command line, which says it the usual way."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from gachapress.assembly.builder import PAPERS, BuildOptions, unchanged
from gachapress.assembly.outdir import OutputError
from gachapress.data.folders import find_games, is_game_id, unknown_folders

#: The options of `build` read here, with the values each may take (None: any).
_CHOICES: dict[str, tuple[str, ...] | None] = {
    "--out": None,
    "--root": None,
    "--paper": ("a4", "letter", "both"),
    "--ink": ("normal", "low"),
    "--jobs": None,
    "--lang": None,  # a language a game does not publish matches no build: the full command
    "--back-offset": ("0,0",),  # another offset is parsed (and checked) by the full command
}


def noop_build(args: list[str]) -> bool:
    """Answer `build ARGS` when it has nothing to do; False when the full command must run."""
    options = _build_options(args)
    if options is None:
        return False
    games, build_options = options
    started = time.perf_counter()
    try:
        report = unchanged(games, build_options)
    except OutputError:
        return False
    if report is None:
        return False
    for problem in unknown_folders(build_options.root / "rules"):
        print(problem.format(), file=sys.stderr)
    if not sys.stderr.isatty():
        for outcome in report.games:
            print(outcome.line(), file=sys.stderr)
    print(report.summary(build_options.out, time.perf_counter() - started))
    return True


def _build_options(args: list[str]) -> tuple[list[str], BuildOptions] | None:
    """The games and options of a plain `build` command line; None for anything else."""
    if not args or args[0] != "build":
        return None
    games: list[str] = []
    values: dict[str, str] = {}
    rest = iter(args[1:])
    for arg in rest:
        name, equals, value = arg.partition("=")
        if name in _CHOICES:
            value = value if equals else next(rest, "")
            allowed = _CHOICES[name]
            if name in values or (allowed is not None and value not in allowed) or not value:
                return None
            values[name] = value
        elif is_game_id(arg):
            games.append(arg)
        else:
            return None
    if not values.get("--jobs", "1").isdigit() or int(values.get("--jobs", "1")) < 1:
        return None
    root = Path(values.get("--root", "."))
    found = find_games(root / "rules")
    if any(game not in found for game in games):
        return None
    out = Path(values["--out"]) if "--out" in values else root / "out"
    if any(folder.exists() and not folder.is_dir() for folder in (root, out)):
        return None
    paper = values.get("--paper", "both")
    options = BuildOptions(
        root=root,
        out=out,
        papers=PAPERS if paper == "both" else (paper,),
        ink=values.get("--ink", "normal"),  # type: ignore[arg-type]
        lang=values.get("--lang"),
    )
    return list(dict.fromkeys(games)) if games else found, options
