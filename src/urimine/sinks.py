"""Output formats (text, JSON Lines, CSV), an atomic output file, and write errors: the
one output layer of extraction (:class:`Sink`) and of index queries (:class:`TableSink`).

Formatting is a pure function of a row; the writer classes only do IO. A file name
that is not valid UTF-8 reaches here as ``os.fsdecode`` keeps it (each undecodable
byte as a surrogate U+DC80..U+DCFF). JSON Lines, the exact format, writes it as the
JSON escape ``\\udcNN``, which ``json.loads`` then ``os.fsencode`` turn back into the
bytes. CSV is written for spreadsheets: the byte as ``\\xNN``, the file stays UTF-8, and
cells are guarded against formula injection (:func:`csv_cell`). Text is written for a
terminal: anything but URIs (a file name, a message id) is escaped as
:func:`urimine.errors.printable` escapes it, so that no control character reaches the
terminal and every line is UTF-8.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
from collections.abc import Mapping
from typing import Any, NamedTuple, TextIO

from urimine.errors import SinkError, printable

__all__ = [
    "FIELDS",
    "FORMATS",
    "AtomicOutput",
    "Column",
    "Output",
    "Sink",
    "TableSink",
    "csv_cell",
    "json_line",
    "make_sink",
    "write_error_reason",
]

FORMATS = ("text", "jsonl", "csv")

FIELDS = (
    "uri",
    "key",
    "kind",
    "scheme",
    "context",
    "source",
    "line",
    "column",
    "start",
    "end",
    "alternative",
    "strict",
    "wrapper",
    "message_index",
    "message_id",
    "part",
    "record_index",
    "record_id",
    "target_uri",
)
COUNT_FIELDS = ("occurrences", "documents")


class Sink:
    """Writes one row per call; ``text`` writes the ``uri`` field (and counts)."""

    def __init__(self, out: TextIO, fmt: str, counts: bool) -> None:
        self.out = out
        self.fmt = fmt
        self.counts = counts
        self._csv: Any = None
        if fmt == "csv":
            import csv  # only CSV output needs it

            fields = FIELDS + COUNT_FIELDS if counts else FIELDS
            self._csv = csv.DictWriter(out, fieldnames=fields, extrasaction="ignore")
            self._csv.writeheader()

    def write(self, row: Mapping[str, Any]) -> None:
        """Write one output row."""
        if self.fmt == "text":
            if self.counts:
                self.out.write(f"{row['uri']}\t{row['occurrences']}\t{row['documents']}\n")
            else:
                self.out.write(row["uri"] + "\n")
        elif self.fmt == "jsonl":
            self.out.write(json_line(row))
        else:
            self._csv.writerow({k: csv_cell(v) for k, v in row.items()})


# What JSON keeps as is but must not reach a terminal or cannot be encoded in UTF-8: C1
# controls (json.dumps escapes C0 ones) and lone surrogates (undecodable file name bytes).
_JSON_ESCAPE = re.compile("[\x80-\x9f\ud800-\udfff]")
# What a CSV cell shows as \xNN (\uNNNN for a surrogate that is not an escaped byte):
# controls, C0 and C1 (a cell stays on one line and sends nothing to a terminal), and
# lone surrogates.
_CSV_ESCAPE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
_FORMULA_START = frozenset("=+-@\t\r")


def json_line(row: Mapping[str, Any]) -> str:
    """``row`` as one line of JSON, non-ASCII text as is, except C1 controls and lone
    surrogates (an undecodable byte of a file name): those as ``\\uXXXX`` escapes,
    which JSON allows and any JSON parser turns back into the same string."""
    line = json.dumps(row, ensure_ascii=False)
    if not line.isascii() and _JSON_ESCAPE.search(line):
        line = _JSON_ESCAPE.sub(lambda m: f"\\u{ord(m[0]):04x}", line)
    return line + "\n"


def csv_cell(value: Any) -> Any:
    """A CSV cell for ``value``. Text that starts with ``=``, ``+``, ``-``, ``@``, a tab
    or a carriage return gets a leading ``'``, so that a spreadsheet shows it as text
    and never evaluates it as a formula (OWASP, "CSV Injection"). Every text column is
    guarded, since the source (a file name), message and record ids, part and target
    URI come from input; a URI or key always starts with a letter. A control character
    or an undecodable byte of a file name is written as ``\\xNN``. Numbers and None
    pass as they are."""
    if not isinstance(value, str) or not value:
        return value
    if _CSV_ESCAPE.search(value):
        value = _CSV_ESCAPE.sub(_byte_escape, value)
    return "'" + value if value[0] in _FORMULA_START else value


def _byte_escape(m: re.Match[str]) -> str:
    code = ord(m[0])
    if code >= 0xD800:  # a surrogate: an undecodable byte 0x80..0xFF, or not
        return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"\\u{code:04x}"
    return f"\\x{code:02x}"


def make_sink(out: TextIO, fmt: str, counts: bool = False) -> Sink:
    """A sink for ``fmt`` (``text``, ``jsonl`` or ``csv``)."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}")
    return Sink(out, fmt, counts)


class Column(NamedTuple):
    """A named column of a table; ``width`` is its least width in text, numbers are
    right-aligned there, and an empty value shows as ``-``."""

    name: str
    width: int = 0
    number: bool = False


class TableSink:
    """Rows of named columns, the same columns in every format: text (a header row,
    then aligned columns, the last one unpadded), JSON Lines (one object per row, the
    columns as keys, in order) or CSV (a header row)."""

    def __init__(self, out: TextIO, fmt: str, columns: tuple[Column, ...]) -> None:
        if fmt not in FORMATS:
            raise ValueError(f"unknown format {fmt!r}")
        self.out = out
        self.fmt = fmt
        self.columns = columns
        self.names = tuple(c.name for c in columns)
        self.count = 0
        self._csv: Any = None
        if fmt == "csv":
            import csv

            self._csv = csv.writer(out)
            self._csv.writerow(self.names)
        elif fmt == "text":
            self.out.write(self._text_line(dict(zip(self.names, self.names, strict=True))))

    def write(self, row: Mapping[str, Any]) -> None:
        """Write one row (a mapping with at least the table's columns)."""
        self.count += 1
        if self.fmt == "jsonl":
            self.out.write(json_line({name: row[name] for name in self.names}))
        elif self.fmt == "csv":
            self._csv.writerow([csv_cell(row[name]) for name in self.names])
        else:
            self.out.write(self._text_line(row))

    def _text_line(self, row: Mapping[str, Any]) -> str:
        cells = []
        last = len(self.columns) - 1
        for i, col in enumerate(self.columns):
            value = row[col.name]
            text = "-" if value is None or value == "" else printable(str(value))
            if i == last:
                cells.append(text)
            elif col.number:
                cells.append(text.rjust(max(col.width, len(col.name))))
            else:
                cells.append(text.ljust(max(col.width, len(col.name))))
        return "  ".join(cells) + "\n"


class Output:
    """A text stream whose write errors are :class:`SinkError` (the disk is full, the
    output is closed, its encoding cannot represent a character), so that a run reports
    them in one line and stops. A broken pipe stays :class:`BrokenPipeError`: the reader
    has gone, which is how ``urimine ... | head`` ends, not a failure. It never closes
    the stream it wraps; anything but writing and flushing is the stream's own."""

    def __init__(self, stream: TextIO, path: str | None = None) -> None:
        self.stream = stream
        self.path = path
        """The output file, or None for standard output."""
        self.failed = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)

    def write(self, text: str) -> int:
        try:
            return self.stream.write(text)
        except BrokenPipeError:
            raise
        except (OSError, ValueError) as exc:  # ValueError: a closed file, an encoding
            raise self._error(exc) from exc

    def flush(self) -> None:
        try:
            self.stream.flush()
        except BrokenPipeError:
            raise
        except (OSError, ValueError) as exc:
            raise self._error(exc) from exc

    def _error(self, exc: OSError | ValueError) -> SinkError:
        self.failed = True
        reason = write_error_reason(exc)
        return SinkError(f"{self.path}: {reason}" if self.path else reason)


def write_error_reason(exc: OSError | ValueError) -> str:
    """The reason of a failed write, in words: an OS error, an encoding that cannot
    represent a character, or a closed stream."""
    if isinstance(exc, UnicodeEncodeError):
        bad = exc.object[exc.start : exc.end]
        return f"the output encoding ({exc.encoding}) cannot represent {bad!r}"
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    return "the output is closed"


class AtomicOutput:
    """A text file written under a temporary name and renamed into place on success.

    An interrupted or failed run removes the temporary file, so a partial output never
    sits under the final name looking complete. The file gets the mode a plain ``open``
    would give it (the umask, or the mode of the file it replaces). A target that exists
    and is not a regular file (``/dev/null``, a FIFO) is written directly: it cannot be
    replaced, and "complete-looking" does not apply to it. A symbolic link is followed.
    """

    def __init__(self, path: str) -> None:
        self.path = os.path.realpath(path)
        self.tmp: str | None = None
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            st = None
        except OSError as exc:
            raise SinkError(f"{path}: {exc.strerror or exc}") from exc
        try:
            if st is not None and not stat.S_ISREG(st.st_mode):
                self.stream: TextIO = open(  # noqa: SIM115 - closed by commit() or abort()
                    self.path, "w", encoding="utf-8", newline="", buffering=1 << 20
                )
                return
            import tempfile  # only -o FILE needs it

            fd, self.tmp = tempfile.mkstemp(
                prefix=f".{os.path.basename(self.path)}.",
                suffix=".part",
                dir=os.path.dirname(self.path),
            )
            os.fchmod(fd, stat.S_IMODE(st.st_mode) if st is not None else 0o666 & ~_umask())
        except OSError as exc:
            raise SinkError(f"{path}: {exc.strerror or exc}") from exc
        self.stream = open(  # noqa: SIM115 - closed by commit() or abort()
            fd, "w", encoding="utf-8", newline="", buffering=1 << 20
        )

    def commit(self) -> None:
        """Flush, sync and rename the temporary file to the final name."""
        try:
            self.stream.flush()
            if self.tmp is not None:
                os.fsync(self.stream.fileno())
            self.stream.close()
            if self.tmp is not None:
                os.replace(self.tmp, self.path)
        except OSError as exc:
            self.abort()
            raise SinkError(f"{self.path}: {exc.strerror or exc}") from exc

    def abort(self) -> None:
        """Drop the temporary file."""
        with contextlib.suppress(OSError):
            self.stream.close()
        if self.tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.tmp)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
