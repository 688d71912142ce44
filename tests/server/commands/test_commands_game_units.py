"""The game commands one at a time: a `GameCommands` on a `TableHall` of its own whose tables
start real games (`GameWiring`, seeded), people on recording connections, no lobby."""

from __future__ import annotations

import pytest
from twisted.internet.task import Clock

from bswtichu.server.commands.game import GameCommands, hand_commands
from bswtichu.server.commands.registry import CommandGroup, UsageRefusal, command
from bswtichu.server.games.logs import GameLogStore, GameReaders
from bswtichu.server.tables.hall import TableHall
from bswtichu.server.tables.wiring import GameWiring
from bswtichu.storage import Storage

from hall_parts import People, refusal, run

NAMES = ("Ann", "Bob", "Cy", "Dan")


class Setting:
    """A hall whose table 1 has Ann, Bob, Cy and Dan seated (started by ``start``), and the group."""

    def __init__(self, tmp_path, kick_person=None) -> None:
        self.people = People()
        self.clock = Clock()
        self.logs = GameLogStore(str(tmp_path / "logs"))
        wiring = GameWiring(self.clock, self.logs, bot_delay=0.0, substitute_after=60.0, seeds=lambda: 5)
        self.hall = TableHall(self.people.get, self.clock, 60.0, wiring)
        readers = GameReaders(Storage.open().games, lambda nick: False)
        self.group = GameCommands(self.hall, self.logs, readers, kick_person)
        table = self.hall.open()
        self.players = [self.people.add(name) for name in NAMES]
        for player in self.players:
            table.sit(player.nick)
            player.table = table
        for player in self.players:
            self.people.told(player)
        self.table = table

    def start(self) -> None:
        self.table.start("Ann")
        for player in self.players:
            self.people.told(player)

    def last(self, session, keyword: str) -> dict:
        return [fields for said, fields in self.people.told(session) if said == keyword][-1]


@pytest.fixture
def setting(tmp_path) -> Setting:
    return Setting(tmp_path)


def test_hand_shows_the_first_eight_cards_before_grand_tichu(setting):
    setting.start()
    ann = setting.players[0]
    setting.group.hand(ann, "")
    assert len(setting.last(ann, "HAND")["cards"]) == 8


def test_a_call_takes_no_arguments_and_nogrand_deals_the_rest(setting):
    setting.start()
    ann = setting.players[0]
    assert refusal(setting.group, ann, "/nogrand now").message == "it takes no arguments; usage: /nogrand"
    setting.group.nogrand(ann, "")
    setting.group.hand(ann, "")
    assert len(setting.last(ann, "HAND")["cards"]) == 14


def test_legal_lists_the_grand_tichu_decision_as_commands(setting):
    setting.start()
    ann = setting.players[0]
    setting.group.legal(ann, "all")
    assert sorted(setting.last(ann, "LEGAL")["commands"]) == ["/grand", "/nogrand"]
    with pytest.raises(UsageRefusal):
        setting.group.legal(ann, "everything")


def test_legal_push_is_set_in_the_words_the_switches_take(setting):
    ann = setting.players[0]
    setting.group.legal(ann, "push ja")
    assert ann.legal_push is True
    assert setting.people.told(ann)[0][0] == "LEGAL_PUSH"
    assert refusal(setting.group, ann, "/legal push maybe").message == \
        "push takes on or off (or nothing, to show it); usage: /legal [all | push [on|off]]"


def test_the_game_commands_need_a_game_and_a_seat(setting):
    ann = setting.players[0]
    assert refusal(setting.group, ann, "/grand").code == "no_game"
    setting.start()
    eve = setting.people.add("Eve")
    setting.table.watch("Eve")
    eve.table = setting.table
    assert refusal(setting.group, eve, "/grand").code == "not_seated"
    setting.group.table_view(eve, "")  # a spectator may look
    assert setting.last(eve, "TABLE")["phase"] == "grand"


def test_play_is_refused_before_the_play_phase(setting):
    setting.start()
    refused = refusal(setting.group, setting.players[0], "/play MJ")
    assert refused.code == "illegal"


def test_second_names_the_hand_commands_and_refuses_a_player_without_a_second_hand(setting):
    setting.start()
    ann = setting.players[0]
    assert refusal(setting.group, ann, "/second fold").message == (
        "the commands are bomb, dog, exchange, give, grand, hand, legal, nogrand, pass, play, tichu,"
        " wish; usage: /second COMMAND [ARGS]")
    assert refusal(setting.group, ann, "/dummy tichu").code == "no_second_hand"  # a 4-player game has none


def test_a_duo_player_gives_his_second_hand_its_commands(tmp_path):
    setting = Setting(tmp_path)
    for name in ("Cy", "Dan"):
        setting.table.leave(name)
    setting.table.set_option("Ann", "variant", "duo")
    setting.start()
    ann, bob = setting.players[:2]
    setting.group.second(ann, "hand")
    assert setting.last(ann, "HAND")["seat"] == 3
    run(setting.group, ann, "/second legal all")
    assert setting.last(ann, "LEGAL")["commands"] == ["/second nogrand", "/second grand"]
    for player in (ann, bob):
        setting.group.nogrand(player, "")
        setting.group.second(player, "keingrosses")  # by its German name too
    refused = refusal(setting.group, ann, "/second schupf 2j")
    assert refused.code == "usage" and refused.message.endswith("; usage: /second schupf C1 C2 C3")


def test_kick_takes_a_seat_or_hands_a_name_to_moderation(tmp_path):
    kicked = []
    setting = Setting(tmp_path, kick_person=lambda session, args: kicked.append((session.nick, args)))
    ann = setting.players[0]
    setting.group.kick(ann, "Bob for spam")
    assert kicked == [("Ann", "Bob for spam")]
    assert refusal(setting.group, ann, "/kick").message == "which seat (1-N), or whom; usage: /kick SEAT|NAME [REASON]"
    alone = Setting(tmp_path / "alone")
    assert refusal(alone.group, alone.players[0], "/kick Bob").message == "which seat (1-N)?; usage: /kick SEAT|NAME [REASON]"


def test_bot_takes_a_seat_and_a_level_in_any_order(tmp_path):
    setting = Setting(tmp_path)
    setting.table.leave("Dan")
    ann = setting.players[0]
    assert refusal(setting.group, ann, "/bot 9").message.startswith("seats are 1-4; levels: ")
    assert refusal(setting.group, ann, "/bot wizard").message.startswith("'wizard' is neither a seat nor a level")
    setting.group.add_bot(ann, "expert 4")
    assert setting.table.seats[3].startswith("bot-")


def test_log_is_refused_while_the_game_runs_and_for_a_game_that_never_was(setting):
    setting.start()
    ann = setting.players[0]
    running = setting.table.game.log_number
    assert refusal(setting.group, ann, f"/log {running}").code == "log_running"
    assert refusal(setting.group, ann, "/log 999").code == "no_such_log"
    assert refusal(setting.group, ann, "/log 1 2").message == "/log takes one game number; drop '2'; usage: /log N"


class OneMoreHand(CommandGroup):
    """A group with one more hand command, "fold" (also "/aufgeben")."""

    @command("fold", usage="/fold", summary="give up", help="Gives up.", group="game", german="aufgeben",
             hand=True)
    def fold(self, session, args: str, hand: int = 0) -> None:
        """Never run."""


def test_a_command_marked_hand_is_a_second_hands_by_every_name_from_the_flag_alone(setting):
    """No list to keep in step: the flag puts it in /second's lookup and in the names the
    wiring hands the tables for the second hands' sentences."""
    lookup = hand_commands([*setting.group.commands(), *OneMoreHand().commands()])
    assert lookup["fold"].key == lookup["aufgeben"].key == "fold"
    assert OneMoreHand.hand_names() == {"fold", "aufgeben"}
    assert "fold" not in hand_commands(setting.group.commands())
