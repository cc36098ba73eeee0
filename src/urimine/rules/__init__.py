"""Delimiting rules: what a URI looks like in running text.

The rules are those of "Recommendations for Delimiting URI in Context" (seed 002
Appendix E; seed 001 Appendix E; RFC 1738's appendix), seed 003 2.5.3 for URNs in text
and seed 000 3.3 for the 1993 URN form. Each is an entry of the rule table
(:mod:`urimine.rules.table`); ``docs/rules.md`` says how to add one.
"""

from __future__ import annotations

from urimine.rules.base import Candidate, Pending
from urimine.rules.config import ALL_RULES, PRESETS, Config
from urimine.rules.delimit import quote_depth
from urimine.rules.patterns import OTHER_TRAIL, STOP_CHAR

__all__ = [
    "ALL_RULES",
    "OTHER_TRAIL",
    "PRESETS",
    "STOP_CHAR",
    "Candidate",
    "Config",
    "Pending",
    "quote_depth",
]
