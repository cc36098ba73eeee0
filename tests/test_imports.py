"""Start-up imports only what the input needs (issue 29): checked on the modules a run
leaves in ``sys.modules``, not on time."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import urimine

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


SCANNING = (
    "urimine.scanner",
    "urimine.rules",
    "urimine.scan",
    "urimine.fast",
    "urimine._abnf",
    "urimine.parser",
    "urimine.normalize",
    "urimine.urn",
)
"""What only text to scan needs: the scanner, its rules and tables, and the URI grammar
(compiled patterns) the rules and the normaliser check candidates with."""


def modules(tmp_path: Path, *args: str, status: int = 0, stdin: str = "") -> set[str]:
    listing = tmp_path / "modules.json"
    proc = subprocess.run(
        [sys.executable, "-c", LISTER, str(listing), *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == status, proc.stderr
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


def test_plain_mail_does_not_import_the_html_reader(tmp_path: Path) -> None:
    """A message (a file that looks like mail among plain text, as document dumps have)
    with no HTML part leaves the HTML reader out; an HTML part brings it in."""
    plain = tmp_path / "note.txt"
    plain.write_bytes(b"From: a@b.example\nSubject: s\n\nSee http://m.example/\n")
    out = tmp_path / "out.txt"
    loaded = modules(tmp_path, "-o", str(out), str(plain))
    assert out.read_text("utf-8") == "http://m.example/\n"
    assert "urimine.sources.mail" in loaded and "urimine.sources.html" not in loaded
    html = tmp_path / "page.eml"
    html.write_bytes(
        b"From: a@b.example\nContent-Type: text/html\n\n<a href='http://h.example/'>h</a>\n"
    )
    loaded = modules(tmp_path, "-o", str(out), str(html))
    assert out.read_text("utf-8") == "http://h.example/\n"
    assert "urimine.sources.html" in loaded


@pytest.mark.parametrize("where", ["file", "stdin"])
def test_an_empty_input_builds_no_scanner(tmp_path: Path, where: str) -> None:
    """No text, no scanner: the rules are checked by name, the scanner is built at the
    first text, so a run that meets none imports neither it nor the URI grammar."""
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    args = ("--rules", "angle,bare", str(empty) if where == "file" else "-")
    loaded = modules(tmp_path, *args, status=1)
    assert _under(loaded, (*SCANNING, *NOT_FOR_TEXT)) == set()
    assert "urimine.pipeline" in loaded  # the run did run


def test_a_bad_rule_is_still_refused_before_any_input(tmp_path: Path) -> None:
    """Checked by name, with the scanner's own message."""
    proc = subprocess.run(
        [sys.executable, "-m", "urimine", "--rules", "angle,nonsense", str(tmp_path / "no")],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 2
    with pytest.raises(urimine.ConfigError) as raised:
        urimine.Scanner(rules=("angle", "nonsense"))
    assert proc.stderr == f"urimine: --rules: {raised.value}\n"


def test_query_imports_no_scanner_nor_reader(tmp_path: Path) -> None:
    """``urimine query`` needs the index's query code, sqlite3 and the output layer:
    no scanner, no URI grammar, no input reader, no pipeline, no index builder."""
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
    loaded = modules(tmp_path, "query", str(db), "stats")
    building = ("urimine.pipeline", "urimine.sources", "urimine.index.build", "regex")
    readers = tuple(name for name in NOT_FOR_TEXT if name != "urimine.index")
    assert _under(loaded, (*SCANNING, *building, *readers)) == set()
    assert "urimine.index.query" in loaded


def test_the_package_imports_its_names_when_used() -> None:
    """``import urimine`` loads no scanner; every exported name is still there, in
    ``dir()``, and ``urimine.resolve`` stays the function once its module is loaded."""
    code = (
        "import json, sys, urimine\n"
        "before = sorted(sys.modules)\n"
        "import urimine.resolve\n"
        "from urimine import Scanner\n"
        "names = {n: type(getattr(urimine, n)).__name__ for n in urimine.__all__}\n"
        "print(json.dumps([before, names, dir(urimine), urimine.resolve('http://a/b/c', 'd')]))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    before, names, listed, resolved = json.loads(proc.stdout)
    assert _under(set(before), (*SCANNING, "urimine.sources", "urimine.pipeline")) == set()
    assert names["Scanner"] == names["Hit"] == "type"
    assert names["resolve"] == names["extract"] == "function"
    assert set(urimine.__all__) <= set(listed)
    assert resolved == "http://a/b/d"  # RFC 3986 5.4.1


def test_the_options_default_length_is_the_scanners() -> None:
    """``pipeline`` repeats the scanner's default so as not to import it."""
    from urimine.pipeline import DEFAULT_MAX_CANDIDATE_LEN, Options
    from urimine.scanner import DEFAULT_MAX_CANDIDATE_LEN as SCANNER_DEFAULT

    assert DEFAULT_MAX_CANDIDATE_LEN == SCANNER_DEFAULT == Options().max_candidate_len
