"""What clients are told: messages, the game's texts, and how a message is rendered (human or machine form); it knows no table, session or command."""
