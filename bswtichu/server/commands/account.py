"""Commands for accounts and the record: /register, /password, /resume, /history, /stats.

The record is per variant: /history lists every variant's games (or one's), /stats
shows one variant's record and rating, the 4-player game's unless another is named.

Logging in is ``/nick NAME PASSWORD`` (the lobby's /nick asks the `NameGuard`); these use
the `NameDirectory` for names and its guard for passwords and tokens.
Passwords and tokens are never repeated in any reply. A password is hashed or checked
away from the reactor (`bswtichu.server.people.hashing`): those handlers return a Deferred, and
what they do once it answers re-checks what may have changed meanwhile.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from twisted.internet.defer import Deferred

from bswtichu.engine import VARIANTS, Variant
from bswtichu.server.text import messages
from bswtichu import names
from bswtichu.server.people.accounts import RegistrationLimit
from bswtichu.server.text.i18n import _
from bswtichu.server.commands.registry import CommandGroup, command, wrong_use
from bswtichu.server.people.directory import NameDirectory
from bswtichu.server.people.reads import Reads, ReadStores
from bswtichu.server.games.logs import GameReaders
from bswtichu.server.text.messages import Message, Refusal
from bswtichu.server.session import Session
from bswtichu.storage import Storage
from bswtichu.storage.accounts import password_problem
from bswtichu.storage.ratings import DEFAULT_VARIANT, Rating, bot_identity, player_identity, rating_of

HISTORY_LENGTH = 10


class AccountCommands(CommandGroup):
    """Commands about one's account and record: they share the name directory (and its guard:
    passwords, tokens), the storage (accounts, games, ratings), who may read which game
    (``readers``: a private table's to its players), the limit on new registrations per
    address (``registrations``; none: unlimited) and what is done once a name is registered
    (``registered(name)``: its lists are kept from then on)."""

    def __init__(self, directory: NameDirectory, storage: Storage, readers: GameReaders,
                 registrations: RegistrationLimit | None = None,
                 registered: Callable[[str], None] = lambda name: None, reads: Reads | None = None) -> None:
        self.directory = directory
        #: where /history's and /stats's reads run (at once on SQLite, in the read pool on PostgreSQL)
        self.reads = reads if reads is not None else Reads(storage)
        self.guard = directory.guard
        self.storage = storage
        self.accounts = storage.accounts
        self.readers = readers
        self.registrations = registrations
        self.registered = registered

    @command("register", group="account", usage="/register [PASSWORD]", summary=_("keep your name for good"),
             help=_("Registers the name you use now to you; from then on only /nick NAME PASSWORD"
             " gets it. A password is 6-128 characters without spaces, not digits only. Registered"
             " players are rated. At a terminal, /register alone asks for it twice, not shown."))
    def register(self, session: Session, args: str) -> Deferred | None:
        nick = session.name
        if self.accounts.is_registered(nick):
            raise Refusal("already_registered", _('%(nick)s is registered already; /password changes it', nick=nick))
        words = args.split()
        if not words and self._ask_new_password(session, f"Choose a password for {nick}",
                                                lambda chosen: self.command_of(self.register).run(session, chosen)):
            return None
        if len(words) != 1:
            raise wrong_use(_('one password, without spaces'))
        problem = password_problem(words[0])
        if problem:
            raise Refusal("bad_password", problem)
        if self.registrations is not None:
            self.registrations.check(session.address)
        return self.guard.hashing.hash(session, nick, words[0], self.accounts.cost).addCallback(
            self._hashed, session, nick)

    def _hashed(self, password_hash: str, session: Session, nick: str) -> None:
        """The new password is hashed (off the reactor): the name is registered, unless it was
        meanwhile or the address used up its registrations."""
        if self.accounts.is_registered(nick):
            raise Refusal("already_registered", _('%(nick)s is registered already; /password changes it', nick=nick))
        if self.registrations is not None:
            self.registrations.check(session.address)
        self.accounts.add(nick, password_hash)
        if self.registrations is not None:
            self.registrations.registered(session.address)
        self.registered(nick)
        session.send(Message("REGISTERED", {"nick": nick},
                             _('%(nick)s is now registered to you. Next time: /nick %(nick)s PASSWORD.', nick=nick)))
        session.password_travelled()

    def _ask_new_password(self, session: Session, question: str,
                          then: Callable[[str], Deferred | None]) -> bool:
        """A person at a terminal types the new password twice, unseen; False if he cannot.

        A refused one is asked for again; two that differ start over at the first.
        """
        def ask_first() -> bool:
            return session.ask_secret(messages.password_wanted(
                session.name, f"{question}: 6-128 characters, no spaces, not digits only (not shown;"
                              " an empty line gives up):"), first)

        def first(chosen: str) -> None:
            problem = password_problem(chosen)
            if problem:
                raise Refusal("bad_password", problem)

            def second(again: str) -> Deferred | None:
                if again != chosen:
                    raise Refusal("bad_password", _('the two passwords differ; choose one again'))
                return then(chosen)

            session.ask_secret(messages.password_wanted(session.name, "Type it again:", again=True), second,
                               again=ask_first)

        return ask_first()

    @command("password", group="account", german="passwort", usage="/password [OLD NEW]",
             summary=_("change your password"),
             help=_("Changes the password of your registered name. At a terminal, /password alone"
             " asks for the old and the new one, not shown."))
    def password(self, session: Session, args: str) -> Deferred | None:
        words = args.split()
        nick = session.name
        if not words and self.accounts.is_registered(nick) and session.ask_secret(
                messages.password_wanted(nick, f"The present password of {nick}"
                                                       " (not shown; an empty line gives up):"),
                lambda old: self._present_password_typed(session, old)):
            return None
        if len(words) != 2:
            raise wrong_use(_('the old and the new password'))
        problem = password_problem(words[1])
        if problem:
            raise Refusal("bad_password", problem)
        return self._check_present_password(session, words[0]).addCallback(
            lambda stored: self._change_password(session, words[1], stored))

    def _present_password_typed(self, session: Session, old: str) -> Deferred:
        """At a terminal: the present password is checked, then the new one is asked for."""
        return self._check_present_password(session, old).addCallback(
            lambda was: self._ask_new_password(session, f"The new password for {session.nick}",
                                               lambda new: self._change_password(session, new, was)))

    def _check_present_password(self, session: Session, old: str) -> Deferred:
        """A Deferred of the stored hash of the session's password, once ``old`` is found to be it."""
        nick = session.name

        def checked(spelled: str | None) -> str:
            if spelled is None:
                raise Refusal("bad_password", _('the old password is wrong'))
            return self.accounts.login_record(nick)[1]  # type: ignore[index]  # verify found it unchanged

        return self.guard.verify(session, nick, old).addCallback(checked)

    def _change_password(self, session: Session, new: str, was: str) -> Deferred:
        """Hash ``new`` (checked already; off the reactor) and store it, if the password is still
        the one checked (``was``)."""
        nick = session.name

        def hashed_new(password_hash: str) -> None:
            if not self.accounts.replace_password(nick, password_hash, was):
                raise Refusal("account_changed", _('the password of %(nick)s changed meanwhile; try again', nick=nick))
            session.send(Message("PASSWORD", {"nick": nick}, _('The password of %(nick)s is changed.', nick=nick)))
            session.password_travelled()

        return self.guard.hashing.hash(session, nick, new, self.accounts.cost, charged=False).addCallback(
            hashed_new)

    @command("resume", group="account", usage="/resume TOKEN", summary=_("a guest takes his name and held seat back"),
             help=_("A guest (unregistered name) gets a resume token with /nick. After a dropped"
             " connection, /resume TOKEN gives him his name back while his seat is held (an old"
             " connection still holding the name is closed) and seats him in it again at once."
             " At a running game, /resume alone is /continue (a vote to go on after a /pause)."),
             needs_nick=False)
    def resume(self, session: Session, args: str) -> None:
        words = args.split()
        if not words and session.table is not None and session.table.started:
            session.table.ask_continue(session.name)  # /resume alone at a game: the vote to go on
            return
        if len(words) != 1:
            raise wrong_use(_('the token you got with your name'))
        if session.table is not None:
            raise Refusal("at_table", _('you are at table %(table)s; /leave it first', table=session.table.number))
        name = self.guard.resume(session, words[0],
                                 lambda owner: getattr(self.directory.find(owner), "nick", None))
        self.directory.take_over(session, name)
        self.directory.take_name(session, name)

    @command("history", group="account", german="historie", usage="/history [NAME] [VARIANT]",
             summary=_("the last finished games"),
             help=_('The last %(history_length)s finished games (of NAME, of VARIANT, if given): '
                     'players, points, log number, and the variant of a game not for four. VARIANT is '
                     'one of %(variants)s; a last word that names a variant is one, not a name. A '
                     "private table's game is listed to its players only.",
                    history_length=HISTORY_LENGTH, variants=', '.join(VARIANTS)))
    def history(self, session: Session, args: str) -> Deferred | None:
        variant, rest = variant_word(args)
        name = _one_name(rest) or None
        kind, reader = None if variant is None else variant.name, self.readers.history_reader(session.name)
        return self.reads(session, lambda stores: stores.games.history(name, HISTORY_LENGTH, kind, reader),
                          lambda rows: self._history_read(rows, session, name, variant))

    @staticmethod
    def _history_read(rows: list, session: Session, name: str | None, variant: Variant | None) -> None:
        games = [{"log": r.log_number, "ended": r.ended,
                  "players": [{"nick": n, "seat": s, "points": p, "won": w} for n, s, p, w in r.players],
                  "options": r.options, **_variant_field(r.variant)} for r in rows]
        asked = {"variant": variant.name} if variant else {}  # the filter, if one was given
        session.send(Message("HISTORY", {"nick": name, "games": games, **asked},
                             _history_text(rows, name, variant)))

    @command("stats", group="account", german="statistik", usage="/stats [NAME] [VARIANT]",
             summary=_("games, wins, points and rating"),
             help=_("Your record (or NAME's) in the 4-player game (or in VARIANT: each variant has its"
             " own record and rating): finished games, wins, points, and the rating of a"
             " registered player. /stats bot-basic shows a bot level's."))
    def stats(self, session: Session, args: str) -> Deferred | None:
        variant, rest = variant_word(args)
        kind = variant.name if variant else DEFAULT_VARIANT
        name = _one_name(rest) or session.name
        return self.reads(session, lambda stores: _record(stores, name, kind),
                          lambda found: self._stats_read(found, session, name, kind))

    def _stats_read(self, found: tuple[Rating | None, tuple[int, int, int], bool], session: Session,
                    name: str, kind: str) -> None:
        """/stats's answer from what was read: refused for a name nobody has played, registered
        or holds."""
        rating, (games, wins, points), registered = found
        if not games and rating is None and not registered and self.directory.find(name) is None:
            raise Refusal("no_such_player", _('nobody called %(name)s has finished a game here, is registered or is online; /who lists '
                                              'who is', name=name))
        data = {"nick": name, "games": games, "wins": wins, "points": points,
                "rating": None if rating is None else round(rating.ordinal, 2),
                "mu": None if rating is None else round(rating.mu, 2),
                "sigma": None if rating is None else round(rating.sigma, 2), **_variant_field(kind)}
        where = "" if kind == DEFAULT_VARIANT else f" in {kind.capitalize()}"
        text = f"{name}{where}: {messages.counted(games, 'game')}, {wins} won, {messages.counted(points, 'point')}"
        if rating is not None:
            text += f"; rating {rating.ordinal:.1f} (mu {rating.mu:.1f}, sigma {rating.sigma:.1f})"
        elif not name.casefold().startswith(names.BOT_PREFIX):
            text += "; no rating (only registered players are rated)"
        session.send(Message("STATS", data, text + "."))



def _record(stores: ReadStores, name: str, kind: str) -> tuple[Rating | None, tuple[int, int, int], bool]:
    """``name``'s rating (None: none), (games, wins, points) in variant ``kind`` and whether he is
    registered: a bot level's for ``bot-LEVEL`` (a read: run where `Reads` runs it)."""
    if name.casefold().startswith(names.BOT_PREFIX):
        level = name[len(names.BOT_PREFIX):].lower()
        return rating_of(stores.db, bot_identity(level), kind), stores.games.level_stats(level, kind), False
    registered = stores.accounts.is_registered(name)
    rating = rating_of(stores.db, player_identity(name), kind) if registered else None
    return rating, stores.games.stats(name, kind), registered


def _history_text(rows: list, name: str | None, variant: Variant | None) -> str:
    """/history's sentences: one line per game, or that there is none yet."""
    if variant is None:
        of = f" of {name}" if name else ""
    else:
        of = f" of {variant.title}" + (f" with {name}" if name else "")
    if not rows:
        return f"No finished games{of} yet."
    lines = [f"The last {len(rows)} finished games{of}:"]
    for r in rows:
        when = time.strftime("%Y-%m-%d %H:%M", time.gmtime(r.ended))
        kind = "" if r.variant == DEFAULT_VARIANT else f", {r.variant.capitalize()}"
        who = ", ".join(f"{n} {p}{' (won)' if w else ''}" for n, s, p, w in r.players)
        lines.append(f"  game {r.log_number} ({when} UTC{kind}): {who}; /review {r.log_number}"
                     f" steps through it, /log {r.log_number} is its log")
    return "\n".join(lines)


def variant_word(args: str) -> tuple[Variant | None, str]:
    """The variant named by the last of a command's words, if it names one, and the words before it.

    So /stats NAME VARIANT, /stats VARIANT (your own), and /stats trichu nanjing for a
    player called Trichu (whose name alone would be read as the variant)."""
    words = args.split()
    if words and words[-1].lower() in VARIANTS:
        return VARIANTS[words[-1].lower()], " ".join(words[:-1])
    return None, args


def _variant_field(name: str) -> dict:
    """A machine message's ``variant`` field: absent for the 4-player game, as before there were others."""
    return {} if name == DEFAULT_VARIANT else {"variant": name}


def _one_name(args: str) -> str:
    words = args.split()
    if len(words) > 1:
        raise wrong_use(_('one name at most'))
    if not words:
        return ""
    name = names.normalize(words[0])
    if not names.is_valid(name):
        raise Refusal("nick_invalid", _('%(name)r is not a name; a name is %(name_rule)s', name=name[:40], name_rule=names.NAME_RULE))
    return name
