"""The only code that knows bytes and sockets: telnet for people, plain lines for bots."""
