"""Worker processes change nothing: ``iter_records(jobs=2)`` gives the records of
``jobs=1``, field by field, for texts that are cut into many pieces (issue 5: -j).

Plain UTF-8 files are read by the workers themselves, in byte ranges that end after a
blank line (:mod:`urimine.parallel`); the task sizes are made small here
(:class:`~urimine.parallel.TaskSizes`) so that a small file has many ranges, and the
no-blank-line limit small so that the fallback (scan the rest in the main process) is
exercised too.
"""

from __future__ import annotations

import bisect
import gzip
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from urimine import sources
from urimine.parallel import TaskSizes
from urimine.parallel.cut import from_line_after
from urimine.pipeline import Options, Record, Stats, iter_records
from urimine.sources import SMALL_FILE

SMALL = TaskSizes(text=2048, file_range=16384, blank_line_limit=8192)
"""Tasks small enough that the files of these tests are cut into many."""

PARAGRAPHS = [
    "See http://example.org/a?b=c#d and <URL:ftp://ftp.example.net/pub/file.txt>.\n",
    "Ünïcödé text → <http://example.com/wrapped-\n  line> and (https://x.example/y).\n",
    "Windows line ends: mailto:someone@example.org\r\n",
    "urn:isbn:0451450523 and <URN:ASCII:IANA:example:1> then http://example.org/a\n",
    "> quoted <http://quoted.example/\n> continued/path> x\n",
    "a very long line without blank lines " * 40 + "http://long.example/\n",
    "repeat: http://example.org/a http://EXAMPLE.org/%61 http://example.org/a\n",
]


def _text(seed: int, paragraphs: int = 400) -> str:
    rnd = random.Random(seed)
    out = []
    for _ in range(paragraphs):
        out.append(rnd.choice(PARAGRAPHS))
        out.append(rnd.choice(["\n", "\r\n", "", "", "\n\n"]))
    return "".join(out)


def _large(seed: int) -> str:
    """A text larger than the files read whole (``SMALL_FILE``): workers read its ranges."""
    text = _text(seed, 2000)
    while len(text) <= SMALL_FILE:
        text += _text(seed + len(text), 1000)
    return text


def _records(path: Path, jobs: int, unique: bool = False) -> tuple[list[Record], int]:
    stats = Stats()
    recs = list(
        iter_records(
            [str(path)], Options(), jobs=jobs, unique=unique, stats=stats, task_sizes=SMALL
        )
    )
    return recs, stats.hits


@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"])
@pytest.mark.parametrize(("seed", "make"), [(1, _text), (2, _large)])
def test_files_give_the_sequential_records(
    tmp_path: Path, seed: int, make: Callable[[int], str], bom: bytes
) -> None:
    """A small file (read whole, its text cut into pieces) and a large one (byte ranges
    the workers read themselves)."""
    path = tmp_path / "doc.txt"
    path.write_bytes(bom + make(seed).encode("utf-8") + b"\xff\xfe broken bytes\n")
    one, hits_one = _records(path, 1)
    two, hits_two = _records(path, 2)
    assert len(one) > 100
    assert two == one
    assert hits_two == hits_one == len(one)


@pytest.mark.parametrize("flat", [2000, 40000])
def test_text_without_blank_lines_falls_back_to_the_main_process(tmp_path: Path, flat: int) -> None:
    """Of a small file's text, and after the ranges of a large file."""
    text = _text(3, 50) + "no blank line here http://tail.example/x\n" * flat + _text(4, 50)
    path = tmp_path / "doc.txt"
    path.write_text(text, "utf-8")
    one, _ = _records(path, 1)
    two, _ = _records(path, 2)
    assert two == one
    breaks = [i for i, c in enumerate(text) if c == "\n"]
    for rec in two:  # offsets and lines are those of the whole text
        h = rec.hit
        assert text[h.start : h.end] == h.raw
        assert bisect.bisect_left(breaks, h.start) + 1 == h.line


def test_several_files_each_start_at_line_one(tmp_path: Path) -> None:
    paths = []
    for seed in (5, 6, 7):
        path = tmp_path / f"doc{seed}.txt"
        path.write_text(_text(seed, 100), "utf-8")
        paths.append(str(path))
        # then a file with no blank line at all: scanned in the main process from its start
        path = tmp_path / f"flat{seed}.txt"
        path.write_text("flat text http://flat.example/p\n" * 4000, "utf-8")
        paths.append(str(path))
    one = list(iter_records(paths, Options(), jobs=1))
    two = list(iter_records(paths, Options(), jobs=2, task_sizes=SMALL))
    assert two == one
    firsts = {r.source: r.hit.line for r in reversed(one)}
    assert len(firsts) == 6
    assert all(line <= 3 for line in firsts.values())


@pytest.mark.parametrize("jobs", [1, 2])
def test_unique_keeps_the_first_record_of_each_key(tmp_path: Path, jobs: int) -> None:
    path = tmp_path / "doc.txt"
    path.write_text(_text(8), "utf-8")
    every, hits = _records(path, 1)
    first: dict[str, Record] = {}
    for rec in every:
        first.setdefault(rec.hit.key, rec)
    unique, unique_hits = _records(path, jobs, unique=True)
    assert unique == list(first.values())
    assert unique_hits == hits


def _mbox(messages: int) -> bytes:
    out = []
    for i in range(messages):
        body = f"Body {i}: see http://example.org/{i % 7} and <https://lists.example/{i}>\n"
        if i % 5 == 0:
            body += ">From the archive: ftp://ftp.example.net/x\n"
        out.append(
            f"From someone@example.org Mon Jan  1 00:00:0{i % 10} 2001\n"
            f"From: someone@example.org\nSubject: m{i}\nList-Archive: <http://arch.example/{i}>\n"
            f"Message-ID: <m{i}@example.org>\n\n{body}\n"
        )
    return "".join(out).encode()


@pytest.mark.parametrize("compressed", [False, True])
@pytest.mark.parametrize("unique", [False, True])
def test_mbox_stretches_give_the_sequential_records(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    unique: bool,
    compressed: bool,
) -> None:
    """Workers split stretches of an mbox themselves (byte ranges they read of a plain
    file; stretches the main process cut from a compressed one); messages keep their
    numbers."""
    monkeypatch.setattr(sources, "MBOX_BATCH", 3000)
    path = tmp_path / ("list.mbox.gz" if compressed else "list.mbox")
    messages = 6000 if not compressed else 200  # a plain one larger than SMALL_FILE
    data = _mbox(messages)
    assert compressed or len(data) > SMALL_FILE
    path.write_bytes(gzip.compress(data) if compressed else data)
    one, hits_one = _records(path, 1, unique)
    stats = Stats()
    two = list(
        iter_records([str(path)], Options(), jobs=2, unique=unique, stats=stats, task_sizes=SMALL)
    )
    assert two == one
    assert stats.hits == hits_one
    assert stats.documents == messages
    assert {r.doc_index for r in two} == set(range(messages))


def test_mbox_range_cuts_fall_before_from_lines(tmp_path: Path) -> None:
    """The cut search finds a "From " line that a block boundary splits."""
    data = _mbox(50)
    path = tmp_path / "m.mbox"
    path.write_bytes(data)
    starts = [i + 1 for i in range(len(data)) if data.startswith(b"\nFrom ", i)]
    with path.open("rb") as fh:
        for pos in range(1, len(data), 37):
            want = next((s for s in starts if s >= pos), len(data))
            assert from_line_after(fh, pos, len(data)) == want
