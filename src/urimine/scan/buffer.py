"""The scanner's text: what is retained of the text scanned, and what is fed but not yet
scanned (h11's receive buffer, for text)."""

from __future__ import annotations

from urimine.rules.patterns import LINE_LOOKBEHIND, SCHEME_MAX
from urimine.scan.lines import LineCursor

__all__ = ["LOOKBEHIND", "Buffer"]

LOOKBEHIND = LINE_LOOKBEHIND + SCHEME_MAX + 16
"""How far before a trigger a rule may look: the scheme, a "URL: " or quote before it,
and the start of the line (mail quote markers)."""


class Buffer:
    """Retained text (:attr:`text`, whose index 0 is at absolute offset :attr:`base`),
    where the scan resumes in it (:attr:`pos`), and chunks fed since (:attr:`pending`)."""

    __slots__ = ("base", "need", "pending", "pending_len", "pos", "text")

    def __init__(self) -> None:
        self.text = ""
        self.base = 0
        self.pos = 0
        self.pending: list[str] = []
        self.pending_len = 0
        self.need = 0

    def add(self, chunk: str) -> bool:
        """Add *chunk*; whether enough is pending to scan now."""
        self.pending.append(chunk)
        self.pending_len += len(chunk)
        return self.pending_len >= self.need

    def take(self) -> str:
        """The text to scan: the retained text and everything pending."""
        if self.pending:
            self.text += "".join(self.pending)
            self.pending.clear()
            self.pending_len = 0
        return self.text

    def retain(
        self, text: str, pos: int, stalled: bool, final: bool, cursor: LineCursor, min_batch: int
    ) -> None:
        """Drop decided text up to *pos*, keeping the look-behind (the cursor is moved to
        where the text dropped ends); a *stalled* candidate waits for as much again."""
        if final:
            self.text, self.pos, self.need = "", 0, 0
            return
        keep_from = max(0, min(pos, len(text)) - LOOKBEHIND)
        if keep_from:
            cursor.advance(text, self.base, keep_from)
            text = text[keep_from:]
            self.base += keep_from
            pos -= keep_from
        self.text = text
        self.pos = pos
        # A candidate waiting for more text is looked at again only once the text has
        # doubled: a long one fed in tiny chunks stays linear.
        self.need = max(min_batch, len(text) - pos) if stalled else min_batch
