"""What the rules read right before a scheme: the context rules' readers, in the order
the colon site asks them (a quote, ``URL:``, an escaped or LaTeX delimiter; else the URI
is bare), and every character that any of them, or trim, reads there. The colon site asks
the readers; the bare shortcut leaves a URI after any of those characters to them.

A context rule that reads a new character before the scheme adds its reader here, with
the characters it reads (``tests/test_rules_before.py`` holds each reader to them).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from urimine.rules import escaped, quote, url_prefix
from urimine.rules.context import Context
from urimine.rules.delimit import PAIRED

__all__ = ["CHARS", "READERS", "readers"]

Reader = Callable[[Context, str, int, int], "tuple[str, int, str] | None"]
"""``reader(ctx, buf, s, last_end)``: ``(context, raw start, opener)`` where its context
stands before the scheme at ``s``, else None."""

READERS: tuple[tuple[frozenset[str], Reader, str], ...] = (
    (frozenset({"quote"}), quote.before_scheme, quote.BEFORE),
    (frozenset({"url-prefix"}), url_prefix.before_scheme, url_prefix.BEFORE),
    (frozenset({"escaped", "latex"}), escaped.before_scheme, escaped.BEFORE),
)
"""Each reader with the rules that turn it on and the characters it reads right before
the scheme."""

CHARS = frozenset("".join(chars for _, _, chars in READERS) + PAIRED)
"""Every character a rule reads right before a scheme (whichever rules are on)."""


@cache
def readers(rules: frozenset[str]) -> tuple[Reader, ...]:
    """The readers of the rules on, in order."""
    return tuple(read for names, read, _ in READERS if rules & names)
