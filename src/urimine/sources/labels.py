"""Where stretches of a unit's text came from, so that a hit there says so in its context.

A source that builds a unit's text out of pieces notes where the pieces that may hold a
URI lie and a label for each: a header field's line in a header unit
(``header:subject``, :class:`FieldLines`), the line an HTML attribute's URL is written
on (``html:srcset``, :class:`Stretches`). A hit that starts in such a piece takes the
label as its :attr:`~urimine.model.Hit.context` instead of the delimiting rule's name;
hits elsewhere keep theirs.

The labels travel with the unit's :class:`~urimine.sources.unit.Ending`, which every copy
of a unit shares (the pipeline's copies of units whose text worker processes scan).
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator
from itertools import accumulate

from urimine.model import Hit


class Labels:
    """The labels of a unit's stretches; subclasses say where the stretches lie."""

    __slots__ = ("claimed",)

    def __init__(self) -> None:
        self.claimed = False
        """Set by :meth:`apply`: the unit's hits are labelled where they are scanned."""

    def wanted(self, headers: str) -> bool:
        """Whether the unit is scanned at all with ``--headers`` *headers*."""
        return True

    def label_at(self, pos: int) -> str | None:
        """The label of the stretch holding *pos*, or None. Asked in text order."""
        raise NotImplementedError

    def relabel(self, hit: Hit) -> Hit:
        """*hit*, with the label of the stretch it starts in as its context."""
        found = self.label_at(hit.start)
        return hit if found is None else with_context(hit, found)

    def apply(self, hits: Iterable[Hit]) -> Iterator[Hit]:
        """*hits* relabelled; claims the labels at once (:attr:`claimed`)."""
        self.claimed = True
        return map(self.relabel, hits)


def with_context(hit: Hit, context: str) -> Hit:
    """*hit* with another context (built as a tuple: faster than ``_replace``)."""
    return tuple.__new__(Hit, (*hit[:6], context, *hit[7:]))


class FieldLines(Labels):
    """The lines of a header unit, one a field (``Name: value``, an empty line between
    two), each labelled with its field's name, read from the text when first asked for
    (the pipeline keeps the labelled hits of a header text it has seen: most header
    units never need their labels).

    *links*: the unit holds the fields that hold URIs by design and those that show a
    ``<scheme:``, which ``--headers links`` keeps; else the other unstructured fields,
    which only ``--headers all`` keeps. *name_label* gives the label of a field name.
    """

    __slots__ = ("_name_label", "_names", "_starts", "_text", "links")

    def __init__(self, links: bool, text: str, name_label: Callable[[str], str]) -> None:
        super().__init__()
        self.links = links
        self._text = text
        self._name_label = name_label
        self._starts: list[int] | None = None
        self._names: list[str] = []

    def wanted(self, headers: str) -> bool:
        return headers == "all" or (self.links and headers == "links")

    def label_at(self, pos: int) -> str | None:
        starts = self._starts if self._starts is not None else self._read()
        i = bisect_right(starts, pos) - 1
        return self._names[i] if i >= 0 else None

    def _read(self) -> list[int]:
        """Where each line starts (kept, with the label of each)."""
        lines = self._text.split("\n\n")
        starts = list(accumulate([len(line) + 2 for line in lines[:-1]], initial=0))
        self._names = [self._name_label(line.partition(":")[0]) for line in lines]
        self._starts = starts
        return starts


PENDING = 1 << 19
"""Most stretches remembered and not yet passed by a hit. When the hits stop coming
for long (link lines the scanner rejects, one after another), the oldest half is
forgotten (a hit in one of those would keep its rule's name): memory stays bounded on
hostile input."""

Spans = tuple[tuple[int, int, str], ...]
"""Labelled stretches ``[start, end)`` inside a stretch, relative to its start."""


class Stretches(Labels):
    """Labelled stretches of a long text, added in text order and forgotten once a hit
    has passed them: memory follows the text still being scanned, not the whole text.

    A stretch is the text that stands for one tag (its link lines): ``[start, end)``
    and the labelled :data:`Spans` of its lines, a tuple the tags written alike share.
    """

    __slots__ = ("_ends", "_next", "_spans", "_starts")

    def __init__(self) -> None:
        super().__init__()
        self._starts = array("q")
        self._ends = array("q")
        self._spans: list[Spans] = []
        self._next = 0
        """Index of the first stretch not yet passed by a hit."""

    def extend(self, starts: list[int], ends: list[int], spans: list[Spans]) -> None:
        """Stretches ``[starts[i], ends[i])`` with their labelled spans, in text order
        and after those added before."""
        excess = len(self._starts) - self._next + len(starts) - PENDING
        if excess > 0:
            self._forget(self._next + max(excess, PENDING // 2))
        self._starts.extend(starts)
        self._ends.extend(ends)
        self._spans.extend(spans)

    def __len__(self) -> int:
        """Stretches not yet passed by a hit."""
        return len(self._starts) - self._next

    def _forget(self, upto: int) -> None:
        """Drop the stretches before index *upto* (all of them, if there are fewer)."""
        upto = min(upto, len(self._starts))
        del self._starts[:upto]
        del self._ends[:upto]
        del self._spans[:upto]
        self._next = max(self._next - upto, 0)

    def label_at(self, pos: int) -> str | None:
        ends = self._ends
        i = self._next
        if i < len(ends) and ends[i] <= pos:
            i = bisect_right(ends, pos, i)
            if i > 4096 and i * 2 > len(ends):
                self._forget(i)
                i = 0
            self._next = i
        if i >= len(ends) or self._starts[i] > pos:
            return None
        offset = pos - self._starts[i]
        for start, end, label in self._spans[i]:
            if start <= offset < end:
                return label
        return None

    def apply(self, hits: Iterable[Hit]) -> Iterator[Hit]:
        self.claimed = True
        return self._applied(hits)

    def _applied(self, hits: Iterable[Hit]) -> Iterator[Hit]:
        """:meth:`relabel` of each of *hits* (:meth:`label_at`, inlined: it runs once a
        hit)."""
        new = tuple.__new__
        starts, ends, spans = self._starts, self._ends, self._spans
        for hit in hits:
            pos, i, count = hit[2], self._next, len(ends)
            while i < count and ends[i] <= pos:
                i += 1
            if i > 4096 and i * 2 > count:
                self._forget(i)
                i = 0
            self._next = i
            if i < len(ends) and starts[i] <= pos:
                offset = pos - starts[i]
                for start, end, label in spans[i]:
                    if start <= offset < end:
                        hit = new(Hit, (*hit[:6], label, *hit[7:]))
                        break
            yield hit
