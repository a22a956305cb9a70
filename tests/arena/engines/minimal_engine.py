"""A tiny engine speaking the protocol's minimal subset (docs/protocol.rst): ``uci``,
``isready``, ``ucinewgame``, ``position <game> state <view> [moves <observation> ...]``,
``go ...``, ``quit``.

It plays the first legal move, except in the positions it is told to misbehave in: those
whose notation's CRC-32 is divisible by ``--every`` (so the faults fall on the same positions
in every run and in every process). Modes: ``good``, ``crash`` (exit at once), ``hang`` (stop
answering anything), ``illegal`` (a well-formed move that is not legal), ``nonsense`` (a line
that is no move at all).
"""

import os
import sys
import time
import zlib

try:
    import catsearch
except ImportError:   # run from a checkout: the package is three folders up
    sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..")))
    import catsearch


def main(mode: str, every: int) -> None:
    state = None
    notation = ""
    out = sys.stdout
    for line in sys.stdin:
        tokens = line.split()
        if not tokens:
            continue
        cmd = tokens[0]
        if cmd == "uci":
            out.write(f"id name minimal-{mode}\nid author catsearch tests\nuciok\n")
        elif cmd == "isready":
            out.write("readyok\n")
        elif cmd == "position" and len(tokens) > 3 and tokens[2] == "state":
            # a seat's view, then the seat's observations of the moves since
            rest = tokens[3:]
            k = rest.index("moves") if "moves" in rest else len(rest)
            state = catsearch.from_text(tokens[1], " ".join(rest[:k]))
            for observation in rest[k + 1:]:
                state.play_observation(observation)
            notation = state.to_text()
        elif cmd == "go":
            legal = state.legal_moves()
            bad = zlib.crc32(notation.encode()) % every == 0
            if bad and mode == "crash":
                sys.stderr.write("minimal engine: crashing on purpose\n")
                sys.stderr.flush()
                os._exit(3)
            if bad and mode == "hang":
                while True:
                    time.sleep(60)
            if bad and mode == "illegal":
                illegal = [m for m in range(state.num_distinct_moves) if m not in legal]
                out.write(f"bestmove {state.move_to_str(illegal[0])}\n")
            elif bad and mode == "nonsense":
                out.write("bestmove banana\n")
            else:
                out.write(f"bestmove {state.move_to_str(legal[0])}\n")
        elif cmd == "quit":
            return
        # ucinewgame, setoption, stop: nothing to do for a player that answers at once
        out.flush()


if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else "good"
    every = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    main(mode, every)
