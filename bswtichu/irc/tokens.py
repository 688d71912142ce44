"""The game server's resume tokens for the bridge's guest names, kept across restarts.

A guest's seat is held after his connection drops, and only his token takes it
back (docs/PROTOCOL.md §4). The bridge holds those tokens for its users; kept only
in memory, a restart of the bridge would lose every held seat of its users. With a
file, each new token is written at once (to a temporary file renamed over the old,
readable by the owner only, since a token is as good as the seat).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, MutableMapping
from pathlib import Path

from twisted.logger import Logger


class ResumeTokens(MutableMapping):
    """Tokens by server name casefolded; in memory only when ``path`` is None."""

    log = Logger()

    def __init__(self, path: str | Path | None = None):
        self.path = Path(path) if path else None
        self._tokens: dict[str, str] = self._read(self.path) if self.path else {}

    def _read(self, path: Path) -> dict[str, str]:
        try:
            data = json.loads(path.read_text("utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as e:
            self.log.warn("ignoring the resume tokens in {path}: {error}", path=str(self.path), error=e)
            return {}
        if not isinstance(data, dict):
            self.log.warn("ignoring the resume tokens in {path}: not a JSON object", path=str(self.path))
            return {}
        return {str(k): v for k, v in data.items() if isinstance(v, str)}

    def _write(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(path.name + ".tmp")
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as out:
            json.dump(self._tokens, out, sort_keys=True)
        os.replace(temporary, path)

    def __getitem__(self, name: str) -> str:
        return self._tokens[name]

    def _keep(self) -> None:
        if self.path:
            try:
                self._write(self.path)
            except OSError as e:
                self.log.error("cannot keep resume tokens in {path}: {error}", path=str(self.path), error=e)

    def __setitem__(self, name: str, token: str) -> None:
        if self._tokens.get(name) != token:
            self._tokens[name] = token
            self._keep()

    def __delitem__(self, name: str) -> None:
        del self._tokens[name]
        self._keep()

    def __iter__(self) -> Iterator[str]:
        return iter(self._tokens)

    def __len__(self) -> int:
        return len(self._tokens)
