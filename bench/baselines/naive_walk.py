"""The naive walk over a directory tree, every file read whole:
``naive_walk.py PATTERN DIR``."""

import os
import re
import sys

pattern = re.compile(sys.argv[1])
for root, _dirs, files in os.walk(sys.argv[2]):
    for name in files:
        with open(os.path.join(root, name), encoding="utf-8", errors="replace") as fh:
            for match in pattern.finditer(fh.read()):
                print(match.group())
