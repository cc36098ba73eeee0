"""Queries over a link index, as streams of rows, and their output formats.

Every query returns an iterator over an open cursor, so a large result is written as it
is read; none fetches an unbounded result. ``top`` and ``stats`` read the per-URI
counters in the ``uri`` table and never scan the link table; ``links-to`` walks the
``link_uri`` index of one URI and ``links-from`` the link primary key of one source's
documents. Row fields are named as in extraction (``uri``, ``key``, ``source``,
``start``, ``context`` ...); ``source`` is the source's resolved path
(:mod:`urimine.index.identity`), a ``str`` with surrogate escapes where the file name is
not UTF-8. JSON Lines write those as ``\\udcXX`` escapes, so that every line is UTF-8.
"""

from __future__ import annotations

import csv
import json
import os
import re
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol

from urimine.index.identity import find_source, from_db
from urimine.normalize import dedup_key, normalize_host

__all__ = [
    "FORMATS",
    "hosts",
    "links_from",
    "links_to",
    "stats",
    "top",
    "write_rows",
    "write_stats",
]


class Writer(Protocol):
    """Where results go: anything with ``write(str)``."""

    def write(self, text: str, /) -> object: ...


FORMATS = ("text", "jsonl", "csv")

Row = dict[str, Any]

_URI_FIELDS = ("uri", "key", "canonical", "scheme", "host", "kind", "documents", "occurrences")
_URI_SELECT = (
    "SELECT u.spelling, u.key, COALESCE(u.canonical, u.key), u.scheme, u.host, u.kind,"
    " u.documents, u.occurrences FROM uri u"
)
_DOC_FIELDS = ("source", "doc_index", "message_id", "record_id", "target_uri")
_LINK_FIELDS = ("occurrences", "start", "context")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _rows(cursor: Iterable[tuple[Any, ...]], fields: tuple[str, ...]) -> Iterator[Row]:
    for values in cursor:
        row = dict(zip(fields, values, strict=True))
        if isinstance(row.get("source"), bytes):
            row["source"] = from_db(row["source"])
        yield row


def top(
    conn: sqlite3.Connection,
    n: int,
    *,
    by: str = "documents",
    scheme: str | None = None,
    host: str | None = None,
) -> Iterator[Row]:
    """The ``n`` URIs with the most linking documents (or occurrences); ties by key."""
    order = (
        "u.documents DESC, u.occurrences DESC"
        if by == "documents"
        else ("u.occurrences DESC, u.documents DESC")
    )
    where, args = _uri_filter(scheme, host)
    sql = f"{_URI_SELECT}{where} ORDER BY {order}, u.key LIMIT ?"
    return _rows(conn.execute(sql, (*args, n)), _URI_FIELDS)


def _uri_filter(scheme: str | None, host: str | None) -> tuple[str, list[str]]:
    clauses, args = [], []
    if scheme is not None:
        clauses.append("u.scheme = ?")
        args.append(scheme.lower())
    if host is not None:
        clauses.append("u.host = ?")
        args.append(normalize_host(host))
    return (" WHERE " + " AND ".join(clauses) if clauses else ""), args


def find_uri(conn: sqlite3.Connection, uri: str) -> Row | None:
    """The URI row for any spelling of ``uri`` (matched by dedup key), or None."""
    row = conn.execute(f"{_URI_SELECT} WHERE u.key = ?", (dedup_key(uri.strip()),)).fetchone()
    return dict(zip(_URI_FIELDS, row, strict=True)) if row is not None else None


def links_to(conn: sqlite3.Connection, uri: str) -> Iterator[Row] | None:
    """The documents linking to ``uri`` in index order, or None if it is not indexed."""
    found = find_uri(conn, uri)
    if found is None:
        return None
    cursor = conn.execute(
        "SELECT s.path, d.doc_index, d.message_id, d.record_id, d.target_uri,"
        " l.occurrences, l.first_offset, c.name"
        " FROM link l JOIN document d ON d.id = l.doc_id JOIN source s ON s.id = d.source_id"
        " JOIN context c ON c.id = l.context_id WHERE l.uri_id ="
        " (SELECT id FROM uri WHERE key = ?) ORDER BY l.uri_id, l.doc_id",
        (found["key"],),
    )
    extra = {"uri": found["uri"], "key": found["key"]}
    return ({**row, **extra} for row in _rows(cursor, _DOC_FIELDS + _LINK_FIELDS))


def links_from(conn: sqlite3.Connection, source: str) -> Iterator[Row] | None:
    """The links of every document of ``source`` (any spelling of its path), or None."""
    if source == "-":
        row = conn.execute("SELECT id FROM source WHERE path = '-'").fetchone()
        return None if row is None else _links_from(conn, [row[0]])
    try:
        stat: os.stat_result | None = os.stat(source)
    except (OSError, ValueError):
        stat = None
    found = find_source(conn, os.path.realpath(source), stat)
    return None if found is None else _links_from(conn, [found[0]])


def _links_from(conn: sqlite3.Connection, source_ids: list[int]) -> Iterator[Row]:
    fields = (*_DOC_FIELDS, "uri", "key", "scheme", "host", "kind", *_LINK_FIELDS)
    for source_id in source_ids:
        cursor = conn.execute(
            "SELECT s.path, d.doc_index, d.message_id, d.record_id, d.target_uri,"
            " u.spelling, u.key, u.scheme, u.host, u.kind, l.occurrences, l.first_offset, c.name"
            " FROM document d JOIN source s ON s.id = d.source_id"
            " JOIN link l ON l.doc_id = d.id JOIN uri u ON u.id = l.uri_id"
            " JOIN context c ON c.id = l.context_id"
            " WHERE d.source_id = ? ORDER BY d.doc_index, l.uri_id",
            (source_id,),
        )
        yield from _rows(cursor, fields)


def hosts(conn: sqlite3.Connection, n: int) -> Iterator[Row]:
    """The ``n`` hosts with the most links; ``documents`` is exact (distinct documents)."""
    cursor = conn.execute(
        "SELECT host, count(*) AS uris, sum(documents) AS links, sum(occurrences)"
        " FROM uri WHERE host IS NOT NULL GROUP BY host ORDER BY links DESC, host LIMIT ?",
        (n,),
    )
    for host, uris, links, occurrences in cursor.fetchall():  # at most n rows
        (documents,) = conn.execute(
            "SELECT count(DISTINCT l.doc_id) FROM uri u JOIN link l ON l.uri_id = u.id"
            " WHERE u.host = ?",
            (host,),
        ).fetchone()
        yield {
            "host": host,
            "uris": uris,
            "documents": documents,
            "links": links,
            "occurrences": occurrences,
        }


def stats(conn: sqlite3.Connection) -> Row:
    """Totals (from the counters: no link table scan) and a per-scheme breakdown."""

    def one(sql: str) -> int:
        return int(conn.execute(sql).fetchone()[0] or 0)

    schemes = {
        scheme: {"uris": uris, "links": links, "occurrences": occ}
        for scheme, uris, links, occ in conn.execute(
            "SELECT scheme, count(*), sum(documents) AS links, sum(occurrences) FROM uri"
            " GROUP BY scheme ORDER BY links DESC, scheme"
        )
    }
    return {
        "documents": one("SELECT count(*) FROM document"),
        "sources": one("SELECT count(*) FROM source"),
        "incomplete_sources": one("SELECT count(*) FROM source WHERE complete = 0"),
        "uris": one("SELECT count(*) FROM uri"),
        "links": one("SELECT sum(documents) FROM uri"),
        "occurrences": one("SELECT sum(occurrences) FROM uri"),
        "schemes": schemes,
    }


# -- output ---------------------------------------------------------------------------------


def _json(value: object) -> str:
    """One JSON text, UTF-8 clean: lone surrogates (file names) as ``\\u`` escapes."""
    line = json.dumps(value, ensure_ascii=False)
    if line.isascii() or _SURROGATE.search(line) is None:
        return line
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", line)


def write_rows(rows: Iterable[Row], fmt: str, out: Writer, text: Callable[[Row], str]) -> int:
    """Write rows as text (``text(row)`` per line), JSON Lines or CSV; returns the count."""
    count = 0
    writer: Any = None
    for row in rows:
        if fmt == "jsonl":
            out.write(_json(row) + "\n")
        elif fmt == "csv":
            if writer is None:
                writer = csv.DictWriter(out, fieldnames=list(row), lineterminator="\n")
                writer.writeheader()
            writer.writerow(row)
        else:
            out.write(text(row) + "\n")
        count += 1
    return count


def write_stats(result: Row, fmt: str, out: Writer) -> None:
    """Write :func:`stats` as text, one JSON object, or flat ``name,value`` CSV rows."""
    if fmt == "jsonl":
        out.write(_json(result) + "\n")
        return
    flat = [(name, value) for name, value in result.items() if name != "schemes"]
    for scheme, counts in result["schemes"].items():
        flat += [(f"schemes.{scheme}.{name}", value) for name, value in counts.items()]
    if fmt == "csv":
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["name", "value"])
        writer.writerows(flat)
        return
    for name, value in flat:
        out.write(f"{name:<28} {value}\n")


def text_uri(row: Row) -> str:
    """``documents occurrences uri`` for ``top``."""
    return f"{row['documents']:>9} {row['occurrences']:>9}  {row['uri']}"


def text_host(row: Row) -> str:
    """``documents links uris host`` for ``hosts``."""
    return f"{row['documents']:>9} {row['links']:>9} {row['uris']:>7}  {row['host']}"


def _where(row: Row) -> str:
    ident = row["message_id"] or row["record_id"] or ""
    doc = f"{row['source']}#{row['doc_index']}"
    return f"{doc}  {ident}" if ident else doc


def text_link_to(row: Row) -> str:
    """``occurrences source#doc message-or-record-id`` for ``links-to``."""
    return f"{row['occurrences']:>6}  {_where(row)}"


def text_link_from(row: Row) -> str:
    """``source#doc occurrences uri`` for ``links-from``."""
    return f"{row['source']}#{row['doc_index']} {row['occurrences']:>6}  {row['uri']}"
