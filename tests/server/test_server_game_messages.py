"""How engine events and views read, for people and in machine mode."""

from bswtichu.engine import DECK, Play, plays
from bswtichu.server.game_messages import HUMAN_LEGAL_LIMIT, GameTexts

NAMES = ["Ann", "Bob", "Cy", "Dan"]


def test_legal_lists_every_command_for_machines_and_the_first_ones_for_people():
    hand = [c for c in DECK if c.rank in (7, 8, 9, 10)]  # 16 cards: hundreds of plays
    actions = [Play(0, combo.cards, combo.phoenix_as) for combo in plays(hand)]
    assert len(actions) > HUMAN_LEGAL_LIMIT
    message = GameTexts(1, NAMES).legal(0, actions)
    assert len(message.fields["commands"]) == len(actions)
    shown = message.text.split(": ", 1)[1].split(" | ")
    assert len(shown) == HUMAN_LEGAL_LIMIT + 1
    assert shown[-1] == f"... and {len(actions) - HUMAN_LEGAL_LIMIT} more (machine mode lists them all)"
    assert message.text.startswith(f"Legal now ({len(actions)}): ")


def test_a_short_legal_list_is_shown_whole():
    hand = [c for c in DECK if c.rank == 7]
    actions = [Play(0, combo.cards) for combo in plays(hand) if combo.length == 1]
    message = GameTexts(1, NAMES).legal(0, actions)
    assert message.text == "Legal now (4): /play 7j | /play 7s | /play 7p | /play 7r"
