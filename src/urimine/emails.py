"""E-mail addresses in running text, reported with their ``mailto:`` URIs.

The local part is read back from the ``@`` over characters with UTS #58's Link_Email
property ("Email Addresses"): RFC 5322 §3.2.3 atext and ``.``, widened to non-ASCII
letters and marks as RFC 6531 §3.3 widens atext. It must be a Dot-string (RFC 5321
§4.1.2: no leading, trailing or doubled dot) of at most 64 octets (RFC 5321
§4.5.3.1.1). Quoted local parts (``"john doe"@example.com``) are not found, as UTS #58's
base algorithm does not find them. The domain runs forward from the ``@``; its labels
must be well formed and its last label a real top-level domain.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import regex

from urimine.tlds import is_tld
from urimine.uts58.hosts import host_run_end, split_labels, valid_domain
from urimine.uts58.localpart import local_part_start, mailto_uri, with_mailto
from urimine.uts58.props import LABEL_DOTS

MAX_LOCAL_OCTETS = 64
MAX_DOMAIN = 253
"""The longest domain name, in characters as written (RFC 1035 §2.3.4)."""
LOOKBEHIND = MAX_LOCAL_OCTETS + len("mailto:")
"""The most :func:`address_at` reads before its ``@``."""
_AT = regex.compile("@")


class _More:
    def __repr__(self) -> str:
        return "MORE"


MORE = _More()
"""What :func:`address_at` answers where the text ends too soon to decide."""


@dataclass(frozen=True, slots=True)
class EmailAddress:
    """An address found in a text: ``text[start:end]`` as written (with a ``mailto:``
    written before it), the address's parts, and its ``mailto:`` URI."""

    start: int
    end: int
    local: str
    domain: str

    @property
    def address(self) -> str:
        return f"{self.local}@{self.domain}"

    @property
    def uri(self) -> str:
        return mailto_uri(self.local, self.domain)


@dataclass(frozen=True, slots=True)
class NoAddress:
    """An ``@`` and a good domain without a good local part: nothing is an address up
    to *end* (the domain is not read again as another address's)."""

    start: int
    end: int


def _domain_end(text: str, pos: int, final: bool) -> int | _More | None:
    """The end of the domain that starts at *pos*: host runs joined by single dots; a
    dot not followed by a host character ends it (a full stop after the address).
    None where it is longer than a domain name may be."""
    n, stop = len(text), pos + MAX_DOMAIN + 1
    end = host_run_end(text, pos, stop)
    while end < stop:
        if end == n or (text[end] in LABEL_DOTS and end + 1 == n):
            return end if final else MORE
        if text[end] not in LABEL_DOTS:
            return end
        after = host_run_end(text, end + 1, stop)
        if after == end + 1:
            return end
        end = after
    return None


def address_at(
    text: str, at: int, floor: int, *, final: bool = True
) -> EmailAddress | NoAddress | _More | None:
    """What the ``@`` at *at* starts, nothing before *floor* read: an address, a
    :class:`NoAddress`, None (no address here) or, where *final* is false and the text
    ends too soon, :data:`MORE`."""
    end = _domain_end(text, at + 1, final)
    if not isinstance(end, int):
        return end
    domain = text[at + 1 : end]
    if end == at + 1 or not valid_domain(domain):
        return None
    labels = split_labels(domain)
    if len(labels) < 2 or not is_tld(labels[-1]):
        return None
    start = local_part_start(text, at, floor, max_octets=MAX_LOCAL_OCTETS)
    if start is None:
        return NoAddress(at, end)
    return EmailAddress(with_mailto(text, start, floor), end, text[start:at], domain)


def iter_emails(text: str) -> Iterator[EmailAddress]:
    """Each e-mail address in *text*, in order, none overlapping the one before."""
    floor = 0
    for m in _AT.finditer(text):
        if m.start() < floor:
            continue
        found = address_at(text, m.start(), floor)
        if isinstance(found, EmailAddress | NoAddress):
            floor = found.end
            if isinstance(found, EmailAddress):
                yield found


def find_emails(text: str) -> list[EmailAddress]:
    """The e-mail addresses in *text*.

    >>> [(a.address, a.uri) for a in find_emails("Write to mailto:Jo.Doe@Example.com.")]
    [('Jo.Doe@Example.com', 'mailto:Jo.Doe@Example.com')]
    >>> find_emails("not john..doe@example.com, not @example.com, not a@b.invalid")
    []
    """
    return list(iter_emails(text))


__all__ = ["EmailAddress", "NoAddress", "address_at", "find_emails", "iter_emails", "mailto_uri"]
