"""The kept parts of PDFs: what one build stores the next reads back; a damaged or unreadable
store only costs drawing again; parts unused for a week are dropped."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from gachapress.render import partstore
from gachapress.render.partstore import PartStore

PART = (b"\x78\x9c stream", (0, 0, 180.5, 252.0), (("/fonts/a.ttf", ((36, "A"), (37, "B"))),))


def test_a_part_stored_by_one_build_is_read_by_the_next(tmp_path: Path) -> None:
    path = tmp_path / "build" / "parts.sqlite"
    first = PartStore(path)
    assert first.get("face:1") is None
    first.put("face:1", PART)
    first.close()
    second = PartStore(path)
    assert second.get("face:1") == PART
    assert second.get("face:2") is None
    second.close()


def test_a_damaged_part_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "parts.sqlite"
    store = PartStore(path)
    store.put("face:1", PART)
    store.close()
    with sqlite3.connect(path) as db:
        (value,) = db.execute("SELECT value FROM parts").fetchone()
        db.execute("UPDATE parts SET value = ?", (value[:-1] + b"!",))
    assert PartStore(path).get("face:1") is None


def test_a_store_that_is_not_a_database_or_cannot_be_made_only_keeps_nothing(
    tmp_path: Path,
) -> None:
    garbage = tmp_path / "parts.sqlite"
    garbage.write_bytes(b"not a database at all" * 100)
    blocked = tmp_path / "file" / "parts.sqlite"
    (tmp_path / "file").write_text("a file where the folder would be", encoding="utf-8")
    for path in (garbage, blocked):
        store = PartStore(path)
        store.put("face:1", PART)
        assert store.get("face:1") == PART  # for this process
        store.close()
        assert PartStore(path).get("face:1") is None


def test_parts_unused_for_a_week_are_dropped(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "parts.sqlite"
    store = PartStore(path)
    store.put("old", PART)
    store.put("kept", PART)
    store.close()
    later = time.time() + partstore.KEEP - 60
    monkeypatch.setattr(partstore.time, "time", lambda: later)
    store = PartStore(path)
    assert store.get("kept") == PART  # used again: kept a week more
    store.close()
    monkeypatch.setattr(partstore.time, "time", lambda: later + 120)
    store = PartStore(path)
    store.close()
    store = PartStore(path)
    assert (store.get("old"), store.get("kept")) == (None, PART)
