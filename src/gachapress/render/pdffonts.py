"""Fonts for PdfWriter's documents, with text that needs no document to be encoded.

Text is shown as the two-byte glyph ids of the original font (``glyph_ids``, ``show``), and each
font is embedded as a Type0 font with Identity-H encoding over a CIDFontType2 whose CIDs are
those glyph ids (``CIDToGIDMap /Identity``). Its FontFile2 is a subset that keeps every glyph at
its id, so a content stream made once stays right in any document, whatever other text the
document's subset must hold as well."""

from __future__ import annotations

import hashlib
import io
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from fontTools.ttLib import TTFont

from gachapress.render.fonts import cached_subset
from gachapress.render.outline import outline_font
from gachapress.render.pdfobjects import Name, PdfWriter, Ref, Value, flate

#: How the embedded subsets are made (part of their cache key).
_RECIPE = "pdf ttf retain-gids notdef no-layout"
#: Tables a PDF renderer never reads for horizontal text set glyph by glyph.
_DROPPED = ["GSUB", "GPOS", "GDEF", "BASE", "JSTF", "STAT", "kern", "vhea", "vmtx", "DSIG"]
#: FontDescriptor flags (PDF 32000-1, 9.8.2); Symbolic: glyphs are reached by id, not by the
#: standard Latin character set.
_FIXED_PITCH, _SYMBOLIC, _ITALIC = 1, 4, 64
#: Entries of a ToUnicode CMap's ``bfchar`` section (PDF allows at most 100).
_BFCHAR_MAX = 100


@dataclass(frozen=True)
class _Font:
    """What the PDF objects of one font are made from, read once per process."""

    gid: dict[str, int]
    advances: tuple[int, ...]
    units: int
    unicode: dict[int, int]
    postscript_name: str
    descriptor: dict[str, Value]


@cache
def _font(path: Path) -> _Font:
    font = TTFont(path, lazy=True)
    order = font.getGlyphOrder()
    gid = {name: index for index, name in enumerate(order)}
    outline = outline_font(path)
    unicode: dict[int, int] = {}
    for code, name in sorted(outline.cmap.items(), key=_preference, reverse=True):
        unicode[gid[name]] = code  # the preferred code point last: it wins
    scale = 1000 / outline.units
    hhea, os2, post = font["hhea"], font["OS/2"], font["post"]
    cap_height = getattr(os2, "sCapHeight", 0) or hhea.ascent
    flags = _SYMBOLIC | (_FIXED_PITCH if post.isFixedPitch else 0)
    flags |= _ITALIC if post.italicAngle else 0
    descriptor: dict[str, Value] = {
        "Flags": flags,
        "FontBBox": [round(value * scale) for value in outline.bounds],
        "ItalicAngle": float(post.italicAngle),
        "Ascent": round(hhea.ascent * scale),
        "Descent": round(hhea.descent * scale),
        "CapHeight": round(cap_height * scale),
        # No font records its stems: the usual estimate from the weight class (400 -> 88).
        "StemV": round(50 + (os2.usWeightClass / 65) ** 2),
    }
    return _Font(
        gid,
        tuple(outline.advances[name][0] for name in order),
        outline.units,
        unicode,
        font["name"].getDebugName(6).replace(" ", ""),
        descriptor,
    )


def _preference(item: tuple[int, str]) -> tuple[bool, int]:
    """The order in which a glyph's characters are chosen for extracted text when several map
    to it: one that is its own compatibility form first (山 U+5C71, not the Kangxi radical ⼭
    U+2F2D that IPAexGothic draws with the same glyph), then the lowest code point."""
    char = chr(item[0])
    return unicodedata.normalize("NFKC", char) != char, item[0]


def glyph_ids(path: Path, text: str) -> tuple[int, ...]:
    """The glyph id of each character of ``text`` by the font's cmap (0, .notdef, for one it
    lacks), as ``outline.set_glyphs`` sets it: one glyph a character, no substitutions."""
    font, cmap = _font(path), outline_font(path).cmap
    return tuple(font.gid[cmap.get(ord(char), ".notdef")] for char in text)


def show(gids: Iterable[int]) -> bytes:
    """The operand of ``Tj`` that shows ``gids`` in a font added by ``add_font``."""
    return b"<" + b"".join(b"%04X" % gid for gid in gids) + b">"


def width(path: Path, gids: Iterable[int]) -> float:
    """The advance of the glyphs in thousandths of the em (as ``/W`` counts): times the font
    size over 1000, the run's width in the units of its text space."""
    font = _font(path)
    return sum(font.advances[gid] for gid in gids) * 1000 / font.units


def add_font(
    writer: PdfWriter,
    path: Path,
    gids: Mapping[int, str] | Iterable[int],
    ref: Ref | None = None,
) -> Ref:
    """Add the font at ``path`` to ``writer`` with the glyphs ``gids`` (every glyph the
    document's text shows in it; a mapping gives the character each was set for, which
    extracted text then gives back), as a Type0 font for text made by ``show``; its reference
    (``ref``, when the document's pages already name it). The same font and glyphs give the
    same objects, byte for byte."""
    font = _font(path)
    used = sorted(set(gids))
    chars = dict(gids) if isinstance(gids, Mapping) else {}
    name = Name(f"{_tag(font.postscript_name, used)}+{font.postscript_name}")
    data = _subset(path, tuple(used))
    font_file = writer.add(flate({"Length1": len(data)}, data))
    to_unicode = writer.add(flate({}, _to_unicode(font, used, chars)))
    descriptor = writer.add(
        {
            "Type": Name("FontDescriptor"),
            "FontName": name,
            **font.descriptor,
            "FontFile2": font_file,
        }
    )
    default, widths = _widths(font, used)
    cid_font = writer.add(
        {
            "Type": Name("Font"),
            "Subtype": Name("CIDFontType2"),
            "BaseFont": name,
            "CIDSystemInfo": {"Registry": "Adobe", "Ordering": "Identity", "Supplement": 0},
            "FontDescriptor": descriptor,
            "DW": default,
            "W": widths,
            "CIDToGIDMap": Name("Identity"),
        }
    )
    return writer.set(
        ref or writer.reserve(),
        {
            "Type": Name("Font"),
            "Subtype": Name("Type0"),
            "BaseFont": name,
            "Encoding": Name("Identity-H"),
            "DescendantFonts": [cid_font],
            "ToUnicode": to_unicode,
        },
    )


def _tag(postscript_name: str, used: list[int]) -> str:
    """Six capitals naming the subset, the same for the same font and glyphs."""
    digest = hashlib.sha256(f"{postscript_name}:{used}".encode()).digest()
    return "".join(chr(ord("A") + byte % 26) for byte in digest[:6])


def _em(font: _Font, gid: int) -> float | int:
    """A glyph's advance in thousandths of the em (an int when it is whole)."""
    value = font.advances[gid] * 1000 / font.units
    return int(value) if value == int(value) else value


def _widths(font: _Font, used: list[int]) -> tuple[float | int, list[Value]]:
    """``/DW`` (the commonest advance) and ``/W`` for the other glyphs: ``first [w w ...]`` for
    each run of consecutive glyph ids."""
    advances = {gid: _em(font, gid) for gid in used}
    counts = Counter(advances.values())
    default = min(counts, key=lambda value: (-counts[value], value)) if counts else 1000
    entries: list[Value] = []
    run: list[Value] = []
    previous = -2
    for gid in used:
        if advances[gid] == default:
            continue
        if gid != previous + 1:
            run = []
            entries += [gid, run]
        run.append(advances[gid])
        previous = gid
    return default, entries


def _to_unicode(font: _Font, used: list[int], chars: Mapping[int, str]) -> bytes:
    """A ToUnicode CMap: each used glyph to the character it was set for (``chars``), else to
    the one the font's cmap prefers (see ``_preference``)."""
    known = {gid: chr(code) for gid, code in font.unicode.items()}
    pairs = [
        b"<%04X> <%s>"
        % (gid, (chars.get(gid) or known[gid]).encode("utf-16-be").hex().upper().encode())
        for gid in used
        if gid in chars or gid in known
    ]
    blocks = b"".join(
        b"%d beginbfchar\n" % len(chunk) + b"\n".join(chunk) + b"\nendbfchar\n"
        for chunk in (pairs[at : at + _BFCHAR_MAX] for at in range(0, len(pairs), _BFCHAR_MAX))
    )
    return (
        b"/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n"
        b"/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
        b"/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n"
        b"1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n"
        + blocks
        + b"endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n"
    )


@lru_cache(maxsize=16)  # a preview rebuilds a document whose glyphs seldom change
def _subset(path: Path, used: tuple[int, ...]) -> bytes:
    """The font cut down to ``used`` and .notdef, every glyph at its id; made once per machine
    (see ``cached_subset``)."""
    key = ",".join(map(str, used))
    return cached_subset(path, _RECIPE, key, lambda: _make_subset(path, used))


def _make_subset(path: Path, used: tuple[int, ...]) -> bytes:
    # Imported here: the subsetter takes most of a second to load, and subsets are almost
    # always in the machine's cache.
    from fontTools import subset

    options = subset.Options()
    options.retain_gids = True
    options.notdef_outline = True
    options.layout_features = []
    options.drop_tables += _DROPPED
    font = TTFont(path, lazy=True, recalcTimestamp=False)  # lazy: only kept glyphs are read
    subsetter = subset.Subsetter(options)
    subsetter.populate(gids=[0, *used])
    subsetter.subset(font)
    buffer = io.BytesIO()
    font.save(buffer)
    return buffer.getvalue()
