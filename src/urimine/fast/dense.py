"""The colons of a dense stretch (``Speed.dense``), found a block at a time in C.

Text dense with colons no rule takes (``ab:ab:``, ``x-http:``, ``key:value`` lists, XML
attributes) would cost a Python step per colon. Here each block of the stretch is
searched at once, ASCII-lowered and reversed, for a scheme name the colon site takes
before its colon (:class:`urimine.fast.prefilters.ColonNames`: its patterns start with
the colon, so the engine skips to each at memchr speed), and at each what the rules
need after it. The loop stops only at those.

Where a candidate may be too long for the length bound, its rejection ends the scan at
the next white space, so what the rules need after a colon is asked in its weaker form
there (the run after a colon is measured only where the stronger form fails).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import chain

from urimine.fast.prefilters import AFTER_READ, ColonNames
from urimine.rules.patterns import ASCII_RUN_STOP, SCHEME_MAX
from urimine.rules.slashed import GLUED

__all__ = ["LOOKAHEAD", "DenseColons"]

LOOKAHEAD = 256
"""How much text the prefilters read after a trigger: "<", 64 white space, "URL:", 64
more and a 64-character scheme and its colon."""
_NONE = 1 << 62
_ASCII_STOP = re.compile(ASCII_RUN_STOP).search
# A run of scheme characters too long for the strict names pattern (see ColonNames).
_SCHEME_RUNS = bytes(
    ord("a") if chr(c) in "abcdefghijklmnopqrstuvwxyz0123456789+.-" else ord(" ")
    for c in range(256)
)
_LONG_SCHEME_RUN = b"a" * SCHEME_MAX
_DROPPED_GAP = 64
"""Colons let go in Python at most this far apart on average turn the safe search on."""
_RUNS = bytes(ord(" ") if re.match(ASCII_RUN_STOP, chr(c)) else ord("a") for c in range(256))
"""``bytes.translate`` table: "a" for a character of a run (and "?", which stands for
any other than ASCII), a space for one that ends it."""


def _may_take(buf: str, colon: int, size: int) -> bool:
    """Whether the rules of unregistered schemes before "//" (rules/slashed.py) may take
    the word of *size* characters before *colon* (the whole word: the strict search read
    it from its start): one written in lower case, a dotted one, or one ending in a web
    scheme glued to a letter or digit. ("URLgit+https://" repeated: no rule takes it.)"""
    word = buf[colon - size : colon]
    if word.islower() or "." in word:
        return True
    low = word.lower()
    return any(low.endswith(g) and low[-len(g) - 1 : -len(g)].isalnum() for g in GLUED)


_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-.")
"""The characters of a scheme name."""


class DenseColons:
    """The colons of ``buf`` after a name, from a dense stretch's start to its ``end``."""

    __slots__ = (
        "block",
        "buf",
        "check",
        "cut",
        "end",
        "found",
        "long_run",
        "names",
        "reach",
        "read_to",
        "run",
        "safe",
        "sparse_gap",
    )

    def __init__(
        self,
        buf: str,
        end: int,
        names: ColonNames,
        max_len: int,
        block: int,
        check_after: bool,
        sparse_gap: int,
    ) -> None:
        self.buf = buf
        self.end = end
        self.sparse_gap = sparse_gap
        """A block whose colons stand this far apart on average ends the stretch (the
        sparse prefilter is the cheaper there); 0: never."""
        self.names = names
        self.block = block
        """The next block's length (doubled at each: dense text is read in few blocks, a
        short dense stretch in a small one)."""
        self.read_to = -1
        self.cut = -1
        """Where the scan last went on inside a word (see :meth:`_cut_at`)."""
        self.found: list[int] = []
        """The colons of the blocks read, descending: the next one is the last."""
        self.check = check_after
        self.run = (0, 0, False)
        """What is known of the last run measured (:meth:`_may_be_too_long`): its text
        from ``lo`` to ``hi`` holds no stop character, and (``stopped``) one is at ``hi``."""
        self.reach = max_len - SCHEME_MAX - 2
        """How long a run after a colon may be without its candidate being too long."""
        self.long_run: bytes | None = None
        """A run of :attr:`reach` characters (as :data:`_RUNS` maps them)."""
        self.safe = False
        """Whether the blocks are searched with :meth:`ColonNames.safe` where they may
        be: after a block that let many colons go one by one in Python (where few names
        are found, the plain search costs a little less)."""

    def next(self, pos: int) -> int:
        """The first such colon at or after *pos* (before the stretch's end), or -1."""
        if pos != self.cut and 0 < pos < self.read_to:
            buf = self.buf
            if buf[pos - 1] in _NAME_CHARS and buf[pos : pos + 1] in _NAME_CHARS:
                self._cut_at(pos)
        while True:
            found = self.found
            while found and found[-1] < pos:
                found.pop()
            if found:
                return found[-1]
            if self.read_to >= self.end:
                return -1
            self._read(pos, max(pos, self.read_to))

    def _cut_at(self, pos: int) -> None:
        """The scan goes on from *pos*, inside a word (a candidate ended there): the rules
        read the word from *pos* on, which the block read before may not have taken for
        a name ("x-|http:"). Its colons within a scheme's length are searched again, by
        the loose pattern: what stands before *pos* may make the rules' word start later
        than the strict pattern would take it to."""
        self.cut = pos
        stop = min(pos + SCHEME_MAX + 1, self.read_to)
        again = self._colons(pos, pos, stop, loose=True)
        found = self.found
        near = [p for p in found if p < stop]
        if again and sorted(set(near + again)) != sorted(near):
            del found[len(found) - len(near) :]
            found += sorted(set(near + again), reverse=True)

    def _read(self, pos: int, start: int) -> None:
        """Search the block from *start* and keep its colons (descending)."""
        stop = min(start + self.block, self.end)
        self.block *= 2
        self.read_to = stop
        self.found = self._colons(pos, start, stop)
        if self.sparse_gap and self.buf.count(":", start, stop) * self.sparse_gap < stop - start:
            self.end = stop
        buf = self.buf
        if start == pos > 0 and buf[pos - 1] in _NAME_CHARS and buf[pos : pos + 1] in _NAME_CHARS:
            self._cut_at(pos)

    def _colons(self, pos: int, start: int, stop: int, loose: bool = False) -> list[int]:
        """The block's colons after a name, descending. The text is read from the longest
        scheme before *start*, never before *pos* (the rules read nothing before the
        scan's position as part of a scheme), and :data:`AFTER_READ` characters past the
        block (what the patterns read after a colon)."""
        names, buf = self.names, self.buf
        lo = max(pos, start - SCHEME_MAX)
        block = buf[lo : stop + AFTER_READ].encode("ascii", "replace").lower()
        # Loose where the scan's position cuts a word the block reads from: what stands
        # before it may make the rules' word start later than the strict pattern takes.
        loose = loose or (lo == pos > 0 and buf[pos - 1] in _NAME_CHARS)
        use_loose = loose or block.translate(_SCHEME_RUNS).find(_LONG_SCHEME_RUN) >= 0
        last = lo + len(block) - 1
        rev = block[::-1]
        if not self.check:
            pattern = names.loose() if use_loose else names.strict()
            return [p for m in pattern.finditer(rev) if start <= (p := last - m.start()) < stop]
        safe_to = lo  # (the colons before it: no run after them may be too long)
        cut = len(block)
        if self.safe and not use_loose and names.safe_source is not None:
            cut = len(block) - self._safe_before(block, lo)  # (the safe colons, reversed)
        matches: Iterable[re.Match[bytes]]
        if cut < len(block):
            safe_to = lo + len(block) - cut
            # (a match from before the cut reads at most a name and two more after it)
            unsafe = names.strict().finditer(rev, 0, cut + SCHEME_MAX + 4) if cut else ()
            matches = chain([m for m in unsafe if m.start() < cut], names.safe().finditer(rev, cut))
        else:
            matches = (names.loose() if use_loose else names.strict()).finditer(rev)
        short, after, other = names.short, names.after, names.any_after
        found = [(p, m.group(1)) for m in matches if start <= (p := last - m.start()) < stop]
        found.reverse()  # (forwards: the run measured last serves the colons after it)
        # The rules of any word before "//" are asked at a registered name only where a
        # name character stands before it: else the word is that name, whose rules decide.
        kept = [
            p
            for p, name in found
            if (
                name in short
                and (
                    short[name].match(buf, p) is not None
                    or (
                        p >= safe_to
                        and after[name].match(buf, p) is not None
                        and self._may_be_too_long(p)
                    )
                )
            )
            or (
                other is not None
                and (
                    buf[p - len(name) - 1 : p - len(name)] in _NAME_CHARS
                    if name in short
                    else use_loose or _may_take(buf, p, len(name))
                )
                and other.match(buf, p) is not None
            )
        ]
        kept.reverse()
        if (len(found) - len(kept)) * _DROPPED_GAP > stop - start:
            self.safe = True  # (for the rest of the stretch: its colons are let go in C)
        return kept

    def _safe_before(self, block: bytes, lo: int) -> int:
        """How much of *block* (the text from *lo*, ASCII-lowered) holds only runs too
        short for a candidate to be too long: up to the first run at least :attr:`reach`
        long, the last one included if it ends within that length after the block."""
        if self.reach < 1:
            return 0
        runs = block.translate(_RUNS)
        end = len(runs)
        if runs.endswith(b"a"):
            end = runs.rfind(b" ") + 1
            if _ASCII_STOP(self.buf, lo + len(runs), lo + end + self.reach) is not None:
                end = len(runs)
        if self.long_run is None:
            self.long_run = b"a" * self.reach
        k = runs.find(self.long_run, 0, end)
        return end if k < 0 else runs.rfind(b" ", 0, k) + 1

    def _may_be_too_long(self, colon: int) -> bool:
        """Whether the run of URI characters after *colon* is at least :attr:`reach` long
        (or reaches the end of the text): then its candidate may be too long. What is
        known of the run read last is kept (:attr:`run`), so a run is read once, however
        many colons it holds."""
        if self.reach < 1:
            return True
        start = colon + 1
        lo, hi, stopped = self.run
        if not lo <= start <= hi:
            lo, hi, stopped = start, start, False
        if not stopped and hi < start + self.reach:
            m = _ASCII_STOP(self.buf, hi, start + self.reach)
            hi, stopped = (m.start(), True) if m is not None else (start + self.reach, False)
        self.run = lo, hi, stopped
        return hi - start >= self.reach
