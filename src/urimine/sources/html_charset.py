"""The character encoding an HTML document declares in a ``<meta>`` (WHATWG HTML's
encoding sniffing, "prescan a byte stream")."""

from __future__ import annotations

import re

_META_CHARSET = re.compile(rb"""<meta[^>]{0,200}charset\s*=\s*["']?([A-Za-z0-9_.:-]+)""", re.I)
"""A ``<meta charset=...>`` or ``<meta http-equiv="Content-Type" content="...; charset=...">``."""
_UTF16_LABELS = frozenset(
    {
        "csunicode",
        "iso-10646-ucs-2",
        "ucs-2",
        "unicode",
        "unicodefeff",
        "unicodefffe",
        "utf-16",
        "utf-16be",
        "utf-16le",
    }
)
"""The labels of UTF-16LE and UTF-16BE in the WHATWG Encoding Standard."""
META_PRESCAN = 1024
"""Bytes of an HTML document searched for its ``<meta>`` charset: HTML's encoding
sniffing prescans the first 1024 bytes."""


def meta_charset(data: bytes, end: int = META_PRESCAN) -> str | None:
    """The charset an HTML document's ``<meta>`` declares within ``data[:end]``, or None.

    For a payload that names none in its Content-Type (an HTTP response, a mail
    part). Searched in place, without slicing the document.
    """
    meta = _META_CHARSET.search(data, 0, end)
    if meta is None:
        return None
    charset = meta.group(1).decode("ascii")
    # HTML's prescan: "If charset is UTF-16BE/LE, then set charset to UTF-8" (the
    # declaration was read as ASCII bytes, so the document cannot be UTF-16).
    return "utf-8" if charset.lower() in _UTF16_LABELS else charset
