"""The one driver of a running game: the engine's `Game`, its bots, their timers and stand-ins.

A server table and the headless `bswtichu match` both run games through a
`GameDriver`, so bots play the same way in both.  The driver applies actions,
asks the bots in one fixed order, starts each next round, and hands what
happened to its subscribers.  It knows nothing of text, connections or files:
message texts, the bots' own observations, the game log and the journal (which
the server stores) are subscribers, and adding one touches no other.

Who acts when, in one place:

- The round waits for some seats (`Round.waits_for`): their Grand Tichu decision,
  their exchange, or the turn.  The first of them is the *first waiting seat*.
- A bot step first offers the seats that are not waiting, in play order
  after the first waiting seat, an out-of-turn action (`Bot.interrupt`: a
  bomb, a Tichu call).  The first one offered is applied.
- Otherwise the first waiting seat that a bot plays chooses (`Bot.choose`).
- A bot action that is not legal is a bug: it is logged as an error (so a
  test run fails on it) and a random legal action is played instead.

A person may play more than one seat's hand (`Variant.played_by`: Trichu's dealer
the dummy's too, each person in Duo his partner seat's).  A bot person plays
each of his seats with a bot of its own (`bot_at`), each knowing only its own
seat's hand and what that seat was told, although the person himself may see
both; a stand-in for him takes all his seats, and his turn clock runs while
the round waits for any of them.

Bots act through the injected clock: after ``bot_delay`` seconds while a person
is present at the table, at once when none is.  The driver owns two parts that
act on it: its `StandIns` (a bot for a person away, out of time, or voted out;
the game holds while one is due, `bswtichu.play.standins`) and its `TurnClock`
(each person's time for a decision, `bswtichu.play.turnclock`).  Each call to
them names the driver, which they call back (``_tell``, ``_apply``, ``_schedule_bots``
and the few more their protocols list); `bswtichu.play.replay` applies a journal's
steps to it again.  A pause stops the bots, the stand-ins' timers
and the clocks (keeping what each had left) until `resume`.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from time import perf_counter
from random import Random
from typing import Callable, Iterable, Protocol, Sequence

from twisted.internet.interfaces import IDelayedCall, IReactorTime
from twisted.logger import Logger
from twisted.python.failure import Failure

from bswtichu.bots import Bot, BotSettings, make_bot
from bswtichu.engine import (
    DECK, NANJING, Action, CallTichu, Card, Event, Game, GameOptions, Round, RoundView, Variant,
    seats_from_join_order,
)
from bswtichu.engine.game import TOURNAMENT_ROUNDS
from bswtichu.engine.events import TurnStarted
from bswtichu.engine.round import OVER
from bswtichu.counters import Counters
from bswtichu.play.workers import BotWorkers
from bswtichu.play.calls import cancel_call
from bswtichu.records import Player, Seed
from .standins import StandIns
from .turnclock import TurnClock


@dataclass(frozen=True)
class GameStopped(Event):
    """The game was stopped before it ended (its table closed); nothing more will happen."""

    kind = "stopped"


class GameSubscriber(Protocol):
    """What the driver tells: a new round is dealt, and what happened, in order."""

    def round_dealt(self, driver: GameDriver) -> None:
        """A round was dealt (in a tournament the seats may have changed); its events follow."""

    def happened(self, driver: GameDriver, events: Sequence[Event]) -> None:
        """Events of the engine (and the driver's own), each with its ``private_to``."""


@dataclass(frozen=True)
class GameSeeds:
    """Everything random in a game, drawn from one seed: the deals, each seat's bot, the driver.

    A seat's bot generator is drawn for every seat, people's too, so a stand-in
    for a person plays as a bot seated there from the start would: the people's
    in join order, then the further hands' (`Variant.further_seats`: Trichu's
    dummy; Duo's seats 3 and 4).
    """

    deals: Random
    seats: tuple[Random, ...]
    driver: Random

    @classmethod
    def from_seed(cls, seed: Seed, seats: int = NANJING.seats) -> GameSeeds:
        master = Random(seed)
        deals = Random(master.getrandbits(64))
        generators = tuple(Random(master.getrandbits(64)) for _ in range(seats))
        return cls(deals, generators, Random(master.getrandbits(64)))


def seated_bots(players: Sequence[Player], options: GameOptions, levels: dict[Player, str],
                seeds: GameSeeds, settings: BotSettings = BotSettings(),
                variant: Variant = NANJING) -> dict[Player, Bot]:
    """Bots of the given levels for some of ``players`` (join order), each with its seat's generator."""
    seating = seats_from_join_order(players, options.tichujoin, variant)
    return {player: make_bot(level, seating.index(player), seeds.seats[seating.index(player)], settings)
            for player, level in levels.items()}


class BotSeats:
    """The subscriber that keeps each bot told: its seat at every deal, the events it may see."""

    def round_dealt(self, driver: GameDriver) -> None:
        for seat in range(driver.game.variant.seats):
            bot = driver.bot_at(seat)
            if bot is not None:
                bot.begin_round(seat)

    def happened(self, driver: GameDriver, events: Sequence[Event]) -> None:
        if not driver.bots:  # a table of people: nothing to look up per event and seat
            return
        seated = [(seat, bot) for seat in range(driver.game.variant.seats)
                  if (bot := driver.bot_at(seat)) is not None]
        for event in events:
            for seat, bot in seated:
                if event.private_to in (None, seat):
                    bot.observe(event)


class BotTurns:
    """The server's bot steps, one per turn of the reactor, in the order they came due.

    Every table's driver hands its due bot step here instead of running it at once, so
    the reactor reads people's lines between any two bot decisions: a person waits for
    at most one decision, however many tables' bots think at the same moment.
    """

    def __init__(self, clock: IReactorTime):
        self.clock = clock
        self._due: deque[Callable[[], object]] = deque()
        self._call: IDelayedCall | None = None

    def __len__(self) -> int:
        return len(self._due)

    def enqueue(self, step: Callable[[], object]) -> None:
        self._due.append(step)
        if self._call is None:
            self._call = self.clock.callLater(0, self._run_one)

    def _run_one(self) -> None:
        step = self._due.popleft()
        self._call = self.clock.callLater(0, self._run_one) if self._due else None
        step()


class GameDriver:
    """Runs one game from its first deal to the end (or to ``max_rounds``)."""

    log = Logger()

    def __init__(self, players: Sequence[Player], options: GameOptions, seeds: GameSeeds,
                 bots: dict[Player, Bot], clock: IReactorTime, bot_delay: float = 0.0,
                 substitute_after: float = 0.0, max_rounds: int | None = None,
                 turns: BotTurns | None = None, counters: Counters | None = None,
                 workers: BotWorkers | None = None, variant: Variant = NANJING,
                 deals: Sequence[Sequence[Card]] | None = None):
        """``players`` in join order (the engine seats them); ``bots`` plays some of them
        (a bot person's further hands get bots of his level and settings);
        ``turns``, if given, queues each due bot step behind other tables' (a server's);
        ``counters``, if given, counts the live game's actions and bot decisions (not a replay's);
        ``workers``, if given, make the decisions of the bots they take in other processes
        (only queued steps, the server's: ``turns``);
        ``deals``, if given, are the game's deals in order instead of shuffled ones (a duplicate
        event's round, `bswtichu.events.duplicate`): round k is dealt ``deals[k]``, so the game
        may have no more rounds than deals (`checked_deals`)."""
        self.turns = turns
        self.counters = counters
        self.workers = workers
        #: the number of steps applied so far: a worker's answer counts only if none came since
        self._moment = 0
        self._thinking = False  # a worker is choosing for this game
        self.game = Game(players, options, seeds.deals, variant)
        #: the preset deals, or None (shuffled from ``seeds.deals``); read once per round dealt
        self.preset_deals = None if deals is None else checked_deals(self.game, deals, max_rounds)
        self.seeds = seeds
        self.clock = clock
        self.bot_delay = bot_delay
        self.substitute_after = substitute_after
        self.max_rounds = max_rounds
        #: person -> the bot playing his (first) seat
        self.bots = dict(bots)
        #: further hand's seat -> its bot while a bot plays its person, else None (`bot_at`)
        self.hand_bots: dict[int, Bot | None] = {}
        self.stopped = self.paused = False
        #: stored steps are being applied again (`bswtichu.play.replay`): no timers, no counters
        self.replaying = False
        self._round_events: list[Event] = []
        self._bot_call: IDelayedCall | None = None
        self._bot_queued = False
        self.stand_ins = StandIns()
        self.turn_clock = TurnClock(clock, self.game, self.game.options.clock)
        # the parts' own sets and counts, read here (on every step, and by the tables) without a call
        self.away, self.substitutes, self.holding, self.replaced, self.strikes = (
            self.stand_ins.away, self.stand_ins.substitutes, self.stand_ins.holding, self.stand_ins.replaced,
            self.turn_clock.strikes)
        self._bot_seats = BotSeats()
        self._subscribers: list[GameSubscriber] = [self._bot_seats]

    # ------------------------------------------------------------------ wiring

    def subscribe(self, subscriber: GameSubscriber) -> None:
        self._subscribers.append(subscriber)

    def start(self) -> None:
        """Deal the first round (subscribe first: the first events go out now)."""
        if self.counters is not None and not self.replaying:
            self.counters.games_started += 1
        self._start_round()

    # ------------------------------------------------------------------ state

    @property
    def round(self) -> Round:
        """The round being played: the last one dealt (`start` deals the first)."""
        return self.game.rounds[-1]

    @property
    def over(self) -> bool:
        return self.game.over

    @property
    def finished(self) -> bool:
        """Over by the rules, or stopped (the table closed, or ``max_rounds`` reached)."""
        return self.game.over or self.stopped

    def seat_of(self, player: Player) -> int:
        """The player's engine seat (0..N-1) in the current round (the first, if he plays two)."""
        return self.game.seating.index(player)

    def player_at(self, seat: int) -> Player:
        """The person who plays ``seat``'s hand (the dummy's: its dealer)."""
        game = self.game
        return game.seating[game.variant.played_by[seat]]  # type: ignore[index]  # Variant.__post_init__ sets it

    def bot_at(self, seat: int) -> Bot | None:
        """The bot that plays ``seat``'s hand, or None (a person plays it)."""
        if seat in self.hand_bots:
            return self.hand_bots[seat]
        return self.bots.get(self.game.seating[seat])

    def is_bot(self, player: Player) -> bool:
        return player in self.bots

    # ------------------------------------------------------------------ actions

    def act(self, player: Player, actions: Sequence[Action]) -> None:
        """Apply a person's actions in order; a stand-in for him stands aside first.

        The caller checks a multi-action request beforehand (`check_in_order`);
        an engine error on the first action leaves everything unchanged.  A turn
        that the next action of the same request takes at once (the wish typed
        with the Mahjong) is not announced.  The actions may be for any of the seats
        he plays (`Game.seats_played_by`).
        """
        self.strikes.pop(player, None)
        if player in self.substitutes:
            self.stand_ins.end(self, player)
        if self.counters is not None:
            self.counters.actions["person"] += len(actions)
        for index, action in enumerate(actions):
            following = actions[index + 1] if index + 1 < len(actions) else None
            self._apply(action, following)

    def _apply(self, action: Action, following: Action | None = None) -> None:
        self._moment += 1
        events = self.game.apply(action)
        if following is not None:
            events = [e for e in events
                      if not (isinstance(e, TurnStarted) and e.seat == following.seat)]
        if self.round.phase != OVER:  # before the telling: the question says the time left
            self.turn_clock.run(self, None if isinstance(action, CallTichu) else action.seat)
        self._tell(events)
        if self.game.over:
            self._finish()
            self._release_subscribers()
        elif self.round.phase == OVER:
            if self.max_rounds is not None and len(self.game.rounds) >= self.max_rounds:
                self._finish()
                self._release_subscribers()
            else:
                self._start_round()
        else:
            self._schedule_bots()

    def _start_round(self) -> None:
        preset = self.preset_deals
        events = self.game.start_round(None if preset is None else preset[len(self.game.rounds)])
        self._round_events = []
        self.hand_bots.clear()
        self._seat_further_hands()
        self.turn_clock.cancel()
        for subscriber in self._subscribers:
            subscriber.round_dealt(self)
        self.turn_clock.run(self, None)
        self._tell(events)
        self._schedule_bots()

    def _seat_further_hands(self) -> None:
        """A bot person's further hands (Trichu's dummy, Duo's partner seats) get bots of his
        level that have seen what their seats saw this round; a person plays his himself."""
        variant = self.game.variant
        for seat in variant.further_seats:
            owner = self.bots.get(self.player_at(seat))
            if owner is None:
                self.hand_bots[seat] = None
            elif self.hand_bots.get(seat) is None:
                self.hand_bots[seat] = self._seat_bot(owner.level, seat, owner.settings)

    def _seat_bot(self, level: str, seat: int, settings: BotSettings = BotSettings()) -> Bot:
        """A bot of ``level`` for ``seat`` that has seen what the seat saw this round, drawing on
        the seat's generator (`_generator`), so a replay makes the same one."""
        bot = make_bot(level, seat, self._generator(seat), settings)
        bot.begin_round(seat)
        for event in self._visible(self._round_events, seat):
            bot.observe(event)
        return bot

    @staticmethod
    def _visible(events: Iterable[Event], seat: int) -> Iterable[Event]:
        return (e for e in events if e.private_to in (None, seat))

    def _generator(self, seat: int) -> Random:
        """The bot generator of ``seat`` (`GameSeeds`): its person's at his first seat, else the further hand's."""
        variant = self.game.variant
        if seat in variant.further_seats:
            return self.seeds.seats[variant.players + variant.further_seats.index(seat)]
        return self.seeds.seats[self.game.seating_for(0).index(self.game.seating[seat])]

    def _tell(self, events: Sequence[Event]) -> None:
        self._round_events.extend(events)
        for subscriber in self._subscribers:
            subscriber.happened(self, events)

    def _finish(self) -> None:
        if self.counters is not None and not self.replaying:
            self.counters.games_ended += 1
        self.stopped = True
        self._cancel_timers()

    def _release_subscribers(self) -> None:
        """The game has ended and every subscriber heard it: let go of them. They hold the
        driver (a table's game, the journal); without this each finished game would be a
        reference cycle that only the collector's full passes free."""
        self._subscribers = [self._bot_seats]

    def stop(self) -> None:
        """No more actions or bot moves (the table closes); subscribers hear `GameStopped`."""
        if not self.stopped:
            self._finish()
            self._tell([GameStopped()])
            self._release_subscribers()

    # ------------------------------------------------------------------ bots

    def _person_present(self) -> bool:
        """Whether a person is at the table (one whose stand-in the turn clock left still watches)."""
        return any(p not in self.away and (p not in self.bots or p in self.substitutes)
                   for p in self.game.base_seats)

    def _schedule_bots(self) -> None:
        if self.stopped or self.paused or self.holding or self.replaying or not self.bots:
            return
        if self._bot_queued or self._thinking or (self._bot_call is not None and self._bot_call.active()):
            return
        delay = self.bot_delay if self._person_present() else 0
        self._bot_call = self.clock.callLater(delay, self._bot_due)

    def _bot_due(self) -> None:
        self._bot_call = None
        if self.turns is None:
            self.step()
        else:
            self._bot_queued = True
            self.turns.enqueue(self._bot_step)

    def _bot_step(self) -> None:
        self._bot_queued = False
        if self.paused or self.holding:
            return
        workers = self.workers
        if workers is None:
            self.step()
        elif not self.stopped:
            self._step_with_workers(workers)

    def _step_with_workers(self, workers: BotWorkers) -> None:
        """As `step`, but a choice the ``workers`` take is asked of them; it is applied when it
        comes, unless the game moved on meanwhile (then the bots are asked again)."""
        waiting = self._waiting()
        choice = self._interruption(waiting)
        if choice is None:
            chooser = self._chooser(waiting)
            if chooser is None:
                return
            seat, bot = chooser
            rnd = self.round
            legal = rnd.legal_actions(seat)
            if not workers.takes(bot):
                choice = self._checked(seat, self._choose(bot, rnd.view(seat), legal), legal), bot
            else:
                self._thinking = True
                workers.choose(bot, rnd.view(seat), legal).addCallbacks(
                    self._chosen, self._worker_failed,
                    callbackArgs=(seat, bot, legal, self._moment, perf_counter()))
                return
        action, bot = choice
        self._apply_bot(action, bot)

    def _chosen(self, answer: tuple[Action, Bot], seat: int, bot: Bot, legal: Sequence[Action],
                moment: int, began: float) -> None:
        self._thinking = False
        if self.stopped or self.paused or self.holding or moment != self._moment \
                or self.bot_at(seat) is not bot:
            self._schedule_bots()  # the game moved on: the answer is for a moment gone
            return
        action, after = answer
        if seat in self.hand_bots:  # the bot as the choice left it
            self.hand_bots[seat] = after
        else:
            self.bots[self.game.seating[seat]] = after
        if self.counters is not None:
            self.counters.decided(bot.level, perf_counter() - began)
        self._apply_bot(self._checked(seat, action, legal), after)

    def _worker_failed(self, failure: Failure) -> None:
        self._thinking = False
        self.log.failure("a bot worker could not decide for {table}; the game waits", failure,
                         table=self.game.seating)

    def step(self) -> Action | None:
        """Apply the bots' next action now, if they have one; returns it."""
        if self.stopped:
            return None
        choice = self._bot_choice()
        if choice is None:
            return None
        action, bot = choice
        self._apply_bot(action, bot)
        return action

    def _apply_bot(self, action: Action, bot: Bot) -> None:
        """Apply the action ``bot`` took (the counters count it under the bot's level)."""
        if self.counters is not None:
            self.counters.actions[bot.level] += 1
        self._apply(action)

    def next_bot_action(self) -> Action | None:
        """The action the bots take next (see the module docstring for the order), or None."""
        choice = self._bot_choice()
        return None if choice is None else choice[0]

    def _bot_choice(self) -> tuple[Action, Bot] | None:
        """The action the bots take next and the bot that takes it, or None (`next_bot_action`)."""
        waiting = self._waiting()
        choice = self._interruption(waiting)
        if choice is not None:
            return choice
        chooser = self._chooser(waiting)
        if chooser is None:
            return None
        seat, bot = chooser
        rnd = self.round
        legal = rnd.legal_actions(seat)
        return self._checked(seat, self._choose(bot, rnd.view(seat), legal), legal), bot

    def _waiting(self) -> list[int]:
        rnd = self.round  # the round's own rule (waits_for_seat): no view to build per step
        return [seat for seat in range(self.game.variant.seats) if rnd.waits_for(seat)]

    def _interruption(self, waiting: list[int]) -> tuple[Action, Bot] | None:
        """The out-of-turn action a bot not waited for offers first, in play order after the
        first waiting seat, and that bot; or None."""
        rnd = self.round
        if not waiting:
            return None
        following = self.game.variant.next_seat
        seat = waiting[0]
        for _ in range(len(following) - 1):
            seat = following[seat]
            bot = self.bot_at(seat)
            if bot is None or seat in waiting:
                continue
            legal = rnd.legal_actions(seat)
            if legal:
                action = bot.interrupt(rnd.view(seat), legal)
                if action is not None:
                    return self._checked(seat, action, legal), bot
        return None

    def _chooser(self, waiting: list[int]) -> tuple[int, Bot] | None:
        """The first waiting seat a bot plays, and its bot (None: the round waits for people)."""
        for seat in waiting:
            bot = self.bot_at(seat)
            if bot is not None:
                return seat, bot
        return None

    def _choose(self, bot: Bot, view: RoundView, legal: Sequence[Action]) -> Action:
        """The bot's choice; in a live game its time goes to the counters (wall time, not the clock's)."""
        if self.counters is None or self.replaying:
            return bot.choose(view, legal)
        began = perf_counter()
        action = bot.choose(view, legal)
        self.counters.decided(bot.level, perf_counter() - began)
        return action

    def _checked(self, seat: int, action: Action, legal: Sequence[Action]) -> Action:
        if action in legal:
            return action
        self.log.error("bot {player} (seat {seat}) chose an illegal action {action!r};"
                       " a random legal action is played instead",
                       player=self.game.seating[seat], seat=seat + 1, action=action)
        return self.seeds.driver.choice(list(legal))

    def _cancel_bot_call(self) -> None:
        """The bots' next step, if one is due, does not come (a hold, a pause, the end)."""
        call, self._bot_call = self._bot_call, None
        cancel_call(call)

    # ------------------------------------------------------------------ stand-ins (`StandIns`)

    def player_away(self, player: Player) -> None:
        """A person left or dropped: after ``substitute_after`` a bot plays for him."""
        self.stand_ins.player_away(self, player)

    def substitute_now(self, player: Player) -> None:
        """A person away for good (banned): his stand-in starts at once, not after the grace."""
        self.stand_ins.substitute_now(self, player)

    def player_back(self, player: Player) -> None:
        """He is back: his timer stops and any stand-in stands aside."""
        self.stand_ins.player_back(self, player)

    def player_active(self, player: Player) -> None:
        """He typed something while present: a stand-in playing for him stands aside."""
        self.stand_ins.player_active(self, player)

    def replace(self, player: Player) -> None:
        """A bot plays ``player``'s seat to the end of the game (his table voted so)."""
        self.stand_ins.replace(self, player)

    def hand_over(self, player: Player, to: Player) -> None:
        """``to``, a person, takes ``player``'s seat, points and past for the rest of the game
        (his table voted so); a stand-in playing the seat stands aside."""
        self.stand_ins.hand_over(self, player, to)

    # ------------------------------------------------------------------ the turn clock (`TurnClock`)

    @property
    def clock_seconds(self) -> int | None:
        """The seconds a person has for each decision, or None (untimed)."""
        return self.turn_clock.seconds

    def time_left(self, player: Player) -> int | None:
        """Whole seconds left (rounded up) on ``player``'s turn clock, or None if it does not run."""
        return self.turn_clock.time_left(player)

    # ------------------------------------------------------------------ pause

    def pause(self) -> None:
        """Nobody is at the table: bots wait, no stand-in starts and the turn clocks stop
        (keeping what each had left) until `resume`."""
        if self.stopped or self.paused:
            return
        self.paused = True
        self.turn_clock.freeze()
        self._cancel_timers()

    def resume(self) -> None:
        """Someone is back: bots go on, and those still away get their stand-in timers again."""
        if self.stopped or not self.paused:
            return
        self.paused = False
        self.stand_ins.resume(self)
        self.turn_clock.run(self, None)
        self._schedule_bots()

    def _cancel_timers(self) -> None:
        """The bots' and stand-ins' timers stop; so do the turn clocks unless paused (a pause
        keeps what each had left)."""
        self._cancel_bot_call()
        self.stand_ins.cancel_timers()
        if not self.paused:
            self.turn_clock.cancel()


def checked_deals(game: Game, deals: Sequence[Sequence[Card]], max_rounds: int | None = None
                  ) -> tuple[tuple[Card, ...], ...]:
    """``deals`` checked for ``game``: each an ordering of the 56 cards, and at least as many
    as the rounds the game can have (its ``round`` option, a tournament's 9 rounds, a
    variant's fixed rounds, or the driver's ``max_rounds``), so the deals never run out."""
    checked = tuple(tuple(deal) for deal in deals)
    for number, deal in enumerate(checked, start=1):
        if len(deal) != len(DECK) or set(deal) != set(DECK):
            raise ValueError(f"preset deal {number} is not an ordering of the {len(DECK)} cards")
    options, variant = game.options, game.variant
    most = TOURNAMENT_ROUNDS if options.turnier else options.round_limit or variant.game_rounds
    if max_rounds is not None:
        most = max_rounds if most is None else min(most, max_rounds)
    if most is None or most > len(checked):
        raise ValueError(f"a game given {len(checked)} preset deals needs a round limit of at most"
                         f" {len(checked)} (round {len(checked)}), so that its deals do not run out")
    return checked


def check_in_order(rnd: Round, actions: Sequence[Action],
                   skip: Callable[[Round, Action], bool] = lambda rnd, action: False) -> list[Action]:
    """Try a multi-step request (a play, then its wish) on a copy, so a bad step changes nothing.

    ``skip(trial, action)`` drops a step that no longer applies (a wish after a
    Mahjong that ended the round).  Raises the engine's error for the first bad step.
    """
    trial = rnd.copy()
    done = []
    for action in actions:
        if skip(trial, action):
            continue
        trial.apply(action)
        done.append(action)
    return done
