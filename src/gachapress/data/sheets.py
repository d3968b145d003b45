"""Card decks read from spreadsheets (``.csv``, ``.xlsx``), and CSV that is safe to open in one.

A sheet's first non-empty row names its columns; each later non-empty row is one record. Rows
and columns are numbered as the spreadsheet shows them (the header is usually row 1, column A is
1), so a problem reads ``FILE:ROW:COL: error: ...``. A dotted header such as ``name.en`` is the
nested path ``("name", "en")`` of the card data.

Cells that a spreadsheet would run as a formula are written escaped with a leading ``'`` (see
:func:`safe_cell`), and :func:`read_sheet` undoes exactly that escape, so what
``gachapress cards GAME --format csv`` prints reads back cell for cell.
"""

from __future__ import annotations

import csv
import datetime
import io
import re
import warnings
import zipfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gachapress.data.yamlsource import Locations, Mark, PathKey, read_limited
from gachapress.errors import Problem, RulesError, unprintable

#: Largest spreadsheet file read, in bytes.
MAX_FILE_BYTES = 20_000_000
#: Largest total an .xlsx file (a zip archive) may unpack to, in bytes.
MAX_UNPACKED_BYTES = 100_000_000
#: Most data rows and columns a sheet may have: a deck lists each distinct face once.
MAX_ROWS = 10_000
MAX_COLUMNS = 1_000
#: Candidate CSV separators, in order of preference when the header has as many of each.
SEPARATORS = (",", ";", "\t")

#: A cell a spreadsheet would take as a formula starts with one of these (OWASP's list).
_RISKY = "=+-@\t\r"
#: A plain number: a spreadsheet reads it as that number, never as a formula.
_NUMBER = re.compile(r"[+-]?[0-9]+(\.[0-9]+)?")
#: Cells that safe_cell prefixes with one more quote: any quotes, then a risky character.
_NEEDS_ESCAPE = re.compile(rf"'*[{re.escape(_RISKY)}]")
#: Cells written escaped: at least one quote, then a risky character.
_ESCAPED = re.compile(rf"'+[{re.escape(_RISKY)}]")


def safe_cell(value: object) -> str:
    """The CSV text of ``value`` (``None`` is empty, anything else ``str(value)``), escaped so
    that a spreadsheet opening it runs no formula.

    A cell starting with ``=``, ``+``, ``-``, ``@``, tab or carriage return gets a leading
    ``'``, as OWASP recommends, except a plain number such as ``-3`` or ``+2.5``, which a
    spreadsheet reads as that number and which stays as it is. So that the escape can always
    be undone, a cell that is already quotes followed by one of those characters gets one more
    quote; :func:`read_sheet` removes exactly one quote from any cell of that form.
    """
    text = "" if value is None else str(value)
    if _NEEDS_ESCAPE.match(text) and not _NUMBER.fullmatch(text):
        return "'" + text
    return text


def unescape_cell(text: str) -> str:
    """Undo :func:`safe_cell`'s escape: drop the first quote of quotes followed by a risky
    character."""
    return text[1:] if _ESCAPED.match(text) else text


def write_csv(rows: Iterable[Mapping[str, object]], columns: Sequence[str]) -> str:
    """CSV text with a header of ``columns`` and a line per row (``\\n`` line ends), every cell
    and header passed through :func:`safe_cell`; a column a row lacks is an empty cell."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([safe_cell(c) for c in columns])
    writer.writerows([safe_cell(row.get(c)) for c in columns] for row in rows)
    return out.getvalue()


@dataclass(frozen=True)
class SheetRow:
    """One non-empty data row: its row number in the sheet and its cells by header (stripped
    text; an empty cell is ``""``)."""

    row: int
    cells: dict[str, str]

    def nested(self) -> dict[str, Any]:
        """The row's non-empty cells as nested data: ``name.en`` becomes
        ``{"name": {"en": ...}}``; an empty cell is left out (an empty optional value means
        "not given")."""
        data: dict[str, Any] = {}
        for header, text in self.cells.items():
            if text:
                *parents, leaf = header.split(".")
                node = data
                for part in parents:
                    node = node.setdefault(part, {})
                node[leaf] = text
        return data


@dataclass(frozen=True)
class Sheet:
    """A sheet read by :func:`read_sheet`: its headers in column order (column A first), its
    non-empty data rows, and the row number of the header (the first non-empty row)."""

    file: Path
    headers: tuple[str, ...]
    rows: tuple[SheetRow, ...]
    header_row: int = 1

    def column(self, header: str) -> int:
        """The 1-based column number of ``header``; KeyError if the sheet has no such column."""
        try:
            return self.headers.index(header) + 1
        except ValueError:
            raise KeyError(header) from None

    def mark(self, row: int, header: str) -> Mark:
        """Where the cell of ``header`` in sheet row ``row`` is."""
        return Mark(self.file, row, self.column(header))

    def locations(self, prefix: PathKey = ()) -> Locations:
        """Locations of the rows as a list under ``prefix``: ``(*prefix, i, "name", "en")`` is
        the ``name.en`` cell of the i-th data row (an empty cell too), ``(*prefix, i, "name")``
        its first ``name.*`` cell, ``(*prefix, i)`` the row's first cell and ``prefix`` the
        header's; the key of a path is its header cell."""
        where = Locations({tuple(prefix): Mark(self.file, self.header_row, 1)})
        paths = [(col, tuple(h.split("."))) for col, h in enumerate(self.headers, 1)]
        for i, row in enumerate(self.rows):
            base = (*prefix, i)
            where.values[base] = Mark(self.file, row.row, 1)
            for col, parts in paths:
                for depth in range(1, len(parts) + 1):
                    path = (*base, *parts[:depth])
                    where.values.setdefault(path, Mark(self.file, row.row, col))
                    where.keys.setdefault(path, Mark(self.file, self.header_row, col))
        return where


def read_sheet(path: Path, *, sheet: str | None = None, inside: Path | None = None) -> Sheet:
    """Read a ``.csv`` or ``.xlsx`` spreadsheet (``sheet``: the worksheet of an .xlsx by name,
    else its first; ``inside``: a folder the file must resolve into). Raise RulesError with
    every problem found, located at its row and column."""
    kind = path.suffix.lower()
    if kind not in (".csv", ".xlsx"):
        shown = f"'{path.suffix}'" if path.suffix else "no extension"
        message = f"unknown spreadsheet type ({shown}): save it as .csv or .xlsx"
        raise RulesError([Problem(path, 1, 1, message)])
    if sheet is not None and kind == ".csv":
        raise RulesError([Problem(path, 1, 1, f"a CSV file has no sheets: cannot read {sheet!r}")])
    raw = _read_bytes(path, inside)
    if kind == ".csv":
        return _build(path, _csv_records(path, raw))
    return _read_xlsx(path, raw, sheet)


def _read_bytes(path: Path, inside: Path | None) -> bytes:
    """The file's bytes, after checking (never opening it) that it is a regular file."""
    return read_limited(path, MAX_FILE_BYTES, inside=inside)


Records = Iterator[tuple[int, list[str]]]


def _build(file: Path, records: Records) -> Sheet:
    """The sheet of ``records`` (row number, cell texts from column A), checked."""
    header_row, header_cells = _header(file, records)
    headers = header_cells[: _last_filled(header_cells)]
    if len(headers) > MAX_COLUMNS:
        message = f"more than {MAX_COLUMNS:,} columns"
        raise RulesError([Problem(file, header_row, MAX_COLUMNS + 1, message)])
    problems = _header_problems(file, header_row, headers)
    problems += _unprintable_cells(file, header_row, headers)
    rows: list[SheetRow] = []
    for number, cells in records:
        if not any(cells):
            continue
        if len(rows) == MAX_ROWS:
            problems.append(Problem(file, number, 1, f"more than {MAX_ROWS:,} rows of cards"))
            break
        problems.extend(_extra_cell(file, number, cells, len(headers)))
        problems.extend(_unprintable_cells(file, number, cells))
        padded = cells + [""] * (len(headers) - len(cells))
        rows.append(SheetRow(number, dict(zip(headers, padded, strict=False))))
    if problems:
        raise RulesError(problems)
    return Sheet(file, tuple(headers), tuple(rows), header_row)


def _header(file: Path, records: Records) -> tuple[int, list[str]]:
    """The first non-empty row, taken from ``records``."""
    for number, cells in records:
        if any(cells):
            return number, cells
    message = "empty spreadsheet: the first row must name the columns"
    raise RulesError([Problem(file, 1, 1, message)])


def _last_filled(cells: list[str]) -> int:
    """How many cells there are up to the last non-empty one."""
    return max((i + 1 for i, text in enumerate(cells) if text), default=0)


def _header_problems(file: Path, row: int, headers: list[str]) -> list[Problem]:
    """Empty, duplicate, malformed dotted, and clashing headers (``name`` beside ``name.en``)."""
    problems = []
    seen: dict[str, int] = {}
    for col, header in enumerate(headers, 1):
        at = Mark(file, row, col)
        if not header:
            problems.append(at.problem(f"column {column_letter(col)} has no header"))
        elif header in seen:
            first = column_letter(seen[header])
            problems.append(at.problem(f"duplicate header {header!r} (also column {first})"))
        elif "" in header.split("."):
            problems.append(at.problem(f"header {header!r}: a dot with nothing on one side"))
        seen.setdefault(header, col)
    for col, header in enumerate(headers, 1):
        parts = header.split(".")
        for depth in range(1, len(parts)):
            outer = ".".join(parts[:depth])
            if outer in seen:
                message = f"header {header!r} nests under {outer!r}, which is a value itself"
                problems.append(Problem(file, row, col, message))
                break
    return problems


def _extra_cell(file: Path, row: int, cells: list[str], width: int) -> list[Problem]:
    """The row's first non-empty cell beyond the last header, if any."""
    for index in range(width, len(cells)):
        if cells[index]:
            col = index + 1
            message = f"a value in column {column_letter(col)}, which has no header"
            return [Problem(file, row, col, message)]
    return []


def _unprintable_cells(file: Path, row: int, cells: list[str]) -> list[Problem]:
    """A problem for each cell of the row holding a control character (see ``unprintable``)."""
    return [
        Problem(file, row, col, f"the cell holds the control character {char}; remove it")
        for col, cell in enumerate(cells, 1)
        if (char := unprintable(cell))
    ]


def column_letter(col: int) -> str:
    """A spreadsheet's name for the 1-based column ``col``: A, B, ..., Z, AA, ..."""
    letters = ""
    while col:
        col, rest = divmod(col - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def _clean(text: str) -> str:
    """A cell as the data sees it: line breaks as ``\\n``, stripped, its escape undone."""
    return unescape_cell(text.replace("\r\n", "\n").strip())


# --- CSV ---


def _csv_records(file: Path, raw: bytes) -> Records:
    text = _decode(file, raw)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_separator(text))
    number = 0
    try:
        for number, record in enumerate(reader, 1):
            yield number, [_clean(cell) for cell in record]
    except csv.Error as exc:
        raise RulesError([Problem(file, number + 1, 1, f"unreadable CSV: {exc}")]) from None


def _decode(file: Path, raw: bytes) -> str:
    """UTF-8 text, with or without a byte order mark; a located error otherwise."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        start = raw.rfind(b"\n", 0, exc.start) + 1
        line = raw.count(b"\n", 0, exc.start) + 1
        col = len(raw[start : exc.start].decode("utf-8", errors="replace")) + 1
        message = (
            f'not UTF-8 text (byte 0x{raw[exc.start]:02X}): save it as "CSV UTF-8" '
            "(in LibreOffice: character set Unicode (UTF-8))"
        )
        raise RulesError([Problem(file, line, col, message)]) from None


def _separator(text: str) -> str:
    """The separator the header line uses most outside quotes (``,`` if it has none)."""
    counts = dict.fromkeys(SEPARATORS, 0)
    quoted = False
    for char in text.lstrip("\r\n"):
        if char == '"':
            quoted = not quoted
        elif not quoted and char in "\r\n":
            break
        elif not quoted and char in counts:
            counts[char] += 1
    return max(SEPARATORS, key=lambda s: counts[s])


# --- XLSX ---


def _read_xlsx(file: Path, raw: bytes, name: str | None) -> Sheet:
    import openpyxl  # only .xlsx needs it; it takes a while to import

    _check_unpacked_size(file, raw)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # e.g. "Workbook contains no default style"
            book = openpyxl.load_workbook(io.BytesIO(raw), read_only=True, data_only=True)
    except Exception as exc:  # a broken file can fail anywhere in the parser
        raise RulesError([Problem(file, 1, 1, f"not a readable .xlsx workbook ({exc})")]) from None
    try:
        titles = [ws.title for ws in book.worksheets]
        if not titles:
            raise RulesError([Problem(file, 1, 1, "the workbook has no worksheet")])
        if name is not None and name not in titles:
            listed = ", ".join(repr(t) for t in titles)
            message = f"no sheet named {name!r}: the workbook has {listed}"
            raise RulesError([Problem(file, 1, 1, message)])
        worksheet = book.worksheets[titles.index(name) if name is not None else 0]
        worksheet.reset_dimensions()  # the stored size may be wrong: read every cell there is
        rows = worksheet.iter_rows(values_only=True)
        return _build(file, ((n, [_xlsx_text(v) for v in r]) for n, r in enumerate(rows, 1)))
    except RulesError:
        raise
    except Exception as exc:  # as above: the sheet is parsed as it is read
        raise RulesError([Problem(file, 1, 1, f"not a readable .xlsx workbook ({exc})")]) from None
    finally:
        book.close()


def _check_unpacked_size(file: Path, raw: bytes) -> None:
    """Refuse an archive that declares more than MAX_UNPACKED_BYTES (zipfile never unpacks
    more than an entry declares)."""
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as archive:
            total = sum(info.file_size for info in archive.infolist())
    except zipfile.BadZipFile:
        message = "not a readable .xlsx workbook (not a zip archive)"
        raise RulesError([Problem(file, 1, 1, message)]) from None
    if total > MAX_UNPACKED_BYTES:
        message = f"the workbook unpacks to more than {MAX_UNPACKED_BYTES:,} bytes"
        raise RulesError([Problem(file, 1, 1, message)])


def _xlsx_text(value: object) -> str:
    """A cell's value as the text a user typed: 3.0 is "3", booleans "true"/"false", a date
    its ISO form; text is cleaned as in a CSV."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e15:
            return str(int(value))
        return format(value, ".15g")  # the digits a spreadsheet shows
    if isinstance(value, datetime.datetime) and value.time() == datetime.time():
        return value.date().isoformat()
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    return _clean(str(value))
