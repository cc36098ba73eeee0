"""Expansion of command-line PATHs into inputs, walking folders as ripgrep does.

A PATH named on the command line is always read, whatever it is called and whatever an
ignore file says; ``-`` is standard input, a Maildir (a folder with ``cur/`` or ``new/``)
is one input. A folder is walked depth first in name order, leaving out, by default:
hidden files and folders (a name starting with ``.``, so ``.git``, ``.hg`` and ``.svn``
too), what ``.gitignore``, ``.ignore`` and ``.git/info/exclude`` exclude (also those of
the folders above the PATH up to the root of the git repository holding it), symbolic
links, and anything but regular files (FIFOs, sockets, devices: reading one could block
the run for ever). :class:`Walk` changes that: ``hidden``, ``ignore_files``, ``globs``
(ripgrep's ``-g``, :mod:`urimine.sources.globs`), ``max_depth`` and ``follow``.

A folder the walk cannot go into (unlistable, or a symbolic link back to a folder above
it) comes out as an :class:`Unwalked` path, which :func:`urimine.sources.open_units`
reports as a :class:`~urimine.errors.SourceError` with its reason.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace

from urimine.sources.globs import IGNORE, INCLUDE, Globs, IgnoreLevel, load_level, match_levels
from urimine.sources.mbox import is_maildir

__all__ = ["Unwalked", "Walk", "file_identity", "iter_inputs"]


@dataclass(frozen=True, slots=True)
class Walk:
    """How folders named as inputs are walked (the defaults are ripgrep's)."""

    hidden: bool = False
    """Read hidden files and folders (``--hidden``)."""
    ignore_files: bool = True
    """Respect ``.gitignore``, ``.ignore`` and ``.git/info/exclude`` (``--no-ignore``: off)."""
    globs: tuple[str, ...] = ()
    """``-g/--glob`` globs, ``!`` to exclude; the last matching one wins."""
    max_depth: int | None = None
    """Folder levels below a PATH to read (0: only the PATHs themselves)."""
    follow: bool = False
    """Follow symbolic links (``--follow``), folder loops detected and reported."""
    skip: frozenset[tuple[int, int]] = frozenset()
    """(device, inode) of the files the run itself writes (its output, an index database
    and its journal): never read, so that a run over the folder holding its own output
    cannot feed on it (ripgrep does the same). Met in a walk they are passed over; named
    as a PATH they are reported."""

    def without(self, *files: object) -> Walk:
        """This walk, also skipping the open files or paths ``files`` (those that exist
        and are regular files; anything else is ignored)."""
        found = set(self.skip)
        for file in files:
            ident = file_identity(file)
            if ident is not None:
                found.add(ident)
        return replace(self, skip=frozenset(found))


def file_identity(file: object) -> tuple[int, int] | None:
    """(device, inode) of a regular file given by path, descriptor or open stream."""
    try:
        if isinstance(file, int):
            st = os.fstat(file)
        elif isinstance(file, str):
            st = os.stat(file)
        else:
            fileno = getattr(file, "fileno", None)
            if fileno is None:
                return None
            st = os.fstat(fileno())
    except (OSError, ValueError):
        return None
    return (st.st_dev, st.st_ino) if stat.S_ISREG(st.st_mode) else None


DEFAULT_WALK = Walk()


class Unwalked(str):
    """A folder the walk could not go into, with the reason (a ``str``: its path)."""

    reason: str

    def __new__(cls, path: str, reason: str) -> Unwalked:
        self = super().__new__(cls, path)
        self.reason = reason
        return self


def iter_inputs(paths: Iterable[str], walk: Walk | None = None) -> Iterator[str]:
    """Expand PATHs into inputs: no PATH at all means ``-``; a folder that is not a
    Maildir is walked (see the module docstring); anything else, a missing path
    included, is passed through for :func:`~urimine.sources.open_units` to read or
    report."""
    walk = walk or DEFAULT_WALK
    given = False
    for path in paths:
        given = True
        if path != "-" and os.path.isdir(path) and not is_maildir(path):
            yield from _Walker(walk, path).inputs()
        elif walk.skip and path != "-" and file_identity(path) in walk.skip:
            yield Unwalked(path, "is an output of this run: not read")
        else:
            yield path
    if not given:
        yield "-"


class _Walker:
    """One walk of one PATH."""

    def __init__(self, walk: Walk, root: str) -> None:
        self.walk = walk
        self.root = root
        self.globs = Globs(walk.globs)
        self.top = os.path.abspath(root)
        self.skip_inodes = {ino for _dev, ino in walk.skip}

    def inputs(self) -> Iterator[str]:
        if self.walk.max_depth == 0:
            return
        levels = self._levels_above() if self.walk.ignore_files else ()
        seen = {self._identity(self.root): self.root} if self.walk.follow else {}
        yield from self._folder(self.root, self.top, "", 1, levels, seen)

    def _levels_above(self) -> tuple[IgnoreLevel, ...]:
        """The ignore files of the folders above the PATH, up to the root of the git
        repository holding it (none when it is in no repository)."""
        above: list[str] = []
        folder = self.top
        while True:
            parent = os.path.dirname(folder)
            if parent == folder:
                return ()  # no repository above
            folder = parent
            above.append(folder)
            if os.path.exists(os.path.join(folder, ".git")):
                break
        loaded = (load_level(f) for f in reversed(above))
        return tuple(level for level in loaded if level is not None)

    def _folder(
        self,
        path: str,
        absolute: str,
        rel: str,
        depth: int,
        levels: tuple[IgnoreLevel, ...],
        seen: dict[tuple[int, int], str],
    ) -> Iterator[str]:
        try:
            entries, levels = self._listing(path, absolute, levels)
        except OSError as exc:
            yield Unwalked(path, exc.strerror or str(exc))
            return
        # Without globs and ignore files only hiddenness decides (most walks, every file).
        by_name_only = not self.globs and not levels
        for entry in entries:
            kind = self._kind(entry)
            if kind is None:
                continue
            # A Maildir is one input: globs and ignore files see it as a file.
            is_dir = kind == "dir" and not is_maildir(entry.path)
            name = entry.name
            if by_name_only and not is_dir:
                if self._visible(name) and not self._written(entry):
                    yield entry.path
                continue
            name_rel = rel + name
            name_abs = absolute.rstrip("/") + "/" + name
            if not self._wanted(name, name_rel, name_abs, is_dir, levels):
                continue
            if not is_dir:
                if not self._written(entry):
                    yield entry.path
            elif self.walk.max_depth is None or depth < self.walk.max_depth:
                yield from self._below(entry.path, name_abs, name_rel, depth, levels, seen)

    def _listing(
        self, path: str, absolute: str, levels: tuple[IgnoreLevel, ...]
    ) -> tuple[list[os.DirEntry[str]], tuple[IgnoreLevel, ...]]:
        """The entries of the folder ``path``, by name, and the ignore levels that apply
        in it (``levels`` and its own ignore files)."""
        with os.scandir(path) as it:
            entries = sorted(it, key=lambda e: e.name)
        if self.walk.ignore_files:
            level = load_level(absolute, {e.name for e in entries if e.name.startswith(".")})
            if level is not None:
                levels = (*levels, level)
        return entries, levels

    def _below(
        self,
        path: str,
        absolute: str,
        rel: str,
        depth: int,
        levels: tuple[IgnoreLevel, ...],
        seen: dict[tuple[int, int], str],
    ) -> Iterator[str]:
        """The inputs under the sub-folder ``path``; when following links, a folder
        already on the way down from the PATH is a loop, reported and not entered."""
        if not self.walk.follow:
            yield from self._folder(path, absolute, rel + "/", depth + 1, levels, seen)
            return
        ident = self._identity(path)
        if ident in seen:
            yield Unwalked(path, f"file system loop: leads back to {seen[ident]}")
            return
        seen[ident] = path
        try:
            yield from self._folder(path, absolute, rel + "/", depth + 1, levels, seen)
        finally:
            del seen[ident]

    @staticmethod
    def _identity(path: str) -> tuple[int, int]:
        try:
            st = os.stat(path)
        except OSError:
            return (-1, -1)
        return (st.st_dev, st.st_ino)

    def _written(self, entry: os.DirEntry[str]) -> bool:
        """Whether the file is one the run writes (its inode is known without a stat)."""
        if not self.skip_inodes or entry.inode() not in self.skip_inodes:
            return False
        return file_identity(entry.path) in self.walk.skip

    def _kind(self, entry: os.DirEntry[str]) -> str | None:
        """``dir``, ``file`` or None (not read): symbolic links only with ``follow``
        (a dangling one is passed on, to be reported), regular files only."""
        try:
            if not entry.is_symlink():
                if entry.is_dir(follow_symlinks=False):
                    return "dir"
                return "file" if entry.is_file(follow_symlinks=False) else None
            if not self.walk.follow:
                return None
            mode = os.stat(entry.path).st_mode
        except FileNotFoundError:
            return "file" if self.walk.follow else None
        except OSError:
            return None
        if stat.S_ISDIR(mode):
            return "dir"
        return "file" if stat.S_ISREG(mode) else None

    def _wanted(
        self, name: str, rel: str, absolute: str, is_dir: bool, levels: tuple[IgnoreLevel, ...]
    ) -> bool:
        """Globs first, then ignore files, then hiddenness (ripgrep's precedence)."""
        verdict = self.globs.match(rel, is_dir)
        if verdict is None and levels:
            verdict = match_levels(levels, absolute, is_dir)
        if verdict == INCLUDE:
            return True
        if verdict == IGNORE:
            return False
        return self._visible(name)

    def _visible(self, name: str) -> bool:
        """Whether hiddenness lets the entry *name* through (``--hidden``, or no dot)."""
        return self.walk.hidden or not name.startswith(".")
