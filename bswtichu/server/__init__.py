"""The domain: people, tables, the game at a table, records of games, text, and the commands over them (docs/architecture.md, "The domain's parts"). The rules live in bswtichu.engine."""
