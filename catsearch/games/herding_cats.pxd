# cython: language_level=3
from catsearch._core.state cimport State, Header

cdef enum:
    HC_TYPES = 10       # o p b g (cats), O P B G (cowdogs), S (Stampede), W (Wild Cat Lady)
    HC_UNK = 10         # an unknown card, in a view
    HC_CARDS = 60
    HC_MAX_HERDS = 12
    HC_HAND = 3
    HC_MOVES = 39       # 4 cowdogs, 12 cat-on-herd, 12 WCL-on-herd, Stampede, 10 discards
    HC_CFG = 16         # configurations kept per seat of what its cards cannot be

ctypedef struct HCData:
    Header h
    unsigned char hand[4][11]      # cards of each type per seat; index HC_UNK counts unknowns
    unsigned char hand_size[4]
    unsigned char deck[60]         # deck[deck_top:deck_len] is the deck, top first
    int deck_top
    int deck_len
    int nherds                     # herds on the table, oldest first
    unsigned char herd_col[12]
    unsigned char herd_cats[12]
    unsigned char herd_wcl[12]
    unsigned char discard[10]      # the face-up discard pile, by card type
    unsigned char out[10]          # cards in collected herds, by card type
    unsigned char won[4]           # herds collected per seat
    # what the public moves revealed (docs/rules/herding-cats.rst, "Inference"): a discard
    # shows that the discarder held nothing playable. Per seat, the configurations of its hand
    # still possible, each one mask per card held (ascending): the types that card cannot be
    # (bit t). ncfg[p] == 0: nothing is known of p's cards. Public: the same in every view
    # and every world dealt from one; a search's own copies (Header.scratch) start none.
    unsigned char ncfg[4]
    unsigned short cfg[4][16][3]


cdef class HerdingCats(State):
    cdef HCData d
