"""From parsed arguments to what a run uses: extraction options, the walk, filters, and
the contradictions that make a usage error."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING

from urimine.choices import PRESETS, check_rules
from urimine.errors import ConfigError

if TYPE_CHECKING:
    from urimine.pipeline import Options
    from urimine.sources import Walk

__all__ = ["KINDS", "contradiction", "csv_items", "extraction_options", "walk_options"]


def extraction_options(args: argparse.Namespace) -> Options:
    """The extraction options of ``--rules``, ``--extra-scheme``, ``--max-length``,
    ``--encoding`` and ``--headers``, checked now (a bad one is a :class:`ConfigError`
    naming the option, before any input is read or any worker started), by name: the
    scanner is built at the first text."""
    from urimine.pipeline import Options
    from urimine.sources.text import check_encoding

    rules: str | tuple[str, ...] = args.rules
    if "," in args.rules or args.rules not in PRESETS:
        rules = tuple(r.strip() for r in args.rules.split(",") if r.strip())
        if not rules:
            raise ConfigError(f"--rules: no rule named in {args.rules!r}")
    if args.encoding is not None and not check_encoding(args.encoding):
        raise ConfigError(f"--encoding: unknown text encoding {args.encoding!r}")
    extra = tuple(csv_items(args.extra_scheme or []))
    try:
        check_rules(rules)
    except ConfigError as exc:
        raise ConfigError(f"--rules: {exc}") from exc
    return Options(rules, args.max_length, extra, args.encoding, args.headers)


def walk_options(args: argparse.Namespace) -> Walk:
    """How folders are walked, from ``--hidden``, ``--no-ignore``, ``-g``,
    ``--max-depth`` and ``--follow``."""
    from urimine.sources import Walk

    return Walk(
        hidden=args.hidden,
        ignore_files=not args.no_ignore,
        globs=tuple(args.glob),
        max_depth=args.max_depth,
        follow=args.follow,
    )


KINDS = ("uri", "urn", "urn-legacy")


def contradiction(args: argparse.Namespace) -> str | None:
    """Why the extraction options cannot all hold, or None: options that exclude each
    other or a filter that nothing could pass."""
    if args.count and (args.all or args.per_document):
        other = "--all" if args.all else "--per-document"
        return f"--count and {other}: --count writes each URI once, with its counts"
    kinds = {k.lower() for k in csv_items(args.kind)}
    unknown = kinds - set(KINDS)
    if unknown:
        return f"--kind: unknown {', '.join(sorted(unknown))} (uri, urn, urn-legacy)"
    schemes = set(csv_items(args.scheme))
    both = schemes & set(csv_items(args.exclude_scheme))
    if both:
        return f"--scheme and --exclude-scheme both name {', '.join(sorted(both))}"
    if kinds and schemes:
        wanted = {"urn"} if "uri" not in kinds else set()
        if wanted and not schemes & wanted:
            return "--kind urn and --scheme without urn: a URN's scheme is urn"
        if "uri" in kinds and kinds == {"uri"} and schemes == {"urn"}:
            return "--kind uri and --scheme urn: urn: names are URNs"
    if (args.host or args.exclude_host) and kinds and "uri" not in kinds:
        return "--host/--exclude-host and --kind without uri: URNs have no host"
    return _host_contradiction(csv_items(args.host), csv_items(args.exclude_host))


def _host_contradiction(hosts: list[str], excluded: list[str]) -> str | None:
    from urimine.rows import HostSet

    if not hosts or not excluded:
        return None
    out = HostSet(excluded)
    for host in hosts:
        if any(name in out for name in HostSet([host]).names):
            return f"--host {host} is excluded by --exclude-host"
    return None


def csv_items(values: Sequence[str | list[str]]) -> list[str]:
    """The items of a repeatable option whose values may be comma-separated lists."""
    items: list[str] = []
    for value in values:
        parts = value if isinstance(value, list) else value.split(",")
        items += [part.strip() for part in parts if part.strip()]
    return list(dict.fromkeys(items))
