"""Events across tables (issue 36): an event's record, its rounds at the hall's tables, the board
of every event, and their messages. The formats' rules (pairing, scoring) are the pure
`bswtichu.events` package's; this part runs them on the server's tables and clock."""
