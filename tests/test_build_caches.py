"""The caches that keep a rebuild quick: static fonts made once per machine, templates and font
subsets made once per process."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont
from fontTools.varLib import instancer

from gachapress.render import fonts


def test_static_fonts_are_made_once_and_remade_when_damaged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[int] = []
    real = instancer.instantiateVariableFont

    def counting(font: TTFont, axes: dict[str, int], **kwargs: object) -> TTFont:
        made.append(axes["wght"])
        return real(font, axes, **kwargs)

    monkeypatch.setattr(instancer, "instantiateVariableFont", counting)
    source = fonts._noto_variable()
    first = fonts._static_instance(source, 700, tmp_path)
    good = first.read_bytes()
    assert fonts._static_instance(source, 700, tmp_path) == first
    assert made == [700]  # from the cache
    first.write_bytes(good[: len(good) // 2])  # a build killed while copying, a bad disk
    assert fonts._static_instance(source, 700, tmp_path) == first
    assert made == [700, 700]
    assert first.read_bytes() == good
    assert TTFont(first)["name"].getDebugName(4) == "Noto Sans Bold"


def test_fonts_are_kept_for_every_project_in_the_user_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GACHAPRESS_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert fonts.cache_dir(tmp_path / "build") == tmp_path / "xdg" / "gachapress" / "fonts"
    monkeypatch.setenv("GACHAPRESS_CACHE_DIR", str(tmp_path / "mine"))
    assert fonts.cache_dir(tmp_path / "build") == tmp_path / "mine" / "fonts"
    monkeypatch.delenv("GACHAPRESS_CACHE_DIR")
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.delenv("HOME")
    assert fonts.cache_dir(tmp_path / "build") == tmp_path / "build" / "fonts"


def test_templates_compile_once_per_process_and_reload_when_edited(tmp_path: Path) -> None:
    from gachapress.publish.templating import environment

    page = tmp_path / "page.j2"
    page.write_text("first {{ n }}", encoding="utf-8")
    env = environment(tmp_path)
    assert env.get_template("page.j2").render(n=1) == "first 1"
    assert environment(tmp_path) is env
    page.write_text("second {{ n }}", encoding="utf-8")
    later = page.stat().st_mtime + 5
    os.utime(page, (later, later))
    assert environment(tmp_path).get_template("page.j2").render(n=2) == "second 2"


def test_font_subsets_are_made_once_per_set_of_characters() -> None:
    from gachapress.render.svg import _subset

    path = str(fonts.japanese_font_path())
    _subset.cache_clear()
    assert _subset(path, "abc") == _subset(path, "abc")
    assert _subset.cache_info().hits == 1


def test_font_subsets_are_made_once_per_machine_and_remade_when_damaged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fontTools import subset

    from gachapress.publish import webfont

    made: list[int] = []
    real = subset.Subsetter.subset

    def counting(self: subset.Subsetter, font: TTFont) -> None:
        made.append(1)
        real(self, font)

    monkeypatch.setattr(subset.Subsetter, "subset", counting)
    monkeypatch.setenv("GACHAPRESS_CACHE_DIR", str(tmp_path))
    characters = frozenset("ガチャ回す")
    webfont.woff2_subset.cache_clear()
    first = webfont.woff2_subset(characters)
    webfont.woff2_subset.cache_clear()  # as a new process would
    assert webfont.woff2_subset(characters) == first
    assert made == [1]
    (stored,) = (tmp_path / "fonts" / "subsets").iterdir()
    stored.write_bytes(stored.read_bytes()[:-10])  # a damaged disk
    webfont.woff2_subset.cache_clear()
    assert webfont.woff2_subset(characters) == first
    assert made == [1, 1]
    assert TTFont(io.BytesIO(first)).getBestCmap().keys() >= {ord(c) for c in characters}


def test_an_edit_of_english_text_keeps_a_pages_japanese_font() -> None:
    from gachapress.publish.webfont import font_face

    assert font_face("ガチャ: worth nothing.") == font_face("ガチャ: worth nothing at all!")
    assert font_face("ガチャ") != font_face("ガチャポン")
