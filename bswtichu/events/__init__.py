"""Events across tables (issue 36): individual and pairs tournaments, duplicate Tichu.

Pure, like the engine: no Twisted, no I/O, an injected random generator (or, for duplicate
deals, none: they come from the event's seed alone). The seating of a round (`pairing`) and
duplicate Tichu's deals, movement and match points (`duplicate`); the events themselves,
their commands and durability are the server's.
"""
