"""The ``uts58`` rule: link detection exactly as UTS #58 specifies it (its §3 Link
Detection: schemes ``http``/``https``, domain names, e-mail addresses; Link_Term,
Link_Bracket and Link_Email; its host validity rules), at each label dot, as
:func:`urimine.uts58.detect` decides it. What is decided at one dot reads a bounded
stretch before it (:data:`urimine.uts58.detect.LOOKBEHIND`), within the scanner's
look-behind, so the rule streams.
"""

from __future__ import annotations

from urimine.errors import Reason
from urimine.rules.base import Candidate, Mode, Pending, PendingType
from urimine.rules.config import Config
from urimine.rules.context import Context
from urimine.uts58.detect import MORE, Link, LinkKind, Skip, link_at

__all__ = ["at_dot", "fragment"]


def at_dot(
    ctx: Context, buf: str, i: int, last_end: int, final: bool
) -> Candidate | PendingType | None:
    """The link UTS #58 detects at the label dot ``i``, or None."""
    found = link_at(buf, i, last_end, final=final, limit=ctx.max_len)
    if found is None:
        return None
    if found is MORE:
        return Pending
    if isinstance(found, Skip):
        reason = Reason.TOO_LONG if found.too_long else Reason.NOT_A_URI
        detail = "" if found.too_long else "e-mail local part is no Dot-string"
        too_long = found.too_long
        return Candidate(
            found.start, found.end, "uts58", reason=reason, detail=detail, too_long=too_long
        )
    assert isinstance(found, Link)
    scheme = "mailto" if found.kind is LinkKind.EMAIL else found.uri.split(":", 1)[0].lower()
    return Candidate(found.start, found.end, "uts58", found.uri, "uri", scheme)


_AFTER = r"(?=[^\W\d_])(?![A-Za-z0-9\-]+[.\u3002\uff0e\uff61][A-Za-z0-9])"
"""After a label dot: a letter (a top-level domain starts with one), and not a label of
ASCII host characters that a label dot and another label follow (no last label)."""


def fragment(mode: Mode, cfg: Config) -> str:
    """Each label dot before a letter (a top-level domain starts with one)."""
    return r"\." + _AFTER


def ideographic_fragment(mode: Mode, cfg: Config) -> str:
    """U+3002 IDEOGRAPHIC FULL STOP, a label dot (UTS #46 maps it to ".")."""
    return "\u3002" + _AFTER


def fullwidth_fragment(mode: Mode, cfg: Config) -> str:
    """U+FF0E FULLWIDTH FULL STOP, a label dot."""
    return "\uff0e" + _AFTER


def halfwidth_fragment(mode: Mode, cfg: Config) -> str:
    """U+FF61 HALFWIDTH IDEOGRAPHIC FULL STOP, a label dot."""
    return "\uff61" + _AFTER
