# cython: language_level=3
# A state's notation, read and written around the game's own fields (text.pyx): nothing in
# it is shared in C.
