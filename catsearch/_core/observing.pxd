# cython: language_level=3
# What a seat observes (observing.pyx): observations and tensors; nothing in it is shared in C.
