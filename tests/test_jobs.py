"""The worker count (``-j``, issue 29): chosen from the input's size and the CPUs the
process may use; the output the same whatever the count."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from urimine.jobs import PER_WORKER, WorkerPlan, requested_jobs, usable_cpus, workers_for

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "corpora" / "fixtures"
SEEDS = ROOT / "corpora" / "seeds"


def urimine(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "urimine", "--no-progress", *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def _affinity() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def test_small_inputs_get_no_workers() -> None:
    for size in (0, 1, 5 << 20, 26 << 20, 100 << 20, 2 * PER_WORKER - 1):
        assert workers_for(size, cpus=8) == 1


def test_large_inputs_get_a_worker_per_share_up_to_the_usable_cpus() -> None:
    assert workers_for(2 * PER_WORKER, cpus=8) == 2
    assert workers_for(5 * PER_WORKER + 1, cpus=8) == 5
    for size in (1 << 40, 8 * PER_WORKER):
        assert workers_for(size, cpus=8) == 8
        assert workers_for(size, cpus=2) == 2
        assert workers_for(size, cpus=1) == 1  # one CPU: workers cannot be faster
    assert workers_for(1 << 40) == usable_cpus() or usable_cpus() == 1
    assert workers_for(1 << 30, cpus=2) == 2  # 1 GB on this project's 2-core machines


def test_usable_cpus_are_those_the_process_may_run_on() -> None:
    assert 1 <= usable_cpus() <= _affinity()


def test_a_given_count_is_obeyed_up_to_the_usable_cpus() -> None:
    said: list[str] = []
    assert requested_jobs(None, said.append) is None  # the default: decided by size
    assert requested_jobs(1, said.append) == 1
    assert requested_jobs(usable_cpus(), said.append) == usable_cpus()
    assert said == []
    assert requested_jobs(usable_cpus() + 5, said.append) == usable_cpus()
    assert said == [f"-j {usable_cpus() + 5}: {usable_cpus()} worker processes, one per usable CPU"]


def test_the_plan_switches_to_workers_once_the_input_is_large() -> None:
    plan = WorkerPlan(None)
    assert [plan(PER_WORKER // 2) for _ in range(3)] == [False] * 3
    assert plan.jobs == 1
    assert plan(PER_WORKER // 2) is (usable_cpus() > 1)  # the inputs reach the mark
    assert plan(0) is (usable_cpus() > 1)  # and the rest of the run stays with workers
    assert plan.jobs == workers_for(2 * PER_WORKER)
    fixed = WorkerPlan(1)
    assert not fixed(1 << 40) and fixed.jobs == 1
    two = WorkerPlan(2)
    assert two(0) and two.jobs == 2


def _mixed_inputs(tmp_path: Path) -> list[str]:
    """Every kind of input, each a few times, and text files larger than the ones read
    whole, with and without blank lines (their ranges read by the workers)."""
    large = tmp_path / "large.txt"
    seeds = "".join(p.read_text("utf-8") for p in sorted(SEEDS.glob("*.txt")))
    with large.open("w", encoding="utf-8") as fh:
        while fh.tell() < (3 << 20):
            fh.write(seeds)
    flat = tmp_path / "flat.txt"
    flat.write_text("a line http://flat.example/x and no blank line\n" * 60000, "utf-8")
    paths = [str(p) for p in sorted(FIXTURES.iterdir()) if p.name != "make_fixtures.py"]
    return [*paths, str(large), str(SEEDS), str(flat), *paths]


@pytest.mark.parametrize("mode", [["--all"], []])
def test_the_output_is_the_same_whatever_the_worker_count(tmp_path: Path, mode: list[str]) -> None:
    inputs = _mixed_inputs(tmp_path)
    runs = {
        jobs: urimine(*mode, "-f", "jsonl", *jobs, *inputs)
        for jobs in ((), ("-j", "1"), ("-j", "2"), ("-j", "64"))
    }
    first = runs[()]
    assert first.stdout.count("\n") > 150
    for run in runs.values():
        assert run.returncode == first.returncode == 2  # the fixtures hold cut files
        assert run.stdout == first.stdout
        assert sorted(run.stderr.splitlines()) == sorted(first.stderr.splitlines())


def test_the_default_uses_workers_for_large_input_only(tmp_path: Path) -> None:
    """A large file (mostly a hole: NULs that cost nothing to store) makes the default
    use workers, a small one not; the -v summary says which, the output is the same."""
    small = tmp_path / "small.txt"
    small.write_text("see http://small.example/\n", "utf-8")
    large = tmp_path / "large.txt"
    with large.open("wb") as fh:
        fh.write(b"head http://a.example/\n\n" + b"some words, no link\n" * 4000 + b"\n")
        fh.seek(2 * PER_WORKER)
        fh.write(b"\n\nhttp://tail.example/\n")
    quiet = urimine("-v", str(small))
    assert quiet.stderr.rstrip().endswith(", no worker processes)")
    assert quiet.stdout == "http://small.example/\n"
    chosen = urimine("-v", str(small), str(large))
    one = urimine("-v", "-j", "1", str(small), str(large))
    expected = f"{usable_cpus()} worker processes" if usable_cpus() > 1 else "no worker processes"
    assert chosen.stderr.rstrip().endswith(f", {expected})")
    assert one.stderr.rstrip().endswith(", no worker processes)")
    assert (
        chosen.stdout
        == one.stdout
        == ("http://small.example/\nhttp://a.example/\nhttp://tail.example/\n")
    )


def test_the_summary_reports_the_text_decoded(tmp_path: Path) -> None:
    path = tmp_path / "text.txt"
    path.write_text("été http://e.example/\n" * 100_000, "utf-8")  # 2.2 M characters
    run = urimine("-v", str(path))
    line = run.stderr.splitlines()[-1]
    assert " 2.2 MB decoded in " in line, line
