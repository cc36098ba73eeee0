"""``extract_path``: the URIs and URNs of a file, a folder or a stream, as the CLI reads them.

>>> import urimine
>>> for rec in urimine.extract_path("list.mbox.gz"):  # doctest: +SKIP
...     print(rec.source, rec.doc_index, rec.message_id, rec.hit.line, rec.hit.uri)

Every kind of input the ``urimine`` command reads is read the same way here: plain text
(UTF-8 by default), gzip/bzip2/xz/zstd, mbox, Maildir, ``.eml`` (MIME decoded), HTML (links
resolved against the base), WARC/WET, ``-`` for standard input, an open binary stream,
and folders, walked as the command walks them (:class:`~urimine.sources.Walk`: hidden
files, ``.gitignore`` and the like left out by default). Each hit comes as a
:class:`Record`: the :class:`~urimine.Hit` (``uri``, ``key``, ``kind``, ``scheme``,
``context``, ``line``, ``column``, ``start``, ``end``) and where it was found. In mail,
``line``, ``column``, ``start`` and ``end`` count in the decoded text of the part
(``Record.part``), after its transfer encoding and charset, not in the raw message; in a
WARC record, in its decoded payload.

Errors follow the command's policy: whatever can be read of an input is yielded first;
then an input that could not be read completely (missing, unreadable, truncated,
corrupt) raises :class:`~urimine.SourceError`, or, with ``on_error``, is passed to it and
the next input is read. Bad options raise :class:`~urimine.ConfigError` before anything
is read.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, BinaryIO

from urimine.errors import ConfigError, SourceError
from urimine.scanner import DEFAULT_MAX_CANDIDATE_LEN

if TYPE_CHECKING:
    from urimine.pipeline import Options, Record
    from urimine.sources import Walk

__all__ = ["Record", "Walk", "extract_path"]


def __getattr__(name: str) -> Any:
    """``Record`` and ``Walk``, imported when first asked for: ``import urimine`` does
    not load the sources and the pipeline."""
    if name == "Record":
        from urimine.pipeline import Record

        return Record
    if name == "Walk":
        from urimine.sources import Walk

        return Walk
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def extract_path(
    path: str | os.PathLike[str] | BinaryIO,
    *,
    rules: str | Iterable[str] = "default",
    max_length: int = DEFAULT_MAX_CANDIDATE_LEN,
    extra_schemes: Iterable[str] = (),
    encoding: str | None = None,
    headers: str = "all",
    walk: Walk | None = None,
    unique: bool = False,
    jobs: int = 1,
    on_error: Callable[[SourceError], None] | None = None,
) -> Iterator[Record]:
    """Yield a :class:`Record` for every URI and URN in ``path``, in input order.

    ``path`` is a file or folder name, ``"-"`` (standard input) or an open binary stream
    (named ``"-"`` in the records). ``rules`` is a preset (``strict``, ``default``,
    ``lenient``) or rule names; ``max_length`` the longest candidate in characters;
    ``extra_schemes`` schemes taken in bare text as if registered (RFC 3986 section 3.1
    names); ``encoding`` that of plain text and HTML without a declared charset;
    ``headers`` the mail header fields scanned, as ``--headers``: ``all`` (every
    unstructured field and the URI fields), ``links`` (the URI fields) or ``none``;
    ``walk`` how folders are walked; ``unique`` yields only the first record of each
    dedup key (RFC 3986 section 6.2 ladder, RFC 8141 section 3); ``jobs`` scans in that
    many worker processes (same output); ``on_error`` receives each input that could not
    be read completely instead of raising it (see the module docstring).
    """
    from urimine.choices import HEADERS
    from urimine.pipeline import Options, iter_records
    from urimine.rules import PRESETS
    from urimine.sources.text import check_encoding

    chosen: str | tuple[str, ...] = rules if isinstance(rules, str) else tuple(rules)
    if isinstance(chosen, str) and ("," in chosen or chosen not in PRESETS):
        chosen = tuple(r.strip() for r in chosen.split(",") if r.strip())
    if encoding is not None and not check_encoding(encoding):
        raise ConfigError(f"unknown text encoding: {encoding!r}")
    if headers not in HEADERS:
        raise ConfigError(f"headers: expected {', '.join(HEADERS)}, got {headers!r}")
    options = Options(chosen, max_length, tuple(extra_schemes), encoding, headers)
    options.scanner()  # a ConfigError now, not at the first input
    if jobs < 1:
        raise ConfigError(f"jobs: expected at least 1, got {jobs}")
    if isinstance(path, str | os.PathLike):
        return iter_records(
            [os.fspath(path)],
            options,
            walk=walk,
            jobs=jobs,
            unique=unique,
            on_error=on_error,
        )
    return _stream_records(path, options, unique, on_error)


def _stream_records(
    stream: BinaryIO,
    options: Options,
    unique: bool,
    on_error: Callable[[SourceError], None] | None,
) -> Iterator[Record]:
    """The records of an open stream, scanned in this process."""
    from urimine.pipeline import records_of, unit_hits
    from urimine.sources import open_stream

    seen: set[str] | None = set() if unique else None
    try:
        for unit in open_stream(stream, "-", encoding=options.encoding):
            yield from records_of(unit, unit_hits(options, unit), seen=seen)
    except SourceError as err:
        if on_error is None:
            raise
        on_error(err)
