"""Hostile and broken inputs, run from the command line (issue 28, sources and containers).

Every case runs ``urimine`` as a subprocess with a timeout and checks the exit status,
the one-line message on stderr, that no traceback was printed, and what was still
extracted. The bombs are built in ``tmp_path`` at test time, streaming, and their peak
memory is measured on the child (``ru_maxrss`` of a wrapper's children).
"""

from __future__ import annotations

import base64
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

RSS_LIMIT_KB = 250_000
"""Peak memory allowed for any bomb: "well under 300 MB" (issue 28); reading the bombs
below whole took from 1 to 5 GB."""

WRAPPER = (
    "import resource, subprocess, sys\n"
    "code = subprocess.run(sys.argv[1:]).returncode\n"
    "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
    "print(f'PEAK_KB={peak}', file=sys.stderr)\n"
    "sys.exit(code)\n"
)
"""Runs a command and prints the peak RSS of it and its children (workers included)."""


def run(
    *args: str, timeout: float = 60, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """``urimine ARGS`` in a subprocess; stderr decoded with replacement (file names)."""
    quiet = [] if args[0] in ("index", "query") else ["--no-progress"]
    proc = subprocess.run(
        [sys.executable, "-m", "urimine", *quiet, *args],
        capture_output=True,
        timeout=timeout,
        check=False,
        cwd=cwd,
    )
    return subprocess.CompletedProcess(
        proc.args,
        proc.returncode,
        proc.stdout.decode("utf-8", "replace"),
        proc.stderr.decode("utf-8", "replace"),
    )


def measured(*args: str, timeout: float = 120) -> tuple[subprocess.CompletedProcess[str], int]:
    """``urimine ARGS`` under the wrapper: the process and its peak RSS in kB."""
    proc = subprocess.run(
        [sys.executable, "-c", WRAPPER, sys.executable, "-m", "urimine", "--no-progress", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    peak = re.search(r"PEAK_KB=(\d+)", proc.stderr)
    assert peak is not None, proc.stderr
    proc.stderr = proc.stderr.replace(peak.group(0) + "\n", "")
    return proc, int(peak.group(1))


def lines(text: str) -> list[str]:
    return text.splitlines()


def no_traceback(proc: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in proc.stderr, proc.stderr


def one_error(proc: subprocess.CompletedProcess[str], path: str | Path) -> str:
    """The only stderr line, which must name *path*; returns its reason."""
    no_traceback(proc)
    err = lines(proc.stderr)
    assert len(err) == 1, err
    prefix = f"urimine: {path}: "
    assert err[0].startswith(prefix), err
    return err[0][len(prefix) :]


def stored_gzip(data: bytes) -> bytes:
    """gzip without compression: a prefix of it decompresses to a prefix of *data*."""
    return gzip.compress(data, compresslevel=0, mtime=0)


def cut_inside(data: bytes, marker: bytes) -> bytes:
    """The longest prefix of ``stored_gzip(data)`` that decompresses to text ending in
    *marker* (a URI cut short)."""
    packed = stored_gzip(data)
    for n in range(len(packed), 0, -1):
        if zlib.decompressobj(31).decompress(packed[:n]).endswith(marker):
            return packed[:n]
    raise AssertionError("no such cut")


# ------------------------------------------------------------------ corrupt WARC members


def warc_record(n: int) -> bytes:
    body = f"record {n} http://rec{n}.example/ end\n".encode()
    head = (
        f"WARC/1.1\r\nWARC-Type: resource\r\nWARC-Record-ID: <urn:uuid:r{n}>\r\n"
        f"WARC-Target-URI: http://t.example/{n}\r\nContent-Type: text/plain\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body + b"\r\n\r\n"


def members() -> list[bytes]:
    """Four records, each its own gzip member (the per-record layout of crawls)."""
    return [gzip.compress(warc_record(n), mtime=0) for n in range(4)]


def corrupt_member(data: bytes) -> bytes:
    damaged = bytearray(data)
    for k in range(20, 40):  # in the deflate data, past the 10-byte header
        damaged[k] ^= 0xFF
    return bytes(damaged)


@pytest.fixture(params=["corrupt", "cut"])
def broken_warc(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    """A .warc.gz whose second member is damaged, or cut in half."""
    parts = members()
    if request.param == "corrupt":
        parts[1] = corrupt_member(parts[1])
    else:
        parts[1] = parts[1][: len(parts[1]) // 2]
    path = tmp_path / f"{request.param}.warc.gz"
    path.write_bytes(b"".join(parts))
    return path


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_broken_warc_member_is_an_error_and_later_records_are_read(
    broken_warc: Path, jobs: str
) -> None:
    proc = run("-j", jobs, str(broken_warc))
    assert proc.returncode == 2
    reason = one_error(proc, broken_warc)
    start = len(members()[0])
    assert re.fullmatch(rf"corrupt gzip member at byte {start}: .+; read on from byte \d+", reason)
    after = members()[2:]  # where the next good member starts
    assert int(reason.rsplit(" ", 1)[1]) == broken_warc.stat().st_size - sum(map(len, after))
    assert lines(proc.stdout) == [
        "http://rec0.example/",
        "http://rec2.example/",
        "http://rec3.example/",
    ]


def test_resync_needs_a_member_that_starts_a_warc_record(tmp_path: Path) -> None:
    """A gzip header inside the damaged stretch is not trusted unless its content starts
    a WARC record: a member of other text after the damage does not resume reading."""
    parts = members()
    stray = gzip.compress(b"not a record http://stray.example/\n", mtime=0)
    path = tmp_path / "stray.warc.gz"
    path.write_bytes(parts[0] + corrupt_member(parts[1]) + stray + parts[2])
    proc = run("-j", "1", str(path))
    assert proc.returncode == 2
    one_error(proc, path)
    assert lines(proc.stdout) == ["http://rec0.example/", "http://rec2.example/"]


def test_corrupt_gzip_text_is_not_resynchronised(tmp_path: Path) -> None:
    """Only WARC content is read past a broken member: a text has no record boundary to
    find again, and its reading stops at the damage, as before."""
    good = gzip.compress(b"one http://one.example/\n", mtime=0)
    path = tmp_path / "text.txt.gz"
    path.write_bytes(good + corrupt_member(gzip.compress(b"two http://two.example/\n" * 9)) + good)
    proc = run("-j", "1", str(path))
    assert proc.returncode == 2
    assert "corrupt gzip stream" in one_error(proc, path)
    assert lines(proc.stdout) == ["http://one.example/"]


SPARK_ARGS = ("--master", "local[1]", "--format", "jsonl", "--partitions", "1")


@pytest.mark.spark
def test_the_spark_job_reports_a_broken_warc_member(tmp_path: Path) -> None:
    pytest.importorskip("pyspark")
    if shutil.which("java") is None:
        pytest.skip("Java is not installed")
    parts = members()
    broken_warc = tmp_path / "corrupt.warc.gz"
    broken_warc.write_bytes(b"".join([parts[0], corrupt_member(parts[1]), *parts[2:]]))
    listing = tmp_path / "listing.txt"
    listing.write_text(f"{broken_warc}\n")
    out = tmp_path / "out"
    env = {**os.environ, "PYSPARK_PYTHON": sys.executable}
    proc = subprocess.run(
        [sys.executable, "-m", "urimine.spark", str(listing), str(out), *SPARK_ARGS],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env=env,
    )
    assert proc.returncode == 1, proc.stderr[-2000:]  # the Spark job keeps its statuses

    def rows(name: str) -> list[dict[str, str]]:
        files = sorted((out / name).glob("part-*"))
        return [json.loads(x) for f in files for x in f.read_text().splitlines()]

    (error,) = rows("errors")
    assert error["path"] == str(broken_warc)
    assert error["reason"].startswith("corrupt gzip member at byte")
    keys = {row["key"] for row in rows("uris")}
    assert {"http://rec0.example/", "http://rec2.example/", "http://rec3.example/"} <= keys


# ------------------------------------------------------------------ cut streams


CUT_CASES: dict[str, tuple[bytes, bytes, str]] = {
    # name: (content, where the cut ends, the URI decided before it)
    "cut.txt.gz": (
        b"first http://kept.example/ ok\n" + b"x" * 3000 + b" http://tr.example/\n",
        b"http://tr.ex",
        "http://kept.example/",
    ),
    "cut.mbox.gz": (
        b"From a@b Mon Jan  1 00:00:00 2024\nFrom: a@example.org\n\none http://one.example/\n\n"
        b"From b@c Mon Jan  1 00:00:00 2024\nFrom: b@example.org\n\n"
        b"kept http://kept.example/ then http://tr.example/path\n",
        b"http://tr.ex",
        "http://kept.example/",
    ),
    "cut.eml.gz": (
        b"From: a@example.org\nContent-Type: text/plain\n\n"
        b"kept http://kept.example/ then http://tr.example/path\n",
        b"http://tr.ex",
        "http://kept.example/",
    ),
    "cut.html.gz": (
        b"<html><body><p>kept http://kept.example/ and "
        b'<a href="http://tr.example/path">x</a></p></body></html>\n',
        b"http://tr.ex",
        "http://kept.example/",
    ),
}


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("name", sorted(CUT_CASES))
def test_a_cut_stream_gives_no_cut_uri(tmp_path: Path, name: str, jobs: str) -> None:
    content, end, kept = CUT_CASES[name]
    path = tmp_path / name
    path.write_bytes(cut_inside(content, end))
    other = tmp_path / "other.txt"
    other.write_bytes(b"next http://next.example/\n")
    proc = run("-j", jobs, str(path), str(other))
    assert proc.returncode == 2
    assert one_error(proc, path).startswith("truncated gzip stream")
    out = lines(proc.stdout)
    assert kept in out
    assert not any(uri.startswith("http://tr.ex") for uri in out), out
    assert out[-1] == "http://next.example/"


def test_a_cut_warc_record_gives_no_cut_uri(tmp_path: Path) -> None:
    body = b"record 7 http://rec7.example/ and http://tr.example/long/path\n"
    record = (
        b"WARC/1.1\r\nWARC-Type: resource\r\nWARC-Record-ID: <urn:uuid:r7>\r\n"
        b"Content-Type: text/plain\r\nContent-Length: %d\r\n\r\n" % len(body) + body
    )
    path = tmp_path / "cut.warc.gz"
    path.write_bytes(gzip.compress(warc_record(1), mtime=0) + cut_inside(record, b"http://tr.ex"))
    proc = run("-j", "1", str(path))
    assert proc.returncode == 2
    assert one_error(proc, path).startswith("truncated WARC record urn:uuid:r7: got ")
    assert lines(proc.stdout) == ["http://rec1.example/", "http://rec7.example/"]


def test_a_file_that_shrinks_while_read_is_an_error(tmp_path: Path) -> None:
    """The file is cut by another process while urimine is blocked writing its output
    (nobody reads the pipe yet): what was read comes out, then the error."""
    path = tmp_path / "shrinking.txt"
    with path.open("wb") as fh:
        for block in range(64):
            fh.write(b"".join(b"line http://s.example/%d/%d\n" % (block, i) for i in range(40000)))
    size = path.stat().st_size
    proc = subprocess.Popen(
        [sys.executable, "-m", "urimine", "--no-progress", "-j", "1", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        bufsize=0,  # communicate() reads the pipe itself: nothing may wait in a buffer
    )
    try:
        assert proc.stdout is not None and proc.stderr is not None
        first = proc.stdout.readline()  # it is reading: the file was opened and sized
        assert first.startswith(b"http://s.example/0/")
        os.truncate(path, size // 4)
        out, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == 2
    (line,) = err.decode().splitlines()
    assert re.fullmatch(
        rf"urimine: {re.escape(str(path))}: file shrank while being read: got \d+ of {size} bytes",
        line,
    )
    found = (first + out).decode().splitlines()
    assert len(found) > 100_000  # the part read before the cut
    assert all(re.fullmatch(r"http://s\.example/\d+/\d+", uri) for uri in found[:-1])


# ------------------------------------------------------------------ bombs


def gzip_file(path: Path, parts: Iterator[bytes]) -> Path:
    with gzip.open(path, "wb", compresslevel=1) as fh:
        for part in parts:
            fh.write(part)
    return path


FILLER = b"filler text " * 8 + b"\n"
MIB = FILLER * ((1 << 20) // len(FILLER))


def mbox_bomb(path: Path, mib: int) -> Iterator[bytes]:
    yield b"From a@b Mon Jan  1 00:00:00 2024\r\nFrom: a@example.org\r\nSubject: big\r\n\r\n"
    yield b"start http://bomb-start.example/\r\n"
    for _ in range(mib):
        yield MIB.replace(b"\n", b"\r\n")
    yield b"\r\nFrom b@c Mon Jan  1 00:00:00 2024\r\nFrom: b@example.org\r\n\r\n"
    yield b"next http://after-bomb.example/\r\n"


def base64_bomb(path: Path, mib: int) -> Iterator[bytes]:
    yield b"From: a@example.org\nMIME-Version: 1.0\n"
    yield b"Content-Type: multipart/mixed; boundary=xx\n\n--xx\nContent-Type: text/plain\n\n"
    yield b"first http://b64-first.example/\n--xx\nContent-Type: text/html; charset=utf-8\n"
    yield b"Content-Transfer-Encoding: base64\n\n"
    yield base64.encodebytes(b"<p>\xf0\x9f\x98\x80 http://b64-start.example/ " + b"x" * 57 * 99)
    chunk = base64.encodebytes(("\U0001f600 <b>x</b> " * 5700).encode())
    for _ in range(mib * (1 << 20) // len(chunk)):
        yield chunk
    yield b"--xx--\n"


def html_bomb(path: Path, mib: int) -> Iterator[bytes]:
    yield b"<html><body><p>start <a href='http://html-start.example/'>x</a>\n"
    for _ in range(mib):
        yield MIB.replace(b"filler", b"<i>fill</i>", 1)
    yield b"<a href='http://html-end.example/'>y</a></body></html>\n"


BOMBS: dict[str, tuple[Callable[[Path, int], Iterator[bytes]], int, list[str]]] = {
    "bomb.mbox.gz": (mbox_bomb, 256, ["http://bomb-start.example/", "http://after-bomb.example/"]),
    "bomb.eml.gz": (base64_bomb, 256, ["http://b64-first.example/", "http://b64-start.example/"]),
    "bomb.html.gz": (html_bomb, 48, ["http://html-start.example/", "http://html-end.example/"]),
}


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("name", sorted(BOMBS))
def test_bombs_stay_in_bounded_memory(tmp_path: Path, name: str, jobs: str) -> None:
    make, mib, expected = BOMBS[name]
    path = gzip_file(tmp_path / name, make(tmp_path, mib))
    after = tmp_path / "after.txt"
    after.write_bytes(b"later http://later.example/\n")
    proc, peak = measured("-j", jobs, "-v", str(path), str(after), timeout=300)
    no_traceback(proc)
    assert proc.returncode == 0, proc.stderr
    assert peak < RSS_LIMIT_KB, f"{name}: peak RSS {peak} kB"
    assert lines(proc.stdout) == [*expected, "http://later.example/"]
    if name != "bomb.html.gz":  # a file is streamed whole; a message is capped
        assert "larger than 16 MiB: read up to there" in proc.stderr
        assert "larger than 8 MiB: read up to there" in proc.stderr


# ------------------------------------------------------------------ charsets and codecs


def test_punycode_and_other_non_text_charsets_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "puny.mbox"
    body = b"http://puny.example/ " + b"-" + b"z9" * (1 << 19) + b"\n"
    messages = [
        b"From a@b Mon Jan  1 00:00:00 2024\nFrom: a@example.org\n"
        b"Content-Type: text/plain; charset=%s\n\n" % charset + body.replace(b"puny", charset)
        for charset in (b"punycode", b"idna", b"rot13", b"zlib", b"hex", b"uu")
    ]
    path.write_bytes(b"".join(messages))
    proc = run("-j", "1", "-v", str(path), timeout=60)
    no_traceback(proc)
    assert proc.returncode == 0
    assert lines(proc.stdout) == [
        f"http://{c}.example/" for c in ("punycode", "idna", "rot13", "zlib", "hex", "uu")
    ]
    for charset in ("punycode", "idna", "rot13", "zlib", "hex", "uu"):
        assert f"unknown charset '{charset}'" in proc.stderr


@pytest.mark.parametrize("codec", ["idna", "punycode", "rot13", "hex", "base64", "zlib", "uu"])
def test_encoding_option_refuses_codecs_that_are_not_text_encodings(codec: str) -> None:
    proc = run("--encoding", codec, "-")
    assert proc.returncode == 2
    assert lines(proc.stderr) == [f"urimine: --encoding: unknown text encoding '{codec}'"]


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("codec", ["utf-16", "utf-32"])
def test_encoding_that_does_not_fit_a_file_is_an_input_error(
    tmp_path: Path, codec: str, jobs: str
) -> None:
    wrong = tmp_path / "utf8.txt"
    wrong.write_bytes("odd café http://enc.example/ x\n".encode())
    right = tmp_path / "right.txt"
    right.write_bytes(f"fits http://{codec}.example/\n".encode(codec))  # with a byte-order mark
    proc = run("-j", jobs, "--encoding", codec, str(wrong), str(right))
    assert proc.returncode == 2
    assert one_error(proc, wrong).startswith(f"cannot decode as {codec}: ")
    assert lines(proc.stdout) == [f"http://{codec}.example/"]


def test_meta_utf16_over_utf8_bytes_means_utf8(tmp_path: Path) -> None:
    """HTML: "If charset is UTF-16BE/LE, then set charset to UTF-8" (the prescan of
    "determining the character encoding"): in a file, a mail part and a WARC record."""
    html = (
        '<html><head><meta charset="utf-16le"></head><body>café '
        '<a href="http://{0}.example/é">x</a> http://{0}-text.example/</body></html>\n'
    )
    page = tmp_path / "page.html"
    page.write_text(html.format("file"), encoding="utf-8")
    mail = tmp_path / "part.eml"
    mail.write_bytes(
        b"From: a@example.org\nContent-Type: text/html\n\n" + html.format("mail").encode()
    )
    http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + html.format("warc").encode()
    record = (
        b"WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:m>\r\n"
        b"Content-Type: application/http; msgtype=response\r\n"
        b"Content-Length: %d\r\n\r\n" % len(http) + http + b"\r\n\r\n"
    )
    warc = tmp_path / "page.warc"
    warc.write_bytes(record)
    proc = run("-j", "1", str(page), str(mail), str(warc))
    assert proc.returncode == 0, proc.stderr
    no_traceback(proc)
    assert lines(proc.stdout) == [
        uri
        for kind in ("file", "mail", "warc")
        for uri in (f"http://{kind}.example/é", f"http://{kind}-text.example/")
    ]


# ------------------------------------------------------------------ binary files and NULs


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_stray_nul_does_not_make_text_binary(tmp_path: Path, jobs: str) -> None:
    text = tmp_path / "nul.txt"
    text.write_bytes(b"before http://before.example/ \x00 after http://after.example/\n")
    mail = tmp_path / "nul.eml"
    mail.write_bytes(b"From: a@example.org\nSubject: s\n\nmsg http://msg.example/ \x00\x00 x\n")
    proc = run("-j", jobs, str(text), str(mail))
    assert proc.returncode == 0
    assert proc.stderr == ""
    assert lines(proc.stdout) == [
        "http://before.example/",
        "http://after.example/",
        "http://msg.example/",
    ]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_binary_files_are_counted_on_stderr(tmp_path: Path, jobs: str) -> None:
    png = tmp_path / "a.png"
    png.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR http://png.example/")
    noise = tmp_path / "b.bin"
    noise.write_bytes(bytes(range(256)) * 64 + b" http://noise.example/")
    text = tmp_path / "c.txt"
    text.write_bytes(b"text http://text.example/\n")
    proc = run("-j", jobs, str(tmp_path))
    assert proc.returncode == 0
    assert lines(proc.stderr) == ["urimine: 2 files were skipped as binary (-v lists them)"]
    assert lines(proc.stdout) == ["http://text.example/"]
    verbose = run("-j", jobs, "-v", str(tmp_path))
    assert f"urimine: {png}: binary file skipped" in verbose.stderr
    assert f"urimine: {noise}: binary file skipped" in verbose.stderr
    assert "urimine: 2 files were skipped as binary\n" in verbose.stderr


def test_a_binary_part_inside_a_mail_is_not_counted(tmp_path: Path) -> None:
    mail = tmp_path / "m.eml"
    mail.write_bytes(
        b"From: a@example.org\nContent-Type: multipart/mixed; boundary=b\n\n--b\n"
        b"Content-Type: text/plain\n\nsee http://mail.example/\n--b\n"
        b"Content-Type: image/png\nContent-Transfer-Encoding: base64\n\n"
        + base64.encodebytes(b"\x89PNG\r\n\x1a\n\x00\x00")
        + b"--b--\n"
    )
    proc = run("-j", "1", str(mail))
    assert proc.returncode == 0
    assert proc.stderr == ""
    assert lines(proc.stdout) == ["http://mail.example/"]


# ------------------------------------------------------------------ MIME nesting


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_parts_nested_too_deep_are_a_defect(tmp_path: Path, jobs: str) -> None:
    deep = b"From: a@example.org\nContent-Type: multipart/mixed; boundary=b0\n\n"
    deep += b"--b0\nContent-Type: text/plain\n\nshallow http://shallow.example/\n"
    for i in range(1, 40):
        deep += f"--b{i - 1}\nContent-Type: multipart/mixed; boundary=b{i}\n\n".encode()
    deep += b"--b39\nContent-Type: text/plain\n\nhttp://deep.example/\n"
    path = tmp_path / "deep.eml"
    path.write_bytes(deep)
    proc = run("-j", jobs, "-v", str(path))
    assert proc.returncode == 0
    no_traceback(proc)
    assert lines(proc.stdout) == ["http://shallow.example/"]
    assert re.search(r"MIME nesting deeper than 32 at part [\d.]+: skipped", proc.stderr)
    summary = lines(proc.stderr)[-1]
    assert re.search(r" [1-9]\d* defects,", summary), summary


# ------------------------------------------------------------------ trees and Maildirs


@pytest.mark.parametrize("command", ["extract", "index"])
def test_a_fifo_in_a_tree_is_not_read(tmp_path: Path, command: str) -> None:
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "a.txt").write_bytes(b"http://tree-a.example/\n")
    os.mkfifo(tree / "b.fifo")
    (tree / "c.txt").write_bytes(b"http://tree-c.example/\n")
    if command == "extract":
        proc = run("-j", "2", str(tree), timeout=30)
        assert lines(proc.stdout) == ["http://tree-a.example/", "http://tree-c.example/"]
    else:
        db = tmp_path / "links.db"
        proc = run("index", str(db), str(tree), timeout=30)
        query = run("query", str(db), "links-from", str(tree / "c.txt"), timeout=30)
        assert "http://tree-c.example/" in query.stdout
    assert proc.returncode == 0, proc.stderr
    no_traceback(proc)


def test_a_fifo_named_on_the_command_line_is_read(tmp_path: Path) -> None:
    fifo = tmp_path / "named.fifo"
    os.mkfifo(fifo)
    proc = subprocess.Popen(
        [sys.executable, "-m", "urimine", "--no-progress", str(fifo)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        with fifo.open("wb") as fh:
            fh.write(b"through a pipe http://fifo.example/\n")
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert out.decode().splitlines() == ["http://fifo.example/"]


def test_a_non_utf8_file_name_is_read(tmp_path: Path) -> None:
    folder = os.fsencode(tmp_path / "names")
    os.mkdir(folder)
    with open(os.path.join(folder, b"caf\xe9.txt"), "wb") as fh:
        fh.write(b"named http://latin1-name.example/\n")
    proc = run("-j", "1", str(tmp_path / "names"))
    assert proc.returncode == 0, proc.stderr
    no_traceback(proc)
    assert lines(proc.stdout) == ["http://latin1-name.example/"]


def test_an_unreadable_maildir_message_is_named_and_the_rest_read(tmp_path: Path) -> None:
    box = tmp_path / "box"
    for sub in ("cur", "new", "tmp"):
        (box / sub).mkdir(parents=True)
    (box / "cur" / "1:2,S").write_bytes(b"From: a@example.org\n\nhttp://md1.example/\n")
    (box / "cur" / "2:2,S").mkdir()  # not a message file
    (box / "cur" / "3:2,S").symlink_to(tmp_path / "gone")  # dangling: removed meanwhile
    (box / "new" / "4").write_bytes(b"From: a@example.org\n\nhttp://md4.example/\n")
    proc = run("-j", "1", str(box))
    assert proc.returncode == 2
    reason = one_error(proc, box / "cur" / "2:2,S")
    assert reason == f"not a regular file (and 1 more unreadable messages in {box})"
    assert lines(proc.stdout) == ["http://md1.example/", "http://md4.example/"]
    verbose = run("-j", "1", "-v", str(box))
    assert f"urimine: {box / 'cur' / '3:2,S'}: No such file or directory" in verbose.stderr
