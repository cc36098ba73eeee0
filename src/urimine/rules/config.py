"""Rule selection: the rule names, the presets, and a compiled, immutable :class:`Config`
(which rules are on, the scheme list, the length bound). It holds no state of any text:
the memos belong to each scanner (:mod:`urimine.fast.memos`)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache

from urimine.errors import ConfigError
from urimine.rules.patterns import RUN_CHAR
from urimine.schemes import registered_schemes

__all__ = ["ALL_RULES", "PRESETS", "Config"]

ALL_RULES: tuple[str, ...] = (
    "angle",  # <...> with whitespace inside ignored (Appendix E)
    "url-prefix",  # URL:... and <URL:...> (Appendix E, RFC 1738)
    "quote",  # "..." and '...' (Appendix E; HTML attributes)
    "bare",  # whitespace-delimited, registered schemes only
    "urn",  # urn:NID:NSS in text (seed 003 2.5.3)
    "legacy-urn",  # <URN:enc:scheme:authority:opaque> (seed 000 3.3)
    "hyphen",  # rejoin a URI broken after "-" at a line break (Appendix E)
    "any-scheme",  # also unregistered schemes outside angle brackets
    "web-chars",  # [ ] { } | ^ and a second # in a path, query, fragment (issue 30 item 1)
    "slashed",  # unregistered schemes written with //authority (issue 30 item 2)
    "glued",  # http:// glued to the word before it (issue 30 item 4)
    "possessive",  # http://t.co/x's website: the 's is prose (issue 30 item 6)
    "escaped",  # &lt;...&gt;, &quot;...&quot;, https:\/\/ (issue 30 item 7)
    "latex",  # \url{...}, \href{...}{...} (issue 30 item 10)
    "labels",  # Fax:, Content-Type:, at:, bb:ed:b6 are labels, not URIs (issue 30 item 8)
    "wrapped",  # http:// ending a line, its authority on the next (issue 30 item 5)
    "abbreviated",  # www. and ftp. hosts without their scheme (seed 002 Appendix F)
    "domains",  # any host whose last label is a top-level domain (UTS #58)
    "email",  # e-mail addresses as mailto: URIs (UTS #58 Link_Email, RFC 5321)
    "defanged",  # hxxp://evil[.]example as threat reports write it, refanged
    "unwrap",  # the targets of security wrappers and redirectors, as more hits
    "uts58",  # link detection exactly as UTS #58 specifies it
)
_CORE = frozenset(ALL_RULES[: ALL_RULES.index("wrapped") + 1])
"""The rules at a scheme's colon or an angle bracket (the drafts' and issue 30's)."""
PRESETS: dict[str, frozenset[str]] = {
    "strict": frozenset({"angle", "url-prefix", "legacy-urn", "urn"}),
    "default": _CORE - {"any-scheme"} | {"abbreviated"},
    "lenient": _CORE | {"abbreviated"},
    "uts58": frozenset({"uts58"}),
}


@dataclass(frozen=True, slots=True)
class Config:
    """A compiled rule set: which rules are on, the scheme list and the length bound."""

    rules: frozenset[str]
    max_len: int
    schemes: frozenset[str]
    run: re.Pattern[str] = field(repr=False)
    """A run of URI characters, at most :attr:`max_len` long."""

    @staticmethod
    def build(rules: Iterable[str] | str, max_len: int, extra_schemes: Iterable[str]) -> Config:
        """Check and compile a rule selection: a preset name, rule names, or presets and
        rules together (``"default,email"``, ``("default", "unwrap")``); cached."""
        if isinstance(rules, str) and "," in rules:
            rules = [name.strip() for name in rules.split(",") if name.strip()]
        chosen = rules if isinstance(rules, str) else frozenset(rules)
        return _build(chosen, max_len, frozenset(s.strip().lower() for s in extra_schemes))


def _expand(names: frozenset[str]) -> frozenset[str]:
    """Rule names with each preset among them replaced by its rules (a name that is both,
    as "uts58", is both alike)."""
    unknown = names - set(ALL_RULES) - set(PRESETS)
    if unknown:
        raise ConfigError(f"unknown rule(s) {', '.join(sorted(unknown))}")
    out: set[str] = set()
    for name in names:
        out |= PRESETS.get(name, {name})
    return frozenset(out)


@cache
def _build(rules: str | frozenset[str], max_len: int, extra_schemes: frozenset[str]) -> Config:
    if isinstance(rules, str):
        if rules not in PRESETS:
            raise ConfigError(f"unknown preset {rules!r}; presets: {', '.join(PRESETS)}")
        chosen = PRESETS[rules]
    else:
        chosen = _expand(rules)
    if max_len < 16:
        raise ConfigError("max_candidate_len must be at least 16")
    return Config(
        rules=chosen,
        max_len=max_len,
        schemes=frozenset(registered_schemes() | extra_schemes),
        run=re.compile(f"{RUN_CHAR}{{0,{max_len}}}"),
    )
