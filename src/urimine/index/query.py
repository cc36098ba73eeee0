"""Queries over a link index, as streams of rows with named columns.

Every query returns an iterator over an open cursor, so a large result is written as it
is read; none fetches an unbounded result. ``top`` and ``stats`` read the per-URI
counters in the ``uri`` table and never scan the link table; ``links-to`` walks the
``link_uri`` index of each URI it matches and ``links-from`` the link primary key of one
source's documents. Each query has one tuple of :class:`~urimine.sinks.Column` s, written
the same in text, CSV and JSON Lines (:class:`~urimine.sinks.TableSink`). Column names
are those of extraction (``uri``, ``source``, ``start``, ``context`` ...); ``source`` is
the source's resolved path (:mod:`urimine.index.identity`), a ``str`` with surrogate
escapes where the file name is not UTF-8.
"""

from __future__ import annotations

import functools
import os
import sqlite3
from collections.abc import Iterable, Iterator
from typing import Any

from urimine.index.identity import find_source, from_db
from urimine.sinks import Column

__all__ = [
    "HOST_COLUMNS",
    "LINK_COLUMNS",
    "STATS_COLUMNS",
    "TOP_COLUMNS",
    "domain_columns",
    "hosts",
    "links_from",
    "links_to",
    "registrable_domain",
    "stats",
    "top",
]

Row = dict[str, Any]

TOP_COLUMNS = (
    Column("documents", 9, number=True),
    Column("occurrences", number=True),
    Column("scheme", 8),
    Column("host", 24),
    Column("key", 32),
    Column("uri"),
)
HOST_COLUMNS = (
    Column("documents", 9, number=True),
    Column("links", 9, number=True),
    Column("occurrences", number=True),
    Column("uris", 7, number=True),
    Column("host"),
)
LINK_COLUMNS = (
    Column("occurrences", number=True),
    Column("start", 8, number=True),
    Column("context", 10),
    Column("source", 24),
    Column("doc_index", number=True),
    Column("message_id", 12),
    Column("record_id", 12),
    Column("target_uri", 12),
    Column("key", 32),
    Column("uri"),
)
STATS_COLUMNS = (Column("name", 28), Column("value"))


def domain_columns() -> tuple[Column, ...]:
    """The columns of ``hosts --by domain``: a ``hosts`` count, then the domain."""
    return (*HOST_COLUMNS[:4], Column("hosts", 7, number=True), Column("domain"))


_URI_SELECT = "SELECT u.documents, u.occurrences, u.scheme, u.host, u.key, u.spelling FROM uri u"
_LINK_SELECT = (
    "SELECT l.occurrences, l.first_offset, c.name, s.path, d.doc_index, d.message_id,"
    " d.record_id, d.target_uri, u.key, u.spelling"
    " FROM link l JOIN document d ON d.id = l.doc_id JOIN source s ON s.id = d.source_id"
    " JOIN uri u ON u.id = l.uri_id JOIN context c ON c.id = l.context_id"
)


def _rows(cursor: Iterable[tuple[Any, ...]], columns: tuple[Column, ...]) -> Iterator[Row]:
    names = [c.name for c in columns]
    for values in cursor:
        row = dict(zip(names, values, strict=True))
        if isinstance(row.get("source"), bytes):
            row["source"] = from_db(row["source"])
        yield row


def _host_clause(host: str) -> tuple[str, list[str]]:
    """SQL for ``u.host`` being ``host`` or one of its subdomains (IDNA forms equal)."""
    from urimine.normalize import normalize_host  # not loaded for the other queries

    name = normalize_host(host.strip().rstrip("."))
    return "(u.host = ? OR u.host LIKE ? ESCAPE '\\')", [name, "%." + _like(name)]


def _like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def top(
    conn: sqlite3.Connection,
    n: int,
    *,
    by: str = "documents",
    scheme: str | None = None,
    host: str | None = None,
) -> Iterator[Row]:
    """The ``n`` URIs with the most linking documents (or occurrences); ties by key.
    ``host`` matches the host and its subdomains."""
    order = (
        "u.documents DESC, u.occurrences DESC"
        if by == "documents"
        else "u.occurrences DESC, u.documents DESC"
    )
    clauses, args = [], []
    if scheme is not None:
        clauses.append("u.scheme = ?")
        args.append(scheme.lower())
    if host is not None:
        clause, values = _host_clause(host)
        clauses.append(clause)
        args += values
    where = " WHERE " + " AND ".join(clauses) if clauses else ""
    sql = f"{_URI_SELECT}{where} ORDER BY {order}, u.key LIMIT ?"
    return _rows(conn.execute(sql, (*args, n)), TOP_COLUMNS)


def links_to(conn: sqlite3.Connection, target: str) -> Iterator[Row] | None:
    """The links to ``target``, or None when it matches nothing indexed.

    ``target`` is a URI (any spelling: matched by dedup key), a URI prefix ending in
    ``*`` (matched against the keys, after the same normalisation), or a host without a
    scheme (the host and its subdomains)."""
    target = target.strip()
    if ":" not in target or target.startswith("["):
        clause, args = _host_clause(target)
        ids = conn.execute(f"SELECT u.id FROM uri u WHERE {clause} ORDER BY u.key", args)
    elif target.endswith("*"):
        low = _prefix_key(target[:-1])
        ids = conn.execute(
            "SELECT id FROM uri WHERE key >= ? AND key < ? ORDER BY key", (low, low + "\U0010ffff")
        )
    else:
        from urimine.normalize import dedup_key

        ids = conn.execute("SELECT id FROM uri WHERE key = ?", (dedup_key(target),))
    first = ids.fetchone()
    if first is None:
        return None
    return _links_of(conn, first[0], ids)


def _prefix_key(prefix: str) -> str:
    """A prefix normalised as keys are (scheme and host case, escapes), without the
    ``/`` that normalisation adds to an empty path."""
    from urimine.normalize import dedup_key

    try:
        key = dedup_key(prefix)
    except ValueError:
        return prefix
    if key.endswith("/") and not prefix.endswith("/"):
        key = key[:-1]
    return key if key else prefix


def _links_of(conn: sqlite3.Connection, first: int, rest: Iterable[tuple[int]]) -> Iterator[Row]:
    sql = f"{_LINK_SELECT} WHERE l.uri_id = ? ORDER BY l.uri_id, l.doc_id"
    yield from _rows(conn.execute(sql, (first,)), LINK_COLUMNS)
    for (uri_id,) in rest:
        yield from _rows(conn.execute(sql, (uri_id,)), LINK_COLUMNS)


def links_from(conn: sqlite3.Connection, source: str) -> Iterator[Row] | None:
    """The links of every document of ``source`` (any spelling of its path), or None."""
    if source == "-":
        row = conn.execute("SELECT id FROM source WHERE path = '-'").fetchone()
        return None if row is None else _links_from(conn, row[0])
    try:
        stat: os.stat_result | None = os.stat(source)
    except (OSError, ValueError):
        stat = None
    found = find_source(conn, os.path.realpath(source), stat)
    return None if found is None else _links_from(conn, found[0])


def _links_from(conn: sqlite3.Connection, source_id: int) -> Iterator[Row]:
    cursor = conn.execute(
        f"{_LINK_SELECT} WHERE d.source_id = ? ORDER BY d.doc_index, l.uri_id", (source_id,)
    )
    return _rows(cursor, LINK_COLUMNS)


@functools.cache
def _suffix_list() -> Any:
    from publicsuffixlist import PublicSuffixList

    return PublicSuffixList()


def registrable_domain(host: str) -> str:
    """The registrable domain of ``host`` (one label under its public suffix, by the
    Public Suffix List that ``publicsuffixlist`` ships, private domains included): the
    host itself for an IP address, or for a name that is a public suffix or has none."""
    if host.startswith("[") or host.replace(".", "").isdigit():
        return host
    found = _suffix_list().privatesuffix(host)
    return str(found) if found else host


def hosts(conn: sqlite3.Connection, n: int, *, by: str = "host") -> Iterator[Row]:
    """The ``n`` hosts (or registrable domains) with the most links; ``documents`` is
    exact (distinct documents), ``links`` the document-URI pairs."""
    if by == "domain":
        yield from _domains(conn, n)
        return
    cursor = conn.execute(
        "SELECT host, count(*) AS uris, sum(documents) AS links, sum(occurrences)"
        " FROM uri WHERE host IS NOT NULL GROUP BY host ORDER BY links DESC, host LIMIT ?",
        (n,),
    )
    for host, uris, links, occurrences in cursor.fetchall():  # at most n rows
        yield {
            "documents": _documents(conn, [host]),
            "links": links,
            "occurrences": occurrences,
            "uris": uris,
            "host": host,
        }


def _documents(conn: sqlite3.Connection, names: list[str]) -> int:
    marks = ",".join("?" * len(names))
    (count,) = conn.execute(
        "SELECT count(DISTINCT l.doc_id) FROM uri u JOIN link l ON l.uri_id = u.id"
        f" WHERE u.host IN ({marks})",
        names,
    ).fetchone()
    return int(count)


def _domains(conn: sqlite3.Connection, n: int) -> Iterator[Row]:
    """Hosts grouped by registrable domain: one pass over the per-host sums (a row per
    host), then the exact document count of the ``n`` first domains."""
    groups: dict[str, list[Any]] = {}
    for host, uris, links, occurrences in conn.execute(
        "SELECT host, count(*), sum(documents), sum(occurrences) FROM uri"
        " WHERE host IS NOT NULL GROUP BY host"
    ):
        group = groups.setdefault(registrable_domain(host), [0, 0, 0, []])
        group[0] += uris
        group[1] += links
        group[2] += occurrences
        group[3].append(host)
    ranked = sorted(groups.items(), key=lambda item: (-item[1][1], item[0]))[:n]
    for domain, (uris, links, occurrences, names) in ranked:
        yield {
            "documents": _documents(conn, names),
            "links": links,
            "occurrences": occurrences,
            "uris": uris,
            "hosts": len(names),
            "domain": domain,
        }


def stats(conn: sqlite3.Connection) -> Iterator[Row]:
    """Totals (from the counters: no link table scan), then per scheme, as name/value
    rows (``schemes.http.uris`` ...)."""

    def one(sql: str) -> int:
        return int(conn.execute(sql).fetchone()[0] or 0)

    totals = {
        "documents": one("SELECT count(*) FROM document"),
        "sources": one("SELECT count(*) FROM source"),
        "incomplete_sources": one("SELECT count(*) FROM source WHERE complete = 0"),
        "uris": one("SELECT count(*) FROM uri"),
        "links": one("SELECT sum(documents) FROM uri"),
        "occurrences": one("SELECT sum(occurrences) FROM uri"),
    }
    for name, value in totals.items():
        yield {"name": name, "value": value}
    for scheme, uris, links, occ in conn.execute(
        "SELECT scheme, count(*), sum(documents) AS links, sum(occurrences) FROM uri"
        " GROUP BY scheme ORDER BY links DESC, scheme"
    ):
        for name, value in (("uris", uris), ("links", links), ("occurrences", occ)):
            yield {"name": f"schemes.{scheme}.{name}", "value": value}
