"""Hyphen chains (seed 002 Appendix E: a URI broken after a hyphen at line ends), matched
once for every candidate that runs into the same one.

A candidate whose run ends in "-" at a line end is joined to the runs on the lines
after it, up to the length bound (:func:`rules.bare._hyphen_join`). Where every line of
a long stretch ends in "-" (quoted ``-`` lines, runs of broken words) and the lines hold
many colons, each candidate's chain is most of the same text: matched and joined
afresh, each cost the length bound (8 KB) of work, some 0.1 MB/s. Here a chain is
matched once, with its breaks (where each gap of :func:`_hyphen_gap` starts and ends)
and its runs joined; a later candidate whose first run ends at one of its breaks reads
its own chain from them, in the time of a binary search and one slice.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import NamedTuple

from urimine.rules import Config, _hyphen_breaks, _hyphen_chain, join_breaks


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


def chain_end(cfg: Config, buf: str, e: int, stop: int, depth: int) -> int:
    """Where :func:`_hyphen_chain` (*depth*) matched at *e* with the end position *stop*
    ends. The chain's possessive loop takes the same breaks and runs from any of its
    run ends, and an end position only cuts it short: a break whose gap and the
    character its look-ahead reads do not fit before *stop* is not taken, and a run is
    cut at *stop*."""
    chain = cfg.text.chain
    if not cfg.speed.kept:
        return _hyphen_chain(depth).match(buf, e, stop).end()  # type: ignore[union-attr]
    k = _index(chain, buf, e, stop, depth)
    if k < 0:
        # Not known. A candidate whose first run ends inside the chain matched last
        # reads it again: the chain is matched with its breaks, far enough ahead for
        # those after it too. Otherwise just what this candidate needs (one match, and
        # where it went: a chain read once, the common case, costs what it did).
        if chain is None or chain.buf is not buf or not chain.start < e < chain.end:
            end: int = _hyphen_chain(depth).match(buf, e, stop).end()  # type: ignore[union-attr]
            cfg.text.chain = Matched(buf, e, end)
            return end
        chain = cfg.text.chain = _with_breaks(buf, e, min(e + 2 * cfg.max_len, len(buf)), depth)
        k = 0
    assert isinstance(chain, Chain)
    last = bisect_left(chain.gap_ends, stop, k) - 1  # the last break whose gap ends before stop
    if last < k:
        return e
    run_end = _run_after(chain, last)
    return run_end if run_end < stop else stop


def joined(cfg: Config, buf: str, s: int, e: int, end: int, depth: int) -> str:
    """``join_breaks(buf[s:end], depth, False)`` for a chain from *e* (the end of the run
    that starts at *s*) to *end* (a run end in it), read from the chain
    :func:`chain_end` last matched when it holds it."""
    chain = cfg.text.chain
    k = _index(chain, buf, e, end, depth)
    if isinstance(chain, Chain) and 0 <= k < len(chain.gap_starts):
        ends = chain.gap_ends
        last = bisect_left(ends, end, k) - 1  # the break before the run that ends at end
        if last >= k and end == _run_after(chain, last):
            stop = chain.offsets[last] + end - ends[last]
            return buf[s:e] + chain.joined[chain.offsets[k] : stop]
    return join_breaks(buf[s:end], depth, False)
