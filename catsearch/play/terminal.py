"""Playing in the terminal: ``catsearch-play <game> --human <seat>``, ``--record``, ``--replay``.

A person takes one seat at a :class:`~catsearch.search.table.Table`; the other seats are
played by AI players (``--player`` specs, or a difficulty ``--level``, see
:mod:`catsearch.play.levels`). The person is shown only what that seat may see: its view's
picture (``str(table.view(seat))``) when it is to move, and its observation of every move
(the text the game master sends the seat, with a gloss in plain words where one is easy).
It answers with a move's notation or its number in the list, written in brackets as the list
shows it (``[3]``), or ``help``, ``hint``, ``view``, ``quit``. A bare number is taken as a list
number only when no legal move's notation has those digits in it (so ``3`` never plays the
third move when a move such as ``pick3`` or a Cat Cards set with the card 3 is on offer: the
person is asked which was meant); the move played is always echoed with its notation. When the game is over every card is shown.

Without ``--seed`` the deal comes from a fresh random seed (:func:`fresh_seed`) and the AI
seats get fresh seeds of their own; both are told only when the game is over. A ``--seed``
the user gives is a deliberate reproducible game: it deals the same cards and seeds the AI.

``--record FILE`` writes the game as JSON (see :data:`RECORD_FORMAT` and the Play page of
the docs); ``--replay FILE`` prints it again with every card, move by move.

Nothing below ``catsearch.play`` imports this module; :func:`catsearch.cli.play_main` adds
its arguments with :func:`add_arguments` and hands the parsed arguments to :func:`main`.
"""

from __future__ import annotations

import argparse
import secrets
import sys
from typing import Any, TextIO

import catsearch
from catsearch._core.options import option_value, parse_int
from catsearch._core.state import State
from catsearch.errors import IllegalMoveError, InvalidMoveError
from catsearch.play.glosses import describe_observation
from catsearch.play.levels import DEFAULT_LEVEL, LEVEL_NAMES, LEVELS, level_spec
from catsearch.play.narrate import Narrator
from catsearch.play.reasons import end_reason, why_not_legal
from catsearch.play.record import RECORD_FORMAT, RECORD_VERSION, GameRecord
from catsearch.play.termlist import Palette, expand_group, format_list, use_colour
from catsearch.search.players import Player
from catsearch.search.spec import PlayerSpec
from catsearch.search.table import Played, Table

__all__ = ["add_arguments", "main", "play_human", "replay", "GameRecord", "RECORD_FORMAT",
           "RECORD_VERSION", "describe_observation", "parse_options", "seat_specs", "fresh_seed", "resolve_seed"]

#: what the person may type, besides a move (shown by ``help``)
HELP = """\
Commands:
  <move>     play a move written in the game's notation (as listed, e.g. {example})
  [<n>]      play the move listed as [n] (a bare n too, unless a move's notation has
             those digits in it: then you are asked which one you meant)
  {{<n>}}      list group n of a long, grouped list (also: group <n>)
  hint       what the AI ({level}) would play here, with its value for you
  view       show your view and your moves again
  help       this text
  quit       leave the game (also: end of input)
The list shows every move as [n] and its notation; what you play is said back."""

_QUIT = {"quit", "exit", "q"}
_HELP = {"help", "?", "h"}


# -- arguments (called by catsearch.cli.play_main) ---------------------------------------

def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the terminal's options to ``catsearch-play``'s parser."""
    group = parser.add_argument_group(
        "playing yourself (the terminal)",
        "Take a seat with --human; the other seats are AI players: --player specs in seat "
        "order for the AI seats, then --level for the rest.")
    group.add_argument("--human", type=int, metavar="SEAT",
                       help="play this seat yourself (0 is the first to move)")
    group.add_argument("--level", choices=LEVEL_NAMES, metavar="{easy,medium,hard,1..10}",
                       help="the AI seats without a --player spec play this level: "
                            + "; ".join(f"{lv.name} = {lv.spec}" for lv in LEVELS.values())
                            + f" (default with --human: {DEFAULT_LEVEL}; it is also what "
                              "'hint' uses)")
    group.add_argument("--record", metavar="FILE",
                       help="write the game (deal, players, every move, result) to FILE as "
                            "JSON")
    group.add_argument("--replay", metavar="FILE",
                       help="show a recorded game move by move with every card (no game "
                            "argument needed)")
    group.add_argument("--step", action="store_true",
                       help="with --replay: wait for Enter after each move (when the input "
                            "is a terminal)")
    # for tests and tools: start from a full state's notation instead of dealing by --seed
    group.add_argument("--deal-text", help=argparse.SUPPRESS)


def parse_options(items: list[str]) -> dict[str, Any]:
    """``["target=12", "setup=random"]`` -> ``{"target": 12, "setup": "random"}``."""
    options: dict[str, Any] = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"--option expects KEY=VALUE, not {item!r}")
        options[key.strip()] = option_value(value.strip())
    return options


#: fresh seeds are drawn from 0..FRESH_SEEDS - 1 (``secrets``: not guessable from anything)
FRESH_SEEDS = 2**63


def fresh_seed() -> int:
    """A new seed from the operating system's randomness (:mod:`secrets`): a deal or a
    player's seed that nothing the person is shown can give away."""
    return secrets.randbelow(FRESH_SEEDS)


def _derived_seed(seed: int | None, k: int) -> int:
    """A player's seed: derived from the game's ``seed`` when one was given (the same command
    seats the same players), else fresh (:func:`fresh_seed`): the AI's seeds then say nothing
    of the deal's."""
    if seed is None:
        return fresh_seed()
    return (seed * 1_000_003 + 7919 * (k + 1)) % 2**64


def resolve_seed(args: argparse.Namespace) -> None:
    """Fill in ``args.seed`` (a fresh random seed when ``--seed`` was not given) and set
    ``args.seed_given``: only a seed the user chose seeds the AI seats from it."""
    if getattr(args, "seed_given", None) is None:
        args.seed_given = args.seed is not None
    if args.seed is None:
        args.seed = fresh_seed()


def hidden_spec(spec: PlayerSpec | None) -> str:
    """A seat's spec as shown during the game: without its seed (shown at the end)."""
    if spec is None:
        return "you"
    return str(spec.without("seed")) if "seed" in spec else str(spec)


def seat_specs(players: int, human: int | None, given: list[str], level: str | None,
               seed: int | None) -> list[PlayerSpec | None]:
    """One spec per seat (``None`` for the person's seat).

    ``given`` fill the AI seats in seat order (the person's seat is skipped); the rest play
    ``level`` (``heuristic`` when no level is given and nobody is human, as before levels
    existed). With a person seated, a spec that takes a seed and has none gets one: derived
    from ``seed`` and its seat when ``seed`` is given (the user chose the seed: the same
    command plays the same game), else a fresh one from :mod:`secrets` (so that nothing the
    person sees gives the AI's seeds away, nor the deal's).

    :raises ValueError: more specs than AI seats, a seat out of range, a bad spec.
    """
    if human is not None and not 0 <= human < players:
        raise ValueError(f"--human {human}: seats are 0..{players - 1}")
    ai_seats = [s for s in range(players) if s != human]
    if len(given) > len(ai_seats):
        raise ValueError(f"{len(given)} --player specs for {len(ai_seats)} AI seats")
    if level is None:
        level = DEFAULT_LEVEL if human is not None else None
    rest = level_spec(level) if level is not None else "heuristic"
    specs: list[PlayerSpec | None] = [None] * players
    for i, seat in enumerate(ai_seats):
        spec = PlayerSpec.parse(given[i] if i < len(given) else rest)
        if human is not None and spec.accepts("seed") and "seed" not in spec:
            spec = spec.replace(seed=_derived_seed(seed, seat))
        specs[seat] = spec
    return specs


# -- a person at the table ---------------------------------------------------------------

class _Quit(Exception):
    """The person left (``quit`` or end of input)."""


class HumanSession:
    """One person at one seat of a :class:`Table`; reads lines from ``stdin``."""

    def __init__(self, table: Table, seat: int, *, hint_spec: PlayerSpec, level: str | None,
                 stdin: TextIO, stdout: TextIO, record: GameRecord | None = None,
                 seed: int | None = None, specs: list[PlayerSpec | None] | None = None) -> None:
        self.table = table
        self.seed = seed            # the deal's seed: told at the end, never before
        self.specs = specs or []    # the seats' specs: their seeds told at the end
        self.seat = seat
        self.game = table.state.game_id
        self.hint_spec = hint_spec
        self.level = level
        self.inp = stdin
        self.out = stdout
        self.record = record
        self._hint_player: Player | None = None
        self.narrator = Narrator(table.view(seat))   # follows the seat's view, move by move
        self.pal = Palette(on=use_colour(stdout))   # colour on a terminal, unless NO_COLOR
        self.groups: list = []
        try:
            self._echo = not stdin.isatty()
        except (AttributeError, ValueError):
            self._echo = True

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def who(self, seat: int) -> str:
        return "you" if seat == self.seat else f"seat {seat}"

    # what the person is shown ------------------------------------------------------------
    def show_view(self, moves: list[int], view: State) -> None:
        self.say(f"Your view (seat {self.seat}):")
        self.say(str(view))
        self.say("")
        self.say(self.pal.head("Your moves:"))
        lines, self.groups = format_list(self.game, [view.move_to_str(m) for m in moves],
                                         self.pal)
        for line in lines:
            self.say(line)

    def show_played(self, played: Played) -> None:
        text = played.observations[self.seat]      # what this seat saw, nothing more
        gloss = self.narrator.tell(played.seat, text)   # in plain words (play/narrate.py)
        colour = self.pal.mine if played.seat == self.seat else self.pal.other
        line = f"  {colour(self.who(played.seat) + ':')} {text}"
        self.say(line + (f"  ({gloss})" if gloss else ""))

    # the person's turn --------------------------------------------------------------------
    def read_line(self, prompt: str) -> str:
        if not self._echo and self.inp is sys.stdin and self.out is sys.stdout:
            try:                                # a person at a terminal: line editing
                return input(prompt).strip()
            except EOFError:
                self.say("")
                raise _Quit("end of input") from None
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.say("")
            raise _Quit("end of input")
        if self._echo:
            self.say(line.rstrip("\n"))
        return line.strip()

    def hint(self, view: State, moves: list[int]) -> None:
        if self._hint_player is None:
            self._hint_player = self.hint_spec.build()
        result = self._hint_player.search(view.clone())
        where = f"[{moves.index(result.move) + 1}] " if result.move in moves else ""
        value = result.value[self.seat] if self.seat < len(result.value) else float("nan")
        level = f"{self.level}: " if self.level else ""
        detail = [f"{result.iterations} iterations" if result.iterations > 1 else "",
                  f"{result.seconds:.2f} s"]
        self.say(f"hint ({level}{hidden_spec(self.hint_spec)}): {where}{view.move_to_str(result.move)}"
                 f"  value for you {value:.3f}  ({', '.join(d for d in detail if d)})")
        ranked = result.ranked(3)          # the top candidates, best first
        if len(ranked) > 1:
            self.say("  top moves: " + ", ".join(
                f"{r.rank}. {view.move_to_str(r.move)} {r.mean:.3f} ({r.visits} visits)"
                for r in ranked))

    def choose(self) -> int:
        """Ask the person for a move until a legal one comes; return it."""
        view = self.table.view(self.seat)
        moves = view.legal_moves()
        self.say("")
        self.show_view(moves, view)
        example = view.move_to_str(moves[0])
        while True:
            line = self.read_line(f"seat {self.seat}> ")
            word = line.lower()
            if not line:
                continue
            if word in _QUIT:
                raise _Quit("quit")
            if word in _HELP:
                shown = hidden_spec(self.hint_spec)
                self.say(HELP.format(example=example,
                                     level=f"{self.level}: {shown}" if self.level else shown))
                continue
            if word == "hint":
                self.hint(view, moves)
                continue
            if word in ("view", "show", "moves"):
                self.show_view(moves, view)
                continue
            shown = expand_group(line, self.groups, [view.move_to_str(m) for m in moves],
                                 self.pal)
            if shown is not None:           # {n}: a group of a long list, in full
                self.say("\n".join(shown))
                continue
            move = self._pick(view, line, moves)
            if move is not None:
                return move

    def _pick(self, view: State, line: str, moves: list[int]) -> int | None:
        """The move ``line`` names: its notation, ``[n]`` (the list's n-th), or a bare ``n``
        when no legal notation has those digits in it; ``None`` (having said why) else."""
        texts = [view.move_to_str(m) for m in moves]
        if line in texts:                               # the notation first
            return moves[texts.index(line)]
        number = line[1:-1].strip() if line[:1] == "[" and line[-1:] == "]" else None
        bare = number is None and line.isascii() and line.isdigit()
        if bare:
            number = line
            clash = [t for t in texts if line in t]
            if clash:
                listed = ""
                if parse_int_or_none(line, len(moves)) is not None:
                    listed = f"[{int(line)}] is {texts[int(line) - 1]}; "
                self.say(f"{line!r} is ambiguous: {listed}moves with {line} in them: "
                         f"{' '.join(clash[:8])}{' ...' if len(clash) > 8 else ''}. Type the "
                         f"move's notation, or [n] for the list's number")
                return None
        if number is not None:
            k = parse_int_or_none(number, len(moves))
            if k is not None:
                self.say(f"[{k}] = {texts[k - 1]}")
                return moves[k - 1]
            span = "there is only [1]" if len(moves) == 1 else \
                f"the moves are numbered [1] to [{len(moves)}]"
            self.say(f"no move [{number.lstrip('0')[:20] or 0}]: {span} (type 'view' to see "
                     "them, 'help' for the commands)")
            return None
        return self._parse(view, line, moves)

    def _parse(self, view: State, line: str, moves: list[int]) -> int | None:
        try:
            move = view.str_to_move(line)
        except (InvalidMoveError, ValueError) as e:
            self.say(f"not a move: {line!r} ({_short(e)}); type a move as listed (e.g. "
                     f"{view.move_to_str(moves[0])}), its number [1] to [{len(moves)}], or "
                     "'help'")
            return None
        if move not in moves:
            self.say(f"{line} cannot be played: {why_not_legal(view, line)}; your moves: "
                     + " ".join(view.move_to_str(m) for m in moves))
            return None
        return move

    # the game -------------------------------------------------------------------------------
    def run(self) -> int:
        table = self.table
        try:
            while not table.is_over():
                seat = table.current_player
                if seat == self.seat:
                    while True:
                        move = self.choose()
                        try:
                            played = table.play(move)
                            break
                        except IllegalMoveError:
                            # legal in the view, not at the table: say nothing of why (the
                            # message would describe the full state)
                            self.say("that move cannot be played here; choose another")
                else:
                    played = table.step()
                self._log(played)
                self.show_played(played)
        except _Quit as q:
            self.say(f"You left the game ({q}).")
            self.reveal()
            return 0
        finally:
            if self._hint_player is not None:
                self._hint_player.close()
        self.finish()
        return 0

    def _log(self, played: Played) -> None:
        if self.record is not None:
            self.record.moves.append({"seat": played.seat, "move": played.text})

    def finish(self) -> None:
        """The game is over: now every card may be shown."""
        table = self.table
        scores, returns = table.scores(), table.returns()
        if self.record is not None:
            self.record.result = {"scores": scores, "returns": returns}
        self.say("")
        self.say("=== game over: every card shown ===")
        self.say(str(table.state))
        self.say("")
        self.say(f"the game ended: {end_reason(table.state)}")
        self.say(f"scores: {scores}  returns: {returns}")
        mine = returns[self.seat]
        best = max(returns)
        winners = [s for s, r in enumerate(returns) if r == best and r > 0]
        if mine == best and len(winners) == 1:
            self.say("You win!")
        elif mine == best and mine > 0:
            others = [str(s) for s in winners if s != self.seat]
            self.say(f"You share the win with seat{'s' if len(others) > 1 else ''} "
                     f"{', '.join(others)}.")
        elif len(winners) == 1:
            self.say(f"You lose; seat {winners[0]} wins.")
        else:
            self.say(f"You lose; seats {', '.join(map(str, winners[:-1]))} and "
                     f"{winners[-1]} win.")
        self.reveal()

    def reveal(self) -> None:
        """The game is over (or the person left): the deal's seed and the AI seats' full
        specs, seeds included, which were kept back while it was on."""
        if self.seed is not None:
            self.say(f"the deal's seed: {self.seed} (catsearch.new_game({self.game!r}, "
                     f"players={self.table.state.players}, seed={self.seed}) deals it again)")
        for s, spec in enumerate(self.specs):
            if spec is not None and "seed" in spec:
                self.say(f"  seat {s} played {spec}")


def parse_int_or_none(text: str, count: int) -> int | None:
    """``text`` as a list number 1..``count``, or ``None``."""
    try:
        return parse_int(text, "move", 1, count)
    except ValueError:
        return None


def _short(e: Exception) -> str:
    """An error's message, without the position dumps some messages append."""
    text = str(e)
    return text.split(" in 'players=")[0].split(" in \"players=")[0]


def play_human(state: State, seat: int, specs: list[PlayerSpec | None], *,
               level: str | None = None, hint_spec: PlayerSpec | None = None,
               record: GameRecord | None = None, record_path: str | None = None,
               stdin: TextIO | None = None, stdout: TextIO | None = None,
               seed: int | None = None) -> int:
    """Play ``state`` (a full state at its start) with a person at ``seat``.

    :param specs: one spec per seat (``None`` at ``seat``), as :func:`seat_specs` gives.
    :param level: the level named in the output (and ``hint_spec``'s default).
    :param hint_spec: what ``hint`` searches with (default: the level's spec).
    :param record, record_path: the record to fill with the moves and write at the end
        (also when the person leaves early: then without a result).
    :param seed: the deal's seed, told when the game is over (never before); the AI seats'
        specs are shown without their seeds until then.
    :returns: the exit status (0).
    """
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    if hint_spec is None:
        hint_spec = PlayerSpec.parse(level_spec(level or DEFAULT_LEVEL))
        if hint_spec.accepts("seed") and "seed" not in hint_spec:
            hint_spec = hint_spec.replace(seed=fresh_seed())
    players = [None if s is None else s.build() for s in specs]
    table = Table(state, players)
    session = HumanSession(table, seat, hint_spec=hint_spec, level=level, stdin=stdin,
                           stdout=stdout, record=record, seed=seed, specs=specs)
    session.say(f"{state.game_id}, {state.players} players: you are seat {seat}"
                + (f"; AI level {level}" if level else "") + ".")
    for s, spec in enumerate(specs):
        session.say(f"  seat {s}: {hidden_spec(spec)}")
    session.say("Type a move's notation or its number in brackets ([1]); 'help' for the "
                "commands, 'quit' to leave.")
    try:
        return session.run()
    finally:
        table.close()
        if record is not None and record_path is not None:
            record.write(record_path)
            session.say(f"game recorded in {record_path}")


# -- replay --------------------------------------------------------------------------------

def replay(path: str, *, step: bool = False, stdin: TextIO | None = None,
           stdout: TextIO | None = None) -> int:
    """Show the recorded game in ``path`` move by move, every card shown.

    :param step: wait for Enter after each move when ``stdin`` is a terminal (``q`` stops).
    :raises ValueError: the file is not a record, or a recorded move does not play.
    """
    stdin = sys.stdin if stdin is None else stdin
    out = sys.stdout if stdout is None else stdout
    rec = GameRecord.read(path)
    state = catsearch.from_text(rec.game, rec.deal)
    if state.players != rec.players:
        raise ValueError(f"the deal has {state.players} seats, the record says {rec.players}")
    try:
        interactive = step and stdin.isatty()
    except (AttributeError, ValueError):
        interactive = False

    def say(text: str = "") -> None:
        out.write(text + "\n")
        out.flush()

    say(f"replay of {path}: {rec.game}, {rec.players} players, seed {rec.seed}, "
        f"options {rec.options or '{}'}")
    for s, who in enumerate(rec.seats):
        say(f"  seat {s}: {who}")
    say(str(state))
    for i, mv in enumerate(rec.moves):
        seat = state.current_player
        if mv["seat"] != seat:
            raise ValueError(f"move {i + 1} ({mv['move']}): the record says seat {mv['seat']}, "
                             f"but seat {seat} is to move")
        try:
            state.play(mv["move"])
        except (InvalidMoveError, IllegalMoveError) as e:
            raise ValueError(f"move {i + 1} ({mv['move']}) does not play: {_short(e)}") from None
        say("")
        say(f"move {i + 1}: seat {seat} plays {mv['move']}")
        say(str(state))
        if interactive and i + 1 < len(rec.moves):
            out.write("[Enter: next move, q: stop] ")
            out.flush()
            line = stdin.readline()
            if not line or line.strip().lower() in _QUIT:
                say("")
                return 0
    say("")
    if state.is_terminal():
        say(f"game over. scores: {state.scores()}  returns: {state.returns()}")
        if rec.result is not None and list(rec.result.get("scores", [])) != state.scores():
            raise ValueError(f"the recorded scores {rec.result.get('scores')} differ from the "
                             f"replayed game's {state.scores()}")
    else:
        say(f"the game was left after {len(rec.moves)} moves (not finished)")
    return 0


# -- the entry point --------------------------------------------------------------------------

def main(args: argparse.Namespace, stdin: TextIO | None = None,
         stdout: TextIO | None = None) -> int | None:
    """Run the terminal mode chosen by ``args`` (``--replay`` or ``--human``); ``None`` when
    neither is given (the caller watches bots play). Errors in the arguments print a message
    and return 2."""
    err = sys.stderr
    if args.replay is not None:
        try:
            return replay(args.replay, step=args.step, stdin=stdin, stdout=stdout)
        except (OSError, ValueError) as e:
            print(f"catsearch-play: error: {e}", file=err)
            return 2
        except KeyboardInterrupt:
            return 130
    if args.human is None:
        return None
    resolve_seed(args)
    chosen = args.seed if args.seed_given else None     # only a chosen seed seats the AI
    try:
        state, options = start_state(args)
        specs = seat_specs(state.players, args.human, args.player, args.level, chosen)
        level = args.level or DEFAULT_LEVEL
        hint = PlayerSpec.parse(level_spec(level))
        if hint.accepts("seed") and "seed" not in hint:
            hint = hint.replace(seed=_derived_seed(chosen, 100 + args.human))
        _check_live(state)
    except (ValueError, TypeError, NotImplementedError) as e:
        print(f"catsearch-play: error: {e}", file=err)
        return 2
    record = None
    if args.record:
        record = GameRecord(game=state.game_id, players=state.players, options=options,
                            seed=None if args.deal_text else args.seed, deal=state.to_text(),
                            seats=["human" if s is None else str(s) for s in specs],
                            level=level)
    try:
        return play_human(state, args.human, specs, level=level, hint_spec=hint,
                          record=record, record_path=args.record, stdin=stdin, stdout=stdout,
                          seed=None if args.deal_text else args.seed)
    except KeyboardInterrupt:
        print("interrupted", file=err)
        return 130


def start_state(args: argparse.Namespace) -> tuple[State, dict[str, Any]]:
    """The deal: ``--deal-text`` (a full state) or ``new_game(game, --players, --seed,
    --option...)`` (``--seed`` not given: a fresh random one, see :func:`resolve_seed`); and
    the options given."""
    resolve_seed(args)
    if args.game is None:
        raise ValueError("the game is required (one of " + ", ".join(catsearch.GAMES) + ")")
    options = parse_options(args.option)
    if args.deal_text:
        state = catsearch.from_text(args.game, args.deal_text)
        if state.view_seat is not None:
            raise ValueError("--deal-text must be a full state, not a seat's view")
        if state.is_terminal():
            raise ValueError("--deal-text: that game is over")
        return state, options
    return catsearch.new_game(args.game, args.players, seed=args.seed, **options), options


def _check_live(state: State) -> None:
    """Refuse, before anything is shown, a game that cannot be played live yet (it writes no
    observations)."""
    move = state.legal_moves()[0]
    try:
        state.observation(0, move)
    except NotImplementedError as e:
        raise NotImplementedError(f"{state.game_id} cannot be played at a table yet: {e}") \
            from None
