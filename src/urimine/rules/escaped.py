"""Delimiters written escaped (issue 30 items 7 and 10), read at the scheme's colon as
the quote and ``URL:`` contexts are (what stands right before the scheme):

- ``escaped``: in plain text, ``&lt;...&gt;`` delimits as ``<...>`` does and
  ``&quot;...&quot;`` as ``"..."``, with ``&amp;`` inside read as "&" (HTML escaped once
  more, as mail quoting and web archives leave it); a URI written with JSON's escaped
  slashes (``https:\\/\\/host\\/p``) is read unescaped (RFC 8259 7: ``\\/`` is "/").
- ``latex``: ``\\url{...}`` and ``\\href{...}{...}`` delimit the URI (the braces,
  balanced one level deep), and LaTeX's escapes inside (``\\# \\% \\& \\_ \\~``) stand for
  their characters.

On one line, no white space inside; a scheme the colon rule takes (registered, or by
the slashed rule). Where the closing delimiter is not there, the colon rule reads the
URI as bare text. (Decided at the colon, not at triggers of their own: a trigger
character text rarely holds costs a pass over the whole text.)
"""

from __future__ import annotations

import re

import regex

from urimine.fast.memos import Kept
from urimine.rules import bare
from urimine.rules.base import (
    Candidate,
    ColonFragment,
    Mode,
    Pending,
    PendingType,
    Result,
    unfinished,
)
from urimine.rules.config import Config
from urimine.rules.context import Context
from urimine.rules.delimit import trim
from urimine.rules.patterns import SCHEME_CHAR, by_length
from urimine.rules.webchars import validate_web

__all__ = ["before_scheme", "fragment", "json_at", "latex_fragment", "uri_in"]

_OPENERS = (("&lt;", "angle"), ("&quot;", "quote"), ("\\url{", "latex"), ("\\href{", "latex"))
# White space as ``re`` reads "\s" (``str.isspace``), which ``regex`` does not for the
# separators U+001C-U+001F: both engines must read each pattern alike.
_SPACE = r"\s\x1c-\x1f"
_BODY = rf"(?:[^{_SPACE}<>\"&]|&amp;)*+"
_LATEX_BODY = rf"(?:[^{{}}{_SPACE}\\]|\\[#%&_~$]|\{{[^{{}}{_SPACE}\\]*+\}})*+"
_SCHEME = r"[A-Za-z][A-Za-z0-9+.\-]{0,63}:"
_CLOSED = {
    "&lt;": _SCHEME + _BODY + "&gt;",
    "&quot;": _SCHEME + _BODY + "&quot;",
    "\\url{": _SCHEME + _LATEX_BODY + r"\}",
    "\\href{": _SCHEME + _LATEX_BODY + r"\}",
}
_PATTERNS = {k: (re.compile(v), regex.compile(v)) for k, v in _CLOSED.items()}
_LATEX_ESCAPE = re.compile(r"\\([#%&_~$])")
# JSON: "\/\/" (an authority's slashes, as the colon fragments want them) then URI characters
# and more "\/" (no quote, no other escape).
_JSON_CHARS = rf"(?:\\/|[^{_SPACE}\"\\<>`{{}}|^])*+"
_JSON = re.compile(r"(?:\\/\\/)" + _JSON_CHARS)
_JSON_PARTIAL = regex.compile(_JSON.pattern)
_JSON_RUN = re.compile(_JSON_CHARS).match


BEFORE = ";{"
"""The characters before a scheme :func:`before_scheme` reads (the end of "&lt;" or
"&quot;", LaTeX's "{")."""


def fragment(mode: Mode, cfg: Config) -> str | list[ColonFragment]:
    """Where the escaped rule may decide at a colon: where the bare rule may (the URI
    read bare where no closer comes, JSON's escaped slashes); for a scanner of hits
    only, also at any name's colon right after "&lt;", inside which a scheme needs no
    "//" (as inside "<...>"). ("&quot;" checks its URI as the quote rule does.)"""
    return _with_openers(mode, cfg, "angle")


def latex_fragment(mode: Mode, cfg: Config) -> str | list[ColonFragment]:
    """:func:`fragment` for the LaTeX rule: at any name's colon right after "\\url{"
    or "\\href{"."""
    return _with_openers(mode, cfg, "latex")


def _with_openers(mode: Mode, cfg: Config, context: str) -> str | list[ColonFragment]:
    """The bare rule's fragment, and the colon of any name right after an opener of
    *context* (whose URI is checked as inside brackets)."""
    found = bare.fragment(mode, cfg)
    if mode is not Mode.DENSE_HITS or isinstance(found, str):
        return found
    openers = tuple(opener for opener, of in _OPENERS if of == context)
    return [
        *found,
        *(
            ColonFragment(names, _after_opener(openers, size), before=openers)
            for size, names in by_length(cfg.schemes).items()
        ),
    ]


def _after_opener(openers: tuple[str, ...], size: int) -> str:
    """At the colon of a scheme *size* long, one of *openers* right before the scheme."""
    scheme = rf"[A-Za-z][{SCHEME_CHAR}]{{{size - 1}}}:"
    return ":(?:" + "|".join(f"(?<={re.escape(o)}{scheme})" for o in openers) + ")"


def before_scheme(ctx: Context, buf: str, s: int, last_end: int) -> tuple[str, int, str] | None:
    """``(context, raw start, opener)`` where an escaped opener stands right before the
    scheme at ``s`` (after the last candidate) and its rule is on."""
    if s <= last_end or buf[s - 1] not in BEFORE:
        return None
    for opener, context in _OPENERS:
        start = s - len(opener)
        if start >= last_end and buf.startswith(opener, start):
            rule = "latex" if context == "latex" else "escaped"
            return (context, start, opener) if rule in ctx.rules else None
    return None


def uri_in(
    ctx: Context,
    buf: str,
    s: int,
    raw_start: int,
    scheme: str,
    context: str,
    opener: str,
    final: bool,
) -> Result:
    """The URI of *scheme* written from ``s`` inside the escaped *opener* at
    ``raw_start``; None where it does not close on its line (the colon rule then reads
    it bare), Pending where the text may still close it."""
    pattern, partial = _PATTERNS[opener]
    end = s + ctx.max_len + 8
    m = pattern.match(buf, s, end)
    if m is None:
        if final or end <= len(buf):
            return None
        late = unfinished(partial, buf, s)
        if late is None or isinstance(late, PendingType):
            return late
        m = late
    closer = "}" if context == "latex" else "&gt;" if opener == "&lt;" else "&quot;"
    written = buf[s : m.end() - len(closer)]
    latex = context == "latex"
    uri = _LATEX_ESCAPE.sub(r"\1", written) if latex else written.replace("&amp;", "&")
    return _candidate(ctx, raw_start, m.end(), context, uri, scheme)


def json_at(ctx: Context, buf: str, i: int, s: int, scheme: str, final: bool) -> Result:
    """A URI whose slashes JSON escaped, ``\\/`` right after the colon ``i``."""
    stop = s + ctx.max_len + 2
    if ctx.kept and i + 5 <= stop and buf.startswith("\\/\\/", i + 1):
        end = _json_run_end(ctx, buf, i + 5)
    else:
        m = _JSON.match(buf, i + 1, stop)
        if m is None:
            if final or len(buf) > i + 4:
                return None  # (more text cannot make "\\/\\/" of what is there)
            return None if unfinished(_JSON_PARTIAL, buf, i + 1) is None else Pending
        end = m.end()
    if end - s > ctx.max_len:
        return None
    if not final and end >= len(buf) - 1:
        return Pending  # (the run may go on)
    written = buf[s:end]
    plain = written.replace("\\/", "/")
    uri = trim(plain, len(scheme) + 1, buf[s - 1] if s else "")
    return _candidate(ctx, s, end - (len(plain) - len(uri)), "bare", uri, scheme)


def _json_run_end(ctx: Context, buf: str, pos: int) -> int:
    """Where the run of a JSON-escaped URI's characters from *pos* ends, read once a run
    and kept (``Speed.kept``): the run ends there wherever in it it is read from, and a
    text of such runs without white space would read each again at every colon in it."""
    known = ctx.memo.json
    end = -1 if known is None else known.end_for(buf, pos)
    if end < 0:
        end = _JSON_RUN(buf, pos).end()  # type: ignore[union-attr]
        ctx.memo.json = Kept(buf, pos, end + 1, end)
    return end


def _candidate(ctx: Context, start: int, end: int, context: str, uri: str, scheme: str) -> Result:
    # (bare text's checks in quotes, as the quote rule makes them; none inside brackets)
    found, strict = validate_web(ctx, uri, scheme, bare=context in ("quote", "bare"))
    if found is not None:
        return Candidate(start, end, context, uri, reason=found[0], detail=found[1], consume=False)
    kind = "urn" if scheme == "urn" else "uri"
    return Candidate(start, end, context, uri, kind, scheme, strict=strict)
