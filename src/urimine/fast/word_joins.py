"""What may join the words of a block to the text around them, asked by the word leaps
(:mod:`urimine.fast.words`) before they decide each word alone: "URL:", a hyphen at a
line break, "://" at a line end, a URI at the wrap column (the wrapped rule), and angle
brackets, whose white space inside is ignored (Appendix E)."""

from __future__ import annotations

import re

from urimine.fast.word_text import last_cut
from urimine.rules.patterns import LINE_LOOKBEHIND
from urimine.rules.wrapped import WRAP_MAX, WRAP_MIN

__all__ = ["angles_closed", "may_join", "unclosed_angle"]

_HYPHEN_BREAK = re.compile(r"-[ \t]*\r?\n").search  # (where the hyphen rule's gaps start)
_SLASHES_END = re.compile(r"://[ \t]*+\r?\n").search
""""://" at a line end, whatever the next line holds (the block may end before it)."""
_COLON_LINE_END = re.compile(
    r"(?<![^\s>])[^\s:]*+:[^\s/]*+(?:/[^\s/]++)*+//\S*+()[ \t]*+\r?\n"
).finditer
"""A word with a colon and "//" after it, ending a line (what the wrapped rule joins at
the wrap column is a URI with "//", which white space never splits), from white space
or a ">" (where the leaps' words start): read once, up to its first "//" and on."""
_WRAP_LINE = re.compile(rf"^[^\n]{{{WRAP_MIN - 1},{WRAP_MAX - 1}}}\S[ \t]*+\r?\n", re.M).search
"""A line whose last word ends at the wrap column (the lines :func:`_at_wrap` measures
are among these)."""
_GAP_AFTER = re.compile(r"[ \t]*+[\r\n]?")
unclosed_angle = re.compile(r"<[^> \t\r\n]*+[ \t\r\n]").search
"""A "<" whose word ends before a ">" (see :func:`angles_closed`)."""


def may_join(buf: str, start: int, last: int) -> bool | None:
    """Whether the words from *start* to *last* (and the gap after it) hold a hyphen at a
    line break, which may join them to the next line; None where they hold "URL:",
    which a URI after it reads across white space, or "://" at a line end."""
    gap = _GAP_AFTER.match(buf, last)
    near_end = gap.end() if gap else last + 1
    near = buf[max(start - 5, 0) : near_end]
    if ("l:" in near or "L:" in near) and "url:" in near.lower():
        return None
    if _SLASHES_END(near) is not None or _at_wrap(buf, start, near_end):
        return None  # "http://", or a URI at the wrap column, ending a line (wrapped rule)
    return _HYPHEN_BREAK(near) is not None


def _at_wrap(buf: str, start: int, end: int) -> bool:
    """Whether a word with a colon and "//" ends a line of the block at the wrap column
    (WRAP_MIN to WRAP_MAX long): the wrapped rule may join the next line's first word to
    its URI. (Read from the word holding the block's first "//": none before it can be
    one.)"""
    first = buf.find("//", start, end)
    if first < 0:
        return False
    # (from the start of the word that holds it, which may be before the block's: a
    # block may start after a ">" inside it; a line at the wrap column is short)
    lo = max(first - WRAP_MAX, 0)
    cut = last_cut(buf, lo, first)
    begin = cut + 1 if cut >= 0 else lo
    if _WRAP_LINE(buf, max(begin - WRAP_MAX, 0), end) is None:
        return False  # no line so long (its matches below would each be a Python step)
    for m in _COLON_LINE_END(buf, begin, end):
        lo = max(m.start() - LINE_LOOKBEHIND, 0)
        if WRAP_MIN <= m.end(1) - buf.rfind("\n", lo, m.start()) - 1 <= WRAP_MAX:
            return True
    return False


def angles_closed(word: str) -> bool:
    """Whether each "<" of *word* has a ">" after it in the word, and no "\\" stands in
    it where it may hold a 1993 URN (whose "\\" escapes ">" and white space)."""
    return word.rfind(">") > word.rfind("<") and not ("\\" in word and "urn:" in word.lower())
