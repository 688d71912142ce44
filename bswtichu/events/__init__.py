"""Events across tables (issue 36): individual and pairs tournaments, duplicate Tichu.

Pure, like the engine: no Twisted, no I/O, an injected random generator (or, for duplicate
deals, none: they come from the event's seed alone). The seating of a round (`pairing`),
duplicate Tichu's deals, movement and match points (`duplicate`), the scoring of individual
and pairs events (`scoring`), and the formats that put them together for an event
(`formats`); the events themselves, their commands and durability are the server's
(`bswtichu.server.events`).
"""
