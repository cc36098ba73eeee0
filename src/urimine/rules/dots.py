"""The label-dot site: the rules at a dot (``.``, and for UTS #58 the three full stops
UTS #46 maps to it), in order: UTS #58 link detection, abbreviated URIs (``www.``,
``ftp.``), domain names. The first that answers anything but None decides."""

from __future__ import annotations

from urimine.rules import abbreviated, domains, uts58
from urimine.rules.base import Result
from urimine.rules.context import Context

__all__ = ["decide"]


def decide(ctx: Context, buf: str, i: int, last_end: int, final: bool) -> Result:
    """The rules at the label dot ``i``."""
    rules = ctx.rules
    if "uts58" in rules:
        found = uts58.at_dot(ctx, buf, i, last_end, final)
        if found is not None:
            return found
    if buf[i] != ".":
        return None
    if "abbreviated" in rules:
        taken = abbreviated.at_dot(ctx, buf, i, last_end, final)
        if taken is not None:
            return taken
    if "domains" in rules:
        return domains.at_dot(ctx, buf, i, last_end, final)
    return None
