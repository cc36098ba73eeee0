"""Links out of mbox files with the standard library alone: ``mailbox.mbox`` (whose
messages are parsed with the compat32 policy), every text part walked, its transfer
encoding undone, decoded by its charset, and the pattern searched:
``stdlib_mail.py PATTERN MBOX...``."""

import mailbox
import re
import sys

pattern = re.compile(sys.argv[1])


def charset_text(part, payload):
    try:
        return payload.decode(part.get_content_charset() or "utf-8", errors="replace")
    except (LookupError, ValueError):
        return payload.decode("utf-8", errors="replace")


for path in sys.argv[2:]:
    for message in mailbox.mbox(path, create=False):
        for part in message.walk():
            if part.get_content_maintype() != "text":
                continue
            payload = part.get_payload(decode=True)
            if payload:
                for match in pattern.finditer(charset_text(part, payload)):
                    print(match.group())
