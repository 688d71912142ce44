"""The playing commands: BrettspielWelt's names and English aliases, parsed into engine actions.

Each handler finds the player's table and game, turns the arguments into an
action for his engine seat, and lets `TableGame.act` apply it.  Every bad
input becomes one `Refusal` before anything changes.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import contextmanager

from bswtichu.bots import LEVELS
from bswtichu.engine import (
    NANJING, CallGrand, CallTichu, DeclineGrand, DogLead, Exchange, GiveDragon, MakeWish, Pass, Play,
    CardsNotHeld, TichuError, classify, parse_exchange, parse_play, parse_wish,
)
from bswtichu.engine.actions import play_of
from bswtichu.engine.notation import EXCHANGE_HINT
from bswtichu.engine.cards import MAHJONG_CARD, split_tokens
from bswtichu.engine.round import EXCHANGE, PLAY
from bswtichu.server.text import messages
from bswtichu.server.commands.registry import Command, UsageRefusal, is_number, usage_error, wrong_use
from bswtichu.server.text.game_messages import game_log
from bswtichu.server.tables.table_game import TableGame, refusal_for
from bswtichu.server.games.logs import GameLogStore, GameReaders
from bswtichu.server.text.messages import SECOND_HAND_WORDS, Refusal, second_hand_word
from bswtichu.server.text.render import MACHINE
from bswtichu.server.session import Session
from bswtichu.server.tables.hall import TableHall
from bswtichu.server.commands.tables import OFF_WORDS, ON_WORDS, current_table, seated_at

WISH_WORDS = ("wish", "wunsch")
LEGAL_USAGE = "/legal [all | push [on|off]]"


def _game(session: Session) -> TableGame:
    table = current_table(session)
    if not isinstance(table.game, TableGame):
        raise Refusal("no_game", f"no game runs at table {table.number}; /start begins one")
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
    words = args.split()
    for index, word in enumerate(words):
        if word.lower() in WISH_WORDS:
            if index + 2 != len(words):
                raise wrong_use("wish takes one rank at the end")
            return " ".join(words[:index]), words[index + 1]
    return args, None


def game_commands(hall: TableHall, logs: GameLogStore, readers: GameReaders,
                  kick_person: Callable[[Session, str], None] | None = None) -> list[Command]:
    """The commands for playing, watching a game, bots and logs (those ``readers`` lets a session
    read); ``kick_person`` is /kick NAME (moderation's), for whatever /kick is given that is not
    a seat number."""

    # Each game handler takes ``hand``: 0 for the player's own seat, 1 for the second hand he
    # plays this round (/second COMMAND, or /dummy: Trichu's dealer plays the dummy's, a Duo
    # player his team's second hand).

    def simple(action_class):
        def handle(session: Session, args: str, hand: int = 0) -> None:
            if args:
                raise wrong_use("it takes no arguments")
            _player_game(session).act(session.nick, action_class, hand)
        return handle

    def exchange(session: Session, args: str, hand: int = 0) -> None:
        game = _player_game(session)
        game.check_phase(session.nick, EXCHANGE)
        variant = game.game.variant
        held = game.hand_of(session.nick, hand)
        count = len(variant.exchange_steps)
        order = None if variant is NANJING else variant.exchange_text()
        if len(split_tokens(args)) != count:
            raise wrong_use(order or EXCHANGE_HINT)
        cards = _parse(lambda text: parse_exchange(text, held, count, order), args)
        with _held_by_other_hand(game, session.nick, hand, f"schupf {args}"):
            game.act(session.nick, lambda seat: Exchange(seat, cards), hand)

    def play(session: Session, args: str, bomb_only: bool = False, hand: int = 0) -> None:
        game = _player_game(session)
        game.check_phase(session.nick, PLAY)
        if not args:
            raise wrong_use("which cards? e.g. 7j 7s, or 7 7 (suits chosen for you), PH=9")
        text, wish_word = _split_wish(args)
        which = hand
        hand = game.hand_of(session.nick, which)

        def build(seat: int):
            cards, phoenix_as = parse_play(text, hand)
            try:
                combo = classify(cards, phoenix_as)
            except TichuError:
                if bomb_only:
                    raise
                combo = None  # the engine says why, after what it checks first (the phase, the turn)
            if bomb_only and not combo.is_bomb:
                raise Refusal("not_a_bomb", "that is not a bomb: four of a kind, or a straight"
                                            " flush of 5 or more; /play plays other combinations")
            # classified here, the play is applied as one the engine listed (no second classifying)
            actions = [Play(seat, cards, phoenix_as) if combo is None else play_of(seat, combo)]
            if wish_word is not None:
                if MAHJONG_CARD not in cards:
                    raise Refusal("no_mahjong", "only a play with the Mahjong (MJ) makes a wish")
                actions.append(MakeWish(seat, parse_wish(wish_word)))
            return actions
        with _held_by_other_hand(game, session.nick, which, f"{'bomben' if bomb_only else 'play'} {args}"):
            game.act(session.nick, build, which)

    def wish(session: Session, args: str, hand: int = 0) -> None:
        game = _player_game(session)
        game.check_phase(session.nick, PLAY)
        if not args or " " in args.strip():
            raise wrong_use("name one rank: 2-9, T, J, Q, K, A, or none")
        rank = _parse(parse_wish, args)
        game.act(session.nick, lambda seat: MakeWish(seat, rank), hand)

    def chooser(action_class, whom: str, partners: bool = False):
        """/give and /dog: an action naming another seat (by name or seat number)."""
        def handle(session: Session, args: str, hand: int = 0) -> None:
            game = _player_game(session)
            game.check_phase(session.nick, PLAY)
            target = args.strip()
            if not target or " " in target:
                raise wrong_use(whom)
            try:
                to = game.seat_named(session.nick, target, hand, partners)
            except Refusal as refusal:
                if refusal.code == "usage":
                    raise wrong_use(refusal.message) from None
                raise
            game.act(session.nick, lambda seat: action_class(seat, to), hand)
        return handle

    give = chooser(GiveDragon, "give the Dragon trick to one opponent, by name or seat")
    dog = chooser(DogLead, "name the partner who leads after your Dog, by name or seat", partners=True)

    def hand(session: Session, args: str, hand: int = 0) -> None:
        game = _player_game(session)
        if hand:
            session.send(game.hand_message(session.nick, hand))
        else:
            session.send_all(game.hand_messages(session.nick))  # every hand he plays, his own first

    def table_view(session: Session, args: str) -> None:
        table = current_table(session)
        game = _shown_game(session)
        session.send(game.table_message(session.nick if table.seat_of(session.nick) else None,
                                        viewer=session.nick))

    def legal(session: Session, args: str, hand: int = 0) -> None:
        words = args.lower().split()
        if words[:1] == ["push"] and not hand:
            legal_push(session, words[1:])
            return
        if words not in ([], ["all"]):
            raise wrong_use("'all' lists every play; without it plays are grouped;"
                                           " 'push on' sends your list whenever it is your move")
        # machine mode shows no text: the plain list is the cheap one to build
        full = bool(args.strip()) or session.mode == MACHINE
        session.send(_player_game(session).legal_message(session.nick, full=full, hand=hand))

    def legal_push(session: Session, words: list[str]) -> None:
        switch = {**ON_WORDS, **OFF_WORDS}  # the words the table options take too
        if len(words) > 1 or words and words[0] not in switch:
            raise wrong_use("push takes on or off (or nothing, to show it)")
        if words:
            session.legal_push = switch[words[0]]
        session.send(messages.legal_push(session.legal_push))
        if session.legal_push and words:  # already asked to act: the list comes now
            try:
                game = _player_game(session)
            except Refusal:
                return
            if game.waits_for(session.nick):
                session.send(game.legal_message(session.nick, full=session.mode == MACHINE))

    def score(session: Session, args: str) -> None:
        session.send(_shown_game(session).score_message())

    def add_bot(session: Session, args: str) -> None:
        levels = f"levels: {', '.join(LEVELS)}"
        seat, level = None, "basic"
        for word in args.split():
            if is_number(word):
                seat = int(word)
                count = len(current_table(session).seats)
                if not 1 <= seat <= count:
                    raise wrong_use(f"seats are 1-{count}; {levels}")
            elif word.lower() in LEVELS:
                level = word.lower()
            else:
                raise wrong_use(f"{word!r} is neither a seat nor a level; {levels}")
        current_table(session).add_bot(session.nick, seat, level, hall.bot_name(level))

    def kick(session: Session, args: str) -> None:
        words = args.split()
        if len(words) == 1 and is_number(words[0]):
            current_table(session).kick(session.nick, int(words[0]))
        elif not words or kick_person is None:
            raise wrong_use("which seat (1-N)?" if kick_person is None else "which seat (1-N), or whom")
        else:
            kick_person(session, args)

    def show_log(session: Session, args: str) -> None:
        words = args.split()
        if len(words) > 1:
            raise wrong_use(f"/log takes one game number; drop {' '.join(words[1:])!r}")
        if not is_number(args.strip()):
            raise wrong_use("which game? its number was announced at its start and end")
        number = int(args)
        if logs.is_open(number):
            raise Refusal("log_running", f"game {number} is still being played; its log comes at the end")
        readers.check(session.nick, number)
        text = logs.read(number)
        if text is None:
            raise Refusal("no_such_log", f"there is no log of game {number}")
        session.send(game_log(number, text))

    #: what /second (/dummy) takes: the commands a hand is played with (German names too)
    second_hand: dict[str, Command] = {}

    def second(session: Session, args: str) -> None:
        """A command for the second hand; its refusals name the variant's word (/dummy, /second)."""
        game = _player_game(session)
        word = second_hand_word(game.game.variant)
        name, _, rest = args.strip().partition(" ")
        command = second_hand.get(name.lower())
        if command is None:
            keys = sorted({c.key for c in second_hand.values()})
            raise usage_error(f"/{word} COMMAND [ARGS]", f"the commands are {', '.join(keys)}")
        game.seat_for(session.nick, 1)  # refused for anyone without a second hand
        try:
            command.handler(session, rest.strip(), hand=1)
        except UsageRefusal as refusal:
            raise usage_error(f"/{word} {command.usage[1:]}", refusal.detail) from None

    play_help = ("Play cards: full tokens (7j 7s), rank-only shorthand (7 7: suits chosen for you,"
                 " never making a straight-flush bomb), PH=9 for the Phoenix's rank. With the"
                 " Mahjong add 'wish RANK' (or /wish afterwards). Out of turn only a bomb may be"
                 " played (see /bomben).")
    commands = [
        Command(key="grand", group="game", german="grosses", usage="/grand", summary="call Grand Tichu (after 8 cards)",
                help="Only while you have seen 8 cards; bets 200 that you go out first. Not in turnier.",
                handler=simple(CallGrand)),
        Command(key="nogrand", group="game", german="keingrosses", usage="/nogrand",
                summary="decline Grand Tichu and see your last 6 cards",
                help="Declines Grand Tichu; your other 6 cards are dealt at once.",
                handler=simple(DeclineGrand)),
        Command(key="tichu", group="game", usage="/tichu", summary="call Tichu (before your first card)",
                help="Bets 100 that you go out first. Any time before you play your first card,"
                " once you hold 14 cards; in turn or not.", handler=simple(CallTichu)),
        Command(key="exchange", group="game", german="schupf", aliases=("schupfen",), usage="/schupf C1 C2 C3",
                summary="pass 3 cards: right opponent, partner, left opponent",
                help="C1 goes to the right opponent (the next seat), C2 to your partner, C3 to the"
                " left opponent. Final once sent; the cards move when all four have sent.",
                handler=exchange),
        Command(key="play", group="game", german="spielen", aliases=("p",), usage="/play CARDS [wish RANK]",
                summary="play cards (lead or beat the table)", help=play_help, handler=play),
        Command(key="pass", group="game", german="passen", aliases=("passe",), usage="/pass",
                summary="pass (the table must hold a combination)",
                help="Not when you lead, and not while the wish binds you.",
                handler=simple(Pass)),
        Command(key="bomb", group="game", german="bomben", usage="/bomben CARDS",
                summary="play a bomb, in turn or out of turn",
                help="Four of a kind or a straight flush (5+ cards of one suit), over any"
                " combination on the table, in or out of turn; also after the last pass until"
                " the next lead.", handler=lambda s, a, hand=0: play(s, a, bomb_only=True, hand=hand)),
        Command(key="wish", group="game", german="wunsch", usage="/wish RANK|none",
                summary="the wish after your Mahjong",
                help="Right after playing the Mahjong: wish a rank 2-9, T, J, Q, K, A, or none.",
                handler=wish),
        Command(key="give", group="game", german="geben", aliases=("verschenken",), usage="/give NAME|SEAT",
                summary="give the Dragon trick to an opponent",
                help="After winning a trick with the Dragon: give it to an opponent, by name or seat.",
                handler=give),
        Command(key="dog", group="game", german="hund", usage="/dog NAME|SEAT",
                summary="Tientsin: the partner who leads after your Dog",
                help="After leading the Dog in Tientsin, where you have two partners: name the one"
                " who leads next, by name or seat.", handler=dog),
        Command(key="hand", group="game", german="karten", aliases=("cards",), usage="/hand",
                summary="your cards", help="Shows your hand, sorted by rank (and the hand of every"
                " other seat you play this round: in Trichu the dealer's dummy).", handler=hand),
        Command(key="table", group="game", german="tisch", usage="/table",
                summary="the game: turn, trick, cards left, calls, wish, scores",
                help="Whose turn it is, the combination on the table, each player's card count and"
                " call, the wish and the scores. Spectators may use it too.", handler=table_view),
        Command(key="legal", group="game", aliases=("moves",), usage=LEGAL_USAGE,
                summary="your legal actions now, as commands",
                help="Lists every command you may give now (for beginners and bots); 'all' spells"
                " out every play. 'push on': from now on your list comes by itself"
                " right after each message that asks you to act (your turn, the Grand Tichu"
                " decision, the exchange), and after your own move when the round still waits for"
                " you; 'push off' stops it; 'push' alone shows the setting.", handler=legal),
        Command(key="score", group="game", german="punkte", aliases=("standings",), usage="/score",
                summary="the score (tournament: standings)",
                help="Team totals, or in turnier the players' victory and Tichu points.",
                handler=score),
        Command(key="bot", group="table", usage="/bot [SEAT] [LEVEL]", summary="seat a computer player",
                help=f"Before the start: seats a bot (levels: {', '.join(LEVELS)}; default basic)"
                " in SEAT or the next free seat.", handler=add_bot),
        Command(key="kick", group="table", usage="/kick SEAT|NAME [REASON]",
                summary="remove a bot before the start; (moderators) close NAME's connection",
                help="/kick SEAT frees the seat of a bot before the start (any seated player may)."
                " People leave by themselves (/leave). Moderators and admins: /kick NAME REASON"
                " closes NAME's connections and tells him why; his seat is held as for any drop.",
                handler=kick),
        Command(key="log", group="game", german="protokoll", usage="/log N",
                summary="a finished game's log (.tch)",
                help="Shows game N's log in BrettspielWelt's .tch format (another variant's game: in"
                " our own, docs/variant-log.md); the number is announced when a game starts and"
                " ends. A private table's game only for its players.", handler=show_log),
        Command(key=SECOND_HAND_WORDS[0], group="game", aliases=SECOND_HAND_WORDS[1:],
                usage="/second COMMAND [ARGS]",
                summary="play your second hand (Duo; Trichu's dealer: the dummy's, /dummy)",
                help="Where you play a second hand, give its commands after /second: /second play 7j"
                " 7s, /second pass, /second schupf C1 C2 C3, /second tichu, /second bomben CARDS,"
                " /second hand, /second legal. In Duo it is your team's other hand (seat 3, or 4);"
                " in Trichu the dealer plays the dummy's hand and says /dummy (either name works"
                " in both). Only a player who plays a second hand this round may.",
                handler=second),
    ]
    for command in commands:
        if command.key in ("grand", "nogrand", "tichu", "exchange", "play", "pass", "bomb", "wish",
                           "give", "dog", "hand", "legal"):
            for name in (command.key, command.german, *command.aliases):
                if name:
                    second_hand[name] = command
    return commands


@contextmanager
def _held_by_other_hand(game: TableGame, nick: str, hand: int, command: str):
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
        if not set(missing.cards) <= game.game.round.hands[other]:
            raise
        word = second_hand_word(game.game.variant)
        if hand == 1:
            where = f"your own hand does: /{command}"
        else:
            where = f"{'the dummy' if word == 'dummy' else 'your second hand'} does: /{word} {command}"
        raise Refusal(refusal.code, f"{refusal.message}; {where}") from None


def _parse(parser, text: str):
    try:
        return parser(text)
    except TichuError as error:
        raise refusal_for(error) from None

