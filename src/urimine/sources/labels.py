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
from collections.abc import Iterable, Iterator

from urimine.model import Hit

HEADERS = ("all", "links", "none")
"""The values of ``--headers``: the header fields that give hits. ``all``: every field
that may hold a URI, the unstructured ones and the link fields (:mod:`.mail_fields`);
``links``: only the fields that hold URIs by design and those showing a ``<scheme:``;
``none``: no field."""
HEADERS_HELP = (
    "mail header fields scanned: all (every unstructured field and the URI fields;"
    " the default), links (List-*, Archived-At, Content-Base/-Location and fields"
    " showing <scheme:...>), none"
)


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
    """The lines of a header unit, one a field, each labelled with its field's name.

    *links*: the unit holds the fields that hold URIs by design and those that show a
    ``<scheme:``, which ``--headers links`` keeps; else the other unstructured fields,
    which only ``--headers all`` keeps.
    """

    __slots__ = ("links", "names", "starts")

    def __init__(self, links: bool) -> None:
        super().__init__()
        self.links = links
        self.starts: list[int] = []
        """Where each line starts, in order."""
        self.names: list[str] = []
        """The label of each line."""

    def add(self, start: int, name: str) -> None:
        """A line starting at *start* (after those added before), labelled *name*."""
        self.starts.append(start)
        self.names.append(name)

    def wanted(self, headers: str) -> bool:
        return headers == "all" or (self.links and headers == "links")

    def label_at(self, pos: int) -> str | None:
        i = bisect_right(self.starts, pos) - 1
        return self.names[i] if i >= 0 else None


PENDING = 1 << 21
"""Most stretches remembered and not yet passed by a hit. When the hits stop coming
for long (link lines the scanner rejects, one after another), the oldest are forgotten
(a hit in one of those keeps its rule's name): memory stays bounded (about 18 bytes a
stretch) on hostile input."""
_MAX_NAMES = 0xFF00
"""Distinct labels one unit keeps apart; past them, each prefix's ``other`` (``html:other``)."""


class Stretches(Labels):
    """Labelled stretches ``[start, end)`` of a long text, added in text order and
    forgotten once a hit has passed them: memory follows the text still being
    scanned, not the whole text."""

    __slots__ = ("_ends", "_ids", "_names", "_next", "_starts", "_table")

    def __init__(self) -> None:
        super().__init__()
        self._starts = array("q")
        self._ends = array("q")
        self._ids = array("H")
        self._names: list[str] = []
        self._table: dict[str, int] = {}
        self._next = 0
        """Index of the first stretch not yet passed by a hit."""

    def add(self, start: int, end: int, name: str) -> None:
        """Label ``[start, end)`` (after every stretch added before) with *name*."""
        if len(self._starts) - self._next >= PENDING:
            self._forget(self._next + PENDING // 2)
        self._starts.append(start)
        self._ends.append(end)
        found = self._table.get(name)
        self._ids.append(self._id(name) if found is None else found)

    def __len__(self) -> int:
        """Stretches not yet passed by a hit."""
        return len(self._starts) - self._next

    def _id(self, name: str) -> int:
        """The number of a new *name* in this unit's table of names."""
        names = self._names
        if len(names) >= _MAX_NAMES and not name.endswith(":other"):
            other = name.partition(":")[0] + ":other"  # hostile input, a name a stretch
            found = self._table.get(other)
            return self._id(other) if found is None else found
        names.append(name)
        self._table[name] = len(names) - 1
        return len(names) - 1

    def _forget(self, upto: int) -> None:
        """Drop the stretches before index *upto*."""
        del self._starts[:upto]
        del self._ends[:upto]
        del self._ids[:upto]
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
        if i < len(ends) and self._starts[i] <= pos:
            return self._names[self._ids[i]]
        return None
