"""From records to output rows: filtered, rewritten, deduplicated or counted."""

from __future__ import annotations

from typing import Any

from urimine.normalize import dedup_key
from urimine.pipeline import Record

__all__ = ["Counter", "Selector", "csv_set"]


class Selector:
    """Filters, rewrites and deduplicates records into output rows."""

    def __init__(
        self,
        schemes: set[str],
        kinds: set[str],
        *,
        strip_fragment: bool = False,
        canonical: bool = False,
        mode: str = "global",
    ) -> None:
        if kinds and "urn" in kinds:
            kinds.add("urn-legacy")
        self.schemes = schemes
        self.kinds = kinds
        self.strip_fragment = strip_fragment
        self.canonical = canonical
        self.mode = mode
        """``global`` (each key once), ``document`` (once per document) or ``all``."""
        self.seen: set[Any] = set()
        self.doc: tuple[str, int] | None = None

    def row(self, rec: Record) -> dict[str, Any] | None:
        """The output row for ``rec``, or None when filtered or a duplicate."""
        hit = rec.hit
        if self.schemes and hit.scheme not in self.schemes:
            return None
        if self.kinds and hit.kind not in self.kinds:
            return None
        uri, key = hit.uri, hit.key
        if self.strip_fragment and hit.kind == "uri" and "#" in uri:
            uri = uri.split("#", 1)[0]
            key = dedup_key(uri)
        if self.mode != "all":
            # Duplicates are dropped before their row is built: most hits are repeats.
            if self.mode == "document" and rec.document != self.doc:
                self.doc = rec.document
                self.seen.clear()
            if key in self.seen:
                return None
            self.seen.add(key)
        row = rec.as_dict()
        row["uri"] = key if self.canonical else uri
        row["key"] = key
        return row


def csv_set(value: str | None) -> set[str]:
    """The lowercased items of a comma-separated option value."""
    return {v.strip().lower() for v in value.split(",") if v.strip()} if value else set()


class Counter:
    """``--count``: occurrences and documents per key, rows kept in first-seen order."""

    def __init__(self) -> None:
        self.rows: dict[str, dict[str, Any]] = {}
        self.last_doc: dict[str, tuple[str, int]] = {}

    def add(self, row: dict[str, Any], doc: tuple[str, int]) -> None:
        key = row["key"]
        first = self.rows.get(key)
        if first is None:
            row["occurrences"] = 0
            row["documents"] = 0
            self.rows[key] = first = row
        first["occurrences"] += 1
        if self.last_doc.get(key) != doc:
            self.last_doc[key] = doc
            first["documents"] += 1
