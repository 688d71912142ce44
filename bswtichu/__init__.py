"""bswtichu: a BrettspielWelt-style Tichu server for telnet, MUD clients and bots."""

__version__ = "0.1.0"
