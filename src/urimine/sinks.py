"""Output formats (text, JSON Lines, CSV) and an atomic output file.

Formatting is a pure function of a record; the writer classes only do IO.
"""

from __future__ import annotations

import contextlib
import csv
import json
import os
import stat
import tempfile
from collections.abc import Mapping
from typing import Any, TextIO

from urimine.errors import SinkError

__all__ = ["FIELDS", "AtomicOutput", "Sink", "make_sink"]

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
            self.out.write(json.dumps(row, ensure_ascii=False) + "\n")
        else:
            self._csv.writerow(row)


def make_sink(out: TextIO, fmt: str, counts: bool = False) -> Sink:
    """A sink for ``fmt`` (``text``, ``jsonl`` or ``csv``)."""
    if fmt not in ("text", "jsonl", "csv"):
        raise ValueError(f"unknown format {fmt!r}")
    return Sink(out, fmt, counts)


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
