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

from importlib import import_module
from typing import TYPE_CHECKING, Any

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


def __getattr__(name: str) -> Any:
    """An exported name, imported from its submodule at its first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
