"""The scan loop: from trigger to trigger, the site of each decides, hits are made.

The one hand-inlined function of the package (the only complexity waiver): it runs once
per trigger and per hit, so the scanner's state is held in locals, the hits (a
shortcut's tuple, the general path's candidate) are made here with the line cursor
written out, and every other
mechanism is called at one hook: the trigger finder's next trigger
(``next_function``) and ``miss``, and the word leaps after enough triggers decided
one by one.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from urimine.model import Hit, Rejection
from urimine.normalize import dedup_key, web_key
from urimine.rules.base import Candidate, Pending
from urimine.scan.triggers import TriggerFinder

if TYPE_CHECKING:
    from urimine.scanner import Scanner

__all__ = ["scan"]

_new_hit = tuple.__new__  # a named tuple's own __new__ is a Python call: twice the cost
_WHITESPACE_SEARCH = re.compile(r"\s").search


def scan(sc: Scanner, final: bool, stop: int = -1) -> list[Hit | Rejection]:  # noqa: C901
    """Scan the scanner's buffer; with *stop* (final scans only), pause once the scan has
    got to that index, keeping the buffer whole for the next call."""
    buffer, ctx, cursor = sc.buffer, sc.ctx, sc.cursor
    buf = buffer.take()
    out: list[Hit | Rejection] = []
    n = len(buf)
    pos = buffer.pos
    finder = sc.paused
    if finder is None or finder.buf is not buf or finder.final is not final:
        finder = TriggerFinder(buf, pos, final, ctx, sc.chars, sc.hits_only, sc.stats)
    sc.paused = None
    base = buffer.base
    last_end = max(sc.last_end - base, 0)
    want_rejections = sc.want_rejections
    next_trigger, miss, sites = finder.next_function(), finder.miss, sc.sites
    words = sc.words
    word_misses, word_limit = sc.word_misses, ctx.tuning.word_misses
    if words is not None and words.fresh == base + pos:
        words.fresh = -1  # (the last scan's blocks stopped before a word: on from there)
        pos, last_end, word_misses = words.hook(buf, base, pos, pos, last_end, final, out, cursor)
    lc_pos, lc_line, lc_line_start = cursor.pos, cursor.line, cursor.line_start
    shortcuts = 0
    stalled = False
    while True:
        if pos >= stop > 0:
            sc.paused = finder  # the next slice goes on with it
            break
        if sc.skip_to_space:
            m = _WHITESPACE_SEARCH(buf, pos)
            if m is None:
                pos = n
                break
            sc.skip_to_space = False
            pos = m.start()
        i = next_trigger(pos)
        if i < 0:
            pos = n
            break
        res = sites[buf[i]](ctx, buf, i, last_end, final)
        if type(res) is tuple:  # a shortcut's URI: the common hit
            s, pos, uri, context, scheme, key, kind = res
            raw = uri if context == "bare" else buf[s:pos]
            key = key or dedup_key(uri)
            alternative, strict, general = None, True, False
            shortcuts += 1
        elif type(res) is Candidate and res.reason is None:  # the general path's hit
            s, pos, uri = res.start, res.end, res.uri
            raw, context, kind, scheme = buf[s:pos], res.context, res.kind, res.scheme
            alternative, strict, general = res.alternative, res.strict, True
            key = dedup_key(uri) if strict else web_key(uri)
        else:
            s = -1
            if type(res) is int:
                miss(i)  # nothing here nor before that index: on from there
                pos = res
                continue
            if res is None:
                miss(i)
                pos = i + 1
                at = i
            elif res is Pending:
                pos = i
                stalled = True
                break
            else:
                assert isinstance(res, Candidate)
                if want_rejections:
                    out.append(sc.rejection(buf, res))
                if res.consume:
                    pos = last_end = res.end
                    if res.too_long:
                        sc.skip_to_space = True
                        continue
                    at = pos  # (counted too: a block may start at the next word)
                else:
                    miss(i)
                    pos = res.resume or i + 1
                    at = i
        if s >= 0:
            # The hit, made here (the line cursor written out).
            lo = lc_pos - base
            if s > lo:
                if lo < 0:
                    lo = 0
                nl = buf.rfind("\n", lo, s)
                if nl >= 0:
                    lc_line += buf.count("\n", lo, nl) + 1
                    lc_line_start = base + nl + 1
                lc_pos = base + s
            out.append(
                _new_hit(
                    Hit,
                    (
                        uri,
                        raw,
                        base + s,
                        base + pos,
                        lc_line,
                        base + s - lc_line_start + 1,
                        context,
                        kind,
                        scheme,
                        key,
                        alternative,
                        strict,
                        None,
                    ),
                )
            )
            last_end = pos
            if general:
                continue
            at = pos
        if words is not None:
            word_misses += 1
            if word_misses >= word_limit:
                cursor.pos, cursor.line, cursor.line_start = lc_pos, lc_line, lc_line_start
                pos, last_end, word_misses = words.hook(
                    buf, base, at, pos, last_end, final, out, cursor
                )
                lc_pos, lc_line, lc_line_start = cursor.pos, cursor.line, cursor.line_start
    cursor.pos, cursor.line, cursor.line_start = lc_pos, lc_line, lc_line_start
    sc.last_end = max(sc.last_end, base + last_end)
    sc.word_misses = word_misses
    stats = sc.stats
    stats.shortcut_hits += shortcuts
    if sc.paused is not None:
        buffer.text, buffer.pos = buf, pos
    else:
        buffer.retain(buf, pos, stalled, final, cursor, ctx.tuning.min_batch)
    ctx.memo.forget_text()
    return out
