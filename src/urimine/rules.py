"""Delimiting rules: what a URI looks like in running text, one function per context.

Each rule looks at a trigger position of a buffer and answers with a
:class:`Candidate`, ``None`` (nothing here) or :data:`Pending` (cannot decide before
more text arrives). The rules are those of "Recommendations for Delimiting URI in
Context" (seed 002 Appendix E; seed 001 Appendix E; RFC 1738 appendix) plus seed 003
section 2.5.3 for URNs and seed 000 section 3.3 for the 1993 URN form.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache

import regex

from urimine.errors import ConfigError, Reason
from urimine.parser import check_uri
from urimine.schemes import AUTHORITY_SCHEMES, EMPTY_HOST_OK, registered_schemes
from urimine.urn import check_legacy_urn, check_urn

__all__ = ["ALL_RULES", "PRESETS", "Candidate", "Config", "Pending", "candidate_at"]

ALL_RULES: tuple[str, ...] = (
    "angle",  # <...> with whitespace inside ignored (Appendix E)
    "url-prefix",  # URL:... and <URL:...> (Appendix E, RFC 1738)
    "quote",  # "..." and '...' (Appendix E; HTML attributes)
    "bare",  # whitespace-delimited, registered schemes only
    "urn",  # urn:NID:NSS in text (seed 003 2.5.3)
    "legacy-urn",  # <URN:enc:scheme:authority:opaque> (seed 000 3.3)
    "hyphen",  # rejoin a URI broken after "-" at a line break (Appendix E)
    "any-scheme",  # also unregistered schemes outside angle brackets
)
PRESETS: dict[str, frozenset[str]] = {
    "strict": frozenset({"angle", "url-prefix", "legacy-urn", "urn"}),
    "default": frozenset(ALL_RULES) - {"any-scheme"},
    "lenient": frozenset(ALL_RULES),
}

LINE_LOOKBEHIND = 512  # how far back the start of a line is looked for (quote markers)
_SCHEME_MAX = 64
_MAX_QUOTE_DEPTH = 8


class _PendingType:
    """Sentinel: the rule cannot decide before more text arrives."""

    _instance: _PendingType | None = None

    def __repr__(self) -> str:
        return "Pending"


Pending = _PendingType()


@dataclass(slots=True)
class Candidate:
    """What a rule found: a URI (``reason`` None) or a rejection, as buffer indices."""

    start: int
    end: int
    context: str
    uri: str = ""
    kind: str = "uri"
    scheme: str = ""
    alternative: str | None = None
    reason: Reason | None = None
    detail: str = ""
    too_long: bool = False
    consume: bool = True
    """Whether scanning resumes after ``end`` (True) or just after the trigger."""


# Characters that end a URI in running text: whitespace, controls, the "excluded"
# US-ASCII characters of seed 001 2.4.3 (< > " { } | \ ^ `), and non-ASCII punctuation
# (general punctuation, CJK symbols and punctuation, full-width and small forms,
# guillemets, mathematical brackets, U+FFFD from undecodable input): issue 2 rule 7.
_STOP = (
    r"\s\x00-\x20\x7f-\x9f<>\"{}|\\^`"
    r"\u00ab\u00bb\u2000-\u206f\u27e6-\u27ef\u2983-\u2998\u2e00-\u2e7f\u3000-\u303f"
    r"\ufe10-\ufe1f\ufe30-\ufe6f\uff00-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65\ufffd"
)
_RUN_CHAR = f"[^{_STOP}]"
_STOP_CHAR = re.compile(f"[{_STOP}]")

# Trigger prefilters for sparse text: each starts with its literal character, so the
# regex engine skips to it at memchr-like speed, then looks around; together they match
# every "<" and ":" that candidate_at could accept (candidate_at answers None for the
# others, so which finder ran never changes a result).
LT_TRIGGER = re.compile(
    r"<(?=[ \t\r\n]{0,64}(?:[Uu][Rr][Ll]:[ \t\r\n]{0,64})?[A-Za-z][A-Za-z0-9+.\-]{0,63}:[^<>])"
)
COLON_TRIGGER = re.compile(rf":(?=[^{_STOP}])(?<=[A-Za-z0-9+.\-]:)")
_SCHEME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+.-")
# A scheme is not glued to a preceding letter ("randomtexthttp:" is not "http:"), but
# may follow a digit or "." / "+" / "-" (".http://x" in running text).
_SCHEME_BACK = re.compile(r"(?<![A-Za-z])[A-Za-z][A-Za-z0-9+.\-]*\Z")
_SCHEME_SEPARATORS = re.compile(r"[0-9+.\-]")
_URL_PREFIX_BACK = re.compile(r"(?<![A-Za-z0-9+.\-])[Uu][Rr][Ll]: ?\Z")
_QUOTE_PREFIX = re.compile(r"(?:[ \t]*>)+")
_LT_HEAD = regex.compile(
    r"<[ \t\r\n]{0,64}(?:[Uu][Rr][Ll]:[ \t\r\n]{0,64})?[A-Za-z][A-Za-z0-9+.\-]{0,63}:(?=[^<>])"
)
_URL_PREFIX = re.compile(r"[Uu][Rr][Ll]:")
_XML_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*:[A-Za-z_][A-Za-z0-9_.\-]*/?")
_SCHEME_HEAD = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")
_WS = re.compile(r"\s+")
_HYPHEN_BREAK = re.compile(r"-[ \t]*\r?\n\s*")
# seed 003 2.1 NID, 2.2 NSS = 1*pchar, 2.3 query, 2.4 fragment; in text the NSS ends
# at a character of the excluded set (2.5.3), which the pchar class leaves out.
_PCHAR = r"(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})"
_QCHAR = r"(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9A-Fa-f]{2})"
_URN_TEXT = re.compile(
    r"[Uu][Rr][Nn]:[A-Za-z0-9][A-Za-z0-9\-]{0,30}[A-Za-z0-9]:"
    rf"{_PCHAR}+(?:\?{_QCHAR}*)?(?:\#{_QCHAR}*)?"
)
# seed 000 3.3: "<URN:" ... ">" with "\" escaping ":", ">", "\" and space.
_LEGACY_SPAN = regex.compile(r"<[Uu][Rr][Nn]:(?:\\[^\r\n]|[^\\>\s]){1,1024}>")
_TRAIL = frozenset(".,;:!?'\"")
_CLOSERS = {")": "(", "]": "[", "}": "{"}
_OPENERS = {"(": ")", "[": "]", "{": "}"}
# A bare URI ends at the first character its grammar does not allow where it stands.
_CUTTABLE = frozenset(
    {
        Reason.ILLEGAL_CHAR,
        Reason.BAD_PERCENT,
        Reason.BAD_PATH,
        Reason.BAD_QUERY,
        Reason.BAD_FRAGMENT,
    }
)


@dataclass(frozen=True, slots=True)
class Config:
    """A compiled rule set: which rules are on, the scheme list and the length bound."""

    rules: frozenset[str]
    max_len: int
    schemes: frozenset[str]
    run: re.Pattern[str] = field(repr=False)
    angle_line: regex.Pattern[str] = field(repr=False)
    dense: re.Pattern[str] = field(repr=False)
    """A C-level prefilter for text dense with triggers: matches every ``<`` and ``:``
    that :func:`candidate_at` could accept (a superset), and few that it cannot."""

    @staticmethod
    def build(rules: Iterable[str] | str, max_len: int, extra_schemes: Iterable[str]) -> Config:
        """Check and compile a rule selection (a preset name or rule names); cached."""
        chosen = rules if isinstance(rules, str) else frozenset(rules)
        return _build(chosen, max_len, frozenset(s.strip().lower() for s in extra_schemes))


@cache
def _build(rules: str | frozenset[str], max_len: int, extra_schemes: frozenset[str]) -> Config:
    if isinstance(rules, str):
        if rules not in PRESETS:
            raise ConfigError(f"unknown preset {rules!r}; presets: {', '.join(PRESETS)}")
        chosen = PRESETS[rules]
    else:
        chosen = rules
        unknown = chosen - set(ALL_RULES)
        if unknown:
            raise ConfigError(f"unknown rule(s) {', '.join(sorted(unknown))}")
    if max_len < 16:
        raise ConfigError("max_candidate_len must be at least 16")
    schemes = registered_schemes() | extra_schemes
    return Config(
        rules=chosen,
        max_len=max_len,
        schemes=frozenset(schemes),
        run=_run_pattern(max_len),
        angle_line=regex.compile(rf"<([^<>\n]{{0,{max_len}}})>"),
        dense=_dense_pattern(min(map(len, schemes)) <= 1 or "any-scheme" in chosen),
    )


@cache
def _run_pattern(max_len: int) -> re.Pattern[str]:
    return re.compile(f"{_RUN_CHAR}{{0,{max_len}}}")


@cache
def _dense_pattern(one_letter_schemes: bool) -> re.Pattern[str]:
    tail = "0" if one_letter_schemes else "1"
    # "<" only when a ">" can close it before the next "<" (or the window ends: the
    # search runs with an end position, where \Z matches): "<http://<http://" is C time.
    # A 1993 URN may hold a raw "<", so "<URN:" always triggers.
    return re.compile(
        r"<(?=[Uu][Rr][Nn]:|[ \t\r\n]{0,64}(?:[Uu][Rr][Ll]:[ \t\r\n]{0,64})?"
        r"[A-Za-z][A-Za-z0-9+.\-]{0,63}:[^<>]++(?:>|\Z))"
        rf"|(?<![A-Za-z])[A-Za-z][A-Za-z0-9+.\-]{{{tail},63}}(?P<colon>:)"
        rf"(?!//[{_STOP}])(?=[^{_STOP}])"
    )


# Look-ahead the dense prefilter needs: it is not used within this distance of the
# end of an unfinished buffer.
DENSE_LOOKAHEAD = 160


@cache
def _angle_multiline(depth: int, max_len: int) -> regex.Pattern[str]:
    """``<...>`` over several lines; continuation lines carry ``depth`` quote markers."""
    if depth == 0:
        # A blank line ends any candidate: wrapped URIs never span paragraphs, and it
        # makes blank lines safe places to split text for parallel scanning.
        return regex.compile(rf"<((?:[^<>\n]|\n(?![ \t\r\f\v]*\n)){{0,{max_len}}}+)>")
    # Atomic and possessive: a space after a marker belongs to the marker, never to the
    # text, so a failing match costs linear time (quoted code full of "<<" once took
    # exponential time here).
    cont = rf"(?>\n[ \t]*(?:>[ \t]?){{{depth}}})(?![ \t]*>)"
    return regex.compile(rf"<((?:[^<>\n]|{cont}){{0,{max_len}}}+)>")


@cache
def _marker_strip(depth: int) -> re.Pattern[str]:
    return re.compile(rf"\n[ \t]*(?:>[ \t]?){{{depth}}}")


@cache
def _hyphen_gap(depth: int) -> regex.Pattern[str]:
    markers = rf"(?:[ \t]*>){{{depth}}}" if depth else ""
    return regex.compile(rf"[ \t]*\r?\n{markers}[ \t]*(?={_RUN_CHAR})")


def quote_depth(buf: str, pos: int) -> int:
    """Number of mail quote markers (``>``) opening the line that holds ``pos``."""
    lo = max(0, pos - LINE_LOOKBEHIND)
    nl = buf.rfind("\n", lo, pos)
    if nl < 0 and lo > 0:
        return 0  # the line start is too far back to know
    m = _QUOTE_PREFIX.match(buf, nl + 1, pos)
    return min(m.group().count(">"), _MAX_QUOTE_DEPTH) if m else 0


def candidate_at(
    cfg: Config, buf: str, i: int, floor: int, final: bool
) -> Candidate | _PendingType | None:
    """Apply the rules at trigger ``buf[i]`` (``<`` or ``:``); ``floor`` bounds look-behind."""
    if buf[i] == "<":
        return _at_angle(cfg, buf, i, final)
    return _at_colon(cfg, buf, i, floor, final)


# ---------------------------------------------------------------------- angle brackets
def _at_angle(cfg: Config, buf: str, i: int, final: bool) -> Candidate | _PendingType | None:
    head = _LT_HEAD.match(buf, i, partial=not final)
    if head is None:
        return None
    if head.partial:
        return Pending
    if "legacy-urn" in cfg.rules and buf[i + 1 : i + 5].lower() == "urn:":
        legacy = _legacy_urn(buf, i, final)
        if legacy is not None:
            return legacy
    if "angle" not in cfg.rules and "url-prefix" not in cfg.rules:
        return None
    m = cfg.angle_line.match(buf, i, partial=not final)
    depth = 0
    if m is None:
        depth = quote_depth(buf, i)
        m = _angle_multiline(depth, cfg.max_len).match(buf, i, partial=not final)
        if m is None:
            return None
    if m.partial:
        return Pending
    return _angle_candidate(cfg, m.group(1), i, m.end(), depth)


def _legacy_urn(buf: str, i: int, final: bool) -> Candidate | _PendingType | None:
    m = _LEGACY_SPAN.match(buf, i, partial=not final)
    if m is None:
        return None
    if m.partial:
        return Pending
    text = m.group()
    if check_legacy_urn(text) is not None:
        return None  # perhaps a modern URN in brackets: let the angle rule decide
    return Candidate(i, m.end(), "legacy-urn", text, "urn-legacy", "urn")


def _angle_candidate(cfg: Config, content: str, start: int, end: int, depth: int) -> Candidate:
    """Unwrap ``<...>`` content: quote markers, whitespace, ``URL:``; then validate."""
    early = _unknown_scheme_with_spaces(cfg, content)
    if early:
        # "<x:y z>" is far more often code or markup than a URI with an unknown scheme.
        return Candidate(start, end, "angle", reason=Reason.UNKNOWN_SCHEME, consume=False)
    if depth:
        content = _marker_strip(depth).sub("\n", content)
    spaced = _WS.search(content) is not None
    alt_source = content
    if spaced and "hyphen" in cfg.rules and "-" in content:
        alt_source = _HYPHEN_BREAK.sub("", content)
    uri = _WS.sub("", content) if spaced else content
    context = "angle"
    prefix = _URL_PREFIX.match(uri)
    if prefix and _SCHEME_HEAD.match(uri, prefix.end()):
        if "url-prefix" not in cfg.rules:
            return Candidate(start, end, "url-prefix", reason=Reason.NOT_A_URI, consume=False)
        uri = uri[prefix.end() :]
        context = "url-prefix"
    elif "angle" not in cfg.rules:
        return Candidate(start, end, context, reason=Reason.NOT_A_URI, consume=False)
    head = _SCHEME_HEAD.match(uri)
    if head is None:
        return Candidate(start, end, context, reason=Reason.NO_SCHEME, consume=False)
    scheme = head.group(1).lower()
    if scheme not in cfg.schemes and _XML_NAME.fullmatch(uri):
        # <xs:complexType>, <rpid:self/>: an XML element, not a URI of an unknown scheme.
        return Candidate(start, end, context, uri, reason=Reason.NOT_A_URI, consume=False)
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
    """Whether ``<content>`` starts with an unregistered scheme and has inner whitespace."""
    inner = content.strip()
    prefix = _URL_PREFIX.match(inner)
    if prefix:
        inner = inner[prefix.end() :].lstrip()
    head = _SCHEME_HEAD.match(inner)
    return (
        head is not None
        and head.group(1).lower() not in cfg.schemes
        and _WS.search(inner) is not None
    )


# ---------------------------------------------------------------------- scheme colon
def _at_colon(
    cfg: Config, buf: str, i: int, floor: int, final: bool
) -> Candidate | _PendingType | None:
    if i == 0 or buf[i - 1] not in _SCHEME_CHARS:
        return None
    if i + 1 == len(buf):
        return None if final else Pending
    if _STOP_CHAR.match(buf, i + 1):
        return None  # "Note: ", "http:" at a line end: nothing follows the colon
    m = _SCHEME_BACK.search(buf, max(floor, i - _SCHEME_MAX), i)
    if m is None:
        return None
    s = m.start()
    scheme = m.group().lower()
    if scheme not in cfg.schemes and "any-scheme" not in cfg.rules:
        # "e.g.http://x": the registered scheme is the tail after the last dot.
        cut = scheme.rfind(".")
        tail = scheme[cut + 1 :]
        if (
            cut < 0
            or not tail[:1].isalpha()
            or _SCHEME_SEPARATORS.search(tail)
            or (tail not in cfg.schemes)
        ):
            return None
        s += cut + 1
        scheme = tail
    context, raw_start, quote = _prefix_context(cfg, buf, s, floor)
    if context is None:
        return None
    if scheme == "urn":
        if "urn" not in cfg.rules:
            return None
        return _urn_text(cfg, buf, s, raw_start, context, quote, final)
    return _bare_uri(cfg, buf, i, s, raw_start, scheme, context, quote, final)


def _prefix_context(cfg: Config, buf: str, s: int, floor: int) -> tuple[str | None, int, str]:
    """What stands just before the scheme: a quote, ``URL:``, or nothing special."""
    if s > floor:
        before = buf[s - 1]
        if before in "\"'" and "quote" in cfg.rules:
            return "quote", s - 1, before
        if before in ": " and "url-prefix" in cfg.rules:
            m = _URL_PREFIX_BACK.search(buf, max(floor, s - 5), s)
            if m is not None:
                return "url-prefix", m.start(), ""
    if "bare" in cfg.rules:
        return "bare", s, ""
    return None, s, ""


def _bare_uri(
    cfg: Config,
    buf: str,
    i: int,
    s: int,
    raw_start: int,
    scheme: str,
    context: str,
    quote: str,
    final: bool,
) -> Candidate | _PendingType | None:
    e = _run_end(cfg, buf, i + 1, final)
    if e < 0:
        return Pending
    if e == i + 3 and buf[i + 1 : e] == "//":
        return None  # "http:// " is not a candidate (as the dense prefilter has it)
    if e - s >= cfg.max_len:
        return Candidate(raw_start, e, context, reason=Reason.TOO_LONG, too_long=True)
    closed = False
    if quote == "'":
        k = buf.find("'", i + 1, e)
        if k >= 0:
            e, closed = k, True
    elif quote == '"':
        closed = e < len(buf) and buf[e] == '"'
    pieces = [buf[s:e]]
    if not closed and "hyphen" in cfg.rules and pieces[0].endswith("-"):
        joined = _hyphen_join(cfg, buf, s, e, final)
        if isinstance(joined, _PendingType):
            return Pending
        if joined is not None:
            pieces, e = joined
    uri = "".join(pieces)
    if closed:
        found = _validate(cfg, uri, scheme, bare=True)
    else:
        uri, found = _delimit(cfg, uri, scheme, buf[s - 1] if s else "", len(pieces) == 1)
        e -= sum(map(len, pieces)) - len(uri)
        if context == "quote":
            context, raw_start = "bare", s
    raw_end = e + 1 if closed else e
    if found is not None:
        reason, detail, _ = found
        return Candidate(
            raw_start, raw_end, context, uri, reason=reason, detail=detail, consume=False
        )
    alternative = None
    trimmed = sum(map(len, pieces)) - len(uri)
    if len(pieces) > 1 and trimmed < len(pieces[-1]):
        alt = "".join(p[:-1] for p in pieces[:-1]) + pieces[-1][: len(pieces[-1]) - trimmed]
        if _validate(cfg, alt, scheme, bare=True) is None:
            alternative = alt
    return Candidate(raw_start, raw_end, context, uri, "uri", scheme, alternative)


def _delimit(
    cfg: Config, uri: str, scheme: str, before: str, can_cut: bool
) -> tuple[str, tuple[Reason, str, int] | None]:
    """Where a bare URI ends (Appendix E): an unbalanced closer of the bracket before
    it, trailing punctuation, and the first character the grammar does not allow.
    Returns the URI and its validation result."""
    closer = _OPENERS.get(before)
    if closer is not None:
        uri = _cut_unbalanced(uri, before, closer)
    uri = _trim(uri, len(scheme) + 1, before)
    found = _validate(cfg, uri, scheme, bare=True)
    for _ in range(3):
        if not can_cut or found is None or found[0] not in _CUTTABLE:
            break
        if found[2] <= len(scheme) + 3:
            break
        uri = _trim(uri[: found[2]], len(scheme) + 1, before)
        found = _validate(cfg, uri, scheme, bare=True)
    return uri, found


def _cut_unbalanced(uri: str, opener: str, closer: str) -> str:
    """``(http://x/a)b``: the URI ends at the first closer with no opener inside it."""
    k = uri.find(closer)
    while k >= 0:
        if uri.count(opener, 0, k) < uri.count(closer, 0, k + 1):
            return uri[:k]
        k = uri.find(closer, k + 1)
    return uri


def _run_end(cfg: Config, buf: str, pos: int, final: bool) -> int:
    """End of the run of URI characters from ``pos``; -1 if the buffer may cut it short."""
    m = cfg.run.match(buf, pos)
    end = m.end() if m else pos
    if not final and end == len(buf) and end - pos < cfg.max_len:
        return -1
    return end


def _hyphen_join(
    cfg: Config, buf: str, s: int, e: int, final: bool
) -> tuple[list[str], int] | _PendingType | None:
    """Join the pieces of a URI broken after a hyphen at line ends (Appendix E)."""
    gap = _hyphen_gap(quote_depth(buf, s))
    pieces = [buf[s:e]]
    total = e - s
    while pieces[-1].endswith("-"):
        g = gap.match(buf, e, partial=not final)
        if g is None:
            break
        if g.partial:
            return Pending
        run_end = _run_end(cfg, buf, g.end(), final)
        if run_end < 0:
            return Pending
        total += run_end - e
        if total >= cfg.max_len:
            break
        pieces.append(buf[g.end() : run_end])
        e = run_end
    return (pieces, e) if len(pieces) > 1 else None


def _trim(uri: str, min_len: int, before: str) -> str:
    """Drop trailing sentence punctuation and unbalanced closing brackets (Appendix E)."""
    n = len(uri)
    while n > min_len:
        c = uri[n - 1]
        if c == "'" and uri.count("'", 0, n) % 2 == 0:
            break  # "blah_'quoted'": the quote closes one inside the URI
        if c in _TRAIL:
            n -= 1
        elif c in _CLOSERS:
            opener = _CLOSERS[c]
            if uri.count(opener, 0, n) < uri.count(c, 0, n):
                n -= 1
            else:
                break
        elif c in "*_" and before == c:
            n -= 1
        else:
            break
    return uri[:n]


def _urn_text(
    cfg: Config, buf: str, s: int, raw_start: int, context: str, quote: str, final: bool
) -> Candidate | _PendingType:
    """``urn:NID:NSS`` in text: the NSS ends at an excluded character (seed 003 2.5.3)."""
    m = _URN_TEXT.match(buf, s, s + cfg.max_len + 1)
    if m is not None and not final and m.end() == len(buf):
        return Pending
    if m is None and not final and len(buf) - s < 48:
        return Pending  # "urn:" + NID (at most 32) + ":" may still be arriving
    if m is None:
        return Candidate(
            raw_start, s + 4, context, buf[s : s + 4], reason=Reason.BAD_NID, consume=False
        )
    e = m.end()
    if e - s >= cfg.max_len:
        return Candidate(raw_start, e, context, reason=Reason.TOO_LONG, too_long=True)
    closed = bool(quote) and e < len(buf) and buf[e] == quote
    uri = buf[s:e]
    if not closed:
        uri = _trim(uri, 4, buf[raw_start - 1] if raw_start else "")
        e = s + len(uri)
        if context == "quote":
            context, raw_start = "bare", s
    found = check_urn(uri)
    if found is not None:
        return Candidate(raw_start, e, context, uri, reason=found[0], consume=False)
    return Candidate(raw_start, e + 1 if closed else e, context, uri, "urn", "urn")


def _validate(cfg: Config, uri: str, scheme: str, *, bare: bool) -> tuple[Reason, str, int] | None:
    """Check a candidate with the RFC 3986 / URN parser; bare text adds scheme rules."""
    rest = uri[len(scheme) + 1 :]
    if not rest or (bare and rest == "//"):
        return Reason.EMPTY, "nothing after the scheme", -1
    if rest[0] == ":":
        # "std::vector", "info::OUTPUT_EDGE": a C++ scope, not a path that starts with ":".
        return Reason.NOT_A_URI, "scheme followed by '::'", -1
    if bare and rest[0] == "/" and rest[1:2] != "/" and scheme not in EMPTY_HOST_OK:
        # "look at:/pub/x": a path-absolute after a scheme is next to unused outside file:.
        return Reason.NOT_A_URI, "scheme:/path without authority", -1
    if bare and scheme in AUTHORITY_SCHEMES:
        if not rest.startswith("//"):
            return Reason.NEEDS_AUTHORITY, f"{scheme}: needs //authority", -1
        if scheme not in EMPTY_HOST_OK and rest[2:3] in ("", "/", "?", "#"):
            return Reason.BAD_HOST, "empty host", -1
    if scheme == "urn":
        if "urn" not in cfg.rules:
            return Reason.NOT_A_URI, "urn rule disabled", -1
        found = check_urn(uri)
    else:
        found = check_uri(uri)
    if found is not None:
        return found[0], f"at {found[1]}", found[1]
    return None
