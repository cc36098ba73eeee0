"""urimine: mine URIs and URNs out of plain text at scale.

>>> import urimine
>>> urimine.extract('See <URL:ftp://ds.internic.\\n   net/rfc/> and "http://a.example/".')
['ftp://ds.internic.net/rfc/', 'http://a.example/']

The names below are imported at their first use (PEP 562): ``import urimine`` loads no
scanner, rules or parser, so that a command that needs none (an empty input, a query
of a link index) does not pay for them.
"""

from __future__ import annotations

import sys
import types
from typing import TYPE_CHECKING, Any

from urimine.errors import (
    ConfigError,
    InvalidURI,
    InvalidURN,
    MissingExtraError,
    Reason,
    SourceError,
    UrimineError,
)
from urimine.lazy import exports

if TYPE_CHECKING:
    from urimine.api import Deduper, extract, extract_chunks, finditer
    from urimine.choices import ALL_RULES, PRESETS
    from urimine.files import extract_path
    from urimine.model import Hit, Rejection
    from urimine.normalize import dedup_key, normalize_uri
    from urimine.parser import URI, parse_reference, parse_uri
    from urimine.resolve import resolve
    from urimine.scanner import Scanner
    from urimine.speed import ScanStats, Speed, Tuning
    from urimine.urn import URN, LegacyURN, parse_urn
    from urimine.uts58.format import format_link

__version__ = "0.1.0"

__all__ = [
    "ALL_RULES",
    "PRESETS",
    "URI",
    "URN",
    "ConfigError",
    "Deduper",
    "Hit",
    "InvalidURI",
    "InvalidURN",
    "LegacyURN",
    "MissingExtraError",
    "Reason",
    "Rejection",
    "ScanStats",
    "Scanner",
    "SourceError",
    "Speed",
    "Tuning",
    "UrimineError",
    "__version__",
    "dedup_key",
    "extract",
    "extract_chunks",
    "extract_path",
    "finditer",
    "format_link",
    "normalize_uri",
    "parse_reference",
    "parse_uri",
    "parse_urn",
    "resolve",
]

_LAZY = {
    "Deduper": "api",
    "extract": "api",
    "extract_chunks": "api",
    "finditer": "api",
    "extract_path": "files",
    "Hit": "model",
    "Rejection": "model",
    "dedup_key": "normalize",
    "normalize_uri": "normalize",
    "URI": "parser",
    "parse_reference": "parser",
    "parse_uri": "parser",
    "resolve": "resolve",
    "ALL_RULES": "choices",
    "PRESETS": "choices",
    "Scanner": "scanner",
    "ScanStats": "speed",
    "Speed": "speed",
    "Tuning": "speed",
    "URN": "urn",
    "LegacyURN": "urn",
    "parse_urn": "urn",
    "format_link": "uts58.format",
}
"""Each lazily exported name and the submodule that defines it."""


__getattr__, __dir__ = exports(__name__, _LAZY, __all__)


class _Package(types.ModuleType):
    """The package's module type. Importing a submodule sets it as an attribute of the
    package; where the submodule bears the name of an export (``urimine.resolve``, the
    module, against :func:`urimine.resolve`), the export keeps the name, as when it
    was imported eagerly."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _LAZY and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
