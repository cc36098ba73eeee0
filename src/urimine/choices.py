"""The choices of the extraction options, checked without the modules behind them: the
delimiting rules and presets (``--rules``) and the header fields scanned (``--headers``).

The command line lists and checks ``--rules`` before it reads anything, and most runs
of it (an empty input, ``urimine query``) never build a scanner: importing
:mod:`urimine.rules` for the names would load the rules and compile their patterns.
These are :data:`urimine.rules.ALL_RULES` and :data:`urimine.rules.PRESETS`, repeated
(a test keeps them equal), and the check gives the messages
:meth:`urimine.rules.Config.build` gives.
"""

from __future__ import annotations

from urimine.errors import ConfigError

__all__ = ["ALL_RULES", "HEADERS", "HEADERS_HELP", "PRESETS", "check_rules"]

ALL_RULES: tuple[str, ...] = (
    "angle",
    "url-prefix",
    "quote",
    "bare",
    "urn",
    "legacy-urn",
    "hyphen",
    "any-scheme",
    "web-chars",
    "slashed",
    "glued",
    "possessive",
    "escaped",
    "latex",
    "labels",
    "wrapped",
    "abbreviated",
    "domains",
    "email",
    "defanged",
    "unwrap",
    "uts58",
)
_CORE = frozenset(ALL_RULES[: ALL_RULES.index("wrapped") + 1])
PRESETS: dict[str, frozenset[str]] = {
    "strict": frozenset({"angle", "url-prefix", "legacy-urn", "urn"}),
    "default": _CORE - {"any-scheme"} | {"abbreviated"},
    "lenient": _CORE | {"abbreviated"},
    "uts58": frozenset({"uts58"}),
}


def check_rules(rules: str | tuple[str, ...]) -> None:
    """Raise :class:`ConfigError` unless ``rules`` is a preset name or rule names."""
    if isinstance(rules, str):
        if rules not in PRESETS:
            raise ConfigError(f"unknown preset {rules!r}; presets: {', '.join(PRESETS)}")
        return
    unknown = set(rules) - set(ALL_RULES) - set(PRESETS)  # a list may name presets
    if unknown:
        raise ConfigError(f"unknown rule(s) {', '.join(sorted(unknown))}")


HEADERS = ("all", "links", "none")
"""The values of ``--headers``: the header fields that give hits. ``all``: every field
that may hold a URI, the unstructured ones and the link fields
(:mod:`urimine.sources.mail_fields`); ``links``: only the fields that hold URIs by design
and those showing a ``<scheme:``; ``none``: no field."""
HEADERS_HELP = (
    "mail header fields scanned: all (every unstructured field and the URI fields),"
    " links (List-*, Archived-At, Content-Base/-Location and fields showing"
    " <scheme:...>), none (default: all)"
)
