/* The builder's rules in C, kernel.py's line for line, and its level solver by
 * retrograde analysis (kernel.py's solve_level is a fixpoint of sweeps: the same
 * equations, the levels compared byte for byte by the tests), for speed.
 * Compiled at first use by ckernel.py (gcc -O2 -shared) and called through ctypes.
 * A board: 12 pits, the mover's row 0-5 first; ranks: the combinatorial number
 * system (index.py).  Values: the mover's margin, a signed byte. */
#include <stdint.h>
#include <string.h>

#define GS_A 0
#define GS_B 1
#define GS_C 2
#define GS_D 3
#define GS_E 4
#define PLANT_CAPTURE 1
#define PLANT_INDEX 2
#define PLANT_SLAM 3
#define PLANT_LAP 4
#define NO_BUG_FLAG 0

static int64_t binom[64][13];
static int ready = 0;

static void init(void) {
    if (ready) return;
    for (int a = 0; a < 64; a++) {
        binom[a][0] = 1;
        for (int k = 1; k < 13; k++) binom[a][k] = a == 0 ? 0 : binom[a - 1][k - 1] + binom[a - 1][k];
    }
    ready = 1;
}

int64_t tb_level_size(int n) { init(); return binom[n + 11][11]; }

static int64_t rank_of(const int *p) {
    int64_t r = 0;
    int c = -1;
    for (int k = 1; k < 12; k++) { c += p[k - 1] + 1; r += binom[c][k]; }
    return r;
}

static void unrank(int64_t r, int n, int *p) {
    int bars[12];
    for (int k = 11; k >= 1; k--) {
        int c = k - 1;
        while (binom[c + 1][k] <= r) c++;
        bars[k] = c;
        r -= binom[c][k];
    }
    int prev = -1;
    for (int k = 1; k < 12; k++) { p[k - 1] = bars[k] - prev - 1; prev = bars[k]; }
    p[11] = n + 10 - prev;
}

/* Sow: laps of the 11 other pits at once, then the rest one by one.  PLANT_LAP: each
 * lap sows the origin too (a bug only a pit of 11 stones or more shows). */
static int sow(const int *p, int j, int *a, int bug) {
    int n = p[j], laps = n / 11, rest = n % 11;
    for (int q = 0; q < 12; q++) a[q] = p[q] + laps;
    a[j] = bug == PLANT_LAP ? laps : 0;
    int q = j;
    if (rest == 0) return j == 0 ? 11 : j - 1; /* whole laps end just before the origin */
    for (int i = 0; i < rest; i++) {
        q = q == 11 ? 0 : q + 1;
        if (q == j) q = q == 11 ? 0 : q + 1;
        a[q]++;
    }
    return q;
}

static int row_empty(const int *a) { return !(a[0] | a[1] | a[2] | a[3] | a[4] | a[5]); }

static int capture(int *a, int last, int gs, int bug) {
    if (last < 6) return 0;
    int before[6];
    memcpy(before, a + 6, sizeof before);
    int taken = 0;
    for (int q = last; q >= 6 && (a[q] == 2 || a[q] == 3 || (bug == PLANT_CAPTURE && a[q] == 4)); q--) {
        taken += a[q];
        a[q] = 0;
    }
    if (taken && row_empty(a + 6) && (gs == GS_B || gs == GS_C || gs == GS_D)) {
        memcpy(a + 6, before, sizeof before);
        if (gs == GS_B) return 0;
        int kept = a[last];
        if (gs == GS_C) {
            for (int q = 6; q < 12; q++) a[q] = 0;
            a[last] = kept;
            return taken - kept;
        }
        a[last] = 0;
        return kept;
    }
    return taken;
}

/* options: *term = 1 and *value = the board's value if the game is over at the start
 * of the turn; otherwise out[4*i ..] = (pit, value, child n or -1, child rank) for
 * each legal move, and the count is returned. */
int tb_options(int n, int gs, int bug, int64_t r, int *term, int *value, int64_t *out) {
    init();
    int p[12], a[12];
    unrank(r, n, p);
    *term = 0;
    if (row_empty(p)) { *term = 1; *value = -n; return 0; }
    int starving = row_empty(p + 6), feeders = 0;
    int gained[6], slam[6];
    int64_t kid[6];
    for (int j = 0; j < 6; j++) {
        slam[j] = -1;
        if (!p[j]) continue;
        int last = sow(p, j, a, bug);
        gained[j] = capture(a, last, gs, bug);
        slam[j] = row_empty(a + 6);
        if (!slam[j]) feeders++;
        int mine_sum = a[0] + a[1] + a[2] + a[3] + a[4] + a[5];
        if (slam[j] && gs == GS_E) { kid[j] = mine_sum; continue; }
        int c[12];
        memcpy(c, a + 6, 6 * sizeof(int));
        memcpy(c + 6, a, 6 * sizeof(int));
        kid[j] = rank_of(c);
        if (bug == PLANT_INDEX && !gained[j]) kid[j] = (kid[j] + 1) % tb_level_size(n);
    }
    if (starving && !feeders) { *term = 1; *value = n; return 0; }
    int count = 0;
    for (int j = 0; j < 6; j++) {
        if (slam[j] < 0) continue;
        if (slam[j]) {
            if (starving) continue;
            if (gs == GS_A && feeders && bug != PLANT_SLAM) continue;
            if (gs == GS_E) {
                out[4 * count] = j; out[4 * count + 1] = gained[j] - kid[j];
                out[4 * count + 2] = -1; out[4 * count + 3] = 0;
                count++;
                continue;
            }
        }
        out[4 * count] = j; out[4 * count + 1] = gained[j];
        out[4 * count + 2] = n - gained[j]; out[4 * count + 3] = kid[j];
        count++;
    }
    return count;
}

/* The level solved by retrograde analysis (docs/tablebases.md, "How a level is solved").
 * A move that captures (or ends the game) has a constant value, from the levels below; a
 * move that captures nothing stays in the level.  For each threshold t = 1 … n the
 * boards where the mover forces a margin of at least t (A) and those where the opponent
 * does (B) are an attractor, found layer by layer from the boards its constant options
 * settle, through each board's predecessors: layer k is "within k plies", which is
 * kernel.py's solve_level's least fixpoint (a line that never ends scores 0) and the
 * distance of a board whose entry is t.  A board's entry is the largest t it is in. */

#define NO_OPTION (-128)

/* Pass 1 over ranks [lo, hi): best[r], the best constant option (NO_OPTION if none);
 * outdeg[r], the moves that stay in the level; and each such child's in-degree counted
 * into indeg (atomically: workers share it).  The in-level moves found. */
int64_t tb_edges(int n, int gs, int bug, int8_t *const *lower, int8_t *best, uint8_t *outdeg, uint32_t *indeg,
                 int64_t lo, int64_t hi) {
    init();
    int64_t edges = 0, out[24];
    for (int64_t r = lo; r < hi; r++) {
        int term, value;
        int count = tb_options(n, gs, bug, r, &term, &value, out);
        int b = term ? value : NO_OPTION, d = 0;
        for (int i = 0; i < count; i++) {
            int64_t v = out[4 * i + 1], m = out[4 * i + 2], cr = out[4 * i + 3];
            if (m < n) {
                int t = m < 0 ? (int)v : (int)v - lower[m][cr];
                if (t > b) b = t;
            } else {
                d++;
                __atomic_fetch_add(&indeg[cr], 1, __ATOMIC_RELAXED);
            }
        }
        best[r] = (int8_t)b;
        outdeg[r] = (uint8_t)d;
        edges += d;
    }
    return edges;
}

/* counts[0 … size) into offsets in place (counts[size] = the total); the total. */
int64_t tb_prefix(uint32_t *counts, int64_t size) {
    uint32_t total = 0;
    for (int64_t r = 0; r < size; r++) {
        uint32_t c = counts[r];
        counts[r] = total;
        total += c;
    }
    counts[size] = total;
    return total;
}

/* Pass 2 over ranks [lo, hi): each in-level move r -> c written as r into c's list of
 * predecessors, at cursor[c] (which starts at c's offset). */
void tb_fill(int n, int gs, int bug, uint32_t *cursor, uint32_t *preds, int64_t lo, int64_t hi) {
    init();
    int64_t out[24];
    for (int64_t r = lo; r < hi; r++) {
        int term, value;
        int count = tb_options(n, gs, bug, r, &term, &value, out);
        for (int i = 0; i < count; i++) {
            if (out[4 * i + 2] != n) continue;
            uint32_t at = __atomic_fetch_add(&cursor[out[4 * i + 3]], 1, __ATOMIC_RELAXED);
            preds[at] = (uint32_t)r;
        }
    }
}

/* key[r] = max(key[r], v), atomically: workers solving other thresholds share key. */
static void raise_key(uint32_t *key, int64_t r, uint32_t v) {
    uint32_t old = __atomic_load_n(&key[r], __ATOMIC_RELAXED);
    while (old < v && !__atomic_compare_exchange_n(&key[r], &old, v, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
}

/* Threshold t's attractors A (state 1) and B (state 2), breadth first; each member r's
 * key raised to t << 17 | (r in B) << 16 | its layer.  cnt, state and queue are this
 * worker's scratch (size bytes, size bytes, 4 size bytes).  The members, the deepest
 * layer in *layers; -1 if a layer passes 65,535 (the distances' two bytes). */
int64_t tb_threshold(int t, int64_t size, const int8_t *best, const uint8_t *outdeg, const uint32_t *offsets,
                     const uint32_t *preds, uint8_t *cnt, uint8_t *state, uint32_t *queue, uint32_t *key,
                     int *layers) {
    memcpy(cnt, outdeg, (size_t)size);
    memset(state, 0, (size_t)size);
    int64_t head = 0, tail = 0;
    for (int64_t r = 0; r < size; r++) {
        int b = best[r];
        if (b >= t) {
            state[r] = 1;
            queue[tail++] = (uint32_t)r;
        } else if (outdeg[r] == 0 && b <= -t) { /* NO_OPTION is below every -t */
            state[r] = 2;
            queue[tail++] = (uint32_t)r;
        }
    }
    int layer = 1;
    int64_t end = tail;
    while (head < tail) {
        if (head == end) {
            layer++;
            end = tail;
            if (layer > 65535) return -1;
        }
        uint32_t r = queue[head++];
        int in_b = state[r] == 2;
        raise_key(key, r, (uint32_t)t << 17 | (uint32_t)in_b << 16 | (uint32_t)layer);
        for (uint32_t i = offsets[r]; i < offsets[r + 1]; i++) {
            uint32_t p = preds[i];
            if (state[p]) continue;
            if (in_b) { /* p can move to a board the opponent loses by t */
                state[p] = 1;
                queue[tail++] = p;
            } else if (--cnt[p] == 0 && best[p] <= -t) { /* every move of p gives the opponent t */
                state[p] = 2;
                queue[tail++] = p;
            }
        }
    }
    *layers = layer;
    return tail;
}

/* The keys into entries (a signed byte: t, -t or 0) and distances (the layer, 0 for 0). */
void tb_unpack(const uint32_t *key, int8_t *values, uint16_t *dist, int64_t size) {
    for (int64_t r = 0; r < size; r++) {
        uint32_t k = key[r];
        int t = (int)(k >> 17);
        values[r] = (int8_t)(k >> 16 & 1 ? -t : t);
        dist[r] = (uint16_t)(k & 0xffff);
    }
}

/* bounds.py's doubled level: rank r the hi copy, size + r the lo copy, every move from
 * one copy to the other.  (c, hi) is reached from (p, lo), rank size + p; (c, lo) from
 * (p, hi), rank p.  offsets2 has 2 * size + 1 entries, preds2 2 * edges. */
void tb_double(int64_t size, const uint32_t *offsets, const uint32_t *preds, uint32_t *offsets2, uint32_t *preds2) {
    uint32_t edges = offsets[size];
    for (int64_t r = 0; r < size; r++) {
        offsets2[r] = offsets[r];
        offsets2[size + r] = offsets[r] + edges;
    }
    offsets2[2 * size] = 2 * edges;
    for (uint32_t i = 0; i < edges; i++) {
        preds2[i] = preds[i] + (uint32_t)size;
        preds2[edges + i] = preds[i];
    }
}
