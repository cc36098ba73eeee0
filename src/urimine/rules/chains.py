"""Hyphen chains (RFC 3986 Appendix C: a URI broken after a hyphen at line ends): the
line breaks a chain is made of, and a chain matched once for every candidate that runs
into it.

A candidate whose run ends in "-" at a line end is joined to the runs on the lines after
it. Where every line of a long stretch ends in "-" and the lines hold many colons, each
candidate's chain is most of the same text; kept, with its breaks and its runs joined,
a later candidate whose first run ends at one of its breaks reads its chain from it by
a binary search and one slice.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from functools import cache
from typing import NamedTuple

from urimine.rules.context import Context
from urimine.rules.patterns import RUN_CHAR

__all__ = ["break_source", "chain_end", "gap_source", "hyphen_gap", "join_breaks", "joined"]


def break_source(depth: int) -> str:
    """A line break with its blanks, and *depth* mail quote markers on the next line."""
    markers = rf"(?:[ \t]*>){{{depth}}}" if depth else ""
    return rf"[ \t]*\r?\n{markers}[ \t]*"


def gap_source(depth: int) -> str:
    """A line break after a hyphen (:func:`break_source`), up to the run of URI characters
    that goes on there."""
    return rf"{break_source(depth)}(?={RUN_CHAR})"


@cache
def hyphen_gap(depth: int) -> re.Pattern[str]:
    """:func:`gap_source`, compiled by ``re`` (``regex`` would first look for a character
    it needs up to the end of the text, at each URI ending in "-")."""
    return re.compile(gap_source(depth))


@cache
def _hyphen_chain(depth: int) -> re.Pattern[str]:
    """From the end of a piece that ends in "-": while the last piece does, a gap and the
    next run of URI characters, in one match."""
    return re.compile(rf"(?:(?<=-){gap_source(depth)}{RUN_CHAR}*+)*+")


@cache
def _hyphen_breaks(depth: int, hyphen: bool) -> re.Pattern[str]:
    """The line breaks of a chain; with *hyphen*, each with the hyphen before it."""
    gap = gap_source(depth)
    return re.compile(rf"-{gap}" if hyphen else rf"(?<=-){gap}")


def join_breaks(chain: str, depth: int, hyphen: bool) -> str:
    """A hyphen *chain* with its line breaks cut out (the pieces joined); with *hyphen*,
    each piece also without the hyphen before its break (Appendix E's other reading)."""
    if not depth and " " not in chain and "\t" not in chain:
        # (each break is "-" then "\n" or "\r\n": a run holds no "\r" nor "\n")
        if hyphen:
            return chain.replace("-\r\n", "").replace("-\n", "")
        return chain.replace("\r\n", "").replace("\n", "")
    return _hyphen_breaks(depth, hyphen).sub("", chain)


class Chain(NamedTuple):
    """A hyphen chain matched from ``start`` (the end of a run that ends in "-") with the
    end position ``limit``: it ended at ``end``. ``gap_starts``/``gap_ends``: its breaks
    in order; ``joined``: the runs after them, concatenated (the chain without its
    breaks); ``offsets[k]``: where the run after break *k* starts in ``joined``."""

    buf: str
    depth: int
    start: int
    limit: int
    end: int
    gap_starts: list[int]
    gap_ends: list[int]
    joined: str
    offsets: list[int]


class Matched(NamedTuple):
    """A chain matched from ``start`` without its breaks: it went as far as ``end``."""

    buf: str
    start: int
    end: int


def _with_breaks(buf: str, start: int, limit: int, depth: int) -> Chain:
    """The chain from *start* matched with the end position *limit*, its breaks found
    and its runs joined."""
    end = _hyphen_chain(depth).match(buf, start, limit).end()  # type: ignore[union-attr]
    starts: list[int] = []
    ends: list[int] = []
    for m in _hyphen_breaks(depth, False).finditer(buf, start, end):
        starts.append(m.start())
        ends.append(m.end())
    # The run after each break ends where the next break starts, the last at the end.
    runs = [buf[ends[k] : starts[k + 1]] for k in range(len(starts) - 1)]
    if ends:
        runs.append(buf[ends[-1] : end])
    offsets = []
    total = 0
    for run in runs:
        offsets.append(total)
        total += len(run)
    return Chain(buf, depth, start, limit, end, starts, ends, "".join(runs), offsets)


def _index(chain: Chain | Matched | None, buf: str, e: int, stop: int, depth: int) -> int:
    """The index of the break at *e* in *chain* (its number of breaks if the chain
    ended at *e*), or -1 when *chain* cannot tell what the match from *e* with the end
    position *stop* is: another text or depth, *e* not one of its run ends, or *stop*
    past its limit."""
    if (
        not isinstance(chain, Chain)
        or chain.buf is not buf
        or chain.depth != depth
        or stop > chain.limit
    ):
        return -1
    starts = chain.gap_starts
    k = bisect_left(starts, e)
    if k < len(starts) and starts[k] == e:
        return k
    if e == chain.end:  # (after every break: a run follows each)
        return len(starts)
    return -1


def _run_after(chain: Chain, k: int) -> int:
    """Where the run after break *k* of *chain* ends: the next break, or the chain's end."""
    starts = chain.gap_starts
    return starts[k + 1] if k + 1 < len(starts) else chain.end


def chain_end(ctx: Context, buf: str, e: int, stop: int, depth: int) -> int:
    """Where :func:`_hyphen_chain` (*depth*) matched at *e* with the end position *stop*
    ends. The chain's possessive loop takes the same breaks and runs from any of its
    run ends, and an end position only cuts it short: a break whose gap and the
    character its look-ahead reads do not fit before *stop* is not taken, and a run is
    cut at *stop*."""
    chain = ctx.memo.chain
    if not ctx.kept:
        return _hyphen_chain(depth).match(buf, e, stop).end()  # type: ignore[union-attr]
    k = _index(chain, buf, e, stop, depth)
    if k < 0:
        # Not known. A candidate whose first run ends inside the chain matched last
        # reads it again: the chain is matched with its breaks, far enough ahead for
        # those after it too. Otherwise just what this candidate needs (one match, and
        # where it went: a chain read once, the common case, costs what it did).
        if chain is None or chain.buf is not buf or not chain.start < e < chain.end:
            end: int = _hyphen_chain(depth).match(buf, e, stop).end()  # type: ignore[union-attr]
            ctx.memo.chain = Matched(buf, e, end)
            return end
        limit = min(e + 2 * ctx.max_len, len(buf))
        chain = ctx.memo.chain = _with_breaks(buf, e, limit, depth)
        k = 0
    assert isinstance(chain, Chain)
    last = bisect_left(chain.gap_ends, stop, k) - 1  # the last break whose gap ends before stop
    if last < k:
        return e
    run_end = _run_after(chain, last)
    return run_end if run_end < stop else stop


def joined(ctx: Context, buf: str, s: int, e: int, end: int, depth: int) -> str:
    """``join_breaks(buf[s:end], depth, False)`` for a chain from *e* (the end of the run
    that starts at *s*) to *end* (a run end in it), read from the chain
    :func:`chain_end` last matched when it holds it."""
    chain = ctx.memo.chain
    k = _index(chain, buf, e, end, depth)
    if isinstance(chain, Chain) and 0 <= k < len(chain.gap_starts):
        ends = chain.gap_ends
        last = bisect_left(ends, end, k) - 1  # the break before the run that ends at end
        if last >= k and end == _run_after(chain, last):
            stop = chain.offsets[last] + end - ends[last]
            return buf[s:e] + chain.joined[chain.offsets[k] : stop]
    return join_breaks(buf[s:end], depth, False)
