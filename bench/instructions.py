"""Two versions of urimine side by side in instructions executed, not seconds: the
figure a loaded, shared machine cannot blur (valgrind's callgrind counts every
instruction of a child process; hash seeds fixed, so a run repeats to the instruction).

    python bench/instructions.py --before /tmp/base/.venv/bin/python --after .venv/bin/python
    python bench/instructions.py --before ... --corpora prose,wet --after-rules angle,bare,...

Each version's child reads the text and scans ``bench/side_by_side.py``'s warm-up text,
once with the ``finditer`` over the corpus and once without; the difference is the
scan's count. Instructions are not time (a cache miss costs more than an addition), but
two versions' ratio follows their CPU time's closely and holds still under load.
Needs valgrind; a corpus of 40 MB takes a few minutes a version.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpora
from side_by_side import WARM_UP, two_versions

CHILD = """
import sys
import urimine
text = open(sys.argv[1], encoding="utf-8").read()
options = {"rules": sys.argv[4].split(",")} if len(sys.argv) > 4 else {}
for _ in urimine.finditer(sys.argv[2], **options):
    pass
if sys.argv[3] == "1":
    for _ in urimine.finditer(text, **options):
        pass
"""
_TOTAL = re.compile(r"^(?:summary|totals): (\d+)", re.MULTILINE)


def count(python: str, path: Path, scan: bool, rules: str, timeout: float) -> int:
    """The instructions a child of *python* executes, with the scan of *path* or not."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        tool = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"]
        args = [str(path), WARM_UP, "1" if scan else "0", *([rules] if rules else [])]
        subprocess.run(
            [*tool, python, "-c", CHILD, *args],
            capture_output=True,
            timeout=timeout,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )
        m = _TOTAL.search(out.read_text())
        assert m is not None, "no total in callgrind's output"
        return int(m.group(1))


def main(argv: list[str] | None = None) -> int:
    parser = two_versions(__doc__.split("\n")[0])
    parser.add_argument("--timeout", type=float, default=1800.0)
    args = parser.parse_args(argv)
    print("| input | before Minstr | after Minstr | before/after |\n|---|--:|--:|--:|")
    with tempfile.TemporaryDirectory() as tmp:
        for name in filter(None, args.corpora.split(",")):
            path = Path(tmp) / f"{name}.txt"
            path.write_text(corpora.real(name), encoding="utf-8")
            counts = []
            for python, rules in ((args.before, ""), (args.after, args.after_rules)):
                with_scan = count(python, path, True, rules, args.timeout)
                counts.append(with_scan - count(python, path, False, rules, args.timeout))
            before, after = counts
            print(f"| {name} | {before / 1e6:.1f} | {after / 1e6:.1f} | {before / after:.3f} |")
            path.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
