"""The game at one table: a `GameDriver`, and who at the table is told what.

`TableGame` is what `Table.game` holds once a table starts (it implements
`RunningGame`).  Commands reach it in domain terms ("ann plays these cards");
the driver applies them and runs the bots; `TableGame` is the driver's
subscriber that sends each event only to those the engine allows
(`Event.private_to`), worded for each reader by `GameTexts`.  The game log is
another subscriber (`GameLogRecorder`); neither knows of the other.  The game
wiring (`wiring.GameWiring`) builds it when a table starts.
"""

from __future__ import annotations

from functools import partial
from typing import Callable, Iterable, Sequence

from twisted.logger import Logger

from bswtichu.server.text.i18n import _
from bswtichu import names
from bswtichu.engine import Action, Card, Exchange, Game, MakeWish, Round, TichuError, check_selection, suggestions
from bswtichu.engine import events as ev
from bswtichu.engine.game import Seating
from bswtichu.engine.round import EXCHANGE, GRAND, OVER, PLAY
from bswtichu.play import SUBSTITUTE_LEVEL, GameDriver, SeatHandedOver, check_in_order
from bswtichu.server.numbers import is_number
from bswtichu.server.games.durable import DurableGame
from bswtichu.server.tables.table import Reader, Table
from bswtichu.server.text.game_messages import GameTexts, game_started
from bswtichu.server.text import questions
from bswtichu.server.text.i18n import Joined, Wordable
from bswtichu.server.text.messages import (
    Message, Refusal, for_second_hand, second_hand_title, second_hand_word,
)
from bswtichu.server.text.render import MACHINE

ActionBuilder = Callable[[int], "Action | list[Action]"]

def refusal_for(error: TichuError) -> Refusal:
    """The engine's error as the one line a client gets, under the error's stable code."""
    return Refusal(error.code, str(error))


def _wish_after_round(trial: Round, action: Action) -> bool:
    """A wish typed with a Mahjong that ended the round is dropped: nobody is left to bind."""
    return isinstance(action, MakeWish) and trial.phase == OVER


#: What is wrong with a command of ``phase`` given in another phase, as the engine says it: a
#: command's arguments are read against the hand only in its own phase (the phase is what is wrong)
_WRONG_PHASE = {
    PLAY: {GRAND: "first decide about Grand Tichu (grand or nogrand)",
           EXCHANGE: "first pass your {count} cards (exchange)"},
    EXCHANGE: {GRAND: "first decide about Grand Tichu; the exchange comes next",
               PLAY: "the exchange is not now"},
}


#: the games' own log events (a module logger: an instance's would keep the game in the event)
log = Logger()


class _Gathered:
    """What one step of a game tells, gathered by engine seat until it is told: each seat's
    messages, the spectators' (``watched``; of those, ``unsaid`` for programs only), and the
    seats the step may have asked to act (``concerned``, whose pushed LEGAL follows)."""

    __slots__ = ("readers", "sentences", "reworded", "told", "watched", "unsaid", "concerned")

    def __init__(self, readers: list[Reader | None], seats: int) -> None:
        self.told: list[list[Message]] = [[] for _unused in range(seats)]  # a second hand's: none
        self.watched: list[Message] = []
        self.unsaid: list[Message] = []
        self.concerned: set[int] = set()
        self.read_by(readers)

    def read_by(self, readers: list[Reader | None]) -> None:
        """The step is read by ``readers`` (by engine seat) from now on: ``sentences`` says which
        read sentences (people, relays; programs read fields only)."""
        self.readers = readers
        self.sentences = [reader is not None and reader.mode != MACHINE for reader in readers]
        self.reworded = any(self.sentences)

    def gather_for_programs(self, message: Message) -> None:
        """``message`` for programs only: the seats that read fields, and the spectators."""
        for messages, sentences in zip(self.told, self.sentences):
            if not sentences:
                messages.append(message)
        self.unsaid.append(message)
        self.watched.append(message)


class TableGame:
    """One game at one table, from the first deal to the final standings."""

    def __init__(self, table: Table, driver: GameDriver, log_number: int, record: DurableGame | None = None):
        self.table = table
        self.driver = driver
        self.log_number = log_number
        self.record = record
        #: by engine seat: the seat of the person who plays it (his own; the dealer's for the dummy)
        self._home: tuple[int, ...] = driver.game.variant.played_by  # type: ignore[assignment]  # Variant.__post_init__ sets it
        self.texts = self._texts()
        self._seating_seen: Seating = ()
        self._table_seats_seen: list[str | None] = []
        self._seats: list[int | None] = []
        #: while one request of a person is applied: the seats its steps may have asked to act,
        #: whose pushed LEGAL waits until the whole request is applied (the wish typed with the
        #: Mahjong answers the turn its play opened)
        self._acting: set[int] | None = None
        #: the seat of the last TRICK_WON told, until its trick is taken or reopened
        self._won_told: int | None = None
        driver.subscribe(self)

    def start(self) -> None:
        self.table.tell_all(game_started(self.table.number, self.log_number, self.table.option_data()))
        self.driver.start()

    # ------------------------------------------------------------------ who is who

    @property
    def game(self) -> Game:
        return self.driver.game

    def player(self, nick: str) -> str:
        """The player's name as seated (whatever case ``nick`` uses), or a refusal."""
        # the people (a seating may hold the dummy, or one twice)
        people: tuple[str, ...] = self.game.base_seats  # type: ignore[assignment]  # a table's people are their names
        if nick in people:  # as seated: the common case, no casefolding
            return nick
        key = nick.casefold()
        for player in people:
            if player.casefold() == key:
                return player
        raise Refusal("not_seated", _('you do not play in this game'))

    def seat_of(self, nick: str) -> int:
        """The engine seat (0..N-1) of a player in the current round: his own."""
        return self.driver.seat_of(self.player(nick))

    def seat_for(self, nick: str, hand: int = 0) -> int:
        """The engine seat of the ``hand``-th hand ``nick`` plays this round (0: his own; 1: the
        second hand, Trichu's dealer's dummy), or a refusal."""
        if hand == 0:
            return self.seat_of(nick)
        seats = self.game.seats_played_by(self.player(nick))
        if hand >= len(seats):
            raise Refusal("no_second_hand", _('you play no second hand this round; /%(second_hand_word)s is for the player who plays '
                                              'one (in Trichu the dealer, for the dummy)', second_hand_word=second_hand_word(self.game.variant)))
        return seats[hand]

    def hand_of(self, nick: str, hand: int = 0) -> tuple[Card, ...]:
        """The cards ``nick`` holds now, copied into a tuple (a set would hash each card in Python)."""
        return tuple(self.driver.round.hands[self.seat_for(nick, hand)])

    def check_phase(self, nick: str, phase: str) -> None:
        """Refuse a command of ``phase`` (PLAY or EXCHANGE) in another phase, before its arguments
        are read: ``/play 5`` in the Grand Tichu phase is wrong for the phase, not for the cards."""
        self.player(nick)
        rnd = self.driver.round
        now = rnd.phase
        if now != phase and now in _WRONG_PHASE[phase]:
            if now == GRAND and rnd.grand_decided[self.seat_of(nick)]:  # Trichu's dealer: from the start
                raise Refusal("illegal", _('the others decide about Grand Tichu first; the exchange comes next'))
            count = len(self.game.variant.exchange_steps)
            raise Refusal("illegal", _WRONG_PHASE[phase][now].format(count=count))

    def seat_named(self, nick: str, target: str, hand: int = 0, partners: bool = False) -> int:
        """The engine seat of the player ``target`` names (a seat 1-N or a name), for ``nick``'s
        ``hand``; a refusal names his opponents (or with ``partners``, his partners)."""
        variant = self.game.variant
        if is_number(target):
            seat = int(target) - 1
            if not 0 <= seat < variant.seats:
                raise Refusal("usage", _('seats are 1-%(seats)s', seats=variant.seats))
            return seat
        wanted = names.key(target)
        for seat, name in enumerate(self.texts.names):
            if wanted in (names.key(name), names.key(names.short_name(name))):
                return seat
        mine = self.seat_for(nick, hand)
        others = (variant.partners if partners else variant.opponents)[mine]
        listed = " and ".join(self.texts.names[s] for s in others)
        raise Refusal("no_such_player", f"nobody called {target} plays here;"
                                        f" {'partners' if partners else 'opponents'} are {listed}")

    # ------------------------------------------------------------------ actions

    def act(self, nick: str, build: ActionBuilder, hand: int = 0) -> None:
        """Apply what ``nick`` asked for: ``build(seat)`` makes it from the engine seat of his
        ``hand`` (0: his own)."""
        if self.driver.finished:
            raise Refusal("game_over", _('the game is over'))
        if self.table.pause.on:
            raise Refusal("paused", _('the game at table %(table)s is paused by vote; /continue asks to go on', table=self.table.number))
        player = self.player(nick)
        try:
            built = build(self.driver.seat_of(player) if hand == 0 else self.seat_for(player, hand))
            actions = built if isinstance(built, list) else [built]
            if len(actions) > 1:
                actions = check_in_order(self.driver.round, actions, skip=_wish_after_round)
            self._acting = set()
            self.driver.act(player, actions)
        except TichuError as error:
            raise refusal_for(error) from error  # the cause: what the command may add (`CardsNotHeld`)
        finally:
            concerned, self._acting = self._acting, None
        if concerned:
            self._push_after_request(concerned)

    def _push_after_request(self, concerned: set[int]) -> None:
        """The pushed LEGAL of the seats a whole request asked to act, now that it is applied."""
        with self.table.outbox:
            readers = self._readers(self.game.seating)
            told: list[list[Message]] = [[] for _unused in readers]
            self._push_legal(readers, concerned, told)
            self._tell_gathered(readers, told, [])

    # ------------------------------------------------------------------ telling

    def round_dealt(self, driver: GameDriver) -> None:
        self.texts.forget()
        self.texts = self._texts()

    def _texts(self) -> GameTexts:
        """The round's texts: with the time left in each question if the table has a turn clock."""
        timed = self._time_left if self.driver.clock_seconds else None
        game = self.driver.game
        # the names by engine seat (the engine is generic over who plays; a server's players are
        # their names); Trichu's dummy seat holds DUMMY: GameTexts names it, played_by reads people's seats
        seating: tuple[str, ...] = game.seating  # type: ignore[assignment]  # names (and DUMMY, above)
        played_by = {seat: seating[home] for seat, home in enumerate(self._home) if seat != home}
        return GameTexts(self.table.number, seating, self._trick_points, timed, game.variant, played_by)

    def _time_left(self, seat: int | None) -> int | None:
        """The seconds left on ``seat``'s turn clock; None: the clock's full time."""
        if seat is None:
            return self.driver.clock_seconds
        return self.driver.time_left(self.game.seating[self._home[seat]])  # a second hand's: its player's

    def happened(self, driver: GameDriver, events: Sequence[ev.Event]) -> None:
        if any(type(event) is SeatHandedOver for event in events):
            self.texts = self._texts()  # the seat has another name now
        with self.table.outbox:  # a bot's step comes from the clock, not from an input line
            self._tell_events(driver.game.seating, events)

    def _tell_events(self, seating: Seating, events: Sequence[ev.Event]) -> None:
        """Each seat's messages of the step are gathered (`_Gathered`) and told in one call per
        reader; a score or the game's end tells what came before it first."""
        step = _Gathered(self._readers(seating), len(seating))  # by engine seat: None for one away
        concerned = step.concerned
        for event in events:
            seat = getattr(event, "seat", None)
            if isinstance(seat, int):
                concerned.add(seat)
            elif isinstance(event, ev.PhaseStarted):
                concerned.update(range(len(seating)))
            if isinstance(event, (ev.RoundScored, ev.GameOver)):
                self._tell_scored(step, event, seating)
            elif self._seating_announced(event):
                continue
            elif event.private_to is not None:
                message = self._message(event, event.private_to)
                if message is not None:
                    step.told[self._home[event.private_to]].append(message)
            else:
                self._gather_common(step, event)
        if self._acting is not None:
            self._acting.update(concerned)  # pushed once the whole request is applied
        elif concerned:
            self._push_legal(step.readers, concerned, step.told)
        self._tell_gathered(step.readers, step.told, step.watched, step.unsaid)

    def _tell_scored(self, step: _Gathered, event: ev.RoundScored | ev.GameOver, seating: Seating) -> None:
        """The round's score, or the game's end (the table reopens): told to everyone after what
        the step gathered before it; those who read the rest of the step are looked up again."""
        self._tell_gathered(step.readers, step.told, step.watched, step.unsaid)
        if isinstance(event, ev.RoundScored):
            self.table.tell_all(self.score_message("round"))
        else:
            self._game_over(event)
        step.read_by(self._readers(seating))

    def _game_over(self, event: ev.GameOver) -> None:
        self.table.tell_all(self.texts.game_over(event, self.score_message("final"), self.log_number))
        self.texts.forget()
        log.info("table {table}: game {number} is over, won by {winners}",
                 table=self.table.number, number=self.log_number,
                 winners=", ".join(map(str, event.winners)) or "nobody (a draw)", event="game_end")
        self.table.end_game()

    def _seating_announced(self, event: ev.Event) -> bool:
        """The first round's seating is the one STARTED announced (Trichu's is not): not told."""
        return type(event) is ev.SeatingChanged and len(self.game.rounds) == 1 and self.game.variant.dummy is None

    def _gather_common(self, step: _Gathered, event: ev.Event) -> None:
        """One message for everyone (its fields do not depend on the reader), reworded for the
        seats it calls "you" if they read sentences: encoded once; each sentence made only if
        someone reads it."""
        common = self.texts.event(event, None)
        if common is None:
            return
        if self._taken_as_won(event):  # for programs only: people read it with TRICK_WON
            step.gather_for_programs(common)
            return
        for messages in step.told:
            messages.append(common)
        if step.reworded:
            self._reword(step, event, common)
        step.watched.append(common)
        if type(event) is ev.PhaseStarted and event.phase == PLAY and self.game.variant.dummy is not None:
            shown = self.texts.open_hand(self.driver.round.view(None))  # Trichu: open from now on
            for messages in step.told:
                messages.append(shown)
            step.watched.append(shown)

    def _reword(self, step: _Gathered, event: ev.Event, common: Message) -> None:
        """``common``, just gathered for every seat, as a sentence for each seat it calls "you"."""
        home, told, sentences = self._home, step.told, step.sentences
        addressed = self.texts.addressed(event)
        for seat in addressed:
            reader = home[seat]
            if not sentences[reader]:
                continue
            if reader == seat or reader not in addressed:
                told[reader][-1] = common.reworded(partial(self._sentence, event, seat))
            else:  # asked for his own hand and a second one (the exchange): both said
                told[reader][-1] = common.reworded(partial(self._sentences, event, (reader, seat)))

    def _taken_as_won(self, event: ev.Event) -> bool:
        """Whether ``event`` is the trick taken by its winner as the TRICK_WON told said (with
        its points, before the lead that takes it was asked for): people need not read it."""
        # one type() call for the three tests (every common event passes here: three isinstance
        # calls would cost two more on most); mypy does not narrow through ``kind``, hence the ignores
        kind = type(event)
        if kind is ev.TrickWon:
            self._won_told = event.seat  # type: ignore[attr-defined]  # a TrickWon
        elif kind is ev.Played:  # a bomb onto a won trick reopens it
            self._won_told = None
        elif kind is ev.TrickCollected:
            won, self._won_told = self._won_told, None
            return event.to == event.winner == won  # type: ignore[attr-defined]  # a TrickCollected
        return False

    def _tell_gathered(self, readers: list[Reader | None], told: list[list[Message]],
                       watched: list[Message], unsaid: list[Message] | None = None) -> None:
        """Tell what the step gathered so far, and start gathering afresh (``unsaid``: the
        spectators' messages for programs only)."""
        for reader, messages in zip(readers, told):
            if reader is not None and messages:
                reader.send_all(messages)
            messages.clear()
        self.table.tell_spectators_all(watched, unsaid or ())
        watched.clear()
        if unsaid:
            unsaid.clear()

    def _push_legal(self, readers: list[Reader | None], seats: Iterable[int], told: list[list[Message]]) -> None:
        """Each of ``seats`` that the round now waits for and that asked for it (``/legal push on``)
        gets its LEGAL after the step's messages: a bot needs no /legal round trip."""
        rnd = self.driver.round
        home = self._home
        for seat in sorted(seats):
            if rnd.waits_for(seat):
                pushed = self._pushed_legal(seat, readers[home[seat]])
                if pushed is not None:
                    told[home[seat]].append(pushed)

    def _pushed_legal(self, seat: int, reader: Reader | None) -> Message | None:
        """The seat's LEGAL if its reader asked for it to come by itself (people: the grouped
        sentence; programs: the full list), else None."""
        if reader is None or not reader.legal_push:
            return None
        return self._legal(seat, full=reader.mode == MACHINE)

    def _trick_points(self) -> int:
        """The points of the trick on the table."""
        return sum(c.points for _unused, combo in self.driver.round.trick for c in combo.cards)

    def _readers(self, seating: Seating) -> list[Reader | None]:
        """The online client of each engine seat's player, if he is at the table."""
        reader_at = self.table.reader_at
        return [None if seat is None else reader_at(seat) for seat in self._table_seats(seating)]

    def _table_seats(self, seating: Seating) -> list[int | None]:
        """The table seat (1-N) of each engine seat's player (None for a second hand: its
        player reads its messages at his own seat), worked out again only when the seating
        or the table's seats change."""
        seats = self.table.seats
        if seating != self._seating_seen or seats != self._table_seats_seen:
            self._seating_seen, self._table_seats_seen = tuple(seating), list(seats)
            home = self._home
            # a name at a person's own seat (Trichu's DUMMY sits at a second hand's: not looked up)
            self._seats = [self.table.seat_of(name) if home[seat] == seat else None  # type: ignore[arg-type]  # a name
                           for seat, name in enumerate(seating)]
        return self._seats

    def _sentence(self, event: ev.Event, seat: int) -> Wordable:
        """The event's text as ``seat`` reads it: his own exchange says which card went to whom."""
        if type(event) is ev.ExchangeSubmitted:
            return self._for_hand(seat, self.texts.passed(self._given(seat)))
        # an event with a message for everyone (`_reword`), or a question (`_ask_again`): worded for each seat
        return self._for_hand(seat, self.texts.event(event, seat).source)  # type: ignore[union-attr]  # worded (above)

    def _sentences(self, event: ev.Event, seats: Sequence[int]) -> Wordable:
        return Joined(" ", [self._sentence(event, seat) for seat in seats])

    def _for_hand(self, seat: int, text: Wordable) -> Wordable:
        """A second hand's sentence (its "you" is that hand) marked for the person who plays it
        (in English: the marking rewrites the English sentence)."""
        if self._home[seat] == seat:
            return text
        return for_second_hand(self.game.variant, self.texts.names[seat], seat + 1, str(text),
                               self.table.settings.hand_commands)

    def _message(self, event: ev.Event, seat: int) -> Message | None:
        message: Message | None
        if isinstance(event, ev.CardsReceived):
            message = self.texts.received(event, self._given(seat))
        else:
            message = self.texts.event(event, seat)
        if message is None or self._home[seat] == seat:
            return message
        return message.reworded(lambda: self._for_hand(seat, message.text))

    def _given(self, seat: int) -> dict[int, Card]:
        """What ``seat`` passed in this round's exchange, by the seat it went to."""
        exchange = next(a for a in self.driver.round.history if isinstance(a, Exchange) and a.seat == seat)
        return dict(zip(self.game.variant.exchange_targets[seat], exchange.cards))

    def _tell(self, name: str, message: Message) -> None:
        seat = self.table.seat_of(name)
        if seat is not None:
            self.table.tell_seat(seat, message)

    # ------------------------------------------------------------------ views

    def score_message(self, moment: str = "now") -> Message:
        return self.texts.score(self.game, moment)

    def table_message(self, nick: str | None, score_said: bool = False, viewer: str | None = None) -> Message:
        """The table as ``nick`` sees it (his seat's view), or as a spectator (None) called
        ``viewer``; its sentence ends with the score unless the SCORE just before it said it
        (``score_said``)."""
        seat = None if nick is None else self.seat_of(nick)
        table_seats = self._table_seats(self.game.seating)
        # away: gone from the table, or marked away by his turn clock (his stand-in plays)
        substitutes = self.driver.substitutes
        away = [seat is not None and self.table.is_away(seat) or player in substitutes
                for seat, player in zip(table_seats, self.game.seating)]
        afk = {}  # engine seat -> the /away text of a player there who said it, as ``nick`` reads it
        for engine_seat, table_seat in enumerate(table_seats):
            reader = None if table_seat is None else self.table.reader_at(table_seat)
            said = None if reader is None else self.table.away_of(reader, nick or viewer)
            if said is not None:
                afk[engine_seat] = said
        plays = () if nick is None else self.game.seats_played_by(self.player(nick))[1:]
        return self.texts.table_view(self.driver.round.view(seat), len(self.game.rounds),
                                     None if score_said else self.score_message().text,
                                     {"totals": list(self.game.totals), "log": self.log_number}, away, afk,
                                     plays)

    def hand_message(self, nick: str, hand: int = 0) -> Message:
        return self.texts.hand(self.driver.round.view(self.seat_for(nick, hand)), own=hand == 0)

    def hand_messages(self, nick: str) -> list[Message]:
        """The hand of every seat ``nick`` plays this round, his own first."""
        seats = self.game.seats_played_by(self.player(nick))
        return [self.hand_message(nick, hand) for hand in range(len(seats))]

    def waits_for(self, nick: str, hand: int = 0) -> bool:
        """Whether the round waits for ``nick``: his Grand Tichu decision, his exchange, his turn."""
        return self.driver.round.waits_for(self.seat_for(nick, hand))

    def legal_message(self, nick: str, full: bool = False, hand: int = 0) -> Message:
        return self._legal(self.seat_for(nick, hand), full)

    def _legal(self, seat: int, full: bool) -> Message:
        second = second_hand_word(self.game.variant) if self._home[seat] != seat else ""
        rnd = self.driver.round
        return self.texts.legal(seat, rnd.iter_legal_actions(seat), rnd.hands[seat], full, second)

    def check_message(self, nick: str, cards: Sequence[Card], hand: int = 0) -> Message:
        """CHECK: whether ``nick`` may play exactly ``cards`` of his ``hand``-th hand now."""
        seat = self.seat_for(nick, hand)
        rnd = self.driver.round
        prefix, title = self._hand_words(seat)
        return questions.check(self.texts.table, seat, check_selection(rnd, seat, cards), rnd.wish,  # type: ignore[arg-type]  # a table's game has its number
                               prefix, title)

    def suggest_message(self, nick: str, hand: int = 0) -> Message:
        """SUGGEST: a few plays for ``nick``'s ``hand``-th hand now."""
        seat = self.seat_for(nick, hand)
        prefix, title = self._hand_words(seat)
        return questions.suggest(self.texts.table, seat, suggestions(self.driver.round, seat),  # type: ignore[arg-type]  # a table's game has its number
                                 prefix, title)

    def hands_played(self, nick: str) -> tuple[int, list[tuple[int, str]]]:
        """``nick``'s round seat and every seat he plays this round with the words before its
        commands (``""``, ``"/second "``), his own first: LAYOUT's ``plays``."""
        seats = self.game.seats_played_by(self.player(nick))
        return seats[0], [(seat, f"/{self._hand_words(seat)[0]}" if index else "")
                          for index, seat in enumerate(seats)]

    def _hand_words(self, seat: int) -> tuple[str, str]:
        """For a second hand, the word before its commands (``"second "``) and the title its
        sentences start with; for a person's own seat nothing."""
        if self._home[seat] == seat:
            return "", ""
        variant = self.game.variant
        return f"{second_hand_word(variant)} ", second_hand_title(variant, self.texts.names[seat], seat + 1)

    def show_state(self, nick: str) -> None:
        """Tell ``nick`` the score, the table, his hands and what is asked of him (he came back)."""
        self._tell(nick, self.score_message())
        self._tell(nick, self.table_message(nick, score_said=True))
        if self.driver.round.phase != OVER:
            for message in self.hand_messages(nick):
                self._tell(nick, message)
            self._ask_again(nick)

    def _asked(self, seat: int) -> ev.Event | None:
        """The event that asked ``seat`` for what the round still waits for, if anything."""
        rnd = self.driver.round
        if not rnd.waits_for(seat):
            return None
        if rnd.phase == PLAY:
            return ev.TurnStarted(seat, rnd.need)  # type: ignore[arg-type]  # a round waiting in play says for what
        return ev.PhaseStarted(rnd.phase)

    # ------------------------------------------------------------------ the table's calls

    def player_away(self, nick: str) -> None:
        """A player left or dropped: after the grace time a bot plays for him."""
        self.driver.player_away(self.player(nick))

    def player_back(self, nick: str) -> None:
        """A player returned: he takes his seat back from any bot and sees the full state."""
        self.driver.player_back(self.player(nick))
        self.show_state(nick)

    def stand_in(self, nick: str) -> None:
        """He is banned: his stand-in starts now, without waiting for the grace."""
        self.driver.substitute_now(self.player(nick))

    def player_active(self, nick: str) -> None:
        """A seated player typed something: a stand-in the turn clock gave him stands aside,
        and what the round waits for from him, if anything, is asked again (with his time)."""
        player = self.player(nick)
        if player not in self.driver.substitutes:
            return
        self.driver.player_active(player)
        if player not in self.driver.substitutes:
            self._ask_again(nick)

    def _ask_again(self, nick: str) -> None:
        for seat in self.game.seats_played_by(self.player(nick)):
            asked = self._asked(seat)
            if asked is not None:
                message = self.texts.event(asked, seat)
                self._tell(nick, message.reworded(self._sentence(asked, seat)))  # type: ignore[union-attr]  # a question: worded
                pushed = self._pushed_legal(seat, self.table.reader(nick))
                if pushed is not None:
                    self._tell(nick, pushed)

    def replace(self, nick: str) -> str:
        """By vote a bot plays ``nick``'s seat to the end of the game; returns its level."""
        self.driver.replace(self.player(nick))
        return SUBSTITUTE_LEVEL

    def hand_over(self, nick: str, to: str) -> None:
        """By vote the person ``to`` plays ``nick``'s seat, as him, to the end of the game."""
        self.driver.hand_over(self.player(nick), to)

    def partners(self, nick: str) -> list[object]:
        """Who sits at ``nick``'s partner seats this round (a name; Trichu's dummy is nobody's),
        but himself (Duo's second hand)."""
        player = self.player(nick)
        seating = self.game.seating
        return [seating[seat] for seat in self.game.variant.partners[self.seat_of(player)]
                if seating[seat] != player]

    def stop(self) -> None:
        """The table closes: no more bot moves."""
        self.driver.stop()

    def made_private(self) -> None:
        if self.record is not None:
            self.record.made_private()

    def pause(self) -> None:
        self.driver.pause()

    def resume(self) -> None:
        self.driver.resume()

    def abandon(self) -> None:
        """Nobody came back: the stored game is marked abandoned and will not be restored."""
        if self.record is not None:
            self.record.abandon()


__all__ = ["ActionBuilder", "TableGame", "refusal_for"]
