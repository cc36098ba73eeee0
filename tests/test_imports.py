"""Start-up imports only what the input needs (issue 29): checked on the modules a run
leaves in ``sys.modules``, not on time."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

LISTER = (
    "import json, sys\n"
    "from urimine.cli import main\n"
    "code = main(sys.argv[2:])\n"
    "with open(sys.argv[1], 'w') as fh:\n"
    "    json.dump(sorted(sys.modules), fh)\n"
    "sys.exit(code)\n"
)
"""Runs the command line in-process, then writes the modules it imported."""

NOT_FOR_TEXT = (
    "urimine.sources.mail",
    "urimine.sources.mime",
    "urimine.sources.html",
    "urimine.sources.warc",
    "urimine.index",
    "urimine.parallel",
    "urimine.workers",
    "multiprocessing",
    "email",
    "tqdm",
    "zstandard",
    "isal",
)
"""What a plain-text run needs none of: the readers of the other kinds of input, the link
index, worker processes, the progress bar (not on a terminal), the decompressors of the
extras."""


def modules(tmp_path: Path, *args: str) -> set[str]:
    listing = tmp_path / "modules.json"
    proc = subprocess.run(
        [sys.executable, "-c", LISTER, str(listing), *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    return set(json.loads(listing.read_text("utf-8")))


def _under(names: set[str], prefixes: tuple[str, ...]) -> set[str]:
    return {n for n in names if any(n == p or n.startswith(p + ".") for p in prefixes)}


def test_a_plain_text_run_imports_no_other_reader(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("See http://example.org/a and <urn:isbn:0451450523>.\n" * 1000, "utf-8")
    out = tmp_path / "out.txt"
    loaded = modules(tmp_path, "-o", str(out), str(text))
    assert out.read_text("utf-8") == "http://example.org/a\nurn:isbn:0451450523\n"
    assert _under(loaded, NOT_FOR_TEXT) == set()
    assert "urimine.sources.text" in loaded  # the listing does see the run's modules


@pytest.mark.parametrize(
    ("name", "needs"),
    [("mail.mbox", "urimine.sources.mail"), ("page.html", "urimine.sources.html")],
)
def test_other_readers_are_imported_when_their_input_comes(
    tmp_path: Path, name: str, needs: str
) -> None:
    path = tmp_path / name
    if name.endswith(".mbox"):
        path.write_bytes(b"From a@b Mon Jan  1 00:00:00 2001\nSubject: s\n\nhttp://m.example/\n")
    else:
        path.write_text('<html><a href="http://h.example/">h</a></html>\n', "utf-8")
    out = tmp_path / "out.txt"
    loaded = modules(tmp_path, "-o", str(out), str(path))
    assert needs in loaded
    assert out.read_text("utf-8").startswith("http://")


def test_query_imports_no_scanner_of_its_own(tmp_path: Path) -> None:
    """``urimine query`` needs no scanner, rules or readers: it imports none beyond what
    ``import urimine`` itself does (the package's ``__init__``, which re-exports the
    scanner, is the core's to make lazy)."""
    text = tmp_path / "notes.txt"
    text.write_text("http://example.org/a\n", "utf-8")
    db = tmp_path / "links.db"
    built = subprocess.run(
        [sys.executable, "-m", "urimine", "index", str(db), str(text)],
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert built.returncode == 0, built.stderr
    package = _package_modules()
    loaded = modules(tmp_path, "query", str(db), "stats")
    needless = ("urimine.scanner", "urimine.rules", "urimine.api")
    readers = tuple(name for name in NOT_FOR_TEXT if name != "urimine.index")
    assert _under(loaded - package, (*needless, *readers)) == set()


def _package_modules() -> set[str]:
    proc = subprocess.run(
        [sys.executable, "-c", "import json, sys, urimine; print(json.dumps(sorted(sys.modules)))"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return set(json.loads(proc.stdout))


def test_the_options_default_length_is_the_scanners() -> None:
    """``pipeline`` repeats the scanner's default so as not to import it."""
    from urimine.pipeline import DEFAULT_MAX_CANDIDATE_LEN, Options
    from urimine.scanner import DEFAULT_MAX_CANDIDATE_LEN as SCANNER_DEFAULT

    assert DEFAULT_MAX_CANDIDATE_LEN == SCANNER_DEFAULT == Options().max_candidate_len
