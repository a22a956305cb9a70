/* Herding Cats SO-ISMCTS as one plain C file: the least an ISMCTS iteration can cost beside
 * a random playout from the same view (benchmarks/search_overhead.py floor).
 *
 * The game is herding_cats.c's (the same deal for the same seed, the same legal moves, the
 * same incremental hash). On top, a determinization for the seat to move (the other hands
 * and the undrawn deck shuffled anew, the hash computed afresh, as catsearch's
 * determinize_c), the game's returns (the most herds win, ties share), and SO-ISMCTS with
 * the least a search of catsearch's kind does: no prior (no heuristic asked), no virtual
 * calls, no options, no limits; the legal moves as a bit mask; the score of a legal child
 * Q + c/n sqrt(A)/(1+N) (catsearch's PUCT with a uniform prior); an untried legal move
 * expanded first, drawn uniformly; random playouts; the max-n backup.
 *
 * Children are found along a sibling list, as catsearch finds those of its narrow nodes, or
 * (-DREF_TABLE) in a table of every move in the node itself: each legal move's child by
 * one load, at 156 bytes more a node.
 *
 * hc_ismcts_floor_grow grows one such search to a size, timing it in chunks (search_overhead.py
 * `scaling --floor`): how the least ISMCTS's time per iteration grows with its tree.
 *
 * Build: cc -O2 -g0 -shared -fPIC ismcts_floor.c -o ismcts_floor.so -lm
 */
#include "herding_cats.c"

#include <math.h>
#include <time.h>
#include <stdlib.h>
#include <stdint.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

/* Ask the kernel for 2 MB pages for the whole-page part of [p, p + n) (Linux; as catsearch's
 * node pools of 4 MB and more do): a tree read at random then misses the TLB far less. */
static void huge_pages(void *p, size_t n) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t a = ((uintptr_t)p + huge - 1) & ~(huge - 1), b = ((uintptr_t)p + n) & ~(huge - 1);
    if (b > a) madvise((void *)a, b - a, MADV_HUGEPAGE);
#else
    (void)p; (void)n;
#endif
}

typedef struct {
    int move, child, sibling, visits, avail;
    signed char player;
    double reward;
#ifdef REF_TABLE
    int kids[NMOVES];
#endif
} RNode;

static uint64_t full_hash(Game *g) {
    uint64_t h = 0;
    for (int p = 0; p < g->players; p++)
        for (int t = 0; t < TYPES; t++)
            for (int c = 0; c < g->hand[p][t]; c++) h ^= Z_HAND[p][t][c];
    for (int i = g->deck_top; i < g->deck_len; i++) h ^= Z_DECK[i][g->deck[i]];
    for (int k = 0; k < g->nherds; k++) h ^= herd_key(g, k);
    for (int t = 0; t < TYPES; t++) {
        for (int c = 0; c < g->discard[t]; c++) h ^= Z_DISC[t][c];
        for (int c = 0; c < g->out[t]; c++) h ^= Z_OUT[t][c];
    }
    for (int p = 0; p < g->players; p++)
        for (int c = 0; c < g->won[p]; c++) h ^= Z_WON[p][c];
    return h ^ Z_TURN[g->terminal ? 4 : g->current];
}

/* a deal of what `seat` cannot see: the other hands and the undrawn deck, shuffled anew */
static void determinize(Game *g, int seat, Rng *r) {
    unsigned char pool[CARDS];
    int n = 0;
    for (int p = 0; p < g->players; p++) {
        if (p == seat) continue;
        for (int t = 0; t < TYPES; t++)
            for (int c = 0; c < g->hand[p][t]; c++) pool[n++] = (unsigned char)t;
    }
    for (int i = g->deck_top; i < g->deck_len; i++) pool[n++] = g->deck[i];
    for (int i = n - 1; i > 0; i--) {
        int j = rng_below(r, i + 1);
        unsigned char x = pool[i]; pool[i] = pool[j]; pool[j] = x;
    }
    n = 0;
    for (int p = 0; p < g->players; p++) {
        if (p == seat) continue;
        int size = g->hand_size[p];
        memset(g->hand[p], 0, sizeof g->hand[p]);
        for (int i = 0; i < size; i++) g->hand[p][pool[n++]]++;
    }
    for (int i = g->deck_top; i < g->deck_len; i++) g->deck[i] = pool[n++];
#ifndef REF_NO_HASH
    g->hash = full_hash(g);
#endif
}

static void returns(Game *g, double *r) {
    int most = -1, count = 0;
    for (int p = 0; p < g->players; p++)
        if (g->won[p] > most) { most = g->won[p]; count = 0; }
    for (int p = 0; p < g->players; p++) count += g->won[p] == most;
    for (int p = 0; p < g->players; p++) r[p] = g->won[p] == most ? 1.0 / count : 0.0;
}

static double now_thread(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

typedef struct { RNode *nodes; int size; Rng rng; double c; } Tree;

static int add_node(Tree *t, int parent, int move, int player) {
    RNode *nd = &t->nodes[t->size];
    nd->move = move; nd->child = -1; nd->visits = 0; nd->avail = 1; nd->player = player;
    nd->reward = 0.0;
#ifdef REF_TABLE
    for (int i = 0; i < NMOVES; i++) nd->kids[i] = -1;
    if (parent >= 0) t->nodes[parent].kids[move] = t->size;
#endif
    if (parent >= 0) { nd->sibling = t->nodes[parent].child; t->nodes[parent].child = t->size; }
    else nd->sibling = -1;
    return t->size++;
}

/* one iteration from `root` for `seat`: determinize, select (UCB over availability in the
 * PUCT form with a uniform prior: Q + c/n sqrt(A)/(1+N)), expand one untried move (drawn
 * uniformly), random playout, max-n backup. Returns the tree levels passed. */
static int iterate(Tree *t, const Game *root, int seat, int *buf, int *path) {
    Game g = *root;
    int node = 0, len = 1, n, levels = 0;
    double r[4];
    path[0] = 0;
    determinize(&g, seat, &t->rng);
    while (!g.terminal) {
        n = legal_moves(&g, buf);
        uint64_t legal = 0, found = 0;
        for (int i = 0; i < n; i++) legal |= 1ULL << buf[i];
        int best = -1;
        double bestv = -1e300, k = t->c / n;
#ifdef REF_TABLE
        for (int i = 0; i < n; i++) {
            int ch = t->nodes[node].kids[buf[i]];
            if (ch < 0) continue;
            RNode *nd = &t->nodes[ch];
#else
        for (int ch = t->nodes[node].child; ch >= 0; ch = t->nodes[ch].sibling) {
            RNode *nd = &t->nodes[ch];
            if (!((legal >> nd->move) & 1)) continue;
#endif
            found |= 1ULL << nd->move;
            nd->avail++;
            double v = nd->visits;
            double x = nd->reward / v + k * sqrt((double)nd->avail) / (1.0 + v);
            if (x > bestv) { bestv = x; best = ch; }
        }
        uint64_t untried = legal & ~found;
        int p = g.current;
        levels++;
        if (untried) {
            int j = rng_below(&t->rng, __builtin_popcountll(untried));
            while (j-- > 0) untried &= untried - 1;
            int m = __builtin_ctzll(untried);
            path[len++] = add_node(t, node, m, p);
            apply(&g, m);
            break;
        }
        node = best;
        path[len++] = node;
        apply(&g, t->nodes[node].move);
    }
    while (!g.terminal) {
        n = legal_moves(&g, buf);
        apply(&g, buf[rng_below(&t->rng, n)]);
    }
    returns(&g, r);
    t->nodes[0].visits++;
    for (int i = 1; i < len; i++) {
        RNode *nd = &t->nodes[path[i]];
        nd->visits++;
        nd->reward += r[nd->player];
    }
    return levels;
}

static void random_from(const Game *root, int seat, Rng *rng, int *buf, double *r) {
    Game g = *root;
    determinize(&g, seat, rng);
    while (!g.terminal) {
        int n = legal_moves(&g, buf);
        apply(&g, buf[rng_below(rng, n)]);
    }
    returns(&g, r);
}

/* The root of `players` from the deal of `seed` after the moves `line[0:nline]`. Returns 0;
 * -1 if a move of the line is not legal or the game is over. */
static int replay(Game *root, int players, uint64_t seed, const int *line, int nline) {
    int buf[NMOVES + 1];
    deal(root, players, seed);
    for (int i = 0; i < nline; i++) {
        int n = root->terminal ? 0 : legal_moves(root, buf), ok = 0;
        for (int k = 0; k < n; k++) ok |= buf[k] == line[i];
        if (!ok) return -1;
        apply(root, line[i]);
    }
    return root->terminal ? -1 : 0;
}

/* From the deal of `seed` after the moves `line[0:nline]`, searched for the seat to move: a
 * search of `iterations` in chunks of `chunk`, each chunk followed by as many random playouts
 * from the same position (a fresh determinization each), the two timed apart in CPU time of
 * the thread; the search's generator seeded `search_seed`, the playouts' `search_seed + 1`.
 * out[0], out[1]: seconds of the search and of the playouts; out[2]: tree levels an iteration
 * passed; out[3]: nodes; out[4]: the playouts' summed return of seat 0 (so no work is
 * optimised out). `hash_out` gets the position's hash, to check it is catsearch's.
 * Returns 0; -1 if a move of the line is not legal or the game is over; -2 out of memory;
 * -3 for fewer than 2 or more than 4 players, or iterations or chunk under 1. */
int hc_ismcts_floor(int players, uint64_t seed, const int *line, int nline, int iterations,
                    int chunk, double c, uint64_t search_seed, double *out,
                    uint64_t *hash_out) {
    Game root;
    int buf[NMOVES + 1], path[CARDS + 2];     /* a game lasts at most a move a card */
    double r[4], ts = 0.0, tp = 0.0, sink = 0.0;
    long long levels = 0;
    Tree t;
    if (players < 2 || players > 4 || iterations < 1 || chunk < 1) return -3;
    if (!tables_filled) fill_tables();
    if (replay(&root, players, seed, line, nline)) return -1;
    *hash_out = root.hash;
    t.nodes = malloc(sizeof(RNode) * (iterations + 1));
    if (!t.nodes) return -2;
    t.size = 0;
    t.rng.s = search_seed;
    t.c = c;
    add_node(&t, -1, -1, -1);
    Rng play = {search_seed + 1};
    int seat = root.current;
    for (int done = 0; done < iterations; done += chunk) {
        int k = iterations - done < chunk ? iterations - done : chunk;
        double a = now_thread();
        for (int i = 0; i < k; i++) levels += iterate(&t, &root, seat, buf, path);
        double b = now_thread();
        for (int i = 0; i < k; i++) { random_from(&root, seat, &play, buf, r); sink += r[0]; }
        double e = now_thread();
        ts += b - a;
        tp += e - b;
    }
    out[0] = ts;
    out[1] = tp;
    out[2] = (double)levels / iterations;
    out[3] = t.size;
    out[4] = sink;
    free(t.nodes);
    return 0;
}

/* The same search grown until it holds `nodes` nodes, in chunks of a hundredth of its size (at
 * least 500 iterations), each timed in CPU time of the thread, as search_overhead.py's
 * `scaling` grows catsearch's: rows[4 i .. 4 i + 3] = nodes before the chunk, nodes after,
 * seconds an iteration, tree levels an iteration. `hash_out` as above. Returns the number of
 * rows (at most `maxrows`: the growth stops there); -1, -2 and -3 as above. */
int hc_ismcts_floor_grow(int players, uint64_t seed, const int *line, int nline, int nodes,
                         double c, uint64_t search_seed, int huge, double *rows,
                         int maxrows, uint64_t *hash_out) {
    Game root;
    int buf[NMOVES + 1], path[CARDS + 2], nrows = 0;
    Tree t;
    if (players < 2 || players > 4 || nodes < 1 || maxrows < 1) return -3;
    if (!tables_filled) fill_tables();
    if (replay(&root, players, seed, line, nline)) return -1;
    *hash_out = root.hash;
    /* a chunk adds at most its iterations in nodes: room for the last chunk's overshoot */
    size_t room = (size_t)nodes + (nodes / 100 > 500 ? nodes / 100 : 500) + 1;
    t.nodes = malloc(sizeof(RNode) * room);
    if (!t.nodes) return -2;
    if (huge) huge_pages(t.nodes, sizeof(RNode) * room);
    memset(t.nodes, 0, sizeof(RNode) * room);   /* its pages faulted in before the clock runs */
    t.size = 0;
    t.rng.s = search_seed;
    t.c = c;
    add_node(&t, -1, -1, -1);
    int seat = root.current;
    while (t.size < nodes && nrows < maxrows) {
        int before = t.size, k = before / 100 > 500 ? before / 100 : 500;
        long long levels = 0;
        double a = now_thread();
        for (int i = 0; i < k; i++) levels += iterate(&t, &root, seat, buf, path);
        double b = now_thread();
        rows[4 * nrows] = before;
        rows[4 * nrows + 1] = t.size;
        rows[4 * nrows + 2] = (b - a) / k;
        rows[4 * nrows + 3] = (double)levels / k;
        nrows++;
    }
    free(t.nodes);
    return nrows;
}
