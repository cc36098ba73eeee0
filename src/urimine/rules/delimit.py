"""Where a URI in running text ends, shared by the rules: the run of URI characters,
trailing punctuation and closers (RFC 3986 Appendix C), the mail quote markers before a
line, and validation by the grammar with the checks bare text adds."""

from __future__ import annotations

import re

from urimine.errors import Reason
from urimine.fast.memos import Kept
from urimine.parser import check_uri
from urimine.rules.context import Context
from urimine.rules.dns_names import host_refusal
from urimine.rules.patterns import CLOSERS, LINE_LOOKBEHIND, LINK_SOFT, OTHER_TRAIL, TRAIL
from urimine.schemes import AUTHORITY_SCHEMES, EMPTY_HOST_OK
from urimine.urn import check_urn

__all__ = [
    "CUTTABLE",
    "quote_depth",
    "run_end",
    "scheme_refusal",
    "trim",
    "validate",
]

CUTTABLE = frozenset(
    {
        Reason.ILLEGAL_CHAR,
        Reason.BAD_PERCENT,
        Reason.BAD_PATH,
        Reason.BAD_QUERY,
        Reason.BAD_FRAGMENT,
    }
)
"""Rejections at a character a bare URI may end before: it is cut there."""

_QUOTE_PREFIX = re.compile(r"(?:[ \t]*>)+")
_MAX_QUOTE_DEPTH = 8


def run_end(ctx: Context, buf: str, pos: int, final: bool) -> int:
    """End of the run of URI characters from ``pos``; -1 if the buffer may cut it short.

    A run ends at the same place for every position in it: a long one is kept for the
    candidates after the first in it (``tel:1[a]`` repeated would match the rest of its
    line again at each), one longer than the length bound read to its end once."""
    known = ctx.memo.run
    end = -1 if known is None else known.end_for(buf, pos)
    if end < 0:
        m = ctx.run.match(buf, pos)
        end = m.end() if m else pos
        if ctx.kept and ctx.tuning.run_kept <= end - pos:
            ctx.memo.run = _kept_run(ctx, buf, pos, end)
    if not final and end == len(buf) and end - pos < ctx.max_len:
        return -1
    return end


def quote_depth(buf: str, pos: int) -> int:
    """Number of mail quote markers (``>``) opening the line that holds ``pos``."""
    lo = pos - LINE_LOOKBEHIND
    nl = buf.rfind("\n", lo if lo > 0 else 0, pos)
    if nl < 0 and lo > 0:
        return 0  # the line start is too far back to know
    m = _QUOTE_PREFIX.match(buf, nl + 1, pos)
    if m is None:
        return 0
    depth = buf.count(">", nl + 1, m.end())
    return depth if depth < _MAX_QUOTE_DEPTH else _MAX_QUOTE_DEPTH


def validate(ctx: Context, uri: str, scheme: str, *, bare: bool) -> tuple[Reason, str, int] | None:
    """Check a candidate with the RFC 3986 / URN parser; bare text adds scheme rules and
    wants a host the DNS could hold (:mod:`urimine.rules.dns_names`)."""
    refused = scheme_refusal(uri[len(scheme) + 1 :], scheme, bare=bare)
    if refused is not None:
        return refused
    if scheme == "urn":
        if "urn" not in ctx.rules:
            return Reason.NOT_A_URI, "urn rule disabled", -1
        found = check_urn(uri)
    else:
        found = check_uri(uri)
    if found is not None:
        return found[0], f"at {found[1]}", found[1]
    return host_refusal(uri, len(scheme)) if bare else None


def _kept_run(ctx: Context, buf: str, pos: int, end: int) -> Kept:
    """The run from *pos* whose match (at most the length bound long) ends at *end*, kept:
    where the bound cut it, read on to its real end, a bound's length at a time."""
    bound = ctx.max_len
    if end - pos < bound:
        return Kept(buf, pos, end + 1, end)
    whole, step = end, bound
    while step == bound:
        m = ctx.run.match(buf, whole)
        step = m.end() - whole if m else 0
        whole += step
    return Kept(buf, pos, whole + 1, whole, bound)


def scheme_refusal(rest: str, scheme: str, *, bare: bool) -> tuple[Reason, str, int] | None:
    """The checks :func:`validate` makes before the parser, on the text *rest* after the
    colon of *scheme* (lower case); each reads at most three characters of *rest*."""
    if not rest or (bare and rest == "//"):
        return Reason.EMPTY, "nothing after the scheme", -1
    if rest[0] == ":":
        # "std::vector": a C++ scope, not a path that starts with ":".
        return Reason.NOT_A_URI, "scheme followed by '::'", -1
    if bare and rest[0] == "/" and rest[1:2] != "/" and scheme not in EMPTY_HOST_OK:
        # "look at:/pub/x": a path-absolute after a scheme is next to unused but in file:.
        return Reason.NOT_A_URI, "scheme:/path without authority", -1
    if bare and scheme in AUTHORITY_SCHEMES:
        if not rest.startswith("//"):
            return Reason.NEEDS_AUTHORITY, f"{scheme}: needs //authority", -1
        if scheme not in EMPTY_HOST_OK and rest[2:3] in ("", "/", "?", "#"):
            return Reason.BAD_HOST, "empty host", -1
    return None


# Runs trim drops at once, matched in the URI reversed: sentence punctuation, UTS #58's
# Soft characters and closers (the single quote and "|" have a rule of their own), and
# "*" or "_" repeated.
_MIXED_RUN = re.compile(rf"[.,;:!?\")\]}}{OTHER_TRAIL}{LINK_SOFT}]+")
_OTHER_TRAIL = re.compile(f"[{OTHER_TRAIL}{LINK_SOFT}]").match
PAIRED = "*_"
"""Emphasis marks: trim drops them at a URI's end only where the same one stands before
it (``*http://a.example/*``)."""
_SAME_RUN = {c: re.compile(re.escape(c) + "+") for c in PAIRED}


def trim(uri: str, min_len: int, before: str) -> str:
    """Drop trailing sentence punctuation and unbalanced closing brackets (Appendix E),
    keeping at least *min_len* characters; *before* is the character before the URI
    ("*" and "_" are dropped only in pairs; a single quote or "|" only where it closes
    none inside the URI). A run at a time, so a long run of closers costs its length
    once."""
    n = len(uri)
    back = ""
    pairs: dict[str, int] = {}  # single quotes and "|" in uri[:n], once counted
    budget: dict[str, int] = {}  # closers more than their openers in uri[:n]
    while n > min_len:
        c = uri[n - 1]
        if c == "'" or c == "|":
            count = pairs.get(c)
            if count is None:
                count = uri.count(c, 0, n)
            if count % 2 == 0:
                break  # "blah_'quoted'", "a|b|": the last closes one inside the URI
            n -= 1
            pairs[c] = count - 1
            continue
        if c in TRAIL or c in CLOSERS or (c > "\x7f" and _OTHER_TRAIL(c)):
            run_re = _MIXED_RUN
        elif c in "*_" and before == c:
            run_re = _SAME_RUN[c]
        else:
            break
        back = back or uri[::-1]
        at = len(uri) - n
        run = back[at : run_re.match(back, at).end()][: n - min_len]  # type: ignore[union-attr]
        closers = run_re is _MIXED_RUN and (")" in run or "]" in run or "}" in run)
        length = _droppable(uri, n, run, budget) if closers else len(run)
        n -= length
        if length < len(run):
            break  # a closer with its opener inside
    return uri[:n]


def _droppable(uri: str, n: int, run: str, budget: dict[str, int]) -> int:
    """How much of *run* (punctuation and closers ending ``uri[:n]``, reversed) may go: up
    to the first closer whose opener stands before it; *budget* keeps how many more of
    each closer than openers ``uri[:n]`` holds. Found by halving."""
    for c in CLOSERS:
        if c in run and c not in budget:
            budget[c] = uri.count(c, 0, n) - uri.count(CLOSERS[c], 0, n)
    lo, hi = 0, len(run)  # run[:lo] may go; run[:hi + 1] may not (or hi is its length)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if all(run.count(c, 0, mid) <= max(budget.get(c, 0), 0) for c in CLOSERS):
            lo = mid
        else:
            hi = mid - 1
    for c in CLOSERS:
        if c in budget:
            budget[c] -= run.count(c, 0, lo)
    return lo
