"""Throughput and peak memory of the ``urimine`` command at scale (issue 3).

Runs ``urimine --no-progress -j N INPUT > /dev/null`` for N in 1 and 2 on

(a) the whole shared mail corpus (``../shared/corpora/mail``),
(b) a generated text file of about 1 GB (the shared docs, decompressed, concatenated
    again and again),
(c) a generated mbox of about 1 GB (the shared mbox files, decompressed, concatenated
    again and again),

and prints, for each run: the exact command, wall time, MB/s (input bytes as on disk,
and uncompressed for (a)), the peak RSS of the largest single process (``ru_maxrss`` of
the waited-for children, as ``/usr/bin/time -v`` reports it) and the peak of the summed
RSS of the whole process tree (parent plus workers, sampled from /proc every 0.1 s).
The generated files are written to a temporary folder and deleted afterwards.

Usage: ``python bench/cli_scale.py [--size-mb 1000] [--only a,b,c] [--jobs 1,2]``
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "corpora"
MAIL = SHARED / "mail"
DOCS = SHARED / "docs"


def urimine_exe() -> str:
    beside = Path(sys.executable).with_name("urimine")
    return str(beside) if beside.exists() else shutil.which("urimine") or "urimine"


def _read(path: Path) -> bytes:
    data = path.read_bytes()
    return gzip.decompress(data) if path.suffix == ".gz" else data


def doc_texts() -> Iterator[bytes]:
    for path in sorted(DOCS.rglob("*")):
        if path.is_file() and path.suffix in (".txt", ".gz"):
            yield _read(path)


def mbox_texts() -> Iterator[bytes]:
    for path in sorted(MAIL.rglob("*")):
        if path.is_file() and path.name.endswith((".mbox", ".mbox.gz")):
            data = _read(path)
            if not data.startswith(b"From "):
                continue
            yield data if data.endswith(b"\n\n") else data.rstrip(b"\n") + b"\n\n"


def generate(target: Path, parts: list[bytes], size: int) -> int:
    """Write ``parts`` again and again until ``target`` holds at least ``size`` bytes."""
    written = 0
    with target.open("wb") as fh:
        while written < size:
            for part in parts:
                fh.write(part)
                written += len(part)
    return written


def _tree_rss_kb(root: int) -> int:
    """Summed VmRSS (kB) of ``root`` and all its descendants."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                stat = fh.read()
            ppid = int(stat[stat.rindex(")") + 2 :].split()[1])
            with open(f"/proc/{entry}/status") as fh:
                for line in fh:
                    if line.startswith("VmRSS:"):
                        rss[int(entry)] = int(line.split()[1])
                        break
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(ppid, []).append(int(entry))
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += rss.get(pid, 0)
        todo.extend(children.get(pid, []))
    return total


def measure(args: list[str]) -> dict[str, float]:
    """Run one command with stdout to /dev/null; wall time and memory figures."""
    peak_tree = 0
    with open(os.devnull, "wb") as devnull, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        proc = subprocess.Popen(args, stdout=devnull, stderr=err)
        done = threading.Event()

        def sample() -> None:
            nonlocal peak_tree
            while not done.is_set():
                peak_tree = max(peak_tree, _tree_rss_kb(proc.pid))
                done.wait(0.1)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        # wait4: this child's own rusage (its reaped workers included), as time -v shows
        _, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        done.set()
        sampler.join()
        err.seek(0)
        message = err.read().decode("utf-8", "replace")
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(args)} exited {proc.returncode}: {message[-2000:]}")
    return {
        "wall_s": elapsed,
        "cpu_s": usage.ru_utime + usage.ru_stime,
        "max_rss_mb": usage.ru_maxrss / 1024,  # kB on Linux: the largest single process
        "tree_rss_mb": peak_tree / 1024,
    }


def input_bytes(path: Path) -> tuple[int, int]:
    """(bytes on disk, bytes uncompressed) of a file or folder."""
    files = [p for p in path.rglob("*") if p.is_file()] if path.is_dir() else [path]
    disk = sum(p.stat().st_size for p in files)
    raw = sum(len(_read(p)) for p in files) if path.is_dir() else disk
    return disk, raw


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=int, default=1000, help="size of (b) and (c)")
    parser.add_argument("--only", default="a,b,c")
    parser.add_argument("--jobs", default="1,2")
    parser.add_argument("--json", help="also write the results here")
    parser.add_argument(
        "--generate", nargs=3, metavar=("KIND", "PATH", "BYTES"), help=argparse.SUPPRESS
    )
    opts = parser.parse_args()
    if opts.generate:
        kind, path, size = opts.generate
        parts = list(doc_texts() if kind == "b" else mbox_texts())
        generate(Path(path), parts, int(size))
        return
    if not MAIL.is_dir():
        raise SystemExit(f"{SHARED} is not present")
    exe = urimine_exe()
    jobs = [j.strip() for j in opts.jobs.split(",")]
    results = []
    with tempfile.TemporaryDirectory(prefix="urimine-scale-") as tmp:
        inputs: list[tuple[str, Path]] = []
        which = set(opts.only.split(","))
        if "a" in which:
            inputs.append(("a: shared mail corpus", MAIL))
        for key, label, name in (
            ("b", "b: generated text", "docs-1g.txt"),
            ("c", "c: generated mbox", "mail-1g.mbox"),
        ):
            if key in which:
                # in a child process: a big parent would lend its RSS to every child it
                # starts (ru_maxrss is inherited across fork and exec)
                target = Path(tmp) / name
                size = str(opts.size_mb * 1_000_000)
                subprocess.run(
                    [sys.executable, __file__, "--generate", key, str(target), size], check=True
                )
                inputs.append((label, target))
        for label, path in inputs:
            disk, raw = input_bytes(path)
            for j in jobs:
                args = [exe, "--no-progress", "-j", j, str(path)]
                fig = measure(args)
                row = {
                    "input": label,
                    "command": " ".join(args) + " > /dev/null",
                    "jobs": int(j),
                    "disk_mb": disk / 1e6,
                    "raw_mb": raw / 1e6,
                    "disk_mb_s": disk / 1e6 / fig["wall_s"],
                    "raw_mb_s": raw / 1e6 / fig["wall_s"],
                    **fig,
                }
                results.append(row)
                print(
                    f"{label:24} -j {j}: {disk / 1e6:8.1f} MB on disk ({raw / 1e6:.1f} MB raw) "
                    f"in {fig['wall_s']:7.1f} s = {row['disk_mb_s']:5.1f} MB/s "
                    f"({row['raw_mb_s']:.1f} MB/s raw), cpu {fig['cpu_s']:.1f} s, "
                    f"max RSS {fig['max_rss_mb']:.0f} MB, tree RSS {fig['tree_rss_mb']:.0f} MB"
                    f"\n    {row['command']}",
                    flush=True,
                )
    if opts.json:
        Path(opts.json).write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
