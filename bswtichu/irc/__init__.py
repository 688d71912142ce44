"""The IRC bridge: people play from an IRC channel, each as himself on the game server.

``bridge`` is the IRC side (a twisted.words IRCClient), ``gameside`` the
connections to the game server's line port, ``routing`` decides what goes where,
``outbox`` keeps the bridge within the IRC server's flood limits, ``text`` fits
messages into IRC lines and maps IRC nicks to server names.
"""
