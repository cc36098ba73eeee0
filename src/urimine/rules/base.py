"""What a delimiting rule is and what it answers.

A rule is an entry of the rule table (:mod:`urimine.rules.table`): its name (as in
``rules=``), its sites (the function the scan loop calls at each trigger character,
shared by the rules of that trigger) and its prefilter fragment at each trigger for
each :class:`Mode`. A site looks at a trigger position of a buffer and
answers with a :class:`Candidate`, a :data:`Shortcut` (a URI decided in one match), an
``int`` (nothing starts here nor before that index: go on from there), ``None`` (nothing
here) or :data:`Pending` (more text is needed to decide).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Union

import regex

from urimine.errors import Reason

if TYPE_CHECKING:
    from urimine.rules.config import Config
    from urimine.rules.context import Context

__all__ = ["Candidate", "ColonFragment", "Mode", "Pending", "Result", "Rule", "Shortcut"]


class PendingType:
    """Sentinel type: the rule cannot decide before more text arrives."""

    def __repr__(self) -> str:
        return "Pending"


Pending = PendingType()

Shortcut = tuple[int, int, str, str, str, str, str]
"""A URI decided in one match: ``(start, end, uri, context, scheme, key, kind)``; a
``key`` of "" is still to be computed."""


@dataclass(slots=True)
class Candidate:
    """What a rule found: a URI (``reason`` None) or a rejection, as buffer indices."""

    start: int
    end: int
    context: str
    uri: str = ""
    kind: str = "uri"
    scheme: str = ""
    alternative: str | None = None
    reason: Reason | None = None
    detail: str = ""
    too_long: bool = False
    consume: bool = True
    """Whether scanning resumes after ``end`` (True) or just after the trigger."""
    resume: int = 0
    """With ``consume`` False: where scanning may resume, when past the trigger."""
    strict: bool = True
    """Whether the URI is one as RFC 3986 (or RFC 3987) writes it (see ``Hit.strict``)."""


Result = Union[Candidate, Shortcut, int, PendingType, None]  # noqa: UP007 (a runtime alias)
Site = Callable[["Context", str, int, int, bool], Result]
"""A trigger's decision: ``site(ctx, buf, i, last_end, final)``; ``last_end`` is where the last
candidate ended (nothing before it may be read as part of a new one)."""


class Mode(enum.Enum):
    """Which prefilter a fragment is for."""

    SPARSE = "sparse"
    """Every position a site may answer anything but None at: cheap, literal-first."""
    DENSE = "dense"
    """The same positions, stricter: for stretches where triggers crowd."""
    DENSE_HITS = "dense-hits"
    """For a scanner of hits only: where a site may give a hit or consume text."""


@dataclass(frozen=True, slots=True)
class ColonFragment:
    """At a scheme's colon, in the dense modes: what may follow the colon of these names.
    (The dense colon search finds the names in C; this is then asked at their colons.)"""

    names: frozenset[str] | None
    """The lower-case scheme names it is for; None: every name the colon site takes."""
    after: str
    """Regex source at the colon (it starts with ":"): where the rule may decide
    something."""
    short: str | None = None
    """The same where no candidate from the colon can be too long for the length bound
    (a too-long one is rejected and ends the scan at the next white space, so a scanner
    of hits only must stop there); None: :attr:`after`."""
    near: tuple[str, ...] = ()
    """What :attr:`after` needs in any case right after the colon, a character class
    (its body, ASCII) a character: asked by the names search itself, in C."""
    short_near: tuple[str, ...] = ()
    """What :attr:`short` needs right after the colon, as :attr:`near`: asked in C where
    no run after a colon of the block may be too long."""
    short_never: tuple[str, ...] = ()
    """What :attr:`short` never matches right after the colon (one character class a
    character): asked in C as :attr:`short_near` is."""
    any_word: bool = False
    """Also at the colon of any word followed by "//", registered or not (:attr:`after`
    then needs the "//")."""
    before: tuple[str, ...] = ()
    """What must stand right before the name, one of these strings (ASCII, compared in
    lower case): asked by the names search itself, in C; (): anything."""


Fragment = Callable[[Mode, "Config"], "str | list[ColonFragment] | None"]
"""A rule's prefilter fragment at one trigger: the regex source, starting with the
trigger character, that matches wherever the rule may decide something in that mode;
at ":" in the dense modes, :class:`ColonFragment` s; None: nothing of its own."""


@dataclass(frozen=True, slots=True)
class Rule:
    """An entry of the rule table."""

    name: str
    """The rule's name in ``rules=`` and ``--rules``."""
    sites: dict[str, Site]
    """The decision the loop calls at each trigger character (shared by every rule of
    that trigger); none: the rule shapes what others decide."""
    fragments: dict[str, Fragment]
    """Its prefilter fragment at each trigger character."""
    what: str
    """One line: what it finds, and where that comes from."""


def unfinished(
    partial: regex.Pattern[str], buf: str, i: int
) -> regex.Match[str] | PendingType | None:
    """Where a pattern compiled by ``re`` failed at ``i`` in an unfinished buffer: Pending
    if more text could still make *partial* (the same pattern, by ``regex``) match, else
    its match or None. (``regex`` may first look for a character the pattern needs up to
    the end of the text: ask it only where the text may end within the match.)"""
    p = partial.match(buf, i, partial=True)
    return Pending if p is not None and p.partial else p
