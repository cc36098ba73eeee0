"""The loader: document events into the index, incrementally and crash-safely.

Identity. An input is the source its resolved path names (:mod:`urimine.index.identity`):
two spellings of one file, or a hard link to it, are one source, read once per run.

Incrementality. A source (file) is skipped without being read when its row says it was
indexed completely with the same size, ``st_mtime_ns``, inode and options fingerprint.
Any other source is read; each document is compared by content hash with the row of the
same (source, doc_index): equal means nothing to write, different means its links are
replaced, absent means it is added. Documents arrive in increasing ``doc_index``, which
need not be dense (a WARC numbers its records, and only some are documents): the old
documents of the source numbered between two documents read are gone, and so are those
after the last one once the source has been read without error. A read error keeps every
old document the read did not reach. After the inputs, sources under the given folders
that no longer exist are removed (pruned).

Crash safety. Writes go in explicit transactions that hold whole documents, each with
all its links: a commit happens only between documents (every ~``batch_links`` links
written or removed, or ``batch_seconds``), and a source is marked complete in the
transaction holding its end. A killed run leaves a prefix of what an uninterrupted run
commits, in the same order; the next run skips the completed sources, finds the
committed documents of the interrupted one unchanged, goes on, and prunes what is left
to prune, so it ends in the same state.

URI counters (``documents``, ``occurrences``) are kept as per-transaction deltas in
memory and applied before each commit; URIs left without links are then deleted.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Callable, Sequence

from urimine.errors import SourceError
from urimine.index.documents import Action, Document, Event, FileEnd, FileStart, iter_documents
from urimine.index.documents import options_fingerprint as options_fingerprint
from urimine.index.identity import Resolver, child_bounds, find_by_inode, from_db, gone, to_db
from urimine.index.schema import ensure_indexes
from urimine.index.store import ROWS, Store, Summary
from urimine.pipeline import Options
from urimine.sources import Walk

__all__ = ["Loader", "Summary", "build_index", "options_fingerprint"]

_STATE = "size, mtime_ns, options, complete, dev, ino"
"""What says a source is unchanged since it was indexed completely."""


class Loader(Store):
    """Applies :mod:`~urimine.index.documents` events to an open index connection."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        fingerprint: str,
        *,
        batch_links: int = 50_000,
        batch_seconds: float = 1.0,
        notice: Callable[[str], None] | None = None,
    ) -> None:
        super().__init__(conn, batch_links=batch_links, batch_seconds=batch_seconds)
        self.fingerprint = fingerprint
        self.notice = notice
        self.resolver = Resolver()
        self.start: FileStart | None = None
        self.source_id: int | None = None
        self.source_new = False
        self.last_index = -1  # doc_index of the current source's last document read
        # The sources met in this run, on disk (temp_store = FILE), not in memory.
        conn.execute("CREATE TEMP TABLE IF NOT EXISTS seen (path PRIMARY KEY, dev, ino)")
        conn.execute("CREATE INDEX IF NOT EXISTS temp.seen_inode ON seen(dev, ino)")
        conn.execute("DELETE FROM temp.seen")
        self.bulk = conn.execute("SELECT 1 FROM link LIMIT 1").fetchone() is None
        if self.bulk:  # empty link table: load without link_uri, sort it in at the end
            conn.execute("DROP INDEX IF EXISTS link_uri")

    # -- the event interface -------------------------------------------------------------

    def plan(self, path: str, stat: os.stat_result | None) -> tuple[str, Action]:
        """The source ``path`` names, and whether to read it (see :class:`Action`)."""
        source = self.resolver.resolve(path)
        stored = to_db(source)
        row = self.conn.execute(f"SELECT {_STATE} FROM source WHERE path = ?", (stored,)).fetchone()
        if row is None and (found := find_by_inode(self.conn, stat)) is not None:
            source, stored = from_db(found[1]), found[1]
            row = self.conn.execute(
                f"SELECT {_STATE} FROM source WHERE id = ?", (found[0],)
            ).fetchone()
        dev, ino = (stat.st_dev, stat.st_ino) if stat is not None and stat.st_ino else (None, None)
        earlier = None
        if row is None and ino is not None:  # met in this run, maybe not written yet
            earlier = self.conn.execute(
                "SELECT path FROM temp.seen WHERE dev = ? AND ino = ?", (dev, ino)
            ).fetchone()
        if earlier is not None or (
            self.conn.execute(
                "INSERT OR IGNORE INTO temp.seen VALUES (?, ?, ?)", (stored, dev, ino)
            ).rowcount
            == 0
        ):
            first = source if earlier is None else from_db(earlier[0])
            if self.notice is not None:
                self.notice(f"{path}: the same file as {first}, read once")
            return first, Action.REPEAT
        if row is not None and stat is not None and tuple(row) == self._state(stat):
            return source, Action.SKIP
        return source, Action.READ

    def handle(self, event: Event) -> None:
        """Apply one event; commits only here, between whole documents."""
        if isinstance(event, FileStart):
            self.start, self.source_id, self.last_index = event, None, -1
        elif isinstance(event, Document):
            self._document(event)
        else:
            self._end(event)
        self.maybe_commit()

    def prune(self, roots: Sequence[str]) -> None:
        """Remove the sources under the folders ``roots`` that no longer exist.

        A root that does not exist itself prunes nothing: a mistyped or unmounted path
        must not empty the index. A source that cannot be looked at (an unreadable
        folder) is kept.
        """
        for root in roots:
            if root == "-" or not os.path.exists(root):
                continue
            for low, high in child_bounds(self.resolver.resolve(root)):
                self._prune_range(low, high)

    def close(self) -> None:
        """Commit, rebuild indexes dropped for a bulk load, let SQLite update statistics."""
        self.commit()
        if self.bulk:
            ensure_indexes(self.conn)
        self.conn.execute("PRAGMA optimize")

    # -- helpers --------------------------------------------------------------------------

    def _state(self, stat: os.stat_result) -> tuple[object, ...]:
        """The :data:`_STATE` columns of a source indexed completely as it is now."""
        return (stat.st_size, stat.st_mtime_ns, self.fingerprint, 1, stat.st_dev, stat.st_ino)

    def _source(self) -> int:
        """Begin a transaction if none is open; the current source's id.

        The source row is created, or marked incomplete, on first use.
        """
        self.begin()
        if self.source_id is not None:
            return self.source_id
        assert self.start is not None
        stored = to_db(self.start.source or self.start.path)
        stat = self.start.stat
        dev, ino = (stat.st_dev, stat.st_ino) if stat is not None else (None, None)
        row = self.conn.execute("SELECT id FROM source WHERE path = ?", (stored,)).fetchone()
        if row is None:
            cur = self.conn.execute(
                "INSERT INTO source (path, dev, ino) VALUES (?, ?, ?)", (stored, dev, ino)
            )
            self.source_id, self.source_new = cur.lastrowid, True
        else:
            self.conn.execute(
                "UPDATE source SET complete = 0, dev = ?, ino = ? WHERE id = ?",
                (dev, ino, row[0]),
            )
            self.source_id, self.source_new = row[0], False
        assert self.source_id is not None
        return self.source_id

    def _document(self, doc: Document) -> None:
        source_id = self._source()
        self.summary.documents += 1
        if not self.source_new and doc.doc_index > self.last_index + 1:
            self.drop_documents(source_id, self.last_index, doc.doc_index)
        self.last_index = max(self.last_index, doc.doc_index)
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
            self.drop_links(doc_id)
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
        self.add_links(doc_id, doc.links.values())

    def _prune_range(self, low: str | bytes, high: str | bytes) -> None:
        """Prune the sources whose stored path lies strictly between ``low`` and ``high``."""
        while True:
            rows = self.conn.execute(
                "SELECT id, path FROM source WHERE path > ? AND path < ?"
                f" AND path NOT IN (SELECT path FROM temp.seen) ORDER BY path LIMIT {ROWS}",
                (low, high),
            ).fetchall()  # the sources met in this run exist: no need to look
            for source_id, path in rows:
                if gone(from_db(path)):
                    self.drop_source(source_id)
            if len(rows) < ROWS:
                return
            low = rows[-1][1]

    def _end(self, end: FileEnd) -> None:
        self.summary.sources += 1
        if end.skipped:
            self.summary.skipped += 1
            return
        if end.error is not None:  # keep what the read did not reach; source stays incomplete
            self.summary.errors += 1
            return
        source_id = self._source()
        if not self.source_new:
            self.drop_documents(source_id, self.last_index, None)
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
    prune: bool = True,
    walk: Walk | None = None,
) -> Summary:
    """Index ``paths`` into the open index ``conn``; returns what was done.

    With ``prune``, sources under ``paths`` that no longer exist are removed at the end.
    On an exception (including KeyboardInterrupt) the open transaction is rolled back:
    the index keeps every committed batch, which the next run builds on.
    """
    loader = Loader(conn, options_fingerprint(options), batch_links=batch_links, notice=notice)
    try:
        for event in iter_documents(
            paths,
            options,
            plan=loader.plan,
            on_error=on_error,
            jobs=jobs,
            progress=progress,
            notice=notice,
            walk=walk,
        ):
            loader.handle(event)
        if prune:
            loader.prune(paths)
        loader.close()
    except BaseException:
        if conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
        raise
    return loader.summary
