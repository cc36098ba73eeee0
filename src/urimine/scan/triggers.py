"""Where the next trigger is: the prefilters composed from the rule table, sparse while
triggers are sparse, dense where they crowd and lead nowhere.

Each trigger character has its sparse prefilter, a literal first (memchr speed); within
the look-ahead of an unfinished buffer's end, plain ``str.find`` (the rules then wait
for more text). After :attr:`Tuning.dense_misses` fruitless triggers of one character
close together, the next :attr:`Tuning.dense_span` characters are searched with the
dense prefilters (``Speed.dense``): the colons by the scheme names in C
(:mod:`urimine.fast.dense`), the other characters by their dense fragments.

What is built from the rule set alone is built once per rule set (:func:`plan`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from urimine.fast.dense import LOOKAHEAD, DenseColons
from urimine.fast.prefilters import colon_names, pattern
from urimine.rules.base import Mode
from urimine.rules.config import Config
from urimine.rules.context import Context
from urimine.speed import ScanStats

__all__ = ["LOOKAHEAD", "Plan", "TriggerFinder", "plan"]

NONE = 1 << 62
"""A finder's "none left": after every index."""


@dataclass(frozen=True, slots=True)
class Plan:
    """What a trigger finder needs of a rule set, built once per rule set: the trigger
    characters and each one's sparse prefilter's search."""

    chars: str
    searches: tuple[Callable[..., re.Match[str] | None], ...]


@cache
def plan(cfg: Config, chars: str) -> Plan:
    """The trigger finders' :class:`Plan` for *cfg* (whose trigger characters are
    *chars*)."""
    found = [_sparse_pattern(cfg, c) for c in chars]
    return Plan(chars, tuple(p.search for p in found))


class TriggerFinder:
    """The triggers of one text (``buf``), from the scan's position on."""

    __slots__ = (
        "at",
        "buf",
        "chars",
        "colon",
        "colons",
        "ctx",
        "dense",
        "dense_mode",
        "final",
        "limit",
        "misses",
        "searches",
        "stats",
        "until",
        "window",
    )

    def __init__(
        self,
        buf: str,
        pos: int,
        final: bool,
        ctx: Context,
        chars: str,
        hits_only: bool,
        stats: ScanStats,
    ) -> None:
        self.buf = buf
        self.ctx = ctx
        self.final = final
        self.stats = stats
        self.chars = chars
        count = len(chars)
        shared = plan(ctx.cfg, chars)
        self.searches = shared.searches
        self.limit = len(buf) if final else len(buf) - LOOKAHEAD
        self.at = [-1] * count
        """Each character's next trigger (:data:`NONE`: none), kept until passed."""
        self.misses = [0] * count
        self.window = [pos] * count
        self.dense_mode = Mode.DENSE_HITS if hits_only else Mode.DENSE
        self.until = [-1] * count
        """Where each character's dense stretch ends (-1: none under way)."""
        self.dense: list[Callable[..., re.Match[str] | None]] = list(self.searches)
        """Each character's dense prefilter's search (while its stretch lasts)."""
        self.colons: DenseColons | None = None
        """The colons' dense search, by name (while their stretch lasts)."""
        self.colon = chars.find(":")
        """The colon's index in :attr:`chars` (-1: none)."""

    def next_function(self) -> Callable[[int], int]:
        """The function giving the first trigger at or after a position, or -1: written
        out for the common numbers of trigger characters. (Asked once a scan and held
        by it, not by the finder: a method held by its own object would keep the text
        until a collection of cycles.)"""
        count = len(self.at)
        return self._next3 if count == 3 else self._next2 if count == 2 else self._next_any

    def _next3(self, pos: int) -> int:
        """:meth:`next_function` for three trigger characters (the default rules': "<", ":" and
        the label dot), written out: this runs once a trigger. Each character's next
        trigger is kept until passed, then searched again: a sparse one here, a dense
        one by _next_of."""
        at = self.at
        buf, limit, until, searches = self.buf, self.limit, self.until, self.searches
        first, second, third = at
        if first < pos:
            if until[0] < 0 and pos < limit:
                m = searches[0](buf, pos)
                first = m.start() if m is not None and m.start() < limit else self._past(0, pos)
            else:
                first = self._next_of(0, pos)
            at[0] = first
        if second < pos:
            if until[1] < 0 and pos < limit:
                m = searches[1](buf, pos)
                second = m.start() if m is not None and m.start() < limit else self._past(1, pos)
            else:
                second = self._next_of(1, pos)
            at[1] = second
        if third < pos:
            if until[2] < 0 and pos < limit:
                m = searches[2](buf, pos)
                third = m.start() if m is not None and m.start() < limit else self._past(2, pos)
            else:
                third = self._next_of(2, pos)
            at[2] = third
        best = first if first < second else second
        best = third if third < best else best
        return best if best != NONE else -1

    def _next2(self, pos: int) -> int:
        """:meth:`next_function` for two trigger characters ("<" and ":"), written out."""
        at = self.at
        buf, limit, until, searches = self.buf, self.limit, self.until, self.searches
        first, second = at
        if first < pos:
            if until[0] < 0 and pos < limit:
                m = searches[0](buf, pos)
                first = m.start() if m is not None and m.start() < limit else self._past(0, pos)
            else:
                first = self._next_of(0, pos)
            at[0] = first
        if second < pos:
            if until[1] < 0 and pos < limit:
                m = searches[1](buf, pos)
                second = m.start() if m is not None and m.start() < limit else self._past(1, pos)
            else:
                second = self._next_of(1, pos)
            at[1] = second
        best = first if first < second else second
        return best if best != NONE else -1

    def _next_any(self, pos: int) -> int:
        """:meth:`next_function` for any number of trigger characters."""
        at = self.at
        best = NONE
        for k, found in enumerate(at):
            if found < pos:
                found = at[k] = self._next_of(k, pos)
            if found < best:
                best = found
        return best if best != NONE else -1

    def _next_of(self, k: int, pos: int) -> int:
        """Character *k*'s next trigger from *pos*: in a dense stretch, its dense search's;
        else its prefilter's up to the limit, past it the character itself (the rules
        then wait for more text)."""
        until = self.until[k]
        if until >= 0:
            if pos < until:
                colons = self.colons if self.chars[k] == ":" else None
                found = colons.next(pos) if colons is not None else self._dense_of(k, pos, until)
                if found >= 0:
                    return found
                pos = max(pos, colons.end if colons is not None else until)
            self.until[k] = -1
            if k == self.colon:
                self.colons = None
        limit = self.limit
        if pos < limit:
            m = self.searches[k](self.buf, pos)
            if m is not None and m.start() < limit:
                return m.start()
        return self._past(k, pos)

    def _past(self, k: int, pos: int) -> int:
        """Character *k* itself from *pos* on, or from the limit if that is further."""
        found = self.buf.find(self.chars[k], max(pos, self.limit))
        return found if found >= 0 else NONE

    def _dense_of(self, k: int, pos: int, until: int) -> int:
        """Character *k*'s next trigger in its dense stretch, or -1 (but the colons')."""
        m = self.dense[k](self.buf, pos, min(until + LOOKAHEAD, len(self.buf)))
        return m.start() if m is not None and m.start() < until else -1

    def miss(self, i: int) -> None:
        """Note a trigger that gave nothing; where they crowd, a dense stretch starts."""
        k = self.chars.find(self.buf[i])
        misses = self.misses
        misses[k] += 1
        if misses[k] < self.ctx.tuning.dense_misses:
            return
        tuning = self.ctx.tuning
        gap = tuning.colon_gap if self.chars[k] == ":" else tuning.dense_gap
        if i - self.window[k] < tuning.dense_misses * gap and self.ctx.speed.dense:
            self._start_dense(k, i)
        misses[k] = 0
        self.window[k] = i

    def _start_dense(self, k: int, i: int) -> None:
        """A dense stretch of character *k* from the trigger *i*."""
        if self.until[k] >= 0:
            return
        tuning, cfg, mode, char = self.ctx.tuning, self.ctx.cfg, self.dense_mode, self.chars[k]
        end = min(i + tuning.dense_span, self.limit)
        if end <= i:
            return
        self.until[k] = end
        names = colon_names(cfg, mode) if char == ":" else None
        if names is not None:
            check = mode is Mode.DENSE_HITS
            self.colons = DenseColons(
                self.buf, end, names, cfg.max_len, tuning.dense_block, check, tuning.colon_gap
            )
        else:
            self.dense[k] = _search(pattern(cfg, char, mode), char)
        self.at[k] = -1  # (found again, the dense way)
        self.stats.dense_stretches += 1


def _search(found: re.Pattern[str] | None, char: str) -> Callable[..., re.Match[str] | None]:
    """The prefilter's search, or one for the bare character where no rule has one."""
    return (found or re.compile(re.escape(char))).search


def _sparse_pattern(cfg: Config, char: str) -> re.Pattern[str]:
    """The sparse prefilter at *char*, or the bare character where no rule has one."""
    return pattern(cfg, char, Mode.SPARSE) or re.compile(re.escape(char))
