"""The "<" site and the angle rule (RFC 3986 Appendix C; RFC 1738's appendix): ``<...>``
with white space inside ignored (also over lines, across mail quote markers),
``<URL:...>``, and, looked at first, the 1993 ``<URN:...>`` form (seed 000 3.3,
:mod:`urimine.rules.legacy_urn`)."""

from __future__ import annotations

import re
from functools import cache

import regex

from urimine._wordtree import word_tree
from urimine.errors import Reason
from urimine.fast import shortcut
from urimine.rules import legacy_urn
from urimine.rules.base import Candidate, Mode, Pending, PendingType, Result, unfinished
from urimine.rules.colon import takes_at
from urimine.rules.config import Config
from urimine.rules.context import Context
from urimine.rules.delimit import quote_depth
from urimine.rules.patterns import SCHEME_CHAR, SCHEME_HEAD, angle_sparse
from urimine.rules.url_prefix import URL_HEAD, strip_prefix
from urimine.rules.webchars import validate_web
from urimine.rules.wrapped import SPLIT_HEAD

__all__ = ["decide", "fragment", "prefix_fragment"]

_LT_SCHEME = rf"(?P<scheme>[A-Za-z][{SCHEME_CHAR}]{{0,63}}):(?=[^<>])"
_LT_HEAD_SOURCE = rf"<[ \t\r\n]{{0,64}}(?:{URL_HEAD})?{_LT_SCHEME}"
# Each pattern exists twice: by ``re``, the faster, and by ``regex``, whose partial
# matching tells "no" from "not yet" at the end of an unfinished buffer.
_LT_HEAD = re.compile(_LT_HEAD_SOURCE)
_LT_HEAD_PARTIAL = regex.compile(_LT_HEAD_SOURCE)
# The head with its "URL:" prefix: where the text ends after "<URL:" and white space,
# "URL" reads as the scheme so far, yet a scheme may come.
_LT_URL_HEAD_PARTIAL = regex.compile(rf"<[ \t\r\n]{{0,64}}{URL_HEAD}{_LT_SCHEME}")
_SPLIT_HEAD = re.compile(SPLIT_HEAD)
_SPLIT_HEAD_PARTIAL = regex.compile(SPLIT_HEAD)
_XML_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*:[A-Za-z_][A-Za-z0-9_.\-]*/?")
_WS = re.compile(r"\s+")
_HYPHEN_BREAK = re.compile(r"-[ \t]*\r?\n\s*")


@cache
def _one_line(max_len: int) -> tuple[re.Pattern[str], regex.Pattern[str]]:
    source = rf"<([^<>\n]{{0,{max_len}}})>"
    return re.compile(source), regex.compile(source)


@cache
def _lines(depth: int, max_len: int) -> regex.Pattern[str]:
    """``<...>`` over several lines; continuation lines carry ``depth`` quote markers."""
    if depth == 0:
        # A blank line ends any candidate: wrapped URIs never span paragraphs (and blank
        # lines are safe places to split text for parallel scanning).
        return regex.compile(rf"<((?:[^<>\n]|\n(?![ \t\r\f\v]*\n)){{0,{max_len}}}+)>")
    # Atomic and possessive: a space after a marker belongs to the marker, so a failing
    # match costs linear time.
    cont = rf"(?>\n[ \t]*(?:>[ \t]?){{{depth}}})(?![ \t]*>)"
    return regex.compile(rf"<((?:[^<>\n]|{cont}){{0,{max_len}}}+)>")


@cache
def _marker_strip(depth: int) -> re.Pattern[str]:
    return re.compile(rf"\n[ \t]*(?:>[ \t]?){{{depth}}}")


def decide(ctx: Context, buf: str, i: int, last_end: int, final: bool) -> Result:
    """The rules at the "<" at ``i``: a shortcut, a candidate, an index to go on from
    (nothing starts here nor before it), None or Pending."""
    if ctx.speed.angle_shortcut:
        short = shortcut.at_angle(ctx, buf, i, final)
        if short is not None:
            return short
    head = _head(buf, i, final)
    if head is None and "wrapped" in ctx.rules:
        return _split_scheme(ctx, buf, i, final)
    if head is None or isinstance(head, PendingType):
        return head
    scheme = head.group(1).lower()
    if scheme == "urn" and head.start("scheme") == i + 1 and "legacy-urn" in ctx.rules:
        legacy = legacy_urn.at(buf, i, final)  # "<URN:" right after the bracket
        if legacy is not None:
            return legacy
    if "angle" not in ctx.rules and "url-prefix" not in ctx.rules:
        return None
    return _bracketed(ctx, buf, i, scheme, head.end(), final)


def _bracketed(ctx: Context, buf: str, i: int, scheme: str, head_end: int, final: bool) -> Result:
    """The angle rule at the "<" at ``i``, whose head (up to the scheme's colon) ends at
    *head_end*."""
    span = _span(ctx, buf, i, scheme, final)
    if span is None:
        return _dismissed(ctx, buf, scheme, i, head_end, final)
    if isinstance(span, PendingType):
        return span
    m, depth = span
    found = _candidate(ctx, m.group(1), i, m.end(), depth)
    if found is None:
        return _dismissed(ctx, buf, scheme, i, head_end, final)
    if found.reason is not None and not takes_at(ctx, buf, head_end - 1, scheme, final):
        found.resume = head_end  # "<xs:element>": on after the head's colon
    return found


def _split_scheme(ctx: Context, buf: str, i: int, final: bool) -> Result:
    """``<htt`` then a line break then ``p://...>``: a registered scheme split by the
    line break is joined as any white space inside brackets is (RFC 3986 Appendix C)."""
    head: re.Match[str] | regex.Match[str] | PendingType | None = _SPLIT_HEAD.match(buf, i)
    if head is None and not final:
        head = unfinished(_SPLIT_HEAD_PARTIAL, buf, i)
    if head is None or isinstance(head, PendingType):
        return head
    scheme = (head.group(1) + head.group(2)).lower()
    if scheme not in ctx.schemes or "angle" not in ctx.rules:
        return None
    return _bracketed(ctx, buf, i, scheme, head.end(), final)


def _span(
    ctx: Context, buf: str, i: int, scheme: str, final: bool
) -> tuple[re.Match[str] | regex.Match[str], int] | PendingType | None:
    """The brackets from ``i`` and the quote markers of their continuation lines: on one
    line, or over several (a registered scheme only: over lines, a ">" at a line start
    is a quote marker far more often than the end of a URI of an unknown scheme)."""
    after = buf.find("<", i + 1)
    if after >= 0 and buf.find(">", i + 1, after) < 0:
        return None  # brackets hold no "<": none closes before the next one
    one_line, one_line_partial = _one_line(ctx.max_len)
    m: re.Match[str] | regex.Match[str] | None = one_line.match(buf, i)
    if m is None and not final:
        late = unfinished(one_line_partial, buf, i)
        if isinstance(late, PendingType):
            return late
        m = late
    if m is not None:
        return m, 0
    if scheme not in ctx.schemes:
        return None
    depth = quote_depth(buf, i)
    lines = _lines(depth, ctx.max_len).match(buf, i, partial=not final)
    if lines is None:
        return None
    return Pending if lines.partial else (lines, depth)


def _head(buf: str, i: int, final: bool) -> re.Match[str] | regex.Match[str] | PendingType | None:
    """``<``, white space, ``URL:`` and white space, the scheme and its colon, at *i*."""
    head = _LT_HEAD.match(buf, i)
    if final:
        return head
    if head is None:
        return unfinished(_LT_HEAD_PARTIAL, buf, i)
    if head.group(1).lower() == "url":
        late = _LT_URL_HEAD_PARTIAL.match(buf, i, partial=True)
        if late is not None and late.partial:
            return Pending
    return head


def _dismissed(
    ctx: Context, buf: str, scheme: str, i: int, head_end: int, final: bool
) -> int | None:
    """After markup or code ("<o:p>"): where nothing but the scheme stands in the head
    and the colon rule cannot take it either, the scan goes on after its colon."""
    if head_end == i + len(scheme) + 2 and not takes_at(ctx, buf, head_end - 1, scheme, final):
        return head_end
    return None


def _candidate(ctx: Context, content: str, start: int, end: int, depth: int) -> Candidate | None:
    """Unwrap ``<...>`` content (quote markers, white space, ``URL:``), then validate.
    None: markup or code, not a candidate at all (no rejection to report)."""
    if _unknown_scheme_with_spaces(ctx, content):
        return None  # "<x:y z>": code or markup far more often than a URI
    if depth:
        content = _marker_strip(depth).sub("\n", content)
    spaced = _WS.search(content) is not None
    uri = _WS.sub("", content) if spaced else content
    context = _context(ctx, uri)
    if context is None:
        context = "angle" if strip_prefix(uri) is uri else "url-prefix"
        return Candidate(start, end, context, reason=Reason.NOT_A_URI, consume=False)
    if context == "url-prefix":
        uri = strip_prefix(uri)
    head = SCHEME_HEAD.match(uri)
    if head is None:
        return Candidate(start, end, context, reason=Reason.NO_SCHEME, consume=False)
    scheme = head.group(1).lower()
    if scheme not in ctx.schemes and _XML_NAME.fullmatch(uri):
        return None  # <xs:complexType>, <rpid:self/>: an XML element
    if spaced and scheme == "urn" and context == "angle" and "legacy-urn" in ctx.rules:
        legacy = legacy_urn.wrapped(content, uri, start, end)
        if legacy is not None:
            return legacy
    found, strict = validate_web(ctx, uri, scheme, bare=False)
    if found is not None:
        reason, detail, _ = found
        return Candidate(start, end, context, uri, reason=reason, detail=detail, consume=False)
    alternative = _other_reading(ctx, content, uri, scheme, context) if spaced else None
    kind = "urn" if scheme == "urn" else "uri"
    return Candidate(start, end, context, uri, kind, scheme, alternative, strict=strict)


def _context(ctx: Context, uri: str) -> str | None:
    """The rule that unwraps *uri* (brackets' content without white space): the URL:
    prefix where it starts with one, else the angle rule; None where that one is off."""
    rule = "angle" if strip_prefix(uri) is uri else "url-prefix"
    return rule if rule in ctx.rules else None


def _other_reading(ctx: Context, content: str, uri: str, scheme: str, context: str) -> str | None:
    """Where the white space inside held a hyphen at a line end (Appendix E): the URI
    without that hyphen, if valid."""
    if "hyphen" not in ctx.rules or "-" not in content:
        return None
    alt = _WS.sub("", _HYPHEN_BREAK.sub("", content))
    if context == "url-prefix":
        alt = alt[4:]
    if alt != uri and validate_web(ctx, alt, scheme, bare=False)[0] is None:
        return alt
    return None


def _unknown_scheme_with_spaces(ctx: Context, content: str) -> bool:
    """Whether ``<content>`` starts with an unregistered scheme and holds white space
    (the scheme after ``URL:`` as the head reads it, else "URL")."""
    inner = strip_prefix(content.strip())
    head = SCHEME_HEAD.match(inner)
    return (
        head is not None
        and head.group(1).lower() not in ctx.schemes
        and _WS.search(inner) is not None
    )


# Where a "<" may open a candidate, for the dense modes (the end of the text searched,
# \Z, stands for more text after the scheme's colon). First a word, its colon and no "<"
# before a ">"; then a registered name and something before the ">", or a word that is
# no XML name ("<o:p>", "<w:t/>": markup, dismissed), no white space inside and
# something after its colon.
_XML_LOCAL = r"[A-Za-z_][A-Za-z0-9_.\-]*+/?\s*+>"
_ANGLE_TAIL = (
    r"[ \t\r\n]{{0,64}}+(?:[Uu][Rr][Ll]:[ \t\r\n]{{0,64}}+|)"
    r"(?=[A-Za-z][A-Za-z0-9+.\-]{{0,63}}+:[^<>]*+(?:>|\Z))"
    r"(?:(?:{names}):{after}(?:[^<>]++(?:>|\Z)|\Z)"
    r"|(?![A-Za-z_][A-Za-z0-9_.\-]*+:" + _XML_LOCAL + ")"
    r"{skip}[A-Za-z][A-Za-z0-9+.\-]{{0,63}}+:{after}(?!>)[^<>\s]*+[^\S\n]*+(?:>|\Z))"
)
# For a scanner of hits only: "urn" counts only before what an NID starts with (seed 003
# 2.1), white space and quote markers allowed between (the rule drops them); a name only
# where its colon is not followed by what no URI holds there, white space aside: "//["
# and what starts no IP literal (RFC 3986 3.2.2), "[" or "]" (3.3), "%" without two hex
# digits (2.1). The rule can only reject those, consuming nothing.
_NID_START = r"[\s>]*+(?:\Z|[A-Za-z0-9][\s>]*+(?:\Z|[A-Za-z0-9\-]))"
_HITS_AFTER = r"(?!//\[[^0-9A-Fa-fVv:\s]|[\[\]]|%[0-9A-Fa-f]?[^0-9A-Fa-f\s])"


def fragment(mode: Mode, cfg: Config) -> str:
    """Where the angle rule (and the URL: prefix in brackets) may decide something at a
    "<": sparse, a word and its colon after white space or "URL:"; dense, the shapes
    above; for a scanner of hits only, without what it can only reject."""
    if mode is Mode.SPARSE:
        return angle_sparse("wrapped" in cfg.rules)
    names = [name for name in cfg.schemes if name.isascii()]
    if mode is Mode.DENSE:
        return "<(?=" + _ANGLE_TAIL.format(names=nocase_tree(names), after="", skip="") + ")"
    marked = [name + "\0" if name == "urn" else name for name in names]
    tree = nocase_tree(marked, f"(?=:{_NID_START})")
    return (
        "<(?=" + _ANGLE_TAIL.format(names=tree, after=_HITS_AFTER, skip="(?![Uu][Rr][Nn]:)") + ")"
    )


def nocase_tree(names: list[str], mark: str = "") -> str:
    """A word tree of the ASCII *names* matching either case ("\\0" written as *mark*)."""
    return word_tree(
        names,
        lambda c: f"[{c}{c.upper()}]" if c.isalpha() else mark if c == "\0" else re.escape(c),
    )


def prefix_fragment(mode: Mode, cfg: Config) -> str:
    """The URL: prefix rule's at "<": the angle rule's; where that rule is off, what is
    no ``<URL:...>`` is a rejection to report, markup too: then, but for a scanner of
    hits only, the sparse one."""
    if "angle" not in cfg.rules and mode is Mode.DENSE:
        mode = Mode.SPARSE
    return fragment(mode, cfg)
