"""The ``URL:`` prefix (RFC 3986 Appendix C, RFC 1738's appendix): ``URL:scheme:...`` in
text, and ``<URL:scheme:...>`` in brackets (unwrapped by the angle rule)."""

from __future__ import annotations

import re

from urimine.rules.context import Context
from urimine.rules.patterns import SCHEME_CHAR

__all__ = ["URL_HEAD", "after_url", "before_scheme", "strip_prefix"]

URL_HEAD = r"[Uu][Rr][Ll]:[ \t\r\n]{0,64}"
"""The prefix and the white space after it, as the angle rule reads them."""
_URL_PREFIX_BACK = re.compile(rf"(?<![{SCHEME_CHAR}])[Uu][Rr][Ll]: ?\Z")
_URL_THEN_SCHEME = re.compile(rf"{URL_HEAD}(?=[A-Za-z][{SCHEME_CHAR}]*:)")


def after_url(buf: str, s: int) -> bool:
    """Whether "URL:" or "URL: " stands right before ``s`` (a superset of the rule's
    test, cheap enough for every scheme)."""
    k = s - 1 if buf[s - 1] == ":" else s - 2
    return k >= 3 and buf[k] == ":" and buf[k - 3 : k].lower() == "url"


BEFORE = ": "
"""The characters before a scheme :func:`before_scheme` reads ("URL:", then a space or not)."""


def before_scheme(ctx: Context, buf: str, s: int, last_end: int) -> tuple[str, int, str] | None:
    """``("url-prefix", raw start, "")`` where "URL:" (and a space) stands right before
    the scheme at ``s``, not glued to a word, after the last candidate."""
    if s > last_end and buf[s - 1] in BEFORE and after_url(buf, s):
        m = _URL_PREFIX_BACK.search(buf, max(last_end, s - 5), s)
        if m is not None:
            return "url-prefix", m.start(), ""
    return None


def strip_prefix(text: str) -> str:
    """*text* after a leading ``URL:`` and the white space after it when a scheme
    follows; else *text* itself (the same object): without one ("<URL: /x>"), "URL"
    is the scheme. The white space is what the angle rule's head reads."""
    prefix = _URL_THEN_SCHEME.match(text)
    return text if prefix is None else text[prefix.end() :]
