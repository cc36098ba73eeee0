"""Input errors met inside a worker process, from the command line (issue 29).

With ``-j 2`` a large plain file is read by the workers in byte ranges. An error one of
them meets (the file shrank since it was opened, the file cannot be opened any more) is
an input error like any other: one line naming the file, what was read before it still
extracted, the run going on with the next input, exit status 1, no traceback.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest


def _big_file(path: Path) -> int:
    """72 MB of unique URIs, a blank line every 1,000 lines (where ranges may be cut)."""
    with path.open("wb") as fh:
        for block in range(64):
            for part in range(40):
                lines = (
                    b"line http://s.example/%d/%d/%d\n" % (block, part, i) for i in range(1000)
                )
                fh.write(b"".join(lines) + b"\n")
    return path.stat().st_size


def _run_and_break(
    big: Path, after: Path, damage: Callable[[], None]
) -> tuple[int, list[str], list[str]]:
    """``urimine -j 2 BIG AFTER``, ``damage()`` done once output has started (urimine
    is then blocked writing, nobody reading its output yet): exit status, stdout lines,
    stderr lines."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "urimine", "--no-progress", "-j", "2", str(big), str(after)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        assert proc.stdout is not None
        first = os.read(proc.stdout.fileno(), 1 << 16)  # unbuffered: communicate() reads on
        assert first.startswith(b"http://s.example/0/")
        damage()
        out, err = proc.communicate(timeout=300)
    finally:
        proc.kill()
        proc.wait(timeout=60)
    return proc.returncode, (first + out).decode().splitlines(), err.decode().splitlines()


@pytest.fixture
def inputs(tmp_path: Path) -> tuple[Path, int, Path]:
    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("-j 2 needs two usable CPUs")
    big = tmp_path / "big.txt"
    size = _big_file(big)
    after = tmp_path / "after.txt"
    after.write_text("the next input: http://after.example/\n", "utf-8")
    return big, size, after


def test_a_file_that_shrinks_under_the_workers_is_an_input_error(
    inputs: tuple[Path, int, Path],
) -> None:
    big, size, after = inputs
    status, out, err = _run_and_break(big, after, lambda: os.truncate(big, size // 4))
    assert status == 2  # an input error (issue 32: grep's 2)
    (line,) = err
    assert re.fullmatch(rf"urimine: {re.escape(str(big))}: file shrank while being read: .*", line)
    assert out[-1] == "http://after.example/"  # the run went on
    found = out[:-1]
    assert len(found) > 100_000  # what was read before the cut
    assert all(re.fullmatch(r"http://s\.example/\d+/\d+/\d+", uri) for uri in found)
    assert len(set(found)) == len(found)


def test_a_file_the_workers_cannot_open_is_an_input_error(
    inputs: tuple[Path, int, Path],
) -> None:
    """The workers open the file by its name: once it is removed, the ranges not read
    yet cannot be."""
    big, _size, after = inputs
    status, out, err = _run_and_break(big, after, big.unlink)
    assert status == 2
    assert err == [f"urimine: {big}: No such file or directory"]
    assert out[-1] == "http://after.example/"
    assert len(out) > 100_000
