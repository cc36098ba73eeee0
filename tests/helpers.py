"""Drivers that run the scanner over text in different chunkings and check invariants."""

from __future__ import annotations

import gc
import random
import shutil
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest

from urimine import Hit, Rejection, Scanner


def scan(chunks: Sequence[str], **options: object) -> list[Hit | Rejection]:
    """Feed ``chunks`` to a fresh scanner; check that every span slices back."""
    scanner = Scanner(**options)  # type: ignore[arg-type]
    out: list[Hit | Rejection] = []
    for chunk in chunks:
        out.extend(scanner.feed(chunk))
    out.extend(scanner.close())
    text = "".join(chunks)
    for item in out:
        assert text[item.start : item.end] == item.raw, item
    return out


def chunkings(text: str, seed: int = 0) -> Iterator[list[str]]:
    """The whole text, one character at a time, a few random splits and, for a short
    text, every split in two (the first chunk is scanned at once: a decision taken at
    its end must be the one the whole text gives)."""
    yield [text]
    yield list(text)
    if len(text) <= 300:
        for k in range(1, len(text)):
            yield [text[:k], text[k:]]
    rnd = random.Random(seed)
    for _ in range(3):
        cuts = (
            sorted(rnd.sample(range(1, len(text)), min(len(text) - 1, 40))) if len(text) > 1 else []
        )
        yield [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]


def hits(text: str, **options: object) -> list[Hit]:
    """Hits of ``text``, checked to be the same under every chunking."""
    whole = scan([text], **options)
    for parts in chunkings(text):
        assert scan(parts, **options) == whole, "chunking changed the result"
    return [h for h in whole if isinstance(h, Hit)]


def uris(text: str, **options: object) -> list[str]:
    """The URIs of every hit, in order, checked under every chunking."""
    return [h.uri for h in hits(text, **options)]


def urimine_exe() -> str:
    """The installed console script (beside this interpreter, else on PATH)."""
    beside = Path(sys.executable).with_name("urimine")
    if beside.exists():
        return str(beside)
    found = shutil.which("urimine")
    if found is None:
        pytest.skip("the urimine command is not installed")
    return found


def cpu_seconds(run: Callable[[], object], floor: float = 1e-4, runs: int = 5) -> float:
    """The CPU time of *run*, the least of *runs* (not below *floor*: a busy machine adds
    time, it never takes any away), after one run not timed (patterns compiled at first
    use): the timing tests (``-m perf``) compare such times as ratios, never as absolute
    bounds."""
    run()
    times = []
    for _ in range(runs):
        started = time.process_time()
        run()
        times.append(time.process_time() - started)
    return max(min(times), floor)


def cpu_ratio(run: Callable[[], object], reference: Callable[[], object], runs: int = 5) -> float:
    """The CPU time of *run* over that of *reference*, each the least of *runs* taken in
    turns (one of each per round, after one of each not timed): a load that comes and
    goes slows both alike, and a busy machine adds time, never takes any away."""
    run(), reference()
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(runs):
        for timed, spent in zip((run, reference), times, strict=True):
            gc.collect()
            started = time.process_time()
            timed()
            spent.append(time.process_time() - started)
    return max(min(times[0]), 1e-6) / max(min(times[1]), 1e-6)
