"""Publishing one target folder (``out/<game>/export/<target>/``) the way `build` publishes
out/: the new folder is staged beside it and swapped in at once, unchanged files are linked
from the old one, and the folder's own marker lists what the tool wrote there, so files someone
else put there are carried over and never replaced."""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path

from gachapress.assembly import outdir
from gachapress.assembly.outdir import MARKER, OutputError, link
from gachapress.export.common import Plan


@dataclass
class TargetOutcome:
    """What exporting one game to one target did."""

    game: str
    target: str
    folder: Path
    written: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)


def publish(folder: Path, plan: Plan, outcome: TargetOutcome, repair: bool = False) -> None:
    """Write the plan's changed outputs and put the folder in place (call with out/ locked)."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    outdir.refuse_mount_point(folder, str(folder))
    outdir.recover(folder)
    previous = _previous(folder, repair)
    entries = {name: digest for name, (digest, _) in plan.items()}
    stage = outdir.staging_name(folder, "stage")
    try:
        for name, (digest, write) in sorted(plan.items()):
            target = stage / name
            target.parent.mkdir(parents=True, exist_ok=True)
            old = folder / name
            if previous.get(name) == digest and old.is_file():
                link(old, target)
                outcome.kept.append(name)
            else:
                write(target)
                outcome.written.append(name)
        if entries == previous and not outcome.written:
            return  # nothing changed: the folder is not touched
        _carry_over(folder, stage, previous)
        outdir.write_marker(stage, entries)
        outdir.fault("export-staged")
        outdir.switch(stage, folder)
    finally:
        shutil.rmtree(stage, ignore_errors=True)


def _previous(folder: Path, repair: bool) -> dict[str, str]:
    """What the last export wrote into ``folder``; refuses a non-empty folder it did not make,
    or whose marker is damaged (unless ``repair``)."""
    if not folder.is_dir() or not any(folder.iterdir()):
        return {}
    previous = outdir.read_marker(folder, str(folder), repair, "the export")
    if previous is None:
        raise OutputError(
            f"{folder} is not empty and was not made by gachapress (it has no {MARKER}); "
            "empty it or move it away"
        )
    return previous


def _carry_over(folder: Path, stage: Path, previous: dict[str, str]) -> None:
    """What is in the old folder that the tool did not write (files, links, folders) is kept
    in the new one."""
    outdir.carry_over(folder, stage, lambda rel: rel not in previous)
