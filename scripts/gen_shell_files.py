"""Write the man page and the shell completions into share/, made from the parser.

Run from the repository root after changing an option: ``python scripts/gen_shell_files.py``
(``tests/test_cli_docs.py`` fails until the files in share/ are what this writes).
``pip install`` installs them beside the ``urimine`` command (``pyproject.toml``,
``shared-data``).
"""

from __future__ import annotations

from pathlib import Path

from urimine.cli_docs import completion, man_page

ROOT = Path(__file__).resolve().parents[1]

FILES = {
    "share/man/man1/urimine.1": man_page,
    "share/bash-completion/completions/urimine": lambda: completion("bash"),
    "share/zsh/site-functions/_urimine": lambda: completion("zsh"),
    "share/fish/vendor_completions.d/urimine.fish": lambda: completion("fish"),
}


def main() -> None:
    for name, make in FILES.items():
        path = ROOT / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(make(), encoding="utf-8")
        print(f"wrote {name}")


if __name__ == "__main__":
    main()
