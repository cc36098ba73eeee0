"""``urimine query DB export``: the link table, one row per (document, URI), for DuckDB,
pandas or a spreadsheet.

CSV and JSON Lines go through the output layer of every query
(:class:`~urimine.sinks.TableSink`); Parquet is written with ``pyarrow`` (the optional
extra ``urimine[parquet]``) in row groups of :data:`BATCH` rows, so memory stays
bounded whatever the size of the index. A Parquet file is always written to a FILE,
atomically (complete under its name, or not there at all).
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
import tempfile
from collections.abc import Iterator
from typing import Any

from urimine.errors import MissingExtraError, SinkError
from urimine.index.identity import from_db
from urimine.sinks import Column

__all__ = ["BATCH", "EXPORT_COLUMNS", "export_rows", "write_parquet"]

BATCH = 65_536
"""Rows per Parquet row group (and per batch held in memory)."""

EXPORT_COLUMNS = (
    Column("source", 24),
    Column("doc_index", number=True),
    Column("message_id", 12),
    Column("record_id", 12),
    Column("target_uri", 12),
    Column("key", 24),
    Column("uri", 24),
    Column("scheme", 8),
    Column("host", 16),
    Column("kind", 10),
    Column("occurrences", number=True),
    Column("start", 8, number=True),
    Column("context"),
)
_INTEGERS = frozenset({"doc_index", "occurrences", "start"})
_SURROGATE = re.compile("[\ud800-\udfff]")


def export_rows(conn: sqlite3.Connection) -> Iterator[dict[str, Any]]:
    """Every link, by source and document, then URI id (the order the index keeps)."""
    cursor = conn.execute(
        "SELECT s.path, d.doc_index, d.message_id, d.record_id, d.target_uri, u.key,"
        " u.spelling, u.scheme, u.host, u.kind, l.occurrences, l.first_offset, c.name"
        " FROM link l JOIN document d ON d.id = l.doc_id JOIN source s ON s.id = d.source_id"
        " JOIN uri u ON u.id = l.uri_id JOIN context c ON c.id = l.context_id"
        " ORDER BY l.doc_id, l.uri_id"
    )
    names = [c.name for c in EXPORT_COLUMNS]
    for values in cursor:
        row = dict(zip(names, values, strict=True))
        if isinstance(row["source"], bytes):
            row["source"] = from_db(row["source"])
        yield row


def _pyarrow() -> tuple[Any, Any]:
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError as exc:
        raise MissingExtraError("export -f parquet", "parquet") from exc
    return pyarrow, pyarrow.parquet


def write_parquet(rows: Iterator[dict[str, Any]], path: str) -> int:
    """Write ``rows`` to the Parquet file ``path`` (zstd); returns the row count."""
    pa, pq = _pyarrow()
    schema = pa.schema(
        [(c.name, pa.int64() if c.name in _INTEGERS else pa.string()) for c in EXPORT_COLUMNS]
    )
    final = os.path.realpath(path)
    try:
        fd, tmp = tempfile.mkstemp(
            prefix=f".{os.path.basename(final)}.", suffix=".part", dir=os.path.dirname(final)
        )
        os.close(fd)
    except OSError as exc:
        raise SinkError(f"{path}: {exc.strerror or exc}") from exc
    count = 0
    try:
        with pq.ParquetWriter(tmp, schema, compression="zstd") as writer:
            for batch in _batches(rows):
                count += len(batch)
                columns = {c.name: [_cell(r[c.name]) for r in batch] for c in EXPORT_COLUMNS}
                writer.write_table(pa.table(columns, schema=schema))
        os.replace(tmp, final)
    except OSError as exc:
        raise SinkError(f"{path}: {exc.strerror or exc}") from exc
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    return count


def _cell(value: Any) -> Any:
    """A Parquet string is UTF-8: an undecodable byte of a file name (a surrogate) is
    written as the JSON Lines output writes it, ``\\udcNN``."""
    if isinstance(value, str) and not value.isascii() and _SURROGATE.search(value):
        return _SURROGATE.sub(lambda m: f"\\u{ord(m[0]):04x}", value)
    return value


def _batches(rows: Iterator[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
    batch: list[dict[str, Any]] = []
    for row in rows:
        batch.append(row)
        if len(batch) >= BATCH:
            yield batch
            batch = []
    if batch:
        yield batch
