"""A small PDF writer: a document assembled from objects, most of them streams made (and kept)
elsewhere, so that a build redraws only what changed and writes the rest as it was.

Values are Python's: ``None``, ``bool``, ``int``, ``float``, ``Name`` (``/Name``), ``str`` (a
text string), ``bytes`` (a byte string), ``list``, ``dict`` (keys are names), ``Ref`` (an
indirect reference) and ``Stream``."""

from __future__ import annotations

import hashlib
import re
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, BinaryIO, TypeAlias

#: PDF's delimiters and white space, which a name writes as #xx.
_NAME_ESCAPED = frozenset(b"()<>[]{}/%#") | frozenset(range(0x21)) | frozenset(range(0x7F, 0x100))


_PLAIN_NAME = re.compile(r"[A-Za-z0-9_.+-]+")


class Name(str):
    """A PDF name, written ``/Name``."""


class Ref(int):
    """An indirect reference to an object of the document, written ``N 0 R``."""


@dataclass(frozen=True)
class Stream:
    """A stream object: its dictionary (without ``Length``) and its data as stored, already
    encoded by the filter its dictionary names."""

    entries: Mapping[str, Value]
    data: bytes


Value: TypeAlias = (
    bool | int | float | str | bytes | list["Value"] | Mapping[str, "Value"] | Stream | None
)


def flate(entries: Mapping[str, Value], data: bytes) -> Stream:
    """A stream of ``data`` compressed by Flate."""
    return Stream({**entries, "Filter": Name("FlateDecode")}, zlib.compress(data, 6))


def number(value: float) -> bytes:
    """A real number as PDF writes it: at most four decimals, no exponent, no trailing zeros."""
    text = b"%.4f" % value
    text = text.rstrip(b"0").rstrip(b".")
    return b"0" if text in (b"-0", b"") else text


def _name(value: str) -> bytes:
    if _PLAIN_NAME.fullmatch(value):
        return b"/" + value.encode("ascii")
    return b"/" + b"".join(
        b"#%02X" % byte if byte in _NAME_ESCAPED else bytes((byte,)) for byte in value.encode()
    )


def _text(value: str) -> bytes:
    """A text string: PDFDocEncoding's ASCII as a literal string, anything else UTF-16BE."""
    if value.isascii():
        escaped = value.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
        escaped = escaped.replace("\r", "\\r").replace("\n", "\\n")
        return b"(" + escaped.encode("ascii") + b")"
    return b"<FEFF" + value.encode("utf-16-be").hex().upper().encode("ascii") + b">"


def serialize(value: Value) -> bytes:
    """``value`` written as PDF (a stream with its dictionary, ``Length`` added)."""
    if value is None:
        return b"null"
    if value is True or value is False:
        return b"true" if value else b"false"
    if isinstance(value, Ref):
        return b"%d 0 R" % value
    if isinstance(value, int):
        return b"%d" % value
    if isinstance(value, float):
        return number(value)
    if isinstance(value, Name):
        return _name(value)
    if isinstance(value, str):
        return _text(value)
    if isinstance(value, bytes):
        return b"<" + value.hex().upper().encode("ascii") + b">"
    if isinstance(value, list):
        return b"[" + b" ".join(serialize(item) for item in value) + b"]"
    if isinstance(value, Stream):
        head = serialize({**value.entries, "Length": len(value.data)})
        return head + b"\nstream\n" + value.data + b"\nendstream"
    if isinstance(value, Mapping):
        return (
            b"<<"
            + b"".join(_name(key) + b" " + serialize(item) for key, item in value.items())
            + b">>"
        )
    raise TypeError(f"no PDF value for {value!r}")


class PdfWriter:
    """The objects of one document, numbered as they are added, and its file."""

    def __init__(self, version: str = "1.4") -> None:
        self.version = version
        self._bodies: list[bytes | None] = []

    def reserve(self) -> Ref:
        """The number of an object given later with ``set`` (for objects that refer to each
        other, as pages and their parent)."""
        self._bodies.append(None)
        return Ref(len(self._bodies))

    def set(self, ref: Ref, value: Value) -> Ref:
        self._bodies[ref - 1] = serialize(value)
        return ref

    def add(self, value: Value) -> Ref:
        return self.set(self.reserve(), value)

    def write(self, out: BinaryIO, *, root: Ref, info: Ref | None = None) -> None:
        """The file: header, objects, cross-reference table and trailer, its ``/ID`` a digest
        of the objects (the same objects, the same bytes)."""
        missing = [n + 1 for n, body in enumerate(self._bodies) if body is None]
        if missing:
            raise ValueError(f"objects {missing} were reserved and never set")
        offset = 0

        def put(data: bytes) -> None:
            nonlocal offset
            out.write(data)
            offset += len(data)

        put(b"%PDF-" + self.version.encode("ascii") + b"\n%\xe2\xe3\xcf\xd3\n")
        offsets = []
        for number_, body in enumerate(self._bodies, 1):
            offsets.append(offset)
            assert body is not None
            put(b"%d 0 obj\n" % number_ + body + b"\nendobj\n")
        xref = offset
        put(b"xref\n0 %d\n0000000000 65535 f \n" % (len(self._bodies) + 1))
        put(b"".join(b"%010d 00000 n \n" % at for at in offsets))
        trailer: dict[str, Value] = {"Size": len(self._bodies) + 1, "Root": root}
        if info is not None:
            trailer["Info"] = info
        ident = hashlib.md5(b"".join(self._bodies), usedforsecurity=False).digest()  # type: ignore[arg-type]
        trailer["ID"] = [ident, ident]
        put(b"trailer\n" + serialize(trailer) + b"\nstartxref\n%d\n%%%%EOF\n" % xref)


def copy_object(writer: PdfWriter, value: Any, copied: dict[int, Ref]) -> Value:
    """A value read by pypdf as this writer's, the objects it refers to added to ``writer``
    (once each: ``copied`` maps the numbers read to those written)."""
    from pypdf import generic

    if isinstance(value, generic.IndirectObject):
        if value.idnum not in copied:
            copied[value.idnum] = writer.reserve()
            writer.set(copied[value.idnum], copy_object(writer, value.get_object(), copied))
        return copied[value.idnum]
    if isinstance(value, generic.StreamObject):
        entries = {
            str(key)[1:]: copy_object(writer, item, copied)
            for key, item in value.items()
            if key != "/Length"
        }
        return Stream(entries, value._data)
    if isinstance(value, generic.DictionaryObject):
        return {str(key)[1:]: copy_object(writer, item, copied) for key, item in value.items()}
    if isinstance(value, generic.ArrayObject):
        return [copy_object(writer, item, copied) for item in value]
    if isinstance(value, generic.NameObject):
        return Name(str(value)[1:])
    if isinstance(value, generic.BooleanObject):
        return bool(value)
    if isinstance(value, generic.FloatObject):
        return float(value)
    if isinstance(value, generic.NumberObject):
        return int(value)
    if isinstance(value, generic.TextStringObject | generic.ByteStringObject):
        return bytes(value.original_bytes if hasattr(value, "original_bytes") else value)
    if isinstance(value, generic.NullObject) or value is None:
        return None
    raise TypeError(f"no PDF value for {value!r}")
