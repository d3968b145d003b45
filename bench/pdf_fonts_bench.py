"""How long the PDF writer's fonts take (render/pdffonts.py): a document's three fonts with the
text of the project's strings (English in Noto Sans Regular and Bold, Japanese in IPAexGothic),
first with subsets made (an empty machine cache), then read from the cache in a new process,
then again in the same process; and IPAexGothic with every glyph its cmap maps.

Run: python bench/pdf_fonts_bench.py   (figures only)
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _texts() -> dict[str, str]:
    """The project's strings: Japanese ones for ``ja``, the rest split between the Latin
    weights."""
    text = (ROOT / "templates" / "strings.yaml").read_text(encoding="utf-8")
    text += (ROOT / "src" / "gachapress" / "defaults" / "strings.yaml").read_text("utf-8")
    japanese = "".join(re.findall(r"[^\x00-\x7f]+", text))
    latin = "".join(re.findall(r"[\x20-\x7e]+", text))
    return {"regular": latin, "bold": latin[: len(latin) // 4], "ja": japanese}


def _run() -> None:
    from gachapress.render.fonts import font_files
    from gachapress.render.outline import outline_font
    from gachapress.render.pdffonts import add_font, glyph_ids
    from gachapress.render.pdfobjects import PdfWriter

    fonts = font_files(Path(sys.argv[2]))
    texts = _texts()
    for attempt in ("first", "again"):
        start = time.perf_counter()
        writer = PdfWriter()
        for role, text in texts.items():
            gids = glyph_ids(fonts[role].path, text)
            add_font(writer, fonts[role].path, gids)
            if attempt == "first":
                print(f"  {role}: {len(gids)} glyphs set, {len(set(gids))} distinct")
        print(f"  {attempt} in this process: {time.perf_counter() - start:.3f} s")
    japanese = fonts["ja"].path
    every = glyph_ids(japanese, "".join(map(chr, outline_font(japanese).cmap)))
    start = time.perf_counter()
    add_font(PdfWriter(), japanese, every)
    print(f"  IPAexGothic, all {len(set(every))} glyphs: {time.perf_counter() - start:.3f} s")


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--run":
        _run()
        return
    from gachapress.render.fonts import user_cache_dir

    static_fonts = str(user_cache_dir() or Path(tempfile.mkdtemp()))
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "GACHAPRESS_CACHE_DIR": cache}
        for label in ("subsets made (empty cache)", "subsets cached, new process"):
            print(label)
            start = time.perf_counter()
            subprocess.run([sys.executable, __file__, "--run", static_fonts], env=env, check=True)
            print(f"  whole process: {time.perf_counter() - start:.3f} s")


if __name__ == "__main__":
    main()
