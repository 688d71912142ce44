"""Votes at a started table: hand an away player's seat to a bot, pause the game, go on.

One vote at a time per table.  The people seated and present when it opens
vote, and so does the player whose seat is asked for (away, he cannot answer, but he
counts: opponents alone never make the majority over his seat); whoever asked has said
yes.  A majority of them decides, with the yes of every voter whose ``consent`` it needs
(the player's partners, when a named person would take his seat and see his hand): once
it has them the vote passes, once it can no longer have them the vote fails, and a vote
still open after ``timeout`` seconds fails as a refusal.  What a passed vote does is the
table's (`VoteTable`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from twisted.internet.interfaces import IDelayedCall, IReactorTime

from bswtichu.server.text import messages
from bswtichu.server.text.messages import Message, Refusal

REPLACE, PAUSE, CONTINUE = "replace", "pause", "continue"


class VoteTable(Protocol):
    """What a vote needs from its table."""

    number: int

    def voters(self, seat: int | None) -> list[str]:
        """The people seated and present, and the player in ``seat`` (the one asked about)."""

    def tell_all(self, message: Message) -> None:
        """Tell everyone at the table."""

    def carry_out(self, vote: Vote) -> None:
        """Do what a passed vote asked for."""


@dataclass
class Vote:
    """One open vote: what it asks (``kind``; for a replace ``seat`` and ``to``, the person who
    would take it, or None: a bot), who votes, whose yes it needs (``consent``), the answers."""

    kind: str
    seat: int | None
    to: str | None
    by: str
    voters: tuple[str, ...]
    yes: set[str] = field(default_factory=set)
    no: set[str] = field(default_factory=set)
    timer: IDelayedCall | None = None
    consent: tuple[str, ...] = ()

    @property
    def needed(self) -> int:
        """Yes votes that make a majority of the voters."""
        return len(self.voters) // 2 + 1

    def fields(self) -> dict:
        return {"vote": self.kind, "seat": self.seat, "to": self.to, "by": self.by, "voters": list(self.voters),
                "yes": sorted(self.yes), "no": sorted(self.no), "needed": self.needed,
                "consent": list(self.consent)}


class Votes:
    """The open vote of one table, if any, and its deadline on the injected clock."""

    def __init__(self, table: VoteTable, clock: IReactorTime, timeout: float):
        self.table = table
        self.clock = clock
        self.timeout = timeout
        self.open: Vote | None = None

    def refuse_if_open(self) -> None:
        """One vote at a time: a refusal while one is open."""
        if self.open is not None:
            raise Refusal("vote_open", f"a vote is open at table {self.table.number}"
                                       f" ({self.open.kind}): /accept or /refuse it first")

    def ask(self, nick: str, kind: str, what: str, seat: int | None = None, to: str | None = None,
            consent: tuple[str, ...] = ()) -> None:
        """``nick`` opens a vote (his own yes counts); ``what`` says it for people; it passes only
        with the yes of each of ``consent`` (voters)."""
        self.refuse_if_open()
        voters = tuple(self.table.voters(seat))
        vote = Vote(kind, seat, to, nick, voters, yes={nick}, consent=consent)
        self.open = vote
        self.table.tell_all(messages.vote_opened(self.table.number, vote.fields(), what, self.timeout))
        if not self._settled(vote):
            vote.timer = self.clock.callLater(self.timeout, self._timed_out, vote)

    def answer(self, nick: str, yes: bool) -> None:
        """``nick``'s /accept or /refuse of the open vote."""
        vote = self.open
        if vote is None:
            raise Refusal("no_vote", f"no vote is open at table {self.table.number}")
        if nick not in vote.voters:
            raise Refusal("not_a_voter", "only the people seated when the vote opened vote on it"
                                         + (" (and the player whose seat it asks for)" if vote.seat else ""))
        if nick in vote.yes or nick in vote.no:
            raise Refusal("voted", "you have voted on it already")
        (vote.yes if yes else vote.no).add(nick)
        if not self._settled(vote):
            self.table.tell_all(messages.vote_answered(self.table.number, vote.fields(), nick, yes))

    def cancel(self) -> None:
        """The table closes or its game ends: an open vote is dropped."""
        vote, self.open = self.open, None
        if vote is not None and vote.timer is not None and vote.timer.active():
            vote.timer.cancel()

    def _settled(self, vote: Vote) -> bool:
        """End the vote if the answers decide it; True if they did."""
        if len(vote.yes) >= vote.needed and vote.yes.issuperset(vote.consent):
            self._end(vote, True, "majority")
        elif len(vote.voters) - len(vote.no) < vote.needed or vote.no.intersection(vote.consent):
            self._end(vote, False, "refused")
        else:
            return False
        return True

    def _timed_out(self, vote: Vote) -> None:
        vote.timer = None
        if self.open is vote:
            self._end(vote, False, "timeout")

    def _end(self, vote: Vote, passed: bool, reason: str) -> None:
        self.cancel()
        self.table.tell_all(messages.vote_ended(self.table.number, vote.fields(), passed, reason))
        if passed:
            self.table.carry_out(vote)
