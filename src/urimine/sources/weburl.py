"""A URL written in markup, read as a browser reads it, and made absolute.

WHATWG URL, section 4.4 ("basic URL parser"): leading and trailing C0 control or space
is removed, and every ASCII tab or newline anywhere; then the code points that no
component of a URL may hold as they are are percent-encoded (section 1.3, the C0
control, fragment, query and path percent-encode sets). So
``href="mailto:a@example.org?subject=Weekly Report"`` is the URI
``mailto:a@example.org?subject=Weekly%20Report``, never ``...WeeklyReport``, which is
another URI. Code points beyond ASCII are kept: urimine reports IRIs as written.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import cast

_C0_SPACE = "".join(map(chr, range(0x21)))
"""C0 control or space (WHATWG URL section 4.4, step 1)."""
_TAB_NEWLINE = re.compile(r"[\t\n\r]")
_ENCODED = re.compile(r'[\x00-\x20"<>\x7f]')
"""What every one of WHATWG URL's path, query and fragment percent-encode sets holds
(C0 controls, space, ``"``, ``<``, ``>``) and DEL, which none may hold as it is."""
_HOST_SPACE = re.compile(r"(?:[A-Za-z][A-Za-z0-9+.-]*:)?//[^/?#]*[\x00-\x20]")
"""An authority holding a space or control: a forbidden host code point (WHATWG URL
section 3.5), so no URL at all."""
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
_DROP_SCHEMES = ("javascript:", "data:")
_CLEAN_ABSOLUTE = re.compile(r'([A-Za-z][A-Za-z0-9+.-]*:)[^\x00-\x20"<>\x7f]*\Z')
"""An absolute URL with nothing to remove or encode."""


def browser_url(value: str) -> str | None:
    """*value* (an attribute's value, references decoded) as a browser's URL parser reads
    its input, or None when a browser finds no URL in it (empty, or a space in the host)."""
    value = value.strip(_C0_SPACE)
    if not _ENCODED.search(value):
        return value or None  # (the common case: nothing to remove or encode)
    if "\t" in value or "\n" in value or "\r" in value:
        value = _TAB_NEWLINE.sub("", value)
    if not value or _HOST_SPACE.match(value):
        return None
    return _ENCODED.sub(_percent, value)


def web_url(value: str, base: str | None) -> str | None:
    """*value* (an attribute's value, references decoded) as the absolute URI a browser
    reads in it: :func:`absolutize` of :func:`browser_url`, the common case (an absolute
    URL with nothing to remove or encode) taken at once."""
    value = value.strip()
    clean = _CLEAN_ABSOLUTE.match(value)
    if clean is not None and clean[1].lower() not in _DROP_SCHEMES:
        return value
    return absolutize(browser_url(value), base)


def _percent(match: re.Match[str]) -> str:
    return f"%{ord(match[0]):02X}"


@functools.lru_cache(maxsize=1)
def _resolver() -> Callable[[str, str], str]:
    """The project's RFC 3986 resolver."""
    from urimine.resolve import resolve

    return cast("Callable[[str, str], str]", resolve)


_STRIP_IN_URL = re.compile(r"[\t\n\r]")


def absolutize(ref: str | None, base: str | None) -> str | None:
    """*ref* as an absolute URI (resolved against *base*, RFC 3986 section 5), or None
    when it cannot be made one or is not wanted (``javascript:``, ``data:``)."""
    if ref is None:
        return None
    if "\t" in ref or "\n" in ref or "\r" in ref:
        ref = _STRIP_IN_URL.sub("", ref)
    ref = ref.strip()
    if not ref or ref.lower().startswith(_DROP_SCHEMES):
        return None
    if _SCHEME.match(ref):
        return ref
    if not base or not _SCHEME.match(base):
        return None
    try:
        result = _resolver()(base, ref)
    except ValueError:
        return None
    return result if isinstance(result, str) and _SCHEME.match(result) else None
