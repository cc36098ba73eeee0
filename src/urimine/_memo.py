"""A bounded memo: a dict that forgets everything at once when full.

For values that recur (a mailing list's header fields, its ``<mailto:...>``): lookups
stay plain dict lookups, and memory stays bounded however many distinct keys come.
"""

from __future__ import annotations

from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Memo(dict[K, V]):
    """A dict of at most ``size`` entries; :meth:`keep` empties it when it is full (the
    recurring entries come back at once, and no bookkeeping is paid per lookup)."""

    __slots__ = ("size",)

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def keep(self, key: K, value: V) -> V:
        """Remember ``value`` under ``key`` and return it."""
        if len(self) >= self.size:
            self.clear()
        self[key] = value
        return value
