"""The social commands: /ignore /unignore /friend /unfriend /friends /away /me /kibitz /top.

The lists they change and what ignoring does are `bswtichu.server.people.social`'s
(`PersonalLists`); chat is `bswtichu.server.people.chat`'s; the ladder is the storage's.
"""

from __future__ import annotations

from twisted.internet.defer import Deferred

from bswtichu.engine import VARIANTS
from bswtichu.server.text import messages
from bswtichu import names
from bswtichu.server.people.chat import AWAY, Chat
from bswtichu.server.text.i18n import _
from bswtichu.server.commands.registry import CommandGroup, command, wrong_use
from bswtichu.server.numbers import is_number
from bswtichu.server.people.directory import NameDirectory
from bswtichu.server.people.reads import Reads
from bswtichu.server.people.social import PersonalLists
from bswtichu.server.text.messages import Message, Refusal
from bswtichu.server.session import Session
from bswtichu.storage import Storage
from bswtichu.storage.community import FRIEND, IGNORE
from bswtichu.storage.ratings import DEFAULT_VARIANT, LadderRow, ladder

#: a rating from fewer games is provisional: shown apart, after the established ones
PROVISIONAL_GAMES = 5
TOP_DEFAULT, TOP_MAX = 10, 50
LIST_MAX = 100


class SocialCommands(CommandGroup):
    """Commands between people: they share each online name's ignore and friend lists, the
    name directory (who is online, where), the chat and the storage (who is registered, the
    ladder)."""

    def __init__(self, lists: PersonalLists, directory: NameDirectory, chat: Chat, storage: Storage,
                 reads: Reads | None = None) -> None:
        self.lists = lists
        #: where /top's read runs (at once on SQLite, in the read pool on PostgreSQL)
        self.reads = reads if reads is not None else Reads(storage)
        self.directory = directory
        self.chat = chat
        self.storage = storage

    @command("ignore", group="social", german="ignorieren", usage="/ignore NAME",
             summary=_("NAME's chat and messages no longer reach you"),
             help=_("His lobby, table and spectators' chat, /me, private messages and invitations are"
             " kept from you, his /away text reads 'away' and you are not told he came online;"
             " he is not told. A registered player's list is kept; a guest's lasts while he is"
             " online."))
    def ignore(self, session: Session, args: str) -> None:
        self._add(session, IGNORE, "ignore", args)

    @command("unignore", group="social", usage="/unignore NAME", summary=_("hear NAME again"),
             help=_("Takes NAME off your ignore list."))
    def unignore(self, session: Session, args: str) -> None:
        self._remove(session, IGNORE, args)

    @command("friend", group="social", german="freund", usage="/friend NAME",
             summary=_("hear when NAME comes online"),
             help=_("Adds NAME to your friend list: you are told when he comes online, and /friends"
             " shows where your friends are. Kept for registered players."))
    def friend(self, session: Session, args: str) -> None:
        self._add(session, FRIEND, "befriend", args)

    @command("unfriend", group="social", usage="/unfriend NAME", summary=_("take NAME off your friend list"),
             help=_("The opposite of /friend."))
    def unfriend(self, session: Session, args: str) -> None:
        self._remove(session, FRIEND, args)

    def _add(self, session: Session, kind: str, verb: str, args: str) -> None:
        """Put the one name in ``args`` on the session's list of ``kind`` (``verb``: what one
        cannot do to oneself)."""
        name = _one_name(args)
        nick = session.name
        if names.key(name) == names.key(nick):
            raise Refusal("self", _('you cannot %(verb)s yourself', verb=verb))
        mine = self.lists.of(nick, kind)
        if names.key(name) in mine:
            raise Refusal(f"already_{kind}", _('%(name)s is on your %(kind)s list already', name=name, kind=kind))
        if len(mine) >= LIST_MAX:
            raise Refusal("list_full", _('your %(kind)s list holds %(list_max)s names, the most it may', kind=kind, list_max=LIST_MAX))
        self.lists.add(nick, kind, name)
        kept = "" if self.storage.accounts.is_registered(nick) else " (until you leave: you are a guest)"
        session.send(Message(kind.upper(), {"nick": name, "on": True},
                             {IGNORE: f"You ignore {name} now: his chat and messages no longer reach you{kept}.",
                              FRIEND: f"{name} is your friend now: you hear when he comes online{kept}."}[kind]))

    def _remove(self, session: Session, kind: str, args: str) -> None:
        """Take the one name in ``args`` off the session's list of ``kind``."""
        name = _one_name(args)
        if not self.lists.remove(session.name, kind, name):
            raise Refusal(f"not_{kind}", _('%(name)s is not on your %(kind)s list', name=name, kind=kind))
        session.send(Message(kind.upper(), {"nick": name, "on": False},
                             {IGNORE: f"You no longer ignore {name}.",
                              FRIEND: f"{name} is no longer on your friend list."}[kind]))

    @command("friends", group="social", german="freunde", usage="/friends", summary=_("where your friends are"),
             help=_("Each friend: online (lobby, table and seat, watching, away) or offline."))
    def friends(self, session: Session, args: str) -> None:
        rows: list[dict[str, object]] = []
        parts: list[str] = []
        reader = session.name
        for _key, name in sorted(self.lists.of(reader, FRIEND).items()):
            other = self.directory.find(name)
            if other is None or self.directory.index.is_observer(other):
                rows.append({"nick": name, "online": False, "table": None, "seat": None, "away": None})
                parts.append(f"{name} (offline)")
                continue
            table = other.table
            away = self.chat.away_of(other, reader)
            rows.append({"nick": other.nick, "online": True, "table": table.number if table is not None else None,
                         "seat": table.seat_of(other.name) if table is not None else None, "away": away})
            parts.append(f"{other.nick} ({_where(other)}{', away: ' + away if away else ''})")
        text = "Friends: " + ", ".join(parts) if rows else "Your friend list is empty; /friend NAME adds one."
        session.send(Message("FRIENDS", {"friends": rows}, text))

    @command("away", group="social", german="weg", usage="/away [TEXT]",
             summary=_("say you are away; any command or chat brings you back"),
             help=_("Shown in /who, /friends and /table, and told to whoever sends you a /msg. TEXT is"
             " said as chat is (as long, refused while you are muted; those who ignore you read"
             " only 'away'). Any other line you type ends it."))
    def away(self, session: Session, args: str) -> None:
        session.away = self.chat.said(session, args) if args else AWAY
        session.send(Message("AWAY_SET", {"nick": session.nick, "text": session.away},
                             _('You are away (%(away)s); any command or chat brings you back.', away=session.away)))

    @command("me", group="social", usage="/me ACTION", summary=_("an action in the room: * Ann waves"),
             help=_("Like chat (your table, or the lobby), told as an action."))
    def me(self, session: Session, args: str) -> None:
        if not args:
            raise wrong_use(_('what do you do?'))
        self.chat.say(session, args, action=True)

    @command("kibitz", group="table", german="kiebitz", usage="/kibitz TEXT",
             summary=_("spectators' chat: only the other spectators hear it"),
             help=_("For spectators of a table: no player hears it, not during the game nor after"
             " (as on BrettspielWelt). A spectator's plain chat at a started table is kibitz too."))
    def kibitz(self, session: Session, args: str) -> None:
        if not args:
            raise wrong_use(_('say what'))
        self.chat.kibitz(session, args)

    @command("top", group="social", usage="/top [bots] [VARIANT] [N]",
             summary=_("the best rated players (or bot levels)"),
             help=_('The openskill ladder of registered players, best first (%(top_default)s places '
                     'unless N, at most %(top_max)s); ratings from fewer than %(provisional_games)s '
                     'games are provisional and shown apart, off the top. /top bots ranks the bot '
                     'levels. Each variant (%(variants)s) has its own ladder; without one, the '
                     "4-player game's.",
                    top_default=TOP_DEFAULT, top_max=TOP_MAX, provisional_games=PROVISIONAL_GAMES, variants=', '.join(VARIANTS)))
    def top(self, session: Session, args: str) -> Deferred | None:
        bots, variant, count = _top_request(args)
        return self.reads(session, lambda stores: ladder(stores.db, bots, variant),
                          lambda rows: _top_read(rows, session, bots, variant, count))


def _top_read(rows: list[LadderRow], session: Session, bots: bool, variant: str, count: int) -> None:
    """/top's answer from the ladder read."""
    established = [r for r in rows if bots or r.rating.games >= PROVISIONAL_GAMES][:count]
    provisional = [] if bots else [r for r in rows if r.rating.games < PROVISIONAL_GAMES][:count]
    ranked = [_ladder_entry(place, row) for place, row in enumerate(established, 1)]
    unsure = [_ladder_entry(None, row) for row in provisional]
    data = {"bots": bots, "ladder": ranked, "provisional": unsure}
    if variant != DEFAULT_VARIANT:  # the 4-player ladder's message is as before there were others
        data["variant"] = variant
    session.send(Message("TOP", data, _ladder_text(bots, variant, ranked, unsure)))


def _one_name(args: str) -> str:
    """The one name in ``args``, or the refusal."""
    if len(args.split()) != 1:
        raise wrong_use(_('one name'))
    name = names.normalize(args)
    if not names.is_valid(name):
        raise Refusal("nick_invalid", _('%(name)r is not a name; a name is %(name_rule)s', name=name[:40], name_rule=names.NAME_RULE))
    return name


def _where(session: Session) -> str:
    """Where a friend is, as /friends says it."""
    table = session.table
    if table is None:
        return "in the lobby"
    seat = table.seat_of(session.name)
    return f"watching table {table.number}" if seat is None else f"at table {table.number}, seat {seat}"


def _top_request(args: str) -> tuple[bool, str, int]:
    """/top's arguments as (bots, variant, places)."""
    words = args.split()
    bots = bool(words) and words[0].lower() == "bots"
    if bots:
        words = words[1:]
    variant = words.pop(0).lower() if words and words[0].lower() in VARIANTS else DEFAULT_VARIANT
    if len(words) > 1 or (words and not is_number(words[0])):
        raise wrong_use(_('N is a number of places'))
    count = int(words[0]) if words else TOP_DEFAULT
    if not 1 <= count <= TOP_MAX:
        raise wrong_use(_('N is 1-%(top_max)s', top_max=TOP_MAX))
    return bots, variant, count


def _ladder_entry(place: int | None, row: LadderRow) -> dict:
    """One ladder place as /top's machine message has it (a provisional one has no place)."""
    return {"place": place, "nick": row.name, "rating": round(row.rating.ordinal, 2),
            "games": row.rating.games, "provisional": place is None}


def _ladder_text(bots: bool, variant: str, ranked: list[dict], unsure: list[dict]) -> str:
    """/top's sentences: the established places, then the provisional ratings."""
    what = ("bot levels" if bots else "players") + (
        "" if variant == DEFAULT_VARIANT else f" in {variant.capitalize()}")
    lines = [f"The best {what}:" if ranked else f"No {what} with an established rating yet"
             f"{'' if bots else f' ({PROVISIONAL_GAMES} games)'}."]
    lines += [f"  {e['place']:>2}. {e['nick']} {e['rating']:.1f} ({messages.counted(e['games'], 'game')})"
              for e in ranked]
    if unsure:
        lines.append(f"Provisional (fewer than {PROVISIONAL_GAMES} games): " + ", ".join(
            f"{e['nick']} {e['rating']:.1f}?" for e in unsure))
    return "\n".join(lines)
