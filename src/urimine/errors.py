"""Exception hierarchy and machine-readable rejection reasons.

Data problems inside the scanner are values (:class:`Reason` on a rejection), not
exceptions; the exceptions here are for direct callers of the parsers and for
input sources. Any other exception escaping the library is a bug.
"""

from __future__ import annotations

import enum

__all__ = [
    "ConfigError",
    "InvalidURI",
    "InvalidURN",
    "MissingExtraError",
    "Reason",
    "SinkError",
    "SourceError",
    "Terminated",
    "UrimineError",
    "WorkerError",
    "printable",
]


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
    """Output could not be written (disk full, closed or unencodable output): the run
    cannot go on. Its message is ``write error: REASON``."""

    exit_code = 2

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(f"write error: {reason}")


class WorkerError(UrimineError):
    """A worker process ended in the middle of a run (killed by a signal, out of memory),
    so the results of its task are lost: the run cannot complete."""

    exit_code = 2


class Terminated(BaseException):
    """SIGTERM or SIGHUP arrived: like :class:`KeyboardInterrupt` for SIGINT, it unwinds
    the run so that temporary files and worker processes are cleaned up. A
    ``BaseException``, so that no ``except Exception`` swallows it."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        self.exit_code = 128 + signum  # what a shell reports for a process the signal ended
        super().__init__(f"terminated by signal {signum}")


class ConfigError(UrimineError, ValueError):
    """Options that do not fit together or name something unknown."""

    exit_code = 2


class MissingExtraError(UrimineError, ImportError):
    """An optional feature needs a package that is not installed."""

    def __init__(self, feature: str, extra: str) -> None:
        self.feature = feature
        self.extra = extra
        super().__init__(f"{feature} needs the optional extra: pip install 'urimine[{extra}]'")


def printable(text: str) -> str:
    """``text`` made safe to show on a terminal, for messages on stderr.

    A file name or any text taken from input may hold control characters (an escape
    sequence would be run by the terminal), invisible format characters (bidirectional
    overrides reorder what is shown) or undecodable bytes (``os.fsdecode`` keeps them as
    surrogates U+DC80..U+DCFF). Each is shown as a backslash escape: ``\\n``, ``\\t``,
    ``\\r``, ``\\xNN`` (a C0 or C1 control, or the undecodable byte NN itself),
    ``\\uNNNN`` or ``\\UNNNNNNNN`` (anything else ``str.isprintable`` refuses).
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else _escaped(ch) for ch in text)


_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _escaped(ch: str) -> str:
    code = ord(ch)
    if 0xDC80 <= code <= 0xDCFF:  # an undecodable byte, as os.fsdecode keeps it
        return f"\\x{code - 0xDC00:02x}"
    if ch in _NAMED:
        return _NAMED[ch]
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"
