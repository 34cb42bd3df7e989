/* probe.may_repeat's search in C (docs/tablebases.md, "Adjudication and probing"), apart
 * from kernel.c so that the tables' fingerprint (store.py: kernel.c is the builder's code)
 * does not change with it; kernel.c is included, its moves the ones the tables were built on. */

#include "kernel.c"

/* Whether the board of n stones of rank `start` reaches one of
 * the `ntargets` ranks of `targets` (sorted) by moves that capture nothing, breadth first;
 * past `limit` boards seen it gives up and answers 1, as if it did.  `seen` is a zeroed
 * bitmap of the level, `queue` room for limit + 7 ranks (a pop adds at most six). */
static int is_target(const int64_t *targets, int ntargets, int64_t r) {
    int lo = 0, hi = ntargets;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (targets[mid] < r) lo = mid + 1; else hi = mid;
    }
    return lo < ntargets && targets[lo] == r;
}

int tb_reach(int n, int gs, int bug, int64_t start, const int64_t *targets, int ntargets, int64_t limit,
             uint8_t *seen, int64_t *queue) {
    init();
    int64_t head = 0, tail = 0, count = 1, out[24];
    int term, value;
    seen[start >> 3] |= (uint8_t)(1 << (start & 7));
    queue[tail++] = start;
    while (head < tail) {
        int64_t r = queue[head++];
        if (is_target(targets, ntargets, r) || count > limit) return 1;
        int k = tb_options(n, gs, bug, r, &term, &value, out);
        for (int i = 0; i < k; i++) {
            if (out[4 * i + 2] != n || out[4 * i + 1] != 0) continue;
            int64_t c = out[4 * i + 3];
            if (seen[c >> 3] & (1 << (c & 7))) continue;
            seen[c >> 3] |= (uint8_t)(1 << (c & 7));
            count++;
            queue[tail++] = c;
        }
    }
    return 0;
}
