"""Where a candidate after an opening bracket ends (seed 002 Appendix E: in
``(http://x/a)b`` the URI ends at the first closer without its opener inside it),
counted once for every candidate of the same run.

A candidate counts the brackets of its run until one closer more than openers has
stood. Most meet that closer within a few brackets, or run out of them. In a run of
balanced brackets with a candidate after each opener (``[tel:1[a]`` repeated), every
candidate counted to the run's end: the length bound (8 KB) of Python steps each,
some 0.1 MB/s. Past a few closers the run's levels (openers less closers before
each bracket) are built once instead; a later candidate of the run, whose text is a
tail of the run's, finds its end in them by two binary searches.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from typing import NamedTuple

from urimine.rules import _OPENERS, Config

__all__ = ["cut_unbalanced"]

_COUNTED = 16
"""Closers a candidate counts one by one before it reads the run's levels."""

_PAIR = {o: re.compile(f"[{re.escape(o + c)}]") for o, c in _OPENERS.items()}
"""Either bracket of a pair, by its opener."""


class Levels(NamedTuple):
    """The brackets of one pair in ``text``: ``positions`` in order, ``levels`` the
    openers less the closers up to and including each, and ``drops`` the closers by the
    level they leave, each list in order."""

    text: str
    positions: list[int]
    levels: list[int]
    drops: dict[int, list[int]]


def cut_unbalanced(cfg: Config, uri: str, opener: str, closer: str) -> str:
    """*uri* up to its first closer with no opener inside it (all of it if none).

    The openers are counted a stretch between closers at a time: counted from the start
    at every closer, a URI of balanced brackets cost time quadratic in its length (0.3
    MB/s for ``(http://a/((…))``). Past :data:`_COUNTED` closers, the run's levels
    answer (:func:`_levels_of`)."""
    opened = closed = 0
    start = 0
    k = uri.find(closer)
    while k >= 0:
        opened += uri.count(opener, start, k)
        closed += 1
        if opened < closed:
            return uri[:k]
        if closed == _COUNTED and cfg.speed.kept:
            return _cut_by_levels(_levels_of(cfg, uri, opener), uri)
        start = k + 1
        k = uri.find(closer, start)
    return uri


def _levels_of(cfg: Config, uri: str, opener: str) -> Levels:
    """The levels of a text that ends in *uri*: the run's, kept in ``cfg.text.brackets`` by
    opener, when *uri* is a tail of it; else *uri*'s own, kept for the candidates after
    it."""
    known = cfg.text.brackets.get(opener)
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
    known = cfg.text.brackets[opener] = Levels(uri, positions, levels, drops)
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
