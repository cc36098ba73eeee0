"""The conventions grep and ripgrep users rely on (issue 32), from the installed command:
exit statuses in every combination, filters, contradictions as usage errors, the hint on
a terminal, help texts with defaults, sub-commands and option names that agree."""

from __future__ import annotations

import argparse
import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import urimine_exe
from urimine.cli_args import build_parser

TIMEOUT = 120
URIS = (
    "see http://Example.COM/a http://www.example.com/b https://deep.sub.example.com/c\n"
    "and http://notexample.com/ http://xn--bcher-kva.example/ mailto:a@example.com\n"
    "ftp://ftp.example.org/f urn:ietf:rfc:3986 <URN:INET:example.org:1>\n"
)


def run(
    *args: str | Path, stdin: bytes | None = b"", cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        [urimine_exe(), *map(str, args)],
        input=stdin.decode() if stdin is not None else None,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
        cwd=cwd,
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    found = tmp_path / "found.txt"
    found.write_text(URIS)
    empty = tmp_path / "empty.txt"
    empty.write_text("no link in here\n")
    cut = tmp_path / "cut.txt.gz"
    import gzip

    cut.write_bytes(gzip.compress(b"see http://cut.example/ \n" + b"x" * 50_000)[:-30])
    return {"found": found, "empty": empty, "cut": cut, "missing": tmp_path / "missing.txt"}


# --- exit statuses --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("names", "extra", "status"),
    [
        (["found"], [], 0),
        (["empty"], [], 1),
        (["found", "empty"], [], 0),
        (["missing"], [], 2),
        (["found", "missing"], [], 2),  # output and an error: the error wins, as grep's
        (["empty", "missing"], [], 2),
        (["cut"], [], 2),  # corrupt: what was readable is written, exit 2
        (["found"], ["--count"], 0),
        (["empty"], ["--count"], 1),
        (["found"], ["--all"], 0),
        (["found"], ["--per-document"], 0),
        (["found"], ["--scheme", "gopher"], 1),  # nothing passes the filter
        (["found"], ["-f", "jsonl"], 0),
        (["empty"], ["-f", "csv"], 1),  # a CSV header alone is no output
    ],
)
def test_exit_status(
    files: dict[str, Path], names: list[str], extra: list[str], status: int
) -> None:
    proc = run(*extra, *(files[n] for n in names))
    assert proc.returncode == status, proc.stderr
    if "missing" in names:
        assert f"urimine: {files['missing']}: No such file or directory" in proc.stderr
    if "found" in names and status == 0:
        assert "example.com" in proc.stdout


def test_exit_status_with_output_file(files: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    assert run("-o", out, files["found"]).returncode == 0 and out.read_text()
    assert run("-o", out, files["empty"]).returncode == 1 and out.read_text() == ""
    assert run("-o", out, files["cut"]).returncode == 2
    assert out.read_text() == "http://cut.example/\n"  # the readable part, kept


def test_exit_status_of_stdin() -> None:
    assert run("-", stdin=b"http://a.example/\n").returncode == 0
    assert run("-", stdin=b"nothing\n").returncode == 1
    assert run(stdin=b"http://a.example/\n").returncode == 0  # no PATH: stdin when piped


def test_write_error_exits_2(files: dict[str, Path]) -> None:
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            [urimine_exe(), "--no-progress", str(files["found"])],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=TIMEOUT,
            check=False,
        )
    assert proc.returncode == 2
    assert proc.stderr == "urimine: write error: No space left on device\n"


def test_terminal_without_path_prints_a_hint_and_exits_2() -> None:
    controller, terminal = pty.openpty()
    try:
        proc = subprocess.run(
            [urimine_exe()],
            stdin=terminal,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            check=False,
        )
    finally:
        os.close(terminal)
        os.close(controller)
    assert proc.returncode == 2 and proc.stdout == ""
    (line,) = proc.stderr.splitlines()
    assert line.startswith("urimine: no PATH given and standard input is a terminal")


def test_a_file_named_like_a_sub_command(tmp_path: Path) -> None:
    (tmp_path / "index").write_text("http://named-index.example/\n")
    proc = run("./index", cwd=tmp_path)
    assert (proc.returncode, proc.stdout) == (0, "http://named-index.example/\n")
    proc = run("index", cwd=tmp_path)  # the sub-command, which wants DB and PATH
    assert proc.returncode == 2 and proc.stderr.startswith("urimine: index: ")


# --- filters --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ["--host", "example.com"],
            ["http://Example.COM/a", "http://www.example.com/b", "https://deep.sub.example.com/c"],
        ),
        (
            ["--host", "EXAMPLE.com", "--exclude-host", "sub.example.com"],
            ["http://Example.COM/a", "http://www.example.com/b"],
        ),
        (["--host", "bücher.example"], ["http://xn--bcher-kva.example/"]),  # IDNA forms equal
        (["--host", "XN--BCHER-KVA.example"], ["http://xn--bcher-kva.example/"]),
        (
            ["--host", "example.org,notexample.com"],
            ["http://notexample.com/", "ftp://ftp.example.org/f"],
        ),
        (
            ["--exclude-host", "example.com", "--exclude-host", "example.org"],
            [
                "http://notexample.com/",
                "http://xn--bcher-kva.example/",
                "mailto:a@example.com",
                "urn:ietf:rfc:3986",
                "URN:INET:example.org:1",
            ],
        ),
        (
            ["--exclude-scheme", "http,https", "--exclude-scheme", "URN"],
            ["mailto:a@example.com", "ftp://ftp.example.org/f"],
        ),
        (
            ["--scheme", "ftp", "--scheme", "mailto"],
            ["mailto:a@example.com", "ftp://ftp.example.org/f"],
        ),
        (["--kind", "urn"], ["urn:ietf:rfc:3986", "URN:INET:example.org:1"]),
    ],
)
def test_filters(files: dict[str, Path], args: list[str], expected: list[str]) -> None:
    proc = run(*args, files["found"])
    assert proc.stdout.splitlines() == expected
    assert proc.returncode == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--count", "--all"], "--count and --all"),
        (["--count", "--per-document"], "--count and --per-document"),
        (["--all", "--per-document"], "--per-document: not allowed with argument --all"),
        (["--scheme", "http", "--exclude-scheme", "HTTP"], "--scheme and --exclude-scheme"),
        (["--host", "a.example", "--exclude-host", "A.example"], "--host a.example is excluded"),
        (["--host", "www.a.example", "--exclude-host", "a.example"], "--host www.a.example is"),
        (["--kind", "urn", "--scheme", "http"], "--kind urn and --scheme"),
        (["--kind", "uri", "--scheme", "urn"], "--kind uri and --scheme urn"),
        (["--kind", "urn", "--host", "a.example"], "--host/--exclude-host and --kind"),
        (["--kind", "url"], "--kind: unknown url"),
        (["--scheme", "not a scheme"], "--scheme: expected a scheme name"),
        (["--max-depth", "-1"], "--max-depth: expected a whole number"),
        (["--completion", "tcsh"], "--completion: invalid choice"),
    ],
)
def test_contradictions_are_usage_errors(
    files: dict[str, Path], args: list[str], message: str
) -> None:
    proc = run(*args, files["found"])
    assert proc.returncode == 2 and proc.stdout == ""
    (line,) = proc.stderr.splitlines()
    assert line.startswith(f"urimine: {message}"), line


def test_host_exclusion_inside_an_included_host_is_no_contradiction(
    files: dict[str, Path],
) -> None:
    proc = run("--host", "example.com", "--exclude-host", "www.example.com", files["found"])
    assert proc.stdout.splitlines() == ["http://Example.COM/a", "https://deep.sub.example.com/c"]


# --- help, sub-commands, option names ------------------------------------------------------


def _all_parsers() -> list[argparse.ArgumentParser]:
    found: list[argparse.ArgumentParser] = []

    def visit(parser: argparse.ArgumentParser) -> None:
        found.append(parser)
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub in action.choices.values():
                    visit(sub)

    visit(build_parser())
    return found


def test_every_option_has_a_one_line_help_with_its_default() -> None:
    for parser in _all_parsers():
        for action in parser._actions:
            if action.help == argparse.SUPPRESS or isinstance(
                action, argparse._SubParsersAction | argparse._HelpAction | argparse._VersionAction
            ):
                continue
            assert action.help, (parser.prog, action.dest)
            assert "\n" not in action.help
            if (
                action.option_strings
                and action.dest not in ("completion", "man")
                and (action.option_strings != ["--no-progress"])
            ):
                assert re.search(r"\((|.*; )default: [^)]+\)$", action.help), action.help


def test_help_lists_the_sub_commands_and_exit_status() -> None:
    proc = run("--help")
    assert proc.returncode == 0
    words = " ".join(proc.stdout.split())
    assert re.search(r"^commands:\n  \{index,query\}\n    index  ", proc.stdout, re.M)
    assert "    query  " in proc.stdout
    assert "0 when at least one URI was written, 1 when none was, 2 when an error" in words
    assert "line, column, start and end count in the decoded text of the part" in words
    for command in ("index", "query"):
        sub = run(command, "--help")
        assert sub.returncode == 0 and sub.stdout.startswith(f"usage: urimine {command} ")
        assert "Exit status" in sub.stdout


def _options_of(prog: str) -> set[str]:
    for parser in _all_parsers():
        if parser.prog == prog:
            return {o for a in parser._actions for o in a.option_strings}
    raise KeyError(prog)


def test_option_names_agree_across_commands() -> None:
    from urimine.spark import build_parser as spark_parser

    spark = {o for a in spark_parser()._actions for o in a.option_strings}
    shared = {"--extra-scheme", "--rules", "--max-length", "--encoding"}
    for options in (_options_of("urimine"), _options_of("urimine index"), spark):
        assert shared <= options
    walk = {"--hidden", "--no-ignore", "-g", "--glob", "--max-depth", "--follow", "-j", "--jobs"}
    assert walk <= _options_of("urimine") and walk <= _options_of("urimine index")
    for query in ("top", "links-to", "links-from", "hosts", "stats", "export"):
        assert {"-f", "--format"} <= _options_of(f"urimine query DB {query}")
    assert {"-f", "--format"} <= _options_of("urimine") and {"-f", "--format"} <= spark


def test_usage_errors_name_the_option(tmp_path: Path) -> None:
    proc = run("index", tmp_path / "x.db", tmp_path, "--max-length", "3")
    assert proc.returncode == 2
    assert proc.stderr.startswith("urimine: index: --max-length: expected a whole number")
    proc = run("--rules", "angle,nonsense", tmp_path)
    assert proc.returncode == 2 and proc.stderr.startswith("urimine: --rules: ")


def test_python_m_urimine_is_the_same_command() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "urimine", "-"],
        input="http://a.example/\n",
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert (proc.returncode, proc.stdout) == (0, "http://a.example/\n")
