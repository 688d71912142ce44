"""Records of games: the journal's subscriber and restoring, the game logs and who may read them, /review."""
