# cython: language_level=3
from catsearch._core.state cimport State, Header

cdef enum:
    TC_UNK = 13          # an unknown card, in a seat's view (moods are 0..12)
    TC_MOVES = 22        # wait, stop, pick 0-3, swap i j (16)
    TC_HIDDEN = 22       # observe_move_c: "that seat chose an action you cannot see"
    TC_NOT_CHOSEN = -1   # pending[]: the seat has not chosen yet in this tick
    TC_PEND_UNK = 22     # pending[]: the seat has chosen, but this view does not know what
    TC_ROUND_TICKS = 200 # a round with no Stop ends after this many ticks
    TC_MAX_ROUNDS = 50   # the game ends after this many rounds
    TC_CH_ACTION = 32    # chance outcome CH_ACTION + m: a hidden pending choice turns out m

# phase: 0 play; in a view only, 1 = the tick's choices are made but some are hidden, so it
# waits for chance to reveal them before it resolves; 2 = the round is over but scoring waits
# for chance to reveal unknown pile cards.
ctypedef struct TCData:
    Header h
    int target                    # points that end the game (20, or 12 as an option)
    int nmoods                    # 9 with 2 players, else 13
    int npiles                    # piles per seat: 3 with 4 players, else 4
    int rnd                       # the round being played, 1..50
    int tick                      # ticks resolved since the start of the game (priority)
    int rtick                     # ticks resolved in this round
    int phase
    int caller                    # phase 2: the seat that called Stop, or -1 (round cap)
    int score[4]
    signed char held[4]           # the pile each seat holds, -1 for none
    signed char pending[4]        # this tick's choice per seat (TC_NOT_CHOSEN, TC_PEND_UNK)
    unsigned char centre[4]
    unsigned char pile[4][4][4]   # seat, pile, position -> mood (TC_UNK in a view)
    unsigned char known[4][4][4]  # seat, pile, position -> bitmask of the seats that know it


cdef class TheCat(State):
    cdef TCData d
