"""``urimine index`` and ``urimine query``: argument parsing, messages and exit status.

The main CLI dispatches to :func:`index_main` and :func:`query_main`. Exit status: 0 ok,
1 some inputs could not be read (or a query found nothing), 2 usage, index file or
output error, 130 on Ctrl-C. Messages go to stderr as ``urimine: ...`` on one line;
no input, index or output problem gives a traceback. ``python -m urimine.index.cli
index|query ...`` runs them directly.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sqlite3
import sys
from collections.abc import Callable, Iterator
from typing import NoReturn, TextIO

from urimine.errors import SourceError, UrimineError
from urimine.index import query as q
from urimine.index.build import Summary, build_index
from urimine.index.schema import IndexFileError, connect_read, connect_write, index_error
from urimine.pipeline import Options
from urimine.sinks import write_error_reason
from urimine.sources import iter_inputs
from urimine.sources.labels import HEADERS, HEADERS_HELP
from urimine.sources.text import check_encoding

__all__ = ["OutputError", "index_main", "main", "query_main"]

_INT64_MAX = (1 << 63) - 1
_MAX_JOBS = 1024


class OutputError(UrimineError):
    """Query results could not be written (full disk, closed or unencodable stdout)."""

    exit_code = 2

    def __init__(self, reason: str) -> None:
        super().__init__(f"write error: {reason}")


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
    except OutputError as err:
        _error(str(err))
        _silence_stdout()
        return err.exit_code
    except IndexFileError as err:
        _error(str(err))
        return 2
    except (sqlite3.Error, OSError) as err:
        _error(str(index_error(db, err)))
        return 2
    except UrimineError as err:
        _error(str(err))
        return err.exit_code if err.exit_code != 1 else 2


def _silence_stdout() -> None:
    """After a write error, point stdout at devnull so the final flush cannot fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (AttributeError, OSError, ValueError):
        pass


class _Parser(argparse.ArgumentParser):
    """argparse whose usage errors are one line: ``urimine: index: message``."""

    def error(self, message: str) -> NoReturn:
        name = self.prog.removeprefix("urimine ")
        self.exit(2, f"urimine: {name}: {message} (see --help)\n")


def _number(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{text} is not from {low} to {high}")
        return value

    return parse


class _Output:
    """Standard output for query results.

    A file name that is not UTF-8 (held as surrogate escapes) goes out as its own bytes;
    any failure to write (a full disk, a closed stdout, text the output encoding cannot
    hold) is an :class:`OutputError`.
    """

    def __init__(self, stream: TextIO | None) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        """Write ``text``; returns its length."""
        stream = self._stream()
        try:
            try:
                stream.write(text)
            except UnicodeEncodeError:
                buffer = getattr(stream, "buffer", None)
                if buffer is None:
                    raise
                data = text.encode(stream.encoding or "utf-8", "surrogateescape")
                stream.flush()
                buffer.write(data)
        except BrokenPipeError:
            raise
        except (OSError, ValueError) as exc:
            raise OutputError(write_error_reason(exc)) from exc
        return len(text)

    def flush(self) -> None:
        """Flush, with the same errors as :meth:`write`."""
        if self.stream is None:
            return
        try:
            self.stream.flush()
        except BrokenPipeError:
            raise
        except (OSError, ValueError) as exc:
            raise OutputError(write_error_reason(exc)) from exc

    def _stream(self) -> TextIO:
        if self.stream is None:
            raise OutputError("standard output is closed")
        return self.stream


# -- index ----------------------------------------------------------------------------------


def _index_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="urimine index",
        description="Record which documents link to which URIs in an SQLite index"
        " (incremental: unchanged inputs are skipped, changed documents replaced).",
    )
    p.add_argument("db", metavar="DB", help="the index file (created if missing)")
    p.add_argument(
        "paths", metavar="PATH", nargs="*", help="inputs, as for extraction (- for stdin)"
    )
    p.add_argument("-j", "--jobs", type=_number(1, _MAX_JOBS), default=1, help="scanning processes")
    p.add_argument(
        "--prune",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="remove sources under the PATHs that no longer exist (default: on)",
    )
    p.add_argument("--encoding", help="text encoding of plain text and HTML (default UTF-8)")
    p.add_argument(
        "--scheme-extra",
        action="append",
        default=[],
        metavar="S",
        help="accept scheme S as well (repeatable, or comma separated)",
    )
    p.add_argument("--rules", default="default", help="rule preset or comma separated rules")
    p.add_argument("--headers", choices=HEADERS, default="all", help=HEADERS_HELP)
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None)
    p.add_argument("--batch", type=_number(0, _INT64_MAX), default=50_000, help=argparse.SUPPRESS)
    p.add_argument("-v", "--verbose", action="store_true", help="notes and a summary")
    return p


def _options(args: argparse.Namespace) -> Options:
    extra = tuple(s.strip() for arg in args.scheme_extra for s in arg.split(",") if s.strip())
    rules: str | tuple[str, ...] = args.rules
    if "," in args.rules:
        rules = tuple(r.strip() for r in args.rules.split(",") if r.strip())
    return Options(rules=rules, extra_schemes=extra, encoding=args.encoding, headers=args.headers)


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
        f" {s.unchanged} unchanged), {s.removed} removed, {s.pruned} sources pruned,"
        f" {s.links} links written"
    )


def index_main(argv: list[str]) -> int:
    """``urimine index DB PATH...``; returns the exit status."""
    args = _index_parser().parse_intermixed_args(argv)
    if not args.paths:
        _error("index: no PATH given (use - to read standard input)")
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
                prune=args.prune,
            )
    except sqlite3.Error as exc:  # told apart now: closing may free space, or the WAL
        raise index_error(args.db, exc) from exc
    finally:
        with contextlib.suppress(sqlite3.Error):  # what is committed is safe in the WAL
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
    p = _Parser(prog="urimine query", description="Query a link index.")
    p.add_argument("db", metavar="DB", help="the index file")
    fmt = _Parser(add_help=False)
    fmt.add_argument("--format", choices=q.FORMATS, default="text")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    t = sub.add_parser("top", parents=[fmt], help="the most linked URIs")
    t.add_argument("-n", type=_number(0, _INT64_MAX), default=20, help="how many (default 20)")
    t.add_argument("--by", choices=("documents", "occurrences"), default="documents")
    t.add_argument("--scheme", help="only URIs of this scheme")
    t.add_argument("--host", help="only URIs with this host")
    lt = sub.add_parser("links-to", parents=[fmt], help="documents linking to a URI")
    lt.add_argument("uri", metavar="URI", help="any spelling; matched by dedup key")
    lf = sub.add_parser("links-from", parents=[fmt], help="URIs a source links to")
    lf.add_argument("source", metavar="SOURCE", help="a source path, in any spelling")
    h = sub.add_parser("hosts", parents=[fmt], help="the most linked hosts")
    h.add_argument("-n", type=_number(0, _INT64_MAX), default=20, help="how many (default 20)")
    sub.add_parser("stats", parents=[fmt], help="totals and schemes")
    return p


def query_main(argv: list[str]) -> int:
    """``urimine query DB COMMAND ...``; returns the exit status."""
    args = _query_parser().parse_args(argv)
    return _run(lambda: _query(args, _Output(sys.stdout)), args.db)


def _query(args: argparse.Namespace, out: _Output) -> int:
    conn = connect_read(args.db)
    try:
        status = _dispatch(conn, args, out)
        out.flush()
        return status
    finally:
        conn.close()


def _dispatch(conn: sqlite3.Connection, args: argparse.Namespace, out: _Output) -> int:
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
