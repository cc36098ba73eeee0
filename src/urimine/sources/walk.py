"""Expansion of command-line PATHs into inputs: files, ``-`` and Maildirs."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence

from urimine.sources.mbox import is_maildir


def iter_inputs(paths: Sequence[str]) -> Iterator[str]:
    """Expand PATHs: ``-`` is stdin, a directory is walked recursively in sorted order.

    A Maildir (a directory with ``cur/`` and/or ``new/``) is one input, not a
    tree of files. No PATH at all means ``-``. Paths that do not exist are
    passed through so that :func:`open_units` reports them as source errors;
    so is a directory that cannot be listed.
    """
    if not paths:
        yield "-"
        return
    for path in paths:
        if path != "-" and os.path.isdir(path) and not is_maildir(path):
            yield from _walk(path)
        else:
            yield path


def _walk(folder: str) -> Iterator[str]:
    """Regular files under *folder* (and symlinks to them), depth first, sorted by name;
    symlinked folders not followed. FIFOs, sockets and devices are left out: reading
    one would block the run or never end (one named on the command line is read)."""
    try:
        with os.scandir(folder) as it:
            entries = sorted(it, key=lambda e: e.name)
    except OSError:
        yield folder  # open_units turns this into a SourceError with the reason
        return
    for entry in entries:
        try:
            is_dir = entry.is_dir(follow_symlinks=False)
        except OSError:
            is_dir = False
        if is_dir:
            if is_maildir(entry.path):
                yield entry.path
            else:
                yield from _walk(entry.path)
        elif _is_file(entry):
            yield entry.path


def _is_file(entry: os.DirEntry[str]) -> bool:
    """Whether *entry* is a regular file, or a symlink to one."""
    try:
        return entry.is_file()
    except OSError:
        return False
