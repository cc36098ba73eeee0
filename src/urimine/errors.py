"""Exception hierarchy and machine-readable rejection reasons.

Data problems inside the scanner are values (:class:`Reason` on a rejection), not
exceptions; the exceptions here are for direct callers of the parsers and for
input sources. Any other exception escaping the library is a bug.
"""

from __future__ import annotations

import enum


class Reason(enum.StrEnum):
    """Stable codes saying why a candidate is not a URI or URN."""

    EMPTY = "empty"
    NO_SCHEME = "no-scheme"
    BAD_SCHEME = "bad-scheme"
    UNKNOWN_SCHEME = "unknown-scheme"
    NEEDS_AUTHORITY = "needs-authority"
    BAD_AUTHORITY = "bad-authority"
    BAD_USERINFO = "bad-userinfo"
    BAD_HOST = "bad-host"
    BAD_IPV6 = "bad-ipv6"
    BAD_PORT = "bad-port"
    BAD_PATH = "bad-path"
    BAD_QUERY = "bad-query"
    BAD_FRAGMENT = "bad-fragment"
    BAD_PERCENT = "bad-percent"
    ILLEGAL_CHAR = "illegal-char"
    TOO_LONG = "too-long"
    BAD_NID = "bad-nid"
    BAD_NSS = "bad-nss"
    BAD_LEGACY_URN = "bad-legacy-urn"
    NOT_A_URI = "not-a-uri"


class UrimineError(Exception):
    """Base class of every exception urimine raises on purpose."""

    exit_code = 1


class InvalidURI(UrimineError, ValueError):
    """A string given to :func:`urimine.parse_uri` is not a valid URI."""

    def __init__(self, text: str, reason: Reason, position: int | None = None) -> None:
        self.text = text
        self.reason = reason
        self.position = position
        where = f" at {position}" if position is not None else ""
        super().__init__(f"invalid URI {text!r}: {reason.value}{where}")


class InvalidURN(InvalidURI):
    """A string given to :func:`urimine.parse_urn` is not a valid URN."""

    def __init__(self, text: str, reason: Reason, position: int | None = None) -> None:
        super().__init__(text, reason, position)
        where = f" at {position}" if position is not None else ""
        self.args = (f"invalid URN {text!r}: {reason.value}{where}",)


class SourceError(UrimineError):
    """An input could not be read, or not completely (unreadable, truncated, corrupt)."""

    def __init__(self, source: str, reason: str) -> None:
        self.source = source
        self.reason = reason
        super().__init__(f"{source}: {reason}")


class SinkError(UrimineError):
    """Output could not be written."""


class ConfigError(UrimineError, ValueError):
    """Options that do not fit together or name something unknown."""

    exit_code = 2


class MissingExtraError(UrimineError, ImportError):
    """An optional feature needs a package that is not installed."""

    def __init__(self, feature: str, extra: str) -> None:
        self.feature = feature
        self.extra = extra
        super().__init__(f"{feature} needs the optional extra: pip install 'urimine[{extra}]'")
