"""Convenience functions over the scanner: whole strings and chunk iterables."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from urimine.model import Hit
from urimine.scanner import Scanner

__all__ = ["Deduper", "extract", "extract_chunks", "finditer"]


def extract_chunks(chunks: Iterable[str], **options: object) -> Iterator[Hit]:
    """Yield every hit in text given as chunks, in order of appearance."""
    return Scanner(**options).hits(chunks)  # type: ignore[arg-type]


def finditer(text: str, **options: object) -> Iterator[Hit]:
    """Yield every URI and URN hit in ``text`` (all occurrences, in order)."""
    return extract_chunks((text,), **options)


class Deduper:
    """Keeps the first hit per dedup key (002 section 6.2 ladder; 003 section 5)."""

    __slots__ = ("seen",)

    def __init__(self) -> None:
        self.seen: set[str] = set()

    def first(self, hit: Hit) -> bool:
        """True when ``hit`` is the first one with its key."""
        if hit.key in self.seen:
            return False
        self.seen.add(hit.key)
        return True


def extract(text: str, *, canonical: bool = False, **options: object) -> list[str]:
    """The unique URIs and URNs of ``text``, first spelling, in order of first appearance.

    With ``canonical=True`` the normalised form (the dedup key) is returned instead.
    """
    seen = Deduper()
    return [
        (hit.key if canonical else hit.uri) for hit in finditer(text, **options) if seen.first(hit)
    ]
