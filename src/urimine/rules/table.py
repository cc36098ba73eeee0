"""The rule table: every delimiting rule, its sites and its prefilter fragments.

The scan loop calls the site of a trigger character (shared by every rule of that
trigger, in table order within it); the prefilters are composed from the fragments of
the rules a scanner enables (:mod:`urimine.fast.prefilters`), and
``tests/test_prefilters.py`` checks, for every entry, that they match wherever its
sites decide something. ``docs/rules.md`` walks through adding a rule.
"""

from __future__ import annotations

from functools import cache

from urimine.rules import (
    abbreviated,
    angle,
    bare,
    colon,
    defanged,
    domains,
    dots,
    email,
    escaped,
    legacy_urn,
    slashed,
    urn_text,
    uts58,
    wrapped,
)
from urimine.rules.base import Fragment, Rule, Site
from urimine.rules.config import Config

__all__ = ["TABLE", "fragments", "sites"]


def _at_colon(name: str, fragment: Fragment, what: str) -> Rule:
    """A rule the colon's site decides (its reading of the word before the colon)."""
    return Rule(name, {":": colon.decide}, {":": fragment}, what)


def _at_dot(name: str, fragment: Fragment, what: str) -> Rule:
    """A rule the label dot's site decides (a host written without its scheme)."""
    return Rule(name, {".": dots.decide}, {".": fragment}, what)


def _shaping(name: str, what: str) -> Rule:
    """A rule with no trigger of its own: it shapes what the others decide."""
    return Rule(name, {}, {}, what)


TABLE: tuple[Rule, ...] = (
    Rule(
        "legacy-urn",
        {"<": angle.decide},
        {"<": legacy_urn.fragment},
        "<URN:enc:scheme:authority:opaque>, the 1993 form (seed 000 3.3)",
    ),
    Rule(
        "angle",
        {"<": angle.decide},
        {"<": angle.fragment},
        "<...>, white space inside ignored (RFC 3986 Appendix C)",
    ),
    Rule(
        "url-prefix",
        {":": colon.decide, "<": angle.decide},
        {":": bare.fragment, "<": angle.prefix_fragment},
        "URL:... and <URL:...> (RFC 3986 Appendix C; RFC 1738 appendix)",
    ),
    _at_colon(
        "quote",
        bare.fragment,
        "\"...\" and '...' around a URI (RFC 3986 Appendix C; HTML attributes)",
    ),
    _at_colon(
        "bare",
        bare.fragment,
        "a URI of a registered scheme delimited by white space (RFC 3986 Appendix C)",
    ),
    _at_colon(
        "urn",
        urn_text.fragment,
        "urn:NID:NSS in text, ending at an excluded character (seed 003 2.5.3)",
    ),
    _shaping("hyphen", "a URI broken after a hyphen at a line end (RFC 3986 Appendix C)"),
    _shaping("any-scheme", "unregistered schemes too, outside angle brackets"),
    _shaping(
        "web-chars",
        "[ ] { } | ^ and a second # in a path, query or fragment kept, not strict (WHATWG URL)",
    ),
    _at_colon(
        "slashed",
        slashed.fragment,
        "an unregistered scheme written with //authority (RFC 3986 3.1, 3.2), jdbc:x://...",
    ),
    _at_colon(
        "glued",
        slashed.fragment,
        "http:// or https:// glued to the word before it: the registered scheme",
    ),
    _shaping(
        "possessive",
        "a possessive 's ending a bare URI is prose; the longer reading is the alternative",
    ),
    _at_colon(
        "escaped",
        escaped.fragment,
        "&lt;...&gt;, &quot;...&quot; delimit; https:\\/\\/ is read unescaped (JSON)",
    ),
    _at_colon(
        "latex",
        escaped.latex_fragment,
        "\\url{...} and \\href{...}{...} delimit, LaTeX's escapes read (\\# \\% \\& \\_ \\~)",
    ),
    _shaping(
        "labels",
        "Fax:, Content-Type:, at:, bb:ed:b6 are labels, not URIs (IANA status, shape)",
    ),
    _at_dot(
        "abbreviated",
        abbreviated.fragment,
        "www. and ftp. hosts without their scheme, completed (seed 002 Appendix F)",
    ),
    _at_dot(
        "domains",
        domains.fragment,
        "any host whose last label is a top-level domain, completed with http://",
    ),
    Rule(
        "email",
        {"@": email.decide},
        {"@": email.fragment},
        "e-mail addresses as mailto: URIs (UTS #58 Link_Email; RFC 5321, RFC 6531)",
    ),
    Rule(
        "defanged",
        {c: defanged.decide for c in "[({xX"},
        {c: defanged.fragment_at(c) for c in "[({xX"},
        "defanged indicators (hxxp, [.], [at]...) as threat reports write them, refanged",
    ),
    _shaping("unwrap", "the targets of security wrappers and redirectors, as more hits"),
    Rule(
        "uts58",
        {".": dots.decide, "\u3002": dots.decide, "\uff0e": dots.decide, "\uff61": dots.decide},
        {
            ".": uts58.fragment,
            "\u3002": uts58.ideographic_fragment,
            "\uff0e": uts58.fullwidth_fragment,
            "\uff61": uts58.halfwidth_fragment,
        },
        "link detection exactly as UTS #58 specifies it (its section 3)",
    ),
    Rule(
        "wrapped",
        {":": colon.decide, "<": angle.decide},
        {":": wrapped.fragment, "<": wrapped.angle_fragment},
        "scheme:// ending a line, its authority on the next, joined; <htt\\n p://...> too",
    ),
)


@cache
def sites(cfg: Config) -> dict[str, Site]:
    """The site of each trigger character of the rules *cfg* enables (one dict per
    configuration, shared by its scanners: not to be changed)."""
    out: dict[str, Site] = {}
    for rule in TABLE:
        if rule.name in cfg.rules:
            for char, site in rule.sites.items():
                assert out.setdefault(char, site) is site, f"two sites at {char!r}"
    return out


def fragments(cfg: Config, char: str) -> list[Fragment]:
    """The fragments of the rules *cfg* enables at the trigger *char*, in table order."""
    return [
        rule.fragments[char] for rule in TABLE if rule.name in cfg.rules and char in rule.fragments
    ]
