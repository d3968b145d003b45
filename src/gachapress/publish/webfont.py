"""The Japanese web font of the pages: a subset of the shipped IPAexGothic, as WOFF2.

A reader's machine may have no CJK font (Debian's base image has none), so every page that holds
Japanese text carries the glyphs it uses in an ``@font-face`` data URI, and names that family first
for elements in Japanese (``lang="ja"``). Subsetting to a page's characters keeps it to tens of KB.
"""

from __future__ import annotations

import base64
import io
import re
from functools import cache

from markupsafe import Markup

from gachapress.render.fonts import ASCII, cached_subset, japanese_font_path

#: The family name the pages give the embedded font (not a system font's name, so a system
#: IPAexGothic never stands in for it and the tests see the embedded one at work).
FAMILY = "Gachapress IPAexGothic"
#: Kana, CJK ideographs and full-width forms: a page with none of these embeds nothing.
_JAPANESE = re.compile(r"[\u3000-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]")


def needs_japanese_font(characters: str) -> bool:
    """True when ``characters`` hold any Japanese character."""
    return _JAPANESE.search(characters) is not None


#: How the subsets are made (part of their cache key).
_RECIPE = "woff2 kern,palt,vert notdef names0-6"


@cache
def woff2_subset(characters: frozenset[str]) -> bytes:
    """IPAexGothic cut down to ``characters`` (plus .notdef), as WOFF2 bytes; the same
    characters give the same bytes, made once per machine (see ``cached_subset``)."""
    text = "".join(sorted(c for c in characters if ord(c) > 0x1F))
    return cached_subset(japanese_font_path(), _RECIPE, text, lambda: _make_subset(text))


def _make_subset(text: str) -> bytes:
    # Imported here: fontTools' subsetter takes most of a second to load, and the subsets are
    # almost always in the machine's cache already.
    from fontTools import subset
    from fontTools.ttLib import TTFont

    # lazy: only the kept glyphs are decompiled (eager loading read all 15,000 of them: ~2 s)
    font = TTFont(japanese_font_path(), recalcTimestamp=False, lazy=True)
    options = subset.Options()
    options.flavor = "woff2"  # brotli-compressed: fontTools needs the brotli package for it
    options.layout_features = ["kern", "palt", "vert"]
    options.notdef_outline = True
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6]  # keep the copyright and licence names
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=text)
    subsetter.subset(font)
    font.flavor = "woff2"
    buffer = io.BytesIO()
    font.save(buffer)
    return buffer.getvalue()


def font_face(page_text: str) -> Markup:
    """The CSS of a page's Japanese font: an ``@font-face`` with the subset for the characters
    of ``page_text``, and a font stack that names it first for Japanese text; empty for a page
    with no Japanese."""
    if not needs_japanese_font(page_text):
        return Markup("")
    data = base64.b64encode(woff2_subset(frozenset(page_text) | ASCII)).decode("ascii")
    return Markup(
        f'@font-face {{ font-family: "{FAMILY}"; font-style: normal; font-weight: normal;'
        f' font-display: block; src: url("data:font/woff2;base64,{data}") format("woff2"); }}\n'
        f'[lang|="ja"] {{ font-family: "{FAMILY}", var(--font-stack); }}\n'
    )
