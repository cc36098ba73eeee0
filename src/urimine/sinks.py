"""Output formats (text, JSON Lines, CSV) and an atomic output file.

Formatting is a pure function of a record; the writer classes only do IO.
"""

from __future__ import annotations

import contextlib
import csv
import json
import os
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

    An interrupted or failed run removes the temporary file, so a partial output
    never sits under the final name looking complete.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        directory = os.path.dirname(os.path.abspath(path))
        try:
            fd, self.tmp = tempfile.mkstemp(
                prefix=f".{os.path.basename(path)}.", suffix=".part", dir=directory
            )
        except OSError as exc:
            raise SinkError(f"{path}: {exc.strerror or exc}") from exc
        self.stream: TextIO = open(  # noqa: SIM115 - closed by commit() or abort()
            fd, "w", encoding="utf-8", newline="", buffering=1 << 20
        )

    def commit(self) -> None:
        """Flush, sync and rename the temporary file to the final name."""
        try:
            self.stream.flush()
            os.fsync(self.stream.fileno())
            self.stream.close()
            os.replace(self.tmp, self.path)
        except OSError as exc:
            self.abort()
            raise SinkError(f"{self.path}: {exc.strerror or exc}") from exc

    def abort(self) -> None:
        """Drop the temporary file."""
        with contextlib.suppress(OSError):
            self.stream.close()
        with contextlib.suppress(OSError):
            os.unlink(self.tmp)
