"""The targets of security wrappers and redirectors: links that mail filters and sites
rewrite so that a click passes through them, whose target is written in the link.

Recognised (each a table row below):

- Microsoft Defender Safe Links: ``https://*.safelinks.protection.outlook.com/?url=T``
  (also the ``.office365.us`` government cloud), ``T`` percent-encoded.
- Proofpoint URL Defense v1: ``https://urldefense.proofpoint.com/v1/url?u=T&k=...``,
  ``T`` percent-encoded.
- Proofpoint URL Defense v2: ``.../v2/url?u=T&d=...``, ``T`` percent-encoded with ``-``
  for ``%`` and ``_`` for ``/``.
- Proofpoint URL Defense v3: ``https://urldefense.com/v3/__T__;B!!...``: each ``*`` in
  ``T`` stands for the next character of ``B`` (base64url-encoded UTF-8), and ``**X``
  for the next 2, 3, ... characters as ``X`` is ``A``, ``B``, ... in the base64url
  alphabet.
- Google redirects ``https://www.google.<tld>/url?q=T`` (or ``url=T``), YouTube's
  ``/redirect?q=T``, Facebook's ``l.facebook.com/l.php?u=T``, Barracuda Link Protection
  ``linkprotect.cudasvc.com/url?a=T``, Slack's ``slack-redir.net/link?url=T``.

Opaque wrappers (Mimecast ``protect-*.mimecast.com/s/...``, ``t.co``, ``lnkd.in``) hold
no target in the link and are not unwrapped. A target must be an absolute ``http``,
``https`` or ``ftp`` URL with a host; a wrapper without one, or malformed, gives None.
"""

from __future__ import annotations

import binascii
import re
from base64 import urlsafe_b64decode
from collections.abc import Callable
from urllib.parse import parse_qsl, unquote, urlsplit

MAX_DEPTH = 16
_RUN_LENGTHS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
_V3 = re.compile(r"/v3/__(?P<url>.+?)__;(?P<chars>[A-Za-z0-9_-]*)!")
_V3_TOKEN = re.compile(r"\*(?:\*(?P<run>.))?")
_TARGET = re.compile(r"(?:https?|ftp)://[^/?#\s]", re.I)


def _param(query: str, *names: str) -> str | None:
    """The first of *names* in the query, percent-decoded; None when absent."""
    values = dict(parse_qsl(query, keep_blank_values=True))
    for name in names:
        if name in values:
            return values[name]
    return None


def _proofpoint_v2(query: str) -> str | None:
    raw = next((v for k, v in parse_qsl(query, keep_blank_values=True) if k == "u"), None)
    return None if raw is None else unquote(raw.replace("-", "%").replace("_", "/"))


def _proofpoint_v3(uri: str) -> str | None:
    m = _V3.search(uri)
    if m is None:
        return None
    chars = m.group("chars")
    try:
        table = urlsafe_b64decode(chars + "=" * (-len(chars) % 4)).decode("utf-8")
    except (binascii.Error, ValueError):
        return None
    used = 0

    def fill(token: re.Match[str]) -> str:
        nonlocal used
        run = token.group("run")
        count = 1 if run is None else _RUN_LENGTHS.find(run) + 2
        if count < 1 or used + count > len(table):
            raise ValueError("more placeholders than replacement characters")
        used += count
        return table[used - count : used]

    try:
        return _V3_TOKEN.sub(fill, m.group("url"))
    except ValueError:
        return None


def _google_host(host: str) -> bool:
    labels = host.split(".")
    return (len(labels) >= 2 and labels[0] in ("www", "google")) or labels[-2:-1] == ["google"]


# (host test, path test, extractor from the query or the whole URI)
_Rule = tuple[Callable[[str], bool], Callable[[str], bool], Callable[[str, str], str | None]]
_RULES: tuple[_Rule, ...] = (
    (
        lambda h: (
            h.endswith(".safelinks.protection.outlook.com")
            or h.endswith(".safelinks.protection.office365.us")
        ),
        lambda p: p in ("", "/"),
        lambda q, _u: _param(q, "url"),
    ),
    (
        lambda h: h in ("urldefense.proofpoint.com", "urldefense.com"),
        lambda p: p == "/v1/url",
        lambda q, _u: _param(q, "u"),
    ),
    (
        lambda h: h in ("urldefense.proofpoint.com", "urldefense.com"),
        lambda p: p == "/v2/url",
        lambda q, _u: _proofpoint_v2(q),
    ),
    (
        lambda h: h in ("urldefense.proofpoint.com", "urldefense.com"),
        lambda p: p.startswith("/v3/__"),
        lambda _q, u: _proofpoint_v3(u),
    ),
    (
        lambda h: ".google." in "." + h + "." and _google_host(h),
        lambda p: p == "/url",
        lambda q, _u: _param(q, "q", "url"),
    ),
    (
        lambda h: h in ("www.youtube.com", "youtube.com", "m.youtube.com"),
        lambda p: p == "/redirect",
        lambda q, _u: _param(q, "q"),
    ),
    (
        lambda h: h in ("l.facebook.com", "lm.facebook.com", "l.messenger.com"),
        lambda p: p == "/l.php",
        lambda q, _u: _param(q, "u"),
    ),
    (
        lambda h: h == "linkprotect.cudasvc.com",
        lambda p: p == "/url",
        lambda q, _u: _param(q, "a"),
    ),
    (
        lambda h: h == "slack-redir.net",
        lambda p: p == "/link",
        lambda q, _u: _param(q, "url"),
    ),
)


def unwrap(uri: str) -> str | None:
    """The target of the wrapper or redirector *uri*, one level deep; None when *uri*
    is no wrapper this module knows, or a malformed one.

    >>> unwrap("https://nam02.safelinks.protection.outlook.com/?url=https%3A%2F%2Fexample.com%2Fa%3Fb%3D1&data=x")
    'https://example.com/a?b=1'
    >>> unwrap("https://urldefense.proofpoint.com/v2/url?u=http-3A__www.example.org_url&d=x&c=y")
    'http://www.example.org/url'
    """
    try:
        parts = urlsplit(uri.strip())
        host = (parts.hostname or "").lower()
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https"):
        return None
    for host_test, path_test, extract in _RULES:
        if host_test(host) and path_test(parts.path):
            target = extract(parts.query, uri)
            if target is not None and _TARGET.match(target.strip()):
                return target.strip()
            return None
    return None


def unwrap_all(uri: str) -> list[str]:
    """Every target of *uri*, unwrapping nested wrappers, outermost first: the last
    is the final target. Empty when *uri* is no wrapper (or a malformed one); a loop
    of wrappers stops where it would repeat itself.

    >>> unwrap_all("https://www.google.com/url?q=https://l.facebook.com/l.php?u%3Dhttps%253A%252F%252Fexample.org%252F")
    ['https://l.facebook.com/l.php?u=https%3A%2F%2Fexample.org%2F', 'https://example.org/']
    """
    targets: list[str] = []
    current = uri
    while len(targets) < MAX_DEPTH and (target := unwrap(current)) is not None:
        if target in targets or target == uri:
            break
        targets.append(target)
        current = target
    return targets
