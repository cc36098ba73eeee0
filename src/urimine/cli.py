"""The ``urimine`` command: extract URIs and URNs from files, archives and stdin.

Exit status: 0 when every input was read completely; 1 when the run finished but some
input could not be read (completely); 2 for a usage or configuration error; 130 when
interrupted. ``urimine index`` and ``urimine query`` are the link-index subcommands.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from urimine import __version__
from urimine.errors import ConfigError, SinkError, SourceError, UrimineError
from urimine.normalize import dedup_key
from urimine.pipeline import Options, Record, Stats, iter_records
from urimine.rules import ALL_RULES, PRESETS
from urimine.sinks import AtomicOutput, make_sink

__all__ = ["main"]

EXIT_OK, EXIT_INPUT, EXIT_USAGE, EXIT_INTERRUPT = 0, 1, 2, 130


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``urimine [OPTIONS] [PATH ...]``."""
    p = argparse.ArgumentParser(
        prog="urimine",
        description="Extract URIs and URNs from text, mail archives and WARC/WET files, "
        "delimited as the URI drafts recommend, deduplicated by normalised key.",
        epilog="Also: 'urimine index DB PATH...' builds a link index; "
        "'urimine query DB ...' queries it. Exit status: 0 all inputs read, "
        "1 some inputs could not be read completely, 2 usage error.",
    )
    p.add_argument("paths", nargs="*", metavar="PATH", help="file, directory or - (stdin)")
    p.add_argument("-o", "--output", help="write here (atomically) instead of stdout")
    p.add_argument("-f", "--format", choices=("text", "jsonl", "csv"), default="text")
    dedup = p.add_mutually_exclusive_group()
    dedup.add_argument("--all", action="store_true", help="every occurrence, not unique")
    dedup.add_argument("--per-document", action="store_true", help="unique within each document")
    p.add_argument(
        "--count", action="store_true", help="add occurrence and document counts per URI"
    )
    p.add_argument("--canonical", action="store_true", help="print the normalised form")
    p.add_argument("--strip-fragment", action="store_true", help="drop #fragments")
    p.add_argument("--scheme", help="only these schemes (comma-separated)")
    p.add_argument("--kind", help="only these kinds: uri, urn, urn-legacy (comma-separated)")
    p.add_argument(
        "--rules",
        default="default",
        help=f"preset ({', '.join(PRESETS)}) or comma-separated rules ({', '.join(ALL_RULES)})",
    )
    p.add_argument(
        "--extra-scheme",
        action="append",
        default=[],
        metavar="SCHEME",
        help="treat SCHEME as registered in bare text (repeatable)",
    )
    p.add_argument("--max-length", type=int, default=8192, help="longest candidate")
    p.add_argument("--encoding", help="text encoding of plain-text input (default UTF-8)")
    p.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    prog = p.add_mutually_exclusive_group()
    prog.add_argument("--progress", dest="progress", action="store_true", default=None)
    prog.add_argument("--no-progress", dest="progress", action="store_false")
    p.add_argument("-v", "--verbose", action="store_true", help="summary and defects")
    p.add_argument("--version", action="version", version=f"urimine {__version__}")
    return p


def _options(args: argparse.Namespace) -> Options:
    rules: str | tuple[str, ...] = args.rules
    if "," in args.rules or args.rules not in PRESETS:
        rules = tuple(r.strip() for r in args.rules.split(",") if r.strip())
    if args.jobs < 1:
        raise ConfigError("--jobs must be at least 1")
    unknown = _csv_set(args.kind) - {"uri", "urn", "urn-legacy"}
    if unknown:
        raise ConfigError(f"unknown --kind {', '.join(sorted(unknown))} (uri, urn, urn-legacy)")
    options = Options(rules, args.max_length, tuple(args.extra_scheme), args.encoding)
    options.scanner()  # validates the rules and the length now, not in a worker
    return options


class _Selector:
    """Filters, rewrites and deduplicates records into output rows."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.schemes = _csv_set(args.scheme)
        kinds = _csv_set(args.kind)
        if kinds and "urn" in kinds:
            kinds.add("urn-legacy")
        self.kinds = kinds
        self.strip_fragment = args.strip_fragment
        self.canonical = args.canonical
        self.mode = "all" if args.all else "document" if args.per_document else "global"
        self.seen: set[Any] = set()
        self.doc: tuple[str, int] | None = None

    def row(self, rec: Record) -> dict[str, Any] | None:
        """The output row for ``rec``, or None when filtered or a duplicate."""
        hit = rec.hit
        if self.schemes and hit.scheme not in self.schemes:
            return None
        if self.kinds and hit.kind not in self.kinds:
            return None
        uri, key = hit.uri, hit.key
        if self.strip_fragment and hit.kind == "uri" and "#" in uri:
            uri = uri.split("#", 1)[0]
            key = dedup_key(uri)
        if self.mode != "all":
            # Duplicates are dropped before their row is built: most hits are repeats.
            if self.mode == "document" and rec.document != self.doc:
                self.doc = rec.document
                self.seen.clear()
            if key in self.seen:
                return None
            self.seen.add(key)
        row = rec.as_dict()
        row["uri"] = key if self.canonical else uri
        row["key"] = key
        return row


def _csv_set(value: str | None) -> set[str]:
    return {v.strip().lower() for v in value.split(",") if v.strip()} if value else set()


class _Counter:
    """``--count``: occurrences and documents per key, rows kept in first-seen order."""

    def __init__(self) -> None:
        self.rows: dict[str, dict[str, Any]] = {}
        self.last_doc: dict[str, tuple[str, int]] = {}

    def add(self, row: dict[str, Any], doc: tuple[str, int]) -> None:
        key = row["key"]
        first = self.rows.get(key)
        if first is None:
            row["occurrences"] = 0
            row["documents"] = 0
            self.rows[key] = first = row
        first["occurrences"] += 1
        if self.last_doc.get(key) != doc:
            self.last_doc[key] = doc
            first["documents"] += 1


def _run(args: argparse.Namespace, out: TextIO, stats: Stats) -> int:
    options = _options(args)
    failed: list[SourceError] = []

    def on_error(err: SourceError) -> None:
        failed.append(err)
        print(f"urimine: {err.source}: {err.reason}", file=sys.stderr)

    def notice(msg: str) -> None:
        if args.verbose:
            print(f"urimine: {msg}", file=sys.stderr)

    selector = _Selector(args)
    if args.count:
        selector.mode = "all"
    sink = make_sink(out, args.format, counts=args.count)
    counter = _Counter() if args.count else None
    paths = args.paths or ["-"]
    with _progress_bar(args, paths) as progress:
        records = iter_records(
            paths,
            options,
            jobs=args.jobs,
            # Later occurrences of a key are never written in the default mode: let the
            # pipeline (and its workers) drop them before a record is even built.
            unique=selector.mode == "global",
            progress=progress,
            notice=notice,
            on_error=on_error,
            stats=stats,
        )
        for rec in records:
            row = selector.row(rec)
            if row is None:
                continue
            if counter is not None:
                counter.add(row, rec.document)
            else:
                stats.written += 1
                sink.write(row)
    if counter is not None:
        for row in counter.rows.values():
            stats.written += 1
            sink.write(row)
    return EXIT_INPUT if failed else EXIT_OK


class _progress_bar:
    """A tqdm bar in input bytes on stderr, only on a terminal unless forced."""

    def __init__(self, args: argparse.Namespace, paths: Sequence[str]) -> None:
        show = args.progress if args.progress is not None else sys.stderr.isatty()
        self.bar: Any = None
        if show:
            from tqdm import tqdm

            total = _total_size(paths)
            self.bar = tqdm(
                total=total or None, unit="B", unit_scale=True, file=sys.stderr, leave=False
            )

    def __enter__(self) -> Callable[[int], None] | None:
        return self.bar.update if self.bar is not None else None

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.close()


def _total_size(paths: Sequence[str]) -> int:
    total = 0
    for path in paths:
        if path == "-":
            continue
        if os.path.isdir(path):
            for root, _dirs, files in os.walk(path):
                total += sum(_size(os.path.join(root, f)) for f in files)
        else:
            total += _size(path)
    return total


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _summary(stats: Stats, elapsed: float, nbytes: int) -> str:
    rate = nbytes / elapsed / 1e6 if elapsed > 0 else 0.0
    return (
        f"urimine: {stats.inputs} inputs, {stats.documents} documents, {stats.hits} URIs, "
        f"{stats.written} written, {stats.defects} defects, {stats.errors} errors, "
        f"{nbytes / 1e6:.1f} MB in {elapsed:.2f} s ({rate:.1f} MB/s)"
    )


def main(argv: Sequence[str] | None = None) -> int:  # noqa: C901
    """Run the command line; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in ("index", "query"):
        from urimine.index import cli as index_cli

        return (
            index_cli.index_main(argv[1:]) if argv[0] == "index" else index_cli.query_main(argv[1:])
        )
    args = build_parser().parse_args(argv)
    stats = Stats(defect_messages=[] if args.verbose else None)
    started = time.perf_counter()
    target: AtomicOutput | None = None
    try:
        target = AtomicOutput(args.output) if args.output else None
        out = target.stream if target else sys.stdout
        status = _run(args, out, stats)
        if target:
            target.commit()
        else:
            sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_OK
    except KeyboardInterrupt:
        if target:
            target.abort()
        return EXIT_INTERRUPT
    except (ConfigError, SinkError) as exc:
        if target:
            target.abort()
        print(f"urimine: {exc}", file=sys.stderr)
        return EXIT_USAGE if isinstance(exc, ConfigError) else EXIT_INPUT
    except UrimineError as exc:
        if target:
            target.abort()
        print(f"urimine: {exc}", file=sys.stderr)
        return exc.exit_code
    if args.verbose:
        for msg in stats.defect_messages or ():
            print(f"urimine: {msg}", file=sys.stderr)
        nbytes = _total_size(args.paths or [])
        print(_summary(stats, time.perf_counter() - started, nbytes), file=sys.stderr)
    return status


def _silence_stdout() -> None:
    """After a broken pipe, point stdout at /dev/null so the exit flush stays quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except OSError:
        pass
