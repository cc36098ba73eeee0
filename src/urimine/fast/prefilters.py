"""Prefilters composed from the fragments of the rules a scanner enables (the rule table,
:mod:`urimine.rules.table`), compiled at their first use and cached per rule set.

At each trigger character, the sparse prefilter is the alternation of the rules'
sparse fragments after that character (a literal first: the regex engine skips to it at
memchr speed); the dense one, of their dense fragments. At ":" in the dense modes the
rules give what may follow the colon of each scheme name (:class:`ColonFragment`): the
names are searched in C in the text reversed (:class:`ColonNames`), and what follows
is asked at each name's colon.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from urimine._wordtree import word_tree
from urimine.rules.base import ColonFragment, Mode
from urimine.rules.config import Config
from urimine.rules.patterns import ASCII_STOP
from urimine.rules.table import fragments

__all__ = ["AFTER_READ", "ColonNames", "colon_names", "pattern"]

AFTER_READ = 8
"""How many characters after a colon the names search may read: "//" and one, or a
name's near (a part's character classes, at most this many)."""


def sources(cfg: Config, char: str, mode: Mode) -> list[str]:
    """The distinct regex fragments at *char* in *mode*, in table order."""
    out: list[str] = []
    for fragment in fragments(cfg, char):
        found = fragment(mode, cfg)
        if isinstance(found, str) and found not in out:
            out.append(found)
    return out


@cache
def pattern(cfg: Config, char: str, mode: Mode) -> re.Pattern[str] | None:
    """The prefilter at *char* in *mode*: the trigger, then any fragment's rest; where
    the rules give no regex fragment in a dense mode (the colon's are searched by name,
    :func:`colon_names`), the sparse one; None where no rule has one at all."""
    found = sources(cfg, char, mode)
    if not found:
        return pattern(cfg, char, Mode.SPARSE) if mode is not Mode.SPARSE else None
    for source in found:
        assert source.startswith(re.escape(char)), source
    tails = [source[len(re.escape(char)) :] for source in found]
    body = tails[0] if len(tails) == 1 else "(?:" + "|".join(tails) + ")"
    return re.compile(re.escape(char) + body)


@dataclass(frozen=True, slots=True)
class ColonNames:
    """The dense modes' colon search: a name the colon site takes, then ":" (in
    ASCII-lowered text reversed, so each pattern starts with the colon), and what may
    follow each name's colon."""

    strict_source: bytes
    """A name after a dot, or glued neither to a letter nor to a letter and one of
    "0-9+-": where no run of scheme characters is 64 long, a superset of the words the
    site takes (a longer run's word may start after any "-", up to 64 before the
    colon). Compiled at its first use (:meth:`strict`), as are the others: the
    names' tree costs tens of milliseconds to compile, and many blocks need only one."""
    loose_source: bytes
    """A name not glued to a letter."""
    after: dict[bytes, re.Pattern[str]]
    """By name (reversed ASCII, as the search finds it), what must follow its colon."""
    short: dict[bytes, re.Pattern[str]]
    """The same where no candidate from the colon can be too long."""
    any_after: re.Pattern[str] | None = None
    """What must follow the colon of any other word (the rules that take any word before
    "//"); None: no rule does."""
    safe_source: bytes | None = None
    """:attr:`strict_source` with what :attr:`short` needs after each name's colon (the parts'
    ``short_near`` and ``short_never``), for blocks where no run after a colon may be too
    long; None where it is :attr:`strict_source`."""

    def strict(self) -> re.Pattern[bytes]:
        """:attr:`strict_source` compiled (at its first use)."""
        return _compiled(self.strict_source)

    def loose(self) -> re.Pattern[bytes]:
        """:attr:`loose_source` compiled (at its first use)."""
        return _compiled(self.loose_source)

    def safe(self) -> re.Pattern[bytes]:
        """:attr:`safe_source` compiled (at its first use), or :meth:`strict`'s."""
        return _compiled(self.strict_source if self.safe_source is None else self.safe_source)


@cache
def _compiled(source: bytes) -> re.Pattern[bytes]:
    return re.compile(source)


_STOP_BUT_BACKSLASH = ASCII_STOP.replace("\\x5c", "")
_BOUNDARY_STRICT = r"(?:\.|(?![a-z])(?![0-9+\-][a-z]))"


@cache
def colon_names(cfg: Config, mode: Mode) -> ColonNames | None:
    """The colon search of *mode* (a dense one), or None where every word may be a
    scheme (the any-scheme rule): then the sparse prefilter serves."""
    if "any-scheme" in cfg.rules:
        return None
    checks: dict[str, list[str]] = {}
    shorts: dict[str, list[str]] = {}
    plain: dict[str, set[_Needs]] = {}
    safe: dict[str, set[_Needs]] = {}
    any_word: list[str] = []
    for fragment in fragments(cfg, ":"):
        found = fragment(mode, cfg)
        assert isinstance(found, list), found
        for part in found:
            if part.any_word:
                any_word.append(part.after)  # (by its own branch: the names keep theirs)
                continue
            short = (part.near, part.short_near, part.short_never, part.before)
            for name in cfg.schemes if part.names is None else part.names:
                if name.isascii():
                    checks.setdefault(name, []).append(part.after)
                    shorts.setdefault(name, []).append(part.short or part.after)
                    plain.setdefault(name, set()).add((part.near, (), (), part.before))
                    safe.setdefault(name, set()).add(short)
    # After the colon (before it in the text reversed): not what ends a run, nor "//"
    # then that (the site dismisses those); then the names, each with what it needs
    # after its colon (in the text reversed, a look-behind past the name).
    # (a backslash only before "/": JSON's escaped slashes, "https:\\/")
    # ("//" at a line end: the wrapped rule's, which joins the next line)
    wrapped = r"(?![ \t\r\n])" if "wrapped" in cfg.rules else ""
    start = rf":(?<!{_STOP_BUT_BACKSLASH}:)(?<![^/]\\:)(?<!{wrapped}{ASCII_STOP}//:)"
    head = start + f"({_branches(plain, bool(any_word))})"
    safe_head = start + f"({_branches(safe, bool(any_word))})"
    return ColonNames(
        (head + _BOUNDARY_STRICT).encode(),
        (head + "(?![a-z])").encode(),
        _by_name(checks),
        _by_name(shorts),
        re.compile(_union(any_word)) if any_word else None,
        (safe_head + _BOUNDARY_STRICT).encode() if safe != plain else None,
    )


_Needs = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...]]
"""What a part needs right after a colon (its near, its short near and short never) and
right before its name (its before)."""


def _behind(classes: tuple[str, ...], sign: str, name: int) -> str:
    """A look-behind, from the end of a name *name* long (in the text reversed), for
    what follows its colon: *classes*, a character class (its body) a character."""
    if not classes:
        return ""
    assert len(classes) <= AFTER_READ, classes
    return "".join(f"[{c}]" for c in reversed(classes)).join((f"(?<{sign}", f":.{{{name}}})"))


def _ahead(before: tuple[str, ...]) -> str:
    """A look-ahead, from the end of a name (in the text reversed), for one of the
    strings *before* right before it."""
    if not before:
        return ""
    return "|".join(re.escape(b.lower()[::-1]) for b in before).join(("(?=", ")"))


def _branches(conditions: dict[str, set[_Needs]], any_word: bool) -> str:
    """The names in one tree, each followed by what any of its parts needs after its
    colon (nothing, where one part needs nothing): a colon whose name does not follow
    costs no more than without."""
    marks: dict[str, str] = {}
    words = []
    for name, parts in conditions.items():
        each = {
            _behind(near, "=", len(name))
            + _behind(short_near, "=", len(name))
            + _behind(never, "!", len(name))
            + _ahead(before)
            for near, short_near, never, before in parts
        }
        if "" in each:
            words.append(name[::-1])
            continue
        check = "|".join(sorted(each)).join(("(?:", ")"))
        words.append(name[::-1] + marks.setdefault(check, chr(0xE000 + len(marks))))
    atoms = {mark: check for check, mark in marks.items()}
    branches = [word_tree(words, lambda c: atoms.get(c) or re.escape(c))]
    if any_word:
        branches.append(r"(?<=//:)[a-z0-9+.\-]*[a-z]")  # any word, before "//"
    return "|".join(branches)


def _by_name(parts: dict[str, list[str]]) -> dict[bytes, re.Pattern[str]]:
    """Each name's parts compiled into one pattern (shared by the names whose parts are
    alike), keyed by the name reversed, as the names search finds it."""
    compiled: dict[str, re.Pattern[str]] = {}
    out: dict[bytes, re.Pattern[str]] = {}
    for name, sources in parts.items():
        source = _union(sources)
        if source not in compiled:
            compiled[source] = re.compile(source)
        out[name[::-1].encode("ascii")] = compiled[source]
    return out


def _union(parts: list[str]) -> str:
    """One source matching where any of *parts* does (each starts with ":")."""
    distinct = list(dict.fromkeys(parts))
    if len(distinct) == 1:
        return distinct[0]
    return ":(?:" + "|".join(part[1:] for part in distinct) + ")"


def colon_fragments(cfg: Config, mode: Mode) -> list[ColonFragment]:
    """Every rule's colon fragments in *mode* (a dense one), for tests."""
    out: list[ColonFragment] = []
    for fragment in fragments(cfg, ":"):
        found = fragment(mode, cfg)
        assert isinstance(found, list)
        out += found
    return out
