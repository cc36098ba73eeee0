"""The sans-IO streaming scanner: text chunks in, URI and URN hits out.

It applies "Recommendations for Delimiting URI in Context" (seed 002 Appendix E, seed 001
Appendix E, RFC 1738's appendix): angle brackets with whitespace inside ignored, the
``URL:`` prefix, double (and single) quotes, whitespace-delimited bare URIs with trailing
punctuation left out, and the hyphen at a line break. URNs follow seed 003 (2.5.3: in
text the NSS ends at an excluded character) and seed 000 (the 1993 ``<URN:...>`` form).

Contract:

* Results are identical however the text is split into chunks (``feed`` may hold text
  back until it can decide; ``close`` flushes).
* It never raises on any ``str``.
* Memory is bounded: at most ``max_candidate_len`` characters of a pending candidate,
  a small look-behind and one batch of unscanned text are retained. A candidate longer
  than ``max_candidate_len`` is rejected (``Reason.TOO_LONG``) and the scanner resyncs
  at the next whitespace.
* It never rescans retained text it has decided on, so time is linear in the input.

Triggers are the rare characters ``<`` and ``:``; every decision is made by compiled
regular expressions, never by a Python loop over characters.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import lru_cache
from itertools import accumulate, compress, count
from operator import add

from urimine import rules as R
from urimine.model import Hit, Rejection
from urimine.normalize import dedup_key
from urimine.rules import Candidate, Pending, Shortcut, _PendingType
from urimine.rules.angle import Dismissed, at_angle
from urimine.rules.bare import at_colon, joins_no_hit, next_shortcut
from urimine.schemes import AUTHORITY_SCHEMES
from urimine.speed import Speed

__all__ = ["Scanner"]

DEFAULT_MAX_CANDIDATE_LEN = 8192

# How far before a trigger the scanner may look: the scheme (64), a "URL: " or quote
# prefix, and the start of the line for quote markers of mail (R.LINE_LOOKBEHIND).
_LOOKBEHIND = R.LINE_LOOKBEHIND + 80
# Text is scanned once at least this much is pending (amortises the look-behind copy).
_MIN_BATCH = 1 << 16
# Text scanned at a time at most when a long chunk is given whole (Scanner.hits). Its
# hits are held in a list until handed over: the fewer, the fewer objects the garbage
# collector's passes meet (a text of nothing but short URIs: 20% faster than at 1 MiB;
# ordinary text the same).
_SLICE = 1 << 16

_WHITESPACE = re.compile(r"\s")
# Hits are made as tuples: a named tuple's own __new__ is a Python call, twice the cost.
_new_hit = tuple.__new__
_COLON_SEARCH = R.COLON_TRIGGER.search
_STOP_SEARCH = R.STOP_CHAR.search
_ASCII_STOP_SEARCH = re.compile(R.ASCII_STOP).search
_LT_SEARCH = R.LT_TRIGGER.search
_URN_START = R.URN_START.match
_REJECTED_URN = R.REJECTED_URN.match
_DENSE_MISSES = 32  # this many fruitless triggers ...
_DENSE_GAP = 32  # ... at most this far apart on average switch to the prefilter
_COLON_GAP = 128  # (colons: this far; a Python step per colon costs about 2 us)
_DENSE_SPAN = 1 << 16
_DENSE_PROBE = 512  # a stretch with no match this long ...
_DENSE_FEW = 4  # ... and fewer plain ":" and "<" than this in it ends early
_LEAP_AFTER = 8  # words passed over one by one before a leap is tried (1 after a good one)
_LEAP_MIN = 1 << 10  # the first block a leap looks at, and the pause after a short one
# The least block after a leap a name stopped, where it kept only the first (a block
# with "<" or a long run): twice the way to that name, so a leap among frequent hits
# searches about what it passes over.
_LEAP_FLOOR = 1 << 7
_LEAP_MAX = 1 << 16
_NONE = 1 << 62  # a trigger finder's "none left": after every index
# A bare URI this close after the end of the last candidate (one white space character,
# or two: CR LF) may be one of a list: the URIs after it are tried for the shortcut
# straight away (see Scanner._scan). Rare in prose, where the try would cost its time.
_TRAIN_GAP = 2
_LEAP_SHORT = 8  # a leap stopped this early (two or three words) did not pay for itself
_VOCAB_SAMPLE = 1 << 10  # a leap tells from this much of its block whether ...
_VOCAB_MIN = 64  # ... it holds enough colons ...
_VOCAB_REPEATS = 4  # ... and words so often repeated to be read once (_vocabulary)
_VOCAB_SKIP_MAX = 15  # leaps at most that do not ask after it found it did not pay
# Word leaps (Scanner._word_leap), for a scanner of hits only: tried after this many
# fruitless triggers ...
_WORD_MISSES = 16
_WORD_GAP = 128  # ... at most this far apart on average, over a block of whole words ...
_WORD_BLOCK = 1 << 12  # ... this long at first, twice as long after each try
_WORD_BLOCK_MAX = 1 << 16
_WORD_ROOM = 1 << 10  # the least text before an unfinished buffer's look-ahead a try needs
_WORD_UNKNOWN = 64  # a block with more words not met before is not leapt ...
_WORD_SAMPLE = 1 << 10  # ... nor one with more than _WORD_FEW of them in this much at its start
_WORD_FEW = 16
_WORD_ALONE = 8  # ... nor one whose words with a colon among them are longer than 1/8 of it
_WORD_KEPT = 1 << 18  # characters of words known to hold a hit or none (then all forgotten)
_WORD_HYPHEN = re.compile(r"-[ \t]*[\r\n]").search  # a hyphen at a line break
_WORD_GAP_AFTER = re.compile(r"[ \t]*+[\r\n]?")


def _last_space(buf: str, lo: int, hi: int) -> int:
    """Where the last space, tab, CR or LF of ``buf[lo:hi]`` stands, or -1: searched from
    the end in C (where a regex would read the text forwards), tabs and CRs, seldom
    there, only after the last space or LF."""
    last = max(buf.rfind(" ", lo, hi), buf.rfind("\n", lo, hi))
    after = last + 1 if last >= 0 else lo
    return max(last, buf.rfind("\t", after, hi), buf.rfind("\r", after, hi))


def _angles_closed(word: str) -> bool:
    """Whether each "<" of *word* has a ">" after it in the word, and no "\\" stands in
    it where it may hold a 1993 URN: the angle rule, which reads across white space up
    to the first ">" (Appendix E), then reads the word only ("<td>tel:1]~</td>",
    "<b>mailto:.</b>"), as it does alone. (In a 1993 URN, "<URN:a:b:c\\>d>", a
    backslash escapes any character, ">" and white space too.)"""
    return word.rfind(">") > word.rfind("<") and not ("\\" in word and "urn:" in word.lower())


def _spaced(text: str) -> str:
    """*text* with a space after each ">", where :func:`_words` splits it too."""
    return text.replace(">", "> ") if ">" in text else text


def _words(text: str) -> list[str]:
    """*text* split at each space, tab, CR and LF, and after each ">" (markup glued to
    text, ``<td>tel:1]~</td><td>``): each word then stands one character after the end
    of the one before, or right after it where that one ends in ">"."""
    return _split(_spaced(text))


def _split(spaced: str) -> list[str]:
    """*spaced* (:func:`_spaced`) split at each space, tab, CR and LF. (str.split() would
    split at Unicode white space too, which an IRI's run may hold; and this is faster
    than a regex's split.)"""
    return spaced.replace("\n", " ").replace("\t", " ").replace("\r", " ").split(" ")


def _last_cut(buf: str, lo: int, hi: int) -> int:
    """Where the last space, tab, CR, LF or ">" of ``buf[lo:hi]`` stands, or -1: a word
    of a block (:meth:`Scanner._block_hits`) ends before white space or with a ">"."""
    return max(_last_space(buf, lo, hi), buf.rfind(">", lo, hi))


class Scanner:
    """Find URIs and URNs in text fed in chunks.

    ``feed(text)`` returns the hits (and, with ``rejections=True``, the
    :class:`~urimine.model.Rejection` s) whose end is decided; ``close()`` returns the
    rest. Calling ``feed`` after ``close`` raises ``RuntimeError``.
    """

    def __init__(
        self,
        *,
        rules: Iterable[str] | str = "default",
        max_candidate_len: int = DEFAULT_MAX_CANDIDATE_LEN,
        extra_schemes: Iterable[str] = (),
        rejections: bool = False,
        speed: Speed | None = None,
    ) -> None:
        self._setup(R.Config.build(rules, max_candidate_len, extra_schemes, speed), rejections)

    def _setup(self, cfg: R.Config, rejections: bool, word_leaps: bool = True) -> None:
        """A scanner's state at the start of a text (see :meth:`_word_leap` for
        *word_leaps*, which a scanner of the words alone has not)."""
        self._cfg = cfg
        self._want_rejections = rejections
        self._buf = ""  # retained text; _buf[0] is at absolute offset _base
        self._base = 0
        self._pos = 0  # buffer index where scanning resumes
        self._floor = 0  # absolute end of the last emitted candidate
        self._skip_to_space = False  # after TOO_LONG: resync at the next whitespace
        self._pending: list[str] = []
        self._pending_len = 0
        self._need = 0  # pending characters wanted before the next scan
        self._closed = False
        # While a final scan is paused (Scanner.hits: the text given whole, a slice at a
        # time), the text and its trigger finder, which the next slice goes on with: the
        # sparse finders' next ":" and "<" (a search that finds none goes to the end of
        # the text, and redone for every slice it made the time quadratic in a long text
        # without one of the two), and where the text is dense, the leaps' state (begun
        # anew at every slice, hostile text paid for 32 misses one by one and leaps
        # from the smallest block again every 64 KiB: "<http://[x]> " 47 -> 65 MB/s).
        self._found: tuple[str, _Triggers] | None = None
        # line/column bookkeeping: absolute offset up to which newlines are counted,
        # the line number there (1-based) and where that line starts.
        self._lc_pos = 0
        self._lc_line = 1
        self._lc_line_start = 0
        # The word leaps of a scanner of hits only (see _word_leap): fruitless triggers
        # counted since a window started there (absolute), where the next leap may be
        # tried (absolute), the block it looks at, and the words known to hold no hit
        # on their own, those known to hold one, and words ending in "-" known to be
        # joined to no hit at a line break, or not (joins_no_hit).
        self._word_leaps = word_leaps and not rejections and cfg.speed.word_leaps
        self._word_misses = 0
        self._word_window = 0
        self._word_from = -1
        self._word_block = _WORD_BLOCK
        self._fruitless: set[str] = set()
        self._fruitful: dict[str, tuple[Hit, ...]] = {}
        self._joined_ends: dict[str, bool] = {}
        self._word_chars = 0
        self._word_again = False  # the last try could not start at its trigger

    # ------------------------------------------------------------------ public API
    def feed(self, text: str) -> list[Hit | Rejection]:
        """Add a chunk of text; return what is decided so far."""
        if self._closed:
            raise RuntimeError("Scanner.feed() after close()")
        if not text:
            return []
        self._pending.append(text)
        self._pending_len += len(text)
        if self._pending_len < self._need:
            return []
        return self._scan(final=False)

    @property
    def newlines_counted(self) -> tuple[int, int]:
        """``(offset, n)``: the text before ``offset`` holds ``n`` newlines. The scanner
        counts them up to its last hit (for line numbers), so whoever needs the total
        counts only the rest."""
        return self._lc_pos, self._lc_line - 1

    def hits(self, chunks: Iterable[str]) -> Iterator[Hit]:
        """Feed all of ``chunks``, close, and yield the hits (rejections left out)."""
        if not self._want_rejections:  # then only hits come: no filter in between
            return self._fed(chunks)  # type: ignore[return-value]
        return (item for item in self._fed(chunks) if isinstance(item, Hit))

    def _fed(self, chunks: Iterable[str]) -> Iterator[Hit | Rejection]:
        """Feed ``chunks`` and close; the last chunk goes straight to the final scan, so a
        text given whole is scanned once, as final (same result, by the chunking
        contract, and half the calls for the many small texts of mail). That scan
        pauses after every :data:`_SLICE` characters to hand over what it found, so
        the hits held at once stay bounded (a text of nothing but short URIs has one
        every few bytes) without copying the text."""
        last: str | None = None
        for chunk in chunks:
            if last is not None:
                yield from self.feed(last)
            last = chunk
        if self._closed:
            return
        if last:
            self._pending.append(last)
            self._pending_len += len(last)
        while not self._closed:
            out = self._scan(final=True, stop=self._pos + _SLICE)
            self._closed = not self._buf  # else paused: the rest of the text is still there
            yield from out

    def close(self) -> list[Hit | Rejection]:
        """Signal the end of the text; return everything still undecided."""
        if self._closed:
            return []
        out = self._scan(final=True)
        self._closed = True
        self._buf = ""
        return out

    # ------------------------------------------------------------------ the loop
    def _scan(  # noqa: C901 - the hot loop, kept flat
        self, final: bool, stop: int = -1
    ) -> list[Hit | Rejection]:
        """Scan the buffer; with ``stop`` (final scans only), pause once the scan has got
        to that index, keeping the buffer whole for the next call."""
        buf = self._buf + "".join(self._pending) if self._pending else self._buf
        self._pending.clear()
        self._pending_len = 0
        out: list[Hit | Rejection] = []
        n = len(buf)
        pos = self._pos
        cfg = self._cfg
        stalled = False
        if self._found is not None and self._found[0] is buf and self._found[1].final is final:
            finder = self._found[1]
        else:
            hits_only = not self._want_rejections and cfg.speed.hits_only
            finder = _Triggers(
                buf,
                pos,
                final,
                None if "any-scheme" in cfg.rules else cfg.schemes,
                cfg.nid_words if hits_only else cfg.scheme_words,
                cfg.hit_words if hits_only else None,
                cfg.max_len,
                cfg.speed,
            )
        self._found = None
        base = self._base
        floor = max(self._floor - base, 0)
        want_rejections = self._want_rejections
        next_trigger, miss = finder.next, finder.miss
        word_leaps = self._word_leaps
        word_misses, word_from = self._word_misses, self._word_window - base
        # The line cursor (see _advance_lines) in locals while hits are made here, put
        # back wherever a method reads it: once per hit, five attribute reads and
        # writes were a few per cent of hit-dense text.
        lc_pos, lc_line, lc_line_start = self._lc_pos, self._lc_line, self._lc_line_start
        while True:
            if pos >= stop > 0:
                # Paused before the finder is asked for the next trigger: the next slice
                # goes on with it, as this loop would have.
                self._buf, self._pos, self._floor = buf, pos, base + floor
                self._lc_pos, self._lc_line, self._lc_line_start = lc_pos, lc_line, lc_line_start
                self._found = buf, finder
                self._word_misses, self._word_window = word_misses, base + word_from
                cfg.forget_text()
                return out
            if self._skip_to_space:
                m = _WHITESPACE.search(buf, pos)
                if m is None:
                    pos = n
                    break
                self._skip_to_space = False
                pos = m.start()
            i = next_trigger(pos)
            if i < 0:
                pos = n
                break
            res: Candidate | Shortcut | Dismissed | _PendingType | None
            if buf[i] == "<":
                res = at_angle(cfg, buf, i, final)
                if type(res) is int:  # Dismissed: go on from there
                    miss(i)
                    pos = res
                    continue
            else:
                res = at_colon(cfg, buf, i, floor, final)
            if isinstance(res, tuple):
                # The common cases, so _hit's _advance_lines is written out here. A bare
                # one close after the last candidate may start a list of links: the
                # URIs after it apart only by white space are tried for the shortcut
                # at once (rules.bare.next_shortcut), not by way of the trigger finder
                # and the search for their scheme ("train").
                train = res[0] - floor <= _TRAIN_GAP and res[3] == "bare" and cfg.speed.train
                while True:
                    s, pos, uri, context, scheme, key = res
                    lo = lc_pos - base
                    if s > lo:
                        if lo < 0:
                            lo = 0
                        nl = buf.rfind("\n", lo, s)
                        if nl >= 0:
                            lc_line += buf.count("\n", lo, nl) + 1
                            lc_line_start = base + nl + 1
                        lc_pos = base + s
                    out.append(
                        _new_hit(
                            Hit,
                            (
                                uri,
                                uri if context == "bare" else buf[s:pos],
                                base + s,
                                base + pos,
                                lc_line,
                                base + s - lc_line_start + 1,
                                context,
                                "uri",
                                scheme,
                                key or dedup_key(uri),
                                None,
                            ),
                        )
                    )
                    if not train or pos >= stop > 0:
                        break
                    if word_leaps:
                        word_misses += 1
                        if word_misses >= _WORD_MISSES and base + pos >= self._word_from:
                            break  # (a word leap may take the rest, see below)
                    res = next_shortcut(cfg, buf, pos)
                    if res is None:
                        break
                floor = at = pos
            else:
                if res is Pending:
                    pos = i
                    stalled = True
                    break
                assert res is None or isinstance(res, Candidate)
                if res is not None and res.reason is None:
                    lc = lc_pos, lc_line, lc_line_start
                    lc = self._hit(buf, res, out, lc)
                    lc_pos, lc_line, lc_line_start = lc
                    pos = floor = res.end
                    continue
                if res is not None:
                    if want_rejections:
                        out.append(self._rejection(buf, res))
                    if res.consume:
                        if res.too_long:
                            self._skip_to_space = True
                        pos = floor = res.end
                        continue
                # Nothing at i, or a rejection that consumes nothing: on after i.
                miss(i)
                pos = (res.resume if res is not None else 0) or i + 1
                at = i
            # A hit the shortcut took ends at ``at``, or nothing was found at ``at``.
            if word_leaps:
                word_misses += 1
                if word_misses >= _WORD_MISSES:
                    if at - word_from > _WORD_MISSES * _WORD_GAP:
                        word_misses, word_from = 0, at  # (far apart: counted again from here)
                    else:
                        lc = lc_pos, lc_line, lc_line_start
                        pos, word_misses, floor, lc = self._word_leap(
                            buf, at, pos, floor, final, out, lc
                        )
                        lc_pos, lc_line, lc_line_start = lc
                        word_from = pos  # (after a leap, the next trigger may try again)
        self._floor = max(self._floor, base + floor)  # (the local one, put back once)
        self._word_misses, self._word_window = word_misses, base + word_from
        self._lc_pos, self._lc_line, self._lc_line_start = lc_pos, lc_line, lc_line_start
        self._retain(buf, pos, stalled, final)
        cfg.forget_text()
        return out

    def _word_leap(
        self,
        buf: str,
        i: int,
        pos: int,
        floor: int,
        final: bool,
        out: list[Hit | Rejection],
        lc: tuple[int, int, int],
    ) -> tuple[int, int, int, tuple[int, int, int]]:
        """After :data:`_WORD_MISSES` triggers decided in Python (fruitless ones, or hits)
        within :data:`_WORD_GAP` of each other on average, the last at ``i``: where the
        scan may go on (``pos``, or past a block of words whose hits are known,
        :meth:`_block_hits`, those hits added to *out*), the triggers to count from
        there (one short of the next try after a leap), the scan's floor (the end of
        the last hit) and its line cursor *lc* (``_lc_pos``, ``_lc_line``,
        ``_lc_line_start``, which _scan keeps in locals).

        Not where the last try failed too recently: a try that fails waits half its
        next block's length; blocks double up to :data:`_WORD_BLOCK_MAX`."""
        if self._base + i < self._word_from:
            return pos, 0, floor, lc
        if not final and i >= len(buf) - R.DENSE_LOOKAHEAD - _WORD_ROOM:
            # Near the end of an unfinished buffer (no block fits): no try, and none
            # waits for it, so the text fed next is tried at its first fruitless trigger
            # (a wait of a block after each feed cost a hostile file 1.6 of 3 s).
            return pos, _WORD_MISSES - 1, floor, lc
        start = self._block_start(buf, i, floor)
        if start < 0:
            # A hit ended in the word that holds i (markup glued to a URI,
            # "<b>http://x.org/</b>"): no try, and none waits; the next trigger tries,
            # or where it did so already, the count starts again.
            self._word_again = not self._word_again
            return pos, _WORD_MISSES - 1 if self._word_again else 0, floor, lc
        self._word_again = False
        block = self._block_hits(buf, start, i, pos, final)
        self._word_block = min(2 * self._word_block, _WORD_BLOCK_MAX)
        if block is None:
            self._word_from = self._base + i + self._word_block // 2
            return pos, 0, floor, lc
        end, start, words, known, spaced = block
        if known:
            self._lc_pos, self._lc_line, self._lc_line_start = lc
            floor = self._emit_words(buf, start, end, words, known, spaced, out, floor)
            lc = self._lc_pos, self._lc_line, self._lc_line_start
        return max(end, pos), _WORD_MISSES - 1, floor, lc

    def _block_start(self, buf: str, i: int, floor: int) -> int:
        """Where the word that holds ``i`` starts (after white space or a ">"), or -1
        where it may not start a block: a candidate consumed text of it (``floor``),
        or the text before the buffer may belong to it, or it could be too long."""
        longest = self._cfg.max_len
        lo = floor if floor > i - longest else i - longest
        start = _last_cut(buf, lo, i + 1) + 1
        if start == 0 and (lo > 0 or self._base > 0):
            return -1
        return start

    def _block_hits(
        self, buf: str, start: int, i: int, pos: int, final: bool
    ) -> tuple[int, int, list[str], dict[str, tuple[Hit, ...]], str] | None:
        """A block of whole words from ``start`` (:meth:`_block_start`: the word holding
        ``i``) whose hits are known, or None: where it ends, where it starts, its words
        in order, the hits of those that hold any, each as found alone, and the block
        as split (:func:`_spaced`, or "" where it holds no ">"). For a scanner of hits
        only, in text dense with candidates the rules reject or take one at a time
        (``tel:1]~ ``, ``mailto:. ``, some 5 us each; a URI every few words, 2 to 9 us
        a hit): the block is split in C, and only words not met before are decided,
        each on its own (:meth:`_alone`).

        A word's hits are those it holds on its own wherever nothing in the block
        joins it to its neighbours. White space ends every run of URI characters
        (seed 002 Appendix E), and so does ">": a block is split at both, a word ending
        with its ">". The rules that read past a run's end or before its scheme read
        white space and ">" alike, but these (Appendix E): the ``URL:`` prefix (a
        block with "URL:", any case, is not leapt); angle brackets, whose white space
        inside is ignored (each "<" needs its ">" in its word, :func:`_angles_closed`);
        and a hyphen at a line break (:meth:`_ends_join_no_hit`). Quotes, single or
        double, are read next to the run only. Nor is a block leapt whose words could
        be too long (whose rejection ends the scan up to the next white space), or
        where a word that starts before ``pos``, scanned in part, holds a hit."""
        longest = self._cfg.max_len
        limit = len(buf) if final else len(buf) - R.DENSE_LOOKAHEAD
        end = min(start + self._word_block, limit)
        angles = buf.find("<", start, end) >= 0  # (looked for once, before anything is copied)
        if end - start > _WORD_SAMPLE:
            # A sample first: text whose words do not repeat (a list of links) fails it
            # at little cost, before the block is read.
            sample_words = set(_words(buf[start : start + _WORD_SAMPLE]))
            if len(sample_words.difference(self._fruitless, self._fruitful)) > _WORD_FEW:
                return None
            if end - start > 4 * _WORD_SAMPLE:
                # And one at its end, of words met in neither (a table after prose).
                tail = set(_words(buf[end - _WORD_SAMPLE : end]))
                tail.difference_update(sample_words, self._fruitless, self._fruitful)
                if len(tail) > _WORD_FEW:
                    return None
        last = _last_cut(buf, i, end) if end > i else -1
        if last < start:
            return None
        stop = last + 1 if buf[last] == ">" else last  # (a ">" ends the word before it)
        gap = _WORD_GAP_AFTER.match(buf, last)  # (it always matches)
        near = buf[max(start - 5, 0) : gap.end() if gap else last + 1]
        if ("l:" in near or "L:" in near) and "url:" in near.lower():
            return None
        # (A hyphen before the first word joined it to a candidate the scan has
        # decided: a hit ended past it, the floor; a rejection consumed nothing.)
        hyphen = _WORD_HYPHEN(near)
        fruitless, fruitful = self._fruitless, self._fruitful
        text = buf[start:stop]
        spaced = _spaced(text)
        words = _split(spaced)
        distinct = set(words)
        unknown = distinct.difference(fruitless, fruitful)
        if len(unknown) > _WORD_UNKNOWN:
            return None
        if angles and not all(_angles_closed(word) for word in distinct if "<" in word):
            return None
        known = {word: hits for word in distinct if (hits := fruitful.get(word)) is not None}
        # Words decided alone: no more text than an eighth of the block (a try that
        # fails costs little more than the block's split), none that could be too long;
        # each kept as holding hits or none, also where the block is not leapt.
        budget = self._word_block // _WORD_ALONE
        decided = {word for word in unknown if ":" not in word}  # (no trigger: no hit)
        failed = False
        for word in unknown:
            if word in decided:
                continue
            budget -= len(word)
            if budget < 0 or len(word) >= longest:
                failed = True
                break
            hits = self._alone(word)
            if hits:
                self._keep_hits(word, hits)
                known[word] = hits
            else:
                decided.add(word)
        self._keep_words(decided)
        if failed or (start < pos and self._scanned_hold_hits(words, known, pos - start)):
            return None
        if hyphen is not None and not self._ends_join_no_hit(distinct, known):
            return None
        return last + 1, start, words, known, spaced if len(spaced) > len(text) else ""

    @staticmethod
    def _scanned_hold_hits(words: list[str], known: dict[str, tuple[Hit, ...]], upto: int) -> bool:
        """Whether a word of a block that starts before *upto* (from the block's start),
        scanned in part, holds a hit alone."""
        at = 0
        for word in words:
            if at >= upto:
                return False
            if word in known:
                return True
            at += len(word) + (word[-1:] != ">")
        return False

    def _ends_join_no_hit(self, words: set[str], known: dict[str, tuple[Hit, ...]]) -> bool:
        """Whether no word of a block (*words*, those in *known* holding hits alone) can
        be joined to a hit at a hyphen before a line break (Appendix E): every one that
        ends in "-" with a colon in it holds no hit alone and :func:`joins_no_hit`
        (kept, as the words are). Then a block's hyphens at line ends change none of
        its hits: a word without a colon starts no candidate, and a candidate joined
        and rejected consumes nothing (the scan goes on after its colon)."""
        ends = self._joined_ends
        for word in words:
            if word[-1:] == "-" and ":" in word:
                if word in known:
                    return False
                verdict = ends.get(word)
                if verdict is None:
                    verdict = joins_no_hit(self._cfg, word)
                    self._count_kept(len(word))
                    ends[word] = verdict  # (_count_kept clears it in place)
                if not verdict:
                    return False
        return True

    def _emit_words(
        self,
        buf: str,
        start: int,
        end: int,
        words: list[str],
        known: dict[str, tuple[Hit, ...]],
        spaced: str,
        out: list[Hit | Rejection],
        floor: int,
    ) -> int:
        """Add to *out* the hits of the words of a block from ``start`` to ``end`` (*words*,
        in order, each one white space after the one before in *spaced*, the block with
        a space after each ">", or in the block where that is ""), that *known* holds,
        each found alone between spaces (its offsets one more than in the word); return
        the end of the last (else *floor*).

        Each word's start and whether it holds hits are made in C (``accumulate``,
        ``compress``), so Python steps through the words with hits only; on a block of
        one line, which holds every hit of a line of links, the line cursor is moved
        once, not at each hit (``tel:1 `` repeated: 0.66 -> 0.59 us a hit)."""
        base = self._base
        append = out.append
        # The line cursor in locals, written out as in _scan.
        lc_pos, lc_line, lc_line_start = self._lc_pos, self._lc_line, self._lc_line_start
        # Each word's start less one (a hit found alone in " word " starts one later):
        # the lengths before it, and one white space after each.
        ats = map(add, accumulate(map(len, words), initial=start - 1), count())
        found = compress(zip(words, ats, strict=False), map(known.__contains__, words))
        one_line = not spaced and buf.find("\n", start, end) < 0
        if one_line:  # (the cursor moved once, to the block's start)
            self._advance_lines(buf, start)
            lc_pos, lc_line, lc_line_start = self._lc_pos, self._lc_line, self._lc_line_start
        shift = counted = 0  # the spaces added to the block before a hit, counted up to
        for word, at in found:
            for uri, raw, hit_start, hit_end, _, _, context, kind, scheme, key, alt in known[word]:
                s = at + hit_start
                if not one_line:
                    if spaced:
                        shift += spaced.count(">", counted, s - start)
                        counted = s - start
                        s -= shift
                    lo = lc_pos - base
                    if s > lo:
                        if lo < 0:
                            lo = 0
                        nl = buf.rfind("\n", lo, s)
                        if nl >= 0:
                            lc_line += buf.count("\n", lo, nl) + 1
                            lc_line_start = base + nl + 1
                        lc_pos = base + s
                floor = at + hit_end - shift  # (a hit holds no ">")
                append(
                    _new_hit(
                        Hit,
                        (
                            uri,
                            raw,
                            base + s,
                            base + floor,
                            lc_line,
                            base + s - lc_line_start + 1,
                            context,
                            kind,
                            scheme,
                            key,
                            alt,
                        ),
                    )
                )
        self._lc_pos, self._lc_line, self._lc_line_start = lc_pos, lc_line, lc_line_start
        return floor

    def _keep_words(self, words: set[str]) -> None:
        """Add *words* to :attr:`_fruitless` (:meth:`_keep_hits` the others)."""
        self._count_kept(sum(map(len, words)))
        self._fruitless |= words

    def _keep_hits(self, word: str, hits: tuple[Hit, ...]) -> None:
        """Keep the *hits* found in *word* alone (:attr:`_fruitful`)."""
        self._count_kept(4 * len(word))  # (the word, and its hits' strings)
        self._fruitful[word] = hits

    def _count_kept(self, size: int) -> None:
        """Count *size* more characters kept of words, the words known to hold hits or
        none first forgotten where they would hold more than :data:`_WORD_KEPT`: a
        block's words may be long, and memory stays bounded."""
        if self._word_chars + size > _WORD_KEPT:
            self._fruitless.clear()
            self._fruitful.clear()
            self._joined_ends.clear()
            self._word_chars = 0
        self._word_chars += size

    def _alone(self, word: str) -> tuple[Hit, ...]:
        """The hits *word* holds on its own, between spaces (as in text: each one
        character later than in *word*), found by a scanner of hits only with this
        one's rules but no word leaps."""
        alone = Scanner.__new__(Scanner)
        alone._setup(self._cfg, rejections=False, word_leaps=False)
        return tuple(alone.hits((f" {word} ",)))

    def _retain(self, buf: str, pos: int, stalled: bool, final: bool) -> None:
        """Drop decided text, keeping the look-behind and any pending candidate."""
        if final:  # closing: nothing is kept, and no line needs counting any more
            self._buf, self._pos, self._need = "", 0, 0
            return
        n = len(buf)
        keep_from = max(0, min(pos, n) - _LOOKBEHIND)
        if keep_from:
            self._advance_lines(buf, keep_from)
            buf = buf[keep_from:]
            self._base += keep_from
            pos -= keep_from
        self._buf = buf
        self._pos = pos
        if final:
            self._need = 0
        elif stalled:
            # A candidate is waiting for more text: rescan only once the retained text
            # has doubled, so a long candidate fed in tiny chunks stays linear.
            self._need = max(_MIN_BATCH, len(buf) - pos)
        else:
            self._need = _MIN_BATCH

    # ------------------------------------------------------------------ output
    def _rejection(self, buf: str, c: Candidate) -> Rejection:
        raw = buf[c.start : c.end]
        assert c.reason is not None
        return Rejection(
            raw, self._base + c.start, self._base + c.end, c.context, c.reason, c.detail
        )

    def _hit(
        self, buf: str, c: Candidate, out: list[Hit | Rejection], lc: tuple[int, int, int]
    ) -> tuple[int, int, int]:
        """Add to *out* the hit for a candidate the general path accepted; *lc* is the line
        cursor (``_lc_pos``, ``_lc_line``, ``_lc_line_start``, which _scan keeps in
        locals), given and returned."""
        self._lc_pos, self._lc_line, self._lc_line_start = lc
        self._advance_lines(buf, c.start)
        base = self._base
        out.append(
            _new_hit(
                Hit,
                (
                    c.uri,
                    buf[c.start : c.end],
                    base + c.start,
                    base + c.end,
                    self._lc_line,
                    base + c.start - self._lc_line_start + 1,
                    c.context,
                    c.kind,
                    c.scheme,
                    dedup_key(c.uri),
                    c.alternative,
                ),
            )
        )
        return self._lc_pos, self._lc_line, self._lc_line_start

    def _advance_lines(self, buf: str, upto: int) -> None:
        """Count newlines in ``buf`` from the line cursor up to buffer index ``upto``."""
        lo = self._lc_pos - self._base
        if upto <= lo:
            return
        lo = max(lo, 0)
        # The last line break first (memrchr), then the count only before it: none on
        # the way (hits on one line) costs one search, and the count stops short.
        k = buf.rfind("\n", lo, upto)
        if k >= 0:
            self._lc_line += buf.count("\n", lo, k) + 1
            self._lc_line_start = self._base + k + 1
        self._lc_pos = self._base + upto


class _Triggers:
    """Finds trigger positions. While triggers are sparse, two prefilters that start with
    their literal character (:data:`rules.LT_TRIGGER`, :data:`rules.COLON_TRIGGER`) skip
    at memchr-like speed; within the look-ahead distance of an unfinished buffer's end,
    plain ``str.find`` (the rules then wait for more text). Once many triggers in a row
    led nowhere (runs of ``<a:``, ``ab:ab:``), a stricter prefilter takes over for the
    next 64 KiB, so hostile text costs C time, not Python time (fruitless colons are
    counted apart from ``<`` and may stand further apart: the leaps make them cheap).
    Within it, whole blocks in which no colon follows a name the colon rule accepts are
    leapt over (:meth:`_leap`), after some words passed over one by one or where the
    prefilter finds nothing for a while yet triggers crowd."""

    __slots__ = (
        "alarms",
        "buf",
        "dense_until",
        "final",
        "hit_words",
        "leap_from",
        "limit",
        "max_len",
        "misses",
        "next_colon",
        "next_lt",
        "patience",
        "reach",
        "region_end",
        "schemes",
        "speed",
        "stops_from",
        "stops_ok",
        "strict",
        "stride",
        "vocab_skip",
        "vocab_wait",
        "window",
        "words",
    )

    def __init__(
        self,
        buf: str,
        pos: int,
        final: bool,
        schemes: frozenset[str] | None,
        words: R.SchemeWords,
        hit_words: R.SchemeWords | None = None,
        max_len: int = 8192,
        speed: Speed | None = None,
    ) -> None:
        self.speed = speed or Speed()
        self.buf = buf
        self.schemes = schemes
        """The names the colon rule accepts; None: any (the any-scheme rule)."""
        self.words = words
        """Those names followed by ``:`` (:attr:`rules.Config.scheme_words`; for a
        scanner of hits only :attr:`rules.Config.nid_words`, ``urn`` only before an
        NID: without one it is rejected at once, never too long), and the dense
        loop's prefilter (its ``dense``)."""
        self.hit_words = hit_words
        """For a scanner of hits only, :attr:`rules.Config.hit_words`: besides, a name
        that needs ``//`` counts only with it. Not where that name's run may be too
        long (a too-long candidate ends the scan up to the next white space: see
        :meth:`_short_runs`)."""
        self.max_len = max_len
        self.reach = R.run_room(max_len)
        self.stops_from = self.stops_ok = -1
        """Every position from :attr:`stops_from` to :attr:`stops_ok` has a line break or
        a space within :attr:`reach` after it (see :meth:`_near_stops`)."""
        self.leap_from = 0
        self.stride = _LEAP_MIN
        self.strict = False
        self.patience = _LEAP_AFTER
        self.final = final
        self.limit = len(buf) if final else len(buf) - R.DENSE_LOOKAHEAD
        self.dense_until = -1
        self.next_lt = self.next_colon = -1  # before any pos: looked for at the first next()
        self.misses = [0, 0]
        """Fruitless ``<`` and ``:`` since their window started (see :meth:`miss`)."""
        self.window = [pos, pos]
        self.alarms: list[int] = []
        """The names a leap's block holds after the first, where the dense loop may
        stop (descending: the nearest last); kept up to :attr:`region_end`."""
        self.region_end = -1
        self.vocab_wait = self.vocab_skip = 0
        """Leaps left that do not ask :meth:`_vocabulary`, and how many the next that
        finds it does not pay will skip."""

    def next(self, pos: int) -> int:
        """The first trigger at or after ``pos``, or -1."""
        if 0 <= self.dense_until <= pos:
            # A trigger found near its end was decided past it: the stretch is over
            # (and a new one may start, see miss).
            self.dense_until = -1
        if self.dense_until > pos:
            if pos < self.region_end:  # in a block a leap kept the names of
                pos = self._to_alarm(pos)
            found, pos = self._dense(pos)
            if found >= 0:
                return found
        # Each finder's next trigger is kept until passed (_NONE: there is none). Up to
        # the limit its prefilter finds it; past it, within the look-ahead distance of
        # an unfinished buffer's end, str.find (the rules then wait for more text).
        # Written out for both, not a method: this runs once per trigger.
        limit = self.limit
        colon = self.next_colon
        if colon < pos:
            m = _COLON_SEARCH(self.buf, pos) if pos < limit else None
            if m is not None and m.start() < limit:
                colon = m.start()
            else:  # none before the limit (no second search: the text may be long)
                k = self.buf.find(":", max(pos, limit))
                colon = k if k >= 0 else _NONE
            self.next_colon = colon
        lt = self.next_lt
        if lt < pos:
            m = _LT_SEARCH(self.buf, pos) if pos < limit else None
            if m is not None and m.start() < limit:
                lt = m.start()
            else:
                k = self.buf.find("<", max(pos, limit))
                lt = k if k >= 0 else _NONE
            self.next_lt = lt
        found = colon if colon < lt else lt
        return found if found != _NONE else -1

    def _dense(self, pos: int) -> tuple[int, int]:  # noqa: C901 - once per trigger in dense text, kept whole
        """Within a dense stretch: ``(trigger, pos)``, or ``(-1, pos)`` when the stretch
        ended and the sparse finders go on from ``pos``."""
        buf, schemes = self.buf, self.schemes
        # For a scanner of hits only, the prefilter that does not ask how far a colon's
        # run goes where every position searched has a stop character near enough
        # after it (up to stops); else the one that asks (see _near_stops).
        if self.hit_words is None:
            near, stops = self.words.dense.search, _NONE
        else:
            near = self.words.dense_near.search
            stops = self.stops_ok if self.stops_from <= pos else -1
        skipped = 0
        while True:
            probe = pos + _DENSE_PROBE
            m = None
            start = pos
            if probe + R.DENSE_LOOKAHEAD < self.dense_until:
                end = probe + R.DENSE_LOOKAHEAD
                if end <= stops:
                    m = near(buf, pos, end)
                else:
                    m, stops = self._past_stops(pos, end)
                if m is None or m.start() >= probe:
                    if buf.count(":", pos, probe) + buf.count("<", pos, probe) < _DENSE_FEW:
                        # Nothing for a while, and few plain triggers either (mail
                        # text after a dense header): the sparse finders are the
                        # cheaper from here, so the stretch ends (they take it from
                        # pos).
                        self.dense_until = -1
                        return -1, pos
                    # No match starts before probe (the look-ahead was there, and a
                    # "<" running on to the end matched \Z), yet triggers crowd
                    # ("<http://<http://", long words): a leap from the last colon
                    # before it may pass over much more at once.
                    after = buf.rfind(":", pos, probe) + 1
                    if schemes is not None and after >= self.leap_from and after:
                        leapt = self._leap(after)
                        if leapt > after:
                            pos = leapt
                            skipped = 0
                            continue
                    m = None
                    start = probe
            if m is None:
                # To the look-ahead past the stretch's end as it is now: a leap above
                # may have moved it on (with the end before it, a match just before
                # the new end, whose look-ahead the window cut, was passed over).
                end = self.dense_until + R.DENSE_LOOKAHEAD
                if end <= stops:
                    m = near(buf, start, end)
                else:
                    m, stops = self._past_stops(start, end)
            if m is None or m.start() >= self.dense_until:
                pos = self.dense_until
                self.dense_until = -1
                return -1, pos
            if not m.group("colon"):
                return m.start(), pos
            if schemes is not None:
                # The word the colon rule would look at (the match is word + ":"):
                # one it cannot accept is passed over here, a tight loop instead
                # of a trip through the rules ("ab:ab:ab:", long "h=from:to:"). A
                # dotted word it accepts only for a name after the last dot
                # ("e.g.http:"; not "Main.java:").
                # A scanner that reports hits only passes over more (_no_hit_at).
                word = m.group()[:-1].lower()
                if word not in schemes:
                    word = word[word.rfind(".") + 1 :]
                if word not in schemes or (self.hit_words is not None and self._no_hit_at(m, word)):
                    pos = m.end()
                    if pos < self.region_end:
                        pos = self._to_alarm(pos)
                        continue
                    skipped += 1
                    if skipped >= self.patience and pos >= self.leap_from:
                        pos = self._leap(pos)
                        skipped = 0
                    continue
            return m.start("colon"), pos

    def _near_stops(self, pos: int, end: int) -> int:
        """How far from ``pos`` on, up to ``end`` at least if it can, every position has
        a line break or a space (or the end of a finished text: then :data:`_NONE`)
        within :attr:`reach` after it. Where the dense prefilter of a scanner of hits
        only passes over a colon before what a URI cannot hold ("tel:[", "mailto:%zz")
        it must know that the candidate there is not too long
        (:func:`rules._after_colon`): asked at each such colon, it read the colon's run
        to its end, or to the end of the text searched, each time (``tel:[`` repeated
        in lines of 7 KB: 0.5 MB/s). Here the last line break or space within reach of
        the last position known is found, a memrchr-like search a step, each step up to
        the bound (8 KB) on; what is found is kept (:attr:`stops_ok`, from
        :attr:`stops_from`): the scan goes forward."""
        buf, reach = self.buf, self.reach
        if self.stops_from <= pos < self.stops_ok:
            ok = self.stops_ok
        else:
            ok = self.stops_from = pos
        while ok < end:
            far = ok + reach + 2  # a stop at ok + 1 + reach still ends the run in time
            k = buf.rfind("\n", ok + 1, far)
            space = buf.rfind(" ", k + 1 if k > ok else ok + 1, far)
            k = space if space > k else k
            if k <= ok:
                if self.final and far > len(buf):
                    ok = _NONE  # the end of the text ends every run
                break
            ok = k
        self.stops_ok = ok
        return ok

    def _past_stops(self, pos: int, end: int) -> tuple[re.Match[str] | None, int]:
        """The dense prefilter's first match in ``buf[pos:end]`` for a scanner of hits
        only, and how far the stops are known (:meth:`_near_stops`, asked here). Up to
        there, where every position has a stop character within reach after it, the
        prefilter that does not ask how far a colon's run goes; then the one that asks.
        No match straddles the stops' end but one of a "<": after the scheme's colon,
        the end of the text searched satisfies its look-ahead, and the first search
        finds it too (a superset); in the white space between the "<" and the scheme, it
        does not, and the second search starts at the last "<" whose head may reach the
        stops' end (:data:`rules.ANGLE_HEAD_MAX`). Started there, it passed over
        ``< http://a/>`` before 8 KB without a space, a hit. The one that asks reads, at
        each colon before what a URI cannot hold, the colon's run to its end or to the
        end searched; it is left the runs that may be too long and the end of an
        unfinished text (given a search over several lines of 7 KB of "tel:[", it cost
        each such colon the rest of its line: 1 MB/s)."""
        buf, words = self.buf, self.words
        stops = self._near_stops(pos, end)
        if end <= stops:
            return words.dense_near.search(buf, pos, end), stops
        start = pos
        if stops > pos:
            m = words.dense_near.search(buf, pos, stops)
            if m is not None:
                return m, stops
            lt = buf.rfind("<", max(pos, stops - R.ANGLE_HEAD_MAX), stops)
            start = lt if lt >= 0 else stops
        return words.dense.search(buf, start, end), stops

    def _to_alarm(self, pos: int) -> int:
        """Within the block of the last leap, after a word the dense loop passed over:
        where the loop may go on, after the last colon before the block's next name
        (:attr:`alarms`), or before its end. As the leap itself would, without its
        search: among frequent hits ("ab:" thirty times, then "tel:1 "), one leap's
        search serves every hit in its block."""
        alarms = self.alarms
        while alarms and alarms[-1] < pos:
            alarms.pop()
        k = self.buf.rfind(":", pos, alarms[-1] if alarms else self.region_end)
        return k + 1 if k >= 0 else pos

    def _no_hit_at(self, m: re.Match[str], word: str) -> bool:
        """Whether the colon rule can only reject the registered *word* the dense
        prefilter found (*m*, the word and its colon): a name that needs "//" without
        it ("http:x"; not where its run may be too long, which ends the scan up to the
        next white space), or "urn" where no URN in text may stand
        (:meth:`_no_urn_at`). Where the stop characters are known to come within reach
        (:meth:`_near_stops`), the run is not searched to its end (``http:http://`` in
        lines of 7 KB: 0.5 MB/s)."""
        buf, after = self.buf, m.end()
        if word == "urn":
            return self._no_urn_at(after - 4)
        return (
            word in AUTHORITY_SCHEMES
            and not buf.startswith("//", after)
            and (
                self._stop_in_reach(after - 1)
                or _STOP_SEARCH(buf, after, m.start() + self.max_len) is not None
            )
        )

    def _stop_in_reach(self, colon: int) -> bool:
        """Whether a stop character is known to come within :attr:`reach` after the
        colon at *colon* (see :meth:`_near_stops`); False where it is not known."""
        return self.stops_from <= colon < self.stops_ok

    def _no_urn_at(self, k: int) -> bool:
        """Whether no URN in text may stand at the "urn:" at *k*, so that the URN rule
        can only reject it and a scanner of hits only may pass over it: no NID, its
        colon and an NSS there (seed 003 2.1, 2.2: BAD_NID), or one the URN check
        rejects whatever follows (rules.REJECTED_URN: the NID "urn", which 2.1
        reserves; "%00" early in the NSS, 2.5.3), where a stop character comes within
        reach: a URN holds none, so it is not too long (a too-long one ends the scan at
        the next white space, past any URI in its run). ``urn:urn:`` repeated cost a
        rejection each: 0.5 MB/s; ``urn:ab:%00`` 1.4 MB/s. The leaps' patterns ask
        less: what an NID starts with (see rules._scheme_words)."""
        buf = self.buf
        if _URN_START(buf, k) is None:  # (the head of the URN pattern and one pchar)
            return True
        return _REJECTED_URN(buf, k) is not None and self._stop_in_reach(k + 3)

    def _leap(self, pos: int) -> int:
        """Pass over dense text up to the last colon before one a rule might take.

        The dense loop passes over a word no rule accepts one match at a time, a Python
        step per three bytes of ``ab:ab:ab:``; and its prefilter tries every position,
        at some 40 MB/s on such text. Here a block of the text is searched at once, in
        C and reversed (the patterns then start with the colon, see
        :func:`rules._scheme_words`), for the first place the dense prefilter might
        match and the loop not pass over: a name the colon rule accepts followed by
        ``:``, a dotted word ending in one, a ``<`` that may open a candidate. Every
        colon before it follows a word the dense loop would pass over, so the loop may
        go on after the last of them. The searches find supersets and so never leap
        over a trigger. The loose pattern is the faster; after a leap it cut short
        (``x-http:x-http:``) the strict one is used. A leap cut short with that too
        pauses leaping for the next :data:`_LEAP_MIN` characters. A block with no "<"
        and no long run keeps every name the strict pattern finds in it: the dense
        loop then goes from one to the next without a search (:meth:`_to_alarm`), and
        the next block may be twice as long.
        """
        buf = self.buf
        if buf[pos - 1 : pos] != ":" or not self.speed.leaps:  # a block starts a word
            return pos
        stop = min(pos + self.stride, self.dense_until)
        if stop <= pos:
            # A word the dense loop passed over ran past the stretch's end: no block
            # (one of negative size leapt far ahead, over hits).
            return pos
        # Same length as the text: "?" for anything not ASCII, A-Z lowered (no other
        # character may lower into a letter, as U+212A KELVIN SIGN does with str.lower).
        # Encoded once with the look-ahead a "<" needs (up to the scheme's colon, not cut
        # at the block's end); the block keeps three more characters, what follows the
        # last colon ("//" and one).
        ahead = buf[pos : stop + R.DENSE_LOOKAHEAD].encode("ascii", "replace").lower()
        size = stop - pos
        block = ahead[: size + 3]
        words = self.words
        back = block[::-1]
        first = size
        cached = False
        # Where the block's words, each read once, hold no name quick finds (or none
        # that back_strict does), its search finds none: not searched for.
        told = self._told(block, size) if self.speed.vocabulary else None
        no_strict = told is not None and not told[1]
        skip_quick = told is not None and not told[0]
        quick = None if skip_quick else words.quick.search(back, len(block) - size)
        if quick is not None:
            # The patterns below find subsets of what quick finds: none starts before it
            # (hit_words' are subsets of nid_words').
            since = quick.start()
            if self.hit_words is not None and self._short_runs(pos, stop):
                words = self.hit_words
            pattern = words.back_strict if self.strict else words.back_loose
            found = None if self.strict and no_strict else pattern.search(back, since)
            # Where the searches of pattern and its subsets below may start (they find
            # that match again at once); the loose pattern's, a superset, at quick's.
            start = since if found is None else found.start()
            if found is None and not self.strict:
                pass  # no name in the block (the strict pattern finds a subset)
            elif b"<" in block or R.long_run(block, size) or not self.speed.alarms:
                # (None found: none is there, not searched for again)
                first = size if found is None else _first_alarm(back, size, start, pattern)
                if self.strict and R.long_run(block, first):  # a long run before it
                    first = _first_alarm(back, size, since, words.back_loose)
            else:
                # Every name of the block (the strict pattern holds: no long run), for
                # the dense loop to go to one after another (_to_alarm); the first is
                # where this leap ends. Where the strict pattern (a leap after one cut
                # short) found none, none is there: the block is not searched again.
                urns = self.hit_words is not None and b"urn:" in block and self.speed.urn_masks
                if found is None or no_strict:
                    alarms = []
                elif urns:
                    # The "urn" before which no URN may stand are no names to stop at
                    # (the dense loop passes over them in C): not even found.
                    alarms = self._urn_alarms(ahead, size, start, words, pos)
                else:
                    alarms = _alarms(back, start, words.back_strict, pos)
                first = alarms.pop() - pos if alarms else size
                self.alarms = alarms
                self.region_end = stop
                cached = True
        if b"<" in block:
            first = _angle_alarm(ahead, words, first, self.speed.tag_masks)
        if not (self.strict or cached) and first < size and block.rfind(b":", 0, first) < 0:
            # The loose pattern found a name before the block's first colon: no leap at
            # all. The strict one has its try now, not a window later, where the dense
            # loop had searched the rest of its stretch already ("<http://[x]> "
            # repeated: at the prefilter's 18 MB/s, where the strict leaps pass over it).
            self.strict = True
            return self._leap(pos)
        if cached or first >= _LEAP_SHORT or first == size:  # (a short block is no fault)
            self.leap_from = pos + first + 1
            # A block whose names were all kept served them all: the next may be larger.
            self.stride = min(2 * size if cached else max(2 * first, _LEAP_FLOOR), _LEAP_MAX)
            self.patience = 1
            if stop == self.dense_until and (first == size or cached):
                # Leapt to the stretch's end: the text is as dense as ever, and the
                # stretch goes on (rather than 32 more misses one by one to start anew).
                self.dense_until = min(stop + _DENSE_SPAN, self.limit)
        elif self.strict:
            self.leap_from = pos + first + _LEAP_MIN
            self.stride = _LEAP_MIN
            self.patience = _LEAP_AFTER
        else:
            self.strict = True
            self.leap_from = pos + first + 1
        return pos + block.rfind(b":", 0, first) + 1

    def _told(self, block: bytes, size: int) -> tuple[bool, bool] | None:
        """:meth:`_vocabulary`, but where the last leaps asked found it did not pay
        (1, 3, 7, 15 leaps after: :attr:`vocab_skip`), so that text it does not serve
        seldom pays for a sample."""
        if self.vocab_wait:
            self.vocab_wait -= 1
            return None
        told = self._vocabulary(block, size)
        if told is None or told[1]:  # no search saved
            self.vocab_wait = self.vocab_skip
            self.vocab_skip = min(2 * self.vocab_skip + 1, _VOCAB_SKIP_MAX)
        else:
            self.vocab_skip = 0
        return told

    def _urn_alarms(
        self, ahead: bytes, size: int, start: int, words: R.SchemeWords, pos: int
    ) -> list[int]:
        """A leap's alarms (:func:`_alarms` of back_strict) in a block with "urn:" of
        a scanner of hits only. The "urn" before which no URN may stand are no names to
        stop at (the dense loop passes over them in C): masked, not even found. Where
        that leaves the block's words no name back_strict takes (``urn:ab:%00 ``
        repeated: two colons, each of which costs back_strict some 130 ns), it is not
        searched (:meth:`_vocabulary`)."""
        masked = R.mask_fruitless_urns(ahead, words is self.hit_words)[: size + 3]
        told = self._vocabulary(masked, size, strict_only=True) if self.speed.vocabulary else None
        if told is not None and not told[1]:
            return []
        return self._urn_texts_only(_alarms(masked[::-1], start, words.back_strict, pos))

    def _vocabulary(
        self, block: bytes, size: int, strict_only: bool = False
    ) -> tuple[bool, bool] | None:
        """Whether the first *size* bytes of a leap's *block* may hold a name that
        quick finds, and one that back_strict finds, told from the words before their
        colons each written once (SchemeWords.vocab_any); None where that would not pay.

        Text dense with colons repeats its words (``ab:ab:``, ``x-http:x-http:``,
        ``key:value``), and the leaps' patterns cost some 90 ns at each colon that
        passes quick's guard, back_strict some 170 ns at one after a name glued to a
        word; a split at the colons and a set of the words cost some 45 ns a colon (in
        C), and the patterns then read each word once. Only where a sample at the
        block's start says it pays: most of its colons pass the guard (the others cost
        quick some 17 ns), its words repeat, and none is a name back_strict finds
        (the block's search is needed then). Where only back_strict's search is to be
        saved (*strict_only*), most colons must also be followed by what is no stop
        character: at the others, its look-behinds fail at once."""
        words = self.words
        head = block[: min(size, _VOCAB_SAMPLE)]
        colons, guarded, stopped = R.colon_sides(head, words.shortest)
        if colons < _VOCAB_MIN or 2 * guarded < colons or (strict_only and 2 * stopped > colons):
            return None
        pieces = head.split(b":")
        pieces.pop()  # what follows the last colon: no word before one
        vocabulary = set(pieces)
        if _VOCAB_REPEATS * len(vocabulary) > len(pieces):
            return None
        if size > len(head):
            if words.vocab_strict.search(_reversed_words(vocabulary)) is not None:
                return None
            pieces = block[:size].split(b":")
            pieces.pop()
            vocabulary = set(pieces)
        text = _reversed_words(vocabulary)
        if words.vocab_any.search(text) is None:
            return False, False
        return True, words.vocab_strict.search(text) is not None

    def _urn_texts_only(self, alarms: list[int]) -> list[int]:
        """*alarms* but those at a "urn" where no URN in text may stand ("urn:ab: "), which
        the dense loop of a scanner of hits only passes over (:meth:`_no_urn_at`): the
        loop then need not stop there (the leaps' patterns ask only for what an NID
        starts with). Most are masked in the block before (rules.mask_fruitless_urns);
        what is left is "urn" after a scheme character ("e.g.urn:") and the reserved
        NID where a stop comes within reach of it though not of every run."""
        buf = self.buf
        return [a for a in alarms if buf[a : a + 4].lower() != "urn:" or not self._no_urn_at(a)]

    def _short_runs(self, pos: int, stop: int) -> bool:
        """Whether every run of URI characters through ``buf[pos:stop]`` ends soon
        enough that no candidate from there is too long (within the length bound,
        less a scheme's 64 characters and its colon): only then may the leap take a
        name that needs ``//`` without it for nothing.

        Any non-ASCII character counts as a URI character here. The runs within the
        block are measured in it (``translate`` and ``find``); only the run that goes
        on past the block is followed further, to its end, so a leap costs its block
        and that run, never the whole length bound (the same test over ``stop +
        max_len`` made a leap every 100 bytes cost 8 KB of work)."""
        needle = R.run_room(self.max_len)
        if needle < 1:
            return False
        buf = self.buf
        runs = buf[pos : stop + 1].encode("ascii", "replace").translate(R.RUN_CHARS)
        if runs.find(b"a" * needle) >= 0:
            return False
        last = pos + runs.rfind(b" ") + 1  # where the run reaching past the block starts
        if last > stop:
            return True
        end = _ASCII_STOP_SEARCH(buf, last, last + needle)
        if end is not None:
            return True
        # No stop within reach: the run is too long, unless the text ends first (and
        # an unfinished buffer may go on).
        return last + needle > len(buf) and self.limit == len(buf)

    def miss(self, i: int) -> None:
        """Note a trigger that gave nothing; switch to the prefilter when they crowd.
        Colons and ``<`` are counted apart: fruitless colons are what the prefilter
        and the leaps pass over in C, so they switch at a wider spacing."""
        colon = self.buf[i] == ":"  # the counters' index: 0 for "<", 1 for ":"
        misses = self.misses
        misses[colon] += 1
        if misses[colon] >= _DENSE_MISSES:
            gap = _COLON_GAP if colon else _DENSE_GAP
            if (
                i - self.window[colon] < _DENSE_MISSES * gap
                and self.dense_until < 0
                and self.speed.dense
            ):
                self.dense_until = min(i + _DENSE_SPAN, self.limit)
            misses[colon] = 0
            self.window[colon] = i


# A "<" the leaps' angle pattern may match: "urn:", white space or a letter after it.
_TAG_START = re.compile(rb"<[a-z \t\r\n]")
_TAG_EDGE = re.compile(rb"[<>]")
_LT = ord("<")
_MASK_FROM = 1 << 13  # texts at least this long are worth masking repeated tags in
_MASK_TAG = 256  # tags longer than this are not masked
_MASK_SAMPLE = 2048  # a tag is masked when it recurs this often this far after it
_MASK_COPIES = 8
_MASK_MISSES = 3  # tags that do not recur so before masking stops
_MASK_MAX = 16  # masks per search at most (each copies the text: bounded work)
# A tag's prefix ("<w:") is masked rather than the tag when it recurs this many times
# more than the tag: so many tags share it that a mask apiece would cost more than the
# one search the prefix's mask needs, and run out of masks. ("<w:p>", "<w:r>", "<w:t>"
# of Word XML are cheaper masked apiece; "<a:b0>", "<a:b1>"… only by their prefix.)
_MASK_SPREAD = 8


def _angle_alarm(text: bytes, words: R.SchemeWords, end: int, masks_on: bool = True) -> int:
    """Where the first "<" the angle pattern of *words* matches in *text* starts, if
    before *end*; else *end*. (*text* is lowered ASCII.)

    Markup repeats its tags, and the pattern costs some 100 ns at every "<" of them
    (``<td:x>``, ``<w:r>``). Whether it matches at a "<" is decided by the bytes from
    there to the first "<" or ">" after it, that one included: no branch reads
    further but a 1993 URN's, which may hold a raw "<" (a text with ``<urn:`` is
    searched unmasked). So such a unit that recurs soon after is decided once, and
    every copy of it masked as "<>>>…" (its last byte kept): the same length, and its
    "<" kept, which is all that a "<" before it reads of it. Tags that differ but share their
    prefix ("<a:b0>", "<a:b1>"…), which recurs far more often than each tag, are
    masked by that prefix (:func:`_mask_prefix`). A mask copies the text, so there are
    at most :data:`_MASK_MAX` of them per search: tags that each recur only a dozen
    times are not worth one apiece."""
    pattern = words.angle
    if not masks_on:
        found = pattern.search(text)
        return found.start() if found is not None and found.start() < end else end
    start = 0 if b">" in text else _unclosed_from(text)
    misses = _MASK_MISSES if len(text) >= _MASK_FROM and b"<urn:" not in text else 0
    masks = _MASK_MAX
    while misses and masks:
        m = _TAG_START.search(text, start)
        if m is None or m.start() >= end:
            return end
        k = m.start()
        if pattern.match(text, k):
            return k
        edge = _TAG_EDGE.search(text, k + 1, k + _MASK_TAG)
        if edge is None:
            break
        q = edge.start()
        unit = text[k : q + 1]
        copies = text.count(unit, q, q + _MASK_SAMPLE)
        prefix = _TAG_PREFIX.match(text, k)
        if (
            prefix is not None
            and text.count(prefix.group(), q, q + _MASK_SAMPLE)
            >= max(_MASK_SPREAD * copies, _MASK_COPIES)
            and _unregistered(pattern, prefix.group())
        ):
            masks -= 1
            text, end = _mask_prefix(text, prefix.group(), k, end, words.prefix_alarm)
        elif copies >= _MASK_COPIES:
            masks -= 1
            masked = b"<" + b">" * (q - k - 1) + unit[-1:]
            text = text.replace(unit, masked)
            if unit[-1] == _LT:  # copies back to back share a "<": every other one is left
                text = text.replace(unit, masked)
        else:
            misses -= 1
        start = q
    alarm = pattern.search(text, start)
    return alarm.start() if alarm is not None and alarm.start() < end else end


def _unclosed_from(text: bytes) -> int:
    """Where the angle pattern's first match may start in *text* that holds no ">".

    Every branch then needs the end of the text (``\\Z``). A candidate's ends in
    ``[^<>]*+``, so only the last "<" may open one; a 1993 URN (seed 000 3.3) may hold a
    raw "<" (and white space, where it is wrapped in its brackets) but, with no "\\" to
    escape one, at most three more colons after "<urn:". Text of unfinished 1993 URNs
    (``<URN:a:b:`` repeated, no ">" in a block) would otherwise cost the pattern some
    160 ns at each "<". This restates the branches of :attr:`rules.SchemeWords.angle`:
    a change to them changes it (tests/test_fast_paths.py compares it with the plain
    search)."""
    last = text.rfind(b"<")
    if b"\\" in text:
        return 0
    colon = len(text)
    for _ in range(4):  # the fourth colon from the end
        colon = text.rfind(b":", 0, colon)
        if colon < 0:
            return 0
    return max(0, min(last, colon - len(b"<urn")))


# "<name:" where a "<" is decided by the name and what follows its colon only: not
# "<url:" (a prefix to the angle rule). (_unregistered leaves out the rest that the
# masks must not take: registered names, "urn", names with "+", never XML names.)
_TAG_PREFIX = re.compile(rb"<(?!url:)[a-z][a-z0-9+.\-]{0,63}+:")


@lru_cache(maxsize=256)
def _unregistered(pattern: re.Pattern[bytes], prefix: bytes) -> bool:
    """Whether the angle *pattern* rejects "<name:x>" for the name of *prefix*
    ("<name:"): an XML name of a name it does not know. It accepts it for a registered
    name, "urn" and a name with "+" (no XML name), which are then never masked."""
    return pattern.match(prefix + b"x>") is None


@lru_cache(maxsize=256)
def _prefix_alarm(prefix: bytes, tail: bytes) -> re.Pattern[bytes]:
    """*prefix* ("<name:") where the angle pattern matches, for a name it does not know:
    *prefix*, then *tail* (:attr:`rules.SchemeWords.prefix_alarm`)."""
    return re.compile(re.escape(prefix) + tail)


def _mask_prefix(
    text: bytes, prefix: bytes, start: int, end: int, tail: bytes
) -> tuple[bytes, int]:
    """Mask every *prefix* ("<name:", a name the angle pattern does not know) in *text*
    as "<>>>:", and *end* moved to the first of them after *start* that is an alarm
    (the prefix, then *tail*): its "<" is masked too, but no alarm after it is wanted.
    One C-level search for the rare alarm and one replace, where the angle pattern
    would cost its ~100 ns at every "<" (XML with a namespace prefix: "<dc:creator>",
    "<w:t>", each tag different)."""
    alarm = _prefix_alarm(prefix, tail).search(text, start)
    if alarm is not None and alarm.start() < end:
        end = alarm.start()
    return text.replace(prefix, b"<" + b">" * (len(prefix) - 2) + b":"), end


def _reversed_words(words: Iterable[bytes]) -> bytes:
    """*words* between colons, reversed: each read as in the text, with a colon before
    and after (SchemeWords.vocab_any)."""
    return (b":" + b":".join(words) + b":")[::-1]


def _alarms(back: bytes, since: int, pattern: re.Pattern[bytes], offset: int) -> list[int]:
    """Where every name *pattern* finds in a block starts, plus *offset*, the first
    last; *back* is the block reversed (see :func:`_first_alarm`), none before index
    *since*."""
    n = len(back) + offset
    return [n - m.end() for m in pattern.finditer(back, since)]


def _first_alarm(back: bytes, size: int, since: int, pattern: re.Pattern[bytes]) -> int:
    """Where the first name *pattern* finds in the first *size* bytes of a block starts,
    or *size*; *back* is the block reversed (*pattern* is for reversed text, see
    rules.SchemeWords), so the first name is the last match, and none starts before
    index *since* of *back*. One search tells whether there is any; the last is then
    looked for in a widening window at the end of *back*, so that search costs what
    the leap gains."""
    n = len(back)
    any_one = pattern.search(back, since)
    if any_one is None:
        return size
    width = 256
    while True:
        low = max(n - width, any_one.start())
        last = None
        for last in pattern.finditer(back, low):  # noqa: B007 - the last one is wanted
            pass
        if last is not None:
            return n - last.end()
        width *= 4
