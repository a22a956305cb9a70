# cython: language_level=3
"""The memory of the search trees: copying trees, laying them out again, and the index of
the children of wide nodes (the structs and the inline helpers are in ``pool.pxd``).

A tree grows by appending nodes where the pool ends, which scatters each node's children
over the whole pool; selection reads every child of every node on its path, so in a big
tree it would miss the cache at each one. ``relayout`` copies the trees breadth first into a
fresh node pool (every node's children side by side, the nodes near the roots in a few pages),
keeping every node and the order of children; the search calls it as the node pool grows
(``next_relayout``). In ISMCTS a node's children are every move seen there in any
determinization while only a few are legal at a time: a node with more than ``WIDE``
children is *wide*, its children also in a hash index by (node, move), so that selection
looks its legal moves up instead of scanning hundreds of siblings.
"""
from libc.stdlib cimport malloc, free


cdef int next_relayout(int size) noexcept nogil:
    """The node pool size of the relayout after one at ``size`` nodes: 16,384, then each
    quarter more (see ``relayout``)."""
    if size < RELAYOUT_START:
        return RELAYOUT_START
    return size + size // 4 if size < (1 << 29) else 0x7FFFFFFF


cdef int copy_tree(NodePool* src, int root, NodePool* dst) noexcept nogil:
    """Copy the subtree of ``src`` under ``root`` into ``dst`` (breadth first, children in
    their order; the side array ``aux`` too where both pools have one); return the new root,
    or NO_NODE when memory runs out."""
    cdef int* queue
    cdef int head = 0, tail = 0, s, d, ch, nd, last
    cdef int new_root = pool_add(dst, src.nodes[root].move, src.nodes[root].player)
    if new_root == NO_NODE:
        return NO_NODE
    dst.nodes[new_root] = src.nodes[root]
    if src.aux != NULL and dst.aux != NULL:
        dst.aux[new_root] = src.aux[root]
    dst.nodes[new_root].child = NO_NODE
    dst.nodes[new_root].sibling = NO_NODE
    queue = <int*>malloc(sizeof(int) * 2 * (src.size + 1))
    if queue == NULL:
        return new_root
    queue[0] = root
    queue[1] = new_root
    tail = 2
    while head < tail:
        s = queue[head]
        d = queue[head + 1]
        head += 2
        last = NO_NODE
        ch = src.nodes[s].child
        while ch != NO_NODE:
            nd = pool_add(dst, src.nodes[ch].move, src.nodes[ch].player)
            if nd == NO_NODE:
                free(queue)
                return new_root
            dst.nodes[nd] = src.nodes[ch]
            if src.aux != NULL and dst.aux != NULL:
                dst.aux[nd] = src.aux[ch]
            dst.nodes[nd].child = NO_NODE
            dst.nodes[nd].sibling = NO_NODE
            if last == NO_NODE:
                dst.nodes[d].child = nd
            else:
                dst.nodes[last].sibling = nd
            last = nd
            queue[tail] = ch
            queue[tail + 1] = nd
            tail += 2
            ch = src.nodes[ch].sibling
    free(queue)
    return new_root


cdef int relayout(NodePool* a, ChildIndex* ix, int* roots, int ntrees) noexcept nogil:
    """Copy the trees under ``roots[0:ntrees]`` into a fresh node pool breadth first (see the
    module docstring), moving ``roots`` and reindexing the wide nodes. The copy keeps every
    node and the order of children, so a search goes on exactly as before. Returns 0, and
    changes nothing, when memory runs out or some node lies outside the trees (a root moved
    without compaction)."""
    cdef NodePool fresh
    cdef int q, ok = 1
    cdef int* moved = <int*>malloc(sizeof(int) * ntrees)
    if moved == NULL:
        return 0
    if not pool_init(&fresh, a.cap):
        free(moved)
        return 0
    if a.aux != NULL and not pool_use_aux(&fresh):
        pool_free(&fresh)
        free(moved)
        return 0
    for q in range(ntrees):
        moved[q] = NO_NODE
        if roots[q] != NO_NODE:
            moved[q] = copy_tree(a, roots[q], &fresh)
            ok = ok and moved[q] != NO_NODE
    # every node copied: none lost to memory, none outside the live trees
    if ok and fresh.size == a.size:
        for q in range(ntrees):
            roots[q] = moved[q]
        pool_free(a)
        a[0] = fresh
        reindex(a, ix)
    else:
        ok = 0
        pool_free(&fresh)
    free(moved)
    return ok


cdef int link_child(NodePool* a, ChildIndex* ix, int parent, int move, int player) noexcept nogil:
    """A new child of ``parent`` keyed ``move`` (``pool_link``), in the index too if
    ``parent`` is wide; NO_NODE when memory runs out."""
    cdef int k = pool_link(a, parent, move, player)
    if k != NO_NODE and a.nodes[parent].wide:
        if not index_put(ix, parent, move, k):
            a.nodes[parent].wide = 0        # back to its sibling list
    return k


cdef void make_wide(NodePool* a, ChildIndex* ix, int node) noexcept nogil:
    """Put the children of ``node`` in the index: selection looks its legal moves up from
    now on (a node stays narrow if memory runs out)."""
    cdef int ch = a.nodes[node].child
    while ch != NO_NODE:
        if not index_put(ix, node, a.nodes[ch].move, ch):
            return
        ch = a.nodes[ch].sibling
    a.nodes[node].wide = 1


cdef void reindex(NodePool* a, ChildIndex* ix) noexcept nogil:
    """Index the children of every wide node again (after the nodes moved)."""
    cdef int k
    index_clear(ix)
    for k in range(a.size):
        if a.nodes[k].wide:
            a.nodes[k].wide = 0
            make_wide(a, ix, k)


cdef int subtree_size(NodePool* a, int root) except -1:
    """Nodes under (and including) ``root``."""
    cdef int* stack = <int*>malloc(sizeof(int) * (a.size + 1))
    cdef int top = 0, n = 0, s, ch
    if stack == NULL:
        raise MemoryError()
    stack[top] = root
    top += 1
    while top > 0:
        top -= 1
        s = stack[top]
        n += 1
        ch = a.nodes[s].child
        while ch != NO_NODE:
            stack[top] = ch
            top += 1
            ch = a.nodes[ch].sibling
    free(stack)
    return n


cdef bint index_agrees(NodePool* a, ChildIndex* index) noexcept:
    """Whether every child of every wide node of ``a`` is found in ``index``, and nothing
    else is (a check for the tests)."""
    cdef int k, ch, count = 0
    for k in range(a.size):
        if a.nodes[k].wide:
            ch = a.nodes[k].child
            while ch != NO_NODE:
                if index_get(index, k, a.nodes[ch].move) != ch:
                    return False
                count += 1
                ch = a.nodes[ch].sibling
    return count == index.size
