"""Events across tables (issue 36): individual and pairs tournaments, duplicate Tichu.

Pure, like the engine: no Twisted, no I/O, an injected random generator. So far only the
pairing of a round (`pairing`); the events themselves, their standings and commands come
later.
"""
