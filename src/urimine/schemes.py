"""URI scheme facts: the IANA registry and per-scheme syntax expectations.

The registered names come from ``data/iana-uri-schemes.tsv`` (a copy of
``shared/data/iana-uri-schemes.tsv``; regenerate by copying it again). In bare
text only registered schemes count (issue 2, rule 4); callers may add their own.
"""

from __future__ import annotations

from functools import cache
from importlib import resources


@cache
def registered_schemes() -> frozenset[str]:
    """All IANA-registered scheme names (permanent, provisional, historical), lower case."""
    text = resources.files("urimine").joinpath("data/iana-uri-schemes.tsv").read_text("utf-8")
    names = set()
    for line in text.splitlines():
        if line and not line.startswith("#"):
            names.add(line.split("\t", 1)[0].strip().lower())
    names.discard("")
    return frozenset(names)


# Schemes whose URIs always carry an authority ("//host"): in bare text a
# candidate of these schemes without "//" is not a URI (issue 2, rule 4), and
# an empty host is rejected (RFC 1738 section 3.1 "//<user>:<password>@<host>...").
AUTHORITY_SCHEMES: frozenset[str] = frozenset(
    """http https ftp ftps sftp tftp ws wss telnet tn3270 gopher wais prospero rtsp rtsps
    nntp snews ldap ldaps imap imaps pop pops smb nfs svn svn+ssh ssh rsync irc ircs irc6
    git webcal afp vnc rdp rtmp rtmps mms ipp ipps coap coaps dav davs redis rediss
    mongodb mqtt amqp amqps""".split()  # noqa: SIM905
)

# Schemes that may have an empty host: file:///etc/passwd (RFC 8089).
EMPTY_HOST_OK: frozenset[str] = frozenset({"file"})

# Default ports, for scheme-based normalisation (002 section 6.2.3).
DEFAULT_PORTS: dict[str, str] = {
    "http": "80",
    "https": "443",
    "ws": "80",
    "wss": "443",
    "ftp": "21",
    "ftps": "990",
    "sftp": "22",
    "ssh": "22",
    "telnet": "23",
    "gopher": "70",
    "wais": "210",
    "prospero": "1525",
    "nntp": "119",
    "news": "119",
    "snews": "563",
    "ldap": "389",
    "ldaps": "636",
    "imap": "143",
    "imaps": "993",
    "pop": "110",
    "pops": "995",
    "rtsp": "554",
    "rsync": "873",
    "irc": "194",
    "ircs": "994",
    "git": "9418",
    "coap": "5683",
    "coaps": "5684",
    "ipp": "631",
    "mqtt": "1883",
    "redis": "6379",
}

# Schemes whose empty path equals "/" (002 section 6.2.3: http(s) empty path).
EMPTY_PATH_IS_SLASH: frozenset[str] = frozenset({"http", "https", "ws", "wss", "ftp"})
