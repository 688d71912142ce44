"""Personal controls and the social basics: ignore, friends, away, /me, /kibitz, the ladder.

A registered player's ignore and friend lists are kept in the database; a guest's last
while he is online. Ignoring a name keeps his chat (lobby, table, kibitz, /me), his
private messages, his invitations, his /away text and the notice that he came online from
reaching you; he is not told (a harasser learns nothing from it).
"""

from __future__ import annotations

from collections.abc import Callable

from bswtichu.engine import VARIANTS
from bswtichu.server.text import messages
from bswtichu import names
from bswtichu.server.people.chat import AWAY, Chat
from bswtichu.server.commands.registry import Command, is_number, wrong_use
from bswtichu.server.people.directory import NameDirectory, NameIndex
from bswtichu.server.text.messages import Message, Refusal
from bswtichu.server.session import Session
from bswtichu.storage import Storage
from bswtichu.storage.community import FRIEND, IGNORE, CommunityStore
from bswtichu.storage.ratings import DEFAULT_VARIANT, ladder

#: a rating from fewer games is provisional: shown apart, after the established ones
PROVISIONAL_GAMES = 5
TOP_DEFAULT, TOP_MAX = 10, 50
LIST_MAX = 100


class PersonalLists:
    """Each online name's ignore and friend lists: read from the store when he takes the name,
    dropped when he leaves it. Chat asks `ignorers` once per line: who ignores the speaker."""

    def __init__(self, store: CommunityStore, is_registered: Callable[[str], bool]) -> None:
        self._store = store
        self._is_registered = is_registered
        self._lists: dict[tuple[str, str], dict[str, str]] = {}
        #: a name's key -> the keys of the online names that ignore it (kept in step with the lists)
        self._ignorers: dict[str, set[str]] = {}

    def of(self, owner: str, kind: str) -> dict[str, str]:
        """``owner``'s list of ``kind``: name key -> name as written (read once, then kept)."""
        key = (names.key(owner), kind)
        found = self._lists.get(key)
        if found is None:
            found = self._lists[key] = (self._store.personal_list(owner, kind)
                                        if self._is_registered(owner) else {})
            if kind == IGNORE:
                for ignored in found:
                    self._ignorers.setdefault(ignored, set()).add(key[0])
        return found

    def add(self, owner: str, kind: str, name: str) -> None:
        self.of(owner, kind)[names.key(name)] = name
        if kind == IGNORE:
            self._ignorers.setdefault(names.key(name), set()).add(names.key(owner))
        if self._is_registered(owner):
            self._store.add_to_list(owner, kind, name)

    def remove(self, owner: str, kind: str, name: str) -> bool:
        if self.of(owner, kind).pop(names.key(name), None) is None:
            return False
        if kind == IGNORE:
            self._unignore(names.key(owner), names.key(name))
        if self._is_registered(owner):
            self._store.remove_from_list(owner, kind, name)
        return True

    def ignorers(self, speaker: str) -> set[str]:
        """The keys of the online names that ignore ``speaker`` (mostly none)."""
        return self._ignorers.get(names.key(speaker), _NOBODY)

    def keep(self, owner: str) -> None:
        """``owner`` just registered: what he listed as a guest is kept from now on."""
        for kind in (IGNORE, FRIEND):
            for name in self._lists.get((names.key(owner), kind), {}).values():
                self._store.add_to_list(owner, kind, name)

    def arrive(self, session: Session, previous: str | None) -> None:
        """He took a name: the lists of the one he had go, his ignore list is read (chat needs it)."""
        nick: str = session.nick  # type: ignore[assignment]  # he has just taken it
        if previous is not None and names.key(previous) != names.key(nick):
            self._drop(previous)
        self.of(nick, IGNORE)

    def forget(self, session: Session) -> None:
        """He left: his lists leave memory (a registered player's stay in the store)."""
        self._drop(session.nick)  # type: ignore[arg-type]  # only the named are told they left

    def _drop(self, owner: str) -> None:
        key = names.key(owner)
        for ignored in self._lists.pop((key, IGNORE), {}):
            self._unignore(key, ignored)
        self._lists.pop((key, FRIEND), None)

    def _unignore(self, owner_key: str, ignored_key: str) -> None:
        ignorers = self._ignorers.get(ignored_key)
        if ignorers is not None:
            ignorers.discard(owner_key)
            if not ignorers:
                del self._ignorers[ignored_key]


_NOBODY: set[str] = set()


def tell_friends(lists: PersonalLists, index: NameIndex, arrived: Session) -> None:
    """Everyone online whose friend list holds the name just taken hears that he is here
    (unless he also ignores him: ignoring wins)."""
    if index.is_observer(arrived):
        return
    nick: str = arrived.nick  # type: ignore[assignment]  # he has just taken it
    key = names.key(nick)
    ignorers = lists.ignorers(nick)
    notice = Message("FRIEND_ONLINE", {"nick": nick}, f"Your friend {nick} is online.")
    for other in index.online():
        friend: str = other.nick  # type: ignore[assignment]  # the online have names
        if other is not arrived and key in lists.of(friend, FRIEND) and names.key(friend) not in ignorers:
            other.send(notice)


def where(session: Session) -> str:
    table = session.table
    if table is None:
        return "in the lobby"
    seat = table.seat_of(session.nick)  # type: ignore[arg-type]  # one at a table has a name
    return f"watching table {table.number}" if seat is None else f"at table {table.number}, seat {seat}"


def social_commands(lists: PersonalLists, directory: NameDirectory, chat: Chat,
                    storage: Storage) -> list[Command]:
    """/ignore /unignore /friend /unfriend /friends /away /me /kibitz /top."""

    def one_name(args: str) -> str:
        if len(args.split()) != 1:
            raise wrong_use("one name")
        name = names.normalize(args)
        if not names.is_valid(name):
            raise Refusal("nick_invalid", f"{name[:40]!r} is not a name; a name is {names.NAME_RULE}")
        return name

    def add_to(kind: str, noun: str):
        def handle(session: Session, args: str) -> None:
            name = one_name(args)
            if names.key(name) == names.key(session.nick):
                raise Refusal("self", f"you cannot {noun} yourself")
            mine = lists.of(session.nick, kind)
            if names.key(name) in mine:
                raise Refusal(f"already_{kind}", f"{name} is on your {kind} list already")
            if len(mine) >= LIST_MAX:
                raise Refusal("list_full", f"your {kind} list holds {LIST_MAX} names, the most it may")
            lists.add(session.nick, kind, name)
            kept = "" if storage.accounts.is_registered(session.nick) else " (until you leave: you are a guest)"
            session.send(Message(kind.upper(), {"nick": name, "on": True},
                                 {IGNORE: f"You ignore {name} now: his chat and messages no longer reach you{kept}.",
                                  FRIEND: f"{name} is your friend now: you hear when he comes online{kept}."}[kind]))
        return handle

    def remove_from(kind: str):
        def handle(session: Session, args: str) -> None:
            name = one_name(args)
            if not lists.remove(session.nick, kind, name):
                raise Refusal(f"not_{kind}", f"{name} is not on your {kind} list")
            session.send(Message(kind.upper(), {"nick": name, "on": False},
                                 {IGNORE: f"You no longer ignore {name}.",
                                  FRIEND: f"{name} is no longer on your friend list."}[kind]))
        return handle

    def friends(session: Session, args: str) -> None:
        rows = []
        for key, name in sorted(lists.of(session.nick, FRIEND).items()):
            other = directory.find(name)
            online = other is not None and not directory.index.is_observer(other)
            rows.append({"nick": other.nick if online else name, "online": online,
                         "table": other.table.number if online and other.table is not None else None,
                         "seat": other.table.seat_of(other.nick) if online and other.table is not None else None,
                         "away": chat.away_of(other, session.nick) if online else None})
        if not rows:
            text = "Your friend list is empty; /friend NAME adds one."
        else:
            parts = [f"{r['nick']} ({where(directory.find(r['nick'])) if r['online'] else 'offline'}"
                     f"{', away: ' + r['away'] if r['away'] else ''})" for r in rows]
            text = "Friends: " + ", ".join(parts)
        session.send(Message("FRIENDS", {"friends": rows}, text))

    def away(session: Session, args: str) -> None:
        session.away = chat.said(session, args) if args else AWAY
        session.send(Message("AWAY_SET", {"nick": session.nick, "text": session.away},
                             f"You are away ({session.away}); any command or chat brings you back."))

    def me(session: Session, args: str) -> None:
        if not args:
            raise wrong_use("what do you do?")
        chat.say(session, args, action=True)

    def kibitz(session: Session, args: str) -> None:
        if not args:
            raise wrong_use("say what")
        chat.kibitz(session, args)

    def top(session: Session, args: str) -> None:
        words = args.split()
        bots = bool(words) and words[0].lower() == "bots"
        if bots:
            words = words[1:]
        variant = words.pop(0).lower() if words and words[0].lower() in VARIANTS else DEFAULT_VARIANT
        if len(words) > 1 or (words and not is_number(words[0])):
            raise wrong_use("N is a number of places")
        count = int(words[0]) if words else TOP_DEFAULT
        if not 1 <= count <= TOP_MAX:
            raise wrong_use(f"N is 1-{TOP_MAX}")
        rows = ladder(storage.db, bots, variant)
        established = [r for r in rows if bots or r.rating.games >= PROVISIONAL_GAMES][:count]
        provisional = [] if bots else [r for r in rows if r.rating.games < PROVISIONAL_GAMES][:count]

        def entry(place: int | None, row) -> dict:
            return {"place": place, "nick": row.name, "rating": round(row.rating.ordinal, 2),
                    "games": row.rating.games, "provisional": place is None}

        ranked = [entry(place, row) for place, row in enumerate(established, 1)]
        unsure = [entry(None, row) for row in provisional]
        what = ("bot levels" if bots else "players") + (
            "" if variant == DEFAULT_VARIANT else f" in {variant.capitalize()}")
        lines = [f"The best {what}:" if ranked else f"No {what} with an established rating yet"
                 f"{'' if bots else f' ({PROVISIONAL_GAMES} games)'}."]
        lines += [f"  {e['place']:>2}. {e['nick']} {e['rating']:.1f} ({messages.counted(e['games'], 'game')})"
                  for e in ranked]
        if unsure:
            lines.append(f"Provisional (fewer than {PROVISIONAL_GAMES} games): " + ", ".join(
                f"{e['nick']} {e['rating']:.1f}?" for e in unsure))
        data = {"bots": bots, "ladder": ranked, "provisional": unsure}
        if variant != DEFAULT_VARIANT:  # the 4-player ladder's message is as before there were others
            data["variant"] = variant
        session.send(Message("TOP", data, "\n".join(lines)))

    def command(key: str, usage: str, summary: str, help: str, handler, german: str | None = None,
                group: str = "social") -> Command:
        return Command(key=key, group=group, usage=usage, summary=summary, help=help, handler=handler,
                       german=german)

    return [
        command("ignore", "/ignore NAME", "NAME's chat and messages no longer reach you",
                "His lobby, table and spectators' chat, /me, private messages and invitations are"
                " kept from you, his /away text reads 'away' and you are not told he came online;"
                " he is not told. A registered player's list is kept; a guest's lasts while he is"
                " online.", add_to(IGNORE, "ignore"), german="ignorieren"),
        command("unignore", "/unignore NAME", "hear NAME again", "Takes NAME off your ignore list.",
                remove_from(IGNORE)),
        command("friend", "/friend NAME", "hear when NAME comes online",
                "Adds NAME to your friend list: you are told when he comes online, and /friends"
                " shows where your friends are. Kept for registered players.", add_to(FRIEND, "befriend"),
                german="freund"),
        command("unfriend", "/unfriend NAME", "take NAME off your friend list", "The opposite of /friend.",
                remove_from(FRIEND)),
        command("friends", "/friends", "where your friends are",
                "Each friend: online (lobby, table and seat, watching, away) or offline.", friends,
                german="freunde"),
        command("away", "/away [TEXT]", "say you are away; any command or chat brings you back",
                "Shown in /who, /friends and /table, and told to whoever sends you a /msg. TEXT is"
                " said as chat is (as long, refused while you are muted; those who ignore you read"
                " only 'away'). Any other line you type ends it.", away, german="weg"),
        command("me", "/me ACTION", "an action in the room: * Ann waves",
                "Like chat (your table, or the lobby), told as an action.", me),
        command("kibitz", "/kibitz TEXT", "spectators' chat: only the other spectators hear it",
                "For spectators of a table: no player hears it, not during the game nor after"
                " (as on BrettspielWelt). A spectator's plain chat at a started table is kibitz too.",
                kibitz, german="kiebitz", group="table"),
        command("top", "/top [bots] [VARIANT] [N]", "the best rated players (or bot levels)",
                f"The openskill ladder of registered players, best first ({TOP_DEFAULT} places unless"
                f" N, at most {TOP_MAX}); ratings from fewer than {PROVISIONAL_GAMES} games are"
                " provisional and shown apart, off the top. /top bots ranks the bot levels. Each"
                f" variant ({', '.join(VARIANTS)}) has its own ladder; without one, the 4-player game's.",
                top),
    ]
