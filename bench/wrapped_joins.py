"""Every join the wrapped rule makes at the wrap column (issue 30 item 5): the hits
whose alternative (the URI on its line) is a proper prefix of the URI and whose text
spans more than the URI (a line break, quote markers). One row per join, to judge by
reading each in its text.

    python bench/wrapped_joins.py FILE_OR_FOLDER ... > joins.md
"""

from __future__ import annotations

import json
import subprocess
import sys


def joins(paths: list[str]) -> list[dict[str, object]]:
    """The wrap-column joins of ``urimine --all -f jsonl`` over *paths*."""
    out = subprocess.run(
        [sys.executable, "-m", "urimine", "--all", "-f", "jsonl", *paths],
        capture_output=True,
        text=True,
        timeout=3600,
        check=False,
    ).stdout
    found = []
    for line in out.splitlines():
        hit = json.loads(line)
        uri, alt = str(hit["uri"]), hit.get("alternative")
        span = int(hit["end"]) - int(hit["start"])
        if isinstance(alt, str) and uri.startswith(alt) and len(uri) > len(alt) and span > len(uri):
            found.append(hit)
    return found


def main(argv: list[str]) -> int:
    found = joins(argv)
    print(f"{len(found)} joins\n")
    print("| # | source | message | line | on its line | joined after it |")
    print("|---|---|---|---|---|---|")
    for n, hit in enumerate(found, 1):
        alt = str(hit["alternative"])
        source = str(hit["source"]).rsplit("/", 1)[-1]
        message = hit.get("message_index", "")
        after = str(hit["uri"])[len(alt) :]
        print(f"| {n} | {source} | {message} | {hit['line']} | `{alt}` | `{after}` |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
