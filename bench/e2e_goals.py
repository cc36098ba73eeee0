"""The goals of issue 29, judged on one run's rows of ``bench/e2e.py``.

Every ratio is of medians measured in the same run, the commands alternating, so that
load from other work on the machine falls on both sides alike.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from e2e_run import Variant

RSS_LIMIT_MB = 100.0
# "No wall-clock gain": the default -j is less than this much faster than -j 1.
WALL_GAIN = 1.1


@dataclass
class Row:
    """A row: its variants, and what its rate is counted in."""

    name: str
    title: str
    variants: list[Variant]
    megabytes: float = 0.0
    files: int = 0
    notes: list[str] = field(default_factory=list)

    def get(self, key: str, side: str | None = None) -> Variant | None:
        for variant in self.variants:
            if variant.key == key and variant.side == side and not variant.failed:
                return variant
        return None


@dataclass
class Goal:
    """One line of the goals table for one urimine command: ``met`` is None for a figure
    the issue gives no bar for, or that could not be measured."""

    text: str
    shown: str
    met: bool | None


def _ratio(top: Variant | None, bottom: Variant | None, name: str = "cpu") -> float | None:
    if top is None or bottom is None or bottom.median(name) <= 0:
        return None
    return top.median(name) / bottom.median(name)


def _goal(text: str, value: float | None, test: Callable[[float], bool] | None) -> Goal:
    if value is None:
        return Goal(text, "not measured", None)
    return Goal(text, f"{value:.2f}×", test(value) if test else None)


def startup(row: Row, side: str) -> list[Goal]:
    value = _ratio(row.get("urimine", side), row.get("import"))
    text = f'{row.title}: CPU at most 3× `python -c "import regex, sqlite3, argparse, json"`'
    return [_goal(text, value, lambda v: v <= 3)]


def _jobs_policy(row: Row, side: str) -> list[Goal]:
    default, single = row.get("urimine", side), row.get("urimine-j1", side)
    cost = _ratio(default, single)
    speedup = _ratio(single, default, "wall")
    text = (
        f"{row.title}: default `-j` costs at most 1.15× the CPU of `-j 1` where it gives "
        f"no wall-clock gain (< {WALL_GAIN}× faster)"
    )
    goal = _goal(text, cost, lambda v: v <= 1.15)
    if speedup is not None and speedup >= WALL_GAIN and goal.met is False:
        goal.met = None
        goal.shown += f" (but {speedup:.2f}× faster: not judged)"
    wall = _goal(f"{row.title}: wall-clock speed-up of the default `-j` over `-j 1`", speedup, None)
    return [goal, wall]


def text(row: Row, side: str) -> list[Goal]:
    naive = row.get("naive")
    return [
        _goal(
            f"{row.title}, default options: at least 3× less CPU than the naive `re` script",
            _ratio(naive, row.get("urimine", side)),
            lambda v: v >= 3,
        ),
        _goal(
            f"{row.title}, `-j 1`: less CPU than the naive `re` script by",
            _ratio(naive, row.get("urimine-j1", side)),
            None,
        ),
        _goal(
            f"{row.title}, default options: less CPU than the naive script, plain pattern, by",
            _ratio(row.get("naive-plain"), row.get("urimine", side)),
            None,
        ),
        *_jobs_policy(row, side),
    ]


def _rate(row: Row, variant: Variant | None) -> float | None:
    return row.megabytes / variant.median("wall") if variant else None


def _mb_s(text: str, value: float | None, bar: float | None) -> Goal:
    if value is None:
        return Goal(text, "not measured", None)
    return Goal(text, f"{value:.1f} MB/s", None if bar is None else value >= bar)


def mail(row: Row, side: str) -> list[Goal]:
    urimine = row.get("urimine", side)
    return [
        _goal(
            f"{row.title}: at least 2× less CPU than the stdlib compat32 script",
            _ratio(row.get("stdlib"), urimine),
            lambda v: v >= 2,
        ),
        _mb_s(f"{row.title}: end to end (input MB / wall s)", _rate(row, urimine), None),
        *_jobs_policy(row, side),
    ]


def small(row: Row, side: str) -> list[Goal]:
    urimine, naive, rg = row.get("urimine", side), row.get("naive"), row.get("rg")
    ratio = _ratio(naive, urimine)
    goals = [
        _goal(
            f"{row.title}: at least 1.2× less CPU than the naive walk script",
            ratio,
            lambda v: v >= 1.2,
        ),
        _goal(
            f"{row.title}: beyond the bar, 1.5× less CPU than the naive walk",
            ratio,
            lambda v: v >= 1.5,
        ),
        _goal(
            f"{row.title}: less CPU than the naive walk, plain pattern, by",
            _ratio(row.get("naive-plain"), urimine),
            None,
        ),
    ]
    for name, variant in (("urimine", urimine), ("ripgrep (the ceiling)", rg)):
        if variant is not None:
            rate = row.files / variant.median("wall")
            goals.append(Goal(f"{row.title}: {name}, files a wall second", f"{rate:,.0f}", None))
    return goals + _jobs_policy(row, side)


def big(row: Row, side: str) -> list[Goal]:
    default = row.get("urimine", side)
    speedup = _ratio(row.get("urimine-j1", side), default, "wall")
    goals = [
        _goal(
            f"{row.title}: default `-j` at least 1.8× faster than `-j 1` (wall)",
            speedup,
            lambda v: v >= 1.8,
        ),
        *_jobs_policy(row, side)[:1],
    ]
    if row.name == "big-mail":
        goals.append(
            _mb_s(f"{row.title}: beyond the bar, 100 MB/s end to end", _rate(row, default), 100)
        )
    return goals


JUDGES: dict[str, Callable[[Row, str], list[Goal]]] = {
    "startup-empty": startup,
    "startup-query": startup,
    "text": text,
    "mail": mail,
    "small": small,
    "big-text": big,
    "big-mail": big,
}


def rss(rows: list[Row], side: str) -> Goal:
    """The largest peak RSS of any urimine run of ``side``, and in which row."""
    peaks = [
        (max(run.rss_mb for run in v.runs), row.title)
        for row in rows
        for v in row.variants
        if v.side == side and v.runs and not v.failed
    ]
    text = f"Peak RSS (largest process) under {RSS_LIMIT_MB:.0f} MB at any input size"
    if not peaks:
        return Goal(text, "not measured", None)
    peak, where = max(peaks)
    return Goal(text, f"{peak:.1f} MB ({where})", peak < RSS_LIMIT_MB)


def judge(rows: list[Row], sides: list[str]) -> dict[str, list[Goal]]:
    """Every goal of the measured rows, for each urimine command."""
    return {
        side: [goal for row in rows for goal in JUDGES[row.name](row, side)] + [rss(rows, side)]
        for side in sides
    }
