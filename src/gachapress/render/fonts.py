"""The fonts cards and sheets are set in, all embedded: Noto Sans for Latin text (a static
Regular and Bold made from the variable font), IPAexGothic for Japanese."""

from __future__ import annotations

import hashlib
import importlib.util
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from fontTools.ttLib import TTFont

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


@dataclass(frozen=True)
class FontFile:
    """A font as registered with the backends: a name and a static TrueType file."""

    name: str
    path: Path
    family: str
    license: str


def _package_dir(package: str) -> Path:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(f"the font package {package!r} is not installed")
    return Path(next(iter(spec.submodule_search_locations)))


def _noto_variable() -> Path:
    return _package_dir("fontpkg_noto_sans") / "files" / "NotoSans[wdth,wght].ttf"


def japanese_font_path() -> Path:
    """IPAexGothic as shipped by the matplotlib-fontja package (TrueType outlines)."""
    return _package_dir("matplotlib_fontja") / "fonts" / "ipaexg.ttf"


def _static_instance(source: Path, weight: int, cache_dir: Path) -> Path:
    """A static TrueType instance of the variable font, made once and cached."""
    digest = hashlib.sha256(source.read_bytes()).hexdigest()[:12]
    target = cache_dir / f"NotoSans-{weight}-{digest}-v4.ttf"
    if not target.exists():
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
        temporary = target.with_suffix(".tmp")
        static.save(temporary)
        temporary.replace(target)
    return target


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
