"""Rule selection: the rule names, the presets, and a compiled, immutable :class:`Config`
(which rules are on, the scheme list, the length bound). It holds no state of any text:
the memos belong to each scanner (:mod:`urimine.fast.memos`)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache

from urimine.choices import ALL_RULES, PRESETS, check_rules, select
from urimine.errors import ConfigError
from urimine.rules.patterns import RUN_CHAR
from urimine.schemes import registered_schemes

__all__ = ["ALL_RULES", "PRESETS", "Config"]


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
        rules together (``"default,email"``, ``"email"``, ``("default", "unwrap")``), and
        rules left out (``"default,-abbreviated"``), as
        ``--rules`` reads them; cached."""
        if isinstance(rules, str) and ("," in rules or rules not in PRESETS):
            rules = [name.strip() for name in rules.split(",") if name.strip()]
        chosen = rules if isinstance(rules, str) else frozenset(rules)
        return _build(chosen, max_len, frozenset(s.strip().lower() for s in extra_schemes))


@cache
def _build(rules: str | frozenset[str], max_len: int, extra_schemes: frozenset[str]) -> Config:
    check_rules(rules if isinstance(rules, str) else tuple(rules))
    chosen = PRESETS[rules] if isinstance(rules, str) else select(rules)
    if max_len < 16:
        raise ConfigError("max_candidate_len must be at least 16")
    return Config(
        rules=chosen,
        max_len=max_len,
        schemes=frozenset(registered_schemes() | extra_schemes),
        run=re.compile(f"{RUN_CHAR}{{0,{max_len}}}"),
    )
