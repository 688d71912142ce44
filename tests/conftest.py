"""Shared test settings: Hypothesis profiles sized for a 2-core CI machine."""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "ci", deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.load_profile("ci" if os.environ.get("CI") else "default")

pytest_plugins = ["pytester", "lobby_fixtures", "postgres_fixtures"]


# -- no silent failures ------------------------------------------------------
# Every test fails if Twisted's log received an error or a failure (a traceback)
# while it ran. A test that provokes one on purpose asks for ``logged_errors``
# and checks the events itself.

import pytest
from twisted.logger import LogLevel, formatEvent, globalLogPublisher


def _is_error(event: dict) -> bool:
    level = event.get("log_level")
    return "log_failure" in event or (level is not None and level >= LogLevel.error) or bool(
        event.get("isError")
    )


def _describe(event: dict) -> str:
    text = formatEvent(event)
    failure = event.get("log_failure")
    if failure is not None:
        text += "\n" + failure.getTraceback()
    return text


@pytest.fixture(autouse=True)
def _fail_on_logged_errors(request):
    """Collects logged errors during the test; fails it unless it declared them."""
    errors: list[dict] = []

    def observe(event: dict) -> None:
        if _is_error(event):
            errors.append(event)

    request.node._logged_errors = errors
    request.node._logged_errors_declared = False
    globalLogPublisher.addObserver(observe)
    yield
    globalLogPublisher.removeObserver(observe)
    if errors and not request.node._logged_errors_declared:
        pytest.fail(
            f"{len(errors)} error(s) logged during the test:\n"
            + "\n---\n".join(_describe(e) for e in errors),
            pytrace=False,
        )


@pytest.fixture
def logged_errors(request, _fail_on_logged_errors) -> list[dict]:
    """The errors logged so far by this test, which declares that it expects some."""
    request.node._logged_errors_declared = True
    return request.node._logged_errors
