/*
 * Klondike's rules, compiled: the one C library every compiled path of
 * cardtable plays by (the solver's depth-first and best-first searches, the
 * simulator's priority kernel and the environment's step, all in
 * cardtable/solver/_ccore.c). The rules engine in Python
 * (cardtable/klondike) is the reference; the differential tests
 * (tests/solver/test_core_differential.py, tests/sim/test_fast_priority.py,
 * tests/envs/test_fast_matches_engine.py) hold every path here to it in
 * every rule combination, and .ci/sanitize runs them on a build with
 * AddressSanitizer and UndefinedBehaviorSanitizer.
 *
 * What it holds:
 *  - the card tables (rank, suit, colour of a deck index, suit * 13 + rank - 1);
 *  - the array state (one int8 array of STATE_SIZE entries; its layout is
 *    described in cardtable/solver/_state.py, which encodes and decodes it);
 *  - the seeded shuffle (cardtable.cards.shuffled_deck: splitmix64 with
 *    rejection sampling) and the deal of a seed;
 *  - the one move encoding (pack: source, target, count, card, recycle, and
 *    HOME_FLAG), move generation (plain: the engine's moves exactly; else
 *    the search's moves, with draws compressed) and move application;
 *  - the safe foundation moves the searches play without branching.
 *
 * The soundness of every pruning generate() does when not plain, and of the
 * state keys the searches use, is argued in the notes below.
 *
 * No I/O, no allocation, no Python: everything works on caller's memory.
 */
#ifndef CARDTABLE_KLONDIKE_H
#define CARDTABLE_KLONDIKE_H

#include <stdint.h>

#include <string.h>

#ifdef CARDTABLE_CHECK_KEYS
#include <stdlib.h> /* abort */
#endif

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
enum { HOME_FLAG = 1 << 21, FILL_SHIFT = 22, FILL_FLAG = 1 << 25, PAIR_FLAG = 1 << 26, PAIR_SUIT_SHIFT = 27 };
enum { PAIR_FOUNDATION = 7 }; /* a pair move's builder source (bits FILL_SHIFT..+2) when it is a foundation */
enum { MAX_MOVES = 1024, TALON_MARK = 64, MAX_DEPTH = 4000, PASS_CAP = 100 };
enum { RUNNING = 0, WON = 1, EXHAUSTED = 2, TABLE_FULL = 3 };
enum { V_DRAW, V_PASSES, V_ANY_EMPTY, V_RETURN, V_SALT, V_WIDTH, V_WIDE, V_FILL, V_PAIR, V_ORDER, V_SIZE };

typedef int8_t state_t;

#define KL_RANKS_ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13
#define KL_SUIT_(x) x, x, x, x, x, x, x, x, x, x, x, x, x
static const int RANK[52] = {KL_RANKS_, KL_RANKS_, KL_RANKS_, KL_RANKS_};
static const int SUIT[52] = {KL_SUIT_(0), KL_SUIT_(1), KL_SUIT_(2), KL_SUIT_(3)};
/* Suits are clubs, diamonds, hearts, spades: 1 and 2 are red. */
static const int RED[52] = {KL_SUIT_(0), KL_SUIT_(1), KL_SUIT_(1), KL_SUIT_(0)};
#undef KL_RANKS_
#undef KL_SUIT_

/* splitmix64's output function. */
static inline uint64_t mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBULL;
    x ^= x >> 31;
    return x;
}

/* REJECT[n] = 2**64 - 2**64 % n (mod 2**64): draws at or above it are
 * rejected; 0 (n a power of two) rejects none. */
static const uint64_t REJECT[53] = {
    0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
    0xFFFFFFFFFFFFFFFFULL, 0x0000000000000000ULL, 0xFFFFFFFFFFFFFFFFULL,
    0xFFFFFFFFFFFFFFFCULL, 0xFFFFFFFFFFFFFFFEULL, 0x0000000000000000ULL,
    0xFFFFFFFFFFFFFFF9ULL, 0xFFFFFFFFFFFFFFFAULL, 0xFFFFFFFFFFFFFFFBULL,
    0xFFFFFFFFFFFFFFFCULL, 0xFFFFFFFFFFFFFFFDULL, 0xFFFFFFFFFFFFFFFEULL,
    0xFFFFFFFFFFFFFFFFULL, 0x0000000000000000ULL, 0xFFFFFFFFFFFFFFFFULL,
    0xFFFFFFFFFFFFFFF0ULL, 0xFFFFFFFFFFFFFFEFULL, 0xFFFFFFFFFFFFFFF0ULL,
    0xFFFFFFFFFFFFFFF0ULL, 0xFFFFFFFFFFFFFFF0ULL, 0xFFFFFFFFFFFFFFFAULL,
    0xFFFFFFFFFFFFFFF0ULL, 0xFFFFFFFFFFFFFFF0ULL, 0xFFFFFFFFFFFFFFF0ULL,
    0xFFFFFFFFFFFFFFE7ULL, 0xFFFFFFFFFFFFFFF0ULL, 0xFFFFFFFFFFFFFFE8ULL,
    0xFFFFFFFFFFFFFFF0ULL, 0xFFFFFFFFFFFFFFF0ULL, 0x0000000000000000ULL,
    0xFFFFFFFFFFFFFFF0ULL, 0xFFFFFFFFFFFFFFEEULL, 0xFFFFFFFFFFFFFFF0ULL,
    0xFFFFFFFFFFFFFFF0ULL, 0xFFFFFFFFFFFFFFF4ULL, 0xFFFFFFFFFFFFFFDCULL,
    0xFFFFFFFFFFFFFFF0ULL, 0xFFFFFFFFFFFFFFF0ULL, 0xFFFFFFFFFFFFFFF0ULL,
    0xFFFFFFFFFFFFFFF0ULL, 0xFFFFFFFFFFFFFFD7ULL, 0xFFFFFFFFFFFFFFF0ULL,
    0xFFFFFFFFFFFFFFF0ULL, 0xFFFFFFFFFFFFFFFAULL, 0xFFFFFFFFFFFFFFE7ULL,
    0xFFFFFFFFFFFFFFF0ULL, 0xFFFFFFFFFFFFFFFEULL, 0xFFFFFFFFFFFFFFF0ULL,
    0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFFFF0ULL,
};

/* The deck shuffled by seed (cardtable.cards.shuffled_deck): a Fisher-Yates
 * shuffle of 0..51 driven by splitmix64, each draw below i + 1 by rejection. */
static inline void shuffle_deck(uint64_t seed, int8_t *deck)
{
    for (int i = 0; i < 52; i++)
        deck[i] = (int8_t)i;
    uint64_t state = seed;
    for (int i = 51; i > 0; i--) {
        uint64_t n = (uint64_t)(i + 1);
        uint64_t reject = REJECT[i + 1];
        uint64_t z;
        do {
            state += 0x9E3779B97F4A7C15ULL;
            z = mix(state);
        } while (reject != 0 && z >= reject);
        int j = (int)(z % n);
        int8_t tmp = deck[i];
        deck[i] = deck[j];
        deck[j] = tmp;
    }
}

/*
 * Soundness notes (each pruning keeps every win reachable):
 *
 * - *Safe foundation moves* are played without branching. Without foundation
 *   return a tableau card of rank r is safe when r <= 2 or both
 *   foundations of the other colour reach r - 1: the only cards that could
 *   ever be built on it are already on foundations for good. With foundation
 *   return those cards could come back, so the other foundation of the card's
 *   own colour must also reach r - 2: then every card that could ever stand
 *   on it is a foundation card, and foundation cards are only ever brought back
 *   to hold other cards, none of which could need this one. The waste top is
 *   never auto-played (except with a free talon, below): in draw 3 taking a
 *   card out of the talon shifts which cards later passes can reach.
 * - *The wide rule* (v[V_WIDE]; cardtable.solver.solve's default): a card c
 *   of rank r and colour C, next on its foundation, with both foundations of
 *   the other colour D at r - 2 or more and its twin's (the other suit of C)
 *   at r - 3 or more, is safe, with or without foundation return. Call B the
 *   cards then on foundations that this needs (D up to r - 2, C up to r - 3,
 *   c's suit up to r - 1) and A the four cards c, the two D cards of rank
 *   r - 1 and the twin's r - 2: the only cards that can ever stand on c in a
 *   tower are A cards (a D r - 1 on c, the twin's r - 2 on that; anything
 *   lower is in B). (1) A line that wins with the fewest moves that are not
 *   to a foundation, draws or recycles never brings a B card back: take the
 *   lowest card z of B it brings back; a card put on z while z is out would
 *   be a lower B card, brought back too, so nothing is; then every move of
 *   z alone, and its going and coming, can be struck out (what moved with z
 *   moves without it, and z's suit cannot grow while z is out), leaving
 *   fewer such moves. (2) Given such a line L from P, a line L' from P with c sent home
 *   follows L, keeping on its foundation each *kept* card: c, and each A
 *   card that L puts on a kept card or brings back, for as long as it stays
 *   in L's tableau (the foundations stay whole: in L, D stands at r - 2
 *   while a D r - 1 is out, the twin at r - 3, c's suit at r - 1). Only A
 *   cards can go on a kept card. Moves of L that touch no kept card are
 *   played as they are (a run that carries kept cards on its top is moved
 *   without them); moving kept cards, bringing an A card back and sending a
 *   kept card home are skipped; putting an A card (with the A card on it)
 *   on a kept card is replaced by sending it (and that one) home, which its
 *   foundation allows. L' wins when L does, never brings c back, and has no
 *   more moves of the kind counted in (1). So the cards autoplay sends home,
 *   and the foundation cards generate() does not bring back, under this rule
 *   keep a win. The rule above (Variant.safe_to_foundation) stays the core's
 *   default: the grades, daily deals and --winnable picks are defined by
 *   searches under it, and the expert's guesses are searched under it.
 * - *Draws are compressed*: a talon move draws (recycling at most once) until a
 *   given card is the waste top and plays it. Draws commute with every other
 *   move, so any winning line can be reordered to draw just before each waste
 *   play; a second recycle reaches no waste top the first did not.
 * - *Free talon*: in draw 1 with unlimited passes every talon card can be made
 *   the waste top at any time, so the waste pointer is left out of the state,
 *   safe talon cards are auto-played too, and a talon card goes to the tableau
 *   only when a card that could be built on it (one rank lower, other colour)
 *   is face up, in the talon or on a foundation: otherwise the move can wait.
 *   (Take a winning line that plays talon card c onto g and first
 *   builds on c later, with card h. Until then g stays covered, so
 *   the line never uses it; play c just before h instead, when h
 *   is at hand. If nothing is ever built on c, play it from the talon to
 *   wherever the line next moves it.)
 * - With unlimited passes, waste pointers at 0, at a multiple of the draw and
 *   at the end of the talon reach one another by drawing and recycling: one
 *   state.
 * - *Empty piles are interchangeable* (the state hash ignores pile order), so
 *   only the first empty pile is tried as a target. With kings only, a pile is
 *   emptied only when some king could fill it (face up on face-down cards, in
 *   the talon, or on a foundation): otherwise the move can wait. (A king can
 *   only be the lowest face-up card of a pile, so these are the kings whose
 *   move to an empty pile changes anything. Until one moves there, the line
 *   can keep the run where it was: what it builds on the run's top, or moves
 *   from inside the run, it can do there just as well.)
 * - *The fill rule* (v[V_FILL], with kings only; cardtable.solver.solve's
 *   default, with the wide rule): a whole pile (no face-down cards) moves
 *   onto another pile only when no pile is empty, and only together with a
 *   king moved at once into the pile it empties: one search step, the
 *   king's move carrying FILL_FLAG and the pile the whole pile went to. The
 *   king is one lowest face up on face-down cards (with its run), one the
 *   talon moves reach (under the free-talon rule, one that rule would play),
 *   or, with foundation return, one on a foundation that autoplay would not
 *   send straight back. Call *emptying* a move of a whole pile i onto a pile
 *   top t, *filling* a move into an empty pile, and *good* an emptying move
 *   followed at once by a filling while its pile is the only empty one: the
 *   rule plays only good emptying moves. Take a winning line of the search
 *   without the rule with the fewest moves that are not to a foundation,
 *   draws or recycles (*counted* moves), and in it the last emptying move E
 *   that is not good, moving run R from pile i onto t. Up to the first
 *   filling after E no pile is emptied by a move between piles (it would
 *   not be good either: pile i is still empty at its filling). Moving E one
 *   move later, past a move M that is not a filling, keeps a win: E turns up
 *   nothing and leaves every pile top in place but t, which it covers, so M
 *   touches only what it touched after E. A move onto R's top, or taking
 *   cards off R's top or out of R, takes them from pile i instead (the same
 *   card uncovered, so the same pruning verdict); a run of pile j holding t
 *   with R on it moves without R, and E then puts R on t where it lies. When
 *   M takes all of R from t, R moves from pile i instead and E is gone:
 *   one counted move fewer (t, uncovered there, is already uncovered). And
 *   autoplay: before E, t is a pile top, and the search sends it home when
 *   safe. Under the rules' safe rule it never is while R's lowest card (one
 *   rank lower, the other colour) is out; under the wide rule it can be,
 *   and then R holds only cards of t's A set (that card, perhaps the twin's
 *   card one rank lower on it; every lower card is home), and the wide
 *   rule's proof (2), keeping them, gives a line with t home that skips E:
 *   one counted move fewer. When E reaches a filling at which pile i is the
 *   only empty pile, E is good; when another pile is empty there too, the
 *   filling takes that one instead (empty piles are interchangeable: the
 *   line goes on with the two piles' names swapped) and E moves on. E cannot
 *   reach the end of the line, which has every card home, R's too. So each
 *   step makes fewer counted moves, or fewer emptying moves that are not
 *   good, or moves the last of them later; and the moves it changes keep
 *   their verdicts under the other prunings (M's cards, the card it
 *   uncovers and the empty piles are as before). In the end every emptying
 *   move is good: the rule keeps a win. It reads only what the key holds
 *   (the empty piles, the kings lowest face up, the talon, the foundations).
 *   It replaces the rule above that a pile is emptied only when a king could
 *   fill it, and keeps every emptied pile out of the search but for the
 *   moment a king fills it: a tenth to a fifth fewer states (docs/solver.md).
 * - *The pair rule* (v[V_PAIR], with a free talon; cardtable.solver.solve's
 *   default, with the wide rule): a talon card c goes onto a pile top g on
 *   its own only when a card that could be built on c (one rank lower, the
 *   other colour) is in the talon or is the lowest card of a pile with no
 *   face-down card. Otherwise it goes there only together with a move that
 *   builds on c at once, in one search step (a move code carrying PAIR_FLAG):
 *   a run from a pile that turns a card up, a run from inside a pile whose
 *   uncovered card goes home (HOME_FLAG), or, with foundation return, a
 *   foundation card the search would bring back. Moves to empty piles keep
 *   the free-talon rule above. Take a winning line of the search without the
 *   rule with the fewest counted moves (as in the fill rule below), and in
 *   it the last talon move T of c onto g that the rule does not allow on its
 *   own. If the line later builds on c, let h be the first card it builds
 *   there, at step H. Until H nothing lies on c and g stays covered, so
 *   playing T just before H instead keeps every move between valid: none
 *   puts a card on g or c; a run carrying g (and c on it) from lower in g's
 *   pile moves without c (the same lowest card and the same card uncovered,
 *   so the same pruning verdict), and T then puts c on g where it lies; c
 *   moved alone to another pile, or home, is played from the talon instead,
 *   and then this step goes on with that move; with c still in the talon the
 *   other talon moves keep their verdicts (c can only add a card to build on,
 *   and no pile's lowest card or face-down cards change). Autoplay: g is a
 *   pile top again until H, and the search sends it home when it is safe.
 *   Under the rules' safe rule it never is while c is out; under the wide
 *   rule it can be, and then c and h are cards of g's A set, and the wide
 *   rule's proof (2), keeping them, gives a line with g home that puts
 *   neither on g: fewer counted moves. Just before H the rule allows T:
 *   on its own when h is a talon card or the lowest card of a pile with no
 *   face-down card (it is when H is played, and the line plays h there), or
 *   else with H, which is then a run that turns a card up or sends the
 *   card it uncovers home, or a foundation card brought back (the search's
 *   other tableau moves). If nothing is ever built on c, c leaves g alone
 *   (to another pile or home: every card goes home in the end), and T goes:
 *   that move is played from the talon. Each step leaves fewer counted
 *   moves, or fewer talon moves the rule does not allow, or as many with
 *   the last of them later in a line no longer (c's move from g becomes the
 *   talon move), and changes no other move's verdict; so in the end the rule
 *   allows every move of a winning line: it keeps a win. It reads only what the key holds
 *   (the talon, the pile tops' ranks and colours, the lowest cards and
 *   face-down counts, the foundations; a builder of c's twin has a builder of
 *   c as its counterpart). In draw 1 a proof of loss then searches about a
 *   third fewer states (docs/solver.md).
 * - *Probes* (see cardtable/solver/search.py) search the same position in
 *   other orders; one that tries only some moves of each state (V_WIDTH)
 *   can find a win but never proves a loss.
 * - *The state key forgets twins.* The key is built from the foundation
 *   heights, each pile's face-down cards and its lowest face-up card, the
 *   talon, the waste position and the pass: not from the rest of the face-up
 *   tableau. That rest follows from the key up to *twins* (two cards of the
 *   same rank and colour): the face-up tableau cards are the cards that are
 *   nowhere else, and each one that is not the lowest of its pile lies on a
 *   card of the rank above and the other colour, one of at most two twins.
 *   So two layouts with one key differ only in which twin holds which run.
 *   Such layouts are one state of the search, because every search step of
 *   one has a counterpart in the other that reaches the same key (the key is
 *   a bisimulation of the steps, so a depth-first search with a set of
 *   visited keys still finds a win whenever there is one):
 *
 *   * a run moved onto a pile top has its counterpart: both layouts have as
 *     many tops of each rank and colour (each face-up card not lowest in its
 *     pile covers one card of the rank above), and moving a lowest card turns
 *     up or empties the same pile in both. The talon, the foundations and
 *     the empty piles are the same;
 *   * a card x going home from a pile top: in the other layout x may
 *     hold the run that lies on its twin y here. Then y is a top
 *     there (at most one card of the rank below and the other colour is not
 *     lowest in its pile, and here x holds it not), so the run can move
 *     onto y and x go home: one search step, a move code carrying
 *     HOME_FLAG. Moving part of a run onto a pile is tried only in this
 *     form: the target's top is the twin of the card uncovered, so the move
 *     alone would not change the key;
 *   * safe moves do not tell the layouts apart: a safe card ready for its
 *     foundation never has a card on it when autoplay stops (the cards that
 *     could lie on it, one rank lower and the other colour, are on their
 *     foundations, or are aces, which autoplay sends home first; under the
 *     wide rule they are on their foundations or are themselves next and
 *     safe, and so sent home first), so it is a top in every layout of its
 *     key.
 *
 *   Every pruning below and above reads only what the key holds (the ranks
 *   and colours of the face-up cards, kings lowest in their piles, the
 *   talon, the foundations), so it treats both layouts alike.
 * - *The path rules* (path_prune; the depth-first search with
 *   Search(..., path=True), and every depth-first search of
 *   solve(..., path_rules=True); off by default: docs/solver.md has what they
 *   save and cost) read the move that made a state and its parent's list
 *   of moves. Let G be the graph of the search's moves (the
 *   moves generate() gives, and those it leaves out by the two rules on S
 *   alone below, each followed by autoplay: every rule above reads
 *   the state alone), d(S) the fewest moves of G from S to a win, and V the
 *   states the search puts in its table; each is expanded once, the first
 *   time it is put there, with the parent P and the move a it came by. A
 *   move m of such a state S is left out when S + m is a state the search
 *   meets anyway:
 *   * *Undo*: a is a run moved between piles, or a card sent home from a
 *     pile top, after which autoplay sent nothing home and under which no
 *     card was turned up; m moves that run (or brings that card) straight
 *     back. S + m is P.
 *   * *Twice*: a is a run R moved from pile i (or the talon) to pile j, or
 *     one card R sent home from pile i or the talon, after which autoplay
 *     sent nothing home; m moves R on from where a put it to k (a pile or,
 *     R one card, its foundation), and P's list holds the move of R from i
 *     to k. S + m and P + (R from i to k) are one state: the same cards lie
 *     in the same places before autoplay, so autoplay leaves the same after.
 *   * *Commute*: a and m are each one of: the whole face-up run of a pile
 *     with face-down cards (turning one up) moved onto a pile; a talon card
 *     onto a pile; a foundation card brought back onto a pile; a card sent
 *     home from a pile top that is not its pile's last card, or from the
 *     talon; without a free talon, a fill step (the fill rule's whole pile
 *     moved onto a pile top with the king that fills the pile it leaves: a
 *     king lowest face up on face-down cards, turning one up, a talon king
 *     or a foundation king brought back). Not both are talon cards' (a talon
 *     move moves the waste: but see the talon commute below; a fill step
 *     with a talon king counts as a talon card's move here); the
 *     piles they read or change are apart (a fill step's: the pile it
 *     empties and fills, the pile the whole pile goes onto and the king's
 *     pile), and not both read one suit's foundation. Autoplay sent nothing home after a (the foundations are
 *     P's but for a's own card), and would send nothing home after m in P:
 *     the card m turns up or puts at hand is not safe (with P's
 *     foundations; a fill step's: the card its king's pile turns up, or a
 *     talon king), and after a card m sends home no pile top of P + m is
 *     safe with the foundations it leaves (not with a free talon, where
 *     autoplay reads the talon too); when a brings a foundation card back,
 *     that card is still not safe with m's card home (but see commute
 *     through autoplay below). And P's list holds m
 *     before a. Then Y = P + m was met before S, with no card sent home,
 *     and Y + a is S + m: the same cards moved, the same raw state, so
 *     autoplay leaves the same. And a is a move of G at Y: a run or a card
 *     onto a pile reads only its own piles and the talon's reach, which m
 *     left as they were (m is not a talon move when a is); a card sent home
 *     reads its place and its foundation, which m did not change; a
 *     foundation card brought back reads its target and whether it is
 *     safe, which is checked; a fill step reads its three piles, its
 *     king's place (its pile, the talon's reach, or its foundation, where it
 *     is still not safe: checked as for a foundation card brought back) and
 *     that no pile is empty, and neither move empties a pile (the fill step
 *     fills the pile it empties in the same step; a fill step's king lies on
 *     face-down cards). The pair rule and the free-talon rule read
 *     builders elsewhere, but apply only with a free talon, where m sends
 *     no card home and no fill step commutes; a card m sends home empties
 *     no pile, so the first empty pile, the one a run or a king may go to,
 *     is P's.
 *   * *Talon commute* (talon_commutes): a and m are both talon cards' moves,
 *     each onto a pile or home, and all else is as for commute (the piles
 *     apart, autoplay's tests, not with a free talon), but for the talon,
 *     which is checked on the talon itself. Say a plays card c1 and m card
 *     c2; P's list holds a move m' of c2 to where m plays it, before a (m'
 *     may differ from m in its recycle flag: the talon before it is P's, not
 *     S's). The talon of Y = P + m' (P's without c2, the waste position where
 *     c2 was, the pass one on if m' recycles) reaches c1 by the search's
 *     talon moves, drawing on or recycling once, and c1's move a' from there
 *     (to where a plays it) leaves the waste position that m leaves from S as
 *     the key holds it (key_wp) and, with limited passes, the same pass.
 *     Then Y + a' and S + m hold the same key: both have taken c1 and c2 out
 *     of P's talon, keeping the other cards in their order, and have put
 *     the same cards in the same places on the piles and foundations; the
 *     waste position and, with unlimited passes, the pass are read by no
 *     rule of the search but the talon moves' reach, which the key's waste
 *     position fixes (see the note on waste pointers above), so states with
 *     one key are one state of G, with one d. And a' is a move of G at Y:
 *     its target pile is not one m touched and its foundation not m's suit,
 *     so it still takes c1, and the talon reach is what was checked; the
 *     fill, pair and free-talon rules do not read talon cards here (the
 *     last two apply with a free talon only). Y + a' is then S + m as the
 *     key holds it, and the rest is commute's proof, with a' for a.
 *   * *Commute through autoplay* (commutes_through_autoplay; not with a
 *     free talon): a and m are as for commute or talon commute, all else as
 *     there, but autoplay after m in P sends cards home (the card m turns up
 *     or puts at hand is safe, or a pile top is after m's card home, or a's
 *     foundation card becomes safe). Then m is still left out when
 *     Y = P + m, after autoplay, keeps all a reads as P had it: autoplay took
 *     no card from a's piles and emptied no pile, and a foundation card a
 *     brings back is still on its foundation and not safe. Then a is a move
 *     of G at Y (what it reads is P's, as in commute; the talon is not
 *     autoplay's without a free talon, so a talon card's reach is the one
 *     checked), and Y + a is S + m: before autoplay Y + a is the raw state
 *     P + m + a (S + m's, the moves apart as in commute) with the cards
 *     autoplay sent from Y already home, which autoplay could send there in
 *     that order (each was a top that a does not cover, a covering only its
 *     own target's top, and next and safe on the same foundations), and
 *     autoplay ends where it would whatever the order it sends cards in (see
 *     twin targets below). So Y + a and S + m are one state, Y is in V, put
 *     there before S, and the proof below holds as for commute.
 *   * *Twin targets* (generate() and sibling_prune; it reads S alone, not the path): m puts
 *     a run, a talon card or a foundation card onto the top of pile t (or,
 *     with the fill rule, the whole of a pile onto t, with the king that
 *     fills that pile), and S's moves hold the same move m' onto a lower
 *     pile t' that m takes nothing from, whose top is the twin of t's (the
 *     same rank and colour). Then S + m and S + m' hold one key: before
 *     autoplay the two layouts differ only in which of the two twins holds
 *     the same cards, which the key forgets (the foundations, the talon and
 *     each pile's face-down and lowest face-up cards are the same), and
 *     autoplay from two layouts with one key leaves one key. For that, let
 *     H1 and H2 be the cards autoplay sends home from layouts L1 and L2
 *     with one key, and suppose some card of H1 is not in H2: take the
 *     first such x that L1's autoplay sends, of rank r. Autoplay only raises
 *     foundations, and a card it could send stays one it could send (still a
 *     pile top or a free talon card, still next, and safety only grows with
 *     the foundations), so when L2's autoplay stops, with F2 its
 *     foundations, every card L1 sent before x is home; x is next and safe
 *     on F2, and still out. A talon card would then be sent (with a free
 *     talon, the only case that sends one), so x lies in a pile, face up,
 *     and not on top: a card z of rank r - 1 and the other colour lies on
 *     it. Under the rules' safe rule z would be home (the other colour's
 *     foundations reach r - 1 on F2). Under the wide rule they reach r - 2,
 *     so z is next, and safe (x's colour reaches r - 3 and z's twin r - 2):
 *     not a top either, so a card w of rank r - 2 and x's colour lies on z:
 *     not x's suit's, home below x, so the twin's, which reaches r - 3 and
 *     no more with w out: w is next and safe too, and a card on it, of rank
 *     r - 3 and the other colour, would be home. (Aces and twos are safe
 *     with nothing home: nothing lies on an ace, and an ace on a two is
 *     next and safe itself.) So H1 = H2. The same cards then leave the
 *     same places as the key holds them: a card sent home is the lowest
 *     face-up card of a pile in both layouts or in neither, and each pile
 *     turns up the same card after it. So S + m is, for the search, the state
 *     S + m', a move S tries or leaves out for the rules above (the move
 *     onto the lower twin is never left out by this rule: a rank and
 *     colour has two cards).
 *   * *A safe talon card onto a pile* (generate() and sibling_prune, S alone; not with a
 *     free talon, where autoplay leaves no such card in the talon): m plays
 *     a talon card c onto a pile, c is next on its foundation and safe (as
 *     autoplay judges it), and S's moves hold m', c's move home from the
 *     same place with the same recycle flag. The two leave the same talon,
 *     waste position and pass, and S + m, before autoplay, is S + m' but
 *     for c on top of its pile, where autoplay can send it home. Autoplay
 *     ends where it would whatever the order it sends cards in (a card it
 *     could send stays one it could send, as above, and nothing it does
 *     takes a card away from a foundation), so it ends, from S + m, where it
 *     does from S + m' once c is home: one state, byte for byte.
 *   These two rules leave out only moves whose child another move of S
 *   makes, so they need no path: generate() (not plain) applies them in
 *   every search, with the path rules or without. A talon card next and
 *   safe goes home only; a run that is not part of a pile (no HOME_FLAG),
 *   a talon card (no PAIR_FLAG) or a foundation card goes onto the lower of
 *   two twin tops only (a target mask holds the piles whose top takes a
 *   card's rank and colour: at most the two twins', without the run's own
 *   pile, so its lowest bit is the lower twin that the move takes nothing
 *   from). Without the path rules the search so meets every state it met
 *   with those moves (each one's child is a kept sibling's, one key), with
 *   8 to 9% fewer moves tried (draw 3 and draw 1, 200 deals each,
 *   docs/solver.md). sibling_prune, with the path rules, takes the fill
 *   rule's whole-pile moves onto twins too, where the king's pile must
 *   also be kept apart.
 *   Why the search still finds a win (or, to the same end, every state it
 *   would meet without the rules): suppose it ends without one while some
 *   state of V has a line of G to a win, and take such an S with d(S)
 *   least, and of those the first put in the table. Let m begin a shortest
 *   line from S, one the two rules on S alone do not leave out (when one
 *   leaves out m, m' begins one, the same state, and m' is not left out by
 *   either). If the search tried m, S + m (with d one less) is in V. Left
 *   out by undo, S + m is P, in V. By twice, S + m = P + (R from i to k),
 *   which the search tried when it expanded P: in V. By commute (or commute
 *   through autoplay), Y is in V,
 *   put there before S, and Y + a = S + m gives d(Y) <= d(S) (by talon
 *   commute, Y + a' = S + m, the same). Each case contradicts the choice
 *   of S. The two rules on S alone leave out only moves to a state another
 *   move of S makes (kept, or left out by the other rules), so a loss still
 *   meets every state, with fewer lookups. The rules change which moves a state tries,
 *   never its key or what the table holds, so the twins, the exact key and
 *   the other rules above are unaffected; they need the whole list of P, so
 *   the best-first search (which expands states out of path order) does not
 *   use them, and a probe that tries only some moves (V_WIDTH) reads P's
 *   list as it was cut.
 * - A foundation card is not brought back when autoplay would send it home at
 *   once.
 * - The transposition table holds the state key above exactly, as one 64-bit
 *   number, whenever only kings fill empty piles and the number fits (see
 *   "the exact key" in _ccore.c, which argues that it holds all the key
 *   holds); two states then share an entry only when they share the key.
 *   Otherwise the entries are two independent 64-bit hashes of the key (the
 *   foundation heights hashed in, as the face-up cards no longer are); a
 *   false match then needs a 128-bit collision.
 */

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

/* Move the top count cards of pile src onto pile dst. */
static inline void move_run(state_t *s, int src, int dst, int count)
{
    int n = s[LEN + src], m = s[LEN + dst];
    int base = PILE_CAP * src + n - count;
    for (int k = 0; k < count; k++)
        s[PILE_CAP * dst + m + k] = s[base + k];
    s[LEN + dst] = (state_t)(m + count);
    take(s, src, count);
}

static void apply_move(state_t *s, int32_t code, const int64_t *v)
{
    int src = code & 15;
    int dst = (code >> 4) & 15;
    int count = (code >> 8) & 63;
    int card = (code >> 14) & 63;
    int recycle = (code >> 20) & 1;
    if (code & FILL_FLAG) { /* first the whole of pile dst onto pile j, then the move that fills dst */
        int j = (code >> FILL_SHIFT) & 7;
        int n = s[LEN + dst], m = s[LEN + j];
        for (int k = 0; k < n; k++)
            s[PILE_CAP * j + m + k] = s[PILE_CAP * dst + k];
        s[LEN + j] = (state_t)(m + n);
        s[LEN + dst] = 0;
    }
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
        if (code & PAIR_FLAG) { /* then the builder goes onto the card */
            int b = (code >> FILL_SHIFT) & 7;
            if (b == PAIR_FOUNDATION) {
                int suit = (code >> PAIR_SUIT_SHIFT) & 3;
                int h = suit * 13 + s[FOUND + suit] - 1;
                s[FOUND + suit] -= 1;
                put(s, h, dst);
            } else {
                move_run(s, b, dst, count);
                if (code & HOME_FLAG) {
                    s[FOUND + SUIT[s[PILE_CAP * b + s[LEN + b] - 1]]] += 1;
                    take(s, b, 1);
                }
            }
        }
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

/* Whether a card of rank r is safe to send home (see the notes: the rule, or
 * with wide the wide rule) when the lower foundation of the other colour
 * reaches other and the other suit of its own colour reaches twin. */
static inline int safe_at(int r, int other, int twin, int wide, int back)
{
    return r <= 2 || (wide ? other >= r - 2 && twin >= r - 3 : other >= r - 1 && (!back || twin >= r - 2));
}

/* Whether card, next on its foundation, is safe to send home with the
 * foundation heights found (four, by suit), by the rules' safe rule or, with
 * v[V_WIDE], the wide rule (see the notes for both). */
static inline int is_safe_on(const state_t *found, int card, const int64_t *v)
{
    /* the other colour's suits: clubs and spades (0, 3) for a red card, diamonds and hearts (1, 2) for a black one */
    int o1 = RED[card] ? 0 : 1, o2 = 3 - o1;
    int other = found[o1] < found[o2] ? found[o1] : found[o2];
    return safe_at(RANK[card], other, found[3 - SUIT[card]], v[V_WIDE] != 0, v[V_RETURN] != 0);
}

static inline int is_safe(const state_t *s, int card, const int64_t *v) { return is_safe_on(s + FOUND, card, v); }

static inline int free_talon(const int64_t *v) { return v[V_DRAW] == 1 && v[V_PASSES] == 0; }

/* The next card of each suit that is safe to send home with the foundation
 * heights found (a bit a card). */
static inline uint64_t safe_next_on(const state_t *found, const int64_t *v)
{
    /* is_safe_on for each suit's next card, with the lower foundation of each colour worked out once */
    int black = found[0] < found[3] ? found[0] : found[3], red = found[1] < found[2] ? found[1] : found[2];
    int wide = v[V_WIDE] != 0, back = v[V_RETURN] != 0;
    uint64_t m = 0;
    for (int suit = 0; suit < 4; suit++) {
        int r = found[suit] + 1;
        if (r > 13)
            continue;
        if (safe_at(r, suit == 1 || suit == 2 ? black : red, found[3 - suit], wide, back))
            m |= (uint64_t)1 << (suit * 13 + r - 1);
    }
    return m;
}

static inline uint64_t safe_next(const state_t *s, const int64_t *v) { return safe_next_on(s + FOUND, v); }

/* Send safe cards home; log each (a pile, or TALON_MARK + card) when log is
 * not NULL. Returns the new end of the log. A round looks at the talon (when
 * free) in order, then at the piles in order; the rounds go on until one
 * sends nothing home. */
static int autoplay(state_t *s, const int64_t *v, int16_t *log, int end)
{
    int free = free_talon(v);
    uint64_t m = safe_next(s, v);
    while (m) {
        int changed = 0;
        if (free) {
            int q = 0;
            while (m && q < s[TLEN]) {
                int card = s[TALON + q];
                if ((m >> card) & 1) {
                    apply_move(s, pack(SRC_TALON, LOC_FOUNDATION, 1, card, 0), v);
                    if (log)
                        log[end] = (int16_t)(TALON_MARK + card);
                    end++;
                    changed = 1;
                    m = safe_next(s, v);
                } else {
                    q++;
                }
            }
        }
        for (int i = 0; m && i < NPILES; i++) {
            int n = s[LEN + i];
            if (n == 0)
                continue;
            int card = s[PILE_CAP * i + n - 1];
            if ((m >> card) & 1) {
                s[FOUND + SUIT[card]] += 1;
                take(s, i, 1);
                if (log)
                    log[end] = (int16_t)i;
                end++;
                changed = 1;
                m = safe_next(s, v);
            }
        }
        if (!changed)
            break;
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

/* Card tables the move generator reads rather than works out (a card's rank
 * r and redness red): KEY_OF, a card's rank and colour as one number
 * (r * 2 + red: key_of); HOST_KEY, the key of the cards that fit on it (rank
 * r - 1, the other colour); FIT, those two cards, a bit each (none for an
 * ace): the two aces of the other colour (black: clubs and spades; red:
 * diamonds and hearts) shifted left by r - 2. */
#define KL_BLACK_ACES_ (1ULL | 1ULL << 39)
#define KL_RED_ACES_ (1ULL << 13 | 1ULL << 26)
#define KL_KEY_(r, red) ((r) * 2 + (red))
#define KL_HOST_(r, red) (((r) - 1) * 2 + 1 - (red))
#define KL_FIT_(r, red) ((r) == 1 ? 0ULL : ((red) ? KL_BLACK_ACES_ : KL_RED_ACES_) << ((r) == 1 ? 0 : (r) - 2))
#define KL_SUIT_ROW_(M, red) M(1, red), M(2, red), M(3, red), M(4, red), M(5, red), M(6, red), M(7, red), \
    M(8, red), M(9, red), M(10, red), M(11, red), M(12, red), M(13, red)
#define KL_DECK_(M) {KL_SUIT_ROW_(M, 0), KL_SUIT_ROW_(M, 1), KL_SUIT_ROW_(M, 1), KL_SUIT_ROW_(M, 0)}
static const int8_t KEY_OF[52] = KL_DECK_(KL_KEY_);
static const int8_t HOST_KEY[52] = KL_DECK_(KL_HOST_);
static const uint64_t FIT[52] = KL_DECK_(KL_FIT_);
#undef KL_BLACK_ACES_
#undef KL_RED_ACES_
#undef KL_KEY_
#undef KL_HOST_
#undef KL_FIT_
#undef KL_SUIT_ROW_
#undef KL_DECK_

static inline int key_of(int card) { return KEY_OF[card]; }

/* Card bit sets (bit c for card c): the kings, all. */
static const uint64_t KINGS = 1ULL << 12 | 1ULL << 25 | 1ULL << 38 | 1ULL << 51, ALL_CARDS = (1ULL << 52) - 1;
/* The keys (key_of) of the face-up cards of a run, the k-th from the top at
 * bit 2 * (k - 1) or 2 * (k - 1) + 1 from the key of the top, by the top's
 * colour (black, red): rank rises by one and the colour alternates. */
static const uint64_t RUN_KEYS[2] = {0x9999999999999999ULL, 0x6666666666666666ULL};

static inline int add(int32_t *mv, int32_t *pr, int n, int32_t code, int priority)
{
    mv[n] = code;
    pr[n] = priority;
    return n + 1;
}

/* With the free-talon rule: bit key_of(c) for each card c face up, in the
 * talon or (with foundation return) on a foundation, and bit 63 to say it is
 * worked out (it is, the first time a talon card could go to the tableau). */
static uint64_t present_of(const state_t *s, const int64_t *v)
{
    uint64_t present = (uint64_t)1 << 63;
    if (v[V_RETURN]) { /* every card is face up, in the talon or on a foundation, but the face-down ones */
        uint64_t one = 0, both = 0;
        for (int i = 0; i < NPILES; i++)
            for (int k = 0; k < s[DOWN + i]; k++) {
                uint64_t bit = (uint64_t)1 << key_of(s[PILE_CAP * i + k]);
                both |= one & bit;
                one |= bit;
            }
        return present | (0x0FFFFFFCULL & ~both); /* ranks 1 to 13 of both colours, less twins both face down */
    }
    for (int i = 0; i < NPILES; i++)
        for (int k = s[DOWN + i]; k < s[LEN + i]; k++)
            present |= (uint64_t)1 << key_of(s[PILE_CAP * i + k]);
    for (int q = 0; q < s[TLEN]; q++)
        present |= (uint64_t)1 << key_of(s[TALON + q]);
    return present;
}

/* Whether, under the free-talon rule, talon card card may go to the tableau:
 * a card that could be built on it is face up, in the talon or on a
 * foundation (*present, worked out when first asked). */
static inline int hosted(const state_t *s, const int64_t *v, uint64_t *present, int card)
{
    if (!*present)
        *present = present_of(s, v);
    return (*present >> HOST_KEY[card]) & 1;
}


/* What the pair rule (see the notes) reads: the talon cards, the lowest cards
 * of piles with no face-down card, and where each face-up pile card lies
 * (worked out when first asked). */
typedef struct {
    uint64_t talon, wholes;
    int located;
    int8_t pile_of[52], pos_of[52];
} Pairing;

/* The pair moves of talon card (at its reach: recycle, cost) onto pile j's
 * top: each one the talon move followed, in the same step, by a move that
 * builds on the card at once: a run from a pile, turning up a card or sending
 * the card it uncovers home (HOME_FLAG), or (with foundation return) a
 * foundation card autoplay would not send straight back. home: the next card
 * of each foundation, a bit each (as generate works it out). */
static int pair_moves(const state_t *s, const int64_t *v, int32_t *mv, int32_t *pr, int n, int card, int j,
                      int recycle, int cost, Pairing *pc, uint64_t home)
{
    uint64_t fit = FIT[card];
    if (!fit)
        return n;
    if (!pc->located) {
        memset(pc->pile_of, -1, sizeof pc->pile_of);
        for (int i = 0; i < NPILES; i++)
            for (int k = s[DOWN + i]; k < s[LEN + i]; k++) {
                pc->pile_of[s[PILE_CAP * i + k]] = (int8_t)i;
                pc->pos_of[s[PILE_CAP * i + k]] = (int8_t)k;
            }
        pc->located = 1;
    }
    int32_t talon_move = pack(SRC_TALON, j, 0, card, recycle) | PAIR_FLAG;
    for (uint64_t m = fit; m; m &= m - 1) {
        int h = __builtin_ctzll(m);
        int i = pc->pile_of[h];
        if (i < 0 || i == j)
            continue;
        int pos = pc->pos_of[h], down = s[DOWN + i], count = s[LEN + i] - pos;
        int32_t code = talon_move | (count << 8) | (i << FILL_SHIFT);
        if (pos == down && down > 0) {
            n = add(mv, pr, n, code, 600 - cost);
        } else if (pos > down) {
            int e = s[PILE_CAP * i + pos - 1];
            if ((home >> e) & 1)
                n = add(mv, pr, n, code | HOME_FLAG, 500 - cost);
        }
    }
    if (v[V_RETURN])
        for (uint64_t m = fit; m; m &= m - 1) {
            int h = __builtin_ctzll(m), suit = SUIT[h];
            if (s[FOUND + suit] == RANK[h] && !is_safe(s, h, v))
                n = add(mv, pr, n, talon_move | (1 << 8) | (PAIR_FOUNDATION << FILL_SHIFT) | (suit << PAIR_SUIT_SHIFT),
                        150 - cost);
        }
    return n;
}

/* The moves of talon card q (at its reach: recycle, cost): home (the next
 * card of each foundation, a bit each) says whether it can go to its
 * foundation; then onto the pile tops that take it (tops, by key_of) or an empty
 * pile, by the pair rule (pc) and the free-talon rule (hosting) when on. */
static inline int talon_targets(const state_t *s, const int64_t *v, int32_t *mv, int32_t *pr, int n, int q,
                                int recycle, int cost, int plain, const uint8_t *tops, uint64_t *present,
                                int empty_mask, int hosting, Pairing *pc, uint64_t home)
{
    int card = s[TALON + q];
    if ((home >> card) & 1) {
        n = add(mv, pr, n, pack(SRC_TALON, LOC_FOUNDATION, 1, card, recycle), 900 - cost);
        if (!plain && !free_talon(v) && is_safe(s, card, v))
            return n; /* onto a pile, autoplay would send it home at once: the same child */
    }
    int mask = tops[key_of(card)];
    int empty = empty_mask && (v[V_ANY_EMPTY] != 0 || RANK[card] == 13);
    if (!mask && !empty)
        return n;
    if (pc && mask && !((pc->talon | pc->wholes) & FIT[card])) {
        /* the pair rule: onto a pile top only with a move that builds on it */
        for (int j = 0; j < NPILES; j++)
            if ((mask >> j) & 1)
                n = pair_moves(s, v, mv, pr, n, card, j, recycle, cost, pc, home);
        mask = 0;
    }
    if (hosting && !hosted(s, v, present, card))
        return n;
    if (!plain)
        mask &= -mask; /* twin tops: the lower pile only, the same child */
    for (int j = 0; mask; j++, mask >>= 1)
        if (mask & 1)
            n = add(mv, pr, n, pack(SRC_TALON, j, 1, card, recycle), 500 - cost);
    if (empty) {
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

/* A talon card the search's talon moves reach: its talon position, whether
 * the stock is recycled on the way, and the draws it costs. */
typedef struct {
    int q, recycle, cost;
} Reach;

/* The talon cards the search's talon moves reach (draws compressed, at most
 * one recycle: see the notes) that are in wanted (a bit a card), in the order
 * generate() tries them; returns how many (at most 2 * 52 + 1). */
static int talon_reach(const state_t *s, const int64_t *v, uint64_t wanted, Reach *out)
{
    const state_t *t = s + TALON;
    int n = 0, tlen = s[TLEN], wp = s[WP], draw = (int)v[V_DRAW];
    int64_t limit = v[V_PASSES];
    if (wp > 0 && ((wanted >> t[wp - 1]) & 1))
        out[n++] = (Reach){wp - 1, 0, 0};
    int pos = wp;
    int steps = 0;
    while (pos < tlen) {
        pos = pos + draw < tlen ? pos + draw : tlen;
        steps++;
        if ((wanted >> t[pos - 1]) & 1)
            out[n++] = (Reach){pos - 1, 0, steps};
    }
    if (limit == 0 || s[PASS] < limit) {
        pos = 0;
        int rsteps = steps + 1;
        /* pos is now a multiple of the draw (or the end), so drawing on from wp reaches it when wp is one */
        int aligned = draw == 1 || wp % draw == 0;
        while (pos < tlen) {
            pos = pos + draw < tlen ? pos + draw : tlen;
            rsteps++;
            if (pos >= wp && aligned) /* this one and every later one reached without a recycle */
                break;
            int reached = pos == wp || (pos > wp && pos == tlen);
            if (!reached && ((wanted >> t[pos - 1]) & 1))
                out[n++] = (Reach){pos - 1, 1, rsteps};
        }
    }
    return n;
}

/* The waste position as the state key holds it (with unlimited passes, waste positions that reach
 * one another by drawing and recycling are one). */
static inline int key_wp(const int64_t *v, int wp, int tlen)
{
    if (v[V_PASSES] != 0)
        return wp;
    if (v[V_DRAW] == 1 || wp == tlen)
        return 0;
    int draw = (int)v[V_DRAW];
    return (draw == 3 ? wp % 3 : wp % draw) == 0 ? 0 : wp; /* a draw of 3 divides without a division */
}

/* The fill rule's moves (see the notes): each whole pile i of pending
 * ({i, the piles whose top takes its lowest card, its card count}), moved
 * onto each such pile j and followed at once by a king moved into pile i:
 * a king lowest face up on face-down cards (with the cards on it), one the
 * talon moves reach, or (with foundation return) one on a foundation. One
 * code each: the king's move to pile i, with FILL_FLAG and j. */
static int fill_moves(const state_t *s, const int64_t *v, int32_t *mv, int32_t *pr, int n, const int (*pending)[3],
                      int npending, const Reach *reach, int nreach, int hosting, uint64_t *present)
{
    int32_t kings[4];
    int prio[4], from[4];
    int nk = 0;
    for (int r = 0; r < nreach; r++) {
        int card = s[TALON + reach[r].q];
        if (RANK[card] == 13 && (!hosting || hosted(s, v, present, card))) {
            kings[nk] = pack(SRC_TALON, 0, 1, card, reach[r].recycle);
            prio[nk] = 690 - reach[r].cost;
            from[nk++] = -1;
        }
    }
    for (int p = 0; p < NPILES; p++) {
        int down = s[DOWN + p];
        if (down > 0 && RANK[s[PILE_CAP * p + down]] == 13) {
            kings[nk] = pack(p, 0, 0, s[PILE_CAP * p + down], 0);
            prio[nk] = 800 + down;
            from[nk++] = p;
        }
    }
    if (v[V_RETURN])
        for (int suit = 0; suit < 4; suit++)
            if (s[FOUND + suit] == 13 && !is_safe(s, suit * 13 + 12, v)) {
                kings[nk] = pack(LOC_FOUNDATION, 0, 1, suit * 13 + 12, 0);
                prio[nk] = 150;
                from[nk++] = -1;
            }
    for (int e = 0; e < npending; e++) {
        int i = pending[e][0], mask = pending[e][1], cards = pending[e][2];
        for (int j = 0; mask; j++, mask >>= 1)
            if (mask & 1)
                for (int kk = 0; kk < nk; kk++) {
                    int32_t code = kings[kk] | (i << 4) | FILL_FLAG | (j << FILL_SHIFT);
                    int p = from[kk];
                    if (p >= 0) /* the king's run, on pile j after the first move when p is j */
                        code |= (s[LEN + p] + (p == j ? cards : 0) - s[DOWN + p]) << 8;
                    n = add(mv, pr, n, code, prio[kk]);
                }
    }
    return n;
}

/* Whether some king could move to an empty pile: face up on face-down cards,
 * in the talon, or (with foundation return) on a foundation. */
static int kings_waiting(const state_t *s, const int64_t *v)
{
    for (int q = 0; q < s[TLEN]; q++)
        if (RANK[s[TALON + q]] == 13)
            return 1;
    for (int i = 0; i < NPILES; i++) {
        int down = s[DOWN + i];
        if (down > 0 && RANK[s[PILE_CAP * i + down]] == 13)
            return 1;
    }
    if (v[V_RETURN])
        for (int suit = 0; suit < 4; suit++)
            if (s[FOUND + suit] == 13)
                return 1;
    return 0;
}

/* The engine's one talon move of a state, as a plain code (see generate):
 * a draw while the stock has cards, else a recycle when there is a waste and
 * a pass left (limit 0: unlimited); -1 when there is neither. */
static inline int32_t talon_step(const state_t *s, int64_t limit)
{
    if (s[WP] < s[TLEN])
        return pack(8, SRC_TALON, 1, 0, 0);
    if (s[TLEN] > 0 && (limit == 0 || s[PASS] < limit))
        return pack(SRC_TALON, 8, 1, 0, 0);
    return -1;
}

/* What generate_known saw of a state on the way, for a caller that needs it too. */
typedef struct {
    uint64_t tops;       /* the pile tops, a bit a card */
    uint64_t talon_home; /* the talon cards with a move home, a bit a card */
    int downs;           /* the face-down cards */
} Glimpse;

/* Write the moves of s to mv (with priorities in pr, higher first); returns
 * how many. plain gives the engine's moves exactly (draw and recycle are
 * codes with source 8 and target 8, every empty pile a target); otherwise
 * talon moves are macros and only the first empty pile is a target, pruned
 * as the notes above say. *known is present_of(s), or 0 when not known; it
 * is set to present_of(s) when this worked it out (else left as it was).
 * *seen, when seen is not NULL, is set to what it saw of s (see Glimpse). */
static int generate_known(const state_t *s, const int64_t *v, int32_t *mv, int32_t *pr, int plain, uint64_t *known,
                          Glimpse *seen)
{
    int n = 0;
    int64_t any_empty = v[V_ANY_EMPTY];
    uint8_t tops[32] = {0}; /* for each rank and colour (key_of), the piles whose top takes it */
    int empty_mask = 0;
    /* the cards some pile top takes (bit c for card c), a quick test before the tops lookup; and the
     * same as keys (bit key_of(c)), to find the runs with a move (below) */
    uint64_t fits = 0, taken = 0;
    uint64_t at_top = 0; /* the pile tops, a bit a card */
    int downs = 0;
    /* the next card of each foundation, a bit each: the cards that can go home */
    uint64_t home = 0;
    for (int suit = 0; suit < 4; suit++)
        if (s[FOUND + suit] < 13)
            home |= (uint64_t)1 << (suit * 13 + s[FOUND + suit]);
    for (int i = 0; i < NPILES; i++) {
        int m = s[LEN + i];
        if (m > 0) {
            int card = s[PILE_CAP * i + m - 1];
            at_top |= (uint64_t)1 << card;
            if (RANK[card] > 1) {
                int key = HOST_KEY[card];
                tops[key] |= (uint8_t)(1 << i);
                taken |= (uint64_t)1 << key;
                fits |= FIT[card];
            }
            if ((home >> card) & 1)
                n = add(mv, pr, n, pack(i, LOC_FOUNDATION, 1, card, 0), 1000);
        } else {
            empty_mask |= 1 << i;
        }
    }
    /* the cards that could go to an empty pile; as keys, those some pile top or an empty pile takes */
    uint64_t to_empty = !empty_mask ? 0 : any_empty != 0 ? ALL_CARDS : KINGS;
    if (empty_mask)
        taken |= any_empty != 0 ? 0x0FFFFFFCULL : (uint64_t)3 << 26; /* every rank of both colours, or the kings */
    int tlen = s[TLEN];
    int wp = s[WP];
    int64_t limit = v[V_PASSES];
    Reach reach[2 * 52 + 1]; /* the talon cards the talon moves reach (talon_reach) */
    int nreach = 0;
    /* with the fill rule: the whole piles that could move (pile, targets, cards), to be played only with
     * the move that fills the pile again */
    int fill = !plain && v[V_FILL] && any_empty == 0;
    int pending[NPILES][3];
    int npending = 0;
    /* whether a king could fill an emptied pile: worked out when first asked */
    int king_waiting = plain || any_empty != 0 ? 1 : -1;
    int hosting = !plain && free_talon(v);
    uint64_t present = *known; /* with hosting: see present_of, worked out when first asked */
    Pairing pairing, *pc = NULL;
    if (hosting && v[V_PAIR] && tlen > 0) {
        pc = &pairing;
        pc->located = 0;
        pc->talon = pc->wholes = 0;
        for (int q = 0; q < tlen; q++)
            pc->talon |= (uint64_t)1 << s[TALON + q];
        for (int i = 0; i < NPILES; i++)
            if (s[LEN + i] > 0 && s[DOWN + i] == 0)
                pc->wholes |= (uint64_t)1 << s[PILE_CAP * i];
    }
    uint64_t talon_home = 0;
    if (plain) {
        if (wp > 0)
            n = talon_targets(s, v, mv, pr, n, wp - 1, 0, 0, 1, tops, &present, empty_mask, 0, NULL, home);
    } else if (tlen > 0) {
        /* the talon cards with a move: a pile top or an empty pile takes them, or their foundation does */
        uint64_t wanted = fits | to_empty | home;
        /* and the kings, for the fill rule's moves (fill_moves) */
        nreach = talon_reach(s, v, wanted | (fill && !empty_mask ? KINGS : 0), reach);
        for (int r = 0; r < nreach; r++)
            if ((wanted >> s[TALON + reach[r].q]) & 1) {
                talon_home |= home & (uint64_t)1 << s[TALON + reach[r].q];
                n = talon_targets(s, v, mv, pr, n, reach[r].q, reach[r].recycle, reach[r].cost, 0, tops, &present,
                                  empty_mask, hosting, pc, home);
            }
    }
    for (int i = 0; i < NPILES; i++) {
        int m = s[LEN + i];
        int down = s[DOWN + i];
        downs += down;
        if (m == 0)
            continue;
        /* the runs whose lowest card some pile top or an empty pile takes: the face-up cards build down
         * in alternating colours, so the k-th from the top has the key of bit 2 * (k - 1) or the next
         * one of RUN_KEYS (by the top's colour), counted from the top's own key (ascending k, as the
         * cards lie) */
        int top = s[PILE_CAP * i + m - 1];
        uint64_t runs = (taken >> (2 * RANK[top])) & RUN_KEYS[RED[top]] & (((uint64_t)1 << (2 * (m - down))) - 1);
        for (; runs; runs &= runs - 1) {
            int k = __builtin_ctzll(runs) / 2 + 1;
            int base = s[PILE_CAP * i + m - k];
            int whole = k == m;
            int partial = k < m - down;
            int targets = tops[key_of(base)] & ~(1 << i);
            if (!targets && (whole || !empty_mask || (any_empty == 0 && RANK[base] != 13)))
                continue; /* no move of this run (the tests below, in short) */
            if (whole && fill) {
                if (!empty_mask) {
                    pending[npending][0] = i;
                    pending[npending][1] = targets;
                    pending[npending][2] = k;
                    npending++;
                }
                continue;
            }
            if (whole && king_waiting < 0)
                king_waiting = kings_waiting(s, v);
            int exposed_home = 0;
            if (partial) {
                int e = s[PILE_CAP * i + m - k - 1];
                exposed_home = (int)((home >> e) & 1);
            }
            int priority;
            if (k == m - down && down > 0)
                priority = 800 + down;
            else if (whole)
                priority = 700;
            else
                priority = 200;
            if ((plain || !partial || exposed_home) && (king_waiting > 0 || !whole)) {
                int mask = plain || partial ? targets : targets & -targets; /* twin tops: the lower pile only */
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
    if (npending)
        n = fill_moves(s, v, mv, pr, n, pending, npending, reach, nreach, hosting, &present);
    if (v[V_RETURN]) {
        for (int suit = 0; suit < 4; suit++) {
            int f = s[FOUND + suit];
            if (f > 0) {
                int card = suit * 13 + f - 1;
                if (!plain && is_safe(s, card, v))
                    continue;
                int mask = tops[key_of(card)];
                if (!plain)
                    mask &= -mask; /* twin tops: the lower pile only */
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
        int32_t step = talon_step(s, limit);
        if (step >= 0)
            n = add(mv, pr, n, step, 0);
    }
    *known = present;
    if (seen) {
        seen->tops = at_top;
        seen->talon_home = talon_home;
        seen->downs = downs;
    }
    return n;
}

static int generate(const state_t *s, const int64_t *v, int32_t *mv, int32_t *pr, int plain)
{
    uint64_t present = 0;
    return generate_known(s, v, mv, pr, plain, &present, NULL);
}

/* A move onto a pile (from a pile, the talon or a foundation) with no other
 * move in its code (no HOME_FLAG, FILL_FLAG or PAIR_FLAG). */
static inline int plain_to_pile(int32_t code)
{
    int src = code & 15;
    return !(code & (HOME_FLAG | FILL_FLAG | PAIR_FLAG)) && (src < NPILES || src == SRC_TALON || src == LOC_FOUNDATION) &&
           ((code >> 4) & 15) < NPILES;
}

/* Whether code is in the moves list[0..n). */
static inline int listed(const int32_t *list, int n, int32_t code)
{
    for (int k = 0; k < n; k++)
        if (list[k] == code)
            return 1;
    return 0;
}

/* The card a plain_to_pile move code of state s leaves where autoplay could
 * take it, when the commute rule (see the notes) takes the move: a talon
 * card, or the card turned up by the whole face-up run of a pile with
 * face-down cards; 64 for a foundation card brought back (which autoplay
 * never takes back at once); -1 when the rule does not take the move. */
static inline int commute_card(const state_t *s, int32_t code)
{
    int src = code & 15;
    if (src == LOC_FOUNDATION)
        return 64;
    if (src == SRC_TALON)
        return (code >> 14) & 63;
    int down = s[DOWN + src];
    return down > 0 && ((code >> 8) & 63) == s[LEN + src] - down ? s[PILE_CAP * src + down - 1] : -1;
}

/* Whether code is a plain move of one card home: a pile top's or a talon card's. */
static inline int plain_home(int32_t code)
{
    int src = code & 15;
    return !(code & (HOME_FLAG | FILL_FLAG | PAIR_FLAG)) && (src < NPILES || src == SRC_TALON) &&
           ((code >> 4) & 15) == LOC_FOUNDATION;
}

/* Whether the commute rule (see the notes) takes the move of card home from
 * pile src (or, src SRC_TALON, from the talon) out of p's moves: autoplay
 * would send nothing home after it in p, whose pile tops are tops (a bit a
 * card), and the last move of the path (a foundation card brought back,
 * when back_card >= 0) is still one the search would make after it. */
static inline int home_commutes(const state_t *p, int src, int card, int back_card, uint64_t tops, const int64_t *v)
{
    if (free_talon(v)) /* (autoplay would read the talon's cards too) */
        return 0;
    state_t found[4];
    memcpy(found, p + FOUND, 4);
    found[SUIT[card]]++;
    if (src < NPILES) {
        int len = p[LEN + src];
        if (len < 2) /* it would empty its pile */
            return 0;
        tops = (tops & ~((uint64_t)1 << card)) | (uint64_t)1 << p[PILE_CAP * src + len - 2];
    }
    return !(safe_next_on(found, v) & tops) && (back_card < 0 || !is_safe_on(found, back_card, v));
}

/* Each card's place in s's talon, in where (by card); returns 1. */
static inline int place_talon(const state_t *s, int8_t *where)
{
    for (int q = 0; q < s[TLEN]; q++)
        where[s[TALON + q]] = (int8_t)q;
    return 1;
}

/* The move of list[0..at) that plays the talon card of code to where code
 * plays it, with either recycle flag (-1: none). */
static inline int32_t listed_talon(const int32_t *list, int at, int32_t code)
{
    for (int k = 0; k < at; k++)
        if ((list[k] & ~(1 << 20)) == (code & ~(1 << 20)))
            return list[k];
    return -1;
}

/* Whether two talon moves commute on the talon (see the notes, *talon
 * commute*): last played talon card c1 at p, making s; m (code m_s at s)
 * plays talon card c2, and list[0..at) (p's moves before last) holds m_p,
 * the move of c2 to where m plays it (either recycle flag). The talon of
 * Y = p + m_p reaches c1 (with or without a recycle), and c1's move from
 * there leaves the waste position that s + m leaves, as the key holds it
 * (key_wp), and, with limited passes, the same pass. where[card] is each
 * card's place in p's talon. Not with a free talon (the pair and
 * free-talon rules read the talon's cards). */
static int talon_commutes(const state_t *p, const state_t *s, const int8_t *where, int c1, const int32_t *list,
                          int at, int32_t m_s, const int64_t *v)
{
    int c2 = (m_s >> 14) & 63, tlen = p[TLEN], q1 = where[c1], q2 = where[c2];
    /* c2's place in s's talon and c1's in Y's: the waste positions s + m and Y + c1's move leave */
    int qa = q2 - (q2 > q1), qb = q1 - (q1 > q2);
    if (key_wp(v, qa, tlen - 2) != key_wp(v, qb, tlen - 2))
        return 0; /* (the cheap test first) */
    int32_t m_p = listed_talon(list, at, m_s);
    if (m_p < 0)
        return 0;
    /* Y's talon is p's without c2 (len cards), drawn up to where c2 was (q2), at pass py. The search's talon
     * moves (talon_reach) reach there the waste top, every draw-th card on from the waste and the last card,
     * and, recycling once when a pass is left, every draw-th card from the start and the last: c1 at qb,
     * with a recycle only when not without. */
    int draw = (int)v[V_DRAW], len = tlen - 1, recycle;
    int py = p[PASS] + ((m_p >> 20) & 1);
    py = py < PASS_CAP ? py : PASS_CAP;
    if ((q2 > 0 && qb == q2 - 1) || (qb >= q2 && ((qb + 1 - q2) % draw == 0 || qb == len - 1)))
        recycle = 0;
    else if ((v[V_PASSES] == 0 || py < v[V_PASSES]) && ((qb + 1) % draw == 0 || qb == len - 1))
        recycle = 1;
    else
        recycle = -1;
#ifdef CARDTABLE_CHECK_KEYS
    { /* the same as talon_reach says on Y's talon */
        state_t y[STATE_SIZE];
        int k = 0;
        for (int q = 0; q < tlen; q++)
            if (q != q2)
                y[TALON + k++] = p[TALON + q];
        y[TLEN] = (state_t)len;
        y[WP] = (state_t)q2;
        y[PASS] = (state_t)py;
        Reach reach[2 * 52 + 1];
        int nreach = talon_reach(y, v, (uint64_t)1 << c1, reach);
        if (nreach > 1 || (nreach ? reach[0].q != qb || reach[0].recycle != recycle : recycle >= 0))
            abort();
    }
#endif
    if (recycle < 0)
        return 0;
    int pa = s[PASS] + ((m_s >> 20) & 1), pb = py + recycle;
    return v[V_PASSES] == 0 || (pa < PASS_CAP ? pa : PASS_CAP) == (pb < PASS_CAP ? pb : PASS_CAP);
}

/* The pile top cards of s, a bit a card. */
static inline uint64_t top_cards(const state_t *s)
{
    uint64_t tops = 0;
    for (int i = 0; i < NPILES; i++)
        if (s[LEN + i] > 0)
            tops |= (uint64_t)1 << s[PILE_CAP * i + s[LEN + i] - 1];
    return tops;
}

/* The sibling rules (see the notes, *twin targets* and *a safe talon card
 * onto a pile*): leaves out of the moves mv[0..n) of state s (with their
 * priorities pr[0..n), when pr is not NULL) each move onto a pile top when
 * the same move onto a lower pile whose top is that top's twin (the same
 * rank and colour) is among them: a run, talon card or foundation card onto
 * a pile (no other move carried), or a whole pile moved with the fill rule's
 * king; and each move of a talon card autoplay would send home onto a pile
 * when its move home (the same recycle flag) is among them. tops is
 * top_cards(s); talon_home holds at least the talon cards with a move home
 * among them (the test is on those only). Returns how many moves are kept,
 * in their order. */
static int sibling_prune(const state_t *s, uint64_t tops, uint64_t talon_home, int32_t *mv, int32_t *pr, int n,
                         const int64_t *v)
{
    /* the talon cards with a move home that autoplay would send home (with a free talon it has: none) */
    uint64_t safe = 0;
    if (talon_home && !free_talon(v))
        safe = safe_next(s, v) & talon_home;
    /* both twins on top (clubs and spades, suits 0 and 3; diamonds and hearts, 1 and 2), a bit a rank */
    if (!safe && !(((tops & tops >> 39) | (tops >> 13 & tops >> 26)) & 0x1FFF)) /* most states */
        return n;
    int tk[NPILES]; /* each pile top's rank and colour (key_of), -1 for an empty pile */
    uint32_t seen = 0, twins = 0;
    for (int i = 0; i < NPILES; i++) {
        int m = s[LEN + i];
        tk[i] = m > 0 ? key_of(s[PILE_CAP * i + m - 1]) : -1;
        if (tk[i] >= 0) {
            twins |= seen & (uint32_t)1 << tk[i];
            seen |= (uint32_t)1 << tk[i];
        }
    }
    int kept = 0;
    for (int a = 0; a < n; a++) {
        int32_t code = mv[a], sib = -1;
        int t = -1, src = code & 15, from = -1, shift = 4; /* the target, and the piles the move takes from */
        if (code & FILL_FLAG) { /* the whole pile dst goes onto pile t, then the king fills dst from src */
            t = (code >> FILL_SHIFT) & 7;
            from = (code >> 4) & 15;
            shift = FILL_SHIFT;
        } else if (plain_to_pile(code)) {
            t = (code >> 4) & 15;
        }
        int card = (code >> 14) & 63;
        if (src == SRC_TALON && t >= 0 && !(code & FILL_FLAG) && ((safe >> card) & 1))
            sib = pack(SRC_TALON, LOC_FOUNDATION, 1, card, (code >> 20) & 1); /* (the other rule, the same test) */
        else if (t >= 0 && tk[t] >= 0 && ((twins >> tk[t]) & 1))
            for (int j = 0; j < t; j++)
                if (j != src && j != from && tk[j] == tk[t]) {
                    sib = (code & ~((int32_t)(shift == 4 ? 15 : 7) << shift)) | (int32_t)j << shift;
                    break;
                }
        /* the move onto the lower twin, or home, is never left out here (a rank and colour has two cards):
         * it is among the moves kept so far or the moves not yet looked at */
        if (sib >= 0 && (listed(mv, kept, sib) || listed(mv + a + 1, n - a - 1, sib)))
            continue;
        if (pr)
            pr[kept] = pr[a];
        mv[kept++] = code;
    }
    return kept;
}

/* Whether last (the move that made s from p, which sent nothing home) is still
 * a move of the search at Y = p + m after autoplay, reading what it read at p,
 * when autoplay after m sends cards home (see the notes, *commute through
 * autoplay*): autoplay took no card from the piles last reads or changes
 * (touched, a bit each) and emptied no pile, and a foundation card last
 * brought back (back_card >= 0) is still on its foundation and not safe. Not
 * with a free talon (autoplay would take talon cards too). */
static int commutes_through_autoplay(const state_t *p, int32_t m, int touched, int back_card, const int64_t *v)
{
    state_t y[STATE_SIZE];
    memcpy(y, p, STATE_SIZE);
    apply_move(y, m, v);
    state_t len[NPILES], found = back_card >= 0 ? y[FOUND + SUIT[back_card]] : 0;
    memcpy(len, y + LEN, NPILES);
    autoplay(y, v, NULL, 0);
    for (int i = 0; i < NPILES; i++)
        if (y[LEN + i] != len[i] && (((touched >> i) & 1) || y[LEN + i] == 0))
            return 0;
    return back_card < 0 || (y[FOUND + SUIT[back_card]] == found && !is_safe(y, back_card, v));
}

/* The path rules (see the notes): leaves out of the moves mv[0..n) of state
 * s (with their priorities pr[0..n), when pr is not NULL) the moves that
 * undo last (the move that made s from its parent p), move what last moved on
 * where p's moves list[0..nlist) would have moved it at once, or commute with
 * last (through autoplay too) and come before it (at index at of list) in
 * list; returns how many moves are kept, in their order; first sibling_prune leaves out the moves
 * whose child another move of s makes (seen is what generate_known saw of s,
 * or top_cards(s) with every card as talon_home). */
static int path_prune(const state_t *p, const state_t *s, const Glimpse *seen, int32_t last, const int32_t *list,
                      int nlist, int at, int32_t *mv, int32_t *pr, int n, const int64_t *v)
{
    n = sibling_prune(s, seen->tops, seen->talon_home, mv, pr, n, v);
    int home = plain_home(last);
    /* Without a free talon the fill rule's steps commute too, and moves commute through autoplay (with one,
     * the free-talon rule reads the cards face up, and autoplay the talon's cards) */
    int fill = (last & FILL_FLAG) && !free_talon(v);
    if (!home && !fill && !plain_to_pile(last))
        return n;
    int i = last & 15, j = (last >> 4) & 15, count = (last >> 8) & 63, base = (last >> 14) & 63;
    int back = i == LOC_FOUNDATION, pile = i < NPILES, talon = i == SRC_TALON;
    /* A foundation card brought back never sends a card home (it makes no card safe, and is not safe); after
     * the other moves, autoplay sent none home when the foundations are as they were, but for the card last
     * sent home. Then the card last left at hand was not safe (autoplay would have taken it), so last is a
     * move the commute rule takes when it is a talon card's, a card's sent home or turned a card up. */
    state_t found[4];
    memcpy(found, p + FOUND, 4);
    if (home)
        found[SUIT[base]]++;
    if (!back && memcmp(found, s + FOUND, 4) != 0)
        return n;
    /* last turned a card up (a fill step's king from a pile always does: it lay on face-down cards) */
    int turned = pile && (fill || (p[LEN + i] - count > 0 && p[DOWN + i] == p[LEN + i] - count));
    int commute = !pile || turned || home;
    /* the piles last reads or changes, a bit each (a fill step's: the pile it empties and fills, the pile the
     * whole pile goes onto, and the king's pile) */
    int touched = (j < NPILES ? 1 << j : 0) | (pile ? 1 << i : 0) | (fill ? 1 << ((last >> FILL_SHIFT) & 7) : 0);
    uint64_t safe = 0, tops = 0;
    int known = 0, topped = 0; /* safe is safe_next(p); tops is top_cards(p) */
    /* two talon cards' moves can commute (talon_commutes), with where each card's place in p's talon */
    int both_talon = talon && !fill && !free_talon(v), placed = 0;
    int8_t where[52];
    /* The cards a move of s can be left out for, a bit each: the card last moved (undo, twice) and, with
     * commute, the cards p tried before last (a move the commute rule takes is one of those moves). Most
     * moves of s move none of them and are kept on this one test. */
    uint64_t cards = (uint64_t)1 << base;
    if (commute)
        for (int k = 0; k < at; k++)
            cards |= (uint64_t)1 << ((list[k] >> 14) & 63);
    int kept = 0;
    for (int a = 0; a < n; a++) {
        int32_t code = mv[a];
        int card = (code >> 14) & 63;
        int step = (code & FILL_FLAG) != 0; /* a fill step: the commute rule's alone */
        if ((cards >> card) & 1 && !(code & (HOME_FLAG | PAIR_FLAG)) && (!step || (commute && !free_talon(v)))) {
            /* (no rule takes a move that carries another, but for the fill step) */
            int src = code & 15, dst = (code >> 4) & 15, out = 0;
            if (step) {
                /* a fill step that reads and changes none of last's piles (nor the talon, when last is a
                 * talon card's move, nor last's suit's foundation), which the commute rule takes when p tried
                 * it before last and the card it leaves at hand (the card its king's pile turns up, or a
                 * talon king) is not safe */
                int e = -1, t = (code >> FILL_SHIFT) & 7;
                if (!(((1 << dst) | (1 << t) | (src < NPILES ? 1 << src : 0)) & touched)) {
                    if (src < NPILES)
                        e = s[PILE_CAP * src + s[DOWN + src] - 1];
                    else if (src == SRC_TALON)
                        e = talon ? -1 : card;
                    else
                        e = (back || home) && SUIT[card] == SUIT[base] ? -1 : 64;
                }
                if (e >= 0 && listed(list, at, code)) {
                    if (e < 64 && !known) {
                        safe = safe_next(p, v);
                        known = 1;
                    }
                    out = e == 64 || !((safe >> e) & 1) ||
                          commutes_through_autoplay(p, code, touched, back ? base : -1, v);
                }
            } else if (src == j && card == base && !fill) {
                if (dst == i) /* undo (a talon card never goes back to the talon) */
                    out = !turned;
                else if (dst < NPILES || dst == LOC_FOUNDATION) /* twice */
                    out = listed(list, nlist, talon ? pack(SRC_TALON, dst, 1, base, (last >> 20) & 1)
                                                    : pack(i, dst, count, base, 0));
            } else if (commute && (dst < NPILES ? !((1 << dst) & touched) : dst == LOC_FOUNDATION) &&
                       (src != SRC_TALON || !talon ||
                        (both_talon && (placed || (placed = place_talon(p, where))) &&
                         talon_commutes(p, s, where, base, list, at, code, v)))) {
                /* a move onto a pile or home that reads and changes none of last's piles, which the commute
                 * rule takes (commute_card, home_commutes) when p tried it before last */
                int e = -1;
                if (dst == LOC_FOUNDATION) {
                    if ((src < NPILES && !((1 << src) & touched)) || src == SRC_TALON) {
                        if (!topped) {
                            tops = top_cards(p);
                            topped = 1;
                        }
                        /* (65: only through autoplay, when the card it leaves on top or a pile top is safe) */
                        e = home_commutes(p, src, card, back ? base : -1, tops, v) ? 64
                            : !free_talon(v) && (src == SRC_TALON || p[LEN + src] > 1) ? 65 : -1;
                    }
                } else if (src < NPILES)
                    e = (1 << src) & touched ? -1 : commute_card(s, code);
                else if (src == SRC_TALON)
                    e = card;
                else if (src == LOC_FOUNDATION)
                    e = (back || home) && SUIT[card] == SUIT[base] ? -1 : 64;
                /* (two talon cards' moves: talon_commutes, above, found m in p's list, with either
                 * recycle flag) */
                if (e >= 0 && ((talon && src == SRC_TALON) || listed(list, at, code))) {
                    if (e < 64 && !known) {
                        safe = safe_next(p, v);
                        known = 1;
                    }
                    out = e == 64 || (e < 64 && !((safe >> e) & 1)) ||
                          (!free_talon(v) && commutes_through_autoplay(p, code, touched, back ? base : -1, v));
                }
            }
            if (out)
                continue;
        }
        if (pr)
            pr[kept] = pr[a];
        mv[kept++] = code;
    }
    return kept;
}

/* Lay out 52 cards in dealing order (Position.from_deal_cards): round r
 * gives one card to each of piles r..6, the rest is the stock, top first;
 * nothing drawn, first pass. */
static inline void deal_state(const int8_t *deck, state_t *s)
{
    memset(s, 0, STATE_SIZE);
    int k = 0;
    for (int r = 0; r < NPILES; r++)
        for (int i = r; i < NPILES; i++)
            s[PILE_CAP * i + r] = deck[k++];
    for (int i = 0; i < NPILES; i++) {
        s[LEN + i] = (state_t)(i + 1);
        s[DOWN + i] = (state_t)i;
    }
    for (int q = 0; q < 24; q++)
        s[TALON + q] = deck[28 + q];
    s[TLEN] = 24;
    s[PASS] = 1;
}

#endif
