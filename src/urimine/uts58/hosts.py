"""Domain names in running text as UTS #58 link detection reads them: runs of host
characters and label dots, checked label by label, the last label a real top-level
domain (IANA's root zone list, `urimine.tlds`).
"""

from __future__ import annotations

from collections.abc import Container

import regex

from urimine.tlds import is_tld
from urimine.uts58.props import LABEL_DOTS, data

_DOT_SPLIT = regex.compile("[" + "".join(sorted(LABEL_DOTS)) + "]")


_ASCII_RUN = regex.compile(r"[A-Za-z0-9\-]*+")
"""The ASCII host characters (UTS #46 valid or mapped, STD3 rules), matched in C."""


def host_run_end(text: str, pos: int, stop: int | None = None) -> int:
    """The end of the run of host characters (no dots) that starts at *pos*, read no
    further than *stop*."""
    host = data().host
    n = len(text) if stop is None else min(stop, len(text))
    while pos < n:
        m = _ASCII_RUN.match(text, pos, n)
        pos = m.end() if m is not None else pos
        if pos == n or not host.get(ord(text[pos])):
            break
        pos += 1  # a host character that is not ASCII
    return pos


MAX_LABEL = 63
"""The longest label (RFC 1035 §2.3.4)."""
MORE_TEXT = -1
"""What :func:`tld_end` answers where the text ends too soon to decide."""


def tld_end(text: str, dot: int, final: bool, dots: Container[str] = LABEL_DOTS) -> int | None:
    """The end of the label after the dot at *dot* when it is a top-level domain that
    ends the host: no host character follows it, nor a dot (one of *dots*) with one
    after. None where it is not; :data:`MORE_TEXT` where *final* is false and the text
    ends too soon to say."""
    n = len(text)
    end = host_run_end(text, dot + 1, dot + 2 + MAX_LABEL)
    if end == n and not final and end <= dot + 1 + MAX_LABEL:
        return MORE_TEXT
    if end == dot + 1 or not is_tld(text[dot + 1 : end]):
        return None
    if end < n and text[end] in dots:
        if end + 1 == n and not final:
            return MORE_TEXT
        if end + 1 < n and data().host.get(ord(text[end + 1])):
            return None  # not the last label
    return end


def domain_start(
    text: str, end: int, floor: int, room: int, dots: Container[str] = LABEL_DOTS
) -> int | None:
    """Where the run of host characters and dots (one of *dots*) that ends at *end*
    starts, going back no further than *floor*; None where it is longer than *room*."""
    lo = max(floor, end - room)
    host = data().host
    while end > lo and (host.get(ord(text[end - 1])) or text[end - 1] in dots):
        end -= 1
    if end == lo > floor and (host.get(ord(text[end - 1])) or text[end - 1] in dots):
        return None
    return end


def valid_domain(domain: str) -> bool:
    """Whether *domain* (without a trailing dot) has no empty label and no label that
    starts or ends with a hyphen (RFC 1034 §3.5, UTS #46 CheckHyphens).

    >>> valid_domain("example.com"), valid_domain("foo..example.com"), valid_domain("-a.com")
    (True, False, False)
    """
    return all(label and label[0] != "-" and label[-1] != "-" for label in split_labels(domain))


def split_labels(domain: str) -> list[str]:
    """*domain*'s labels, split at any of the four full stops UTS #46 maps to ``.``."""
    labels: list[str] = _DOT_SPLIT.split(domain)
    return labels
