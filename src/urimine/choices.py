"""The choices of the extraction options, checked without the modules behind them: the
delimiting rules and presets (``--rules``) and the header fields scanned (``--headers``).

The command line lists and checks ``--rules`` before it reads anything, and most runs
of it (an empty input, ``urimine query``) never build a scanner: importing
:mod:`urimine.rules` for the names would load the rules and compile their patterns.
The names and presets are defined here, and :mod:`urimine.rules` takes them from here.
"""

from __future__ import annotations

from urimine.errors import ConfigError

__all__ = [
    "ALL_RULES",
    "DEFAULT_MAX_CANDIDATE_LEN",
    "HEADERS",
    "HEADERS_HELP",
    "PRESETS",
    "check_rules",
    "select",
]

DEFAULT_MAX_CANDIDATE_LEN = 8192
"""The longest candidate the scanner reads (``--max-length``, ``max_candidate_len``)."""

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


def check_rules(rules: str | tuple[str, ...]) -> None:
    """Raise :class:`ConfigError` unless ``rules`` is a preset name or rule names; in a
    list, a name after "-" is a rule left out (``default,-abbreviated``)."""
    if isinstance(rules, str):
        if rules not in PRESETS:
            raise ConfigError(f"unknown preset {rules!r}; presets: {', '.join(PRESETS)}")
        return
    named = {name.removeprefix("-") for name in rules}
    unknown = named - set(ALL_RULES) - set(PRESETS)  # a list may name presets
    if unknown:
        raise ConfigError(f"unknown rule(s) {', '.join(sorted(unknown))}")
    if not select(rules):
        raise ConfigError(f"no rule left in {','.join(rules)!r}")


def select(names: tuple[str, ...] | frozenset[str]) -> frozenset[str]:
    """The rules a list names: each preset among them replaced by its rules (a name that
    is both, as "uts58", is both alike), then those named after "-" left out."""
    taken: set[str] = set()
    for name in names:
        if not name.startswith("-"):
            taken |= PRESETS.get(name, {name})
    for name in names:
        if name.startswith("-"):
            taken -= PRESETS.get(name[1:], {name[1:]})
    return frozenset(taken)


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
