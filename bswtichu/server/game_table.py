"""The game at one table: a `GameDriver`, and who at the table is told what.

`TableGame` is what `Table.game` holds once a table starts (it implements
`RunningGame`).  Commands reach it in domain terms ("ann plays these cards");
the driver applies them and runs the bots; `TableGame` is the driver's
subscriber that sends each event only to those the engine allows
(`Event.private_to`), worded for each reader by `GameTexts`.  The game log is
another subscriber (`GameLogRecorder`); neither knows of the other.
"""

from __future__ import annotations

from dataclasses import replace
from random import SystemRandom
from typing import Callable, Hashable, Sequence

from twisted.internet.interfaces import IReactorTime

from bswtichu.bots import BotSettings
from bswtichu.engine import Action, Card, MakeWish, Round, TichuError, team_of
from bswtichu.engine import events as ev
from bswtichu.engine.round import OVER
from bswtichu.play import GameDriver, GameSeeds, check_in_order, seated_bots
from bswtichu.server.game_messages import GameTexts, game_started
from bswtichu.server.gamelogs import GameLogRecorder, GameLogStore
from bswtichu.server.messages import Message, Refusal
from bswtichu.server.table import SEAT_COUNT, Table

ActionBuilder = Callable[[int], "Action | list[Action]"]


def refusal_for(error: TichuError) -> Refusal:
    """The engine's error as the one line a client gets, under the error's stable code."""
    return Refusal(error.code, str(error))


def _wish_after_round(trial: Round, action: Action) -> bool:
    """A wish typed with a Mahjong that ended the round is dropped: nobody is left to bind."""
    return isinstance(action, MakeWish) and trial.phase == OVER


class TableGame:
    """One game at one table, from the first deal to the final standings."""

    def __init__(self, table: Table, driver: GameDriver, log_number: int):
        self.table = table
        self.driver = driver
        self.log_number = log_number
        self.texts = GameTexts(table.number, driver.game.seating)
        driver.subscribe(self)

    def start(self) -> None:
        self.table.tell_all(game_started(self.table.number, self.log_number,
                                         self.table.options.as_data()))
        self.driver.start()

    # ------------------------------------------------------------------ who is who

    @property
    def game(self):
        return self.driver.game

    def player(self, nick: str) -> str:
        """The player's name as seated (whatever case ``nick`` uses), or a refusal."""
        key = nick.casefold()
        for player in self.game.seating:
            if player.casefold() == key:
                return player
        raise Refusal("not_seated", "you do not play in this game")

    def seat_of(self, nick: str) -> int:
        """The engine seat (0..3) of a player in the current round."""
        return self.driver.seat_of(self.player(nick))

    def hand_of(self, nick: str) -> frozenset[Card]:
        """The cards ``nick`` holds now."""
        return frozenset(self.game.round.hands[self.seat_of(nick)])

    def seat_named(self, nick: str, target: str) -> int:
        """The engine seat of the player ``target`` names (a seat 1-4 or a name), for ``nick``."""
        if target.isascii() and target.isdigit():
            seat = int(target) - 1
            if not 0 <= seat < SEAT_COUNT:
                raise Refusal("usage", f"seats are 1-{SEAT_COUNT}")
            return seat
        names = [name.casefold() for name in self.game.seating]
        if target.casefold() not in names:
            mine = team_of(self.seat_of(nick))
            opponents = " and ".join(n for s, n in enumerate(self.game.seating) if team_of(s) != mine)
            raise Refusal("no_such_player", f"nobody called {target} plays here; opponents are {opponents}")
        return names.index(target.casefold())

    # ------------------------------------------------------------------ actions

    def act(self, nick: str, build: ActionBuilder) -> None:
        """Apply what ``nick`` asked for: ``build(seat)`` makes it from his engine seat."""
        if self.driver.finished:
            raise Refusal("game_over", "the game is over")
        player = self.player(nick)
        try:
            built = build(self.driver.seat_of(player))
            actions = built if isinstance(built, list) else [built]
            if len(actions) > 1:
                actions = check_in_order(self.game.round, actions, skip=_wish_after_round)
            self.driver.act(player, actions)
        except TichuError as error:
            raise refusal_for(error) from None

    # ------------------------------------------------------------------ telling

    def round_dealt(self, driver: GameDriver) -> None:
        self.texts = GameTexts(self.table.number, driver.game.seating)

    def happened(self, driver: GameDriver, events: Sequence[ev.Event]) -> None:
        seating = driver.game.seating
        for event in events:
            if isinstance(event, ev.RoundScored):
                self.table.tell_all(self.score_message(self.texts.after_round(event.number)))
                continue
            if isinstance(event, ev.GameOver):
                self.table.tell_all(self.texts.game_over(event, self.score_message("Final standings"),
                                                         self.log_number))
                self.table.end_game()
                continue
            for seat, name in enumerate(seating):
                if event.private_to is not None and event.private_to != seat:
                    continue
                message = self.texts.event(event, seat)
                if message is not None:
                    self._tell(name, message)
            if event.private_to is None:
                message = self.texts.event(event, None)
                if message is not None:
                    self.table.tell_spectators(message)

    def _tell(self, name: str, message: Message) -> None:
        seat = self.table.seat_of(name)
        if seat is not None:
            self.table.tell_seat(seat, message)

    # ------------------------------------------------------------------ views

    def score_message(self, heading: str = "Score") -> Message:
        return self.texts.score(self.game, heading)

    def table_message(self, nick: str | None) -> Message:
        """The table as ``nick`` sees it (his seat's view), or as a spectator (None)."""
        seat = None if nick is None else self.seat_of(nick)
        return self.texts.table_view(self.game.round.view(seat), len(self.game.rounds),
                                     self.score_message().text,
                                     {"totals": list(self.game.totals), "log": self.log_number})

    def hand_message(self, nick: str) -> Message:
        return self.texts.hand(self.game.round.view(self.seat_of(nick)))

    def legal_message(self, nick: str) -> Message:
        seat = self.seat_of(nick)
        return self.texts.legal(seat, self.game.round.legal_actions(seat))

    def show_state(self, nick: str) -> None:
        """Tell ``nick`` the score, the table and his hand (after he comes back)."""
        self._tell(nick, self.score_message())
        self._tell(nick, self.table_message(nick))
        if self.game.round.phase != OVER:
            self._tell(nick, self.hand_message(nick))

    # ------------------------------------------------------------------ the table's calls

    def player_away(self, nick: str) -> None:
        """A player left or dropped: after the grace time a bot plays for him."""
        self.driver.player_away(self.player(nick))

    def player_back(self, nick: str) -> None:
        """A player returned: he takes his seat back from any bot and sees the full state."""
        self.driver.player_back(self.player(nick))
        self.show_state(nick)

    def stop(self) -> None:
        """The table closes: no more bot moves."""
        self.driver.stop()


class GameWiring:
    """The tables' game factory: builds a `TableGame` (driver, bots, log) when a table starts.

    ``seeds()`` gives each game its seed; everything random in the game is drawn from it.
    """

    def __init__(self, clock: IReactorTime, logs: GameLogStore, bot_delay: float,
                 substitute_after: float,
                 seeds: Callable[[], Hashable] = lambda: SystemRandom().getrandbits(64),
                 bot_settings: BotSettings = BotSettings()):
        self.clock = clock
        self.bot_settings = bot_settings
        self.logs = logs
        self.bot_delay = bot_delay
        self.substitute_after = substitute_after
        self.seeds = seeds

    def __call__(self, table: Table) -> TableGame:
        players = tuple(table.seats)  # already seated by the table's options (tichujoin)
        options = replace(table.options, tichujoin=False)
        seeds = GameSeeds.from_seed(self.seeds())
        levels = {name: level for name, level in table.bots.values()}
        driver = GameDriver(players, options, seeds, seated_bots(players, options, levels, seeds,
                                                                 self.bot_settings),
                            self.clock, self.bot_delay, self.substitute_after)
        log_number = self.logs.reserve()
        driver.subscribe(GameLogRecorder(self.logs, log_number, f"table {table.number}"))
        return TableGame(table, driver, log_number)


__all__ = ["ActionBuilder", "GameWiring", "TableGame", "refusal_for"]
