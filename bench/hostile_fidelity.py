"""bench/hostile_search.py over the tokens of issue 30's rules: escaped delimiters,
LaTeX, JSON's escaped slashes, unregistered schemes with "//", chains, glued schemes,
labels, web characters and possessives, mixed with the search's own tokens.

    python bench/hostile_fidelity.py SEED COUNT
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import hostile_search

FIDELITY_TOKENS = [
    *("&lt;", "&gt;", "&quot;", "&amp;", "\\url{", "\\href{", "}", "{", "\\/", "\\#", "\\_"),
    *("s3://", "git+https://", "jdbc:", "mysql://", "texthttp://", "x.com", "e.g.", "//"),
    *("app@", "db.x.info:", "Content-Type:", "TEL:", "Fax:", "bb:", "ed:", "a=", "'s"),
    *("[", "]", "|", "^", "#", "\u2013", "\uff1f", "\u3002", "[1]", "[http://"),
]

if __name__ == "__main__":
    hostile_search.TOKENS[:] = hostile_search.TOKENS + FIDELITY_TOKENS
    hostile_search.main()
