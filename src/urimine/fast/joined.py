"""The shortcut for a URI broken after hyphens at line ends (RFC 3986 Appendix C: the
pieces joined are the URI, the reading without those hyphens its ``alternative``),
where every piece is plain and the line holds no mail quote markers.

The general path reads such a candidate in a dozen steps (the run, the chain, its last
piece, trim, the cut, validation, the other reading), each a Python call. Here one
match takes the whole chain where those steps are known to change nothing: each piece
is a whole run of characters no rule weighs (no brackets, quotes, "*", white space or
non-ASCII), the pieces joined are an RFC 3986 URI (the match is the grammar's, with a
line break allowed after each hyphen), the last piece ends (past the sentence
punctuation trim drops) in a character trim keeps, and what follows ends the chain for
good. Anything else is the general path's.
"""

from __future__ import annotations

import re

from urimine._abnf import PCT_ENCODED
from urimine.rules.base import Candidate
from urimine.rules.chains import gap_source, join_breaks
from urimine.rules.context import Context
from urimine.rules.delimit import quote_depth, scheme_refusal, validate
from urimine.rules.patterns import PLAIN_HOST_CHAR, SCHEME_MAX, STOP

__all__ = ["REACH", "at_colon"]

REACH = 256
"""How far after the colon the match may read (a URI broken over three lines of 80): a
longer chain is the general path's (its chain memo keeps a long one linear); a try
that fails there costs each candidate of a long chain this much of a match."""

_GAP = gap_source(0)
"""A line break after a hyphen (no quote markers), as the hyphen rule takes it."""


def _part(chars: str) -> str:
    """RFC 3986's ``*( [chars] / pct-encoded )``, a line break allowed after a hyphen."""
    return rf"[{chars}]*+(?:(?:{PCT_ENCODED}|(?<=-){_GAP})[{chars}]*+)*+"


# RFC 3986 3.2.2 (a reg-name), 3.3 and 3.4, without the sub-delims "'()*" (the
# delimiting rules weigh them) nor "[" and "]" (no IP literal).
_HOST = PLAIN_HOST_CHAR + r"\-"
_PATH = _HOST + ":@/"
_QUERY = _PATH + "?"
_KEPT = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-~$&+=@/#%")
"""What the URI may end in once trim has dropped its sentence punctuation: characters
trim never drops."""
_WEB_STOPS = frozenset("{}|^")
"""Stop characters the web-chars rule lets a path, query or fragment hold."""
_TRAIL = ".,;:!?"
"""The sentence punctuation trim drops (Appendix E), of the characters a piece holds."""

_JOINED = re.compile(
    # The first run ends in "-" at a line break the hyphen rule takes (failing here is
    # cheap: most candidates do).
    rf":(?=[{_QUERY}%#]*+(?<=-)(){_GAP})"
    # RFC 3986 3 after the scheme's colon: "//" authority path-abempty, or a path that
    # does not start with "//"; then the query and the fragment. The authority without
    # userinfo, its port at most four digits (a longer one may be out of range, 3.2.3).
    rf"(?://{_part(_HOST)}(?::[0-9]{{0,4}}+)?(?:/{_part(_PATH)})?"
    rf"|(?!//){_part(_PATH)})(?:\?{_part(_QUERY)})?(?:\#{_part(_QUERY)})?"
    # The run ends here (a stop character follows), and the chain too: no line break to
    # take after a last hyphen, and (else an unfinished text could still add a piece)
    # text other than white space or ">" to come.
    rf"(?=[{STOP}])(?!(?<=-){_GAP})(?:(?<!-)|(?=[ \t\r\n>]*+[^ \t\r\n>]))"
)


def at_colon(ctx: Context, buf: str, i: int, s: int, scheme: str) -> Candidate | None:
    """The URI of ``scheme`` (registered, lower case, not "urn") written from ``s``,
    bare, whose run from the colon ``i`` ends in "-" at a line end, joined to the
    pieces after it: the hit the general path makes, or None where it decides."""
    known = ctx.memo.chain
    if known is not None and known.buf is buf and known.start < i < known.end - REACH:
        return None  # in a chain the general path matched, too long to reach its end
    stop = i + REACH if ctx.max_len > REACH + SCHEME_MAX else s + ctx.max_len - 1
    m = _JOINED.match(buf, i, stop)
    if m is None or (s and buf[s - 1] != "\n" and quote_depth(buf, s)):
        return None
    e = m.end()
    after = buf[e]  # (a stop character: the match looks for one)
    if after in _WEB_STOPS and "web-chars" in ctx.rules:
        return None  # the web-chars rule may run on past it (issue 30 item 1)
    chain = buf[s:e].rstrip(_TRAIL)  # (trim: its last piece keeps a character)
    # (What the match took is ASCII, and so is the scheme: only the stop may not be.)
    if chain[-1] not in _KEPT or after > "\x7f":
        return None  # nothing joined, or more for trim to weigh (Link_Term's Soft)
    # (the pieces joined, and joined without the hyphen before each break)
    uri, alt = join_breaks(chain, 0, False), join_breaks(chain, 0, True)
    end = s + len(chain)
    if end < e:
        # Without the punctuation trim drops: validated again (what the grammar takes
        # with its end it takes without, but for the scheme's checks and escapes).
        if validate(ctx, uri, scheme, bare=True):
            return None
    elif not (buf.startswith("//", i + 1) and buf[i + 3] not in "/?#") and scheme_refusal(
        uri[i - s + 1 :], scheme, bare=True
    ):
        return None  # (the scheme's own checks pass "//" and a host)
    # The other reading drops hyphens only, which every part the match took may hold
    # but the port, so the grammar takes it too where it starts alike (before the first
    # break's hyphen, at ``m.end(1) - 1``, both are the chain); the scheme's checks read
    # three characters after the colon.
    head = i - s + 4
    if m.end(1) <= i + 4 and alt[:head] != uri[:head] and validate(ctx, alt, scheme, bare=True):
        return Candidate(s, end, "bare", uri, "uri", scheme)
    return Candidate(s, end, "bare", uri, "uri", scheme, alt)
