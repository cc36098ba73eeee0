"""Convenience functions over the scanner: whole strings and chunk iterables.

Each takes the scanner's options by name: ``rules`` (a preset, ``strict``, ``default`` or
``lenient``, or rule names from :data:`urimine.ALL_RULES`), ``max_length`` (the longest
candidate, in characters) and ``extra_schemes`` (schemes taken in bare text as if IANA
had registered them), as the ``urimine`` command and :func:`urimine.extract_path` do.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from urimine.model import Hit
from urimine.scanner import DEFAULT_MAX_CANDIDATE_LEN, Scanner

__all__ = ["Deduper", "extract", "extract_chunks", "finditer"]


def extract_chunks(
    chunks: Iterable[str],
    *,
    rules: Iterable[str] | str = "default",
    max_length: int = DEFAULT_MAX_CANDIDATE_LEN,
    extra_schemes: Iterable[str] = (),
) -> Iterator[Hit]:
    """Yield every hit in text given as chunks, in order of appearance."""
    scanner = Scanner(rules=rules, max_candidate_len=max_length, extra_schemes=extra_schemes)
    return scanner.hits(chunks)


def finditer(
    text: str,
    *,
    rules: Iterable[str] | str = "default",
    max_length: int = DEFAULT_MAX_CANDIDATE_LEN,
    extra_schemes: Iterable[str] = (),
) -> Iterator[Hit]:
    """Yield every URI and URN hit in ``text`` (all occurrences, in order)."""
    return extract_chunks((text,), rules=rules, max_length=max_length, extra_schemes=extra_schemes)


class Deduper:
    """Keeps the first hit per dedup key (RFC 3986 section 6.2 comparison ladder; URNs by
    RFC 8141 section 3 equivalence)."""

    __slots__ = ("seen",)

    def __init__(self) -> None:
        self.seen: set[str] = set()

    def first(self, hit: Hit) -> bool:
        """True when ``hit`` is the first one with its key."""
        if hit.key in self.seen:
            return False
        self.seen.add(hit.key)
        return True


def extract(
    text: str,
    *,
    canonical: bool = False,
    rules: Iterable[str] | str = "default",
    max_length: int = DEFAULT_MAX_CANDIDATE_LEN,
    extra_schemes: Iterable[str] = (),
) -> list[str]:
    """The unique URIs and URNs of ``text``, first spelling, in order of first appearance.

    With ``canonical=True`` the normalised form (the dedup key) is returned instead.
    """
    seen = Deduper()
    hits = finditer(text, rules=rules, max_length=max_length, extra_schemes=extra_schemes)
    return [(hit.key if canonical else hit.uri) for hit in hits if seen.first(hit)]
