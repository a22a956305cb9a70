/* Herding Cats random playouts as one plain C file: the reference that
 * benchmarks/playouts_vs_c.py measures catsearch's playout loop against.
 *
 * The same work as catsearch.benchmark_playouts("herding-cats", ...): the same deal (the
 * same splitmix64 generator, deck built in type order and shuffled by Fisher-Yates), the same
 * legal moves in the same order, the same incremental Zobrist hash, and uniformly random
 * moves drawn the same way; so for the same seed both play the same games and count the same
 * moves (the script checks it). What it does not have: the state contract (a virtual call per
 * legal_moves/apply), a header shared with other games, views of hidden cards.
 *
 * Build: cc -O2 -g0 -shared -fPIC herding_cats.c -o herding_cats_ref.so
 * (-DREF_NO_HASH leaves the hash out, to see what it costs.)
 */
#include <stdint.h>
#include <string.h>

enum { TYPES = 10, UNK = 10, CARDS = 60, HAND = 3, DOG = 4, STAMP = 8, WCL = 9,
       M_DOG = 0, M_CAT = 4, M_WCL = 16, M_STAMP = 28, M_DISC = 29, NMOVES = 39 };

static const unsigned char COMP[TYPES] = {10, 10, 10, 10, 3, 3, 3, 3, 4, 4};

typedef struct { uint64_t s; } Rng;

static inline uint64_t rng_next(Rng *r) {
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline int rng_below(Rng *r, int n) {
    return (int)(((rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

static uint64_t Z_HAND[4][11][4], Z_DECK[60][11], Z_HERD[12][4][3][3], Z_DISC[10][11],
    Z_OUT[10][11], Z_WON[4][16], Z_TURN[5];

static void fill(uint64_t *keys, size_t n, uint64_t seed) {
    Rng r = {seed};
    for (size_t i = 0; i < n; i++) keys[i] = rng_next(&r);
}

static int tables_filled = 0;

static void fill_tables(void) {
    fill(&Z_HAND[0][0][0], sizeof Z_HAND / 8, 0x48430001);
    fill(&Z_DECK[0][0], sizeof Z_DECK / 8, 0x48430002);
    fill(&Z_HERD[0][0][0][0], sizeof Z_HERD / 8, 0x48430003);
    fill(&Z_DISC[0][0], sizeof Z_DISC / 8, 0x48430004);
    fill(&Z_OUT[0][0], sizeof Z_OUT / 8, 0x48430005);
    fill(&Z_WON[0][0], sizeof Z_WON / 8, 0x48430006);
    fill(Z_TURN, 5, 0x48430007);
    tables_filled = 1;
}

#ifdef REF_NO_HASH
#define HASH(x) ((void)0)
#else
#define HASH(x) (g->hash ^= (x))
#endif

typedef struct {
    int players, current, terminal, ply;
    uint64_t hash;
    unsigned char hand[4][11], hand_size[4], deck[60];
    int deck_top, deck_len, nherds;
    unsigned char herd_col[12], herd_cats[12], herd_wcl[12], discard[10], out[10], won[4];
} Game;

static inline uint64_t herd_key(Game *g, int k) {
    return Z_HERD[k][g->herd_col[k]][g->herd_cats[k]][g->herd_wcl[k]];
}

static inline void hand_add(Game *g, int p, int t) {
    HASH(Z_HAND[p][t][g->hand[p][t]]);
    g->hand[p][t]++;
    g->hand_size[p]++;
}

static inline void hand_take(Game *g, int p, int t) {
    g->hand[p][t]--;
    HASH(Z_HAND[p][t][g->hand[p][t]]);
    g->hand_size[p]--;
}

static inline void out_add(Game *g, int t, int n) {
    for (int i = 0; i < n; i++) {
        HASH(Z_OUT[t][g->out[t]]);
        g->out[t]++;
    }
}

static void add_to_herd(Game *g, int k, int wild, int p) {
    HASH(herd_key(g, k));
    if (wild) g->herd_wcl[k]++; else g->herd_cats[k]++;
    if (g->herd_cats[k] + g->herd_wcl[k] < 3) {
        HASH(herd_key(g, k));
        return;
    }
    int col = g->herd_col[k];
    out_add(g, DOG + col, 1);
    out_add(g, col, g->herd_cats[k]);
    out_add(g, WCL, g->herd_wcl[k]);
    HASH(Z_WON[p][g->won[p]]);
    g->won[p]++;
    for (int j = k + 1; j < g->nherds; j++) {
        HASH(herd_key(g, j));
        g->herd_col[j - 1] = g->herd_col[j];
        g->herd_cats[j - 1] = g->herd_cats[j];
        g->herd_wcl[j - 1] = g->herd_wcl[j];
        HASH(herd_key(g, j - 1));
    }
    g->nherds--;
}

static void stampede(Game *g, int p) {
    for (int col = 0; col < 4; col++) {
        while (g->discard[col] > 0) {
            int best = -1, most = -1;
            for (int k = 0; k < g->nherds; k++) {
                if (g->herd_col[k] == col && g->herd_cats[k] + g->herd_wcl[k] > most) {
                    most = g->herd_cats[k] + g->herd_wcl[k];
                    best = k;
                }
            }
            if (best < 0) break;
            g->discard[col]--;
            HASH(Z_DISC[col][g->discard[col]]);
            add_to_herd(g, best, 0, p);
        }
    }
}

static int legal_moves(Game *g, int *out) {
    unsigned char *hand = g->hand[g->current];
    int n = 0;
    /* branch-free: whether a card is in hand is a coin toss to the branch predictor */
    for (int c = 0; c < 4; c++) {
        out[n] = M_DOG + c;
        n += hand[DOG + c] != 0;
    }
    for (int k = 0; k < g->nherds; k++) {
        out[n] = M_CAT + k;
        n += hand[g->herd_col[k]] != 0;
    }
    if (hand[WCL])
        for (int k = 0; k < g->nherds; k++) out[n++] = M_WCL + k;
    if (hand[STAMP]) out[n++] = M_STAMP;
    if (n == 0)
        for (int t = 0; t < TYPES; t++) {
            out[n] = M_DISC + t;
            n += hand[t] != 0;
        }
    return n;
}

static void apply(Game *g, int m) {
    int p = g->current, k;
    if (m < M_CAT) {
        hand_take(g, p, DOG + m);
        k = g->nherds++;
        g->herd_col[k] = m;
        g->herd_cats[k] = 0;
        g->herd_wcl[k] = 0;
        HASH(herd_key(g, k));
    } else if (m < M_WCL) {
        k = m - M_CAT;
        hand_take(g, p, g->herd_col[k]);
        add_to_herd(g, k, 0, p);
    } else if (m < M_STAMP) {
        hand_take(g, p, WCL);
        add_to_herd(g, m - M_WCL, 1, p);
    } else if (m == M_STAMP) {
        hand_take(g, p, STAMP);
        HASH(Z_DISC[STAMP][g->discard[STAMP]]);
        g->discard[STAMP]++;
        stampede(g, p);
    } else {
        int t = m - M_DISC;
        hand_take(g, p, t);
        HASH(Z_DISC[t][g->discard[t]]);
        g->discard[t]++;
    }
    /* end of the turn: draw back up, then the next seat holding cards */
    g->ply++;
    if (g->deck_top < g->deck_len) {
        int card = g->deck[g->deck_top];
        HASH(Z_DECK[g->deck_top][card]);
        g->deck_top++;
        hand_add(g, p, card);
    }
    for (int i = 1, q = p; i <= g->players; i++) {
        q = q + 1 < g->players ? q + 1 : 0;
        if (g->hand_size[q] > 0) {
            HASH(Z_TURN[p] ^ Z_TURN[q]);
            g->current = q;
            return;
        }
    }
    HASH(Z_TURN[p] ^ Z_TURN[4]);
    g->current = -1;
    g->terminal = 1;
}

static void deal(Game *g, int players, uint64_t seed) {
    Rng r = {seed};
    int n = 0;
    memset(g, 0, sizeof *g);
    g->players = players;
    for (int t = 0; t < TYPES; t++)
        for (int c = 0; c < COMP[t]; c++) g->deck[n++] = (unsigned char)t;
    for (int i = n - 1; i > 0; i--) {
        int j = rng_below(&r, i + 1);
        unsigned char x = g->deck[i];
        g->deck[i] = g->deck[j];
        g->deck[j] = x;
    }
    g->deck_len = n;
    for (int p = 0; p < players; p++)
        for (int i = 0; i < HAND; i++) hand_add(g, p, g->deck[g->deck_top++]);
    g->current = 0;
    /* the hash from scratch: the turn and the deck (the hands are in already) */
    HASH(Z_TURN[0]);
    for (int i = g->deck_top; i < g->deck_len; i++) HASH(Z_DECK[i][g->deck[i]]);
}

/* Play `games` random games from fresh deals, as catsearch's play_random_games does: deals
 * from a generator seeded `seed`, moves from one seeded `seed ^ 0x5DEECE66D`. Returns the
 * moves played; `hash_out` gets the xor of the final hashes (so no work is optimised out). */
long long hc_random_games(int players, long long games, uint64_t seed, uint64_t *hash_out) {
    Rng deal_rng = {seed}, play = {seed ^ 0x5DEECE66DULL};
    int buf[NMOVES + 1];
    long long moves = 0;
    uint64_t hx = 0;
    Game g;
    if (!tables_filled) fill_tables();
    for (long long i = 0; i < games; i++) {
        deal(&g, players, rng_next(&deal_rng));
        while (!g.terminal) {
            int k = legal_moves(&g, buf);
            apply(&g, buf[rng_below(&play, k)]);
            moves++;
        }
        hx ^= g.hash;
    }
    *hash_out = hx;
    return moves;
}
