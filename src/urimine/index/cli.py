"""``urimine index`` and ``urimine query``: argument parsing, messages and exit status.

The main CLI dispatches to :func:`index_main` and :func:`query_main`. Exit status: 0 ok,
1 some inputs could not be read (or a query found nothing), 2 usage or index file error,
130 on Ctrl-C. Messages go to stderr as ``urimine: ...``; input problems never give a
traceback. ``python -m urimine.index.cli index|query ...`` runs them directly.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sqlite3
import sys
from collections.abc import Callable, Iterator
from typing import TextIO

from urimine.errors import SourceError, UrimineError
from urimine.index import query as q
from urimine.index.build import Summary, build_index
from urimine.index.schema import IndexFileError, connect_read, connect_write
from urimine.pipeline import Options
from urimine.sources import iter_inputs
from urimine.sources.text import check_encoding

__all__ = ["index_main", "main", "query_main"]


def _error(message: str) -> None:
    print(f"urimine: {message}", file=sys.stderr)


def _run(body: Callable[[], int], db: str) -> int:
    """Run a command body with the common error, pipe and Ctrl-C handling."""
    try:
        return body()
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        _silence_stdout()
        return 0
    except IndexFileError as err:
        _error(str(err))
        return 2
    except sqlite3.DatabaseError as err:
        _error(f"{db}: is corrupt: {err}")
        return 2
    except sqlite3.Error as err:
        _error(f"{db}: {err}")
        return 2
    except UrimineError as err:
        _error(str(err))
        return err.exit_code if err.exit_code != 1 else 2


def _silence_stdout() -> None:
    """After a broken pipe, point stdout at devnull so the final flush cannot fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


# -- index ----------------------------------------------------------------------------------


def _index_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="urimine index",
        description="Record which documents link to which URIs in an SQLite index"
        " (incremental: unchanged inputs are skipped, changed documents replaced).",
    )
    p.add_argument("db", metavar="DB", help="the index file (created if missing)")
    p.add_argument("paths", metavar="PATH", nargs="*", help="inputs, as for extraction")
    p.add_argument("-j", "--jobs", type=int, default=1, help="scanning processes")
    p.add_argument("--encoding", help="text encoding of plain text and HTML (default UTF-8)")
    p.add_argument(
        "--scheme-extra",
        action="append",
        default=[],
        metavar="S",
        help="accept scheme S as well (repeatable, or comma separated)",
    )
    p.add_argument("--rules", default="default", help="rule preset or comma separated rules")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None)
    p.add_argument("--batch", type=int, default=50_000, help=argparse.SUPPRESS)
    p.add_argument("-v", "--verbose", action="store_true", help="notes and a summary")
    return p


def _options(args: argparse.Namespace) -> Options:
    extra = tuple(s.strip() for arg in args.scheme_extra for s in arg.split(",") if s.strip())
    rules: str | tuple[str, ...] = args.rules
    if "," in args.rules:
        rules = tuple(r.strip() for r in args.rules.split(",") if r.strip())
    return Options(rules=rules, extra_schemes=extra, encoding=args.encoding)


def _total_bytes(paths: list[str]) -> int | None:
    total = 0
    for path in iter_inputs(paths):
        if path == "-":
            return None
        with contextlib.suppress(OSError):
            total += os.path.getsize(path)
    return total


def _summary_line(s: Summary) -> str:
    return (
        f"{s.sources} sources ({s.skipped} unchanged, {s.errors} unreadable),"
        f" {s.documents} documents read ({s.added} added, {s.replaced} replaced,"
        f" {s.unchanged} unchanged), {s.removed} removed, {s.links} links written"
    )


def index_main(argv: list[str]) -> int:
    """``urimine index DB PATH...``; returns the exit status."""
    args = _index_parser().parse_intermixed_args(argv)
    if args.jobs < 1:
        _error("-j/--jobs must be at least 1")
        return 2
    return _run(lambda: _index(args), args.db)


def _index(args: argparse.Namespace) -> int:
    options = _options(args)
    options.scanner()  # unknown rules or schemes: a ConfigError before touching the DB
    if options.encoding is not None and not check_encoding(options.encoding):
        _error(f"unknown text encoding: {options.encoding!r}")
        return 2
    failures: list[SourceError] = []

    def on_error(err: SourceError) -> None:
        failures.append(err)
        _error(str(err))

    def notice(message: str) -> None:
        if args.verbose:
            _error(message)

    show = args.progress if args.progress is not None else sys.stderr.isatty()
    conn = connect_write(args.db)
    try:
        with _progress_bar(show, args.paths) as progress:
            summary = build_index(
                conn,
                args.paths,
                options,
                jobs=args.jobs,
                on_error=on_error,
                progress=progress,
                notice=notice,
                batch_links=args.batch,
            )
    finally:
        conn.close()
    if args.verbose:
        _error(_summary_line(summary))
    return 1 if failures else 0


@contextlib.contextmanager
def _progress_bar(show: bool, paths: list[str]) -> Iterator[Callable[[int], None] | None]:
    """A tqdm byte counter on stderr when asked for, else no callback at all."""
    if not show:
        yield None
        return
    from tqdm import tqdm

    bar = tqdm(total=_total_bytes(paths), unit="B", unit_scale=True, file=sys.stderr)
    try:
        yield bar.update
    finally:
        bar.close()


# -- query ----------------------------------------------------------------------------------


def _query_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="urimine query", description="Query a link index.")
    p.add_argument("db", metavar="DB", help="the index file")
    fmt = argparse.ArgumentParser(add_help=False)
    fmt.add_argument("--format", choices=q.FORMATS, default="text")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    t = sub.add_parser("top", parents=[fmt], help="the most linked URIs")
    t.add_argument("-n", type=int, default=20, help="how many (default 20)")
    t.add_argument("--by", choices=("documents", "occurrences"), default="documents")
    t.add_argument("--scheme", help="only URIs of this scheme")
    t.add_argument("--host", help="only URIs with this host")
    lt = sub.add_parser("links-to", parents=[fmt], help="documents linking to a URI")
    lt.add_argument("uri", metavar="URI", help="any spelling; matched by dedup key")
    lf = sub.add_parser("links-from", parents=[fmt], help="URIs a source links to")
    lf.add_argument("source", metavar="SOURCE", help="a source path, as indexed or absolute")
    h = sub.add_parser("hosts", parents=[fmt], help="the most linked hosts")
    h.add_argument("-n", type=int, default=20, help="how many (default 20)")
    sub.add_parser("stats", parents=[fmt], help="totals and schemes")
    return p


def query_main(argv: list[str]) -> int:
    """``urimine query DB COMMAND ...``; returns the exit status."""
    args = _query_parser().parse_args(argv)
    if getattr(args, "n", 1) < 0:
        _error("-n must not be negative")
        return 2
    return _run(lambda: _query(args, sys.stdout), args.db)


def _query(args: argparse.Namespace, out: TextIO) -> int:
    conn = connect_read(args.db)
    try:
        status = _dispatch(conn, args, out)
        out.flush()
        return status
    finally:
        conn.close()


def _dispatch(conn: sqlite3.Connection, args: argparse.Namespace, out: TextIO) -> int:
    if args.command == "stats":
        q.write_stats(q.stats(conn), args.format, out)
        return 0
    rows: Iterator[q.Row] | None
    if args.command == "top":
        rows = q.top(conn, args.n, by=args.by, scheme=args.scheme, host=args.host)
        text = q.text_uri
    elif args.command == "hosts":
        rows, text = q.hosts(conn, args.n), q.text_host
    elif args.command == "links-to":
        rows, text = q.links_to(conn, args.uri), q.text_link_to
        if rows is None:
            _error(f"{args.uri}: not in the index")
            return 1
    else:
        rows, text = q.links_from(conn, args.source), q.text_link_from
        if rows is None:
            _error(f"{args.source}: not in the index")
            return 1
    q.write_rows(rows, args.format, out, text)
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m urimine.index.cli index|query ...``."""
    argv = sys.argv[1:] if argv is None else argv
    commands = {"index": index_main, "query": query_main}
    if not argv or argv[0] not in commands:
        _error("usage: python -m urimine.index.cli index|query ...")
        return 2
    return commands[argv[0]](argv[1:])


if __name__ == "__main__":
    sys.exit(main())
