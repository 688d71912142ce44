"""The bswtichu server: connections, lobby, tables. The rules live in bswtichu.engine."""
