/* The builder's rules and level solver in C: kernel.py, line for line, for speed.
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

/* Sow: laps of the 11 other pits at once, then the rest one by one. */
static int sow(const int *p, int j, int *a) {
    int n = p[j], laps = n / 11, rest = n % 11;
    for (int q = 0; q < 12; q++) a[q] = p[q] + laps;
    a[j] = 0;
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
        int last = sow(p, j, a);
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

/* One Gauss-Seidel sweep of kernel.py's solve_level over ranks [lo, hi): W and L
 * only grow; ``backward`` runs the ranks from hi down.  lower[m] is level m's table (m < n).
 * The changes made. */
int64_t tb_sweep(int n, int gs, int bug, uint8_t *W, uint8_t *L, int8_t *const *lower, int64_t lo, int64_t hi,
                 int backward) {
    init();
    int64_t changes = 0, out[24];
    for (int64_t i = lo; i < hi; i++) {
        int64_t r = backward ? hi - 1 - (i - lo) : i;
        int term, value;
        int count = tb_options(n, gs, bug, r, &term, &value, out);
        int w = 0, least = 127;
        if (term) {
            if (value > w) w = value;
            if (-value < least) least = -value;
        }
        for (int i = 0; i < count; i++) {
            int64_t v = out[4 * i + 1], m = out[4 * i + 2], cr = out[4 * i + 3];
            int t, kw, kl;
            if (m < 0 || m < n) {
                t = m < 0 ? (int)v : (int)v - lower[m][cr];
                if (t > w) w = t;
                if (-t < least) least = -t;
            } else {
                kw = W[cr]; kl = L[cr];
                if (kl > w) w = kl;
                if (kw < least) least = kw;
            }
        }
        if (least < 0) least = 0;
        if (w > W[r]) { W[r] = (uint8_t)w; changes++; }
        if (least > L[r]) { L[r] = (uint8_t)least; changes++; }
    }
    return changes;
}

/* The margins W - L of a solved level (one of the two is 0), into out. */
void tb_margins(const uint8_t *W, const uint8_t *L, uint8_t *out, int64_t size) {
    for (int64_t r = 0; r < size; r++) out[r] = (uint8_t)(W[r] - L[r]);
}

/* One Jacobi step of solve_level's equations: W1, L1 from W0, L0 (every board from
 * the previous step's values), over ranks [lo, hi).  After k steps W (L) is the
 * margin the mover (the opponent) forces within k plies.  The changes. */
int64_t tb_jacobi(int n, int gs, const uint8_t *W0, const uint8_t *L0, uint8_t *W1, uint8_t *L1,
                  int8_t *const *lower, int64_t lo, int64_t hi) {
    init();
    int64_t changes = 0, out[24];
    for (int64_t r = lo; r < hi; r++) {
        int term, value;
        int count = tb_options(n, gs, NO_BUG_FLAG, r, &term, &value, out);
        int w = 0, least = 127;
        if (term) {
            if (value > w) w = value;
            if (-value < least) least = -value;
        }
        for (int i = 0; i < count; i++) {
            int64_t v = out[4 * i + 1], m = out[4 * i + 2], cr = out[4 * i + 3];
            if (m < n) {
                int t = m < 0 ? (int)v : (int)v - lower[m][cr];
                if (t > w) w = t;
                if (-t < least) least = -t;
            } else {
                if (L0[cr] > w) w = L0[cr];
                if (W0[cr] < least) least = W0[cr];
            }
        }
        if (least < 0) least = 0;
        if (w < W0[r]) w = W0[r];
        if (least < L0[r]) least = L0[r];
        if (w != W0[r] || least != L0[r]) changes++;
        W1[r] = (uint8_t)w;
        L1[r] = (uint8_t)least;
    }
    return changes;
}

/* Distances: rank[r] = k for each board whose final margin E (a signed byte) the
 * step-k values W, L first reach (W >= E > 0 or L >= -E > 0), rank[r] still 0. */
void tb_ranks(const int8_t *E, const uint8_t *W, const uint8_t *L, uint16_t *rank, int k, int64_t size) {
    for (int64_t r = 0; r < size; r++) {
        if (rank[r]) continue;
        if ((E[r] > 0 && W[r] >= E[r]) || (E[r] < 0 && L[r] >= -E[r])) rank[r] = (uint16_t)k;
    }
}
