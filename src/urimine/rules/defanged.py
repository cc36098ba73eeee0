"""The ``defanged`` rule (opt-in, never on by default): indicators as threat reports
write them so that nobody clicks them, reported refanged (:mod:`urimine.refang`):
``hxxp``/``hxxps``/``fxp`` schemes, dots written ``[.]`` ``(.)`` ``{.}`` ``[dot]``, a
colon ``[:]``, a separator ``[://]``, ``[@]``/``[at]`` in an e-mail address. The hit's
``raw`` and offsets are the text as written, its ``uri`` the refanged one.

The rule decides at a mark or at the first ``x`` of a defanged scheme: the token
around it (the run of characters up to white space or a character that ends a URI,
braces aside; at most :data:`LOOKBACK` before the mark, the length bound in all) is
read back from the mark, trimmed
of what stands around an indicator, and refanged. A token that holds none is
remembered (:attr:`urimine.fast.memos.Memos.defanged`), so its other marks cost
nothing: a run of marks is read a bounded number of times.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from urimine.fast.memos import Kept
from urimine.refang import indicator_in
from urimine.rules.base import Candidate, Fragment, Mode, Pending, PendingType
from urimine.rules.config import Config
from urimine.rules.context import Context
from urimine.rules.patterns import STOP

__all__ = ["LOOKBACK", "decide", "fragment_at"]

_TOKEN_STOP = re.compile("[" + STOP.replace("{}", "") + "]")
"""What ends a token: what ends a run of URI characters, but for the braces of ``{.}``."""
_AHEAD = 256
"""How far past a token another trigger's prefilter may look (the trigger finder's
look-ahead)."""
_LAST_STOP = re.compile("(?s:.*)" + _TOKEN_STOP.pattern)
"""Up to the last character that ends a token (searched back from a mark, in C)."""
_MARKS = {
    "[": r"\[(?:\.|[dD][oO][tT]|:|://|/|@|[aA][tT])\]",
    "(": r"\((?:\.|[dD][oO][tT]|[aA][tT])\)",
    "{": r"\{(?:\.|[dD][oO][tT]|[aA][tT])\}",
}
_SCHEME_END = r"(?:\[?:|\[://\])"
for _x in "xX":
    _MARKS[_x] = (
        rf"{_x}(?<=[hH]{_x})(?<![A-Za-z0-9+.\-][hH]{_x})(?=[xX][pP][sS]?{_SCHEME_END})"
        rf"|{_x}(?<=[fF]{_x})(?<![A-Za-z0-9+.\-][fF]{_x})(?=[pP]{_SCHEME_END})"
    )
_AT = {char: re.compile(source) for char, source in _MARKS.items()}


LOOKBACK = 256
"""How far before a mark its indicator may start: a host name's length (RFC 1035
§2.3.4) and a scheme. A token that starts further back holds no indicator for that
mark (the scanner keeps more look-behind than this, so the answer is the same however
the text is fed)."""


def _token_end(buf: str, i: int, limit: int) -> int:
    m = _TOKEN_STOP.search(buf, i, limit)
    return m.start() if m is not None else limit


def decide(
    ctx: Context, buf: str, i: int, last_end: int, final: bool
) -> Candidate | PendingType | int | None:
    """The indicator in the token that holds the mark ``i``, or None."""
    kept = ctx.memo.defanged
    if kept is not None and kept.buf is buf and kept.lo <= i < kept.hi and last_end <= kept.lo:
        return None  # (a token already found to hold no indicator)
    n = len(buf)
    floor = max(last_end, i - min(LOOKBACK, ctx.max_len - 1))  # (the token holds i)
    m = _LAST_STOP.match(buf, floor, i)
    start = m.end() if m is not None else floor
    if start == floor > last_end and _TOKEN_STOP.match(buf, start - 1) is None:
        # Started too far back: so for each mark after this one in the token.
        return _none(ctx, buf, i, floor, _token_end(buf, i, n))
    end = _token_end(buf, i, min(n, start + ctx.max_len))
    if end - start >= ctx.max_len:
        return _none(ctx, buf, i, start, end)  # as long as the length bound: no indicator
    if end == n and not final:
        return Pending
    if _AT[buf[i]].match(buf, i) is None:
        return None
    found = indicator_in(buf, start, end)
    if found is None:
        return _none(ctx, buf, i, start, end)
    if not found.start <= i < found.end:
        return None
    scheme = found.uri.split(":", 1)[0].lower()
    return Candidate(found.start, found.end, "defanged", found.uri, "uri", scheme)


def _none(ctx: Context, buf: str, i: int, lo: int, hi: int) -> Candidate | int | None:
    """Nothing at the marks of ``buf[lo:hi]`` (the mark ``i`` among them): remembered;
    and where no other rule's trigger stands in it either, the scan goes on from *hi*
    (the index)."""
    ctx.memo.defanged = Kept(buf, lo, hi, -1)
    if hi <= i:
        return None
    for search in _others(ctx.cfg):
        m = search(buf, lo, min(len(buf), hi + _AHEAD))
        if m is not None and m.start() < hi:
            return None
    return hi


@cache
def _others(cfg: Config) -> list[Callable[..., re.Match[str] | None]]:
    """The sparse prefilters of the other rules' triggers (or the bare character)."""
    from urimine.fast.prefilters import pattern  # (the prefilters are made of the table)
    from urimine.rules.table import sites

    out = []
    for char in sites(cfg):
        if char not in _MARKS:
            found = pattern(cfg, char, Mode.SPARSE) or re.compile(re.escape(char))
            out.append(found.search)
    return out


def fragment_at(char: str) -> Fragment:
    """The fragment at *char*: a mark, or the first ``x`` of a defanged scheme."""
    source = _MARKS[char]

    def fragment(mode: Mode, cfg: Config) -> str:
        return source

    return fragment
