"""What the open pages are told: the located problems of the last rebuild of each game, a
generation number that moves on with every rebuild that was published, another that moves on
when the PDFs were, and whether PDFs are still being made for the last edit."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field


@dataclass
class Live:
    """The preview's state, shared by the watcher (which changes it) and the event streams."""

    generation: int = 0
    pdfs: int = 0  # moves on when a rebuild published PDFs (the sheets page reloads)
    pending: bool = False  # the PDFs of the last edit are still being made
    problems: dict[str, list[str]] = field(default_factory=dict)  # game -> formatted problems
    _listeners: set[asyncio.Queue[str | None]] = field(default_factory=set)

    def message(self) -> str:
        problems = [line for lines in self.problems.values() for line in lines]
        return json.dumps(
            {
                "generation": self.generation,
                "pdfs": self.pdfs,
                "pending": self.pending,
                "problems": problems,
            }
        )

    def publish(self) -> None:
        """Tell every open page the current state (call from the event loop's thread)."""
        text = self.message()
        for queue in self._listeners:
            queue.put_nowait(text)

    def listen(self) -> asyncio.Queue[str | None]:
        queue: asyncio.Queue[str | None] = asyncio.Queue()
        queue.put_nowait(self.message())
        self._listeners.add(queue)
        return queue

    def forget(self, queue: asyncio.Queue[str | None]) -> None:
        self._listeners.discard(queue)

    def close(self) -> None:
        """End every event stream (the server is stopping)."""
        for queue in self._listeners:
            queue.put_nowait(None)
