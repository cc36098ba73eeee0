"""``urimine index`` and ``urimine query``: their sub-parsers, messages and exit status.

Exit status of ``urimine index``: 0 when every input was indexed, 2 when an error
occurred (an input that could not be read completely, the index file, a usage error):
everything readable is indexed all the same. ``urimine query``: 0 when rows were
written, 1 when none were (a URI, host or source not in the index), 2 on an error. Both:
130 on Ctrl-C. Messages go to stderr as one line, ``urimine: ...``, escaped
(:func:`urimine.errors.printable`); results go through the output layer of extraction
(:mod:`urimine.sinks`). ``python -m urimine.index.cli index|query ...`` runs them
directly.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sqlite3
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TextIO, cast

from urimine.cli_args import (
    EXIT_ERROR,
    EXIT_NONE,
    EXIT_OK,
    add_extraction_arguments,
    add_run_arguments,
    add_walk_arguments,
    command_parser,
    say,
    whole_number,
)
from urimine.errors import SinkError, SourceError, UrimineError
from urimine.index import query as q
from urimine.index.schema import IndexFileError, connect_read, connect_write, index_error
from urimine.sinks import FORMATS, AtomicOutput, Output, TableSink

if TYPE_CHECKING:
    from urimine.index.build import Summary
    from urimine.sources import Walk

__all__ = ["add_index_command", "add_query_command", "index_main", "main", "query_main"]

_INT64_MAX = (1 << 63) - 1
_MAX_JOBS = 1024

INDEX_STATUS = (
    "Exit status: 0 when every input was indexed, 2 when an error occurred (an input "
    "that could not be read completely, the index file, a usage error), everything "
    "readable indexed all the same; 130 when interrupted."
)
QUERY_STATUS = (
    "Exit status: 0 when rows were written, 1 when none were (not in the index), "
    "2 on an error (the index file, a write error, a usage error)."
)


def _run(body: Callable[[], int], db: str) -> int:
    """Run a command body with the common error, pipe and Ctrl-C handling."""
    try:
        return body()
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_OK
    except SinkError as err:
        say(str(err))
        _silence_stdout()
        return EXIT_ERROR
    except IndexFileError as err:
        say(str(err))
        return EXIT_ERROR
    except (sqlite3.Error, OSError) as err:
        say(str(index_error(db, err)))
        return EXIT_ERROR
    except UrimineError as err:
        say(str(err))
        return EXIT_ERROR


def _silence_stdout() -> None:
    """After a write error, point stdout at devnull so the final flush cannot fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (AttributeError, OSError, ValueError):
        pass


# -- index ----------------------------------------------------------------------------------


def add_index_command(sub: Any) -> None:
    """The ``index`` sub-parser."""
    p = sub.add_parser(
        "index",
        prog="urimine index",
        help="record which documents link to which URIs in an SQLite index",
        description="Record which documents link to which URIs in an SQLite index"
        " (incremental: unchanged inputs are skipped, changed documents replaced,"
        " crash-safe). Inputs are read and folders walked as by urimine itself.",
        epilog=INDEX_STATUS,
    )
    p.add_argument("db", metavar="DB", help="the index file (created when missing)")
    p.add_argument(
        "paths", metavar="PATH", nargs="*", help="inputs, as for extraction (- for stdin)"
    )
    p.add_argument(
        "--prune",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="remove the sources under the PATHs that no longer exist (default: on)",
    )
    add_extraction_arguments(p)
    add_walk_arguments(p)
    add_run_arguments(p, "notes and a summary on stderr", jobs_default="1", jobs_max=_MAX_JOBS)
    p.add_argument("--scheme-extra", dest="extra_scheme", action="append", help=argparse.SUPPRESS)
    p.add_argument(
        "--batch", type=whole_number(0, _INT64_MAX), default=50_000, help=argparse.SUPPRESS
    )


def _total_bytes(paths: list[str], walk: Walk) -> int | None:
    from urimine.sources import iter_inputs

    total = 0
    for path in iter_inputs(paths, walk):
        if path == "-":
            return None
        with contextlib.suppress(OSError):
            total += os.path.getsize(path)
    return total


def _summary_line(s: Summary) -> str:
    return (
        f"{s.sources} sources ({s.skipped} unchanged, {s.errors} unreadable),"
        f" {s.documents} documents read ({s.added} added, {s.replaced} replaced,"
        f" {s.unchanged} unchanged), {s.removed} removed, {s.pruned} sources pruned,"
        f" {s.links} links written"
    )


def index_main(argv: list[str]) -> int:
    """``urimine index DB PATH...``; returns the exit status."""
    args = command_parser("index").parse_intermixed_args(argv)
    if not args.paths:
        say("index: no PATH given (use - to read standard input)")
        return EXIT_ERROR
    return _run(lambda: _index(args), args.db)


def _index(args: argparse.Namespace) -> int:
    """The ``index`` run; it imports the builder, the pipeline and the sources (a
    query needs none of them)."""
    from urimine.cli_options import extraction_options, walk_options
    from urimine.index.build import build_index

    options = extraction_options(args)
    walk = walk_options(args)
    failures: list[SourceError] = []

    def on_error(err: SourceError) -> None:
        failures.append(err)
        say(str(err))

    def notice(message: str) -> None:
        if args.verbose:
            say(message)

    show = args.progress if args.progress is not None else sys.stderr.isatty()
    conn = connect_write(args.db)
    # The database and its journal files are never read as inputs of the index.
    walk = walk.without(*(args.db + end for end in ("", "-wal", "-shm", "-journal")))
    try:
        with _progress_bar(show, args.paths, walk) as progress:
            summary = build_index(
                conn,
                args.paths,
                options,
                jobs=args.jobs or 1,
                on_error=on_error,
                progress=progress,
                notice=notice,
                batch_links=args.batch,
                prune=args.prune,
                walk=walk,
            )
    except sqlite3.Error as exc:  # told apart now: closing may free space, or the WAL
        raise index_error(args.db, exc) from exc
    finally:
        with contextlib.suppress(sqlite3.Error):  # what is committed is safe in the WAL
            conn.close()
    if args.verbose:
        say(_summary_line(summary))
    return EXIT_ERROR if failures else EXIT_OK


@contextlib.contextmanager
def _progress_bar(
    show: bool, paths: list[str], walk: Walk
) -> Iterator[Callable[[int], None] | None]:
    """A tqdm byte counter on stderr when asked for, else no callback at all."""
    if not show:
        yield None
        return
    from tqdm import tqdm

    bar = tqdm(total=_total_bytes(paths, walk), unit="B", unit_scale=True, file=sys.stderr)
    try:
        yield bar.update
    finally:
        bar.close()


# -- query ----------------------------------------------------------------------------------


def add_query_command(sub: Any) -> None:
    """The ``query`` sub-parser and its queries."""
    p = sub.add_parser(
        "query",
        prog="urimine query",
        help="query a link index: top, links-to, links-from, hosts, stats, export",
        description="Query a link index made by urimine index. Each query writes a table:"
        " a header row and named columns, the same in text, jsonl and csv.",
        epilog=QUERY_STATUS,
    )
    p.add_argument("db", metavar="DB", help="the index file")
    fmt = argparse.ArgumentParser(add_help=False)
    fmt.add_argument(
        "-f", "--format", choices=FORMATS, default="text", help="output format (default: text)"
    )
    qs = p.add_subparsers(dest="query", required=True, metavar="QUERY", title="queries")

    def query(name: str, text: str, parents: list[argparse.ArgumentParser]) -> Any:
        return qs.add_parser(
            name, parents=parents, help=text, description=text, prog=f"urimine query DB {name}"
        )

    t = query("top", "the most linked URIs", [fmt])
    t.add_argument(
        "-n", type=whole_number(0, _INT64_MAX), default=20, help="how many (default: 20)"
    )
    t.add_argument(
        "--by",
        choices=("documents", "occurrences"),
        default="documents",
        help="rank by linking documents or by occurrences (default: documents)",
    )
    t.add_argument("--scheme", help="only URIs of this scheme (default: all)")
    t.add_argument("--host", help="only URIs of this host and its subdomains (default: all)")
    lt = query("links-to", "the documents linking to a URI, a URI prefix or a host", [fmt])
    lt.add_argument(
        "target",
        metavar="TARGET",
        help="a URI (any spelling: matched by normalised key), a prefix ending in *"
        " ('http://example.com/docs/*'), or a host without a scheme (and its subdomains)",
    )
    lf = query("links-from", "the URIs a source links to", [fmt])
    lf.add_argument("source", metavar="SOURCE", help="a source path, in any spelling")
    h = query("hosts", "the most linked hosts, or registrable domains", [fmt])
    h.add_argument(
        "-n", type=whole_number(0, _INT64_MAX), default=20, help="how many (default: 20)"
    )
    h.add_argument(
        "--by",
        choices=("host", "domain"),
        default="host",
        help="group by host, or by registrable domain (Public Suffix List) (default: host)",
    )
    query("stats", "totals, and per scheme", [fmt])
    e = query("export", "the link table, one row per document and URI", [])
    e.add_argument(
        "-f",
        "--format",
        choices=("csv", "jsonl", "parquet"),
        default="csv",
        help="csv, jsonl, or parquet (needs urimine[parquet] and -o) (default: csv)",
    )
    e.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="write to FILE, atomically (default: standard output)",
    )


def query_main(argv: list[str]) -> int:
    """``urimine query DB QUERY ...``; returns the exit status."""
    args = command_parser("query").parse_args(argv)
    if args.query == "export" and args.format == "parquet" and not args.output:
        say("query: export -f parquet needs -o FILE (Parquet is not written to a terminal)")
        return EXIT_ERROR
    return _run(lambda: _query(args), args.db)


def _query(args: argparse.Namespace) -> int:
    conn = connect_read(args.db)
    try:
        if args.query == "export":
            return _export(conn, args)
        if sys.stdout is None:
            raise SinkError("standard output is closed")
        out = Output(sys.stdout)
        status = _dispatch(conn, args, cast(TextIO, out))
        out.flush()
        return status
    finally:
        conn.close()


def _dispatch(conn: sqlite3.Connection, args: argparse.Namespace, out: TextIO) -> int:
    columns: tuple[Any, ...]
    rows: Iterator[q.Row] | None
    if args.query == "stats":
        rows, columns = q.stats(conn), q.STATS_COLUMNS
    elif args.query == "top":
        rows = q.top(conn, args.n, by=args.by, scheme=args.scheme, host=args.host)
        columns = q.TOP_COLUMNS
    elif args.query == "hosts":
        rows = q.hosts(conn, args.n, by=args.by)
        columns = q.domain_columns() if args.by == "domain" else q.HOST_COLUMNS
    else:
        wanted = args.target if args.query == "links-to" else args.source
        find = q.links_to if args.query == "links-to" else q.links_from
        rows, columns = find(conn, wanted), q.LINK_COLUMNS
        if rows is None:
            say(f"{wanted}: not in the index")
            return EXIT_NONE
    sink = TableSink(out, args.format, columns)
    for row in rows:
        sink.write(row)
    return EXIT_OK if sink.count else EXIT_NONE


def _export(conn: sqlite3.Connection, args: argparse.Namespace) -> int:
    from urimine.index.export import EXPORT_COLUMNS, export_rows, write_parquet

    rows = export_rows(conn)
    if args.format == "parquet":
        return EXIT_OK if write_parquet(rows, args.output) else EXIT_NONE
    target = AtomicOutput(args.output) if args.output else None
    try:
        if target is None and sys.stdout is None:
            raise SinkError("standard output is closed")
        out = Output(target.stream, args.output) if target else Output(sys.stdout)
        sink = TableSink(cast(TextIO, out), args.format, EXPORT_COLUMNS)
        for row in rows:
            sink.write(row)
        out.flush()
        if target:
            target.commit()
    except BaseException:
        if target:
            target.abort()
        raise
    return EXIT_OK if sink.count else EXIT_NONE


def main(argv: list[str] | None = None) -> int:
    """``python -m urimine.index.cli index|query ...``."""
    argv = sys.argv[1:] if argv is None else argv
    commands = {"index": index_main, "query": query_main}
    if not argv or argv[0] not in commands:
        say("usage: python -m urimine.index.cli index|query ...")
        return EXIT_ERROR
    return commands[argv[0]](argv[1:])


if __name__ == "__main__":
    sys.exit(main())
