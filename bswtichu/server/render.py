"""Messages to text lines, in the mode the connection asked for.

Human mode gives the message's sentence (possibly several lines). Machine mode
gives exactly one line, ``KEYWORD {json}``: compact JSON with sorted keys, UTF-8
characters left as they are, so a bot can split at the first space and parse.
Relay mode is machine mode plus the human sentence in the field ``human``, for
programs that show people what happened (the IRC bridge) and still need to know
what each message is.
"""

from __future__ import annotations

import json

from bswtichu.server.messages import Message

HUMAN = "human"
MACHINE = "machine"
RELAY = "relay"
MODES = (HUMAN, MACHINE, RELAY)


def machine_line(message: Message, fields: dict | None = None) -> str:
    """``KEYWORD {json}`` of the message's fields (or of ``fields``); the former encoded once per message."""
    if fields is None:
        line = message.rendered.get(MACHINE)
        if line is None:
            line = message.rendered[MACHINE] = machine_line(message, message.fields)
        return line
    payload = json.dumps(fields, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return f"{message.keyword} {payload}"


def relay_line(message: Message) -> str:
    return machine_line(message, {**message.fields, "human": "\n".join(human_lines(message))})


def human_lines(message: Message) -> list[str]:
    return message.text.splitlines() or [message.keyword.lower()]


def render(message: Message, mode: str) -> list[str]:
    """The lines (without line ends) that show ``message`` in ``mode``."""
    if mode == MACHINE:
        return [machine_line(message)]
    if mode == RELAY:
        return [relay_line(message)]
    return human_lines(message)
