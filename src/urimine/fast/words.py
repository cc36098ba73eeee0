"""Word leaps (``Speed.word_leaps``), for a scanner of hits only: in text dense with
candidates the rules reject or take one at a time (``tel:1]~``, ``"mailto:."``,
``<td>tel:1]~</td>``, a URI every few words), a block of whole words is split in C and
each distinct word is decided once, on its own; the block's hits are those of its words.

A word's hits are those it holds on its own wherever nothing in the block joins it to
its neighbours. White space ends every run of URI characters (RFC 3986 Appendix C), and
so does ">": a block is split at both, a word ending with its ">". The rules that read
past a run's end or before its scheme read white space and ">" alike, but these: the
``URL:`` prefix (a block with "URL:" is not leapt), angle brackets, whose white space
inside is ignored (each "<" needs its ">" in its word), a hyphen at a line break
(:func:`urimine.rules.hyphen.joins_no_hit`), and the wrapped rule's line ends ("://",
or a word with a colon and "//" at the wrap column: such a block is not leapt). Nor is a block
leapt whose words could be too long (the rejection ends the scan at the next white
space), or where a word the scan read part of holds a hit: the next try is then where
that word ends, and a block leapt is followed by the next from its end.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from itertools import accumulate, compress, count
from operator import add

from urimine.fast.dense import LOOKAHEAD
from urimine.fast.prefilters import pattern
from urimine.fast.word_joins import angles_closed, may_join, unclosed_angle
from urimine.fast.word_text import (
    last_cut,
    next_cut,
    spaced_text,
    spaced_within,
    split_words,
)
from urimine.model import Hit, Rejection
from urimine.rules.base import Mode
from urimine.rules.config import Config
from urimine.rules.context import Context
from urimine.rules.hyphen import joins_no_hit
from urimine.rules.table import sites
from urimine.scan.lines import LineCursor
from urimine.speed import ScanStats

__all__ = ["WordLeaps"]

_new_hit = tuple.__new__
_WAIT_MAX = 8
"""A refused block waits at most this many halves of a block before the next try."""


class WordLeaps:
    """The word leaps of one scanner, and the words it knows."""

    __slots__ = (
        "block",
        "chars",
        "ctx",
        "failed",
        "fresh",
        "hits_alone",
        "hits_of",
        "joined_ends",
        "leap_from",
        "others",
        "retry",
        "stats",
        "window",
        "without_hits",
        "word_end",
    )

    def __init__(
        self, ctx: Context, alone: Callable[[str], tuple[Hit, ...]], stats: ScanStats
    ) -> None:
        self.ctx = ctx
        self.others = _others(ctx.cfg)
        """The sparse prefilters of the triggers besides ":" and "<" (the label dots, "@"):
        a word none of them matches and with no ":" holds no hit."""
        self.hits_alone = alone
        """The hits a word holds between spaces (each one later than in the word)."""
        self.stats = stats
        self.without_hits: set[str] = set()
        self.hits_of: dict[str, tuple[Hit, ...]] = {}
        self.joined_ends: dict[str, bool] = {}
        self.chars = 0
        self.window = 0
        """Where the triggers counted since the last try started (absolute)."""
        self.leap_from = -1
        """Where the next try may be (absolute): a try that fails waits."""
        self.block = ctx.tuning.word_block
        self.fresh = -1
        """Where the blocks leapt stopped, a slice on, before a word nothing read
        (absolute), or -1: the next scan starts with a try there."""
        self.word_end = -1
        """Where the word that a try found partly scanned and holding hits ends
        (absolute), or -1: the next try is at the decision that ends there."""
        self.retry = False
        self.failed = 0
        """Blocks of the longest length refused in a row since the last leap."""

    def hook(
        self,
        buf: str,
        base: int,
        at: int,
        pos: int,
        last_end: int,
        final: bool,
        out: list[Hit | Rejection],
        cursor: LineCursor,
    ) -> tuple[int, int, int]:
        """After enough triggers decided one by one, the last at ``at``: where the scan
        goes on, where the last candidate ends, and the triggers to count before the next
        call."""
        tuning = self.ctx.tuning
        if self.word_end >= 0:
            if base + at < self.word_end:
                return pos, last_end, tuning.word_misses - 1  # (asked again at the next)
            if base + at > self.word_end:  # the word's last decision was not counted
                self.word_end = -1
                self.leap_from = base + at + self.block // 2
                return pos, last_end, 0
            self.word_end = -1  # read whole: tried now
        elif base + at - self.window > tuning.word_misses * tuning.word_gap:
            self.window = base + at  # far apart: counted again from here
            return pos, last_end, 0
        blocks, entered = self.stats.word_blocks, pos
        pos, misses, last_end = self._leap(buf, base, at, pos, last_end, final, out, cursor)
        while self.stats.word_blocks > blocks:
            # A block leapt ends before a word the scan has not read: the next may start
            # there (a word read in part that holds hits may not start one). Past a
            # slice, the hits are handed over first (Scanner.hits).
            if pos - entered >= tuning.slice:
                self.fresh = base + pos
                break
            blocks = self.stats.word_blocks
            pos, misses, last_end = self._leap(buf, base, pos, pos, last_end, final, out, cursor)
        self.window = base + pos
        return pos, last_end, misses

    def _leap(
        self,
        buf: str,
        base: int,
        i: int,
        pos: int,
        last_end: int,
        final: bool,
        out: list[Hit | Rejection],
        cursor: LineCursor,
    ) -> tuple[int, int, int]:
        misses = self.ctx.tuning.word_misses
        if base + i < self.leap_from:
            return pos, 0, last_end
        if not final and i >= len(buf) - LOOKAHEAD - self.ctx.tuning.word_room:
            return pos, misses - 1, last_end  # no block fits: the next feed tries at once
        start = self._block_start(buf, base, i, last_end)
        if start < 0:
            # A hit ended in the word holding i ("<b>http://x.org/</b>"): the next
            # trigger tries; where it did already, a word so long waits as a block that
            # fails does.
            self.retry = not self.retry
            if not self.retry:
                self.leap_from = base + i + self.block // 2
            return pos, misses - 1 if self.retry else 0, last_end
        self.retry = False
        block = self._block_hits(buf, start, i, pos, final)
        self.block = min(2 * self.block, self.ctx.tuning.word_block_max)
        if block is None:
            if self.word_end >= 0:
                self.word_end += base
                return pos, misses - 1, last_end
            self._wait(base + i)
            return pos, 0, last_end
        end, start, words, known, spaced = block
        self.failed = 0
        self.stats.word_blocks += 1
        if known:
            last_end = self._emit(
                buf, base, start, end, words, known, spaced, out, last_end, cursor
            )
        return max(end, pos), misses - 1, last_end

    def _wait(self, at: int) -> None:
        """A block refused at *at* (absolute): the next try waits half a block, and once
        the blocks are at their longest, half a block more for each refused in a row
        (text no block can be leapt in pays for few tries; text that changes waits a
        bounded while)."""
        if self.block >= self.ctx.tuning.word_block_max:
            self.failed = min(self.failed + 1, _WAIT_MAX)
        self.leap_from = at + self.block // 2 * max(self.failed, 1)

    def _block_start(self, buf: str, base: int, i: int, last_end: int) -> int:
        """Where the word that holds ``i`` starts, or -1 where it may not start a block: a
        candidate consumed part of it, the text before the buffer may belong to it, or it
        could be too long."""
        longest = self.ctx.max_len
        lo = last_end if last_end > i - longest else i - longest
        start = last_cut(buf, lo, i + 1) + 1
        if start == 0 and (lo > 0 or base > 0):
            return -1
        return start

    def _block_hits(
        self, buf: str, start: int, i: int, pos: int, final: bool
    ) -> tuple[int, int, list[str], dict[str, tuple[Hit, ...]], str] | None:
        """A block of whole words from ``start`` whose hits are known, or None: where it
        ends, where it starts, its words, the hits of those that hold any, and the block
        with a space after each ">" ("" where it holds none)."""
        tuning = self.ctx.tuning
        limit = len(buf) if final else len(buf) - LOOKAHEAD
        end = min(start + self.block, limit)
        angles = buf.find("<", start, end) >= 0
        if not self._samples_known(buf, start, end):
            return None
        last = last_cut(buf, i, end) if end > i else -1
        if last < start:
            return None
        if angles and unclosed_angle(buf, start, min(last + 1, start + tuning.word_sample)):
            return None  # (an angle not closed in its word: the check below, on a sample)
        joined = may_join(buf, start, last)
        stop = last + 1 if buf[last] == ">" else last  # (a ">" ends the word before it)
        text = buf[start:stop]
        spaced = spaced_within(text, self.ctx.max_len)
        if joined is None or spaced is None:
            return None
        words = split_words(spaced)
        distinct = set(words)
        unknown = distinct.difference(self.without_hits, self.hits_of)
        if len(unknown) > tuning.word_unknown:
            return None
        if angles and not all(angles_closed(word) for word in distinct if "<" in word):
            return None
        known = {w: h for w in distinct if (h := self.hits_of.get(w)) is not None}
        if not self._decide(unknown, known):
            return None
        if start < pos and _scanned_hold_hits(words, known, pos - start):
            # A long word that holds hits, read in part: tried again where the scan
            # has read it whole, if a decision ends there.
            self.word_end = next_cut(buf, pos, last + 1)
            return None
        if joined and not self._ends_join_no_hit(distinct, known):
            return None
        return last + 1, start, words, known, spaced if len(spaced) > len(text) else ""

    def _samples_known(self, buf: str, start: int, end: int) -> bool:
        """Whether the block's first KiB (and, for a long block, its last) holds few
        words not met before: text whose words do not repeat fails it cheaply."""
        tuning = self.ctx.tuning
        sample = tuning.word_sample
        if end - start <= sample:
            return True
        head = set(split_words(spaced_text(buf[start : start + sample])))
        if len(head.difference(self.without_hits, self.hits_of)) > tuning.word_few:
            return False
        if end - start > 4 * sample:
            tail = set(split_words(spaced_text(buf[end - sample : end])))
            tail.difference_update(head, self.without_hits, self.hits_of)
            if len(tail) > tuning.word_few:
                return False
        return True

    def _decide(self, unknown: set[str], known: dict[str, tuple[Hit, ...]]) -> bool:
        """Add to *known* the hits of the *unknown* words that hold any, each decided
        alone (and kept, with those that hold none); False where they would cost more
        than an eighth of the block, or one could be too long."""
        budget = self.block // self.ctx.tuning.word_alone
        longest = self.ctx.max_len
        others = self.others
        no_hit = {  # no trigger, no hit
            word
            for word in unknown
            if ":" not in word and not any(search(word) for search in others)
        }
        failed = False
        for word in unknown:
            if word in no_hit:
                continue
            budget -= len(word)
            if budget < 0 or len(word) >= longest:
                failed = True
                break
            hits = self.hits_alone(word)
            self.stats.words_decided += 1
            if hits:
                self._count(4 * len(word))  # (the word, and its hits' strings)
                self.hits_of[word] = known[word] = hits
            else:
                no_hit.add(word)
        self._count(sum(map(len, no_hit)))
        self.without_hits |= no_hit
        return not failed

    def _ends_join_no_hit(self, words: set[str], known: dict[str, tuple[Hit, ...]]) -> bool:
        """Whether no word can be joined to a hit at a hyphen before a line break: each
        that ends in "-" with a colon holds no hit alone and joins none."""
        ends = self.joined_ends
        for word in words:
            if word[-1:] == "-" and ":" in word:
                if word in known:
                    return False
                verdict = ends.get(word)
                if verdict is None:
                    verdict = joins_no_hit(self.ctx, word)
                    self._count(len(word))
                    ends[word] = verdict
                if not verdict:
                    return False
        return True

    def _count(self, size: int) -> None:
        """Count *size* more characters kept of words; past the bound, forget them all."""
        if self.chars + size > self.ctx.tuning.word_kept:
            self.without_hits.clear()
            self.hits_of.clear()
            self.joined_ends.clear()
            self.chars = 0
            self.stats.words_forgotten += 1
        self.chars += size

    def _emit(
        self,
        buf: str,
        base: int,
        start: int,
        end: int,
        words: list[str],
        known: dict[str, tuple[Hit, ...]],
        spaced: str,
        out: list[Hit | Rejection],
        last_end: int,
        cursor: LineCursor,
    ) -> int:
        """Add the hits of the block's words to *out* (each found alone between spaces:
        its offsets one more than in the word); return the end of the last."""
        # Each word's start less one: the lengths before it, and one space after each.
        ats = map(add, accumulate(map(len, words), initial=start - 1), count())
        found = compress(zip(words, ats, strict=False), map(known.__contains__, words))
        one_line = not spaced and buf.find("\n", start, end) < 0
        if one_line:
            cursor.advance(buf, base, start)
        shift = counted = 0  # the spaces added to the block before a hit, counted so far
        append = out.append
        for word, at in found:
            for hit in known[word]:
                uri, raw, hit_start, hit_end, _, _, context, kind, scheme, key, alt, strict, _ = hit
                s = at + hit_start
                if not one_line:
                    if spaced:
                        shift += spaced.count(">", counted, s - start)
                        counted = s - start
                        s -= shift
                    cursor.advance(buf, base, s)
                last_end = at + hit_end - shift  # (a hit holds no ">")
                line_start = cursor.line_start
                append(
                    _new_hit(
                        Hit,
                        (
                            uri,
                            raw,
                            base + s,
                            base + last_end,
                            cursor.line,
                            base + s - line_start + 1,
                            context,
                            kind,
                            scheme,
                            key,
                            alt,
                            strict,
                            None,
                        ),
                    )
                )
        return last_end


@cache
def _others(cfg: Config) -> tuple[Callable[..., re.Match[str] | None], ...]:
    """The searches of :attr:`WordLeaps.others` (one tuple per rule set)."""
    return tuple(
        found.search
        for char in sites(cfg)
        if char not in ":<" and (found := pattern(cfg, char, Mode.SPARSE)) is not None
    )


def _scanned_hold_hits(words: list[str], known: dict[str, tuple[Hit, ...]], upto: int) -> bool:
    """Whether a word that starts before *upto* (from the block's start) holds a hit."""
    at = 0
    for word in words:
        if at >= upto:
            return False
        if word in known:
            return True
        at += len(word) + (word[-1:] != ">")
    return False
