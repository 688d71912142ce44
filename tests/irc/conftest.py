"""IRC tests: none may log an error or a traceback."""

from __future__ import annotations

import pytest
from twisted.logger import LogLevel, globalLogPublisher


@pytest.fixture(autouse=True)
def no_logged_errors():
    """Fails the test if anything logged an error or a traceback while it ran."""
    errors: list[dict] = []

    def observe(event: dict) -> None:
        if event.get("log_level") in (LogLevel.error, LogLevel.critical) or "log_failure" in event:
            errors.append(event)

    globalLogPublisher.addObserver(observe)
    yield errors
    globalLogPublisher.removeObserver(observe)
    assert not errors, [e.get("log_format") or e for e in errors]
