"""The man page and the shell completions, both made from the parser of
:func:`urimine.cli_args.build_parser`, so that neither can fall behind an option.

``urimine --man`` writes the page (roff, ``man -l -`` shows it), ``urimine --completion
bash|zsh|fish`` the completion script (made by ``shtab``). ``pip install`` puts both
where ``man`` and bash-completion look beside the ``urimine`` command
(``share/man/man1``, ``share/bash-completion/completions``; zsh's and fish's folders
too): ``scripts/gen_shell_files.py`` writes them into ``share/`` from this module, and a
test keeps them equal to what it makes.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator

from urimine import __version__
from urimine.cli_args import EXIT_STATUS, MAIL_OFFSETS, build_parser

__all__ = ["SHELLS", "completion", "man_page"]

SHELLS = ("bash", "zsh", "fish")

_EXAMPLES = (
    ("urimine notes.txt", "each URI and URN once, first spelling, in order of appearance"),
    (
        "urimine -f jsonl -o out.jsonl list.mbox.gz",
        "every field of each, with the message, part and line (in the decoded part)",
    ),
    ("urimine --count --host example.org crawl.warc.gz", "URIs under example.org, counted"),
    ("urimine -g '!*.tsv' --exclude-scheme mailto dump/", "a folder, without .tsv files"),
    ("urimine index links.db archive/", "build or update a link index"),
    ("urimine query links.db links-to example.org", "who links to a host"),
)


def completion(shell: str) -> str:
    """The completion script of ``urimine`` for ``shell`` (bash, zsh or fish)."""
    import shtab

    parser = build_parser()
    _mark_files(parser, shtab.FILE)
    text: str = shtab.complete(parser, shell=shell)
    return text if text.endswith("\n") else text + "\n"


def _mark_files(parser: argparse.ArgumentParser, files: object) -> None:
    """Complete PATH, DB, SOURCE, FILE and the like as file names."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                _mark_files(sub, files)
        elif action.metavar in ("PATH", "DB", "SOURCE", "FILE") or action.dest == "output":
            action.complete = files  # type: ignore[attr-defined]


# -- man page -------------------------------------------------------------------------------


def _roff(text: str) -> str:
    """Text for roff: backslashes and hyphens escaped, no line starting a request."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return re.sub(r"(?m)^([.'])", r"\\&\1", text)


def _flags(action: argparse.Action) -> str:
    meta = _metavar(action)
    names = ", ".join(f"\\fB{_roff(s)}\\fR" for s in action.option_strings)
    return f"{names} \\fI{_roff(meta)}\\fR" if meta else names


def _metavar(action: argparse.Action) -> str:
    if action.nargs == 0:
        return ""
    if action.metavar is not None:
        return str(action.metavar)
    if action.choices is not None:
        return "{" + ",".join(str(c) for c in action.choices) + "}"
    return action.dest.upper()


def _actions(parser: argparse.ArgumentParser) -> Iterator[str]:
    """``.TP`` entries for the positionals and options of ``parser``, by group."""
    for group in parser._action_groups:
        shown = [
            a
            for a in group._group_actions
            if a.help != argparse.SUPPRESS and not isinstance(a, argparse._SubParsersAction)
        ]
        if not shown:
            continue
        if group.title not in ("positional arguments", "options"):
            yield f'.SS "{_roff(str(group.title).capitalize())}"'
            if group.description:
                yield _roff(group.description)
        for action in shown:
            head = _flags(action) if action.option_strings else f"\\fI{_roff(_metavar(action))}\\fR"
            yield ".TP"
            yield head
            yield _roff(action.help % {"default": action.default} if action.help else "")


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _command(name: str, parser: argparse.ArgumentParser) -> Iterator[str]:
    yield f'.SS "{_roff(parser.prog)}"'
    usage = parser.format_usage().removeprefix("usage: ").strip()
    yield f".B {_roff(' '.join(usage.split()))}"
    yield ".PP"
    yield _roff(parser.description or "")
    yield from _actions(parser)
    if parser.epilog:
        yield ".PP"
        yield _roff(parser.epilog)
    for sub in _subparsers(parser).values():
        yield from _command(sub.prog, sub)


def man_page() -> str:
    """The ``urimine(1)`` man page, in roff."""
    parser = build_parser()
    lines = [
        f'.TH URIMINE 1 "" "urimine {__version__}" "User Commands"',
        ".SH NAME",
        "urimine \\- extract URIs and URNs from text, mail archives and web crawls",
        ".SH SYNOPSIS",
        ".B urimine",
        "[\\fIOPTIONS\\fR] [\\fIPATH\\fR ...]",
        ".br",
        ".B urimine index",
        "\\fIDB\\fR \\fIPATH\\fR ... [\\fIOPTIONS\\fR]",
        ".br",
        ".B urimine query",
        "\\fIDB\\fR {top,links\\-to,links\\-from,hosts,stats,export} ...",
        ".SH DESCRIPTION",
        _roff(parser.description or ""),
        ".PP",
        _roff(MAIL_OFFSETS),
        ".PP",
        _roff(
            "A first argument that is a sub-command name (index, query) is the sub-command; "
            "a file of that name is read as ./index or ./query."
        ),
        ".SH OPTIONS",
        *_actions(parser),
        ".SH COMMANDS",
    ]
    for name, sub in _subparsers(parser).items():
        lines += _command(name, sub)
    lines += [".SH EXIT STATUS", _roff(EXIT_STATUS), ".SH EXAMPLES"]
    for command, what in _EXAMPLES:
        lines += [".TP", f"\\fB{_roff(command)}\\fR", _roff(what)]
    lines += [".SH SEE ALSO", "\\fBrg\\fR(1), \\fBgrep\\fR(1), \\fBgitignore\\fR(5)"]
    return "\n".join(lines) + "\n"
