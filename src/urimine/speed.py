"""Which speed mechanisms a scanner uses: each one can be switched off on its own.

Every mechanism must answer exactly as the plain rule-by-rule path, ``Speed.none()``;
the tests compare the two (and each single mechanism off) on generated text and on
real corpora.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

__all__ = ["Speed"]


@dataclass(frozen=True, slots=True)
class Speed:
    """Switches for the scanner's speed mechanisms (all on by default)."""

    shortcut: bool = True
    angle_shortcut: bool = True
    memo: bool = True
    scheme_guess: bool = True
    kept: bool = True
    train: bool = True
    dense: bool = True
    hits_only: bool = True
    leaps: bool = True
    alarms: bool = True
    vocabulary: bool = True
    urn_masks: bool = True
    tag_masks: bool = True
    word_leaps: bool = True

    @classmethod
    def all(cls) -> Speed:
        """Every mechanism on (the default)."""
        return cls()

    @classmethod
    def none(cls) -> Speed:
        """Every mechanism off: the plain rule-by-rule reference path."""
        return cls(**{f.name: False for f in fields(cls)})

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """The mechanisms' names, in order."""
        return tuple(f.name for f in fields(cls))

    def without(self, *names: str) -> Speed:
        """This one with the mechanisms *names* off."""
        return replace(self, **{name: False for name in names})
