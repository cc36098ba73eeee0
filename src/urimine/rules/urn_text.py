"""URNs in running text (seed 003 2.5.3): ``urn:NID:NSS``, the NSS ending at a character
of the excluded set; trailing punctuation dropped and hyphens at line ends joined as
for any URI (a URN is one)."""

from __future__ import annotations

import re

from urimine import _abnf
from urimine.errors import Reason
from urimine.fast.memos import Kept
from urimine.rules import quote as quote_rule
from urimine.rules.base import Candidate, ColonFragment, Mode, Pending, PendingType
from urimine.rules.config import Config
from urimine.rules.context import Context
from urimine.rules.delimit import trim
from urimine.rules.hyphen import other_reading, pieces, urn_join
from urimine.rules.patterns import (
    COLON_AFTER,
    COLON_SPARSE,
    NID_COLON,
    PCHAR,
    URN_COLON,
    URN_HEAD,
    URN_NSS,
)
from urimine.urn import check_urn

__all__ = ["fragment", "urn_at", "urn_end"]


def urn_end(ctx: Context, buf: str, s: int) -> int:
    """Where the URN in text at ``s`` ends, or -1 (no head): that end if the URN is
    shorter than the length bound, else one at or past it. The NSS is matched up to
    three characters past the bound, so that the bound never cuts an escape; a long one
    is kept for the URNs whose NSS starts within its NSS (they end there too, but where
    they start with "/", which no NSS does)."""
    head = URN_HEAD.match(buf, s)
    if head is None:
        return -1
    nss = head.end()
    known = ctx.memo.urn
    end = -1 if known is None or buf[nss : nss + 1] == "/" else known.end_for(buf, nss)
    if end >= 0:
        return end
    limit = max(s + ctx.max_len, nss) + 3
    m = URN_NSS.match(buf, nss, limit)
    if m is None:
        return -1
    end = m.end()
    # Kept only where nothing the match could take lies past the limit.
    if ctx.kept and end - nss >= ctx.tuning.run_kept and end + 3 <= limit:
        ctx.memo.urn = Kept(buf, nss, m.end(1), end)
    return end


def _may_go_on(buf: str, s: int, e: int) -> bool:
    """Whether more text could change the URN at ``s`` that ends at ``e`` (-1: none yet):
    it reaches the end, an escape the end cut, or its head may still be arriving
    ("urn:", an NID of at most 32 and ":")."""
    if e < 0:
        return len(buf) - s < 48
    rest = len(buf) - e
    return rest == 0 or (rest <= 2 and buf[e] == "%")


def _delimit(
    ctx: Context, buf: str, s: int, e: int, raw_start: int, final: bool
) -> tuple[str, int, str, int, int] | PendingType:
    """The URN ``buf[s:e]`` joined across hyphens at line ends and trimmed: the URN, its
    end, the last piece joined, the quote markers after each break, and how much of it
    was trimmed."""
    whole, last, depth = buf[s:e], "", 0
    if whole.endswith("-") and check_urn(whole) is None:
        # (A first piece the check rejects is not joined: rejected all the same.)
        joined = pieces(ctx, buf, s, e, final, urn_join)
        if isinstance(joined, PendingType):
            return joined
        whole, last, e, depth = joined
    uri = trim(whole, 4, buf[raw_start - 1] if raw_start else "")
    trimmed = len(whole) - len(uri)
    return uri, e - trimmed, last, depth, trimmed


_LOOSE_HEAD = re.compile(URN_COLON + r"[A-Za-z0-9\-]{1,32}+:")
""""urn:", a word an NID might have been and its colon: the head of a URN whose NID is
refused (seed 003 2.1: "-ab", "a", the reserved "urn")."""


def _bad_head(
    ctx: Context, buf: str, s: int, raw_start: int, context: str, final: bool
) -> Candidate | PendingType:
    """The rejection of a URN in text whose head or NSS is refused: where a word and a
    colon follow "urn:" and an NSS after them, all of it to the NSS's end (RFC 8141 2,
    seed 003 2.5.3), its text passed over where a colon inside it might be read as a
    scheme's (a rejected URN leaves nothing behind: no "tel:+1" from "urn:-ab:tel:+1");
    else "urn:" alone. (Not too long: the bound cuts its NSS, no scheme is read before
    the cut.)"""
    head = _LOOSE_HEAD.match(buf, s)
    nss = URN_NSS.match(buf, head.end(), s + ctx.max_len + 3) if head is not None else None
    if nss is None:
        return Candidate(
            raw_start, s + 4, context, buf[s : s + 4], reason=Reason.BAD_NID, consume=False
        )
    e = nss.end()
    if not final and _may_go_on(buf, s, e):
        return Pending
    consume = buf.find(":", nss.start(), e - 1) >= 0
    return Candidate(raw_start, e, context, buf[s:e], reason=Reason.BAD_NID, consume=consume)


def urn_at(
    ctx: Context, buf: str, s: int, raw_start: int, context: str, quote: str, final: bool
) -> Candidate | PendingType:
    """The URN in text written from ``s`` (its raw text from ``raw_start``)."""
    e = urn_end(ctx, buf, s)
    if not final and _may_go_on(buf, s, e):
        return Pending
    if e < 0:
        return _bad_head(ctx, buf, s, raw_start, context, final)
    if e - s >= ctx.max_len:
        return Candidate(raw_start, e, context, reason=Reason.TOO_LONG, too_long=True)
    e, closed = quote_rule.closing(buf, s + 3, e, quote)  # ("'" is an NSS character)
    uri = buf[s:e]
    last, depth, trimmed = "", 0, 0  # the last piece joined after hyphens at line ends
    if not closed:
        delimited = _delimit(ctx, buf, s, e, raw_start, final)
        if isinstance(delimited, PendingType):
            return Pending
        uri, e, last, depth, trimmed = delimited
        if context == "quote":
            context, raw_start = "bare", s
    found = check_urn(uri)
    if found is not None:
        # A rejected URN leaves nothing behind (issue 30 item 9): its text is passed
        # over where its NSS holds a colon before its last character, so none is read
        # as a scheme's ("urn:ab:%00:tel:+1"), and where it was joined after a hyphen
        # (each URN starting in a piece would be joined to that piece again). (Its NID
        # is no scheme either: the colon rule declines a word right after "urn:".)
        # Others consume nothing: a scanner of hits only passes over them in C.
        consume = bool(last) or uri.find(":", uri.find(":", 4) + 1, len(uri) - 1) >= 0
        return Candidate(raw_start, e, context, uri, reason=found[0], consume=consume)
    alt = other_reading(buf, s, e, trimmed, last, depth)
    if alt is not None and check_urn(alt) is not None:
        alt = None
    return Candidate(raw_start, e + 1 if closed else e, context, uri, "urn", "urn", alt)


_NUL_SOON = rf"(?:[{_abnf.PCHAR_CHARS}]|%(?!00)[0-9A-Fa-f]{{2}}){{0,32}}+%00"
_STANDS = rf":(?<=[Uu][Rr][Nn]:){NID_COLON}{PCHAR}"
"""After "urn:", where a URN in text stands: an NID, its colon and a pchar."""
_MAY_STAND = rf":(?<=[Uu][Rr][Nn]:)(?![Uu][Rr][Nn]:){NID_COLON}(?!{_NUL_SOON}){PCHAR}"
"""The same but where the check rejects it whatever follows, where it is not too long:
the NID "urn" (2.1 reserves it), an NSS starting with "%00" (2.5.3)."""
_NSS_NOT_COLON = f"{_abnf.UNRESERVED_CHARS}{_abnf.SUB_DELIMS_CHARS}@/?#%"
_COLON_INSIDE = (
    rf":(?<=[Uu][Rr][Nn]:)[A-Za-z0-9\-]{{1,32}}+:[{_NSS_NOT_COLON}]*+:[{_NSS_NOT_COLON}:]"
)
"""After "urn:", a word an NID might be, its colon, and an NSS with a colon inside it
(not last: a scheme's colon has something after it): where a rejected URN consumes its
text (else it rejects consuming nothing)."""
_NID = r"A-Za-z0-9\-"
_NSS_OR_COLON = _NSS_NOT_COLON + ":"
_NEARS = (
    (_NID, _NID),
    (_NID, ":", ":", _NSS_OR_COLON),
    (_NID, ":", _NSS_NOT_COLON, ":", _NSS_OR_COLON),
    (_NID, ":", _NSS_NOT_COLON, _NSS_NOT_COLON),
)
"""What the first characters after "urn:" are wherever :data:`_STANDS` or
:data:`_COLON_INSIDE` match, one character class a character, by the length of the word
an NID might be (a valid NID is two long at least, seed 003 2.1) and of the NSS up to its
inner colon: asked in C by the dense colon search, so that "urn:a:b:" followed by what no
NSS holds costs no Python step."""


def fragment(mode: Mode, cfg: Config) -> str | list[ColonFragment]:
    """Where a URN in text may be decided: sparse and dense, as any colon rule; for a
    scanner of hits only, where a URN or its rejection may consume text."""
    if mode is Mode.SPARSE:
        return COLON_SPARSE
    if mode is Mode.DENSE:
        return [ColonFragment(frozenset({"urn"}), COLON_AFTER)]
    after = f":(?:{_STANDS[1:]}|{_COLON_INSIDE[1:]})"
    short = f":(?:{_MAY_STAND[1:]}|{_COLON_INSIDE[1:]})"
    return [ColonFragment(frozenset({"urn"}), after, short, near) for near in _NEARS]
