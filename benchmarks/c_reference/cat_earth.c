/* Cat Earth random playouts as one plain C file: the reference that
 * benchmarks/playouts_vs_c.py measures catsearch's playout loop against.
 *
 * The same work as catsearch.benchmark_playouts("cat-earth", ..., setup="random"): the same
 * deal (splitmix64, the deck built in type order and shuffled by Fisher-Yates, the setup's
 * houses and trees placed at random from the state's generator), the same legal moves in the
 * same order, the same incremental Zobrist hash, uniformly random moves drawn the same way
 * (rules: docs/rules/cat-earth.rst); so for the same seed both play the same games and count
 * the same moves (the script checks it, and checks the hash against catsearch's in one game).
 * What it leaves out: the state contract (a virtual call per legal_moves/apply), views (the
 * unknown cards, the memory of the last reshuffle, which a full state does not hash).
 *
 * Build: cc -O2 -g0 -shared -fPIC cat_earth.c -o cat_earth_ref.so
 * (-DREF_NO_HASH leaves the hash out: a playout below a search's tree reads no hash.)
 */
#include <stdint.h>
#include <string.h>

enum { SQUARES = 49, TYPES = 12, UNK = 12, CARDS = 40, EMPTY = 0, TREE = 5, CAT = 6, D4 = 24,
       PH_HOUSE = 0, PH_TREE = 1, PH_PLAY = 2, PH_DISCARD = 3, PH_OVER = 4,
       TP = 9, CN = 10, HS = 11,
       M_HOUSE = 0, M_TREE = 49, M_PATH = 98, M_TELE = 242, M_NIP = 438, M_SWAP = 442,
       M_DISC = 1618, M_END = 1630, NMOVES = 1631,
       MAX_ROUNDS = 100, HAND_LIMIT = 4, MAX_PLAYS = 4 };

static const unsigned char COMP[TYPES] = {4, 6, 4, 3, 3, 2, 2, 2, 2, 4, 4, 4};
static const int PATH_LEN[9] = {1, 2, 3, 2, 2, 3, 3, 3, 3};
static const int PATH_TURN[9][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 1, 0}, {0, 3, 0},
                                    {0, 0, 1}, {0, 0, 3}, {0, 1, 3}, {0, 3, 1}};
static const int HOUSES_EACH[5] = {0, 0, 10, 7, 6}, TREES_EACH[5] = {0, 0, 2, 1, 1};
static const char *START_DIAGRAM[7] = {"..424..", ".22222.", "423.324", "22.C.22",
                                       "423.324", ".22222.", "..424.."};

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

static signed char NEIGH[49][4];          /* one step N, E, S, W; -1 off the board */
static unsigned char START[5][49], NEAR_D4[49], PAIR_A[1176], PAIR_B[1176];
static short PAIR[49][49];
static uint64_t Z_SQ[49][7], Z_HAND[4][13][8], Z_DECK[40][13], Z_DISC[13][41], Z_TURN[5],
    Z_PHASE[5], Z_PLAYED[5], Z_PEND[4], Z_ROUND[102], Z_WIN[16];
static int tables_filled = 0;

static void fill(uint64_t *keys, size_t n, uint64_t seed) {
    Rng r = {seed};
    for (size_t i = 0; i < n; i++) keys[i] = rng_next(&r);
}

static void fill_tables(void) {
    int s, a, b, k = 0;
    for (s = 0; s < 49; s++) {
        int r = s / 7, f = s % 7, n;
        NEIGH[s][0] = r < 6 ? s + 7 : -1;
        NEIGH[s][1] = f < 6 ? s + 1 : -1;
        NEIGH[s][2] = r > 0 ? s - 7 : -1;
        NEIGH[s][3] = f > 0 ? s - 1 : -1;
        NEAR_D4[s] = (r >= 2 && r <= 4 && f >= 2 && f <= 4);
        char ch = START_DIAGRAM[6 - r][f];
        for (n = 0; n < 5; n++) START[n][s] = ch >= '0' && ch <= '9' && ch - '0' <= n;
    }
    for (a = 0; a < 49; a++)
        for (b = a + 1; b < 49; b++) {
            PAIR[a][b] = PAIR[b][a] = (short)k;
            PAIR_A[k] = (unsigned char)a;
            PAIR_B[k] = (unsigned char)b;
            k++;
        }
    uint64_t *t[10] = {&Z_SQ[0][0], &Z_HAND[0][0][0], &Z_DECK[0][0], &Z_DISC[0][0], Z_TURN,
                       Z_PHASE, Z_PLAYED, Z_PEND, Z_ROUND, Z_WIN};
    size_t nb[10] = {sizeof Z_SQ, sizeof Z_HAND, sizeof Z_DECK, sizeof Z_DISC, sizeof Z_TURN,
                     sizeof Z_PHASE, sizeof Z_PLAYED, sizeof Z_PEND, sizeof Z_ROUND,
                     sizeof Z_WIN};
    for (int i = 0; i < 10; i++) fill(t[i], nb[i] / 8, 0x43450001ULL + (uint64_t)i);
    for (s = 0; s < 49; s++) Z_SQ[s][0] = 0;
    Z_PEND[0] = 0;
    Z_WIN[0] = 0;
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
    Rng rng;
    unsigned char board[49], hand[4][13], hand_size[4], deck[40], discard[13], cat_sq[4],
        houses[4];
    int deck_top, ncats, pending, phase, placed, played, round, alive, winners;
} Game;

static inline void set_sq(Game *g, int sq, int v) {
    HASH(Z_SQ[sq][g->board[sq]] ^ Z_SQ[sq][v]);
    g->board[sq] = (unsigned char)v;
}

static inline void set_turn(Game *g, int seat) {
    HASH(Z_TURN[g->current < 0 ? 4 : g->current] ^ Z_TURN[seat < 0 ? 4 : seat]);
    g->current = seat;
}

#define SET_VALUE(field, keys, v) do { int v_ = (v); HASH(keys[g->field] ^ keys[v_]); \
                                       g->field = v_; } while (0)

static inline void hand_add(Game *g, int p, int t) {
    HASH(Z_HAND[p][t][g->hand[p][t]]);
    g->hand[p][t]++;
    g->hand_size[p]++;
}

static inline void discard_card(Game *g, int p, int t) {
    g->hand[p][t]--;
    HASH(Z_HAND[p][t][g->hand[p][t]]);
    g->hand_size[p]--;
    HASH(Z_DISC[t][g->discard[t]]);
    g->discard[t]++;
}

static inline void sort_cats(Game *g) {
    for (int i = 1; i < g->ncats; i++) {
        unsigned char t = g->cat_sq[i];
        int j = i - 1;
        while (j >= 0 && g->cat_sq[j] > t) {
            g->cat_sq[j + 1] = g->cat_sq[j];
            j--;
        }
        g->cat_sq[j + 1] = t;
    }
}

static inline void add_cat_d4(Game *g) {
    set_sq(g, D4, CAT);
    g->cat_sq[g->ncats++] = D4;
    sort_cats(g);
}

/* The cat on pos steps towards dir on board b, pushing the line of houses before it: its new
 * square, or -1 where the step is illegal (b is then left half-done). */
static inline int step(unsigned char *b, int pos, int dir) {
    int y = NEIGH[pos][dir], z, nz, m = 0, v;
    int line[8];
    if (y < 0) return -1;
    v = b[y];
    if (v != EMPTY) {
        if (v >= TREE) return -1;
        z = y;
        for (;;) {
            line[m++] = z;
            nz = NEIGH[z][dir];
            if (nz < 0) break;
            v = b[nz];
            if (v == EMPTY) break;
            if (v >= TREE) return -1;
            z = nz;
        }
        if (nz >= 0) b[nz] = b[z];
        for (int j = m - 1; j > 0; j--) b[line[j]] = b[line[j - 1]];
    }
    b[y] = CAT;
    b[pos] = EMPTY;
    return y;
}

static inline int path_ok(const unsigned char *board, int pos, int dir, int card) {
    unsigned char b[49];
    int y = NEIGH[pos][dir];
    if (y < 0 || board[y] >= TREE) return 0;
    if (PATH_LEN[card] == 1 && board[y] == EMPTY) return 1;
    memcpy(b, board, 49);
    for (int i = 0; i < PATH_LEN[card]; i++) {
        dir = (dir + PATH_TURN[card][i]) & 3;
        pos = step(b, pos, dir);
        if (pos < 0) return 0;
    }
    return 1;
}

static int step_apply(Game *g, int pos, int dir) {
    int y = NEIGH[pos][dir], z, nz = -1, m = 0;
    int line[8];
    if (g->board[y] != EMPTY) {
        z = y;
        for (;;) {
            line[m++] = z;
            nz = NEIGH[z][dir];
            if (nz < 0 || g->board[nz] == EMPTY) break;
            z = nz;
        }
        if (nz >= 0) set_sq(g, nz, g->board[z]);
        else g->houses[g->board[z] - 1]--;
        for (int j = m - 1; j > 0; j--) set_sq(g, line[j], g->board[line[j - 1]]);
    }
    set_sq(g, y, CAT);
    set_sq(g, pos, EMPTY);
    return y;
}

static inline int tree_ok(const Game *g, int sq) {
    if (g->board[sq] != EMPTY || NEAR_D4[sq]) return 0;
    int r = sq / 7, f = sq % 7;
    for (int rr = r - 1; rr <= r + 1; rr++) {
        if (rr < 0 || rr > 6) continue;
        for (int ff = f - 1; ff <= f + 1; ff++)
            if (ff >= 0 && ff <= 6 && g->board[rr * 7 + ff] == TREE) return 0;
    }
    return 1;
}

static void game_over(Game *g, int winners) {
    set_turn(g, -1);
    SET_VALUE(phase, Z_PHASE, PH_OVER);
    SET_VALUE(played, Z_PLAYED, 0);
    HASH(Z_WIN[g->winners] ^ Z_WIN[winners]);
    g->winners = winners;
    g->terminal = 1;
}

static void reshuffle(Game *g) {
    int t, c, m = 0, i;
    for (t = 0; t < TYPES; t++) m += g->discard[t];
    if (m == 0) return;
    i = CARDS - m;
    for (t = 0; t < TYPES; t++) {
        for (c = 0; c < g->discard[t]; c++) g->deck[i++] = (unsigned char)t;
        while (g->discard[t] > 0) {
            g->discard[t]--;
            HASH(Z_DISC[t][g->discard[t]]);
        }
    }
    g->deck_top = CARDS - m;
    for (i = m - 1; i > 0; i--) {           /* Fisher-Yates, the state's generator */
        int j = rng_below(&g->rng, i + 1);
        unsigned char x = g->deck[g->deck_top + i];
        g->deck[g->deck_top + i] = g->deck[g->deck_top + j];
        g->deck[g->deck_top + j] = x;
    }
#ifndef REF_NO_HASH
    for (i = g->deck_top; i < CARDS; i++) HASH(Z_DECK[i][g->deck[i]]);
#endif
    if (g->ncats + g->pending < 4) {
        if (g->board[D4] == EMPTY) add_cat_d4(g);
        else SET_VALUE(pending, Z_PEND, g->pending + 1);
    }
}

static inline void draw(Game *g, int p) {
    if (g->deck_top >= CARDS) return;
    int card = g->deck[g->deck_top];
    HASH(Z_DECK[g->deck_top][card]);
    g->deck_top++;
    hand_add(g, p, card);
    if (g->deck_top == CARDS) reshuffle(g);
}

static void begin_turn(Game *g, int p) {
    set_turn(g, p);
    SET_VALUE(phase, Z_PHASE, PH_PLAY);
    SET_VALUE(played, Z_PLAYED, 0);
    draw(g, p);
}

static void next_turn(Game *g, int p) {
    int i, q = p, n = g->players, best = -1, w = 0;
    for (i = 0; i < n; i++) {
        q = q + 1 < n ? q + 1 : 0;
        if (g->alive >> q & 1) break;
    }
    if (q <= p) {
        if (g->round >= MAX_ROUNDS) {
            for (i = 0; i < n; i++)
                if (g->alive >> i & 1) {
                    if (g->houses[i] > best) {
                        best = g->houses[i];
                        w = 0;
                    }
                    if (g->houses[i] == best) w |= 1 << i;
                }
            game_over(g, w);
            return;
        }
        SET_VALUE(round, Z_ROUND, g->round + 1);
    }
    begin_turn(g, q);
}

static void end_play(Game *g, int p) {
    if (g->hand_size[p] > HAND_LIMIT) {
        SET_VALUE(phase, Z_PHASE, PH_DISCARD);
        SET_VALUE(played, Z_PLAYED, 0);
    } else {
        next_turn(g, p);
    }
}

static void start_play(Game *g) {
    for (int r = 0; r < 2; r++)
        for (int q = 0; q < g->players; q++) draw(g, q);
    SET_VALUE(round, Z_ROUND, 1);
    begin_turn(g, 0);
}

static void after_card(Game *g, int p) {
    int q, t, mask = 0, newly, n = g->players;
    SET_VALUE(played, Z_PLAYED, g->played + 1);
    if (g->pending > 0 && g->board[D4] == EMPTY) {
        SET_VALUE(pending, Z_PEND, g->pending - 1);
        add_cat_d4(g);
    }
    for (q = 0; q < n; q++)
        if (g->houses[q] > 0) mask |= 1 << q;
    newly = g->alive & ~mask;
    if (newly) {
        for (q = 0; q < n; q++)
            if (newly >> q & 1)
                for (t = 0; t < TYPES; t++)
                    while (g->hand[q][t] > 0) discard_card(g, q, t);
        g->alive &= mask;
        if (g->alive == 0) {
            game_over(g, newly);
            return;
        }
        if ((g->alive & (g->alive - 1)) == 0) {
            game_over(g, g->alive);
            return;
        }
        if (!(g->alive >> p & 1)) {
            next_turn(g, p);
            return;
        }
    }
    if (g->played >= MAX_PLAYS || g->hand_size[p] == 0) end_play(g, p);
}

static int legal_moves(const Game *g, int *out) {
    int n = 0, sq, c, k, dir, i, j;
    const unsigned char *hand = g->hand[g->current];
    unsigned char list[49];
    if (g->terminal) return 0;
    if (g->phase == PH_HOUSE) {
        for (sq = 0; sq < 49; sq++)
            if (START[g->players][sq] && g->board[sq] == EMPTY) out[n++] = M_HOUSE + sq;
        return n;
    }
    if (g->phase == PH_TREE) {
        for (sq = 0; sq < 49; sq++)
            if (tree_ok(g, sq)) out[n++] = M_TREE + sq;
        return n;
    }
    if (g->phase == PH_DISCARD) {
        for (c = 0; c < TYPES; c++)
            if (hand[c]) out[n++] = M_DISC + c;
        return n;
    }
    for (c = 0; c < 9; c++)
        if (hand[c])
            for (k = 0; k < g->ncats; k++)
                for (dir = 0; dir < 4; dir++)
                    if (path_ok(g->board, g->cat_sq[k], dir, c))
                        out[n++] = M_PATH + (c * 4 + k) * 4 + dir;
    if (hand[TP]) {
        int ne = 0;
        for (sq = 0; sq < 49; sq++) {          /* branch-free: the squares are random */
            list[ne] = (unsigned char)sq;
            ne += g->board[sq] == EMPTY;
        }
        for (k = 0; k < g->ncats; k++)
            for (i = 0; i < ne; i++) out[n++] = M_TELE + k * 49 + list[i];
    }
    if (hand[CN] && g->board[D4] == EMPTY)
        for (k = 0; k < g->ncats; k++) out[n++] = M_NIP + k;
    if (hand[HS]) {
        int nh = 0;
        unsigned char own[49];
        for (sq = 0; sq < 49; sq++) {
            list[nh] = (unsigned char)sq;
            own[nh] = g->board[sq];
            nh += (unsigned)(g->board[sq] - 1) < 4;
        }
        for (i = 0; i < nh; i++) {
            const short *pair = PAIR[list[i]];
            for (j = i + 1; j < nh; j++) {
                out[n] = M_SWAP + pair[list[j]];
                n += own[i] != own[j];
            }
        }
    }
    out[n++] = M_END;
    return n;
}

static void apply(Game *g, int m) {
    int p = g->current, n = g->players, c, k, dir, sq, a, b, va, vb, t, pos;
    g->ply++;
    if (m < M_TREE) {
        set_sq(g, m - M_HOUSE, p + 1);
        g->houses[p]++;
        g->placed++;
        if (g->placed == n * HOUSES_EACH[n]) {
            SET_VALUE(phase, Z_PHASE, PH_TREE);
            set_turn(g, n - 1);
        } else {
            set_turn(g, g->placed % n);
        }
        return;
    }
    if (m < M_PATH) {
        set_sq(g, m - M_TREE, TREE);
        g->placed++;
        t = g->placed - n * HOUSES_EACH[n];
        if (t == n * TREES_EACH[n]) start_play(g);
        else set_turn(g, ((n - 1 - t) % n + n) % n);
        return;
    }
    if (m >= M_DISC) {
        if (m == M_END) {
            end_play(g, p);
            return;
        }
        discard_card(g, p, m - M_DISC);
        if (g->hand_size[p] <= HAND_LIMIT) next_turn(g, p);
        return;
    }
    if (m < M_TELE) {
        c = (m - M_PATH) >> 4;
        k = ((m - M_PATH) >> 2) & 3;
        dir = (m - M_PATH) & 3;
        discard_card(g, p, c);
        pos = g->cat_sq[k];
        for (int i = 0; i < PATH_LEN[c]; i++) {
            dir = (dir + PATH_TURN[c][i]) & 3;
            pos = step_apply(g, pos, dir);
        }
        g->cat_sq[k] = (unsigned char)pos;
        sort_cats(g);
    } else if (m < M_NIP) {
        k = (m - M_TELE) / 49;
        sq = (m - M_TELE) % 49;
        discard_card(g, p, TP);
        set_sq(g, g->cat_sq[k], EMPTY);
        set_sq(g, sq, CAT);
        g->cat_sq[k] = (unsigned char)sq;
        sort_cats(g);
    } else if (m < M_SWAP) {
        k = m - M_NIP;
        discard_card(g, p, CN);
        set_sq(g, g->cat_sq[k], EMPTY);
        set_sq(g, D4, CAT);
        g->cat_sq[k] = D4;
        sort_cats(g);
    } else {
        a = PAIR_A[m - M_SWAP];
        b = PAIR_B[m - M_SWAP];
        discard_card(g, p, HS);
        va = g->board[a];
        vb = g->board[b];
        set_sq(g, a, vb);
        set_sq(g, b, va);
    }
    after_card(g, p);
}

/* A fresh deal from `seed` (catsearch's reset_c with setup="random"): the deck shuffled with
 * the state's generator, then the houses and trees placed at random with it. */
static void deal(Game *g, int players, uint64_t seed) {
    int n = 0, buf[NMOVES + 1];
    memset(g, 0, sizeof *g);
    g->players = players;
    g->rng.s = seed;
    for (int t = 0; t < TYPES; t++)
        for (int c = 0; c < COMP[t]; c++) g->deck[n++] = (unsigned char)t;
    for (int i = n - 1; i > 0; i--) {
        int j = rng_below(&g->rng, i + 1);
        unsigned char x = g->deck[i];
        g->deck[i] = g->deck[j];
        g->deck[j] = x;
    }
    g->board[D4] = CAT;
    g->cat_sq[0] = D4;
    g->ncats = 1;
    g->alive = (1 << players) - 1;
    g->phase = PH_HOUSE;
    g->current = 0;
    /* the hash from scratch: the turn, the cat on d4, the deck (counters all zero) */
    HASH(Z_TURN[0] ^ Z_SQ[D4][CAT] ^ Z_PHASE[0] ^ Z_PLAYED[0] ^ Z_PEND[0] ^ Z_ROUND[0]
         ^ Z_WIN[0]);
#ifndef REF_NO_HASH
    for (int i = 0; i < CARDS; i++) HASH(Z_DECK[i][g->deck[i]]);
#endif
    while (g->phase < PH_PLAY) {
        int k = legal_moves(g, buf);
        apply(g, buf[rng_below(&g->rng, k)]);
    }
    g->ply = 0;
}

/* Play `games` random games from fresh deals, as catsearch's play_random_games does: deals
 * from a generator seeded `seed`, moves from one seeded `seed ^ 0x5DEECE66D`. Returns the
 * moves played; `hash_out` gets the xor of the final hashes (so no work is optimised out). */
long long ce_random_games(int players, long long games, uint64_t seed, uint64_t *hash_out) {
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
#ifdef REF_NO_HASH
        hx ^= (uint64_t)g.ply * 0x9E3779B97F4A7C15ULL ^ g.board[D4];
#else
        hx ^= g.hash;
#endif
    }
    *hash_out = hx;
    return moves;
}
