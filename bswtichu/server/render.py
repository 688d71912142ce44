"""Messages to text lines, in the mode the connection asked for.

Human mode gives the message's sentence (possibly several lines). Machine mode
gives exactly one line, ``KEYWORD {json}``: compact JSON with sorted keys, UTF-8
characters left as they are, so a bot can split at the first space and parse.
"""

from __future__ import annotations

import json

from bswtichu.server.messages import Message

HUMAN = "human"
MACHINE = "machine"
MODES = (HUMAN, MACHINE)


def machine_line(message: Message) -> str:
    payload = json.dumps(message.fields, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return f"{message.keyword} {payload}"


def human_lines(message: Message) -> list[str]:
    return message.text.splitlines() or [message.keyword.lower()]


def render(message: Message, mode: str) -> list[str]:
    """The lines (without line ends) that show ``message`` in ``mode``."""
    if mode == MACHINE:
        return [machine_line(message)]
    return human_lines(message)
