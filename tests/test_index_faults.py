"""Faults around the link index, from the command line: a kill during a prune, a full
disk, a file size limit, file names that are not UTF-8, absurd arguments, output that
cannot be written. Every case runs ``urimine`` as a subprocess with a timeout and checks
the exit status, the one-line message, that no traceback shows, and the index after."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from urimine.pipeline import Options, iter_records

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
EASY_HAM = SHARED / "corpora" / "mail" / "spamassassin-easy_ham.mbox.gz"
TIMEOUT = 120

MBOX = """\
From alice@example.org Mon Jan  1 00:00:00 2001
Message-ID: <m1@example.org>

See http://example.com/a and http://bücher.example/b and urn:isbn:0-395-36341-1.
"""


def urimine(*args: str | bytes | Path, **kwargs: Any) -> subprocess.CompletedProcess[bytes]:
    """Run the CLI (``python -m urimine``) with a timeout; output as bytes."""
    cmd = [sys.executable, "-m", "urimine", *args]
    return subprocess.run(cmd, capture_output=True, timeout=TIMEOUT, check=False, **kwargs)


def one_line(err: bytes) -> str:
    """The only line of stderr, checked to be ``urimine: ...`` with no traceback."""
    text = err.decode("utf-8", "backslashreplace")
    assert "Traceback" not in text
    lines = text.splitlines()
    assert len(lines) == 1 and lines[0].startswith("urimine: "), text
    return lines[0]


def state(db: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of the index by natural keys (paths, document numbers, URI keys,
    context names), independent of row ids, sorted."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        queries = {
            "source": "SELECT path, size, mtime_ns, options, complete FROM source",
            "document": "SELECT s.path, d.doc_index, d.message_id, d.record_id, d.target_uri,"
            " d.chars, d.hash FROM document d JOIN source s ON s.id = d.source_id",
            "uri": "SELECT key, scheme, host, kind, documents, occurrences FROM uri",
            "link": "SELECT s.path, d.doc_index, u.key, l.occurrences, l.first_offset, c.name"
            " FROM link l JOIN document d ON d.id = l.doc_id JOIN source s ON s.id = d.source_id"
            " JOIN uri u ON u.id = l.uri_id JOIN context c ON c.id = l.context_id",
        }
        return {
            name: sorted(conn.execute(sql).fetchall(), key=repr) for name, sql in queries.items()
        }
    finally:
        conn.close()


def dump(db: Path) -> list[str]:
    """Every row of every table as SQL, row ids included (planner statistics left out)."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return [
            line
            for line in conn.iterdump()
            if not line.startswith(("ANALYZE ", 'INSERT INTO "sqlite_stat'))
        ]
    finally:
        conn.close()


def intact(db: Path) -> int:
    """Check the index opens and passes SQLite's integrity check; its document count."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        return int(conn.execute("SELECT count(*) FROM document").fetchone()[0])
    finally:
        conn.close()


def copy_index(src: Path, dst: Path) -> None:
    for suffix in ("", "-wal"):
        if Path(f"{src}{suffix}").exists():
            shutil.copyfile(f"{src}{suffix}", f"{dst}{suffix}")


def _keep_text(n: int) -> str:
    """Text holding some URIs of the corpus, so that pruning it lowers their counters."""
    keys: list[str] = []
    for record in iter_records([str(EASY_HAM)], Options()):
        if record.hit.uri not in keys:
            keys.append(record.hit.uri)
        if len(keys) >= n:
            break
    return "".join(f"see {uri} here\n" for uri in keys)


# -- a kill during a prune -------------------------------------------------------------------


def _documents(db: Path) -> int | None:
    """Documents committed so far to an index being written, or None if unreadable now."""
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            return int(conn.execute("SELECT count(*) FROM document").fetchone()[0])
        finally:
            conn.close()
    except sqlite3.Error:
        return None


def _prune_run(db: Path, tree: Path) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "urimine", "index", str(db), str(tree), "--batch", "300"]
    return subprocess.Popen(cmd, stderr=subprocess.DEVNULL)


def test_sigkill_during_prune_then_rerun_equals_clean_run(tmp_path: Path) -> None:
    """Two copies of a mail corpus are indexed, then deleted; the run that prunes them is
    killed at random moments (twice), then run to the end. The index must be intact
    after every kill, equal row for row to one pruned without a kill, and hold what a
    fresh index of what is left holds."""
    if not EASY_HAM.exists():
        pytest.skip("../shared corpora are not present")
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "list.mbox").write_text(MBOX)
    (tree / "keep.txt").write_text(_keep_text(30))
    for name in ("one.mbox.gz", "two.mbox.gz"):
        shutil.copyfile(EASY_HAM, tree / name)
    base = tmp_path / "base.db"
    assert urimine("index", base, tree).returncode == 0
    full = intact(base)
    for name in ("one.mbox.gz", "two.mbox.gz"):
        (tree / name).unlink()
    clean = tmp_path / "clean.db"
    copy_index(base, clean)
    started = time.monotonic()
    assert _prune_run(clean, tree).wait(timeout=TIMEOUT) == 0
    end = time.monotonic() - started
    left = intact(clean)
    fresh = tmp_path / "fresh.db"
    assert urimine("index", fresh, tree).returncode == 0
    expected = state(fresh)
    assert left < full and state(clean) == expected
    rnd = random.Random(28)
    seen: list[int] = []
    for attempt in range(3):
        db = tmp_path / f"killed{attempt}.db"
        copy_index(base, db)
        # Killed once its committed documents fall below a random mark (watched from
        # outside: the index is in WAL mode), then again at a random moment of a run.
        mark = rnd.uniform(left, full)
        proc = _prune_run(db, tree)
        while proc.poll() is None and (_documents(db) or full) > mark:
            time.sleep(0.002)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=TIMEOUT)
        seen.append(intact(db))
        proc = _prune_run(db, tree)
        time.sleep(rnd.uniform(0.0, end))
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=TIMEOUT)
        seen.append(intact(db))
        assert urimine("index", db, tree).returncode == 0
        assert dump(db) == dump(clean)
        assert state(db) == expected
    assert any(left < n < full for n in seen), (left, full, seen)


# -- a full disk, a file size limit ----------------------------------------------------------


def _fill(folder: Path, leave: int) -> Path:
    """Fill the file system of ``folder`` but for about ``leave`` bytes."""
    filler = folder / "filler"
    with open(filler, "wb") as fh, contextlib.suppress(OSError):
        while True:
            fh.write(b"\0" * 65536)
            fh.flush()
    if leave:
        with open(filler, "r+b") as fh:
            fh.truncate(max(0, filler.stat().st_size - leave))
    return filler


@pytest.fixture
def small_fs(tmp_path: Path) -> Iterator[Path]:
    """A 4 MiB tmpfs (needs root and mount); skipped where it cannot be made."""
    if not sys.platform.startswith("linux") or os.geteuid() != 0 or not shutil.which("mount"):
        pytest.skip("mounting a small tmpfs needs root on Linux")
    where = tmp_path / "fs"
    where.mkdir()
    made = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(where)],
        capture_output=True,
        timeout=30,
        check=False,
    )
    if made.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {made.stderr.decode(errors='replace')}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True, timeout=30, check=False)


def test_disk_full(small_fs: Path, tmp_path: Path) -> None:
    """A full disk is reported as such (exit 2, one line), never as corruption; the index
    is as it was after its last commit, and a run once there is space completes it."""
    if not EASY_HAM.exists():
        pytest.skip("../shared corpora are not present")
    inputs = tmp_path / "in"
    inputs.mkdir()
    (inputs / "list.mbox").write_text(MBOX)
    db = small_fs / "links.db"
    assert urimine("index", db, inputs).returncode == 0
    before = dump(db)
    filler = _fill(small_fs, 0)  # full before the run: nothing changes
    run = urimine("index", db, inputs, EASY_HAM)
    assert run.returncode == 2
    line = one_line(run.stderr)
    assert line.startswith(f"urimine: {db}: disk full (") and "corrupt" not in line
    filler.unlink()
    assert dump(db) == before
    filler = _fill(small_fs, 600_000)  # full during the run: its commits are kept
    run = urimine("index", db, inputs, EASY_HAM, "--batch", "300")
    assert run.returncode == 2
    assert one_line(run.stderr).startswith(f"urimine: {db}: disk full (")
    filler.unlink()
    assert intact(db) >= 1
    assert urimine("index", db, inputs, EASY_HAM).returncode == 0
    clean = tmp_path / "clean.db"
    assert urimine("index", clean, inputs).returncode == 0
    assert urimine("index", clean, inputs, EASY_HAM).returncode == 0
    assert state(db) == state(clean)


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="needs POSIX resource limits")
def test_file_size_limit(tmp_path: Path) -> None:
    """``ulimit -f`` reached while indexing: named as such, the index intact."""
    if not EASY_HAM.exists():
        pytest.skip("../shared corpora are not present")
    import resource

    db = tmp_path / "links.db"
    (tmp_path / "list.mbox").write_text(MBOX)
    assert urimine("index", db, tmp_path / "list.mbox").returncode == 0

    def limit() -> None:  # in the child, before it starts
        resource.setrlimit(resource.RLIMIT_FSIZE, (300_000, 300_000))

    run = urimine("index", db, EASY_HAM, "--batch", "300", preexec_fn=limit)
    assert run.returncode == 2
    assert one_line(run.stderr).startswith(f"urimine: {db}: file size limit reached (")
    assert intact(db) >= 1
    assert urimine("index", db, EASY_HAM).returncode == 0


# -- file names that are not UTF-8 -----------------------------------------------------------


def test_non_utf8_names(tmp_path: Path) -> None:
    """A file name that is not UTF-8 is indexed and stored as its bytes, written exactly
    in JSON Lines, escaped (``\\xNN``) in text and CSV as extraction writes it, and
    ``links-from`` finds it by the name given on the command line."""
    root = tmp_path / "in"
    root.mkdir()
    raw = os.fsencode(root) + b"/caf\xe9.txt"
    try:
        with open(raw, "wb") as fh:
            fh.write(b"see http://latin1.example/ ok\n")
    except OSError as exc:
        if exc.errno in (errno.EILSEQ, errno.EINVAL):
            pytest.skip("this file system refuses names that are not UTF-8")
        raise
    (root / "ok.txt").write_text("ok http://ok.example/\n")
    db = tmp_path / "links.db"
    run = urimine("index", db, root, "-v")
    assert run.returncode == 0 and b"Traceback" not in run.stderr
    assert b"2 documents read (2 added" in run.stderr
    again = urimine("index", db, root, "-v")  # unchanged: skipped
    assert again.returncode == 0 and b"2 sources (2 unchanged" in again.stderr
    real = os.path.realpath(raw)
    shown = real.replace(b"\xe9", b"\\xe9")
    for name in (raw, b"caf\xe9.txt"):
        out = urimine("query", db, "links-from", name, cwd=root)
        assert out.returncode == 0 and out.stderr == b""
        header, line = out.stdout.splitlines()
        assert header.split()[:4] == [b"occurrences", b"start", b"context", b"source"]
        uri = b"http://latin1.example/"
        assert line.split() == [b"1", b"4", b"bare", shown, b"0", b"-", b"-", b"-", uri, uri]
    out = urimine("query", db, "links-to", "http://latin1.example/", "--format", "jsonl")
    row = json.loads(out.stdout.decode("utf-8"))  # UTF-8 throughout, the name escaped
    assert os.fsencode(row["source"]) == real
    out = urimine("query", db, "links-to", "http://latin1.example/", "--format", "csv")
    assert (
        out.returncode == 0
        and out.stdout.splitlines()[1]
        == b"1,4,bare," + shown + b",0,,,,http://latin1.example/,http://latin1.example/"
    )
    os.unlink(raw)
    pruned = urimine("index", db, root, "-v")
    assert pruned.returncode == 0 and b"1 sources pruned" in pruned.stderr
    assert urimine("query", db, "links-from", raw).returncode == 1


# -- absurd arguments, output that cannot be written -----------------------------------------


@pytest.fixture(scope="module")
def index_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An index of one small mbox, shared by the tests that must not change it."""
    folder = tmp_path_factory.mktemp("query")
    (folder / "list.mbox").write_text(MBOX)
    db = folder / "links.db"
    assert urimine("index", db, folder / "list.mbox").returncode == 0
    return db


@pytest.mark.parametrize(
    "args",
    [
        ("query", "DB", "top", "-n", "99999999999999999999"),
        ("query", "DB", "top", "-n", "-1"),
        ("query", "DB", "hosts", "-n", "1e3"),
        ("query", "DB", "top", "-n", "9" * 5000),
        ("index", "DB", "-j", "0", "IN"),
        ("index", "DB", "-j", "99999999999999999999", "IN"),
        ("index", "DB", "--batch", "-5", "IN"),
        ("index", "DB"),
    ],
    ids=lambda a: " ".join(a)[:40],
)
def test_absurd_arguments(index_db: Path, args: tuple[str, ...]) -> None:
    before = dump(index_db)
    words = [str(index_db) if a == "DB" else a for a in args]
    words = [str(index_db.parent / "list.mbox") if a == "IN" else a for a in words]
    run = urimine(*words, stdin=subprocess.DEVNULL)
    assert run.returncode == 2 and run.stdout == b""
    one_line(run.stderr)
    assert dump(index_db) == before


def _no_stdout() -> None:  # in the child: standard output closed (">&-")
    os.close(1)


@pytest.mark.parametrize("fmt", ["text", "jsonl", "csv"])
def test_write_errors(index_db: Path, fmt: str) -> None:
    query = ("query", index_db, "top", "--format", fmt)
    if os.path.exists("/dev/full"):
        with open("/dev/full", "wb") as full:
            run = subprocess.run(
                [sys.executable, "-m", "urimine", *map(str, query)],
                stdout=full,
                stderr=subprocess.PIPE,
                timeout=TIMEOUT,
                check=False,
            )
        assert run.returncode == 2
        assert one_line(run.stderr) == "urimine: write error: No space left on device"
    if hasattr(os, "fork"):
        run = subprocess.run(
            [sys.executable, "-m", "urimine", *map(str, query)],
            stderr=subprocess.PIPE,
            preexec_fn=_no_stdout,
            timeout=TIMEOUT,
            check=False,
        )
        assert run.returncode == 2
        assert one_line(run.stderr) == "urimine: write error: standard output is closed"
    ascii_env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    run = urimine(*query, env=ascii_env)  # http://bücher.example/b cannot be written
    assert run.returncode == 2
    assert one_line(run.stderr).startswith("urimine: write error: the output encoding (ascii)")
