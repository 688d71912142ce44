"""The table commands one at a time: a `TableCommands` on a `TableHall` of its own and people on
recording connections, no lobby; each handler called as the registry calls it."""

from __future__ import annotations

import pytest
from twisted.internet.task import Clock

from bswtichu.config import LiveConfig, ServerConfig
from bswtichu.server.commands.common import current_table, seated_at
from bswtichu.server.commands.registry import UsageRefusal
from bswtichu.server.commands.tables import OPTION_FORMS, TableCommands
from bswtichu.server.tables.hall import TableHall
from bswtichu.server.text.messages import Refusal

from hall_parts import People, refusal


class RecordingChat:
    """What /invite asks of the chat: whether the inviter may speak, and telling the guest."""

    def __init__(self, muted: bool = False) -> None:
        self.muted = muted
        self.told: list[tuple[str, str, str]] = []

    def check_voice(self, session) -> None:
        if self.muted:
            raise UsageRefusal("muted")

    def tell(self, sender, recipient, message) -> None:
        self.told.append((sender.nick, recipient.nick, message.keyword))


@pytest.fixture
def people() -> People:
    return People()


@pytest.fixture
def hall(people) -> TableHall:
    return TableHall(people.get, Clock(), 60.0)


def commands(hall: TableHall, chat=None, **limits) -> TableCommands:
    return TableCommands(hall, LiveConfig(ServerConfig(**limits)), chat or RecordingChat())


def test_join_alone_opens_a_table_and_seats_him_in_seat_1(hall, people):
    group, ann = commands(hall), people.add("Ann")
    group.join(ann, "")
    assert ann.table is hall.get(1)
    assert seated_at(ann) == (hall.get(1), 1)
    assert people.told(ann) == [("JOINED", {"nick": "Ann", "seat": 1, "seats": ["Ann", None, None, None],
                                            "table": 1})]


def test_join_takes_the_seat_asked_for_and_refuses_one_the_table_lacks(hall, people):
    group, ann, bob = commands(hall), people.add("Ann"), people.add("Bob")
    group.join(ann, "")
    group.join(bob, "1 3")
    assert hall.get(1).seat_of("Bob") == 3
    cy = people.add("Cy")
    assert refusal(group, cy, "/join 1 5").message == "seats are 1-4; usage: /join [TABLE] [SEAT]"
    assert refusal(group, cy, "/join one").message == "TABLE must be a number, not 'one'; usage: /join [TABLE] [SEAT]"
    assert cy.table is None


def test_join_refuses_a_person_at_another_table_and_a_table_that_is_not_there(hall, people):
    group, ann, bob = commands(hall), people.add("Ann"), people.add("Bob")
    group.join(ann, "")
    group.join(bob, "")
    assert refusal(group, ann, "/join 2").code == "at_table"
    assert refusal(group, people.add("Cy"), "/join 7").message == \
        "there is no table 7; /tables lists them, /join alone opens a new one"


def test_a_new_table_is_refused_over_the_servers_limit(hall, people):
    group = commands(hall, max_tables=1)
    group.join(people.add("Ann"), "")
    refused = refusal(group, people.add("Bob"), "/join")
    assert refused.code == "too_many_tables"
    assert refused.message.startswith("the server has its limit of 1 tables")
    assert len(hall) == 1


def test_a_new_table_is_refused_to_a_person_who_opened_his_share(hall, people):
    group = commands(hall, tables_per_person=1)
    ann = people.add("Ann")
    group.join(ann, "")
    group.leave(ann, "")  # the empty table closes, so he may open another
    group.join(ann, "")
    bob = people.add("Bob")
    group.join(bob, str(ann.table.number))
    group.leave(ann, "")  # the table stays: Bob sits there
    refused = refusal(group, ann, "/join")
    assert (refused.code, refused.message) == ("table_limit", "you opened 1 tables that are still there (1);"
                                                              " at most 1")


def test_leave_and_the_options_need_a_table(hall, people):
    group, ann = commands(hall), people.add("Ann")
    for line in ("/leave", "/round 3", "/tichujoin", "/option", "/start", "/accept"):
        assert refusal(group, ann, line).code == "not_at_table", line
    with pytest.raises(Refusal) as refused:
        current_table(ann)
    assert refused.value.message == "you are not at a table; /tables lists them, /join sits you down"


def test_switches_take_on_and_off_in_english_and_german_and_toggle_alone(hall, people):
    group, ann = commands(hall), people.add("Ann")
    group.join(ann, "")
    people.told(ann)
    for args, value in [("an", True), ("OFF", False), ("", True)]:
        group.set_tichujoin(ann, args)
        assert hall.get(1).options.as_data()["tichujoin"] is value, args
    assert refusal(group, ann, "/turnier maybe").message == "say on or off, not 'maybe'; usage: /turnier [on|off]"


def test_option_names_its_options_and_takes_their_other_names(hall, people):
    group, ann = commands(hall), people.add("Ann")
    group.join(ann, "")
    people.told(ann)
    group.option(ann, "tournament on")
    (keyword, fields), = people.told(ann)
    assert (keyword, fields["name"], fields["value"]) == ("OPTION", "turnier", True)
    group.option(ann, "")
    assert people.told(ann)[0][0] == "OPTIONS"
    assert refusal(group, ann, "/option colour red").message == \
        f"no option 'colour'; {OPTION_FORMS}; usage: /option [NAME [VALUE]]"
    assert refusal(group, ann, "/option round").message == f"round needs X; {OPTION_FORMS}; usage: /option [NAME [VALUE]]"


def test_round_and_clock_take_numbers_in_range_or_off(hall, people):
    group, ann = commands(hall), people.add("Ann")
    group.join(ann, "")
    group.set_round(ann, "off")
    group.set_clock(ann, "30")
    assert hall.get(1).options.as_data()["clock"] == 30
    with pytest.raises(UsageRefusal) as refused:
        group.set_round(ann, "999")
    assert refused.value.detail.startswith("X is a number of hands from 1 to ")
    with pytest.raises(UsageRefusal):
        group.set_clock(ann, "0 1")


def test_watch_needs_a_table_that_is_there_and_a_free_person(hall, people):
    group, ann, bob = commands(hall), people.add("Ann"), people.add("Bob")
    assert refusal(group, bob, "/watch").message == "which table? /tables lists them; usage: /watch TABLE"
    assert refusal(group, bob, "/watch 1").code == "no_such_table"
    group.join(ann, "")
    group.watch(bob, "1")
    assert bob.table is hall.get(1) and hall.get(1).seat_of("Bob") is None
    assert refusal(group, bob, "/quick").code == "at_table"


def test_quick_opens_a_table_that_bots_will_fill_when_nobody_waits(hall, people):
    group, ann = commands(hall, quick_wait=5.0), people.add("Ann")
    group.quick(ann, "expert")
    assert ann.table is hall.get(1)
    (keyword, fields), *_ = [told for told in people.told(ann) if told[0] == "QUICK"]
    assert (fields["table"], fields["seat"], fields["level"], fields["wait"]) == (1, 1, "expert", 5.0)
    assert refusal(group, ann, "/quick").code == "at_table"
    assert refusal(group, people.add("Bob"), "/quick grandmaster").message.startswith("levels: ")


def test_quick_seats_a_person_at_the_table_that_waits(hall, people):
    group, ann, bob = commands(hall), people.add("Ann"), people.add("Bob")
    group.quick(ann, "")
    group.quick(bob, "")
    assert bob.table is ann.table and ann.table.seat_of("Bob") == 2
    assert [fields["level"] for keyword, fields in people.told(bob) if keyword == "QUICK"] == [None]


def test_invite_tells_the_guest_through_the_chat(hall, people):
    chat = RecordingChat()
    group, ann, bob = commands(hall, chat), people.add("Ann"), people.add("Bob")
    group.join(ann, "")
    group.private(ann, "on")
    group.invite(ann, "Bob")
    assert chat.told == [("Ann", "Bob", "INVITATION")]
    assert refusal(group, ann, "/invite Nobody").code == "no_such_user"
    assert refusal(group, ann, "/invite Bob Cy").message == "one name; usage: /invite NAME"
    group.join(bob, "1")  # the private table lets him in
    assert bob.table is ann.table


def test_invite_is_refused_to_a_muted_person_before_anything_changes(hall, people):
    chat = RecordingChat(muted=True)
    group, ann = commands(hall, chat), people.add("Ann")
    people.add("Bob")
    group.join(ann, "")
    with pytest.raises(UsageRefusal):
        group.invite(ann, "Bob")
    assert chat.told == []
