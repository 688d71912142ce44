"""The ``bswtichu`` command: run the server, or hand over to the replay and match tools."""

from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys
from collections.abc import Callable, Sequence

from twisted.internet.defer import Deferred
from twisted.logger import (
    FileLogObserver, FilteringLogObserver, ILogObserver, LogLevel, LogLevelFilterPredicate, Logger, PredicateResult,
    formatEvent, formatTime, globalLogBeginner, jsonFileLogObserver,
)

from bswtichu import __version__
from bswtichu.config import (
    DEFAULT_CONFIG_PATH, KIND_NAME, LISTEN_SECTION, OTHER_TOOLS_SECTIONS, ConfigError, Listener,
    ServerConfig, listen_setting, load_config, setting,
)

log = Logger()

# subcommand -> module whose main(argv) does the work (imported only when used)
DELEGATES = {
    "replay": ("bswtichu.tch.replay", "replay a recorded game log (.tch, or .tvl for a variant)"),
    "match": ("bswtichu.play.match", "let bots play matches against each other"),
    "irc": ("bswtichu.irc.cli", "relay games to an IRC channel (see docs/clients.md)"),
}
# subcommand run here -> help
OPERATOR_TOOLS = {
    "backup": "a copy of the database: bswtichu backup FILE (also while the server runs)",
    "admin": "make, list or remove admins: bswtichu admin add NAME (docs/moderation.md)",
    "port-db": "copy a SQLite database into an empty PostgreSQL one: bswtichu port-db SQLITE URL",
}
#: the options a tool also takes when they come before its name (``bswtichu --database F backup
#: OUT``); any other option there is refused, saying to put it after the subcommand
OPTIONS_BEFORE = {"backup": ("config", "database"), "admin": ("config", "database"), "irc": ("config", "set")}

#: what an endpoint is, for the flags that take one
ENDPOINT_WORDS = ("a Twisted endpoint string: tcp:PORT:interface=ADDRESS (without interface="
                  " every interface), ssl:PORT:privateKey=KEY.pem:certKey=CERT.pem:interface=ADDRESS,"
                  " or unix:PATH")

# command-line shortcut -> (listener kind it sets, help): it replaces that kind's listeners
LISTENER_SHORTCUTS = {
    "--telnet": ("telnet", "the telnet port for people, e.g. tcp:4242:interface=127.0.0.1"
                           " (replaces the config's telnet listeners)"),
    "--line": ("line", "the bot line port, e.g. tcp:4243:interface=127.0.0.1"
                       " (replaces the config's line listeners)"),
}

# command-line flag -> (ServerConfig field, type, metavar, help)
SERVE_FLAGS = {
    "--max-line-length": ("max_line_length", int, "BYTES", "longest accepted input line"),
    "--flood-rate": ("flood_rate", float, "N", "lines per second a client may send"),
    "--flood-burst": ("flood_burst", int, "N", "lines a client may send at once"),
    "--line-flood-rate": ("line_flood_rate", float, "N", "lines per second a bot-port client may send"),
    "--line-flood-burst": ("line_flood_burst", int, "N", "lines a bot-port client may send at once"),
    "--idle-timeout": ("idle_timeout", float, "SECONDS", "hang up after this long without input (0: never)"),
    "--reconnect-grace": ("reconnect_grace", float, "SECONDS", "how long a seat is held before the start"),
    "--log-folder": ("log_folder", str, "DIR", "folder for game logs"),
    "--bot-delay": ("bot_delay", float, "SECONDS", "how long a bot waits before it acts"),
    "--abandon-after": ("abandon_after", float, "SECONDS",
                        "how long a started game waits for a person to come back"),
    "--database": ("database", str, "FILE|URL", "where accounts, games and ratings are kept: a SQLite"
                   " file, or a PostgreSQL database's postgresql://USER@HOST/NAME (docs/operating.md)"),
    "--expert-budget": ("expert_budget", int, "N", "playouts per decision of the expert bots"),
    "--log-format": ("log_format", str, "text|json",
                     "the server's log: lines a person reads (text), or one JSON event a line (json)"),
}


def _serve_options() -> argparse.ArgumentParser:
    """The serve flags, shared by ``bswtichu`` and ``bswtichu serve``.

    Defaults are SUPPRESS so a flag given before the subcommand is not reset by it.
    """
    options = argparse.ArgumentParser(add_help=False)
    options.add_argument(
        "--config",
        metavar="FILE",
        default=argparse.SUPPRESS,
        help=f"ini file to read (default: {DEFAULT_CONFIG_PATH} if it exists, else built-in defaults)",
    )
    for flag, (_, text) in LISTENER_SHORTCUTS.items():
        options.add_argument(flag, default=argparse.SUPPRESS, metavar="ENDPOINT", help=text)
    for flag, (_, kind, metavar, text) in SERVE_FLAGS.items():
        options.add_argument(flag, type=kind, default=argparse.SUPPRESS, metavar=metavar, help=text)
    return options


def listener_flag(text: str) -> Listener:
    """``--listen KIND=ENDPOINT`` as a Listener (whether the kind exists, the server says at start)."""
    kind, equals, endpoint = text.partition("=")
    kind, endpoint = kind.strip(), endpoint.strip()
    if not (equals and KIND_NAME.match(kind) and endpoint):
        raise argparse.ArgumentTypeError(
            f"{text!r}: write KIND=ENDPOINT, e.g. telnet=tcp:4242:interface=127.0.0.1")
    return Listener(kind, endpoint)


def _add_set_flag(parser: argparse.ArgumentParser, dest: str) -> None:
    """``--set`` on ``parser``; before and after ``serve`` under two names, since a subcommand's
    values replace the main parser's (both lists apply)."""
    parser.add_argument(
        "--set", action="append", dest=dest, default=argparse.SUPPRESS, metavar="SECTION.KEY=VALUE",
        help="any setting of the config file, e.g. --set limits.max_tables=100 (repeatable;"
        " applied after the other flags)",
    )


def _add_listen_flag(parser: argparse.ArgumentParser, dest: str) -> None:
    """``--listen`` on ``parser``, under two names as ``--set`` (both lists apply)."""
    from bswtichu.net.kinds import KINDS  # only when the parser is built, not for a tool

    parser.add_argument(
        "--listen", action="append", type=listener_flag, dest=dest, default=argparse.SUPPRESS,
        metavar="KIND=ENDPOINT",
        help="one more listener (repeatable), e.g. --listen line=tcp:4300:interface=127.0.0.1;"
        f" kinds: {', '.join(KINDS)}; ENDPOINT is {ENDPOINT_WORDS}",
    )


def build_parser() -> argparse.ArgumentParser:
    serve_options = _serve_options()
    parser = argparse.ArgumentParser(
        prog="bswtichu",
        description="A BrettspielWelt-style Tichu server. Without a subcommand it serves:"
        " people connect with telnet to the telnet port, bots to the line port"
        " (see docs/PROTOCOL.md).",
        parents=[serve_options],
        epilog="examples: bswtichu | bswtichu --telnet tcp:4000:interface=127.0.0.1"
        " --line tcp:4001:interface=127.0.0.1 (people on port 4000, bots on 4001, reachable"
        " from this machine only; tcp:4000 alone would listen on every interface) |"
        " bswtichu --listen telnet=ssl:4244:privateKey=key.pem:certKey=cert.pem:interface=127.0.0.1"
        " (one more telnet port, over TLS) |"
        " bswtichu replay --help | bswtichu match --help | bswtichu irc --help |"
        " bswtichu backup FILE (a copy of the database, also while the server runs) |"
        " bswtichu admin add NAME (the operator makes NAME an admin)",
    )
    parser.add_argument("--version", action="version", version=f"bswtichu {__version__}")
    _add_listen_flag(parser, "listen")
    _add_set_flag(parser, "set")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    serve = commands.add_parser(
        "serve", parents=[serve_options], help="run the server (the default)",
        description="Run the server until Ctrl-C or SIGTERM.",
    )
    _add_listen_flag(serve, "listen_after_serve")
    _add_set_flag(serve, "set_after_serve")
    tools = {name: text for name, (_, text) in DELEGATES.items()} | OPERATOR_TOOLS
    for name, text in tools.items():
        delegate = commands.add_parser(name, help=text, add_help=False)
        delegate.add_argument("args", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    return parser


def config_from(args: argparse.Namespace) -> ServerConfig:
    """The config file's settings with the command-line flags on top: the shortcuts, the
    other flags and ``--set``'s settings, then ``--listen``'s listeners, then ``--set``'s
    ``listen.KIND`` (which replaces that kind's listeners)."""
    config = load_config(getattr(args, "config", None))
    for flag, (kind, _) in LISTENER_SHORTCUTS.items():
        if hasattr(args, flag[2:]):
            config = config.listening(kind, (getattr(args, flag[2:]),))
    changes = {
        field: getattr(args, flag[2:].replace("-", "_"))
        for flag, (field, _, _, _) in SERVE_FLAGS.items()
        if hasattr(args, flag[2:].replace("-", "_"))
    }
    listens = []
    for text in getattr(args, "set", []) + getattr(args, "set_after_serve", []):
        name, equals, raw = text.partition("=")
        section, dot, key = name.strip().partition(".")
        if not (equals and dot and section and key):
            raise ConfigError(f"--set {text}: write SECTION.KEY=VALUE, e.g. limits.max_tables=100")
        if section in OTHER_TOOLS_SECTIONS:
            raise ConfigError(f"--set {text}: [{section}] is read by another tool, not the server;"
                              f" give it to that tool (bswtichu {section} --help)")
        section, key = section.strip(), key.strip()
        if section == LISTEN_SECTION:
            listens.append(listen_setting(key, raw, "--set"))
        else:
            field, value = setting(section, key, raw, "--set")
            changes[field] = value
    if changes:  # at once: one limit may only be valid beside another's new value
        config = config.replace(**changes)
    for listener in getattr(args, "listen", []) + getattr(args, "listen_after_serve", []):
        config = config.adding(listener)
    for kind, endpoints in listens:
        config = config.listening(kind, endpoints)
    return config


def run_tool(name: str, argv: list[str]) -> int:
    """Run a subcommand other than serve with its own arguments."""
    if name == "backup":
        return backup_command(argv)
    if name == "admin":
        return admin_command(argv)
    if name == "port-db":
        return port_db_command(argv)
    return run_delegate(name, argv)


class _OptionsOnly(argparse.ArgumentParser):
    """The main parser's options alone: a mistake is an exception, not an exit."""

    def error(self, message: str):
        raise ValueError(message)


def split_at_tool(argv: list[str]) -> tuple[argparse.Namespace, str, list[str]] | None:
    """``argv`` as (the options before the subcommand, its name, its own arguments) if it names
    a subcommand other than serve after nothing but the main parser's options; else None."""
    options = _OptionsOnly(add_help=False, parents=[_serve_options()])
    _add_listen_flag(options, "listen")
    _add_set_flag(options, "set")
    for at, word in enumerate(argv):
        if word in DELEGATES or word in OPERATOR_TOOLS:
            try:
                return options.parse_args(argv[:at]), word, argv[at + 1:]
            except ValueError:
                continue  # the word is an option's value (--log-folder match), or a mistake comes first
    return None


def options_before(command: str, args: argparse.Namespace) -> list[str] | None:
    """The options given before ``command`` as its own arguments, or None (and why, said on
    standard error) if one of them is not its."""
    given = vars(args)
    foreign = [f"--{dest.replace('_', '-')}" for dest in given if dest not in OPTIONS_BEFORE.get(command, ())]
    if foreign:
        print(f"bswtichu: {', '.join(foreign)} before {command} {'is' if len(foreign) == 1 else 'are'} the"
              f" server's; a subcommand's options go after it: bswtichu {command} [OPTIONS]"
              f" (bswtichu {command} --help)", file=sys.stderr)
        return None
    passed: list[str] = []
    for dest, value in given.items():
        for one in value if isinstance(value, list) else [value]:
            passed += [f"--{dest}", one]
    return passed


def run_delegate(name: str, argv: list[str]) -> int:
    """Import the subcommand's module only now, and run its main(argv)."""
    module_name = DELEGATES[name][0]
    try:
        module = importlib.import_module(module_name)
        entry = module.main
    except (ImportError, AttributeError) as e:
        print(f"bswtichu {name}: not available ({module_name}: {e})", file=sys.stderr)
        return 2
    result = entry(argv)
    return result if isinstance(result, int) else 0


async def serve(reactor, config: ServerConfig, reread: Callable[[], ServerConfig]) -> None:
    """Run the service until the reactor stops (Ctrl-C, SIGTERM or an admin's /shutdown stop it
    cleanly); SIGHUP reads the config again (``reread``: the file and the flags on top) and
    applies its limits (`TichuService.reload`)."""
    from bswtichu.service import makeService
    from bswtichu.storage import DatabaseError

    try:
        service = makeService(config, reactor)
    except (ConfigError, DatabaseError) as e:
        log.critical("bswtichu cannot start: {error}", error=e)
        raise SystemExit(1)
    try:
        service.startService()
        await service.whenListening()
    except Exception as e:
        log.critical("bswtichu cannot start: {error}", error=e)
        await service.stopService()
        raise SystemExit(1)
    reactor.addSystemEventTrigger("before", "shutdown", service.stopService)

    def reload() -> None:
        try:
            service.reload(reread())
        except ConfigError as e:
            log.error("SIGHUP: the config is not reloaded, the settings stay as they were: {error}",
                      error=e, event="config_reload_failed")

    signal.signal(signal.SIGHUP, lambda number, frame: reactor.callFromThread(reload))
    signal.signal(signal.SIGUSR1, lambda number, frame: reactor.callFromThread(service.backup_requested))
    signal.signal(signal.SIGUSR2, lambda number, frame: reactor.callFromThread(service.admin_requested))
    log.info("bswtichu {version}: {where}. Ctrl-C stops it.", version=__version__,
             where=service.describe(), event="server_start")
    await Deferred()  # never fires: react ends when the reactor is stopped


def log_line(event: dict) -> str:
    """One log event as a line a person reads: the time, a level if it is not just news, the text."""
    level = event.get("log_level", LogLevel.info)
    mark = "" if level in (LogLevel.info, LogLevel.debug) else f"{level.name.upper()}: "
    text = formatEvent(event)
    failure = event.get("log_failure")
    if failure is not None:
        text += "\n" + failure.getTraceback()
    return f"{formatTime(event.get('log_time'), '%H:%M:%S')} {mark}{text}\n"


def without_reactor_chatter(event: dict) -> PredicateResult:
    """Drop Twisted's own news ("... starting on 4242", "Port closed"); keep its warnings and errors."""
    if event.get("log_namespace") == "log_legacy" and event.get("log_level") == LogLevel.info \
            and not event.get("isError"):
        return PredicateResult.no
    return PredicateResult.maybe


def log_observer(config: ServerConfig, stream=None):
    """Where the server's log goes (``stream``, standard output) and how: ``log_format`` text
    or JSON (one event a line, every field of it, the sentence in ``message``; ``event`` names
    what happened, docs/operating.md), events from ``log_level`` up."""
    stream = stream if stream is not None else sys.stdout
    write: ILogObserver
    if config.log_format == "text":
        write = FileLogObserver(stream, log_line)
    else:
        json_lines = jsonFileLogObserver(stream, recordSeparator="")
        write = lambda event: json_lines({**event, "message": formatEvent(event)})  # type: ignore[assignment]  # noqa: E731  # Twisted takes a callable as an observer
    level = LogLevelFilterPredicate(LogLevel.levelWithName(config.log_level))
    return FilteringLogObserver(write, [without_reactor_chatter, level])  # type: ignore[list-item]  # a callable as a predicate, as Twisted takes it


#: how long ``bswtichu backup`` waits for the running server's copy
BACKUP_TIMEOUT = 120.0


def backup_command(argv: list[str]) -> int:
    """``bswtichu backup FILE``: a consistent copy of the database, also while the server runs."""
    import time
    from pathlib import Path

    from bswtichu.storage import DatabaseError, backup, is_url

    parser = argparse.ArgumentParser(
        prog="bswtichu backup", description="Copy the server's SQLite database to FILE with SQLite's"
        " online backup API, also while the server runs (it makes the copy when asked; see"
        " docs/operating.md).")
    parser.add_argument("file", metavar="FILE", help="the copy to write (replaced if it exists)")
    parser.add_argument("--config", metavar="FILE", default=None, help="the server's ini file (for its database)")
    parser.add_argument("--database", metavar="FILE", default=None, help="the database (default: the config's)")
    args = parser.parse_args(argv)
    try:
        database = args.database or load_config(args.config).database
        if is_url(database):
            raise DatabaseError("a PostgreSQL database is backed up with pg_dump, not bswtichu backup"
                                " (docs/operating.md)")
        target = Path(args.file).resolve()
        pid = backup.server_pid(database)
        if pid is None:
            backup.copy_file(database, target)
        else:
            target.unlink(missing_ok=True)
            backup.request_path(database).write_text(str(target), encoding="utf-8")
            os.kill(pid, signal.SIGUSR1)
            deadline = time.monotonic() + BACKUP_TIMEOUT
            while not target.exists():
                if time.monotonic() > deadline:
                    print(f"bswtichu backup: the server (process {pid}) made no copy in"
                          f" {BACKUP_TIMEOUT:.0f} s; see its log", file=sys.stderr)
                    return 1
                time.sleep(0.05)
    except (ConfigError, DatabaseError, OSError) as e:
        print(f"bswtichu backup: {e}", file=sys.stderr)
        return 1
    print(f"bswtichu backup: {database} copied to {target}"
          + (f" by the running server (process {pid})" if pid is not None else ""))
    return 0


#: how long ``bswtichu admin`` waits for the running server's answer
ADMIN_TIMEOUT = 30.0


def admin_command(argv: list[str]) -> int:
    """``bswtichu admin add|remove NAME``, ``bswtichu admin list``: the operator makes admins
    (docs/moderation.md), whether the server runs or not."""
    from bswtichu.server.text.messages import Refusal
    from bswtichu.server.people.moderation import claimable_name
    from bswtichu.storage import DatabaseError, backup
    from bswtichu.storage.accounts import hash_password

    where = argparse.ArgumentParser(add_help=False)  # before or after the action
    where.add_argument("--config", metavar="FILE", default=argparse.SUPPRESS,
                       help="the server's ini file (for its database and [admin] admins)")
    where.add_argument("--database", metavar="FILE", default=argparse.SUPPRESS,
                       help="the database (default: the config's)")
    parser = argparse.ArgumentParser(
        prog="bswtichu admin", parents=[where], description="Make, list or remove the server's admins."
        " Only a name claimed here is an admin; one listed in [admin] admins is kept for you until"
        " you claim it. Works while the server runs (it applies the change at once) and while it"
        " is stopped.")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    add = actions.add_parser("add", parents=[where], help="make NAME an admin with a password you choose"
                             " (asked twice, not shown; one line on standard input when that is not a"
                             " terminal); an account of that name gets this password")
    add.add_argument("name", metavar="NAME")
    remove = actions.add_parser("remove", parents=[where], help="NAME is an admin no more (the account stays)")
    remove.add_argument("name", metavar="NAME")
    actions.add_parser("list", parents=[where], help="the admins, and the listed names not claimed yet")
    args = parser.parse_args(argv)
    try:
        config = load_config(getattr(args, "config", None))
        database = getattr(args, "database", None) or config.database
        request: dict = {"action": args.action}
        if args.action != "list":
            request["name"] = claimable_name(args.name)
        if args.action == "add":
            request["password"] = hash_password(new_password(request["name"]))
        pid = backup.server_pid(database)
        answer = admin_here(database, config, request) if pid is None else admin_by_server(database, pid, request)
    except Refusal as refusal:
        print(f"bswtichu admin: {refusal.message}", file=sys.stderr)
        return 1
    except (ConfigError, DatabaseError, OSError, EOFError) as e:
        print(f"bswtichu admin: {e}", file=sys.stderr)
        return 1
    print(answer)
    return 0


def port_db_command(argv: list[str]) -> int:
    """``bswtichu port-db SQLITE URL``: the SQLite database copied into an empty PostgreSQL one."""
    from bswtichu.storage import DatabaseError, port

    parser = argparse.ArgumentParser(
        prog="bswtichu port-db", description="Copy a SQLite database (accounts, games and their"
        " journals, ratings, moderation) into an empty PostgreSQL database, in one transaction;"
        " stop the server first. Then start it with --database URL (docs/operating.md).")
    parser.add_argument("sqlite", metavar="SQLITE", help="the SQLite file (the config's [storage] database)")
    parser.add_argument("url", metavar="URL", help="the empty PostgreSQL database: postgresql://USER@HOST/NAME")
    args = parser.parse_args(argv)
    try:
        counts = port.port(args.sqlite, args.url)
    except DatabaseError as e:
        print(f"bswtichu port-db: {e}", file=sys.stderr)
        return 1
    print(f"bswtichu port-db: {args.sqlite} copied to {port.redacted(args.url)}: "
          + ", ".join(f"{table} {count}" for table, count in counts.items()))
    return 0


def new_password(name: str) -> str:
    """The admin's password: typed twice without echo at a terminal, else one line of standard input."""
    import getpass

    from bswtichu.server.text.messages import Refusal
    from bswtichu.storage.accounts import password_problem

    if sys.stdin.isatty():
        password = getpass.getpass(f"Password for {name}: ")
        if getpass.getpass("The same again: ") != password:
            raise Refusal("bad_password", "the two passwords differ; nothing changed")
    else:
        line = sys.stdin.readline()
        if not line:
            raise EOFError("no password on standard input (one line)")
        password = line.rstrip("\r\n")
    problem = password_problem(password)
    if problem:
        raise Refusal("bad_password", problem)
    return password


def admin_here(database: str, config: ServerConfig, request: dict) -> str:
    """No server runs: open the database (its lock held meanwhile) and answer the request.
    Only ``add`` makes a database that is not there yet; the others say it is missing."""
    from pathlib import Path

    from twisted.internet import reactor

    from bswtichu.server.people.moderation import operator_desk
    from bswtichu.service import moderation_for
    from bswtichu.storage import DatabaseError, Storage, is_url

    if request["action"] != "add" and not is_url(database) and not Path(database).is_file():
        raise DatabaseError(f"there is no database {database}")
    storage = Storage.open(database, config.synchronous)
    try:
        return operator_desk(moderation_for(storage, reactor, config))(request)
    finally:
        storage.close()


def admin_by_server(database: str, pid: int, request: dict) -> str:
    """The server (process ``pid``) has the database: leave it the request, signal it (SIGUSR2)
    and wait for its answer (`storage.admins`)."""
    import json
    import time

    from bswtichu.server.text.messages import Refusal
    from bswtichu.storage import admins

    request_file, reply_file = admins.request_path(database), admins.reply_path(database)
    reply_file.unlink(missing_ok=True)
    admins.write_owner_only(request_file, request)
    os.kill(pid, signal.SIGUSR2)
    deadline = time.monotonic() + ADMIN_TIMEOUT
    while not reply_file.exists():
        if time.monotonic() > deadline:
            request_file.unlink(missing_ok=True)  # it holds a password hash
            raise OSError(f"the server (process {pid}) did not answer in {ADMIN_TIMEOUT:.0f} s; see its log")
        time.sleep(0.05)
    reply = json.loads(reply_file.read_text(encoding="utf-8"))
    reply_file.unlink()
    if not reply["ok"]:
        raise Refusal("refused", reply["text"])
    return f"{reply['text']} (applied by the running server, process {pid})"


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    tool = split_at_tool(args_list)
    if tool is not None:  # everything after the subcommand is its own, flags and --help included
        before, name, rest = tool
        passed = options_before(name, before)
        return 2 if passed is None else run_tool(name, passed + rest)
    args = build_parser().parse_args(args_list)
    from bswtichu.net.kinds import check_kinds

    try:
        config = config_from(args)
        check_kinds(config)
    except ConfigError as e:
        print(f"bswtichu: {e}", file=sys.stderr)
        return 2
    from twisted.internet import task

    globalLogBeginner.beginLoggingTo([log_observer(config)], redirectStandardIO=False)
    task.react(serve, [config, lambda: config_from(args)])
    return 0  # not reached: react exits
