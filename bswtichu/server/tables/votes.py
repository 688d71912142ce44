"""Votes at a started table: hand an away player's seat on, pause the game, go on.

One vote at a time per table.  The people seated and present when it opens
vote, and so does the player whose seat is asked for (away, he cannot answer, but he
counts: opponents alone never make the majority over his seat); whoever asked has said
yes.  A majority of them decides, with the yes of every voter whose ``consent`` it needs
(the player's partners, when a named person would take his seat and see his hand): once
it has them the vote passes, once it can no longer have them the vote fails, and a vote
still open after ``timeout`` seconds fails as a refusal.

`Votes` is all of it for one table: who may ask what, who votes, the count and the
deadline; what a passed vote changes is the table's seats (`VoteTable.give_seat`) or its
voted pause (`VotedPause`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Protocol

from twisted.internet.interfaces import IDelayedCall, IReactorTime

from bswtichu.server.text.i18n import _
from bswtichu import names
from bswtichu.server.text import messages
from bswtichu.server.text.messages import Message, Refusal

REPLACE, PAUSE, CONTINUE = "replace", "pause", "continue"


class VotedGame(Protocol):
    """The running game as votes ask about it (the table's `RunningGame`)."""

    def partners(self, nick: str) -> list[object]:
        """Who plays the player's partner seats this round."""


class Pause(Protocol):
    """The table's voted pause (`VotedPause`) as votes start and end it."""

    on: bool

    def may_end(self, nick: str) -> bool:
        """Whether ``nick`` ends the pause by asking, without a vote."""

    def begin(self, pausers: Iterable[str]) -> None:
        """The vote to pause passed."""

    def end(self, said: Message) -> None:
        """The pause is over; ``said`` tells the table why."""


class VoteTable(Protocol):
    """What votes need from their table (the `Table`)."""

    number: int
    started: bool
    seats: list[str | None]
    bots: dict[int, tuple[str, str]]
    spectators: list[str]
    pause: Pause

    @property
    def game(self) -> VotedGame | None:
        """The running game, if any."""

    @property
    def seat_numbers(self) -> range:
        """The seats 1..N."""

    def seat_of(self, nick: str) -> int | None:
        """The seat ``nick`` plays."""

    def is_away(self, seat: int) -> bool:
        """The player of ``seat`` is away (his seat held)."""

    def players(self) -> list[tuple[int, str]]:
        """(seat, nick) for every taken seat."""

    def reader(self, nick: str) -> object | None:
        """The online client called ``nick``, if any."""

    def tell_all(self, message: Message) -> None:
        """Tell everyone at the table."""

    def give_seat(self, seat: int, to: str | None) -> None:
        """A passed vote: the away player's seat goes to the person ``to`` or to a bot (None)."""


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
    """The votes of one table: what may be asked, the open vote if any, its deadline on the
    injected clock, and what it does once passed."""

    def __init__(self, table: VoteTable, clock: IReactorTime, timeout: float):
        self.table = table
        self.clock = clock
        self.timeout = timeout
        self.open: Vote | None = None

    # -- asking -------------------------------------------------------------------

    def ask_replace(self, nick: str, seat: int, to: str | None = None) -> None:
        """``nick`` asks the table to hand ``seat`` (an away player's) for the rest of the game
        to ``to``, a person watching the table who waits to play, or to a bot (None).

        The seat of a player who is online is never asked for (he can take it back); the
        player votes on it himself; and a named person, who would get his hand, needs the
        yes of the player's partners present."""
        self._require_voter(nick, "ask for a vote")
        self.refuse_if_open()
        player = self._away_player(seat)
        consent: tuple[str, ...] = ()
        if to is not None:
            to = self._waiting_person(to)
            consent = self._present_partners(player)
            if not consent:
                raise Refusal("no_partner", _('%(player)s (seat %(seat)s) has no partner here to agree that %(to)s takes his seat and '
                                              'hand; /replace %(seat)s hands it to a bot', player=player, seat=seat, to=to))
        taker = "a bot" if to is None else to
        self._open(nick, REPLACE, f"hand seat {seat} ({player}) to {taker} for the rest of the game",
                   seat, to, consent)

    def ask_pause(self, nick: str) -> None:
        """``nick`` asks the table to pause the game."""
        self._require_voter(nick, "ask for a vote")
        self.refuse_if_open()
        if self.table.pause.on:
            raise Refusal("paused", _('the game at table %(table)s is paused already; /continue asks to go on', table=self.table.number))
        self._open(nick, PAUSE, "pause the game")

    def ask_continue(self, nick: str) -> None:
        """``/continue``: ends a voted pause at once if ``nick`` may (`VotedPause.may_end`);
        otherwise asks the table."""
        self._require_voter(nick, "ask for a vote")
        pause = self.table.pause
        if pause.may_end(nick):
            pause.end(messages.pause_ended(self.table.number, "ended", nick))
            return
        self.refuse_if_open()
        if not pause.on:
            raise Refusal("not_paused", _('the game at table %(table)s is not paused', table=self.table.number))
        self._open(nick, CONTINUE, "go on with the game")

    def answer(self, nick: str, yes: bool) -> None:
        """``nick``'s /accept or /refuse of the open vote."""
        self._require_voter(nick, "vote")
        vote = self.open
        if vote is None:
            raise Refusal("no_vote", _('no vote is open at table %(table)s', table=self.table.number))
        if nick not in vote.voters:
            raise Refusal("not_a_voter", "only the people seated when the vote opened vote on it"
                                         + (" (and the player whose seat it asks for)" if vote.seat else ""))
        if nick in vote.yes or nick in vote.no:
            raise Refusal("voted", _('you have voted on it already'))
        (vote.yes if yes else vote.no).add(nick)
        if not self._settled(vote):
            self.table.tell_all(messages.vote_answered(self.table.number, vote.fields(), nick, yes))

    def refuse_if_open(self) -> None:
        """One vote at a time: a refusal while one is open."""
        if self.open is not None:
            raise Refusal("vote_open", _('a vote is open at table %(table)s (%(kind)s): /accept or /refuse it first', table=self.table.number, kind=self.open.kind))

    def voters(self, seat: int | None) -> list[str]:
        """The people seated and present (not bots, not away), and the player in ``seat``,
        present or not: a vote about his seat is his too."""
        table = self.table
        return [nick for s, nick in table.players()
                if s not in table.bots and (not table.is_away(s) or s == seat)]

    def _require_voter(self, nick: str, what: str) -> None:
        table = self.table
        seat = table.seat_of(nick)
        if seat is None or table.is_away(seat):
            raise Refusal("not_seated", _('only players seated at table %(table)s can %(what)s', table=table.number, what=what))
        if not table.started or table.game is None:
            raise Refusal("no_game", _('table %(table)s has no game running; votes are about a game', table=table.number))

    def _away_player(self, seat: int) -> str:
        """The player of ``seat`` if his seat may be asked for: a person's, away and offline."""
        table = self.table
        if seat not in table.seat_numbers:
            raise Refusal("bad_seat", _('seat %(seat)s does not exist; seats are 1-%(count)s', seat=seat, count=len(table.seats)))
        player = table.seats[seat - 1]
        if seat in table.bots or player is None:
            raise Refusal("not_a_person", _('seat %(seat)s holds a bot already', seat=seat))
        if not table.is_away(seat):
            raise Refusal("player_here", _('%(player)s (seat %(seat)s) plays his seat; only the seat of a player who is away '
                                           '(offline) can be handed on', player=player, seat=seat))
        if table.reader(player) is not None:
            raise Refusal("player_online", _('%(player)s (seat %(seat)s) is online: his seat is his to take back (/join %(table)s '
                                             '%(seat)s), not to vote away', player=player, seat=seat, table=table.number))
        return player

    def _present_partners(self, player: str) -> tuple[str, ...]:
        """The people present who are ``player``'s partners in the game this round."""
        assert self.table.game is not None
        voters = set(self.voters(None))
        return tuple(nick for nick in self.table.game.partners(player) if nick in voters)

    def _waiting_person(self, name: str) -> str:
        """The spectator ``name`` as he watches (he may take a seat), or a refusal."""
        table = self.table
        for spectator in table.spectators:
            if spectator.casefold() == name.casefold() and not names.is_bot_name(spectator):
                if table.reader(spectator) is not None:
                    return spectator
        raise Refusal("not_watching", _('%(name)s does not watch table %(table)s; a seat goes to a person watching it (/watch '
                                        '%(table)s), or to a bot', name=name, table=table.number))

    # -- the open vote --------------------------------------------------------------

    def _open(self, nick: str, kind: str, what: str, seat: int | None = None, to: str | None = None,
              consent: tuple[str, ...] = ()) -> None:
        """``nick`` opens a vote (his own yes counts); ``what`` says it for people; it passes only
        with the yes of each of ``consent`` (voters)."""
        voters = tuple(self.voters(seat))
        vote = Vote(kind, seat, to, nick, voters, yes={nick}, consent=consent)
        self.open = vote
        self.table.tell_all(messages.vote_opened(self.table.number, vote.fields(), what, self.timeout))
        if not self._settled(vote):
            vote.timer = self.clock.callLater(self.timeout, self._timed_out, vote)

    def drop(self, kind: str) -> None:
        """An open vote of ``kind`` has nothing left to decide (the pause it would end is over)."""
        if self.open is not None and self.open.kind == kind:
            self.cancel()

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
            self._carry_out(vote)

    def _carry_out(self, vote: Vote) -> None:
        """What a passed vote asked for; a vote the game has moved past (its game ended, its
        player came back) does nothing."""
        table = self.table
        if table.game is None:
            return
        if vote.kind == PAUSE:
            table.pause.begin(vote.yes)
        elif vote.kind == CONTINUE:
            table.pause.end(messages.pause_ended(table.number, "vote"))
        elif vote.kind == REPLACE and vote.seat is not None:
            table.give_seat(vote.seat, vote.to)
