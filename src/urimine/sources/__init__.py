"""Input adapters: turn files, archives and streams into :class:`Unit` s of text.

The scanner is sans-IO; everything that reads bytes lives here. ``open_units``
sniffs each input by magic bytes first and by name second.
"""

from __future__ import annotations

from urimine.sources.unit import Unit

__all__ = ["Unit"]
