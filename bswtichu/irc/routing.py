"""What goes where: IRC users' commands to their own game connections, the game's
messages to the channel or to one user.

Secrecy by construction: the channel hears only what the bridge's spectator
connection for a table hears (`Watcher`, which sees the public view of the
table), and a player's own connection forwards to him alone what is his: replies
to his commands, his cards, his errors, his turn. Table events that reach a
player's connection are not told again, since the watcher reports them; they say
where his own messages belong among the channel's lines (`TableOrder`). A keyword
not listed here (a new one of the server's) reaches only the player: a new kind
of message can never leak into the channel.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Protocol as TypingProtocol

from twisted.internet.defer import Deferred
from twisted.internet.task import LoopingCall
from twisted.logger import Logger
from twisted.python.failure import Failure

from bswtichu.irc.config import IrcConfig
from bswtichu.irc.gameside import GameLink, NickLogin, open_link
from bswtichu.irc.order import TableOrder, event_key
from bswtichu.irc.tokens import ResumeTokens
from bswtichu.irc.text import NAME_COMMANDS, carries_secret, name_candidates, server_name
from bswtichu import names

# Messages about a table that its spectators see too (docs/PROTOCOL.md §7).
TABLE_EVENTS = frozenset({
    "JOINED", "LEFT", "AWAY", "RETURNED", "SPECTATOR_JOINED", "SPECTATOR_LEFT", "OPTION",
    "STARTED", "GAME", "SEATING", "PHASE", "GRAND_DECIDED", "TICHU", "EXCHANGE_SUBMITTED",
    "TURN", "PLAYED", "PASSED", "WISH", "WISH_FULFILLED", "TRICK_WON", "TRICK_TAKEN", "DOG_LEAD", "OPEN_HAND",
    "DRAGON_GIVEN", "OUT", "ROUND_END", "SCORE", "GAME_OVER", "TABLE_OPEN", "SUBSTITUTE",
    "SUBSTITUTE_END", "CHAT", "EMOTE", "PRIVATE", "INVITED",
})
# Not table events, though about a table: spectators' chat (KIBITZ) is for spectators only and
# the channel is read by the players too, so it reaches an IRC spectator privately, never the
# channel (docs/moderation.md).
# A player's own coming and going at a table: also told to him, and it moves him.
ARRIVALS = frozenset({"JOINED", "RETURNED", "SPECTATOR_JOINED"})
DEPARTURES = frozenset({"LEFT", "AWAY", "SPECTATOR_LEFT"})
# Table events left out of the channel: whose turn it is goes to that player only.
CHANNEL_QUIET = frozenset({"TURN"})
# Phases in which the server asks each player something: his own PHASE says what to type
# ("Exchange: !schupf C1 C2 C3 ..."), the channel's only what happens, so it goes to him too.
ASKING_PHASES = frozenset({"grand", "exchange"})
# Messages that carry people's own words: a "/" in them is no command suggestion of the server's.
PEOPLES_WORDS = frozenset({"CHAT", "EMOTE", "KIBITZ", "MSG", "ANNOUNCE", "AWAY_NOTICE", "AWAY_SET",
                           "MODERATED", "SHUTDOWN", "WHO"})
# Commands whose reply is also a table event, so the reply is recognised as one.
REPLY_EXPECTED = {"score": "SCORE", "punkte": "SCORE", "standings": "SCORE"}
# Commands answered by REPLY_EXPECTED's keyword only when typed alone at a table: elsewhere, or
# naming an event, /standings gets STANDINGS (an event's standings; never a table event).
AT_TABLE_ONLY = frozenset({"standings"})
HELP_WORDS = frozenset({"help", "hilfe", "?"})
SAY_WORDS = frozenset({"say", "sag"})
# A command the server suggests ("/help lists the commands", "Your turn: lead: /play CARDS"):
# on IRC it is typed with ! (a leading / is an IRC command)
SLASH_COMMAND = re.compile(r"(?<![\w/])/(?=[a-z?])")
# The command that, after a resume, shows all it gave back has been read: its reply comes after
SETTLE = "/mode relay"
JOIN_WORDS = frozenset({"join"})
WATCHER_KEEPALIVE = 300.0  # seconds; well below the server's idle timeout (default 1800)
IRC_CASE = str.maketrans("[]\\~", "{}|^")  # RFC 1459 §2.2: these are the same letter
WATCHER_BASE = 10  # characters of the bridge's name before a watcher's -wTABLE


def irc_key(nick: str) -> str:
    """A nick as IRC compares it (case-insensitive, {}|^ equal to []\\~)."""
    return nick.lower().translate(IRC_CASE)


def watcher_name(base: str, table: int) -> str:
    """The server name the bridge (named ``base`` there) asks for its watcher of ``table``."""
    return f"{base[:WATCHER_BASE]}-w{table}"


def is_table_event(keyword: str, fields: dict) -> bool:
    return keyword in TABLE_EVENTS and fields.get("table") is not None


def human(fields: dict, keyword: str) -> str:
    """A message's sentence as an IRC user reads it: the commands it suggests as he types them
    (``!play``, not ``/play``); people's own words as they wrote them."""
    text = fields.get("human") or keyword.lower()
    return text if keyword in PEOPLES_WORDS else SLASH_COMMAND.sub("!", text)


def is_rejoin(line: str, seat: tuple[int, int]) -> bool:
    """Whether the command ``line`` only asks for the seat (table, seat) he sits in again
    (``/join``, ``/join 6``, ``/join 6 1``): docs/clients.md says to come back with ``!join TABLE``."""
    words = line[1:].split() if line.startswith("/") else []
    if not words or words[0].lower() not in JOIN_WORDS or len(words) > 3:
        return False
    return all(given == str(held) for given, held in zip(words[1:], seat))


class IrcSide(TypingProtocol):
    """What the bridge needs from its IRC connection."""

    def to_channel(self, text: str) -> None: ...

    def to_user(self, nick: str, text: str) -> None: ...


class Player:
    """One IRC user and his own connection to the game server."""

    def __init__(self, bridge: Bridge, nick: str):
        self.bridge = bridge
        self.nick = nick
        self.link = GameLink(self, NickLogin(name_candidates(server_name(nick)), bridge.resume_tokens),
                             bridge.config.language)
        self.pending: list[str] = []  # commands held until login and watcher are ready
        self.table: int | None = None  # where he sits or watches
        self.expect: set[str] = set()
        self.settling = False  # resumed: commands wait until all the resume gave back is read
        self.returned_to: tuple[int, int] | None = None  # (table, seat) the resume gave back

    @property
    def name(self) -> str | None:
        return self.link.name

    def submit(self, line: str) -> None:
        words = line[1:].split() if line.startswith("/") else []
        word = words[0].lower() if words else ""
        if word in REPLY_EXPECTED and (word not in AT_TABLE_ONLY or (len(words) == 1 and self.table is not None)):
            self.expect.add(REPLY_EXPECTED[word])
        self.pending.append(line)
        self.flush()

    def flush(self) -> None:
        """Send what waits, once logged in and once the channel sees his table."""
        while (self.pending and self.link.ready and not self.settling
               and not self.bridge.table_unwatched(self.table)):
            self.link.send(self.pending.pop(0))

    def settled(self) -> None:
        """All a resume gave back is read: a waiting ``!join`` of the seat he sits in again is
        done (the server would say he already sits there), the rest goes."""
        self.settling = False
        if self.returned_to is not None and self.pending and is_rejoin(self.pending[0], self.returned_to):
            self.pending.pop(0)
        self.flush()

    def link_ready(self, link: GameLink) -> None:
        if link.name != self.nick:
            self.bridge.tell(self.nick, f"You play as {link.name} on the game server.")
        for name in link.login.registered:
            self.bridge.tell(self.nick, f"{name} is a registered name on the game server. If it is"
                                        f" yours, log in to it privately: /msg {self.bridge.config.nick}"
                                        f" nick {name} PASSWORD")
        if link.login.resumed:  # his held seat comes back now, before his first command is read
            self.settling = True
            link.send(SETTLE)
        self.flush()

    def link_message(self, link: GameLink, keyword: str, fields: dict) -> None:
        self.bridge.from_player(self, keyword, fields)

    def link_refused(self, link: GameLink, reason: str) -> None:
        self.bridge.tell(self.nick, f"The game server took none of the names tried for you: {reason}")

    def link_lost(self, link: GameLink) -> None:
        if not link.closing:
            self.bridge.tell(self.nick, "The game server closed your connection;"
                                        " your next command connects you again.")
        self.bridge.forget(self)


class Watcher:
    """The bridge's spectator connection for one table: the channel's view of it.

    It never types, so it sends a harmless ``/mode relay`` now and then: the
    server hangs up on connections that stay silent for its idle timeout.
    """

    def __init__(self, bridge: Bridge, table: int, base: str):
        self.bridge = bridge
        self.table = table
        # an observer first: only an observer from the bridge's address may take the bridge's
        # reserved names (docs/moderation.md), and an observer cannot chat
        self.link = GameLink(self, NickLogin(name_candidates(watcher_name(base, table)), bridge.resume_tokens,
                                             first=("/observer",)), bridge.config.language)
        self.active = False  # watching (the server confirmed /watch)
        self.keepalive = LoopingCall(self.link.send, "/mode relay")
        self.keepalive.clock = bridge.reactor

    def link_ready(self, link: GameLink) -> None:
        link.send(f"/watch {self.table}")
        self.keepalive.start(WATCHER_KEEPALIVE, now=False)

    def link_message(self, link: GameLink, keyword: str, fields: dict) -> None:
        self.bridge.from_watcher(self, keyword, fields)

    def link_refused(self, link: GameLink, reason: str) -> None:
        self.bridge.log.warn("no name for the watcher of table {table}: {reason}",
                             table=self.table, reason=reason)

    def link_lost(self, link: GameLink) -> None:
        if self.keepalive.running:
            self.keepalive.stop()
        self.bridge.watcher_gone(self)


class Bridge:
    """Routes between IRC users and the game server; knows nothing of IRC's wire format."""

    log = Logger()

    def __init__(self, reactor, config: IrcConfig,
                 connect: Callable[[object, tuple[str, int], GameLink], Deferred] = open_link):
        self.reactor = reactor
        self.config = config
        self._connect = connect
        self.players: dict[str, Player] = {}
        self.watchers: dict[int, Watcher] = {}
        self.orders: dict[int, TableOrder] = {}  # by watched table: its users' order
        self.irc: IrcSide | None = None
        self.resume_tokens = ResumeTokens(config.tokens_file or None)  # by server name casefolded

    # ---------------------------------------------------------------- IRC side

    def attach(self, irc: IrcSide) -> None:
        self.irc = irc

    def detach(self) -> None:
        """The IRC connection is gone: everyone is disconnected (seats are held)."""
        self.irc = None
        for player in list(self.players.values()):
            self.quit(player.nick)
        for watcher in list(self.watchers.values()):
            watcher.link.hang_up()
        self.watchers.clear()
        for table in list(self.orders):
            self._close_order(table)

    def command(self, nick: str, line: str, private: bool = True) -> None:
        """A command line (starting with /) from an IRC user, privately or in the channel.

        A password or token typed in the channel is not used: everyone read it.
        """
        if not private and carries_secret(line):
            word, _, secret = line[1:].partition(" ")
            text = (f"Passwords go to me privately, never to the channel: /msg {self.config.nick}"
                    f" {word.lower()} ...")
            if secret.strip():
                text += " Nothing was done; what you typed is public now, so choose another."
            self.tell(nick, text)
            return
        word, _, rest = line[1:].partition(" ")
        if word.lower() in HELP_WORDS and not rest.strip():
            self.tell(nick, self.help_text())
            return
        shadowing = self._shadowing(nick, word.lower(), rest)
        if shadowing:
            self.tell(nick, shadowing)
            return
        if word.lower() in SAY_WORDS:
            self._say(nick, rest.strip())
            return
        self._player(nick).submit(line)

    def _shadowing(self, nick: str, word: str, rest: str) -> str | None:
        """Why the command would let a user pass for the bridge, or None: a name that looks like
        the bridge's own (his nick's, for his first command, or ``!nick NAME``'s), or ``!observer``
        (only the bridge's watchers are observers)."""
        if word == "observer":
            return "!observer is for the bridge's own table watchers; you play and watch as yourself."
        if word in NAME_COMMANDS and rest.split():
            wanted = rest.split()[0]
            if self.shadows_bridge(wanted):
                return f"{wanted} looks like the bridge's own name on the game server; choose another."
        if irc_key(nick) not in self.players and self.shadows_bridge(server_name(nick)):
            return (f"Your nick {nick} looks like the bridge's own name on the game server; change your"
                    " IRC nick to play.")
        return None

    def shadows_bridge(self, name: str) -> bool:
        """Whether a server name looks like the bridge's own: its nick's, or a watcher's
        (``tichubot-w1``, and any ``tichubot-...``)."""
        base = server_name(self.config.nick)
        return names.look(name) == names.look(base) or names.starts_like(name, base[:WATCHER_BASE] + "-")

    def help_text(self) -> str:
        """What works from IRC, in ! forms, short enough to arrive at once."""
        me = self.config.nick
        return "\n".join((
            f"Commands start with ! in the channel; in a private message to {me} any line is one.",
            "Tables: !tables !join [TABLE [SEAT]] !watch TABLE !leave !bot [SEAT] [LEVEL] !kick SEAT"
            " !round X !tichujoin !turnier !start !who",
            "Game: !grand !nogrand !tichu !schupf C1 C2 C3 !play CARDS (!play 7 7) !pass"
            " !bomben CARDS !wish RANK !give SEAT !hand !legal !table !score",
            "People: !ignore NAME !unignore NAME !friend NAME !friends !away [TEXT] !me ACTION"
            " !kibitz TEXT (spectators) !msg NAME TEXT !top; moderators: !kick !mute !ban !announce.",
            f"Talk at your table: !say TEXT. Names, privately: /msg {me} nick NAME PASSWORD,"
            f" /msg {me} register PASSWORD. !help COMMAND explains one.",
        ))

    def _say(self, nick: str, text: str) -> None:
        """!say TEXT: chat at the user's table (a line without / is chat on the server)."""
        text = text.lstrip("/!").strip()  # a leading / would make it a command
        if not text:
            self.tell(nick, "!say TEXT says TEXT at your table; say something after it.")
            return
        self._player(nick).submit(text)

    def _player(self, nick: str) -> Player:
        player = self.players.get(irc_key(nick))
        if player is None:
            player = self.players[irc_key(nick)] = Player(self, nick)
            self._open(player.link, f"player {nick}", lambda: self.forget(player))
        return player

    def renamed(self, old: str, new: str) -> None:
        player = self.players.pop(irc_key(old), None)
        if player is not None:
            player.nick = new
            self.players[irc_key(new)] = player

    def quit(self, nick: str) -> None:
        """The user left IRC: disconnect him from the game server, as if his line dropped."""
        player = self.players.get(irc_key(nick))
        if player is not None:
            player.link.hang_up()
            self.forget(player)

    def tell(self, nick: str, text: str) -> None:
        if self.irc is not None:
            self.irc.to_user(nick, text)

    def announce(self, text: str) -> None:
        if self.irc is not None:
            self.irc.to_channel(text)

    # ---------------------------------------------------------------- game side

    def from_player(self, player: Player, keyword: str, fields: dict) -> None:
        if keyword == "MODE" and player.settling:
            player.settled()  # the reply to SETTLE: no news for him
            return
        if keyword == "SEAT_HELD":
            player.returned_to = (fields["table"], fields["seat"])
        text = human(fields, keyword)
        if keyword in ARRIVALS | DEPARTURES and fields.get("nick") == player.name:
            table = fields.get("table")
            channel_sees = self._watching(table)  # then the channel tells it; once is enough
            self._move(player, table if keyword in ARRIVALS else None)
            if channel_sees:
                self._seen(player, keyword, fields)
            if not channel_sees:
                self._tell_player(player, text)
        elif keyword == "TABLE_CLOSED":
            # an admin closed his table (/close): he is back in the lobby, and told so himself
            if fields.get("table") == player.table:
                self._move(player, None)
            self._tell_player(player, text)
        elif keyword == "TURN" and player.name in (fields.get("player"), fields.get("by")):
            # his turn, or that of the hand he plays beside his own ("by": Trichu's dealer, the dummy's),
            # comes after the play it must beat
            self._seen(player, keyword, fields)
            self._tell_player(player, text)
        elif keyword == "PHASE" and fields.get("phase") in ASKING_PHASES:
            # what he is asked, and what to type (the channel hears only that the players decide)
            self._seen(player, keyword, fields)
            self._tell_player(player, text)
        elif keyword in player.expect:
            player.expect.discard(keyword)
            self._tell_player(player, text)
        elif is_table_event(keyword, fields):
            self._seen(player, keyword, fields)
        else:
            self._tell_player(player, text)

    def _seen(self, player: Player, keyword: str, fields: dict) -> None:
        """A table event on the player's own connection: it places his messages among the channel's."""
        table = player.table
        order = self.orders.get(table) if table is not None and fields.get("table") == table else None
        if order is not None and player in order:
            order.seen(player, event_key(keyword, fields))

    def _tell_player(self, player: Player, text: str) -> None:
        """Tell the player a message of his connection once the channel has what came before it."""
        order = self.orders.get(player.table) if player.table is not None else None
        if order is not None and player in order:
            order.told(player, text)
        else:
            self.tell(player.nick, text)

    def from_watcher(self, watcher: Watcher, keyword: str, fields: dict) -> None:
        if not watcher.active:
            if keyword == "SPECTATOR_JOINED" and fields.get("nick") == watcher.link.name:
                watcher.active = True
                seats = ", ".join(f"{n} {name or '(free)'}" for n, name in enumerate(fields["seats"], 1))
                self._to_channel(watcher.table, keyword, fields, f"[table {watcher.table}] seats: {seats}")
                self._release(watcher.table)
            elif keyword == "ERROR":
                self.log.warn("the watcher cannot watch table {table}: {message}",
                              table=watcher.table, message=fields.get("message"))
                self._unwatch(watcher.table)
            return
        if not is_table_event(keyword, fields) or fields["table"] != watcher.table:
            return
        if keyword in CHANNEL_QUIET or self._is_watcher(fields.get("nick")):
            self._to_channel(watcher.table, keyword, fields, None)  # not shown, but in the order
            return
        text = human(fields, keyword)
        if f"table {watcher.table}" not in text.lower():
            text = f"[table {watcher.table}] {text}"  # say which table, unless the text does
        self._to_channel(watcher.table, keyword, fields, text)

    def _to_channel(self, table: int, keyword: str, fields: dict, text: str | None) -> None:
        order = self.orders.get(table)
        if order is not None:
            order.channel(event_key(keyword, fields), text)
        elif text is not None:
            self.announce(text)

    def _watching(self, table: object) -> bool:
        watcher = self.watchers.get(table) if isinstance(table, int) else None
        return watcher is not None and watcher.active

    def table_unwatched(self, table: int | None) -> bool:
        """True while the watcher of ``table`` is still on its way (hold commands for it)."""
        watcher = self.watchers.get(table) if table is not None else None
        return watcher is not None and not watcher.active

    def forget(self, player: Player) -> None:
        if self.players.get(irc_key(player.nick)) is player:
            del self.players[irc_key(player.nick)]
        self._move(player, None)

    def watcher_gone(self, watcher: Watcher) -> None:
        if self.watchers.get(watcher.table) is watcher:
            del self.watchers[watcher.table]
            self._close_order(watcher.table)
        self._release(watcher.table)

    # ---------------------------------------------------------------- inside

    def _move(self, player: Player, table: int | None) -> None:
        old, player.table = player.table, table
        if old == table:
            return
        if old in self.orders:
            self.orders[old].leave(player)
        if old is not None and not any(p.table == old for p in self.players.values()):
            self._unwatch(old)
        if table is not None and table not in self.watchers:
            watcher = self.watchers[table] = Watcher(self, table, server_name(self.config.nick))
            self.orders[table] = TableOrder(self.reactor, self.announce)
            self._open(watcher.link, f"watcher of table {table}", lambda: self.watcher_gone(watcher))
        if table in self.orders:
            self.orders[table].join(player, lambda text: self.tell(player.nick, text))

    def _unwatch(self, table: int) -> None:
        watcher = self.watchers.pop(table, None)
        if watcher is not None:
            watcher.link.hang_up()
        self._close_order(table)
        self._release(table)

    def _close_order(self, table: int) -> None:
        order = self.orders.pop(table, None)
        if order is not None:
            order.close()

    def _release(self, table: int) -> None:
        """Commands held for ``table``'s watcher go now (it watches, or it never will)."""
        for player in list(self.players.values()):
            if player.table == table:
                player.flush()

    def _is_watcher(self, name: object) -> bool:
        return any(w.link.name == name for w in self.watchers.values())

    def _open(self, link: GameLink, what: str, failed: Callable[[], None]) -> None:
        def cannot(reason: Failure) -> None:
            self.log.warn("cannot connect the {what} to the game server: {reason}",
                          what=what, reason=reason.getErrorMessage())
            if isinstance(link.owner, Player):
                self.tell(link.owner.nick, "The game server cannot be reached right now;"
                                           " try again later.")
            failed()

        self._connect(self.reactor, self.config.game_address, link).addErrback(cannot)
