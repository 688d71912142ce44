"""``bswtichu irc``: run the IRC bridge until Ctrl-C."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from twisted.internet.defer import Deferred
from twisted.logger import Logger, globalLogBeginner, textFileLogObserver

from bswtichu.config import DEFAULT_CONFIG_PATH, ConfigError
from bswtichu.irc.config import SECTION, IrcConfig, boolean, irc_setting, load_irc_config

log = Logger()

# command-line flag -> (IrcConfig field, type, metavar, help)
FLAGS: dict[str, tuple[str, Callable[[str], object], str, str]] = {
    "--server": ("server", str, "HOST:PORT", "the IRC server (default 127.0.0.1:6667)"),
    "--channel": ("channel", str, "CHANNEL", "the channel to play in (default #tichu)"),
    "--nick": ("nick", str, "NICK", "the bridge's IRC nick (default tichubot)"),
    "--game": ("game", str, "HOST:PORT", "the game server's bot line port (default 127.0.0.1:4243)"),
    "--burst": ("burst", int, "N", "lines sent at once before the rate applies (default 5)"),
    "--line-interval": ("line_interval", float, "SECONDS", "seconds per line after the burst (default 2)"),
    "--reconnect-max": ("reconnect_max", float, "SECONDS", "longest wait between reconnects (default 300)"),
    "--tokens-file": ("tokens_file", str, "FILE", "keep guests' resume tokens in FILE across restarts"
                      " (the shipped config/bswtichu.ini says data/irc-tokens.json; without any: in memory only)"),
    "--server-tls": ("server_tls", boolean, "yes|no", "reach the IRC server over TLS (default no)"),
    "--server-ca": ("server_ca", str, "FILE", "PEM certificate(s) to trust for the IRC server"
                    " (default: the system's)"),
    "--game-tls": ("game_tls", boolean, "yes|no", "reach the game server over TLS: --game names its"
                   " TLS line port (default no)"),
    "--game-ca": ("game_ca", str, "FILE", "PEM certificate(s) to trust for the game server, e.g. its"
                  " data/tls-certificate.pem (default: the system's)"),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="bswtichu irc",
        description="Relay bswtichu games to an IRC channel: !join, !start, !play ... in the"
        " channel, any command in a private message. Settings come from the [irc] section of"
        " the config file; flags override them.",
        epilog="example: bswtichu irc --server irc.example.org:6667 --channel '#tichu' --nick tichubot",
    )
    parser.add_argument("--config", metavar="FILE", default=None,
                        help=f"ini file to read (default: {DEFAULT_CONFIG_PATH} if it exists)")
    for flag, (_, kind, metavar, text) in FLAGS.items():
        parser.add_argument(flag, type=kind, default=argparse.SUPPRESS, metavar=metavar, help=text)
    parser.add_argument("--set", action="append", default=[], metavar="irc.KEY=VALUE",
                        help="any setting of the config file's [irc] section, e.g. --set"
                        " irc.game=127.0.0.1:4243 (repeatable; applied after the other flags)")
    return parser


def config_from(args: argparse.Namespace) -> IrcConfig:
    config = load_irc_config(args.config)
    changes = {field: getattr(args, flag[2:].replace("-", "_"))
               for flag, (field, _, _, _) in FLAGS.items()
               if hasattr(args, flag[2:].replace("-", "_"))}
    for text in args.set:
        name, equals, raw = text.partition("=")
        section, dot, key = name.strip().partition(".")
        if not (equals and dot and key.strip()):
            raise ConfigError(f"--set {text}: write {SECTION}.KEY=VALUE, e.g. {SECTION}.game=127.0.0.1:4243")
        if section.strip() != SECTION:
            raise ConfigError(f"--set {text}: the bridge reads only [{SECTION}]; [{section.strip()}] is the"
                              " server's (give it to bswtichu, not bswtichu irc)")
        changes[key.strip()] = irc_setting(key.strip(), raw, "--set")
    return config.replace(**changes) if changes else config


async def run(reactor, config: IrcConfig) -> None:
    from bswtichu.irc.bridge import start_bridge, stop_bridge

    factory = start_bridge(reactor, config)
    reactor.addSystemEventTrigger("before", "shutdown", stop_bridge, factory)
    log.info("bridging {channel} on {server} to the game server at {game}; Ctrl-C stops it",
             channel=config.channel, server=config.server, game=config.game)
    await Deferred()  # never fires: react ends when the reactor is stopped


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    try:
        config = config_from(args)
    except ConfigError as e:
        print(f"bswtichu irc: {e}", file=sys.stderr)
        return 2
    from twisted.internet import task

    globalLogBeginner.beginLoggingTo([textFileLogObserver(sys.stdout)], redirectStandardIO=False)
    task.react(run, [config])
    return 0  # not reached: react exits
