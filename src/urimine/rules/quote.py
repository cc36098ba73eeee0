"""The quote rule (RFC 3986 Appendix C; HTML attributes): a URI right after a double or
single quote ends at the matching quote. At a scheme's colon, read before the scheme."""

from __future__ import annotations

from urimine.rules.context import Context

__all__ = ["before_scheme", "closing"]


BEFORE = "\"'"
"""The characters before a scheme :func:`before_scheme` reads."""


def before_scheme(ctx: Context, buf: str, s: int, last_end: int) -> tuple[str, int, str] | None:
    """``("quote", raw start, the quote)`` where a quote stands right before the scheme at
    ``s`` (and after the last candidate)."""
    if s > last_end and buf[s - 1] in BEFORE:
        return "quote", s - 1, buf[s - 1]
    return None


def closing(buf: str, i: int, e: int, quote: str) -> tuple[int, bool]:
    """The end of the run from the colon ``i`` (which ends at ``e``) in quotes, and
    whether the quote closes it: a single quote may stand inside the run (it is a URI
    character), a double quote ends every run."""
    if quote == "'":
        k = buf.find("'", i + 1, e)
        return (k, True) if k >= 0 else (e, False)
    if quote == '"':
        return e, e < len(buf) and buf[e] == '"'
    return e, False
