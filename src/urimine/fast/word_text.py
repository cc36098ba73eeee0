"""Where the words of a block of text start and end (white space, and ">", which ends
a run of URI characters as white space does: RFC 3986 Appendix C), and its split into
words, for the word leaps (:mod:`urimine.fast.words`)."""

from __future__ import annotations

import re

__all__ = ["last_cut", "last_space", "next_cut", "spaced_text", "spaced_within", "split_words"]

_CUT = re.compile(r"[ \t\r\n>]").search


def last_space(buf: str, lo: int, hi: int) -> int:
    """Where the last space, tab, CR or LF of ``buf[lo:hi]`` stands, or -1."""
    last = max(buf.rfind(" ", lo, hi), buf.rfind("\n", lo, hi))
    after = last + 1 if last >= 0 else lo
    return max(last, buf.rfind("\t", after, hi), buf.rfind("\r", after, hi))


def last_cut(buf: str, lo: int, hi: int) -> int:
    """Where the last white space or ">" of ``buf[lo:hi]`` stands, or -1."""
    return max(last_space(buf, lo, hi), buf.rfind(">", lo, hi))


def next_cut(buf: str, lo: int, hi: int) -> int:
    """Where the first white space or ">" of ``buf[lo:hi]`` stands, or -1."""
    m = _CUT(buf, lo, hi)
    return -1 if m is None else m.start()


def spaced_text(text: str) -> str:
    """*text* with a space after each ">"."""
    return text.replace(">", "> ") if ">" in text else text


def split_words(spaced: str) -> list[str]:
    """*spaced* split at each space, tab, CR and LF (not at other white space, which an
    IRI's run may hold)."""
    return spaced.replace("\n", " ").replace("\t", " ").replace("\r", " ").split(" ")


def spaced_within(text: str, longest: int) -> str | None:
    """:func:`spaced_text`, or None where a word of *text* taken whole across its ">" (as
    a candidate may run, where the rules read on past one) is as long as the length bound:
    a too-long candidate skips to the next white space, past the ">" a leap ends words at."""
    if ">" not in text:
        return text
    if any(len(word) >= longest for word in split_words(text)):
        return None
    return text.replace(">", "> ")
