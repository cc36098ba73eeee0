"""The link index (issue 4): which documents link to which URIs, in SQLite.

``urimine index DB PATH...`` reads inputs as extraction does and records documents,
URIs and links incrementally and crash-safely (:mod:`urimine.index.build`);
``urimine query DB ...`` answers from it (:mod:`urimine.index.query`). The file format
is in :mod:`urimine.index.schema`; the command-line entry points are
:func:`urimine.index.cli.index_main` and :func:`urimine.index.cli.query_main`.

The names below are imported at their first use (PEP 562): a query loads neither the
builder nor the sources and scanner it reads inputs with.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from urimine.lazy import exports

if TYPE_CHECKING:
    from urimine.index.build import Loader, Summary, build_index
    from urimine.index.schema import IndexFileError, connect_read, connect_write

__all__ = [
    "IndexFileError",
    "Loader",
    "Summary",
    "build_index",
    "connect_read",
    "connect_write",
]

_LAZY = {
    "Loader": "build",
    "Summary": "build",
    "build_index": "build",
    "IndexFileError": "schema",
    "connect_read": "schema",
    "connect_write": "schema",
}


__getattr__, __dir__ = exports(__name__, _LAZY, __all__)
