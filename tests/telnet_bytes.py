"""What a telnet client sees of the server's output once telnet commands are taken out."""

from __future__ import annotations

import re

# IAC SB ... IAC SE (IAC doubled inside), IAC WILL/WONT/DO/DONT option, IAC GA, IAC EOR.
TELNET_COMMAND = re.compile(rb"\xff\xfa(?:[^\xff]|\xff\xff)*\xff\xf0|\xff[\xfb-\xfe].|\xff[\xf9\xef]", re.S)


def text_of(data: bytes) -> bytes:
    """``data`` without telnet commands (UTF-8 text never holds the byte 0xFF)."""
    return TELNET_COMMAND.sub(b"", data)


def split_telnet(data: bytes) -> tuple[bytes, list[tuple[bytes, bytes]], list[bytes]]:
    """(the text, the subnegotiations as (option, payload with IAC undoubled), the other commands)."""
    text = bytearray()
    subs: list[tuple[bytes, bytes]] = []
    commands: list[bytes] = []
    at = 0
    while at < len(data):
        found = TELNET_COMMAND.search(data, at)
        if found is None:
            text += data[at:]
            break
        text += data[at : found.start()]
        command = found.group()
        if command[1:2] == b"\xfa":
            subs.append((command[2:3], command[3:-2].replace(b"\xff\xff", b"\xff")))
        else:
            commands.append(command)
        at = found.end()
    return bytes(text), subs, commands
