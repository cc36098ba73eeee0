"""Link detection as UTS #58 specifies it ("Link Detection"): URLs with the schemes
``http:`` and ``https:``, URLs whose scheme is implied (a domain name whose last label
is a real top-level domain), and e-mail addresses with or without ``mailto:``.

The scan is driven by label dots. For each dot followed by a top-level domain that ends
the host (the next character is no host character, or a dot that none follows), the
host is read back to its start and checked label by label; a port of up to five digits
may follow. An ``@`` before the host makes it an e-mail address, whose local part is
read back over Link_Email characters and must be a Dot-string, else neither address
nor domain is linked; an ``http://`` or ``https://`` before the host belongs to the
link. The path, query and fragment after the host end where the termination algorithm
says (`scan_path_query_fragment`). A dot after the host is kept only when a path,
query or fragment follows it. Every character is read a bounded number of times: the
scan is linear in the text's length.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass

import regex

from urimine.tlds import is_tld
from urimine.uts58.hosts import domain_start, host_run_end, valid_domain
from urimine.uts58.localpart import local_part_start, mailto_uri, with_mailto
from urimine.uts58.props import LABEL_DOTS
from urimine.uts58.terminate import scan_path_query_fragment

_DOT = regex.compile("[" + "".join(sorted(LABEL_DOTS)) + "]")
_SCHEMES = ("https://", "http://")
MAX_PORT_DIGITS = 5


class LinkKind(enum.Enum):
    """What kind of link UTS #58 detection found."""

    SCHEME_URL = "scheme"
    """A URL written with its ``http://`` or ``https://``."""
    DOMAIN_URL = "domain"
    """A URL written without its scheme (``example.com/path``)."""
    EMAIL = "email"
    """An e-mail address, with or without ``mailto:`` written before it."""


@dataclass(frozen=True, slots=True)
class Link:
    """A link found in a text: ``text[start:end]`` as written, its kind, and the URL it
    stands for (``http://`` put before a domain URL, ``mailto:`` before an address)."""

    start: int
    end: int
    kind: LinkKind
    uri: str


@dataclass(slots=True)
class _Host:
    """A top-level domain found after a dot: where its label ends (*tld_end*) and where
    the host with its trailing dot and port ends (*end*)."""

    dot: int
    tld_end: int
    end: int


def _host_after(text: str, dot: int) -> _Host | None:
    """The host whose last label follows the dot at *dot*, when that label is a
    top-level domain that ends the host, with the trailing dot and port after it."""
    tld_end = host_run_end(text, dot + 1)
    if tld_end == dot + 1 or not is_tld(text[dot + 1 : tld_end]):
        return None
    end, n = tld_end, len(text)
    if end < n and text[end] in LABEL_DOTS:
        if end + 1 < n and host_run_end(text, end + 1) > end + 1:
            return None  # not the last label
        end += 1
    if end < n and text[end] == ":":
        digits = end + 1
        while digits < n and "0" <= text[digits] <= "9":
            digits += 1
        if digits - end - 1 > MAX_PORT_DIGITS or (
            digits > end + 1 and int(text[end + 1 : digits]) > 0xFFFF
        ):
            return None  # no port: this is not the end of a host
        end = digits if digits > end + 1 else end
    return _Host(dot, tld_end, end)


def _email(text: str, host: _Host, start: int, floor: int) -> Link | None:
    """The e-mail address whose domain starts at *start* (just after an ``@``)."""
    local = local_part_start(text, start - 1, floor, max_octets=None)
    if local is None:
        return None
    uri = mailto_uri(text[local : start - 1], text[start : host.tld_end])
    return Link(with_mailto(text, local, floor), host.tld_end, LinkKind.EMAIL, uri)


def _url(text: str, host: _Host, start: int, floor: int) -> Link:
    """The URL whose host starts at *start*, with its scheme and path, query, fragment."""
    kind = LinkKind.DOMAIN_URL
    for scheme in _SCHEMES:
        if start - len(scheme) >= floor and text[start - len(scheme) : start].lower() == scheme:
            start -= len(scheme)
            kind = LinkKind.SCHEME_URL
            break
    end = scan_path_query_fragment(text, host.end)
    if end == host.end and text[end - 1] in LABEL_DOTS:
        end -= 1  # a full stop after the host, not followed by a path, query or fragment
    uri = text[start:end] if kind is LinkKind.SCHEME_URL else "http://" + text[start:end]
    return Link(start, end, kind, uri)


def iter_links(text: str) -> Iterator[Link]:
    """Each link UTS #58 detection finds in *text*, in order, none overlapping."""
    floor = pos = 0
    while (m := _DOT.search(text, pos)) is not None:
        dot = m.start()
        pos = dot + 1
        host = _host_after(text, dot)
        if host is None:
            continue
        start = domain_start(text, dot, floor)
        if start == dot or not valid_domain(text[start : host.tld_end]):
            continue
        if start > floor and text[start - 1] == "@":
            link = _email(text, host, start, floor)
            floor = pos = host.end
        else:
            link = _url(text, host, start, floor)
            floor = pos = link.end
        if link is not None:
            yield link


def detect(text: str) -> list[Link]:
    """The links in *text*, as UTS #58 link detection finds them.

    >>> [(text[l.start:l.end], l.kind.value, l.uri) for text in
    ...  ["See example.com/α(β). Mail x.y@example.org."] for l in detect(text)]
    [('example.com/α(β)', 'domain', 'http://example.com/α(β)'), \
('x.y@example.org', 'email', 'mailto:x.y@example.org')]
    """
    return list(iter_links(text))
