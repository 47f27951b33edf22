/*
 * The compiled paths of cardtable, on the one rules library (klondike.h):
 *  - the solver's searches: a resumable depth-first search (Search) and a
 *    best-first search (BestSearch), with a transposition table of exact
 *    64-bit state keys (or, where those do not fit, two 64-bit hashes);
 *  - the simulator's kernel: the priority bot in seed 002's game, a batch of
 *    games in one call (priority_seeds, priority_deals);
 *  - the environment's step (EnvCore: cardtable/Klondike-v0's deal, reset
 *    and step in one call each);
 *  - the rules themselves, for the tests and the solver's Python side
 *    (generate, apply_move, autoplay, line_moves, deal, shuffle).
 *
 * Compiled when the package is installed (pyproject.toml); no compile step at
 * first use. The GIL is released while a search or a batch runs.
 *
 * A search owns its memory: the stacks are malloc'ed and only the depths
 * reached are touched; the transposition table starts small and doubles
 * itself up to the size the budget needs, so a small solve costs
 * microseconds, not megabytes of zeroed arrays. The hashed state keys come
 * from Zobrist tables generated here with splitmix64; keys, exact or hashed,
 * are only ever compared with keys of the same search.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "klondike.h"

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



/* ---- hashing ---------------------------------------------------------- */

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

/* ---- the exact key ----------------------------------------------------- */

/*
 * The exact key: the state key of klondike.h's notes (foundations, each
 * pile's face-down cards and lowest face-up card, the talon, the waste
 * position and the pass) as one 64-bit number, with no hashing, so two
 * states share a key only when the notes' key is the same: no collision is
 * possible, and a table entry is one word instead of two. It is used when
 * only kings fill empty piles and the number fits (every dealt position and
 * almost any other); otherwise the search keeps the two 64-bit hashes.
 *
 * It is a mixed-radix number relative to the search's root (the position
 * after its safe moves), of these digits:
 *   - each foundation's height (0..13);
 *   - each pile's *original cards*: a pile only ever loses cards from what
 *     the root had, from the top down, so its face-down cards are the first
 *     `down` of the root's, and while `down` > 0 its lowest face-up card is
 *     the root's card at index `down` (that card leaves only by turning up
 *     the one below it). The digit is `down` + 1 then. With `down` = 0 it is
 *     1 when the root's card at index 0 is still there and is not a king,
 *     else 0: a pile is empty or has a king lowest (a non-king never comes
 *     back to an empty pile), and which king heads which such pile follows
 *     from the rest: kings are always lowest in their pile, so the face-up
 *     kings not already the lowest card of a pile with original cards are
 *     the lowest cards of these piles, and which of those piles holds which
 *     does not matter (empty piles are interchangeable, as the notes say,
 *     and so are piles with nothing under their lowest card);
 *   - which of the root's talon cards are still in the talon (one bit each:
 *     talon cards only ever leave, and keep their order);
 *   - the waste position (normalised as finish_key does) and the pass.
 * So the key holds everything the notes' key holds, and is one when theirs
 * is one.
 */
typedef struct {
    int on;              /* exact keys are in use */
    int8_t tpos[52];     /* a card's place in the root's talon, or -1 */
    int8_t base[NPILES]; /* the root's card at index 0 of each pile, or -1 */
    uint64_t pile_mul[NPILES], found_mul, talon_mul, wp_mul, pass_mul;
} Exact;

/* Set x up for searches from root (after its safe moves) under v. */
static void exact_setup(Exact *x, const state_t *root, const int64_t *v)
{
    memset(x, 0, sizeof *x);
    if (v[V_ANY_EMPTY])
        return;
    int tlen = root[TLEN];
    if (tlen > 52)
        return;
    for (int c = 0; c < 52; c++)
        x->tpos[c] = -1;
    for (int k = 0; k < tlen; k++)
        x->tpos[root[TALON + k]] = (int8_t)k;
    /* the digits, least significant first: pass, waste position, talon,
     * piles, foundations */
    uint64_t mul = 1;
    x->pass_mul = mul;
    if (v[V_PASSES] != 0) {
        uint64_t top = (uint64_t)(root[PASS] > v[V_PASSES] ? root[PASS] : v[V_PASSES]);
        if (top > PASS_CAP || __builtin_mul_overflow(mul, top + 1, &mul))
            return;
    }
    x->wp_mul = mul;
    if (__builtin_mul_overflow(mul, (uint64_t)tlen + 1, &mul))
        return;
    x->talon_mul = mul;
    if (tlen >= 64 || __builtin_mul_overflow(mul, (uint64_t)1 << tlen, &mul))
        return;
    for (int i = 0; i < NPILES; i++) {
        x->pile_mul[i] = mul;
        x->base[i] = root[LEN + i] > 0 ? root[PILE_CAP * i] : -1;
        if (root[DOWN + i] > 0 && root[DOWN + i] >= root[LEN + i])
            return; /* face-down cards with none face up: a layout the moves never make */
        if (__builtin_mul_overflow(mul, (uint64_t)root[DOWN + i] + 2, &mul))
            return;
    }
    x->found_mul = mul;
    if (__builtin_mul_overflow(mul, (uint64_t)14 * 14 * 14 * 14, &mul) || mul == UINT64_MAX)
        return;
    x->on = 1; /* every key is below mul <= 2**64 - 2, so key + 1 is never 0 */
}

/* A pile's digit of the exact key (see exact_key). */
static inline int pile_digit(const Exact *x, const state_t *s, int i, int down, int len)
{
    if (down > 0)
        return down + 1;
    return len > 0 && s[PILE_CAP * i] == x->base[i] && RANK[x->base[i]] != 13;
}

/* The exact key of s plus one (0 marks an empty table slot). */
static uint64_t exact_key(const Exact *x, const int64_t *v, const state_t *s)
{
    uint64_t key = 0;
    if (v[V_PASSES] != 0)
        key += (uint64_t)s[PASS] * x->pass_mul;
    key += (uint64_t)key_wp(v, s[WP], s[TLEN]) * x->wp_mul;
    uint64_t talon = 0;
    for (int k = 0; k < s[TLEN]; k++)
        talon |= (uint64_t)1 << x->tpos[s[TALON + k]];
    key += talon * x->talon_mul;
    for (int i = 0; i < NPILES; i++)
        key += (uint64_t)pile_digit(x, s, i, s[DOWN + i], s[LEN + i]) * x->pile_mul[i];
    uint64_t f = 0;
    for (int k = 3; k >= 0; k--)
        f = f * 14 + (uint64_t)s[FOUND + k];
    return key + f * x->found_mul + 1;
}

/* ---- the search ------------------------------------------------------- */

/* The memory of a search (see Search_dealloc for why it is kept). */
typedef struct {
    state_t *states;     /* (MAX_DEPTH + 1) * STATE_SIZE */
    int32_t *mv;         /* (MAX_DEPTH + 1) * MAX_MOVES */
    int32_t *nm, *mi;    /* MAX_DEPTH + 1 */
    uint64_t *ph1, *ph2; /* (MAX_DEPTH + 1) * NPILES */
    uint64_t *th1, *th2; /* MAX_DEPTH + 1 */
    uint64_t *table;     /* table_words words per entry */
    int table_bits, table_words;
    /* The children of the states on the path, made when a state is
     * expanded (a stack: those of depth d start at kbase[d]); their keys are
     * computed then and their table slots prefetched, so that the probes of
     * one state's children overlap. */
    state_t *kids;
    uint64_t *kh;        /* 2 words per child: the two hashes, or the exact key and its table_start */
    int8_t *kwon;        /* KID_WON, KID_LAZY, KID_PLAY */
    int64_t *kbase;      /* MAX_DEPTH + 1 */
    uint64_t *dkey;      /* MAX_DEPTH + 1: the exact key of each state on the path */
    int64_t kcap;
} Buffers;

typedef struct {
    PyObject_HEAD
    int64_t v[V_SIZE];
    Exact x;
    Buffers b;
    int max_bits;
    int32_t mv_tmp[MAX_MOVES], pr_tmp[MAX_MOVES];
    /* present_of of the state at each depth (0: not worked out) and its face-down cards (see expand) */
    uint64_t present_at[MAX_DEPTH + 1];
    int8_t downs_at[MAX_DEPTH + 1];
    int64_t depth, states_seen, status, filled, cut, peak, tried;
    int busy;
    int path; /* the path rules (path_prune in klondike.h) are on: Search(..., path=True) */
} SearchObject;

/* The rest of the key, after the talon and the piles: the foundations,
 * the waste position and the pass. */
static inline void finish_key(const int64_t *v, const state_t *s, uint64_t *h1, uint64_t *h2)
{
    for (int f = 0; f < 4; f++) {
        *h1 ^= ZF1[f][s[FOUND + f]];
        *h2 ^= ZF2[f][s[FOUND + f]];
    }
    int wp = key_wp(v, s[WP], s[TLEN]);
    *h1 ^= ZW1[wp];
    *h2 ^= ZW2[wp];
    if (v[V_PASSES] != 0) {
        *h1 ^= ZP1[s[PASS]];
        *h2 ^= ZP2[s[PASS]];
    }
    *h1 |= 1ULL;
}

static void hash_at(SearchObject *o, int d, uint64_t *h1o, uint64_t *h2o)
{
    const state_t *s = o->b.states + (size_t)d * STATE_SIZE;
    if (o->x.on) {
        *h1o = exact_key(&o->x, o->v, s);
        *h2o = 0;
        return;
    }
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
    finish_key(o->v, s, &h1, &h2);
    *h1o = h1;
    *h2o = h2;
}

/* The key of a child of states[d], computed as hash_at would compute it at
 * depth d + 1, without writing the per-depth caches. */
static void child_key(SearchObject *o, int d, const state_t *s, uint64_t *h1o, uint64_t *h2o)
{
    if (o->x.on) {
        *h1o = exact_key(&o->x, o->v, s);
        *h2o = 0;
        return;
    }
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
    finish_key(o->v, s, &h1, &h2);
    *h1o = h1;
    *h2o = h2;
}

/* Where a key starts its probe, before the table's mask is applied: an
 * exact key (words 1) is mixed first, as its low digits are the pass and the
 * waste position; a hash is used as it is. */
static inline uint64_t table_start(int words, uint64_t h1)
{
    return words == 1 ? mix(h1) : h1;
}

/* Insert a key in a table of 2**bits entries of `words` words (1: an exact
 * key, h2 unused; 2: the two hashes), probing from slot start & mask (start:
 * table_start); 0 when it was there already. */
static int table_insert_from(uint64_t *table, int bits, int words, uint64_t start, uint64_t h1, uint64_t h2)
{
    uint64_t mask = (1ULL << bits) - 1;
    uint64_t idx = start & mask;
    if (words == 1) {
        while (table[idx] != 0) {
            if (table[idx] == h1)
                return 0;
            idx = (idx + 1) & mask;
        }
        table[idx] = h1;
        return 1;
    }
    while (table[2 * idx] != 0) {
        if (table[2 * idx] == h1 && table[2 * idx + 1] == h2)
            return 0;
        idx = (idx + 1) & mask;
    }
    table[2 * idx] = h1;
    table[2 * idx + 1] = h2;
    return 1;
}

static inline int table_insert(uint64_t *table, int bits, int words, uint64_t h1, uint64_t h2)
{
    return table_insert_from(table, bits, words, table_start(words, h1), h1, h2);
}

/* A zeroed table of 2**bits entries: mapped pages (zero until written),
 * asked to be huge pages, as the probes land anywhere in it. */
static uint64_t *table_alloc(int bits, int words)
{
    size_t size = ((size_t)words << bits) * sizeof(uint64_t);
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
#ifdef MADV_HUGEPAGE
    if (size >= ((size_t)2 << 20))
        madvise(p, size, MADV_HUGEPAGE);
#endif
    return p;
}

static void table_free(uint64_t *table, int bits, int words)
{
    if (table)
        munmap(table, ((size_t)words << bits) * sizeof(uint64_t));
}

/* Move every key of a table of 2**from_bits entries into an empty one of
 * 2**(from_bits + 1), handing the old table's pages back 2 MiB at a time as
 * they are read. A key's slot in the bigger table is its slot's index in the
 * smaller one or that plus its size, give or take its probe run, so reading
 * the old table in order writes the new one in two runs that advance with
 * it: the memory held while a table doubles stays about the new table's,
 * not the old one's and the new one's together. */
static void table_move(uint64_t *from, int from_bits, uint64_t *to, int words)
{
    size_t n = (size_t)1 << from_bits;
    size_t chunk = ((size_t)1 << 21) / (words * sizeof(uint64_t));
    for (size_t start = 0; start < n; start += chunk) {
        size_t end = start + chunk < n ? start + chunk : n;
        for (size_t idx = start; idx < end; idx++)
            if (from[words * idx] != 0)
                table_insert(to, from_bits + 1, words, from[words * idx], words == 2 ? from[words * idx + 1] : 0);
        if (end - start == chunk) /* a whole 2 MiB, page-aligned as the table is */
            madvise(from + words * start, chunk * words * sizeof(uint64_t), MADV_DONTNEED);
    }
}

/* Double the table; 0 when it is at its largest or memory ran out. */
static int grow_table(SearchObject *o)
{
    if (o->b.table_bits >= o->max_bits)
        return 0;
    int bits = o->b.table_bits + 1, w = o->b.table_words;
    uint64_t *bigger = table_alloc(bits, w);
    if (!bigger)
        return 0;
    table_move(o->b.table, o->b.table_bits, bigger, w);
    table_free(o->b.table, o->b.table_bits, w);
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

enum { KID_WON = 1, KID_LAZY = 2, KID_PLAY = 4 };
enum { LAZY_PLAY = 2 }; /* lazy_key: keyed, and autoplay sends cards home once the move is made */

static const uint64_t POW14[4] = {1, 14, 196, 2744}; /* exact_key's foundation digits, clubs lowest */

/* What lazy_key reads of a parent, worked out once for all its children
 * (the talon's part when a child first needs it). */
typedef struct {
    uint64_t key;   /* its exact key (plus one) */
    uint64_t safe;  /* safe_next */
    uint64_t tops;  /* its pile tops, a bit a card */
    uint64_t talon; /* its talon cards, a bit a card */
    int downs;      /* its face-down cards */
    int wp;         /* its waste position as the key holds it (key_wp) */
    int located;    /* talon and at are worked out */
    int8_t at[52];  /* a talon card's index in the talon (read for talon cards only) */
} Parent;

/* p's Parent, with key its key and seen what generate_known saw of it. */
static void parent_setup(const int64_t *v, const state_t *p, uint64_t key, const Glimpse *seen, Parent *o)
{
    o->key = key;
    o->safe = safe_next(p, v);
    o->tops = seen->tops;
    o->downs = seen->downs;
    o->wp = key_wp(v, p[WP], p[TLEN]);
    o->located = 0;
}

/* pa's talon part (see Parent). */
static inline const Parent *locate(const state_t *p, Parent *pa)
{
    if (!pa->located) {
        pa->talon = 0;
        for (int q = 0; q < p[TLEN]; q++) {
            pa->talon |= (uint64_t)1 << p[TALON + q];
            pa->at[p[TALON + q]] = (int8_t)q;
        }
        pa->located = 1;
    }
    return pa;
}

/* The exact key (plus one) of the child of p (its Parent pa) by a move from
 * pile or talon src (the run of its top count cards, or talon card card) to
 * pile or foundation dst, after which autoplay does send cards home: worked out on
 * the piles' lengths and face-down counts and the foundation heights alone,
 * without making the child. k is p's key with the talon's digits (the card
 * gone, the waste position, the pass) already changed, and tlen the talon's
 * length after the move. Autoplay's rounds are played on those counts: a pile
 * top is read from p (its cards lie where they lay), or, on dst above p's
 * length, from the run or the talon card that went there. The cards autoplay
 * sends home do not depend on the order it looks at them in (being safe only
 * grows with the foundations, so it stops where every safe card at hand has
 * gone home), and nor does the child, but for the waste position when a talon
 * card goes home: then (with a free talon) this returns 0 and the child is
 * made. Otherwise LAZY_PLAY, with *key and *won (the child trivially won). */
static int lazy_autoplay(const Exact *x, const int64_t *v, const state_t *p, Parent *pa, int src, int dst,
                         int count, int card, uint64_t k, int tlen, uint64_t *key, int *won)
{
    int8_t len[NPILES], down[NPILES];
    state_t f[4];
    memcpy(len, p + LEN, NPILES);
    memcpy(down, p + DOWN, NPILES);
    memcpy(f, p + FOUND, 4);
    int home = dst == LOC_FOUNDATION, base = 0, grown = home ? -1 : dst, below = home ? 0 : p[LEN + dst];
    int touched = (src < NPILES ? 1 << src : 0) | (home ? 0 : 1 << dst);
    uint64_t hand = pa->tops; /* the pile tops, a bit a card, kept as they change */
    if (below > 0)            /* covered */
        hand &= ~((uint64_t)1 << p[PILE_CAP * dst + below - 1]);
    if (src < NPILES) {
        base = len[src] - count; /* where the run began; its top card stays a top, on dst, unless it went home */
        len[src] = (int8_t)base;
        if (base > 0) {
            if (down[src] == base)
                down[src] = (int8_t)(base - 1);
            hand |= (uint64_t)1 << p[PILE_CAP * src + base - 1];
        }
    }
    if (home) {
        f[SUIT[card]] += 1;
        hand &= ~((uint64_t)1 << card);
    } else {
        len[dst] = (int8_t)(len[dst] + count);
        if (src == SRC_TALON) /* (a run's top card was a top already) */
            hand |= (uint64_t)1 << card;
    }
#define LAZY_TOP(i) ((i) == grown && len[i] > below                                                                   \
                         ? (src < NPILES ? p[PILE_CAP * src + base + len[i] - below - 1] : card)                    \
                         : p[PILE_CAP * (i) + len[i] - 1])
    int free = free_talon(v);
    uint64_t talon = free ? locate(p, pa)->talon & ~(src == SRC_TALON ? (uint64_t)1 << card : 0) : 0;
    for (uint64_t m = safe_next_on(f, v);; m = safe_next_on(f, v)) {
        if (m & talon)
            return 0;
        uint64_t hit = m & hand;
        if (!hit)
            break;
        int c = __builtin_ctzll(hit), i = 0;
        while (i < NPILES && !(len[i] > 0 && LAZY_TOP(i) == c))
            i++;
        if (i == NPILES) /* never: hand holds pile tops only; kept so a slip cannot read past the piles */
            return 0;
        f[SUIT[c]] += 1;
        touched |= 1 << i;
        hand &= ~((uint64_t)1 << c);
        int n = len[i] - 1;
        len[i] = (int8_t)n;
        if (n > 0) {
            if (down[i] == n)
                down[i] = (int8_t)(n - 1);
            hand |= (uint64_t)1 << LAZY_TOP(i);
        }
    }
#undef LAZY_TOP
    int downs = pa->downs;
    for (int i = 0; touched; i++, touched >>= 1)
        if (touched & 1) {
            downs += down[i] - p[DOWN + i];
            /* a pile that was empty and took the run keeps digit 0 (a king at its foundation end) */
            int now = i == grown && below == 0 ? 0 : pile_digit(x, p, i, down[i], len[i]);
            k += (uint64_t)((int64_t)(now - pile_digit(x, p, i, p[DOWN + i], p[LEN + i])) * (int64_t)x->pile_mul[i]);
        }
    for (int suit = 0; suit < 4; suit++)
        k += (uint64_t)(f[suit] - p[FOUND + suit]) * POW14[suit] * x->found_mul;
    *key = k;
    *won = downs == 0 && (tlen == 0 || free);
    return LAZY_PLAY;
}

/* The exact key (plus one) of the child of p by the move code, worked out from
 * p's key pkey without making the child, when autoplay would send nothing
 * home after the move; *won is then whether the child is trivially won.
 * Returns 0 when that child has to be made (after a move carrying HOME_FLAG,
 * and after a fill move or a pair move after which autoplay would send a card
 * home, or one after which it would send a talon card home), 1 when autoplay
 * sends nothing home, and LAZY_PLAY when it does (lazy_autoplay): the child
 * is then the move and autoplay. pa is p's Parent.
 *
 * Why nothing else changes: p is a state of the search, so autoplay has sent
 * all it can home (no pile top is in safe, nor, with a free talon, any talon
 * card). A move between piles or from the talon to a pile touches no
 * foundation, so safe stays as it is, and the only new pile top is the card
 * the move uncovers or turns up, or the talon card: if that card is not in
 * safe, autoplay does nothing. A move to a foundation changes safe to the
 * set worked out from the new heights, and every pile top (and talon card,
 * when free) is then looked at. Of the key's digits, a run between piles
 * changes only its source pile's (the target keeps its face-down cards and
 * its lowest card, or is empty and takes a king, whose digit is 0 either
 * way); a pile card going home changes its pile's digit and a foundation's;
 * a talon card leaves the talon, and the waste position and the pass become
 * what apply_move makes them. A foundation card brought back lowers its
 * foundation's digit and leaves the target pile's as it was, and autoplay
 * then does nothing (below). A pair move (the pair rule: a talon card and a
 * run that turns a card up, or a foundation card, built on it) is keyed so
 * too: the talon card's bit goes, the run's pile changes its digit as a run
 * moved between piles does, the pile built on keeps its digit, and autoplay
 * looks only at the card turned up (or, for the foundation card, does nothing).
 * A fill move (the fill rule: whole pile i onto pile j, then a king into
 * pile i) is keyed as the king's move, plus pile i's digit going to 0 (it
 * held no face-down card and now holds a king at its foundation end); pile j
 * keeps its digit (it keeps its face-down cards and its lowest card) unless
 * the king comes from it, when its run is counted with pile i's cards on it.
 * The new pile tops are the card the king's pile turns up, or the king from
 * the talon (its foundation's next, maybe), or cards at hand before: the
 * king's move's test above covers them all.
 * CARDTABLE_CHECK_KEYS builds check each such key against the child once it is made. */
static int lazy_key(const Exact *x, const int64_t *v, const state_t *p, Parent *pa, int32_t code, uint64_t *key,
                    int *won)
{
    uint64_t pkey = pa->key, safe = pa->safe;
    int downs = pa->downs;
    if ((code & (PAIR_FLAG | HOME_FLAG)) == PAIR_FLAG) {
        /* a pair move (free talon: no waste position or pass in the key) without a card sent home: the
         * talon card leaves the talon and its target keeps its digit (its lowest card stays) */
        int card = (code >> 14) & 63, b = (code >> FILL_SHIFT) & 7;
        uint64_t k = pkey - ((uint64_t)1 << x->tpos[card]) * x->talon_mul;
        if (b == PAIR_FOUNDATION) {
            /* a foundation card on it: its foundation drops, which makes no card safe (as below) */
            *key = k - POW14[(code >> PAIR_SUIT_SHIFT) & 3] * x->found_mul;
            *won = downs == 0;
            return 1;
        }
        /* a run from pile b turning up the card under it, which autoplay must not want */
        int n = p[LEN + b], down = p[DOWN + b];
        if (down == 0 || n - ((code >> 8) & 63) != down || ((safe >> p[PILE_CAP * b + down - 1]) & 1))
            return 0;
        k += (uint64_t)((int64_t)(pile_digit(x, p, b, down - 1, down) - pile_digit(x, p, b, down, n)) *
                        (int64_t)x->pile_mul[b]);
        *key = k;
        *won = downs == 1;
        return 1;
    }
    if (code & (HOME_FLAG | PAIR_FLAG))
        return 0;
    int src = code & 15, dst = (code >> 4) & 15, count = (code >> 8) & 63, card = (code >> 14) & 63;
    if (dst != LOC_FOUNDATION && dst >= NPILES)
        return 0;
    int onto = -1; /* with a fill move, the pile that pile dst's cards go onto */
    if (code & FILL_FLAG) {
        onto = (code >> FILL_SHIFT) & 7;
        pkey -= (uint64_t)pile_digit(x, p, dst, 0, p[LEN + dst]) * x->pile_mul[dst];
    }
    if (src == LOC_FOUNDATION) {
        /* a foundation card brought back: its foundation drops (which makes no card safe that was not,
         * and the card itself is not: generate() does not bring back a safe one), and the pile it goes to
         * keeps its digit (one with cards keeps its lowest; an empty one takes a king, digit 0 either way) */
        if (dst == LOC_FOUNDATION)
            return 0;
        *key = pkey - POW14[SUIT[card]] * x->found_mul;
        *won = downs == 0 && (p[TLEN] == 0 || free_talon(v));
        return 1;
    }
    if (src >= NPILES && src != SRC_TALON)
        return 0;
    int home = dst == LOC_FOUNDATION;
    uint64_t k = pkey;
    int left_downs = downs, tlen = p[TLEN], top = -1;
    if (src < NPILES) {
        int n = p[LEN + src] + (src == onto ? p[LEN + dst] : 0), down = p[DOWN + src];
        int left = n - count;
        int ndown = left > 0 && down == left ? left - 1 : down;
        if (left > 0)
            top = p[PILE_CAP * src + left - 1];
        int64_t change = pile_digit(x, p, src, ndown, left) - pile_digit(x, p, src, down, n);
        k += (uint64_t)(change * (int64_t)x->pile_mul[src]);
        left_downs -= down - ndown;
    } else {
        int q = locate(p, pa)->at[card];
        if (!home)
            top = card;
        k -= ((uint64_t)1 << x->tpos[card]) * x->talon_mul;
        k += (uint64_t)((int64_t)(key_wp(v, q, tlen - 1) - pa->wp) * (int64_t)x->wp_mul);
        if (v[V_PASSES] != 0 && ((code >> 20) & 1)) {
            int pass = p[PASS], next = pass + 1 < PASS_CAP ? pass + 1 : PASS_CAP;
            k += (uint64_t)(next - pass) * x->pass_mul;
        }
        tlen--;
    }
    if (!home) {
        if (top >= 0 && ((safe >> top) & 1))
            return onto < 0 ? lazy_autoplay(x, v, p, pa, src, dst, count, card, src < NPILES ? pkey : k, tlen, key, won)
                            : 0;
    } else {
        /* the foundation grows: whatever is now safe and at hand must not be */
        int suit = SUIT[card];
        state_t f[4];
        memcpy(f, p + FOUND, 4);
        f[suit] += 1;
        uint64_t now = safe_next_on(f, v);
        /* (the card itself is not in now, which holds its suit's next: pa->tops and pa->talon may keep it) */
        if (now) {
            if ((top >= 0 && ((now >> top) & 1)) || (now & pa->tops))
                return lazy_autoplay(x, v, p, pa, src, dst, count, card, src < NPILES ? pkey : k, tlen, key, won);
            if (free_talon(v) && (now & locate(p, pa)->talon))
                return 0;
        }
        k += POW14[suit] * x->found_mul;
    }
    *key = k;
    *won = left_downs == 0 && (tlen == 0 || free_talon(v));
    return 1;
}

#ifdef CARDTABLE_CHECK_KEYS
/* The child of p by code, made as a child that is not keyed lazily is made,
 * must agree with what lazy_key said (lazy, its return): whether autoplay
 * sends anything home, the won flag, and (unless won) the key. */
static void check_lazy(const Exact *x, const int64_t *v, const state_t *p, int32_t code, uint64_t key, int won,
                       int lazy)
{
    state_t made[STATE_SIZE], played[STATE_SIZE];
    memcpy(made, p, STATE_SIZE);
    apply_move(made, code, v);
    memcpy(played, made, STATE_SIZE);
    autoplay(played, v, NULL, 0);
    if ((memcmp(made, played, STATE_SIZE) != 0) != (lazy == LAZY_PLAY) || won != trivially_won(played, v) ||
        (!won && exact_key(x, v, played) != key))
        abort();
}
#endif

/* The reveal-first order (V_ORDER 1) of the moves mv of s: first a run that
 * turns a card up, then a pile card sent home, a talon card onto the
 * tableau, a talon card sent home, a foundation card brought back, and last
 * the search's other moves (part of a run moved so that the card it uncovers
 * goes home, a whole pile moved, the fill rule's pairs); of each kind the
 * lower card first. It finds quickly many of the wins that the standard
 * order finds late (docs/solver.md). Writes each move's place in it to pr,
 * for sort_moves. */
static void reveal_first(const state_t *s, const int32_t *mv, int32_t *pr, int n)
{
    for (int a = 0; a < n; a++) {
        int32_t code = mv[a];
        int src = code & 15, dst = (code >> 4) & 15, count = (code >> 8) & 63, card = (code >> 14) & 63;
        int kind = 5;
        if (code & FILL_FLAG)
            kind = 5;
        else if (src == SRC_TALON)
            kind = dst == LOC_FOUNDATION ? 3 : 2;
        else if (src == LOC_FOUNDATION)
            kind = 4;
        else if (dst == LOC_FOUNDATION)
            kind = 1;
        else if (!(code & HOME_FLAG) && s[DOWN + src] > 0 && count == s[LEN + src] - s[DOWN + src])
            kind = 0; /* the whole face-up run of a pile with face-down cards */
        pr[a] = (6 - kind) * 16 + 13 - RANK[card];
    }
}

static void expand_rest(SearchObject *o, int d, const state_t *parent, Parent *pa, int64_t base, int a0, int n,
                        uint64_t mask);

static void expand(SearchObject *o, int d)
{
    const state_t *parent = o->b.states + (size_t)d * STATE_SIZE;
    /* With a free talon generate reads present_of, which with foundation return depends on the
     * face-down cards alone; along a path they only ever go, so the same count as the parent's is the
     * same cards, and the parent's present_of is this state's. */
    uint64_t present = 0;
    int known = o->v[V_RETURN] && free_talon(o->v), downs = 0;
    if (known) {
        for (int i = 0; i < NPILES; i++)
            downs += parent[DOWN + i];
        if (d > 0 && o->downs_at[d - 1] == downs)
            present = o->present_at[d - 1];
    }
    Glimpse seen;
    int n = generate_known(parent, o->v, o->mv_tmp, o->pr_tmp, 0, &present, &seen);
    if (known) {
        o->present_at[d] = present;
        o->downs_at[d] = (int8_t)downs;
    }
    if (o->v[V_ORDER] == 1)
        reveal_first(parent, o->mv_tmp, o->pr_tmp, n);
    int64_t salt = o->v[V_SALT];
    if (salt != 0) {
        for (int a = 0; a < n; a++) {
            uint64_t x = (uint64_t)salt * 0x9E3779B97F4A7C15ULL + (uint64_t)o->mv_tmp[a] * 64ULL;
            x = mix(x + (uint64_t)d);
            o->pr_tmp[a] += (int32_t)(x % 251ULL);
        }
    }
    if (o->path && d > 0) { /* before the sort, which is stable: the moves kept keep their order */
        const int32_t *list = o->b.mv + (size_t)(d - 1) * MAX_MOVES;
        int at = o->b.mi[d - 1] - 1;
        n = path_prune(parent - STATE_SIZE, parent, &seen, list[at], list, o->b.nm[d - 1], at, o->mv_tmp, o->pr_tmp,
                       n, o->v);
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
    uint64_t mask = ((uint64_t)1 << o->b.table_bits) - 1;
    Parent pa;
    if (o->x.on) {
        /* (the arrays read into locals: the stores to kwon, a char type, would make the compiler read
         * every pointer again after each one) */
        const uint64_t *table = o->b.table;
        const int32_t *moves = o->mv_tmp;
        uint64_t *kh = o->b.kh + 2 * base;
        int8_t *kwon = o->b.kwon + base;
        parent_setup(o->v, parent, o->b.dkey[d], &seen, &pa);
        int a = 0;
        for (; a < n; a++) {
            uint64_t key;
            int won;
            int lazy = lazy_key(&o->x, o->v, parent, &pa, moves[a], &key, &won);
            if (!lazy)
                break; /* made in full: this child and the rest, below */
            uint64_t start = table_start(1, key); /* an exact key's start, worked out once */
            kh[2 * a] = key;
            kh[2 * a + 1] = start;
            kwon[a] = (int8_t)(KID_LAZY | (won ? KID_WON : 0) | (lazy == LAZY_PLAY ? KID_PLAY : 0));
#ifdef CARDTABLE_CHECK_KEYS
            check_lazy(&o->x, o->v, parent, moves[a], key, won, lazy);
#endif
            if (!won)
                __builtin_prefetch(&table[start & mask]);
        }
        if (a == n)
            return;
        expand_rest(o, d, parent, &pa, base, a, n, mask);
        return;
    }
    expand_rest(o, d, parent, &pa, base, 0, n, mask);
}

/* expand's children from the a-th on (of n, the first at base in the child stack), where the
 * lazy loop of expand stopped (all of them without exact keys). */
static void expand_rest(SearchObject *o, int d, const state_t *parent, Parent *pa, int64_t base, int a0, int n,
                        uint64_t mask)
{
    for (int a = a0; a < n; a++) {
        int64_t idx = base + a;
        int won, lazy;
        if (o->x.on &&
            (lazy = lazy_key(&o->x, o->v, parent, pa, o->mv_tmp[a], &o->b.kh[2 * idx], &won))) {
            o->b.kwon[idx] = (int8_t)(KID_LAZY | (won ? KID_WON : 0) | (lazy == LAZY_PLAY ? KID_PLAY : 0));
            o->b.kh[2 * idx + 1] = table_start(1, o->b.kh[2 * idx]); /* an exact key's start, worked out once */
#ifdef CARDTABLE_CHECK_KEYS
            check_lazy(&o->x, o->v, parent, o->mv_tmp[a], o->b.kh[2 * idx], won, lazy);
#endif
        } else {
            state_t *child = o->b.kids + (size_t)idx * STATE_SIZE;
            memcpy(child, parent, STATE_SIZE);
            apply_move(child, o->mv_tmp[a], o->v);
            autoplay(child, o->v, NULL, 0);
            won = trivially_won(child, o->v);
            o->b.kwon[idx] = (int8_t)(won ? KID_WON : 0);
            if (!won) {
                child_key(o, d, child, &o->b.kh[2 * idx], &o->b.kh[2 * idx + 1]);
                if (o->x.on)
                    o->b.kh[2 * idx + 1] = table_start(1, o->b.kh[2 * idx]);
            }
        }
        /* its start (table_start): kept in the second word with an exact key, else the first hash */
        if (!won)
            __builtin_prefetch(&o->b.table[o->b.table_words * (o->b.kh[2 * idx + o->x.on] & mask)]);
    }
}

/* Make at child the child of states[d] by its move a that expand keyed
 * without making it (with autoplay when its flags kwon say so: see lazy_key). */
static inline void make_lazy(SearchObject *o, int d, int a, state_t *child, int8_t kwon)
{
    memcpy(child, o->b.states + (size_t)d * STATE_SIZE, STATE_SIZE);
    apply_move(child, o->b.mv[(size_t)d * MAX_MOVES + a], o->v);
    if (kwon & KID_PLAY)
        autoplay(child, o->v, NULL, 0);
}

static int64_t run_search(SearchObject *o, int64_t budget)
{
    if (o->status != RUNNING)
        return o->status;
    int d = (int)o->depth;
    int64_t limit = o->states_seen + budget;
    int max_depth = MAX_DEPTH;
    int64_t full = ((int64_t)3 << o->b.table_bits) / 4; /* the table grows at 3/4 full */
    /* The counters and the per-depth arrays in locals (the states are char arrays, and a store to one
     * would make the compiler read every field of o again); the counters are written back on return. */
    int64_t tried = o->tried, seen = o->states_seen, filled = o->filled;
    int32_t *mi = o->b.mi;
    const int32_t *nm = o->b.nm;
    const int64_t *kbase = o->b.kbase;
    int words = o->b.table_words, on = o->x.on;
    int64_t status = RUNNING;
    for (;;) {
        if (filled >= full) {
            if (!grow_table(o)) {
                status = TABLE_FULL;
                break;
            }
            full = ((int64_t)3 << o->b.table_bits) / 4;
        }
        int a = mi[d];
        if (a >= nm[d]) {
            d--;
            if (d < 0) {
                status = EXHAUSTED;
                d = 0;
                break;
            }
            continue;
        }
        mi[d] = a + 1;
        tried++;
        state_t *child = o->b.states + (size_t)(d + 1) * STATE_SIZE;
        uint64_t h1, h2;
        if (kbase[d] >= 0) { /* made when the state was expanded */
            int64_t idx = kbase[d] + a;
            int8_t kwon = o->b.kwon[idx];
            const uint64_t *kh = o->b.kh + 2 * idx;
            if (kwon & KID_WON) {
                if (kwon & KID_LAZY) /* Search_path reads the won state */
                    make_lazy(o, d, a, child, kwon);
                d++;
                status = WON;
                break;
            }
            if (!table_insert_from(o->b.table, o->b.table_bits, words, kh[on], kh[0], kh[1]))
                continue;
            o->b.dkey[d + 1] = kh[0];
            if (kwon & KID_LAZY) /* made now that it is new */
                make_lazy(o, d, a, child, kwon);
            else
                memcpy(child, o->b.kids + (size_t)idx * STATE_SIZE, STATE_SIZE);
            if (!on) /* an exact key has no caches to fill */
                hash_at(o, d + 1, &h1, &h2); /* fills the caches of depth d + 1 */
        } else {
            memcpy(child, child - STATE_SIZE, STATE_SIZE);
            apply_move(child, o->b.mv[(size_t)d * MAX_MOVES + a], o->v);
            autoplay(child, o->v, NULL, 0);
            if (trivially_won(child, o->v)) {
                d++;
                status = WON;
                break;
            }
            hash_at(o, d + 1, &h1, &h2);
            if (!table_insert(o->b.table, o->b.table_bits, words, h1, h2))
                continue;
            o->b.dkey[d + 1] = h1;
        }
        seen++;
        filled++;
        if (d + 1 >= max_depth) {
            o->cut = 1;
            continue;
        }
        d++;
        if (d > o->peak)
            o->peak = d;
        expand(o, d);
        if (seen >= limit)
            break;
    }
    o->tried = tried;
    o->states_seen = seen;
    o->filled = filled;
    o->depth = d;
    if (status != RUNNING)
        o->status = status;
    return status;
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
    if (v[V_DRAW] < 1 || v[V_DRAW] > 52 || v[V_PASSES] < 0 || v[V_ORDER] < 0 || v[V_ORDER] > 1) {
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

/* The buffers of finished searches, kept for the next ones: a solve in a
 * running process then touches memory already mapped (most solves are
 * small, and mapping fresh pages costs more than the search). Two sets are
 * kept, one for the main search and one for the reveal-first search that
 * joins it; only a small table and a small child stack are kept; the GIL
 * guards the pool. */
enum { POOL_TABLE_BITS = 16, POOL_KIDS = 1 << 16, POOL_SIZE = 2 };
static Buffers pool[POOL_SIZE];
static int pooled;

static int complete(const Buffers *b)
{
    return b->states && b->mv && b->nm && b->mi && b->ph1 && b->ph2 && b->th1 && b->th2 && b->table && b->kids &&
           b->kh && b->kwon && b->kbase && b->dkey;
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
    table_free(b->table, b->table_bits, b->table_words);
    free(b->kids);
    free(b->kh);
    free(b->kwon);
    free(b->kbase);
    free(b->dkey);
}

static void Search_dealloc(SearchObject *o)
{
    if (pooled < POOL_SIZE && complete(&o->b) && o->b.kcap <= POOL_KIDS && o->b.table_bits <= POOL_TABLE_BITS) {
        pool[pooled++] = o->b;
    } else {
        release_buffers(&o->b);
    }
    Py_TYPE(o)->tp_free((PyObject *)o);
}

/* Buffers for a new search with a table of 2**bits entries: the pool's (a
 * set whose table has that size if there is one), or fresh ones. */
static int take_buffers(Buffers *b, int bits, int words)
{
    size_t depth = MAX_DEPTH + 1;
    if (pooled > 0) {
        int pick = pooled - 1;
        for (int k = 0; k < pooled; k++)
            if (pool[k].table_bits == bits && pool[k].table_words == words)
                pick = k;
        *b = pool[pick];
        pool[pick] = pool[--pooled];
        if (b->table_bits == bits && b->table_words == words) {
            memset(b->table, 0, ((size_t)words << bits) * sizeof(uint64_t));
        } else {
            table_free(b->table, b->table_bits, b->table_words);
            b->table_bits = bits;
            b->table_words = words;
            b->table = table_alloc(bits, words);
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
    b->table_words = words;
    b->table = table_alloc(bits, words);
    b->kcap = 4096;
    b->kids = malloc((size_t)b->kcap * STATE_SIZE);
    b->kh = malloc((size_t)b->kcap * 2 * sizeof(uint64_t));
    b->kwon = malloc((size_t)b->kcap);
    b->kbase = malloc(depth * sizeof(int64_t));
    b->dkey = malloc(depth * sizeof(uint64_t));
    return complete(b);
}

static int Search_init(SearchObject *o, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"state", "params", "max_bits", "start_bits", "exact", "path", NULL};
    PyObject *state_obj, *params;
    int max_bits, start_bits = 14, exact = 1, path = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOi|ipp", kwlist, &state_obj, &params, &max_bits, &start_bits,
                                     &exact, &path))
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
    o->path = path;
    state_t root[STATE_SIZE];
    if (read_state(state_obj, root) < 0)
        return -1;
    /* start: safe moves first, then the root */
    autoplay(root, o->v, NULL, 0);
    exact_setup(&o->x, root, o->v);
    o->x.on &= exact;
    if (!take_buffers(&o->b, start_bits < max_bits ? start_bits : max_bits, o->x.on ? 1 : 2)) {
        PyErr_NoMemory();
        return -1;
    }
    memcpy(o->b.states, root, STATE_SIZE);
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
    o->b.dkey[0] = h1;
    table_insert(o->b.table, o->b.table_bits, o->b.table_words, h1, h2);
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

static PyObject *Search_key_words(SearchObject *o, void *Py_UNUSED(closure))
{
    return PyLong_FromLong(o->x.on ? 1 : 2);
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
    {"key_words", (getter)Search_key_words, NULL, "words a table entry takes: 1, an exact key; 2, two hashes", NULL},
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
    .tp_doc = PyDoc_STR("Search(state, params, max_bits, start_bits=14, exact=True, path=False): one resumable "
                        "depth-first search. exact=False keeps the two-hash keys even where an exact key fits; "
                        "path=True applies the path rules (klondike.h's notes)."),
    .tp_basicsize = sizeof(SearchObject),
    .tp_itemsize = 0,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
};

/* ---- the best-first search -------------------------------------------- */

/*
 * Best-first search, a probe of cardtable.solver.search.solve. Depth-first
 * search commits to its first moves; when an early choice is wrong it can
 * spend its whole budget below it. Best-first search instead always expands
 * the open state that looks closest to a win, wherever it is in the tree.
 * The estimate is a count of the moves still needed: each card not yet on its
 * foundation needs one, each face-down card needs the cards on it moved, and
 * a card lying above a lower card of its own suit must move before that card
 * can go home. States are ranked by weight * estimate + moves made (open
 * states of equal rank are taken newest first, so the search dives).
 *
 * A state is stored as its parent, the move that reached it, its depth and
 * its link in the open list (14 bytes); to expand one, the search rebuilds
 * it by replaying the moves from the nearest state on the path it built last
 * (usually its parent). It uses the same move generator, safe moves and
 * state keys as the depth-first search. When it tries every move of every
 * state, running out of open states means it has searched every reachable
 * state: a proof that the position is lost. It can also try only the few
 * best moves of each state by the depth-first priorities (a narrow search,
 * often the quickest to a win, which proves nothing when it runs out).
 */
enum { BUCKETS = 4096 };

typedef struct {
    PyObject_HEAD
    int64_t v[V_SIZE];
    Exact x;
    int max_bits, table_bits;
    uint64_t *table;
    state_t *states; /* (MAX_DEPTH + 2) * STATE_SIZE: the path built last */
    int32_t *path;   /* MAX_DEPTH + 3: the node at each depth of that path, or -1 */
    int32_t *chain;  /* MAX_DEPTH + 2 */
    int32_t *parent, *code, *link;
    int16_t *depth;
    int64_t nodes, capacity;
    int32_t head[BUCKETS]; /* open nodes by rank, each bucket a list newest first */
    int64_t low, weight, width, win_node, win_move;
    int64_t states_seen, status, cut, won_depth;
    int32_t moves[MAX_MOVES], prio[MAX_MOVES];
    int busy;
} BestObject;

/* A count of the moves still needed to win s. */
static int64_t estimate(const state_t *s)
{
    int64_t h = 0;
    for (int suit = 0; suit < 4; suit++)
        h += 13 - s[FOUND + suit];
    for (int i = 0; i < NPILES; i++) {
        int n = s[LEN + i];
        h += s[DOWN + i];
        for (int k = 1; k < n; k++) {
            int card = s[PILE_CAP * i + k];
            for (int j = 0; j < k; j++) {
                int below = s[PILE_CAP * i + j];
                if (SUIT[below] == SUIT[card] && RANK[below] < RANK[card]) {
                    h++;
                    break;
                }
            }
        }
    }
    return h;
}

/* The state key of s, computed whole. */
static void full_key(const Exact *x, const state_t *s, const int64_t *v, uint64_t *h1o, uint64_t *h2o)
{
    if (x->on) {
        *h1o = exact_key(x, v, s);
        *h2o = 0;
        return;
    }
    uint64_t h1, h2;
    talon_hash(s, &h1, &h2);
    for (int i = 0; i < NPILES; i++) {
        uint64_t a, b;
        pile_hash(s, i, &a, &b);
        h1 += a;
        h2 += b;
    }
    finish_key(v, s, &h1, &h2);
    *h1o = h1;
    *h2o = h2;
}

static void best_push(BestObject *o, int32_t node, int64_t f)
{
    if (f >= BUCKETS)
        f = BUCKETS - 1;
    o->link[node] = o->head[f];
    o->head[f] = node;
    if (f < o->low)
        o->low = f;
}

/* Rebuild node x's state at its depth, replaying moves from the deepest
 * node it shares with the path built last. */
static void materialize(BestObject *o, int32_t x)
{
    int n = 0;
    int32_t y = x;
    while (o->path[o->depth[y]] != y) {
        o->chain[n++] = y;
        y = o->parent[y];
    }
    for (int a = n - 1; a >= 0; a--) {
        int32_t z = o->chain[a];
        int d = o->depth[z];
        state_t *child = o->states + (size_t)d * STATE_SIZE;
        memcpy(child, child - STATE_SIZE, STATE_SIZE);
        apply_move(child, o->code[z], o->v);
        autoplay(child, o->v, NULL, 0);
        o->path[d] = z;
    }
    for (int d = o->depth[x] + 1; o->path[d] != -1; d++) /* the rest of the old path is stale now */
        o->path[d] = -1;
}

static int best_grow_table(BestObject *o)
{
    if (o->table_bits >= o->max_bits)
        return 0;
    int bits = o->table_bits + 1, w = o->x.on ? 1 : 2;
    uint64_t *bigger = table_alloc(bits, w);
    if (!bigger)
        return 0;
    table_move(o->table, o->table_bits, bigger, w);
    table_free(o->table, o->table_bits, w);
    o->table = bigger;
    o->table_bits = bits;
    return 1;
}

static int best_grow_nodes(BestObject *o)
{
    int64_t cap = o->capacity * 2;
    int32_t *parent = realloc(o->parent, (size_t)cap * sizeof(int32_t));
    if (!parent)
        return 0;
    o->parent = parent;
    int32_t *code = realloc(o->code, (size_t)cap * sizeof(int32_t));
    if (!code)
        return 0;
    o->code = code;
    int32_t *link = realloc(o->link, (size_t)cap * sizeof(int32_t));
    if (!link)
        return 0;
    o->link = link;
    int16_t *depth = realloc(o->depth, (size_t)cap * sizeof(int16_t));
    if (!depth)
        return 0;
    o->depth = depth;
    o->capacity = cap;
    return 1;
}

static int64_t run_best(BestObject *o, int64_t budget)
{
    if (o->status != RUNNING)
        return o->status;
    int64_t limit = o->states_seen + budget;
    int max_depth = MAX_DEPTH;
    while (o->states_seen < limit) {
        if (o->states_seen >= ((int64_t)3 << o->table_bits) / 4 && !best_grow_table(o)) {
            o->status = TABLE_FULL;
            return TABLE_FULL;
        }
        if (o->nodes + MAX_MOVES >= o->capacity && !best_grow_nodes(o)) {
            o->status = TABLE_FULL; /* out of memory: the search stops, deciding nothing */
            return TABLE_FULL;
        }
        int64_t b = o->low;
        while (b < BUCKETS && o->head[b] < 0)
            b++;
        if (b >= BUCKETS) {
            o->status = EXHAUSTED;
            return EXHAUSTED;
        }
        o->low = b;
        int32_t x = o->head[b];
        o->head[b] = o->link[x];
        int dx = o->depth[x];
        if (dx >= max_depth) {
            o->cut = 1;
            continue;
        }
        materialize(o, x);
        const state_t *s = o->states + (size_t)dx * STATE_SIZE;
        uint64_t present = 0;
        Glimpse seen;
        int n = generate_known(s, o->v, o->moves, o->prio, 0, &present, &seen);
        if (o->width > 0) {
            sort_moves(o->moves, o->prio, n);
            if (n > o->width)
                n = (int)o->width;
        }
        state_t *child = o->states + (size_t)(dx + 1) * STATE_SIZE;
        /* As in the depth-first search, a child whose exact key follows from
         * its parent's (see lazy_key) is made only when the table has not seen it. */
        Parent pa;
        if (o->x.on)
            parent_setup(o->v, s, exact_key(&o->x, o->v, s), &seen, &pa);
        for (int a = 0; a < n; a++) {
            int32_t m = o->moves[a];
            uint64_t h1 = 0, h2 = 0;
            int won = 0;
            int lazy = o->x.on ? lazy_key(&o->x, o->v, s, &pa, m, &h1, &won) : 0;
            if (!lazy) {
                memcpy(child, s, STATE_SIZE);
                apply_move(child, m, o->v);
                autoplay(child, o->v, NULL, 0);
                won = trivially_won(child, o->v);
            }
#ifdef CARDTABLE_CHECK_KEYS
            else
                check_lazy(&o->x, o->v, s, m, h1, won, lazy);
#endif
            if (won) {
                o->win_node = x;
                o->win_move = m;
                o->won_depth = dx + 1;
                o->status = WON;
                return WON;
            }
            if (o->states_seen >= ((int64_t)3 << o->table_bits) / 4 && !best_grow_table(o)) {
                o->status = TABLE_FULL; /* the table stays under 3/4 full */
                return TABLE_FULL;
            }
            if (!lazy)
                full_key(&o->x, child, o->v, &h1, &h2);
            if (!table_insert(o->table, o->table_bits, o->x.on ? 1 : 2, h1, h2))
                continue;
            if (lazy) { /* new: make it (with autoplay when lazy_key says it acts) */
                memcpy(child, s, STATE_SIZE);
                apply_move(child, m, o->v);
                if (lazy == LAZY_PLAY)
                    autoplay(child, o->v, NULL, 0);
            }
            int32_t node = (int32_t)o->nodes++;
            o->states_seen++;
            o->parent[node] = x;
            o->code[node] = m;
            o->depth[node] = (int16_t)(dx + 1);
            best_push(o, node, o->weight * estimate(child) + dx + 1);
        }
    }
    return RUNNING;
}

static void Best_dealloc(BestObject *o)
{
    table_free(o->table, o->table_bits, o->x.on ? 1 : 2);
    free(o->states);
    free(o->path);
    free(o->chain);
    free(o->parent);
    free(o->code);
    free(o->link);
    free(o->depth);
    Py_TYPE(o)->tp_free((PyObject *)o);
}

static int Best_init(BestObject *o, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"state", "params", "max_bits", "start_bits", "weight", "width", "exact", NULL};
    PyObject *state_obj, *params;
    int max_bits, start_bits, exact = 1;
    long long weight, width;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOiiLL|p", kwlist, &state_obj, &params, &max_bits, &start_bits,
                                     &weight, &width, &exact))
        return -1;
    if (o->states) {
        PyErr_SetString(PyExc_RuntimeError, "a search is set up once");
        return -1;
    }
    if (max_bits < 4 || max_bits > 40 || start_bits < 4) {
        PyErr_SetString(PyExc_ValueError, "max_bits must be between 4 and 40 (start_bits at least 4)");
        return -1;
    }
    if (weight < 0 || weight > 1000 || width < 0) {
        PyErr_SetString(PyExc_ValueError, "the weight must be 0..1000 and the width at least 0");
        return -1;
    }
    if (read_params(params, o->v) < 0)
        return -1;
    size_t depth = MAX_DEPTH + 2;
    o->max_bits = max_bits;
    o->table_bits = start_bits < max_bits ? start_bits : max_bits;
    o->states = malloc(depth * STATE_SIZE);
    o->path = malloc((depth + 1) * sizeof(int32_t));
    o->chain = malloc(depth * sizeof(int32_t));
    o->capacity = 1 << 14;
    o->parent = malloc((size_t)o->capacity * sizeof(int32_t));
    o->code = malloc((size_t)o->capacity * sizeof(int32_t));
    o->link = malloc((size_t)o->capacity * sizeof(int32_t));
    o->depth = malloc((size_t)o->capacity * sizeof(int16_t));
    if (!o->states || !o->path || !o->chain || !o->parent || !o->code || !o->link || !o->depth) {
        PyErr_NoMemory();
        return -1;
    }
    if (read_state(state_obj, o->states) < 0)
        return -1;
    for (size_t d = 0; d <= depth; d++)
        o->path[d] = -1;
    o->weight = weight;
    o->width = width;
    o->win_node = o->win_move = -1;
    o->won_depth = 0;
    o->cut = 0;
    o->states_seen = 1;
    for (int b = 0; b < BUCKETS; b++)
        o->head[b] = -1;
    o->low = BUCKETS;
    autoplay(o->states, o->v, NULL, 0);
    exact_setup(&o->x, o->states, o->v);
    o->x.on &= exact;
    o->table = table_alloc(o->table_bits, o->x.on ? 1 : 2);
    if (!o->table) {
        PyErr_NoMemory();
        return -1;
    }
    if (trivially_won(o->states, o->v)) {
        o->status = WON;
        return 0;
    }
    o->status = RUNNING;
    uint64_t h1, h2;
    full_key(&o->x, o->states, o->v, &h1, &h2);
    table_insert(o->table, o->table_bits, o->x.on ? 1 : 2, h1, h2);
    o->parent[0] = -1;
    o->code[0] = 0;
    o->depth[0] = 0;
    o->path[0] = 0;
    o->nodes = 1;
    best_push(o, 0, 0);
    return 0;
}

static PyObject *Best_run(BestObject *o, PyObject *arg)
{
    long long budget = PyLong_AsLongLong(arg);
    if (budget == -1 && PyErr_Occurred())
        return NULL;
    if (!o->states) {
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
    status = run_best(o, budget);
    Py_END_ALLOW_THREADS
    o->busy = 0;
    return PyLong_FromLongLong(status);
}

static PyObject *Best_path(BestObject *o, PyObject *Py_UNUSED(ignored))
{
    if (o->status != WON) {
        PyErr_SetString(PyExc_RuntimeError, "no win to read");
        return NULL;
    }
    PyObject *list = PyList_New(0);
    if (!list)
        return NULL;
    if (o->win_move >= 0) { /* else the root itself was won */
        int64_t node = o->win_node;
        int32_t last = (int32_t)o->win_move;
        for (;;) {
            PyObject *code = PyLong_FromLong(last);
            if (!code || PyList_Append(list, code) < 0) {
                Py_XDECREF(code);
                Py_DECREF(list);
                return NULL;
            }
            Py_DECREF(code);
            if (o->parent[node] < 0)
                break;
            last = o->code[node];
            node = o->parent[node];
        }
        if (PyList_Reverse(list) < 0) {
            Py_DECREF(list);
            return NULL;
        }
    }
    return list;
}

#define BEST_GETTER(name, field)                                                \
    static PyObject *Best_get_##name(BestObject *o, void *Py_UNUSED(closure))   \
    {                                                                          \
        return PyLong_FromLongLong((long long)o->field);                       \
    }
BEST_GETTER(states, states_seen)
BEST_GETTER(status, status)
BEST_GETTER(cut, cut)
BEST_GETTER(nodes, nodes)
BEST_GETTER(depth, won_depth)

static PyObject *Best_table_size(BestObject *o, void *Py_UNUSED(closure))
{
    return PyLong_FromLongLong((long long)1 << o->table_bits);
}

static PyObject *Best_key_words(BestObject *o, void *Py_UNUSED(closure))
{
    return PyLong_FromLong(o->x.on ? 1 : 2);
}

static PyGetSetDef Best_getset[] = {
    {"states", (getter)Best_get_states, NULL, "distinct states searched", NULL},
    {"status", (getter)Best_get_status, NULL, "RUNNING, WON, EXHAUSTED or TABLE_FULL", NULL},
    {"cut", (getter)Best_get_cut, NULL, "1 when a state at the depth limit was not expanded", NULL},
    {"nodes", (getter)Best_get_nodes, NULL, "nodes stored", NULL},
    {"depth", (getter)Best_get_depth, NULL, "the depth of the won state (on a win)", NULL},
    {"table_size", (getter)Best_table_size, NULL, "entries of the transposition table now", NULL},
    {"key_words", (getter)Best_key_words, NULL, "words a table entry takes: 1, an exact key; 2, two hashes", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef Best_methods[] = {
    {"run", (PyCFunction)Best_run, METH_O,
     "run(budget) -> status: expand open states until budget new states are found (the GIL is released)."},
    {"path", (PyCFunction)Best_path, METH_NOARGS, "path() -> list of the move codes from the root to the win."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject BestType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "cardtable.solver._ccore.BestSearch",
    .tp_doc = PyDoc_STR("BestSearch(state, params, max_bits, start_bits, weight, width, exact=True): one "
                        "resumable best-first search; open states are ranked by weight * estimate + moves made, "
                        "and width > 0 tries only that many of the best moves of each state. exact=False keeps "
                        "the two-hash keys even where an exact key fits."),
    .tp_basicsize = sizeof(BestObject),
    .tp_itemsize = 0,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Best_init,
    .tp_dealloc = (destructor)Best_dealloc,
    .tp_methods = Best_methods,
    .tp_getset = Best_getset,
};

/* ---- the simulator's kernel: the priority bot ----------------------------- */

/*
 * The priority strategy, move for move as cardtable/bots/klondike/priority.py
 * describes and plays it (that module's documentation is the strategy's one
 * statement): priority_choose picks its move in a state of any Klondike
 * variant, and the batch (priority_play) plays a variant's games with it
 * (the simulator's are seed 002's, whose variant it hands over as params).
 * tests/sim/test_fast_priority.py holds the two to the same move in random
 * positions of every rule combination and to the same games on thousands of
 * deals.
 */
enum { PRIORITY_MAX_MOVES = 256 }; /* a game of seed 002 makes at most ~160 moves */

/* What the strategy remembers between its moves (bits of its memory, 0 at the
 * start): it has moved; its last move came from the waste; a card moved (not
 * a draw) since the last recycle. */
enum { PRIORITY_STARTED = 1, PRIORITY_FROM_WASTE = 2, PRIORITY_MOVED = 4 };

/* Whether card may fill an empty pile under the variant v. */
static inline int priority_fills(int card, const int64_t *v) { return RANK[card] == 13 || v[V_ANY_EMPTY] != 0; }

/* The strategy's move in s under the variant v with its memory: a plain move
 * code, or -1 when it stops. */
static int32_t priority_choose(const state_t *s, const int64_t *v, int memory)
{
    const int32_t draw = pack(8, SRC_TALON, 1, 0, 0);
    int wp = s[WP], stock = s[TLEN] - wp;
    if (stock > 0 && (!(memory & PRIORITY_STARTED) || ((memory & PRIORITY_FROM_WASTE) && wp == 0)))
        return draw; /* the first move, or the waste was just emptied */
    /* (a) tableau tops left to right, then the waste top, to a foundation */
    for (int p = 0; p < NPILES; p++) {
        int size = s[LEN + p];
        if (size > 0) {
            int card = s[PILE_CAP * p + size - 1];
            if (s[FOUND + SUIT[card]] + 1 == RANK[card])
                return pack(p, LOC_FOUNDATION, 1, card, 0);
        }
    }
    if (wp > 0) {
        int card = s[TALON + wp - 1];
        if (s[FOUND + SUIT[card]] + 1 == RANK[card])
            return pack(SRC_TALON, LOC_FOUNDATION, 1, card, 0);
        /* (b) the waste top onto the leftmost pile that takes it */
        for (int p = 0; p < NPILES; p++) {
            int size = s[LEN + p];
            int t = size > 0 ? s[PILE_CAP * p + size - 1] : -1;
            if (t < 0 ? priority_fills(card, v) : RANK[t] == RANK[card] + 1 && RED[t] != RED[card])
                return pack(SRC_TALON, p, 1, card, 0);
        }
    }
    /* (c) a whole face-up run onto another pile: sources, then targets, left to right */
    for (int src = 0; src < NPILES; src++) {
        int size = s[LEN + src];
        if (size == 0)
            continue;
        int down = s[DOWN + src];
        int base = s[PILE_CAP * src + down];
        for (int dst = 0; dst < NPILES; dst++) {
            if (dst == src)
                continue;
            int dsize = s[LEN + dst];
            int t = dsize > 0 ? s[PILE_CAP * dst + dsize - 1] : -1;
            if (t < 0 ? down > 0 && priority_fills(base, v) : RANK[t] == RANK[base] + 1 && RED[t] != RED[base])
                return pack(src, dst, size - down, base, 0);
        }
    }
    /* (e) draw; with no stock, turn the waste over if a card moved this pass and a pass is left; else stop */
    if (stock > 0)
        return draw;
    if ((memory & PRIORITY_MOVED) && wp > 0 && (v[V_PASSES] == 0 || s[PASS] < v[V_PASSES]))
        return pack(SRC_TALON, 8, 1, 0, 0);
    return -1;
}

/* The strategy's memory after it plays code. */
static inline int priority_remember(int memory, int32_t code)
{
    int src = code & 15, dst = (code >> 4) & 15;
    memory = (memory | PRIORITY_STARTED) & ~PRIORITY_FROM_WASTE;
    if (src == 8) /* a draw */
        return memory;
    if (dst == 8) /* a recycle */
        return memory & ~PRIORITY_MOVED;
    return memory | PRIORITY_MOVED | (src == SRC_TALON ? PRIORITY_FROM_WASTE : 0);
}

/* Play the state s (a fresh deal) under the variant v by the strategy;
 * returns the moves made (-1 past PRIORITY_MAX_MOVES, which a game of seed
 * 002 never reaches). rec, when set, gets the move codes. */
static int priority_play(state_t *s, const int64_t *v, int32_t *rec)
{
    int memory = 0;
    for (int n = 0;; n++) {
        int32_t code = priority_choose(s, v, memory);
        if (code < 0)
            return n;
        if (n == PRIORITY_MAX_MOVES)
            return -1;
        apply_move(s, code, v);
        if (rec)
            rec[n] = code;
        memory = priority_remember(memory, code);
    }
}

/* A writable C-contiguous buffer of items of itemsize bytes; its item count. */
static Py_ssize_t get_array(PyObject *obj, Py_buffer *view, Py_ssize_t itemsize, int writable, const char *what)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0)) < 0)
        return -1;
    if (view->itemsize != itemsize) {
        PyErr_Format(PyExc_ValueError, "%s must hold %zd-byte items, not %zd-byte ones", what, itemsize,
                     view->itemsize);
        PyBuffer_Release(view);
        return -1;
    }
    return view->len / itemsize;
}

/* priority(seeds_or_deals, by_seed, params, foundation, moves, codes) */
static PyObject *py_priority(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *games_obj, *params, *found_obj, *moves_obj, *codes_obj;
    int by_seed;
    int64_t v[V_SIZE];
    if (!PyArg_ParseTuple(args, "OpOOOO", &games_obj, &by_seed, &params, &found_obj, &moves_obj, &codes_obj) ||
        read_params(params, v) < 0)
        return NULL;
    Py_buffer games, found, moves, codes = {0};
    Py_ssize_t n = get_array(games_obj, &games, by_seed ? 8 : 1, 0, by_seed ? "the seeds" : "the deals");
    if (n < 0)
        return NULL;
    if (!by_seed)
        n /= 52;
    Py_ssize_t nf = get_array(found_obj, &found, 1, 1, "the foundation counts");
    if (nf < 0) {
        PyBuffer_Release(&games);
        return NULL;
    }
    Py_ssize_t nm = get_array(moves_obj, &moves, 2, 1, "the move counts");
    if (nm < 0) {
        PyBuffer_Release(&games);
        PyBuffer_Release(&found);
        return NULL;
    }
    Py_ssize_t nc = codes_obj == Py_None ? 0 : get_array(codes_obj, &codes, 4, 1, "the move codes");
    int bad = nc < 0 || nf != n || nm != n || (codes_obj != Py_None && nc != n * PRIORITY_MAX_MOVES);
    if (bad) {
        if (nc >= 0)
            PyErr_SetString(PyExc_ValueError, "the outputs must have a row for every game");
        PyBuffer_Release(&games);
        PyBuffer_Release(&found);
        PyBuffer_Release(&moves);
        if (codes_obj != Py_None && nc >= 0)
            PyBuffer_Release(&codes);
        return NULL;
    }
    const uint64_t *seeds = games.buf;
    const int8_t *deals = games.buf;
    int8_t *fout = found.buf;
    int16_t *mout = moves.buf;
    int32_t *cout = codes_obj == Py_None ? NULL : codes.buf;
    Py_BEGIN_ALLOW_THREADS
    state_t s[STATE_SIZE];
    int8_t deck[52];
    for (Py_ssize_t g = 0; g < n; g++) {
        if (by_seed) {
            shuffle_deck(seeds[g], deck);
            deal_state(deck, s);
        } else {
            deal_state(deals + 52 * g, s);
        }
        int made = priority_play(s, v, cout ? cout + g * PRIORITY_MAX_MOVES : NULL);
        fout[g] = (int8_t)(s[FOUND] + s[FOUND + 1] + s[FOUND + 2] + s[FOUND + 3]);
        mout[g] = (int16_t)made;
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&games);
    PyBuffer_Release(&found);
    PyBuffer_Release(&moves);
    if (cout)
        PyBuffer_Release(&codes);
    Py_RETURN_NONE;
}

/* deals_from_seeds(seeds, out): the deck of every seed, 52 int8 a row. */
static PyObject *py_deals_from_seeds(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *seeds_obj, *out_obj;
    if (!PyArg_ParseTuple(args, "OO", &seeds_obj, &out_obj))
        return NULL;
    Py_buffer seeds, out;
    Py_ssize_t n = get_array(seeds_obj, &seeds, 8, 0, "the seeds");
    if (n < 0)
        return NULL;
    Py_ssize_t m = get_array(out_obj, &out, 1, 1, "the deals");
    if (m < 0) {
        PyBuffer_Release(&seeds);
        return NULL;
    }
    if (m != 52 * n) {
        PyErr_SetString(PyExc_ValueError, "the deals must have 52 entries for every seed");
    } else {
        const uint64_t *sd = seeds.buf;
        int8_t *o = out.buf;
        Py_BEGIN_ALLOW_THREADS
        for (Py_ssize_t g = 0; g < n; g++)
            shuffle_deck(sd[g], o + 52 * g);
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&seeds);
    PyBuffer_Release(&out);
    if (PyErr_Occurred())
        return NULL;
    Py_RETURN_NONE;
}

/* first_invalid_deal(deals): the row of the first deal that is not a
 * permutation of 0..51, or -1. */
static PyObject *py_first_invalid_deal(PyObject *Py_UNUSED(self), PyObject *arg)
{
    Py_buffer deals;
    Py_ssize_t n = get_array(arg, &deals, 1, 0, "the deals");
    if (n < 0)
        return NULL;
    const int8_t *d = deals.buf;
    Py_ssize_t bad = n % 52 ? 0 : -1;
    for (Py_ssize_t g = 0; bad < 0 && g < n / 52; g++) {
        uint64_t seen = 0;
        for (int i = 0; i < 52; i++) {
            int c = d[52 * g + i];
            if (c < 0 || c >= 52 || (seen >> c) & 1) {
                bad = g;
                break;
            }
            seen |= (uint64_t)1 << c;
        }
    }
    PyBuffer_Release(&deals);
    return PyLong_FromSsize_t(bad);
}

/* ---- the environment's step (cardtable/Klondike-v0) ------------------------ */

/*
 * An environment keeps five numpy arrays, which EnvCore holds for its life
 * (cardtable/envs/_fast.py makes them): b8 (int8: row 0 the state, row 1 the
 * action mask and room for a shuffled deck), obs (int16: the observation),
 * b32 (int32: rows 0 and 1 the move generator's scratch, row 2 the move code
 * of each legal action), b64 (int64: row 0 the counters, row 1 unused,
 * row 2 the variant parameters, row 3 a position key,
 * row 4 the Vegas money of 0..52 foundation cards) and hist (int16: the
 * action of every move played this episode). Moves are listed by the rules'
 * plain generator (exactly the engine's moves) and played by apply_move; this
 * part only numbers them as actions, writes the observation, pays the reward
 * and keeps the episode's clock.
 *
 * Its numbers (the action numbering, the observation's fields, the counters
 * C_* and the results E_*) come from env_layout.h, which is generated from
 * their one source, cardtable/envs/_layout.py: change them there.
 */
#include "env_layout.h"

enum { B8_ROW = DECK + 52 };

typedef struct {
    PyObject_HEAD
    Py_buffer views[5];
    int held;
    int8_t *b8;
    int16_t *obs;
    int32_t *b32;
    int64_t *b64;
    int16_t *hist;
    Py_ssize_t hist_len;
} EnvObject;

/* The action index of a plain move code (the numbering of cardtable/envs/_layout.py). */
static inline int env_action(int32_t code)
{
    int src = code & 15, dst = (code >> 4) & 15;
    if (src == 8)
        return DRAW_ACTION;
    if (dst == 8)
        return RECYCLE_ACTION;
    if (src == SRC_TALON)
        return dst == LOC_FOUNDATION ? ACT_WASTE_HOME : ACT_WASTE_PILE + dst;
    if (src == LOC_FOUNDATION)
        return ACT_HOME_PILE + ACT_PER_SUIT * SUIT[(code >> 14) & 63] + dst;
    if (dst == LOC_FOUNDATION)
        return ACT_PILE_HOME + src;
    int place = dst < src ? dst : dst - 1;
    return ACT_PILE_PILE + ACT_PER_SOURCE * src + ACT_PER_TARGET * place + ((code >> 8) & 63) - 1;
}

static inline int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* Write the mask, the move code of each legal action and the observation;
 * returns how many moves are legal (the stop action aside). */
static int env_look(EnvObject *o)
{
    const state_t *s = o->b8;
    int8_t *mask = o->b8 + B8_ROW;
    int64_t *ctl = o->b64;
    int32_t *mv = o->b32, *pr = o->b32 + MAX_MOVES, *codes = o->b32 + 2 * MAX_MOVES;
    int16_t *obs = o->obs;
    memset(mask, 0, STOP);
    int n = generate(s, o->b64 + 2 * WIDTH, mv, pr, 1);
    int64_t limit = ctl[C_PASS_LIMIT];
    int legal = 0;
    for (int q = 0; q < n; q++) {
        int a = env_action(mv[q]);
        if (a == RECYCLE_ACTION && limit != 0 && ctl[C_PASS] >= limit)
            continue;
        mask[a] = 1;
        codes[a] = mv[q];
        legal++;
    }
    for (int i = 0; i < NPILES; i++) {
        int m = s[LEN + i], down = s[DOWN + i], at = OBS_TABLEAU + OBS_PILE_SLOTS * i;
        for (int q = down; q < m; q++)
            obs[at++] = (int16_t)(s[PILE_CAP * i + q] + 1);
        for (int q = at; q < OBS_TABLEAU + OBS_PILE_SLOTS * (i + 1); q++)
            obs[q] = 0;
        obs[OBS_FACE_DOWN + i] = (int16_t)down;
    }
    int wp = s[WP];
    obs[OBS_STOCK] = (int16_t)(s[TLEN] - wp);
    for (int q = 0; q < wp; q++)
        obs[OBS_WASTE + q] = (int16_t)(s[TALON + wp - 1 - q] + 1);
    for (int q = wp; q < OBS_WASTE_SLOTS; q++)
        obs[OBS_WASTE + q] = 0;
    for (int f = 0; f < 4; f++)
        obs[OBS_FOUNDATION + f] = s[FOUND + f];
    int64_t number = ctl[C_PASS];
    obs[OBS_PASS_NUMBER] = (int16_t)min64(number, OBS_CAP);
    obs[OBS_PASSES_LEFT] = (int16_t)(limit == 0 ? -1 : min64(max64(limit - number, 0), OBS_CAP));
    obs[OBS_MOVES] = (int16_t)min64(ctl[C_MOVES], OBS_CAP);
    return legal;
}

/* A key of the position (the same facts as the engine's key()). */
static void env_write_key(EnvObject *o)
{
    const state_t *s = o->b8;
    int64_t *key = o->b64 + 3 * WIDTH;
    int at = 0;
    for (int i = 0; i < NPILES; i++) {
        int m = s[LEN + i];
        key[at] = m;
        key[at + 1] = s[DOWN + i];
        at += 2;
        for (int q = 0; q < m; q++)
            key[at++] = s[PILE_CAP * i + q];
    }
    int t = s[TLEN];
    key[at] = t;
    key[at + 1] = s[WP];
    at += 2;
    for (int q = 0; q < t; q++)
        key[at++] = s[TALON + q];
    for (int f = 0; f < 4; f++)
        key[at++] = s[FOUND + f];
    key[at] = o->b64[C_PASS_LIMIT] != 0 ? o->b64[C_PASS] : 0;
    for (int q = at + 1; q < WIDTH; q++)
        key[q] = 0;
}

static inline int env_found(const state_t *s) { return s[FOUND] + s[FOUND + 1] + s[FOUND + 2] + s[FOUND + 3]; }

static inline int env_down(const state_t *s)
{
    int total = 0;
    for (int i = 0; i < NPILES; i++)
        total += s[DOWN + i];
    return total;
}

static void env_release(EnvObject *o)
{
    for (int k = 0; k < o->held; k++)
        PyBuffer_Release(&o->views[k]);
    o->held = 0;
}

static void Env_dealloc(EnvObject *o)
{
    env_release(o);
    Py_TYPE(o)->tp_free((PyObject *)o);
}

static int Env_init(EnvObject *o, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"b8", "obs", "b32", "b64", "hist", NULL};
    PyObject *objs[5];
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOOO", kwlist, &objs[0], &objs[1], &objs[2], &objs[3], &objs[4]))
        return -1;
    env_release(o);
    static const Py_ssize_t itemsize[5] = {1, 2, 4, 8, 2};
    static const Py_ssize_t least[5] = {2 * B8_ROW, OBS_SIZE, 3 * MAX_MOVES, 5 * WIDTH, 1};
    static const char *names[5] = {"b8", "obs", "b32", "b64", "hist"};
    for (int k = 0; k < 5; k++) {
        Py_ssize_t n = get_array(objs[k], &o->views[k], itemsize[k], 1, names[k]);
        if (n < 0) {
            env_release(o);
            return -1;
        }
        o->held = k + 1;
        if (n != least[k] && !(k == 4 && n >= least[k])) {
            PyErr_Format(PyExc_ValueError, "%s has %zd items, not %zd", names[k], n, least[k]);
            env_release(o);
            return -1;
        }
    }
    o->b8 = o->views[0].buf;
    o->obs = o->views[1].buf;
    o->b32 = o->views[2].buf;
    o->b64 = o->views[3].buf;
    o->hist = o->views[4].buf;
    o->hist_len = o->views[4].len / 2;
    return 0;
}

static int env_ready(EnvObject *o)
{
    if (o->held == 5)
        return 1;
    PyErr_SetString(PyExc_RuntimeError, "the environment core was not set up");
    return 0;
}

/* set_history(hist): a longer move history (its first entries copied by the caller). */
static PyObject *Env_set_history(EnvObject *o, PyObject *arg)
{
    if (!env_ready(o))
        return NULL;
    Py_buffer view;
    Py_ssize_t n = get_array(arg, &view, 2, 1, "hist");
    if (n < 0)
        return NULL;
    if (n < o->b64[C_MOVES]) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "the new history is shorter than the moves played");
        return NULL;
    }
    PyBuffer_Release(&o->views[4]);
    o->views[4] = view;
    o->hist = view.buf;
    o->hist_len = n;
    Py_RETURN_NONE;
}

/* deal(seed): the deal of cardtable's deal number seed in b8[0]. */
static PyObject *Env_deal(EnvObject *o, PyObject *arg)
{
    if (!env_ready(o))
        return NULL;
    uint64_t seed = PyLong_AsUnsignedLongLong(arg);
    if (seed == (uint64_t)-1 && PyErr_Occurred())
        return NULL;
    int8_t *deck = o->b8 + B8_ROW + DECK;
    shuffle_deck(seed, deck);
    memset(o->b8, 0, B8_ROW);
    deal_state(deck, o->b8);
    Py_RETURN_NONE;
}

/* reset() -> status: start an episode from the state in b8[0] (counters set). */
static PyObject *Env_reset(EnvObject *o, PyObject *Py_UNUSED(ignored))
{
    if (!env_ready(o))
        return NULL;
    const state_t *s = o->b8;
    int64_t *ctl = o->b64;
    ctl[C_FOUND] = env_found(s);
    ctl[C_BEST] = ctl[C_FOUND];
    ctl[C_FEWEST] = env_down(s);
    int legal = env_look(o);
    env_write_key(o);
    int status = ctl[C_FOUND] == 52 ? E_WON : legal == 0 ? E_NO_MOVES : E_RUNNING;
    return PyLong_FromLong(status);
}

static int env_step(EnvObject *o, Py_ssize_t action, double *reward)
{
    state_t *s = o->b8;
    int64_t *ctl = o->b64;
    int legal = action >= 0 && action < ACTIONS && o->b8[B8_ROW + action] != 0;
    *reward = 0.0;
    if (!legal && ctl[C_RAISE] != 0)
        return E_ILLEGAL;
    ctl[C_STEPS]++;
    int before = env_found(s), stopped = 0;
    if (legal) {
        if (action == STOP) {
            stopped = 1;
        } else {
            apply_move(s, o->b32[2 * MAX_MOVES + action], o->b64 + 2 * WIDTH);
            if (action == RECYCLE_ACTION)
                ctl[C_PASS]++;
            int64_t moves = ctl[C_MOVES];
            o->hist[moves] = (int16_t)action;
            ctl[C_MOVES] = moves + 1;
        }
    }
    int after = env_found(s);
    ctl[C_FOUND] = after;
    int64_t kind = ctl[C_REWARD];
    if (kind == 0) {
        *reward = (double)(after - before);
    } else if (kind == 1) {
        *reward = after == 52 && before < 52 ? 1.0 : 0.0;
    } else {
        int64_t money = o->b64[4 * WIDTH + after];
        *reward = (double)(money - ctl[C_BANKED]);
        ctl[C_BANKED] = money;
    }
    int count = env_look(o);
    if (after == 52) /* won, even where kings could come back from the foundations */
        return E_WON;
    if (count == 0)
        return E_NO_MOVES;
    if (stopped)
        return E_STOPPED;
    int down = env_down(s);
    if (after > ctl[C_BEST] || down < ctl[C_FEWEST]) {
        ctl[C_BEST] = max64(after, ctl[C_BEST]);
        ctl[C_FEWEST] = min64(down, ctl[C_FEWEST]);
        ctl[C_STALL] = 0;
        ctl[C_PROGRESS] = 1;
    } else {
        ctl[C_STALL]++;
        ctl[C_PROGRESS] = 0;
        if (ctl[C_STALL_LIMIT] != 0 && ctl[C_STALL] >= ctl[C_STALL_LIMIT])
            return E_STALLED;
    }
    if (ctl[C_REPEAT] != 0) {
        env_write_key(o);
        return E_CLOCK;
    }
    if (ctl[C_STEPS] >= ctl[C_MAX_STEPS])
        return E_MAX_STEPS;
    if (ctl[C_MOVES] == o->hist_len)
        return E_GROW;
    return E_RUNNING;
}

/* step(action) -> (status, reward); action -1 for one out of range. */
static PyObject *Env_step(EnvObject *o, PyObject *arg)
{
    Py_ssize_t action = PyLong_AsSsize_t(arg);
    if (action == -1 && PyErr_Occurred())
        return NULL;
    if (!env_ready(o))
        return NULL;
    if (o->b64[C_MOVES] >= o->hist_len) {
        PyErr_SetString(PyExc_RuntimeError, "the move history is full: give a longer one with set_history");
        return NULL;
    }
    double reward;
    int status = env_step(o, action, &reward);
    return Py_BuildValue("(id)", status, reward);
}

static PyMethodDef Env_methods[] = {
    {"deal", (PyCFunction)Env_deal, METH_O, "deal(seed): the deal of deal number seed as the state in b8[0]."},
    {"reset", (PyCFunction)Env_reset, METH_NOARGS,
     "reset() -> status: start an episode from b8[0] (mask, observation, key)."},
    {"step", (PyCFunction)Env_step, METH_O, "step(action) -> (status, reward): take one action (-1: out of range)."},
    {"set_history", (PyCFunction)Env_set_history, METH_O, "set_history(hist): a longer move history."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject EnvType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "cardtable.solver._ccore.EnvCore",
    .tp_doc = PyDoc_STR("EnvCore(b8, obs, b32, b64, hist): the compiled step of cardtable/Klondike-v0 over "
                        "these arrays (see cardtable/envs/_fast.py)."),
    .tp_basicsize = sizeof(EnvObject),
    .tp_itemsize = 0,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Env_init,
    .tp_dealloc = (destructor)Env_dealloc,
    .tp_methods = Env_methods,
};

/* ---- the rules, one call each (for the tests and the solver's replay) ------ */

static PyObject *state_result(const state_t *s)
{
    return PyBytes_FromStringAndSize((const char *)s, STATE_SIZE);
}

static PyObject *py_apply_move(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *state_obj, *params;
    long code;
    if (!PyArg_ParseTuple(args, "OlO", &state_obj, &code, &params))
        return NULL;
    state_t s[STATE_SIZE];
    int64_t v[V_SIZE];
    if (read_state(state_obj, s) < 0 || read_params(params, v) < 0)
        return NULL;
    apply_move(s, (int32_t)code, v);
    return state_result(s);
}

static PyObject *py_autoplay(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *state_obj, *params;
    if (!PyArg_ParseTuple(args, "OO", &state_obj, &params))
        return NULL;
    state_t s[STATE_SIZE];
    int64_t v[V_SIZE];
    int16_t log[64];
    if (read_state(state_obj, s) < 0 || read_params(params, v) < 0)
        return NULL;
    int end = autoplay(s, v, log, 0);
    PyObject *marks = PyList_New(end);
    if (!marks)
        return NULL;
    for (int k = 0; k < end; k++)
        PyList_SET_ITEM(marks, k, PyLong_FromLong(log[k]));
    return Py_BuildValue("(NN)", state_result(s), marks);
}

static PyObject *py_trivially_won(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *state_obj, *params;
    if (!PyArg_ParseTuple(args, "OO", &state_obj, &params))
        return NULL;
    state_t s[STATE_SIZE];
    int64_t v[V_SIZE];
    if (read_state(state_obj, s) < 0 || read_params(params, v) < 0)
        return NULL;
    return PyBool_FromLong(trivially_won(s, v));
}

static PyObject *py_deal(PyObject *Py_UNUSED(self), PyObject *arg)
{
    uint64_t seed = PyLong_AsUnsignedLongLong(arg);
    if (seed == (uint64_t)-1 && PyErr_Occurred())
        return NULL;
    int8_t deck[52];
    state_t s[STATE_SIZE];
    shuffle_deck(seed, deck);
    deal_state(deck, s);
    return state_result(s);
}

/* ---- module functions: a winning line as the engine's moves ------------- */

/* A line of search move codes, written out as the engine's own moves: the
 * plain codes of generate(..., plain) (draw and recycle are codes with source 8
 * and target 8), each checked against the plain moves of the state it is
 * played in and played there, so that a move the rules do not allow is never
 * written. */
typedef struct {
    state_t s[STATE_SIZE];
    const int64_t *v;
    int32_t *out;
    Py_ssize_t n, cap;
    const char *bad; /* why the line stopped, or NULL */
    int no_memory;
    /* each position of the line, exactly (line_position): the one it starts
     * from, then the one after each plain move; for line_cut_loops */
    uint8_t *seen;
    Py_ssize_t nseen, capseen;
} Line;

/* The bytes a position is, in LINE_SLOT bytes: each pile's face-down count,
 * length and cards, the talon's length, cards and waste mark, the
 * foundations and the pass, none of the array's unused slots. */
enum { LINE_SLOT = NPILES * (2 + PILE_CAP) + 2 + 52 + 4 + 4 };

/* Room in *buf (*cap items of `each` bytes) for item `n`: doubled from 256
 * when full; 0, with the line stopped for want of memory, when it cannot be. */
static int line_room(Line *l, void **buf, Py_ssize_t *cap, Py_ssize_t n, size_t each)
{
    if (n < *cap) return 1;
    Py_ssize_t want = *cap ? 2 * *cap : 256;
    void *grown = PyMem_Realloc(*buf, (size_t)want * each);
    if (!grown) {
        l->bad = "no memory";
        l->no_memory = 1;
        return 0;
    }
    *buf = grown;
    *cap = want;
    return 1;
}

static int line_position(Line *l)
{
    if (!line_room(l, (void **)&l->seen, &l->capseen, l->nseen, LINE_SLOT)) return 0;
    const state_t *s = l->s;
    uint8_t *o = l->seen + l->nseen++ * LINE_SLOT;
    memset(o, 0, LINE_SLOT);
    int k = 0;
    for (int i = 0; i < NPILES; i++) {
        o[k++] = (uint8_t)s[DOWN + i];
        o[k++] = (uint8_t)s[LEN + i];
        memcpy(o + k, s + PILE_CAP * i, (size_t)s[LEN + i]);
        k += PILE_CAP;
    }
    o[k++] = (uint8_t)s[TLEN];
    o[k++] = (uint8_t)s[WP];
    memcpy(o + k, s + TALON, (size_t)s[TLEN]);
    k += 52;
    memcpy(o + k, s + FOUND, 8); /* the foundations and the pass */
    return 1;
}

/* The line with its loops cut out: where it comes back to a position it was
 * in, exactly, the moves in between are left out (from each position, the
 * line goes on from its last visit). Every move is still made from the
 * position it was made from before, and the line ends in the same won
 * position. A search's table keeps it from meeting a state twice, but its
 * moves are compound (a talon card reached by draws, a foundation card
 * brought down to take a card and sent home again), and the plain moves
 * they are written out as pass through positions that are not states:
 * with foundation cards coming back, deal 1 went on from one position by a
 * draw, the waste's card onto pile 7, a foundation card onto it, and the
 * same card home, where the draw alone did as much. */
static void line_cut_loops(Line *l)
{
    Py_ssize_t n = l->n, kept = 0;
    if (l->nseen != n + 1) return; /* a position not recorded: the line stays as it is */
    for (Py_ssize_t i = 0; i < n;) {
        Py_ssize_t last = i;
        for (Py_ssize_t j = n; j > i; j--)
            if (!memcmp(l->seen + j * LINE_SLOT, l->seen + i * LINE_SLOT, LINE_SLOT)) {
                last = j;
                break;
            }
        if (last == n) break;
        l->out[kept++] = l->out[last];
        i = last + 1;
    }
    l->n = kept;
}

/* The plain codes of the draw and the recycle (see talon_step). */
enum { PLAIN_DRAW = 8 | (SRC_TALON << 4) | (1 << 8), PLAIN_RECYCLE = SRC_TALON | (8 << 4) | (1 << 8) };

static int line_emit(Line *l, int32_t code)
{
    int32_t mv[MAX_MOVES], pr[MAX_MOVES];
    int legal = 0;
    if (code == PLAIN_DRAW || code == PLAIN_RECYCLE) { /* generate's own talon move, without the rest */
        legal = talon_step(l->s, l->v[V_PASSES]) == code;
    } else {
        int k = generate(l->s, l->v, mv, pr, 1);
        for (int a = 0; a < k && !legal; a++)
            legal = mv[a] == code;
    }
    if (!legal) {
        l->bad = "a move the rules do not allow";
        return 0;
    }
    if (!line_room(l, (void **)&l->out, &l->cap, l->n, sizeof(int32_t))) return 0;
    l->out[l->n++] = code;
    apply_move(l->s, code, l->v);
    return line_position(l);
}

/* Draw until card is the waste top: for a safe move, recycling whenever the
 * stock runs out (recycle < 0); for a search move, never, or (recycle > 0)
 * once, after drawing to the end, as the move code says. */
static int line_draw_to(Line *l, int card, int recycle)
{
    int recycle_first = recycle > 0;
    state_t *s = l->s;
    if (recycle_first) {
        while (s[WP] < s[TLEN])
            if (!line_emit(l, PLAIN_DRAW))
                return 0;
        if (!line_emit(l, PLAIN_RECYCLE))
            return 0;
    }
    for (int step = 0; step < 3 * 52 + 3; step++) {
        if (s[WP] > 0 && s[TALON + s[WP] - 1] == card)
            return 1;
        if (s[WP] == s[TLEN] && recycle >= 0)
            break;
        if (!line_emit(l, s[WP] < s[TLEN] ? PLAIN_DRAW : PLAIN_RECYCLE))
            return 0;
    }
    l->bad = "a talon card that never reaches the waste top";
    return 0;
}

static int line_to_foundation(Line *l, int pile)
{
    int n = l->s[LEN + pile];
    return line_emit(l, pack(pile, LOC_FOUNDATION, 1, l->s[PILE_CAP * pile + n - 1], 0));
}

/* The safe moves the searches play after a move, logged on a copy of the
 * state, as the engine plays them: a talon card drawn to first. */
static int line_safe(Line *l)
{
    state_t copy[STATE_SIZE];
    int16_t log[64];
    memcpy(copy, l->s, STATE_SIZE);
    int end = autoplay(copy, l->v, log, 0);
    for (int k = 0; k < end; k++) {
        if (log[k] >= TALON_MARK) {
            int card = log[k] - TALON_MARK;
            if (!line_draw_to(l, card, -1) || !line_emit(l, pack(SRC_TALON, LOC_FOUNDATION, 1, card, 0)))
                return 0;
        } else if (!line_to_foundation(l, log[k])) {
            return 0;
        }
    }
    return 1;
}

/* The top count cards of pile src onto pile dst, then (home) the card they
 * uncovered to its foundation. */
static int line_run(Line *l, int src, int dst, int count, int home)
{
    state_t *s = l->s;
    if (src >= NPILES || count == 0 || count > s[LEN + src]) {
        l->bad = "a move of no cards";
        return 0;
    }
    if (!line_emit(l, pack(src, dst, count, s[PILE_CAP * src + s[LEN + src] - count], 0)))
        return 0;
    return !home || line_to_foundation(l, src);
}

/* One search move code: the pile a fill move empties first, then the move
 * (a talon move drawn to), then the card a move with HOME_FLAG uncovers. */
static int line_code(Line *l, int32_t code)
{
    state_t *s = l->s;
    int src = code & 15, dst = (code >> 4) & 15, count = (code >> 8) & 63, card = (code >> 14) & 63;
    if (code & FILL_FLAG) {
        int j = (code >> FILL_SHIFT) & 7;
        if (dst >= NPILES || s[LEN + dst] == 0) {
            l->bad = "a fill move of no pile";
            return 0;
        }
        if (!line_emit(l, pack(dst, j, s[LEN + dst], s[PILE_CAP * dst], 0)))
            return 0;
    }
    if (src == SRC_TALON) {
        if (!line_draw_to(l, card, (code >> 20) & 1) || !line_emit(l, pack(SRC_TALON, dst, 1, card, 0)))
            return 0;
        if (!(code & PAIR_FLAG))
            return 1;
        int b = (code >> FILL_SHIFT) & 7; /* then the builder, onto the card */
        if (b == PAIR_FOUNDATION) {
            int suit = (code >> PAIR_SUIT_SHIFT) & 3;
            if (s[FOUND + suit] == 0) {
                l->bad = "a move of no cards";
                return 0;
            }
            return line_emit(l, pack(LOC_FOUNDATION, dst, 1, suit * 13 + s[FOUND + suit] - 1, 0));
        }
        return line_run(l, b, dst, count, code & HOME_FLAG);
    }
    if (src == LOC_FOUNDATION || dst == LOC_FOUNDATION)
        return line_emit(l, pack(src, dst, 1, card, 0));
    return line_run(l, src, dst, count, code & HOME_FLAG);
}

/* A trivially won end (no face-down card, every talon card at hand), played
 * out: the lowest card left each time, a pile top or a talon card (the first
 * of the lowest rank among the piles, bottom to top; a talon card only when
 * lower, the first in stock-then-waste order). */
static int line_finish(Line *l)
{
    state_t *s = l->s;
    for (int guard = 0; guard < 52 && trivially_won(s, l->v); guard++) {
        if (s[FOUND] + s[FOUND + 1] + s[FOUND + 2] + s[FOUND + 3] == 52)
            return 1;
        int pile = -1, low = 14, tcard = -1;
        for (int i = 0; i < NPILES; i++)
            for (int k = 0; k < s[LEN + i]; k++)
                if (RANK[s[PILE_CAP * i + k]] < low) {
                    low = RANK[s[PILE_CAP * i + k]];
                    pile = i;
                }
        int tlow = 14;
        for (int k = s[TLEN] - 1; k >= s[WP]; k--) /* the stock, bottom to top */
            if (RANK[s[TALON + k]] < tlow) {
                tlow = RANK[s[TALON + k]];
                tcard = s[TALON + k];
            }
        for (int k = 0; k < s[WP]; k++) /* the waste, bottom to top */
            if (RANK[s[TALON + k]] < tlow) {
                tlow = RANK[s[TALON + k]];
                tcard = s[TALON + k];
            }
        if (tcard >= 0 && tlow < low) {
            if (!line_draw_to(l, tcard, -1) || !line_emit(l, pack(SRC_TALON, LOC_FOUNDATION, 1, tcard, 0)))
                return 0;
        } else if (pile < 0) {
            break;
        } else if (!line_to_foundation(l, pile)) {
            return 0;
        }
    }
    l->bad = "an end that is not won";
    return 0;
}

static PyObject *py_line_moves(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *state_obj, *codes_obj, *params;
    if (!PyArg_ParseTuple(args, "OOO", &state_obj, &codes_obj, &params))
        return NULL;
    int64_t v[V_SIZE];
    Line l = {.v = v};
    if (read_state(state_obj, l.s) < 0 || read_params(params, v) < 0)
        return NULL;
    PyObject *fast = PySequence_Fast(codes_obj, "the codes must be a sequence of integers");
    if (!fast)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast), at = -1;
    int ok = line_position(&l) && line_safe(&l);
    for (Py_ssize_t i = 0; ok && i < n; i++) {
        long code = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (code == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            PyMem_Free(l.out);
            PyMem_Free(l.seen);
            return NULL;
        }
        at = i;
        ok = line_code(&l, (int32_t)code) && line_safe(&l);
    }
    Py_DECREF(fast);
    if (ok) {
        at = n;
        ok = line_finish(&l);
    }
    if (ok) line_cut_loops(&l);
    PyMem_Free(l.seen);
    PyObject *out = PyList_New(l.n);
    if (out)
        for (Py_ssize_t k = 0; k < l.n; k++)
            PyList_SET_ITEM(out, k, PyLong_FromLong(l.out[k]));
    PyMem_Free(l.out);
    if (!out || l.no_memory) {
        Py_XDECREF(out);
        return out ? PyErr_NoMemory() : NULL;
    }
    if (ok)
        return Py_BuildValue("(Nsn)", out, "", (Py_ssize_t)-1);
    return Py_BuildValue("(Nsn)", out, l.bad, at);
}

static PyObject *py_generate(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *state_obj, *params;
    int plain;
    if (!PyArg_ParseTuple(args, "OOp", &state_obj, &params, &plain))
        return NULL;
    state_t s[STATE_SIZE];
    int64_t v[V_SIZE];
    int32_t mv[MAX_MOVES], pr[MAX_MOVES];
    if (read_state(state_obj, s) < 0 || read_params(params, v) < 0)
        return NULL;
    int n = generate(s, v, mv, pr, plain);
    if (!plain && v[V_ORDER] == 1) /* the priorities the reveal-first search sorts by */
        reveal_first(s, mv, pr, n);
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

/* path_prune(parent, state, codes, at, params) -> [code, ...]: the moves of state (generate's, not plain) that
 * the path rules keep when state was made from parent by codes[at], parent's moves tried in the order codes. */
static PyObject *py_path_prune(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *parent_obj, *state_obj, *codes_obj, *params;
    int at;
    if (!PyArg_ParseTuple(args, "OOOiO", &parent_obj, &state_obj, &codes_obj, &at, &params))
        return NULL;
    state_t p[STATE_SIZE], s[STATE_SIZE];
    int64_t v[V_SIZE];
    int32_t list[MAX_MOVES], mv[MAX_MOVES], pr[MAX_MOVES];
    if (read_state(parent_obj, p) < 0 || read_state(state_obj, s) < 0 || read_params(params, v) < 0)
        return NULL;
    PyObject *fast = PySequence_Fast(codes_obj, "the parent's moves must be a sequence of move codes");
    if (!fast)
        return NULL;
    Py_ssize_t nlist = PySequence_Fast_GET_SIZE(fast);
    if (nlist > MAX_MOVES || at < 0 || at >= nlist) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "at must index the parent's moves (at most MAX_MOVES of them)");
        return NULL;
    }
    for (Py_ssize_t k = 0; k < nlist; k++) {
        long code = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, k));
        if (code == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return NULL;
        }
        list[k] = (int32_t)code;
    }
    Py_DECREF(fast);
    int n = generate(s, v, mv, pr, 0);
    Glimpse seen = {top_cards(s), ALL_CARDS, 0};
    n = path_prune(p, s, &seen, list[at], list, (int)nlist, at, mv, NULL, n, v);
    PyObject *out = PyList_New(n);
    if (!out)
        return NULL;
    for (int k = 0; k < n; k++) {
        PyObject *code = PyLong_FromLong(mv[k]);
        if (!code) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, k, code);
    }
    return out;
}

/* priority_choice(state, params, memory) -> (code, memory after it): one move of the priority strategy. */
static PyObject *py_priority_choice(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *state_obj, *params;
    int memory;
    if (!PyArg_ParseTuple(args, "OOi", &state_obj, &params, &memory))
        return NULL;
    state_t s[STATE_SIZE];
    int64_t v[V_SIZE];
    if (read_state(state_obj, s) < 0 || read_params(params, v) < 0)
        return NULL;
    int32_t code = priority_choose(s, v, memory);
    return Py_BuildValue("(ii)", (int)code, code < 0 ? memory : priority_remember(memory, code));
}

static PyMethodDef module_methods[] = {
    {"apply_move", py_apply_move, METH_VARARGS,
     "apply_move(state, code, params) -> state: play a move code (no legality checks)."},
    {"autoplay", py_autoplay, METH_VARARGS,
     "autoplay(state, params) -> (state, marks): play the safe foundation moves the searches play."},
    {"trivially_won", py_trivially_won, METH_VARARGS,
     "trivially_won(state, params) -> bool: no face-down card left and every talon card reachable at will."},
    {"deal", py_deal, METH_O, "deal(seed) -> state: the deal of deal number seed."},
    {"priority", py_priority, METH_VARARGS,
     "priority(games, by_seed, params, foundation, moves, codes): play seeds (uint64) or deals (52 int8 each) by "
     "the priority bot under the variant params; codes is None or 256 int32 a game."},
    {"priority_choice", py_priority_choice, METH_VARARGS,
     "priority_choice(state, params, memory) -> (code, memory): the priority strategy's move in a state of any "
     "variant (a plain move code, -1: it stops) and its memory after the move (0 at a game's start)."},
    {"deals_from_seeds", py_deals_from_seeds, METH_VARARGS,
     "deals_from_seeds(seeds, out): the shuffled deck of each seed (uint64) as 52 int8 card indices."},
    {"first_invalid_deal", py_first_invalid_deal, METH_O,
     "first_invalid_deal(deals) -> int: the first row that is not a permutation of 0..51, or -1."},
    {"line_moves", py_line_moves, METH_VARARGS,
     "line_moves(state, codes, params) -> (plain codes, why, at): a winning line of search codes as the "
     "engine's moves, each checked against the rules; why is '' or why it stopped at code at (len(codes): the "
     "end)."},
    {"generate", py_generate, METH_VARARGS,
     "generate(state, params, plain) -> [(code, priority), ...]: the moves of a state, unsorted (the "
     "priorities of the reveal-first order when params asks for it and plain is false)."},
    {"path_prune", py_path_prune, METH_VARARGS,
     "path_prune(parent, state, codes, at, params) -> [code, ...]: the moves of state (generate's, not plain) "
     "that the path rules keep when state was made from parent by codes[at], parent's moves tried in the order "
     "codes."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "cardtable.solver._ccore",
    "The compiled depth-first search core (see cardtable/solver/_ccore.c).", -1, module_methods,
    NULL, NULL, NULL, NULL,
};

/* dict[name] = value; 0 on an error. */
static int add_int(PyObject *dict, const char *name, long value)
{
    PyObject *number = PyLong_FromLong(value);
    int ok = number != NULL && PyDict_SetItemString(dict, name, number) == 0;
    Py_XDECREF(number);
    return ok;
}

PyMODINIT_FUNC PyInit__ccore(void)
{
    init_tables();
    if (PyType_Ready(&SearchType) < 0 || PyType_Ready(&BestType) < 0 || PyType_Ready(&EnvType) < 0)
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
    Py_INCREF(&BestType);
    if (PyModule_AddObject(m, "BestSearch", (PyObject *)&BestType) < 0) {
        Py_DECREF(&BestType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&EnvType);
    if (PyModule_AddObject(m, "EnvCore", (PyObject *)&EnvType) < 0) {
        Py_DECREF(&EnvType);
        Py_DECREF(m);
        return NULL;
    }
    /* The environment's numbers as this module was compiled with them (env_layout.h), for the test that
     * they are their source's. */
    PyObject *layout = PyDict_New();
    int ok = layout != NULL;
#define ENV_LAYOUT_ENTRY(name) ok = ok && add_int(layout, #name, name);
    ENV_LAYOUT_NAMES(ENV_LAYOUT_ENTRY)
#undef ENV_LAYOUT_ENTRY
    if (!ok)
        Py_CLEAR(layout);
    if (!layout || PyModule_AddObject(m, "ENV_LAYOUT", layout) < 0) {
        Py_XDECREF(layout);
        Py_DECREF(m);
        return NULL;
    }
    PyModule_AddIntConstant(m, "PRIORITY_MAX_MOVES", PRIORITY_MAX_MOVES);
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
