"""Whole-process measurement for ``bench/e2e.py``: one command at a time, as a user runs it.

Each command runs with stdout to a file (as ``> out.txt`` would; some tools, ripgrep
among them, take a short cut when stdout is /dev/null) and stderr to a temporary file,
through ``e2e_launch.py``, which reports its CPU (user + sys of it and all its workers,
from ``wait4``), wall time and peak RSS (``ru_maxrss``: the largest single process, as
``/usr/bin/time -v`` reports it). Python writes its byte-code caches as it does by
default (``PYTHONDONTWRITEBYTECODE`` is dropped from the commands' environment): an
installed package has them, and the warm-up run writes any that are missing. Without
them every start would compile the package's modules from source.
"""

from __future__ import annotations

import contextlib
import math
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

LAUNCHER = Path(__file__).resolve().parent / "e2e_launch.py"
ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
"""The commands' environment: this process's, byte-code caches written as by default."""


@dataclass
class Run:
    """One measured process."""

    cpu: float
    wall: float
    rss_mb: float
    status: int
    lines: int
    timed_out: bool = False
    orphans: int = 0
    stderr: str = ""


def _kill_group(pgid: int, flag: list[bool]) -> None:
    flag.append(True)
    with contextlib.suppress(OSError):
        os.killpg(pgid, signal.SIGKILL)


def count_distinct(path: Path) -> int:
    """Distinct lines of an output: what a tool found, whether it prints each occurrence
    (the baselines) or each URI once (urimine's default)."""
    with path.open("rb") as fh:
        return len(set(fh))


def run_once(argv: Sequence[str], out: Path, timeout: float) -> Run:
    """Run ``argv`` once, stdout to ``out``; kill its process group after ``timeout`` s."""
    killed: list[bool] = []
    with (
        out.open("wb") as stdout,
        tempfile.TemporaryFile() as err,
        tempfile.NamedTemporaryFile("r", suffix=".e2e") as result,
    ):
        launcher = [sys.executable, "-I", "-S", str(LAUNCHER), result.name, *argv]
        proc = subprocess.Popen(
            launcher,
            stdin=subprocess.DEVNULL,
            stdout=stdout,
            stderr=err,
            start_new_session=True,
            env=ENV,
        )
        timer = threading.Timer(timeout, _kill_group, (proc.pid, killed))
        timer.start()
        try:
            proc.wait()
        finally:
            timer.cancel()
        err.seek(0)
        message = err.read(4000).decode("utf-8", "replace").strip()
        fields = result.read().split()
    if len(fields) != 5:
        nan = math.nan
        return Run(nan, nan, nan, proc.returncode, 0, bool(killed), 0, message)
    cpu, wall, rss_kb, status, orphans = fields
    return Run(
        cpu=float(cpu),
        wall=float(wall),
        rss_mb=int(rss_kb) * 1024 / 1e6,
        status=int(status),
        lines=count_distinct(out),
        timed_out=bool(killed),
        orphans=int(orphans),
        stderr=message,
    )


def floor_mb() -> float:
    """The peak RSS of ``true`` run through the launcher: no row can show less."""
    with tempfile.TemporaryDirectory() as tmp:
        return run_once(["true"], Path(tmp) / "out", 60).rss_mb


@dataclass
class Variant:
    """One command of a row: ``key`` names it in the row, ``side`` is the urimine command
    (``A`` or ``B``) it runs, or ``None`` for a baseline."""

    key: str
    argv: list[str]
    side: str | None = None
    runs: list[Run] = field(default_factory=list)

    def median(self, name: str) -> float:
        return statistics.median(getattr(run, name) for run in self.runs)

    @property
    def failed(self) -> str | None:
        """Why the runs are not a measurement, or None."""
        for run in self.runs:
            if run.timed_out:
                return "timeout"
            if math.isnan(run.cpu):
                return f"no measurement: {run.stderr.splitlines()[-1] if run.stderr else ''}"
            if run.status not in self.ok_status:
                return f"exit {run.status}: {run.stderr.splitlines()[-1] if run.stderr else ''}"
        return None

    @property
    def ok_status(self) -> tuple[int, ...]:
        # grep-like tools (ripgrep, and urimine since its exit statuses became grep's)
        # exit 1 when nothing matched or was found, which is still a run.
        return (0, 1) if self.key == "rg" or self.side is not None else (0,)

    def as_json(self) -> dict[str, object]:
        return {"key": self.key, "side": self.side, "runs": [asdict(r) for r in self.runs]}


def measure(variants: list[Variant], repeat: int, outdir: Path, timeout: float) -> None:
    """One untimed warm-up run of each variant, then ``repeat`` rounds, the variants
    alternating within each round (A, B, baseline, A, B, baseline, ...)."""
    outdir.mkdir(parents=True, exist_ok=True)
    for variant in variants:
        run_once(variant.argv, outdir / f"{variant.key}.out", timeout)
    for _ in range(repeat):
        for variant in variants:
            variant.runs.append(run_once(variant.argv, outdir / f"{variant.key}.out", timeout))
