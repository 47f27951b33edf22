/*
 * The search core in C: the depth-first search of cardtable.solver._core,
 * compiled ahead of time so that a solve needs no JIT and no numba import.
 *
 * It works on the same array state (cardtable.solver._state: one int8 array
 * of STATE_SIZE entries) and the same move codes, generates the same moves
 * in the same order and plays the same safe moves, so a search here visits
 * exactly the states the numba core visits; tests/solver/test_ccore.py
 * checks that, state count for state count. The soundness notes for every
 * pruning are in the docstring of cardtable/solver/_core.py.
 *
 * Two things differ, both invisible in the answers:
 *  - the search owns its memory (the stacks are malloc'ed and only the
 *    depths reached are touched; the transposition table starts small and
 *    doubles itself up to the size the budget needs), so a small solve costs
 *    microseconds, not the megabytes of zeroed arrays;
 *  - the 128-bit state keys come from Zobrist tables generated here with
 *    splitmix64, not numpy's generator: keys are only ever compared with
 *    keys of the same search.
 *
 * The GIL is released while a search runs.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum {
    PILE_CAP = 52,
    NPILES = 7,
    LEN = PILE_CAP * NPILES,
    DOWN = LEN + NPILES,
    TALON = DOWN + NPILES,
    TLEN = TALON + 52,
    WP = TLEN + 1,
    FOUND = WP + 1,
    PASS = FOUND + 4,
    STATE_SIZE = PASS + 4,
};
enum { SRC_TALON = 7, LOC_FOUNDATION = 9 };
enum { HOME_FLAG = 1 << 21 };
enum { MAX_MOVES = 1024, TALON_MARK = 64, MAX_DEPTH = 4000, PASS_CAP = 100 };
enum { RUNNING = 0, WON = 1, EXHAUSTED = 2, TABLE_FULL = 3 };
enum { V_DRAW, V_PASSES, V_ANY_EMPTY, V_RETURN, V_SALT, V_WIDTH, V_SIZE };

typedef int8_t state_t;

static int RANK[52], SUIT[52], RED[52];
static uint64_t Z1[2][PILE_CAP][52], Z2[2][PILE_CAP][52];
static uint64_t ZF1[4][14], ZF2[4][14];
static uint64_t ZT1[52], ZT2[52], ZW1[64], ZW2[64], ZP1[128], ZP2[128];

static uint64_t splitmix_state = 0x2026112500000001ULL;

static uint64_t splitmix(void)
{
    uint64_t z = (splitmix_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void init_tables(void)
{
    for (int i = 0; i < 52; i++) {
        RANK[i] = i % 13 + 1;
        SUIT[i] = i / 13;
        RED[i] = (i / 13 == 1 || i / 13 == 2) ? 1 : 0;
    }
    for (int u = 0; u < 2; u++)
        for (int k = 0; k < PILE_CAP; k++)
            for (int c = 0; c < 52; c++) {
                Z1[u][k][c] = splitmix() | 1ULL;
                Z2[u][k][c] = splitmix() | 1ULL;
            }
    for (int c = 0; c < 52; c++) {
        ZT1[c] = splitmix() & ~1ULL;
        ZT2[c] = splitmix() & ~1ULL;
    }
    for (int f = 0; f < 4; f++)
        for (int r = 0; r < 14; r++) {
            ZF1[f][r] = splitmix() & ~1ULL;
            ZF2[f][r] = splitmix() & ~1ULL;
        }
    for (int k = 0; k < 64; k++) {
        ZW1[k] = splitmix() & ~1ULL;
        ZW2[k] = splitmix() & ~1ULL;
    }
    for (int k = 0; k < 128; k++) {
        ZP1[k] = splitmix() & ~1ULL;
        ZP2[k] = splitmix() & ~1ULL;
    }
}

static inline int32_t pack(int src, int dst, int count, int card, int recycle)
{
    return src | (dst << 4) | (count << 8) | (card << 14) | (recycle << 20);
}

/* ---- moves ------------------------------------------------------------ */

static inline void take(state_t *s, int i, int k)
{
    int n = s[LEN + i] - k;
    s[LEN + i] = (state_t)n;
    if (n > 0 && s[DOWN + i] == n)
        s[DOWN + i] = (state_t)(n - 1);
}

static inline void put(state_t *s, int card, int dst)
{
    if (dst == LOC_FOUNDATION) {
        s[FOUND + SUIT[card]] += 1;
    } else {
        int n = s[LEN + dst];
        s[PILE_CAP * dst + n] = (state_t)card;
        s[LEN + dst] = (state_t)(n + 1);
    }
}

static void apply_move(state_t *s, int32_t code, const int64_t *v)
{
    int src = code & 15;
    int dst = (code >> 4) & 15;
    int count = (code >> 8) & 63;
    int card = (code >> 14) & 63;
    int recycle = (code >> 20) & 1;
    if (src == 8) { /* plain draw */
        int wp = s[WP] + (int)v[V_DRAW];
        s[WP] = (state_t)(wp < s[TLEN] ? wp : s[TLEN]);
        return;
    }
    if (dst == 8) { /* plain recycle */
        s[WP] = 0;
        s[PASS] = (state_t)(s[PASS] + 1 < PASS_CAP ? s[PASS] + 1 : PASS_CAP);
        return;
    }
    if (src == SRC_TALON) {
        int tlen = s[TLEN];
        int q = 0;
        while (s[TALON + q] != card)
            q++;
        for (int k = q; k < tlen - 1; k++)
            s[TALON + k] = s[TALON + k + 1];
        s[TLEN] = (state_t)(tlen - 1);
        s[WP] = (state_t)q;
        if (recycle)
            s[PASS] = (state_t)(s[PASS] + 1 < PASS_CAP ? s[PASS] + 1 : PASS_CAP);
        put(s, card, dst);
        return;
    }
    if (src == LOC_FOUNDATION) {
        s[FOUND + SUIT[card]] -= 1;
        put(s, card, dst);
        return;
    }
    int n = s[LEN + src];
    if (dst == LOC_FOUNDATION) {
        s[FOUND + SUIT[s[PILE_CAP * src + n - 1]]] += 1;
    } else {
        int m = s[LEN + dst];
        int base = PILE_CAP * src + n - count;
        for (int k = 0; k < count; k++)
            s[PILE_CAP * dst + m + k] = s[base + k];
        s[LEN + dst] = (state_t)(m + count);
    }
    take(s, src, count);
    if (code & HOME_FLAG) { /* then the card uncovered goes home */
        s[FOUND + SUIT[s[PILE_CAP * src + s[LEN + src] - 1]]] += 1;
        take(s, src, 1);
    }
}

static inline int is_safe(const state_t *s, int card, int fret)
{
    int r = RANK[card];
    if (r <= 2)
        return 1;
    int o1, o2;
    if (RED[card]) {
        o1 = 0;
        o2 = 3;
    } else {
        o1 = 1;
        o2 = 2;
    }
    if (s[FOUND + o1] < r - 1 || s[FOUND + o2] < r - 1)
        return 0;
    if (fret)
        return s[FOUND + 3 - SUIT[card]] >= r - 2;
    return 1;
}

static inline int free_talon(const int64_t *v) { return v[V_DRAW] == 1 && v[V_PASSES] == 0; }

/* Send safe cards home; log each (a pile, or TALON_MARK + card) when log is
 * not NULL. Returns the new end of the log. */
static int autoplay(state_t *s, const int64_t *v, int16_t *log, int end)
{
    int fret = (int)v[V_RETURN];
    int changed = 1;
    int free = free_talon(v);
    while (changed) {
        changed = 0;
        if (free) {
            int q = 0;
            while (q < s[TLEN]) {
                int card = s[TALON + q];
                if (s[FOUND + SUIT[card]] + 1 == RANK[card] && is_safe(s, card, fret)) {
                    apply_move(s, pack(SRC_TALON, LOC_FOUNDATION, 1, card, 0), v);
                    if (log)
                        log[end] = (int16_t)(TALON_MARK + card);
                    end++;
                    changed = 1;
                } else {
                    q++;
                }
            }
        }
        for (int i = 0; i < NPILES; i++) {
            int n = s[LEN + i];
            if (n == 0)
                continue;
            int card = s[PILE_CAP * i + n - 1];
            if (s[FOUND + SUIT[card]] + 1 == RANK[card] && is_safe(s, card, fret)) {
                s[FOUND + SUIT[card]] += 1;
                take(s, i, 1);
                if (log)
                    log[end] = (int16_t)i;
                end++;
                changed = 1;
            }
        }
    }
    return end;
}

static int trivially_won(const state_t *s, const int64_t *v)
{
    for (int i = 0; i < NPILES; i++)
        if (s[DOWN + i] > 0)
            return 0;
    return s[TLEN] == 0 || (v[V_DRAW] == 1 && v[V_PASSES] == 0);
}

static inline int key_of(int card) { return RANK[card] * 2 + RED[card]; }

static inline int add(int32_t *mv, int32_t *pr, int n, int32_t code, int priority)
{
    mv[n] = code;
    pr[n] = priority;
    return n + 1;
}

static int talon_targets(const state_t *s, const int64_t *v, int32_t *mv, int32_t *pr, int n, int q, int recycle,
                         int cost, int plain, const int64_t *acc, int empty_mask, int hosting)
{
    int card = s[TALON + q];
    if (s[FOUND + SUIT[card]] + 1 == RANK[card])
        n = add(mv, pr, n, pack(SRC_TALON, LOC_FOUNDATION, 1, card, recycle), 900 - cost);
    if (hosting && acc[32 + (RANK[card] - 1) * 2 + 1 - RED[card]] == 0)
        return n;
    int64_t mask = acc[key_of(card)];
    for (int j = 0; mask; j++, mask >>= 1)
        if (mask & 1)
            n = add(mv, pr, n, pack(SRC_TALON, j, 1, card, recycle), 500 - cost);
    if (empty_mask && (v[V_ANY_EMPTY] != 0 || RANK[card] == 13)) {
        int m = empty_mask;
        for (int j = 0; m; j++, m >>= 1)
            if (m & 1) {
                n = add(mv, pr, n, pack(SRC_TALON, j, 1, card, recycle), 450 - cost);
                if (!plain)
                    break;
            }
    }
    return n;
}

/* The moves of s (see _core.generate); returns how many. acc: 64 scratch. */
static int generate(const state_t *s, const int64_t *v, int32_t *mv, int32_t *pr, int plain, int64_t *acc)
{
    int n = 0;
    int64_t any_empty = v[V_ANY_EMPTY];
    for (int k = 0; k < 32; k++)
        acc[k] = 0;
    int empty_mask = 0;
    for (int i = 0; i < NPILES; i++) {
        int m = s[LEN + i];
        if (m > 0) {
            int card = s[PILE_CAP * i + m - 1];
            if (RANK[card] > 1)
                acc[(RANK[card] - 1) * 2 + 1 - RED[card]] |= 1 << i;
            if (s[FOUND + SUIT[card]] + 1 == RANK[card])
                n = add(mv, pr, n, pack(i, LOC_FOUNDATION, 1, card, 0), 1000);
        } else {
            empty_mask |= 1 << i;
        }
    }
    int tlen = s[TLEN];
    int wp = s[WP];
    int draw = (int)v[V_DRAW];
    int64_t limit = v[V_PASSES];
    int king_waiting = plain || any_empty != 0;
    if (!king_waiting) {
        for (int q = 0; q < tlen; q++)
            if (RANK[s[TALON + q]] == 13)
                king_waiting = 1;
        for (int i = 0; i < NPILES; i++) {
            int down = s[DOWN + i];
            if (down > 0 && RANK[s[PILE_CAP * i + down]] == 13)
                king_waiting = 1;
        }
        if (v[V_RETURN])
            for (int suit = 0; suit < 4; suit++)
                if (s[FOUND + suit] == 13)
                    king_waiting = 1;
    }
    int hosting = !plain && free_talon(v);
    if (hosting) {
        for (int k = 32; k < 64; k++)
            acc[k] = 0;
        for (int i = 0; i < NPILES; i++)
            for (int k = s[DOWN + i]; k < s[LEN + i]; k++)
                acc[32 + key_of(s[PILE_CAP * i + k])] = 1;
        for (int q = 0; q < tlen; q++)
            acc[32 + key_of(s[TALON + q])] = 1;
        if (v[V_RETURN])
            for (int suit = 0; suit < 4; suit++)
                for (int r = 0; r < s[FOUND + suit]; r++)
                    acc[32 + key_of(suit * 13 + r)] = 1;
    }
    if (plain) {
        if (wp > 0)
            n = talon_targets(s, v, mv, pr, n, wp - 1, 0, 0, 1, acc, empty_mask, 0);
    } else if (tlen > 0) {
        if (wp > 0)
            n = talon_targets(s, v, mv, pr, n, wp - 1, 0, 0, 0, acc, empty_mask, hosting);
        int pos = wp;
        int steps = 0;
        while (pos < tlen) {
            pos = pos + draw < tlen ? pos + draw : tlen;
            steps++;
            n = talon_targets(s, v, mv, pr, n, pos - 1, 0, steps, 0, acc, empty_mask, hosting);
        }
        if (limit == 0 || s[PASS] < limit) {
            pos = 0;
            int rsteps = steps + 1;
            while (pos < tlen) {
                pos = pos + draw < tlen ? pos + draw : tlen;
                rsteps++;
                int reached = pos == wp || (pos > wp && ((pos - wp) % draw == 0 || pos == tlen));
                if (!reached)
                    n = talon_targets(s, v, mv, pr, n, pos - 1, 1, rsteps, 0, acc, empty_mask, hosting);
            }
        }
    }
    for (int i = 0; i < NPILES; i++) {
        int m = s[LEN + i];
        int down = s[DOWN + i];
        for (int k = 1; k < m - down + 1; k++) {
            int base = s[PILE_CAP * i + m - k];
            int whole = k == m;
            int partial = k < m - down;
            int exposed_home = 0;
            if (partial) {
                int e = s[PILE_CAP * i + m - k - 1];
                exposed_home = s[FOUND + SUIT[e]] + 1 == RANK[e];
            }
            int priority;
            if (k == m - down && down > 0)
                priority = 800 + down;
            else if (whole)
                priority = 700;
            else
                priority = 200;
            if ((plain || !partial || exposed_home) && (king_waiting || !whole)) {
                int64_t mask = acc[key_of(base)] & ~(1LL << i);
                for (int j = 0; mask; j++, mask >>= 1)
                    if (mask & 1)
                        n = add(mv, pr, n, pack(i, j, k, base, 0) | (plain || !partial ? 0 : HOME_FLAG), priority);
            }
            if (!whole && empty_mask && (any_empty != 0 || RANK[base] == 13)) {
                int em = empty_mask;
                for (int j = 0; em; j++, em >>= 1)
                    if (em & 1) {
                        n = add(mv, pr, n, pack(i, j, k, base, 0), priority - 50);
                        if (!plain)
                            break;
                    }
            }
        }
    }
    if (v[V_RETURN]) {
        for (int suit = 0; suit < 4; suit++) {
            int f = s[FOUND + suit];
            if (f > 0) {
                int card = suit * 13 + f - 1;
                if (!plain && is_safe(s, card, 1))
                    continue;
                int64_t mask = acc[key_of(card)];
                for (int j = 0; mask; j++, mask >>= 1)
                    if (mask & 1)
                        n = add(mv, pr, n, pack(LOC_FOUNDATION, j, 1, card, 0), 100);
                if (empty_mask && (any_empty != 0 || RANK[card] == 13)) {
                    int em = empty_mask;
                    for (int j = 0; em; j++, em >>= 1)
                        if (em & 1) {
                            n = add(mv, pr, n, pack(LOC_FOUNDATION, j, 1, card, 0), 50);
                            if (!plain)
                                break;
                        }
                }
            }
        }
    }
    if (plain) {
        if (wp < tlen)
            n = add(mv, pr, n, pack(8, SRC_TALON, 1, 0, 0), 0);
        else if (tlen > 0 && (limit == 0 || s[PASS] < limit))
            n = add(mv, pr, n, pack(SRC_TALON, 8, 1, 0, 0), 0);
    }
    return n;
}

/* ---- hashing ---------------------------------------------------------- */

static inline uint64_t mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBULL;
    x ^= x >> 31;
    return x;
}

static void pile_hash(const state_t *s, int i, uint64_t *o1, uint64_t *o2)
{
    int n = s[LEN + i];
    int down = s[DOWN + i];
    uint64_t p1 = 0x9E3779B97F4A7C15ULL, p2 = 0xD1B54A32D192ED03ULL;
    /* The hidden cards and the lowest face-up card: the rest of the face-up
     * tableau follows from the other parts of the state, up to twins. */
    int last = down < n - 1 ? down : n - 1;
    for (int k = 0; k <= last; k++) {
        int up = k >= down;
        int card = s[PILE_CAP * i + k];
        p1 ^= Z1[up][k][card];
        p2 ^= Z2[up][k][card];
    }
    *o1 = mix(p1);
    *o2 = mix(p2 ^ 0x632BE59BD9B4E019ULL);
}

static void talon_hash(const state_t *s, uint64_t *o1, uint64_t *o2)
{
    uint64_t t1 = 0, t2 = 0;
    for (int k = 0; k < s[TLEN]; k++) {
        int card = s[TALON + k];
        t1 ^= ZT1[card];
        t2 ^= ZT2[card];
    }
    *o1 = t1;
    *o2 = t2;
}

/* ---- the search ------------------------------------------------------- */

/* The memory of a search (see Search_dealloc for why it is kept). */
typedef struct {
    state_t *states;     /* (MAX_DEPTH + 1) * STATE_SIZE */
    int32_t *mv;         /* (MAX_DEPTH + 1) * MAX_MOVES */
    int32_t *nm, *mi;    /* MAX_DEPTH + 1 */
    uint64_t *ph1, *ph2; /* (MAX_DEPTH + 1) * NPILES */
    uint64_t *th1, *th2; /* MAX_DEPTH + 1 */
    uint64_t *table;     /* 2 words per entry */
    int table_bits;
    /* The children of the states on the path, made when a state is
     * expanded (a stack: those of depth d start at kbase[d]); their keys are
     * computed then and their table slots prefetched, so that the probes of
     * one state's children overlap. */
    state_t *kids;
    uint64_t *kh;        /* 2 words per child */
    int8_t *kwon;
    int64_t *kbase;      /* MAX_DEPTH + 1 */
    int64_t kcap;
} Buffers;

typedef struct {
    PyObject_HEAD
    int64_t v[V_SIZE];
    Buffers b;
    int max_bits;
    int32_t mv_tmp[MAX_MOVES], pr_tmp[MAX_MOVES];
    int64_t acc[64];
    int64_t depth, states_seen, status, filled, cut, peak, tried;
    int busy;
} SearchObject;

/* The rest of the key, after the talon and the piles: the foundations,
 * the waste position and the pass. */
static inline void finish_key(const SearchObject *o, const state_t *s, uint64_t *h1, uint64_t *h2)
{
    for (int f = 0; f < 4; f++) {
        *h1 ^= ZF1[f][s[FOUND + f]];
        *h2 ^= ZF2[f][s[FOUND + f]];
    }
    int wp = s[WP];
    if (o->v[V_PASSES] == 0 && (wp % o->v[V_DRAW] == 0 || wp == s[TLEN]))
        wp = 0;
    *h1 ^= ZW1[wp];
    *h2 ^= ZW2[wp];
    if (o->v[V_PASSES] != 0) {
        *h1 ^= ZP1[s[PASS]];
        *h2 ^= ZP2[s[PASS]];
    }
    *h1 |= 1ULL;
}

static void hash_at(SearchObject *o, int d, uint64_t *h1o, uint64_t *h2o)
{
    const state_t *s = o->b.states + (size_t)d * STATE_SIZE;
    uint64_t *ph1 = o->b.ph1 + (size_t)d * NPILES, *ph2 = o->b.ph2 + (size_t)d * NPILES;
    if (d == 0) {
        for (int i = 0; i < NPILES; i++)
            pile_hash(s, i, &ph1[i], &ph2[i]);
        talon_hash(s, &o->b.th1[d], &o->b.th2[d]);
    } else {
        const state_t *p = s - STATE_SIZE;
        for (int i = 0; i < NPILES; i++) {
            if (s[LEN + i] != p[LEN + i] || s[DOWN + i] != p[DOWN + i]) {
                pile_hash(s, i, &ph1[i], &ph2[i]);
            } else {
                ph1[i] = ph1[i - NPILES];
                ph2[i] = ph2[i - NPILES];
            }
        }
        if (s[TLEN] != p[TLEN]) {
            talon_hash(s, &o->b.th1[d], &o->b.th2[d]);
        } else {
            o->b.th1[d] = o->b.th1[d - 1];
            o->b.th2[d] = o->b.th2[d - 1];
        }
    }
    uint64_t h1 = o->b.th1[d], h2 = o->b.th2[d];
    for (int i = 0; i < NPILES; i++) {
        h1 += ph1[i];
        h2 += ph2[i];
    }
    finish_key(o, s, &h1, &h2);
    *h1o = h1;
    *h2o = h2;
}

/* The key of a child of states[d], computed as hash_at would compute it at
 * depth d + 1, without writing the per-depth caches. */
static void child_key(SearchObject *o, int d, const state_t *s, uint64_t *h1o, uint64_t *h2o)
{
    const state_t *p = o->b.states + (size_t)d * STATE_SIZE;
    const uint64_t *pp1 = o->b.ph1 + (size_t)d * NPILES, *pp2 = o->b.ph2 + (size_t)d * NPILES;
    uint64_t h1, h2;
    if (s[TLEN] != p[TLEN])
        talon_hash(s, &h1, &h2);
    else {
        h1 = o->b.th1[d];
        h2 = o->b.th2[d];
    }
    for (int i = 0; i < NPILES; i++) {
        if (s[LEN + i] != p[LEN + i] || s[DOWN + i] != p[DOWN + i]) {
            uint64_t a, b;
            pile_hash(s, i, &a, &b);
            h1 += a;
            h2 += b;
        } else {
            h1 += pp1[i];
            h2 += pp2[i];
        }
    }
    finish_key(o, s, &h1, &h2);
    *h1o = h1;
    *h2o = h2;
}

static int table_insert(uint64_t *table, int bits, uint64_t h1, uint64_t h2)
{
    uint64_t mask = (1ULL << bits) - 1;
    uint64_t idx = h1 & mask;
    while (table[2 * idx] != 0) {
        if (table[2 * idx] == h1 && table[2 * idx + 1] == h2)
            return 0;
        idx = (idx + 1) & mask;
    }
    table[2 * idx] = h1;
    table[2 * idx + 1] = h2;
    return 1;
}

/* A zeroed table of 2**bits entries: mapped pages (zero until written),
 * asked to be huge pages, as the probes land anywhere in it. */
static uint64_t *table_alloc(int bits)
{
    size_t size = ((size_t)2 << bits) * sizeof(uint64_t);
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
#ifdef MADV_HUGEPAGE
    if (size >= ((size_t)2 << 20))
        madvise(p, size, MADV_HUGEPAGE);
#endif
    return p;
}

static void table_free(uint64_t *table, int bits)
{
    if (table)
        munmap(table, ((size_t)2 << bits) * sizeof(uint64_t));
}

/* Double the table; 0 when it is at its largest or memory ran out. */
static int grow_table(SearchObject *o)
{
    if (o->b.table_bits >= o->max_bits)
        return 0;
    int bits = o->b.table_bits + 1;
    uint64_t *bigger = table_alloc(bits);
    if (!bigger)
        return 0;
    size_t size = (size_t)1 << o->b.table_bits;
    for (size_t idx = 0; idx < size; idx++)
        if (o->b.table[2 * idx] != 0)
            table_insert(bigger, bits, o->b.table[2 * idx], o->b.table[2 * idx + 1]);
    table_free(o->b.table, o->b.table_bits);
    o->b.table = bigger;
    o->b.table_bits = bits;
    return 1;
}

static void sort_moves(int32_t *mv, int32_t *pr, int n)
{
    for (int a = 1; a < n; a++) {
        int32_t c = mv[a], p = pr[a];
        int b = a - 1;
        while (b >= 0 && pr[b] < p) {
            mv[b + 1] = mv[b];
            pr[b + 1] = pr[b];
            b--;
        }
        mv[b + 1] = c;
        pr[b + 1] = p;
    }
}

static int grow_kids(SearchObject *o, int64_t need)
{
    int64_t cap = o->b.kcap;
    while (cap < need)
        cap *= 2;
    state_t *kids = realloc(o->b.kids, (size_t)cap * STATE_SIZE);
    if (!kids)
        return 0;
    o->b.kids = kids;
    uint64_t *kh = realloc(o->b.kh, (size_t)cap * 2 * sizeof(uint64_t));
    if (!kh)
        return 0;
    o->b.kh = kh;
    int8_t *kwon = realloc(o->b.kwon, (size_t)cap);
    if (!kwon)
        return 0;
    o->b.kwon = kwon;
    o->b.kcap = cap;
    return 1;
}

static void expand(SearchObject *o, int d)
{
    int n = generate(o->b.states + (size_t)d * STATE_SIZE, o->v, o->mv_tmp, o->pr_tmp, 0, o->acc);
    int64_t salt = o->v[V_SALT];
    if (salt != 0) {
        for (int a = 0; a < n; a++) {
            uint64_t x = (uint64_t)salt * 0x9E3779B97F4A7C15ULL + (uint64_t)o->mv_tmp[a] * 64ULL;
            x = mix(x + (uint64_t)d);
            o->pr_tmp[a] += (int32_t)(x % 251ULL);
        }
    }
    sort_moves(o->mv_tmp, o->pr_tmp, n);
    if (o->v[V_WIDTH] > 0 && n > o->v[V_WIDTH])
        n = (int)o->v[V_WIDTH];
    memcpy(o->b.mv + (size_t)d * MAX_MOVES, o->mv_tmp, (size_t)n * sizeof(int32_t));
    o->b.nm[d] = n;
    o->b.mi[d] = 0;
    int64_t base = d == 0 ? 0 : o->b.kbase[d - 1] + o->b.nm[d - 1];
    o->b.kbase[d] = base;
    if ((d > 0 && o->b.kbase[d - 1] < 0) || (base + n > o->b.kcap && !grow_kids(o, base + n))) {
        o->b.kbase[d] = -1; /* no room: the children are made one by one */
        return;
    }
    const state_t *parent = o->b.states + (size_t)d * STATE_SIZE;
    uint64_t mask = ((uint64_t)1 << o->b.table_bits) - 1;
    for (int a = 0; a < n; a++) {
        int64_t idx = base + a;
        state_t *child = o->b.kids + (size_t)idx * STATE_SIZE;
        memcpy(child, parent, STATE_SIZE);
        apply_move(child, o->mv_tmp[a], o->v);
        autoplay(child, o->v, NULL, 0);
        o->b.kwon[idx] = (int8_t)trivially_won(child, o->v);
        if (!o->b.kwon[idx]) {
            child_key(o, d, child, &o->b.kh[2 * idx], &o->b.kh[2 * idx + 1]);
            __builtin_prefetch(&o->b.table[2 * (o->b.kh[2 * idx] & mask)]);
        }
    }
}

static int64_t run_search(SearchObject *o, int64_t budget)
{
    if (o->status != RUNNING)
        return o->status;
    int d = (int)o->depth;
    int64_t limit = o->states_seen + budget;
    int max_depth = MAX_DEPTH;
    for (;;) {
        if (o->filled >= ((int64_t)3 << o->b.table_bits) / 4 && !grow_table(o)) {
            o->depth = d;
            o->status = TABLE_FULL;
            return TABLE_FULL;
        }
        if (o->b.mi[d] >= o->b.nm[d]) {
            d--;
            if (d < 0) {
                o->status = EXHAUSTED;
                o->depth = 0;
                return EXHAUSTED;
            }
            continue;
        }
        int a = o->b.mi[d];
        o->b.mi[d]++;
        o->tried++;
        state_t *child = o->b.states + (size_t)(d + 1) * STATE_SIZE;
        uint64_t h1, h2;
        if (o->b.kbase[d] >= 0) { /* made when the state was expanded */
            int64_t idx = o->b.kbase[d] + a;
            if (o->b.kwon[idx]) {
                o->depth = d + 1;
                o->status = WON;
                return WON;
            }
            if (!table_insert(o->b.table, o->b.table_bits, o->b.kh[2 * idx], o->b.kh[2 * idx + 1]))
                continue;
            memcpy(child, o->b.kids + (size_t)idx * STATE_SIZE, STATE_SIZE);
            hash_at(o, d + 1, &h1, &h2); /* fills the caches of depth d + 1 */
        } else {
            memcpy(child, child - STATE_SIZE, STATE_SIZE);
            apply_move(child, o->b.mv[(size_t)d * MAX_MOVES + a], o->v);
            autoplay(child, o->v, NULL, 0);
            if (trivially_won(child, o->v)) {
                o->depth = d + 1;
                o->status = WON;
                return WON;
            }
            hash_at(o, d + 1, &h1, &h2);
            if (!table_insert(o->b.table, o->b.table_bits, h1, h2))
                continue;
        }
        o->states_seen++;
        o->filled++;
        if (d + 1 >= max_depth) {
            o->cut = 1;
            continue;
        }
        d++;
        if (d > o->peak)
            o->peak = d;
        expand(o, d);
        if (o->states_seen >= limit) {
            o->depth = d;
            return RUNNING;
        }
    }
}

static int read_params(PyObject *seq, int64_t *v)
{
    PyObject *fast = PySequence_Fast(seq, "the variant parameters must be a sequence of integers");
    if (!fast)
        return -1;
    if (PySequence_Fast_GET_SIZE(fast) != V_SIZE) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "the variant parameters must be %d integers", V_SIZE);
        return -1;
    }
    for (int k = 0; k < V_SIZE; k++) {
        v[k] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(fast, k));
        if (v[k] == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    if (v[V_DRAW] < 1 || v[V_DRAW] > 52 || v[V_PASSES] < 0) {
        PyErr_SetString(PyExc_ValueError, "bad variant parameters");
        return -1;
    }
    return 0;
}

static int read_state(PyObject *obj, state_t *out)
{
    Py_buffer view;
    if (PyObject_GetBuffer(obj, &view, PyBUF_SIMPLE) < 0)
        return -1;
    if (view.len != STATE_SIZE) {
        PyBuffer_Release(&view);
        PyErr_Format(PyExc_ValueError, "a state has %d bytes, not %zd", STATE_SIZE, view.len);
        return -1;
    }
    memcpy(out, view.buf, STATE_SIZE);
    PyBuffer_Release(&view);
    return 0;
}

/* The buffers of one finished search, kept for the next one: a solve in a
 * running process then touches memory already mapped (most solves are
 * small, and mapping fresh pages costs more than the search). Only a small
 * table and a small child stack are kept; the GIL guards the pool. */
enum { POOL_TABLE_BITS = 16, POOL_KIDS = 1 << 16 };
static Buffers pool;
static int pool_full;

static int complete(const Buffers *b)
{
    return b->states && b->mv && b->nm && b->mi && b->ph1 && b->ph2 && b->th1 && b->th2 && b->table && b->kids &&
           b->kh && b->kwon && b->kbase;
}

static void release_buffers(Buffers *b)
{
    free(b->states);
    free(b->mv);
    free(b->nm);
    free(b->mi);
    free(b->ph1);
    free(b->ph2);
    free(b->th1);
    free(b->th2);
    table_free(b->table, b->table_bits);
    free(b->kids);
    free(b->kh);
    free(b->kwon);
    free(b->kbase);
}

static void Search_dealloc(SearchObject *o)
{
    if (!pool_full && complete(&o->b) && o->b.kcap <= POOL_KIDS && o->b.table_bits <= POOL_TABLE_BITS) {
        pool = o->b;
        pool_full = 1;
    } else {
        release_buffers(&o->b);
    }
    Py_TYPE(o)->tp_free((PyObject *)o);
}

/* Buffers for a new search with a table of 2**bits entries: the pool's, or
 * fresh ones. */
static int take_buffers(Buffers *b, int bits)
{
    size_t depth = MAX_DEPTH + 1;
    if (pool_full) {
        pool_full = 0;
        *b = pool;
        if (b->table_bits == bits) {
            memset(b->table, 0, ((size_t)2 << bits) * sizeof(uint64_t));
        } else {
            table_free(b->table, b->table_bits);
            b->table_bits = bits;
            b->table = table_alloc(bits);
        }
        return complete(b);
    }
    b->states = malloc(depth * STATE_SIZE);
    b->mv = malloc(depth * MAX_MOVES * sizeof(int32_t));
    b->nm = malloc(depth * sizeof(int32_t));
    b->mi = malloc(depth * sizeof(int32_t));
    b->ph1 = malloc(depth * NPILES * sizeof(uint64_t));
    b->ph2 = malloc(depth * NPILES * sizeof(uint64_t));
    b->th1 = malloc(depth * sizeof(uint64_t));
    b->th2 = malloc(depth * sizeof(uint64_t));
    b->table_bits = bits;
    b->table = table_alloc(bits);
    b->kcap = 4096;
    b->kids = malloc((size_t)b->kcap * STATE_SIZE);
    b->kh = malloc((size_t)b->kcap * 2 * sizeof(uint64_t));
    b->kwon = malloc((size_t)b->kcap);
    b->kbase = malloc(depth * sizeof(int64_t));
    return complete(b);
}

static int Search_init(SearchObject *o, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"state", "params", "max_bits", "start_bits", NULL};
    PyObject *state_obj, *params;
    int max_bits, start_bits = 14;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOi|i", kwlist, &state_obj, &params, &max_bits, &start_bits))
        return -1;
    if (o->b.states) {
        PyErr_SetString(PyExc_RuntimeError, "a search is set up once");
        return -1;
    }
    if (max_bits < 4 || max_bits > 40) {
        PyErr_SetString(PyExc_ValueError, "max_bits must be between 4 and 40");
        return -1;
    }
    if (read_params(params, o->v) < 0)
        return -1;
    o->max_bits = max_bits;
    if (!take_buffers(&o->b, start_bits < max_bits ? start_bits : max_bits)) {
        PyErr_NoMemory();
        return -1;
    }
    if (read_state(state_obj, o->b.states) < 0)
        return -1;
    /* start: safe moves first, then the root */
    autoplay(o->b.states, o->v, NULL, 0);
    o->depth = 0;
    o->states_seen = 1;
    o->cut = 0;
    o->peak = 0;
    o->tried = 0;
    if (trivially_won(o->b.states, o->v)) {
        o->status = WON;
        o->filled = 0;
        return 0;
    }
    o->status = RUNNING;
    uint64_t h1, h2;
    hash_at(o, 0, &h1, &h2);
    table_insert(o->b.table, o->b.table_bits, h1, h2);
    o->filled = 1;
    expand(o, 0);
    return 0;
}

static PyObject *Search_run(SearchObject *o, PyObject *arg)
{
    long long budget = PyLong_AsLongLong(arg);
    if (budget == -1 && PyErr_Occurred())
        return NULL;
    if (!o->b.states) {
        PyErr_SetString(PyExc_RuntimeError, "the search was not set up");
        return NULL;
    }
    if (o->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the search is running in another thread");
        return NULL;
    }
    o->busy = 1;
    int64_t status;
    Py_BEGIN_ALLOW_THREADS
    status = run_search(o, budget);
    Py_END_ALLOW_THREADS
    o->busy = 0;
    return PyLong_FromLongLong(status);
}

static PyObject *Search_path(SearchObject *o, PyObject *Py_UNUSED(ignored))
{
    if (o->status != WON) {
        PyErr_SetString(PyExc_RuntimeError, "no win to read");
        return NULL;
    }
    PyObject *list = PyList_New((Py_ssize_t)o->depth);
    if (!list)
        return NULL;
    for (int64_t d = 0; d < o->depth; d++) {
        PyObject *code = PyLong_FromLong(o->b.mv[(size_t)d * MAX_MOVES + o->b.mi[d] - 1]);
        if (!code) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)d, code);
    }
    return list;
}

static PyObject *Search_table_size(SearchObject *o, void *Py_UNUSED(closure))
{
    return PyLong_FromLongLong((long long)1 << o->b.table_bits);
}

#define CTL_GETTER(name, field)                                                  \
    static PyObject *Search_get_##name(SearchObject *o, void *Py_UNUSED(closure)) \
    {                                                                            \
        return PyLong_FromLongLong(o->field);                                    \
    }
CTL_GETTER(states, states_seen)
CTL_GETTER(status, status)
CTL_GETTER(depth, depth)
CTL_GETTER(cut, cut)
CTL_GETTER(peak, peak)
CTL_GETTER(tried, tried)
CTL_GETTER(filled, filled)

static PyGetSetDef Search_getset[] = {
    {"states", (getter)Search_get_states, NULL, "distinct states searched", NULL},
    {"status", (getter)Search_get_status, NULL, "RUNNING, WON, EXHAUSTED or TABLE_FULL", NULL},
    {"depth", (getter)Search_get_depth, NULL, "the depth the search stands at (of the won state on a win)", NULL},
    {"cut", (getter)Search_get_cut, NULL, "1 when a path was cut at the depth limit", NULL},
    {"peak", (getter)Search_get_peak, NULL, "the deepest depth reached", NULL},
    {"tried", (getter)Search_get_tried, NULL, "moves tried", NULL},
    {"filled", (getter)Search_get_filled, NULL, "keys in the transposition table", NULL},
    {"table_size", (getter)Search_table_size, NULL, "entries of the transposition table now", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef Search_methods[] = {
    {"run", (PyCFunction)Search_run, METH_O,
     "run(budget) -> status: search on for up to budget new states (the GIL is released)."},
    {"path", (PyCFunction)Search_path, METH_NOARGS, "path() -> list of the move codes from the root to the win."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "cardtable.solver._ccore.Search",
    .tp_doc = PyDoc_STR("Search(state, params, max_bits, start_bits=14): one resumable depth-first search."),
    .tp_basicsize = sizeof(SearchObject),
    .tp_itemsize = 0,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
};

/* ---- module functions ------------------------------------------------- */

static PyObject *py_safe_moves_along(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *state_obj, *codes_obj, *params;
    if (!PyArg_ParseTuple(args, "OOO", &state_obj, &codes_obj, &params))
        return NULL;
    state_t s[STATE_SIZE];
    int64_t v[V_SIZE];
    if (read_state(state_obj, s) < 0 || read_params(params, v) < 0)
        return NULL;
    PyObject *fast = PySequence_Fast(codes_obj, "the codes must be a sequence of integers");
    if (!fast)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    PyObject *marks = PyList_New(0), *ends = PyList_New(0);
    int16_t log[64];
    if (!marks || !ends)
        goto fail;
    for (Py_ssize_t i = -1; i < n; i++) {
        if (i >= 0) {
            long code = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
            if (code == -1 && PyErr_Occurred())
                goto fail;
            apply_move(s, (int32_t)code, v);
        }
        int end = autoplay(s, v, log, 0);
        for (int k = 0; k < end; k++) {
            PyObject *mark = PyLong_FromLong(log[k]);
            if (!mark || PyList_Append(marks, mark) < 0) {
                Py_XDECREF(mark);
                goto fail;
            }
            Py_DECREF(mark);
        }
        PyObject *at = PyLong_FromSsize_t(PyList_GET_SIZE(marks));
        if (!at || PyList_Append(ends, at) < 0) {
            Py_XDECREF(at);
            goto fail;
        }
        Py_DECREF(at);
    }
    Py_DECREF(fast);
    return Py_BuildValue("(NN)", marks, ends);
fail:
    Py_DECREF(fast);
    Py_XDECREF(marks);
    Py_XDECREF(ends);
    return NULL;
}

static PyObject *py_generate(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *state_obj, *params;
    int plain;
    if (!PyArg_ParseTuple(args, "OOp", &state_obj, &params, &plain))
        return NULL;
    state_t s[STATE_SIZE];
    int64_t v[V_SIZE], acc[64];
    int32_t mv[MAX_MOVES], pr[MAX_MOVES];
    if (read_state(state_obj, s) < 0 || read_params(params, v) < 0)
        return NULL;
    int n = generate(s, v, mv, pr, plain, acc);
    PyObject *list = PyList_New(n);
    if (!list)
        return NULL;
    for (int k = 0; k < n; k++) {
        PyObject *pair = Py_BuildValue("(ii)", mv[k], pr[k]);
        if (!pair) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, k, pair);
    }
    return list;
}

static PyMethodDef module_methods[] = {
    {"safe_moves_along", py_safe_moves_along, METH_VARARGS,
     "safe_moves_along(state, codes, params) -> (marks, ends): the safe moves a search plays along a line."},
    {"generate", py_generate, METH_VARARGS,
     "generate(state, params, plain) -> [(code, priority), ...]: the moves of a state, unsorted."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "cardtable.solver._ccore",
    "The compiled depth-first search core (see cardtable/solver/_ccore.c).", -1, module_methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__ccore(void)
{
    init_tables();
    if (PyType_Ready(&SearchType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module_def);
    if (!m)
        return NULL;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(m);
        return NULL;
    }
    PyModule_AddIntConstant(m, "STATE_SIZE", STATE_SIZE);
    PyModule_AddIntConstant(m, "PILE_CAP", PILE_CAP);
    PyModule_AddIntConstant(m, "MAX_DEPTH", MAX_DEPTH);
    PyModule_AddIntConstant(m, "MAX_MOVES", MAX_MOVES);
    PyModule_AddIntConstant(m, "TALON_MARK", TALON_MARK);
    PyModule_AddIntConstant(m, "RUNNING", RUNNING);
    PyModule_AddIntConstant(m, "WON", WON);
    PyModule_AddIntConstant(m, "EXHAUSTED", EXHAUSTED);
    PyModule_AddIntConstant(m, "TABLE_FULL", TABLE_FULL);
    return m;
}
