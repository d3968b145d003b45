"""The saves a preview rebuilds for: anything under ``rules/`` and the project's
``templates/``, and ``project.yaml`` (the author, credits and licence every output carries)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

from gachapress.project import PROJECT_FILE

Batch = set[tuple[Any, str]]


async def saves(root: Path, templates: Path, stop: asyncio.Event) -> AsyncIterator[Batch]:
    """The batches of saves of the project at ``root`` (its ``templates`` folder: the package's
    never change), until ``stop`` is set."""
    from watchfiles import awatch

    timing: dict[str, Any] = {"stop_event": stop, "debounce": 400, "step": 30}
    folders = [folder for folder in (root / "rules", templates) if folder.is_dir()]
    # project.yaml by its folder, alone: an editor that saves by replacing the file would end a
    # watch of the file itself, and the rest of the folder (out/, build/) is written by builds
    project = awatch(root, recursive=False, watch_filter=_project_file, **timing)
    async for batch in merged([awatch(*folders, **timing), project]):
        yield batch


def _project_file(_: Any, path: str) -> bool:
    return Path(path).name == PROJECT_FILE


async def merged(sources: Sequence[AsyncIterator[Batch]]) -> AsyncIterator[Batch]:
    """The batches of several watches as each comes, until every one has ended; a watch that
    fails ends them all with its exception."""
    queue: asyncio.Queue[tuple[Batch | None, BaseException | None]] = asyncio.Queue()

    async def pump(source: AsyncIterator[Batch]) -> None:
        try:
            async for batch in source:
                await queue.put((batch, None))
        except Exception as exc:
            await queue.put((None, exc))
        else:
            await queue.put((None, None))

    tasks = [asyncio.create_task(pump(source)) for source in sources]
    try:
        running = len(tasks)
        while running:
            batch, failure = await queue.get()
            if failure is not None:
                raise failure
            if batch is None:
                running -= 1
            else:
                yield batch
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
