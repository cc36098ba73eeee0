"""urimine: mine URIs and URNs out of plain text at scale.

The public API is re-exported here; everything else is an implementation detail.
"""

from __future__ import annotations

__version__ = "0.1.0"
