"""The five-line script a Python user writes to pull links out of text files, each read
whole: ``naive_re.py PATTERN FILE...``."""

import re
import sys

pattern = re.compile(sys.argv[1])
for path in sys.argv[2:]:
    with open(path, encoding="utf-8", errors="replace") as fh:
        for match in pattern.finditer(fh.read()):
            print(match.group())
