"""urimine: mine URIs and URNs out of plain text at scale.

>>> import urimine
>>> urimine.extract('See <URL:ftp://ds.internic.\\n   net/rfc/> and "http://a.example/".')
['ftp://ds.internic.net/rfc/', 'http://a.example/']
"""

from __future__ import annotations

from urimine.api import Deduper, extract, extract_chunks, finditer
from urimine.errors import (
    ConfigError,
    InvalidURI,
    InvalidURN,
    MissingExtraError,
    Reason,
    SourceError,
    UrimineError,
)
from urimine.files import extract_path
from urimine.model import Hit, Rejection
from urimine.normalize import dedup_key, normalize_uri
from urimine.parser import URI, parse_reference, parse_uri
from urimine.resolve import resolve
from urimine.rules import ALL_RULES, PRESETS
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
