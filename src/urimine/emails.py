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
_AT = regex.compile("@")


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


def _domain_end(text: str, pos: int) -> int:
    """The end of the domain that starts at *pos*: host runs joined by single dots; a
    dot not followed by a host character ends it (a full stop after the address)."""
    end = host_run_end(text, pos)
    while end < len(text) - 1 and text[end] in LABEL_DOTS and host_run_end(text, end + 1) > end + 1:
        end = host_run_end(text, end + 1)
    return end


def iter_emails(text: str) -> Iterator[EmailAddress]:
    """Each e-mail address in *text*, in order, none overlapping the one before."""
    floor = 0
    for m in _AT.finditer(text):
        at = m.start()
        if at < floor:
            continue
        end = _domain_end(text, at + 1)
        domain = text[at + 1 : end]
        if end == at + 1 or not valid_domain(domain) or len(split_labels(domain)) < 2:
            continue
        if not is_tld(split_labels(domain)[-1]):
            continue
        start = local_part_start(text, at, floor, max_octets=MAX_LOCAL_OCTETS)
        if start is None:
            floor = end
            continue
        yield EmailAddress(with_mailto(text, start, floor), end, text[start:at], domain)
        floor = end


def find_emails(text: str) -> list[EmailAddress]:
    """The e-mail addresses in *text*.

    >>> [(a.address, a.uri) for a in find_emails("Write to mailto:Jo.Doe@Example.com.")]
    [('Jo.Doe@Example.com', 'mailto:Jo.Doe@Example.com')]
    >>> find_emails("not john..doe@example.com, not @example.com, not a@b.invalid")
    []
    """
    return list(iter_emails(text))


__all__ = ["EmailAddress", "find_emails", "iter_emails", "mailto_uri"]
