"""Where a candidate after an opening bracket ends (RFC 3986 Appendix C: in
``(http://x/a)b`` the URI ends at the first closer without its opener inside it).

A candidate counts its brackets until one closer more than openers has stood. Past a
few closers the run's levels (openers less closers before each bracket) are built once
and kept: in a run of balanced brackets with a candidate after each opener
(``[tel:1[a]`` repeated), each later candidate, whose text is a tail of the run's,
finds its end by two binary searches instead of counting to the run's end.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from typing import NamedTuple

from urimine.rules.context import Context
from urimine.rules.patterns import OPENERS

__all__ = ["Levels", "cut_unbalanced"]

_PAIR = {o: re.compile(f"[{re.escape(o + c)}]") for o, c in OPENERS.items()}
"""Either bracket of a pair, by its opener."""


class Levels(NamedTuple):
    """The brackets of one pair in ``text``: ``positions`` in order, ``levels`` the
    openers less the closers up to and including each, and ``drops`` the closers by the
    level they leave, each list in order."""

    text: str
    positions: list[int]
    levels: list[int]
    drops: dict[int, list[int]]


def cut_unbalanced(ctx: Context, uri: str, opener: str, closer: str) -> str:
    """*uri* up to its first closer with no opener inside it (all of it if none). The
    openers are counted a stretch between closers at a time (never from the start at
    each closer); past a few closers, the run's levels answer."""
    counted = ctx.tuning.brackets_counted if ctx.kept else -1
    opened = closed = 0
    start = 0
    k = uri.find(closer)
    while k >= 0:
        opened += uri.count(opener, start, k)
        closed += 1
        if opened < closed:
            return uri[:k]
        if closed == counted:
            return _cut_by_levels(_levels_of(ctx, uri, opener), uri)
        start = k + 1
        k = uri.find(closer, start)
    return uri


def _levels_of(ctx: Context, uri: str, opener: str) -> Levels:
    """The levels of a text that ends in *uri*: the run's, kept by opener, when *uri* is
    a tail of it; else *uri*'s own, kept for the candidates after it."""
    known = ctx.memo.brackets.get(opener)
    if known is not None and known.text.endswith(uri):
        return known
    positions: list[int] = []
    levels: list[int] = []
    drops: dict[int, list[int]] = {}
    level = 0
    for m in _PAIR[opener].finditer(uri):
        at = m.start()
        if uri[at] == opener:
            level += 1
        else:
            level -= 1
            drops.setdefault(level, []).append(at)
        positions.append(at)
        levels.append(level)
    known = ctx.memo.brackets[opener] = Levels(uri, positions, levels, drops)
    return known


def _cut_by_levels(known: Levels, uri: str) -> str:
    """:func:`cut_unbalanced` read from the levels of a text that ends in *uri*: its end
    is the first closer after its start that leaves the level one below the level
    there."""
    start = len(known.text) - len(uri)
    i = bisect_left(known.positions, start)
    below = (known.levels[i - 1] if i else 0) - 1
    closers = known.drops.get(below)
    if closers:
        j = bisect_left(closers, start)
        if j < len(closers):
            return uri[: closers[j] - start]
    return uri
