"""How a scanner goes fast: which speed mechanisms it uses (:class:`Speed`), their knobs
(:class:`Tuning`) and what they did (:class:`ScanStats`).

Every mechanism must answer exactly as the plain rule-by-rule path, ``Speed.none()``:
the tests compare the two, and each mechanism off alone, on generated text and on the
shared corpora, under every chunking (``tests/test_equivalence.py``, ``tests/fuzz``).
What each one is worth is measured by ``bench/ablation.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace

__all__ = ["ScanStats", "Speed", "Tuning"]


@dataclass(frozen=True, slots=True)
class Tuning:
    """The knobs of the speed mechanisms and of the buffer; the defaults are measured
    (``bench/ablation.py``), and tests shrink them to reach every path on short text."""

    min_batch: int = 1 << 16
    """Text is scanned once at least this much is pending (amortises the look-behind)."""
    slice: int = 1 << 16
    """A text given whole (``Scanner.hits``) is scanned this much at a time, so that the
    hits held at once stay few."""
    dense_misses: int = 32
    """Fruitless triggers of one character that switch to the dense prefilters ..."""
    dense_gap: int = 64
    """... when "<" stand at most this far apart on average ..."""
    colon_gap: int = 128
    """... or colons this far (a fruitless colon costs more than a fruitless "<")."""
    dense_span: int = 1 << 16
    """How far a dense stretch goes before the sparse prefilters are tried again."""
    dense_block: int = 1 << 12
    """The first block the dense colon search reads at once (doubled up to the span)."""
    run_kept: int = 256
    """Runs (and URNs) at least this long are kept for the candidates after them."""
    brackets_counted: int = 16
    """Closers a candidate counts one by one before it reads its run's bracket levels."""
    word_misses: int = 16
    """Triggers decided one by one before a word leap is tried ..."""
    word_gap: int = 32
    """... when they stand at most this far apart on average."""
    word_block: int = 1 << 12
    """The first block of words a leap reads (twice as long after each try) ..."""
    word_block_max: int = 1 << 16
    """... up to this."""
    word_room: int = 1 << 10
    """The least text before an unfinished buffer's look-ahead a word leap needs."""
    word_unknown: int = 64
    """A block with more words not met before is not leapt ..."""
    word_sample: int = 1 << 10
    """... nor one with more than :attr:`word_few` of them in this much at its start."""
    word_few: int = 16
    word_alone: int = 8
    """The words decided alone may be at most 1/word_alone of a block."""
    word_kept: int = 1 << 18
    """Characters of words remembered at most (then all are forgotten)."""


@dataclass(frozen=True, slots=True)
class Speed:
    """Switches for the scanner's speed mechanisms (all on by default)."""

    shortcut: bool = True
    """A bare URI of the common shape decided, and keyed, in one match at its colon."""
    angle_shortcut: bool = True
    """``<scheme:...>`` on one line decided in one match."""
    scheme_guess: bool = True
    """The last registered scheme looked up is compared first at the next colon."""
    kept: bool = True
    """Run ends, URN ends, bracket levels and hyphen chains read once for every
    candidate of the same stretch (else each candidate reads them again)."""
    dense: bool = True
    """Where triggers crowd and lead nowhere, prefilters that know the scheme names,
    run in C over blocks of text."""
    hits_only: bool = True
    """For a scanner of hits only, the dense prefilters also pass over what the rules
    could only reject, and a URI broken at hyphens whose first piece holds a host no
    DNS name can be is rejected before its chain is read."""
    word_leaps: bool = True
    """For a scanner of hits only, each distinct word of a dense block decided once."""
    tuning: Tuning = field(default_factory=Tuning)
    """The mechanisms' knobs."""

    @classmethod
    def all(cls) -> Speed:
        """Every mechanism on (the default)."""
        return cls()

    @classmethod
    def none(cls) -> Speed:
        """Every mechanism off: the plain rule-by-rule reference path."""
        off: dict[str, bool] = dict.fromkeys(cls.names(), False)
        return cls(**off)  # type: ignore[arg-type]

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """The mechanisms' names, in order."""
        return tuple(f.name for f in fields(cls) if f.name != "tuning")

    def without(self, *names: str) -> Speed:
        """This one with the mechanisms *names* off."""
        off: dict[str, bool] = dict.fromkeys(names, False)
        return replace(self, **off)  # type: ignore[arg-type]

    def tuned(self, **knobs: int) -> Speed:
        """This one with the :class:`Tuning` knobs *knobs* changed."""
        return replace(self, tuning=replace(self.tuning, **knobs))


@dataclass(slots=True)
class ScanStats:
    """What a scanner's mechanisms did so far (counted once per scan, for tests)."""

    shortcut_hits: int = 0
    """Hits a shortcut decided (bare or angle: their ``context`` tells)."""
    dense_stretches: int = 0
    """Stretches scanned with the dense prefilters."""
    word_blocks: int = 0
    """Blocks of words passed over by a word leap."""
    words_decided: int = 0
    """Distinct words decided alone for the word leaps."""
    words_forgotten: int = 0
    """Times the words remembered were forgotten (their bound reached)."""
