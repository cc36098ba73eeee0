"""Shell completion and the man page (issue 32): made from the parser by a command, and
installed from ``share/`` by ``pip install`` (kept equal to what the command makes)."""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from helpers import urimine_exe
from urimine.cli_args import build_parser
from urimine.cli_docs import completion, man_page

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 60
SHARE = {
    "share/man/man1/urimine.1": man_page,
    "share/bash-completion/completions/urimine": lambda: completion("bash"),
    "share/zsh/site-functions/_urimine": lambda: completion("zsh"),
    "share/fish/vendor_completions.d/urimine.fish": lambda: completion("fish"),
}


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [urimine_exe(), *args], capture_output=True, text=True, timeout=TIMEOUT, check=False
    )


def _long_options(parser: argparse.ArgumentParser) -> set[str]:
    names = {o for a in parser._actions for o in a.option_strings if o.startswith("--")}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                names |= _long_options(sub)
    return names - {"--help", "--batch", "--scheme-extra"}


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_command(shell: str) -> None:
    proc = run("--completion", shell)
    assert proc.returncode == 0 and proc.stderr == ""
    script = proc.stdout
    assert script == completion(shell)
    for word in ("--exclude-host", "--glob", "--max-depth", "index", "query", "links-to"):
        assert word in script, (shell, word)
    checker = {"bash": ["bash", "-n"], "zsh": ["zsh", "-n"], "fish": ["fish", "--no-execute"]}
    exe = shutil.which(checker[shell][0])
    if exe is not None:  # the script parses in its shell
        check = subprocess.run(
            [*checker[shell], "/dev/stdin"],
            input=script,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )
        assert check.returncode == 0, check.stderr


def test_bash_completion_completes_options_and_sub_commands(tmp_path: Path) -> None:
    if shutil.which("bash") is None:
        pytest.skip("no bash")
    script = tmp_path / "urimine.bash"
    script.write_text(completion("bash"))
    probe = (
        f"source {script}\n"
        "complete -p urimine\n"
        'COMP_WORDS=(urimine --exclude-h); COMP_CWORD=1; COMP_LINE="urimine --exclude-h"\n'
        'COMP_POINT=${#COMP_LINE}; _shtab_urimine; echo "${COMPREPLY[@]}"\n'
    )
    proc = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, timeout=TIMEOUT)
    assert proc.returncode == 0, proc.stderr
    registered, replies = proc.stdout.splitlines()
    assert registered.endswith(" urimine")
    assert replies.split() == ["--exclude-host"]


def test_man_page_command() -> None:
    proc = run("--man")
    assert proc.returncode == 0 and proc.stderr == ""
    page = proc.stdout
    assert page == man_page()
    assert page.startswith(".TH URIMINE 1 ")
    for section in ("NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "EXIT STATUS"):
        assert f"\n.SH {section}\n" in page
    roff_options = {o.replace("\\-", "-") for o in _long_options(build_parser())}
    for option in roff_options:
        assert option.replace("-", "\\-") in page, option
    assert "decoded text of the part" in page


def test_man_page_renders() -> None:
    groff = shutil.which("groff")
    if groff is None:
        pytest.skip("no groff")
    proc = subprocess.run(
        [groff, "-man", "-Tutf8", "-ww", "-z"],
        input=man_page(),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr


@pytest.mark.parametrize("name", list(SHARE))
def test_installed_files_are_current(name: str) -> None:
    """The files pip installs are what the commands make now: after changing an option,
    run ``python scripts/gen_shell_files.py``."""
    path = ROOT / name
    assert path.read_text(encoding="utf-8") == SHARE[name](), (
        f"{name} is out of date: run python scripts/gen_shell_files.py"
    )


def test_pip_install_put_them_beside_the_command() -> None:
    prefix = Path(urimine_exe()).resolve().parent.parent
    man = prefix / "share" / "man" / "man1" / "urimine.1"
    bash = prefix / "share" / "bash-completion" / "completions" / "urimine"
    if not man.exists():
        pytest.skip("urimine is not installed from this checkout with pip")
    # as current as the checkout was at install time (an editable install copies them)
    assert man.read_text().startswith(".TH URIMINE 1 ")
    assert "_shtab_urimine" in bash.read_text()


def test_write_error_of_generated_text() -> None:
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            [urimine_exe(), "--man"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=TIMEOUT,
        )
    assert proc.returncode == 2
    assert proc.stderr == "urimine: write error: No space left on device\n"
