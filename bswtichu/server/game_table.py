"""The game at one table: the engine's `Game`, who is told what, bots, and the game log.

`TableGame` is what `Table.game` holds once a table starts.  Commands reach it
in domain terms ("ann plays these cards"); it applies them to the engine and
sends each event only to those the engine allows (`Event.private_to`), worded
for each reader.  Computer players (bots seated before the start, or a bot
standing in for a player who stayed away longer than the grace time) act
through the injected clock: after ``bot_delay`` seconds while people play, at
once when no person is left.
"""

from __future__ import annotations

from random import Random
from typing import Callable

from twisted.internet.interfaces import IDelayedCall, IReactorTime
from twisted.logger import Logger

from bswtichu.bots import make_bot, must_act
from bswtichu.engine import Action, Game, GameOptions, MakeWish, TichuError
from bswtichu.engine import events as ev
from bswtichu.engine.round import OVER
from bswtichu.server.game_messages import GameTexts
from bswtichu.server.gamelogs import GameLogStore
from bswtichu.server.messages import Message, Refusal
from bswtichu.tch.record import game_log

SUBSTITUTE_LEVEL = "basic"


def refusal_for(error: TichuError) -> Refusal:
    """The engine's error as the one line a client gets."""
    code = {"ParseError": "bad_cards", "IllegalActionError": "illegal",
            "AmbiguousError": "ambiguous"}.get(type(error).__name__, "illegal")
    return Refusal(code, str(error))


class TableGame:
    """One game at one table, from the first deal to the final standings."""

    log = Logger()

    def __init__(self, table, clock: IReactorTime, rng: Random, bot_rng: Random,
                 logs: GameLogStore, bot_delay: float, substitute_after: float):
        self.table = table
        self.clock = clock
        self.bot_rng = bot_rng
        self.logs = logs
        self.bot_delay = bot_delay
        self.substitute_after = substitute_after
        options = GameOptions(round_limit=table.options.round, turnier=table.options.turnier)
        self.players = [name for name in table.seats]  # seat order after the tichujoin swap
        self.game = Game(self.players, options, rng)
        self.bots = {name: make_bot(level, seat - 1, bot_rng)
                     for seat, (name, level) in table.bots.items()}
        self.substitutes: set[str] = set()
        self._bot_call: IDelayedCall | None = None
        self._away_calls: dict[str, IDelayedCall] = {}
        self.texts = GameTexts(table.number, self.players)
        self.log_number = logs.reserve()
        self._tell_everyone(Message("GAME", {"table": table.number, "log": self.log_number,
                                             "options": table.options.as_data()},
                                    f"A new game begins at table {table.number}; its log will be"
                                    f" /log {self.log_number}."))
        self._start_round()

    # ------------------------------------------------------------------ who is who

    def seat_of(self, name: str) -> int:
        """The engine seat (0..3) of a player in the current round."""
        key = name.casefold()
        for seat, player in enumerate(self.game.seating):
            if player.casefold() == key:
                return seat
        raise Refusal("not_seated", "you do not play in this game")

    def _person_present(self) -> bool:
        for name in self.players:
            seat = self.table.seat_of(name)
            if name not in self.bots and seat is not None and not self.table.is_away(seat):
                return True
        return False

    # ------------------------------------------------------------------ telling

    def _tell(self, name: str, message: Message) -> None:
        if name in self.bots and name not in self.substitutes:
            return
        seat = self.table.seat_of(name)
        if seat is not None:
            self.table.tell_seat(seat, message)

    def _tell_everyone(self, message: Message) -> None:
        self.table.tell_all(message)

    def _dispatch(self, events: list[ev.Event]) -> None:
        seating = self.game.seating
        for event in events:
            if isinstance(event, ev.RoundScored):
                self._round_scored(event)
                continue
            if isinstance(event, ev.GameOver):
                self._game_over(event)
                continue
            for seat, name in enumerate(seating):
                if event.private_to is not None and event.private_to != seat:
                    continue
                bot = self.bots.get(name)
                if bot is not None:
                    bot.observe(event)
                message = self.texts.event(event, seat)
                if message is not None:
                    self._tell(name, message)
            if event.private_to is None:
                message = self.texts.event(event, None)
                if message is not None:
                    self.table.tell_spectators(message)

    # ------------------------------------------------------------------ rounds

    def _start_round(self) -> None:
        events = self.game.start_round()
        seating = self.game.seating
        self.texts = GameTexts(self.table.number, seating)
        for seat, name in enumerate(seating):
            if name in self.bots:
                self.bots[name].begin_round(seat)
        self._dispatch(events)
        self._schedule_bots()

    def _round_scored(self, event: ev.RoundScored) -> None:
        self._save_log()
        self._tell_everyone(self.score_message(f"After round {event.number}"))

    def _game_over(self, event: ev.GameOver) -> None:
        self.logs.finish(self.log_number)
        winners = list(event.winners)
        if winners:
            text = f"Game over at table {self.table.number}! Winners: {', '.join(winners)}."
        else:
            text = f"Game over at table {self.table.number}: a draw."
        standings = [s.to_dict() for s in event.standings]
        final = self.score_message("Final standings").text
        self._tell_everyone(Message("GAME_OVER", {"table": self.table.number, "winners": winners,
                                                  "standings": standings, "log": self.log_number},
                                    f"{text} {final} The game's log: /log {self.log_number}."))

    def _save_log(self) -> None:
        finished = [(rnd, seating) for rnd, seating in zip(self.game.rounds, self.game.seatings)
                    if rnd.phase == OVER]
        try:
            self.logs.save(self.log_number, game_log(finished, f"table {self.table.number}"))
        except Exception:  # a full disk or a bug in the recorder must not stop the game
            self.log.failure("cannot write game log {number}", number=self.log_number)

    def score_message(self, heading: str = "Score") -> Message:
        game = self.game
        standings = [s.to_dict() for s in game.standings()]
        if game.options.turnier:
            parts = [f"{s['place']}. {s['player']} {s['victory_points']} VP ({s['points']})"
                     for s in standings]
            text = f"{heading} ({len(game.rounds)} of 9 rounds): " + ", ".join(parts) + "."
        else:
            a, b = game.seating[0], game.seating[1]
            c, d = game.seating[2], game.seating[3]
            limit = f" of {game.options.round_limit}" if game.options.round_limit else ""
            text = (f"{heading} (round {len(game.rounds)}{limit}): {a} + {c} {game.totals[0]},"
                    f" {b} + {d} {game.totals[1]}.")
        return Message("SCORE", {"table": self.table.number, "rounds": len(game.rounds),
                                 "totals": list(game.totals), "standings": standings,
                                 "turnier": game.options.turnier}, text)

    # ------------------------------------------------------------------ actions

    def act(self, name: str, make_action: Callable[[int], Action | list[Action]]) -> None:
        """Apply what ``name`` asked for: ``make_action(seat)`` builds it from his engine seat."""
        if self.game.over:
            raise Refusal("game_over", "the game is over")
        if name in self.substitutes:
            self._end_substitute(name)
        seat = self.seat_of(name)
        try:
            actions = make_action(seat)
            if not isinstance(actions, list):
                actions = [actions]
            if len(actions) > 1:
                actions = _check_in_order(self.game.round, actions)
        except TichuError as error:
            raise refusal_for(error) from None
        for action in actions:
            self._apply(action)

    def _apply(self, action: Action) -> None:
        try:
            events = self.game.apply(action)
        except TichuError as error:
            raise refusal_for(error) from None
        self._dispatch(events)
        if self.game.over:
            self._cancel_timers()
            self.table.end_game()
            return
        if self.game.round.phase == OVER:
            self._start_round()
            return
        self._schedule_bots()

    # ------------------------------------------------------------------ bots

    def _schedule_bots(self) -> None:
        if self._bot_call is not None and self._bot_call.active():
            return
        if not self.bots or self.game.over:
            return
        delay = self.bot_delay if self._person_present() else 0
        self._bot_call = self.clock.callLater(delay, self._bot_step)

    def _bot_step(self) -> None:
        self._bot_call = None
        if self.game.over or self.game.round is None or self.game.round.phase == OVER:
            return
        action = self._bot_action()
        if action is not None:
            self._apply(action)

    def _bot_action(self) -> Action | None:
        rnd = self.game.round
        seating = self.game.seating
        waiting = [s for s in range(4) if must_act(rnd.view(s))]
        for seat, name in enumerate(seating):
            bot = self.bots.get(name)
            if bot is None or seat in waiting:
                continue
            legal = rnd.legal_actions(seat)
            if legal:
                action = bot.interrupt(rnd.view(seat), legal)
                if action is not None and action in legal:
                    return action
        for seat in waiting:
            bot = self.bots.get(seating[seat])
            if bot is not None:
                legal = rnd.legal_actions(seat)
                action = bot.choose(rnd.view(seat), legal)
                if action not in legal:
                    self.log.error("bot {name} chose an illegal action {action!r}",
                                   name=seating[seat], action=action)
                    action = self.bot_rng.choice(legal)
                return action
        return None

    def player_away(self, name: str) -> None:
        """A player left or dropped: after the grace time a bot plays for him."""
        if self.game.over or name in self.bots:
            return
        self._away_calls[name] = self.clock.callLater(self.substitute_after, self._substitute, name)

    def _substitute(self, name: str) -> None:
        self._away_calls.pop(name, None)
        if self.game.over:
            return
        self.bots[name] = make_bot(SUBSTITUTE_LEVEL, self.seat_of(name), self.bot_rng)
        self.bots[name].begin_round(self.seat_of(name))
        self.substitutes.add(name)
        self._tell_everyone(Message("SUBSTITUTE", {"table": self.table.number, "player": name,
                                                   "level": SUBSTITUTE_LEVEL},
                                    f"A {SUBSTITUTE_LEVEL} bot plays for {name} until"
                                    f" {name} comes back."))
        self._schedule_bots()

    def _end_substitute(self, name: str) -> None:
        self.substitutes.discard(name)
        self.bots.pop(name, None)
        self._tell_everyone(Message("SUBSTITUTE_END", {"table": self.table.number, "player": name},
                                    f"{name} plays again (the bot stands aside)."))

    def player_back(self, name: str) -> None:
        """A player returned: he takes his seat back from any bot and sees the full state."""
        call = self._away_calls.pop(name, None)
        if call is not None and call.active():
            call.cancel()
        if name in self.substitutes:
            self._end_substitute(name)
        self.show_state(name)

    def show_state(self, name: str) -> None:
        seat = self.seat_of(name)
        self._tell(name, self.score_message())
        self._tell(name, self.table_message(seat))
        if self.game.round.phase != OVER:
            self._tell(name, self.texts.hand(self.game.round.view(seat)))

    def table_message(self, seat: int | None) -> Message:
        game = self.game
        rnd = game.round
        score = self.score_message()
        return self.texts.table_view(rnd.view(seat), len(game.rounds), score.text,
                                     {"totals": list(game.totals), "log": self.log_number})

    def legal_message(self, seat: int) -> Message:
        return self.texts.legal(seat, self.game.round.legal_actions(seat))

    def _cancel_timers(self) -> None:
        for call in [self._bot_call, *self._away_calls.values()]:
            if call is not None and call.active():
                call.cancel()
        self._bot_call = None
        self._away_calls.clear()

    def stop(self) -> None:
        """The table closes: no more bot moves; the rounds played so far are a finished log."""
        self._cancel_timers()
        self.logs.finish(self.log_number)


def _check_in_order(rnd, actions: list[Action]) -> list[Action]:
    """Try a multi-step request (play, then wish) on a copy, so a bad wish changes nothing.

    A wish typed with a Mahjong that ends the round is dropped: nobody is left to bind.
    """
    trial = rnd.copy()
    done = []
    for action in actions:
        if isinstance(action, MakeWish) and trial.phase == OVER:
            continue
        trial.apply(action)
        done.append(action)
    return done


class GameWiring:
    """The table's game factory: builds a `TableGame` when a table starts."""

    def __init__(self, clock: IReactorTime, logs: GameLogStore, bot_delay: float,
                 substitute_after: float, rng_factory: Callable[[], Random] = Random):
        self.clock = clock
        self.logs = logs
        self.bot_delay = bot_delay
        self.substitute_after = substitute_after
        self.rng_factory = rng_factory

    def __call__(self, table) -> TableGame:
        return TableGame(table, self.clock, self.rng_factory(), self.rng_factory(), self.logs,
                         self.bot_delay, self.substitute_after)
