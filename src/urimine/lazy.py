"""Exports imported at their first use (PEP 562), for a package's ``__init__``.

A package lists each exported name with the submodule that defines it; the module-level
``__getattr__`` and ``__dir__`` built here import that submodule only when the name is
first read, so that ``import urimine`` (or ``urimine.index``) stays cheap.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Mapping
from importlib import import_module
from typing import Any

__all__ = ["exports"]


def exports(
    package: str, lazy: Mapping[str, str], names: Iterable[str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of *package*, whose names in *lazy* are
    imported from ``package.<submodule>`` when first read; *names* is its ``__all__``."""
    public = frozenset(names)

    def __getattr__(name: str) -> Any:
        module = lazy.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(f"{package}.{module}"), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | public)

    return __getattr__, __dir__
