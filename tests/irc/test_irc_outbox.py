"""The flood limit: a burst, then one line per interval, on a Clock."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from twisted.internet.task import Clock

from bswtichu.irc.outbox import Outbox


def outbox(burst=5, interval=2.0):
    clock, written = Clock(), []
    return clock, written, Outbox(clock, written.append, burst, interval)


def test_a_burst_goes_at_once_then_one_line_per_interval():
    clock, written, box = outbox()
    for n in range(8):
        box.message("NOTICE", f"user{n}", f"m{n}", 100)
    assert written == [f"NOTICE user{n} :m{n}" for n in range(5)]
    clock.advance(1.9)
    assert len(written) == 5
    clock.advance(0.1)
    assert written[5:] == ["NOTICE user5 :m5"]
    clock.advance(2)
    clock.advance(2)
    assert written[6:] == ["NOTICE user6 :m6", "NOTICE user7 :m7"]
    assert len(box) == 0 and not clock.getDelayedCalls()


def test_protocol_lines_go_before_queued_messages():
    clock, written, box = outbox(burst=1)
    box.message("PRIVMSG", "#t", "first", 100)
    box.message("NOTICE", "ann", "queued", 100)
    box.protocol_line("PONG :irc.test")
    clock.advance(2)
    assert written == ["PRIVMSG #t :first", "PONG :irc.test"]
    clock.advance(2)
    assert written[2] == "NOTICE ann :queued"


def test_queued_messages_to_one_target_are_joined_while_they_fit():
    clock, written, box = outbox(burst=1)
    box.message("PRIVMSG", "#t", "a", 12)
    for text in ("b", "cc", "ddd", "eeee", "f"):
        box.message("PRIVMSG", "#t", text, 12)
    box.message("NOTICE", "ann", "private", 12)
    clock.advance(2)
    clock.advance(2)
    clock.advance(2)
    # "eeee" did not fit after "b | cc | ddd": it and what follows keep their places
    assert written == ["PRIVMSG #t :a", "PRIVMSG #t :b | cc | ddd", "PRIVMSG #t :eeee | f",
                       "NOTICE ann :private"]


def test_stop_forgets_the_queue_and_the_timer():
    clock, written, box = outbox(burst=1)
    box.message("PRIVMSG", "#t", "a", 10)
    box.message("NOTICE", "bob", "b", 10)
    box.stop()
    assert not clock.getDelayedCalls()
    clock.advance(10)
    assert written == ["PRIVMSG #t :a"]


@given(st.lists(st.tuples(st.floats(0, 5), st.integers(1, 4)), max_size=40),
       st.integers(1, 6), st.sampled_from([0.5, 1.0, 2.0]))
def test_no_window_ever_holds_more_lines_than_the_bucket_allows(schedule, burst, interval):
    """Whatever arrives when, in any span of t seconds at most burst + t/interval lines go."""
    clock = Clock()
    stamps: list[float] = []
    box = Outbox(clock, lambda line: stamps.append(clock.seconds()), burst, interval)
    targets = (f"user{n}" for n in range(1000))  # all distinct: nothing is joined
    for wait, count in schedule:
        clock.advance(wait)
        for _ in range(count):
            box.message("NOTICE", next(targets), "text", 50)
    while clock.getDelayedCalls():
        clock.advance(interval)
    assert len(stamps) == sum(count for _, count in schedule)
    for i, start in enumerate(stamps):
        for j in range(i, len(stamps)):
            assert j - i + 1 <= burst + (stamps[j] - start) / interval + 1e-9


def test_a_target_with_too_much_waiting_gets_one_note_instead_of_more():
    clock, written, box = outbox(burst=1)
    box.message("PRIVMSG", "#t", "table news", 100)
    for n in range(10):
        box.message("NOTICE", "ann", f"help {n}", 30, limit=3)
    box.message("PRIVMSG", "#t", "more news", 100)
    for _ in range(10):
        clock.advance(2)
    texts = [line.partition(" :")[2] for line in written]
    notes = [line for line in written if line.startswith("NOTICE ann")]
    assert "more news" in texts
    # three pieces (joined as they fit), then the note once
    assert " | ".join(n.partition(" :")[2] for n in notes).split(" | ") == [
        "help 0", "help 1", "help 2", "(more was dropped: too much at once for IRC; ask again in a moment)"]
    box.message("NOTICE", "ann", "later", 30, limit=3)  # once drained, she gets replies again
    clock.advance(2)
    assert written[-1] == "NOTICE ann :later"


def test_a_table_prefix_shared_by_joined_messages_is_said_once():
    clock, written, box = outbox(burst=1)
    box.message("PRIVMSG", "#t", "first", 100)
    for text in ("[table 6] Ann passed.", "[table 6] Bob passed.", "[table 7] Cy passed."):
        box.message("PRIVMSG", "#t", text, 100)
    clock.advance(2)
    assert written[1] == "PRIVMSG #t :[table 6] Ann passed. | Bob passed. | [table 7] Cy passed."


def test_one_users_long_reply_does_not_hold_up_another_users_short_one():
    clock, written, box = outbox(burst=1, interval=2.0)
    box.message("NOTICE", "ann", "first", 10)  # goes at once
    for n in range(10):
        box.message("NOTICE", "ann", f"help line {n} " + "x" * 20, 30)  # too long to be joined
    box.message("NOTICE", "bob", "You sit down at table 1.", 40)
    clock.advance(2)
    clock.advance(2)
    assert written[1:] == ["NOTICE bob :You sit down at table 1.", "NOTICE ann :help line 0 " + "x" * 20]


def test_the_targets_take_turns_but_a_notice_never_overtakes_an_earlier_channel_line():
    clock, written, box = outbox(burst=1, interval=2.0)
    box.message("PRIVMSG", "#t", "[table 1] Cy leads.", 30)  # goes at once
    box.message("PRIVMSG", "#t", "[table 1] Bob (seat 2) played: single A.", 30)
    box.message("NOTICE", "bob", "Legal now: /pass", 30)
    box.message("PRIVMSG", "#t", "[table 1] Cy passed.", 30)  # does not fit: a line of its own
    box.message("NOTICE", "ann", "Your turn: beat single A.", 30)
    for _ in range(4):
        clock.advance(2)
    assert written == ["PRIVMSG #t :[table 1] Cy leads.", "PRIVMSG #t :[table 1] Bob (seat 2) played: single A.",
                       "NOTICE bob :Legal now: /pass", "PRIVMSG #t :[table 1] Cy passed.",
                       "NOTICE ann :Your turn: beat single A."]
