"""The fonts cards and sheets are set in, all embedded: Noto Sans for Latin text (a static
Regular and Bold made from the variable font), IPAexGothic for Japanese.

Making the static fonts takes seconds, so they are made once per machine and kept in the user's
cache folder, named by the versions of the font package and of fontTools; a cached file whose
bytes no longer match the digest written beside it is made again."""

from __future__ import annotations

import hashlib
import importlib.util
import os
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib.metadata import version
from pathlib import Path

from fontTools.ttLib import TTFont

from gachapress.render.cache import cached_bytes, machine_cache

#: Weights made from the variable Noto Sans.
WEIGHTS = {"regular": 400, "bold": 700}
#: The characters kept in the static Latin fonts: Latin letters with their accents, punctuation,
#: currency signs and arrows. Text with any other character is set in IPAexGothic, which covers
#: Japanese and Latin alike (see layout.py); keeping the Latin fonts small makes them quick to
#: make and to embed.
LATIN = (
    *range(0x20, 0x7F),
    *range(0xA0, 0x250),
    *range(0x2000, 0x2070),
    *range(0x20A0, 0x20D0),
    *range(0x2190, 0x2200),
    0x2212,
)
#: Bumped when the way the static fonts are made changes.
FORMAT = "v5"


@dataclass(frozen=True)
class FontFile:
    """A font as registered with the backends: a name and a static TrueType file."""

    name: str
    path: Path
    family: str
    license: str


#: Printable ASCII: kept in a subset whatever the text, an edit of English text then never
#: changes it (nor rewrites every file that embeds it).
ASCII = frozenset(map(chr, range(0x20, 0x7F)))


def _package_dir(package: str) -> Path:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(f"the font package {package!r} is not installed")
    return Path(next(iter(spec.submodule_search_locations)))


def _noto_variable() -> Path:
    return _package_dir("fontpkg_noto_sans") / "files" / "NotoSans[wdth,wght].ttf"


def japanese_font_path() -> Path:
    """IPAexGothic, as the font package installs it (the preview's pages use it too)."""
    return _package_dir("matplotlib_fontja") / "fonts" / "ipaexg.ttf"


def user_cache_dir() -> Path | None:
    """The machine's font cache (see ``cache.machine_cache``); None without a home folder."""
    return machine_cache("fonts")


def cache_dir(build_dir: Path) -> Path:
    """Where the static fonts are kept: the user's cache (see ``user_cache_dir``), else (no
    home folder) the project's ``build/``."""
    return user_cache_dir() or build_dir / "fonts"


def cached_subset(font: Path, recipe: str, characters: str, make: Callable[[], bytes]) -> bytes:
    """The bytes ``make`` returns (a subset of ``font`` to ``characters`` as ``recipe`` says),
    made once per machine: kept in the user's cache (see ``cached_bytes``) under a hash of the
    font's bytes, the recipe, fontTools' version and the characters. Without a user cache it
    is simply made."""
    folder = user_cache_dir()
    if folder is None:
        return make()
    key = "\0".join((file_digest(font), recipe, version("fonttools"), characters))
    return cached_bytes(folder / "subsets", key, make)


@cache
def file_digest(path: Path) -> str:
    return _digest(path)


def _static_instance(source: Path, weight: int, cache_dir: Path) -> Path:
    """A static TrueType instance of the variable font, made once and cached."""
    made_from = f"{version('fontpkg-noto-sans')}-{version('fonttools')}-{FORMAT}"
    target = cache_dir / f"NotoSans-{weight}-{made_from}.ttf"
    digest_file = target.with_name(target.name + ".sha256")
    if not _intact(target, digest_file):
        from fontTools import subset
        from fontTools.varLib.instancer import instantiateVariableFont

        cache_dir.mkdir(parents=True, exist_ok=True)
        font = TTFont(source, recalcTimestamp=False)  # the same bytes on every machine
        options = subset.Options()
        options.layout_features = ["kern", "liga"]
        options.name_IDs = ["*"]
        options.notdef_outline = True
        subsetter = subset.Subsetter(options)
        subsetter.populate(unicodes=LATIN)
        subsetter.subset(font)  # first: instancing a few hundred glyphs takes a second, not 20
        static = instantiateVariableFont(font, {"wght": weight, "wdth": 100})
        style = {400: "Regular", 700: "Bold"}.get(weight, str(weight))
        names = static["name"]
        for record_id, value in (
            (1, "Noto Sans"),
            (2, style),
            (4, f"Noto Sans {style}"),
            (6, f"NotoSans-{style}"),
        ):
            names.setName(value, record_id, 3, 1, 0x409)
            names.setName(value, record_id, 1, 0, 0)
        temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        static.save(temporary)
        digest_file.write_text(_digest(temporary), encoding="ascii")
        temporary.replace(target)
    return target


def _intact(target: Path, digest_file: Path) -> bool:
    """Whether a cached font is there with the bytes it was saved with."""
    try:
        return digest_file.read_text(encoding="ascii") == _digest(target)
    except OSError:
        return False


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@cache
def font_files(cache_dir: Path) -> dict[str, FontFile]:
    """The fonts by role: ``regular``, ``bold`` (Latin) and ``ja`` (Japanese, any weight)."""
    noto = _noto_variable()
    fonts = {
        role: FontFile(
            f"NotoSans-{role.title()}",
            _static_instance(noto, weight, cache_dir),
            "Noto Sans",
            "SIL Open Font License 1.1",
        )
        for role, weight in WEIGHTS.items()
    }
    fonts["ja"] = FontFile(
        "IPAexGothic", japanese_font_path(), "IPAexGothic", "IPA Font License v1.0"
    )
    return fonts


def role_for(role: str, lang: str) -> str:
    """The font role to set text of ``lang`` in (Japanese has one weight)."""
    return "ja" if lang == "ja" else role
