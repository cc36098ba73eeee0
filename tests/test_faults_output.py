"""Output and process faults, run from the command line (issue 28).

Each case runs ``urimine`` as a subprocess in its own session (process group), with a
timeout, and asserts: the exit status; the one line on stderr (``urimine: write error:
REASON``, or nothing for a signal); no traceback; no file left in the output folder
(the temporary ``.NAME.XXXX.part`` of ``-o`` is removed); no process left in the group
(the worker processes of ``-j 2`` are stopped and reaped before urimine exits); and
what was still extracted where that is defined.
"""

from __future__ import annotations

import contextlib
import csv
import gzip
import io
import json
import multiprocessing
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import textwrap
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import pytest

from helpers import urimine_exe
from urimine.jobs import usable_cpus
from urimine.pipeline import Options, iter_records

TIMEOUT = 120  # seconds for any one run: generous, the machine may be busy


@dataclass
class Run:
    status: int
    out: bytes
    err: str


def _group_is_empty(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return True
    return False


def run(
    *args: str,
    stdin: bytes = b"",
    stdout: int | object = subprocess.PIPE,
    env: dict[str, str] | None = None,
    preexec_fn: Callable[[], None] | None = None,
    cwd: Path | None = None,
    exe: list[str] | None = None,
) -> Run:
    """Run urimine (or ``exe``) in a new session; check that no process of it is left."""
    proc = subprocess.Popen(
        [*(exe or [urimine_exe()]), *args],
        stdin=subprocess.PIPE,
        stdout=stdout,
        stderr=subprocess.PIPE,
        env={**os.environ, **(env or {})},
        preexec_fn=preexec_fn,
        cwd=cwd,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(stdin, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise
    assert _group_is_empty(proc.pid), "a process of the run is still alive"
    text = err.decode("utf-8", "backslashreplace")
    assert "Traceback" not in text, text
    return Run(proc.returncode, out or b"", text)


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """About 40 MB of text, a distinct URI on every line and a blank line every 50: many
    tasks for the workers of -j 2, and output from its first line on."""
    path = tmp_path_factory.mktemp("big") / "big.txt"
    with path.open("w", encoding="ascii") as fh:
        for block in range(12_000):
            fh.write(
                "".join(
                    f"line {i} see http://host{i % 977}.example/path/{i}?q={i * 7} ok\n"
                    for i in range(block * 50, block * 50 + 50)
                )
                + "\n"
            )
    return path


def full_device() -> str:
    """``/dev/full``: every write to it fails with ENOSPC (Linux, FreeBSD)."""
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    return "/dev/full"


# --- write errors -----------------------------------------------------------------------


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_dev_full(big: Path, jobs: str) -> None:
    """The error comes at the first 8 KiB of output, with the workers busy."""
    with open(full_device(), "wb") as full:
        res = run("--no-progress", "-j", jobs, str(big), stdout=full)
    assert res.status == 2
    assert res.err == "urimine: write error: No space left on device\n"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_dev_full_from_stdin(jobs: str) -> None:
    """``echo http://a.example/ | urimine > /dev/full``: the error at the final flush."""
    with open(full_device(), "wb") as full:
        res = run("--no-progress", "-j", jobs, stdin=b"http://a.example/\n", stdout=full)
    assert res.status == 2
    assert res.err == "urimine: write error: No space left on device\n"


@pytest.mark.parametrize("option", ["--help", "--version"])
def test_help_to_a_full_device(option: str) -> None:
    """argparse drops a write error of its own output; urimine reports it."""
    with open(full_device(), "wb") as full:
        res = run(option, stdout=full)
    assert res.status == 2
    assert res.err == "urimine: write error: No space left on device\n"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_closed_stdout(big: Path, jobs: str) -> None:
    res = run("--no-progress", "-j", jobs, str(big), stdout=None, preexec_fn=lambda: os.close(1))
    assert res.status == 2
    assert res.err == "urimine: write error: standard output is closed\n"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_stdout_that_cannot_encode(tmp_path: Path, jobs: str) -> None:
    """What came before the first URI the encoding cannot take is still written."""
    src = tmp_path / "in.txt"
    src.write_text("http://a.example/ then http://b.example/caf\u00e9 and http://c.example/\n")
    res = run("--no-progress", "-j", jobs, str(src), env={"PYTHONIOENCODING": "ascii"})
    assert res.status == 2
    assert res.out == b"http://a.example/\n"
    assert res.err == (
        "urimine: write error: the output encoding (ascii) cannot represent '\\xe9'\n"
    )


def _limit_file_size() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 16, 1 << 16))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # write() fails with EFBIG instead


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("existing", [False, True])
def test_file_size_limit_under_output(big: Path, tmp_path: Path, jobs: str, existing: bool) -> None:
    """A disk that fills, as RLIMIT_FSIZE makes it: the temporary file is removed and a
    file already under the name is left as it was."""
    folder = tmp_path / "out"
    folder.mkdir()
    target = folder / "out.txt"
    if existing:
        target.write_text("old content\n")
    res = run("--no-progress", "-j", jobs, "-o", str(target), str(big), preexec_fn=_limit_file_size)
    assert res.status == 2
    assert res.err == f"urimine: write error: {target}: File too large\n"
    assert res.out == b""
    assert sorted(p.name for p in folder.iterdir()) == (["out.txt"] if existing else [])
    if existing:
        assert target.read_text() == "old content\n"


def _tmpfs_runner(folder: Path) -> list[str]:
    """A command that runs ``sh -c`` in a private mount namespace (so a tmpfs mounted
    there vanishes with it), or skip when mounting one on ``folder`` is not allowed."""
    unshare = shutil.which("unshare")
    if unshare is None or not sys.platform.startswith("linux"):
        pytest.skip("needs unshare (Linux)")
    cmd = [unshare, "--mount"] if os.geteuid() == 0 else [unshare, "--mount", "--map-root-user"]
    probe = subprocess.run(
        [*cmd, "sh", "-c", 'mount -t tmpfs -o size=64k tmpfs "$1"', "sh", str(folder)],
        capture_output=True,
        timeout=30,
        check=False,
    )
    if probe.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {probe.stderr.decode(errors='replace')}")
    return [*cmd, "sh", "-c"]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_full_tmpfs_under_output(big: Path, tmp_path: Path, jobs: str) -> None:
    """A real file system that fills up (a 256 KiB tmpfs, in a private mount namespace):
    the folder is listed from inside, before the tmpfs goes away with the namespace."""
    folder = tmp_path / "mnt"
    folder.mkdir()
    script = textwrap.dedent(
        """\
        mount -t tmpfs -o size=256k tmpfs "$1" || exit 99
        "$2" --no-progress -j "$3" -o "$1/out.txt" "$4"
        status=$?
        ls -A "$1"
        exit $status
        """
    )
    res = run(script, "sh", str(folder), urimine_exe(), jobs, str(big), exe=_tmpfs_runner(folder))
    assert res.status == 2
    assert res.err == f"urimine: write error: {folder}/out.txt: No space left on device\n"
    assert res.out == b""  # nothing left in the full folder


# --- signals --------------------------------------------------------------------------


def _feed_then_signal(
    args: list[str], sig: signal.Signals, group: bool, data: bytes
) -> tuple[int, bytes, bytes]:
    """Start ``urimine ARGS`` reading stdin, write ``data`` to it (urimine has read
    nearly all of it once the write returns: the run is under way, stdin still open),
    then signal urimine alone or its whole process group (``kill PID``, ``kill -PGID``).
    The exit status, stdout and stderr (read all along, so that urimine never waits
    for its reader)."""
    proc = subprocess.Popen(
        [urimine_exe(), *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    assert proc.stdin and proc.stdout and proc.stderr
    out: list[bytes] = []
    err: list[bytes] = []
    readers = [
        threading.Thread(target=lambda: out.append(proc.stdout.read()), daemon=True),  # type: ignore[union-attr]
        threading.Thread(target=lambda: err.append(proc.stderr.read()), daemon=True),  # type: ignore[union-attr]
    ]
    for reader in readers:
        reader.start()
    feeder = threading.Thread(target=_write_quietly, args=(proc.stdin, data), daemon=True)
    feeder.start()
    feeder.join(TIMEOUT)
    try:
        assert not feeder.is_alive(), "urimine stopped reading its input"
        assert proc.poll() is None, "finished before it could be signalled"
        if group:
            os.killpg(proc.pid, sig)
        else:
            os.kill(proc.pid, sig)
        proc.wait(TIMEOUT)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    for reader in readers:
        reader.join(TIMEOUT)
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        with contextlib.suppress(BrokenPipeError):
            stream.close()
    assert _group_is_empty(proc.pid), "a process of the run is still alive"
    return proc.returncode, b"".join(out), b"".join(err)


def _write_quietly(stream: IO[bytes], data: bytes) -> None:
    with contextlib.suppress(BrokenPipeError):
        stream.write(data)
        stream.flush()


@pytest.fixture(scope="module")
def stream_data(big: Path) -> bytes:
    """8 MB of ``big``: a few tasks for the workers (a piece is about 2 MB) before the
    signal."""
    return big.read_bytes()[: 8 << 20]


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("group", [False, True])
@pytest.mark.parametrize("existing", [False, True])
def test_sigterm_during_output_file(
    tmp_path: Path, stream_data: bytes, jobs: str, group: bool, existing: bool
) -> None:
    target = tmp_path / "out.txt"
    if existing:
        target.write_text("old content\n")
    status, out, err = _feed_then_signal(
        ["--no-progress", "-j", jobs, "-o", str(target), "-"], signal.SIGTERM, group, stream_data
    )
    assert status == 143
    assert err == b"", err.decode(errors="replace")  # no worker tracebacks, nothing
    assert out == b""
    assert sorted(p.name for p in tmp_path.iterdir()) == (["out.txt"] if existing else [])
    if existing:
        assert target.read_text() == "old content\n"


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("group", [False, True])
def test_sigterm_to_stdout(stream_data: bytes, jobs: str, group: bool) -> None:
    """Whole lines of what was found before the signal, then exit 143 quietly."""
    status, out, err = _feed_then_signal(
        ["--no-progress", "-j", jobs, "-"], signal.SIGTERM, group, stream_data
    )
    assert status == 143
    assert err == b"", err.decode(errors="replace")
    lines = out.decode().splitlines(keepends=True)
    assert all(re.fullmatch(r"http://host\d+\.example/path/\d+\?q=\d+\n", x) for x in lines)


def test_sighup_is_handled_like_sigterm(tmp_path: Path, stream_data: bytes) -> None:
    target = tmp_path / "out.txt"
    status, _out, err = _feed_then_signal(
        ["--no-progress", "-j", "2", "-o", str(target), "-"], signal.SIGHUP, True, stream_data
    )
    assert status == 129
    assert err == b""
    assert list(tmp_path.iterdir()) == []


def test_sigterm_during_index(tmp_path: Path, stream_data: bytes) -> None:
    """``urimine index`` goes through the same signal handling and worker pool."""
    db = tmp_path / "links.db"
    status, _out, err = _feed_then_signal(
        ["index", "-j", "2", "--no-progress", str(db), "-"], signal.SIGTERM, True, stream_data
    )
    assert status == 143
    assert b"Traceback" not in err, err.decode(errors="replace")


# --- workers: every way a run with workers ends stops them ------------------------------

_FAULTY_WORKER = """
import multiprocessing, os, signal, sys
from dataclasses import dataclass
from urimine.errors import WorkerError
from urimine.pipeline import Options, iter_records

MAIN = os.getpid()


@dataclass(frozen=True)
class Faulty(Options):
    fault: str = "kill"

    def scanner(self):
        if os.getpid() != MAIN:  # in a worker: die, or raise
            if self.fault == "kill":
                os.kill(os.getpid(), signal.SIGKILL)
            raise RuntimeError("a fault in a worker")
        return super().scanner()


try:
    n = sum(1 for _ in iter_records([sys.argv[2]], Faulty(fault=sys.argv[1]), jobs=2))
except (WorkerError, RuntimeError) as exc:
    print(type(exc).__name__, exc)
else:
    print("no error", n)
print("children", len(multiprocessing.active_children()))
"""


@pytest.mark.parametrize(
    ("fault", "reported"),
    [
        ("kill", "WorkerError a worker process was killed by SIGKILL; the run cannot complete"),
        ("raise", "RuntimeError a fault in a worker"),
    ],
)
def test_a_worker_that_dies_or_raises_ends_the_run(big: Path, fault: str, reported: str) -> None:
    """A worker killed (as by the OOM killer) is reported instead of its result being
    awaited for good; an exception in a worker is raised in the caller; no worker is
    left either way."""
    res = run("-c", _FAULTY_WORKER, fault, str(big), exe=[sys.executable])
    assert res.status == 0, res.err
    assert res.out.decode().splitlines() == [reported, "children 0"]


def test_closing_the_records_early_stops_the_workers(big: Path) -> None:
    records = iter_records([str(big)], Options(), jobs=2)
    assert next(records).hit.uri.startswith("http://host0.example/")
    records.close()
    assert multiprocessing.active_children() == []


def test_stopping_one_run_leaves_another_runs_workers(big: Path, tmp_path: Path) -> None:
    """Two runs at once in one process: closing the first stops its workers only."""
    small = tmp_path / "small.txt"
    small.write_bytes(big.read_bytes()[: 6 << 20])
    first = iter_records([str(big)], Options(), jobs=2)
    second = iter_records([str(small)], Options(), jobs=2)
    next(first)
    head = next(second)
    first.close()
    rest = list(second)
    assert [head, *rest] == list(iter_records([str(small)], Options(), jobs=1))
    assert multiprocessing.active_children() == []


# --- arguments ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["--max-length", "1e23"], "--max-length"),
        (["--max-length", "100000000000000000000000"], "--max-length"),
        (["--max-length", "9" * 5000], "--max-length"),
        (["--max-length", "-1"], "--max-length"),
        (["--max-length", "0"], "--max-length"),
        (["--max-length", "15"], "--max-length"),
        (["--max-length", str((1 << 24) + 1)], "--max-length"),
        (["-j", "0"], "-j/--jobs"),
        (["-j", "-3"], "-j/--jobs"),
        (["-j", "1e3"], "-j/--jobs"),
        (["--extra-scheme", "a(b"], "--extra-scheme"),
        (["--extra-scheme", ""], "--extra-scheme"),
        (["--rules", ","], "--rules"),
        (["--rules", "nonsense"], "--rules"),
    ],
)
def test_absurd_arguments_are_usage_errors(args: list[str], option: str) -> None:
    res = run(*args, "-", stdin=b"http://a.example/\n")
    assert res.status == 2
    assert res.out == b""
    assert re.fullmatch(rf"urimine: {re.escape(option)}: \S[^\n]*\n", res.err), res.err


def test_largest_max_length_is_accepted() -> None:
    res = run("--max-length", str(1 << 24), "-", stdin=b"see http://a.example/x\n")
    assert res.status == 0
    assert res.out == b"http://a.example/x\n"


def test_too_many_jobs_are_capped_at_the_usable_cpus(tmp_path: Path) -> None:
    """-j far beyond the CPUs starts one worker per usable CPU (-v says so)."""
    src = tmp_path / "in.txt"
    src.write_text("see http://a.example/ and http://b.example/\n")
    res = run("--no-progress", "-v", "-j", "10000000", str(src))
    assert res.status == 0
    assert res.out == b"http://a.example/\nhttp://b.example/\n"
    cpus = usable_cpus()  # the affinity mask, and a cgroup's CPU quota
    assert f"urimine: -j 10000000: {cpus} worker processes, one per usable CPU\n" in res.err


# --- names that could harm a terminal or a spreadsheet ------------------------------------


def test_control_characters_in_names_are_escaped_on_stderr(tmp_path: Path) -> None:
    """No escape sequence, line break or bidirectional override from a file name reaches
    the terminal; what could be read of the file is still extracted."""
    cut = tmp_path / "cut\x1b]0;title\x07\x1b[2J\nnext\u202eline.txt.gz"
    cut.write_bytes(
        gzip.compress(b"see http://ok.example/a\n" + b"x" * 100_000 + b"\nhttp://late.example/\n")[
            :-40
        ]
    )
    missing = tmp_path / "gone\x9b31m.txt"
    res = run("--no-progress", str(cut), str(missing))
    assert res.status == 2
    assert res.out.decode().splitlines()[0] == "http://ok.example/a"
    lines = res.err.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith(
        f"urimine: {tmp_path}/cut\\x1b]0;title\\x07\\x1b[2J\\nnext\\u202eline"
    )
    assert lines[1] == f"urimine: {tmp_path}/gone\\x9b31m.txt: No such file or directory"
    assert not re.search("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202e]", res.err)


@pytest.mark.parametrize("fmt", ["text", "jsonl", "csv"])
@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("to_file", [False, True])
def test_non_utf8_file_names_in_every_format(
    tmp_path: Path, fmt: str, jobs: str, to_file: bool
) -> None:
    """A name that is not UTF-8 is written losslessly: JSON Lines as \\udcNN escapes
    (``os.fsencode(json.loads(...))`` gives the bytes back), CSV as \\xNN; stderr shows
    it escaped. Standard output is UTF-8 and strict here (the C locale would be lenient)."""
    folder = tmp_path / "in"
    folder.mkdir()
    name = os.fsencode(folder) + b"/caf\xe9.txt"
    with open(name, "wb") as fh:
        fh.write(b"see http://latin.example/\n")
    gone = os.fsdecode(os.fsencode(folder) + b"/gone\xff.txt")
    out = tmp_path / f"out.{fmt}"
    args = ["--no-progress", "-j", jobs, "-f", fmt, str(folder), gone]
    res = run(*args, *(["-o", str(out)] if to_file else []), env={"PYTHONIOENCODING": "utf-8"})
    assert res.status == 2
    assert res.err == f"urimine: {folder}/gone\\xff.txt: No such file or directory\n"
    written = out.read_bytes() if to_file else res.out
    text = written.decode("utf-8")  # the output is valid UTF-8 in every format
    if fmt == "text":
        assert text == "http://latin.example/\n"
    elif fmt == "jsonl":
        (row,) = map(json.loads, text.splitlines())
        assert os.fsencode(row["source"]) == name
        assert "\\udce9" in text
    else:
        (row,) = csv.DictReader(io.StringIO(text))
        assert row["source"] == f"{folder}/caf\\xe9.txt"
        assert row["uri"] == "http://latin.example/"


def test_csv_cells_that_could_be_formulas_are_guarded(tmp_path: Path) -> None:
    """OWASP CSV injection: a text cell starting with = + - @ gets a leading quote
    (file names, message ids); URIs never need it; JSON Lines stays exact."""
    names = ['=HYPERLINK("evil")+cmd|x.txt', "+1+2.txt", "-2-1.txt", "@SUM(A1).txt"]
    for i, name in enumerate(names):
        (tmp_path / name).write_text(f"see http://n{i}.example/\n")
    (tmp_path / "m.eml").write_text(
        "From: a@example.org\nMessage-ID: <=1+2@x.example>\nSubject: s\n\n"
        "body http://mail.example/\n"
    )
    args = ["--no-progress", "-j", "1", "--", *names, "m.eml"]
    rows = list(csv.DictReader(io.StringIO(run("-f", "csv", *args, cwd=tmp_path).out.decode())))
    assert [r["source"] for r in rows] == [
        "'" + names[0],
        "'" + names[1],
        "'" + names[2],
        "'" + names[3],
        "m.eml",
    ]
    assert [r["uri"] for r in rows] == [
        *(f"http://n{i}.example/" for i in range(4)),
        "http://mail.example/",
    ]
    assert rows[-1]["message_id"] == "'=1+2@x.example"
    exact = run("-f", "jsonl", *args, cwd=tmp_path).out.decode().splitlines()
    assert [json.loads(line)["source"] for line in exact] == [*names, "m.eml"]


# --- other closed or failing streams -----------------------------------------------------


def test_closed_stdin_is_an_input_error(tmp_path: Path) -> None:
    src = tmp_path / "in.txt"
    src.write_text("see http://a.example/\n")
    res = run("--no-progress", "-", str(src), preexec_fn=lambda: os.close(0))
    assert res.status == 2
    assert res.err == "urimine: -: standard input is closed\n"
    assert res.out == b"http://a.example/\n"


def test_closed_stderr_keeps_messages_out_of_the_output(tmp_path: Path) -> None:
    src = tmp_path / "in.txt"
    src.write_text("see http://a.example/\n")
    res = run("--no-progress", str(tmp_path / "missing"), str(src), preexec_fn=lambda: os.close(2))
    assert res.status == 2
    assert res.out == b"http://a.example/\n"


def test_query_write_errors(tmp_path: Path) -> None:
    """``urimine query`` reports a write error on stdout as one too."""
    db, src = tmp_path / "links.db", tmp_path / "a.txt"
    src.write_text("see http://a.example/ and http://b.example/\n")
    assert run("index", str(db), str(src)).status == 0
    with open(full_device(), "wb") as full:
        res = run("query", str(db), "top", stdout=full)
    assert res.status == 2
    assert res.err == "urimine: write error: No space left on device\n"
    res = run("query", str(db), "top", stdout=None, preexec_fn=lambda: os.close(1))
    assert res.status == 2
    assert res.err == "urimine: write error: standard output is closed\n"
    assert "http://a.example/" in run("query", str(db), "top").out.decode().split()
