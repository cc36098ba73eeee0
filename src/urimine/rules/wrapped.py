"""White space the drafts say to ignore outside brackets (RFC 3986 Appendix C: "the
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
from urimine.rules.chains import break_source
from urimine.rules.config import Config
from urimine.rules.context import Context
from urimine.rules.delimit import quote_depth, run_end
from urimine.rules.patterns import (
    ANGLE_SPLIT,
    COLON_SPARSE,
    LINE_LOOKBEHIND,
    SCHEME_CHAR,
    STOP,
    angle_sparse,
)

__all__ = [
    "AFTER",
    "PLAIN_WORD",
    "SPLIT_HEAD",
    "WRAP_MAX",
    "WRAP_MIN",
    "angle_fragment",
    "continues",
    "fragment",
    "may_continue",
    "may_join",
    "slashes_gap",
]

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
    authority's first character after them (not a URI of its own: "http://" again)."""
    return re.compile(rf"{break_source(depth)}(?=[^{STOP}/?#])(?![A-Za-z][A-Za-z0-9+.\-]*:/)")


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
    """Every "<" before a scheme split by a line break (the angle rule joins it); sparse,
    where the angle rule's fragment is asked too, that one, which holds this."""
    if mode is Mode.SPARSE and not cfg.rules.isdisjoint(("angle", "url-prefix")):
        return angle_sparse(True)
    return rf"<(?=[ \t\r\n]{{0,64}}+[A-Za-z][{SCHEME_CHAR}]{{0,62}}+{ANGLE_SPLIT})"


_DENSE_AFTER = (
    rf":(?=//[ \t]*+\r?\n[ \t>]*+[^{STOP}/?#])"
    rf"(?!//[ \t]*+\r?\n[ \t>]*+[A-Za-z][A-Za-z0-9+.\-]*+:/)"
)
"""The same where the next line may hold its authority: what starts no URI of its own."""


def fragment(mode: Mode, cfg: Config) -> str | list[ColonFragment]:
    """Every colon followed by "//" at a line end; dense, where the next line (after
    blanks and quote markers) starts with what an authority may start with."""
    if mode is Mode.SPARSE:
        return COLON_SPARSE  # (every such colon is one: one prefilter, as the bare rule's)
    return [ColonFragment(None, _DENSE_AFTER, near=("/", "/"))]


WRAP_MIN = 66
WRAP_MAX = 80
"""The columns a URI ending a hard-wrapped or quoted line may have been cut at (quote
markers and all): writers and mail clients wrap at 66 to 79 columns (RFC 5322 2.1.1's
78 among them). A URI that ends a shorter line ended where the writer ended it; one on
a longer line was not cut at a column."""
_NEXT_LINE = re.compile(r"[ \t]*+\r?\n")
_TO_END = re.compile(r"[ \t\r\n>]*+\Z")
_TRAILING = ".,;:!?)'\""
_BREAKS = frozenset((" ", "\t", "\r", "\n", ""))
_PATH_MARK = re.compile(r"[/?=&%#]")
PLAIN_WORD = r"[ \t>]*+[^\s>/?=&%#.][^\s/?=&%#.]*+\s|[ \t]*+\r?\n(?![ \t\r\n>]*+\Z)"
"""A next line whose first word holds none of the path marks nor a dot (no file name),
then white space, or a blank line with more than white space after it: what no URI is
continued with."""
_PLAIN_WORD = re.compile(PLAIN_WORD)
_FILE_EXTENSIONS = (
    "html?|php\\d?|aspx?|jsp|cgi|pl|py|rb|js|css|json|xml|txt|pdf|ps|gz|tgz|bz2|xz|zip|tar"
    "|patch|diff|[ch]|cc|cpp|png|jpe?g|gif|svg|docx?|rtf|md|rst|mbox|eml|iso|deb|rpm"
    "|r[am]|asf|asx|wm[av]|avi|mov|mp[34]|mpe?g|wav|ogg"
)
_FILE_NAME = re.compile(rf"[\w\-~.]*\w\.(?:{_FILE_EXTENSIONS})", re.IGNORECASE)
"""A file name, by the extensions of the web's and mail's files (not a domain name:
``kernel.org`` on the next line may be a new sentence's)."""
_SENTENCE = re.compile(
    r"[\[(<\"'*]"  # a bracket, a quote or a mark: a link's text, a footnote
    r"|[A-Za-z][A-Za-z0-9+.\-]*:"  # a new scheme: a URI of its own
    r"|.*://"  # (after a footnote mark or an ellipsis)
    r"|[A-Za-z]+(?:/[A-Za-z]+)*/?\Z"  # "and/or", "Linux/UNIX", "Friends/": words
    r"|[\d/.\-:]+\Z"  # a date, a time, a fraction, a number
    r"|[^\w]*\Z"  # punctuation only: a rule "====", an ellipsis
    r"|\S*@\S*:"  # a shell prompt "user@host:/path$"
)
"""Runs that start a line of prose, a list or a new URI, not the rest of a path."""


@cache
def _markers(depth: int) -> re.Pattern[str]:
    """The next line's quote markers, as many as the URI's line has, then blanks."""
    return re.compile(rf"(?:[ \t]*>){{{depth}}}[ \t]*" if depth else r"[ \t]*")


def may_continue(ctx: Context, buf: str, s: int, e: int) -> bool:
    """Whether the bare URI from ``s`` that ends at ``e`` (untrimmed, with "//") may be
    one :func:`continues` joins, or the text ends before it can tell: a line break after
    it, its line long, and the next line's run one that may continue it. (A shortcut's
    question: False where the general path would join nothing.)"""
    if buf[e : e + 1] not in _BREAKS:
        return False
    lo = s - LINE_LOOKBEHIND
    if not WRAP_MIN <= e - buf.rfind("\n", lo if lo > 0 else 0, s) - 1 <= WRAP_MAX:
        return False
    return continues(ctx, buf, s, e, False) is not None


def continues(
    ctx: Context, buf: str, s: int, e: int, final: bool, piece: bool = False
) -> tuple[int, int] | PendingType | None:
    """Where a bare URI from ``s`` that ends its line at ``e`` goes on, at the wrap
    column of a hard-wrapped or quoted line (issue 30 item 5): the next line, after as
    many quote markers as its own, starts with a run that can only continue a path (it
    holds one of ``/ ? = & % #`` or is a file name, and has no sentence shape). A *piece*
    already joined (from ``s``) may also end short of the column after "/" or "-", where
    reference lists break a long URI. Returns where that run starts and ends; None where
    nothing continues the URI."""
    brk = _next_line(buf, e, final)
    if brk is None or isinstance(brk, PendingType):
        return brk
    lo = s - LINE_LOOKBEHIND
    nl = buf.rfind("\n", lo if lo > 0 else 0, s)
    column = e - nl - 1
    if (nl < 0 and lo > 0) or column > WRAP_MAX:
        return None  # its line start too far back to know, or not cut at a column
    if column < WRAP_MIN and not (piece and buf[e - 1] in "/-"):
        return None
    depth = quote_depth(buf, s)
    markers = _markers(depth).match(buf, brk.end())
    if markers is None:
        return None if final or _TO_END.match(buf, brk.end()) is None else Pending
    start = markers.end()
    if start == len(buf):
        return None if final else Pending
    end = run_end(ctx, buf, start, final)
    if end < 0:
        return Pending
    token = buf[start:end].rstrip(_TRAILING)
    if not token or _SENTENCE.match(token):
        return None
    if _PATH_MARK.search(token) is None and _FILE_NAME.fullmatch(token) is None:
        return None
    return start, end


def _next_line(buf: str, e: int, final: bool) -> re.Match[str] | PendingType | None:
    """The line break at ``e`` (blanks before it), where the next line's first word may
    continue a URI; None where it cannot (no break, a blank line, or a word with no path
    mark nor dot first: the common cases, decided before the quote markers are read)."""
    brk = _NEXT_LINE.match(buf, e)
    if brk is None:
        return Pending if not final and _TO_END.match(buf, e) is not None else None
    return None if _PLAIN_WORD.match(buf, brk.end()) is not None else brk


def continuation(
    ctx: Context, buf: str, s: int, e: int, final: bool, piece: bool = False
) -> tuple[str, int] | PendingType | None:
    """What the lines after a bare URI from ``s`` to ``e`` add to it where it ends at the
    wrap column (:func:`continues`), line after line while each piece reaches the wrap
    column again (a long URI wrapped over three lines), within the length bound: the
    pieces joined, and where the last one ends (*piece*: ``buf[s:e]`` is a piece itself,
    a line after the URI's first). None: nothing continues it."""
    pieces: list[str] = []
    at, end = s, e
    while True:
        found = continues(ctx, buf, at, end, final, piece or bool(pieces))
        if isinstance(found, PendingType):
            return Pending
        if found is None or found[1] - s >= ctx.max_len:
            break
        at, end = found
        pieces.append(buf[at:end])
        if buf[end - 1] in _TRAILING:
            break  # trailing punctuation: the sentence goes on
    return ("".join(pieces), end) if pieces else None
