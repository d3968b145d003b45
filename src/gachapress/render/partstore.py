"""Parts of PDFs kept between builds (a face's drawn form, an art's): in the project's
``build/parts.sqlite``, by a digest of what each was made from, so that a build draws only the
faces that changed. Parts unused for a week are dropped."""

from __future__ import annotations

import hashlib
import marshal
import sqlite3
import time
from pathlib import Path
from typing import Any

#: Seconds a part is kept after the last build that used it.
KEEP = 7 * 24 * 3600


class PartStore:
    """Values made of Python's basic types (tuples, bytes, numbers, strings) by key; with no
    file, kept for this process only. A store that cannot be read or written is only not
    kept (the parts are drawn again). ``version``: of the code that draws the parts (a part
    drawn by other code is not found)."""

    def __init__(self, path: Path | None, version: str = "") -> None:
        self.version = version
        self._memory: dict[str, Any] = {}
        self._used: set[str] = set()
        self._new: dict[str, bytes] = {}
        self._db: sqlite3.Connection | None = None
        if path is None:
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(path, timeout=60, isolation_level=None)
        except (OSError, sqlite3.Error):
            return
        try:
            db.execute("PRAGMA journal_mode=WAL")  # builds of other games read meanwhile
            db.execute(
                "CREATE TABLE IF NOT EXISTS parts (key TEXT PRIMARY KEY, value BLOB, used REAL)"
            )
        except sqlite3.Error:
            db.close()
            return
        self._db = db

    def get(self, key: str) -> Any | None:
        key = f"{self.version}:{key}"
        self._used.add(key)
        if key in self._memory:
            return self._memory[key]
        if self._db is None:
            return None
        try:
            row = self._db.execute("SELECT value FROM parts WHERE key = ?", (key,)).fetchone()
        except sqlite3.Error:
            return None
        if row is None:
            return None
        stored: bytes = row[0]
        digest, body = stored[:32], stored[32:]
        if hashlib.sha256(body).digest() != digest:
            return None  # damaged: made again
        try:
            value = marshal.loads(body)
        except (ValueError, EOFError, TypeError):
            return None
        self._memory[key] = value
        return value

    def put(self, key: str, value: Any) -> None:
        key = f"{self.version}:{key}"
        self._used.add(key)
        self._memory[key] = value
        if self._db is None:
            return
        body = marshal.dumps(value)
        self._new[key] = hashlib.sha256(body).digest() + body

    def close(self) -> None:
        """Write the new parts (in one transaction), mark those this build used, and drop
        those unused for ``KEEP`` seconds."""
        if self._db is None:
            return
        now = time.time()
        try:
            with self._db:
                self._db.execute("BEGIN")
                self._db.executemany(
                    "INSERT OR REPLACE INTO parts VALUES (?, ?, ?)",
                    ((key, value, now) for key, value in self._new.items()),
                )
                self._db.executemany(
                    "UPDATE parts SET used = ? WHERE key = ?", ((now, k) for k in self._used)
                )
                self._db.execute("DELETE FROM parts WHERE used < ?", (now - KEEP,))
        except sqlite3.Error:
            pass
        self._db.close()
        self._db = None
