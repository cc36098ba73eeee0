"""Row-level writes of the link index: links, documents, sources, URI counters.

:class:`Store` holds the open transaction and what goes with it: the per-URI counter
deltas (applied before each commit, URIs left without links deleted then), the caches of
URI and context ids, and the amount of work since the last commit, which decides when to
commit (:meth:`Store.due`). A document's links are written with the document, so that a
row id freed later (SQLite reuses the largest) never has links waiting for it.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterable
from dataclasses import dataclass

from urimine.model import Hit
from urimine.parser import split_reference

__all__ = ["Store", "Summary", "uri_host"]

_URI_CACHE_MAX = 500_000
ROWS = 512
"""Rows fetched at a time where a loop deletes (stale documents, pruned sources)."""


@dataclass(slots=True)
class Summary:
    """What a run did, for ``-v``."""

    sources: int = 0
    skipped: int = 0
    errors: int = 0
    documents: int = 0
    added: int = 0
    replaced: int = 0
    unchanged: int = 0
    removed: int = 0
    pruned: int = 0
    links: int = 0


def uri_host(hit: Hit) -> str | None:
    """The host of a URI's dedup key (normalised: lower case, IDNA), or None if it has none."""
    if hit.kind != "uri":
        return None
    host = split_reference(hit.key).host
    return host or None


_CONTEXT_CACHE_MAX = 4096
"""Context ids kept in memory (then all forgotten at once): memory stays bounded."""


class Store:
    """Writes to an open index connection in explicit transactions."""

    def __init__(
        self, conn: sqlite3.Connection, *, batch_links: int = 50_000, batch_seconds: float = 1.0
    ) -> None:
        self.conn = conn
        self.batch_links = batch_links
        self.batch_seconds = batch_seconds
        self.summary = Summary()
        self.uri_ids: dict[str, int] = {}
        self.contexts: dict[str, int] = {}
        """Context name to id, for the names met lately (a header field's or an HTML
        attribute's name makes one: there may be many)."""
        self.deltas: dict[int, list[int]] = {}
        self.work = 0  # links written or removed in the open transaction
        self.tx_started: float | None = None

    def commit(self) -> None:
        """Apply the counter deltas, drop orphaned URIs, commit."""
        if self.tx_started is None:
            return
        self.conn.executemany(
            "UPDATE uri SET documents = documents + ?, occurrences = occurrences + ? WHERE id = ?",
            ((d, o, uid) for uid, (d, o) in self.deltas.items()),
        )
        gone_uris = [(uid,) for uid, (d, _) in self.deltas.items() if d < 0]
        self.deltas.clear()
        if gone_uris:
            self.conn.executemany("DELETE FROM uri WHERE id = ? AND documents = 0", gone_uris)
            self.uri_ids.clear()
        self.conn.execute("COMMIT")
        self.tx_started, self.work = None, 0

    def begin(self) -> None:
        """Open a transaction unless one is open."""
        if self.tx_started is None:
            self.conn.execute("BEGIN IMMEDIATE")
            self.tx_started = time.monotonic()

    def maybe_commit(self) -> None:
        """Commit if the open transaction holds a batch's worth of work, or is old."""
        if self.tx_started is not None and (
            self.work >= self.batch_links
            or time.monotonic() - self.tx_started >= self.batch_seconds
        ):
            self.commit()

    def add_links(self, doc_id: int, links: Iterable[tuple[Hit, int]]) -> None:
        """Write a document's links at once: a row id freed later can hold no link."""
        rows = []
        for hit, count in links:
            uri_id = self._uri_id(hit)
            rows.append((doc_id, uri_id, count, hit.start, self._context(hit.context)))
            delta = self.deltas.setdefault(uri_id, [0, 0])
            delta[0] += 1
            delta[1] += count
        self.conn.executemany("INSERT INTO link VALUES (?, ?, ?, ?, ?)", rows)
        self.summary.links += len(rows)
        self.work += len(rows)

    def drop_links(self, doc_id: int) -> None:
        """Delete a document's links, counting them off their URIs."""
        rows = self.conn.execute(
            "SELECT uri_id, occurrences FROM link WHERE doc_id = ?", (doc_id,)
        ).fetchall()  # one document's links
        for uri_id, count in rows:
            delta = self.deltas.setdefault(uri_id, [0, 0])
            delta[0] -= 1
            delta[1] -= count
        self.conn.execute("DELETE FROM link WHERE doc_id = ?", (doc_id,))
        self.work += len(rows) + 1

    def drop_documents(self, source_id: int, after: int, before: int | None) -> None:
        """Delete the source's documents numbered after ``after`` (and before ``before``)."""
        upper = "" if before is None else " AND doc_index < ?"
        args = (source_id, after) if before is None else (source_id, after, before)
        while True:
            self.begin()
            rows = self.conn.execute(
                "SELECT id FROM document WHERE source_id = ? AND doc_index > ?"
                f"{upper} ORDER BY doc_index LIMIT {ROWS}",
                args,
            ).fetchall()
            for (doc_id,) in rows:
                self.drop_links(doc_id)
                self.conn.execute("DELETE FROM document WHERE id = ?", (doc_id,))
            self.summary.removed += len(rows)
            if len(rows) < ROWS:
                return
            self.maybe_commit()

    def drop_source(self, source_id: int) -> None:
        """Remove a source, its documents and their links (over several commits)."""
        self.begin()
        self.conn.execute("UPDATE source SET complete = 0 WHERE id = ?", (source_id,))
        self.drop_documents(source_id, -1, None)
        self.conn.execute("DELETE FROM source WHERE id = ?", (source_id,))
        self.summary.pruned += 1
        self.maybe_commit()

    def _uri_id(self, hit: Hit) -> int:
        uri_id = self.uri_ids.get(hit.key)
        if uri_id is not None:
            return uri_id
        row = self.conn.execute("SELECT id FROM uri WHERE key = ?", (hit.key,)).fetchone()
        if row is not None:
            uri_id = int(row[0])
        else:
            canonical = hit.key if hit.kind != "uri" else _normalize(hit.uri)
            cur = self.conn.execute(
                "INSERT INTO uri (key, canonical, spelling, scheme, host, kind)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (
                    hit.key,
                    None if canonical == hit.key else canonical,
                    hit.uri,
                    hit.scheme,
                    uri_host(hit),
                    hit.kind,
                ),
            )
            assert cur.lastrowid is not None
            uri_id = cur.lastrowid
        if len(self.uri_ids) >= _URI_CACHE_MAX:
            self.uri_ids.clear()
        self.uri_ids[hit.key] = uri_id
        return uri_id

    def _context(self, name: str) -> int:
        context_id = self.contexts.get(name)
        if context_id is None:
            row = self.conn.execute("SELECT id FROM context WHERE name = ?", (name,)).fetchone()
            if row is None:
                cur = self.conn.execute("INSERT INTO context (name) VALUES (?)", (name,))
                assert cur.lastrowid is not None
                context_id = cur.lastrowid
            else:
                context_id = row[0]
            if len(self.contexts) >= _CONTEXT_CACHE_MAX:
                self.contexts.clear()
            self.contexts[name] = context_id
        return context_id


def _normalize(uri: str) -> str:
    from urimine.normalize import normalize_uri

    return normalize_uri(uri)
