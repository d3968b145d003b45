"""A file's digest is kept by what ``stat`` says of it, and never outlives an edit: a save of
the same size within the same clock tick reads the file again."""

from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path

from gachapress.assembly import manifest
from gachapress.assembly.manifest import hash_file, hash_tree


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_an_old_file_is_read_once_and_an_edit_is_seen(tmp_path: Path, monkeypatch) -> None:
    art = tmp_path / "card.svg"
    art.write_bytes(b"<svg>one</svg>")
    old = time.time() - 60
    os.utime(art, (old, old))
    assert hash_file(art) == _sha(b"<svg>one</svg>")
    reads: list[Path] = []
    read_bytes = Path.read_bytes

    def counted(path: Path) -> bytes:
        reads.append(path)
        return read_bytes(path)

    monkeypatch.setattr(Path, "read_bytes", counted)
    assert hash_file(art) == _sha(b"<svg>one</svg>")
    assert reads == []  # kept
    art.write_bytes(b"<svg>two</svg>")  # the same size, a new time
    assert hash_file(art) == _sha(b"<svg>two</svg>")
    assert reads == [art]


def test_a_file_saved_just_now_is_not_kept(tmp_path: Path) -> None:
    """Its time may not yet tell it from a second save of the same size in the same tick."""
    art = tmp_path / "card.svg"
    art.write_bytes(b"<svg>one</svg>")
    assert hash_file(art) == _sha(b"<svg>one</svg>")
    assert art not in manifest._DIGESTS


def test_a_tree_hashes_its_files_and_a_link_out_by_where_it_points(tmp_path: Path) -> None:
    root, outside = tmp_path / "project", tmp_path / "elsewhere.txt"
    game = root / "rules" / "game"
    (game / "art").mkdir(parents=True)
    (game / "art" / "a.svg").write_text("<svg/>", encoding="utf-8")
    (game / "local.txt").write_text("inside", encoding="utf-8")
    outside.write_text("outside", encoding="utf-8")
    (game / "out.txt").symlink_to(outside)
    (game / "in.txt").symlink_to(game / "local.txt")
    first = hash_tree(game, root)
    outside.write_text("changed outside", encoding="utf-8")
    assert hash_tree(game, root) == first  # never read: hashed by where it points
    (game / "local.txt").write_text("changed inside", encoding="utf-8")
    second = hash_tree(game, root)
    assert second != first
    (game / "art" / "a.svg").write_text("<svg></svg>", encoding="utf-8")
    assert hash_tree(game, root) != second
