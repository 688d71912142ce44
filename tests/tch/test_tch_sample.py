"""The sample log the README's replay example uses: it ships with the clone and replays clean."""

import re
from pathlib import Path

from bswtichu.tch.replay import main

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_replay_example_names_files_of_the_clone_and_they_replay():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    [example] = re.findall(r"`bswtichu replay ([^`\[]+\.tch)`", readme)
    assert not example.startswith(("/", "..")), f"{example!r} is outside a fresh clone"
    files = sorted(ROOT.glob(example))
    assert files, f"the README's example {example!r} names no file in the clone"
    assert main([str(p) for p in files]) == 0
