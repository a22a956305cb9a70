# cython: language_level=3
from catsearch._core.state cimport State, Header

cdef enum:
    CE_SQUARES = 49     # a1 = 0, b1 = 1, ..., g1 = 6, a2 = 7, ..., g7 = 48
    CE_TYPES = 12       # 9 path cards, Teleport, Cat Nip, House Swap
    CE_UNK = 12         # an unknown card, in a view
    CE_CARDS = 40
    CE_MOVES = 1631     # see the module docstring

ctypedef struct CEData:
    Header h
    unsigned char board[49]        # 0 empty, 1..4 a house of seat 0..3, 5 a tree, 6 a cat
    unsigned char hand[4][13]      # cards of each type per seat; index CE_UNK counts unknowns
    unsigned char hand_size[4]
    unsigned char deck[40]         # deck[deck_top:40] is the deck, top first
    unsigned char discard[13]      # the face-up discard pile by type (CE_UNK: only in a view)
    unsigned char cat_sq[4]        # the squares of the cats on the board, increasing
    unsigned char houses[4]        # houses on the board per seat
    int deck_top
    int ncats                      # cats on the board
    int pending                    # cats waiting for d4 to empty
    int phase                      # house, tree, play, discard, over
    int placed                     # setup placements made (houses, then trees)
    int played                     # cards played this turn
    int round                      # 0 during setup, then 1..100
    int alive                      # bitmask of seats still in
    int winners                    # bitmask of the winners once the game is over
    int setup_random               # option setup="random"
    # what every seat remembers of the last reshuffle (all 0 before the first one): the
    # pile that became the deck, by type, and each seat's draws since, by type (CE_UNK: an
    # unknown card, in a view). Not in a full state's notation nor in its hash (a view's
    # notation and hash hold it): see docs/rules/cat-earth.rst, "Hidden information".
    unsigned char pile[13]
    unsigned char fresh[4][13]
    int pile_total


cdef class CatEarth(State):
    cdef CEData d
