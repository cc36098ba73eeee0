"""The command line's arguments: one parser for ``urimine`` with its sub-commands.

:func:`build_parser` is the whole command (extraction options, ``PATH ...``, and the
``index`` and ``query`` sub-parsers): ``--help``, the man page and the shell completions
are made from it. Extraction arguments are parsed by :func:`extract_parser` (the same
options without the sub-parsers: argparse cannot tell a PATH from a sub-command), a
sub-command's by its own sub-parser. Option names are shared with ``urimine index``,
``urimine query`` and ``python -m urimine.spark``: ``-f/--format``, ``--extra-scheme``,
``--rules``, ``--max-length``, ``--encoding``, ``--headers``, ``-j/--jobs``.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, NoReturn, TextIO, cast

from urimine import __version__
from urimine.choices import (
    ALL_RULES,
    DEFAULT_MAX_CANDIDATE_LEN,
    HEADERS,
    HEADERS_HELP,
    PRESETS,
)
from urimine.cli_types import scheme_list, whole_number
from urimine.errors import SinkError, printable
from urimine.sinks import FORMATS

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

__all__ = [
    "COMMANDS",
    "EXIT_ERROR",
    "EXIT_NONE",
    "EXIT_OK",
    "MAX_LENGTH_LIMIT",
    "Parser",
    "add_extraction_arguments",
    "add_run_arguments",
    "add_walk_arguments",
    "build_parser",
    "command_parser",
    "extract_parser",
    "say",
    "whole_number",
]

EXIT_OK, EXIT_NONE, EXIT_ERROR = 0, 1, 2
"""grep's exit statuses: something was output, nothing was, an error occurred."""

COMMANDS = ("index", "query")
"""Sub-command names: a first argument that is one of them is the sub-command, any other
is a PATH (a file named ``index`` is ``./index``)."""

MAX_LENGTH_LIMIT = 1 << 24
"""The largest ``--max-length``: the scanner holds at most this many characters of a
pending candidate (64 MiB at 4 bytes a character), so memory stays bounded; the regular
expressions it builds refuse a bound of 2**32 - 1 or more."""


EXIT_STATUS = (
    "Exit status (as grep's): 0 when at least one URI was written, 1 when none was, "
    "2 when an error occurred (an unreadable or corrupt input, a write error, a usage "
    "error), everything readable still extracted; 130 when interrupted (Ctrl-C), 143 on "
    "SIGTERM, 129 on SIGHUP."
)

MAIL_OFFSETS = (
    "In mail, line, column, start and end count in the decoded text of the part (after "
    "base64 or quoted-printable and the charset), not in the raw message."
)


def say(message: str) -> None:
    """``urimine: MESSAGE`` on stderr, escaped for a terminal; lost quietly when stderr
    is closed or cannot take it (there is nowhere else to say it)."""
    err = sys.stderr
    if err is None:  # closed: print(file=None) would write to stdout
        return
    with contextlib.suppress(OSError, ValueError):
        err.write(f"urimine: {printable(message)}\n")
        err.flush()


class Parser(argparse.ArgumentParser):
    """Usage errors in one line, naming the option, then exit 2; ``--help`` written
    through the same write-error handling as any output; ``help_of`` (when set) makes
    the parser whose help this one shows (only when help is asked for: it imports the
    sub-commands)."""

    help_of: Callable[[], argparse.ArgumentParser] | None = None

    def error(self, message: str) -> NoReturn:
        where = self.prog.removeprefix("urimine").strip()
        prefix = f"{where}: " if where else ""
        say(f"{prefix}{message.removeprefix('argument ')} (see {self.prog} --help)")
        raise SystemExit(EXIT_ERROR)

    def format_help(self) -> str:
        return self.help_of().format_help() if self.help_of is not None else super().format_help()

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        """argparse's (``--help``, ``--version``), but a write error on stdout is
        reported and exits 2 where argparse drops it."""
        out: TextIO = sys.stdout
        if message and file is not None and file is cast(object, out):
            try:
                out.write(message)
                out.flush()
            except OSError as exc:
                say(str(SinkError(exc.strerror or str(exc))))
                raise SystemExit(EXIT_ERROR) from exc
        else:
            super()._print_message(message, file)


def add_extraction_arguments(p: argparse.ArgumentParser) -> None:
    """What is extracted: ``--rules``, ``--extra-scheme``, ``--max-length``, ``--encoding``,
    ``--headers``."""
    g = p.add_argument_group("extraction")
    g.add_argument(
        "--rules",
        default="default",
        metavar="RULES",
        help=f"a preset ({', '.join(PRESETS)}) or comma-separated rules "
        f"({', '.join(ALL_RULES)}), presets among them; -RULE leaves one out "
        "(default,-abbreviated) (default: default)",
    )
    g.add_argument(
        "--extra-scheme",
        action="append",
        default=[],
        metavar="SCHEME",
        type=scheme_list,
        help="also take SCHEME in bare text, as if IANA had registered it "
        "(repeatable or comma-separated; default: none)",
    )
    g.add_argument(
        "--max-length",
        type=whole_number(16, MAX_LENGTH_LIMIT),
        default=DEFAULT_MAX_CANDIDATE_LEN,
        metavar="N",
        help=f"longest candidate, 16 to {MAX_LENGTH_LIMIT} characters"
        f" (default: {DEFAULT_MAX_CANDIDATE_LEN})",
    )
    g.add_argument(
        "--encoding",
        metavar="ENCODING",
        help="encoding of plain text and HTML without a declared charset "
        "(default: UTF-8, undecodable bytes replaced)",
    )
    g.add_argument("--headers", choices=HEADERS, default="all", help=HEADERS_HELP)


def add_walk_arguments(p: argparse.ArgumentParser) -> None:
    """How folders are walked (ripgrep's options and defaults)."""
    g = p.add_argument_group(
        "walking folders",
        "A PATH named on the command line is always read; these apply to what a folder holds.",
    )
    g.add_argument(
        "--hidden",
        action="store_true",
        help="read hidden files and folders (names starting with '.', such as .git) "
        "(default: skipped)",
    )
    g.add_argument(
        "--no-ignore",
        action="store_true",
        help="read what .gitignore, .ignore and .git/info/exclude exclude (default: respected)",
    )
    g.add_argument(
        "-g",
        "--glob",
        action="append",
        default=[],
        metavar="GLOB",
        help="read only files matching GLOB, or not those matching '!GLOB'; gitignore "
        "syntax, repeatable, the last match wins (default: all files)",
    )
    g.add_argument(
        "--max-depth",
        type=whole_number(0),
        metavar="N",
        help="read at most N folder levels below each PATH, 0: the PATHs only (default: no limit)",
    )
    g.add_argument(
        "--follow",
        action="store_true",
        help="follow symbolic links, reporting loops (default: links are skipped)",
    )


def add_run_arguments(
    p: argparse.ArgumentParser,
    what: str,
    jobs_default: str = "none below 512 MB of input, then one per 256 MB",
    jobs_max: int | None = None,
) -> None:
    """``-j/--jobs``, ``--progress/--no-progress`` and ``-v/--verbose``."""
    g = p.add_argument_group("running")
    g.add_argument(
        "-j",
        "--jobs",
        type=whole_number(1, jobs_max),
        metavar="N",
        help=f"worker processes, at most one per usable CPU (default: {jobs_default})",
    )
    prog = g.add_mutually_exclusive_group()
    prog.add_argument(
        "--progress",
        dest="progress",
        action="store_true",
        default=None,
        help="show a progress bar on stderr (default: when stderr is a terminal)",
    )
    prog.add_argument(
        "--no-progress", dest="progress", action="store_false", help="never show a progress bar"
    )
    g.add_argument("-v", "--verbose", action="store_true", help=f"{what} (default: off)")


def _add_output_arguments(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("output")
    g.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="write to FILE, atomically: complete or not at all (default: standard output)",
    )
    g.add_argument(
        "-f",
        "--format",
        choices=FORMATS,
        default="text",
        help="text: one URI a line; jsonl, csv: every field (default: text)",
    )
    dedup = g.add_mutually_exclusive_group()
    dedup.add_argument(
        "--all",
        action="store_true",
        help="every occurrence (default: each URI once, by normalised key, first spelling)",
    )
    dedup.add_argument(
        "--per-document",
        action="store_true",
        help="each URI once per document: file, message or WARC record (default: once in all)",
    )
    g.add_argument(
        "--count",
        action="store_true",
        help="each URI once with its occurrences and documents (default: off)",
    )
    g.add_argument(
        "--canonical",
        action="store_true",
        help="write the normalised form, RFC 3986 section 6 (default: the first spelling)",
    )
    g.add_argument("--strip-fragment", action="store_true", help="drop #fragments (default: kept)")


def _add_filter_arguments(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group(
        "filters", "Repeatable, or comma-separated lists; a host matches itself and its subdomains."
    )
    g.add_argument(
        "--scheme",
        action="append",
        default=[],
        type=scheme_list,
        metavar="SCHEME",
        help="only these schemes (default: all)",
    )
    g.add_argument(
        "--exclude-scheme",
        action="append",
        default=[],
        type=scheme_list,
        metavar="SCHEME",
        help="not these schemes (default: none)",
    )
    g.add_argument(
        "--host",
        action="append",
        default=[],
        metavar="HOST",
        help="only these hosts (default: all)",
    )
    g.add_argument(
        "--exclude-host",
        action="append",
        default=[],
        metavar="HOST",
        help="not these hosts (default: none)",
    )
    g.add_argument(
        "--kind",
        action="append",
        default=[],
        metavar="KIND",
        help="only these kinds: uri, urn (RFC 8141, and the 1993 form), urn-legacy "
        "(the 1993 <URN:...> form only) (default: all)",
    )


def _add_extract(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="a file, a folder (walked), a Maildir, or - for standard input "
        "(default: standard input when it is not a terminal)",
    )
    _add_output_arguments(p)
    _add_filter_arguments(p)
    add_extraction_arguments(p)
    add_walk_arguments(p)
    add_run_arguments(p, "a summary, decoding defects and notes on stderr")
    g = p.add_argument_group("information")
    g.add_argument("--version", action="version", version=f"urimine {__version__}")
    g.add_argument(
        "--completion",
        choices=("bash", "zsh", "fish"),
        metavar="SHELL",
        help="write the completion script for SHELL (bash, zsh or fish) and exit",
    )
    g.add_argument("--man", action="store_true", help="write the man page (roff) and exit")


DESCRIPTION = (
    "Extract URIs and URNs from text, mail archives (mbox, Maildir, .eml) and web crawls "
    "(WARC/WET), compressed or not, delimited as the URI drafts recommend (RFC 3986 "
    "Appendix C) and validated by RFC 3986 and RFC 8141; each once by default, "
    "deduplicated by normalised key (RFC 3986 section 6)."
)

USAGE = "urimine [OPTIONS] [PATH ...]\n       urimine {index,query} ..."


def extract_parser() -> Parser:
    """The parser of ``urimine [OPTIONS] [PATH ...]`` (its ``--help`` is the whole
    command's)."""
    p = Parser(prog="urimine", usage=USAGE, description=DESCRIPTION, add_help=True)
    _add_extract(p)
    p.help_of = build_parser
    return p


def build_parser() -> Parser:
    """The whole command: extraction options, ``PATH ...`` and the sub-commands."""
    from urimine.index.cli import add_index_command, add_query_command

    p = Parser(
        prog="urimine",
        usage=USAGE,
        description=DESCRIPTION,
        epilog=f"{EXIT_STATUS} {MAIL_OFFSETS} A file named index or query is read as "
        "./index or ./query.",
    )
    _add_extract(p)
    sub = p.add_subparsers(dest="command", metavar="{index,query}", title="commands")
    add_index_command(sub)
    add_query_command(sub)
    return p


def command_parser(name: str) -> argparse.ArgumentParser:
    """The sub-parser of the sub-command ``name``."""
    parser = build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found: argparse.ArgumentParser = action.choices[name]
            return found
    raise KeyError(name)
