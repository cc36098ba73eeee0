"""The link index (issue 4): building, incrementality, crash safety, refusal, queries."""

from __future__ import annotations

import csv
import gzip
import io
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from urimine.index.cli import index_main, query_main
from urimine.pipeline import Options, iter_records

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
EASY_HAM = SHARED / "corpora" / "mail" / "spamassassin-easy_ham.mbox.gz"

MBOX = """\
From alice@example.org Mon Jan  1 00:00:00 2001
Message-ID: <m1@example.org>
Subject: one

See <http://Example.COM/a> and http://example.com/b twice: http://example.com/b
and urn:ISBN:0-395-36341-1.

From bob@example.org Mon Jan  1 00:00:00 2001
Message-ID: <m2@example.org>
Subject: two

Nothing to see here.

From carol@example.org Mon Jan  1 00:00:00 2001
Message-ID: <m3@example.org>
Subject: three

Again http://EXAMPLE.com:80/a and mailto:carol@example.org
"""


def _index(*args: str | Path) -> int:
    return index_main([str(a) for a in args])


def _query(capsys: pytest.CaptureFixture[str], db: Path, *args: str) -> tuple[int, str]:
    capsys.readouterr()
    status = query_main([str(db), *args])
    return status, capsys.readouterr().out


def _stats(capsys: pytest.CaptureFixture[str], db: Path) -> dict[str, object]:
    """``stats`` as a dict: its JSON Lines are name/value rows."""
    status, out = _query(capsys, db, "stats", "--format", "jsonl")
    assert status == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert all(list(row) == ["name", "value"] for row in rows)
    return {row["name"]: row["value"] for row in rows}


def _dump(db: Path) -> list[str]:
    """Every row of every table, in a stable order (what 'same state' means); SQLite's
    planner statistics (``PRAGMA optimize`` decides when to gather them) are not state."""
    conn = sqlite3.connect(db)
    try:
        return [
            line
            for line in conn.iterdump()
            if not line.startswith(("ANALYZE ", 'INSERT INTO "sqlite_stat'))
        ]
    finally:
        conn.close()


def _doc_links(db: Path) -> dict[tuple[str, int], set[tuple[str, int]]]:
    """(source, doc_index) -> {(key, occurrences)} for every indexed document."""
    conn = sqlite3.connect(db)
    out: dict[tuple[str, int], set[tuple[str, int]]] = {}
    try:
        for path, index in conn.execute(
            "SELECT s.path, d.doc_index FROM document d JOIN source s ON s.id = d.source_id"
        ):
            out[(path, index)] = set()
        for path, index, key, occ in conn.execute(
            "SELECT s.path, d.doc_index, u.key, l.occurrences FROM link l"
            " JOIN document d ON d.id = l.doc_id JOIN source s ON s.id = d.source_id"
            " JOIN uri u ON u.id = l.uri_id"
        ):
            out[(path, index)].add((key, occ))
    finally:
        conn.close()
    return out


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """A small tree: an mbox of three messages, two text files (one without links)."""
    root = tmp_path / "in"
    root.mkdir()
    (root / "list.mbox").write_text(MBOX)
    (root / "a.txt").write_text("Read http://example.com/a, ftp://ftp.example.net/pub/ too.\n")
    (root / "empty.txt").write_text("No links at all.\n")
    return root


def test_index_and_query(corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "links.db"
    assert _index(db, corpus) == 0
    stats = _stats(capsys, db)
    assert stats["sources"] == 3
    assert stats["documents"] == 5  # three messages, two files (one without links)
    assert stats["uris"] == 5
    status, out = _query(capsys, db, "top", "-n", "1", "--format", "jsonl")
    top = json.loads(out)
    assert (top["key"], top["documents"], top["occurrences"]) == ("http://example.com/a", 3, 3)
    assert top["host"] == "example.com" and top["scheme"] == "http"
    status, out = _query(capsys, db, "links-to", "HTTP://example.com:80/%61", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert status == 0 and len(rows) == 3
    assert {r["message_id"] for r in rows} == {"m1@example.org", "m3@example.org", ""}
    status, out = _query(capsys, db, "links-from", str(corpus / "a.txt"))
    assert status == 0 and "ftp://ftp.example.net/pub/" in out
    status, out = _query(capsys, db, "top", "--scheme", "mailto", "--format", "jsonl")
    assert [json.loads(line)["uri"] for line in out.splitlines()] == ["mailto:carol@example.org"]
    status, out = _query(capsys, db, "top", "--host", "EXAMPLE.com", "--by", "occurrences")
    assert [line.split() for line in out.splitlines()] == [
        ["documents", "occurrences", "scheme", "host", "key", "uri"],
        ["3", "3", "http", "example.com", "http://example.com/a", "http://example.com/a"],
        ["1", "2", "http", "example.com", "http://example.com/b", "http://example.com/b"],
    ]
    status, out = _query(capsys, db, "hosts", "--format", "jsonl")
    first = json.loads(out.splitlines()[0])
    assert first == {
        "host": "example.com",
        "uris": 2,
        "documents": 3,
        "links": 4,
        "occurrences": 5,
    }


def test_not_in_index(corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "links.db"
    assert _index(db, corpus) == 0
    capsys.readouterr()
    assert query_main([str(db), "links-to", "http://nowhere.example/"]) == 1
    assert query_main([str(db), "links-from", "nowhere.txt"]) == 1
    assert capsys.readouterr().err.count("not in the index") == 2


def test_uri_count_equals_extraction_keys(
    corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    inputs = [str(corpus)]
    if EASY_HAM.exists():
        inputs.append(str(EASY_HAM))
    db = tmp_path / "links.db"
    assert _index(db, *inputs) == 0
    keys = {r.hit.key for r in iter_records(inputs, Options())}
    records = sum(1 for _ in iter_records(inputs, Options()))
    stats = _stats(capsys, db)
    assert stats["uris"] == len(keys)
    assert stats["occurrences"] == records


def test_reindex_changes_nothing(
    corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "links.db"
    assert _index(db, corpus) == 0
    before, stats = _dump(db), _stats(capsys, db)
    assert _index(db, corpus, "-v") == 0
    assert "3 unchanged" in capsys.readouterr().err
    assert _dump(db) == before and _stats(capsys, db) == stats
    os.utime(corpus / "list.mbox")  # touched, not changed: read again, nothing rewritten
    assert _index(db, corpus, "-v") == 0
    assert "0 added, 0 replaced, 3 unchanged" in capsys.readouterr().err
    assert _stats(capsys, db) == stats


def test_parallel_equals_sequential(corpus: Path, tmp_path: Path) -> None:
    assert _index(tmp_path / "one.db", corpus) == 0
    assert _index(tmp_path / "two.db", corpus, "-j", "2") == 0
    assert _dump(tmp_path / "one.db") == _dump(tmp_path / "two.db")


def test_changed_file_replaces_its_links(
    corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "links.db"
    assert _index(db, corpus) == 0
    text = corpus / "a.txt"
    text.write_text("Now only https://new.example/x here.\n")
    os.utime(text, ns=(1, 1))
    assert _index(db, corpus) == 0
    _, out = _query(capsys, db, "links-from", str(text), "--format", "jsonl")
    assert [json.loads(line)["key"] for line in out.splitlines()] == ["https://new.example/x"]
    _, out = _query(capsys, db, "top", "-n", "100")
    assert "ftp.example.net" not in out  # its only link is gone, and so is the URI
    assert "https://new.example/x" in out
    fresh = tmp_path / "fresh.db"
    assert _index(fresh, corpus) == 0
    assert _doc_links(db) == _doc_links(fresh)
    assert _stats(capsys, db) == _stats(capsys, fresh)


def test_shrunk_mbox_loses_documents(
    corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "links.db"
    assert _index(db, corpus) == 0
    mbox = corpus / "list.mbox"
    mbox.write_text(MBOX[: MBOX.index("From carol")])
    assert _index(db, corpus) == 0
    assert _stats(capsys, db)["documents"] == 4
    assert ("mailto:carol@example.org", 1) not in set().union(*_doc_links(db).values())


def test_new_options_reindex(
    corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "links.db"
    assert _index(db, corpus) == 0
    assert _index(db, corpus, "--extra-scheme", "x-made-up", "-v") == 0
    assert "0 unchanged, 0 unreadable" in capsys.readouterr().err


def test_unreadable_input(corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    truncated = corpus / "cut.txt.gz"
    data = gzip.compress("".join(f"see http://cut.example/{i} ok\n" for i in range(9999)).encode())
    truncated.write_bytes(data[: len(data) // 2])
    missing = tmp_path / "missing.txt"
    db = tmp_path / "links.db"
    capsys.readouterr()
    assert _index(db, missing, corpus) == 2
    err = capsys.readouterr().err
    assert f"urimine: {missing}: " in err and f"urimine: {truncated}: " in err
    assert "Traceback" not in err
    stats = _stats(capsys, db)
    assert stats["incomplete_sources"] == 1  # the truncated file; the missing one not at all
    assert stats["sources"] == 4
    assert _index(db, corpus) == 2  # a source with an error is not skipped next time


def _refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], db: Path, message: str) -> None:
    data = db.read_bytes()
    capsys.readouterr()
    assert _index(db, tmp_path / "nothing.txt") == 2
    assert query_main([str(db), "stats"]) == 2
    err = capsys.readouterr().err
    assert f"urimine: {db}: {message}" in err and "Traceback" not in err
    assert db.read_bytes() == data


def test_foreign_files_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    foreign = tmp_path / "foreign.db"
    conn = sqlite3.connect(foreign)
    conn.execute("CREATE TABLE source (x)")
    conn.commit()
    conn.close()
    _refused(tmp_path, capsys, foreign, "not a urimine index")
    other_app = tmp_path / "other.db"
    conn = sqlite3.connect(other_app)
    conn.execute("PRAGMA application_id = 1234")
    conn.commit()
    conn.close()
    _refused(tmp_path, capsys, other_app, "not a urimine index")
    text = tmp_path / "notes.txt"
    text.write_text("just text\n" * 100)
    _refused(tmp_path, capsys, text, "not a urimine index")


def test_corrupt_refused(corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "links.db"
    assert _index(db, corpus) == 0
    good = db.read_bytes()
    db.write_bytes(good[: len(good) // 2])
    _refused(tmp_path, capsys, db, "is corrupt: ")
    db.write_bytes(good[:100] + b"\xa5" * 3996 + good[4096:])  # the schema page
    _refused(tmp_path, capsys, db, "is corrupt: ")


def test_other_versions_refused(
    corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "links.db"
    assert _index(db, corpus) == 0
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA user_version = 99")
    conn.commit()
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    _refused(tmp_path, capsys, db, "index format 99 is newer")


def test_blank_file_becomes_index(corpus: Path, tmp_path: Path) -> None:
    db = tmp_path / "links.db"
    db.write_bytes(b"")
    assert _index(db, corpus) == 0
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    conn.close()


# -- WARC records, spellings of one file, deleted files ---------------------------------------


def _warc_record(kind: str, number: int, block: bytes, target: str | None = None) -> bytes:
    """One WARC record in its own gzip member (the layout of crawls)."""
    fields = [
        "WARC/1.0",
        f"WARC-Type: {kind}",
        f"WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-{number:012d}>",
        "WARC-Date: 2024-01-01T00:00:00Z",
    ]
    if target is not None:
        fields.append(f"WARC-Target-URI: {target}")
    http = {"request": "request", "response": "response"}.get(kind)
    ctype = f"application/http; msgtype={http}" if http else "application/warc-fields"
    fields += [f"Content-Type: {ctype}", f"Content-Length: {len(block)}"]
    head = "\r\n".join(fields).encode() + b"\r\n\r\n"
    return gzip.compress(head + block + b"\r\n\r\n")


_PAGE = b"<html><body><a href='http://one.example/x'>x</a> see http://two.example/y</body></html>"
CRAWL = [  # warcinfo, then a request and its response, twice: documents are records 2 and 4
    ("warcinfo", b"software: test\r\nformat: WARC File Format 1.0\r\n", None),
    (
        "request",
        b"GET /a HTTP/1.1\r\nReferer: http://referer.example/\r\n\r\n",
        "http://site.example/a",
    ),
    (
        "response",
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + _PAGE,
        "http://site.example/a",
    ),
    ("request", b"GET /b HTTP/1.1\r\nHost: site.example\r\n\r\n", "http://site.example/b"),
    (
        "response",
        b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nsee http://three.example/z",
        "http://site.example/b",
    ),
]


def _write_crawl(path: Path, records: list[int]) -> None:
    path.write_bytes(
        b"".join(_warc_record(CRAWL[n][0], n, CRAWL[n][1], CRAWL[n][2]) for n in records)
    )


def test_warc_records_keep_their_links(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Documents of a WARC are numbered by record (only responses are documents here):
    every one is kept, with its links, alone and beside an mbox (whose first message
    must not get the WARC's links)."""
    crawl, mbox = tmp_path / "crawl.warc.gz", tmp_path / "list.mbox"
    _write_crawl(crawl, [0, 1, 2, 3, 4])
    mbox.write_text(MBOX)
    name = os.path.realpath(crawl)
    expected = {
        (name, 2): {("http://one.example/x", 1), ("http://two.example/y", 1)},
        (name, 4): {("http://three.example/z", 1)},
    }
    alone, both, mbox_only = tmp_path / "alone.db", tmp_path / "both.db", tmp_path / "mbox.db"
    capsys.readouterr()
    assert _index(alone, crawl, "-v") == 0
    assert "2 added, 0 replaced, 0 unchanged), 0 removed" in capsys.readouterr().err
    assert _doc_links(alone) == expected
    status, out = _query(capsys, alone, "links-from", str(crawl), "--format", "jsonl")
    rows = [json.loads(line) for line in out.splitlines()]
    assert status == 0 and {(r["doc_index"], r["record_id"], r["key"]) for r in rows} == {
        (2, "urn:uuid:00000000-0000-0000-0000-000000000002", "http://one.example/x"),
        (2, "urn:uuid:00000000-0000-0000-0000-000000000002", "http://two.example/y"),
        (4, "urn:uuid:00000000-0000-0000-0000-000000000004", "http://three.example/z"),
    }
    assert _index(both, crawl, mbox) == 0 and _index(mbox_only, mbox) == 0
    links = _doc_links(both)
    assert {doc: v for doc, v in links.items() if doc[0] == name} == expected
    assert {doc: v for doc, v in links.items() if doc[0] != name} == _doc_links(mbox_only)
    os.utime(crawl)  # read again: nothing removed, nothing rewritten
    assert _index(both, crawl, mbox, "-v") == 0
    assert "0 added, 0 replaced, 2 unchanged), 0 removed" in capsys.readouterr().err
    assert _doc_links(both) == links
    _write_crawl(crawl, [0, 3, 4])  # the first exchange dropped: record 4 is now record 2
    fresh = tmp_path / "fresh.db"
    assert _index(both, crawl, mbox) == 0 and _index(fresh, crawl, mbox) == 0
    assert _doc_links(both) == _doc_links(fresh)
    assert (name, 2) in _doc_links(both) and (name, 4) not in _doc_links(both)
    assert _stats(capsys, both) == _stats(capsys, fresh)


def test_one_file_under_several_spellings(
    corpus: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A file given as a.txt, ./a.txt, its absolute path, from another working
    directory, by a symbolic or a hard link, or found in a walk, is one source."""
    db = tmp_path / "links.db"
    text = corpus / "a.txt"
    (corpus / "sub").mkdir()
    (corpus / "link.txt").symlink_to(text)
    os.link(text, corpus / "hard.txt")
    monkeypatch.chdir(corpus)
    capsys.readouterr()
    assert _index(db, "a.txt", "./a.txt", str(text), "../in/a.txt", "link.txt", "-v") == 0
    err = capsys.readouterr().err
    assert err.count(f"the same file as {os.path.realpath(text)}, read once") == 4
    monkeypatch.chdir(corpus / "sub")
    assert _index(db, "../a.txt", "../hard.txt", "-v") == 0
    assert "1 sources (1 unchanged" in capsys.readouterr().err
    assert _index(db, corpus) == 0  # the walk meets a.txt, hard.txt and link.txt
    stats = _stats(capsys, db)
    fresh = tmp_path / "fresh.db"
    assert _index(fresh, corpus) == 0
    assert stats == _stats(capsys, fresh) and stats["sources"] == 3  # a.txt, empty.txt, mbox
    outputs = {
        _query(capsys, db, "links-from", spelling)
        for spelling in ("../a.txt", "./../hard.txt", "../link.txt", str(text))
    }
    assert len(outputs) == 1
    status, out = outputs.pop()
    rows = list(
        csv.DictReader(io.StringIO(_query(capsys, db, "links-from", str(text), "-f", "csv")[1]))
    )
    assert status == 0 and {r["source"] for r in rows} == {os.path.realpath(text)}
    assert "ftp://ftp.example.net/pub/" in out


def test_deleted_files_are_pruned(
    corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "links.db"
    (corpus / "old").mkdir()
    (corpus / "old" / "gone.txt").write_text("see https://gone.example/\n")
    assert _index(db, corpus) == 0
    (corpus / "a.txt").unlink()  # its ftp:// URI is nowhere else
    (corpus / "old" / "gone.txt").unlink()
    (corpus / "old").rmdir()
    assert _index(db, corpus, "--no-prune") == 0
    assert _stats(capsys, db)["sources"] == 4  # a.txt, empty.txt, list.mbox, old/gone.txt
    assert _query(capsys, db, "links-from", str(corpus / "a.txt"))[0] == 0
    assert _index(db, corpus / "old") == 2  # a root that does not exist prunes nothing
    assert _stats(capsys, db)["sources"] == 4
    capsys.readouterr()
    assert _index(db, corpus, "-v") == 0
    assert "0 unchanged), 2 removed, 2 sources pruned" in capsys.readouterr().err
    fresh = tmp_path / "fresh.db"
    assert _index(fresh, corpus) == 0
    assert _doc_links(db) == _doc_links(fresh)
    assert _stats(capsys, db) == _stats(capsys, fresh)
    _, out = _query(capsys, db, "top", "-n", "100")
    assert "ftp.example.net" not in out and "gone.example" not in out
    assert query_main([str(db), "links-from", str(corpus / "a.txt")]) == 1


def test_index_without_path_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert _index(tmp_path / "links.db") == 2
    err = capsys.readouterr().err
    assert err == "urimine: index: no PATH given (use - to read standard input)\n"
    assert not (tmp_path / "links.db").exists()


# -- a real corpus, killed at random moments -------------------------------------------------


def _run_indexer(db: Path, source: Path) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "urimine.index.cli", "index", str(db), str(source)]
    return subprocess.Popen([*cmd, "--batch", "300"], stderr=subprocess.DEVNULL)


def _check_partial(db: Path, clean: dict[tuple[str, int], set[tuple[str, int]]]) -> int:
    """After a kill: the file opens, is intact, and every document in it is whole."""
    if not db.exists():
        return 0
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    finally:
        conn.close()
    partial = _doc_links(db)
    for doc, links in partial.items():
        assert links == clean[doc], doc
    return len(partial)


def _documents(db: Path) -> int:
    """Documents committed so far to an index being written (0 before its first batch)."""
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            return int(conn.execute("SELECT count(*) FROM document").fetchone()[0])
        finally:
            conn.close()
    except sqlite3.Error:
        return 0


def _timed_run(db: Path, source: Path) -> tuple[float, float]:
    """Index *source* into *db*; when its first batch was committed and when it ended,
    in seconds after the start (watched from outside: the index is in WAL mode)."""
    proc = _run_indexer(db, source)
    started = time.monotonic()
    first = None
    while proc.poll() is None:
        if first is None and _documents(db):
            first = time.monotonic() - started
        time.sleep(0.005)
    assert proc.returncode == 0
    end = time.monotonic() - started
    return (first if first is not None else 0.0), end


def test_sigkill_then_rerun_equals_clean_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if not EASY_HAM.exists():
        pytest.skip("../shared corpora are not present")
    clean_db = tmp_path / "clean.db"
    # The kills fall between the clean run's first commit and its end: start-up (about
    # half of it) is no place to test, and a kill there finds nothing to check.
    first, end = _timed_run(clean_db, EASY_HAM)
    clean = _doc_links(clean_db)
    rnd = random.Random(4)
    seen: list[int] = []
    for attempt in range(3):
        db = tmp_path / f"killed{attempt}.db"
        for _ in range(2):  # killed twice, then completed
            proc = _run_indexer(db, EASY_HAM)
            time.sleep(first + rnd.uniform(0.0, 0.9) * (end - first))
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            seen.append(_check_partial(db, clean))
        assert _run_indexer(db, EASY_HAM).wait() == 0
        assert _stats(capsys, db) == _stats(capsys, clean_db)
        assert _query(capsys, db, "top", "-n", "100") == _query(
            capsys, clean_db, "top", "-n", "100"
        )
        assert _dump(db) == _dump(clean_db)
    assert any(0 < n < len(clean) for n in seen), seen  # some kills hit mid-run


def test_end_to_end_main_cli(corpus: Path, tmp_path: Path) -> None:
    urimine = [sys.executable, "-m", "urimine"]
    db = tmp_path / "links.db"
    built = subprocess.run([*urimine, "index", str(db), str(corpus)], timeout=120)
    assert built.returncode == 0
    out = subprocess.run(
        [*urimine, "query", str(db), "top", "-n", "1"], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0 and "http://example.com/a" in out.stdout
