"""The ``unwrap`` rule: each hit that is a security wrapper or a redirector
(:mod:`urimine.unwrap`: Microsoft Safe Links, Proofpoint URL Defense v1, v2 and v3,
Google, YouTube, Facebook, Barracuda and Slack redirects) is followed by a second hit,
its final target (nested wrappers unwrapped fully), with the context ``unwrapped``, the
wrapper's text and offsets, and :attr:`urimine.Hit.wrapper` naming the wrapper's URI.
A malformed wrapper, or a target that is no URI by RFC 3986, gives the wrapper only.

It shapes the hits the other rules make rather than finding text of its own, so the
scanner applies it to what it hands out (:func:`expand`).
"""

from __future__ import annotations

import re

from urimine.model import Hit, Rejection
from urimine.normalize import dedup_key
from urimine.parser import check_uri
from urimine.unwrap import unwrap_all

__all__ = ["expand"]

_HINT = re.compile(
    r"safelinks\.|urldefense\.|google\.|youtube\.com|facebook\.com|messenger\.com"
    r"|cudasvc\.com|slack-redir\.net",
    re.IGNORECASE,
)
"""What every wrapper :mod:`urimine.unwrap` knows holds: the hits without it are not
looked at further."""


def target_hit(hit: Hit) -> Hit | None:
    """The ``unwrapped`` hit of *hit*'s final target, or None (no wrapper, a malformed
    one, or a target that is no URI)."""
    if _HINT.search(hit.uri) is None:
        return None
    targets = unwrap_all(hit.uri)
    if not targets:
        return None
    target = targets[-1]
    if check_uri(target) is not None:
        return None
    scheme = target.split(":", 1)[0].lower()
    return hit._replace(
        uri=target,
        context="unwrapped",
        kind="uri",
        scheme=scheme,
        key=dedup_key(target),
        alternative=None,
        wrapper=hit.uri,
    )


def expand(items: list[Hit | Rejection]) -> list[Hit | Rejection]:
    """*items* with each wrapper's ``unwrapped`` hit after it."""
    out: list[Hit | Rejection] = []
    for item in items:
        out.append(item)
        if type(item) is Hit and (target := target_hit(item)) is not None:
            out.append(target)
    return out
