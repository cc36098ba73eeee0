"""Unicode Technical Standard #58, "Unicode Link Detection and Formatting: URLs and
Email Addresses": its character properties, its link detection and its minimal
escaping for display."""

from __future__ import annotations

from urimine.uts58.detect import Link, LinkKind, detect, iter_links
from urimine.uts58.props import is_host_char, is_label_dot, link_bracket, link_email, link_term
from urimine.uts58.terminate import scan_path_query_fragment

__all__ = [
    "Link",
    "LinkKind",
    "detect",
    "is_host_char",
    "is_label_dot",
    "iter_links",
    "link_bracket",
    "link_email",
    "link_term",
    "scan_path_query_fragment",
]
