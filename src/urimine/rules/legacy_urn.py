"""The 1993 URN form (seed 000 3.3): ``<URN:encoding:scheme:authority:opaque>``, with
"\\" escaping ":", ">", "\\" and space; read at the "<" before the angle rule, on one
line, and wrapped over lines inside its brackets (Appendix E: white space inside the
brackets is ignored)."""

from __future__ import annotations

import regex

from urimine.rules.base import Candidate, Mode, Pending, PendingType
from urimine.rules.config import Config
from urimine.rules.patterns import LEGACY_PART, LEGACY_WRAPPED_HEAD, encoding_source
from urimine.urn import check_legacy_urn

__all__ = ["at", "fragment", "wrapped"]

_SPAN = regex.compile(r"<[Uu][Rr][Nn]:(?:\\[^\r\n]|[^\\>\s]){1,1024}>")
# Its shape (seed 000 3.3, 5): four components three colons apart, none holding ":"
# unescaped. Tried first: where it fails, the span pattern would read up to 1024
# characters for a ">", then give back every one of them.
_SHAPE = regex.compile(rf"<[Uu][Rr][Nn]:(?:{LEGACY_PART}:){{3}}{LEGACY_PART}>")


def at(buf: str, i: int, final: bool) -> Candidate | PendingType | None:
    """A 1993 URN at the ``<`` at *i*, or None (the angle rule then decides)."""
    shape = _SHAPE.match(buf, i, partial=not final)
    if shape is None:
        return None
    if shape.partial:
        return Pending
    m = _SPAN.match(buf, i)
    if m is None:
        return None
    text = m.group()
    if check_legacy_urn(text) is not None:
        return None  # perhaps a modern URN in brackets: the angle rule decides
    return Candidate(i, m.end(), "legacy-urn", text, "urn-legacy", "urn")


def wrapped(content: str, uri: str, start: int, end: int) -> Candidate | None:
    """The 1993 form wrapped over lines in its brackets (*content*, *uri* without its
    white space): only with "<URN:" and the encoding written together."""
    if LEGACY_WRAPPED_HEAD.match(content) is None:
        return None
    legacy = f"<{uri}>"
    if check_legacy_urn(legacy) is not None:
        return None
    return Candidate(start, end, "legacy-urn", legacy, "urn-legacy", "urn")


# After "<URN:", a superset of the shape in one pass: at most three colons, then ">" or
# the end of the text searched. Its parts may hold white space (the wrapped form) and
# any escape.
_PART_SPACED = r"[^\\>:]*+(?:\\(?s:.)[^\\>:]*+)*+"
_AHEAD = rf"(?:{_PART_SPACED}:){{0,3}}+{_PART_SPACED}(?:>|\\?\Z)"


def fragment(mode: Mode, cfg: Config) -> str:
    """Where a 1993 URN may stand; for a scanner of hits only, with a valid encoding
    (empty or "ascii", 3.3.2): with another, the rule can only reject."""
    if mode is Mode.SPARSE:
        return "<(?=[Uu][Rr][Nn]:)"
    encoding = f"(?={encoding_source(nocase=True)})" if mode is Mode.DENSE_HITS else ""
    return rf"<(?=[Uu][Rr][Nn]:{encoding}{_AHEAD})"
