"""Benchmark of the link index: loader throughput and a real-corpus build with queries.

    python bench/index_bench.py [--links 1000000] [--corpora ../shared/corpora] [-j 1]
                                [--exclude SUBSTRING ...] [--skip-synthetic]

Part 1 feeds synthetic documents (10 links each, URIs drawn Zipf-like from a pool of
links/5 distinct URIs) straight into :class:`urimine.index.build.Loader`, twice: into an
empty index (bulk mode: ``link_uri`` dropped and rebuilt by a sort at the end) and then
the same number again into the now non-empty index (``link_uri`` maintained on every
insert). Part 2 indexes a corpus directory through the real pipeline, prints links/s,
MB/s of input and the index size, then times the queries.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from urimine.index import query as q
from urimine.index.build import Loader, build_index
from urimine.index.documents import Document, Event, FileEnd, FileStart
from urimine.index.schema import connect_read, connect_write
from urimine.model import Hit
from urimine.normalize import dedup_key
from urimine.pipeline import Options, iter_records
from urimine.sources import iter_inputs

_LINKS_PER_DOC = 10


def _hit(uri: str, start: int) -> Hit:
    return Hit(uri, uri, start, start + len(uri), 1, start + 1, "bare", "uri", "http", uri)


def _pool(size: int) -> list[str]:
    return [
        dedup_key(f"http://host{i % 997}.example/path/{i}?q={i * 7919 % 10007}")
        for i in range(size)
    ]


def synthetic_events(links: int, source: str, seed: int) -> Iterator[Event]:
    """One source with ``links / 10`` documents of 10 distinct links each."""
    rnd = random.Random(seed)
    pool = _pool(max(links // 5, _LINKS_PER_DOC))
    cum = list(itertools.accumulate(1 / (rank + 1) for rank in range(len(pool))))
    yield FileStart(source, None)
    docs = links // _LINKS_PER_DOC
    for index in range(docs):
        chosen: set[str] = set()
        while len(chosen) < _LINKS_PER_DOC:
            chosen.update(rnd.choices(pool, cum_weights=cum, k=_LINKS_PER_DOC - len(chosen)))
        doc = Document(source, index, None, None, None, hashlib.blake2b(digest_size=16))
        doc.feed(f"{source}#{index}")
        doc.links = {uri: (_hit(uri, n * 40), 1 + n % 3) for n, uri in enumerate(chosen)}
        yield doc
    yield FileEnd(source, docs)


def _timed(label: str, fn: Callable[[], object]) -> tuple[float, object]:
    started = time.perf_counter()
    result = fn()
    elapsed = time.perf_counter() - started
    print(f"  {label:<40} {elapsed * 1000:10.1f} ms")
    return elapsed, result


def bench_loader(links: int, workdir: Path) -> None:
    """Part 1: synthetic records into the loader, empty index then non-empty index."""
    db = workdir / "synthetic.db"
    print(f"synthetic: {links:,} links per round, {links // 5:,} distinct URIs in the pool")
    events = {
        name: list(synthetic_events(links, name, seed))
        for seed, name in enumerate(("round-1", "round-2"))
    }
    for name, evs in events.items():
        conn = connect_write(str(db))
        loader = Loader(conn, "bench")
        bulk = loader.bulk
        started = time.perf_counter()
        for event in evs:
            loader.handle(event)
        loader.close()
        elapsed = time.perf_counter() - started
        conn.close()
        mode = "empty index, bulk" if bulk else "non-empty index, link_uri kept"
        print(f"  {name} ({mode}): {elapsed:.2f} s, {links / elapsed:,.0f} links/s")
    print(f"  index size: {db.stat().st_size / 1e6:.1f} MB for {2 * links:,} links")


def _inputs(root: Path, exclude: list[str]) -> list[str]:
    return [p for p in iter_inputs([str(root)]) if not any(x in p for x in exclude)]


def bench_corpora(root: Path, workdir: Path, jobs: int, exclude: list[str]) -> None:
    """Part 2: index a corpus directory, then time the queries."""
    db = workdir / "corpora.db"
    paths = _inputs(root, exclude)
    size = sum(os.path.getsize(p) for p in paths)
    errors: list[str] = []
    conn = connect_write(str(db))
    started = time.perf_counter()
    summary = build_index(
        conn, paths, Options(), jobs=jobs, on_error=lambda e: errors.append(str(e))
    )
    elapsed = time.perf_counter() - started
    conn.close()
    skipped = f", excluding {', '.join(exclude)}" if exclude else ""
    print(f"corpora: {root}{skipped} ({size / 1e6:.1f} MB on disk, -j {jobs})")
    print(
        f"  {summary.sources} sources, {summary.documents:,} documents,"
        f" {summary.links:,} links in {elapsed:.2f} s: {summary.links / elapsed:,.0f} links/s,"
        f" {size / 1e6 / elapsed:.2f} MB/s; {len(errors)} unreadable"
    )
    print(f"  index size: {db.stat().st_size / 1e6:.1f} MB")
    started = time.perf_counter()
    hits = sum(1 for _ in iter_records(paths, Options(), jobs=jobs, on_error=lambda e: None))
    print(
        f"  extraction alone (iter_records, {hits:,} hits): {time.perf_counter() - started:.2f} s"
    )
    started = time.perf_counter()
    conn = connect_write(str(db))
    build_index(conn, paths, Options(), on_error=lambda e: None)
    conn.close()
    print(f"  re-index, nothing changed: {(time.perf_counter() - started) * 1000:.1f} ms")
    _bench_queries(db)


def _bench_queries(db: Path) -> None:
    conn = connect_read(str(db))
    _, rows = _timed("top -n 100", lambda: list(q.top(conn, 100)))
    assert isinstance(rows, list) and rows
    most = rows[0]["uri"]
    _timed(
        f"links-to (top URI, {rows[0]['documents']} docs)",
        lambda: list(q.links_to(conn, most) or ()),
    )
    rare = rows[-1]["uri"]
    _timed("links-to (100th URI)", lambda: list(q.links_to(conn, rare) or ()))
    _timed("top -n 100 --scheme https", lambda: list(q.top(conn, 100, scheme="https")))
    _timed("hosts -n 20", lambda: list(q.hosts(conn, 20)))
    _timed("stats", lambda: q.stats(conn))
    conn.close()


def main() -> int:
    """Run both parts in a temporary directory."""
    here = Path(__file__).resolve().parents[1]
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--links", type=int, default=1_000_000)
    p.add_argument("--corpora", type=Path, default=here.parent / "shared" / "corpora")
    p.add_argument("-j", "--jobs", type=int, default=1)
    p.add_argument("--skip-synthetic", action="store_true")
    p.add_argument(
        "--exclude", action="append", default=[], help="leave out inputs whose path has this"
    )
    args = p.parse_args()
    with tempfile.TemporaryDirectory(dir=os.environ.get("TMPDIR")) as tmp:
        if not args.skip_synthetic:
            bench_loader(args.links, Path(tmp))
        if args.corpora.is_dir():
            bench_corpora(args.corpora, Path(tmp), args.jobs, args.exclude)
        else:
            print(f"corpora: {args.corpora} not found, skipped", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
