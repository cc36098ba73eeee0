"""Angle-bracket rules: ``<...>`` with whitespace inside ignored, ``<URL:...>``, and the
1993 ``<URN:...>`` form (seed 002 Appendix E; RFC 1738 appendix; seed 000 section 3.3)."""

from __future__ import annotations

import re

import regex

from urimine.errors import Reason
from urimine.rules import (
    _HYPHEN_BREAK,
    _LEGACY_SPAN,
    _LT_HEAD,
    _LT_HEAD_PARTIAL,
    _LT_URL,
    _LT_URL_HEAD_PARTIAL,
    _SCHEME_HEAD,
    _WS,
    _XML_NAME,
    LEGACY_SHAPE,
    LEGACY_WRAPPED_HEAD,
    SCHEME_CHAR,
    Candidate,
    Config,
    Pending,
    PlainDecision,
    Shortcut,
    _angle_multiline,
    _marker_strip,
    _PendingType,
    _validate,
    quote_depth,
    unfinished,
)
from urimine.rules.bare import colon_can_take
from urimine.urn import check_legacy_urn

__all__ = ["Dismissed", "at_angle"]

Dismissed = int
"""What :func:`at_angle` returns when nothing starts at the ``<`` nor before that index:
the scan may go on from there. (A bare index: hostile text makes one per ``<``, and an
object would cost more than the rest of the decision.)"""


def at_angle(
    cfg: Config, buf: str, i: int, final: bool
) -> Candidate | Shortcut | Dismissed | _PendingType | None:
    """The rules at the ``<`` at ``i``: a :data:`~urimine.rules.Shortcut` for the common case, else
    a :class:`Candidate` (or ``None``, or :data:`Pending`) from the general path."""
    plain = _PLAIN.match(buf, i)
    if plain is not None and cfg.speed.angle_shortcut:
        short = _plain(cfg, plain, i)
        if short is not None:
            return short
    head = _head(buf, i, final)
    if head is None or isinstance(head, _PendingType):
        return head
    scheme = head.group(1).lower()  # (group 1 is the scheme)
    if scheme == "urn" and head.start("scheme") == i + 1 and "legacy-urn" in cfg.rules:
        legacy = _legacy_urn(buf, i, final)  # "<URN:" right after the bracket
        if legacy is not None:
            return legacy
    if "angle" not in cfg.rules and "url-prefix" not in cfg.rules:
        return None
    m: re.Match[str] | regex.Match[str] | None = cfg.angle_line.match(buf, i)
    if m is None and not final:
        late = unfinished(cfg.angle_line_partial, buf, i)
        if isinstance(late, _PendingType):
            return Pending
        m = late
    depth = 0
    if m is None:
        if scheme not in cfg.schemes:
            # An unregistered scheme is a candidate on one line only: over several, a
            # ">" at the start of a line is a mail quote marker far more often than the
            # end of a wrapped URI of an unknown scheme ("> x << std::endl;" quoted
            # line after line). Nothing to report, not even a rejection (so that the
            # dense prefilter may pass over such text in C: rules._ANGLE_TAIL).
            return _dismissed(cfg, scheme, i, head.end())
        depth = quote_depth(buf, i)
        lines = _angle_multiline(depth, cfg.max_len).match(buf, i, partial=not final)
        if lines is None:
            return None
        if lines.partial:
            return Pending
        m = lines
    found = _angle_candidate(cfg, m.group(1), i, m.end(), depth)
    if found is None:
        return _dismissed(cfg, scheme, i, head.end())
    return _skip_head(cfg, found, scheme, head.end()) if found.reason else found


def _head(buf: str, i: int, final: bool) -> re.Match[str] | regex.Match[str] | _PendingType | None:
    """``<``, white space, ``URL:`` and white space, the scheme and its colon, at *i*."""
    head = _LT_HEAD.match(buf, i)
    if final:
        return head
    if head is None:
        return unfinished(_LT_HEAD_PARTIAL, buf, i)
    if head.group(1).lower() == "url":
        # "<URL:" then white space where the buffer ends: read as the scheme "URL" so
        # far, but the prefix's scheme may still come ("<URL:\nhttp://x>").
        late = _LT_URL_HEAD_PARTIAL.match(buf, i, partial=True)
        if late is not None and late.partial:
            return Pending
    return head


def _dismissed(cfg: Config, scheme: str, i: int, head_end: int) -> Dismissed | None:
    """For markup and code after ``<`` and an unregistered *scheme*: when nothing else
    (``URL:``, white space) stands in the head and the colon rule cannot take the word
    either (:func:`~urimine.rules.bare.colon_can_take`), its colon needs no look: the
    scan goes on after it."""
    if head_end == i + len(scheme) + 2 and not colon_can_take(cfg, scheme):
        return head_end
    return None


# "<" scheme ":" then one run without whitespace or brackets, then ">": one line, no
# "URL:" and nothing to unwrap (the general path's single-line match, where it has
# nothing to do but validate).
_PLAIN = re.compile(rf"<([A-Za-z][{SCHEME_CHAR}]{{0,63}}):[^<>\s]+>")
_SEEN_LEN = 256  # longer texts are decided afresh, so the memo stays small


def _plain(cfg: Config, m: re.Match[str], i: int) -> Shortcut | Candidate | None:
    """The common case, ``<scheme:...>`` on one line (*m*, a :data:`_PLAIN` match at
    ``i``), a registered scheme right after the ``<`` and no whitespace: validated in
    one match, and decided as the general path would (tests/test_fast_paths.py checks
    that the answers agree), a URI or its rejection. None: the general path decides.
    Not for "urn", whose 1993 form the legacy rule looks at first, nor "url" (the
    ``URL:`` prefix).

    A rejection is decided here too: the general path would only unwrap the same text
    and validate it again (text dense with such candidates, ``<http://[x]>``, cost
    twice the parse). Decisions are remembered by the text they matched."""
    text = m.group()
    if text in cfg.seen and cfg.speed.memo:
        found = cfg.seen[text]
    else:
        found = _plain_uri(cfg, text, m.group(1).lower())
        if len(text) <= _SEEN_LEN:
            cfg.seen.keep(text, found)
    if found is None:
        return None
    uri, scheme, reason, detail = found
    if reason is None:
        return (i, m.end(), uri, "angle", scheme, "")
    # As _angle_candidate's rejection; a registered scheme's colon may still be taken
    # by the colon rule, so the scan goes on after the "<" (no resume, see _skip_head).
    return Candidate(i, m.end(), "angle", uri, reason=reason, detail=detail, consume=False)


def _plain_uri(cfg: Config, text: str, scheme: str) -> PlainDecision | None:
    """The decision on a :data:`_PLAIN` match (its URI and scheme, and why it is
    rejected or None), or None if the shortcut does not apply."""
    if len(text) - 2 > cfg.max_len or "angle" not in cfg.rules:
        return None
    if scheme not in cfg.schemes or scheme == "urn" or scheme == "url":
        return None
    uri = text[1:-1]
    bad = _validate(cfg, uri, scheme, bare=False)
    if bad is not None:
        return uri, scheme, bad[0], bad[1]
    return uri, scheme, None, ""


def _skip_head(cfg: Config, found: Candidate, scheme: str, head_end: int) -> Candidate:
    """After a rejected ``<xs:element>``, ``<o:p>``: the scan may resume after the head's
    colon when the colon rule cannot take the scheme."""
    if not colon_can_take(cfg, scheme):
        found.resume = head_end
    return found


def _legacy_urn(buf: str, i: int, final: bool) -> Candidate | _PendingType | None:
    """A 1993 URN at the ``<`` at *i*, or None (the angle rule then decides)."""
    shape = LEGACY_SHAPE.match(buf, i, partial=not final)
    if shape is None:
        return None  # (nor would the span below be a valid one)
    if shape.partial:
        return Pending
    m = _LEGACY_SPAN.match(buf, i)
    if m is None:
        return None
    text = m.group()
    if check_legacy_urn(text) is not None:
        return None  # perhaps a modern URN in brackets: let the angle rule decide
    return Candidate(i, m.end(), "legacy-urn", text, "urn-legacy", "urn")


def _angle_candidate(
    cfg: Config, content: str, start: int, end: int, depth: int
) -> Candidate | None:
    """Unwrap ``<...>`` content: quote markers, whitespace, ``URL:``; then validate.
    None: markup or code, not a candidate at all (and so no rejection to report, which
    lets the scanner's dense prefilter pass over such text in C)."""
    if _unknown_scheme_with_spaces(cfg, content):
        # "<x:y z>" is far more often code or markup than a URI with an unknown scheme.
        return None
    if depth:
        content = _marker_strip(depth).sub("\n", content)
    spaced = _WS.search(content) is not None
    alt_source = content
    if spaced and "hyphen" in cfg.rules and "-" in content:
        alt_source = _HYPHEN_BREAK.sub("", content)
    uri = _WS.sub("", content) if spaced else content
    context = "angle"
    unprefixed = _after_url_prefix(uri)
    if unprefixed is not uri:
        if "url-prefix" not in cfg.rules:
            return Candidate(start, end, "url-prefix", reason=Reason.NOT_A_URI, consume=False)
        uri = unprefixed
        context = "url-prefix"
    elif "angle" not in cfg.rules:
        return Candidate(start, end, context, reason=Reason.NOT_A_URI, consume=False)
    head = _SCHEME_HEAD.match(uri)
    if head is None:
        return Candidate(start, end, context, reason=Reason.NO_SCHEME, consume=False)
    scheme = head.group(1).lower()
    if scheme not in cfg.schemes and _XML_NAME.fullmatch(uri):
        # <xs:complexType>, <rpid:self/>: an XML element, not a URI of an unknown scheme.
        return None
    if (
        spaced
        and scheme == "urn"
        and context == "angle"
        and "legacy-urn" in cfg.rules
        and LEGACY_WRAPPED_HEAD.match(content)
    ):
        # Seed 000's 1993 form wrapped over lines (its own rule, _legacy_urn, reads one
        # line): white space inside the brackets is ignored (Appendix E), and the
        # brackets are its own. Only with "<URN:" and the encoding written together,
        # where the prefilters of a scanner of hits only look for one.
        legacy = f"<{uri}>"
        if check_legacy_urn(legacy) is None:
            return Candidate(start, end, "legacy-urn", legacy, "urn-legacy", "urn")
    found = _validate(cfg, uri, scheme, bare=False)
    if found is not None:
        reason, detail, _ = found
        return Candidate(start, end, context, uri, reason=reason, detail=detail, consume=False)
    alternative = None
    if alt_source is not content:
        alt = _WS.sub("", alt_source)
        if context == "url-prefix":
            alt = alt[4:]
        if alt != uri and _validate(cfg, alt, scheme, bare=False) is None:
            alternative = alt
    kind = "urn" if scheme == "urn" else "uri"
    return Candidate(start, end, context, uri, kind, scheme, alternative)


def _unknown_scheme_with_spaces(cfg: Config, content: str) -> bool:
    """Whether ``<content>`` starts with an unregistered scheme and has inner whitespace
    (the scheme after ``URL:`` as :func:`_after_url_prefix` reads it, else "URL")."""
    inner = _after_url_prefix(content.strip())
    head = _SCHEME_HEAD.match(inner)
    return (
        head is not None
        and head.group(1).lower() not in cfg.schemes
        and _WS.search(inner) is not None
    )


# "URL:" and the white space after it where a scheme follows, as the head reads them
# (_LT_HEAD: at most 64 of " \t\r\n"), and so the dense prefilter too.
_URL_THEN_SCHEME = re.compile(rf"{_LT_URL}(?=[A-Za-z][{SCHEME_CHAR}]*:)")


def _after_url_prefix(text: str) -> str:
    """*text* after a leading ``URL:`` and the white space after it, when a scheme
    follows; else *text* itself (the same object): without one ("<URL: /x>"), "URL" is
    the scheme. The white space is what the head reads (:data:`_URL_THEN_SCHEME`): after
    other white space (a no-break space, more than 64), "<URL:\xa0p:/>" was a URI of the
    scheme "p" in text the sparse finders went through, and nothing where the dense
    prefilter, which reads the head so, passed over its "<"."""
    prefix = _URL_THEN_SCHEME.match(text)
    return text if prefix is None else text[prefix.end() :]
