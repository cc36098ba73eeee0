"""A URI written without its scheme (seed 002 Appendix F, "abbreviated URIs"): a host
whose last label is a real top-level domain, then an optional port, path, query and
fragment, completed with the scheme the rule gives (``http://``, ``ftp://``).

It is delimited as a bare URI is (RFC 3986 Appendix C): the run of URI characters from
the host, cut at an unbalanced closer of the bracket before it, trailing punctuation
dropped, and cut at the first character its grammar refuses. The host must start a
word: what stands before it is white space, a character that ends a run (``<``,
quotes, ...), an opening bracket or sentence punctuation, never a letter, a digit or
what joins it to a longer host, path or address (``xwww.``, ``a.www.``, ``bob@www.``,
``/www.``). A host read back must be a domain name (labels of UTS #46 host characters,
none empty, none starting or ending with "-", at most 253 characters: RFC 1035
§2.3.4); a URI with a user name (``www.a.example@b.example``) is an address's, not
this host's.
"""

from __future__ import annotations

import re

from urimine.errors import Reason
from urimine.rules.base import Candidate, Pending, PendingType
from urimine.rules.brackets import cut_unbalanced
from urimine.rules.context import Context
from urimine.rules.delimit import CUTTABLE, run_end, trim, validate
from urimine.rules.patterns import OPENERS, STOP_CHAR
from urimine.tlds import is_tld
from urimine.uts58.hosts import valid_domain
from urimine.uts58.props import data

__all__ = ["MAX_DOMAIN", "completed", "host_labels", "starts_word"]

MAX_DOMAIN = 253
"""The longest domain name, in characters as written (RFC 1035 §2.3.4)."""
_BEFORE_OK = frozenset("([',;")
"""What may stand before a host besides white space and what ends a run: an opening
bracket, a quote, a list's separator."""
_EMPHASIS = frozenset("*_")
"""Emphasis marks (``*www.a.example*``, ``_www.a.example_``), which may stand before a
host where they start a word themselves (not ``see_www.a.example``)."""
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9\-]*[A-Za-z0-9])?"
_ASCII_DOMAIN = re.compile(rf"(?:{_LABEL}\.)+({_LABEL})")
"""An ASCII domain name of two labels at least, none empty, none starting or ending with
"-" (RFC 1034 §3.5); the last label captured."""
_AUTHORITY_END = re.compile(r"[/?#]")


def starts_word(buf: str, s: int) -> bool:
    """Whether a host may start at ``s``: at the text's start, or after white space, a
    character that ends a run, one of :data:`_BEFORE_OK`, or an emphasis mark that
    starts a word."""
    k, marks = s - 1, 0
    while k >= 0 and marks < 3 and buf[k] in _EMPHASIS:
        k, marks = k - 1, marks + 1  # up to three emphasis marks (bold italic)
    return k < 0 or _starts(buf[k])


def _starts(c: str) -> bool:
    return c in _BEFORE_OK or STOP_CHAR.match(c) is not None


def host_labels(host: str) -> list[str] | None:
    """The labels of *host* if it is a domain name whose last label is a real top-level
    domain (labels of host characters, well formed, at most 253 characters); else None."""
    if len(host) > MAX_DOMAIN:
        return None
    if host.isascii():
        m = _ASCII_DOMAIN.fullmatch(host)
        return host.split(".") if m is not None and is_tld(m.group(1)) else None
    if not valid_domain(host):
        return None
    labels = host.split(".")
    if len(labels) < 2 or not is_tld(labels[-1]):
        return None
    table = data().host
    if not all(table.get(ord(c)) for label in labels for c in label):
        return None
    return labels


def _host(rest: str) -> str | None:
    """The host of a URI without its ``scheme://`` (*rest*), checked by the parser
    already; None where it has a user name (``www.a.example@b.example``)."""
    m = _AUTHORITY_END.search(rest)
    authority = rest if m is None else rest[: m.start()]
    if "@" in authority:
        return None
    return authority.rpartition(":")[0] if ":" in authority else authority


_PLAIN_HOST = re.compile(r"([A-Za-z0-9.\-]++)(?=[/?#:]|\Z)")
"""A host of letters, digits, dots and hyphens, then its authority's end or a port."""


def completed(
    ctx: Context, buf: str, s: int, dot: int, scheme: str, context: str, final: bool
) -> Candidate | PendingType | None:
    """The URI written from ``s`` without its scheme (lower case), whose first label
    ends at the dot ``dot``: a hit of *context*, a rejection of one too long, Pending or
    None (no URI: its host is no domain name)."""
    e = run_end(ctx, buf, s, final)
    if e < 0:
        return Pending
    if e - s >= ctx.max_len - len(scheme) - 3:
        return Candidate(s, e, context, reason=Reason.TOO_LONG, too_long=True)
    before = buf[s - 1] if s else ""
    text = buf[s:e]
    closer = OPENERS.get(before)
    if closer is not None:
        text = cut_unbalanced(ctx, text, before, closer)
    head = dot - s + 1
    prefix = scheme + "://"
    text = trim(text, head, before)
    plain = _PLAIN_HOST.match(text)
    if plain is not None and host_labels(plain.group(1)) is None:
        return None  # (a cut where the grammar refuses a character is past such a host)
    found = validate(ctx, prefix + text, scheme, bare=True)
    for _ in range(3):
        if found is None or found[0] not in CUTTABLE or found[2] <= len(prefix) + head:
            break
        text = trim(text[: found[2] - len(prefix)], head, before)
        found = validate(ctx, prefix + text, scheme, bare=True)
    if found is not None:
        return None
    host = _host(text)
    if not host or host_labels(host) is None:
        return None
    return Candidate(s, s + len(text), context, prefix + text, "uri", scheme)
