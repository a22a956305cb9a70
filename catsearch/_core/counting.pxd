# cython: language_level=3
# Counting over the state contract in C: perft and random games (counting.pyx).
from catsearch._core.state cimport State

# move sequences of exactly ``depth`` moves from ``states[ply]``; ``states`` holds a scratch
# state per ply and ``bufs`` a move list of ``stride`` ints per ply
cdef long long perft_count(list states, int* bufs, int stride, int ply, int depth)
