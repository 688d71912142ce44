"""Text for IRC: messages cut to fit one IRC line, and IRC nicks as server names."""

from __future__ import annotations

from bswtichu import names
from bswtichu.realm import SECRET_COMMANDS

# RFC 1459/2812: a line is at most 512 bytes including CR LF and the prefix
# ":nick!user@host " that the server puts in front when it relays our line.
IRC_LINE_BYTES = 512
USER_BYTES = 10  # ident names are cut to 10 characters by most servers
HOST_BYTES = 63  # RFC 2812 §2.3.1: a host name is at most 63 characters
NICK_BYTES = 30  # no common network allows longer nicks


def text_budget(nick: str, command: str, target: str) -> int:
    """Bytes left for the text of ``COMMAND target :text`` once relayed with our prefix."""
    prefix = 1 + max(len(nick.encode()), NICK_BYTES) + 1 + USER_BYTES + 1 + HOST_BYTES + 1
    return IRC_LINE_BYTES - 2 - prefix - len(f"{command} {target} :".encode())


def split_text(text: str, budget: int) -> list[str]:
    """``text`` as pieces of at most ``budget`` UTF-8 bytes each, cut between words.

    A word longer than the budget is cut between characters; spaces at a cut are
    dropped; empty text gives no pieces.
    """
    if budget < 4:
        raise ValueError(f"an IRC text budget of {budget} bytes is too small")
    pieces: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if len(candidate.encode()) <= budget:
            current = candidate
            continue
        if current:
            pieces.append(current)
        current = word
        while len(current.encode()) > budget:
            head = _cut(current, budget)
            pieces.append(head)
            current = current[len(head):]
    if current:
        pieces.append(current)
    return pieces


def _cut(word: str, budget: int) -> str:
    """The longest start of ``word`` within ``budget`` bytes (never half a character)."""
    return word.encode()[:budget].decode("utf-8", "ignore")


# Secret commands whose first argument is a name, not a secret: /nick NAME [PASSWORD].
NAME_COMMANDS = frozenset({"nick", "name"})


def carries_secret(line: str) -> bool:
    """True when the command ``line`` (``/word args``) includes a password or token."""
    word, _, rest = line[1:].partition(" ")
    word = word.lower()
    return word in SECRET_COMMANDS and (word not in NAME_COMMANDS or len(rest.split()) > 1)


def _name_character(c: str) -> bool:
    return c.isalpha() or c in "0123456789_-"


def server_name(nick: str) -> str:
    """The server name for an IRC nick (documented in docs/clients.md).

    The server's rule (bswtichu.names): 2-16 characters, a letter of any
    alphabet first, then letters, ASCII digits, ``_`` or ``-``; ``bot-`` is kept
    for computer players. So the nick is normalised to NFC; characters the rule
    does not allow ([]\\`^{|} and the like) are dropped, as is everything before
    the first letter; a name that would start with ``bot-`` gets ``irc-`` in
    front (as does one that only looks so, ``b0t-``), one shorter than 2 characters gets ``irc`` in front; the result is
    cut to 16 characters.
    """
    kept = "".join(c for c in names.normalize(nick) if _name_character(c))
    start = next((i for i, c in enumerate(kept) if c.isalpha()), len(kept))
    name = kept[start:]
    if names.looks_like_bot(name):
        name = "irc-" + name
    if len(name) < names.MIN_LENGTH:
        name = "irc" + name
    return name[: names.MAX_LENGTH]


def name_candidates(name: str, count: int = 9) -> list[str]:
    """``name``, then ``name2``, ``name3``, ... (cut to fit) for when it is taken.

    ``count`` names that differ (as the server compares them): a long name that ends
    in a digit, cut to fit, could otherwise give itself back (``…o2`` + ``2``).
    """
    cut = names.MAX_LENGTH
    candidates, seen = [name], {names.key(name)}
    n = 2
    while len(candidates) < count:
        variant = name[: cut - len(str(n))] + str(n)
        if names.key(variant) not in seen:
            candidates.append(variant)
            seen.add(names.key(variant))
        n += 1
    return candidates
