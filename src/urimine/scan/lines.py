"""The line cursor: line and column numbers of hits, counted once, forwards."""

from __future__ import annotations

__all__ = ["LineCursor"]


class LineCursor:
    """How far newlines are counted: up to absolute offset :attr:`pos`, which stands on
    line :attr:`line` (1-based), whose start is at absolute offset :attr:`line_start`.
    (The scan loop keeps a copy in locals while it makes hits.)"""

    __slots__ = ("line", "line_start", "pos")

    def __init__(self) -> None:
        self.pos = 0
        self.line = 1
        self.line_start = 0

    def advance(self, buf: str, base: int, upto: int) -> None:
        """Count the newlines of ``buf`` (whose index 0 is at absolute offset *base*) from
        the cursor up to buffer index *upto*: the last one found first, the count only
        before it (hits on one line cost one search)."""
        lo = self.pos - base
        if upto <= lo:
            return
        if lo < 0:
            lo = 0
        k = buf.rfind("\n", lo, upto)
        if k >= 0:
            self.line += buf.count("\n", lo, k) + 1
            self.line_start = base + k + 1
        self.pos = base + upto
