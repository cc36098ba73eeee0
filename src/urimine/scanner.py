"""The sans-IO streaming scanner: text chunks in, URI and URN hits out.

It applies "Recommendations for Delimiting URI in Context" (RFC 3986 Appendix C, seed 001
Appendix E, RFC 1738's appendix): angle brackets with white space inside ignored, the
``URL:`` prefix, double (and single) quotes, white-space-delimited bare URIs with
trailing punctuation left out, and the hyphen at a line break. URNs follow seed 003
(2.5.3: in text the NSS ends at an excluded character) and seed 000 (the 1993
``<URN:...>`` form). The rules are the entries of :mod:`urimine.rules.table`.

Contract:

* Results are identical however the text is split into chunks (``feed`` may hold text
  back until it can decide; ``close`` flushes), and whatever :class:`~urimine.Speed`.
* It never raises on any ``str``.
* Memory is bounded: at most ``max_candidate_len`` characters of a pending candidate, a
  small look-behind and one batch of unscanned text are retained. A longer candidate is
  rejected (``Reason.TOO_LONG``) and the scanner resyncs at the next white space.
* It never rescans retained text it has decided on, so time is linear in the input.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from urimine.choices import DEFAULT_MAX_CANDIDATE_LEN
from urimine.fast.words import WordLeaps
from urimine.model import Hit, Rejection
from urimine.rules.base import Candidate, Site
from urimine.rules.config import Config
from urimine.rules.context import Context
from urimine.rules.table import sites
from urimine.rules.unwrapped import expand
from urimine.scan.buffer import Buffer
from urimine.scan.lines import LineCursor
from urimine.scan.loop import scan
from urimine.scan.triggers import TriggerFinder
from urimine.speed import ScanStats, Speed

_ALL_SPEED = Speed()
"""The default (frozen, so shared): making one costs a small text's scan a tenth."""

__all__ = ["DEFAULT_MAX_CANDIDATE_LEN", "Scanner"]


class Scanner:
    """Find URIs and URNs in text fed in chunks.

    ``feed(text)`` returns the hits (and, with ``rejections=True``, the
    :class:`~urimine.model.Rejection` s) whose end is decided; ``close()`` returns the
    rest. Calling ``feed`` after ``close`` raises ``RuntimeError``. ``speed`` chooses
    the speed mechanisms (:class:`~urimine.Speed`; all by default), which change no
    result; :attr:`stats` says what they did.
    """

    __slots__ = (
        "buffer",
        "chars",
        "closed",
        "ctx",
        "cursor",
        "hits_only",
        "last_end",
        "leaps",
        "paused",
        "sites",
        "skip_to_space",
        "stats",
        "unwrap",
        "want_rejections",
        "word_misses",
        "words",
    )

    def __init__(
        self,
        *,
        rules: Iterable[str] | str = "default",
        max_candidate_len: int = DEFAULT_MAX_CANDIDATE_LEN,
        extra_schemes: Iterable[str] = (),
        rejections: bool = False,
        speed: Speed | None = None,
    ) -> None:
        cfg = Config.build(rules, max_candidate_len, extra_schemes)
        self._start(Context(cfg, speed or _ALL_SPEED), rejections, word_leaps=True)

    def _start(self, ctx: Context, rejections: bool, word_leaps: bool) -> None:
        self.ctx = ctx
        self.sites: dict[str, Site] = sites(ctx.cfg)
        self.chars = "".join(self.sites)
        self.want_rejections = rejections
        self.unwrap = "unwrap" in ctx.rules
        """The unwrap rule: each wrapper's target follows it (:func:`expand`)."""
        self.hits_only = not rejections and ctx.speed.hits_only
        ctx.hits_only = self.hits_only
        self.stats = ScanStats()
        self.words: WordLeaps | None = None
        # (no word leaps under UTS #58, whose links may hold the ">" a leap ends words at)
        self.leaps = word_leaps and not rejections and ctx.speed.word_leaps
        self.leaps = self.leaps and "uts58" not in ctx.rules
        self.reset()

    def reset(self) -> None:
        """Make the scanner ready for a new text, as a fresh one with its options is:
        whatever the last text left (a candidate or bracket still open, text fed and not
        scanned, a scan paused or stopped by an exception, ``close``) is dropped, and
        offsets, lines and columns count from the new text's start. Kept are the rule
        set with its tables, the last scheme looked up (a guess checked against the text
        at each use) and :attr:`stats`, which keeps counting. Cheaper than a new scanner
        per text, for the many small texts of a run."""
        self.buffer = Buffer()
        self.cursor = LineCursor()
        self.last_end = 0  # absolute end of the last candidate
        self.skip_to_space = False  # after TOO_LONG: resync at the next white space
        self.closed = False
        self.paused: TriggerFinder | None = None
        """While a final scan is paused (:meth:`hits`), its trigger finder."""
        self.ctx.memo.forget_text()
        if self.leaps:
            self.words = WordLeaps(self.ctx, self._alone, self.stats)
        self.word_misses = 0

    # ------------------------------------------------------------------ public API
    def feed(self, text: str) -> list[Hit | Rejection]:
        """Add a chunk of text; return what is decided so far."""
        if self.closed:
            raise RuntimeError("Scanner.feed() after close()")
        if not text or not self.buffer.add(text):
            return []
        out = scan(self, final=False)
        return expand(out) if self.unwrap else out

    def close(self) -> list[Hit | Rejection]:
        """Signal the end of the text; return everything still undecided."""
        if self.closed:
            return []
        out = scan(self, final=True)
        self.closed = True
        self.buffer.text = ""
        return expand(out) if self.unwrap else out

    def hits(self, chunks: Iterable[str]) -> Iterator[Hit]:
        """Feed all of ``chunks``, close, and yield the hits (rejections left out)."""
        if not self.want_rejections:
            return self._fed(chunks)  # type: ignore[return-value]
        return (item for item in self._fed(chunks) if isinstance(item, Hit))

    @property
    def newlines_counted(self) -> tuple[int, int]:
        """``(offset, n)``: the text before ``offset`` holds ``n`` newlines (counted up
        to the last hit; whoever needs the total counts only the rest)."""
        return self.cursor.pos, self.cursor.line - 1

    def _fed(self, chunks: Iterable[str]) -> Iterator[Hit | Rejection]:
        """Feed *chunks* and close. The last chunk goes straight to the final scan (a text
        given whole is scanned once), which pauses every ``Tuning.slice`` characters to
        hand over what it found: the hits held at once stay few."""
        last: str | None = None
        for chunk in chunks:
            if last is not None:
                yield from self.feed(last)
            last = chunk
        if self.closed:
            return
        if last:
            self.buffer.add(last)
        step = self.ctx.tuning.slice
        while not self.closed:
            out = scan(self, final=True, stop=self.buffer.pos + step)
            self.closed = self.paused is None
            yield from expand(out) if self.unwrap else out

    # ------------------------------------------------------------------ output
    def rejection(self, buf: str, c: Candidate) -> Rejection:
        """The rejection of a candidate."""
        assert c.reason is not None
        base = self.buffer.base
        raw = buf[c.start : c.end]
        return Rejection(raw, base + c.start, base + c.end, c.context, c.reason, c.detail)

    def _alone(self, word: str) -> tuple[Hit, ...]:
        """The hits *word* holds on its own, between spaces (each one later than in the
        word), found by a scanner of hits only with these rules but no word leaps."""
        alone = Scanner.__new__(Scanner)
        alone._start(Context(self.ctx.cfg, self.ctx.speed), rejections=False, word_leaps=False)
        alone.unwrap = False  # (the hits handed out are unwrapped, once)
        return tuple(alone.hits((f" {word} ",)))
