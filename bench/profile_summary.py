"""Where a profiled server's time went, per game action: ``bench_server.py --profile FILE``, then

    python bench/profile_summary.py FILE [FILE ...]

Each row is one part of the work (calls and profiled microseconds per applied
game action; cumulative for the rows marked cum). Profiled times are inflated by
cProfile for Python code, not for system calls: compare shares, not absolutes.
"""

from __future__ import annotations

import pstats
import sys

ROWS = [  # label, file fragment ("~" for built-ins), function, cumulative?
    ("kernel send (socket.send)", "~", "<method 'send' of '_socket.socket' objects>", False),
    ("epoll poll", "~", "<method 'poll' of 'select.epoll' objects>", False),
    ("/legal command (cum)", "commands/game.py", "legal", True),
    ("pushed LEGAL (/legal push on, cum)", "tables/table_game.py", "_push_legal", True),
    ("  engine legal list (cum)", "engine/round.py", "legal_actions", True),
    ("  exchanges listed (cum)", "engine/round.py", "_iter_setup_actions", True),
    ("  LEGAL message (cum)", "game_messages.py", "legal", True),
    ("telling events (TableGame.happened, cum)", "tables/table_game.py", "happened", True),
    ("  event texts (GameTexts.event, cum)", "game_messages.py", "event", True),
    ("  a step's messages to one reader (Session.send_all, cum)", "session.py", "send_all", True),
    ("json module encoding (JSONEncoder.encode, cum)", "json/encoder.py", "encode", True),
    ("orjson encoding (the game's step messages)", "~", "<orjson.dumps>", False),
    ("Session.send (cum)", "session.py", "send", True),
    ("  connection send_lines (cum)", "net/lines.py", "send_lines", True),
    ("twisted transport write (cum)", "abstract.py", "write", True),
    ("twisted doWrite (a write on the next poll, cum)", "abstract.py", "doWrite", True),
    ("epoll modify (watching for writability)", "~", "<method 'modify' of 'select.epoll' objects>", False),
    ("outbox flush: commit, then writes (cum)", "session.py", "flush", True),
    ("storage (DurableGame.happened, cum)", "durable.py", "happened", True),
    ("  sqlite execute", "~", "<method 'execute' of 'sqlite3.Connection' objects>", False),
    ("  batched commit (GameStore.commit, cum)", "storage/games.py", "commit", True),
    ("game log, per round (GameLogRecorder.save, cum)", "games/logs.py", "save", True),
    ("line decoding (decode_line, cum)", "net/lines.py", "decode_line", True),
]


def summary(path: str) -> None:
    stats = pstats.Stats(path).stats

    def find(fragment: str, name: str) -> tuple[int, float, float]:
        for (filename, _, function), (_, calls, own, cumulative, _) in stats.items():
            if fragment in filename and function == name:
                return calls, own, cumulative
        return 0, 0.0, 0.0

    actions = find("play/driver.py", "_apply")[0]
    profiled = sum(v[2] for v in stats.values())
    print(f"{path}: {actions} game actions applied, {profiled:.1f} s profiled"
          f" = {1e6 * profiled / actions:.0f} us per action")
    for label, fragment, name, cumulative in ROWS:
        calls, own, total = find(fragment, name)
        spent = total if cumulative else own
        print(f"  {label:58s} {calls / actions:7.2f} calls  {1e6 * spent / actions:6.0f} us")


if __name__ == "__main__":
    for name in sys.argv[1:]:
        summary(name)
