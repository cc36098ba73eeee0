"""The hyphen at a line break (RFC 3986 Appendix C): "a URI broken after a hyphen at the
end of a line may or may not have had the hyphen inserted": the pieces are joined (the
``uri``), and the reading without the hyphens is the ``alternative``. Used by the bare
URI and URN rules, for URIs and URNs in text."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

import regex

from urimine.parser import could_start_uri
from urimine.rules.base import Pending, PendingType, unfinished
from urimine.rules.chains import chain_end, gap_source, hyphen_gap, join_breaks, joined
from urimine.rules.context import Context
from urimine.rules.delimit import quote_depth, run_end, scheme_refusal
from urimine.rules.patterns import (
    NSS_CHAR,
    PLAIN_HOST_CHAR,
    QCHAR,
    RUN_STOP,
    SCHEME_CHARS,
    SCHEME_MAX,
)
from urimine.rules.slashed import slashes_follow
from urimine.rules.webchars import lax_form
from urimine.urn import check_urn

__all__ = ["FRUITLESS_HOST", "joins_no_hit", "other_reading", "pieces", "uri_join", "urn_join"]

GAP_TO_END = re.compile(r"[ \t\r\n>]*+\Z")
"""What a gap may hold up to the end of the text: only then can more text complete it."""
URN_CHAIN_PENDING = re.compile(r"[ \t\r\n>]*+(?:%[0-9A-Fa-f]?)?\Z")
"""After a URN's pieces that end in "-" in an unfinished text: more text may add one."""
FRUITLESS_HOST = (
    rf"//(?:[{PLAIN_HOST_CHAR}]|-(?:[ \t]*+\r?\n[ \t>]*+(?=[{PLAIN_HOST_CHAR}\-]))?)*+(?<=-)"
    rf"(?=[ \t]++\S|[ \t]*+\r[^\n]|[ \t]*+\r?\n[ \t>]*+[{RUN_STOP}])"
)
"""After a scheme's colon: "//", then a host (no userinfo, port, escape or IP literal)
broken only after hyphens at line ends (at any quote depth), which ends in "-" where
no line that follows can go on with it (white space, then on the same line more text,
or a next line that starts no run). Every reading the hyphen rule can join, and the
URI alone, then has a host ending in "-", which no DNS name does (RFC 1123 2.1,
:mod:`urimine.rules.dns_names`): in bare text that is a rejection consuming nothing."""


@cache
def _gap_partial(depth: int) -> regex.Pattern[str]:
    return regex.compile(gap_source(depth))


@cache
def _urn_chain(depth: int, component: int) -> re.Pattern[str]:
    """From the end of a URN's first piece that ends in "-": the pieces after it, each
    going on with the component the one before ended in (seed 003 2.5.3; *component* 0
    the NSS's characters, 1 the query after "?", 2 the fragment after "#")."""
    gap = gap_source(depth)
    pieces = rf"(?:(?<=-){gap}(?={NSS_CHAR}){NSS_CHAR}*+)*+"
    q_pieces = rf"(?:(?<=-){gap}(?={QCHAR}){QCHAR}*+)*+"
    fragment = rf"(?:\#{QCHAR}*+{q_pieces})?"
    if component == 2:
        return re.compile(q_pieces)
    if component == 1:
        return re.compile(q_pieces + fragment)
    return re.compile(rf"{pieces}(?:\?{QCHAR}*+{q_pieces})?{fragment}")


Join = Callable[[Context, str, int, int, bool, int], "tuple[str, str, int] | PendingType | None"]


def pieces(
    ctx: Context, buf: str, s: int, e: int, final: bool, join: Join
) -> tuple[str, str, int, int] | PendingType:
    """The candidate ``buf[s:e]`` with what *join* adds after a hyphen at a line end where
    the hyphen rule is on: the pieces joined, the last piece ("": none added), where it
    ends, and the quote markers after each break."""
    if "hyphen" not in ctx.rules or buf[e - 1] != "-":
        return buf[s:e], "", e, 0
    depth = quote_depth(buf, s)
    found = join(ctx, buf, s, e, final, depth)
    if found is None:
        return buf[s:e], "", e, depth
    if isinstance(found, PendingType):
        return found
    return (*found, depth)


def uri_join(
    ctx: Context, buf: str, s: int, e: int, final: bool, depth: int
) -> tuple[str, str, int] | PendingType | None:
    """Join the pieces of a URI broken after hyphens at line ends, the first ``buf[s:e]``:
    the pieces joined, the last piece, and where it ends (None: nothing joined). The
    chain is matched at once, short of the length bound and of the end of the text; the
    loop takes the last step with every check (the bound, text still to come)."""
    gap = hyphen_gap(depth)
    first_end = last_start = e
    stop = min(s + ctx.max_len - 1, len(buf))
    end = chain_end(ctx, buf, e, stop, depth)
    if end > e:
        start = _piece_start(buf, first_end, end, gap)
        if end < stop:
            last_start, e = start, end
        elif start > first_end:  # given back: the piece before it is the last
            e, last_start = _piece_before(buf, first_end, start, gap)
    while buf[e - 1] == "-":
        g = gap.match(buf, e)
        if g is None:
            if (
                not final
                and GAP_TO_END.match(buf, e) is not None
                and unfinished(_gap_partial(depth), buf, e) is Pending
            ):
                return Pending
            break
        after = run_end(ctx, buf, g.end(), final)
        if after < 0:
            return Pending
        if after - s >= ctx.max_len:
            break
        last_start, e = g.end(), after
    if last_start == first_end:
        return None
    return joined(ctx, buf, s, first_end, e, depth), buf[last_start:e], e


def urn_join(
    ctx: Context, buf: str, s: int, e: int, final: bool, depth: int
) -> tuple[str, str, int] | PendingType | None:
    """:func:`uri_join` for a URN in text (a URN is a URI), its pieces by seed 003's
    components; a piece that reaches the length bound is not joined."""
    first = buf[s:e]
    component = 2 if "#" in first else 1 if "?" in first else 0
    chain = _urn_chain(depth, component).match(buf, e, s + ctx.max_len + 3)
    assert chain is not None  # (it matches the empty string)
    end = chain.end()
    if not final:
        rest = len(buf) - end
        if (
            rest == 0
            or (buf[end - 1] == "-" and URN_CHAIN_PENDING.match(buf, end) is not None)
            or (rest <= 2 and buf[end] == "%")
        ):
            return Pending  # more text could add a piece or extend the last
    gap = hyphen_gap(depth)
    start = _piece_start(buf, e, end, gap)
    if end - s >= ctx.max_len:  # the last piece reaches the bound: the one before is last
        end, start = _piece_before(buf, e, start, gap)
    if end == e:
        return None
    return join_breaks(buf[s:end], depth, False), buf[start:end], end


def other_reading(buf: str, s: int, e: int, trimmed: int, last: str, depth: int) -> str | None:
    """Appendix E's other reading of a candidate joined at hyphens, from ``s`` to ``e``
    with *trimmed* characters of its *last* piece left out: the hyphens were the line's,
    not the URI's. None where nothing was joined or the last piece was trimmed away."""
    if not last or trimmed >= len(last):
        return None
    other = join_breaks(buf[s : e + trimmed], depth, True)
    return other[: len(other) - trimmed]


def _piece_start(buf: str, first_end: int, end: int, gap: re.Pattern[str]) -> int:
    """Where the piece of a chain that ends at *end* starts: after the break before it
    (*first_end*, the first piece's end, where there is none)."""
    nl = buf.rfind("\n", first_end, end)
    if nl < 0:
        return first_end
    k = nl
    while buf[k - 1] in " \t\r":
        k -= 1
    found = gap.match(buf, k)
    assert found is not None  # (the chain matched this break)
    return found.end()


def _piece_before(buf: str, first_end: int, start: int, gap: re.Pattern[str]) -> tuple[int, int]:
    """The piece before the one that starts at *start*: where it ends and starts."""
    end = buf.rindex("-", first_end - 1, start) + 1
    return end, _piece_start(buf, first_end, end, gap)


def joins_no_hit(ctx: Context, word: str) -> bool:
    """Whether every candidate in *word* (which ends in "-") that the hyphen rule could
    join to the lines after it is rejected whatever they hold: from each scheme a colon's
    rules could take, the rest starts no URI the scheme's rules take in bare text, or
    is a URN whose first piece its check rejects. A joined candidate is never cut inside
    its first piece, so the word leaps may decide such a word alone."""
    colon = word.find(":")
    while colon >= 0:
        j = colon - 1
        while j >= 0 and colon - j <= SCHEME_MAX and word[j] in SCHEME_CHARS:
            if word[j].isalpha() and _may_join(ctx, word, j, colon):
                return False
            j -= 1
        if ctx.labels and _label_may_hide(ctx, word, colon):
            return False
        colon = word.find(":", colon + 1)
    return True


def _label_may_hide(ctx: Context, word: str, colon: int) -> bool:
    """Whether the candidate at *colon* may be a label alone (the labels rule: its
    rejection takes its text, so no trigger in it is asked) and a trigger follows in
    the word: joined, the same candidate cannot be cut short, so it is rejected for its
    grammar and takes nothing, and that trigger is asked."""
    from urimine.rules.table import sites  # (the table imports this module)

    if word.startswith("//", colon + 1):
        return False  # (no label holds "//")
    triggers = sites(ctx.cfg)
    return any(c in triggers for c in word[colon + 1 :])


def _may_join(ctx: Context, word: str, j: int, colon: int) -> bool:
    """Whether the scheme ``word[j:colon]`` may start a candidate the hyphen rule joins
    to a hit (or to a label, whose rejection takes the lines joined with it): the web
    characters a hit may hold (the web-chars rule) read as the grammar's."""
    scheme = word[j:colon].lower()
    if scheme == "urn":
        return check_urn(word[j:]) is None
    return (
        (
            ctx.any_scheme
            or scheme in ctx.schemes
            or (ctx.slashed and slashes_follow(word, colon, final=True))  # "e.g.foo://"
        )
        and scheme_refusal(word[colon + 1 :], scheme, bare=True) is None
        and could_start_uri(lax_form(word[j:], colon - j) if ctx.web_chars else word[j:])
    )
