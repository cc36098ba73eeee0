"""Where the CPU of a whole ``urimine -j 1`` run goes, stage by stage (issue 29).

    python bench/e2e_stages.py [--rows mail small] [--repeat N] [--tmpdir DIR] [--output FILE]

Each stage is a fresh process that does what a run does up to the end of that stage
and stops: start Python; import the command's modules; import the readers of the
input's kind (mail: MIME, HTML, header fields); import the scanner; read the input's
bytes (mail: each mbox read whole; small files: the folder walked, each file read);
split the mboxes into messages; make the units (mail: MIME walked, transfer encodings
undone, charsets decoded, HTML converted; small files: each file sniffed and decoded);
make the records (``iter_records``: scanning, the scanner's tables built at their first
use, the records and their deduplication); and the whole command (``urimine.cli.main``,
output written to a file). The CPU of a stage (user + sys) is its process's less the
previous stage's; each figure is the median of ``--repeat`` rounds, the stages
alternating. The inputs are ``bench/e2e.py``'s (the same cache folder).

A run interleaves these stages (the mail modules are imported at the first mbox, a
message is scanned before the next is split), so a stage's figure is its cost, not a
time on a clock. Prints a Markdown table, also written to ``--output`` when given.
"""

from __future__ import annotations

import os
import sys

# Only what a stage's process needs is imported here: the "python" stage is Python's own
# start-up. The rest is imported by main().
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STAGES = {
    "mail": ["python", "imports", "readers", "scanner", "read", "split", "units", "records", "cli"],
    "small": ["python", "imports", "scanner", "walk", "read", "units", "records", "cli"],
}
WHAT = {
    "python": "Python's start-up",
    "imports": "the command's modules (CLI, pipeline, sources, output)",
    "readers": "the mail readers' modules (MIME, HTML, header fields)",
    "scanner": "the scanner's modules",
    "walk": "walking the folder",
    "read": "reading the bytes",
    "split": "splitting the mboxes into messages",
    "units": "making the units (mail: MIME, transfer, charsets, HTML; files: sniff, decode)",
    "records": "scanning (tables built at first use included), records, deduplication",
    "cli": "the command: rows, output",
}


def child(row: str, stage: str, paths: list[str]) -> None:
    """Do what a run does up to the end of *stage*, then stop."""
    stages = STAGES[row]
    done = stages[: stages.index(stage) + 1]
    if "imports" not in done:
        return
    _imports(done)
    if stage in ("walk", "read", "split"):
        _read(row, stage, paths)
    elif stage in ("units", "records", "cli"):
        _run(stage, paths)


def _imports(done: list[str]) -> None:
    """The modules a run has imported by the end of the stages *done*."""
    import urimine.cli
    import urimine.pipeline
    import urimine.rows
    import urimine.sinks
    import urimine.sources

    if "readers" in done:
        import urimine.sources.mail
        import urimine.sources.mbox
    if "scanner" in done:
        import urimine.scanner  # noqa: F401


def _run(stage: str, paths: list[str]) -> None:
    """The units, records or command stages."""
    from urimine.cli import main as cli_main
    from urimine.pipeline import iter_records
    from urimine.sources import iter_inputs, open_units

    if stage == "units":
        for path in iter_inputs(paths):
            for unit in open_units(path):
                for _chunk in unit.chunks:
                    pass
    elif stage == "records":
        for _record in iter_records(paths, jobs=1, unique=True):
            pass
    else:
        cli_main(["-j", "1", "-o", os.devnull, *paths])


def _read(row: str, stage: str, paths: list[str]) -> None:
    """The walk, reading or splitting stages; files are read as the sources read them."""
    from urimine.sources import iter_inputs
    from urimine.sources.mbox import mbox_messages

    for path in iter_inputs(paths) if row == "small" else paths:
        if stage == "walk":
            continue
        fd = os.open(path, os.O_RDONLY)
        try:
            data = os.read(fd, os.fstat(fd).st_size + 1)
        finally:
            os.close(fd)
        if stage == "split":
            for _message in mbox_messages(iter((data,))):
                pass


def measure(row: str, paths: list[str], repeat: int) -> dict[str, float]:
    """The median CPU of each stage's process."""
    import resource
    import statistics
    import subprocess

    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as an installed package runs (bench/e2e.py)
    env["PYTHONPATH"] = os.pathsep.join(
        filter(None, [os.path.join(ROOT, "src"), env.get("PYTHONPATH")])
    )
    runs: dict[str, list[float]] = {stage: [] for stage in STAGES[row]}
    script = os.path.abspath(__file__)
    for stage in STAGES[row]:  # one untimed run each: byte-code caches, page cache
        subprocess.run([sys.executable, script, "--child", row, stage, *paths], check=True, env=env)
    for _ in range(repeat):
        for stage in STAGES[row]:
            argv = [sys.executable, script, "--child", row, stage, *paths]
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run(argv, check=True, stdin=subprocess.DEVNULL, env=env)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            runs[stage].append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return {stage: statistics.median(values) for stage, values in runs.items()}


def table(row: str, label: str, cpu: dict[str, float]) -> list[str]:
    """The Markdown table of one row's stages."""
    total = cpu[STAGES[row][-1]]
    lines = [
        f"### {label}",
        "",
        "| stage | what it adds | CPU s (cumulative) | CPU s (stage) | share |",
        "|---|---|---:|---:|---:|",
    ]
    previous = 0.0
    for stage in STAGES[row]:
        added = cpu[stage] - previous
        previous = cpu[stage]
        share = f"{100 * added / total:.0f} %" if total else "-"
        lines.append(f"| {stage} | {WHAT[stage]} | {cpu[stage]:.3f} | {added:.3f} | {share} |")
    return [*lines, ""]


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--child"]:
        child(args[1], args[2], args[3:])
        return 0
    import argparse
    import tempfile
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    import e2e_inputs

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rows", nargs="+", choices=sorted(STAGES), default=sorted(STAGES))
    p.add_argument("--repeat", type=int, default=5, metavar="N", help="rounds (median)")
    p.add_argument("--tmpdir", type=Path, metavar="DIR", help="bench/e2e.py's input cache")
    p.add_argument("--corpora", type=Path, default=Path(ROOT).parent / "shared" / "corpora")
    p.add_argument("--output", type=Path, metavar="FILE", help="also write the tables here")
    opts = p.parse_args(args)
    cache = opts.tmpdir or Path(tempfile.gettempdir()) / "urimine-e2e"
    inputs = e2e_inputs.make_inputs(cache, opts.corpora)
    out = [f"Stages of `urimine -j 1`, median of {opts.repeat} rounds (`bench/e2e_stages.py`).", ""]
    for row in opts.rows:
        if row == "mail":
            paths, label = [str(p) for p in inputs.mail], "Mail (41.5 MB mbox)"
        else:
            paths, label = [str(inputs.small)], f"{inputs.small_count:,} small files"
        out += table(row, label, measure(row, paths, opts.repeat))
    text = "\n".join(out)
    print(text)
    if opts.output:
        opts.output.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
