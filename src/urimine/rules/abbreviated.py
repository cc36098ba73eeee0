"""Abbreviated URIs (seed 002 Appendix F): "a reference consisting of only the authority
and path portions of the identified resource, such as www.w3.org/Addressing/", which
readers complete by heuristics: "most hostnames beginning with "www" are likely to have
a URI prefix of "http://"". A host starting with ``www.`` (any case), at least one more
label and a real top-level domain last, is completed with ``http://``; one starting
with ``ftp.`` with ``ftp://``. Delimited as a bare URI (:mod:`urimine.rules.schemeless`).

The rule decides at the dot after ``www`` or ``ftp``: it looks back three characters and
one more (what stands before the host), never further.
"""

from __future__ import annotations

import re

from urimine.fast.shortcut import at_abbreviated
from urimine.rules.base import Candidate, Mode, Pending, PendingType, Shortcut
from urimine.rules.config import Config
from urimine.rules.context import Context
from urimine.rules.schemeless import completed, starts_word

__all__ = ["at_dot", "fragment"]

_SCHEMES = {"www": "http", "ftp": "ftp"}
_LABEL_START = re.compile(r"[^\W_]")


def at_dot(
    ctx: Context, buf: str, i: int, last_end: int, final: bool
) -> Shortcut | Candidate | PendingType | None:
    """The abbreviated URI whose first label ends at the dot ``i``, or None."""
    s = i - 3
    if s < last_end or s < 0:
        return None
    scheme = _SCHEMES.get(buf[s:i].lower())
    if scheme is None or not starts_word(buf, s):
        return None
    if i + 1 == len(buf):
        return None if final else Pending
    if _LABEL_START.match(buf, i + 1) is None:
        return None  # ("ftp.." and "www._": no label after the dot)
    if ctx.shortcut and s and buf[s - 1] in " \t\r\n":
        short = at_abbreviated(ctx, buf, s, scheme)  # (the common case, in one match)
        if short is not None:
            return short
    return completed(ctx, buf, s, i, scheme, "abbreviated", final)


def fragment(mode: Mode, cfg: Config) -> str:
    """The dot after ``www`` or ``ftp`` (any case) before a letter or digit, the host not
    glued to a letter, digit, ``/``, ``.``, ``@``, ``:``, ``=`` or ``-`` before it (no
    word starts there: ``http://www.``, ``a.www.``). The character before the dot is
    tested alone first: most dots fail it at once."""
    return (
        r"\.(?<=[wWpP]\.)(?<=[wW][wW][wW]\.|[fF][tT][pP]\.)"
        r"(?<![^\W_]...\.)(?<![/.@:=\-]...\.)(?=[^\W_])"
    )
