"""The ``urimine`` command: extract URIs and URNs from files, archives and stdin.

Exit status, as grep's: 0 when at least one URI was written (with ``--count``: a row),
1 when none was, 2 when an error occurred (an unreadable or corrupt input, a write
error, a usage error, a worker process killed), everything readable still extracted;
130 when interrupted, 143 on SIGTERM (128 + the signal number, as a shell reports it;
129 on SIGHUP). Every message is one line on stderr, ``urimine: ...``, with anything
taken from input escaped (:func:`urimine.errors.printable`). The arguments are defined
in :mod:`urimine.cli_args`; ``urimine index`` and ``urimine query`` are the link-index
sub-commands (:mod:`urimine.index.cli`).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from types import FrameType
from typing import TYPE_CHECKING, Any, TextIO, cast

from urimine.cli_args import (
    COMMANDS,
    EXIT_ERROR,
    EXIT_NONE,
    EXIT_OK,
    extract_parser,
    say,
)
from urimine.cli_options import contradiction, csv_items, extraction_options, walk_options
from urimine.errors import SinkError, SourceError, Terminated, UrimineError

if TYPE_CHECKING:
    from urimine.pipeline import Stats
    from urimine.rows import Selector
    from urimine.sources import Walk

__all__ = ["main"]

EXIT_INTERRUPT = 130

_say = say


def _selector(args: argparse.Namespace) -> Selector:
    from urimine.rows import HostSet, Selector

    mode = "all" if args.all or args.count else "document" if args.per_document else "global"
    return Selector(
        set(csv_items(args.scheme)),
        {k.lower() for k in csv_items(args.kind)},
        strip_fragment=args.strip_fragment,
        canonical=args.canonical,
        mode=mode,
        exclude_schemes=set(csv_items(args.exclude_scheme)),
        hosts=HostSet(csv_items(args.host)),
        exclude_hosts=HostSet(csv_items(args.exclude_host)),
    )


def _run(
    args: argparse.Namespace, out: TextIO, stats: Stats, written: Sequence[object] = ()
) -> int:
    """The extraction; ``written``: the files it writes, never read as inputs."""
    from urimine.jobs import requested_jobs
    from urimine.pipeline import iter_records
    from urimine.rows import Counter
    from urimine.sinks import make_sink

    options = extraction_options(args)
    walk = walk_options(args).without(*written)
    failed: list[SourceError] = []

    def on_error(err: SourceError) -> None:
        failed.append(err)
        _say(f"{err.source}: {err.reason}")

    def notice(msg: str) -> None:
        if args.verbose:
            _say(msg)

    jobs = requested_jobs(args.jobs, notice)
    selector = _selector(args)
    sink = make_sink(out, args.format, counts=args.count)
    counter = Counter() if args.count else None
    paths = _readable_paths(args.paths or ["-"], stats, on_error)
    with _progress_bar(args, paths, walk) as progress:
        records = iter_records(
            paths,
            options,
            walk=walk,
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
    if failed:
        return EXIT_ERROR
    return EXIT_OK if stats.written else EXIT_NONE


def _readable_paths(
    paths: list[str], stats: Stats, on_error: Callable[[SourceError], None]
) -> list[str]:
    """The PATHs, less ``-`` when the process was started with stdin closed (``<&-``),
    which is then reported as an input that could not be read."""
    if sys.stdin is None and "-" in paths:
        stats.inputs += 1
        stats.errors += 1
        on_error(SourceError("-", "standard input is closed"))
        return [path for path in paths if path != "-"]
    return paths


class _progress_bar:
    """A tqdm bar in input bytes on stderr, only on a terminal unless forced."""

    def __init__(self, args: argparse.Namespace, paths: Sequence[str], walk: Walk) -> None:
        tty = sys.stderr is not None and sys.stderr.isatty()
        show = sys.stderr is not None and (args.progress if args.progress is not None else tty)
        self.bar: Any = None
        if show:
            from tqdm import tqdm

            total = _total_size(paths, walk)
            self.bar = tqdm(
                total=total or None, unit="B", unit_scale=True, file=sys.stderr, leave=False
            )

    def __enter__(self) -> Callable[[int], None] | None:
        return self.bar.update if self.bar is not None else None

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.close()


def _total_size(paths: Sequence[str], walk: Walk) -> int:
    """The bytes of the inputs, walked as the run walks them (stdin counts nothing)."""
    from urimine.sources import iter_inputs

    return sum(_size(path) for path in iter_inputs(paths, walk) if path != "-")


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _summary(stats: Stats) -> str:
    """The ``-v`` summary: counts, then the text decoded (in millions of characters),
    the seconds from the first input opened to the last record, and the rate."""
    seconds = stats.seconds
    megs = stats.chars / 1e6
    rate = f"{megs / seconds:.1f} MB/s" if seconds > 0 else "- MB/s"
    workers = f"{stats.jobs} worker processes" if stats.jobs > 1 else "no worker processes"
    return (
        f"{stats.inputs} inputs, {stats.documents} documents, {stats.hits} URIs, "
        f"{stats.written} written, {stats.defects} defects, {stats.errors} errors, "
        f"{megs:.1f} MB decoded in {seconds:.2f} s ({rate}, {workers})"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    with _stop_signals():
        try:
            if argv and argv[0] in COMMANDS:
                return _index_command(argv)
            parser = extract_parser()
            args = parser.parse_args(argv)
            if args.completion or args.man:
                return _generated(args)
            problem = contradiction(args)
            if problem is not None:
                parser.error(problem)
            if not args.paths and _stdin_is_terminal():
                _say(
                    "no PATH given and standard input is a terminal: name files or "
                    "folders, or pipe text in (- reads the terminal; see urimine --help)"
                )
                return EXIT_ERROR
            return _extract(args)
        except Terminated as exc:
            _settle_stdout()
            return exc.exit_code


def _stdin_is_terminal() -> bool:
    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except (OSError, ValueError):
        return False


def _generated(args: argparse.Namespace) -> int:
    """``--completion SHELL`` or ``--man``: the script or page, made from the parser."""
    from urimine import cli_docs

    text = cli_docs.completion(args.completion) if args.completion else cli_docs.man_page()
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        _settle_stdout(discard=True)
    except OSError as exc:
        _say(str(SinkError(exc.strerror or str(exc))))
        _settle_stdout(discard=True)
        return EXIT_ERROR
    return EXIT_OK


def _extract(args: argparse.Namespace) -> int:
    """The extraction run; it imports the pipeline, the sources and the output layer
    (``urimine query`` needs none of them)."""
    from urimine.pipeline import Stats

    stats = Stats(defect_messages=[] if args.verbose else None)
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
    except UrimineError as exc:  # every error the run could not go on after: exit 2
        _say(str(exc))
        return EXIT_ERROR
    if stats.binary:
        files = "file was" if stats.binary == 1 else "files were"
        more = "" if args.verbose else " (-v lists them)"
        print(f"urimine: {stats.binary} {files} skipped as binary{more}", file=sys.stderr)
    if args.verbose:
        for msg in stats.defect_messages or ():
            _say(msg)
        _say(_summary(stats))
    return status


def _write(args: argparse.Namespace, stats: Stats) -> int:
    """The run, written to ``-o`` (atomically: removed on any failure) or stdout."""
    from urimine.sinks import AtomicOutput, Output

    if not args.output and sys.stdout is None:
        raise SinkError("standard output is closed")
    target = AtomicOutput(args.output) if args.output else None
    try:
        out = Output(target.stream, args.output) if target else Output(sys.stdout)
        written = (target.stream, args.output) if target else (sys.stdout,)
        status = _run(args, cast(TextIO, out), stats, written)
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
