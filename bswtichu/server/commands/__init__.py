"""The slash commands, one module per group of commands (a `CommandGroup` each), and the registry that dispatches them; only the lobby and the wiring import them."""
