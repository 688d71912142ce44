"""Delayed calls on the injected clock: the one way the game layer drops one."""

from __future__ import annotations

from twisted.internet.interfaces import IDelayedCall


def cancel_call(call: IDelayedCall | None) -> None:
    """Cancel ``call`` unless there is none, or it already ran or was cancelled."""
    if call is not None and call.active():
        call.cancel()
