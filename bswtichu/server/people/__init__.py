"""Who is here and what they may do: names, accounts, passwords, chat, ignore and friend lists, roles and sanctions."""
