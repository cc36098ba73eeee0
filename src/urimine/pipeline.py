"""From inputs to records: sources, then the scanner, in one process or several.

``iter_records`` is what the CLI, the link index and the Spark job share: it reads each
input with :mod:`urimine.sources`, scans every unit with a fresh scanner and yields
:class:`Record` s in input order. With worker processes (``jobs``, see
:mod:`urimine.jobs`) the output is identical to ``jobs=1``. Imports are lazy where they
are heavy: the scanner is imported with the first scanner, worker processes only when a
run uses them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import TYPE_CHECKING, Any, NamedTuple

from urimine.choices import DEFAULT_MAX_CANDIDATE_LEN
from urimine.errors import SourceError
from urimine.jobs import WorkerPlan
from urimine.model import Hit
from urimine.sources import Unit, Walk, iter_inputs, open_units
from urimine.unit_scan import count_chars, text_hits, unit_hits

if TYPE_CHECKING:
    from urimine.parallel import TaskSizes
    from urimine.scanner import Scanner

__all__ = [
    "DEFAULT_MAX_CANDIDATE_LEN",
    "Options",
    "Record",
    "Stats",
    "count_chars",
    "iter_records",
    "record",
    "records_of",
    "text_hits",
    "unit_hits",
    "unit_records",
]


@dataclass(slots=True)
class Stats:
    """Counters a run keeps as it goes (documents, units, decoding defects, errors)."""

    documents: int = 0
    units: int = 0
    defects: int = 0
    errors: int = 0
    inputs: int = 0
    hits: int = 0
    written: int = 0
    binary: int = 0
    """Inputs skipped whole as binary files."""
    chars: int = 0
    """Characters of text scanned (the input decoded)."""
    jobs: int = 1
    """Worker processes used (1: none, the scanning ran in this process)."""
    seconds: float = 0.0
    """Wall-clock seconds of the run, from its first input opened to its last record."""
    defect_messages: list[str] | None = None
    """When a list, each defect is appended as ``"SOURCE: message N: defect"``."""

    def note_unit(self, unit: Unit, last_doc: tuple[str, int] | None) -> tuple[str, int]:
        doc = (unit.source, unit.doc_index)
        self.units += 1
        if doc != last_doc:
            self.documents += 1
        return doc

    def note_binary(self, _source: str) -> None:
        self.binary += 1

    def note_defects(self, unit: Unit) -> None:
        if not unit.defects:
            return
        self.defects += len(unit.defects)
        if self.defect_messages is not None:
            where = f"{unit.source}: document {unit.doc_index}"
            if unit.part:
                where += f" part {unit.part}"
            self.defect_messages.extend(f"{where}: {d}" for d in unit.defects)


@dataclass(frozen=True, slots=True)
class Options:
    """Extraction options; frozen and picklable so workers (and Spark) can take them."""

    rules: str | tuple[str, ...] = "default"
    max_candidate_len: int = DEFAULT_MAX_CANDIDATE_LEN
    extra_schemes: tuple[str, ...] = ()
    encoding: str | None = None
    headers: str = "all"
    """Mail header fields scanned: ``all``, ``links`` or ``none`` (``urimine.sources.labels``)."""

    def scanner(self) -> Scanner:
        """A fresh scanner with these options."""
        return (_scanner_type or _import_scanner())(
            rules=self.rules,
            max_candidate_len=self.max_candidate_len,
            extra_schemes=self.extra_schemes,
        )


_scanner_type: type[Scanner] | None = None
"""The scanner class, once imported (an import statement in :meth:`Options.scanner`
would cost as much as making the scanner, once per unit)."""


def _import_scanner() -> type[Scanner]:
    global _scanner_type
    from urimine.scanner import Scanner

    _scanner_type = Scanner
    return Scanner


class Record(NamedTuple):
    """A hit with where it was found (a named tuple, like :class:`Hit`: one per hit)."""

    hit: Hit
    source: str
    doc_index: int
    part: str | None = None
    message_id: str | None = None
    record_id: str | None = None
    target_uri: str | None = None
    is_mail: bool = False
    is_warc: bool = False

    @property
    def document(self) -> tuple[str, int]:
        """Identity of the document (file, message or WARC record) the hit is in."""
        return (self.source, self.doc_index)

    def as_dict(self) -> dict[str, Any]:
        """The JSON Lines fields (issue 3): hit fields plus provenance."""
        h = self.hit
        out: dict[str, Any] = {
            "uri": h.uri,
            "key": h.key,
            "kind": h.kind,
            "scheme": h.scheme,
            "context": h.context,
            "source": self.source,
            "line": h.line,
            "column": h.column,
            "start": h.start,
            "end": h.end,
            "alternative": h.alternative,
            "strict": h.strict,
            "wrapper": h.wrapper,
        }
        if self.is_mail:
            out["message_index"] = self.doc_index
            out["message_id"] = self.message_id
            out["part"] = self.part
        if self.is_warc:
            out["record_index"] = self.doc_index
            out["record_id"] = self.record_id
            out["target_uri"] = self.target_uri
        return out


_Where = tuple[str, int, str | None, str | None, str | None, str | None, bool, bool]


def _where(unit: Unit) -> _Where:
    """The fields of a :class:`Record` after its hit, taken from ``unit``."""
    return (
        unit.source,
        unit.doc_index,
        unit.part,
        unit.message_id,
        unit.record_id,
        unit.target_uri,
        unit.is_mail,
        unit.is_warc,
    )


def record(unit: Unit, hit: Hit) -> Record:
    """The record of ``hit``, found in ``unit``; labelled by the unit's source when a
    worker scanned it (``urimine.sources.labels``)."""
    labels = unit.ending.labels
    if labels is not None and not labels.claimed:  # scanned by a worker, not by unit_hits
        hit = labels.relabel(hit)
    return tuple.__new__(Record, (hit, *_where(unit)))


def unit_records(unit: Unit, options: Options) -> Iterator[Record]:
    """Scan one unit sequentially (streaming its chunks)."""
    return records_of(unit, unit_hits(options, unit))


def records_of(
    unit: Unit, hits: Iterable[Hit], stats: Stats | None = None, seen: set[str] | None = None
) -> Iterator[Record]:
    """Records of ``hits`` found in ``unit``, counted in ``stats.hits``; with ``seen``,
    only those whose key is not in it yet (it is added), built only then. One per hit,
    so built as a tuple from the unit's fields taken once."""
    where = _where(unit)
    labels = unit.ending.labels
    if labels is not None and not labels.claimed:  # scanned here, not by unit_hits
        hits = map(labels.relabel, hits)
    new = tuple.__new__
    count = 0
    try:
        for hit in hits:
            count += 1
            if seen is not None:
                if hit.key in seen:
                    continue
                seen.add(hit.key)
            yield new(Record, (hit, *where))
    finally:
        if stats is not None:
            stats.hits += count


def iter_records(
    paths: Sequence[str],
    options: Options = Options(),
    *,
    walk: Walk | None = None,
    jobs: int | None = 1,
    unique: bool = False,
    progress: Callable[[int], None] | None = None,
    notice: Callable[[str], None] | None = None,
    on_error: Callable[[SourceError], None] | None = None,
    stats: Stats | None = None,
    task_sizes: TaskSizes | None = None,
) -> Generator[Record, None, None]:
    """Every hit of every input, in input order; ``stats.hits`` counts them.

    ``jobs``: worker processes (1: none); None chooses as the command line's default
    does (:class:`urimine.jobs.WorkerPlan`); ``stats.jobs`` says what was used.
    ``task_sizes`` tunes the workers' tasks.

    With ``unique`` only the first record of each dedup key is yielded (the later ones
    are counted, not built: with workers they drop them already). A source that cannot
    be read completely, here or in a worker, is counted in ``stats.errors`` and passed
    to ``on_error`` (after what could be read was yielded) and the run goes on; without
    ``on_error`` it is raised. Closing the generator early (or an exception in it) stops
    any worker processes at once.
    """
    stats = stats or Stats()
    started = time.perf_counter()
    plan = WorkerPlan(jobs)
    report = _Report(stats, on_error)
    units = _all_units(paths, options, progress, notice, report, stats, plan, walk)
    seen: set[str] | None = set() if unique else None
    try:
        for unit in units:
            if plan.jobs > 1:
                from urimine.parallel import parallel_records

                yield from parallel_records(
                    chain((unit,), units),
                    options,
                    plan.jobs,
                    stats,
                    unique=unique,
                    seen=seen,
                    on_error=report,
                    sizes=task_sizes,
                )
                return
            yield from records_of(unit, unit_hits(options, unit, stats), stats, seen)
    finally:
        stats.seconds = time.perf_counter() - started
        stats.jobs = plan.jobs


class _Report:
    """Counts an input error and passes it on (or raises it, without a callback)."""

    def __init__(self, stats: Stats, on_error: Callable[[SourceError], None] | None) -> None:
        self.stats = stats
        self.on_error = on_error

    def __call__(self, err: SourceError) -> None:
        self.stats.errors += 1
        if self.on_error is None:
            raise err
        self.on_error(err)


def _all_units(
    paths: Sequence[str],
    options: Options,
    progress: Callable[[int], None] | None,
    notice: Callable[[str], None] | None,
    report: Callable[[SourceError], None],
    stats: Stats,
    plan: Callable[[int], bool],
    walk: Walk | None = None,
) -> Iterator[Unit]:
    last_doc: tuple[str, int] | None = None
    for path in iter_inputs(paths, walk):
        stats.inputs += 1
        try:
            units = open_units(
                path,
                encoding=options.encoding,
                progress=progress,
                notice=notice,
                workers=plan,
                skipped=stats.note_binary,
            )
            for unit in units:
                if not unit.raw_mbox:  # its messages are counted once they are split
                    last_doc = stats.note_unit(unit, last_doc)
                yield unit  # the consumer reads its chunks before asking for the next
                if unit.defects:  # (known only now; the call skipped for the many without)
                    stats.note_defects(unit)
        except SourceError as err:
            report(err)
