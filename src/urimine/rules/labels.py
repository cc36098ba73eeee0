"""Labels that look like schemes are not URIs (issue 30 item 8): ``Fax:0760-2317010``,
``Content-Type:text/plain``, ``at:someone@example.com``, ``bb:ed:b6:75`` (a key's
fingerprint), ``TEL:+225 20 21 22 23`` (a number written with spaces after a label).

Decided in bare text and quotes, never after ``URL:`` or in angle brackets (which say
"a URI"), and never with "//" after the colon, by the IANA registry's status column,
the shape of what follows and what stands before:

1. A scheme written with a capital (``Fax:``, ``SMTP:``, ``Content-Type:``, ``TEL:``)
   that the registry does not list as permanent, or a telephone scheme so written: the
   style of a label (a vCard's or a signature's ``TEL:+225 20 21 22 23``, whose number
   goes on after a space); URIs in text write their scheme in lower case.
2. A scheme not permanent of one or two characters (``at:``, ``bb:``): words and hex
   pairs far more often than the provisional schemes of those names.
3. Hex pairs between colons (``bb:ed:b6:75``) after a scheme not permanent: a
   fingerprint or a MAC address.
4. A scheme not permanent before a MIME type (``content-type:text/plain``), or after
   an SDP attribute's ``a=`` (``a=resource:speechsynth``, RFC 8866 5.13).

A label is rejected whole and its text consumed: nothing in it is read again. (A
telephone number without "+" nor ``phone-context`` is no URI by RFC 3966 5.1.5, yet web
pages link ``tel:0760-2317010`` and phones dial it: it stays a URI.)
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

__all__ = ["is_label", "never_labels", "permanent_schemes"]

_PHONES = frozenset({"tel", "fax", "modem"})
_HEX_PAIRS = re.compile(r"[0-9A-Fa-f]{2}(?::[0-9A-Fa-f]{2})+")
_MIME = re.compile(
    r"(?:text|application|image|audio|video|multipart|message|model|font)/[A-Za-z0-9!#$&^_.+\-]+;?",
    re.IGNORECASE,
)
_SDP_LINE = re.compile(r"\s[a-z]=\Z")


@cache
def permanent_schemes() -> frozenset[str]:
    """The names the IANA registry lists as permanent (its status column)."""
    text = resources.files("urimine").joinpath("data/iana-uri-schemes.tsv").read_text("utf-8")
    out = set()
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, _, status = line.partition("\t")
            if status.strip() == "permanent":
                out.add(name.strip().lower())
    return frozenset(out)


def is_label(buf: str, s: int, i: int, e: int, scheme: str) -> bool:
    """Whether the candidate ``buf[s:e]`` of *scheme* (lower case, its colon at ``i``) is
    a label, not a URI. It reads nothing past the white space around the word (a word
    is decided alone the same)."""
    if scheme in never_labels():
        return False
    rest = buf[i + 1 : e]
    if rest.startswith("//"):
        return False
    written = buf[s:i]
    if scheme in _PHONES:
        return not written.islower()
    if not written.islower() or len(scheme) <= 2 or _MIME.fullmatch(rest):
        return True
    if _HEX_PAIRS.fullmatch(buf, s, e):
        return True
    return _SDP_LINE.search(buf, max(0, s - 3), s) is not None


@cache
def never_labels() -> frozenset[str]:
    """The schemes no rule here makes a label: the permanent ones, but the telephone's."""
    return permanent_schemes() - _PHONES
