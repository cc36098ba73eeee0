"""Value types the scanner produces: hits and rejections."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from urimine.errors import Reason


class Hit(NamedTuple):
    """One URI or URN found in text.

    ``text[start:end] == raw`` always holds for the text the scanner was fed. Immutable
    and hashable; a named tuple rather than a frozen dataclass because the scanner makes
    one per hit and a tuple is built several times faster.
    """

    uri: str
    """The URI as extracted: wrappers, ``URL:`` prefix and embedded whitespace removed."""
    raw: str
    """The exact source span, wrappers included (``<URL:...>``, quotes)."""
    start: int
    """Absolute character offset of ``raw`` in the fed text."""
    end: int
    """Absolute character offset just past ``raw``."""
    line: int
    """1-based line number of ``start``."""
    column: int
    """1-based column (in characters) of ``start``."""
    context: str
    """How it was delimited: ``angle``, ``url-prefix``, ``quote``, ``bare``, ``legacy-urn``;
    or the rule that found a link written without its scheme or not as a URI
    (``abbreviated``, ``domains``, ``email``, ``defanged``, ``uts58``), or
    ``unwrapped`` for the target of a wrapper (:attr:`wrapper`)."""
    kind: str
    """``uri``, ``urn`` (RFC 8141 form) or ``urn-legacy`` (1993 ``<URN:...>`` form)."""
    scheme: str
    """The scheme, lower case (``urn`` for both URN kinds)."""
    key: str
    """The dedup key (:func:`urimine.dedup_key` of ``uri``)."""
    alternative: str | None = None
    """Another reading of the text: for a URI broken after a hyphen at a line break, the
    one without that hyphen."""
    strict: bool = True
    """False where the URI as written holds characters RFC 3986 (and RFC 3987) refuse
    there but real links carry and browsers accept ("[ ] { } | ^" in a path, query or
    fragment, a second "#"): it is reported as written, its key percent-encoded as a
    browser would (WHATWG URL)."""
    wrapper: str | None = None
    """For an ``unwrapped`` hit (the ``unwrap`` rule): the URI of the wrapper or redirector
    its target was read from (the hit before it); else None."""


@dataclass(frozen=True, slots=True)
class Rejection:
    """A candidate that looked like a URI but failed validation."""

    raw: str
    start: int
    end: int
    context: str
    reason: Reason
    detail: str = ""
