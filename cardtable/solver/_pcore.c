/*
 * The compiled search over any patience description (cardtable.solver._pcore).
 *
 * ``Core(rules, piles, down, pass_number, redeals_used, shuffle_seed)`` holds
 * one position of a game whose rules Python compiled into a blob
 * (cardtable/solver/patience.py); the rules themselves, the move generator,
 * make/undo and the canonical key are in patience.h, with the soundness
 * notes of the safe moves and of the symmetry the key uses.
 *
 * ``Core.solve(max_states, seconds, search=2, first_states=-1)`` searches
 * from the position. Where every card is open and cells hold cards
 * (FreeCell's family) the hybrid's default begins with quick depth-first
 * scans (``quick_stage``) before it. After every move it first plays the safe moves to the
 * foundations (patience.h), then looks the state up in a transposition table
 * of exact canonical keys (the key bytes themselves are kept and compared,
 * so two states never share an entry by accident). The best-first search
 * keeps each new state as a node and expands the open state that
 * ``evaluate`` likes best; the depth-first search tries each state's moves in
 * the order of the positions they lead to (``evaluate``, then ``priority``);
 * the hybrid (the default) goes depth first for part of the budget, then
 * hands its table and stack to the best-first search; where every move takes
 * a top card to the hole (Black Hole, Golf) the default is the lengths search
 * instead, depth first over the piles' lengths. Each one tries every
 * move of every state it reaches before it says "unwinnable", so that
 * verdict is a proof, given that the generator is the engine's (the
 * differential tests); the heuristics only decide what is tried first. The
 * position is restored before ``solve``
 * returns.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "patience.h"

/* ---- the transposition table: exact keys in an arena --------------------- */

/* Each entry of the arena is a record: the key's length (one byte, or 255
 * and two more; nothing when every key has the same length, fixed), the
 * key, then what the search keeps with it (nothing for the depth-first
 * search; a best-first node's parent and move). A slot of the
 * open-addressing table is a record's offset plus one (`width` bytes: 4 when
 * the search's budget bounds the arena below 4 GiB, else 5) and 8 bits of
 * its key's hash, so that nearly every probe that misses never reads the
 * arena; 0 is an empty slot. */
typedef struct {
    uint8_t *slots;
    size_t mask, count;
    uint8_t *arena;
    size_t used, cap;
    int fixed;  /* the length of every key, or 0 */
    int width;  /* the bytes of an offset: 4 or 5 */
} PTable;

#define P_OFFSET_MASK ((1ULL << 40) - 1)

static uint64_t p_hash(const uint8_t *k, int n)
{
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ (uint64_t)n;
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, k + i, 8);
        h = (h ^ w) * 0xBF58476D1CE4E5B9ULL;
        h ^= h >> 29;
    }
    uint64_t w = 0;
    memcpy(&w, k + i, (size_t)(n - i));
    h = (h ^ w) * 0x94D049BB133111EBULL;
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ULL;
    return h ^ (h >> 32);
}

static void table_free(PTable *t)
{
    free(t->slots);
    free(t->arena);
    memset(t, 0, sizeof *t);
}

/* The slots' bytes: `width` + 1 each, and 3 more so that any slot reads as
 * 8 bytes. */
static inline size_t slot_bytes(const PTable *t, size_t count) { return count * (size_t)(t->width + 1) + 3; }

static inline uint64_t slot_get(const PTable *t, const uint8_t *slots, size_t j)
{
    uint64_t v;
    memcpy(&v, slots + j * (size_t)(t->width + 1), 8);
    return t->width == 4 ? v & 0xFFFFFFFFFFULL : v & 0xFFFFFFFFFFFFULL;
}

static inline void slot_set(const PTable *t, uint8_t *slots, size_t j, uint64_t v)
{
    memcpy(slots + j * (size_t)(t->width + 1), &v, (size_t)t->width + 1);  /* little-endian */
}

static inline uint64_t slot_offset(const PTable *t, uint64_t v)
{
    return (v & ((1ULL << (8 * t->width)) - 1)) - 1;
}

static int table_init(PTable *t, int bits, int width)
{
    memset(t, 0, sizeof *t);
    t->width = width;
    t->slots = calloc(slot_bytes(t, (size_t)1 << bits), 1);
    if (!t->slots) return -1;
    t->mask = ((size_t)1 << bits) - 1;
    return 0;
}

/* The key of the record at offset `at`, its length in *n. */
static inline const uint8_t *record_key(const PTable *t, uint64_t at, int *n)
{
    const uint8_t *e = t->arena + at;
    if (t->fixed) { *n = t->fixed; return e; }
    if (e[0] < 255) { *n = e[0]; return e + 1; }
    *n = e[1] | e[2] << 8;
    return e + 3;
}

#ifndef GROW_AHEAD
#define GROW_AHEAD 16
#endif
static int table_grow(PTable *t)
{
    size_t size = (t->mask + 1) * 2;
    uint8_t *slots = calloc(slot_bytes(t, size), 1);
    if (!slots) return -1;
    for (size_t i = 0; i <= t->mask; i++) {
        /* each key is read again from its record, scattered over the arena:
         * fetched some slots ahead, so that the reads overlap */
        if (i + GROW_AHEAD <= t->mask) {
            uint64_t w = slot_get(t, t->slots, i + GROW_AHEAD);
            if (w) __builtin_prefetch(t->arena + slot_offset(t, w));
        }
        uint64_t v = slot_get(t, t->slots, i);
        if (!v) continue;
        int n;
        const uint8_t *k = record_key(t, slot_offset(t, v), &n);
        size_t j = p_hash(k, n) & (size - 1);
        while (slot_get(t, slots, j)) j = (j + 1) & (size - 1);
        slot_set(t, slots, j, v);
    }
    free(t->slots);
    t->slots = slots;
    t->mask = size - 1;
    return 0;
}

/* The slot of `key` (hash h) in the table: *found 1 when it is there, else
 * 0 and the empty slot it would take. */
static size_t table_probe(const PTable *t, const uint8_t *key, int n, uint64_t h, int *found)
{
    uint64_t tag = h >> 56;
    int shift = 8 * t->width;
    size_t j = h & t->mask;
    *found = 0;
    for (;;) {
        uint64_t v = slot_get(t, t->slots, j);
        if (!v) return j;
        if ((v >> shift) == tag) {
            int m;
            const uint8_t *k = record_key(t, slot_offset(t, v), &m);
            if (m == n && !memcmp(k, key, (size_t)n)) { *found = 1; return j; }
        }
        j = (j + 1) & t->mask;
    }
}

/* Whether `key` is in the table. */
static int table_has(const PTable *t, const uint8_t *key, int n)
{
    int found;
    table_probe(t, key, n, p_hash(key, n), &found);
    return found;
}

/* Put `key` (hash h), not in the table, into the empty slot j that
 * table_probe gave for it, its record followed by the `nextra` bytes of
 * `extra` and its offset in *at: 1, or -1 (out of memory). */
static int table_put(PTable *t, const uint8_t *key, int n, uint64_t h, size_t j, const uint8_t *extra,
                     size_t nextra, uint64_t *at)
{
    uint64_t tag = h >> 56;
    int shift = 8 * t->width;
    size_t head = t->fixed ? 0 : n < 255 ? 1 : 3, need = t->used + head + (size_t)n + nextra;
    if (need >= (1ULL << shift) - 1) return -1;
    if (need > t->cap) {  /* by an eighth: a large block grows in place (mremap) */
        size_t cap = t->cap ? t->cap + t->cap / 8 : (size_t)1 << 20;
        while (cap < need) cap += cap / 8;
        uint8_t *a = realloc(t->arena, cap);
        if (!a) return -1;
        t->arena = a;
        t->cap = cap;
    }
    uint8_t *e = t->arena + t->used;
    if (head == 1) {
        e[0] = (uint8_t)n;
    } else if (head == 3) {
        e[0] = 255;
        e[1] = (uint8_t)(n & 0xFF);
        e[2] = (uint8_t)(n >> 8);
    }
    memcpy(e + head, key, (size_t)n);
    if (nextra) memcpy(e + head + n, extra, nextra);
    *at = t->used;
    slot_set(t, t->slots, j, (uint64_t)(t->used + 1) | tag << shift);
    t->used = need;
    t->count++;
    if (t->count * 4 >= (t->mask + 1) * 3 && table_grow(t)) return -1;
    return 1;
}

/* 1: a new key, now stored with the `nextra` bytes of `extra` after it, its
 * record's offset in *at; 0: seen before; -1: out of memory. */
static int table_add(PTable *t, const uint8_t *key, int n, const uint8_t *extra, size_t nextra, uint64_t *at)
{
    uint64_t h = p_hash(key, n);
    int found;
    size_t j = table_probe(t, key, n, h, &found);
    return found ? 0 : table_put(t, key, n, h, j, extra, nextra, at);
}

/* ---- the Python object ------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    PRules rules;
    PState state;
    PState *start;  /* the position it was made with (no undo log) */
    int ready;
} CoreObject;

static void Core_dealloc(CoreObject *o)
{
    p_state_free(&o->state);
    free(o->start);
    Py_TYPE(o)->tp_free((PyObject *)o);
}

static int Core_init(CoreObject *o, PyObject *args, PyObject *kw)
{
    static char *names[] = {"rules", "piles", "down", "pass_number", "redeals_used", "shuffle_seed", NULL};
    Py_buffer rules, down;
    PyObject *piles;
    int pass_number, redeals_used;
    unsigned long long seed;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "y*Oy*iiK", names, &rules, &piles, &down, &pass_number,
                                     &redeals_used, &seed))
        return -1;
    int rc = -1;
    const char *err = p_rules_load(&o->rules, rules.buf, (size_t)rules.len);
    PyObject *seq = NULL;
    if (err) {
        PyErr_SetString(PyExc_ValueError, err);
        goto done;
    }
    seq = PySequence_Fast(piles, "piles: a sequence of bytes");
    if (!seq) goto done;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n != o->rules.npiles || down.len != n) {
        PyErr_Format(PyExc_ValueError, "the rules have %d piles, not %zd (down: %zd)", o->rules.npiles, n, down.len);
        goto done;
    }
    p_state_free(&o->state);
    memset(&o->state, 0, sizeof o->state);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        char *buf;
        Py_ssize_t len;
        if (PyBytes_AsStringAndSize(item, &buf, &len) < 0) goto done;
        if (len > P_CAP) {
            PyErr_Format(PyExc_ValueError, "pile %zd holds %zd cards, at most %d", i, len, P_CAP);
            goto done;
        }
        for (Py_ssize_t j = 0; j < len; j++)
            if ((uint8_t)buf[j] >= 52) {
                PyErr_Format(PyExc_ValueError, "pile %zd: card index %d", i, (uint8_t)buf[j]);
                goto done;
            }
        memcpy(o->state.cards[i], buf, (size_t)len);
        o->state.len[i] = (uint8_t)len;
        o->state.down[i] = ((uint8_t *)down.buf)[i];
        if (o->state.down[i] > len) {
            PyErr_Format(PyExc_ValueError, "pile %zd: %d face down of %zd", i, o->state.down[i], len);
            goto done;
        }
    }
    o->state.pass_number = pass_number;
    o->state.redeals_used = redeals_used;
    o->state.shuffle_seed = seed;
    p_rules_fit(&o->rules, &o->state);
    if (!o->start && !(o->start = calloc(1, sizeof *o->start))) {
        PyErr_NoMemory();
        goto done;
    }
    p_copy_position(&o->rules, o->start, &o->state);
    o->ready = 1;
    rc = 0;
done:
    Py_XDECREF(seq);
    PyBuffer_Release(&rules);
    PyBuffer_Release(&down);
    return rc;
}

static int ready(CoreObject *o)
{
    if (!o->ready) PyErr_SetString(PyExc_RuntimeError, "Core was not initialised");
    return o->ready;
}

static uint32_t *move_buffer(void)
{
    static _Thread_local uint32_t buf[P_MAXMOVES];
    return buf;
}

static PyObject *Core_legal_moves(CoreObject *o, PyObject *unused)
{
    if (!ready(o)) return NULL;
    uint32_t *buf = move_buffer();
    int n = p_moves(&o->rules, &o->state, buf);
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) PyList_SET_ITEM(list, i, PyLong_FromUnsignedLong(buf[i]));
    return list;
}

static PyObject *Core_play(CoreObject *o, PyObject *arg)
{
    if (!ready(o)) return NULL;
    unsigned long code = PyLong_AsUnsignedLong(arg);
    if (PyErr_Occurred()) return NULL;
    uint32_t *buf = move_buffer();
    int n = p_moves(&o->rules, &o->state, buf), legal = 0;
    for (int i = 0; i < n && !legal; i++) legal = buf[i] == code;
    if (!legal) {
        PyErr_Format(PyExc_ValueError, "move code %lu is not legal here", code);
        return NULL;
    }
    int rc = p_play(&o->rules, &o->state, (uint32_t)code);
    if (rc) return rc == -1 ? PyErr_NoMemory() : (PyErr_SetString(PyExc_RuntimeError, "no foundation"), NULL);
    Py_RETURN_NONE;
}

static PyObject *Core_undo(CoreObject *o, PyObject *unused)
{
    if (!ready(o)) return NULL;
    if (!o->state.nmarks) {
        PyErr_SetString(PyExc_ValueError, "nothing to undo");
        return NULL;
    }
    p_undo(&o->rules, &o->state);
    Py_RETURN_NONE;
}

static PyObject *position_tuple(const PRules *r, const PState *s)
{
    PyObject *piles = PyList_New(r->npiles);
    if (!piles) return NULL;
    for (int p = 0; p < r->npiles; p++)
        PyList_SET_ITEM(piles, p, PyBytes_FromStringAndSize((const char *)s->cards[p], s->len[p]));
    PyObject *down = PyBytes_FromStringAndSize((const char *)s->down, r->npiles);
    return Py_BuildValue("(NNii)", piles, down, s->pass_number, s->redeals_used);
}

static PyObject *Core_position(CoreObject *o, PyObject *unused)
{
    if (!ready(o)) return NULL;
    return position_tuple(&o->rules, &o->state);
}

static PyObject *Core_key(CoreObject *o, PyObject *unused)
{
    if (!ready(o)) return NULL;
    static _Thread_local uint8_t key[P_KEYMAX];
    int n = p_key(&o->rules, &o->state, key);
    return PyBytes_FromStringAndSize((const char *)key, n);
}

static PyObject *Core_canonical(CoreObject *o, PyObject *unused)
{
    if (!ready(o)) return NULL;
    static _Thread_local uint8_t key[P_KEYMAX];
    int n = p_key(&o->rules, &o->state, key);
    PState *c = calloc(1, sizeof *c);
    if (!c) return PyErr_NoMemory();
    PyObject *result = NULL;
    if (p_decode(&o->rules, o->start, key, n, NULL, c)) {
        PyErr_SetString(PyExc_RuntimeError, "the key does not name a position");
    } else {
        p_fill_hole(&o->rules, o->start, c);
        PyObject *position = position_tuple(&o->rules, c);
        int m = p_key(&o->rules, c, key);
        if (position) result = Py_BuildValue("(Ny#)", position, (const char *)key, (Py_ssize_t)m);
    }
    free(c);
    return result;
}

static PyObject *Core_is_won(CoreObject *o, PyObject *unused)
{
    if (!ready(o)) return NULL;
    return PyBool_FromLong(p_is_won(&o->rules, &o->state));
}

/* ---- the search ---------------------------------------------------------------- */

/* A safe move to the foundations here (see patience.h), or 0. With
 * r->safe_ok the foundations build up in suit one rank at a time from the
 * base rank (wrapping from King to Ace where the rules wrap), so what lies on
 * them is counted once: home[suit][place], the foundations holding the card
 * of that place from the base (1 for the base rank, 13 for the one below it;
 * a copy each); a card goes home when a foundation of its suit tops at the
 * place below (the base rank: when one is empty), as p_foundation_for finds.
 * No move is safe while no foundation has set the base (Canfield's before the
 * first card home). Where spaces are filled from the reserve and it holds
 * cards, the reserve gives none and a tableau pile only one that leaves a
 * card under it. */
/* The floor (patience.h, returns_floor): the lowest rank every foundation
 * has reached, 0 while one is empty. */
static int p_floor(const PRules *r, const PState *s)
{
    int m = 13, f0 = r->first[K_FOUNDATION];
    for (int i = 0; i < r->count[K_FOUNDATION]; i++)
        if (s->len[f0 + i] < m) m = s->len[f0 + i];
    return m;
}

/* Whether card x, not home, never needs to lie on a card safe_deep sends
 * home (patience.h, safe_deep): the card below it in its foundation is home,
 * and so is every card the build lets go on x. */
static int deep_ok(const PRules *r, uint8_t home[4][15], int x, int base)
{
    int place = p_place(x, base);
    if (place == 1 || !home[p_suit(x)][place - 1]) return 0;
    for (int k = 0; k < r->build_n[x]; k++) {
        int y = r->build_list[x][k];
        if (!home[p_suit(y)][p_place(y, base)]) return 0;
    }
    return 1;
}

static uint32_t safe_move(const PRules *r, const PState *s)
{
    int base = p_found_base(r, s);
    if (!base) return 0;
    uint8_t home[4][15];
    memset(home, 0, sizeof home);
    int f0 = r->first[K_FOUNDATION], empty = 0;
    for (int i = 0; i < r->count[K_FOUNDATION]; i++) {
        int f = f0 + i;
        if (!s->len[f]) { empty = 1; continue; }
        int top = p_top(s, f), suit = p_suit(top);
        for (int k = p_place(top, base); k >= 1; k--) home[suit][k]++;
    }
    int floor = r->returns_floor ? p_floor(r, s) : -1;
    int refills = 0;  /* a pile that empties takes the reserve's next card */
    for (int i = 0; i < r->count[K_RESERVE] && r->fill == F_RESERVE; i++) refills |= s->len[r->first[K_RESERVE] + i] > 0;
    int kinds[4] = {K_TABLEAU, K_CELL, K_RESERVE, K_WASTE};
    for (int j = 0; j < 4; j++) {
        if (kinds[j] == K_WASTE && r->draw != 1) continue;
        if (kinds[j] == K_RESERVE && refills) continue;
        for (int i = 0; i < r->count[kinds[j]]; i++) {
            int p = r->first[kinds[j]] + i;
            if (!s->len[p] || s->down[p] >= s->len[p]) continue;
            if (kinds[j] == K_TABLEAU && p_covered(r, s, p)) continue;
            if (kinds[j] == K_TABLEAU && refills && s->len[p] == 1) continue;
            int c = p_top(s, p), suit = p_suit(c), place = p_place(c, base);
            if (place == 1 ? !empty : home[suit][place - 1] <= home[suit][place]) continue;
            int ok = 1;
            for (int k = 0; k < r->build_n[c] && ok; k++) {
                int x = r->build_list[c][k];
                if (floor >= 0)  /* every card of the floor's rank or lower is home */
                    ok = p_rank(x) <= floor;
                else
                    ok = home[p_suit(x)][p_place(x, base)] >= r->copies || (r->safe_deep && deep_ok(r, home, x, base));
            }
            if (ok && p_foundation_for(r, s, c) >= 0) return p_code(p, P_ANYF, 1, P_NONE);
        }
    }
    if (r->settle_ok) {  /* a card onto a settled card (patience.h, settle_ok) */
        uint8_t at[52];
        memset(at, P_NONE, sizeof at);
        for (int p = 0; p < r->ntab; p++)
            if (s->len[p]) at[p_top(s, p)] = (uint8_t)p;
        for (int p = 0; p < r->ntab; p++) {
            int n = s->len[p];
            if (!n) continue;
            int t = p_top(s, p), c = r->settle_card[t];
            if (c == P_NONE || at[c] == P_NONE) continue;
            /* t alone: it builds on nothing (a move into a space only renames
             * the pile); else on the one card it builds on, no space taking it */
            int settled = n == 1 ? r->onto_n[t] == 0
                                 : r->onto_n[t] == 1 && r->build[s->cards[p][n - 2]][t]
                                       && !(r->fill == F_KINGS && p_rank(t) == 13);
            if (settled) return p_code(at[c], p, 1, P_NONE);
        }
    }
    if (r->cell_onto) {  /* a card in a cell onto the top card it builds on (patience.h, cell_onto) */
        int nc = r->count[K_CELL], c0 = r->first[K_CELL];
        uint8_t at[52];
        memset(at, P_NONE, sizeof at);
        for (int i = 0; i < nc; i++)
            if (s->len[c0 + i]) at[p_top(s, c0 + i)] = (uint8_t)(c0 + i);
        for (int p = 0; p < r->ntab; p++) {
            if (!s->len[p]) continue;
            int c = r->settle_card[p_top(s, p)];
            if (c != P_NONE && at[c] != P_NONE) return p_code(at[c], p, 1, P_NONE);
        }
    }
    if (r->settle_kings) {  /* a card onto a settled King's pile (patience.h, settle_kings) */
        int nc = r->count[K_CELL], c0 = r->first[K_CELL], room = 1;
        if (r->unit == U_SUPERMOVE)  /* spaces take only Kings: none sizes a run */
            for (int i = 0; i < nc; i++) room += !s->len[c0 + i];
        for (int p = 0; p < r->ntab; p++) {
            int n = s->len[p];
            if (!n || n < nc || p_rank(s->cards[p][0]) != 13) continue;
            int c = r->settle_card[p_top(s, p)];
            if (c == P_NONE) continue;
            /* c in a cell; else on top of a tableau pile or heading a run
             * there that the free cells move, with more cards in p than the
             * cells hold */
            int from = -1, k = 1;
            for (int i = 0; i < nc && from < 0; i++)
                if (s->len[c0 + i] && p_top(s, c0 + i) == c) from = c0 + i;
            if (from < 0 && n > nc)
                for (int q = 0; q < r->ntab && from < 0; q++) {
                    int len = s->len[q];
                    const uint8_t *y = s->cards[q];
                    for (int j = 1; j <= room && j <= len; j++) {
                        if (y[len - j] == c) { from = q; k = j; break; }
                        if (j < len && !r->run[y[len - j - 1]][y[len - j]]) break;
                    }
                }
            if (from < 0) continue;
            const uint8_t *x = s->cards[p];
            int block = 1;
            for (int i = 1; i < n && block; i++) block = r->build[x[i - 1]][x[i]];
            if (block) return p_code(from, p, k, P_NONE);
        }
    }
    return 0;
}

#define P_DIG 253  /* a dig: the pile, P_DIG, the cards over the card, P_NONE (home) or the pile it goes onto */
#define P_MACRO 252  /* a stock macro move: the waste, its move's target, the stock moves before it, P_MACRO */
#define P_SUPER 251  /* a sequence moved through spaces: its pile, its target, its cards, P_SUPER */
#define P_CELLS 250  /* cards into free cells (patience.h, cell_onto): their pile, a free cell, their count, P_CELLS */

/* How promising a move looks: 0 first. Within one priority the generator's
 * order stands. */
enum { PRIORITIES = 10 };

static int priority(const PRules *r, const PState *s, uint32_t m)
{
    if ((m >> 24) == P_MACRO) m = p_code(m & 0xFF, (m >> 8) & 0xFF, 1, P_NONE);  /* as its move from the waste */
    int src = m & 0xFF, dst = (m >> 8) & 0xFF, n = (m >> 16) & 0xFF;
    if (dst == P_NONE) return 6;
    if ((m >> 24) == P_CELLS) return 5;  /* as a card into a cell */
    if (dst == P_ANYF || (m >> 24) != P_NONE) return 0;
    int ks = r->kind_of[src], kd = r->kind_of[dst];
    if (kd == K_STOCK) return 7;
    if (kd == K_HOLE) return 0;
    if (ks == K_FOUNDATION) return 9;
    if (kd == K_CELL) return 5;
    int size = s->len[src], up = size - s->down[src];
    if (ks != K_TABLEAU) return s->len[dst] ? 2 : 4;
    if (!s->len[dst]) return n == size ? 8 : 4;
    if (n == up) return 1;  /* turns a card up or empties the pile */
    /* taking a run off a card it was built on: seldom useful */
    if (r->build[s->cards[src][size - n - 1]][s->cards[src][size - n]]) return 6;
    return 3;
}

#ifndef W_CELL
#define W_CELL 8
#endif
#ifndef W_EMPTY
#define W_EMPTY 6
#endif
#ifndef W_BREAK
#define W_BREAK 6
#endif
#ifndef W_DEPTH
#define W_DEPTH 3
#endif
/* W_MIXED and W_STOCK weigh Spider's builds out of suit and a stock dealt
 * onto the tableau (Spider's games; W_STOCK also Scorpion's, where it
 * changes nothing measured). 12 and 4, against 5 and 5 before, deals won
 * (benchmarks/estimate_weights.py; a sweep on Spiderette's deals 301-500
 * and Spider in two suits' 301-450 chose them, the rest are held out):
 * under 200,000 states, Spiderette 301-500 136 to 101 and 501-700 144 to
 * 98, Spider in two suits 301-450 109 to 104 and 451-600 113 to 95, in one
 * suit 301-450 141 to 141; Spider in four suits under 500,000, 301-400 49
 * to 14 and 401-500 52 to 18; under 1,000,000, deals 1-100, Spiderette 81
 * to 66 and two suits 79 to 76. A deal then costs the estimate more, and
 * the search plays the tableau out first: in four suits the sweep wanted
 * it more still (Spiderette, W_STOCK 3 and W_MIXED 8: 151 of 301-500), in
 * two suits it falls off below 4 (3 and 5: 57 of 301-450; 2 and 8: 30). An
 * out-of-suit build weighs twice a break, the best of 3 to 16 there. */
#ifndef W_MIXED
#define W_MIXED 12
#endif
#ifndef W_WASTE
#define W_WASTE 12
#endif
#ifndef W_STOCK
#define W_STOCK 4
#endif
#ifndef W_PASS
#define W_PASS 64
#endif
#ifndef W_DOWN
#define W_DOWN 4
#endif
#ifndef DFS_SHARE
#define DFS_SHARE 50
#endif
#ifndef FOCUS_SHARE
#define FOCUS_SHARE 50
#endif
#ifndef PROBE_SHARE
#define PROBE_SHARE 5
#endif
#ifndef ORDER_BY_VALUE
#define ORDER_BY_VALUE 1
#endif

static int u64_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static void p_sort_u64(uint64_t *a, int n)
{
    for (int i = 1; i < n; i++) {
        uint64_t x = a[i];
        int j = i - 1;
        while (j >= 0 && a[j] > x) { a[j + 1] = a[j]; j--; }
        a[j + 1] = x;
    }
}

/* How far a position looks from a win (lower is better): the cards still to
 * go home, face-down cards, filled cells, and how deep under other cards lie
 * the cards the foundations (or the hole) take next. Only the order of moves
 * hangs on it, never a verdict. */
static int evaluate(const PRules *r, const PState *s)
{
    int T = r->ntab, score = 0;
    if (r->win == W_FOUNDATIONS) {
        int home = 0;
        for (int i = 0; i < r->count[K_FOUNDATION]; i++) home += s->len[r->first[K_FOUNDATION] + i];
        for (int i = 0; i < r->count[K_HOLE]; i++) home += s->len[r->first[K_HOLE] + i];
        score += (r->total - home) * 16;
    } else if (r->win == W_TABLEAU_EMPTY) {
        for (int p = 0; p < T; p++) score += s->len[p] * 16;
    } else {
        for (int p = 0; p < T; p++) score += (s->len[p] > 0) * 16;
    }
    /* how deep each card lies, for the cards the foundations take next: not
     * where only complete runs go home (Spider's games), which read none */
    int depth[52], deep = r->count[K_FOUNDATION] && !r->complete_runs;
    for (int c = 0; c < 52; c++) depth[c] = 64;
    /* a pair the build allows but the run rule does not (Spider's builds out
     * of suit) moves apart only, and holds the place of the card of its suit:
     * twice a break (W_MIXED's note; deals 1-20 at 200,000 states with half
     * a break, 3: Spider in two suits 10 won, in four 0, Spiderette 3; with
     * 5: 12, 1 and 4) */
    int mixed = r->unit == U_RUN || r->unit == U_SUPERMOVE ? W_MIXED : 0;
    for (int p = 0; p < T; p++) {
        score += s->down[p] * W_DOWN;
        int n = s->len[p];
        for (int k = s->down[p] + 1; k < n; k++) {
            const uint8_t a = s->cards[p][k - 1], b = s->cards[p][k];
            if (!r->build[a][b]) score += W_BREAK;
            else if (!r->run[a][b]) score += mixed;
        }
        for (int k = 0; k < n && deep; k++) {
            int c = s->cards[p][k], d = n - 1 - k;
            if (d < depth[c]) depth[c] = d;
        }
        if (!n && r->fill == F_ANY) score -= W_EMPTY;
    }
    for (int i = 0; i < r->count[K_CELL]; i++) score += s->len[r->first[K_CELL] + i] * W_CELL;
    /* a waste that will not be turned over again (the last pass: Forty
     * Thieves, Pyramid) is a pile that only its top card leaves, each card
     * under it as good as a break, and the cards the foundations take next
     * lie as deep in it as in a pile. Without it, the search dealt the stock
     * out early at no cost to its estimate and buried the cards it needed:
     * Forty Thieves, deals 61-160 at 200,000 states, 0 won best first
     * without it, 16, 21 and 20 at 6, 12 and 16 a card (161-260: 0, 12, 21,
     * 20); Pyramid, deals 1-300 at 1,000,000, the same verdicts in 0.99 of
     * the states */
#if W_WASTE
    if (r->count[K_WASTE] && r->stock_to == S_WASTE && r->passes && s->pass_number >= r->passes) {
        int w = r->first[K_WASTE], n = s->len[w];
        for (int k = 0; k < n; k++) {
            int c = s->cards[w][k], d = n - 1 - k;
            if (d < depth[c]) depth[c] = d;
        }
        if (n > 1) score += (n - 1) * W_WASTE;
    }
#endif
    /* a stock dealt onto the tableau: its cards will mostly land as breaks, so
     * they count nearly as much already and a deal is not put off for the
     * sake of the breaks it makes */
    if (r->stock_to == S_TABLEAU && r->count[K_STOCK]) score += s->len[r->first[K_STOCK]] * W_STOCK;
    if (deep) {
        int base = p_found_base(r, s), f0 = r->first[K_FOUNDATION];
        for (int i = 0; i < r->count[K_FOUNDATION]; i++) {
            int f = f0 + i, best = 64;
            if (s->len[f]) {
                int top = p_top(s, f);
                for (int k = 0; k < r->home_n[top]; k++)
                    if (depth[r->home_list[top][k]] < best) best = depth[r->home_list[top][k]];
            } else if (base) {
                continue;
            }
            if (best < 64) score += best * W_DEPTH;
        }
    }
    return score < 0 ? 0 : score;
}

/* ---- the first stage: a quick depth-first search (open deals) ---- */

/* Where every card lies open from the start and free cells hold cards
 * (FreeCell, Baker's Game, Eight Off, Seahaven Towers), most deals have
 * many winning lines, and a depth-first search whose moves come in a cheap,
 * well-chosen order finds one in a few hundred states (fc-solve's soft-DFS
 * scans). Its order costs one pass over the position a state, against
 * playing and valuing every move (`evaluate`), and it never drops a move:
 * within its budget its "no moves left" is a proof too. So too where no
 * cells hold cards but most cards take two cards or more on them
 * (quick_wide: Baker's Dozen, Beleaguered Castle, Streets and Alleys, King
 * Albert): deals 1-100 under 1,000,000 states, decided with the scans and
 * without (best first alone), 90 and 69, 95 and 94, 90 and 87, 95 and 92,
 * the same proofs, in 0.36, 0.54, 0.83 and 0.84 of the CPU
 * (benchmarks/quick_scans.py). Where they take one and there are no
 * cells (Fan, La Belle Lucie), the scans cost more than they find (deals
 * 1-100 under 150,000: Fan 308,505 states against 218,063, the same
 * verdicts; La Belle Lucie 95 won against 96). */
#ifndef QUICK_WIDE
#define QUICK_WIDE 100000
#endif
#ifndef QUICK_NARROW
#define QUICK_NARROW 1200
#endif
#ifndef QUICK_FIRST
#define QUICK_FIRST 100
#endif
#ifndef QUICK_PER
#define QUICK_PER 8
#endif

/* The first QUICK_DIG_SCANS scans also try digs (dig_play) and leave out
 * the plain moves of a tableau card into a cell (a dig still puts cards
 * there), as fc-solve's first scans do; those scans prove nothing when they
 * run out of moves, the later ones keep every move and prove as before.
 * Microsoft deals 1-2000, states a deal (mean, median): without either
 * 1,490 and 352; digs home in the first scan, 1,358 and 252; and no plain
 * move into a cell there, 1,242 and 166; both in the first 8 scans, 1,059
 * and 169; in the first 12, 16, 24 or 32, 917, 899, 906 and 934; digs in
 * every scan hand deals to the hybrid (1,690, deal 617 212,672 states).
 * With the digs onto a pile too (QUICK_PARENT cards deep at most, ranked
 * QUICK_PARENT_RANK): 2 deep 706, 4 deep 641 (598 ranked 5, 627 ranked 8),
 * 8 deep 548, any depth 557. Deals 8001-32000 and 1-8000: see
 * docs/patience-solver.md; no deal goes over 100,000 states that did not. */
#ifndef QUICK_DIG_SCANS
#define QUICK_DIG_SCANS 16
#endif
#ifndef QUICK_PARENT
#define QUICK_PARENT 8
#endif
#ifndef QUICK_PARENT_RANK
#define QUICK_PARENT_RANK 5
#endif

/* Whether most cards take two cards on them (FreeCell's alternate colours)
 * rather than one (same suit: Baker's Game, Eight Off, Seahaven Towers).
 * Where they take two, winning lines are many: the scans take 100,000
 * states in all (Microsoft deals 1-200: 1,913 states a deal with 20,000,
 * against 3,508 with 4,000 and 4,869 best first alone; deals 1-2000: 27
 * deals beyond 20,000 states, which took 9.0 s of the search's 13.8 s with
 * 20,000, deal 1136 alone 1,185,723 states best first after them, and 2.5 s
 * of 8.2 with 100,000, deal 1136 75,077 states; the impossible 11982 pays
 * the scans, 171,775 states against 71,775 best first alone), and a move
 * into a cell ranks lower the more cells are in use, how deep the next
 * cards stay counting once a card (deals 1-200: 1,588 states a deal with
 * 20,000 of scans, 1,373 with 100,000; deals 201-600: 1,719 against 2,268).
 * The scans' budgets, in both: QUICK_FIRST states for the first QUICK_PER, doubled
 * every QUICK_PER (deals 1-600, states a deal: 150 doubled every 4, 1,802;
 * every 6, 1,724; every 8, 1,584; 100 every 8, 1,419; deals 601-1600, held
 * out: 1,761, 1,625 and 1,548).
 * Where they take one, a quarter of the deals or more are lost, and what
 * the scans spend on those is lost with them: 1,200 states (deals 1-40,
 * states a deal: Baker's Game 4,265 against 3,442 best first alone, Eight
 * Off 1,308 against 1,177, Seahaven Towers 13,230 against 28,986 with two
 * deals more decided), and the depth twice a card and no weight of the
 * cells in use (Seahaven Towers deals 1-100: 10,705 states a deal, all
 * decided within 300,000; with FreeCell's weights 14,961, one undecided;
 * with the scans' budgets below, 11,725, Baker's Game 4,189, Eight Off
 * 1,371). */
static int quick_wide(const PRules *r)
{
    int builds = 0;
    for (int c = 0; c < 52; c++) builds += r->build_n[c];
    return builds >= 80;
}

/* Whether the default search begins with the quick scans: every card open
 * from the start (no face-down card, stock, fixed tableau or hole), the
 * foundations from Aces, and free cells or cards that take two on them. */
static int quick_eligible(const PRules *r)
{
    return (r->count[K_CELL] > 0 || quick_wide(r)) && !r->any_down && !r->count[K_STOCK] && !r->fixed_tab
        && !r->count[K_HOLE] && r->safe_ok && r->base == 1 && !r->found_wrap && r->ntab <= 64;
}

/* Whether the hybrid takes turns with the quick scans, each turn as many
 * states as the scan before it, rather than starting after them: where no
 * cell holds cards. There a quarter to a half of the deals are lost
 * (Beleaguered Castle, Streets and Alleys, King Albert), which the scans
 * prove only when one of them runs out of moves, and the best-first search
 * proves in fewer states: waiting for the scans' 100,000 states, the median
 * deal of Streets and Alleys and King Albert took four to five times the
 * states of the best-first search alone. In turns, a deal costs at most
 * about twice what the quicker of the two takes, and the scans go on for
 * half the budget instead of 100,000 states (deals 1-100 under 1,000,000
 * states, decided in turns / after the scans: Baker's Dozen 94 / 90,
 * Beleaguered Castle 95 / 95, Streets and Alleys 94 / 90, King Albert 95 /
 * 95, in 41.4 million states against 48.7; a proof or a best-first win that
 * needs more than half the budget is lost to it: 3 proofs and 3 wins of the
 * 400 deals). Where cells hold cards nearly every deal is won, most by the
 * scans, and the hybrid waits. Once the scans have spent QUICK_LATE states
 * (a deal they have not won early), each turn of the hybrid is twice the
 * scan before it: a long proof or best-first win comes sooner, and a deal
 * costs at most about twice the best-first search's states, three times
 * the scans'. Deals 1-100 under 5,000,000 states, against equal turns:
 * Streets and Alleys 11.19 million states on the deals both decide against
 * 12.39, King Albert 9.54 against 10.66 and its deal 38 proved, Baker's
 * Dozen 14.49 against 11.81 (its late wins are the scans'), no deal lost;
 * four times from 1,000,000 besides won Streets and Alleys' deal 13 under
 * that budget but lost Baker's Dozen's 73 (docs/patience-solver.md). */
#ifndef QUICK_LATE
#define QUICK_LATE 250000
#endif
static int quick_turns(const PRules *r)
{
    return !r->count[K_CELL];
}

/* Each move's rank (lower first) into order[i] as rank << 32 | tie << 16 |
 * i: cards to the foundations first; then moves that bring the cards the
 * foundations take next (or the ones after them) nearer the top, by how
 * deep those stay; a card out of a cell onto a pile; moves into cells after
 * moves onto piles; runs taken off the card they are built on, cards back
 * from the foundations, and moves into spaces, last. Scan 0 keeps the
 * generator's order among equal ranks; each later scan (fc-solve's presets
 * run random-order scans in turn) blurs the ranks and shuffles the ties with
 * its own seed, `salt` varying it from state to state: deterministic, so a
 * deal's line is the same every run. */
static void quick_order(const PRules *r, const PState *s, const uint32_t *moves, int count, uint64_t *order,
                        int scan, uint64_t salt, int wide)
{
    /* the weights of how deep the next cards stay, and of the cells in use
     * against a move into a cell (quick_wide gives the figures) */
    int w_near = wide ? 1 : 2, w_cells = wide ? 4 : 0;
    uint64_t mix = salt * 0x9E3779B97F4A7C15ULL ^ (uint64_t)scan * 0xD1B54A32D192ED03ULL;
    uint8_t soon[52];
    memset(soon, 0, sizeof soon);
    int f0 = r->first[K_FOUNDATION];
    for (int i = 0; i < r->count[K_FOUNDATION]; i++) {
        int f = f0 + i;
        if (!s->len[f]) {
            for (int u = 0; u < 4; u++) soon[u * 13] = 2;  /* Aces (safe_ok: foundations from Aces) */
            for (int u = 0; u < 4; u++) soon[u * 13 + 1] |= 1;
            continue;
        }
        int top = p_top(s, f);
        if (p_rank(top) < 13) soon[top + 1] = 2;
        if (p_rank(top) < 12) soon[top + 2] |= 1;
    }
    /* how many cards lie over the shallowest card soon taken home, a pile */
    int deep[128];
    for (int p = 0; p < r->ntab; p++) {
        int n = s->len[p], d = 64;
        for (int k = n - 1; k >= 0; k--)
            if (soon[s->cards[p][k]]) { d = n - 1 - k; break; }
        deep[p] = d;
    }
    int used = 0;
    for (int i = 0; i < r->count[K_CELL]; i++) used += s->len[r->first[K_CELL] + i] > 0;
    for (int i = 0; i < count; i++) {
        uint32_t m = moves[i];
        int src = m & 0xFF, dst = (m >> 8) & 0xFF, n = (m >> 16) & 0xFF, rank;
        int ks = r->kind_of[src];
        if (dst == P_ANYF || dst == P_DIG) {
            rank = 0;
        } else {
            int kd = r->kind_of[dst], size = s->len[src];
            int left = ks == K_TABLEAU ? deep[src] - n : 64;  /* cards left over it */
            int near = left < 0 ? 0 : left > 12 ? 12 : left;
            /* a card back from the foundations after every move but those
             * into spaces (King Albert under Solvitaire's rules, deals 1-50
             * under 2,000,000 states: 11,865,399 states against 12,697,872
             * ranked as the worst move onto a pile, 12,168,017 best first
             * alone; 46 decided each) */
            if (ks == K_FOUNDATION) rank = 60;
            else if (ks == K_CELL) rank = kd == K_TABLEAU && s->len[dst] ? 2 : 40;
            else if (kd == K_CELL) rank = 12 + w_near * near + w_cells * used;
            else rank = 4 + w_near * near;
            if (kd == K_TABLEAU && !s->len[dst]) rank += n == size ? 80 : 20;
            if (ks == K_TABLEAU && n < size && r->build[s->cards[src][size - n - 1]][s->cards[src][size - n]])
                rank += 50;
        }
        if (dst == P_DIG) rank = (m >> 24) == P_NONE ? 1 : QUICK_PARENT_RANK;
        uint64_t tie = 0;
        if (scan) {  /* the later scans: a seeded shuffle of equal ranks, and ranks blurred */
            uint64_t h = (mix ^ (uint64_t)i * 0xBF58476D1CE4E5B9ULL) * 0x94D049BB133111EBULL;
            h ^= h >> 31;
            if (rank) rank += (int)(h % (uint64_t)(2 + 2 * scan));
            tie = (h >> 16) & 0xFFFF;
        }
        order[i] = (uint64_t)rank << 32 | tie << 16 | (uint64_t)i;
    }
}

/* How well card c lies on card onto: 2 in a run (it moves with it), 1 on a
 * build the run rule does not move (Spider's out of suit), 0 not built. */
static inline int lie(const PRules *r, int onto, int c)
{
    return r->run[onto][c] ? 2 : r->build[onto][c] ? 1 : 0;
}

/* The lowest card of each tableau pile's top run into base[p] (the cards
 * over it each lie in a run on the one under it; it lies in none: on a card
 * it does not run with, or face down, or on the table), or -1 where no card
 * of the pile is face up. A position's bases serve every move's `frees`,
 * worked out at its first (base[0] is BASES_LATER until then). */
#define BASES_LATER (-2)
static void run_bases(const PRules *r, const PState *s, int *base)
{
    for (int p = 0; p < r->ntab; p++) {
        int n = s->len[p], up = n - s->down[p], k = 1;
        if (up <= 0) { base[p] = -1; continue; }
        while (k < up && r->run[s->cards[p][n - k - 1]][s->cards[p][n - k]]) k++;
        base[p] = s->cards[p][n - k];
    }
}

/* Whether card u, once on top of tableau pile `src`, frees something at once:
 * it goes to a foundation, or a card of another tableau pile (but `dst`)
 * that lies worse where it is would lie in a run on it. The only card of a
 * pile's top run that lies worse is its lowest (run_bases: each card over it
 * lies in a run already), and the cards under the top run are not free to
 * move onto u. (Counting the top cards of the waste and the reserve too made
 * the focused pass slower: Klondike deals 1-20 at 200,000 states, 17 won to
 * 16.) */
static int frees(const PRules *r, const PState *s, int u, int src, int dst, int *base)
{
    if (p_foundation_for(r, s, u) >= 0) return 1;
    if (base[0] == BASES_LATER) run_bases(r, s, base);
    for (int p = 0; p < r->ntab; p++)
        if (p != src && p != dst && base[p] >= 0 && r->run[u][base[p]]) return 1;
    return 0;
}

/* A sideways move: a tableau-to-tableau move that turns no card up, empties
 * no pile, and leaves its cards lying no better than they lay (Spider's
 * moves of a run from one card to another of the same rank, a run split off
 * its own suit, Forty Thieves' card from one build to another), unless the
 * card it uncovers frees something at once. Winning lines seldom need them;
 * the focused pass leaves them out to find those lines sooner, and the
 * search after it, which decides, tries them like every other move. `base`:
 * the position's run_bases, worked out here at need (base[0] BASES_LATER)
 * and kept for its other moves. */
static int sideways(const PRules *r, const PState *s, uint32_t m, int *base)
{
    int src = m & 0xFF, dst = (m >> 8) & 0xFF, n = (m >> 16) & 0xFF;
    if (dst >= r->npiles || (m >> 24) != P_NONE) return 0;
    if (r->kind_of[src] != K_TABLEAU || r->kind_of[dst] != K_TABLEAU) return 0;
    int size = s->len[src], up = size - s->down[src];
    if (n >= up) return n == size && !s->len[dst];  /* a whole pile to a space goes nowhere */
    int head = s->cards[src][size - n], under = s->cards[src][size - n - 1];
    int now = lie(r, under, head), then = s->len[dst] ? lie(r, p_top(s, dst), head) : 0;
    if (then > now || (!s->len[dst] && !now)) return 0;
    return !frees(r, s, under, src, dst, base);
}

/* A move the search leaves out: a foundation card taken back where none
 * ever needs to be (patience.h, returns_idle; returns_floor: one at or
 * below the floor). (The focused pass leaves sideways moves out too.) */
static inline int left_out(const PRules *r, const PState *s, uint32_t m)
{
    if (r->returns_idle && r->kind_of[m & 0xFF] == K_FOUNDATION) return 1;
    return r->returns_floor && (int)(m & 0xFF) < r->npiles && r->kind_of[m & 0xFF] == K_FOUNDATION
           && s->len[m & 0xFF] <= p_floor(r, s);
}

/* A move the search skips because another move of the same position leads to
 * the same key, so that the table would take it as seen: a move that only
 * puts its cards in another empty pile of a group the key sorts. Such a move
 * is exact to skip, not a pruning: the position it leads to has the key of a
 * position the search has already keyed at that point, and the table would
 * turn it away (the states, their order and the verdicts are the same; only
 * the work of making and keying it is spared).
 *   - A twin: the same cards (source and count) into an empty pile of the
 *     same kind as an earlier move of the list did, where the key sorts that
 *     kind's piles (free cells always; tableau piles where no rule looks at
 *     a pile's place, patience.h's symmetry notes): the two positions differ
 *     only in which empty pile took the cards, and the sorted key is the
 *     same. Eight Off's cards into its free cells, five moves where one does.
 *   - Idle: a whole pile of a sorted group moved into an empty pile of the
 *     same group: the same multiset of piles as the position it leaves, whose
 *     key is in the table (the search keys a position before it expands it).
 *     Not where a space takes the reserve's next card (the pile it leaves is
 *     filled again) nor where a position after a deal has a key of its own
 *     (deal_waits: the byte the key gets would differ).
 * moves[0..i) are the moves tried before moves[i] at this position. */
static inline int empty_sorted(const PRules *r, const PState *s, int p)
{
    return p < r->npiles && !s->len[p] && p_sorted_group(r, r->kind_of[p]);
}

static int repeats(const PRules *r, const PState *s, const uint32_t *moves, int i)
{
    uint32_t m = moves[i];
    int src = m & 0xFF, dst = (m >> 8) & 0xFF, n = (m >> 16) & 0xFF;
    if ((m >> 24) != P_NONE || !empty_sorted(r, s, dst) || r->fill == F_RESERVE) return 0;
    if (src < r->npiles && n == s->len[src] && r->kind_of[src] == r->kind_of[dst] && !r->deal_waits) return 1;
    for (int j = i - 1; j >= 0; j--) {
        uint32_t o = moves[j];
        int odst = (o >> 8) & 0xFF;
        if ((o & 0xFF) == (uint32_t)src && ((o >> 16) & 0xFF) == (uint32_t)n && (o >> 24) == P_NONE && odst != dst
            && empty_sorted(r, s, odst) && r->kind_of[odst] == r->kind_of[dst])
            return 1;
    }
    return 0;
}

/* A depth-first frame: its moves (x->moves from mstart), the next one to
 * try, how many moves led to it, and (in the hybrid) its node record. */
typedef struct { int mstart, n, next, entry; uint64_t at; } PFrame;

enum { R_WON, R_EXHAUSTED, R_STATES, R_TIME, R_MEMORY, R_SIGNAL, R_BROKEN };

typedef struct {
    PTable table;
    uint32_t *moves; size_t nmoves, capmoves;
    uint16_t *midx;  /* each of moves' place in the generator's order */
    int nodes;       /* the depth-first search keeps node records (the hybrid) */
    int focus;       /* the focused pass: sideways moves left out (see sideways) */
    /* the focused pass's nodes whose expansion left a sideways move out (each
     * time it expanded one: a node handed over open may be expanded twice) */
    uint64_t *recs; size_t nrecs, caprecs;
#ifdef CARDTABLE_CHECK_KEYS
    uint64_t *made; size_t nmade, capmade;  /* every node the focused pass made, for widen's check */
#endif
    int quick;       /* the depth-first search orders moves by quick_order (the first stage): 1 + its scan */
    int wide;        /* most cards take two cards on them (quick_wide) */
    PFrame *frames; int nframes, capframes;
    uint32_t *path; int npath, cappath;
    uint8_t key[P_KEYMAX];
    long long states;
    /* best-first: the nodes are the table's records (after its key, a node's
     * parent's offset and the moves that lead there from the parent's
     * position as its key rebuilds it: patience.h's p_decode); the open
     * list is a binary heap of (value, offset) */
    uint64_t *heap; size_t nheap, capheap;
    PState *root, *scratch;  /* the position the search started from; a spare */
    /* a best-first search that runs in turns (quick_turns): when a turn's
     * budget runs out in the middle of a node's moves, the node and its next
     * move are kept here, not put back on the open list, and the next turn
     * goes on from that move, as if the search had not stopped */
    int hold, holding, held_next;
    uint64_t held;
} PSearch;

static void search_free(PSearch *x)
{
    table_free(&x->table);
    free(x->moves); free(x->midx); free(x->frames); free(x->path);
    free(x->heap); free(x->root); free(x->recs);
#ifdef CARDTABLE_CHECK_KEYS
    free(x->made);
#endif
    if (x->scratch) p_state_free(x->scratch);
    free(x->scratch);
}

static int path_push(PSearch *x, uint32_t m)
{
    if (x->npath >= x->cappath && p_grow((void **)&x->path, &x->cappath, x->npath + 1, sizeof *x->path)) return -1;
    x->path[x->npath++] = m;
    return 0;
}

/* A dig: the cards over a card moved off it one move at a time (each a
 * move of the generator: onto a tableau pile where it builds, the most cards
 * that go; else a card into a free cell; else into a space; a card home where
 * it goes), then that card home where the foundations take it now, or onto
 * the top card of another tableau pile that it builds on (the pile the code
 * names in its pair's place; the cards over it go anywhere but there), as
 * one move of the first scans (fc-solve's first scans move "non-top stack
 * cards to the foundations" and "stack cards to a parent on a different
 * stack" so). A dig onto a pile takes a card that does not lie in a run on
 * the card under it, QUICK_PARENT cards deep at most. Its moves are worked
 * out when it is tried and go on the line one by one, so the engine replays
 * them as any other. Where a scan keeps every plain move beside the digs,
 * its running out of moves is still a proof: a dig only reaches sooner a
 * position the plain moves reach.
 *
 * dig_likely: whether the cards over card kc of tableau pile p can be moved
 * off as dig_play moves them, worked out on the top cards alone (a filter
 * that spares most of the digs that would fail: Microsoft deals 1-300, the
 * first scan, 7,322 digs tried, none failing, against 57,205 tried and 87%
 * failing without it; dig_play makes the moves through the generator, and
 * gives up, taking them back, where one is missing). */
typedef struct { int free, spaces, tops[128]; } PDigRoom;  /* free cells, spaces, top cards (-1: none) */

static int dig_likely(const PRules *r, const PState *s, const PDigRoom *room0, int p, int kc, int avoid)
{
    int T = r->ntab, free = room0->free, spaces = room0->spaces, tops[128];
    memcpy(tops, room0->tops, (size_t)T * sizeof *tops);
    const uint8_t *c = s->cards[p];
    int i = s->len[p] - 1;
    while (i > kc) {
        int j = i;
        if (r->unit != U_ONE)
            while (j - 1 > kc && r->run[c[j - 1]][c[j]]) j--;
        long cap = r->unit == U_SUPERMOVE ? (long)(free + 1) << spaces : r->unit == U_ONE ? 1 : 1L << 30;
        int done = 0;
        for (int h = j; h <= i && !done; h++) {
            if (i - h + 1 > cap) continue;
            for (int t = 0; t < T; t++)
                if (t != p && t != avoid && tops[t] >= 0 && r->build[tops[t]][c[h]]) {
                    tops[t] = c[i];
                    i = h - 1;
                    done = 1;
                    break;
                }
        }
        if (done) continue;
        if (free) { free--; i--; continue; }
        if (!spaces) return 0;
        spaces--;
        long room = r->unit == U_SUPERMOVE ? (long)(free + 1) << spaces : r->unit == U_ONE ? 1 : 1L << 30;
        int h = i - j + 1 > room ? i - (int)room + 1 : j;
        i = h - 1;
    }
    return 1;
}

static int quick_digs(const PRules *r, const PState *s, uint32_t *out)
{
    int nd = 0, T = r->ntab;
    PDigRoom room = {0};
    for (int i = 0; i < r->count[K_CELL]; i++) room.free += !s->len[r->first[K_CELL] + i];
    uint64_t on[52];  /* the tableau piles each card is the top card of (quick_eligible: 64 piles at most) */
    memset(on, 0, sizeof on);
    for (int t = 0; t < T; t++) {
        room.tops[t] = s->len[t] ? p_top(s, t) : -1;
        room.spaces += !s->len[t] && r->fill == F_ANY;
        if (s->len[t]) on[p_top(s, t)] |= 1ULL << t;
    }
    /* the cards the foundations take (p_foundation_for's, at once) */
    uint8_t home[52];
    p_home_cards(r, s, home);
    for (int p = 0; p < T; p++) {
        int n = s->len[p];
        for (int k = n - 2; k >= 0; k--)
            if (home[s->cards[p][k]]) {
                if (n - 1 - k <= 0xFF && dig_likely(r, s, &room, p, k, -1))
                    out[nd++] = p_code(p, P_DIG, n - 1 - k, P_NONE);
                break;
            }
        for (int k = n - 2; k >= 0 && n - 1 - k <= QUICK_PARENT; k--) {
            int c = s->cards[p][k];
            if (k > 0 && r->run[s->cards[p][k - 1]][c]) continue;
            uint64_t onto = 0;
            for (int i = 0; i < r->onto_n[c]; i++) onto |= on[r->onto_list[c][i]];
            for (onto &= ~(1ULL << p); onto; onto &= onto - 1) {
                int t = __builtin_ctzll(onto);
                if (dig_likely(r, s, &room, p, k, t)) out[nd++] = p_code(p, P_DIG, n - 1 - k, t);
            }
        }
    }
    return nd;
}

/* Play dig m: how many moves it made (pushed on the path), 0 where it cannot
 * be made here (nothing played), -1 out of memory. */
static int dig_play(const PRules *r, PState *s, PSearch *x, uint32_t m)
{
    int p = m & 0xFF, over = (m >> 16) & 0xFF, onto = m >> 24, base = s->len[p] - over, played = 0;
    static _Thread_local uint32_t buf[P_MAXMOVES];
    while (s->len[p] > base) {
        int n = p_moves(r, s, buf), best = -1, best_cat = 9, best_n = 0;
        for (int i = 0; i < n; i++) {
            uint32_t c = buf[i];
            if ((int)(c & 0xFF) != p || (c >> 24) != P_NONE) continue;
            int dst = (c >> 8) & 0xFF, k = (c >> 16) & 0xFF, cat;
            if (k > s->len[p] - base || dst == onto) continue;
            if (dst == P_ANYF) cat = 0;
            else if (r->kind_of[dst] == K_TABLEAU) cat = s->len[dst] ? 1 : 3;
            else if (r->kind_of[dst] == K_CELL) cat = 2;
            else continue;
            if (cat < best_cat || (cat == best_cat && k > best_n)) { best = i; best_cat = cat; best_n = k; }
        }
        if (best < 0) break;
        if (p_play(r, s, buf[best]) || path_push(x, buf[best])) return -1;
        played++;
    }
    if (s->len[p] == base && base > 0 && onto != P_NONE) {
        uint32_t last = p_code(p, onto, 1, P_NONE);
        int n = p_moves(r, s, buf), legal = 0;
        for (int i = 0; i < n && !legal; i++) legal = buf[i] == last;
        if (legal) {
            if (p_play(r, s, last) || path_push(x, last)) return -1;
            return played + 1;
        }
    } else if (s->len[p] == base && base > 0 && p_foundation_for(r, s, p_top(s, p)) >= 0) {
        uint32_t home = p_code(p, P_ANYF, 1, P_NONE);
        if (p_play(r, s, home) || path_push(x, home)) return -1;
        return played + 1;
    }
    for (int i = 0; i < played; i++) p_undo(r, s);
    x->npath -= played;
    return 0;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* A search's clock and Ctrl-C, looked at every 1,024 steps (signals every
 * 65,536): R_TIME or R_SIGNAL when the search must stop, -1 to go on. */
static int search_stop(long long *ticks, double deadline)
{
    if ((++*ticks & 1023) != 0) return -1;
    if (deadline > 0 && now() > deadline) return R_TIME;
    if ((*ticks & 65535) == 0 && PyErr_CheckSignals() < 0) return R_SIGNAL;
    return -1;
}

/* A card of rank N that goes alone to the hole at once (patience.h,
 * lone_safe): the generator's move of the first free one, or 0. */
static uint32_t lone_move(const PRules *r, const PState *s)
{
    int hole = r->first[K_HOLE];
    for (int p = 0; p < r->ntab; p++)
        if (s->len[p] > s->down[p] && p_rank(p_top(s, p)) == r->hole_pairs && !p_covered(r, s, p))
            return p_code(p, hole, 1, P_NONE);
    int w = r->first[K_WASTE];
    if (r->lone_waste && s->len[w] > s->down[w] && p_rank(p_top(s, w)) == r->hole_pairs)
        return p_code(w, hole, 1, P_NONE);
    return 0;
}

/* Whether the position after move m may hold a safe move (safe_move), where
 * the position before it held none: 0 when it cannot, so that the search
 * need not look (the safe moves are looked for after every move the search
 * makes, and seldom follow). It answers for a plain move of the engine
 * between tableau piles and cells alone, in rules where such a move changes
 * nothing else (no card goes home with it, no pile lies over another, the
 * reserve fills no space); anything else may (1), and safe_move looks.
 *
 * Why 0 is sound: safe_move looks at the top cards of the piles, the
 * foundations, and, for settle_ok, settle_kings and cell_onto, a few cards
 * under the tops and the free cells. The move changes only its two piles: the
 * foundations are as they were, the card now on the target was the source's
 * top before (what safe_move reads of a top card to send it home does not
 * depend on its pile here), and the source shows a new top, or turned one
 * up. So a safe move after it must involve one of the two piles:
 * - home: the source's new top, which must at least be a card a foundation
 *   takes (p_foundation_for);
 * - settle_ok: a pile p whose top's settle card is a top card: p one of the
 *   two piles, or that card the top of one of them;
 * - settle_kings: a King's pile p one of the two piles; or the card for
 *   p's top now in the target cell, or among the top `room` cards of one of
 *   the two piles, or of any pile where the move set a cell free and runs
 *   sized by the free cells move (room grew by one). A card in a cell stays
 *   where it was, but for the move's own;
 * - cell_onto: a card in a cell whose card is a new top: the source's new
 *   top, or the target's when the move came from a cell (before, in no
 *   pile); or the card the move put into a cell, when its card tops a pile. */
static int safe_may_follow(const PRules *r, const PState *s, uint32_t m)
{
    int src = m & 0xFF, dst = (m >> 8) & 0xFF;
    if ((m >> 24) != P_NONE || src >= r->npiles || dst >= r->npiles || r->complete_runs || r->has_covers
        || r->fill == F_RESERVE || !r->safe_ok)
        return 1;
    int ks = r->kind_of[src], kd = r->kind_of[dst];
    if ((ks != K_TABLEAU && ks != K_CELL) || (kd != K_TABLEAU && kd != K_CELL)) return 1;
    if (s->len[src] > s->down[src] && p_foundation_for(r, s, p_top(s, src)) >= 0) return 1;
    int T = r->ntab;
    int top_src = ks == K_TABLEAU && s->len[src] ? p_top(s, src) : -1;
    int top_dst = kd == K_TABLEAU && s->len[dst] ? p_top(s, dst) : -1;
    if (r->settle_ok) {
        for (int p = 0; p < T; p++) {
            if (!s->len[p]) continue;
            int c = r->settle_card[p_top(s, p)];
            if (c == P_NONE) continue;
            if (c == top_src || c == top_dst) return 1;
            if (p == src || p == dst)
                for (int q = 0; q < T; q++)
                    if (s->len[q] && p_top(s, q) == c) return 1;
        }
    }
    if (r->cell_onto) {
        /* a new top card whose card is in a cell: the source's, or the
         * target's when the card came from a cell; or a card put into a cell
         * whose card tops a pile */
        int c0 = r->first[K_CELL], nc = r->count[K_CELL];
        int tops[2] = {top_src, ks == K_CELL ? top_dst : -1};
        for (int j = 0; j < 2; j++) {
            if (tops[j] < 0 || r->settle_card[tops[j]] == P_NONE) continue;
            for (int i = 0; i < nc; i++)
                if (s->len[c0 + i] && p_top(s, c0 + i) == r->settle_card[tops[j]]) return 1;
        }
        if (kd == K_CELL)
            for (int p = 0; p < T; p++)
                if (s->len[p] && r->settle_card[p_top(s, p)] == p_top(s, dst)) return 1;
    }
    if (r->settle_kings) {
        int nc = r->count[K_CELL], c0 = r->first[K_CELL], room = 1;
        if (r->unit == U_SUPERMOVE)
            for (int i = 0; i < nc; i++) room += !s->len[c0 + i];
        /* a cell set free lets a run one card longer move: every pile's top
         * cards are read then, else only the two piles' */
        int wide = ks == K_CELL && r->unit == U_SUPERMOVE;
        for (int p = 0; p < T; p++) {
            int n = s->len[p];
            if (!n || n < nc || p_rank(s->cards[p][0]) != 13) continue;
            int c = r->settle_card[p_top(s, p)];
            if (c == P_NONE) continue;
            if (p == src || p == dst) return 1;
            if (kd == K_CELL && p_top(s, dst) == c) return 1;
            for (int q = 0; q < T; q++) {
                if (!wide && q != src && q != dst) continue;
                for (int j = 1; j <= room && j <= s->len[q]; j++)
                    if (s->cards[q][s->len[q] - j] == c) return 1;
            }
        }
    }
    return 0;
}

/* Play the safe moves; how many, or -1. */
static int play_safe(const PRules *r, PState *s, PSearch *x)
{
    int k = 0;
    if (!r->safe_ok && !r->lone_safe) return 0;
    for (;;) {
        uint32_t m = r->safe_ok ? safe_move(r, s) : lone_move(r, s);
        if (!m) return k;
        if (p_play(r, s, m) || path_push(x, m)) return -1;
        k++;
    }
}

static int add_record(const PRules *r, const PState *s, PSearch *x, uint64_t parent, int move, uint64_t last,
                      uint64_t *at);
static int note_sideways(PSearch *x, uint64_t at);

/* play_safe after the search's move m, made (`made` moves of the engine) at
 * a position that held no safe move: it looks only where safe_may_follow
 * says one may be. */
static int play_safe_after(const PRules *r, PState *s, PSearch *x, uint32_t m, int made)
{
    if (made == 1 && r->safe_ok && !safe_may_follow(r, s, m)) {
#ifdef CARDTABLE_CHECK_KEYS
        if (safe_move(r, s)) abort();
#endif
        return 0;
    }
    return play_safe(r, s, x);
}

/* A stock move: a deal, or the waste turned over into the stock. */
static inline int stock_move(const PRules *r, uint32_t m)
{
    int src = m & 0xFF, dst = (m >> 8) & 0xFF;
    if (dst == P_NONE) return r->count[K_STOCK] > 0;
    return dst < P_MAXPILES && src < P_MAXPILES && r->kind_of[dst] == K_STOCK && r->kind_of[src] == K_WASTE;
}

/* The engine's one stock move at s (a deal, else the waste turned over
 * into the stock), or 0 where there is none. */
static inline uint32_t next_stock_move(const PRules *r, const PState *s)
{
    if (p_may_deal(r, s)) return p_code(r->first[K_STOCK], P_NONE, 1, P_NONE);
    if (p_may_recycle(r, s)) return p_code(r->first[K_WASTE], r->first[K_STOCK], 1, P_NONE);
    return 0;
}

/* ---- sequences moved through spaces (patience.h, through_spaces) -----------

 * Where a space takes any card, there are no cells, and the unit the rules
 * move is one card or a run of one suit (Spider, Spiderette, Forty Thieves),
 * a sequence that builds down but holds m such units (Spider's 9 of spades
 * on a 10, under the 8-7 of hearts) moves onto a card it builds on, or into
 * a space, through the other spaces, when m <= 2^e with e of them free:
 * the top units go into a space by the same means, the rest onto the
 * target, then the top units onto them. A player counts that as one move;
 * the search's best-first order would have to take every step of it, each
 * position on the way looking worse (a space filled) than the one before.
 * The search lists each such move (m of 2 or more) that gains besides the
 * engine's, as a move of its own (P_SUPER): the sequence is the pile's last
 * face-up cards (a card turned up, or a space left), or, in Spider's games,
 * its lowest card joins a run of its suit where it lies on none now (every
 * such move listed: deals 1-20 at 1,000,000 states, Spider in two suits 13
 * won and Spiderette 9, against 15 and 12 without the moves; kept to those
 * that gain, 16 and 14). It makes the move as the engine's moves it stands
 * for (super_play), which are what its lines hold. It adds moves only and
 * reaches no position the engine's moves do not: every move of the engine
 * is still made, so a search that runs to its end keys the same positions
 * and is as exhaustive as before (benchmarks/through_spaces.py). */

/* Whether a and b (b on a) are two units of a sequence the rules move apart. */
static inline int super_break(const PRules *r, int a, int b)
{
    return r->unit == U_ONE || !r->run[a][b];
}

/* The sequences moved through spaces at s, appended to out[0..n): the new count. */
static int super_moves(const PRules *r, const PState *s, uint32_t *out, int n)
{
    int T = r->ntab, empty = 0, first_space = -1;
    for (int p = 0; p < T; p++)
        if (!s->len[p]) {
            empty++;
            if (first_space < 0) first_space = p;
        }
    if (!empty) return n;
    int one_space = p_sorted_group(r, K_TABLEAU);  /* the key sorts the piles: one space is all */
    for (int p = 0; p < T; p++) {
        int len = s->len[p], up = len - s->down[p], units = 1;
        for (int k = 1; k < up && k < 255; k++) {
            int a = s->cards[p][len - 1 - k], b = s->cards[p][len - k];
            if (!r->build[a][b]) break;
            units += super_break(r, a, b);
            if (units < 2) continue;
            if (units > (1 << empty)) break;  /* no target takes it */
            /* only moves that gain: the pile's last face-up card goes (a card
             * turned up, or a space), or the sequence joins a run of its suit
             * where it lies on no such run now */
            int clears = k + 1 == up, under = clears ? -1 : s->cards[p][len - 2 - k];
            int joined = under >= 0 && !super_break(r, under, a);
            for (int q = 0; q < T && n < P_MAXMOVES; q++) {
                if (q == p) continue;
                int free = empty;
                if (!s->len[q]) {
                    if (!clears || k + 1 == len || (one_space && q != first_space)) continue;
                    free--;
                } else if (s->down[q] >= s->len[q] || !r->build[p_top(s, q)][a]) {
                    continue;
                } else if (!clears && (joined || super_break(r, p_top(s, q), a))) {
                    continue;
                }
                if (units <= (1 << free)) out[n++] = p_code(p, q, k + 1, P_SUPER);
            }
        }
    }
    return n;
}

/* Units lo..hi-1 of unit[] (unit[0] the top one, each its cards) onto `to`
 * from `from`, through the spaces temps[0..nt): the engine's moves, played
 * and pushed on x->path (unless x is NULL), counted in *made. */
static int super_steps(const PRules *r, PState *s, PSearch *x, const int *unit, int lo, int hi, int from, int to,
                       const int *temps, int nt, int *made)
{
    if (hi - lo == 1) {
        uint32_t m = p_code(from, to, unit[lo], P_NONE);
        if (p_play(r, s, m) || (x && path_push(x, m))) return -1;
        ++*made;
        return 0;
    }
    int half = 1 << (nt - 1), a = hi - lo - 1 < half ? hi - lo - 1 : half;
    if (super_steps(r, s, x, unit, lo, lo + a, from, temps[0], temps + 1, nt - 1, made)) return -1;
    if (super_steps(r, s, x, unit, lo + a, hi, from, to, temps + 1, nt - 1, made)) return -1;
    return super_steps(r, s, x, unit, lo, lo + a, temps[0], to, temps + 1, nt - 1, made);
}

/* Make the P_SUPER move m at s as the engine's moves: how many, or -1. */
static int super_play(const PRules *r, PState *s, PSearch *x, uint32_t m)
{
    int src = m & 0xFF, dst = (m >> 8) & 0xFF, n = (m >> 16) & 0xFF, len = s->len[src];
    int unit[P_CAP], nu = 0, size = 1, temps[P_MAXPILES], nt = 0, made = 0;
    for (int k = 1; k < n; k++) {
        if (super_break(r, s->cards[src][len - 1 - k], s->cards[src][len - k])) {
            unit[nu++] = size;
            size = 0;
        }
        size++;
    }
    unit[nu++] = size;
    for (int q = 0; q < r->ntab; q++)
        if (q != src && q != dst && !s->len[q]) temps[nt++] = q;
    return super_steps(r, s, x, unit, 0, nu, src, dst, temps, nt, &made) ? -1 : made;
}

/* ---- cards into the cells together (patience.h, cell_onto) -----------------
 * Where a card in a cell goes at once onto the top card it builds on, a
 * pile's top k cards, each but the lowest lying on the card it builds on,
 * go into k free cells as one move (P_CELLS), for k from 2 up to the free
 * cells: the engine's k moves of one card, each made in turn (cells_play).
 * One at a time, the first card into a cell would go straight back onto the
 * card it came off. */
static int cell_runs(const PRules *r, const PState *s, uint32_t *out, int n)
{
    int c0 = r->first[K_CELL], nc = r->count[K_CELL], free = 0, first = -1;
    for (int i = 0; i < nc; i++)
        if (!s->len[c0 + i]) {
            if (first < 0) first = c0 + i;
            free++;
        }
    if (free < 2) return n;
    for (int p = 0; p < r->ntab; p++) {
        int len = s->len[p], run = 1;
        const uint8_t *y = s->cards[p];
        while (run < len && r->settle_card[y[len - run - 1]] == y[len - run]) run++;
        for (int k = 2; k <= run && k <= free && n < P_MAXMOVES; k++) out[n++] = p_code(p, first, k, P_CELLS);
    }
    return n;
}

/* Make the P_CELLS move m at s as the engine's moves: how many, or -1. */
static int cells_play(const PRules *r, PState *s, PSearch *x, uint32_t m)
{
    int src = m & 0xFF, k = (m >> 16) & 0xFF, c0 = r->first[K_CELL], cell = c0;
    for (int i = 0; i < k; i++) {
        while (s->len[cell]) cell++;
        uint32_t one = p_code(src, cell, 1, P_NONE);
        if (p_play(r, s, one) || (x && path_push(x, one))) return -1;
    }
    return k;
}

/* The moves the search makes at s, into out: the generator's; where stock
 * macro moves are made (patience.h, stock_macros), the generator's less the
 * stock moves, then the macro moves, k stock moves from 1 up, for each k the
 * waste card's moves in the generator's order. A node's move number is its
 * place in this list. With `values`, each macro move's gets the value
 * (evaluate) of the position it leads to. s is played on and left as it
 * was. The count, or -1 when memory runs out. */
static int search_moves(const PRules *r, PState *s, uint32_t *out, int *values)
{
    if (r->pairs_stranded && p_stranded(r, s)) return 0;  /* lost (patience.h, pairs_stranded) */
    int n = p_moves(r, s, out);
    if (r->through_spaces) n = super_moves(r, s, out, n);
    if (r->cell_onto) n = cell_runs(r, s, out, n);
    if (!r->stock_macros) return n;
    int kept = 0, stocked = 0;
    for (int i = 0; i < n; i++) {
        if (stock_move(r, out[i])) stocked = 1;
        else out[kept++] = out[i];
    }
    if (!stocked) return kept;
    /* The stock moves are followed, not made: they only move cards between
     * the stock and the waste, and the waste read from the bottom, then the
     * stock from the top, is always this sequence (patience.h), so the
     * waste's length names the cards of both. Its moves are those of its top
     * card alone, which the generator lists with that card put on top of the
     * waste in place of its own. */
    int stock = r->first[K_STOCK], waste = r->first[K_WASTE], k = 0;
    int in_waste = s->len[waste], in_stock = s->len[stock], pass = s->pass_number;
    uint8_t seq[2 * P_CAP];
    memcpy(seq, s->cards[waste], (size_t)in_waste);
    for (int i = 0; i < in_stock; i++) seq[in_waste + i] = s->cards[stock][in_stock - 1 - i];
    /* the waste's lengths reached so far: at most P_CAP + 1, so k stays
     * within the count's byte */
    uint8_t seen[P_CAP + 1] = {0};
    seen[in_waste] = 1;
    /* the cards that may have a move from the waste, a superset worked out
     * once (the stock moves change nothing else): the foundations take it,
     * or it may go on a tableau pile's top card, into a space or a free cell
     * (covers and reach left aside); the generator lists the others' none */
    uint8_t may[52];
    p_home_cards(r, s, may);
    int open = 0;
    for (int i = 0; i < r->count[K_CELL] && !open; i++) open = !s->len[r->first[K_CELL] + i];
    for (int p = 0; p < r->ntab && !open; p++) open = !s->len[p];
    if (open) memset(may, 1, sizeof may);
    for (int p = 0; p < r->ntab && !open; p++)
        if (s->down[p] < s->len[p])
            for (int i = 0, t = p_top(s, p); i < r->build_n[t]; i++) may[r->build_list[t][i]] = 1;
    int length = s->len[waste], down = s->down[waste], top = length ? p_top(s, waste) : 0;
    static _Thread_local uint32_t there[P_MAXMOVES];
    for (;;) {
        /* the engine's stock move (p_may_deal, p_may_recycle, p_play) */
        if (in_stock) {
            int dealt = r->draw < in_stock ? r->draw : in_stock;
            in_waste += dealt;
            in_stock -= dealt;
        } else if (in_waste && (r->passes == 0 || pass < r->passes)) {
            in_stock = in_waste;
            in_waste = 0;
            pass++;
        } else {
            break;
        }
        k++;
        if (seen[in_waste]) break;  /* where it was before: the moves from here on repeat */
        seen[in_waste] = 1;
        if (!in_waste || !may[seq[in_waste - 1]]) continue;
        if (length) s->cards[waste][length - 1] = seq[in_waste - 1];
        else { s->cards[waste][0] = seq[in_waste - 1]; s->len[waste] = 1; }
        s->down[waste] = 0;
        int count = p_moves_of(r, s, there, waste);
        for (int i = 0; i < count && kept >= 0; i++) {
            if ((int)(there[i] & 0xFF) != waste || stock_move(r, there[i])) continue;
            if (values) {
                if (p_play(r, s, there[i])) { kept = -1; break; }
                /* where passes are counted, a macro that turns the
                 * waste over spends one: tried after those that do not */
                values[kept] = evaluate(r, s) + (r->passes && pass > s->pass_number ? W_PASS : 0);
                p_undo(r, s);
            }
            out[kept++] = p_code(waste, (there[i] >> 8) & 0xFF, k, P_MACRO);
        }
        s->len[waste] = (uint8_t)length;
        s->down[waste] = (uint8_t)down;
        if (length) s->cards[waste][length - 1] = (uint8_t)top;
        if (kept < 0) break;
    }
    return kept;
}

/* The k stock moves before a stock macro move's own, made at once: the
 * position the engine's k moves reach (p_play), each of them pushed on
 * x->path unless x is NULL and each an undo mark of its own (the first holds
 * the one op, OP_S, the others none), so that the macro is undone as its
 * moves are; 0, or -1 when memory runs out. The moves change only the stock,
 * the waste and the pass (search_moves; the engine's p_settle after each
 * changes nothing they touch, and is made once after them). With
 * CARDTABLE_CHECK_KEYS the engine's k moves are made too, on a copy, and
 * the two positions compared. */
static int stock_jump(const PRules *r, PState *s, PSearch *x, int k)
{
    int w = r->first[K_WASTE], st = r->first[K_STOCK];
    int lw = s->len[w], ls = s->len[st], dw = s->down[w], ds = s->down[st], pass = s->pass_number, turns = 0;
    for (int i = 0; i < k; i++) {
        uint32_t d;
        if (ls) {  /* a deal: up to r->draw cards, one at a time, onto the waste */
            int dealt = r->draw < ls ? r->draw : ls;
            lw += dealt;
            ls -= dealt;
            if (ds > ls) ds = ls;
            d = p_code(st, P_NONE, 1, P_NONE);
        } else if (lw && (r->passes == 0 || pass < r->passes)) {  /* the waste turned over */
            ls = lw;
            lw = 0;
            dw = 0;
            ds = ls;
            pass++;
            turns++;
            d = p_code(w, st, 1, P_NONE);
        } else {
            return -1;  /* unreachable: search_moves lists a macro only as far as the stock moves go */
        }
        if (x && path_push(x, d)) return -1;
    }
#ifdef CARDTABLE_CHECK_KEYS
    static _Thread_local PState check;
    p_copy_position(r, &check, s);
    for (int i = 0; i < k; i++)
        if (p_play(r, &check, next_stock_move(r, &check))) abort();
#endif
    if (s->nmarks + k > s->capmarks && p_grow((void **)&s->marks, &s->capmarks, s->nmarks + k, sizeof(int)))
        return -1;
    s->marks[s->nmarks++] = s->nops;
    POp op = {OP_S, s->len[w], (uint8_t)turns, 0, s->down[w], s->down[st]};
    if (p_op(s, op)) return -1;
    for (int i = 1; i < k; i++) s->marks[s->nmarks++] = s->nops;
    p_stock_split(r, s, lw);
    s->down[w] = (uint8_t)dw;
    s->down[st] = (uint8_t)ds;
    s->pass_number = pass;
    if (p_settle(r, s)) return -1;
#ifdef CARDTABLE_CHECK_KEYS
    if (check.pass_number != s->pass_number || memcmp(check.len, s->len, sizeof s->len)
        || memcmp(check.down, s->down, sizeof s->down))
        abort();
    for (int p = 0; p < r->npiles; p++)
        if (memcmp(check.cards[p], s->cards[p], s->len[p])) abort();
    while (check.nmarks) p_undo(r, &check);
#endif
    return 0;
}

/* Play move m of search_moves at s, a macro move as its moves of the engine,
 * each pushed on x->path unless x is NULL: how many moves, or -1 when memory
 * runs out. */
static int play_move(const PRules *r, PState *s, PSearch *x, uint32_t m)
{
    int k = 0;
    if ((m >> 24) == P_SUPER) return super_play(r, s, x, m);
    if ((m >> 24) == P_CELLS) return cells_play(r, s, x, m);
    if ((m >> 24) == P_MACRO) {
        k = (int)((m >> 16) & 0xFF);
        if (k && stock_jump(r, s, x, k)) return -1;
        m = p_code(m & 0xFF, (m >> 8) & 0xFF, 1, P_NONE);
    }
    if (p_play(r, s, m) || (x && path_push(x, m))) return -1;
    return k + 1;
}

/* ---- the commute rule (patience.h) ------------------------------------------ */

/* A move the commute rule reads (patience.h, commute): a single move, one
 * card from a tableau pile, a cell or a reserve pile onto a tableau pile or
 * into a cell; or, where a group's move reads its own two piles alone
 * (r->commute_groups), a group of cards from a tableau pile onto one. */
static inline int commute_move(const PRules *r, uint32_t m)
{
    int src = m & 0xFF, dst = (m >> 8) & 0xFF, n = (m >> 16) & 0xFF;
    if ((m >> 24) != P_NONE || n < 1 || src >= r->npiles || dst >= r->npiles) return 0;
    int ks = r->kind_of[src], kd = r->kind_of[dst];
    if (n > 1) return r->commute_groups && ks == K_TABLEAU && kd == K_TABLEAU;
    return (ks == K_TABLEAU || ks == K_CELL || ks == K_RESERVE) && (kd == K_TABLEAU || kd == K_CELL);
}

/* A move of the undo_back rule (patience.h): one move of n cards from a
 * tableau pile, a cell or a reserve pile onto a tableau pile or into a cell. */
static inline int back_move(const PRules *r, uint32_t m)
{
    int src = m & 0xFF, dst = (m >> 8) & 0xFF, n = (m >> 16) & 0xFF;
    if ((m >> 24) != P_NONE || n < 1 || src >= r->npiles || dst >= r->npiles) return 0;
    int ks = r->kind_of[src], kd = r->kind_of[dst];
    return (ks == K_TABLEAU || ks == K_CELL || ks == K_RESERVE) && (kd == K_TABLEAU || kd == K_CELL);
}

/* A commute move's order number (patience.h, commute): what its card goes
 * onto (a card 0, a space 1, a cell 2) * 4096 + the card (a group's lowest)
 * * 64 + that card (52 a space, 53 a cell); `made`: the move of n cards has
 * been made, so they lie on the target's top. */
static inline int order_number(const PRules *r, const PState *s, int src, int dst, int n, int made)
{
    int below = s->len[dst] - (made ? n : 0);
    int card = made ? s->cards[dst][below] : s->cards[src][s->len[src] - n];
    int onto = r->kind_of[dst] == K_CELL ? 53 : below ? s->cards[dst][below - 1] : 52;
    return (onto >= 52 ? onto - 51 : 0) * 4096 + card * 64 + onto;
}

/* What commute_record reads of move m at s before it is made: its source's
 * face-down cards, and the length its target has after it if its cards
 * stay there. */
typedef struct {
    int down, held, left;
} CommuteBefore;

static inline CommuteBefore commute_before(const PRules *r, const PState *s, uint32_t m)
{
    int src = m & 0xFF, dst = (m >> 8) & 0xFF, n = (int)((m >> 16) & 0xFF);
    return (CommuteBefore){src < r->npiles ? s->down[src] : 0, dst < r->npiles ? s->len[dst] + n : -1,
                           src < r->npiles ? s->len[src] - n : -1};
}

/* The record of a commute move m that made the position s, for the rule (0:
 * none): 1 + source + piles * (target + piles * (2 * (cards - 1) +
 * whether it turned a card up)), the first two alone for a single move of
 * a game without face-down cards, as before groups were read. `made`,
 * `safe`: the moves it made, and the safe moves after it (the rule reads a
 * move after which none was made, and whose cards stay on its target and
 * left its source as it was: no complete run took them, or the cards they
 * uncovered, home); `before`: commute_before of m. */
static inline uint64_t commute_record(const PRules *r, const PState *s, uint32_t m, int made, int safe,
                                      CommuteBefore before)
{
    if (r->commute ? made != 1 || safe || !commute_move(r, m)
                   : !r->undo_back || made != 1 || safe || !back_move(r, m))
        return 0;
    int src = m & 0xFF, dst = (m >> 8) & 0xFF;
    if (s->len[dst] != before.held) return 0;
    /* nothing filled its source (undo_back), or took a complete run home from
     * it (Scorpion's, Spider's: then the move straight back lands elsewhere) */
    if (s->len[src] != before.left) return 0;
    uint64_t P = (uint64_t)r->npiles, n = (m >> 16) & 0xFF, turned = s->down[src] < before.down;
    return 1 + (uint64_t)src + P * ((uint64_t)dst + P * (2 * (n - 1) + turned));
}

/* The commute rule at a node: the move x that made it (its record), as
 * what the rule compares each move y with. */
typedef struct {
    int src, dst, n, turned, order; /* src < 0: no record */
} Commuter;

static inline void commuter_read(const PRules *r, const PState *s, uint64_t last, Commuter *c)
{
    *c = (Commuter){-1, -1, 0, 0, 0};
    if (!last) return;
    uint64_t P = (uint64_t)r->npiles, v = last - 1;
    c->src = (int)(v % P);
    c->dst = (int)(v / P % P);
    v /= P * P;
    c->n = (int)(v / 2) + 1;
    c->turned = (int)(v % 2);
    c->order = r->commute ? order_number(r, s, c->src, c->dst, c->n, 1) : 0;
}

/* Whether the rule drops move y at the node: 2 when (1) y takes x's cards
 * straight back (x turned no card up; into any cell from a cell), which
 * gives the node's parent again, the rule of undo_back too; 1 when, should
 * no safe move follow y, (2) the piles of y and x are four and y's order
 * number is below x's; else 0. */
static inline int commute_drops(const PRules *r, const PState *s, const Commuter *c, uint32_t y)
{
    if (c->src < 0 || !(r->commute ? commute_move(r, y) : back_move(r, y))) return 0;
    int src = y & 0xFF, dst = (y >> 8) & 0xFF, n = (y >> 16) & 0xFF;
    /* back where they came from, or from a cell into any cell (the key sorts the cells) */
    if (src == c->dst && (dst == c->src || (r->kind_of[dst] == K_CELL && r->kind_of[c->src] == K_CELL)))
        return n == c->n && !c->turned ? 2 : 0;
    return r->commute && src != c->src && src != c->dst && dst != c->src && dst != c->dst
           && order_number(r, s, src, dst, n, 0) < c->order;
}

/* Whether the position the search is at was reached by a stock move, where
 * a deal waits for the waste (patience.h, deal_waits): the last move on the
 * path. Its key gets this as a byte of its own. */
static inline int dealt(const PRules *r, const PSearch *x)
{
    return r->deal_waits && x->npath && stock_move(r, x->path[x->npath - 1]);
}

/* Put the byte of a deal waiting for the waste after the position's key
 * (n bytes) in x->key: its new length, or 0 where the position reached by a
 * stock move was also reached otherwise (that one makes every move this one
 * would, so this one is as good as seen). */
static int key_dealt(const PRules *r, PSearch *x, int n)
{
    if (!r->deal_waits) return n;
    x->key[n] = 0;
    if (!dealt(r, x)) return n + 1;
    if (table_has(&x->table, x->key, n + 1)) return 0;
    x->key[n] = 1;
    return n + 1;
}

/* A move the search leaves out after a stock move (patience.h, deal_waits):
 * one that is neither a stock move nor from the waste. */
static inline int waits(const PRules *r, uint32_t m, int after_deal)
{
    return after_deal && !stock_move(r, m) && r->kind_of[m & 0xFF] != K_WASTE;
}

/* The state reached by the last `entry` moves, the generator's move number
 * `move` of the state `parent` and the safe moves after it: a win (1), seen
 * (0, the moves taken back), new (2, a frame pushed), or an error (<0).
 * `last`: the commute rule's record of the move (commute_record), kept with
 * the node for the best-first search, which reads it when the node is handed
 * over open; the depth-first search itself drops no move by it (dropped
 * there, a move waits for the whole subtree of the move before it: Yukon's
 * deals 1-200 at 200,000 states, 141 decided against 146). */
static int enter(const PRules *r, PState *s, PSearch *x, int entry, uint64_t parent, int move, uint64_t last)
{
    if (p_is_won(r, s)) return 1;
    uint64_t at = 0;
    int added;
    if (x->nodes) {
        added = add_record(r, s, x, parent, move, last, &at);
    } else {
        int n = key_dealt(r, x, p_key(r, s, x->key));
        added = n ? table_add(&x->table, x->key, n, NULL, 0, &at) : 0;
    }
    if (added < 0) return -1;
    if (!added) {
        for (int i = 0; i < entry; i++) p_undo(r, s);
        x->npath -= entry;
        return 0;
    }
    x->states++;
    if (x->nmoves + P_MAXMOVES > x->capmoves) {
        size_t cap = x->capmoves ? x->capmoves * 2 : (size_t)P_MAXMOVES * 4;
        uint32_t *mv = realloc(x->moves, cap * sizeof *mv);
        if (!mv) return -1;
        x->moves = mv;
        uint16_t *mi = realloc(x->midx, cap * sizeof *mi);
        if (!mi) return -1;
        x->midx = mi;
        x->capmoves = cap;
    }
    uint32_t *buf = move_buffer();
    static _Thread_local int macro_values[P_MAXMOVES];
    int count = search_moves(r, s, buf, macro_values);
    if (count < 0) return -1;
    /* best first: by the value of the position each move leads to, then by
     * the move's own priority, then in the generator's order */
    uint32_t *dst = x->moves + x->nmoves;
    static _Thread_local uint64_t order[P_MAXMOVES];
    int kept = 0, after_deal = dealt(r, x);
    if (x->quick) {
        int digs = x->quick <= QUICK_DIG_SCANS;  /* and no plain move of a tableau card into a cell */
        if (digs) count += quick_digs(r, s, buf + count);
        quick_order(r, s, buf, count, order, x->quick - 1, (uint64_t)x->states, x->wide);
        for (int i = 0; i < count; i++) {
            uint32_t m = buf[order[i] & 0xFFFFu];
            int dst = (m >> 8) & 0xFF;
            if (left_out(r, s, m) || waits(r, m, after_deal)) continue;
            if (digs && dst < r->npiles && r->kind_of[dst] == K_CELL && r->kind_of[m & 0xFF] == K_TABLEAU) continue;
            order[kept++] = order[i];
        }
    }
    int sideways_left = 0;  /* the focused pass left a sideways move out (note_sideways) */
    int base[P_MAXPILES];
    base[0] = BASES_LATER;  /* run_bases, worked out at need */
    for (int i = 0; i < count && !x->quick; i++) {
        int side = x->focus && sideways(r, s, buf[i], base);
        sideways_left |= side;
        if (side || left_out(r, s, buf[i]) || waits(r, buf[i], after_deal)) continue;
        uint64_t value = 0;
        if (ORDER_BY_VALUE && (buf[i] >> 24) == P_MACRO) {
            value = (uint64_t)macro_values[i];
        } else if (ORDER_BY_VALUE) {
            int made = play_move(r, s, NULL, buf[i]);
            if (made < 0) return -1;
            value = (uint64_t)evaluate(r, s);
            while (made--) p_undo(r, s);
        }
        order[kept++] = value << 40 | (uint64_t)priority(r, s, buf[i]) << 32 | (uint64_t)i;
    }
    if (sideways_left && x->nodes && note_sideways(x, at)) return -1;
    p_sort_u64(order, kept);
    count = 0;
    for (int i = 0; i < kept; i++) {
        dst[count] = buf[order[i] & 0xFFFFu];
        if (repeats(r, s, dst, count)) continue;  /* as tried: the first of twins stays */
        x->midx[x->nmoves + (size_t)count++] = (uint16_t)(order[i] & 0xFFFFu);
    }
    if (x->nframes >= x->capframes && p_grow((void **)&x->frames, &x->capframes, x->nframes + 1, sizeof(PFrame)))
        return -1;
    PFrame f = {(int)x->nmoves, count, 0, entry, at};
    x->frames[x->nframes++] = f;
    x->nmoves += (size_t)count;
    return 2;
}

static int search(const PRules *r, PState *s, PSearch *x, long long max_states, double deadline)
{
    long long ticks = 0;
    int safe = play_safe(r, s, x);
    if (safe < 0) return R_MEMORY;
    int e = enter(r, s, x, safe, UINT64_MAX, 0, 0);
    if (e < 0) return R_MEMORY;
    if (e == 1) return R_WON;
    while (x->nframes) {
        PFrame *f = &x->frames[x->nframes - 1];
        if (f->next >= f->n) {
            for (int i = 0; i < f->entry; i++) p_undo(r, s);
            x->npath -= f->entry;
            x->nmoves = (size_t)f->mstart;
            x->nframes--;
            continue;
        }
        int stop = search_stop(&ticks, deadline);
        if (stop >= 0) return stop;
        if (x->states >= max_states) return R_STATES;
        uint32_t m = x->moves[f->mstart + f->next];
        int move = x->midx[f->mstart + f->next++];
        uint64_t parent = f->at;
        int made = 1;
        CommuteBefore before = commute_before(r, s, m);
        if (((m >> 8) & 0xFF) == P_DIG) {
            made = dig_play(r, s, x, m);
            if (made < 0) return R_MEMORY;
            if (!made) continue;
        } else if ((made = play_move(r, s, x, m)) < 0) {
            return R_MEMORY;
        }
        int k = play_safe_after(r, s, x, m, made);
        if (k < 0) return R_MEMORY;
        e = enter(r, s, x, made + k, parent, move, commute_record(r, s, m, made, k, before));
        if (e < 0) return R_MEMORY;
        if (e == 1) return R_WON;
    }
    return R_EXHAUSTED;
}

/* ---- best-first search ------------------------------------------------------ */

static int p_grow_size(void **buf, size_t *cap, size_t need, size_t item)
{
    if (need <= *cap) return 0;
    size_t c = *cap ? *cap : 4096;
    while (c < need) c *= 2;
    void *p = realloc(*buf, c * item);
    if (!p) return -1;
    *buf = p;
    *cap = c;
    return 0;
}

static void heap_push_raw(uint64_t *h, size_t n, uint64_t v)
{
    size_t i = n;
    while (i) {
        size_t up = (i - 1) / 2;
        if (h[up] <= v) break;
        h[i] = h[up];
        i = up;
    }
    h[i] = v;
}

static uint64_t heap_pop(uint64_t *h, size_t *n)
{
    uint64_t top = h[0], v = h[--*n];
    size_t i = 0, m = *n;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= m) break;
        if (c + 1 < m && h[c + 1] < h[c]) c++;
        if (h[c] >= v) break;
        h[i] = h[c];
        i = c;
    }
    if (m) h[i] = v;
    return top;
}

#define P_VALUE_MAX ((1ULL << 24) - 1)

/* A node's record after its key: how far back its parent's record begins
 * (0 at the root; 7 bits a byte, low first, the top bit saying that more
 * follow: the parent is mostly a recent node), the move that leads there as
 * its place in the parent's moves (p_moves of the parent's rebuilt position;
 * the same varint; the safe moves after it follow from the position), where
 * the commute rule holds (patience.h) that move again (commute_record: the
 * move's piles, cards and whether it turned a card up, when it is a move the
 * rule reads after which no safe move was made, else 0; the same varint),
 * and where the piles of the groups the key sorts lie
 * (p_places_put), so that the position rebuilt is the one the search
 * reached, piles in place. */
static const uint8_t *node_payload(const PTable *t, uint64_t at)
{
    int n;
    const uint8_t *k = record_key(t, at, &n);
    return k + n;
}

static const uint8_t *varint_get(const uint8_t *e, uint64_t *v)
{
    *v = 0;
    for (int shift = 0;; shift += 7) {
        *v |= (uint64_t)(*e & 0x7F) << shift;
        if (!(*e++ & 0x80)) return e;
    }
}

static size_t varint_put(uint8_t *e, uint64_t v)
{
    size_t k = 0;
    while (v >= 0x80) { e[k++] = (uint8_t)(v | 0x80); v >>= 7; }
    e[k++] = (uint8_t)v;
    return k;
}

/* Node `at`'s parent (UINT64_MAX at the root) and move number. */
static uint64_t node_parent(const PTable *t, uint64_t at, int *move)
{
    uint64_t back, m;
    const uint8_t *e = varint_get(node_payload(t, at), &back);
    varint_get(e, &m);
    if (move) *move = (int)m;
    return back ? at - back : UINT64_MAX;
}

/* The move node `at` records for the commute rule (0: none). */
static uint64_t node_last(const PTable *t, uint64_t at)
{
    uint64_t v;
    const uint8_t *e = varint_get(varint_get(node_payload(t, at), &v), &v);
    varint_get(e, &v);
    return v;
}

/* Key the position s, reached from node `parent` by its move number `move`
 * and the safe moves after it: 1 and a new node (in the table and the open
 * list), 0 seen, -1 out of memory. */
static int add_record(const PRules *r, const PState *s, PSearch *x, uint64_t parent, int move, uint64_t last,
                      uint64_t *at)
{
    uint8_t places[P_MAXPILES], e[32 + 2 * P_MAXPILES];
    int n = key_dealt(r, x, p_key_places(r, s, x->key, places));
    if (!n) return 0;
    /* most positions reached are there already: the record's payload is
     * written only for a new one */
    uint64_t h = p_hash(x->key, n);
    int found;
    size_t j = table_probe(&x->table, x->key, n, h, &found);
    if (found) return 0;
    /* the record will begin at the arena's end: its parent lies that far back */
    size_t size = varint_put(e, parent == UINT64_MAX ? 0 : x->table.used - parent);
    size += varint_put(e + size, (uint64_t)move);
    if (r->commute || r->undo_back) size += varint_put(e + size, last);
    size += (size_t)p_places_put(r, places, e + size);
    int added = table_put(&x->table, x->key, n, h, j, e, size, at);
#ifdef CARDTABLE_CHECK_KEYS
    if (added == 1 && x->focus) {
        if (p_grow_size((void **)&x->made, &x->capmade, x->nmade + 1, sizeof *x->made)) return -1;
        x->made[x->nmade++] = *at;
    }
#endif
    return added;
}

/* Note node `at` as one whose expansion in the focused pass left a
 * sideways move out (widen opens it again); -1 when memory runs out. */
static int note_sideways(PSearch *x, uint64_t at)
{
    if (p_grow_size((void **)&x->recs, &x->caprecs, x->nrecs + 1, sizeof *x->recs)) return -1;
    x->recs[x->nrecs++] = at;
    return 0;
}

/* Put node `at` (position s) on the open list. */
static int open_node(const PRules *r, const PState *s, PSearch *x, uint64_t at)
{
    if (x->nheap >= x->capheap && p_grow_size((void **)&x->heap, &x->capheap, x->nheap + 1, sizeof *x->heap))
        return -1;
    uint64_t value = (uint64_t)evaluate(r, s);
    if (value > P_VALUE_MAX) value = P_VALUE_MAX;
    heap_push_raw(x->heap, x->nheap++, value << 40 | (P_OFFSET_MASK - at));
    return 0;
}

static int add_node(const PRules *r, const PState *s, PSearch *x, uint64_t parent, int move, uint64_t last)
{
    uint64_t at;
    int added = add_record(r, s, x, parent, move, last, &at);
    if (added <= 0) return added;
    return open_node(r, s, x, at) ? -1 : 1;
}

/* Rebuild node `at`'s position into s (patience.h's p_decode, from the
 * search's root, its piles in their places); -1 if its key does not name one
 * (a bug). */
static int node_load(const PRules *r, PState *s, PSearch *x, uint64_t at)
{
    int n;
    const uint8_t *k = record_key(&x->table, at, &n);
    uint64_t skip;
    uint8_t places[P_MAXPILES];
    const uint8_t *e = varint_get(varint_get(k + n, &skip), &skip);
    if (r->commute || r->undo_back) e = varint_get(e, &skip);
    p_places_get(r, e, places);
    n -= r->deal_waits;  /* the byte after the position's key: reached by a stock move */
    if (p_decode(r, x->root, k, n, places, s)) return -1;
#ifdef CARDTABLE_CHECK_KEYS
    {
        uint8_t again[P_KEYMAX];
        if (p_key(r, s, again) != n || memcmp(again, k, (size_t)n)) abort();
    }
#endif
    return 0;
}

/* Pile p of a (as p_decode rebuilt it) is pile q of b: what the key keeps of
 * them is the same. */
static int same_pile(const PRules *r, const PState *a, int p, const PState *b, int q)
{
    if (a->len[p] != b->len[q]) return 0;
    if (!a->len[p]) return 1;
    if (r->kind_of[p] == K_FOUNDATION && r->short_found) return p_top(a, p) == p_top(b, q);
    return a->down[p] == b->down[q] && !memcmp(a->cards[p], b->cards[q], a->len[p]);
}

/* Where each pile of the rebuilt position c lies in the real position s:
 * within each group the key sorts, the first unmatched pile that is the
 * same. -1 if a pile has none (a bug). */
static int pile_map(const PRules *r, const PState *c, const PState *s, uint8_t *map)
{
    for (int p = 0; p < r->npiles; p++) map[p] = (uint8_t)p;
    int kinds[4] = {K_TABLEAU, K_FOUNDATION, K_CELL, K_RESERVE};
    int sorted[4] = {r->sym_tab && !r->packed, 1, 1, r->sym_res};
    for (int j = 0; j < 4; j++) {
        if (!sorted[j]) continue;
        uint8_t used[P_MAXPILES] = {0};
        int f = r->first[kinds[j]];
        for (int i = 0; i < r->count[kinds[j]]; i++) {
            int q = 0;
            while (q < r->count[kinds[j]] && (used[q] || !same_pile(r, c, f + i, s, f + q))) q++;
            if (q == r->count[kinds[j]]) return -1;
            used[q] = 1;
            map[f + i] = (uint8_t)(f + q);
        }
    }
    return 0;
}

static inline uint32_t map_move(const uint8_t *map, int npiles, uint32_t m)
{
    uint32_t src = m & 0xFF, dst = (m >> 8) & 0xFF, n = (m >> 16) & 0xFF, pair = m >> 24;
    if (src < (uint32_t)npiles) src = map[src];
    if (dst < (uint32_t)npiles) dst = map[dst];
    if (pair < (uint32_t)npiles) pair = map[pair];
    return p_code((int)src, (int)dst, (int)n, (int)pair);
}

/* The winning line in the real position s (the root's on entry), into
 * x->path: the root's safe moves; then for each node from the root down to
 * `at`, and last the winning move `last` of `at`: the node's move in its
 * parent's rebuilt position and the safe moves after it, made there as the
 * search made them, each through the map from that rebuilt position to the
 * real one and checked legal there. R_WON, R_MEMORY or R_BROKEN. */
static int best_line(const PRules *r, PState *s, PSearch *x, uint64_t at, int last, uint32_t *buf)
{
    size_t depth = 0, cap = 64;
    uint64_t *chain = malloc(cap * sizeof *chain);
    if (!chain) return R_MEMORY;
    for (uint64_t n = at; n != UINT64_MAX; n = node_parent(&x->table, n, NULL)) {
        if (depth == cap) {
            uint64_t *c = realloc(chain, 2 * cap * sizeof *chain);
            if (!c) { free(chain); return R_MEMORY; }
            chain = c;
            cap *= 2;
        }
        chain[depth++] = n;
    }
    uint8_t map[P_MAXPILES];
    PState *c = x->scratch;
    x->npath = 0;
    int status = play_safe(r, s, x) < 0 ? R_MEMORY : R_WON;
    for (size_t d = depth; d-- > 0 && status == R_WON;) {
        int move = last;
        if (d) node_parent(&x->table, chain[d - 1], &move);
        c->nops = c->nmarks = c->nsnaps = 0;
        if (node_load(r, c, x, chain[d]) || pile_map(r, c, s, map)) {
            status = R_BROKEN;
            break;
        }
        int count = search_moves(r, c, buf, NULL);
        if (count < 0) {
            status = R_MEMORY;
            break;
        }
        if (move >= count) {
            status = R_BROKEN;
            break;
        }
        int from = x->npath;
        if (play_move(r, c, x, buf[move]) < 0 || play_safe(r, c, x) < 0) {
            status = R_MEMORY;
            break;
        }
        for (int i = from; i < x->npath && status == R_WON; i++) {
            uint32_t real = map_move(map, r->npiles, x->path[i]);
            int count = p_moves(r, s, buf), legal = 0;
            for (int j = 0; j < count && !legal; j++) legal = buf[j] == real;
            if (!legal) status = R_BROKEN;
            else if (p_play(r, s, real)) status = R_MEMORY;
            x->path[i] = real;
        }
    }
    if (status == R_WON && !p_is_won(r, s)) status = R_BROKEN;
    free(chain);
    return status;
}

/* What the node records need before the first one: the search's root
 * position (s), a spare position, and the keys' one length where they have
 * one (taken after the root's safe moves, which the caller has played). */
static int nodes_begin(const PRules *r, const PState *s, PSearch *x, const PState *root)
{
    x->root = calloc(1, sizeof *x->root);
    x->scratch = calloc(1, sizeof *x->scratch);
    if (!x->root || !x->scratch) return -1;
    p_copy_position(r, x->root, root);
    if (r->key_fixed) x->table.fixed = p_key(r, s, x->key) + r->deal_waits;
    return 0;
}

/* The best-first loop over the open nodes; s holds the root's position on
 * entry and on return, its undo log as (nops, nmarks, nsnaps) say. */
#ifdef CARDTABLE_CHECK_KEYS
/* The undo_back rule's claim, checked: move m at node `node` (position s),
 * made with the safe moves after it, gives the key of the node's parent
 * (aborts unless it does); -1 when memory runs out. */
static int back_check(const PRules *r, PState *s, PSearch *x, uint64_t node, uint32_t m)
{
    uint64_t parent = node_parent(&x->table, node, NULL);
    if (parent == UINT64_MAX) abort();
    int made = play_move(r, s, x, m);
    if (made < 0) return -1;
    int k = play_safe_after(r, s, x, m, made);
    if (k < 0) return -1;
    uint8_t key[P_KEYMAX + 1];
    int n = p_key(r, s, key), pn;
    if (r->deal_waits) key[n++] = 0;
    const uint8_t *pk = record_key(&x->table, parent, &pn);
    if (n != pn || memcmp(key, pk, (size_t)n)) abort();
    for (int j = 0; j < made + k; j++) p_undo(r, s);
    return 0;
}
#endif

static int best_loop(const PRules *r, PState *s, PSearch *x, long long max_states, double deadline, int nops,
                     int nmarks, int nsnaps)
{
    long long ticks = 0;
    uint32_t *buf = malloc(P_MAXMOVES * sizeof *buf);
    if (!buf) return R_MEMORY;
    int status = R_EXHAUSTED;
    while (x->nheap || x->holding) {
        int from = 0;
        uint64_t popped;
        if (x->holding) {
            popped = x->held;
            from = x->held_next;
            x->holding = 0;
        } else {
            popped = heap_pop(x->heap, &x->nheap);
        }
        uint64_t node = P_OFFSET_MASK - (popped & P_OFFSET_MASK);
        if (node_load(r, s, x, node)) { status = R_BROKEN; goto done; }
        int count = search_moves(r, s, buf, NULL), after_deal = 0;
        if (count < 0) { status = R_MEMORY; goto done; }
        /* the move that made this node, for the commute rule */
        Commuter commuter;
        commuter_read(r, s, r->commute || r->undo_back ? node_last(&x->table, node) : 0, &commuter);
        if (r->deal_waits) {
            int n;
            const uint8_t *k = record_key(&x->table, node, &n);
            after_deal = k[n - 1];
        }
        int sideways_left = 0;  /* the focused pass left a sideways move out (note_sideways) */
        int base[P_MAXPILES];
        base[0] = BASES_LATER;  /* run_bases, worked out at need */
        for (int i = from; i < count; i++) {
            int stop = search_stop(&ticks, deadline);
            if (stop >= 0) { status = stop; goto done; }
            int side = x->focus && sideways(r, s, buf[i], base);
            if (side && !sideways_left) {
                sideways_left = 1;
                if (note_sideways(x, node)) { status = R_MEMORY; goto done; }
            }
            if (side || left_out(r, s, buf[i]) || waits(r, buf[i], after_deal) || repeats(r, s, buf, i)) continue;
            x->npath = 0;
            uint32_t m = buf[i];
            CommuteBefore before = commute_before(r, s, m);
            /* the commute rule's (1) and (2), once no safe move follows */
            int drop = commute_drops(r, s, &commuter, m);
            if (drop == 2) { /* (1), or undo_back: the node's parent again, so not made (patience.h) */
#ifdef CARDTABLE_CHECK_KEYS
                if (back_check(r, s, x, node, m)) { status = R_MEMORY; goto done; }
#endif
                continue;
            }
            int made = play_move(r, s, x, m);
            if (made < 0) { status = R_MEMORY; goto done; }
            int k = play_safe_after(r, s, x, m, made);
            if (k < 0) { status = R_MEMORY; goto done; }
            if (p_is_won(r, s)) {
                for (int j = 0; j < made + k; j++) p_undo(r, s);
                p_copy_position(r, s, x->root);
                status = best_line(r, s, x, node, i, buf);
                goto done;
            }
            uint64_t last = commute_record(r, s, m, made, k, before);
            if (drop && last) {
                p_undo(r, s);
                continue;
            }
            int added = add_node(r, s, x, node, i, last);
            if (added < 0) { status = R_MEMORY; goto done; }
            for (int j = 0; j < made + k; j++) p_undo(r, s);
            if (added && ++x->states >= max_states && x->nheap) {
                if (x->hold) {
                    x->holding = 1;
                    x->held = popped;
                    x->held_next = i + 1;
                    status = R_STATES;
                    goto done;
                }
                /* the node goes back on the open list: the focused pass's
                 * search goes on from it (widen) */
                status = p_grow_size((void **)&x->heap, &x->capheap, x->nheap + 1, sizeof *x->heap) ? R_MEMORY
                                                                                                    : R_STATES;
                if (status == R_STATES) heap_push_raw(x->heap, x->nheap++, popped);
                goto done;
            }
        }
    }
done:
    /* the line's replay left its moves in the undo log: the root's position
     * comes back whole instead */
    s->nops = nops;
    s->nmarks = nmarks;
    s->nsnaps = nsnaps;
    p_copy_position(r, s, x->root);
    free(buf);
    return status;
}

static int best_search(const PRules *r, PState *s, PSearch *x, long long max_states, double deadline)
{
    x->npath = 0;
    int nops = s->nops, nmarks = s->nmarks, nsnaps = s->nsnaps;
    PState *start = calloc(1, sizeof *start);
    if (!start) return R_MEMORY;
    p_copy_position(r, start, s);
    int safe = play_safe(r, s, x);
    int failed = safe < 0 || (!p_is_won(r, s) && nodes_begin(r, s, x, start));
    free(start);
    if (failed) return R_MEMORY;
    if (p_is_won(r, s)) return R_WON;
    if (add_node(r, s, x, UINT64_MAX, 0, 0) < 0) return R_MEMORY;
    x->states = 1;
    for (int i = 0; i < safe; i++) p_undo(r, s);
    return best_loop(r, s, x, max_states, deadline, nops, nmarks, nsnaps);
}

/* ---- the hybrid: depth first, then best first ----------------------------- */

/* A depth-first search for `first` states of the budget, which finds the
 * wins that lie along its ordered moves soonest, keeping each state as a
 * node record. When `first` is negative: DFS_SHARE percent where the deal
 * holds face-down cards or a stock that deals onto the tableau, whose order
 * gates what can be done next, and cards are built on the tableau (Klondike,
 * Spider in one suit, Canfield), unless a card may be built on one it cannot
 * move with (builds_out_of_run: Spider in two and four suits, Spiderette),
 * where the depth-first search's first choices build out of suit and bury
 * what the best-first search needs (deals 61-160 of Spider at 200,000
 * states: 16 won best first from the start against 3 after the depth-first
 * part; deals 41-140: Spider in two suits 66 against 59, Spiderette 48
 * against 40: benchmarks/builds_out_of_run.py; best first from the start in
 * every game lost Spider in one suit 92 to 73, and gained nothing that held
 * in Klondike, Yukon, Scorpion or Canfield); one state (the
 * best-first search alone) where every
 * card is open from the start (FreeCell, Baker's Dozen), even with a stock
 * dealt to a waste, whose turns are moves like any other (Forty Thieves), or
 * nothing goes onto the tableau (Black Hole, Golf, TriPeaks), where the
 * depth-first search's first choices cost the best-first search more wins
 * than they find (deals 1-20 at 200,000 states: Baker's Dozen 12 won best
 * first, 7 after half the budget depth first, 8 after a tenth; TriPeaks 20
 * and 19; Forty Thieves, deals 61-160 with the waste's cards counted in the
 * estimate, 23 best first, 21 after the depth-first and focused passes, 18
 * after the focused pass alone: its wins move cards from one build to
 * another, which the focused pass leaves out). Then, if it neither wins nor
 * finishes, the best-first search takes over its table and its stack. Why
 * nothing is lost: each state in the table is then either done (each of its
 * moves led to a state in the table, which the depth-first search finished
 * or which is on its stack) or on the stack, and every state on the stack
 * goes on the open list; the best-first search expands every open node
 * before it says "unwinnable", and a move to a state in the table is skipped
 * by both searches alike.
 *
 * The focused pass (`focus` states, by default FOCUS_SHARE percent of the
 * budget where the hybrid goes depth first) runs the two first without the
 * sideways moves, in the same table; then `widen` puts back on the open list
 * every state it expanded that has a sideways move (noted as the pass left
 * one out: note_sideways, not looked for again), and the best-first
 * search goes on with every move for the rest of the budget. The same
 * argument holds: each state is then done with every move or open. Deals
 * 1-20 at 200,000 states, won before and after: Spider one suit 16 to 20, two
 * suits 1 to 10, Spiderette 0 to 3, Klondike 16 to 17, Yukon 13 to 14
 * (Canfield 12 to 11: its deals 1, 8 and 10 need sideways moves early, and
 * 14 is left undecided).
 *
 * The probe: where the focused pass runs by default, the hybrid gets the
 * budget less PROBE_SHARE percent of it, and when that runs out, the rest
 * goes to a plain depth-first search from scratch, with every move, in a
 * table of its own (the hybrid's is freed first). A win it finds is a win
 * (its line is replayed like any other); run to its end, it has tried every
 * move of every position it reached from the start, so "unwinnable" is as
 * sure as the hybrid's; else the answer is the budget's. The focused pass
 * leaves out the sideways moves some lines need early, and the best-first
 * search after it need not reach them in time: Spider in one suit, deals
 * 1-200 at 1,000,000 states, 192 won against 187 (deals 42, 55, 145, 172
 * and 200, each won in 2,836 to 37,310 of the probe's states). The cost is
 * the proofs that need the hybrid's last 5%: Scorpion's deal 79 of 1-100
 * (benchmarks/depth_probe.py gives the figures of each game). */
static int goes_deep(const PRules *r)
{
    return (r->any_down || (r->count[K_STOCK] && r->stock_to == S_TABLEAU)) && !r->fixed_tab;
}

/* Whether two cards of the position may be built one on the other but not
 * moved together, where runs move as units (Spider's builds out of suit in
 * two or four suits, Spiderette). Never in Spider in one suit or Klondike,
 * whose builds are all runs, nor where any face-up cards move together
 * (Yukon, Scorpion) or only whole piles do (Canfield). s holds every card of
 * the deck, the foundations' included. */
static int builds_out_of_run(const PRules *r, const PState *s)
{
    if (r->unit != U_RUN && r->unit != U_SUPERMOVE) return 0;
    uint8_t present[52] = {0};
    for (int p = 0; p < r->npiles; p++)
        for (int k = 0; k < s->len[p]; k++) present[s->cards[p][k]] = 1;
    for (int a = 0; a < 52; a++) {
        if (!present[a]) continue;
        for (int b = 0; b < 52; b++)
            if (present[b] && r->build[a][b] && !r->run[a][b]) return 1;
    }
    return 0;
}

/* After the focused pass: every node it expanded without its sideways moves
 * goes back on the open list, so that the search goes on with every move
 * (the nodes on the open list stay there; a node with no sideways move is
 * done). The pass noted those nodes as it left their sideways moves out
 * (note_sideways): its searches look at every move the engine lists (their
 * lists begin with p_moves, and the check comes before any other), so the
 * nodes noted are those whose engine moves hold a sideways one, which the
 * build with CARDTABLE_CHECK_KEYS checks against every node the pass made.
 * 0, or R_MEMORY, R_BROKEN. */
static int widen(const PRules *r, PState *s, PSearch *x)
{
    size_t n = x->nheap;
    uint64_t *open = malloc((n ? n : 1) * sizeof *open);
    int status = 0;
    if (!open) { status = R_MEMORY; goto done; }
    for (size_t i = 0; i < n; i++) open[i] = P_OFFSET_MASK - (x->heap[i] & P_OFFSET_MASK);
    qsort(open, n, sizeof *open, u64_cmp);
    x->focus = 0;
    /* the nodes whose expansion left a sideways move out (note_sideways; the
     * focused pass never runs in turns, so no node is held half expanded),
     * in the order they were made, each once */
    if (x->nrecs) qsort(x->recs, x->nrecs, sizeof *x->recs, u64_cmp);
    for (size_t i = 0, j = 0; i < x->nrecs; i++) {
        uint64_t at = x->recs[i];
        if (i && at == x->recs[i - 1]) continue;
        while (j < n && open[j] < at) j++;
        if (j < n && open[j] == at) continue;
        if (node_load(r, s, x, at)) { status = R_BROKEN; goto done; }
        if (open_node(r, s, x, at)) { status = R_MEMORY; goto done; }
    }
#ifdef CARDTABLE_CHECK_KEYS
    /* every node the pass made and did not leave open was noted exactly when
     * the engine lists a sideways move of it */
    for (size_t i = 0, j = 0, k = 0; i < x->nmade; i++) {
        uint64_t at = x->made[i];
        while (j < n && open[j] < at) j++;
        if (j < n && open[j] == at) continue;
        while (k < x->nrecs && x->recs[k] < at) k++;
        int noted = k < x->nrecs && x->recs[k] == at;
        static _Thread_local uint32_t buf[P_MAXMOVES];
        if (node_load(r, s, x, at)) { status = R_BROKEN; goto done; }
        int count = p_moves(r, s, buf), any = 0;
        int base[P_MAXPILES];
        base[0] = BASES_LATER;  /* run_bases, worked out at need */
        for (int m = 0; m < count && !any; m++) any = sideways(r, s, buf[m], base);
        if (any != noted) abort();
    }
    free(x->made);
    x->made = NULL;
    x->nmade = x->capmade = 0;
#endif
done:
    free(open);
    free(x->recs);
    x->recs = NULL;
    x->nrecs = x->caprecs = 0;
    return status;
}

static int hybrid_search(const PRules *r, PState *s, PSearch *x, long long max_states, long long first,
                         long long focus, double deadline)
{
    long long budget = focus > 0 && focus < max_states ? focus : max_states;
    x->focus = focus > 0;
    if (first < 0) first = goes_deep(r) && !builds_out_of_run(r, s) ? budget * DFS_SHARE / 100 : 1;
    if (first < 1) first = 1;
    if (first > budget) first = budget;
    int nops = s->nops, nmarks = s->nmarks, nsnaps = s->nsnaps;
    /* the records' root: the position after the start's safe moves */
    PState *start = calloc(1, sizeof *start);
    if (!start) return R_MEMORY;
    p_copy_position(r, start, s);
    int safe = play_safe(r, s, x);
    int failed = safe < 0 || nodes_begin(r, s, x, start);
    free(start);
    if (failed) return R_MEMORY;
    for (int i = 0; i < safe; i++) p_undo(r, s);
    x->npath = 0;
    x->nodes = 1;
    int status = search(r, s, x, first, deadline);
    if (status == R_STATES) {
        /* hand the stack over, top down, taking its moves back */
        for (int i = x->nframes - 1; i >= 0; i--) {
            if (open_node(r, s, x, x->frames[i].at)) return R_MEMORY;
            for (int j = 0; j < x->frames[i].entry; j++) p_undo(r, s);
        }
        x->nframes = 0;
        x->nmoves = 0;
        x->npath = 0;
        if (x->states < budget) status = best_loop(r, s, x, budget, deadline, nops, nmarks, nsnaps);
    }
    if (!x->focus || (status != R_STATES && status != R_EXHAUSTED)) return status;
    int widened = widen(r, s, x);
    if (widened) return widened;
    if (x->states >= max_states) {
        p_copy_position(r, s, x->root);
        return R_STATES;
    }
    return best_loop(r, s, x, max_states, deadline, nops, nmarks, nsnaps);
}

/* The hybrid's turn in quick_turns' schedule: on in `turns` until it holds
 * `goal` states (begun by the first turn: the hybrid with one state depth
 * first, whose root it keeps; then its best-first loop, from where it
 * stopped); the undo log's marks as they were when the scans began. */
static int turn(const PRules *r, PState *s, PSearch *turns, long long goal, double deadline, int nops, int nmarks,
                int nsnaps)
{
    return turns->root ? best_loop(r, s, turns, goal, deadline, nops, nmarks, nsnaps)
                       : hybrid_search(r, s, turns, goal, 1, 0, deadline);
}

/* The bytes a search's tables and stacks hold. */
static size_t search_bytes(const PSearch *x)
{
    return x->table.cap + slot_bytes(&x->table, x->table.mask + 1) + x->capmoves * (sizeof(uint32_t) + sizeof(uint16_t))
        + x->capheap * sizeof(uint64_t) + (x->root ? 2 * sizeof(PState) : 0)
        + (size_t)x->capframes * sizeof(PFrame) + (size_t)x->cappath * sizeof(uint32_t)
        + x->caprecs * sizeof(uint64_t);
}

/* A search's state with its table sized for the budget (from 2^`bits`
 * slots up to 2^`most`; it grows past that as it fills); NULL when memory
 * runs out. */
static PSearch *search_new(const PRules *r, long long max_states, int bits, int most)
{
    PSearch *x = calloc(1, sizeof *x);
    if (!x) return NULL;
    while (((long long)1 << bits) * 3 / 4 < max_states && bits < most) bits++;
    /* a record is at most its length's 3 bytes, a key (a length and a
     * face-down count a pile, every card once, the pass and redeals) and a
     * node's two varints and places: under 4 GiB in all, 4-byte offsets do */
    long long record = 3 + 4 * r->npiles + r->total + 4 + 24;
    int width = max_states < ((1LL << 32) - 2) / record ? 4 : 5;
    if (table_init(&x->table, bits, width)) {
        free(x);
        return NULL;
    }
    return x;
}

/* The quick first stage: depth-first scans in turn, each from scratch with
 * its own order (quick_order) and budget, as fc-solve's presets run several
 * scans: a depth-first search that took a wrong turn early seldom recovers,
 * and another order often wins at once. A scan past the first
 * QUICK_DIG_SCANS that runs out of moves has proved the deal lost (it drops
 * no move); the first ones leave plain moves into cells out, and prove too
 * where there are no cells (deals 1-100 under 150,000 states: Beleaguered
 * Castle's 2,107,765 states in all fall to 2,098,693, the same verdicts;
 * decided there with the budgets doubled every 8 scans, as with cells:
 * Beleaguered Castle 92, Streets and Alleys 82, King Albert 84, Baker's
 * Dozen 85; every 4, 92, 85, 82 and 83; every 2, 91, 81, 81 and 83; every
 * scan, 91, 81, 82 and 82; every 2 from 1,000, 91, 82, 82 and 81). With
 * `turns` (quick_turns: a hybrid search made with search_new, not begun),
 * after each scan the hybrid goes on in that search for as many states as
 * the scan took, and when its turn ends the search (a win, a proof, the
 * time) *by_turns is set and `turns` holds it; the budget counts the
 * states of both. On return *x holds the last scan (its line when it won),
 * *spent the states of the scans before it, and s the position it was
 * given when the budget ran out. */
static int quick_stage(const PRules *r, PState *s, PSearch **x, PSearch *turns, long long max_states,
                       double deadline, long long *spent, int *by_turns)
{
    int marks = s->nmarks, wide = quick_wide(r);
    /* in turns, the scans go on for as long as the budget lasts: half of it each */
    long long limit = turns ? max_states : wide ? QUICK_WIDE : QUICK_NARROW;
    *spent = 0;
    int nops = s->nops, nsnaps = s->nsnaps;
    for (int scan = 0;; scan++) {
        long long budget = (long long)QUICK_FIRST << (scan / QUICK_PER), left = limit - *spent;
        long long room = max_states - *spent - (turns ? turns->states : 0);
        if (room < left) left = room;
        if (budget > left) budget = left;
        if (budget <= 0) return R_STATES;
        if (scan) {
            search_free(*x);
            free(*x);
            if (!(*x = search_new(r, budget, 10, 20))) return R_MEMORY;
        }
        (*x)->quick = 1 + scan;
        (*x)->wide = wide;
        int status = search(r, s, *x, budget, deadline);
        /* it left plain moves into cells out (a game without cells has none to leave) */
        if (status == R_EXHAUSTED && scan < QUICK_DIG_SCANS && r->count[K_CELL]) status = R_STATES;
        if (status != R_STATES) return status;
        while (s->nmarks > marks) p_undo(r, s);
        long long took = (*x)->states;
        *spent += took;
        (*x)->states = 0;
        if (!turns) continue;
        /* the hybrid's turn: as many states as the scan took, twice as many
         * once the scans have spent QUICK_LATE (quick_turns), in its own
         * table, from where it stopped */
        long long goal = turns->states + (*spent >= QUICK_LATE ? 2 * took : took);
        if (goal > max_states - *spent) goal = max_states - *spent;
        if (goal <= turns->states) return R_STATES;
        status = turn(r, s, turns, goal, deadline, nops, marks, nsnaps);
        if (status != R_STATES) {
            *by_turns = 1;
            return status;
        }
    }
}

/* ---- the lengths search: games whose every move is a top card to the hole -- */

/* Where every move takes the top card of a tableau pile, or the stock's next
 * card, to the hole (Black Hole, Golf: nothing goes onto the tableau, no
 * foundations, cells, reserve, waste, covers or face-down cards), a position
 * is the piles' lengths, the stock's and the hole's top card; and the hole's
 * top card matters only through what the hole takes on it (its row of the
 * rules' hole table: in Black Hole and Golf its rank), so cards with the
 * same row are one class. Two positions with the same lengths and the same
 * class have the same moves, and each move leads them to positions alike
 * again (the card it plays is the same card): one of them is won if and
 * only if the other is. So the key is the lengths and the class, packed in
 * one word and kept up to date move by move; the table is a set of such
 * words; the position is never rebuilt, and the search goes depth first, the
 * winning line being the moves on its stack. The moves are generated here
 * from the lengths, in the generator's order (p_moves: the tableau piles in
 * order, then the deal); CARDTABLE_CHECK_KEYS plays every move in a real
 * position too and aborts unless the two generators agree there. */

typedef struct {
    uint64_t key;   /* the position's packed key */
    int top;        /* the hole's top card, 52 when empty */
    int n, next;    /* its moves (pile numbers, ntab for the deal), in the order tried */
    uint8_t moves[65];
} LFrame;

typedef struct {
    int T, stock, hole, bits;
    const PState *root;
    uint8_t shift[66];       /* each tableau pile's length's bit offset; [T]: the stock's */
    int cls_shift;
    uint8_t cls[53];         /* each card's class (52: the empty hole) */
    uint64_t takes[53];      /* by class: the cards the hole takes on it, as bits */
    uint8_t len[66];
    int left;                /* cards still to go for the win */
    int stock_counts;        /* the stock's cards count for the win */
    /* the set: open addressing, key + 1 in `width` bytes a slot, 0 empty */
    uint8_t *slots;
    size_t mask, count;
    int width;
    LFrame *frames;
    int nframes, capframes;
} LSearch;

/* Whether the rules and the position s fit the lengths search. */
static int lengths_fit(const PRules *r, const PState *s)
{
    if (!r->packed || r->count[K_HOLE] != 1 || r->hole_pairs || r->has_covers || r->nreach || r->complete_runs
        || r->count[K_FOUNDATION] || r->count[K_CELL] || r->count[K_RESERVE] || r->count[K_WASTE] || r->redeals
        || r->ntab > 64 || r->fill != F_NONE || (r->win != W_FOUNDATIONS && r->win != W_TABLEAU_EMPTY))
        return 0;
    if (r->count[K_STOCK] && (r->stock_to != S_HOLE || r->draw != 1 || r->needs_no_empty || !r->fixed_stock))
        return 0;
    for (int p = 0; p < r->ntab; p++)
        if (s->down[p]) return 0;
    return 1;
}

static inline uint64_t l_mix(uint64_t k)
{
    k ^= k >> 31;
    k *= 0xBF58476D1CE4E5B9ULL;
    k ^= k >> 29;
    return k;
}

static inline uint64_t l_slot(const LSearch *l, const uint8_t *slots, size_t j)
{
    uint64_t v;
    memcpy(&v, slots + j * (size_t)l->width, 8);
    return l->width == 8 ? v : v & ((1ULL << (8 * l->width)) - 1);
}

static int l_grow(LSearch *l, size_t size)
{
    uint8_t *slots = calloc(size * (size_t)l->width + 8, 1);
    if (!slots) return -1;
    if (l->slots)
        for (size_t i = 0; i <= l->mask; i++) {
            uint64_t v = l_slot(l, l->slots, i);
            if (!v) continue;
            size_t j = l_mix(v - 1) & (size - 1);
            while (l_slot(l, slots, j)) j = (j + 1) & (size - 1);
            memcpy(slots + j * (size_t)l->width, &v, (size_t)l->width);
        }
    free(l->slots);
    l->slots = slots;
    l->mask = size - 1;
    return 0;
}

/* 1: key is new (now in the set), 0: seen, -1: out of memory. */
static int l_add(LSearch *l, uint64_t key)
{
    uint64_t v = key + 1;
    size_t j = l_mix(key) & l->mask;
    for (;;) {
        uint64_t w = l_slot(l, l->slots, j);
        if (!w) break;
        if (w == v) return 0;
        j = (j + 1) & l->mask;
    }
    memcpy(l->slots + j * (size_t)l->width, &v, (size_t)l->width);
    if (++l->count * 4 >= (l->mask + 1) * 3 && l_grow(l, (l->mask + 1) * 2)) return -1;
    return 1;
}

/* Set up the search from position s: 0, 1 when the key would not fit in a
 * word (the caller takes the generic search), -1 out of memory. */
static int lengths_begin(const PRules *r, const PState *s, LSearch *l, long long max_states)
{
    memset(l, 0, sizeof *l);
    l->T = r->ntab;
    l->stock = r->count[K_STOCK] ? r->first[K_STOCK] : -1;
    l->hole = r->first[K_HOLE];
    l->root = s;
    int nb = 0;
    for (int p = 0; p < l->T; p++) {
        l->shift[p] = (uint8_t)nb;
        nb += r->len_bits[p];
        l->len[p] = s->len[p];
        l->left += s->len[p];
    }
    l->shift[l->T] = (uint8_t)nb;
    l->len[l->T] = l->stock >= 0 ? s->len[l->stock] : 0;
    l->stock_counts = r->win == W_FOUNDATIONS;
    if (l->stock >= 0) {
        nb += r->len_bits[l->stock];
        if (l->stock_counts) l->left += l->len[l->T];
    }
    /* the classes: cards whose rows of the hole table are the same */
    uint8_t rows[53][52];
    int ncls = 0;
    for (int c = 0; c <= 52; c++) {
        if (c < 52) memcpy(rows[c], r->hole[c], 52);
        else memset(rows[c], 1, 52);
        int same = -1;
        for (int d = 0; d < c && same < 0; d++)
            if (!memcmp(rows[d], rows[c], 52)) same = d;
        if (same >= 0) {
            l->cls[c] = l->cls[same];
        } else {
            l->cls[c] = (uint8_t)ncls;
            uint64_t t = 0;
            for (int x = 0; x < 52; x++) t |= (uint64_t)rows[c][x] << x;
            l->takes[ncls++] = t;
        }
    }
    int cb = 0;
    while ((1 << cb) < ncls) cb++;
    l->cls_shift = nb;
    l->bits = nb + cb;
    if (l->bits > 62) return 1;
    l->width = (l->bits + 1 + 7) / 8;
    size_t size = 1 << 16;
    while (size < (1ULL << 22) && (long long)(size * 3 / 4) < max_states) size *= 2;
    l->capframes = l->left + l->len[l->T] + 2;  /* a move a card, and the start */
    l->frames = calloc((size_t)l->capframes, sizeof *l->frames);
    if (!l->frames || l_grow(l, size)) return -1;
    return 0;
}

static void lengths_free(LSearch *l)
{
    free(l->slots);
    free(l->frames);
}

/* The key of the position the lengths and the hole's top card name. */
static uint64_t l_key(const LSearch *l, int top)
{
    uint64_t key = (uint64_t)l->cls[top] << l->cls_shift;
    for (int p = 0; p <= l->T; p++) key += (uint64_t)l->len[p] << l->shift[p];
    return key;
}

static inline int l_card(const LSearch *l, int m)
{
    return m < l->T ? l->root->cards[m][l->len[m] - 1] : l->root->cards[l->stock][l->len[m] - 1];
}

/* The key after move m (card: the card it plays) from the position keyed `key`. */
static inline uint64_t l_child(const LSearch *l, uint64_t key, int m, int card)
{
    return ((key - ((uint64_t)1 << l->shift[m])) & ~((uint64_t)0xFF << l->cls_shift))
        | (uint64_t)l->cls[card] << l->cls_shift;
}

/* The moves of frame f (its key and top set) in the order they are tried:
 * the move that leaves the most moves first (the cards on the piles' tops
 * that the hole takes on its new top card, and the deal), then the later
 * pile (the deal last of all). The generator's order is the tableau piles in
 * order, then the deal. The order only decides which move is tried first,
 * never whether one is. */
static void l_moves(const LSearch *l, LFrame *f)
{
    uint64_t take = l->takes[l->cls[f->top]], tops = 0;
    int n = 0;
    for (int p = 0; p < l->T; p++)
        if (l->len[p]) {
            int c = l_card(l, p);
            tops |= 1ULL << c;
            if (take >> c & 1) f->moves[n++] = (uint8_t)p;
        }
    int deal = l->len[l->T] > 0;
    f->next = 0;
    int score[66];
    for (int i = 0; i < n; i++) {
        int p = f->moves[i], c = l_card(l, p);
        uint64_t after = tops & ~(1ULL << c);
        if (l->len[p] > 1) after |= 1ULL << l->root->cards[p][l->len[p] - 2];
        score[i] = (__builtin_popcountll(l->takes[l->cls[c]] & after) + deal) << 7 | p;
    }
    for (int i = 1; i < n; i++) {
        uint8_t x = f->moves[i];
        int sx = score[i], j = i - 1;
        while (j >= 0 && score[j] < sx) { f->moves[j + 1] = f->moves[j]; score[j + 1] = score[j]; j--; }
        f->moves[j + 1] = x;
        score[j + 1] = sx;
    }
    if (deal) f->moves[n++] = (uint8_t)l->T;
    f->n = n;
    /* the children's slots are fetched while the search goes on */
    for (int i = 0; i < n; i++)
        __builtin_prefetch(l->slots + (l_mix(l_child(l, f->key, f->moves[i], l_card(l, f->moves[i]))) & l->mask)
                           * (size_t)l->width);
}

static uint32_t l_code(const LSearch *l, int m)
{
    return m < l->T ? p_code(m, l->hole, 1, P_NONE) : p_code(l->stock, P_NONE, 1, P_NONE);
}

/* The search from position s (left as it was); the winning line in x->path. */
static int lengths_search(const PRules *r, PState *s, PSearch *x, LSearch *l, long long max_states, double deadline)
{
    long long ticks = 0;
    int hole_len = s->len[l->hole];
    LFrame *f = &l->frames[0];
    f->top = hole_len ? p_top(s, l->hole) : 52;
    f->key = l_key(l, f->top);
    if (!l->left) return R_WON;
    if (l_add(l, f->key) < 0) return R_MEMORY;
    x->states = 1;
    l_moves(l, f);
    l->nframes = 1;
#ifdef CARDTABLE_CHECK_KEYS
    PState *check = calloc(1, sizeof *check);
    if (!check) return R_MEMORY;
    p_copy_position(r, check, s);
#define L_CHECK(frame) do { \
        uint32_t want[P_MAXMOVES], got[66]; \
        int nw = p_moves(r, check, want), ng = 0; \
        for (int p_ = 0; p_ <= l->T; p_++) \
            for (int i_ = 0; i_ < (frame)->n; i_++) \
                if ((frame)->moves[i_] == p_) got[ng++] = l_code(l, p_); \
        if (nw != ng || memcmp(want, got, (size_t)ng * sizeof *got)) abort(); \
    } while (0)
    L_CHECK(f);
#endif
    int status = R_EXHAUSTED;
    while (l->nframes) {
        f = &l->frames[l->nframes - 1];
        if (f->next >= f->n) {
            l->nframes--;
            if (l->nframes) {
                LFrame *up = &l->frames[l->nframes - 1];
                l->len[up->moves[up->next - 1]]++;
                l->left += up->moves[up->next - 1] < l->T || l->stock_counts;
#ifdef CARDTABLE_CHECK_KEYS
                p_undo(r, check);
#endif
            }
            continue;
        }
        int stop = search_stop(&ticks, deadline);
        if (stop >= 0) { status = stop; break; }
        if (x->states >= max_states) { status = R_STATES; break; }
        int m = f->moves[f->next++];
        int card = l_card(l, m);
        uint64_t key = l_child(l, f->key, m, card);
        int left = l->left - (m < l->T || l->stock_counts);
        if (!left) {
            x->npath = 0;
            for (int d = 0; d < l->nframes; d++) {
                LFrame *g = &l->frames[d];
                if (path_push(x, l_code(l, g->moves[g->next - 1]))) { status = R_MEMORY; break; }
            }
            if (status != R_MEMORY) status = R_WON;
            break;
        }
        int added = l_add(l, key);
        if (added < 0) { status = R_MEMORY; break; }
        if (!added) continue;
        x->states++;
        l->len[m]--;
        l->left = left;
        LFrame *g = &l->frames[l->nframes++];
        g->key = key;
        g->top = card;
        l_moves(l, g);
#ifdef CARDTABLE_CHECK_KEYS
        if (p_play(r, check, l_code(l, m))) abort();
        L_CHECK(g);
#endif
    }
#ifdef CARDTABLE_CHECK_KEYS
#undef L_CHECK
    p_state_free(check);
    free(check);
#endif
    return status;
}

/* ---- the row search: whole piles in a row (Accordion) --------------------- */

/* Where patience.h's notes on the row of whole piles hold (p_row_fit), a
 * position is its row of top cards: the search goes depth first over that
 * row, each position keyed in x->table by its top cards in order (6 bits a
 * card, the bits left over set), the winning line being its stack; from a
 * position whose top cards form two groups or more it goes no further
 * (p_row_joined). The moves are made from the row, never rebuilt from a key;
 * CARDTABLE_CHECK_KEYS plays each one in a real position too and aborts
 * unless p_moves gives the same moves in the generator's order (the sources
 * in order, each one's targets by pile number). */

/* 0 to search on from positions whose top cards form two groups (to
 * measure the pruning: deals 1-100 at 2,000,000 states, 2.8 million states
 * in all with it, 9.5 million and one deal unknown without) */
#ifndef ROW_JOINED
#define ROW_JOINED 1
#endif

typedef struct {
    int mstart, n, next;  /* its moves in the search's list, in the order tried */
    /* the move that led here, to take back: the source's place in the row,
     * its pile and length, the target pile and its top card before */
    uint8_t at, src, count, dst, covered;
} RFrame;

typedef struct {
    int T, n;                  /* tableau piles; piles in the row */
    int nreach, reach[P_MAXREACH];
    uint8_t row[P_MAXPILES];   /* the piles that hold cards, in order */
    uint8_t top[P_MAXPILES], len[P_MAXPILES];
    uint64_t tops;             /* the top cards, as bits */
    uint64_t join[52];
    const uint8_t (*build)[52];
    uint16_t *moves;           /* each move as its source's place << 8 | its target's */
    size_t nmoves, capmoves;
    RFrame *frames;
    int nframes;
} RSearch;

static void row_free(RSearch *w)
{
    free(w->moves);
    free(w->frames);
}

/* Set up the search from position s: 0, or -1 out of memory. */
static int row_begin(const PRules *r, const PState *s, RSearch *w)
{
    memset(w, 0, sizeof *w);
    w->T = r->ntab;
    w->nreach = r->nreach;
    memcpy(w->reach, r->reach, sizeof w->reach);
    w->build = (const uint8_t (*)[52])r->build;
    for (int p = 0; p < w->T; p++) {
        w->len[p] = s->len[p];
        if (!s->len[p]) continue;
        w->top[p] = (uint8_t)p_top(s, p);
        w->row[w->n++] = (uint8_t)p;
        w->tops |= 1ULL << w->top[p];
    }
    p_row_joins(r, w->join);
    /* a move a pile at most, each with at most (reach) targets */
    size_t per = (size_t)(w->nreach ? w->nreach : (w->n > 1 ? w->n - 1 : 1)) * (size_t)(w->n + 1);
    w->capmoves = per * (size_t)(w->n + 1);
    w->moves = malloc(w->capmoves * sizeof *w->moves);
    w->frames = calloc((size_t)w->n + 1, sizeof *w->frames);
    return w->moves && w->frames ? 0 : -1;
}

/* The row's key into o; its length. */
static int row_key(const RSearch *w, uint8_t *o)
{
    int k = 0, nb = 0;
    uint32_t acc = 0;
    for (int i = 0; i < w->n; i++) {
        acc |= (uint32_t)w->top[w->row[i]] << nb;
        nb += 6;
        while (nb >= 8) { o[k++] = (uint8_t)acc; acc >>= 8; nb -= 8; }
    }
    if (nb) o[k++] = (uint8_t)(acc | (0xFFu << nb));
    return k;
}

/* Whether the pile at row place j takes the one at place i. */
static inline int row_takes(const RSearch *w, int j, int i)
{
    return w->build[w->top[w->row[j]]][w->top[w->row[i]]];
}

/* The moves of the row into out (source place << 8 | target place), in the
 * generator's order; how many. */
static int row_moves(const RSearch *w, uint16_t *out)
{
    int m = 0;
    for (int i = 0; i < w->n; i++) {
        if (w->nreach) { /* the reach, largest first: targets by place */
            for (int k = 0; k < w->nreach; k++)
                if (i - w->reach[k] >= 0 && row_takes(w, i - w->reach[k], i))
                    out[m++] = (uint16_t)(i << 8 | (i - w->reach[k]));
        } else {
            for (int j = 0; j < w->n; j++)
                if (j != i && row_takes(w, j, i)) out[m++] = (uint16_t)(i << 8 | j);
        }
    }
    return m;
}

static void row_play(RSearch *w, int i, int j, RFrame *g)
{
    int src = w->row[i], dst = w->row[j];
    g->at = (uint8_t)i;
    g->src = (uint8_t)src;
    g->count = w->len[src];
    g->dst = (uint8_t)dst;
    g->covered = w->top[dst];
    w->tops &= ~(1ULL << w->top[dst]);
    w->top[dst] = w->top[src];
    w->len[dst] = (uint8_t)(w->len[dst] + w->len[src]);
    w->len[src] = 0;
    memmove(w->row + i, w->row + i + 1, (size_t)(w->n - i - 1));
    w->n--;
}

static void row_undo(RSearch *w, const RFrame *g)
{
    memmove(w->row + g->at + 1, w->row + g->at, (size_t)(w->n - g->at));
    w->row[g->at] = g->src;
    w->n++;
    w->len[g->src] = g->count;
    w->len[g->dst] = (uint8_t)(w->len[g->dst] - g->count);
    w->top[g->dst] = g->covered;
    w->tops |= 1ULL << g->covered;
}

/* The moves of frame f, in the order they are tried: first the move whose
 * covered card (the target's top) has the fewest partners among the other
 * top cards and whose moving card has the most (by partners(covered) -
 * partners(moving), a partner being a top card joined to it: see p_row_joins),
 * then in the generator's order (the leftmost pile first, the farther target
 * first). A card that few others join is best covered while one still can,
 * and a card many join is best left on top. The order only decides which
 * move is tried first, never whether one is. Deals 100 to 1,299 at 200,000
 * states: 1,173 won in 23.0 million states in all, against 1,164 in 29.1
 * million in the generator's order (covering the loneliest card first alone,
 * or moving the best-joined one first alone: 287 and 290 of deals 100-399,
 * against 299 and the generator's 287); deals 1 to 100 at 2,000,000 states,
 * all won: 1.9 million states against 2.8 million. Other orders measured on
 * deals 1 to 100 at 2,000,000 states, in all: 3.3 million with the nearer
 * target first, 4.5 million with the move that leaves the fewest moves first,
 * 7.4 million with the rightmost pile first, 11.0 million (3 deals unknown)
 * with the move that leaves the most moves first. */
static void row_order(RSearch *w, RFrame *f)
{
    uint16_t *mv = w->moves + f->mstart;
    int n = row_moves(w, mv);
    f->n = n;
    f->next = 0;
    if (n < 2) return;
    static _Thread_local uint32_t keyed[P_MAXMOVES];
    static _Thread_local uint16_t listed[P_MAXMOVES];
    for (int a = 0; a < n; a++) {
        int moving = w->top[w->row[mv[a] >> 8]], covered = w->top[w->row[mv[a] & 0xFF]];
        int rank = 64 + __builtin_popcountll(w->join[covered] & w->tops)
            - __builtin_popcountll(w->join[moving] & w->tops);
        keyed[a] = (uint32_t)rank << 16 | (uint32_t)a;
    }
    for (int a = 1; a < n; a++) {
        uint32_t x = keyed[a];
        int b = a - 1;
        while (b >= 0 && keyed[b] > x) { keyed[b + 1] = keyed[b]; b--; }
        keyed[b + 1] = x;
    }
    for (int a = 0; a < n; a++) listed[a] = mv[keyed[a] & 0xFFFF];
    memcpy(mv, listed, (size_t)n * sizeof *mv);
}

/* The search from position s (left as it was); the winning line in x->path. */
static int row_search(const PRules *r, PState *s, PSearch *x, RSearch *w, long long max_states, double deadline)
{
    long long ticks = 0;
    if (w->n <= 1) return R_WON;
    if (ROW_JOINED && !p_row_joined(w->join, w->tops)) return R_EXHAUSTED;
    uint64_t at;
    int nk = row_key(w, x->key);
    if (table_add(&x->table, x->key, nk, NULL, 0, &at) < 0) return R_MEMORY;
    x->states = 1;
    RFrame *f = &w->frames[0];
    f->mstart = 0;
    row_order(w, f);
    w->nframes = 1;
#ifdef CARDTABLE_CHECK_KEYS
    PState *check = calloc(1, sizeof *check);
    if (!check) return R_MEMORY;
    p_copy_position(r, check, s);
#define R_CHECK(frame) do { \
        uint32_t want[P_MAXMOVES], got[P_MAXMOVES]; \
        int nw = p_moves(r, check, want), ng = 0; \
        for (int i_ = 0; i_ < w->n; i_++) \
            for (int j_ = 0; j_ < w->n; j_++) \
                for (int a_ = 0; a_ < (frame)->n; a_++) \
                    if (w->moves[(frame)->mstart + a_] == (uint16_t)(i_ << 8 | j_)) \
                        got[ng++] = p_code(w->row[i_], w->row[j_], w->len[w->row[i_]], P_NONE); \
        if (nw != ng || memcmp(want, got, (size_t)ng * sizeof *got)) abort(); \
    } while (0)
    R_CHECK(f);
#endif
    int status = R_EXHAUSTED;
    while (w->nframes) {
        f = &w->frames[w->nframes - 1];
        if (f->next >= f->n) {
            w->nframes--;
            if (w->nframes) {
                row_undo(w, f);
#ifdef CARDTABLE_CHECK_KEYS
                p_undo(r, check);
#endif
            }
            continue;
        }
        int stop = search_stop(&ticks, deadline);
        if (stop >= 0) { status = stop; break; }
        if (x->states >= max_states) { status = R_STATES; break; }
        uint16_t m = w->moves[f->mstart + f->next++];
        RFrame *g = &w->frames[w->nframes];
        row_play(w, m >> 8, m & 0xFF, g);
        if (w->n == 1) {
            x->npath = 0;
            for (int d = 1; d <= w->nframes && status != R_MEMORY; d++) {
                RFrame *e = &w->frames[d];
                if (path_push(x, p_code(e->src, e->dst, e->count, P_NONE))) status = R_MEMORY;
            }
            if (status != R_MEMORY) status = R_WON;
            row_undo(w, g);
            break;
        }
        int added = 0;
        if (!ROW_JOINED || p_row_joined(w->join, w->tops)) {
            nk = row_key(w, x->key);
            added = table_add(&x->table, x->key, nk, NULL, 0, &at);
            if (added < 0) { row_undo(w, g); status = R_MEMORY; break; }
        }
        if (!added) { row_undo(w, g); continue; }
        x->states++;
        g->mstart = f->mstart + f->n;
        row_order(w, g);
        w->nframes++;
#ifdef CARDTABLE_CHECK_KEYS
        if (p_play(r, check, p_code(g->src, g->dst, g->count, P_NONE))) abort();
        R_CHECK(g);
#endif
    }
    /* take back the moves still on the stack: the row as it began */
    while (w->nframes > 1) row_undo(w, &w->frames[--w->nframes]);
    w->nframes = 0;
#ifdef CARDTABLE_CHECK_KEYS
#undef R_CHECK
    p_state_free(check);
    free(check);
#endif
    return status;
}

/* Replay x->path in s, each move checked legal there (p_moves): R_WON when
 * it wins, R_BROKEN when a move is not legal or the line does not win (a
 * bug), R_MEMORY. */
static int replay_line(const PRules *r, PState *s, PSearch *x)
{
    uint32_t *buf = malloc(P_MAXMOVES * sizeof *buf);
    if (!buf) return R_MEMORY;
    int status = R_WON;
    for (int i = 0; i < x->npath && status == R_WON; i++) {
        int count = p_moves(r, s, buf), legal = 0;
        for (int j = 0; j < count && !legal; j++) legal = buf[j] == x->path[i];
        if (!legal) status = R_BROKEN;
        else if (p_play(r, s, x->path[i])) status = R_MEMORY;
    }
    if (status == R_WON && !p_is_won(r, s)) status = R_BROKEN;
    free(buf);
    return status;
}

/* The position of s exactly, as bytes into o (every pile in place order:
 * its length, face-down count and cards; then the pass and the redeals, not
 * the canonical key, whose sorted piles would equate positions that differ
 * by where their cards lie); its length. */
static int exact_position(const PRules *r, const PState *s, uint8_t *o)
{
    int k = 0;
    for (int p = 0; p < r->npiles; p++) {
        o[k++] = s->len[p];
        o[k++] = s->down[p];
        memcpy(o + k, s->cards[p], s->len[p]);
        k += s->len[p];
    }
    memcpy(o + k, &s->pass_number, sizeof s->pass_number);
    k += (int)sizeof s->pass_number;
    memcpy(o + k, &s->redeals_used, sizeof s->redeals_used);
    return k + (int)sizeof s->redeals_used;
}

/* The winning line x->path with its loops cut out: where the line comes
 * back to a position it was in before, exactly, the moves in between are
 * left out, so it plays the same positions less the detours. The search's
 * table keeps it from meeting a state twice, but a compound move (a dig
 * of the quick scans, a sequence through spaces) passes through positions
 * that are not states, and its first step may take back the move before it:
 * FreeCell's deal 5 went 6>5, then the dig 5>6 5>F, where 5>F alone did the
 * same. Each cut keeps the line legal (the move after the loop is made from
 * the same position as before it) and won (its last position is the
 * same); the engine replays the line anyway. s is the root's state when
 * rewound to `marks` moves; it is left somewhere down the line (the caller
 * rewinds it). R_WON, or R_MEMORY. */
static int cut_loops(const PRules *r, PState *s, PSearch *x, int marks)
{
    int n = x->npath;
    if (n < 2) return R_WON;
    while (s->nmarks > marks) p_undo(r, s);
    /* each position's bytes at offset[i] in one buffer, and their hash */
    int most = r->npiles * (2 + P_CAP) + 2 * (int)sizeof(int);
    uint64_t *hash = malloc((size_t)(n + 1) * sizeof *hash);
    size_t *offset = malloc((size_t)(n + 2) * sizeof *offset);
    uint8_t *bytes = NULL;
    size_t cap = 0, used = 0;
    int status = hash && offset ? R_WON : R_MEMORY;
    for (int i = 0; i <= n && status == R_WON; i++) {
        if (i && p_play(r, s, x->path[i - 1])) { status = R_MEMORY; break; }
        if (used + (size_t)most > cap) {
            size_t want = (used + (size_t)most) * 2;
            uint8_t *grown = realloc(bytes, want);
            if (!grown) { status = R_MEMORY; break; }
            bytes = grown;
            cap = want;
        }
        int k = exact_position(r, s, bytes + used);
        hash[i] = p_hash(bytes + used, k);
        offset[i] = used;
        used += (size_t)k;
        offset[i + 1] = used;
    }
    if (status == R_WON) {
        /* from each position, on from its last visit: a greedy walk that
         * skips every loop, nested or not */
        int kept = 0;
        for (int i = 0; i < n;) {
            int last = i;
            for (int j = n; j > i; j--) {
                size_t len = offset[j + 1] - offset[j];
                if (hash[j] == hash[i] && len == offset[i + 1] - offset[i]
                    && !memcmp(bytes + offset[j], bytes + offset[i], len)) {
                    last = j;
                    break;
                }
            }
            if (last == n) break;  /* the won position itself: nothing after it */
            x->path[kept++] = x->path[last];
            i = last + 1;
        }
        x->npath = kept;
    }
    free(hash);
    free(offset);
    free(bytes);
    return status;
}

static PyObject *Core_solve(CoreObject *o, PyObject *args)
{
    long long max_states;
    double seconds;
    long long first = -1, focus = -1;
    int mode = 2, macros = 1, commute = 1, spaces = 1, cells = 1;
    if (!PyArg_ParseTuple(args, "Ld|iLLpppp", &max_states, &seconds, &mode, &first, &focus, &macros, &commute,
                          &spaces, &cells))
        return NULL;
    if (!ready(o)) return NULL;
    if (mode < 0 || mode > 2) {
        PyErr_Format(PyExc_ValueError, "search %d: 0 (depth first), 1 (best first) or 2 (hybrid)", mode);
        return NULL;
    }
    /* without the stock macro moves: the game's rules, the stock searched
     * move by move (patience.h); without the commute rule: every order of
     * single moves tried; without the moves through spaces: the engine's
     * moves alone; without cell_onto: a card in a cell goes onto another only
     * as any other move, and cards go into the cells one at a time */
    static _Thread_local PRules plain;
    const PRules *rules = &o->rules;
    if ((!macros && o->rules.stock_macros) || (!commute && (o->rules.commute || o->rules.undo_back))
        || (!spaces && o->rules.through_spaces) || (!cells && o->rules.cell_onto)) {
        plain = o->rules;
        if (!macros && o->rules.stock_macros) p_rules_stock(&plain, 0);
        if (!commute) plain.commute = plain.undo_back = 0;
        if (!spaces) plain.through_spaces = 0;
        if (!cells) plain.cell_onto = 0;
        rules = &plain;
    }
    double start = now();
    int marks = o->state.nmarks;
    double deadline = seconds > 0 ? start + seconds : 0;
    long long spent = 0;  /* the states of the first stage, when it gave up */
    size_t other = 0;     /* the bytes of the quick stage's other search, when two ran */
    LSearch lengths = {0};
    int fit = mode == 2 && first < 0 && lengths_fit(rules, &o->state)
        ? lengths_begin(rules, &o->state, &lengths, max_states) : 1;
    RSearch row = {0};
    int in_row = fit == 1 && mode == 2 && first < 0 && p_row_fit(rules, &o->state);
    if (in_row && row_begin(rules, &o->state, &row)) fit = -1;
    int quick = fit == 1 && !in_row && mode == 2 && first < 0 && quick_eligible(rules);
    /* the lengths search keeps its own set: x holds its line and count only */
    PSearch *x = search_new(rules, quick ? QUICK_FIRST : fit == 0 ? 1 : max_states, quick || fit == 0 ? 10 : 16, 20);
    if (!x) {
        lengths_free(&lengths);
        row_free(&row);
        return PyErr_NoMemory();
    }
    int status;
    if (fit < 0) {
        status = R_MEMORY;
    } else if (in_row) {
        status = row_search(rules, &o->state, x, &row, max_states, deadline);
        if (status == R_WON) status = replay_line(rules, &o->state, x);
    } else if (fit == 0) {
        status = lengths_search(rules, &o->state, x, &lengths, max_states, deadline);
        if (status == R_WON) status = replay_line(rules, &o->state, x);
    } else if (quick) {
        /* the quick first stage; when its budget runs out, the hybrid on what
         * is left of the budget: from scratch, or where no cell holds cards
         * from where its turns between the scans left it (quick_turns) */
        PSearch *turns = NULL;
        int by_turns = 0, nops = o->state.nops, nsnaps = o->state.nsnaps;
        if (quick_turns(rules) && !(turns = search_new(rules, max_states, 10, 10))) {
            search_free(x);
            free(x);
            return PyErr_NoMemory();
        }
        if (turns) turns->hold = 1;
        status = quick_stage(rules, &o->state, &x, turns, max_states, deadline, &spent, &by_turns);
        if (turns) {
            /* the scans' states are in spent (the last scan's too, unless it ended the search) */
            if (by_turns || status == R_STATES) {
                spent += x->states;
                if (!by_turns && max_states - spent > turns->states)
                    status = turn(rules, &o->state, turns, max_states - spent, deadline, nops, marks, nsnaps);
                other = search_bytes(x);
                search_free(x);
                free(x);
                x = turns;
            } else {
                spent += turns->states;
                other = search_bytes(turns);
                search_free(turns);
                free(turns);
            }
        } else if (status == R_STATES && spent < max_states) {
            search_free(x);
            free(x);
            if (!(x = search_new(rules, max_states - spent, 16, 20))) return PyErr_NoMemory();
            status = hybrid_search(rules, &o->state, x, max_states - spent, 1, 0, deadline);
        }
    } else {
        /* where the focused pass runs by default, the probe's share of the
         * budget is kept back from the hybrid (see hybrid_search's notes) */
        int focus_by_default = focus < 0 && first < 0 && goes_deep(rules);
        long long probe = mode == 2 && focus_by_default ? max_states * PROBE_SHARE / 100 : 0;
        long long budget = max_states - probe;
        if (focus < 0) focus = focus_by_default ? budget * FOCUS_SHARE / 100 : 0;
        status = mode == 2 ? hybrid_search(rules, &o->state, x, budget, first, focus, deadline)
            : mode == 1 ? best_search(rules, &o->state, x, max_states, deadline)
                        : search(rules, &o->state, x, max_states, deadline);
        if (status == R_STATES && probe > 0) {
            /* the probe: depth first from scratch with every move, in a table of its own */
            spent = x->states;
            other = search_bytes(x);
            search_free(x);
            free(x);
            if (!(x = search_new(rules, probe, 16, 20))) return PyErr_NoMemory();
            status = search(rules, &o->state, x, probe, deadline);
        }
    }
    PyObject *line = NULL;
    if (status == R_WON) status = cut_loops(rules, &o->state, x, marks);
    if (status == R_WON) {
        line = PyList_New(x->npath);
        if (line)
            for (int i = 0; i < x->npath; i++) PyList_SET_ITEM(line, i, PyLong_FromUnsignedLong(x->path[i]));
    }
    while (o->state.nmarks > marks) p_undo(rules, &o->state);
    long long states = spent + x->states;
    size_t memory = search_bytes(x) + other;
    if (fit == 0) memory += (lengths.mask + 1) * (size_t)lengths.width + (size_t)lengths.capframes * sizeof(LFrame);
    if (in_row) memory += row.capmoves * sizeof *row.moves + ((size_t)row.T + 1) * sizeof(RFrame);
    lengths_free(&lengths);
    row_free(&row);
    search_free(x);
    free(x);
    if (status == R_SIGNAL) {
        Py_XDECREF(line);
        return NULL;
    }
    if (status == R_MEMORY) {
        Py_XDECREF(line);
        return PyErr_NoMemory();
    }
    if (status == R_BROKEN) {
        Py_XDECREF(line);
        PyErr_SetString(PyExc_RuntimeError, "the search's table holds a position it cannot rebuild");
        return NULL;
    }
    if (status == R_WON && !line) return NULL;
    static const char *names[] = {"won", "unwinnable", "states", "timeout"};
    if (!line) line = PyList_New(0);
    return Py_BuildValue("(sLNn)", names[status], states, line, (Py_ssize_t)memory);
}

static PyMethodDef Core_methods[] = {
    {"legal_moves", (PyCFunction)Core_legal_moves, METH_NOARGS, "The legal move codes, in the engine's order."},
    {"play", (PyCFunction)Core_play, METH_O, "Play a legal move code (ValueError if it is not legal)."},
    {"undo", (PyCFunction)Core_undo, METH_NOARGS, "Take back the last move."},
    {"position", (PyCFunction)Core_position, METH_NOARGS,
     "(piles as bytes of card indices, face-down counts as bytes, pass number, redeals used)."},
    {"key", (PyCFunction)Core_key, METH_NOARGS, "The canonical key of the position."},
    {"canonical", (PyCFunction)Core_canonical, METH_NOARGS,
     "(position, key): the position the search rebuilds from this one's key (relative to the position the Core "
     "was made with; position as position() gives it) and that position's own key, which equals key()."},
    {"is_won", (PyCFunction)Core_is_won, METH_NOARGS, "True when the game is won."},
    {"solve", (PyCFunction)Core_solve, METH_VARARGS,
     "solve(max_states, seconds, search=2, first_states=-1, focus_states=-1, stock_macros=True, commute=True, "
     "through_spaces=True, cell_onto=True) "
     "-> (result, "
     "states, move codes, "
     "bytes used): "
     "result is won, unwinnable, states or timeout (seconds <= 0: no limit); search 0 is depth first, 1 best "
     "first, 2 depth first for first_states states (negative: half the budget where cards are face down or in a "
     "stock that deals onto the tableau and built on the tableau, else one) then best first; with first_states negative, where every card "
     "is open and cells hold cards or most cards take two on them, quick depth-first scans first (their states "
     "counted in; without cells the hybrid takes turns with them, each turn as many states as the scan before "
     "it), and where every "
     "move takes a top card to the hole (Black Hole, Golf), the lengths search instead (depth first, the piles' "
     "lengths and the hole's card's class as the key), and where only whole piles move in a row to one pile "
     "(Accordion), the row search (depth first, the row of top cards as the key). With focus_states "
     "> 0 the hybrid runs first without sideways moves for that many states, then best first with every move "
     "in the same table (negative: half the budget where the hybrid goes depth first and first_states is "
     "negative, else 0; that default keeps 5% of the budget back for the probe, a depth-first search from "
     "scratch with every move when the hybrid's states run out). Where the stock deals to a waste, stock_macros searches its moves as macro moves, "
     "k stock moves then a move of the waste's card (the line holds the engine's moves); False: one stock "
     "move at a time. commute=False turns the commute rule off (patience.h): the best-first search then tries "
     "single moves that commute in both orders; the verdict is the same. through_spaces=False leaves out the "
     "search's moves of a sequence through spaces (where spaces take any card and there are no cells: Spider, "
     "Forty Thieves): the engine's moves alone; the verdict is the same. cell_onto=False leaves a card in a cell "
     "that could go onto the top card it builds on free to go elsewhere, and puts cards into the cells one at "
     "a time (Seahaven Towers, Eight Off; patience.h, cell_onto); the verdict is the same."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "cardtable.solver._pcore.Core",
    .tp_doc = PyDoc_STR("Core(rules, piles, down, pass_number, redeals_used, shuffle_seed): a patience "
                        "position under compiled rules, with the exact search."),
    .tp_basicsize = sizeof(CoreObject),
    .tp_itemsize = 0,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Core_init,
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_methods = Core_methods,
};

static struct PyModuleDef pcore_module = {
    PyModuleDef_HEAD_INIT, "_pcore", "The compiled search over any patience description.", -1, NULL,
};

PyMODINIT_FUNC PyInit__pcore(void)
{
    if (PyType_Ready(&CoreType) < 0) return NULL;
    PyObject *m = PyModule_Create(&pcore_module);
    if (!m) return NULL;
    Py_INCREF(&CoreType);
    if (PyModule_AddObject(m, "Core", (PyObject *)&CoreType) < 0) {
        Py_DECREF(&CoreType);
        Py_DECREF(m);
        return NULL;
    }
    PyModule_AddIntConstant(m, "ANY_FOUNDATION", P_ANYF);
    PyModule_AddIntConstant(m, "NONE", P_NONE);
    PyModule_AddIntConstant(m, "HEADER", P_HEADER);
    return m;
}
