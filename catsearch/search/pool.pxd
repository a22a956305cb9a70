# cython: language_level=3
"""The memory of the search trees (``pool.pyx``): nodes in one growable node pool of C structs,
linked first-child/next-sibling and keyed by move (or, in MO-ISMCTS, by what a seat saw of a
move), the index of the children of wide nodes, and laying the trees out again as they grow.

Each node keeps the visits and the summed reward *of the seat that moved into it* (max-n
backup), and its availability count (the iterations in which its move was legal at its
parent). The search that walks them is ``tree.pyx``.
"""
from libc.stdint cimport uint64_t
from libc.stdlib cimport malloc, calloc, realloc, free

cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define CATSEARCH_PREFETCH(p) __builtin_prefetch(p)
    #else
    #define CATSEARCH_PREFETCH(p) ((void)0)
    #endif
    #include <stddef.h>
    #include <stdint.h>
    #if defined(__linux__)
    #include <sys/mman.h>
    #endif
    static void catsearch_huge_pages(void *p, size_t n) {
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        const uintptr_t huge = (uintptr_t)2 << 20;
        uintptr_t a = ((uintptr_t)p + huge - 1) & ~(huge - 1);
        uintptr_t b = ((uintptr_t)p + n) & ~(huge - 1);
        if (b > a)
            madvise((void *)a, b - a, MADV_HUGEPAGE);
    #else
        (void)p;
        (void)n;
    #endif
    }
    """
    # a hint to start loading the cache line at ``p`` (nothing where the compiler has none)
    void prefetch "CATSEARCH_PREFETCH"(const void* p) noexcept nogil
    # ask for 2 MB pages over the 2 MB-aligned inside of ``p[0:n]`` (Linux; elsewhere, and
    # where the kernel says no, nothing): a tree of millions of nodes is read at random, and
    # with 4 kB pages nearly every node's page misses the TLB
    void huge_pages "catsearch_huge_pages"(void* p, size_t n) noexcept nogil


# The trees' memory constants, in one place (the search's own are in tree.pxd and tree.pyx).
cdef enum:
    NO_NODE = -1
    POOL_START = 4096      # nodes allocated for a new node pool
    POOL_REGROW = 1024     # nodes of the first growth of a node pool that has none
    HUGE_FROM = 1 << 17     # nodes (4 MB) from which a node pool (and an index as big) asks
                            # for huge pages
    RELAYOUT_START = 16384  # see relayout: the pool size of the first relayout
    WIDE = 32               # children that make a node wide (see ChildIndex)
    INDEX_START = 1024      # entries of a new child index


ctypedef struct Node:
    int move          # the key: the move, or the observation of it, that leads here
    int child         # first child, NO_NODE if none
    int sibling       # next sibling, NO_NODE if none
    int visits        # iterations through this node
    int avail         # iterations in which this node's move was available at its parent
    signed char player  # the seat that made the move into this node (-1 at a root)
    unsigned char wide  # 1: its children are also in the core's ChildIndex (TreeCore.select)
    double reward     # summed reward of `player` over the visits


ctypedef struct NodePool:
    Node* nodes
    int size          # nodes in use
    int cap           # nodes allocated
    # NULL, or one double per node beside the nodes (same index, same capacity): the
    # statistic of select=rm|exp3 (TreeCore.select_hidden), kept out of Node so that a UCB
    # search's node stays 32 bytes
    double* aux


cdef inline int pool_init(NodePool* a, int cap) noexcept nogil:
    a.nodes = <Node*>malloc(sizeof(Node) * cap)
    a.size = 0
    a.cap = cap if a.nodes != NULL else 0
    a.aux = NULL
    if cap >= HUGE_FROM and a.nodes != NULL:
        huge_pages(a.nodes, sizeof(Node) * cap)
    return a.nodes != NULL


cdef inline int pool_use_aux(NodePool* a) noexcept nogil:
    """Give the pool its side array (``aux``, zeroed) if it has none; 0 when memory runs
    out."""
    if a.aux == NULL:
        a.aux = <double*>calloc(a.cap if a.cap > 0 else 1, sizeof(double))
    return a.aux != NULL


cdef inline void pool_free(NodePool* a) noexcept nogil:
    free(a.nodes)
    free(a.aux)
    a.aux = NULL
    a.nodes = NULL
    a.size = 0
    a.cap = 0


cdef inline int pool_add(NodePool* a, int move, int player) noexcept nogil:
    """A new unlinked node; NO_NODE when memory runs out."""
    cdef Node* grown
    cdef double* more
    cdef int cap
    cdef Node* n
    if a.size == a.cap:
        cap = a.cap * 2 if a.cap > 0 else POOL_REGROW
        if a.aux != NULL:
            more = <double*>realloc(a.aux, sizeof(double) * cap)
            if more == NULL:
                return NO_NODE
            a.aux = more
        grown = <Node*>realloc(a.nodes, sizeof(Node) * cap)
        if grown == NULL:
            return NO_NODE
        a.nodes = grown
        a.cap = cap
        if cap >= HUGE_FROM:
            huge_pages(grown, sizeof(Node) * cap)
    n = &a.nodes[a.size]
    n.move = move
    n.child = NO_NODE
    n.sibling = NO_NODE
    n.visits = 0
    n.avail = 0
    n.player = <signed char>player
    n.wide = 0
    n.reward = 0.0
    if a.aux != NULL:
        a.aux[a.size] = 0.0
    a.size += 1
    return a.size - 1


cdef inline int pool_link(NodePool* a, int parent, int move, int player) noexcept nogil:
    """A new child of ``parent`` keyed by ``move`` (put first among its siblings)."""
    cdef int k = pool_add(a, move, player)
    if k != NO_NODE:
        a.nodes[k].sibling = a.nodes[parent].child
        a.nodes[parent].child = k
    return k


ctypedef struct IndexEntry:
    int parent        # NO_NODE: an empty slot
    int move
    int child


ctypedef struct ChildIndex:
    # The children of wide nodes by (parent, move): an open-addressing hash table. In ISMCTS
    # a node's children are every move seen there in any determinization, so the nodes an
    # iteration passes through gather hundreds (Cat Cards) while a few are legal at a time;
    # selection then looks the legal moves up here instead of scanning the sibling list.
    IndexEntry* slots
    int cap           # a power of two (0: not allocated)
    int size          # entries in use


cdef inline unsigned int index_slot(int parent, int move, int cap) noexcept nogil:
    cdef uint64_t z = ((<uint64_t><unsigned int>parent) << 32) | <unsigned int>move
    z = (z ^ (z >> 31)) * <uint64_t>0x9E3779B97F4A7C15
    return <unsigned int>(z >> 32) & <unsigned int>(cap - 1)


cdef inline int index_get(ChildIndex* ix, int parent, int move) noexcept nogil:
    """The child of ``parent`` keyed ``move``, or NO_NODE."""
    cdef unsigned int i
    cdef IndexEntry* e
    if ix.cap == 0:
        return NO_NODE
    i = index_slot(parent, move, ix.cap)
    while True:
        e = &ix.slots[i]
        if e.parent == NO_NODE:
            return NO_NODE
        if e.parent == parent and e.move == move:
            return e.child
        i = (i + 1) & <unsigned int>(ix.cap - 1)


cdef inline int next_indexed(ChildIndex* ix, int parent, const int* buf, int n,
                             const long long* stamp, long long g, int* i) noexcept nogil:
    """The next child of the wide node ``parent`` found in the index for a legal move of
    ``buf[i[0]:n]`` still stamped ``g`` (``i[0]`` moves past it), or ``NO_NODE``."""
    cdef int ch = NO_NODE, m
    while i[0] < n and ch == NO_NODE:
        m = buf[i[0]]
        i[0] += 1
        if stamp[m] == g:
            ch = index_get(ix, parent, m)
    return ch


cdef inline int index_grow(ChildIndex* ix, int cap) noexcept nogil:
    """Rehash into ``cap`` slots; 0 when memory runs out (the index is then unchanged)."""
    cdef IndexEntry* fresh = <IndexEntry*>malloc(sizeof(IndexEntry) * cap)
    cdef IndexEntry* old = ix.slots
    cdef int k, oldcap = ix.cap
    cdef unsigned int i
    if fresh == NULL:
        return 0
    if sizeof(IndexEntry) * <size_t>cap >= sizeof(Node) * <size_t>HUGE_FROM:
        huge_pages(fresh, sizeof(IndexEntry) * cap)
    for k in range(cap):
        fresh[k].parent = NO_NODE
    for k in range(oldcap):
        if old[k].parent != NO_NODE:
            i = index_slot(old[k].parent, old[k].move, cap)
            while fresh[i].parent != NO_NODE:
                i = (i + 1) & <unsigned int>(cap - 1)
            fresh[i] = old[k]
    free(old)
    ix.slots = fresh
    ix.cap = cap
    return 1


cdef inline int index_put(ChildIndex* ix, int parent, int move, int child) noexcept nogil:
    """Add a child (not there yet); 0 when memory runs out."""
    cdef unsigned int i
    if 2 * (ix.size + 1) > ix.cap:
        if ix.cap > (1 << 29) or not index_grow(ix, ix.cap * 2 if ix.cap else INDEX_START):
            return 0
    i = index_slot(parent, move, ix.cap)
    while ix.slots[i].parent != NO_NODE:
        i = (i + 1) & <unsigned int>(ix.cap - 1)
    ix.slots[i].parent = parent
    ix.slots[i].move = move
    ix.slots[i].child = child
    ix.size += 1
    return 1


cdef inline void index_clear(ChildIndex* ix) noexcept nogil:
    cdef int k
    for k in range(ix.cap):
        ix.slots[k].parent = NO_NODE
    ix.size = 0


cdef inline void index_free(ChildIndex* ix) noexcept nogil:
    free(ix.slots)
    ix.slots = NULL
    ix.cap = 0
    ix.size = 0


cdef inline void prefetch_children(NodePool* a, int node) noexcept nogil:
    """Start loading the first children of ``node`` (laid out side by side by
    ``TreeCore.relayout``) while the game applies the move that leads to it."""
    cdef int ch = a.nodes[node].child
    cdef int k
    if ch != NO_NODE:
        for k in range(ch, min(ch + 8, a.size), 2):     # 8 nodes: four cache lines
            prefetch(&a.nodes[k])


cdef inline int find_child(NodePool* a, int parent, int move) noexcept nogil:
    cdef int ch = a.nodes[parent].child
    while ch != NO_NODE:
        if a.nodes[ch].move == move:
            return ch
        ch = a.nodes[ch].sibling
    return NO_NODE


cdef inline int child_of(NodePool* a, ChildIndex* ix, int parent, int move) noexcept nogil:
    """The child of ``parent`` keyed ``move``, or NO_NODE (by the index if ``parent`` is
    wide, else along its sibling list)."""
    if a.nodes[parent].wide:
        return index_get(ix, parent, move)
    return find_child(a, parent, move)


cdef int next_relayout(int size) noexcept nogil
cdef int copy_tree(NodePool* src, int root, NodePool* dst) noexcept nogil
cdef int relayout(NodePool* a, ChildIndex* ix, int* roots, int ntrees) noexcept nogil
cdef int link_child(NodePool* a, ChildIndex* ix, int parent, int move, int player) noexcept nogil
cdef void make_wide(NodePool* a, ChildIndex* ix, int node) noexcept nogil
cdef void reindex(NodePool* a, ChildIndex* ix) noexcept nogil
cdef int subtree_size(NodePool* a, int root) except -1
cdef bint index_agrees(NodePool* a, ChildIndex* index) noexcept
