"""Engine events and views as messages for the table: who played what, whose turn, the score.

Seats in every message are the engine's seats counted from 1 (1..4; 1..6 in
Tientsin; in Trichu 1..4 with the dummy's hand in seat 3), as people count them; cards are in the
notation of rules.md R2.4.  A message is built for one recipient (``viewer``,
an engine seat 0..3, or None for a spectator) so it can say "you".  Nothing
here decides who may see what: the table sends an event only to the seats
the engine allows (`Event.private_to`).
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Sequence

from bswtichu.server.text.i18n import _
from bswtichu.engine import (
    NANJING, Action, CallGrand, CallTichu, Card, DeclineGrand, DogLead, Exchange, Game, GiveDragon, MakeWish,
    Pass, Play, Standing, Variant, classify, format_cards, rank_text, suggested_exchange,
)
from bswtichu.engine import events as ev
from bswtichu.engine.combos import Combo, ComboType
from bswtichu.engine.game import TOURNAMENT_ROUNDS
from bswtichu.engine.round import OVER, RoundResult, RoundView
from bswtichu.play import CLOCK_STRIKES, ClockRanOut, ClockWarning, SubstituteEnded, SubstituteStarted
from bswtichu.server.text.i18n import N_, Joined, Nn_, Text, Wordable, _, _n
from bswtichu.server.text.messages import Message, counted, second_hand_word
from bswtichu.tch.variant_log import is_variant_log

#: "Your turn: ..." by what the turn needs (whole sentences: a translator sees each)
YOUR_TURN = {
    "lead": _("Your turn: lead: /play CARDS."),
    "follow": _("Your turn: play higher (/play CARDS), /bomben CARDS or /pass."),
    "wish": _("Your turn: make the wish: /wish RANK or /wish none."),
    "give": _("Your turn: give the Dragon trick to an opponent: /give NAME|SEAT."),
    "dog": _("Your turn: choose the partner who leads after your Dog: /dog NAME|SEAT."),
}
#: "Ann (seat 2) to lead." by what the turn needs
THEIR_TURN = {
    "lead": N_("%(player)s to lead."), "follow": N_("%(player)s to play."),
    "wish": N_("%(player)s to make the wish."), "give": N_("%(player)s to give the Dragon trick."),
    "dog": N_("%(player)s to choose who leads after the Dog."),
}
NEED_TEXT = {
    "lead": "lead: /play CARDS",
    "follow": "play higher (/play CARDS), /bomben CARDS or /pass",
    "wish": "make the wish: /wish RANK or /wish none",
    "give": "give the Dragon trick to an opponent: /give NAME|SEAT",
    "dog": "choose the partner who leads after your Dog: /dog NAME|SEAT",
}
TURN_DOING = {"lead": "lead", "follow": "play", "wish": "make the wish", "give": "give the Dragon trick",
              "dog": "choose who leads after the Dog"}
#: the ranks' plurals as combinations name them ("pair of sevens")
RANK_WORDS = {2: _("twos"), 3: _("threes"), 4: _("fours"), 5: _("fives"), 6: _("sixes"), 7: _("sevens"),
              8: _("eights"), 9: _("nines"), 10: _("tens"), 11: _("jacks"), 12: _("queens"), 13: _("kings"),
              14: _("aces")}
EXCHANGE_ORDER = "to the right opponent, the partner, the left opponent"
#: Who went out when, as people say it (Tientsin's fifth is the last to go out).
PLACE_WORDS = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}
#: The order of /legal's commands: plays first, then the other moves, the calls last (a bot
#: that takes the first entry plays on; it does not call Tichu by accident).
LEGAL_ORDER = (Play, Pass, MakeWish, GiveDragon, DogLead, DeclineGrand, Exchange, CallTichu, CallGrand)
_LEGAL_RANK = {kind: rank for rank, kind in enumerate(LEGAL_ORDER)}
#: /legal's command of each play listed so far, by its cards (bit mask) and Phoenix reading: the
#: same plays are listed again and again, at every table; emptied when it reaches `_PLAY_COMMANDS_CAP`
#: (in bench_server_domain.py's games, 5,000 remembered plays leave 0.6 of the 3.1 commands made
#: per action to be made afresh, 30,000 leave 0.5)
_PLAY_COMMANDS: dict[int | tuple[int, int], str] = {}
_PLAY_COMMANDS_CAP = 5_000


def _points(count: int) -> Text:
    return _n("%(count)s point", "%(count)s points", count)


# Each event's two sentences: the seat's own player's, everyone else's.
_DECLINED = (N_("You declined Grand Tichu."), N_("%(player)s declined Grand Tichu."))
_CALLED_GRAND = (N_("You called Grand Tichu!"), N_("%(player)s called Grand Tichu!"))
_CALLED_TICHU = (N_("You called Tichu!"), N_("%(player)s called Tichu!"))
#: by (bomb, out of turn)
_PLAYED = {
    (False, False): (N_("You played: %(play)s (%(left)s)."), N_("%(player)s played: %(play)s (%(left)s).")),
    (False, True): (N_("You played out of turn: %(play)s (%(left)s)."),
                    N_("%(player)s played out of turn: %(play)s (%(left)s).")),
    (True, False): (N_("BOMB! You played: %(play)s (%(left)s)."),
                    N_("BOMB! %(player)s played: %(play)s (%(left)s).")),
    (True, True): (N_("BOMB! You played out of turn: %(play)s (%(left)s)."),
                   N_("BOMB! %(player)s played out of turn: %(play)s (%(left)s).")),
}
_PASSED = (N_("You passed."), N_("%(player)s passed."))
_NO_WISH = (N_("You made no wish."), N_("%(player)s made no wish."))
_WISHED = (N_("You made a wish for %(rank)s."), N_("%(player)s made a wish for %(rank)s."))
_WON = (N_("You won the trick (bombs may still come)."), N_("%(player)s won the trick (bombs may still come)."))
_WON_POINTS = (N_("You won the trick: %(points)s (bombs may still come)."),
               N_("%(player)s won the trick: %(points)s (bombs may still come)."))
_TOOK = (N_("You took the trick: %(points)s."), N_("%(player)s took the trick: %(points)s."))
_WENT_OUT = {1: (N_("You went out first."), N_("%(player)s went out first.")),
             2: (N_("You went out second."), N_("%(player)s went out second.")),
             3: (N_("You went out third."), N_("%(player)s went out third.")),
             4: (N_("You went out fourth."), N_("%(player)s went out fourth.")),
             5: (N_("You went out fifth."), N_("%(player)s went out fifth."))}
_CLOCK_LEFT = {
    "grand": Nn_("%(count)s second left to decide about Grand Tichu!", "%(count)s seconds left to decide about Grand Tichu!"),
    "exchange": Nn_("%(count)s second left to pass your three cards!", "%(count)s seconds left to pass your three cards!"),
    "lead": Nn_("%(count)s second left to lead!", "%(count)s seconds left to lead!"),
    "follow": Nn_("%(count)s second left to play!", "%(count)s seconds left to play!"),
    "wish": Nn_("%(count)s second left to make the wish!", "%(count)s seconds left to make the wish!"),
    "give": Nn_("%(count)s second left to give the Dragon trick!", "%(count)s seconds left to give the Dragon trick!"),
    "dog": Nn_("%(count)s second left to choose who leads after the Dog!", "%(count)s seconds left to choose who leads after the Dog!"),
}


def _legal_rank(action: Action) -> int:
    return _LEGAL_RANK[type(action)]


def _remember_play_command(key: int | tuple[int, int], play: Play) -> str:
    """``/play ...`` for a listed play, remembered under ``key``: its cards' bit mask, with its
    Phoenix reading if it has one."""
    if len(_PLAY_COMMANDS) >= _PLAY_COMMANDS_CAP:
        _PLAY_COMMANDS.clear()
    command = _PLAY_COMMANDS[key] = "/" + play.notation()
    return command


#: How /legal groups plays for people, in this order.
PLAY_GROUPS = (
    (ComboType.SINGLE, _("singles")), (ComboType.DOG, _("the Dog")), (ComboType.PAIR, _("pairs")),
    (ComboType.TRIPLE, _("triples")), (ComboType.FULL_HOUSE, _("full houses")),
    (ComboType.STRAIGHT, _("straights")), (ComboType.STAIRS, _("stairs")),
    (ComboType.FOUR_BOMB, _("bombs")), (ComboType.STRAIGHT_FLUSH, _("straight flushes")),
)


def _seconds(count: int) -> Text:
    return _n("%(count)s second", "%(count)s seconds", count)


def cards_left(count: int) -> Text:
    return _n("%(count)s card left", "%(count)s cards left", count)


def play_name(combo: Combo) -> Wordable:
    """A combination's name as people read it, in their language (`Combo.describe` in English)."""
    t = combo.type
    if t is ComboType.SINGLE:
        card = next(iter(combo.cards)).text
        if card == "PH":
            return _("single PH (%(rank)s)", rank=f"{combo.rank:g}")
        return _("single %(card)s", card=card)
    if t is ComboType.DOG:
        return _("the Dog")
    rank = int(combo.rank)
    if t is ComboType.PAIR:
        return _("pair of %(ranks)s", ranks=RANK_WORDS[rank])
    if t is ComboType.TRIPLE:
        return _("triple of %(ranks)s", ranks=RANK_WORDS[rank])
    if t is ComboType.FULL_HOUSE:
        return _("full house of %(ranks)s", ranks=RANK_WORDS[rank])
    if t is ComboType.FOUR_BOMB:
        return _("bomb: four %(ranks)s", ranks=RANK_WORDS[rank])
    low = rank - (combo.length // 2 if t is ComboType.STAIRS else combo.length) + 1
    start, top = "MJ" if low == 1 else rank_text(low), rank_text(rank)
    if t is ComboType.STAIRS:
        return _("stairs %(low)s-%(high)s", low=start, high=top)
    if t is ComboType.STRAIGHT:
        return _("straight %(low)s-%(high)s", low=start, high=top)
    return _("bomb: straight flush %(low)s-%(high)s", low=start, high=top)


def short_play(combo: Combo) -> str:
    """The shortest text that names a play for a person: its rank, or its range of ranks."""
    t = combo.type
    if t is ComboType.SINGLE:
        [card] = combo.cards
        return card.text if card.rank is None or not 2 <= card.rank <= 14 else rank_text(card.rank)
    if t is ComboType.DOG:
        return "DG"
    top = int(combo.rank)
    if t in (ComboType.STRAIGHT, ComboType.STRAIGHT_FLUSH):
        low = top - combo.length + 1
        suit: str | None = ""
        if t is ComboType.STRAIGHT_FLUSH:
            suit = next(iter(combo.cards)).suit
        start = "MJ" if low == 1 else rank_text(low)  # the Mahjong starts a straight as a 1
        return f"{start}-{rank_text(top)}{suit}"
    if t is ComboType.STAIRS:
        low = top - combo.length // 2 + 1
        return f"{rank_text(low) * 2}-{rank_text(top) * 2}"
    if t is ComboType.FOUR_BOMB:
        return rank_text(top) * 4
    return rank_text(top)


def shown_play(combo: Combo) -> str:
    """A play as people read it: its name, then its cards unless the name already is the card
    (a single: "single MJ", not "single MJ [MJ]")."""
    if combo.type is ComboType.SINGLE:
        return combo.describe()
    return f"{combo.describe()} [{format_cards(combo.cards)}]"


def shown_play_worded(combo: Combo) -> Wordable:
    """`shown_play` in the reader's language."""
    name = play_name(combo)
    if combo.type is ComboType.SINGLE:
        return name
    return Joined("", [name, f" [{format_cards(combo.cards)}]"])


def _listed(items: Sequence[str]) -> str:
    """"a, b and c"."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _listed_worded(items: Sequence[Text]) -> Wordable:
    """`_listed` in the reader's language: "a, b and c"."""
    if len(items) == 1:
        return items[0]
    return _("%(items)s and %(last)s", items=Joined(", ", list(items[:-1])), last=items[-1])


def _no_message(texts: "GameTexts", event: ev.Event, viewer: int | None) -> None:
    """An event people are not told of."""
    return None


#: each event type's ``GameTexts._on_*`` handler, looked up once per type
_HANDLERS: dict[type, Callable] = {}
#: Events that come again and again in a round with the same fields (a turn, a pass, a
#: trick won): the message everyone reads of each is made once a round (`GameTexts.event`)
_RECURRING_EVENTS = frozenset({ev.TurnStarted, ev.Passed})
#: The phases that ask players something (PHASE's sentence tells them what to type)
_ASKING_PHASES = ("grand", "exchange")


def game_started(table: int, log_number: int, options: dict[str, Any]) -> Message:
    return Message("GAME", {"table": table, "log": log_number, "options": options},
                   _('A new game begins at table %(table)s; its log will be /log %(log_number)s.', table=table, log_number=log_number))


def game_log(number: int, text: str) -> Message:
    """A finished game's log: a 4-player game's in BSW's .tch format, another's in ours."""
    kind = "bswtichu variant log, docs/variant-log.md" if is_variant_log(text) else "BrettspielWelt .tch format"
    return Message("LOG", {"number": number, "text": text}, _('Log of game %(number)s (%(kind)s):\n%(rstrip)s', number=number, kind=kind, rstrip=text.rstrip()))


def result_fields(result: RoundResult) -> dict:
    """A round's result as ``ROUND_END`` (and ``TABLE``'s ``result``) give it: seats counted from 1
    (``double_victory``: the seats of the team that went out first, all of them)."""
    return {
        "finish_order": [s + 1 for s in result.finish_order],
        "double_victory": None if result.double_victory is None else [
            s + 1 for s in result.variant.team_seats(result.double_victory)],
        "card_points": list(result.card_points), "call_points": list(result.call_points),
        "calls": list(result.calls), "score": list(result.score)}


def _team_names(names: Sequence[str], seats: Sequence[int]) -> str:
    """A team as "A + C", each person once (in Duo one person plays the team's two hands)."""
    return " + ".join(dict.fromkeys(names[s] for s in seats))


class GameTexts:
    """Builds messages about one table's game (``table`` None: a game reviewed from its log);
    ``names`` are the players in seat order;
    ``trick_points()``, if given, counts the trick on the table (a won trick's points);
    ``time_left(seat)``, if given (the table has a turn clock), is the seconds left on a
    seat's clock (None: it does not run), ``time_left(None)`` the clock's full time;
    ``variant`` the game's form (a Trichu seating's `DUMMY` is named "dummy"); ``played_by``:
    the seats a person plays besides his own (the dummy's), and who plays each (TURN's ``by``)."""

    def __init__(self, table: int | None, names: Sequence[str], trick_points: Callable[[], int] | None = None,
                 time_left: Callable[[int | None], int | None] | None = None, variant: Variant = NANJING,
                 played_by: dict[int, str] | None = None):
        self.table = table
        self.names = [name if isinstance(name, str) else str(name) for name in names]
        self.variant = variant
        self.played_by = played_by or {}
        # Trichu's dealer is told why he is not asked about Grand Tichu
        dealer = () if variant.dummy_owner is None else (variant.dummy_owner,)
        self._asking = {"grand": variant.grand_seats + dealer, "exchange": tuple(range(variant.seats))}
        self.trick_points = trick_points
        self.time_left = time_left
        #: the message everyone reads of each `_RECURRING_EVENTS` event so far (its fields and
        #: the spectators' sentence depend on the event alone): made and encoded once a round
        self._recurring: dict[ev.Event, Message] = {}
        #: the full LEGAL of one or two commands (a seat that can only pass, say) by seat and
        #: commands: the same few lists come again and again in a round
        self._short_legal: dict[tuple, Message] = {}

    def forget(self) -> None:
        """Drop the messages kept for the round (they refer back to these texts): the round or
        the game is over, and reference counting can free them; ``trick_points`` refers
        back to the game)."""
        self._recurring.clear()
        self._short_legal.clear()
        self.trick_points = None

    def named(self, seat: int) -> Text:
        """A seat's player as others read him: "Ann (seat 2)"."""
        return _("%(name)s (seat %(seat)s)", name=self.names[seat], seat=seat + 1)

    def said(self, seat: int, viewer: int | None, yours: str, theirs: str, **values: Any) -> Text:
        """One of two whole sentences: ``yours`` for the seat's own player, ``theirs`` (with
        ``%(player)s``) for everyone else."""
        if seat == viewer:
            return Text(yours, None, 1, values)
        return Text(theirs, None, 1, {"player": self.named(seat), **values})

    def who(self, seat: int, viewer: int | None) -> str:
        """How ``viewer`` reads a seat: "you", or the name and seat (a sentence may start with it)."""
        return "You" if seat == viewer else f"{self.names[seat]} (seat {seat + 1})"

    def whom(self, seat: int, viewer: int | None) -> str:
        """The same inside a sentence."""
        return "you" if seat == viewer else f"{self.names[seat]} (seat {seat + 1})"

    def _msg(self, keyword: str, fields: dict, text: Wordable | Callable[[], Wordable]) -> Message:
        return Message(keyword, {"table": self.table, **fields}, text)

    # ------------------------------------------------------------------ events

    def addressed(self, event: ev.Event) -> tuple[int, ...]:
        """The seats an event's text may call "you": its ``seat`` and ``to``.

        Every other reader gets the spectators' wording (the handlers below
        compare the viewer with nothing else).
        """
        if type(event) is ev.PhaseStarted:
            return self._asking.get(event.phase, ())
        seat, to = getattr(event, "seat", None), getattr(event, "to", None)
        if isinstance(to, int):
            return (seat, to) if isinstance(seat, int) else (to,)
        return (seat,) if isinstance(seat, int) else ()

    def event(self, event: ev.Event, viewer: int | None) -> Message | None:
        """The message for one engine event, as ``viewer`` should read it."""
        kind = type(event)
        handler = _HANDLERS.get(kind)
        if handler is None:
            handler = _HANDLERS[kind] = getattr(GameTexts, "_on_" + kind.__name__, _no_message)
        if viewer is None and kind in _RECURRING_EVENTS and self.time_left is None:
            message = self._recurring.get(event)
            if message is None:
                message = self._recurring[event] = handler(self, event, None)
            return message
        return handler(self, event, viewer)

    def _on_CardsDealt(self, e: ev.CardsDealt, viewer):
        # the first cards, the rest after the Grand Tichu decision (always fewer), or a whole hand
        n = len(e.cards)
        first = self.variant.grand_after
        source = ("Your first %(count)s cards: %(cards)s" if n == first else
                  "Your last %(count)s cards: %(cards)s" if n < first else "Your %(count)s cards: %(cards)s")
        return self._msg("DEALT", {"seat": e.seat + 1, "cards": [c.text for c in e.cards]},
                         lambda: Text(source, None, 1, {"count": n, "cards": format_cards(e.cards)}))

    def _on_PhaseStarted(self, e: ev.PhaseStarted, viewer):
        # the players are asked (`addressed`); a spectator, who cannot answer, is told what happens
        variant = self.variant
        first = variant.grand_after
        text: Wordable
        if e.phase == "grand" and variant.dummy is not None:
            text = self._trichu_grand(viewer)
        elif e.phase not in ("grand", "exchange"):
            text = _("The exchange is done; play begins.")
        elif viewer is None:
            text = (_("The players look at their first %(count)s cards and decide about Grand Tichu.", count=first)
                    if e.phase == "grand" else _("The players pass %(cards)s each.", cards=self._cards_worded))
        elif e.phase == "grand":
            text = _("Grand Tichu? Look at your %(count)s cards: /grand calls it (200), /nogrand declines.",
                     count=first)
        elif variant is NANJING:
            text = _("Exchange: /schupf %(usage)s passes %(cards)s (to the right opponent, the partner, the"
                     " left opponent).", usage=self._exchange_usage, cards=self._cards_worded)
        else:
            text = _("Exchange: /schupf %(usage)s passes %(cards)s (%(order)s).", usage=self._exchange_usage,
                     cards=self._cards_worded, order=variant.exchange_text())
        fields: dict[str, Any] = {"phase": e.phase}
        if e.phase == "grand" and viewer is not None and viewer not in variant.grand_seats:
            fields["asked"] = False  # Trichu's dealer: the others decide (no prompt for him)
        left = self.time_left(viewer) if self.time_left is not None and e.phase in _ASKING_PHASES else None
        if left is not None:
            fields["clock"] = left
            text = (_("%(sentence)s (%(time)s each.)", sentence=text, time=_seconds(left)) if viewer is None
                    else Joined("", [text, " (", _seconds(left), ".)"]))
        return self._msg("PHASE", fields, text)

    def _trichu_grand(self, viewer: int | None) -> str:
        """Trichu's Grand Tichu phase: who decides, and why the dealer and the dummy do not
        (docs/rules.md, item 23), as the dealer, a player who decides, or a spectator reads it."""
        variant = self.variant
        dealer: int = variant.dummy_owner  # type: ignore[assignment]  # Trichu's dealer owns the dummy
        first = variant.grand_after
        deciders = _listed([self.whom(seat, None) for seat in variant.grand_seats if seat != viewer])
        why = (f"got all {variant.hand_sizes()[dealer]} cards at once: in Trichu the dealer and the dummy"
               " call no Grand Tichu,"
               " though the dealer may call Tichu for either now (/tichu, /dummy tichu)")
        if viewer == dealer:
            return f"You deal this round: you and the dummy {why}. {deciders} decide about Grand Tichu first."
        if viewer is None:
            return (f"{deciders} look at their first {first} cards and decide about Grand Tichu; the dealer,"
                    f" {self.whom(dealer, None)}, and the dummy {why}.")
        return (f"Grand Tichu? Look at your {first} cards: /grand calls it (200), /nogrand declines."
                f" (The dealer, {self.whom(dealer, None)}, and the dummy {why}.)")

    def _on_GrandDecided(self, e: ev.GrandDecided, viewer):
        if e.called:
            return None  # the TichuCalled event that follows says it
        return self._msg("GRAND_DECIDED", {"seat": e.seat + 1, "player": self.names[e.seat],
                                           "called": False},
                         lambda: self.said(e.seat, viewer, _DECLINED[0], _DECLINED[1]))

    def _on_TichuCalled(self, e: ev.TichuCalled, viewer):
        said = _CALLED_GRAND if e.grand else _CALLED_TICHU
        return self._msg("TICHU", {"seat": e.seat + 1, "player": self.names[e.seat], "grand": e.grand},
                         lambda: self.said(e.seat, viewer, *said))

    def _on_ExchangeSubmitted(self, e: ev.ExchangeSubmitted, viewer):
        return self._msg("EXCHANGE_SUBMITTED", {"seat": e.seat + 1, "player": self.names[e.seat]},
                         lambda: self._passed_cards(e.seat, viewer))

    @property
    def _cards_passed(self) -> str:
        count = len(self.variant.exchange_steps)
        return "three cards" if count == 3 else counted(count, "card")

    @property
    def _cards_worded(self) -> Text:
        """`_cards_passed` in the reader's language."""
        count = len(self.variant.exchange_steps)
        return _("three cards") if count == 3 else _n("%(count)s card", "%(count)s cards", count)

    @property
    def _exchange_usage(self) -> str:
        """The exchange command's arguments: C1 C2 C3 in the 4-player game."""
        return " ".join(f"C{k}" for k in range(1, len(self.variant.exchange_steps) + 1))

    def passed(self, given: dict[int, Card]) -> Text:
        """What a seat read when it passed its cards (``given``: by the seat each went to)."""
        passes = [_("%(card)s to %(player)s", card=card.text, player=self._hand_name(to))
                  for to, card in sorted(given.items())]
        return _("You passed %(cards)s.", cards=_listed_worded(passes))

    def received(self, e: ev.CardsReceived, given: dict[int, Card]) -> Message:
        """The exchange as the seat saw it: what it got (it read what it passed, ``given``, when it did)."""
        got = [_("%(card)s from %(player)s", card=card.text, player=self._hand_name(giver))
               for giver, card in sorted(e.received.items())]
        return self._msg("RECEIVED", {"seat": e.seat + 1,
                                      "cards": {str(g + 1): c.text for g, c in sorted(e.received.items())},
                                      "given": {str(t + 1): c.text for t, c in sorted(given.items())}},
                         _("You received %(cards)s.", cards=_listed_worded(got)))

    def _on_TurnStarted(self, e: ev.TurnStarted, viewer):
        left = None if self.time_left is None else self.time_left(e.seat)

        def text() -> Wordable:
            if e.seat == viewer:
                turn: Text = YOUR_TURN[e.need]
            else:
                turn = Text(THEIR_TURN[e.need], None, 1, {"player": self.named(e.seat)})
            if left is None:
                return turn
            return Joined("", [turn, " (", _seconds(left), ")"])

        fields: dict[str, Any] = {"seat": e.seat + 1, "player": self.names[e.seat], "need": e.need}
        if e.seat in self.played_by:  # a second hand's: who plays it, with which command
            fields["by"] = self.played_by[e.seat]
            fields["command"] = second_hand_word(self.variant)
        if left is not None:
            fields["clock"] = left
        return self._msg("TURN", fields, text)

    def _on_Played(self, e: ev.Played, viewer):
        def text() -> Wordable:
            said = _PLAYED[e.combo.is_bomb, e.out_of_turn]
            return self.said(e.seat, viewer, *said, play=shown_play_worded(e.combo), left=cards_left(e.cards_left))

        return self._msg("PLAYED", {"seat": e.seat + 1, "player": self.names[e.seat],
                                    "combo": e.combo.to_dict(), "out_of_turn": e.out_of_turn,
                                    "cards_left": e.cards_left}, text)

    def _on_Passed(self, e: ev.Passed, viewer):
        return self._msg("PASSED", {"seat": e.seat + 1, "player": self.names[e.seat]},
                         lambda: self.said(e.seat, viewer, *_PASSED))

    def _on_WishMade(self, e: ev.WishMade, viewer):
        rank = None if e.rank is None else rank_text(e.rank)
        said = _NO_WISH if rank is None else _WISHED
        return self._msg("WISH", {"seat": e.seat + 1, "player": self.names[e.seat], "rank": rank},
                         lambda: self.said(e.seat, viewer, *said, rank=rank))

    def _on_WishFulfilled(self, e: ev.WishFulfilled, viewer):
        return self._msg("WISH_FULFILLED", {"seat": e.seat + 1, "rank": rank_text(e.rank)},
                         _("The wish for %(rank)s is fulfilled.", rank=rank_text(e.rank)))

    def _on_TrickWon(self, e: ev.TrickWon, viewer):
        # the points are said here, before the next lead is asked: people are not told again
        # when the winner takes the trick at that lead (`TableGame._taken_as_won`)
        fields = {"seat": e.seat + 1, "player": self.names[e.seat], "leader": e.leader + 1}
        if self.trick_points is None:
            return self._msg("TRICK_WON", fields,
                             lambda: self.said(e.seat, viewer, *_WON))
        fields["points"] = points = self.trick_points()
        return self._msg("TRICK_WON", fields,
                         lambda: self.said(e.seat, viewer, *_WON_POINTS, points=_points(points)))

    def _on_TrickCollected(self, e: ev.TrickCollected, viewer):
        return self._msg("TRICK_TAKEN", {"seat": e.winner + 1, "to": e.to + 1, "points": e.points},
                         lambda: self.said(e.to, viewer, *_TOOK, points=_points(e.points)))

    def _on_DragonGiven(self, e: ev.DragonGiven, viewer):
        return self._msg("DRAGON_GIVEN", {"seat": e.seat + 1, "to": e.to + 1, "points": e.points},
                         lambda: self._dragon_given(e, viewer))

    def _on_DogLeadChosen(self, e: ev.DogLeadChosen, viewer):
        return self._msg("DOG_LEAD", {"seat": e.seat + 1, "to": e.to + 1, "leader": e.leader + 1},
                         lambda: f"{self.who(e.seat, viewer)} chose {self.whom(e.to, viewer)} to lead"
                                 + ("." if e.leader == e.to else f"; {self.whom(e.leader, viewer)} leads"
                                                                 " in his place."))

    def _on_PlayerOut(self, e: ev.PlayerOut, viewer):
        return self._msg("OUT", {"seat": e.seat + 1, "player": self.names[e.seat], "place": e.place},
                         lambda: self.said(e.seat, viewer, *_WENT_OUT[e.place]))

    def _passed_cards(self, seat: int, viewer: int | None) -> Text:
        count = len(self.variant.exchange_steps)
        if count == 3:
            return self.said(seat, viewer, N_("You passed three cards."), N_("%(player)s passed three cards."))
        if seat == viewer:
            return _n("You passed %(count)s card.", "You passed %(count)s cards.", count)
        return _n("%(player)s passed %(count)s card.", "%(player)s passed %(count)s cards.", count,
                  player=self.named(seat))

    def _dragon_given(self, e: ev.DragonGiven, viewer: int | None) -> Text:
        points = _points(e.points)
        if e.seat == viewer:
            return _("You gave the Dragon trick to %(other)s: %(points)s.", other=self.named(e.to), points=points)
        if e.to == viewer:
            return _("%(player)s gave the Dragon trick to you: %(points)s.", player=self.named(e.seat),
                     points=points)
        return _("%(player)s gave the Dragon trick to %(other)s: %(points)s.", player=self.named(e.seat),
                 other=self.named(e.to), points=points)

    def _on_RoundEnded(self, e: ev.RoundEnded, viewer):
        return self.round_result(e.result)  # type: ignore[arg-type]  # the round's RoundResult

    def _on_SeatingChanged(self, e: ev.SeatingChanged, viewer):
        names = [p if isinstance(p, str) else str(p) for p in e.players]
        if self.variant.dummy is not None:  # Trichu: the seats move round by round, the people first
            seating = ", ".join(f"{n} (seat {i})" for i, n in enumerate(names, start=1))
            dealer: int = self.variant.dummy_owner  # type: ignore[assignment]  # Trichu's dealer owns the dummy
            seating += f"; {names[dealer]} deals and plays the dummy's hand"
        else:
            seating = ", ".join(f"seat {i} {n}" for i, n in enumerate(names, start=1))
        return Message("SEATING", {"table": self.table, "seats": names},
                       _('Seating for this round: %(seating)s. Partners: %(sides)s.', seating=seating,
                         sides=self._sides_worded(names)))

    def _sides(self, names: Sequence[str], points: Sequence[int] | None = None) -> str:
        """"A + C against B + D" (with ``points``: "A + C 120, B + D -20"), by the variant's teams."""
        teams = [_team_names(names, self.variant.team_seats(team)) for team in (0, 1)]
        if points is None:
            return " against ".join(teams)
        return ", ".join(f"{team} {p}" for team, p in zip(teams, points))

    def _sides_worded(self, names: Sequence[str], points: Sequence[int] | None = None) -> Wordable:
        """`_sides` in the reader's language."""
        if points is not None:
            return self._sides(names, points)
        teams = [_team_names(names, self.variant.team_seats(team)) for team in (0, 1)]
        return _("%(team)s against %(other)s", team=teams[0], other=teams[1])

    def _hand_name(self, seat: int) -> str:
        """A seat's player, with the seat where he plays more than one hand (Duo: "Ann (seat 3)")."""
        name = self.names[seat]
        return name if self.names.count(name) == 1 else f"{name} (seat {seat + 1})"

    def _on_SubstituteStarted(self, e: SubstituteStarted, viewer):
        until = (f"{e.player} types anything (time ran out {CLOCK_STRIKES} times in a row)"
                 if e.reason == "clock" else f"{e.player} comes back")
        return self._msg("SUBSTITUTE", {"player": e.player, "level": e.level, "reason": e.reason},
                         f"A {e.level} bot plays for {e.player} until {until}.")

    def _on_ClockWarning(self, e: ClockWarning, viewer):
        doing = {"grand": "decide about Grand Tichu", "exchange": "pass your three cards"}.get(
            e.need, TURN_DOING.get(e.need, e.need))
        return self._msg("CLOCK", {"seat": e.seat + 1, "player": e.player, "seconds": e.seconds,
                                   "need": e.need},
                         _n(_CLOCK_LEFT[e.need][0], _CLOCK_LEFT[e.need][1], e.seconds)
                         if e.need in _CLOCK_LEFT else f"{_seconds(e.seconds)} left to {doing}!")

    def _on_ClockRanOut(self, e: ClockRanOut, viewer):
        return self._msg("CLOCK_OUT", {"seat": e.seat + 1, "player": e.player, "level": e.level,
                                       "strikes": e.strikes},
                         lambda: self.said(e.seat, viewer, N_("Time is up for you: a %(level)s bot decides this once."),
                                           N_("Time is up for %(player)s: a %(level)s bot decides this once."),
                                           level=e.level))

    def _on_SubstituteEnded(self, e: SubstituteEnded, viewer):
        return self._msg("SUBSTITUTE_END", {"player": e.player},
                         _("%(player)s plays again (the bot stands aside).", player=e.player))

    # ------------------------------------------------------------------ the game as a whole

    def score(self, game: Game, moment: str = "now") -> Message:
        """The score (a tournament's standings): ``now`` (/score), after a ``round``, or ``final``."""
        standings = [s.to_dict() for s in game.standings()]
        done = sum(1 for rnd in game.rounds if rnd.phase == OVER)
        of = (TOURNAMENT_ROUNDS if game.options.turnier else game.options.round_limit)
        rounds = (_("%(done)s of %(of)s rounds", done=done, of=of) if of
                  else _n("%(count)s round", "%(count)s rounds", done))
        heading = {"now": _("Score after %(rounds)s", rounds=rounds),
                   "round": (_("After round %(done)s of %(of)s", done=done, of=of) if of
                             else _("After round %(done)s", done=done)),
                   "final": _("Final standings after %(rounds)s", rounds=rounds)}[moment]
        text: Wordable
        if game.options.turnier:
            parts = [_("%(place)s. %(player)s %(victory_points)s VP (%(points)s)", place=s['place'],
                       player=s['player'], victory_points=s['victory_points'], points=s['points'])
                     for s in standings]
            text = Joined("", [heading, ": ", Joined(", ", list(parts)), "."])
        elif game.variant.per_player_scores:
            listed = ", ".join(f"{s['place']}. {s['player']} {s['points']}" for s in standings)
            text = Joined("", [heading, ": " + listed + " ", _("(the dummy %(points)s).", points=game.dummy_points)])
        else:
            text = Joined("", [heading, f": {self._sides(game.seating, game.totals)}."])  # type: ignore[arg-type]  # players: names
        fields = {"rounds": len(game.rounds), "totals": list(game.totals),
                  "standings": standings, "turnier": game.options.turnier}
        if game.variant.per_player_scores:
            fields["scores"], fields["dummy"] = list(game.scores()), game.dummy_points
        return self._msg("SCORE", fields, text)

    def game_over(self, event: ev.GameOver, final: Message, log_number: int) -> Message:
        """The end of the game; ``final`` is the final score message."""
        winners: list[str] = list(event.winners)  # type: ignore[arg-type]  # the players are names here
        if winners:
            text: Text = _("Game over at table %(table)s! Winners: %(winners)s.", table=self.table,
                           winners=", ".join(winners))
        else:
            text = _("Game over at table %(table)s: a draw.", table=self.table)
        final_standings: tuple[Standing, ...] = event.standings  # type: ignore[assignment]  # Game.standings()
        standings = [s.to_dict() for s in final_standings]
        return self._msg("GAME_OVER", {"winners": winners, "standings": standings, "log": log_number},
                         Joined(" ", [text, final.source,
                                      _("The game's log: /log %(log)s.", log=log_number)]))

    def round_result(self, result: RoundResult) -> Message:
        score = result.score
        order = ", ".join(self._hand_name(s) for s in result.finish_order)
        how: Text
        if result.double_victory is not None:
            team = _team_names(self.names, self.variant.team_seats(result.double_victory))
            how = (_("Triple victory for %(team)s!", team=team) if self.variant.team_size == 3
                   else _("Double victory for %(team)s!", team=team))
        else:
            how = _("Order out: %(order)s.", order=order)
        calls = [(_("%(player)s %(call)s won", player=self._hand_name(s), call=c)
                  if result.finish_order and result.finish_order[0] == s else
                  _("%(player)s %(call)s lost", player=self._hand_name(s), call=c))
                 for s, c in enumerate(result.calls) if c]
        values = {"how": how, "ours": result.card_points[0], "theirs": result.card_points[1],
                  "score": self._sides_worded(self.names, score)}
        if calls:
            text = _("Round over. %(how)s Cards %(ours)s : %(theirs)s; calls: %(calls)s. Round score: %(score)s.",
                     calls=Joined(", ", list(calls)), **values)
        else:
            text = _("Round over. %(how)s Cards %(ours)s : %(theirs)s. Round score: %(score)s.", **values)
        return self._msg("ROUND_END", result_fields(result), text)

    # ------------------------------------------------------------------ views

    def hand(self, view: RoundView, own: bool = True) -> Message:
        """A seat's hand; not ``own``: the second hand its reader plays (Trichu's dummy)."""
        cards = view.hand or ()
        seat: int = view.seat  # type: ignore[assignment]  # a hand is shown in a seat's view
        values = {"count": len(cards), "cards": format_cards(cards) or _("empty"), "seat": seat + 1,
                  "name": self.names[seat]}
        if own:
            text = _("Your hand (%(count)s): %(cards)s", **values)
        elif self.variant.dummy is None:
            text = _("Your second hand (seat %(seat)s), which you play (%(count)s): %(cards)s", **values)
        else:
            text = _("The hand of %(name)s (seat %(seat)s), which you play (%(count)s): %(cards)s", **values)
        return self._msg("HAND", {"seat": seat + 1, "cards": [c.text for c in cards]}, text)

    def _second_hand(self, seat: int) -> str:
        """A further hand as its player reads of it: Trichu's "dummy (seat 3)", Duo's "your
        second hand (seat 3)" (there the seat's name is his own)."""
        if self.variant.dummy is None:
            return f"your second hand (seat {seat + 1})"
        return f"{self.names[seat]} (seat {seat + 1})"

    def open_hand(self, view: RoundView) -> Message:
        """The dummy's hand, open to everyone at the table once play begins (Trichu)."""
        dummy: int = view.variant.dummy  # type: ignore[assignment]  # an open hand is the dummy's
        cards = view.open_hand or ()
        return self._msg("OPEN_HAND", {"seat": dummy + 1, "cards": [c.text for c in cards]},
                         _("The dummy's open hand (seat %(seat)s): %(cards)s.", seat=dummy + 1,
                           cards=format_cards(cards) or _("empty")))

    def table_view(self, view: RoundView, round_number: int, totals_text: str | None, totals: dict,
                   away: Sequence[bool] | None = None, afk: dict[int, str] | None = None,
                   plays: Sequence[int] = ()) -> Message:
        """The table as ``view``'s seat sees it; ``away`` marks, by engine seat, who is not there,
        ``afk`` the /away texts of those who said it;
        ``totals_text`` (the score's sentence) ends it unless None (the reader was just told it);
        ``plays``: the engine seats the reader plays beyond his own (Trichu's dealer: the dummy)."""
        seats = len(self.names)
        time_left = self.time_left
        left: list[int | None] = [time_left(seat) for seat in range(seats)] if time_left is not None else [None] * seats
        heading = _("Table %(table)s, round %(round)s, phase %(phase)s.", table=self.table, round=round_number,
                    phase=view.phase)
        lines: list[Wordable] = [heading if time_left is None else Joined(" ", [heading, _(
            "Turn clock: %(time)s per decision.", time=_seconds(time_left(None)))])]  # type: ignore[arg-type]  # its full time
        lines += [self._seat_line(view, seat, left[seat], (away or (False,) * seats)[seat], afk, plays)
                  for seat in range(seats)]
        lines += self._on_the_table(view)
        if totals_text is not None:
            lines.append(f"  {totals_text}")
        return self._msg("TABLE", self._view_fields(view, round_number, totals, afk, plays, left), Joined("\n", lines))

    def _seat_line(self, view: RoundView, seat: int, seat_left: int | None, away: bool,
                   afk: dict[int, str] | None, plays: Sequence[int]) -> Wordable:
        """One seat's line of the table: its cards, clock, call, place out, turn, and who it is."""
        marks: list[Wordable] = [] if seat_left is None else [_("(%(time)s left)", time=_seconds(seat_left))]
        call = view.calls[seat]
        if call:
            marks.append(call.upper())
        if seat in view.finish_order:
            marks.append(_("out %(place)s.", place=view.finish_order.index(seat) + 1))
        if view.turn == seat:
            marks.append(f"<- {view.need}")
        yours: list[Wordable] = [_("(you)")] if seat == view.seat else [_("(yours to play)")] if seat in plays else \
            [_("(away)")] if away else []
        if afk and seat in afk:
            yours.append(_("(away: %(reason)s)", reason=afk[seat]))
        name = self.names[seat]
        place = _("%(name)s (seat %(seat)s)", name=name, seat=seat + 1) if self.variant.dummy is not None else \
            _("seat %(seat)s %(name)s", seat=seat + 1, name=name)  # Trichu's seats move
        parts: list[Wordable] = ["  ", place]
        for part in yours:
            parts += [" ", part]
        parts += [": ", _("%(count)s cards", count=view.hand_counts[seat])]
        for mark in marks:
            parts += [" ", mark]
        return Joined("", parts)

    def _on_the_table(self, view: RoundView) -> list[Wordable]:
        """The table's lines after the seats: the play to beat, the wish, the dummy's open hand."""
        lines: list[Wordable] = []
        if view.top is not None:
            by: int = view.top_seat  # type: ignore[assignment]  # set with the top
            values = {"play": shown_play(view.top), "seat": self._hand_name(by)}
            lines.append(Joined("", ["  ", _("On the table: %(play)s by %(seat)s (won, bombs may still come).",
                                             **values) if view.trick_won else
                                     _("On the table: %(play)s by %(seat)s.", **values)]))
        elif view.phase == "play":
            lines.append(Joined("", ["  ", _("The table is empty.")]))
        if view.wish is not None:
            lines.append(Joined("", ["  ", _("Wish: %(rank)s.", rank=rank_text(view.wish))]))
        if view.open_hand is not None:
            dummy: int = view.variant.dummy  # type: ignore[assignment]  # an open hand is the dummy's
            lines.append(Joined("", ["  ", _("The dummy's open hand (seat %(seat)s): %(cards)s.", seat=dummy + 1,
                                             cards=format_cards(view.open_hand) or _("empty"))]))
        return lines

    def _view_fields(self, view: RoundView, round_number: int, totals: dict, afk: dict[int, str] | None,
                     plays: Sequence[int], left: list[int | None]) -> dict[str, Any]:
        """The TABLE message's fields: the view with seats counted from 1, the totals, the clocks."""
        fields = {"round": round_number, "names": self.names, **view.to_dict(), **totals,
                  "afk": {str(seat + 1): text for seat, text in (afk or {}).items()}}
        if view.seat is not None:
            fields["seat"] = view.seat + 1
        fields["turn"] = None if view.turn is None else view.turn + 1
        fields["top_seat"] = None if view.top_seat is None else view.top_seat + 1
        fields["finish_order"] = [s + 1 for s in view.finish_order]
        fields["result"] = None if view.result is None else result_fields(view.result)
        fields["trick"] = [{"seat": t["seat"] + 1, "combo": t["combo"]} for t in fields["trick"]]
        fields["wish"] = None if view.wish is None else rank_text(view.wish)
        if self.time_left is not None:
            fields["clock"], fields["clock_left"] = self.time_left(None), left
        if view.variant is not NANJING:
            fields["plays"] = [] if view.seat is None else [view.seat + 1, *(s + 1 for s in plays)]
        return fields

    def legal(self, seat: int, actions: Iterable[Action], hand: Iterable[Card], full: bool = False,
              second: str = "") -> Message:
        """The seat's legal actions as the commands that take them, plays first (`LEGAL_ORDER`).

        People read the plays grouped by kind and rank ("singles: 3 5 K | pairs: 5");
        ``full`` (``/legal all``) lists every command, as machine mode always does.
        The exchange's 2184 choices are one command, a pass from ``hand`` (the seat's) that
        may be sent as it is (`suggested_exchange`): ``actions`` is read up to the first.
        ``second``: the command that marks a second hand's actions (``dummy``): each
        command is that command's (``/dummy play 7j``).
        """
        listed, commands, exchange = self._legal_commands(seat, actions, hand)
        if second:
            commands = [f"/{second} {command[1:]}" for command in commands]
        short = full and len(commands) <= 2  # e.g. only /pass: the same list again and again
        if short:
            key = (seat, exchange, *commands)
            message = self._short_legal.get(key)
            if message is not None:
                return message

        def text() -> Wordable:
            if not commands:
                return _("Nothing to do right now.")
            if second:
                mine = f" for {self._second_hand(seat)}: /{second} before each command"
                if full:
                    return f"Legal now{mine} ({len(commands)}): " + " | ".join(commands)
                return Joined("", [f"Legal now{mine}: ",
                                   self._legal_summary(sorted(listed, key=_legal_rank), exchange)])
            if full:
                return _("Legal now (%(count)s): %(commands)s", count=len(commands), commands=" | ".join(commands))
            return _("Legal now: %(summary)s", summary=self._legal_summary(sorted(listed, key=_legal_rank), exchange))

        message = self._msg("LEGAL", {"seat": seat + 1, "commands": commands, "exchange": exchange is not None},
                            text)
        if short:
            self._short_legal[key] = message
        return message

    def _legal_commands(self, seat: int, actions: Iterable[Action], hand: Iterable[Card]
                        ) -> tuple[list[Action], list[str], str | None]:
        """The actions read (up to the first exchange), their commands (the plays first, then the
        other moves in `LEGAL_ORDER`), and the exchange's suggested pass if one is among them."""
        listed: list[Action] = []
        commands: list[str] = []  # the plays', in the order listed
        others: list[Action] = []  # the few other moves, put in `LEGAL_ORDER` below
        known = _PLAY_COMMANDS
        for action in actions:
            listed.append(action)
            if type(action) is Play:
                combo = action.combo  # a listed play carries its combination
                if combo is None:
                    commands.append("/" + action.notation())
                    continue
                key = combo.mask if action.phoenix_as is None else (combo.mask, action.phoenix_as)
                command = known.get(key)
                commands.append(command if command is not None else _remember_play_command(key, action))
            else:
                others.append(action)
                if type(action) is Exchange:
                    break
        exchange = None
        for action in sorted(others, key=_legal_rank):
            if type(action) is Exchange:
                passed = suggested_exchange(seat, hand, self.variant).cards
                exchange = "/schupf " + " ".join(card.text for card in passed)
                commands.append(exchange)
            else:
                commands.append("/" + action.notation())  # every notation is a command
        return listed, commands, exchange

    def _legal_summary(self, actions: list[Action], exchange: str | None) -> Wordable:
        """/legal's sentence: the plays grouped, then the other moves (``exchange``: the pass
        LEGAL suggests, shown beside the exchange's usage)."""
        groups: dict[ComboType, list[str]] = {}
        others: list[str] = []
        for action in actions:
            if isinstance(action, Play):
                combo = action.combo or classify(action.cards, action.phoenix_as)  # listed plays carry it
                names = groups.setdefault(combo.type, [])
                name = short_play(combo)
                if name not in names:
                    names.append(name)
            elif isinstance(action, MakeWish):
                if "/wish RANK|none" not in others:
                    others.append("/wish RANK|none")
            elif isinstance(action, Exchange):
                usage = f"/schupf {self._exchange_usage} (e.g. {exchange})"
                if usage not in others:
                    others.append(usage)
            else:
                others.append("/" + action.notation())
        parts: list[Wordable] = [Joined("", [label, f": {' '.join(groups[kind])}"])
                                 for kind, label in PLAY_GROUPS if kind in groups]
        listed = Joined(" | ", parts + others)  # type: ignore[operator]  # str parts too
        if groups:
            return _("%(listed)s. Play with /play and the cards (rank-only like /play 7 7 picks suits);"
                     " /legal all lists every play", listed=listed)
        return listed
