# cython: language_level=3
from catsearch._core.state cimport State, Header

cdef enum:
    CC_TYPES = 19       # cats 0-14 (colour mask; 0 = Sphynx), 15 Siamese, 16-18 toys
    CC_UNK = 19         # an unknown card, in a view
    CC_CARDS = 120
    CC_PILES = 3
    CC_PILE_MAX = 4
    CC_SETUP_HAND = 3
    CC_MAX_SETS = 5     # the fifth set ends the game; nobody can form a sixth
    CC_NSETS = 5646     # distinct valid sets (5-card multisets of card types)
    CC_MOVES = 5653     # 3 put, 3 take, pass, 5646 sets

ctypedef struct CCData:
    Header h
    unsigned char hand[4][20]      # cards held per seat by type; [19]: unknown (private) cards
    unsigned char priv[4][20]      # of those, the private ones (setup cards still held)
    unsigned char hsize[4]         # cards held per seat
    unsigned char deck[120]        # deck[deck_top:120] is the deck, top first
    int deck_top
    unsigned char pile[3][4]       # the face-up piles, each sorted by card type
    unsigned char pile_n[3]
    int revealed                   # the revealed card waiting in step 1, or -1
    int step                       # 1 place, 2 pick up or set, 3 final turn, 0 game over
    int finals                     # final turns still to play, this one included (step 3)
    unsigned short sets[4][5]      # each seat's sets (indices into the set table), sorted
    unsigned char nsets[4]
    unsigned char setcards[4][19]  # the cards in each seat's sets, by type
    int points[4]                  # the value of each seat's sets
    unsigned char val[19]          # point value per card type (the `values` option)


cdef class CatCards(State):
    cdef CCData d
    cdef void tensor_c(self, int kind, float* out) noexcept nogil
