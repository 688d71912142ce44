"""Each person's ignore and friend lists, and telling friends that one came online.

A registered player's ignore and friend lists are kept in the database; a guest's last
while he is online. Ignoring a name keeps his chat (lobby, table, kibitz, /me), his
private messages, his invitations, his /away text and the notice that he came online from
reaching you; he is not told (a harasser learns nothing from it). The commands that change
the lists, and /away, /me, /kibitz and /top, are `bswtichu.server.commands.social`'s.
"""

from __future__ import annotations

from collections.abc import Callable

from bswtichu.server.text.i18n import _
from bswtichu import names
from bswtichu.server.people.directory import NameIndex
from bswtichu.server.text.messages import Message
from bswtichu.server.session import Session
from bswtichu.storage.community import FRIEND, IGNORE, CommunityStore


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
    notice = Message("FRIEND_ONLINE", {"nick": nick}, _('Your friend %(nick)s is online.', nick=nick))
    for other in index.online():
        friend: str = other.nick  # type: ignore[assignment]  # the online have names
        if other is not arrived and key in lists.of(friend, FRIEND) and names.key(friend) not in ignorers:
            other.send(notice)
