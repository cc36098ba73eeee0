"""Domain names in text (as UTS #58 links them): any host whose last label is a real
top-level domain, alone or with a port, path, query and fragment, completed with
``http://`` (seed 002 Appendix F). Delimited as a bare URI
(:mod:`urimine.rules.schemeless`); opt-in, as file names are hosts too (``setup.py``:
``.py`` is Paraguay's).

The rule decides at the dot before the last label: it reads that label (at most 63
characters) and the host back from it (at most 253).
"""

from __future__ import annotations

from urimine.rules.base import Candidate, Mode, Pending, PendingType
from urimine.rules.config import Config
from urimine.rules.context import Context
from urimine.rules.schemeless import MAX_DOMAIN, completed, starts_word
from urimine.uts58.hosts import MORE_TEXT, domain_start, tld_end

__all__ = ["at_dot", "fragment"]


def at_dot(
    ctx: Context, buf: str, i: int, last_end: int, final: bool
) -> Candidate | PendingType | None:
    """The host whose last label follows the dot ``i``, completed, or None."""
    if i == 0 or (buf[i - 1].isascii() and not buf[i - 1].isalnum()):
        return None  # (no label ends before the dot: "a..com", ".com"; as the fragment)
    end = tld_end(buf, i, final, ".")
    if end is None or end == MORE_TEXT:
        return None if end is None else Pending
    s = domain_start(buf, i, last_end, MAX_DOMAIN, ".")
    if s is None or s == i or not starts_word(buf, s):
        return None
    first = buf.find(".", s, i + 1)
    return completed(ctx, buf, s, first, "http", "domains", final)


def fragment(mode: Mode, cfg: Config) -> str:
    """A dot between a letter, digit or character not ASCII and a letter (a top-level
    domain starts with one), not before a label of ASCII host characters that a dot and
    another label follow (no last label)."""
    return r"\.(?<=[^\W_]\.|[^\x00-\x7f]\.)(?=[^\W\d_])(?![A-Za-z0-9\-]+\.[A-Za-z0-9])"
