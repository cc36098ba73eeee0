"""Alternations of many words factored by their leading characters (a trie as a regex).

The ``re`` engine tries the branches of ``a|b|c`` one after another at every position;
``div|dl|dt`` written as ``d(?:iv|l|t)`` is tried once per first character instead,
and a branch whose first character does not match is left without entering it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable


def word_tree(words: Iterable[str], atom: Callable[[str], str] = re.escape, first: str = "") -> str:
    """A regex alternation matching exactly *words*, each character written by *atom*.

    *atom* turns one character into a pattern: ``re.escape`` (the default) for literal
    words, or a character class for a case-insensitive tree. The branches start with
    different characters, so their order does not change what matches; those in
    *first* (the commonest, say) are tried first, at every level, then the rest in
    order.
    """
    heads: dict[str, list[str]] = {}
    for word in sorted(set(words)):
        heads.setdefault(word[:1], []).append(word[1:])

    def rank(head: str) -> tuple[int, str]:
        index = first.find(head) if head else -1
        return (index if index >= 0 else len(first), head)

    branches = []
    for head in sorted(heads, key=rank):
        tails = heads[head]
        rest = [t for t in tails if t]
        if not rest:
            branches.append(atom(head))
            continue
        optional = "?" if len(rest) < len(tails) else ""
        branches.append(f"{atom(head)}(?:{word_tree(rest, atom, first)}){optional}")
    return "|".join(branches)
