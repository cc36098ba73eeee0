"""The loader: document events into the index, incrementally and crash-safely.

Incrementality. A source (file) is skipped without being read when its row says it was
indexed completely with the same size, ``st_mtime_ns`` and options fingerprint. Any
other source is read; each document is compared by content hash with the row of the
same (source, doc_index): equal means nothing to write, different means its links are
replaced, absent means it is added. When a source has been read without error, its
documents beyond the last one read are deleted and the source row gets the new
size/mtime. A read error keeps every old document the read did not reach.

Crash safety. Writes go in explicit transactions that hold whole documents: a commit
happens only between events (every ~``batch_links`` links or ``batch_seconds``), and a
source is marked complete in the transaction holding its end. A killed run leaves a
prefix of what an uninterrupted run commits, in the same order; the next run skips the
completed sources, finds the committed documents of the interrupted one unchanged, and
goes on, so it ends in the same state.

URI counters (``documents``, ``occurrences``) are kept as per-transaction deltas in
memory and applied before each commit; URIs left without links are then deleted.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from urimine.errors import SourceError
from urimine.index.documents import Document, Event, FileEnd, FileStart, iter_documents
from urimine.index.documents import options_fingerprint as options_fingerprint
from urimine.index.schema import ensure_indexes
from urimine.model import Hit
from urimine.parser import split_reference
from urimine.pipeline import Options

__all__ = ["Loader", "Summary", "build_index", "options_fingerprint"]

_URI_CACHE_MAX = 500_000


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
    links: int = 0


def uri_host(hit: Hit) -> str | None:
    """The host of a URI's dedup key (normalised: lower case, IDNA), or None if it has none."""
    if hit.kind != "uri":
        return None
    host = split_reference(hit.key).host
    return host or None


class Loader:
    """Applies :mod:`~urimine.index.documents` events to an open index connection."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        fingerprint: str,
        *,
        batch_links: int = 50_000,
        batch_seconds: float = 1.0,
    ) -> None:
        self.conn = conn
        self.fingerprint = fingerprint
        self.batch_links = batch_links
        self.batch_seconds = batch_seconds
        self.summary = Summary()
        self.uri_ids: dict[str, int] = {}
        self.contexts = dict(conn.execute("SELECT name, id FROM context").fetchall())
        self.deltas: dict[int, list[int]] = {}
        self.pending: list[tuple[int, int, int, int, int]] = []
        self.tx_started: float | None = None
        self.start: FileStart | None = None
        self.source_id: int | None = None
        self.source_new = False
        self.bulk = conn.execute("SELECT 1 FROM link LIMIT 1").fetchone() is None
        if self.bulk:  # empty link table: load without link_uri, sort it in at the end
            conn.execute("DROP INDEX IF EXISTS link_uri")

    # -- the event interface -------------------------------------------------------------

    def skip(self, path: str, stat: os.stat_result) -> bool:
        """True if ``path`` was indexed completely as it is now, with these options."""
        row = self.conn.execute(
            "SELECT size, mtime_ns, options, complete FROM source WHERE path = ?", (path,)
        ).fetchone()
        return row is not None and tuple(row) == (
            stat.st_size,
            stat.st_mtime_ns,
            self.fingerprint,
            1,
        )

    def handle(self, event: Event) -> None:
        """Apply one event; commits only here, between whole documents."""
        if isinstance(event, FileStart):
            self.start, self.source_id = event, None
        elif isinstance(event, Document):
            self._document(event)
        else:
            self._end(event)
        if self.tx_started is not None and (
            len(self.pending) >= self.batch_links
            or time.monotonic() - self.tx_started >= self.batch_seconds
        ):
            self.commit()

    def commit(self) -> None:
        """Write pending links and counter deltas, drop orphaned URIs, commit."""
        if self.tx_started is None:
            return
        self.conn.executemany("INSERT INTO link VALUES (?, ?, ?, ?, ?)", self.pending)
        self.summary.links += len(self.pending)
        self.pending.clear()
        self.conn.executemany(
            "UPDATE uri SET documents = documents + ?, occurrences = occurrences + ? WHERE id = ?",
            ((d, o, uid) for uid, (d, o) in self.deltas.items()),
        )
        gone = [(uid,) for uid, (d, _) in self.deltas.items() if d < 0]
        self.deltas.clear()
        if gone:
            self.conn.executemany("DELETE FROM uri WHERE id = ? AND documents = 0", gone)
            self.uri_ids.clear()
        self.conn.execute("COMMIT")
        self.tx_started = None

    def close(self) -> None:
        """Commit, rebuild indexes dropped for a bulk load, let SQLite update statistics."""
        self.commit()
        if self.bulk:
            ensure_indexes(self.conn)
        self.conn.execute("PRAGMA optimize")

    # -- helpers --------------------------------------------------------------------------

    def _begin(self) -> None:
        if self.tx_started is None:
            self.conn.execute("BEGIN IMMEDIATE")
            self.tx_started = time.monotonic()

    def _source(self) -> int:
        """Begin a transaction if none is open; the current source's id.

        The source row is created, or marked incomplete, on first use.
        """
        self._begin()
        if self.source_id is not None:
            return self.source_id
        assert self.start is not None
        path = self.start.path
        row = self.conn.execute("SELECT id FROM source WHERE path = ?", (path,)).fetchone()
        if row is None:
            cur = self.conn.execute(
                "INSERT INTO source (path, abspath) VALUES (?, ?)",
                (path, path if path == "-" else os.path.abspath(path)),
            )
            self.source_id, self.source_new = cur.lastrowid, True
        else:
            self.conn.execute("UPDATE source SET complete = 0 WHERE id = ?", (row[0],))
            self.source_id, self.source_new = row[0], False
        assert self.source_id is not None
        return self.source_id

    def _document(self, doc: Document) -> None:
        source_id = self._source()
        self.summary.documents += 1
        digest = doc.digest
        row = None
        if not self.source_new:
            row = self.conn.execute(
                "SELECT id, hash FROM document WHERE source_id = ? AND doc_index = ?",
                (source_id, doc.doc_index),
            ).fetchone()
        fields = (doc.message_id, doc.record_id, doc.target_uri, doc.chars, digest)
        if row is not None and row[1] == digest:
            self.summary.unchanged += 1
            return
        if row is not None:
            doc_id = row[0]
            self._drop_links(doc_id)
            self.conn.execute(
                "UPDATE document SET message_id = ?, record_id = ?, target_uri = ?, chars = ?,"
                " hash = ? WHERE id = ?",
                (*fields, doc_id),
            )
            self.summary.replaced += 1
        else:
            cur = self.conn.execute(
                "INSERT INTO document (source_id, doc_index, message_id, record_id, target_uri,"
                " chars, hash) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (source_id, doc.doc_index, *fields),
            )
            assert cur.lastrowid is not None
            doc_id = cur.lastrowid
            self.summary.added += 1
        self._add_links(doc_id, doc.links.values())

    def _add_links(self, doc_id: int, links: Iterable[tuple[Hit, int]]) -> None:
        for hit, count in links:
            uri_id = self._uri_id(hit)
            self.pending.append((doc_id, uri_id, count, hit.start, self._context(hit.context)))
            delta = self.deltas.setdefault(uri_id, [0, 0])
            delta[0] += 1
            delta[1] += count

    def _drop_links(self, doc_id: int) -> None:
        """Delete a document's links, counting them off their URIs."""
        rows = self.conn.execute("SELECT uri_id, occurrences FROM link WHERE doc_id = ?", (doc_id,))
        for uri_id, count in rows:
            delta = self.deltas.setdefault(uri_id, [0, 0])
            delta[0] -= 1
            delta[1] -= count
        self.conn.execute("DELETE FROM link WHERE doc_id = ?", (doc_id,))

    def _end(self, end: FileEnd) -> None:
        self.summary.sources += 1
        if end.skipped:
            self.summary.skipped += 1
            return
        if end.error is not None:  # keep what the read did not reach; source stays incomplete
            self.summary.errors += 1
            return
        source_id = self._source()
        stale = self.conn.execute(
            "SELECT id FROM document WHERE source_id = ? AND doc_index >= ?",
            (source_id, end.documents),
        ).fetchall()  # bounded by the documents one source lost
        for (doc_id,) in stale:
            self._drop_links(doc_id)
            self.conn.execute("DELETE FROM document WHERE id = ?", (doc_id,))
        self.summary.removed += len(stale)
        stat = self.start.stat if self.start is not None else None
        self.conn.execute(
            "UPDATE source SET size = ?, mtime_ns = ?, options = ?, complete = 1 WHERE id = ?",
            (
                stat.st_size if stat else None,
                stat.st_mtime_ns if stat else None,
                self.fingerprint,
                source_id,
            ),
        )

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
            cur = self.conn.execute("INSERT INTO context (name) VALUES (?)", (name,))
            assert cur.lastrowid is not None
            context_id = self.contexts[name] = cur.lastrowid
        return context_id


def _normalize(uri: str) -> str:
    from urimine.normalize import normalize_uri

    return normalize_uri(uri)


def build_index(
    conn: sqlite3.Connection,
    paths: Sequence[str],
    options: Options,
    *,
    jobs: int = 1,
    on_error: Callable[[SourceError], None],
    progress: Callable[[int], None] | None = None,
    notice: Callable[[str], None] | None = None,
    batch_links: int = 50_000,
) -> Summary:
    """Index ``paths`` into the open index ``conn``; returns what was done.

    On an exception (including KeyboardInterrupt) the open transaction is rolled back:
    the index keeps every committed batch, which the next run builds on.
    """
    loader = Loader(conn, options_fingerprint(options), batch_links=batch_links)
    try:
        for event in iter_documents(
            paths,
            options,
            skip=loader.skip,
            on_error=on_error,
            jobs=jobs,
            progress=progress,
            notice=notice,
        ):
            loader.handle(event)
        loader.close()
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return loader.summary
