"""Tables: seats, options and the start, the parts a table owns (presence, votes, the voted pause, quick fill), the hall of tables, the game at a table and the wiring that builds it."""
