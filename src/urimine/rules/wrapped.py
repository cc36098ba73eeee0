"""White space the drafts say to ignore outside brackets (seed 002 Appendix E: "the
whitespace should be ignored when extracting the URI"; RFC 3986 Appendix C): a
``scheme://`` ending a line, its authority on the next (reference lists of RFCs and
mail wrapped at a column write it so), is one URI with the line break taken out. The
next line carries the same mail quote markers as the first; a blank line ends it.
Inside angle brackets, a scheme split by a line break (``<htt`` then ``p://...>``) is
joined too (:mod:`urimine.rules.angle`), as any white space there is."""

from __future__ import annotations

import re
from functools import cache

from urimine.rules.base import ColonFragment, Mode, Pending, PendingType
from urimine.rules.chains import gap_source
from urimine.rules.config import Config
from urimine.rules.context import Context
from urimine.rules.delimit import quote_depth, run_end
from urimine.rules.patterns import SCHEME_CHAR, STOP

__all__ = ["AFTER", "SPLIT_HEAD", "angle_fragment", "fragment", "may_join", "slashes_gap"]

AFTER = r":(?=//[ \t]*+\r?\n)"
"""At a scheme's colon: "//" then the end of the line."""
_AFTER = re.compile(AFTER)
SPLIT_HEAD = (
    rf"<[ \t\r\n]{{0,64}}([A-Za-z][{SCHEME_CHAR}]{{0,62}})[ \t]*\r?\n[ \t>]{{0,64}}"
    rf"([{SCHEME_CHAR}]{{1,63}}):(?=[^<>])"
)
"""In angle brackets, a scheme split by a line break (quote markers after it): both
pieces."""
_AFTER_TO_END = re.compile(r":(?://[ \t]*+\r?|/?)\Z")
_GAP_TO_END = re.compile(r"[ \t\r\n>]*+\Z")


@cache
def _gap(depth: int) -> re.Pattern[str]:
    """From the end of "//": the line break, the next line's quote markers, and an
    authority's first character after them."""
    return re.compile(gap_source(depth) + rf"(?=[^{STOP}/?#])")


def may_join(ctx: Context, buf: str, i: int, final: bool) -> bool:
    """Whether the rule is on and the colon ``i`` is followed by "//" at a line end (or
    may be: the text ends first)."""
    return "wrapped" in ctx.rules and (
        _AFTER.match(buf, i) is not None or (not final and _AFTER_TO_END.match(buf, i) is not None)
    )


def slashes_gap(ctx: Context, buf: str, i: int, s: int, final: bool) -> int | PendingType | None:
    """Where the authority of the ``scheme://`` whose colon is ``i`` (scheme from ``s``)
    starts on the next line: after the line break and the quote markers of the line
    that holds ``s``; None where nothing is joined; Pending where the text ends first."""
    if not may_join(ctx, buf, i, final):
        return None
    depth = quote_depth(buf, s)
    gap = _gap(depth).match(buf, i + 3)
    if gap is None:
        if not final and _GAP_TO_END.match(buf, i + 3) is not None:
            return Pending
        return None
    end = run_end(ctx, buf, gap.end(), final)
    if end < 0:
        return Pending
    return gap.end()


def angle_fragment(mode: Mode, cfg: Config) -> str:
    """Every "<" before a scheme split by a line break (the angle rule joins it)."""
    return (
        rf"<(?=[ \t\r\n]{{0,64}}+[A-Za-z][{SCHEME_CHAR}]{{0,62}}+[ \t]*+\r?\n[ \t>]{{0,64}}+"
        rf"[{SCHEME_CHAR}]{{1,63}}+:[^<>])"
    )


def fragment(mode: Mode, cfg: Config) -> str | list[ColonFragment]:
    """Every colon followed by "//" at a line end."""
    if mode is Mode.SPARSE:
        return AFTER
    return [ColonFragment(None, AFTER)]
