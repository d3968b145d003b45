"""Where a build publishes: it refuses folders the tool did not make, takes one lock per output
folder, and switches from the old tree to the new one in a single atomic step.

A build writes its whole new tree into a staging folder beside the output folder (so on the same
filesystem), then exchanges the two with one ``renameat2(RENAME_EXCHANGE)``: at any instant the
output folder is either the old tree or the new one.

Where the kernel or file system cannot exchange two folders, no pair of renames can replace a
folder without an instant in which it is missing. There the output folder is a symbolic link to
a versioned tree beside it (``out -> .out.tree-PID-NS``), and a publish renames the staged tree
to a new version and then renames a new link over ``out``: renaming over a link is one atomic
step, so readers through ``out`` (serve, a sweep, a shell) always find a whole tree, and the old
version is deleted afterwards. A first publish on such a file system makes ``out`` that link at
once. An ``out`` that is a real folder there (made on another machine or by an older version)
is turned into the link once: the old tree is renamed to a version and the link put in its
place, and only a kill at that one instant leaves ``out`` missing; every run (under the lock)
puts the link back first (``recover``). Where folders can be exchanged again, the exchange
of the staged tree with the link makes ``out`` a folder again. The output folder carries a
marker listing every file the tool wrote; only those are ever replaced or deleted.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import json
import os
import re
import shutil
import signal
import stat
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from gachapress.assembly.manifest import adopt_legacy_manifest
from gachapress.errors import GachapressError

#: The file in every output folder that says the tool made it and lists what it wrote.
MARKER = ".gachapress-out.json"
_GENERATOR = "gachapress"
#: Folders of a project that an output folder may never be, contain or lie in.
_PROTECTED = ("rules", "templates", "src")


class OutputError(GachapressError):
    """The output folder cannot be used or written; the message says why and what to do."""


def staging_name(out: Path, kind: str) -> Path:
    """A working folder beside ``out``: ``.out.stage-PID`` (the new tree) or ``.out.old-PID``."""
    return out.with_name(f".{out.name}.{kind}-{os.getpid()}")


def guard(
    out: Path, root: Path, repair: bool = False, command: str = "the command"
) -> dict[str, str]:
    """Refuse an output folder that is, holds or lies in the project's own files, the file
    system root or the home folder, or that holds files the tool did not make. Returns what
    the previous build wrote there (empty for a new or empty folder). A damaged marker is
    refused saying how to recover, unless ``repair`` (``--repair-out``): the folder is then
    the tool's, listing nothing."""
    target = out.resolve()
    project = root.resolve()
    shown = str(out)
    if target == Path(target.anchor):
        raise OutputError(f"--out {shown}: refusing to publish into the file system root")
    if target == Path.home().resolve():
        raise OutputError(f"--out {shown}: refusing to publish into the home folder")
    if project.is_relative_to(target):
        raise OutputError(f"--out {shown}: this folder holds the project; choose one of its own")
    for name in _PROTECTED:
        folder = (project / name).resolve()
        if target.is_relative_to(folder) or folder.is_relative_to(target):
            raise OutputError(f"--out {shown}: this would write into the project's {name}/ folder")
    if target.exists() and not target.is_dir():
        raise OutputError(f"--out {shown}: this is a file, not a folder")
    refuse_mount_point(target, f"--out {shown}")
    if not target.is_dir() or not any(target.iterdir()):
        return {}
    previous = read_marker(target, f"--out {shown}", repair, command)
    if previous is not None:
        return previous  # the tool's folder, even if it lists nothing yet (only exports)
    previous = adopt_legacy_manifest(root / "build", out)
    if not previous:
        raise OutputError(
            f"--out {shown}: this folder is not empty and was not made by gachapress "
            f"(it has no {MARKER}); empty it or choose another folder"
        )
    return previous


def refuse_mount_point(folder: Path, shown: str) -> None:
    """OutputError for a folder that is a mount point: a publish replaces the folder as a
    whole (staged beside it, then swapped in by renaming), and a mount point cannot be
    renamed ("Device or resource busy"); a folder inside it can."""
    if folder.is_dir() and os.path.ismount(folder):
        raise OutputError(
            f"{shown}: this folder is a mount point, which cannot be replaced as a whole as "
            f"gachapress replaces the folders it publishes (staged beside them and swapped in); "
            f"publish into a folder inside it instead, such as {folder / 'out'}"
        )


#: The largest marker read (one lists a few thousand files: some hundred kilobytes).
MAX_MARKER_BYTES = 64 * 1024 * 1024
#: The option that takes a folder whose marker is damaged as the tool's own.
REPAIR_OPTION = "--repair-out"


def read_marker(
    out: Path, shown: str | None = None, repair: bool = False, command: str = "the command"
) -> dict[str, str] | None:
    """The files a previous build wrote into ``out`` (output path -> input hash), or None when
    ``out`` has no marker. A marker that is there but not one this tool wrote whole (not a
    regular file, too large, not its JSON) raises OutputError saying it is damaged and how to
    recover (run ``command`` again with REPAIR_OPTION); with ``repair`` it is taken as listing
    nothing."""
    path = out / MARKER
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise OutputError(f"cannot read {path}: {exc.strerror or exc}") from None
    damage = None
    if not stat.S_ISREG(info.st_mode):
        damage = "it is not a regular file"
    elif info.st_size > MAX_MARKER_BYTES:
        damage = f"it is {info.st_size:,} bytes long"
    else:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError) as exc:
            data = None
            damage = f"it cannot be read as JSON: {exc}"
        if damage is None and not _is_marker(data):
            damage = "it is not the list gachapress writes"
    if damage is None:
        return data["files"]
    if repair:
        return {}
    where = shown or str(out)
    raise OutputError(
        f"{where}: its {MARKER}, the list of the files gachapress wrote there, is damaged "
        f"({damage}), so gachapress cannot tell its files from yours. Run {command} again "
        f"with {REPAIR_OPTION}: every output is then written anew (a file of yours at the "
        "path of an output would be replaced) and every other file is kept, as are the "
        "outputs it no longer makes; or move the folder away"
    )


def _is_marker(data: object) -> bool:
    return (
        isinstance(data, dict)
        and data.get("generator") == _GENERATOR
        and isinstance(data.get("files"), dict)
        and all(isinstance(k, str) and isinstance(v, str) for k, v in data["files"].items())
    )


def write_marker(folder: Path, entries: dict[str, str]) -> None:
    """Write the folder's marker whole, in place of whatever is there (a link is replaced,
    never written through)."""
    text = json.dumps({"generator": _GENERATOR, "files": entries}, indent=1, sort_keys=True)
    partial = folder / f"{MARKER}.{os.getpid()}"
    partial.write_text(text + "\n", encoding="utf-8")
    os.replace(partial, folder / MARKER)


@contextlib.contextmanager
def locked(out: Path, waiting: Callable[[str], None] | None = None) -> Iterator[None]:
    """Hold the output folder's lock (``.out.lock`` beside it, there only while a build runs);
    a second build fails at once, naming the process that holds it. With ``waiting`` (a
    short write such as a sweep's cell) it is told the holder and waits for the lock instead."""
    out.parent.mkdir(parents=True, exist_ok=True)
    lock = out.with_name(f".{out.name}.lock")
    while True:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "another process"
            if waiting is None:
                os.close(fd)
                raise OutputError(
                    f"another build is writing {out} (process {holder}); wait for it to finish"
                ) from None
            waiting(holder)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
            except BaseException:
                os.close(fd)
                raise
        try:
            if os.stat(lock).st_ino == os.fstat(fd).st_ino:
                break  # locked the file that is there now, not one its last holder removed
        except FileNotFoundError:
            pass
        os.close(fd)
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        with contextlib.suppress(OSError):
            os.unlink(lock)
        os.close(fd)  # closing releases the lock


def recover(out: Path) -> None:
    """Clear what killed builds left beside ``out`` (call with the lock held): a stage folder or
    a half-made link is deleted, and so is a tree version ``out`` no longer links to; an old
    tree is put back (or linked) if the kill came before the new one was in place."""
    pattern = re.compile(re.escape(f".{out.name}.") + r"(stage|old|tree|link)-[0-9-]+")
    found = [p for p in out.parent.iterdir() if pattern.fullmatch(p.name)]
    for link_left in [p for p in found if ".link-" in p.name and p.is_symlink()]:
        link_left.unlink()
    leftovers = sorted(
        (p for p in found if p.is_dir() and not p.is_symlink()),
        key=lambda p: p.stat().st_mtime_ns,
    )
    current = _tree_of(out)
    for folder in leftovers:
        if folder == current:
            continue
        if not os.path.lexists(out) and ".old-" in folder.name:
            folder.rename(out)
        elif not os.path.lexists(out) and ".tree-" in folder.name:
            _point(out, folder)  # killed while turning a real out/ into the link
            current = folder
        else:
            shutil.rmtree(folder)


def link(source: Path, target: Path) -> None:
    """Put ``source`` at ``target`` without rewriting it: a hard link of the entry itself (a
    symbolic link stays a link, to where it pointed, never followed); where hard links fail
    (another file system), a copy of a file, a new link to the same place, a new FIFO."""
    try:
        os.link(source, target, follow_symlinks=False)
        return
    except OSError:
        pass
    mode = os.lstat(source).st_mode
    if stat.S_ISLNK(mode):
        os.symlink(os.readlink(source), target)
    elif stat.S_ISFIFO(mode):
        os.mkfifo(target, stat.S_IMODE(mode))
    elif stat.S_ISREG(mode):
        shutil.copy2(source, target, follow_symlinks=False)
    # a socket or device cannot be copied: it stays in the old tree only


def carry_over(old: Path, stage: Path, keep: Callable[[str], bool]) -> None:
    """Complete a staged tree from the one it replaces: every entry of ``old`` (by its path
    relative to it) that ``keep`` accepts and the stage lacks is linked in, whatever it is (a
    file, a symbolic link, kept as a link and never followed, an empty folder), so nothing
    someone else put there is lost. The marker is the stage's own."""
    if not old.is_dir():
        return
    for directory, folders, files in os.walk(old):
        here = Path(directory)
        for name in sorted(folders + files):
            path = here / name
            rel = path.relative_to(old).as_posix()
            target = stage / rel
            if rel == MARKER or not keep(rel) or os.path.lexists(target):
                continue
            if path.is_dir() and not path.is_symlink():
                if not any(path.iterdir()):
                    target.mkdir(parents=True)  # an empty folder; a full one comes with its files
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            link(path, target)


def switch(stage: Path, out: Path) -> None:
    """Put the staged tree at ``out`` and delete the old one, in one atomic step (see the
    module's docstring)."""
    if not os.path.lexists(out):
        fault("before-rename")
        if _can_exchange(stage):
            stage.rename(out)
        else:
            tree = _version(out)
            stage.rename(tree)
            _point(out, tree)
        return
    current = _tree_of(out)
    fault("before-exchange")
    if _exchange(stage, out):  # a folder and the tool's link exchange as well
        fault("after-exchange")
        if current is None:
            shutil.rmtree(stage)  # the old tree, now
        else:
            stage.unlink()  # the link, now: out is a folder again where folders exchange
            shutil.rmtree(current)
        return
    if current is None:
        current = _version(out)  # a real folder where nothing can exchange: link it, once
        out.rename(current)
        fault("after-move-old")
        _point(out, current)
        fault("after-rename")
    tree = _version(out)
    stage.rename(tree)
    fault("before-relink")
    _point(out, tree)
    fault("after-relink")
    if current.is_dir():
        shutil.rmtree(current)


def _version(out: Path) -> Path:
    """A new name for a tree version beside ``out``."""
    return out.with_name(f".{out.name}.tree-{os.getpid()}-{time.time_ns()}")


def _tree_of(out: Path) -> Path | None:
    """The tree version ``out`` links to when it is the tool's link (to a sibling tree)."""
    if not out.is_symlink():
        return None
    target = os.readlink(out)
    if re.fullmatch(re.escape(f".{out.name}.tree-") + r"[0-9-]+", target):
        return out.with_name(target)
    return None


def _point(out: Path, tree: Path) -> None:
    """Make ``out`` a link to ``tree`` (a sibling) in one atomic rename."""
    fresh = out.with_name(f".{out.name}.link-{os.getpid()}")
    with contextlib.suppress(FileNotFoundError):
        fresh.unlink()
    os.symlink(tree.name, fresh)
    os.rename(fresh, out)


def _can_exchange(beside: Path) -> bool:
    """Whether two folders beside ``beside`` can be exchanged atomically (tried on two empty
    ones), so that a first publish knows whether ``out`` is to be a folder or a link."""
    a, b = beside.with_name(beside.name + "-1"), beside.with_name(beside.name + "-2")
    try:
        a.mkdir()
        b.mkdir()
        return _exchange(a, b)
    except OSError:
        return False
    finally:
        for probe in (a, b):
            with contextlib.suppress(OSError):
                probe.rmdir()


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths atomically (Linux ``renameat2``); False where that is not available."""
    if sys.platform != "linux" or _faults_asked("no-exchange"):
        return False
    renameat2 = getattr(ctypes.CDLL(None, use_errno=True), "renameat2", None)
    if renameat2 is None:
        return False
    at_fdcwd, rename_exchange = -100, 2
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EPERM):
        return False
    raise OSError(code, os.strerror(code), str(b))


def fault(point: str) -> None:
    """A test hook: ``GACHAPRESS_FAULT=POINT`` kills the build at that point, as a power cut or
    ``kill -9`` would, so the fault suite can check that out/ survives every instant
    (``no-exchange`` beside it takes the two-rename path)."""
    if _faults_asked(point):
        os.kill(os.getpid(), signal.SIGKILL)


def _faults_asked(point: str) -> bool:
    return point in os.environ.get("GACHAPRESS_FAULT", "").split(",")


def die_with_parent(parent: int) -> None:
    """Make a worker process end when the build that started it (``parent``) is killed."""
    if sys.platform == "linux":
        pr_set_pdeathsig = 1
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before the request took effect
        os._exit(1)
