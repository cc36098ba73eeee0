"""Inputs as a stream of whole documents, empty ones included, each with a content hash.

:func:`urimine.pipeline.iter_records` yields hits only, so a document without links
would be invisible, and it cannot say where a file ends. :func:`iter_documents`
reads the inputs the same way (:func:`~urimine.sources.iter_inputs`,
:func:`~urimine.sources.open_units`, the sequential or parallel scanner: the same
records), and turns them into events in input order: :class:`FileStart`, one
:class:`Document` per document with its hits, and :class:`FileEnd` with the read error
if any. A ``plan`` callback names the source each input is (its identity) and says
whether to read it, skip it as unchanged, or pass over it as a source already read in
this run under another name.

How: the unit generator appends a marker to a queue for every file start, every new
document and every file end, and wraps each unit's chunks so that the text is hashed
while the scanner consumes it. Records come out in input order, so when a record of
document D arrives every marker queued before D's is finished and can be emitted.

The hash (BLAKE2b-128) covers the options fingerprint and, for each unit, its part
name and decoded text: equal hashes mean the same links.
"""

from __future__ import annotations

import enum
import hashlib
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from itertools import chain

from urimine.errors import SourceError
from urimine.model import Hit
from urimine.pipeline import Options, Record, unit_records
from urimine.sources import Unit, Walk, iter_inputs, open_units

__all__ = ["Action", "Document", "Event", "FileEnd", "FileStart", "Plan", "iter_documents"]


class Action(enum.Enum):
    """What to do with an input, as the ``plan`` callback decides."""

    READ = "read"
    SKIP = "skip"
    """Unchanged since it was indexed completely: FileStart and FileEnd(skipped) only."""
    REPEAT = "repeat"
    """A source already met in this run under another name: no event at all."""


@dataclass(slots=True)
class FileStart:
    """A source begins; ``stat`` is None for stdin and Maildir directories."""

    path: str
    """The input as given or found in a walk."""
    stat: os.stat_result | None
    source: str = ""
    """The source's identity as the ``plan`` callback named it (its resolved path)."""


@dataclass(slots=True)
class FileEnd:
    """A source ended: ``skipped`` if unchanged and not read, ``error`` if unreadable."""

    path: str
    documents: int
    skipped: bool = False
    error: SourceError | None = None


@dataclass(slots=True)
class Document:
    """One document (file, message or WARC record): provenance, text hash and links."""

    source: str
    doc_index: int
    message_id: str | None
    record_id: str | None
    target_uri: str | None
    hasher: hashlib.blake2b
    chars: int = 0
    links: dict[str, tuple[Hit, int]] = field(default_factory=dict)
    """Per dedup key: the first hit and the number of occurrences."""

    def add(self, hit: Hit) -> None:
        """Count a hit of this document."""
        prev = self.links.get(hit.key)
        self.links[hit.key] = (hit, 1) if prev is None else (prev[0], prev[1] + 1)

    def feed(self, text: str) -> None:
        """Account for a piece of decoded text (the hash and the length)."""
        self.hasher.update(text.encode("utf-8", "surrogatepass"))
        self.chars += len(text)

    @property
    def digest(self) -> bytes:
        """The content hash; final once the document's text has been consumed."""
        return self.hasher.digest()


Event = FileStart | Document | FileEnd
Plan = Callable[[str, os.stat_result | None], tuple[str, Action]]
"""``plan(path, stat)``: the identity of the source ``path`` names, and what to do."""


def options_fingerprint(options: Options) -> str:
    """A string that changes whenever the options (or urimine's version) change."""
    from urimine import __version__

    rules = options.rules if isinstance(options.rules, str) else ",".join(options.rules)
    extra = ",".join(options.extra_schemes)
    return (
        f"urimine {__version__}; rules={rules}; max={options.max_candidate_len};"
        f" extra={extra}; encoding={options.encoding}; headers={options.headers}"
    )


class _Units:
    """The unit generator that queues markers (see the module docstring)."""

    def __init__(self, options: Options, plan: Plan, on_error: Callable[[SourceError], None]):
        self.options = options
        self.seed = options_fingerprint(options).encode()
        self.plan = plan
        self.on_error = on_error
        self.markers: deque[Event] = deque()
        self.late: dict[str, SourceError] = {}
        """Errors met in the workers before their file's end was queued."""

    def late_error(self, err: SourceError) -> None:
        """An input error the workers met after this process read the file's units (a
        part they read themselves): reported, and recorded in the file's end so that
        the source is kept as incomplete, as for an error met here."""
        self.on_error(err)
        for event in reversed(self.markers):
            if isinstance(event, FileEnd) and event.path == err.source:
                event.error = event.error or err
                return
        self.late.setdefault(err.source, err)

    def units(
        self,
        paths: Sequence[str],
        progress: Callable[[int], None] | None,
        notice: Callable[[str], None] | None,
        walk: Walk | None = None,
    ) -> Iterator[Unit]:
        for path in iter_inputs(paths, walk):
            stat = _stat(path)
            source, action = self.plan(path, stat)
            if action is Action.REPEAT:
                continue
            self.markers.append(FileStart(path, stat, source))
            if action is Action.SKIP:
                self.markers.append(FileEnd(path, 0, skipped=True))
                if progress is not None and stat is not None:
                    progress(stat.st_size)
                continue
            yield from self._file_units(path, progress, notice)

    def _file_units(
        self,
        path: str,
        progress: Callable[[int], None] | None,
        notice: Callable[[str], None] | None,
    ) -> Iterator[Unit]:
        count = 0
        doc: Document | None = None
        error: SourceError | None = None
        units = open_units(path, encoding=self.options.encoding, progress=progress, notice=notice)
        try:
            for unit in units:
                if doc is None or doc.doc_index != unit.doc_index:
                    doc = self._new_document(unit)
                    self.markers.append(doc)
                    count += 1
                yield replace(unit, chunks=_hashing(unit.part, unit.chunks, doc))
        except SourceError as err:
            error = err
            self.on_error(err)
        self.markers.append(FileEnd(path, count, error=error or self.late.pop(path, None)))

    def _new_document(self, unit: Unit) -> Document:
        hasher = hashlib.blake2b(self.seed, digest_size=16)
        return Document(
            unit.source, unit.doc_index, unit.message_id, unit.record_id, unit.target_uri, hasher
        )


def _stat(path: str) -> os.stat_result | None:
    """The stat of a regular file (skippable when unchanged); None for anything else."""
    if path == "-":
        return None
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st if os.path.isfile(path) else None


def _hashing(part: str | None, chunks: Iterable[str], doc: Document) -> Iterator[str]:
    doc.hasher.update(f"\x00{part or ''}\x00".encode("utf-8", "surrogatepass"))
    for chunk in chunks:
        doc.feed(chunk)
        yield chunk


def _scan(
    units: Iterator[Unit], options: Options, jobs: int, on_error: Callable[[SourceError], None]
) -> Iterator[Record]:
    if jobs <= 1:
        return chain.from_iterable(unit_records(unit, options) for unit in units)
    from urimine.parallel import parallel_records

    return parallel_records(units, options, jobs, on_error=on_error)


def iter_documents(
    paths: Sequence[str],
    options: Options,
    *,
    plan: Plan,
    on_error: Callable[[SourceError], None],
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    notice: Callable[[str], None] | None = None,
    walk: Walk | None = None,
) -> Iterator[Event]:
    """Events for every input in order: FileStart, its Documents, FileEnd.

    ``plan(path, stat)`` is asked before an input is read (see :class:`Action`). Read
    errors go to ``on_error`` and into the FileEnd; what could be read before the error
    is emitted first. Within a source, documents come in increasing ``doc_index``.
    """
    gen = _Units(options, plan, on_error)
    markers = gen.markers
    current: Document | None = None
    units = gen.units(paths, progress, notice, walk)
    for record in _scan(units, options, jobs, gen.late_error):
        if current is None or (current.source, current.doc_index) != record.document:
            current = None
            while current is None:
                event = markers.popleft()
                if isinstance(event, Document) and (event.source, event.doc_index) == (
                    record.document
                ):
                    markers.appendleft(event)
                    current = event
                else:
                    yield event
        current.add(record.hit)
    while markers:
        yield markers.popleft()
