# cython: language_level=3
# The example game toy-sum (example.pyx; docs/rules/toy-sum.rst): its sizes, its struct (a
# Header first), and its state class with the struct as its one C field.
from catsearch._core.state cimport State, Header

cdef enum:
    SUM_TYPES = 15      # the cards 1..15, types 0..14 (type t is the card t + 1)
    SUM_UNK = 15        # an unknown card, in a view
    SUM_HAND = 3        # cards a seat holds while the deck lasts
    SUM_MOVES = 15      # move m: play the card m + 1

ctypedef struct SumData:
    Header h
    unsigned char hand[4][16]      # per seat, cards of each type; index SUM_UNK: unknown ones
    unsigned char hand_size[4]
    unsigned char deck[15]         # deck[deck_top:deck_len] is the deck, top first
    int deck_top
    int deck_len
    unsigned char played[15]       # 1 once the card of that type was played (public)
    int total                      # the running total, 0..bound
    int bound                      # the option: the most the total may reach
    int points[4]


cdef class ToySum(State):
    cdef SumData d
