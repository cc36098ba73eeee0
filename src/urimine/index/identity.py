"""Which source a path names, and how source paths are stored.

A source is its *resolved path* (:func:`os.path.realpath`: absolute, symbolic links and
``.``/``..`` resolved), so ``a.eml``, ``./a.eml``, ``/abs/a.eml`` and the same file named
from another working directory are one source, and queries show that one path whatever
spelling indexed it. Where the file system has device and inode numbers, a path not
indexed yet that names a file already indexed under another path (a hard link, a bind
mount) is that source, as long as the other path still names the same file.

File names are bytes on POSIX. A name that is UTF-8 is stored as TEXT; any other is
stored as a BLOB of its bytes (:func:`to_db`), which :func:`from_db` turns back into the
``str`` Python gives for it (surrogate escapes, PEP 383): nothing is lost, and opening
that ``str`` opens the file.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator

__all__ = [
    "Resolver",
    "child_bounds",
    "find_by_inode",
    "find_source",
    "from_db",
    "gone",
    "to_db",
]

DbPath = str | bytes


class Resolver:
    """:func:`os.path.realpath` of paths met in a walk, resolving each folder once.

    ``realpath`` looks at every component of a path; a walk names many files in one
    folder, so the folder's resolved path is kept (a bounded cache) and only the file's
    own name is checked for being a link.
    """

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self.folders: dict[str, str] = {}

    def resolve(self, path: str) -> str:
        """The resolved path of ``path`` (``-``, standard input, stays ``-``)."""
        if path == "-":
            return path
        head, tail = os.path.split(path)
        if tail in ("", ".", "..") or os.path.islink(path):
            return os.path.realpath(path)
        folder = self.folders.get(head)
        if folder is None:
            if len(self.folders) >= self.size:
                self.folders.clear()
            folder = self.folders[head] = os.path.realpath(head or os.curdir)
        return os.path.join(folder, tail)


def to_db(path: str) -> DbPath:
    """How ``path`` is stored: TEXT if it is UTF-8, else a BLOB of its file-system bytes."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return os.fsencode(path)
    return path


def from_db(value: DbPath) -> str:
    """The ``str`` of a stored path (surrogate escapes for bytes that are not UTF-8)."""
    return os.fsdecode(value) if isinstance(value, bytes) else value


def gone(path: str) -> bool:
    """True if nothing exists at ``path`` any more (an unreadable folder is not gone)."""
    try:
        os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return True
    except (OSError, ValueError):
        return False
    return False


def child_bounds(root: str) -> Iterator[tuple[DbPath, DbPath]]:
    """Exclusive bounds of the stored paths under the resolved folder ``root``.

    SQLite orders TEXT by its UTF-8 bytes and every BLOB after every TEXT, so the paths
    under ``root`` are one range of TEXT and one range of BLOBs (names that are not
    UTF-8); a ``root`` that is not UTF-8 itself has only the second.
    """
    prefix = root if root.endswith(os.sep) else root + os.sep
    raw = os.fsencode(prefix)
    stored = to_db(prefix)
    if isinstance(stored, str):
        yield stored, stored[:-1] + chr(ord(os.sep) + 1)
    yield raw, raw[:-1] + bytes([raw[-1] + 1])


def find_source(
    conn: sqlite3.Connection, resolved: str, stat: os.stat_result | None
) -> tuple[int, DbPath] | None:
    """The (id, stored path) of the source ``resolved`` names, or None: by resolved path,
    else by :func:`find_by_inode`."""
    stored = to_db(resolved)
    row = conn.execute("SELECT id FROM source WHERE path = ?", (stored,)).fetchone()
    if row is not None:
        return int(row[0]), stored
    return find_by_inode(conn, stat)


def find_by_inode(
    conn: sqlite3.Connection, stat: os.stat_result | None
) -> tuple[int, DbPath] | None:
    """The (id, stored path) of a source with the device and inode of ``stat`` whose own
    path still names that same file (the number of a deleted file, reused by the system,
    must not match), or None."""
    if stat is None or not stat.st_ino:
        return None
    for source_id, other in conn.execute(
        "SELECT id, path FROM source WHERE dev = ? AND ino = ?", (stat.st_dev, stat.st_ino)
    ).fetchall():  # as many rows as names of one file
        try:
            now = os.stat(from_db(other))
        except (OSError, ValueError):
            continue
        if (now.st_dev, now.st_ino) == (stat.st_dev, stat.st_ino):
            return int(source_id), other
    return None
