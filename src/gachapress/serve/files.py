"""Serving out/: only files that lie inside it, never through a symlink or a ``..`` out of it;
every HTML page gets the preview's live script."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from markupsafe import escape

#: No page or picture is kept by the browser without asking: a reload shows the new build.
NO_CACHE = {"Cache-Control": "no-cache"}


def inside(out: Path, relative: str) -> Path | None:
    """The file ``relative`` names in ``out``, or None when it is missing, is not a file, or
    would lie outside ``out`` (``..``, an absolute path, a symlink anywhere on the way)."""
    if "\0" in relative or "\\" in relative:
        return None
    try:
        return _inside(out, relative)
    except (OSError, ValueError):  # a name too long for the file system, and the like
        return None


def _inside(out: Path, relative: str) -> Path | None:
    parts = [part for part in relative.split("/") if part]
    if any(part in (".", "..") for part in parts):
        return None
    base = out.resolve()
    path = base.joinpath(*parts) if parts else base
    if path.is_dir():
        path = path / "index.html"
    current = base
    for part in path.relative_to(base).parts:
        current = current / part
        if current.is_symlink():
            return None
    resolved = path.resolve()
    if not resolved.is_relative_to(base) or not resolved.is_file():
        return None
    return resolved


def live_tag(
    generation: int,
    games: list[str],
    playable: list[str],
    pdfs: int | None = None,
    books: Mapping[str, Sequence[str]] | None = None,
) -> str:
    """The script tag every served page carries (the preview's toolbar, overlay and reload);
    ``playable``: the games with an engine, which get a Play link; ``books``: the languages of
    each game's rulebooks, which its rulebook link chooses from; a page that shows PDFs gives
    their generation ``pdfs``, and reloads when they change."""
    shows_pdfs = "" if pdfs is None else f' data-pdfs="{pdfs}"'
    languages = " ".join(
        f"{game}:{','.join(langs)}" for game, langs in (books or {}).items() if langs
    )
    return (
        f'<script src="/_serve/live.js" data-generation="{generation}"{shows_pdfs} '
        f'data-games="{escape(" ".join(games))}" data-playable="{escape(" ".join(playable))}" '
        f'data-books="{escape(languages)}" defer></script>'
    )


def with_live_script(html: str, tag: str) -> str:
    """``html`` with ``tag`` just before its ``</body>`` (or at its end)."""
    at = html.rfind("</body>")
    return html + tag if at < 0 else html[:at] + tag + html[at:]
