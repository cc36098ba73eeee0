"""Walking folders as ripgrep does (issue 32): hidden files and VCS folders, .gitignore,
.ignore and .git/info/exclude, -g globs (negated, later ones winning), --max-depth,
--follow with a loop, explicit paths always read, Maildirs whole, FIFOs skipped.

Every file of the tree holds one URI naming the file, so the URIs written say which
files were read; the command runs as a subprocess (``urimine``) or through
:func:`urimine.sources.iter_inputs`, the walk the command, the index and the library share.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from helpers import urimine_exe
from urimine.sources import Walk, iter_inputs
from urimine.sources.globs import expand_braces


def _put(root: Path, rel: str, text: str | None = None) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text if text is not None else f"see http://files.example/{rel}\n")


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A dump: a git repository with a .gitignore, dotfiles, a node_modules folder, an
    mbox with its manifest, a Maildir and a .ignore that re-includes a log."""
    root = tmp_path / "dump"
    for rel in (
        "a.txt",
        "notes/b.txt",
        "notes/deep/c.txt",
        "notes/deep/deeper/d.txt",
        ".env",
        ".config/settings.txt",
        ".git/config",
        ".hg/store.txt",
        ".svn/entries.txt",
        "node_modules/pkg/readme.txt",
        "build.log",
        "keep.log",
        "lists/list.mbox.manifest.tsv",
        "secret/plan.txt",
        "excluded.txt",
    ):
        _put(root, rel)
    _put(
        root, "lists/list.mbox", "From a@b Mon Jan  1 00:00:00 2001\n\nhttp://files.example/mbox\n"
    )
    _put(root, "mail/cur/1:2,S", "Subject: x\n\nhttp://files.example/maildir\n")
    _put(root, ".gitignore", "node_modules/\n*.log\nsecret/\n")
    _put(root, ".ignore", "!keep.log\n")
    _put(root, ".git/info/exclude", "excluded.txt\n")
    return root


def uris(*args: str | Path, cwd: Path | None = None) -> tuple[int, set[str], str]:
    proc = subprocess.run(
        [urimine_exe(), "--no-progress", "-j", "1", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        stdin=subprocess.DEVNULL,
        cwd=cwd,
    )
    assert "Traceback" not in proc.stderr
    found = {line.removeprefix("http://files.example/") for line in proc.stdout.splitlines()}
    return proc.returncode, found, proc.stderr


DEFAULT = {"a.txt", "notes/b.txt", "notes/deep/c.txt", "notes/deep/deeper/d.txt", "keep.log"}
DEFAULT |= {"lists/list.mbox.manifest.tsv", "mbox", "maildir"}


def test_default_walk_skips_hidden_vcs_and_ignored(tree: Path) -> None:
    status, found, err = uris(tree)
    assert status == 0 and err == ""
    assert found == DEFAULT


def test_hidden_reads_dotfiles_and_vcs_folders(tree: Path) -> None:
    _status, found, _err = uris("--hidden", tree)
    hidden = {".env", ".config/settings.txt", ".git/config", ".hg/store.txt", ".svn/entries.txt"}
    # .gitignore and .ignore hold no URI; the ignore files still apply
    assert found == DEFAULT | hidden


def test_no_ignore_reads_what_ignore_files_exclude(tree: Path) -> None:
    _status, found, _err = uris("--no-ignore", tree)
    assert found == DEFAULT | {"node_modules/pkg/readme.txt", "build.log", "secret/plan.txt"} | {
        "excluded.txt"
    }


def test_globs_include_exclude_and_the_last_wins(tree: Path) -> None:
    assert uris("-g", "!*.tsv", tree)[1] == DEFAULT - {"lists/list.mbox.manifest.tsv"}
    # an including glob beats ignore files (excluded.txt is in .git/info/exclude)
    # but not a folder left out (secret/, node_modules/ are not entered)
    assert uris("-g", "*.txt", tree)[1] == {
        "a.txt",
        "excluded.txt",
        "notes/b.txt",
        "notes/deep/c.txt",
        "notes/deep/deeper/d.txt",
    }
    assert uris("-g", "*.txt", "-g", "!deep", tree)[1] == {"a.txt", "excluded.txt", "notes/b.txt"}
    assert uris("-g", "!*.txt", "-g", "*.txt", tree)[1] == uris("-g", "*.txt", tree)[1]
    assert uris("-g", "*.txt", "-g", "!*.txt", tree)[1] == set()  # nothing left: exit 1
    assert uris("-g", "*.{log,tsv}", tree)[1] == {
        "build.log",
        "keep.log",
        "lists/list.mbox.manifest.tsv",
    }
    assert uris("-g", "notes/*.txt", tree)[1] == {"notes/b.txt"}  # anchored at the PATH


def test_a_glob_beats_ignore_files_and_hiddenness(tree: Path) -> None:
    assert "build.log" in uris("-g", "*.log", tree)[1]
    assert uris("-g", ".env", tree)[1] == {".env"}


def test_max_depth(tree: Path) -> None:
    assert uris("--max-depth", "0", tree)[0] == 1  # only the PATH itself: a folder, nothing
    assert uris("--max-depth", "1", tree)[1] == {"a.txt", "keep.log", "maildir"}
    assert uris("--max-depth", "2", tree)[1] == {
        "a.txt",
        "keep.log",
        "maildir",
        "notes/b.txt",
        "lists/list.mbox.manifest.tsv",
        "mbox",
    }


def test_explicit_paths_are_always_read(tree: Path) -> None:
    named = [tree / ".env", tree / "build.log", tree / "secret" / "plan.txt"]
    status, found, _err = uris("-g", "!*", *named)
    assert status == 0
    assert found == {".env", "build.log", "secret/plan.txt"}
    # a folder named is walked, hidden or not; the rules apply to what it holds
    assert uris(tree / ".git")[1] == {".git/config"}
    assert uris("-g", "!config", tree / ".git")[0] == 1


def test_symbolic_links_only_with_follow_and_loops_reported(tree: Path) -> None:
    outside = tree.parent / "outside"
    _put(outside, "linked.txt")
    (tree / "notes" / "to-outside").symlink_to(outside)
    (tree / "notes" / "file-link.txt").symlink_to(tree / "a.txt")
    (tree / "notes" / "deep" / "loop").symlink_to(tree / "notes")
    status, found, err = uris(tree)
    assert (status, found, err) == (0, DEFAULT, "")
    status, found, err = uris("--follow", tree)
    assert found == DEFAULT | {"linked.txt"}  # file-link.txt is a.txt again
    loop = tree / "notes" / "deep" / "loop"
    assert err == f"urimine: {loop}: file system loop: leads back to {tree / 'notes'}\n"
    assert status == 2  # reported as an error, everything else read


def test_ignore_files_of_the_repository_above_apply(tree: Path) -> None:
    _put(tree, "notes/.gitignore", "b.txt\n")
    assert uris(tree / "notes")[1] == {"notes/deep/c.txt", "notes/deep/deeper/d.txt"}
    _put(tree, "notes/deep/ignored.log")  # *.log in the repository's .gitignore
    assert "notes/deep/ignored.log" not in uris(tree / "notes" / "deep")[1]
    os.rename(tree / ".git", tree / "not-git")  # no repository: nothing above applies
    assert "notes/deep/ignored.log" in uris("--hidden", tree / "notes" / "deep")[1]


def test_nested_repository_stops_gitignore_rules(tree: Path) -> None:
    _put(tree, "vendored/.git/HEAD", "ref\n")
    _put(tree, "vendored/x.log")
    assert "vendored/x.log" in uris(tree)[1]


def test_fifos_in_a_walk_are_skipped(tree: Path) -> None:
    os.mkfifo(tree / "notes" / "pipe.txt")
    status, found, err = uris(tree)
    assert (status, found, err) == (0, DEFAULT, "")


def test_unlistable_folder_is_an_error(tree: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root lists everything")
    (tree / "notes").chmod(0)
    try:
        status, found, err = uris(tree)
    finally:
        (tree / "notes").chmod(0o755)
    assert status == 2 and err.startswith(f"urimine: {tree / 'notes'}: ")
    assert "a.txt" in found


def test_index_walks_as_extraction_does(tree: Path, tmp_path: Path) -> None:
    db = tmp_path / "links.db"
    run = subprocess.run(
        [urimine_exe(), "index", str(db), str(tree), "-g", "!*.tsv", "--no-progress"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    top = subprocess.run(
        [urimine_exe(), "query", str(db), "top", "-n", "100", "-f", "csv"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    indexed = {
        line.rsplit(",", 1)[1].removeprefix("http://files.example/")
        for line in top.stdout.splitlines()[1:]
    }
    assert indexed == DEFAULT - {"lists/list.mbox.manifest.tsv"}


def test_iter_inputs_order_and_walk_options(tree: Path) -> None:
    got = [os.path.relpath(p, tree) for p in iter_inputs([str(tree)])]
    assert got == [  # depth first, by name; the Maildir as one input
        "a.txt",
        "keep.log",
        "lists/list.mbox",
        "lists/list.mbox.manifest.tsv",
        "mail",
        "notes/b.txt",
        "notes/deep/c.txt",
        "notes/deep/deeper/d.txt",
    ]
    hidden = [os.path.relpath(p, tree) for p in iter_inputs([str(tree)], Walk(hidden=True))]
    assert ".env" in hidden and ".git/config" in hidden
    assert list(iter_inputs([])) == ["-"]


@pytest.mark.parametrize(
    ("glob", "expanded"),
    [
        ("*.{a,b}", ["*.a", "*.b"]),
        ("{x,y}/{1,2}", ["x/1", "x/2", "y/1", "y/2"]),
        ("a{b,{c,d}}e", ["abe", "ace", "ade"]),
        ("plain", ["plain"]),
        ("{single}", ["{single}"]),
    ],
)
def test_brace_alternatives(glob: str, expanded: list[str]) -> None:
    assert expand_braces(glob) == expanded


def _feedback_tree(tmp_path: Path) -> Path:
    root = tmp_path / "dump"
    root.mkdir()
    (root / "a.txt").write_text("http://a.example/\n", encoding="utf-8")
    return root


def _run_appending_to(out: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``urimine ARGS >> out`` run in out's folder (a tree holding out)."""
    with out.open("a", encoding="utf-8") as fh:
        return subprocess.run(
            [urimine_exe(), "--no-progress", *args],
            cwd=out.parent,
            stdout=fh,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            text=True,
            timeout=120,
        )


def test_a_run_never_reads_the_file_its_stdout_goes_to(tmp_path: Path) -> None:
    """``urimine --all . >> out.txt`` inside the tree: read, out.txt would give each run
    its own earlier output again (ripgrep skips it too); met in a walk it is passed over
    without a message."""
    root = _feedback_tree(tmp_path)
    out = root / "out.txt"
    out.write_text("http://old.example/\n", encoding="utf-8")
    proc = _run_appending_to(out, "--all", ".")
    assert (proc.returncode, proc.stderr) == (0, "")
    assert out.read_text(encoding="utf-8") == "http://old.example/\nhttp://a.example/\n"


def test_a_path_named_that_is_the_output_is_reported(tmp_path: Path) -> None:
    root = _feedback_tree(tmp_path)
    out = root / "out.txt"
    out.write_text("http://old.example/\n", encoding="utf-8")
    proc = _run_appending_to(out, "out.txt", "a.txt")
    assert proc.returncode == 2
    assert proc.stderr.strip() == "urimine: out.txt: is an output of this run: not read"
    assert out.read_text(encoding="utf-8") == "http://old.example/\nhttp://a.example/\n"


def test_the_index_never_reads_its_own_database(tmp_path: Path) -> None:
    root = _feedback_tree(tmp_path)
    for _ in range(2):
        run = subprocess.run(
            [urimine_exe(), "index", "links.db", "."],
            cwd=root,
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            timeout=120,
        )
        assert run.returncode == 0, run.stderr
        assert "binary" not in run.stderr
    stats = subprocess.run(
        [urimine_exe(), "query", "links.db", "stats", "-f", "csv"],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    assert "sources,1\n" in stats  # a.txt alone: not links.db, -wal or -shm
