"""The ``email`` rule: e-mail addresses in text, reported as ``mailto:`` URIs (UTS #58
Link_Email; RFC 5321 §4.1.2 Dot-string local parts of at most 64 octets, RFC 6531
§3.3 for non-ASCII ones; the domain's last label a real top-level domain), as
:func:`urimine.emails.iter_emails` finds them. An address inside a URI already taken
(``mailto:a@b.example``, ``http://user@host/``) is not reported again: the scan is past
its ``@``. The rule reads at most :data:`urimine.emails.LOOKBEHIND` characters before
the ``@`` and a domain name's length after it.
"""

from __future__ import annotations

from urimine.emails import MORE, EmailAddress, NoAddress, address_at
from urimine.errors import Reason
from urimine.rules.base import Candidate, Mode, Pending, PendingType
from urimine.rules.config import Config
from urimine.rules.context import Context

__all__ = ["decide", "fragment"]


def decide(
    ctx: Context, buf: str, i: int, last_end: int, final: bool
) -> Candidate | PendingType | None:
    """The address whose ``@`` stands at ``i``, or None."""
    found = address_at(buf, i, last_end, final=final)
    if found is None:
        return None
    if found is MORE:
        return Pending
    if isinstance(found, NoAddress):
        # A good domain with no good local part: nor is the domain read again.
        detail = "e-mail local part is no Dot-string"
        return Candidate(found.start, found.end, "email", reason=Reason.NOT_A_URI, detail=detail)
    assert isinstance(found, EmailAddress)
    return Candidate(found.start, found.end, "email", found.uri, "uri", "mailto")


def fragment(mode: Mode, cfg: Config) -> str:
    """An ``@`` before a domain of two labels at least: a letter, a digit or a character
    not ASCII, then a label
    dot before a letter (a top-level domain starts with one) with no white space or
    ``@`` between. What stands before the ``@`` is read by the rule (an ``@`` without
    a local part still ends where its domain does)."""
    return "@(?=[^\\W_]|[^\\x00-\\x7f])(?=[^\\s@]*?[.\u3002\uff0e\uff61][^\\W\\d_])"
