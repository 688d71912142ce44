"""The playing commands: BrettspielWelt's names and English aliases, parsed into engine actions.

Each handler finds the player's table and game, turns the arguments into an
action for his engine seat, and lets `TableGame.act` apply it.  Every bad
input becomes one `Refusal` before anything changes.  The commands marked ``hand`` also
play a second hand (``/second COMMAND``, ``/dummy COMMAND``): their handlers take ``hand``,
0 for the player's own seat, 1 for the second hand he plays this round (Trichu's dealer
plays the dummy's, a Duo player his team's second hand).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from bswtichu.bots import LEVELS
from bswtichu.engine import (
    NANJING, Action, CallGrand, CallTichu, Combo, DeclineGrand, DogLead, Exchange, GiveDragon, MakeWish, Pass,
    Play, CardsNotHeld, TichuError, classify, parse_exchange, parse_play, parse_wish,
)
from bswtichu.engine.actions import play_of
from bswtichu.engine.cards import MAHJONG_CARD, split_tokens
from bswtichu.engine.notation import EXCHANGE_HINT
from bswtichu.engine.round import EXCHANGE, PLAY
from bswtichu.realm import SECOND_HAND_WORDS
from bswtichu.server.commands.common import SWITCH_WORDS, current_table, seated_at
from bswtichu.server.text.i18n import _
from bswtichu.server.commands.registry import Command, CommandGroup, UsageRefusal, command, usage_error, wrong_use
from bswtichu.server.games.logs import GameLogStore, GameReaders
from bswtichu.server.numbers import is_number
from bswtichu.server.session import Session
from bswtichu.server.tables.hall import TableHall
from bswtichu.server.tables.table_game import TableGame, refusal_for
from bswtichu.server.text import messages, questions
from bswtichu.server.text.game_messages import game_log
from bswtichu.server.text.messages import Refusal, second_hand_word
from bswtichu.server.text.render import MACHINE

WISH_WORDS = ("wish", "wunsch")
#: The hand commands that only ask (/check, /suggest): /second's usage line, older than they
#: are, names the commands that act; /help second and LAYOUT's ``hand_commands`` name these too
QUESTIONS = ("check", "suggest")
LEGAL_USAGE = "/legal [all | push [on|off]]"
PLAY_HELP = _("Play cards: full tokens (7j 7s), rank-only shorthand (7 7: suits chosen for you,"
             " never making a straight-flush bomb), PH=9 for the Phoenix's rank. With the"
             " Mahjong add 'wish RANK' (or /wish afterwards). Out of turn only a bomb may be"
             " played (see /bomben).")


def _game(session: Session) -> TableGame:
    table = current_table(session)
    if not isinstance(table.game, TableGame):
        raise Refusal("no_game", _('no game runs at table %(table)s; /start begins one', table=table.number))
    return table.game


def _shown_game(session: Session) -> TableGame:
    """The running game, or the one that just ended (its result stays until the next start)."""
    table = current_table(session)
    if table.game is None and isinstance(table.last_game, TableGame):
        return table.last_game
    return _game(session)


def _player_game(session: Session) -> TableGame:
    seated_at(session)
    return _game(session)


def _split_wish(args: str) -> tuple[str, str | None]:
    """The cards of /play, and the rank of its ``wish RANK`` if it has one."""
    words = args.split()
    for index, word in enumerate(words):
        if word.lower() in WISH_WORDS:
            if index + 2 != len(words):
                raise wrong_use(_('wish takes one rank at the end'))
            return " ".join(words[:index]), words[index + 1]
    return args, None


def hand_commands(commands: list[Command]) -> dict[str, Command]:
    """The commands marked ``hand`` by each of their names: what /second (/dummy) takes."""
    return {name: one for one in commands if one.hand for name in one.names}


class GameCommands(CommandGroup):
    """The commands for playing, watching a game, bots and logs (those ``readers`` lets a session
    read) at the tables of ``hall``; ``kick_person`` is /kick NAME (moderation's), for whatever
    /kick is given that is not a seat number."""

    def __init__(self, hall: TableHall, logs: GameLogStore, readers: GameReaders,
                 kick_person: Callable[[Session, str], None] | None = None) -> None:
        self.hall = hall
        self.logs = logs
        self.readers = readers
        self.kick_person = kick_person
        #: what /second (/dummy) takes: the commands a hand is played with (German names too)
        self.second_hand = hand_commands(self.commands())

    def _act_alone(self, session: Session, args: str, action_class, hand: int) -> None:
        """An action that takes no arguments (a call, a pass)."""
        if args:
            raise wrong_use(_('it takes no arguments'))
        _player_game(session).act(session.name, action_class, hand)

    @command("grand", group="game", german="grosses", usage="/grand", summary=_("call Grand Tichu (after 8 cards)"),
             help=_("Only while you have seen 8 cards; bets 200 that you go out first. Not in turnier."),
             hand=True)
    def grand(self, session: Session, args: str, hand: int = 0) -> None:
        self._act_alone(session, args, CallGrand, hand)

    @command("nogrand", group="game", german="keingrosses", usage="/nogrand",
             summary=_("decline Grand Tichu and see your last 6 cards"),
             help=_("Declines Grand Tichu; your other 6 cards are dealt at once."), hand=True)
    def nogrand(self, session: Session, args: str, hand: int = 0) -> None:
        self._act_alone(session, args, DeclineGrand, hand)

    @command("tichu", group="game", usage="/tichu", summary=_("call Tichu (before your first card)"),
             help=_("Bets 100 that you go out first. Any time before you play your first card,"
             " once you hold 14 cards; in turn or not."), hand=True)
    def tichu(self, session: Session, args: str, hand: int = 0) -> None:
        self._act_alone(session, args, CallTichu, hand)

    @command("exchange", group="game", german="schupf", aliases=("schupfen",), usage="/schupf C1 C2 C3",
             summary=_("pass 3 cards: right opponent, partner, left opponent"),
             help=_("C1 goes to the right opponent (the next seat), C2 to your partner, C3 to the"
             " left opponent. Final once sent; the cards move when all four have sent."), hand=True)
    def exchange(self, session: Session, args: str, hand: int = 0) -> None:
        game = _player_game(session)
        nick = session.name
        game.check_phase(nick, EXCHANGE)
        variant = game.game.variant
        held = game.hand_of(nick, hand)
        count = len(variant.exchange_steps)
        order = None if variant is NANJING else variant.exchange_text()
        if len(split_tokens(args)) != count:
            raise wrong_use(order or EXCHANGE_HINT)
        cards = _parse(lambda text: parse_exchange(text, held, count, order), args)
        with _held_by_other_hand(game, nick, hand, f"schupf {args}"):
            game.act(nick, lambda seat: Exchange(seat, cards), hand)

    @command("play", group="game", german="spielen", aliases=("p",), usage="/play CARDS [wish RANK]",
             summary=_("play cards (lead or beat the table)"), help=PLAY_HELP, hand=True)
    def play(self, session: Session, args: str, hand: int = 0) -> None:
        self._play(session, args, hand, bomb_only=False)

    @command("pass", group="game", german="passen", aliases=("passe",), usage="/pass",
             summary=_("pass (the table must hold a combination)"),
             help=_("Not when you lead, and not while the wish binds you."), hand=True)
    def pass_(self, session: Session, args: str, hand: int = 0) -> None:
        self._act_alone(session, args, Pass, hand)

    @command("bomb", group="game", german="bomben", usage="/bomben CARDS",
             summary=_("play a bomb, in turn or out of turn"),
             help=_("Four of a kind or a straight flush (5+ cards of one suit), over any"
             " combination on the table, in or out of turn; also after the last pass until"
             " the next lead."), hand=True)
    def bomb(self, session: Session, args: str, hand: int = 0) -> None:
        self._play(session, args, hand, bomb_only=True)

    def _play(self, session: Session, args: str, which: int, bomb_only: bool) -> None:
        """/play and /bomben (``bomb_only``) for the player's hand ``which``."""
        game = _player_game(session)
        nick = session.name
        game.check_phase(nick, PLAY)
        if not args:
            raise wrong_use(_('which cards? e.g. 7j 7s, or 7 7 (suits chosen for you), PH=9'))
        text, wish_word = _split_wish(args)
        hand = game.hand_of(nick, which)

        def build(seat: int) -> list[Action]:
            cards, phoenix_as = parse_play(text, hand)
            combo: Combo | None
            try:
                combo = classify(cards, phoenix_as)
            except TichuError:
                if bomb_only:
                    raise
                combo = None  # the engine says why, after what it checks first (the phase, the turn)
            else:
                if bomb_only and not combo.is_bomb:
                    raise Refusal("not_a_bomb", _('that is not a bomb: four of a kind, or a straight flush of 5 or more; /play plays other '
                                                  'combinations'))
            # classified here, the play is applied as one the engine listed (no second classifying)
            actions: list[Action] = [Play(seat, cards, phoenix_as) if combo is None else play_of(seat, combo)]
            if wish_word is not None:
                if MAHJONG_CARD not in cards:
                    raise Refusal("no_mahjong", _('only a play with the Mahjong (MJ) makes a wish'))
                actions.append(MakeWish(seat, parse_wish(wish_word)))
            return actions
        with _held_by_other_hand(game, nick, which, f"{'bomben' if bomb_only else 'play'} {args}"):
            game.act(nick, build, which)

    @command("wish", group="game", german="wunsch", usage="/wish RANK|none",
             summary=_("the wish after your Mahjong"),
             help=_("Right after playing the Mahjong: wish a rank 2-9, T, J, Q, K, A, or none."), hand=True)
    def wish(self, session: Session, args: str, hand: int = 0) -> None:
        game = _player_game(session)
        nick = session.name
        game.check_phase(nick, PLAY)
        if not args or " " in args.strip():
            raise wrong_use(_('name one rank: 2-9, T, J, Q, K, A, or none'))
        rank = _parse(parse_wish, args)
        game.act(nick, lambda seat: MakeWish(seat, rank), hand)

    @command("give", group="game", german="geben", aliases=("verschenken",), usage="/give NAME|SEAT",
             summary=_("give the Dragon trick to an opponent"),
             help=_("After winning a trick with the Dragon: give it to an opponent, by name or seat."), hand=True)
    def give(self, session: Session, args: str, hand: int = 0) -> None:
        self._choose(session, args, hand, GiveDragon, "give the Dragon trick to one opponent, by name or seat")

    @command("dog", group="game", german="hund", usage="/dog NAME|SEAT",
             summary=_("Tientsin: the partner who leads after your Dog"),
             help=_("After leading the Dog in Tientsin, where you have two partners: name the one"
             " who leads next, by name or seat."), hand=True)
    def dog(self, session: Session, args: str, hand: int = 0) -> None:
        self._choose(session, args, hand, DogLead, "name the partner who leads after your Dog, by name or seat",
                     partners=True)

    def _choose(self, session: Session, args: str, hand: int, action_class, whom: str,
                partners: bool = False) -> None:
        """/give and /dog: an action naming another seat (by name or seat number)."""
        game = _player_game(session)
        nick = session.name
        game.check_phase(nick, PLAY)
        target = args.strip()
        if not target or " " in target:
            raise wrong_use(whom)
        try:
            to = game.seat_named(nick, target, hand, partners)
        except Refusal as refusal:
            if refusal.code == "usage":
                raise wrong_use(refusal.message) from None
            raise
        game.act(nick, lambda seat: action_class(seat, to), hand)

    @command("hand", group="game", german="karten", aliases=("cards",), usage="/hand",
             summary=_("your cards"), help=_("Shows your hand, sorted by rank (and the hand of every"
             " other seat you play this round: in Trichu the dealer's dummy)."), hand=True)
    def hand(self, session: Session, args: str, hand: int = 0) -> None:
        game = _player_game(session)
        if hand:
            session.send(game.hand_message(session.name, hand))
        else:
            session.send_all(game.hand_messages(session.name))  # every hand he plays, his own first

    @command("table", group="game", german="tisch", usage="/table",
             summary=_("the game: turn, trick, cards left, calls, wish, scores"),
             help=_("Whose turn it is, the combination on the table, each player's card count and"
             " call, the wish and the scores. Spectators may use it too."))
    def table_view(self, session: Session, args: str) -> None:
        table = current_table(session)
        game = _shown_game(session)
        nick = session.name
        session.send(game.table_message(nick if table.seat_of(nick) else None, viewer=nick))

    @command("legal", group="game", aliases=("moves",), usage=LEGAL_USAGE,
             summary=_("your legal actions now, as commands"),
             help=_("Lists every command you may give now (for beginners and bots); 'all' spells"
             " out every play. 'push on': from now on your list comes by itself"
             " right after each message that asks you to act (your turn, the Grand Tichu"
             " decision, the exchange), and after your own move when the round still waits for"
             " you; 'push off' stops it; 'push' alone shows the setting."), hand=True)
    def legal(self, session: Session, args: str, hand: int = 0) -> None:
        words = args.lower().split()
        if words[:1] == ["push"] and not hand:
            self._legal_push(session, words[1:])
            return
        if words not in ([], ["all"]):
            raise wrong_use(_("'all' lists every play; without it plays are grouped; 'push on' sends your list "
                              'whenever it is your move'))
        # machine mode shows no text: the plain list is the cheap one to build
        full = bool(args.strip()) or session.mode == MACHINE
        session.send(_player_game(session).legal_message(session.name, full=full, hand=hand))

    def _legal_push(self, session: Session, words: list[str]) -> None:
        """/legal push [on|off]: whether the list comes by itself; shown, and sent now if due."""
        if len(words) > 1 or words and words[0] not in SWITCH_WORDS:  # the words the table options take
            raise wrong_use(_('push takes on or off (or nothing, to show it)'))
        if words:
            session.legal_push = SWITCH_WORDS[words[0]]
        session.send(messages.legal_push(session.legal_push))
        if session.legal_push and words:  # already asked to act: the list comes now
            try:
                game = _player_game(session)
            except Refusal:
                return
            nick = session.name
            for hand in range(len(game.game.seats_played_by(game.player(nick)))):  # a second hand's too
                if game.waits_for(nick, hand):
                    session.send(game.legal_message(nick, full=session.mode == MACHINE, hand=hand))

    @command("check", group="game", german="pruefen", usage="/check CARDS",
             summary=_("may these cards be played now? (for card tables)"),
             help=_("Checks a selection of your cards without playing it: whether it may be played"
             " now (in turn, or as a bomb out of turn), the combination's name, the command that"
             " plays it (one per reading where the Phoenix makes it ambiguous), or why not."),
             hand=True)
    def check(self, session: Session, args: str, hand: int = 0) -> None:
        game = _player_game(session)
        if not args.strip():
            raise wrong_use(_('which cards? e.g. 7j 7s, as /play names them'))
        held = game.hand_of(session.name, hand)
        cards, _readings = _parse(lambda text: parse_play(text, held), args)
        session.send(game.check_message(session.name, cards, hand))

    @command("suggest", group="game", german="tipp", usage="/suggest",
             summary=_("a few plays for your hand now, one per kind"),
             help=_("The lowest play of each kind of combination you may play now (on a lead the"
             " lowest of each kind), your bombs apart, and /pass when you may pass; /legal lists"
             " every play."), hand=True)
    def suggest(self, session: Session, args: str, hand: int = 0) -> None:
        if args:
            raise wrong_use(_('it takes no arguments'))
        session.send(_player_game(session).suggest_message(session.name, hand))

    @command("layout", group="game", german="aufstellung", usage="/layout",
             summary=_("your table's form: seats, hands, teams, the exchange"),
             help=_("The table's variant, its seats and hands, the teams, where each exchange card"
             " goes, the hands you play this round and the commands /second takes."))
    def layout(self, session: Session, args: str) -> None:
        table = current_table(session)
        variant = table.variant
        seat: int | None = None
        plays: list[tuple[int, str]] = []
        if isinstance(table.game, TableGame) and table.seat_of(session.name):
            seat, plays = table.game.hands_played(session.name)
        second = second_hand_word(variant) if variant.further_seats else None
        session.send(questions.layout(table.number, variant, table.option_data(), self.second_hand,
                                      second, seat, plays))

    @command("score", group="game", german="punkte", usage="/score",
             summary=_("the score (tournament: standings)"),
             help=_("Team totals, or in turnier the players' victory and Tichu points. /standings"
                    " at a table says the same."))
    def score(self, session: Session, args: str) -> None:
        session.send(_shown_game(session).score_message())

    @command("bot", group="table", usage="/bot [SEAT] [LEVEL]", summary=_("seat a computer player"),
             help=_('Before the start: seats a bot (levels: %(levels)s; default basic) in SEAT or the '
                     'next free seat.',
                    levels=', '.join(LEVELS)))
    def add_bot(self, session: Session, args: str) -> None:
        levels = f"levels: {', '.join(LEVELS)}"
        seat, level = None, "basic"
        for word in args.split():
            if is_number(word):
                seat = int(word)
                count = len(current_table(session).seats)
                if not 1 <= seat <= count:
                    raise wrong_use(_('seats are 1-%(count)s; %(levels)s', count=count, levels=levels))
            elif word.lower() in LEVELS:
                level = word.lower()
            else:
                raise wrong_use(_('%(word)r is neither a seat nor a level; %(levels)s', word=word, levels=levels))
        current_table(session).add_bot(session.name, seat, level, self.hall.bot_name(level))

    @command("kick", group="table", usage="/kick SEAT|NAME [REASON]",
             summary=_("remove a bot before the start; (moderators) close NAME's connection"),
             help=_("/kick SEAT frees the seat of a bot before the start (any seated player may)."
             " People leave by themselves (/leave). Moderators and admins: /kick NAME REASON"
             " closes NAME's connections and tells him why; his seat is held as for any drop."))
    def kick(self, session: Session, args: str) -> None:
        words = args.split()
        if len(words) == 1 and is_number(words[0]):
            current_table(session).kick(session.name, int(words[0]))
        elif not words or self.kick_person is None:
            raise wrong_use("which seat (1-N)?" if self.kick_person is None else "which seat (1-N), or whom")
        else:
            self.kick_person(session, args)

    @command("log", group="game", german="protokoll", usage="/log N",
             summary=_("a finished game's log (.tch)"),
             help=_("Shows game N's log in BrettspielWelt's .tch format (another variant's game: in"
             " our own, docs/variant-log.md); the number is announced when a game starts and"
             " ends. A private table's game only for its players."))
    def show_log(self, session: Session, args: str) -> None:
        words = args.split()
        if len(words) > 1:
            raise wrong_use(_('/log takes one game number; drop %(words)r', words=' '.join(words[1:])))
        if not is_number(args.strip()):
            raise wrong_use(_('which game? its number was announced at its start and end'))
        number = int(args)
        if self.logs.is_open(number):
            raise Refusal("log_running", _('game %(number)s is still being played; its log comes at the end', number=number))
        self.readers.check(session.name, number)
        text = self.logs.read(number)
        if text is None:
            raise Refusal("no_such_log", _('there is no log of game %(number)s', number=number))
        session.send(game_log(number, text))

    @command(SECOND_HAND_WORDS[0], group="game", aliases=SECOND_HAND_WORDS[1:],
             usage="/second COMMAND [ARGS]",
             summary=_("play your second hand (Duo; Trichu's dealer: the dummy's, /dummy)"),
             help=_("Where you play a second hand, give its commands after /second: /second play 7j"
             " 7s, /second pass, /second schupf C1 C2 C3, /second tichu, /second bomben CARDS,"
             " /second hand, /second legal. In Duo it is your team's other hand (seat 3, or 4);"
             " in Trichu the dealer plays the dummy's hand and says /dummy (either name works"
             " in both). Only a player who plays a second hand this round may."))
    def second(self, session: Session, args: str) -> None:
        """A command for the second hand; its refusals name the variant's word (/dummy, /second)."""
        game = _player_game(session)
        word = second_hand_word(game.game.variant)
        name, _sep, rest = args.strip().partition(" ")
        chosen = self.second_hand.get(name.lower())
        if chosen is None:
            keys = sorted({c.key for c in self.second_hand.values() if c.key not in QUESTIONS})
            raise usage_error(f"/{word} COMMAND [ARGS]", _('the commands are %(keys)s', keys=', '.join(keys)))
        game.seat_for(session.name, 1)  # refused for anyone without a second hand
        try:
            chosen.handler(session, rest.strip(), hand=1)  # type: ignore[call-arg]  # a hand command takes hand
        except UsageRefusal as refusal:
            raise usage_error(f"/{word} {chosen.usage[1:]}", refusal.detail_sentence) from None


@contextmanager
def _held_by_other_hand(game: TableGame, nick: str, hand: int, command: str) -> Iterator[None]:
    """The engine's refusal of cards the hand does not hold (`CardsNotHeld`) says so of the
    person's other hand if that holds them (Trichu's dealer and the dummy, a Duo player's two
    hands): "you do not hold MJ; the dummy does: /dummy play MJ"."""
    try:
        yield
    except Refusal as refusal:
        missing = refusal.__cause__
        seats = game.game.seats_played_by(game.player(nick))
        if not isinstance(missing, CardsNotHeld) or len(seats) < 2:
            raise
        other = seats[1 - hand]
        if not set(missing.cards) <= game.driver.round.hands[other]:
            raise
        word = second_hand_word(game.game.variant)
        if hand == 1:
            where = f"your own hand does: /{command}"
        else:
            where = f"{'the dummy' if word == 'dummy' else 'your second hand'} does: /{word} {command}"
        raise Refusal(refusal.code, _('%(message)s; %(where)s', message=refusal.message, where=where)) from None


def _parse(parser, text: str):
    try:
        return parser(text)
    except TichuError as error:
        raise refusal_for(error) from None
