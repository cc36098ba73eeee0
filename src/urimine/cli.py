"""The ``urimine`` command: extract URIs and URNs from files, archives and stdin.

Exit status: 0 when every input was read completely; 1 when the run finished but some
input could not be read (completely); 2 for a usage or configuration error, or when the
run could not go on (a write error, a worker process killed); 130 when interrupted, 143
on SIGTERM (128 + the signal number, as a shell reports it; 129 on SIGHUP). Every message
is one line on stderr, ``urimine: ...``, with anything taken from input escaped
(:func:`urimine.errors.printable`). ``urimine index`` and ``urimine query`` are the
link-index subcommands.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from types import FrameType
from typing import TYPE_CHECKING, Any, NoReturn, TextIO, cast

from urimine import __version__
from urimine.errors import ConfigError, SinkError, SourceError, Terminated, UrimineError, printable
from urimine.pipeline import Options, Stats, iter_records
from urimine.rows import Counter, Selector, csv_set
from urimine.rules import ALL_RULES, PRESETS
from urimine.sinks import AtomicOutput, Output, make_sink

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

__all__ = ["main"]

EXIT_OK, EXIT_INPUT, EXIT_USAGE, EXIT_INTERRUPT = 0, 1, 2, 130

MAX_LENGTH_LIMIT = 1 << 24
"""The largest ``--max-length``: the scanner holds at most this many characters of a
pending candidate (64 MiB at 4 bytes a character), so memory stays bounded; the regular
expressions it builds refuse a bound of 2**32 - 1 or more."""

_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*")  # RFC 3986 section 3.1


def _say(message: str) -> None:
    """``urimine: MESSAGE`` on stderr, escaped for a terminal; lost quietly when stderr
    is closed or cannot take it (there is nowhere else to say it)."""
    err = sys.stderr
    if err is None:  # closed: print(file=None) would write to stdout
        return
    with contextlib.suppress(OSError, ValueError):
        err.write(f"urimine: {printable(message)}\n")
        err.flush()


class _Parser(argparse.ArgumentParser):
    """Usage errors in one line, naming the option, then exit 2."""

    def error(self, message: str) -> NoReturn:
        _say(f"{message.removeprefix('argument ')} (see urimine --help)")
        raise SystemExit(EXIT_USAGE)

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        """argparse's (``--help``, ``--version``), but a write error on stdout is
        reported and exits 2 where argparse drops it."""
        if message and file is not None and file is sys.stdout:
            _print_out(message)
        else:
            super()._print_message(message, file)


def _print_out(message: str) -> None:
    try:
        sys.stdout.write(message)
        sys.stdout.flush()
    except OSError as exc:
        _say(str(SinkError(exc.strerror or str(exc))))
        _settle_stdout(discard=True)
        raise SystemExit(SinkError.exit_code) from exc


def _whole(text: str, low: int, high: int | None = None) -> int:
    """``text`` as a whole number from ``low`` to ``high``, else a usage error."""
    try:
        value = int(text)
    except ValueError:
        value = None
    if value is None or value < low or (high is not None and value > high):
        bound = f"from {low} to {high}" if high is not None else f"of at least {low}"
        raise argparse.ArgumentTypeError(f"expected a whole number {bound}, got {text[:40]!r}")
    return value


def _max_length(text: str) -> int:
    return _whole(text, 16, MAX_LENGTH_LIMIT)


def _jobs(text: str) -> int:
    return _whole(text, 1)


def _scheme(text: str) -> str:
    if not _SCHEME.fullmatch(text):
        raise argparse.ArgumentTypeError(
            f"expected a scheme name (RFC 3986 section 3.1: a letter, then letters, "
            f"digits, '+', '-' or '.'), got {text[:40]!r}"
        )
    return text


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``urimine [OPTIONS] [PATH ...]``."""
    p = _Parser(
        prog="urimine",
        description="Extract URIs and URNs from text, mail archives and WARC/WET files, "
        "delimited as the URI drafts recommend, deduplicated by normalised key.",
        epilog="Also: 'urimine index DB PATH...' builds a link index; "
        "'urimine query DB ...' queries it. Exit status: 0 all inputs read, "
        "1 some inputs could not be read completely, 2 usage error or the run could not "
        "go on (write error), 130 interrupted, 143 terminated (SIGTERM).",
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
        type=_scheme,
        help="treat SCHEME as registered in bare text (repeatable)",
    )
    p.add_argument(
        "--max-length",
        type=_max_length,
        default=8192,
        help=f"longest candidate, 16 to {MAX_LENGTH_LIMIT} characters (default 8192)",
    )
    p.add_argument("--encoding", help="text encoding of plain-text input (default UTF-8)")
    p.add_argument(
        "--headers",
        choices=("all", "links", "none"),
        default="all",
        help="mail header fields scanned: all (every unstructured field and the URI fields;"
        " the default), links (List-*, Archived-At, Content-Base/-Location and fields"
        " showing <scheme:...>), none",
    )
    p.add_argument(
        "-j",
        "--jobs",
        type=_jobs,
        default=_usable_cpus(),
        help="worker processes (default and most: the CPUs this process may use)",
    )
    prog = p.add_mutually_exclusive_group()
    prog.add_argument("--progress", dest="progress", action="store_true", default=None)
    prog.add_argument("--no-progress", dest="progress", action="store_false")
    p.add_argument("-v", "--verbose", action="store_true", help="summary and defects")
    p.add_argument("--version", action="version", version=f"urimine {__version__}")
    return p


def _usable_cpus() -> int:
    """The CPUs this process may run on (its affinity mask where there is one)."""
    if hasattr(os, "sched_getaffinity"):
        return max(len(os.sched_getaffinity(0)), 1)
    return os.cpu_count() or 1


def _options(args: argparse.Namespace) -> Options:
    rules: str | tuple[str, ...] = args.rules
    if "," in args.rules or args.rules not in PRESETS:
        rules = tuple(r.strip() for r in args.rules.split(",") if r.strip())
        if not rules:
            raise ConfigError(f"--rules: no rule named in {args.rules!r}")
    unknown = csv_set(args.kind) - {"uri", "urn", "urn-legacy"}
    if unknown:
        raise ConfigError(f"unknown --kind {', '.join(sorted(unknown))} (uri, urn, urn-legacy)")
    options = Options(rules, args.max_length, tuple(args.extra_scheme), args.encoding, args.headers)
    try:
        options.scanner()  # validates the rules now, not in a worker
    except ConfigError as exc:
        raise ConfigError(f"--rules: {exc}") from exc
    return options


def _jobs_for(args: argparse.Namespace, notice: Callable[[str], None]) -> int:
    """``-j``, capped at the CPUs this process may use: the workers only compute, so
    more of them cannot be faster, and each costs memory (and a process)."""
    usable = _usable_cpus()
    if args.jobs > usable:
        notice(f"-j {args.jobs}: {usable} worker processes, one per usable CPU")
        return usable
    return int(args.jobs)


def _run(args: argparse.Namespace, out: TextIO, stats: Stats) -> int:
    options = _options(args)
    failed: list[SourceError] = []

    def on_error(err: SourceError) -> None:
        failed.append(err)
        _say(f"{err.source}: {err.reason}")

    def notice(msg: str) -> None:
        if args.verbose:
            _say(msg)

    jobs = _jobs_for(args, notice)
    mode = "all" if args.all or args.count else "document" if args.per_document else "global"
    selector = Selector(
        csv_set(args.scheme),
        csv_set(args.kind),
        strip_fragment=args.strip_fragment,
        canonical=args.canonical,
        mode=mode,
    )
    sink = make_sink(out, args.format, counts=args.count)
    counter = Counter() if args.count else None
    paths = args.paths or ["-"]
    if sys.stdin is None and "-" in paths:  # started with stdin closed (<&-)
        stats.inputs += 1
        stats.errors += 1
        on_error(SourceError("-", "standard input is closed"))
        paths = [path for path in paths if path != "-"]
    with _progress_bar(args, paths) as progress:
        records = iter_records(
            paths,
            options,
            jobs=jobs,
            # Later occurrences of a key are never written in the default mode: let the
            # pipeline (and its workers) drop them before a record is even built.
            unique=selector.mode == "global",
            progress=progress,
            notice=notice,
            on_error=on_error,
            stats=stats,
        )
        # Closed on any exception (a write error, a signal): its workers stop at once.
        with contextlib.closing(records):
            for rec in records if paths else ():
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
        tty = sys.stderr is not None and sys.stderr.isatty()
        show = sys.stderr is not None and (args.progress if args.progress is not None else tty)
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
        f"{stats.inputs} inputs, {stats.documents} documents, {stats.hits} URIs, "
        f"{stats.written} written, {stats.defects} defects, {stats.errors} errors, "
        f"{nbytes / 1e6:.1f} MB in {elapsed:.2f} s ({rate:.1f} MB/s)"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    with _stop_signals():
        try:
            if argv and argv[0] in ("index", "query"):
                return _index_command(argv)
            return _extract(build_parser().parse_args(argv))
        except Terminated as exc:
            _settle_stdout()
            return exc.exit_code


def _extract(args: argparse.Namespace) -> int:
    stats = Stats(defect_messages=[] if args.verbose else None)
    started = time.perf_counter()
    try:
        status = _write(args, stats)
    except BrokenPipeError:
        _settle_stdout(discard=True)
        return EXIT_OK
    except KeyboardInterrupt:
        _settle_stdout()
        return EXIT_INTERRUPT
    except SinkError as exc:
        _say(str(exc))
        _settle_stdout(discard=not args.output)
        return exc.exit_code
    except UrimineError as exc:
        _say(str(exc))
        return exc.exit_code
    if stats.binary:
        files = "file was" if stats.binary == 1 else "files were"
        more = "" if args.verbose else " (-v lists them)"
        print(f"urimine: {stats.binary} {files} skipped as binary{more}", file=sys.stderr)
    if args.verbose:
        for msg in stats.defect_messages or ():
            _say(msg)
        nbytes = _total_size(args.paths or [])
        _say(_summary(stats, time.perf_counter() - started, nbytes))
    return status


def _write(args: argparse.Namespace, stats: Stats) -> int:
    """The run, written to ``-o`` (atomically: removed on any failure) or stdout."""
    if not args.output and sys.stdout is None:
        raise SinkError("standard output is closed")
    target = AtomicOutput(args.output) if args.output else None
    try:
        out = Output(target.stream, args.output) if target else Output(sys.stdout)
        status = _run(args, cast(TextIO, out), stats)
        out.flush()
        if target:
            target.commit()
    except BaseException:
        if target:
            target.abort()
        raise
    return status


def _index_command(argv: list[str]) -> int:
    """``urimine index`` / ``urimine query``: they report their own errors."""
    from urimine.index import cli as index_cli

    if argv[0] == "index":
        return index_cli.index_main(argv[1:])
    return index_cli.query_main(argv[1:])


@contextlib.contextmanager
def _stop_signals() -> Iterator[None]:
    """SIGTERM and SIGHUP raise :class:`Terminated` in this process while the command
    runs, as SIGINT raises KeyboardInterrupt: the run unwinds, its temporary output file
    is removed and its workers are stopped. A signal already ignored (``nohup``) stays
    ignored; outside the main thread nothing changes."""
    here = os.getpid()

    def handler(signum: int, frame: FrameType | None) -> None:
        if os.getpid() != here:  # a worker forked before it reset the handler: just end
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        for sig in previous:  # a second signal must not break the cleanup of the first
            signal.signal(sig, signal.SIG_IGN)
        raise Terminated(signum)

    previous: dict[int, Any] = {}
    for name in ("SIGTERM", "SIGHUP"):
        signum = getattr(signal, name, None)
        with contextlib.suppress(ValueError):  # not the main thread
            if signum is not None and signal.getsignal(signum) == signal.SIG_DFL:
                previous[signum] = signal.signal(signum, handler)
    try:
        yield
    finally:
        for signum, old in previous.items():
            signal.signal(signum, old)


def _settle_stdout(discard: bool = False) -> None:
    """Flush what stdout can still take. After a write error or a broken pipe, or when
    this flush fails, point it at /dev/null: the flush at exit then neither fails nor
    prints a second report."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError, AttributeError):
        discard = True
    if discard:
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):
            pass
