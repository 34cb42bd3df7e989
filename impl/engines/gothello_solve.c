/* Gothello 5x5 solved exactly (issue #54; impl/engines/gothello_solve.py, which
 * loads this through ctypes and checks it against impl/engines/gothello_endgame.py).
 *
 * The same search as gothello_endgame.Solver, compiled: negamax alpha-beta, fail-soft,
 * over the mover's final margin (its stones less the other's when two passes in
 * succession end the game: GothelloGameOver), a position being (the mover's stones,
 * the other's, whether the last action was a pass).  Placement is the fast engine's
 * _place (impl/engines/gothello.py): GothelloIllegalMoveBlocked refuses a stone whose
 * group has no liberty before any capture; GothelloMove_corrected turns every
 * adjoining group of the other player left without a liberty.
 *
 * Added here: a transposition table of 2^bits buckets of two entries (one kept by the
 * work below it, one always replaced), keyed by the position's least image under the
 * board's eight symmetries (GothelloMove is symmetric: the rules read only adjacency)
 * when it has at least SYM_MIN empty points; and a node budget (gs_search). */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define FULL 0x1FFFFFFu
#define RANK1 (1u | 1u << 5 | 1u << 10 | 1u << 15 | 1u << 20)
#define NOT_RANK1 (FULL & ~RANK1)
#define NOT_RANK5 (FULL & ~(RANK1 << 4))
#define PASS 25
#define BOUND 26
#define GAIN 1000
#define FIRST ((int64_t)1 << 60)
#define SYM_MIN 6
#define TABLE_MIN 2 /* below, no table: probing costs more than searching one point (~10%) */

static uint32_t NB[25];
static uint8_t PERM[8][25];   /* square i -> its image under symmetry t */
static uint8_t INV[8][25];    /* the inverse */
static uint32_t CHUNK[8][4][256]; /* images of the bits 8c..8c+7 of a board */
static int ready = 0;

typedef struct {
    uint64_t key;  /* position key + 1; 0: empty */
    int8_t lo, hi;
    uint8_t best;  /* action code in the key's frame, 255: none */
    uint8_t pad;
    uint32_t work; /* log2 of the nodes below, for replacement */
} Entry;

static Entry *table = NULL;
static size_t table_size = 0;
static uint64_t mask = 0;
static uint64_t nodes = 0, stop_at = UINT64_MAX;
static volatile int aborted = 0; /* gs_abort, from another thread; cleared by gs_arm only */
static int stopped = 0;
static uint64_t history[26];
static int bug = 0; /* planted bugs (the check's catalogue): 0 none */

static inline uint32_t dilate(uint32_t x) {
    return x | ((x << 1) & NOT_RANK1) | ((x >> 1) & NOT_RANK5) | ((x << 5) & FULL) | (x >> 5);
}

static inline int pc(uint32_t x) { return __builtin_popcount(x); }

static uint32_t group_of(uint32_t seed, uint32_t stones) {
    uint32_t g = seed;
    for (;;) {
        uint32_t grown = dilate(g) & stones;
        if (grown == g) return g;
        g = grown;
    }
}

static int is_free(uint32_t seed, uint32_t stones, uint32_t blank) {
    uint32_t g = seed;
    for (;;) {
        uint32_t around = dilate(g);
        if (around & blank) return 1;
        uint32_t grown = around & stones;
        if (grown == g) return 0;
        g = grown;
    }
}

/* _place: -1 where refused, else theirs' | mine' << 25. */
static int64_t place(uint32_t mine, uint32_t theirs, int i) {
    uint32_t bit = 1u << i;
    mine |= bit;
    uint32_t blank = FULL ^ (mine | theirs);
    uint32_t near = NB[i];
    if (bug != 1 && !(near & blank) && !is_free(bit, mine, blank)) return -1;
    uint32_t targets = near & theirs;
    while (targets) {
        uint32_t t = targets & (0u - targets);
        uint32_t g = group_of(t, theirs);
        targets &= ~g;
        if (!(dilate(g) & (bug == 2 ? (blank | bit) : blank))) {
            theirs ^= g;
            mine |= g;
        }
    }
    return (int64_t)theirs | ((int64_t)mine << 25);
}

static void init(void) {
    if (ready) return;
    for (int i = 0; i < 25; i++) NB[i] = dilate(1u << i) & ~(1u << i);
    for (int t = 0; t < 8; t++) {
        for (int i = 0; i < 25; i++) {
            int f = i / 5, r = i % 5, a = f, b = r;
            if (t & 1) a = 4 - a;          /* mirror the files */
            if (t & 2) b = 4 - b;          /* mirror the ranks */
            if (t & 4) { int s = a; a = b; b = s; } /* transpose */
            PERM[t][i] = (uint8_t)(5 * a + b);
            INV[t][5 * a + b] = (uint8_t)i;
        }
        for (int c = 0; c < 4; c++)
            for (int v = 0; v < 256; v++) {
                uint32_t img = 0;
                for (int k = 0; k < 8; k++) {
                    int i = 8 * c + k;
                    if (i < 25 && (v >> k & 1)) img |= 1u << PERM[t][i];
                }
                CHUNK[t][c][v] = img;
            }
    }
    ready = 1;
}

static inline uint32_t image(int t, uint32_t x) {
    return CHUNK[t][0][x & 255] | CHUNK[t][1][x >> 8 & 255] | CHUNK[t][2][x >> 16 & 255] | CHUNK[t][3][x >> 24];
}

static inline uint64_t key_of(uint32_t mine, uint32_t theirs, int passed) {
    return ((((uint64_t)mine << 25) | theirs) << 1) | (uint64_t)passed;
}

/* The position's key and the symmetry taking it there. */
static uint64_t canonical(uint32_t mine, uint32_t theirs, int passed, int empties, int *sym) {
    uint64_t best = key_of(mine, theirs, passed);
    *sym = 0;
    if (empties < SYM_MIN || bug == 3) return best;
    for (int t = 1; t < 8; t++) {
        uint64_t k = key_of(image(t, mine), image(t, theirs), passed);
        if (k < best) { best = k; *sym = t; }
    }
    return best;
}

static inline uint64_t slot(uint64_t key) { return ((key * 0x9E3779B97F4A7C15ull) >> 20) & mask; }

static Entry *probe(uint64_t key) {
    Entry *b = &table[slot(key) * 2];
    if (b[0].key == key + 1) return &b[0];
    if (b[1].key == key + 1) return &b[1];
    return NULL;
}

static void store(uint64_t key, int lo, int hi, int best, uint32_t work) {
    Entry *b = &table[slot(key) * 2];
    Entry *e;
    if (b[0].key == key + 1 || b[0].key == 0 || work >= b[0].work) {
        if (b[0].key != key + 1 && b[0].key != 0) b[1] = b[0]; /* the deeper one kept aside */
        e = &b[0];
    } else {
        e = &b[1];
    }
    e->key = key + 1;
    e->lo = (int8_t)lo;
    e->hi = (int8_t)hi;
    e->best = (uint8_t)(best < 0 ? 255 : best);
    e->work = work;
}

static inline uint32_t log2u(uint64_t n) { return n ? 63u - (uint32_t)__builtin_clzll(n) : 0u; }

typedef struct {
    int64_t order;
    int action;
    uint32_t mine, theirs;
    int passed;
} Child;

static int search(uint32_t mine, uint32_t theirs, int passed, int alpha, int beta) {
    if (++nodes > stop_at || aborted) {
        stopped = 1;
        return 0;
    }
    uint32_t occupied = mine | theirs;
    int empties = 25 - pc(occupied);
    if (empties == 0) /* nothing to place: the game ends in passes */
        return pc(mine) - pc(theirs);
    uint64_t before = nodes;
    int sym = 0, tabled = table != NULL && empties >= TABLE_MIN;
    uint64_t key = tabled ? canonical(mine, theirs, passed, empties, &sym) : 0;
    int lo = -BOUND, hi = BOUND, first = -1;
    Entry *e = tabled ? probe(key) : NULL;
    if (e) {
        lo = e->lo;
        hi = e->hi;
        first = e->best == 255 ? -1 : (e->best == PASS ? PASS : INV[sym][e->best]);
        if (lo >= beta || lo == hi) return lo;
        if (hi <= alpha) return hi;
        if (lo > alpha) alpha = lo;
        if (hi < beta) beta = hi;
    }
    int a = alpha, best = -BOUND, best_code = -1;
    if (passed) {
        best = pc(mine) - pc(theirs);
        best_code = PASS;
        if (best > a) a = best;
    }
    if (best < beta) {
        Child children[26];
        int n = 0;
        uint32_t blank = FULL ^ occupied;
        while (blank) {
            uint32_t bit = blank & (0u - blank);
            blank ^= bit;
            int i = __builtin_ctz(bit);
            int64_t placed = place(mine, theirs, i);
            if (placed < 0) continue;
            uint32_t after_theirs = (uint32_t)(placed & FULL), after_mine = (uint32_t)(placed >> 25);
            int gain = pc(after_mine) - pc(after_theirs);
            Child c = {i == first ? FIRST : (int64_t)gain * GAIN + (int64_t)history[i], i, after_theirs, after_mine, 0};
            int j = n++;
            while (j > 0 && children[j - 1].order < c.order) { children[j] = children[j - 1]; j--; }
            children[j] = c;
        }
        if (!passed) {
            Child c = {first == PASS ? FIRST : (int64_t)-BOUND * GAIN + (int64_t)history[PASS], PASS, theirs, mine, 1};
            int j = n++;
            while (j > 0 && children[j - 1].order < c.order) { children[j] = children[j - 1]; j--; }
            children[j] = c;
        }
        for (int k = 0; k < n; k++) {
            int value = -search(children[k].mine, children[k].theirs, children[k].passed, -beta, -a);
            if (stopped) return 0;
            if (value > best) {
                best = value;
                best_code = children[k].action;
                if (value > a) {
                    a = value;
                    if (a >= beta) {
                        history[children[k].action] += (uint64_t)1 << empties;
                        break;
                    }
                }
            }
        }
    }
    if (best <= alpha) {
        if (best < hi) hi = best;
    } else if (best >= beta) {
        if (best > lo) lo = best;
    } else {
        lo = hi = best;
    }
    if (tabled) {
        int code = best > alpha ? best_code : first;
        int framed = code < 0 ? -1 : (code == PASS ? PASS : PERM[sym][code]);
        store(key, lo, hi, framed, log2u(nodes - before));
    }
    return best;
}

/* ─── the interface (gothello_solve.py) ─────────────────────────────────────── */

/* A table of 2^(bits+1) entries (16 bytes each); bits 0: none. 0 on success. */
int gs_init(int bits) {
    init();
    if (table) munmap(table, table_size);
    table = NULL;
    mask = 0;
    if (bits <= 0) return 0;
    size_t size = ((size_t)2 << bits) * sizeof(Entry);
    void *mem = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED) return 1;
    madvise(mem, size, MADV_HUGEPAGE); /* fewer TLB misses: every node probes at random (~15% faster) */
    table = mem;
    table_size = size;
    mask = ((uint64_t)1 << bits) - 1;
    memset(history, 0, sizeof history);
    return 0;
}

void gs_bug(int b) { bug = b; }

uint64_t gs_nodes(void) { return nodes; }

/* Ends the search running in another thread at its next node (Ctrl-C) — or, called
 * before that search has begun, at its first: gs_search does not clear it, gs_arm
 * (called before the search's thread starts) does. */
void gs_abort(void) { aborted = 1; }

void gs_arm(void) { aborted = 0; }

/* The mover's margin if within (alpha, beta), else a bound on that side; after
 * at most `budget` nodes (0: none), -127 if it ran out. */
int gs_search(uint32_t mine, uint32_t theirs, int passed, int alpha, int beta, uint64_t budget) {
    init();
    stopped = 0;
    stop_at = budget ? nodes + budget : UINT64_MAX;
    int v = search(mine, theirs, passed, alpha, beta);
    stop_at = UINT64_MAX;
    return stopped ? -127 : v;
}

/* place for the check: 1 and the position after (seen from the same mover), or 0. */
int gs_place(uint32_t mine, uint32_t theirs, int i, uint32_t *out_mine, uint32_t *out_theirs) {
    init();
    int64_t placed = place(mine, theirs, i);
    if (placed < 0) return 0;
    *out_theirs = (uint32_t)(placed & FULL);
    *out_mine = (uint32_t)(placed >> 25);
    return 1;
}

/* The table's entry for a position: its bounds and best action (-1: none); 0 if none. */
int gs_entry(uint32_t mine, uint32_t theirs, int passed, int *lo, int *hi, int *best) {
    init();
    if (!table) return 0;
    int sym;
    int empties = 25 - pc(mine | theirs);
    Entry *e = probe(canonical(mine, theirs, passed, empties, &sym));
    if (!e) return 0;
    *lo = e->lo;
    *hi = e->hi;
    *best = e->best == 255 ? -1 : (e->best == PASS ? PASS : INV[sym][e->best]);
    return 1;
}

/* The image of a board under symmetry t (0–7). */
uint32_t gs_image(int t, uint32_t board) {
    init();
    return image(t, board);
}
