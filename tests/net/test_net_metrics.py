"""The ``metrics`` listener kind: /metrics scraped over real HTTP while a game is played, /healthz.

One person and three ``basic`` bots play over the line port; the scrapes before and
after the person's actions must show the counters moving as the game does.
"""

from __future__ import annotations


import pytest_twisted
from prometheus_client.parser import text_string_to_metric_families
from twisted.internet.task import Clock
from twisted.web.client import Agent, readBody

from bswtichu.config import Listener
from bswtichu.net.metrics import LAG_INTERVAL, LAG_LIMIT, ReactorLag
from bswtichu.service import makeService
from test_tables_game import Chooser, is_exchange
from test_server_game_network import GameServer
from test_net_network import LOOPBACK, TIMEOUT, reactor


class MetricsServer(GameServer):
    """The game server with a metrics listener beside its telnet and line ports."""

    def __init__(self, tmp_path, seed: int) -> None:
        super().__init__(tmp_path, seed)
        self.config = self.config.adding(Listener("metrics", LOOPBACK))
        self.service = makeService(self.config, reactor(), self.wiring)

    async def get(self, path: str) -> tuple[int, str]:
        port = self.ports["metrics"].getHost().port
        response = await Agent(reactor()).request(
            b"GET", f"http://127.0.0.1:{port}{path}".encode()).addTimeout(TIMEOUT, reactor())
        body = await readBody(response).addTimeout(TIMEOUT, reactor())
        return response.code, body.decode("utf-8")

    async def scrape(self) -> dict[tuple[str, tuple], float]:
        """Every sample of /metrics: (name, sorted labels) -> value."""
        code, text = await self.get("/metrics")
        assert code == 200, text
        return {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
                for family in text_string_to_metric_families(text) for sample in family.samples}


def value(samples: dict, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


@pytest_twisted.ensureDeferred
async def test_the_counters_move_as_the_game_does(tmp_path):
    async with MetricsServer(tmp_path, seed=11) as server:
        ann = await server.player("Ann")
        for line in ("/join", "/bot basic", "/bot basic", "/bot basic"):
            ann.send(line)
            await ann.until("JOINED")
        ann.send("/nope")
        await ann.until("ERROR")
        ann.send("/start")
        await ann.until("STARTED")
        before = await server.scrape()
        assert value(before, "bswtichu_games_running") == 1
        assert value(before, "bswtichu_tables", state="started") == 1
        assert value(before, "bswtichu_people_online") == 1
        assert value(before, "bswtichu_connections_total", kind="line") == 1
        assert value(before, "bswtichu_connections_open", kind="line") == 1
        assert value(before, "bswtichu_games_started_total") == 1
        assert value(before, "bswtichu_refusals_total", code="unknown_command") == 1
        assert value(before, "bswtichu_game_actions_total", source="person") == 0

        chooser, done = Chooser(3), 0
        while done < 8 and ann.over() is None:
            mine = [c for c in await ann.legal(bots_may_have_moved=True) if chooser.kind(c) not in ("bomb", "tichu")]
            if not mine:  # a bot is to move: wait for news unless some came already
                if not ann.client.lines:
                    await ann.client.news()
                continue
            _, command = chooser.pick([(0, c) for c in mine])
            if is_exchange(command):
                ann.send("/hand")
                command = chooser.exchange((await ann.until("HAND"))[-1][1]["cards"])
            ann.send(command)
            await ann.legal(bots_may_have_moved=True)
            done += 1
        after = await server.scrape()
        assert value(after, "bswtichu_game_actions_total", source="person") == done
        assert value(after, "bswtichu_game_actions_total", source="basic") > \
            value(before, "bswtichu_game_actions_total", source="basic")
        decisions = value(after, "bswtichu_bot_decision_seconds_count", level="basic")
        assert decisions > value(before, "bswtichu_bot_decision_seconds_count", level="basic")
        assert value(after, "bswtichu_bot_decision_seconds_bucket", level="basic", le="+Inf") == decisions
        assert value(after, "bswtichu_output_bytes_total", kind="line") > \
            value(before, "bswtichu_output_bytes_total", kind="line") > 0
        assert value(after, "process_cpu_seconds_total") > 0
        assert value(after, "bswtichu_reactor_lag_seconds") < LAG_LIMIT
        assert await server.get("/healthz") == (200, "ok\n")


@pytest_twisted.ensureDeferred
async def test_healthz_says_503_and_why_when_the_last_commit_failed(tmp_path):
    async with MetricsServer(tmp_path, seed=1) as server:
        server.service.counters.commit_failed = True
        code, text = await server.get("/healthz")
        assert (code, text) == (503, "storage: the last commit failed\n")


def test_the_lag_is_how_late_the_reactor_ran_the_timer():
    clock = Clock()
    lag = ReactorLag(clock)
    lag.start()
    clock.advance(LAG_INTERVAL)
    assert lag.seconds == 0
    clock.advance(LAG_INTERVAL + 2.0)  # the reactor was busy for two seconds
    assert lag.seconds == 2.0
    lag.stop()
