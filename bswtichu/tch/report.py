"""The verdict on one logged round, as `bswtichu replay` reports it for a `.tch` or a variant log,
and the failure both replays raise at the line the rules refuse."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class RoundReport:
    """The verdict on one logged round."""

    file: str
    round: int | None  # None: the file could not be read at all
    ok: bool
    complete: bool
    result: list[int] | None = None
    logged: list[int] | None = None
    error: str | None = None
    notes: list[str] = field(default_factory=list)
    actions: list = field(default_factory=list, repr=False)

    def to_dict(self) -> dict:
        return {"file": self.file, "round": self.round, "ok": self.ok, "complete": self.complete,
                "result": self.result, "logged": self.logged, "error": self.error,
                "notes": list(self.notes)}


class LineFailure(Exception):
    """A log line the rules refuse: ``line`` is where (None: the round as a whole), ``message`` why."""

    def __init__(self, line: int | None, message: str):
        super().__init__(message)
        self.line = line
        self.message = message

    def text(self) -> str:
        return f"line {self.line}: {self.message}" if self.line else self.message
