"""The hits of one unit: a scanner over its chunks, as a fresh one finds them, the labels
its source gave applied, mail header blocks remembered, and a text cut short closed as
cut (a candidate open at the cut dropped). The scanner is the one idle for the options,
reset (``Scanner.reset``), or a new one: making one for each of a run's many small units
cost more than scanning most of them."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import chain
from typing import TYPE_CHECKING

from urimine._memo import Memo
from urimine.model import Hit
from urimine.sources.unit import Ending, Unit

if TYPE_CHECKING:
    from urimine.pipeline import Options, Stats
    from urimine.scanner import Scanner
    from urimine.sources.labels import Labels

__all__ = ["count_chars", "text_hits", "unit_hits"]

_MEMO_TEXT = 4096  # characters: a longer header block is scanned afresh
_MEMO_SIZE = 1024  # header blocks remembered (then all forgotten at once)
_memo: Memo[Options, Memo[str, tuple[Hit, ...]]] = Memo(8)  # per options (a run has one)
_idle: Memo[int, tuple[Options, Scanner]] = Memo(8)
"""The scanner not in use for each options object, by its ``id`` (the object is kept
with it, so the id is not another's). Taken with ``pop``: two texts scanned at once
(generators interleaved, threads) never share one. One a run, as it has one options."""


def unit_hits(options: Options, unit: Unit, stats: Stats | None = None) -> Iterable[Hit]:
    """The hits of one unit, as a fresh scanner finds them, with the context its source labelled
    their stretch with (``urimine.sources.labels``); its characters counted in
    ``stats.chars``. None for a header unit that ``options.headers`` leaves out.

    A mail header block is remembered by its text: the messages of a mailing list
    repeat the same ``List-*`` fields, and a scanner's hits depend on nothing but the
    text and the options (the offsets are the unit's own; a header unit's labels are
    read from its text). Bounded: short texts only, and at most :data:`_MEMO_SIZE` of
    them.
    """
    labels = unit.ending.labels
    if labels is not None and not labels.wanted(options.headers):
        return ()
    chunks = unit.chunks
    if not isinstance(chunks, (list, tuple)) or unit.ending.cut:
        if stats is not None:
            chunks = count_chars(chunks, stats)
        found: Iterable[Hit] = _streamed_hits(options, chunks, unit.ending)
    elif not chunks:
        return ()
    else:
        if stats is not None:
            stats.chars += sum(map(len, chunks))
        if (
            unit.part is not None
            and unit.part.endswith("headers")
            and isinstance(chunks, list)
            and len(chunks) == 1
            and len(chunks[0]) <= _MEMO_TEXT
        ):
            return _remembered(options, chunks[0], labels)
        found = _whole_hits(options, chunks)
    return found if labels is None else labels.apply(found)


def _taken(options: Options) -> Scanner:
    """The idle scanner for ``options`` (reset when it was handed back), or a new one."""
    idle = _idle.pop(id(options), None)
    return options.scanner() if idle is None else idle[1]


def _handed_back(options: Options, scanner: Scanner) -> None:
    """``scanner``, done with its text, reset and kept as the idle one for ``options``
    (not when the text was left half read: a generator closed early does not come here)."""
    scanner.reset()
    _idle.keep(id(options), (options, scanner))


def _whole_hits(options: Options, chunks: Iterable[str]) -> Iterator[Hit]:
    """``Scanner.hits`` of the whole text ``chunks``, by the idle scanner."""
    scanner = _taken(options)
    yield from scanner.hits(chunks)
    _handed_back(options, scanner)


def _remembered(options: Options, text: str, labels: Labels | None) -> tuple[Hit, ...]:
    """The hits of a header unit's *text*, labelled, from the memo or a scan."""
    memo = _memo.get(options)
    if memo is None:
        memo = _memo.keep(options, Memo(_MEMO_SIZE))
    found = memo.get(text)
    if found is None:
        hits = _whole_hits(options, (text,))
        found = memo.keep(text, tuple(hits if labels is None else labels.apply(hits)))
    elif labels is not None:
        labels.claimed = True
    return found


def _streamed_hits(options: Options, chunks: Iterable[str], ending: Ending) -> Iterator[Hit]:
    """:func:`text_hits` of the idle scanner, taken when the first chunk comes: a text
    with no chunk at all (an empty stream) has no hits, and builds no scanner."""
    rest = iter(chunks)
    for first in rest:
        scanner = _taken(options)
        yield from text_hits(scanner, chain((first,), rest), ending)
        _handed_back(options, scanner)
        return


def count_chars(chunks: Iterable[str], stats: Stats) -> Iterator[str]:
    """``chunks``, their characters counted in ``stats.chars`` as they pass."""
    for chunk in chunks:
        stats.chars += len(chunk)
        yield chunk


_HELD = 1 << 17
"""Characters of a text held back from the scanner until its next chunk comes: the last
feed of a text cut short is then large enough for the scanner to scan it (it waits for
a batch of text before scanning), and the hits decided in it come out."""


def text_hits(scanner: Scanner, chunks: Iterable[str], ending: Ending) -> Iterator[Hit]:
    """The hits of ``chunks``, closing the scanner only if the text reached its real end
    (``ending``, looked at once the chunks are exhausted): of a text cut short, a
    candidate still open at the cut is dropped, the hits decided before it stay."""
    held = ""
    for chunk in chunks:
        if len(chunk) >= _HELD:
            yield from _fed(scanner, held)
            yield from _fed(scanner, chunk[:-_HELD])
            held = chunk[-_HELD:]
        else:
            held += chunk
            if len(held) >= 2 * _HELD:
                yield from _fed(scanner, held[:-_HELD])
                held = held[-_HELD:]
    if not ending.cut:  # the whole text: the last of it scanned as final, in one go
        yield from scanner.hits((held,))
        return
    yield from _fed(scanner, held)


def _fed(scanner: Scanner, text: str) -> Iterator[Hit]:
    """The hits ``scanner.feed(text)`` decides."""
    for item in scanner.feed(text):
        if isinstance(item, Hit):
            yield item
