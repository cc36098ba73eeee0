"""Delimiters written escaped (issue 30 items 7 and 10).

- ``escaped`` at "&": in plain text, ``&lt;...&gt;`` delimits as ``<...>`` does (any
  scheme, on one line) and ``&quot;...&quot;`` as ``"..."`` (a registered scheme), with
  ``&amp;`` inside read as "&": HTML escaped once more, as mail quoting and web archives
  leave it. At "\\": a URI written with JSON's escaped slashes (``https:\\/\\/host\\/p``)
  is read unescaped (RFC 8259 7: ``\\/`` stands for "/").
- ``latex`` at "\\": ``\\url{...}`` and ``\\href{...}{...}`` delimit the URI (the
  braces, balanced one level deep), and LaTeX's escapes inside (``\\# \\% \\& \\_ \\~``)
  stand for their characters.

A URI so found is validated as one in angle brackets; a refused one is a rejection that
consumes nothing (the colon rule may still read the text).
"""

from __future__ import annotations

import re

import regex

from urimine.rules.base import Candidate, Mode, Pending, PendingType, Result, unfinished
from urimine.rules.config import Config
from urimine.rules.context import Context
from urimine.rules.delimit import trim
from urimine.rules.patterns import SCHEME_CHAR, SCHEME_CHARS
from urimine.rules.webchars import validate_web

NEEDLES: dict[str, tuple[str, ...]] = {"&": ("&lt;", "&quot;"), "\\": ("\\/", "\\url{", "\\href{")}
"""What every fragment of these rules starts with, at each of their trigger characters
(which text rarely holds): the trigger finder looks for these with ``str.find``."""

__all__ = [
    "NEEDLES",
    "at_ampersand",
    "at_backslash",
    "fragment_ampersand",
    "fragment_json",
    "fragment_latex",
]

_SCHEME = rf"[A-Za-z][{SCHEME_CHAR}]{{0,63}}"
_ENTITY_BODY = r"(?:[^\s<>\"&]|&amp;)*+"
_ENTITY_SOURCE = (
    rf"&(?:lt;[ \t]{{0,64}}+(?P<url>[Uu][Rr][Ll]:[ \t]{{0,64}}+)?"
    rf"(?P<angle>{_SCHEME}:{_ENTITY_BODY})&gt;"
    rf"|quot;(?P<quote>{_SCHEME}:{_ENTITY_BODY})&quot;)"
)
_ENTITY = re.compile(_ENTITY_SOURCE)
_XML_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*:[A-Za-z_][A-Za-z0-9_.\-]*/?")
_ENTITY_PARTIAL = regex.compile(_ENTITY_SOURCE)

# LaTeX: the argument holds no white space nor brace but a group one level deep.
_LATEX_SOURCE = r"\\(?:url|href)\{(?P<latex>(?:[^{}\s\\]|\\[#%&_~$]|\{[^{}\s\\]*+\})*+)\}"
_LATEX = re.compile(_LATEX_SOURCE)
_LATEX_PARTIAL = regex.compile(_LATEX_SOURCE)
_LATEX_ESCAPE = re.compile(r"\\([#%&_~$])")

# JSON: after "scheme:", "\/" then URI characters and more "\/" (no quote, no other
# escape: a string's value ends there).
_JSON_SOURCE = r"(?:\\/)(?:\\/|[^\s\"\\<>`{}|^])*+"
_JSON = re.compile(_JSON_SOURCE)
_JSON_PARTIAL = regex.compile(_JSON_SOURCE)
_SCHEME_RE = re.compile(_SCHEME)
_SCHEME_BACK = regex.compile(rf"(?<![{SCHEME_CHAR}]){_SCHEME}:\Z", regex.REVERSE)


def _match(
    pattern: re.Pattern[str], partial: regex.Pattern[str], buf: str, i: int, limit: int, final: bool
) -> re.Match[str] | regex.Match[str] | PendingType | None:
    """*pattern* at ``i`` within ``limit`` characters (the length bound keeps the work
    per trigger bounded), or Pending where more text could still make it match."""
    end = i + limit
    m = pattern.match(buf, i, end)
    if m is not None or final or end <= len(buf):
        return m
    return unfinished(partial, buf, i)


def at_ampersand(ctx: Context, buf: str, i: int, last_end: int, final: bool) -> Result:
    """``&lt;...&gt;`` and ``&quot;...&quot;`` at the "&" at ``i``."""
    if "escaped" not in ctx.rules:
        return None
    m = _match(_ENTITY, _ENTITY_PARTIAL, buf, i, ctx.max_len + 200, final)
    if m is None or isinstance(m, PendingType):
        return m
    if m.end() - i > ctx.max_len:
        return None
    angle = m.group("angle")
    uri = (angle if angle is not None else m.group("quote")).replace("&amp;", "&")
    scheme = uri[: uri.index(":")].lower()
    if scheme not in ctx.schemes and (angle is None or _XML_NAME.fullmatch(uri)):
        return None  # (&lt;xs:element&gt;: escaped XML, as angle brackets read it)
    context = "quote" if angle is None else "url-prefix" if m.group("url") else "angle"
    return _candidate(ctx, i, m.end(), context, uri, scheme)


def at_backslash(ctx: Context, buf: str, i: int, last_end: int, final: bool) -> Result:
    """``\\url{...}``, ``\\href{...}`` and JSON's escaped slashes at the "\\" at ``i``."""
    if buf.startswith("/", i + 1):
        return _json(ctx, buf, i, last_end, final) if "escaped" in ctx.rules else None
    if "latex" not in ctx.rules:
        return None
    m = _match(_LATEX, _LATEX_PARTIAL, buf, i, ctx.max_len + 16, final)
    if m is None or isinstance(m, PendingType):
        return m
    arg = m.group("latex")
    colon = arg.find(":")
    if len(arg) > ctx.max_len or colon < 1 or _SCHEME_RE.fullmatch(arg, 0, colon) is None:
        return None
    uri = _LATEX_ESCAPE.sub(r"\1", arg)
    return _candidate(ctx, i, m.end(), "latex", uri, uri[:colon].lower())


def _json(ctx: Context, buf: str, i: int, last_end: int, final: bool) -> Result:
    """A URI whose slashes JSON escaped: ``scheme:`` right before ``\\/`` at ``i``."""
    if i < 2 or buf[i - 1] != ":":
        return None
    lo = max(last_end, i - 65)
    head = _SCHEME_BACK.search(buf, lo, i)
    if head is None or (head.start() > lo and buf[head.start() - 1] in SCHEME_CHARS):
        return None
    m = _match(_JSON, _JSON_PARTIAL, buf, i, ctx.max_len + 2, final)
    if m is None or isinstance(m, PendingType) or m.end() - head.start() > ctx.max_len:
        return None if not isinstance(m, PendingType) else m
    if not final and m.end() >= len(buf) - 1:
        return Pending  # (the run may go on)
    scheme = head.group()[:-1].lower()
    if scheme not in ctx.schemes and "slashed" not in ctx.rules:
        return None
    written = buf[head.start() : m.end()]
    uri = trim(written.replace("\\/", "/"), len(scheme) + 1, "")
    end = m.end() - (len(written.replace("\\/", "/")) - len(uri))
    return _candidate(ctx, head.start(), end, "bare", uri, scheme)


def _candidate(ctx: Context, start: int, end: int, context: str, uri: str, scheme: str) -> Result:
    found, strict = validate_web(ctx, uri, scheme, bare=False)
    if found is not None:
        return Candidate(start, end, context, uri, reason=found[0], detail=found[1], consume=False)
    kind = "urn" if scheme == "urn" else "uri"
    return Candidate(start, end, context, uri, kind, scheme, strict=strict)


def fragment_ampersand(mode: Mode, cfg: Config) -> str:
    """Where the escaped rule may decide at "&": an entity of a delimiter, then a
    scheme's first letter (in every mode)."""
    return (
        r"&(?:lt;[ \t]{0,64}+(?:[Uu][Rr][Ll]:[ \t]{0,64}+)?|quot;)"
        rf"(?={_SCHEME}:)"
    )


def fragment_json(mode: Mode, cfg: Config) -> str:
    """Where the escaped rule may decide at "\\": an escaped slash right after a colon."""
    return r"\\(?=/)(?<=:\\)"


def fragment_latex(mode: Mode, cfg: Config) -> str:
    """Where the latex rule may decide at "\\": ``\\url{`` and ``\\href{``."""
    return r"\\(?=(?:url|href)\{)"
