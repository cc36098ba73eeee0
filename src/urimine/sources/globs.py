"""What a directory walk leaves out: ``-g/--glob`` globs and ``.gitignore``/``.ignore`` files.

The rules are ripgrep's (its user guide, "Automatic filtering" and "Manual filtering:
globs"), with gitignore's pattern syntax (``man gitignore``) matched by ``pathspec``:

* ``-g GLOB`` includes what matches, ``-g '!GLOB'`` excludes it; when several globs match,
  the one given last wins; once any glob includes, a file that no glob matches is left
  out (a folder is still entered). Globs are gitignore patterns matched against the path
  relative to the walked PATH (a glob without ``/`` matches a name at any depth), with
  ripgrep's ``{a,b}`` alternatives. They win over ignore files and over hiddenness.
* Ignore files apply to their own folder and below, the deepest match winning; any
  ``.ignore`` match wins over any ``.gitignore`` match, which wins over
  ``.git/info/exclude``. A ``!pattern`` in them includes again. ``.gitignore`` rules stop
  at the nearest folder holding ``.git`` (a nested repository is its own).

Each matcher answers :data:`IGNORE`, :data:`INCLUDE` or :data:`NONE` (no opinion).
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pathspec

__all__ = [
    "IGNORE",
    "INCLUDE",
    "NONE",
    "Globs",
    "IgnoreLevel",
    "expand_braces",
    "load_level",
    "match_levels",
]

IGNORE, INCLUDE, NONE = "ignore", "include", None

IGNORE_FILES = (".ignore", ".gitignore")
"""The ignore files read in every walked folder, highest precedence first."""


def expand_braces(glob: str) -> list[str]:
    """``a{b,c}d`` as ``abd`` and ``acd`` (nested alternatives too); a glob without a
    complete ``{...,...}`` is returned as it is."""
    depth, start = 0, -1
    commas: list[int] = []
    for i, ch in enumerate(glob):
        if ch == "{":
            if depth == 0:
                start, commas = i, []
            depth += 1
        elif ch == "}" and depth:
            depth -= 1
            if depth == 0 and commas:
                head, tail = glob[:start], glob[i + 1 :]
                cuts = [start, *commas, i]
                options = [glob[a + 1 : b] for a, b in itertools.pairwise(cuts)]
                return [x for opt in options for x in expand_braces(head + opt + tail)]
        elif ch == "," and depth == 1:
            commas.append(i)
    return [glob]


def _spec(lines: Iterable[str]) -> pathspec.GitIgnoreSpec | None:
    """The matcher of gitignore ``lines``, or None when they hold no pattern (imported
    only then: most walks meet no ignore file and no glob)."""
    lines = list(lines)
    if not any(line.strip() and not line.startswith("#") for line in lines):
        return None
    import pathspec

    spec = pathspec.GitIgnoreSpec.from_lines(lines)
    return spec if spec.patterns else None


def _verdict(spec: pathspec.GitIgnoreSpec, rel: str, is_dir: bool) -> str | None:
    """gitignore's answer for ``rel``: matched (IGNORE), re-included (INCLUDE) or NONE."""
    result = spec.check_file(rel + "/" if is_dir else rel)
    if result.include is None:
        return NONE
    return IGNORE if result.include else INCLUDE


class Globs:
    """The ``-g/--glob`` overrides (see the module docstring)."""

    def __init__(self, globs: Sequence[str]) -> None:
        lines: list[str] = []
        self.includes = False
        for glob in globs:
            negated = glob.startswith("!")
            body = glob[1:] if negated else glob
            self.includes = self.includes or not negated
            # A matching line "ignores" in gitignore terms: that is our include; a "!"
            # line re-includes: that is our exclude.
            lines += [("!" if negated else "") + g for g in expand_braces(body)]
        self.spec = _spec(lines) if lines else None

    def __bool__(self) -> bool:
        return self.spec is not None

    def match(self, rel: str, is_dir: bool) -> str | None:
        """INCLUDE, IGNORE or NONE for the path ``rel`` (relative to the walked PATH)."""
        if self.spec is None:
            return NONE
        verdict = _verdict(self.spec, rel, is_dir)
        if verdict == IGNORE:
            return INCLUDE
        if verdict == INCLUDE:
            return IGNORE
        return IGNORE if self.includes and not is_dir else NONE


@dataclass(frozen=True, slots=True)
class IgnoreLevel:
    """The ignore files of one folder."""

    prefix: str
    """The folder's absolute path and a ``/``: what its patterns are relative to."""
    ignore: pathspec.GitIgnoreSpec | None
    gitignore: pathspec.GitIgnoreSpec | None
    exclude: pathspec.GitIgnoreSpec | None
    has_git: bool

    def __bool__(self) -> bool:
        return bool(self.ignore or self.gitignore or self.exclude or self.has_git)


def _read_lines(path: str) -> list[str]:
    """The lines of an ignore file; one that cannot be read counts as empty."""
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as fh:
            return fh.read().splitlines()
    except (OSError, ValueError):
        return []


def load_level(folder: str, names: Collection[str] | None = None) -> IgnoreLevel | None:
    """The ignore files of ``folder`` (absolute), or None when it has none; ``names``,
    when given, are the folder's hidden entries (the others are not looked for)."""
    specs = [
        _spec(_read_lines(os.path.join(folder, name))) if names is None or name in names else None
        for name in IGNORE_FILES
    ]
    git = os.path.join(folder, ".git")
    has_git = os.path.exists(git) if names is None else ".git" in names
    exclude = _spec(_read_lines(os.path.join(git, "info", "exclude"))) if has_git else None
    prefix = folder.rstrip("/") + "/"
    level = IgnoreLevel(prefix, specs[0], specs[1], exclude, has_git)
    return level if level else None


def match_levels(levels: Sequence[IgnoreLevel], path: str, is_dir: bool) -> str | None:
    """INCLUDE, IGNORE or NONE for the absolute ``path`` under the folders ``levels``
    (outermost first): ``.ignore`` first, then ``.gitignore`` and ``info/exclude`` up to
    the nearest repository root."""
    for attr in ("ignore", "gitignore", "exclude"):
        for level in reversed(levels):
            spec = getattr(level, attr)
            if spec is not None:
                verdict = _verdict(spec, path[len(level.prefix) :], is_dir)
                if verdict is not NONE:
                    return verdict
            if attr != "ignore" and level.has_git:
                break
    return NONE
