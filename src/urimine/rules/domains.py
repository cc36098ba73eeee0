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
from urimine.tlds import is_tld
from urimine.uts58.props import data

__all__ = ["at_dot", "fragment"]

_MAX_LABEL = 63


def _label_end(buf: str, pos: int, stop: int) -> int:
    host = data().host
    stop = min(stop, len(buf))
    while pos < stop and host.get(ord(buf[pos])):
        pos += 1
    return pos


def _host_start(buf: str, i: int, lo: int) -> int | None:
    """Where the host whose dot stands at ``i`` starts (labels and dots read back, no
    further than *lo* nor than a domain name's length); None where it is longer."""
    host = data().host
    floor = max(lo, i - MAX_DOMAIN)
    s = i
    while s > floor and (buf[s - 1] == "." or host.get(ord(buf[s - 1]))):
        s -= 1
    if s == floor > lo and (buf[s - 1] == "." or host.get(ord(buf[s - 1]))):
        return None
    return s


def at_dot(
    ctx: Context, buf: str, i: int, last_end: int, final: bool
) -> Candidate | PendingType | None:
    """The host whose last label follows the dot ``i``, completed, or None."""
    n = len(buf)
    end = _label_end(buf, i + 1, i + 2 + _MAX_LABEL)
    if end == n and not final and end <= i + 1 + _MAX_LABEL:
        return Pending
    if end == i + 1 or not is_tld(buf[i + 1 : end]):
        return None
    if end < n and buf[end] == ".":
        if end + 1 == n and not final:
            return Pending
        if end + 1 < n and data().host.get(ord(buf[end + 1])):
            return None  # not the last label
    s = _host_start(buf, i, last_end)
    if s is None or s == i or not starts_word(buf, s):
        return None
    first = buf.find(".", s, i + 1)
    return completed(ctx, buf, s, first, "http", "domains", final)


def fragment(mode: Mode, cfg: Config) -> str:
    """A dot between a letter, digit or character not ASCII and a letter (a top-level
    domain starts with one), not before a label of ASCII host characters that a dot and
    another label follow (no last label)."""
    return r"\.(?<=[^\W_]\.|[^\x00-\x7f]\.)(?=[^\W\d_])(?![A-Za-z0-9\-]+\.[A-Za-z0-9])"
