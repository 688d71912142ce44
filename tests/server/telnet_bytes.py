"""What a telnet client sees of the server's output once telnet commands are taken out."""

from __future__ import annotations

import re

# IAC SB ... IAC SE (IAC doubled inside), IAC WILL/WONT/DO/DONT option, IAC GA, IAC EOR.
TELNET_COMMAND = re.compile(rb"\xff\xfa(?:[^\xff]|\xff\xff)*\xff\xf0|\xff[\xfb-\xfe].|\xff[\xf9\xef]", re.S)


def text_of(data: bytes) -> bytes:
    """``data`` without telnet commands (UTF-8 text never holds the byte 0xFF)."""
    return TELNET_COMMAND.sub(b"", data)
