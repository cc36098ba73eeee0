"""Markdown and JSON of one run of ``bench/e2e.py``."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from e2e_goals import Goal, Row
from e2e_run import Variant

MARK = {True: "✅", False: "❌", None: "—"}


def _goal_table(goals: dict[str, list[Goal]], labels: dict[str, str]) -> list[str]:
    sides = list(goals)
    head = "| Goal (issue 29) | " + " | ".join(f"{labels[s]} | met" for s in sides) + " |"
    lines = [head, "|---" + "|---:|:-:" * len(sides) + "|"]
    for number, goal in enumerate(goals[sides[0]]):
        cells = []
        for side in sides:
            mine = goals[side][number]
            cells += [mine.shown, MARK[mine.met]]
        lines.append(f"| {goal.text} | " + " | ".join(cells) + " |")
    return lines


def _rate(row: Row, variant: Variant) -> str:
    wall, cpu = variant.median("wall"), variant.median("cpu")
    if row.files:
        return f"{row.files / wall:,.0f} files/s; {cpu / row.files * 1e6:.0f} µs CPU a file"
    if row.megabytes:
        return f"{row.megabytes / wall:.1f} MB/s; {row.megabytes / cpu:.1f} MB per CPU s"
    return ""


def _measure_line(row: Row, variant: Variant, shown: Callable[[list[str]], str]) -> str:
    command = f"`{shown(variant.argv)}`"
    if variant.failed:
        return f"| {row.title} | {command} | failed: {variant.failed} |  |  |  |  |"
    peak = max(run.rss_mb for run in variant.runs)
    cells = [
        f"{variant.median('cpu'):.3f}",
        f"{variant.median('wall'):.3f}",
        f"{peak:.1f}",
        f"{variant.runs[-1].lines:,}",
        _rate(row, variant),
    ]
    return f"| {row.title} | {command} | " + " | ".join(cells) + " |"


def _measure_table(rows: list[Row], shown: Callable[[list[str]], str]) -> list[str]:
    lines = [
        "| Row | Command | CPU s | wall s | peak RSS MB | distinct lines out | rate (wall; CPU) |",
        "|---|---|---:|---:|---:|---:|---|",
    ]
    for row in rows:
        lines += [_measure_line(row, v, shown) for v in row.variants]
    return lines


def markdown(
    header: list[str],
    rows: list[Row],
    goals: dict[str, list[Goal]],
    labels: dict[str, str],
    shown: Callable[[list[str]], str],
) -> str:
    notes = [f"- {row.title}: {note}" for row in rows for note in row.notes]
    notes += [
        f"- {row.title}: `{shown(v.argv)}` left processes running after it exited "
        "(reaped by the launcher; their CPU is counted)"
        for row in rows
        for v in row.variants
        if any(run.orphans for run in v.runs)
    ]
    parts = [
        *header,
        "",
        "## Goals",
        "",
        *_goal_table(goals, labels),
        "",
        "## Measurements",
        "",
        "Median of the runs; peak RSS is the largest seen; *distinct lines out* counts the "
        "last run's output once per distinct line (the baselines print every occurrence, "
        "urimine each URI once), so it compares what the tools found.",
        "",
        *_measure_table(rows, shown),
    ]
    if notes:
        parts += ["", "## Notes", "", *notes]
    return "\n".join(parts) + "\n"


def as_json(
    meta: dict[str, object],
    rows: list[Row],
    goals: dict[str, list[Goal]],
    shown: Callable[[list[str]], str],
) -> str:
    data = {
        "meta": meta,
        "rows": [
            {
                "name": row.name,
                "title": row.title,
                "megabytes": row.megabytes,
                "files": row.files,
                "notes": row.notes,
                "variants": [{**v.as_json(), "command": shown(v.argv)} for v in row.variants],
            }
            for row in rows
        ],
        "goals": {side: [g.__dict__ for g in side_goals] for side, side_goals in goals.items()},
    }
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def write(prefix: Path, text: str, data: str) -> None:
    prefix.parent.mkdir(parents=True, exist_ok=True)
    prefix.with_suffix(".md").write_text(text)
    prefix.with_suffix(".json").write_text(data)
