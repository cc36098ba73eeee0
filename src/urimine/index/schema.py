"""The link index file: DDL, format versioning, and opening with validation.

An index is an SQLite database marked with :data:`APPLICATION_ID` and
``PRAGMA user_version`` = :data:`SCHEMA_VERSION`. A new index is built in a temporary
file (markers and tables in one transaction, then switched to WAL mode and closed) and
linked into place, so an index file always has its markers in the main file's 100-byte
header, where they are checked before SQLite even opens it.

A file is validated read-only before anything writes to it: a file that is not ours
(not SQLite, foreign ``application_id``, unknown tables) or is corrupt (truncated,
unreadable schema) raises :class:`IndexFileError` and is left untouched. An empty
file and an SQLite database without any schema object are treated as new.

Sizing (10^8 links): every table has an integer key; ``link`` is ``WITHOUT ROWID`` keyed
by (doc_id, uri_id), so a document's links are contiguous and the table needs no
separate rowid b-tree. Its one secondary index ``link_uri`` (uri_id, doc_id) serves
"who links to X" and is dropped for a bulk load into an empty table and rebuilt by a
sort at the end (see :mod:`urimine.index.build`). Per-URI ``documents`` and
``occurrences`` counters are kept up to date by the loader so that ``top`` and ``stats``
read the ``uri`` table only, never the link table.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sqlite3
import struct
from pathlib import Path

from urimine.errors import UrimineError

__all__ = [
    "APPLICATION_ID",
    "DDL",
    "INDEXES",
    "SCHEMA_VERSION",
    "IndexFileError",
    "connect_read",
    "connect_write",
    "ensure_indexes",
    "index_error",
]

APPLICATION_ID = 0x7552694D
"""``PRAGMA application_id`` of a urimine index: the bytes ``uRiM``."""

SCHEMA_VERSION = 2
"""``PRAGMA user_version`` of the current format. Format 1 named a source by the path as
given and may hold WARC links under the wrong document: it is refused, not migrated."""

_SQLITE_MAGIC = b"SQLite format 3\x00"

DDL = """
CREATE TABLE source (
    id        INTEGER PRIMARY KEY,
    path      TEXT NOT NULL UNIQUE,   -- resolved path, "-" for stdin (index.identity),
                                      -- a BLOB of its bytes where the name is not UTF-8
    dev       INTEGER,                -- st_dev and st_ino when last read, to know the
    ino       INTEGER,                -- file under another name (a hard link)
    size      INTEGER,                -- st_size when last completely indexed, else NULL
    mtime_ns  INTEGER,                -- st_mtime_ns, idem
    options   TEXT,                   -- extraction options fingerprint, idem
    complete  INTEGER NOT NULL DEFAULT 0  -- 1: last read was complete and error-free
);
CREATE TABLE document (
    id          INTEGER PRIMARY KEY,
    source_id   INTEGER NOT NULL REFERENCES source(id),
    doc_index   INTEGER NOT NULL,     -- message / record number within the source
    message_id  TEXT,
    record_id   TEXT,
    target_uri  TEXT,
    chars       INTEGER NOT NULL,     -- decoded text length, in characters
    hash        BLOB NOT NULL,        -- BLAKE2b-128 of options + decoded text of all parts
    UNIQUE (source_id, doc_index)
);
CREATE TABLE context (
    id    INTEGER PRIMARY KEY,
    name  TEXT NOT NULL UNIQUE        -- how a hit was delimited: angle, bare, quote ...
);
CREATE TABLE uri (
    id           INTEGER PRIMARY KEY,
    key          TEXT NOT NULL UNIQUE,  -- dedup key
    canonical    TEXT,                  -- normalize_uri(first spelling), NULL when = key
    spelling     TEXT NOT NULL,         -- first spelling seen (Hit.uri)
    scheme       TEXT NOT NULL,
    host         TEXT,                  -- lower-cased host, NULL when there is none
    kind         TEXT NOT NULL,         -- uri, urn, urn-legacy
    documents    INTEGER NOT NULL DEFAULT 0,  -- number of links (= linking documents)
    occurrences  INTEGER NOT NULL DEFAULT 0   -- sum of link occurrences
);
CREATE TABLE link (
    doc_id        INTEGER NOT NULL,
    uri_id        INTEGER NOT NULL,
    occurrences   INTEGER NOT NULL,
    first_offset  INTEGER NOT NULL,   -- Hit.start of the first occurrence (in its part)
    context_id    INTEGER NOT NULL,   -- context of the first occurrence
    PRIMARY KEY (doc_id, uri_id)
) WITHOUT ROWID;
"""

INDEXES = {
    "uri_host": "CREATE INDEX IF NOT EXISTS uri_host ON uri(host)",
    "uri_scheme": "CREATE INDEX IF NOT EXISTS uri_scheme ON uri(scheme)",
    "link_uri": "CREATE INDEX IF NOT EXISTS link_uri ON link(uri_id, doc_id)",
    "source_inode": "CREATE INDEX IF NOT EXISTS source_inode ON source(dev, ino)",
}
"""Secondary indexes by name; ``link_uri`` may be absent during a bulk load."""

_TABLES = frozenset({"source", "document", "context", "uri", "link"})


class IndexFileError(UrimineError):
    """The index file is not ours, corrupt, of another format version, or unusable."""

    exit_code = 2

    def __init__(self, path: str, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"{path}: {reason}")


_FULL, _CORRUPT, _NOTADB, _IOERR = 13, 11, 26, 10  # SQLite primary result codes
_BUSY, _LOCKED, _READONLY, _CANTOPEN = 5, 6, 8, 14
_NO_SPACE = frozenset({errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)})
_LEFT = "; the index is left as it was after its last commit"


def index_error(path: str, exc: sqlite3.Error | OSError) -> IndexFileError:
    """The one-line error for a failure of SQLite or of the file system on ``path``.

    A full disk (SQLite's SQLITE_FULL, ENOSPC, or an I/O error on a file system left
    with no free space) is not corruption, and neither is a file size limit reached
    (``ulimit -f``): a write that fails leaves the last committed state, which the next
    run builds on.
    """
    if isinstance(exc, OSError):
        reason = exc.strerror or str(exc)
        if exc.errno in _NO_SPACE:
            return IndexFileError(path, f"disk full ({reason}){_LEFT}")
        return IndexFileError(path, reason)
    code = (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF
    if code == _FULL or (code == _IOERR and _no_space(path)):
        return IndexFileError(path, f"disk full ({exc}){_LEFT}")
    if code == _IOERR and _at_size_limit(path):
        return IndexFileError(path, f"file size limit reached ({exc}){_LEFT}")
    if code in (_CORRUPT, _NOTADB):
        return IndexFileError(path, f"is corrupt: {exc}")
    if code in (_BUSY, _LOCKED):
        return IndexFileError(path, f"is in use by another process: {exc}")
    if code in (_READONLY, _CANTOPEN):
        return IndexFileError(path, f"cannot write: {exc}")
    return IndexFileError(path, str(exc))


def _no_space(path: str) -> bool:
    """True if the file system holding ``path`` has (next to) no free blocks."""
    if not hasattr(os, "statvfs"):
        return False
    try:
        st = os.statvfs(os.path.dirname(os.path.abspath(path)))
    except OSError:
        return False
    free = st.f_bfree if hasattr(os, "geteuid") and os.geteuid() == 0 else st.f_bavail
    return free * st.f_frsize < 1 << 16


def _at_size_limit(path: str) -> bool:
    """True if the index or its WAL has grown to (next to) the file size limit."""
    try:
        import resource
    except ImportError:  # not POSIX
        return False
    limit = resource.getrlimit(resource.RLIMIT_FSIZE)[0]
    if limit == resource.RLIM_INFINITY:
        return False
    sizes = []
    for name in (path, f"{path}-wal"):
        with contextlib.suppress(OSError):
            sizes.append(os.path.getsize(name))
    return max(sizes, default=0) + (1 << 16) >= limit


def _header(path: str) -> bytes:
    try:
        with open(path, "rb") as fh:
            return fh.read(100)
    except OSError as exc:
        raise IndexFileError(path, exc.strerror or str(exc)) from exc


def _check_header(path: str, head: bytes) -> bool:
    """True if the file is an index (checked by its header); False if blank; else raise."""
    if not head.startswith(_SQLITE_MAGIC):
        raise IndexFileError(path, "not a urimine index")
    if len(head) < 100:
        raise IndexFileError(path, "is corrupt: truncated header")
    app_id, version = struct.unpack(">i", head[68:72])[0], struct.unpack(">i", head[60:64])[0]
    if app_id == 0 and version == 0:
        return False  # maybe a blank database; _check_schema decides
    if app_id != APPLICATION_ID:
        raise IndexFileError(path, "not a urimine index")
    if version > SCHEMA_VERSION:
        raise IndexFileError(
            path,
            f"index format {version} is newer than this urimine supports ({SCHEMA_VERSION});"
            " upgrade urimine",
        )
    if version < SCHEMA_VERSION:
        raise IndexFileError(
            path, f"index format {version} is older than {SCHEMA_VERSION}; re-create the index"
        )
    _check_size(path, head)
    return True


def _check_size(path: str, head: bytes) -> None:
    """Refuse a file shorter than its header says (header fields valid per file format 1.3)."""
    page_size = struct.unpack(">H", head[16:18])[0]
    page_size = 65536 if page_size == 1 else page_size
    change_counter, pages, valid_for = struct.unpack(">III", head[24:36])
    header_valid = change_counter == struct.unpack(">I", head[92:96])[0] == valid_for
    if pages and header_valid and os.path.getsize(path) < pages * page_size:
        raise IndexFileError(path, "is corrupt: file is truncated")


def _check_schema(path: str, conn: sqlite3.Connection, ours: bool) -> bool:
    """Check the tables; True if they are ours, False if there are none (blank database)."""
    try:
        names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
        if ours:
            conn.execute("SELECT count(*) FROM (SELECT 1 FROM source LIMIT 1)").fetchone()
    except sqlite3.Error as exc:
        raise index_error(path, exc) from exc
    if not names and not ours:
        return False
    if not ours or not names >= _TABLES:
        raise IndexFileError(path, "not a urimine index")
    return True


def _ro_uri(path: str) -> str:
    return Path(os.path.abspath(path)).as_uri() + "?mode=ro"


def _validate(path: str) -> bool:
    """Validate an existing file read-only; True if it is an index, False if blank."""
    head = _header(path)
    if not head:
        return False
    ours = _check_header(path, head)
    try:
        conn = sqlite3.connect(_ro_uri(path), uri=True)
    except sqlite3.Error as exc:
        raise index_error(path, exc) from exc
    try:
        return _check_schema(path, conn, ours)
    finally:
        conn.close()


def _configure(conn: sqlite3.Connection, cache_mb: int) -> None:
    conn.execute("PRAGMA busy_timeout = 10000")
    conn.execute(f"PRAGMA cache_size = {-1024 * cache_mb}")
    conn.execute("PRAGMA temp_store = FILE")


def _create(conn: sqlite3.Connection) -> None:
    """Create the schema: markers and tables in one rollback-journal transaction."""
    conn.execute("BEGIN")
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    for statement in DDL.split(";"):
        if statement.strip():
            conn.execute(statement)
    for ddl in INDEXES.values():
        conn.execute(ddl)
    conn.execute("COMMIT")


def _create_file(path: str) -> None:
    """Create an index at ``path`` atomically: built beside it, then linked into place.

    A run killed while creating leaves at most a stray ``*.tmp`` file, never a
    half-made index. A blank file at ``path`` is replaced; if another process created the
    index meanwhile, theirs is kept.
    """
    tmp = f"{path}.{os.getpid()}.tmp"
    with contextlib.suppress(FileNotFoundError):
        os.unlink(tmp)
    conn = sqlite3.connect(tmp, isolation_level=None)
    try:
        _create(conn)
        conn.execute("PRAGMA journal_mode = WAL")
    finally:
        conn.close()
    try:
        if os.path.exists(path):
            os.replace(tmp, path)  # a blank file: nothing to lose
            return
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass
        except OSError:  # no hard links on this file system
            os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)


def connect_write(path: str, *, cache_mb: int = 64) -> sqlite3.Connection:
    """Open (creating if need be) an index for writing, after validating it read-only.

    The connection is in autocommit mode (``isolation_level=None``): the loader issues
    ``BEGIN``/``COMMIT`` itself. Missing secondary indexes (after an interrupted bulk
    load) are rebuilt here.
    """
    try:
        if not (os.path.exists(path) and _validate(path)):
            _create_file(path)
            _validate(path)
        conn = sqlite3.connect(path, isolation_level=None)
        _configure(conn, cache_mb)
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        ensure_indexes(conn)
    except (sqlite3.Error, OSError) as exc:
        raise index_error(path, exc) from exc
    return conn


def ensure_indexes(conn: sqlite3.Connection) -> None:
    """Create any missing secondary index (a no-op when all exist)."""
    for ddl in INDEXES.values():
        conn.execute(ddl)


def connect_read(path: str, *, cache_mb: int = 64) -> sqlite3.Connection:
    """Open an existing index read-only, after validating it."""
    if not os.path.exists(path):
        raise IndexFileError(path, "no such file")
    if not _validate(path):
        raise IndexFileError(path, "not a urimine index")
    try:
        conn = sqlite3.connect(_ro_uri(path), uri=True, isolation_level=None)
        _configure(conn, cache_mb)
    except sqlite3.Error as exc:
        raise index_error(path, exc) from exc
    return conn
