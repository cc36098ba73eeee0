"""From records to output rows: filtered, rewritten, deduplicated or counted.

The parser and normaliser are imported when a filter or rewrite needs them: a run that
finds nothing, or needs neither, does not load them.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from urimine.pipeline import Record

__all__ = ["Counter", "HostSet", "Selector", "csv_set", "key_host"]


@functools.lru_cache(maxsize=1 << 14)
def key_host(key: str) -> str | None:
    """The host of a dedup key (lower case, IDNA A-labels: RFC 3986 section 6.2.2.1,
    UTS #46), or None when the URI has no authority (``mailto:``, a URN)."""
    from urimine.parser import split_reference

    try:
        return split_reference(key).host
    except ValueError:
        return None


class HostSet:
    """Hosts given to ``--host`` / ``--exclude-host``: each matches itself and its
    subdomains, case-insensitively, any IDNA spelling alike (each is normalised as a
    key's host is); an IP address matches only itself."""

    def __init__(self, hosts: Iterable[str]) -> None:
        given = [h.strip().rstrip(".") for h in hosts if h.strip()]
        self.names: frozenset[str] = frozenset()
        if given:
            from urimine.normalize import normalize_host

            self.names = frozenset(map(normalize_host, given))

    def __bool__(self) -> bool:
        return bool(self.names)

    def __contains__(self, host: object) -> bool:
        if not isinstance(host, str):
            return False
        if host in self.names:
            return True
        if host.startswith("[") or host.replace(".", "").isdigit():
            return False
        dot = host.find(".")
        while dot >= 0:
            if host[dot + 1 :] in self.names:
                return True
            dot = host.find(".", dot + 1)
        return False


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
        exclude_schemes: set[str] | None = None,
        hosts: HostSet | None = None,
        exclude_hosts: HostSet | None = None,
    ) -> None:
        if kinds and "urn" in kinds:
            kinds.add("urn-legacy")
        self.schemes = schemes
        self.exclude_schemes = exclude_schemes or set()
        self.kinds = kinds
        self.hosts = hosts or HostSet(())
        self.exclude_hosts = exclude_hosts or HostSet(())
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
        if hit.scheme in self.exclude_schemes:
            return None
        if self.kinds and hit.kind not in self.kinds:
            return None
        if self.hosts or self.exclude_hosts:
            host = key_host(hit.key) if hit.kind == "uri" else None
            if (self.hosts and host not in self.hosts) or host in self.exclude_hosts:
                return None
        uri, key = hit.uri, hit.key
        if self.strip_fragment and hit.kind == "uri" and "#" in uri:
            from urimine.normalize import dedup_key, web_key

            uri = uri.split("#", 1)[0]
            key = dedup_key(uri) if hit.strict else web_key(uri)
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
