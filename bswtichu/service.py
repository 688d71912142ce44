"""Service wiring: one lobby and its listeners, from a ServerConfig.

Kept apart from the protocols and the domain, as in twisted.words: this is the
only place that knows which factory listens where and what the lobby's games
are built from (the game wiring and its log store).
"""

from __future__ import annotations

import dataclasses
import errno
import gc
import json
import os
from time import perf_counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from twisted.application.service import Service
from twisted.internet.defer import Deferred, DeferredList, FirstError, gatherResults
from twisted.internet.endpoints import serverFromString
from twisted.internet.error import CannotListenError
from twisted.internet.interfaces import IListeningPort, IReactorTime
from twisted.internet.task import LoopingCall, deferLater
from twisted.logger import Logger
from twisted.python.failure import Failure

from bswtichu.bots import BotSettings
from bswtichu.config import LIVE_FIELDS, LiveConfig, ServerConfig
from bswtichu.net import tls
from bswtichu.net.accept import AcceptGuard
from bswtichu.net.kinds import ListenerKind, kind_named
from bswtichu.net.lines import LobbyFactory
from bswtichu.counters import Counters
from bswtichu.play.workers import BotWorkers
from bswtichu.server.commands.account import AccountCommands
from bswtichu.server.people.accounts import NameGuard, RegistrationLimit
from bswtichu.server.people.chat import Chat
from bswtichu.server.commands.registry import CommandRegistry
from bswtichu.server.connections import Connections
from bswtichu.server.people.directory import NameDirectory, NameIndex
from bswtichu.server.commands.display import DisplayCommands, LanguageCommand
from bswtichu.server.commands.events import EventCommands
from bswtichu.server.events.board import EventBoard
from bswtichu.server.commands.game import GameCommands
from bswtichu.server.tables.wiring import GameWiring
from bswtichu.server.games.logs import GameLogStore, GameReaders
from bswtichu.server.games.writer import BatchWriter
from bswtichu.server.people.reads import Reads
from bswtichu.server.people.hashing import Hasher, PasswordHashing, PoolHasher, hash_inline
from bswtichu.server.lobby import Lobby
from bswtichu.server.commands.help import HelpCommands
from bswtichu.server.commands.lobby import LobbyCommands
from bswtichu.server.commands.moderation import ModerationCommands, person_kicker
from bswtichu.server.text.messages import Refusal
from bswtichu.server.people.moderation import ADMIN, Moderation, operator_desk
from bswtichu.server.commands.social import SocialCommands
from bswtichu.server.people.social import PersonalLists, tell_friends
from bswtichu.server.session import Outbox
from bswtichu.server.commands.shutdown import ShutdownCommands
from bswtichu.server.shutdown import Shutdown
from bswtichu.server.tables.hall import TableHall
from bswtichu.server.tables.table import GameFactory
from bswtichu.server.commands.review import ReviewCommands
from bswtichu.server.commands.tables import TableCommands
from bswtichu.storage import Fenced, Lease, Storage, admins, backup, is_url
from bswtichu.storage.postgres import open_postgres, redacted

log = Logger()

#: the exit code of a process that lost its database to another (fenced: `TichuService.ended`)
FENCED_EXIT = 3


def build_lobby(
    clock: IReactorTime,
    config: ServerConfig,
    game_factory: GameFactory,
    logs: GameLogStore,
    storage: Storage | None = None,
    later: Callable[[Callable[[], None]], object] | None = None,
    counters: Counters | None = None,
    stop: Callable[[str], None] | None = None,
    hasher: Hasher = hash_inline,
    moderation: Moderation | None = None,
    fenced: Callable[[str], None] | None = None,
    writer: BatchWriter | None = None,
    reads: Reads | None = None,
) -> Lobby:
    """The lobby and its parts: outbox, connections, names, tables, name guard, chat, commands.

    ``game_factory`` builds a started table's game; ``logs`` is where games write theirs.
    ``storage`` keeps accounts, history and ratings (without one, an in-memory database).
    ``later`` calls a function at the end of the current reactor turn: given, what a
    turn's input lines and bot steps cause is committed (the games' journal steps, in
    one transaction) and then written (one write per client) once, at its end.
    ``counters`` counts for the operator (the metrics listener reads it): the lobby's refusals,
    the commits; the game wiring shares it for the games' actions and bot decisions.
    ``stop(reason)`` stops the server (the service's); given, admins have ``/shutdown``.
    ``hasher`` hashes and checks passwords (the service's thread pool; by default at once,
    in the caller's thread, for tools and tests without a running reactor).
    ``moderation``: the roles and sanctions (`moderation_for` if not given; the service keeps
    its own to answer ``bswtichu admin``).
    ``fenced(reason)``: another process took the database (the service stops serving); what the
    turn caused is dropped, never told.
    ``writer``: PostgreSQL's commits off the reactor (the outbox waits for each; without one
    every commit is made in the reactor's thread, as SQLite's are).
    ``reads``: where /history, /stats and /top read (the read pool on PostgreSQL; by default at
    once, in the reactor's thread, as SQLite's are).
    """
    storage = storage if storage is not None else Storage.open()
    storage.games.batched = later is not None
    counters = counters if counters is not None else Counters()
    commit = writer.commit if writer is not None else lambda: _commit(storage, counters)
    outbox = Outbox(_fencing(commit, storage, fenced), later)
    reads = reads if reads is not None else Reads(storage)
    reads.outbox = outbox
    live = LiveConfig(config)
    moderation = moderation if moderation is not None else moderation_for(storage, clock, config)
    connections = Connections(live, outbox, moderation.barred)
    index = NameIndex()
    lists = PersonalLists(storage.community, storage.accounts.is_registered)
    chat = Chat(index, live, moderation.check_may_speak, lists.ignorers)
    tables = TableHall(index.find, clock, config.reconnect_grace, game_factory, config.abandon_after, outbox,
                       config.turn_clock or None, config.vote_timeout, config.pause_limit, config.bot_game_after,
                       chat.away_of,  # type: ignore[arg-type]  # its readers are sessions: index.find's
                       hand_commands=GameCommands.hand_names(), numbers=storage.table_numbers)
    hashing = PasswordHashing(hasher, clock, config.password_queue, config.password_checks_per_name,
                              config.password_checks_per_address, config.uncapped, outbox)
    guard = NameGuard(storage.accounts, tables, clock, hashing, config.guest_token_lifetime,
                      lambda name: index.find(name) is not None)
    names = NameDirectory(index, connections, guard, tables,
                          lambda session, name: moderation.admit(session, name, index.is_observer(session)))
    names.arrived.append(guard.renamed)
    names.arrived.append(lists.arrive)
    names.arrived.append(lambda session, previous: tell_friends(lists, index, session))
    names.departed.append(lists.forget)
    language = LanguageCommand(storage.accounts.set_language, storage.accounts.language)
    names.arrived.append(language.arrived)
    readers = GameReaders(storage.games, lambda nick: moderation.role_of(nick) == ADMIN)
    commands = CommandRegistry()
    events = EventBoard(tables, clock, storage.events, index.find, games=storage.games)
    game = GameCommands(tables, logs, readers, person_kicker(moderation, names))
    groups = [HelpCommands(commands), LobbyCommands(names, chat, live), TableCommands(tables, live, chat),
              game, ReviewCommands(logs, readers),
              AccountCommands(names, storage, readers, RegistrationLimit(
                  clock, config.registrations_per_hour, config.uncapped), lists.keep, reads),
              DisplayCommands(), language, SocialCommands(lists, names, chat, storage, reads),
              ModerationCommands(moderation, names, connections, tables),
              EventCommands(events, lambda name: may_create_events(name, moderation, storage, live),
                            storage.accounts.is_registered, live, game.score,
                            lambda name: moderation.role_of(name) == ADMIN)]

    if stop is not None:
        groups.append(ShutdownCommands(Shutdown(clock, index, tables, stop), moderation.role_of))
    for group in groups:  # the one list of what is registered, in /help's order
        commands.register_all(group.commands())
    return Lobby(connections, names, chat, commands, tables, outbox, counters, live, events)


def may_create_events(name: str, moderation: Moderation, storage: Storage, live: LiveConfig) -> bool:
    """An admin opens events; a registered player too where ``[events] players_create`` is on."""
    if moderation.role_of(name) == ADMIN:
        return True
    return live.current.players_create_events and storage.accounts.is_registered(name)


def moderation_for(storage: Storage, clock: IReactorTime, config: ServerConfig) -> Moderation:
    """The roles and sanctions kept in ``storage``, with the config's admin and reserved names."""
    return Moderation(storage.community, storage.accounts, storage.admins, clock, config.admin_names,
                      config.uncapped, config.reserved)


def _commit(storage: Storage, counters: Counters) -> Deferred | None:
    """The outbox's settle: the games' pending journal steps are committed before anyone hears
    of them; a commit that had something to do is timed (a refusal of the fence is the
    service's to tell: `_fencing`)."""
    if not storage.pending:
        return None
    began = perf_counter()
    try:
        storage.commit()
    except Exception:
        if storage.fenced:
            return None
        counters.commit_failed = True
        log.failure("cannot commit the games' latest steps; those games play on but will not"
                    " survive a restart")
    else:
        counters.commit_failed = False
        counters.commits.observe(perf_counter() - began)
    return None


#: why a fenced process stops serving, as its log says
REFUSED = "the database refused a commit: another process took it over"


def _fencing(settle: Callable[[], Deferred | None], storage: Storage,
             fenced: Callable[[str], None] | None) -> Callable[[], Deferred | None]:
    """The outbox's ``settle`` watching for the fence: once the database refused a write because
    another process took it over (`Storage.fenced`, set by the write guard), ``fenced`` hears of
    it before anything waiting for that commit is written (the service drops it: never told)."""
    if fenced is None:
        return settle

    def check(result: object) -> object:
        if storage.fenced:
            fenced(REFUSED)
        return result

    def settle_fenced() -> Deferred | None:
        if storage.fenced:
            fenced(REFUSED)
            return None
        waiting = settle()
        if waiting is None:
            return check(None)  # type: ignore[return-value]  # (None)
        return waiting.addCallback(check)  # first: before the outbox writes what waited

    return settle_fenced


class TichuService(Service):
    """Listens on every configured listener (by its kind, ``net.kinds``); all feed one lobby."""

    log = Logger()
    name = "bswtichu"  # type: ignore[assignment]  # Service's None has no type; IService's name is a str

    def __init__(self, config: ServerConfig, reactor, games: GameWiring | None = None, lease: Lease | None = None):
        self.config = config
        #: (port name, kind, endpoint) per listener; a name is its kind, "-2", "-3"... for more
        self.listeners = _named([(kind_named(l.kind), l.endpoint) for l in config.listeners])
        self.reactor = reactor
        #: what the server counts (a given game wiring's own counters, if it has one; else it counts here)
        self.counters = games.counters if games is not None and games.counters is not None else Counters()
        if games is not None:
            games.counters = self.counters
        if games is None:
            storage = Storage.open(config.database, config.synchronous, lease=lease)
            bots = BotSettings() if config.expert_budget is None else BotSettings(
                expert_budget=config.expert_budget)
            levels = frozenset(level.strip() for level in config.worker_levels.split(",") if level.strip())
            workers = BotWorkers(reactor, config.worker_count, levels) if config.worker_count else None
            games = GameWiring(reactor, GameLogStore(config.log_folder), config.bot_delay,
                               config.reconnect_grace, storage=storage, bot_settings=bots,
                               counters=self.counters, workers=workers)
        self.games = games
        #: the threads that hash passwords (started and stopped with the service)
        self.hasher = PoolHasher(reactor, config.password_threads)
        #: the database the lobby and the games keep (an in-memory one for games given without)
        self.storage = storage = games.storage if games.storage is not None else Storage.open()
        #: PostgreSQL's journal commits, off the reactor (None on SQLite: its commits are microseconds)
        self.writer = BatchWriter(reactor, storage, self.counters) if storage.engine == "postgresql" else None
        #: where /history, /stats and /top read: a pool of threads on PostgreSQL, at once on SQLite
        self.reads = Reads(storage, reactor=reactor)
        moderation = moderation_for(storage, reactor, config)
        self.lobby = build_lobby(reactor, config, games, games.logs, storage=storage,
                                 later=lambda flush: reactor.callLater(0, flush), counters=self.counters,
                                 stop=self._stop, hasher=self.hasher, moderation=moderation, writer=self.writer,
                                 reads=self.reads, fenced=self._fenced)
        #: every listener's connections, counted per address and timed from accept on
        self.guard = AcceptGuard(self.lobby.config, reactor)
        #: answers ``bswtichu admin`` (SIGUSR2, `admin_requested`)
        self.operator = operator_desk(moderation, self.lobby.names)
        self.ports: dict[str, IListeningPort] = {}
        self.factories: list[object] = []  # one per listener, as built at the start
        #: why the server stops, for everyone's goodbye (an admin's /shutdown reason)
        self.goodbye = "the server is shutting down"
        self._outcome: object = None  # ports dict or Failure, once every attempt settled
        self._waiting: list[Deferred] | None = None
        #: fails with SystemExit(FENCED_EXIT) when another process took the database (the
        #: command line waits for it: `bswtichu.cli.serve`)
        self.ended: Deferred = Deferred()
        #: why this process stopped serving, once it lost the database (None: it has not)
        self.lost: str | None = None
        lock = storage.lock
        #: renews the PostgreSQL lease (None on SQLite, whose file lock needs no renewing)
        self.keeper = LeaseKeeper(lock, reactor, config.renew_seconds, self._fenced) \
            if isinstance(lock, Lease) else None

    def startService(self) -> None:
        super().startService()
        _freeze_what_lives_forever()
        self.hasher.start()
        if self.keeper is not None:
            self.keeper.start()
        if self.writer is not None:
            self.writer.start()
        self.reads.start()
        if self.games.storage is not None:
            restored = self.games.restore(self.lobby.tables)
            if restored:
                self.log.info("restored {n} unfinished game(s)", n=len(restored))
        # after the games: an event takes its tables' games back (and the deals of those found over)
        self.lobby.events.restore(self.games.over_at_restore)
        attempts = []
        certificate, key = self._certificate()
        for name, kind, description in self.listeners:
            endpoint = serverFromString(self.reactor, tls.with_certificate(description, certificate, key))
            factory = kind.build(self.lobby, self.config, self.reactor)
            self.factories.append(factory)
            attempts.append(self._listen(endpoint, self.guard.wrap(factory, kind.http), description)
                            .addCallback(self._listened, name, description))
        self._waiting = []
        gatherResults(attempts, consumeErrors=True).addBoth(self._settled)

    def _listen(self, endpoint: Any, factory: Any, description: str, tries: int = 0) -> Deferred:
        """Listen at ``endpoint``; a process that took the database over from one still alive
        (paused, its ports still open on this host) tries again every renewal interval while
        the port is in use, for as long as two leases (the old one exits once it runs again)."""
        most = int(2 * self.config.lease_seconds / self.config.renew_seconds)

        def in_use(failure: Failure) -> Deferred | Failure:
            error = failure.value
            if self.keeper is None or tries >= most or not failure.check(CannotListenError) \
                    or getattr(error.socketError, "errno", None) != errno.EADDRINUSE:
                return failure
            if tries == 0:
                self.log.warn("{where} is still in use (by the process this one took over from?);"
                              " trying again", where=description, event="port_in_use")
            return deferLater(self.reactor, self.config.renew_seconds, self._listen, endpoint, factory,
                              description, tries + 1)

        return endpoint.listen(factory).addErrback(in_use)

    def _certificate(self) -> tuple[Path, Path]:
        """The certificate and key for the ``ssl:`` listeners that name none: ``[tls]``'s, or
        the self-signed pair in the data folder, made (and said so) if it is not there yet."""
        certificate, key, configured = self.config.tls_files()
        needed = any(description.startswith("ssl:") and not tls.names_its_certificate(description)
                     for _, _, description in self.listeners)
        if needed and not configured and not (certificate.exists() and key.exists()):
            tls.make_self_signed(certificate, key)
            self.log.info("made a self-signed TLS certificate {certificate} (key {key}, readable by"
                          " you only) for the TLS ports; clients must accept it once, or set [tls]"
                          " certificate and key to a real pair (e.g. from Let's Encrypt)",
                          certificate=str(certificate), key=str(key))
        return certificate, key

    def _settled(self, result: object) -> None:
        if isinstance(result, Failure):
            result = result.value.subFailure if result.check(FirstError) else result
        else:
            result = self.ports
        self._outcome = result
        waiting, self._waiting = self._waiting, None
        for waiter in waiting or ():
            self._fire(waiter)

    def _fire(self, waiter: Deferred) -> None:
        if isinstance(self._outcome, Failure):
            waiter.errback(self._outcome)
        else:
            waiter.callback(self._outcome)

    def _listened(self, port: IListeningPort, name: str, description: str) -> IListeningPort:
        self.ports[name] = port
        self.guard.watch(port)
        return port

    def describe(self) -> str:
        """Where people and bots connect and where game logs go, in one line (once listening):
        the ports grouped by who connects, e.g. ``people: telnet 127.0.0.1:4242; bots:
        127.0.0.1:4243; logs in logs/``; a TLS port is marked ``(TLS)``, a web one is a URL."""
        groups: dict[str, list[str]] = {}
        for name, kind, description in self.listeners:
            host: Any = self.ports[name].getHost()  # an IP address or a UNIX one: IAddress names nothing
            where = f"{host.host}:{host.port}" if hasattr(host, "port") else f"unix {os.fsdecode(host.name)}"
            secure = description.startswith("ssl:")
            if kind.web and hasattr(host, "port"):
                where = f"{'https' if secure else 'http'}://{where}/"
            elif secure:
                where += " (TLS)"
            groups.setdefault(kind.audience, []).append(" ".join(filter(None, (kind.label, where))))
        ports = "; ".join(f"{audience}: {', '.join(wheres)}" for audience, wheres in groups.items())
        return f"{ports}; logs in {self.config.log_folder}/"

    def whenListening(self) -> Deferred:
        """Fires with ``ports`` (port name -> listening port: {"telnet": port, "line": port} for
        the default config) once all listen, or fails with the first reason one cannot."""
        if self._outcome is None and self._waiting is None:
            raise RuntimeError("the service has not been started")
        waiter: Deferred = Deferred()
        if self._waiting is not None:
            self._waiting.append(waiter)
        else:
            self._fire(waiter)
        return waiter

    def reload(self, new: ServerConfig) -> None:
        """Apply the settings of `LIVE_FIELDS` from ``new`` without dropping anyone, and say
        in the log what changed (and which changes wait for a restart). A port's limits count
        for the connections that come after; connections open keep theirs."""
        old = self.lobby.config.current
        changed = [f.name for f in dataclasses.fields(ServerConfig) if getattr(old, f.name) != getattr(new, f.name)]
        applied = [name for name in changed if name in LIVE_FIELDS]
        waiting = [name for name in changed if name not in LIVE_FIELDS]
        current = old.replace(**{name: getattr(new, name) for name in applied})
        self.lobby.config.current = current
        for factory in self.factories:
            if isinstance(factory, LobbyFactory):
                factory.config = current
        said = ", ".join(f"{name} {getattr(old, name)!r} -> {getattr(new, name)!r}" for name in applied)
        self.log.info("config reloaded: {changes}{later}", changes=said or "nothing changed",
                      later=f"; a restart is needed for {', '.join(waiting)}" if waiting else "",
                      event="config_reloaded", applied=applied, waiting=waiting)

    def backup_requested(self) -> None:
        """``bswtichu backup FILE`` asks (SIGUSR1): copy the database to the FILE it left in the
        request file, with SQLite's online backup API (committed steps; the games go on after)."""
        storage = self.storage
        request = backup.request_path(self.config.database)
        try:
            target = request.read_text(encoding="utf-8").strip()
            request.unlink()
            storage.commit()
            began = perf_counter()
            backup.copy(storage.db, target)
        except Exception as error:
            self.log.error("the backup asked for cannot be made: {error}", error=repr(error),
                           event="backup_failed")
        else:
            self.log.info("database backed up to {target} in {seconds:.3f} s", target=target,
                          seconds=perf_counter() - began, event="backup")

    def admin_requested(self) -> None:
        """``bswtichu admin`` asks (SIGUSR2): apply the request it left beside the database
        (`storage.admins`) and leave the answer for it; the request file goes at once (it
        holds a password hash)."""
        request_file = admins.request_path(self.config.database)
        try:
            request = json.loads(request_file.read_text(encoding="utf-8"))
            request_file.unlink()
        except (OSError, ValueError) as error:
            self.log.error("bswtichu admin's request cannot be read: {error}", error=repr(error),
                           event="admin_request_failed")
            return
        try:
            with self.lobby.outbox:  # a claimed name's holder is told why before he is closed
                reply = {"ok": True, "text": self.operator(request)}
        except Refusal as refusal:
            reply = {"ok": False, "text": refusal.message}
        except Exception as error:  # a request not of bswtichu admin's making
            self.log.error("bswtichu admin's request cannot be applied: {error}", error=repr(error),
                           event="admin_request_failed")
            reply = {"ok": False, "text": f"the request cannot be applied: {error!r}"}
        if reply["ok"] and request.get("action") != "list":
            self.log.info("bswtichu admin: {text}", text=reply["text"], event="admin_changed")
        try:
            admins.write_owner_only(admins.reply_path(self.config.database), reply)
        except OSError as error:
            self.log.error("bswtichu admin's answer cannot be written: {error}", error=repr(error),
                           event="admin_request_failed")

    def _fenced(self, reason: str) -> None:
        """Another process owns the database now (this one was paused or cut off past its lease):
        stop serving at once.  Nothing pending is told; everyone gets one line and is
        disconnected (`stopService`), and the process exits with `FENCED_EXIT`."""
        self.lobby.outbox.drop()
        if self.lost is not None:
            return
        self.lost = reason
        self.storage.fenced = True
        if self.keeper is not None:
            self.keeper.stop()
        self.goodbye = "this server lost its database to another one; reconnect to carry on"
        self.log.critical("this process lost the database and stops serving (exit {code}): {reason}",
                          code=FENCED_EXIT, reason=reason, event="fenced")
        self.reactor.callLater(0, self.ended.errback, Failure(SystemExit(FENCED_EXIT)))

    def _stop(self, reason: str) -> None:
        """An admin's /shutdown has run out: stop the reactor (stopService says goodbye)."""
        self.goodbye = reason
        self.reactor.stop()

    def stopService(self) -> Deferred:
        super().stopService()
        self.log.info("bswtichu stops: the ports close and everyone is told", event="server_stop")
        self.lobby.shutdown(self.goodbye)
        self.hasher.stop()
        if self.keeper is not None:
            self.keeper.stop()
        self.reads.stop()
        stopping = [port.stopListening() for port in self.ports.values()]
        self.ports = {}
        if self.writer is not None:  # the storage closes once the last batch is committed
            stopping.append(self.writer.stop().addCallback(lambda _: self._close_storage()))
        else:
            self._close_storage()
        return DeferredList([d for d in stopping if d is not None])

    def _close_storage(self) -> None:
        if self.games.storage is not None:
            self.games.storage.close()
        if self.games.workers is not None:
            self.games.workers.close()


def _named(listeners: list[tuple[ListenerKind, str]]) -> tuple[tuple[str, ListenerKind, str], ...]:
    """Each listener with its port's name: its kind's name, and "-2", "-3"... for the kind's
    later ones (so ``ports["telnet"]`` is the first telnet port)."""
    seen: dict[str, int] = {}
    named = []
    for kind, endpoint in listeners:
        seen[kind.name] = seen.get(kind.name, 0) + 1
        count = seen[kind.name]
        named.append((kind.name if count == 1 else f"{kind.name}-{count}", kind, endpoint))
    return tuple(named)


#: Allocations (less deallocations) between two collections of the youngest generation
#: (Python's default: 700). Finished games are freed by reference counting (no cycles),
#: so the collector has little to find: at the default it still ran every hundred or so
#: game actions and made full passes over every live object now and then (2.6-2.8 us
#: per action in the domain bench, and full passes of 30-50 ms at 250 tables); at this,
#: once in 120,000 actions (docs/server-speed.md, fifth pass).
YOUNG_COLLECTION_THRESHOLD = 10_000


def _freeze_what_lives_forever() -> None:
    """Move what exists at the first start (modules, the engine's and bots' tables, the lobby)
    out of the cyclic garbage collector's reach, once per process; then let the youngest
    generation grow to `YOUNG_COLLECTION_THRESHOLD` before it is collected.

    The collector still runs as objects are allocated, and its full passes, however
    rare, walked everything the server built at start again (docs/server-speed.md: a
    quarter of the CPU per action at 250 tables, when finished games still left cycles).
    Done before restoring games, so those can still be collected.
    """
    if not gc.get_freeze_count():
        gc.collect()
        gc.freeze()
        gc.set_threshold(YOUNG_COLLECTION_THRESHOLD, *gc.get_threshold()[1:])


class LeaseKeeper:
    """Renews this process's lease on the database every ``every`` seconds of ``clock``; tells
    ``lost(reason)`` once if another process took it (`Fenced`), or if no renewal went through
    for a whole lease (cut off from the database: a standby may hold it by now)."""

    def __init__(self, lease: Lease, clock: IReactorTime, every: float, lost: Callable[[str], None]):
        self.lease = lease
        self.clock = clock
        self.every = every
        self.lost = lost
        self.renewed = clock.seconds()
        self.loop = LoopingCall(self.renew)
        self.loop.clock = clock

    def start(self) -> None:
        self.renewed = self.clock.seconds()
        self.loop.start(self.every, now=False)

    def stop(self) -> None:
        if self.loop.running:
            self.loop.stop()

    def renew(self) -> None:
        try:
            self.lease.renew()
        except Fenced as error:
            self.lost(str(error))
        except self.lease.connection.Error as error:
            if self.clock.seconds() - self.renewed >= self.lease.length:
                self.lost(f"its lease could not be renewed for {self.lease.length:g} s ({error});"
                          " another process may own the database")
            else:
                log.warn("the lease on the database could not be renewed: {error}", error=repr(error),
                         event="lease_renewal_failed")
        else:
            self.renewed = self.clock.seconds()


async def standby(reactor: IReactorTime, config: ServerConfig) -> Lease | None:
    """Wait until this process holds the database's lease (PostgreSQL; None at once on SQLite,
    whose file lock refuses a second process).  While another holds it this process is a
    standby: it opens no listeners and says so, and tries again every renewal interval."""
    if not is_url(config.database):
        return None
    connection = open_postgres(config.database, own=False)
    said = False
    while True:
        try:
            taken = Lease.take(connection, config.lease_seconds)
        except BaseException:
            connection.close()
            raise
        if isinstance(taken, Lease):
            if said:
                log.info("standby: took the database over (epoch {epoch}); restoring its games",
                         epoch=taken.epoch, event="took_over")
            return taken
        if not said:
            log.info("standby: another bswtichu ({holder}, epoch {epoch}) holds the database {url}; this"
                     " one opens no listeners and takes over when that one's lease runs out",
                     holder=taken.holder, epoch=taken.epoch, url=redacted(config.database), event="standby")
            said = True
        await deferLater(reactor, config.renew_seconds)


def makeService(config: ServerConfig, reactor=None, games: GameWiring | None = None,
                lease: Lease | None = None) -> TichuService:
    """The bswtichu service for ``config`` (``reactor`` defaults to the global one).

    ``games`` replaces the game wiring built from ``config`` (tests seed their games so);
    ``lease``: the PostgreSQL database's, which `standby` waited for.
    """
    if reactor is None:
        from twisted.internet import reactor
    return TichuService(config, reactor, games, lease)
