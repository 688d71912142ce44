"""The pure Tichu rules engine: no Twisted, no I/O, an injected random generator."""
