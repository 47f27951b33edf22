/*
 * The rules of any patience description, compiled: the tables Python builds
 * from a Description (cardtable/solver/patience.py, ``rules_blob``), one
 * mutable position with make and undo in place, the move generator and the
 * canonical state key. The search over it is in _pcore.c.
 *
 * The generator is the engine's (cardtable/patience/engine.py,
 * PatienceGame.legal_moves) rewritten move for move: the same moves, in the
 * same order, at every position; tests/solver/test_patience_core.py holds the
 * two equal over random play-outs of every game of the registry. What the
 * engine does by itself after a move (complete runs to the foundations, the
 * reserve filling spaces, face-down cards turning up) is done here in the
 * same order.
 *
 * Cards are deck indices 0..51 (suit * 13 + rank - 1, suits clubs, diamonds,
 * hearts, spades); the copies of a two-deck game share their index. Piles
 * are numbered as the engine numbers them: tableau, foundations, cells,
 * reserve, stock, waste, hole.
 *
 * A move is one 32-bit code: source | target << 8 | count << 16 | pair << 24,
 * target P_ANYF for "the first foundation that takes the card", P_NONE for
 * the deal (source: the stock, or pile 0 for a redeal when there is no
 * stock), and pair P_NONE unless two cards go to the hole together.
 *
 * ---- Safe moves (made by the search without branching) -----------------
 * A card c on top of a tableau pile, a free cell, a reserve pile or (when
 * the stock deals one card at a time) the waste goes to the foundations at
 * once, as the only move from that position, when
 *   (1) the foundations build up in suit one rank at a time from a base rank
 *       (the Ace, or the first card dealt to them, as Canfield's, once one is
 *       home; wrapping from King to Ace where the rules wrap), so each holds
 *       its suit's cards from the base up to its top card,
 *   (2) foundation cards never come back (or never need to, below), no
 *       complete-run rule, no hole, and
 *   (3) every card that the tableau's build rule lets go on c is on the
 *       foundations already, every copy of it.
 * Why this never turns a won position into a lost one: by (2) and (3) no
 * card can ever be put on c again, wherever it lies. Take any winning line
 * from the position and drop the moves of c from it up to the one that plays
 * c home: each move left is legal in the position with c home (a run that
 * carried c on top carries the same cards less c, which is a run still and
 * needs no more free space; an emptied pile takes at least what a pile
 * holding only c could take, which was nothing; a face-down card under c
 * turns up sooner, and with every card known that only adds moves). With one
 * card dealt at a time the stock's order is the same without c, so the
 * waste only loses a card that covered others. Three at a time, taking c out
 * of the waste would change which cards later deals expose, so the waste is
 * left alone there.
 * Where spaces are filled from the reserve (Canfield), a pile that empties
 * takes the reserve's next card at once, so the line must empty the same
 * piles at the same moves: while the reserve holds cards, c never comes from
 * it (the card a space would take), nor from a tableau pile it is the only
 * card of. From a
 * pile [.., y, c] the pile empties in the line only once y has left, which it
 * does under c (a run or whole pile carrying c, the same less c) or after c
 * left, at the same move with c home; a pile c went to was a space only once
 * the reserve was spent (a space takes nothing else while the reserve holds
 * cards), after which nothing fills spaces. The games whose stock deals only
 * while no pile is empty are left out there.
 *
 * ---- Foundation cards that may come back (returns_idle) ------------------
 * Where foundation cards may come back, the search never takes one back
 * (and then makes the safe moves above, as if they never came back) when
 *   (a) every card the tableau's build rule lets go on a card x is of x's
 *       suit and of a lower rank (Fan's, Baker's Game's same-suit builds),
 *   (b) one deck; the foundations as in (1); no complete-run rule, no hole,
 *       no covers, no reach, no redeal, no stock dealing onto the tableau or
 *       needing every pile filled, spaces not filled from a reserve, and the
 *       game won with every card home.
 * Why a position with a winning line L has one that takes nothing back: call
 * a card "back" from the move that takes it off a foundation until it goes
 * home again. A card z put on a back card x fits x by the build rule, so by
 * (a) it is of x's suit and lower; it was home when x was (the foundation
 * builds in suit from the Ace), so z is back too. So in every pile the back
 * cards lie above the others. Let L' be L without the moves of back cards,
 * and those cards left home: each pile of L' is L's less its back cards on
 * top, and each move of L' is legal there. A move of cards that are not
 * back takes in L' the same cards less the back ones on top of them: the
 * same bottom card onto the same top card (a back card takes none of them)
 * or into a space, fewer cards (a prefix of a run is a run; a move sized by
 * free cells and spaces has at least as many in L', where no back card
 * fills one), the whole pile exactly when it was. A card going home finds
 * its foundation topped by the rank below, as in L: a card of its suit
 * that is back and above it came off after it, so it would be back itself.
 * The stock and the waste hold no back card, and by (b) nothing else reads
 * the tableau. At L's end every card is home, as at L''s.
 *
 * ---- Foundation cards below the floor (returns_floor) ---------------------
 * Where foundation cards may come back and (a) of returns_idle fails (King
 * Albert under Solvitaire's rules: alternate colours), but every card the
 * build lets go on a card x is of a lower rank than x, and (b) there holds,
 * call the floor m the lowest rank every foundation has reached (0 while one
 * is empty: with one deck each holds one suit from the Ace, so every card of
 * rank m or lower is home). The search takes no card of rank m or lower back,
 * and where each card the build lets go on a card c is of rank m or lower,
 * c goes home as a safe move (every such card is home).
 * Why a position with a winning line L has one L' that takes no such card
 * back, no longer: call a card of rank m or lower that is off the
 * foundations "back" (it was home at the position, so L took it back). A
 * card put on a back card is of a lower rank, so m or lower: back too. So in
 * every pile the back cards lie above the others, and the rest of
 * returns_idle's argument holds word for word: L' is L without the moves of
 * back cards, those left home; a card that is not back going home finds its
 * foundation topped as in L (each holds every card of rank m or lower in
 * both). Safe moves: from a position with a winning line, take L' as above;
 * every card that goes on c is of rank m or lower, home, and stays home
 * along L', so nothing is put on c before L' plays it home, and the
 * argument of (1)-(3) holds for L'.
 *
 * ---- A card onto a settled card (settle_ok) --------------------------------
 * Call a tableau card t settled when it can never move but home: it lies on
 * the only card it may be built on (and no space takes it), or at the bottom
 * of its pile and it may be built on none (alone there, a move into a space
 * only renames its pile: Fan's King). Where
 *   (a) the safe moves above are made (safe_ok), from Aces, one deck, no
 *       wrapping; the piles are the tableau and the foundations alone; one
 *       card moves at a time; spaces take nothing or only Kings; no card face
 *       down, no covers, reach or redeal, the game won with every card home;
 *   (b) c is the one card the build rule lets go on t, one rank below t in
 *       its suit, and t is the one card c may be built on (Fan's same-suit
 *       builds),
 * a top card c goes onto a settled top card t at once, as the only move.
 * Why a position P with a winning line L (one that takes nothing back, by
 * the notes above) has one that begins so: L' is the move of c onto t, then
 * L less its moves of c but the one home, each move onto the cards where L
 * has c made onto t's pile instead. Along L', the position is L's with c and
 * the cards L put on it lying on t (in L nothing lies on t: c alone goes
 * there), until L plays c home or onto t, after which the two are the same.
 * Each move of L' is legal: it moves the same top card onto the same top
 * card (one card a move, so nothing else counts); the pile L keeps c in has
 * fewer cards in L', which only adds moves (a top card more, or a space,
 * which L never fills while c is there); t never moves in L before c goes
 * home (one alone that L moves to a space: the piles renamed, which no rule
 * reads by (a)). Why the search stays complete: take
 * psi(P) = the length of the shortest such line, plus the cards that are
 * neither home nor settled. No move lessens those cards (a settled card
 * stays so until it goes home), so L's first move lowers psi by one; a safe
 * move home does not raise it (the line loses c's move home and c is home);
 * nor does this move (one move more, c settled). So every position the search
 * keeps that has a winning line has a move to one whose psi is lower, and
 * psi >= 0. Fan under Solvitaire's rules, deals 1 to 20: see
 * docs/patience-solver.md.
 *
 * ---- A card onto a settled King's pile (settle_kings) ---------------------
 * With free cells, or runs that move by them, a card on the one card it
 * builds on may still have to move (into a cell, or in a run), and the notes
 * above do not hold. A King's pile is one that holds from its bottom a King,
 * then each rank below it in the King's suit in turn, up to its top card t;
 * let m be its length, N the number of cells, and c the card one rank below
 * t in its suit. Call a King's pile settled when c is home, or m > N, or
 * m = N and c lies in a cell. Where
 *   (a) the safe moves above are made (safe_ok), from Aces, one deck, no
 *       wrapping; the piles are the tableau, the foundations and the cells;
 *       one card moves at a time, or a run sized by the free cells; spaces
 *       take nothing or only Kings (so no space sizes a run); no card face
 *       down, no covers, reach or redeal, the game won with every card home;
 *   (b) each card takes only the card one rank below it in its suit
 *       (Seahaven Towers', Eight Off's builds), so that card goes on no other,
 * a card c in a cell or on top of a tableau pile, or heading there a run of
 * k cards that the free cells move, goes at once (with the run) onto the top
 * t of a settled King's pile, as the only move.
 * Lemma: a position P with a winning line L (one that takes nothing back, by
 * the notes above) has one no longer that moves no card of a settled pile
 * but home. Take a settled pile B. By (b) a card of B goes only into a cell,
 * onto the card one rank above it (a card of B) or, the King alone, into a
 * space; onto a card of B goes only the card one rank below it: a card of B,
 * or c onto t. So until L plays c home, B's cards lie in the cells and on one
 * pile from its bottom up, the King and the ranks below it in turn (and on t,
 * when t is there, what L put on it); that pile never empties, for B's cards
 * would then all lie in the cells, and with them c if it began there (from a
 * cell c goes only onto t or home): more cards than the N cells hold. A move
 * of the pile's whole run from the King into a space only renames the pile,
 * which no rule reads by (a). Let L1 be L without the moves of B's cards, the
 * piles renamed where L renames B's, until L plays c home; then c home and
 * B's m cards after it, one by one from the top (the foundation of their suit
 * tops at the rank below each), then L without the moves of B's cards (if c
 * is home in P, B's cards go home first). Until c goes home, L1's position is
 * L's with B's cards back from the cells on B's pile, nothing on them but
 * what lies on t in L: each move of L1 moves the same cards onto the same
 * card or into a space as L's, with as many free cells (a run as much room)
 * and the same spaces. After B goes home, L1's position is L's with B's
 * cards home: nothing goes on a card of B but one of B once c is home, and
 * the cells and spaces only gain, so each later move is legal; L plays B's
 * m cards home in m moves of its own at least, so L1 is no longer, and wins.
 * Each settled pile of P in turn (each step moves only that pile's cards).
 * The rule: a position P, c and t as above (c is not home), L a winning line
 * that moves no settled card but home (the lemma). L' is c (with its run)
 * onto t, then L less its moves of c but the one home, each move onto c made
 * onto t's pile instead. Until L plays c home or onto t, the position along
 * L' is L's with c, and the cards lying on it in L, lying on t (L does not
 * move t, which goes home after c); after, the two are the same. Each move of
 * L' is legal: c goes only into a cell (L' holds no more cards in the cells,
 * so each run has as much room), onto t (a run headed by c, already there in
 * L': the same position), or home from its top, as in L; a move onto c is the
 * same card onto the same card; no run holds c and the card under it (c goes
 * only on t); c's old pile is shorter in L', a space at most, which only a
 * King enters and which sizes no run; B is not moved. Why the search stays
 * complete: psi(P) = the length of a shortest winning line plus the cards
 * neither home nor in a settled pile. A move of no card of a settled pile but
 * home keeps each settled pile settled (its top home: the rest is a settled
 * pile whose c is home) and may settle others (c onto t, with a run or not:
 * more than N cards; c into a cell; c home), so it never raises the count; by
 * the lemma a shortest line makes only such moves, and its first move lowers
 * psi by one; a safe move home does not raise psi (its line drops moves), nor
 * does this move (one move more, c and its run in a settled pile of m + k > N
 * cards). So every position the search keeps that has a winning line has a
 * move to one whose psi is lower, and psi >= 0. Seahaven Towers and Eight
 * Off: see docs/patience-solver.md.
 *
 * ---- A card in a cell onto the card it builds on (cell_onto) ---------------
 * Where settle_kings' (a) and (b) hold, runs move by the free cells (one card
 * more than the cells free), and there are free cells, two things change:
 *   - a cell move: a pile's top k cards, 2 <= k <= the free cells, each but
 *     the lowest lying on the one card it builds on, go into k free cells as
 *     one move of the search (the engine's k moves of one card; the line holds
 *     them);
 *   - a card c in a cell whose card t (the one card c builds on: one rank
 *     above it in its suit) is the top card of a tableau pile goes at once
 *     onto t, as the only move.
 * Below, a line may hold cell moves, each counted as one move; the notes
 * above hold so counted (a cell move is the move of a run into the cells: a
 * line that leaves some of its cards where they lie moves the others, the
 * top ones, as a cell move of fewer cards or a single move, no longer).
 * Claim: take a position A, c in a cell and t a top card, and B: A with c
 * on t. A winning line L from A gives one L' from B no longer. Let L' make
 * L's moves, each as below, until the two positions are the same; until
 * then B's is A's with c on t, and B has one free cell more. Nothing but c
 * goes on t ((b)), and nothing on c in a cell:
 *   - L moves c onto t: the same positions, L' makes none. c home: L' moves
 *     c home (B's top card). c into another cell: the same position but for
 *     which cell holds it, which no rule reads: L' makes none. No space takes
 *     c (only Kings, and t lies above c);
 *   - L moves t (atop a run or alone) onto a card or into a space: L' moves
 *     the run with c on it, one card more with one free cell more;
 *   - L moves t into a cell, or makes a cell move of k cards off t's pile:
 *     L' makes the cell move of c with them, k + 1 cards (one free cell
 *     more): the same positions;
 *   - any other move touches neither c nor t's pile (t goes home only after
 *     c), and is legal in B (the same cards elsewhere, one free cell more:
 *     runs as long at least).
 * c goes home in L, so the positions meet, and L' has at most L's moves.
 * So the rule keeps a winning line where there was one, and no longer. The
 * cell moves reach no position the engine's moves do not; they are needed
 * because the rule sends a card in a cell straight back onto t: the position
 * of L's "t into a cell" above, with c and t in the cells, is reached in one
 * move, not two.
 * Why the search stays complete (with the safe moves home and settle_kings):
 * take psi as in settle_kings, the length of a shortest winning line plus
 * the cards neither home nor in a settled pile; u, the cards neither home nor
 * lying on the one card they build on; and phi = (N + 1) psi + u, N the
 * cells. The rule's move lowers u by one (c onto t) and raises neither term
 * of psi: the line is no longer (the claim), and no pile is unsettled (c
 * leaves a cell only onto t: a settled pile whose c it is grows past N
 * cards). settle_kings' move keeps psi (its notes) and lowers u (c and its
 * run onto t, the card c builds on). A safe move home keeps psi and u or
 * lowers them. The first move of a shortest line that moves no settled card
 * but home (settle_kings' lemma) lowers psi by one and raises u by at most
 * N (a cell move of at most N cards; any other move changes what one card
 * lies on). So phi falls with each of them, every position the search keeps
 * that has a winning line has a move to one with a lower phi, and phi >= 0.
 * Seahaven Towers' deals 1 to 5,000 and Eight Off's: the same verdicts with
 * the rule and without it (benchmarks/cell_onto.py; docs/patience-solver.md).
 *
 * ---- A deal waits for the waste (deal_waits) ------------------------------
 * Where the stock deals to a waste more than one card at a time (so the
 * waste gives no safe move above), the search, at a position reached by a
 * stock move (a deal, or the waste turned over into the stock), makes only
 * stock moves and moves from the waste; the key tells such a position from
 * the same cards reached otherwise (a byte after the position's key).
 * Why a position with a winning line has one of that form: a stock move D
 * and a move X that neither comes from the waste nor is a stock move commute.
 * X reads and changes no stock or waste card, and no rule of X's reads them
 * (a move onto a pile or a foundation, a space filled from the reserve, the
 * safe moves after X: they read the tableau, cells, reserve and
 * foundations); D reads and changes only the stock, the waste and the pass
 * count (the stock deals to a waste whatever the tableau holds). So D X
 * (with X's safe moves) and X D reach the same position, each move legal,
 * and no safe move follows D in either order (the position before D had
 * none left; D changes nothing safe_move reads). Move each stock move of a
 * winning line past every such X after it until a stock move or a move from
 * the waste follows it: the line ends in the same position, wins, and every
 * stock move in it is followed by one of the moves the search makes.
 * A position reached by a stock move whose cards were also reached otherwise
 * is taken as seen: the other one makes every move it would.
 *
 * ---- Stock macro moves (stock_macros) ------------------------------------
 * Where the stock deals to a waste (any number of cards at a time, any pass
 * limit; not where it deals only while no pile is empty, and no hole), the
 * search makes no stock move on its own. In their place, for k = 1, 2, ...:
 * the k-th position the stock moves reach (each a deal, or the waste turned
 * over when the stock is empty and a pass is left: the engine's one stock
 * move of each position), and each move of the waste's top card there, is one
 * macro move "k stock moves, then that move", up to the first position whose
 * stock and waste are as long as they were at the start or at a position
 * before it (or none is reached). A macro
 * goes on the line as its k + 1 moves of the engine; the positions between
 * the stock moves are never states (Solvitaire's "k+" moves).
 * Why the search stays exact. (i) The stock moves only ever move cards
 * between the stock and the waste, one at a time, turning the waste over into
 * the stock: the waste read from the bottom, then the stock from the top, is
 * always the same sequence, so the lengths of the stock and the waste name
 * their cards, and a stock that gets back to lengths it had is where it was
 * then, its pass count the same (passes unlimited, and then not in the key)
 * or higher; and the stock moves from there repeat those from then on. A
 * position with a higher pass count and the same cards takes no move the
 * other does not (the count only bounds the turning over), so a macro past
 * that point would only reach a position an earlier k reaches, with no more
 * moves open: leaving it out loses no win. (ii) As in deal_waits
 * above, a stock move D commutes with each move X that neither comes from the
 * waste nor is a stock move, and no safe move follows D; move each stock move
 * of a winning line L past every such X after it: the line ends in the same
 * position, each move legal, and every run of stock moves in it is followed
 * by a move from the waste, or ends the line, where the position was won
 * before it already (no rule of a win reads the stock or the waste: every
 * card home, or the tableau emptied, or every card in one pile). So L is,
 * moves dropped at its end, a sequence of moves other than stock moves and of
 * "k stock moves then a move from the waste" (k by (i) within the macro's
 * range, or shortened), each one the search makes. (iii) The search plays
 * the safe moves after each of its moves; by their argument above the
 * position after them keeps a winning line no longer than the one before. So
 * by induction on the length of a shortest winning line, from every position
 * the search reaches that has a winning line it reaches, by one of its moves,
 * a position with a shorter one: the search, which tries every move of every
 * state it keeps, finds a win if there is one, and running out of states
 * still proves the deal unwinnable. Where the stock deals to a waste the
 * search then keeps no position reached by a stock move, and deal_waits is
 * off (the search without macros, `solve`'s stock_macros=0, has it).
 *
 * ---- Safe moves two ranks deep (safe_deep) ------------------------------
 * Where a card takes two or more cards (any suit, alternate colours), (3)
 * above waits for all of them. Where
 *   (a) the safe moves are made (safe_ok), one deck, foundation cards never
 *       come back; one card moves at a time; no reserve filling spaces, no
 *       stock dealing onto the tableau or needing every pile filled, no
 *       covers, reach, redeal or hole; the game won with every card home;
 *   (b) every card x that the build lets go on c and that is not home has
 *       the card below it in its foundation home (so x goes home at any time
 *       until it does) and every card the build lets go on x home,
 * c goes home at once as well (Beleaguered Castle's card once every card two
 * ranks below it is home, Solvitaire's rule for builds regardless of suit).
 * Why a position P with a winning line L has one from P with c home, L',
 * shorter: call "early" each card x that L puts on c, from that move until
 * L plays x home. L' is L less the moves of c and of early cards, and with
 * each move of a card x onto c made as x's move home instead. Nothing ever
 * goes on an early card (what the build lets go on it is home, and stays
 * home), and nothing but an early card goes on c; so along L' the position
 * is L's with c and the early cards home instead of on top of their piles
 * (c under at most one early card). Each move of L' is legal: x's move home
 * finds its foundation topped by the card below it (home at P, and x's
 * foundation cannot grow past it while x is out); any other move takes the
 * same top card (no early card lies under another card) onto the same top
 * card or into a space (the target is neither c, whose cards are early ones,
 * nor an early card), or home, where its foundation tops where L's does
 * (one with c or an early card home that L lacks tops at the card below it
 * in L, and only that card's own move, left out, goes there). A pile of L'
 * lacks only top cards of L's: a space where L has c or early cards only
 * adds moves (spaces take any card, the King or none: nothing reads them
 * but a move into one, by (a)), and a card under c turns up sooner, which
 * only adds moves too. L ends with every card home, so does L'; it lacks at
 * least c's move home, so the search's completeness argument above holds.
 *
 * ---- Cards stranded in a game of pairs (pairs_stranded) --------------------
 * Where
 *   (a) cards go to the hole in pairs whose ranks add up to N (a card of rank
 *       N alone), which is then the only move into the hole, and no card
 *       ever comes out of it;
 *   (b) nothing ever goes onto a tableau pile (no build, no space filled,
 *       no deal onto the tableau, no redeal), and there are no foundations
 *       and no cells, so a tableau card leaves the tableau only for the hole;
 *   (c) the game is won only with the tableau empty (tableau-empty, or
 *       every card home),
 * a position is lost when one tableau card c, of rank r other than N, can
 * never find a partner: a card of rank N - r that is free at the same time
 * as c. Call a tableau pile q tied to c's pile p when q is p, or q lies over
 * p (through the covers, at any remove), or p lies over q. A card of a pile
 * lying over p must leave before any card of p is free: every card of q
 * does when q lies over p, and the cards above c in p itself do before c is
 * free; so a card of a tied pile is never free at the same time as c. A
 * card in the hole is gone for good by (a). So c has a partner only in a
 * tableau pile not tied to its own, or in the stock, the waste or the
 * reserve (taken as possible whatever their order). When it has none, c
 * never leaves the tableau by (a) and (b), and no position after this one is
 * won by (c): the search goes no further from it (p_stranded, before the
 * position's moves). A rank with no partner rank (N - r outside 1..13)
 * strands its cards the same way. Each pair takes two cards out for good,
 * so a won line pairs every tableau card with a partner of its own: when k
 * tableau cards of one rank have partners only out of the tableau, and
 * fewer than k cards of the partner rank lie there, one of them is stranded
 * too. Pyramid's deal 16 is lost both ways from the start: every Queen lies
 * in the pyramid, in piles tied to the Ace of hearts' pile 8; and the Queens
 * of piles 2, 3 and 26 are tied to every Ace of the pyramid, with one Ace in
 * the stock for the three. The ties are worked out once
 * from the covers (r->tied); the test is a pass over the piles a position.
 *
 * ---- A card that goes alone, at once (lone_safe) --------------------------
 * Under (a) to (c) above, with no reach and a stock that deals whatever the
 * tableau holds, a free tableau card of rank N (Pyramid's King) goes to the
 * hole at once, without branching; and so does one on top of the waste
 * where the stock is never turned over again (one pass, no redeal).
 * Why a position P with a winning line L has one from P with that card K in
 * the hole: let L' be L less K's own move. K pairs with no card, so no move
 * of L needs it; in the tableau it only covers cards, which it then covers
 * no longer (a move needs its cards free: freer is still legal), and no
 * rule reads where the tableau's cards lie but the covers. In the
 * waste, L' has L's waste less K at every step: the stock deals the same
 * cards in the same order (it is never refilled from the waste), so the top
 * card is L's wherever L's is not K, and a move from the waste that L makes
 * finds the same card there (while K lies on top of L's waste, L makes none,
 * K's own move aside). L' ends with the tableau as L's, emptied, and every
 * other card where L has it, K in the hole: won by (c), one move shorter, so
 * the search's completeness argument holds as for the safe moves.
 *
 * ---- Moves that commute, tried in one order (commute) --------------------
 * A commute move here is a single move, one card from the top of a tableau
 * pile, a free cell or a reserve pile onto a tableau pile or into a free
 * cell; or, where the move unit is a run or any face-up cards (a group's
 * size never bounded by free cells or spaces: commute_groups, Yukon's and
 * Russian Solitaire's), a group move, a tableau pile's top n cards onto a
 * tableau pile. Its piles are its source and its target; where the move
 * uncovers a face-down card, the engine turns it up as part of the move.
 * Its order number ranks it by what it goes onto (a card first, then a
 * space, then a cell), then by the card that moves (a group's lowest,
 * which names the group: it and the cards over it in its pile), then by the
 * card it goes onto (every space counts as one target and every cell as
 * one: two moves of one number are never dropped for each other, since the
 * rule below needs a lower number). Of two moves the search keeps the order
 * that makes the lower one first: a move onto a card before one into a
 * space or a cell, so the position between them, which the best-first
 * search must reach first, holds fewer cards apart (on deals 1-200 at
 * 150,000 states, one or two more deals decided in Beleaguered Castle,
 * Streets and Alleys and King Albert than by the moving card first). Where
 *   (a) one deck; face-down cards, if any, in tableau piles alone, turned up
 *       by the engine when uncovered; no waste or hole, and a stock, if
 *       any, dealing onto the tableau; no covers and no reach; spaces not
 *       filled from the reserve; the game won with every card home; and no
 *       settled-card move can ever be made (settle_ok with no settle card,
 *       as in builds regardless of suit, and no settle_kings). A complete
 *       run going home (Spiderette's, Scorpion's) goes by the engine from
 *       the pile where a move completed it, as part of that move; the rule
 *       reads no such move (below: its cards do not stay on its target),
 * two facts hold. (L1) Whether a commute move is legal, the moves that the
 * generator lists for it, and what it does (the cards it moves, the card it
 * turns up) depend on its two piles alone (the source's cards; the
 * target's top card, or that it is a space or a free cell): nothing else is
 * read, by (a) and the unit (a single card always may move; a group's size
 * is bounded by its source pile alone); a stock deal is no commute move,
 * and no commute move reads the stock. (L2) Whether a position has a safe
 * move depends on each pile's top card and the foundations alone: every
 * safe move left under (a) is a pile's top card going home, judged by the
 * foundations (and the floor, which they give).
 * The search records with a node the move x that first reached it from its
 * parent V (its piles, its number of cards and whether it turned a card
 * up), when x is a commute move whose cards stay on its target and after
 * which no safe move was made (the node's position is then V.x itself),
 * and nothing otherwise (the
 * hybrid's depth-first part records it too, for the nodes it hands over).
 * Expanding a node T = V.x with x recorded, the best-first search drops
 * a commute move y, uncounted and unkeyed,
 *   (1) when y takes x's cards straight back where they came from (the
 *       same number of cards; from a cell, into any cell, which the key
 *       sorts) and x turned no card up: T.y is V, a node already, and no
 *       safe move can follow (V has none), so y is not even made (the move
 *       straight back below, undo_back, is this rule where commute is off);
 *   (2) or, once made with the safe moves after it, when its cards stay on
 *       its target, no safe move followed it, and y's piles and x's are
 *       four different piles and y's order number is below x's.
 * Claim: with the search run to its end, for every node U and every move y
 * the generator lists at U, the position after y and its safe moves is a
 * node (up to the key's symmetry), as without the rule; so the nodes are
 * the same set and so is the verdict (a won position is caught before the
 * rule is looked at). Only the order in which the nodes are made changes.
 * Proof, by induction on the pair (M - y's order number, U's place in the
 * order nodes are made), M the largest order number, compared first by its
 * first part (both parts are natural numbers, so the induction is well
 * founded). If y is not dropped at U, its result
 * is made then or was made before. If it is dropped by (1), its result is
 * V. If by (2): U = V.x. By (L1), y was legal at V (its piles are the same
 * there, and so is the group it moves) and the generator listed it (or,
 * into another space or cell, a move to the same key); x is legal after y,
 * and V.x.y = V.y.x (each changes its own two piles alone, the card it
 * turns up included; each one's cards stay on its target in either order,
 * as its target lies the same). V.y has no
 * safe move: by (L2) one would move a pile's top card home from a pile that
 * is not one of x's, which lies the same in V.x.y (where, checked, none is
 * made), or from one of x's piles, which is not one of y's and lies the
 * same in V (which has none, being a node). So the result of y at V is V.y
 * itself: a node W by the claim at (V, y), V being made before U (it is
 * U's parent) and y's number the same. At W, x (or the same cards onto the
 * same card, space or cell, where W's piles lie in another order) is
 * listed by (L1), and W.x = V.x.y has no safe move: a node by the claim
 * at (W, x), whose order number is above y's. The measure falls at each
 * step, which ends the induction. The search made the nodes without the
 * rule by the same closure from the root, so no node is missing. The claim
 * reads the search at its end, not the order it expanded its nodes in: the
 * depth-first part expands each node it makes with every move (a node left
 * on its stack is opened again, and the best-first search reads its
 * record), and a node the focused pass expanded without its sideways moves
 * is expanded again with every move (widen), the rule reading its record
 * again. Tested:
 * tests/solver/test_patience_core.py runs the search with and without it
 * (`solve(..., commute=False)`): the same verdicts, and the same states on
 * every deal proved unwinnable (an exhaustive search counts every node).
 *
 * ---- A move straight back, dropped (undo_back) ---------------------------
 * Where the commute rule is off but free cells hold cards (settle_kings:
 * Seahaven Towers, Eight Off), the best-first search still drops a
 * move y at a node T = V.x, unmade, uncounted and unkeyed, when x and y are
 * each one move of the engine of cards between piles (from a tableau pile,
 * a cell or a reserve pile onto a tableau pile or into a cell: no stock
 * move, nothing to the foundations or the hole), x was followed by nothing
 * the engine or the search's safe moves do by themselves (no card turned
 * up, no space filled, no complete run home, no safe move: x's cards lie on
 * its target and its source lost just them), and y takes x's cards from
 * x's target back onto x's source, as many (or, from a cell, into any
 * cell). Then T.y is V: pile for pile (x changed its two piles alone, and y
 * makes them as they were; a card back in another cell is the same key,
 * which sorts the cells), the stock, the waste, the passes and the redeals
 * untouched; and where a deal waits for the waste, V was not reached by a
 * stock move (x would have had to wait), so T.y's key has V's byte after
 * it. V is a node (T's parent), so T.y's key is in the table; and V was
 * left with no safe move and nothing for the engine to do by itself, so
 * nothing follows y either. Without the rule the search would make y, key
 * T.y, find it and go on: the rule changes no node and no order of the
 * search, only the work of making and keying a position seen, and the
 * states are the same, deal for deal (`solve(..., commute=False)` turns it
 * off with the commute rule; the tests compare the two, and the build with
 * CARDTABLE_CHECK_KEYS makes each dropped move and aborts unless it gives
 * the parent's key). The node records x as the commute rule records its
 * moves (a byte or two more a node). Without cells a move straight back is
 * rare (a card goes back only onto a card that takes it) and the record
 * costs more than the rule saves: Canfield's deals 1 to 20 took 1.6% more
 * CPU with it, Fan's 1 to 50 1.1%, where Seahaven Towers' 1 to 100 took
 * 3.6% less (docs/patience-solver.md).
 *
 * ---- Symmetry (the canonical key) ---------------------------------------
 * The key of a position sorts what no rule tells apart:
 *   - free cells, always (a move may go to any free cell; none is special);
 *   - foundations, whose order only decides which of two equal ones takes a
 *     card: as a multiset the position is the same;
 *   - tableau piles, when no rule looks at a pile's place: no covers
 *     (Pyramid, TriPeaks), no reach (Accordion), no stock dealing onto the
 *     tableau left to right (Spider, Scorpion), no redeal (which gathers the
 *     piles in order before its seeded shuffle); spaces filled from the
 *     reserve fill every empty pile with the next reserve card, the same
 *     multiset of piles in any order;
 *   - reserve piles, unless spaces are filled from them (the first one that
 *     holds cards gives).
 * Where nothing ever goes onto a tableau pile (no build, no space filled, no
 * deal onto the tableau, no redeal: Golf, Black Hole, TriPeaks, Pyramid),
 * each pile holds the bottom cards it held when the search began, so the
 * key keeps only its length (and face-down count), black-hole-solver's
 * packing; a stock that no card goes back to keeps only its length too.
 * These lengths, and the hole's top card, are packed as bits. Where tableau
 * piles keep their places, a pile's face-down cards are left out (only their
 * count is kept): they are the bottom cards it held at the search's start.
 * Keys are only ever compared within one search.
 * The pass number is left out when passes are unlimited, the hole keeps only
 * its top card (only that card decides what it takes next), and a
 * foundation that builds one suit one rank at a time keeps its length and
 * top card (they name every card in it).
 */
#ifndef CARDTABLE_PATIENCE_H
#define CARDTABLE_PATIENCE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define P_MAXPILES 160
#define P_CAP 104 /* a multiple of 8 (p_group_key copies 8 bytes at a time) */
#define P_ANYF 254
#define P_NONE 255
#define P_MAXMOVES 16384
#define P_MAXREACH 8
#define P_HEADER 48
#define P_KEYMAX (P_MAXPILES * (P_CAP + 2) + 16)

enum { K_TABLEAU, K_FOUNDATION, K_CELL, K_RESERVE, K_STOCK, K_WASTE, K_HOLE, K_KINDS };
enum { U_ONE, U_RUN, U_FACE_UP, U_SUPERMOVE, U_WHOLE_PILE, U_PILE };
enum { F_ANY, F_KINGS, F_NONE, F_RESERVE };
enum { S_NONE, S_WASTE, S_TABLEAU, S_HOLE };
enum { W_FOUNDATIONS, W_TABLEAU_EMPTY, W_ONE_PILE };
enum { D_DOWN, D_UP, D_EITHER, D_NONE, D_MATCH };

/* The header of the rules blob: int32 fields in this order. */
enum {
    H_COUNTS = 0,          /* 7 pile counts, by kind */
    H_UNIT = 7, H_FILL, H_PILE_TO_SPACE, H_HAS_COVERS, H_NREACH,
    H_REACH = 12,          /* P_MAXREACH distances, largest first */
    H_BASE = 20,           /* 0: the first card dealt to a foundation */
    H_MAY_RETURN, H_COMPLETE_RUNS, H_STOCK_TO, H_DRAW, H_PASSES /* 0: no limit */, H_NEEDS_NO_EMPTY,
    H_REDEALS, H_PER_PILE, H_HOLE_PAIRS /* 0: none */, H_WIN, H_BY_COUNT, H_TOTAL, H_COPIES,
    H_FOUND_DIR, H_FOUND_SAME, H_FOUND_WRAP, H_HOLE_BUILD_DIR, H_ANY_DOWN,
};

typedef struct {
    int count[K_KINDS], first[K_KINDS], npiles, ntab;
    int unit, fill, pile_to_space, has_covers, nreach, reach[P_MAXREACH];
    int base, may_return, complete_runs, stock_to, draw, passes, needs_no_empty, redeals, per_pile;
    int hole_pairs, win, by_count, total, copies;
    int found_dir, found_same, found_wrap, hole_dir;
    uint8_t build[52][52], run[52][52], home[52][52], hole[52][52]; /* [onto][card]: card fits on onto */
    uint64_t covers[P_MAXPILES][2];   /* tableau piles lying over each tableau pile */
    uint8_t build_list[52][52];       /* the cards the build rule lets go on each card */
    uint8_t build_n[52];
    uint8_t onto_list[52][52];        /* the cards each card may be built on */
    uint8_t onto_n[52];
    uint8_t home_list[52][52];        /* the cards a foundation topped by each card takes (home's rows) */
    uint8_t home_n[52];
    uint8_t kind_of[P_MAXPILES];
    int home_rank[P_MAXPILES];        /* a source's place among the sources to the foundations */
    int sources[P_MAXPILES], nsources;             /* by-source order (foundations last, when they give) */
    int plain[P_MAXPILES], nplain;                 /* foundations-first order, without foundations */
    int returns_idle; /* foundation cards that may come back never need to (see the notes) */
    int returns_floor; /* no foundation card at or below the floor comes back (see the notes) */
    int settle_ok;    /* a card goes at once onto a settled card it alone builds on (see the notes) */
    int settle_kings; /* the same onto the top of a settled King's pile, with free cells (see the notes) */
    int cell_onto;    /* a card in a cell goes at once onto the top card it builds on (see the notes) */
    int safe_deep;    /* safe moves two ranks deep where a card takes several (see the notes) */
    int pairs_stranded; /* a position with a tableau card no partner can ever meet is lost (see the notes) */
    int lone_safe;      /* a free card of rank N goes alone to the hole at once (see the notes) */
    int lone_waste;     /* ... from the waste's top too: the stock is never turned over again */
    int commute;        /* moves that commute tried in one order (see the notes) */
    int commute_groups; /* ... groups of cards too: their moves read their own two piles alone */
    int undo_back;      /* where commute is off: a move that takes the last one's cards straight back, dropped */
    int through_spaces; /* the search's moves of a sequence through spaces (_pcore.c, super_moves) */
    uint64_t tied[P_MAXPILES][2]; /* pairs_stranded: the tableau piles tied to each (see the notes) */
    uint8_t settle_card[52]; /* the one card that builds on each card, one rank below in its suit; P_NONE */
    int deal_waits;   /* after a stock move only stock moves and moves from the waste (see the notes) */
    int stock_macros; /* stock moves searched as macro moves to each card the waste reaches (see the notes) */
    int safe_ok, sym_tab, sym_res, keep_pass, short_found, any_down, fixed_tab, fixed_stock;
    /* the bits of a fixed tableau pile's length (and of the stock's, when it
     * is fixed too) in the packed key: enough for its length at the start
     * (p_rules_fit); 0 until then */
    uint8_t len_bits[P_MAXPILES];
    int packed;
    int key_fixed;  /* every key has the same length: nothing kept whole but the hole's top */
} PRules;

typedef struct { uint8_t type, a, b, n, da, db; } POp;
/* The undo log's ops: cards moved (T), a card turned up (F), a pass begun
 * (P), a redeal (R), and the stock and the waste moved on by several stock
 * moves at once (S: the search's stock jump, _pcore.c): a, the waste's
 * length before; b, the passes begun; da, db, the waste's and the stock's
 * face-down counts before. */
enum { OP_T, OP_F, OP_P, OP_R, OP_S };

typedef struct {
    uint8_t cards[P_MAXPILES][P_CAP];
    uint8_t len[P_MAXPILES];
    uint8_t down[P_MAXPILES];
    int pass_number, redeals_used;
    uint64_t shuffle_seed;
    /* the undo log: ops, and where each move's ops begin */
    POp *ops; int nops, capops;
    int *marks; int nmarks, capmarks;
    uint8_t *snaps; int nsnaps, capsnaps; /* tableau snapshots for redeals */
} PState;

static inline int p_rank(int c) { return c % 13 + 1; }
static inline int p_suit(int c) { return c / 13; }
static inline int p_top(const PState *s, int p) { return s->cards[p][s->len[p] - 1]; }

/* Read the rules blob; 0 on success, else a message. */
/* How the search treats the stock (see the notes): with `macros`, stock
 * macro moves where the stock deals to a waste; else a deal waits for the
 * waste where it deals more than one card at a time. */
static void p_rules_stock(PRules *r, int macros)
{
    int waste = r->stock_to == S_WASTE && !r->needs_no_empty && r->count[K_STOCK] > 0 && r->count[K_WASTE] > 0;
    r->stock_macros = macros && waste && r->count[K_HOLE] == 0;
    r->deal_waits = waste && r->draw > 1 && !r->stock_macros;
}

/* The tableau piles tied to each (the notes on pairs_stranded): the pile
 * itself, the piles lying over it at any remove, and those it lies under. */
static void p_rules_ties(PRules *r)
{
    uint64_t over[P_MAXPILES][2]; /* the piles lying over each, at any remove */
    for (int p = 0; p < r->ntab; p++) {
        over[p][0] = r->has_covers ? r->covers[p][0] : 0;
        over[p][1] = r->has_covers ? r->covers[p][1] : 0;
    }
    for (int grown = 1; grown;) {
        grown = 0;
        for (int p = 0; p < r->ntab; p++)
            for (int q = 0; q < r->ntab; q++)
                if ((over[p][q / 64] >> (q % 64)) & 1) {
                    uint64_t a = over[p][0] | over[q][0], b = over[p][1] | over[q][1];
                    grown |= a != over[p][0] || b != over[p][1];
                    over[p][0] = a;
                    over[p][1] = b;
                }
    }
    for (int p = 0; p < r->ntab; p++) {
        r->tied[p][0] = over[p][0];
        r->tied[p][1] = over[p][1];
        r->tied[p][p / 64] |= 1ULL << (p % 64);
    }
    for (int p = 0; p < r->ntab; p++)
        for (int q = 0; q < r->ntab; q++)
            if ((over[q][p / 64] >> (p % 64)) & 1) r->tied[p][q / 64] |= 1ULL << (q % 64);
}

static const char *p_rules_load(PRules *r, const uint8_t *blob, size_t size)
{
    size_t need = P_HEADER * 4 + 4 * 52 * 52;
    if (size < need) return "rules blob too short";
    int32_t h[P_HEADER];
    memcpy(h, blob, sizeof h);
    memset(r, 0, sizeof *r);
    int n = 0;
    for (int k = 0; k < K_KINDS; k++) {
        r->count[k] = h[H_COUNTS + k];
        r->first[k] = n;
        for (int i = 0; i < r->count[k]; i++) {
            if (n >= P_MAXPILES) return "too many piles";
            r->kind_of[n++] = (uint8_t)k;
        }
    }
    r->npiles = n;
    r->ntab = r->count[K_TABLEAU];
    if (r->ntab > 128) return "too many tableau piles";
    r->unit = h[H_UNIT]; r->fill = h[H_FILL]; r->pile_to_space = h[H_PILE_TO_SPACE];
    r->has_covers = h[H_HAS_COVERS]; r->nreach = h[H_NREACH];
    if (r->nreach > P_MAXREACH) return "too many reach distances";
    for (int i = 0; i < r->nreach; i++) r->reach[i] = h[H_REACH + i];
    r->base = h[H_BASE]; r->may_return = h[H_MAY_RETURN]; r->complete_runs = h[H_COMPLETE_RUNS];
    r->stock_to = h[H_STOCK_TO]; r->draw = h[H_DRAW]; r->passes = h[H_PASSES];
    r->needs_no_empty = h[H_NEEDS_NO_EMPTY]; r->redeals = h[H_REDEALS]; r->per_pile = h[H_PER_PILE];
    r->hole_pairs = h[H_HOLE_PAIRS]; r->win = h[H_WIN]; r->by_count = h[H_BY_COUNT];
    r->total = h[H_TOTAL]; r->copies = h[H_COPIES];
    r->found_dir = h[H_FOUND_DIR]; r->found_same = h[H_FOUND_SAME]; r->found_wrap = h[H_FOUND_WRAP];
    r->hole_dir = h[H_HOLE_BUILD_DIR];
    r->any_down = h[H_ANY_DOWN];
    const uint8_t *t = blob + P_HEADER * 4;
    memcpy(r->build, t, 52 * 52); t += 52 * 52;
    memcpy(r->run, t, 52 * 52); t += 52 * 52;
    memcpy(r->home, t, 52 * 52); t += 52 * 52;
    memcpy(r->hole, t, 52 * 52); t += 52 * 52;
    if (r->has_covers) {
        if (size < need + (size_t)r->ntab * 16) return "rules blob lacks the covers";
        for (int p = 0; p < r->ntab; p++) {
            memcpy(r->covers[p], t, 16);
            t += 16;
        }
    }
    for (int onto = 0; onto < 52; onto++) {
        int k = 0, h = 0;
        for (int c = 0; c < 52; c++) {
            if (r->build[onto][c]) r->build_list[onto][k++] = (uint8_t)c;
            if (r->home[onto][c]) r->home_list[onto][h++] = (uint8_t)c;
        }
        r->build_n[onto] = (uint8_t)k;
        r->home_n[onto] = (uint8_t)h;
    }
    for (int c = 0; c < 52; c++) {
        int k = 0;
        for (int onto = 0; onto < 52; onto++)
            if (r->build[onto][c]) r->onto_list[c][k++] = (uint8_t)onto;
        r->onto_n[c] = (uint8_t)k;
    }
    /* the sources, as the engine lists them */
    int ns = 0;
    int kinds[4] = {K_TABLEAU, K_CELL, K_RESERVE, K_WASTE};
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < r->count[kinds[j]]; i++) r->sources[ns++] = r->first[kinds[j]] + i;
    for (int i = 0; i < ns; i++) r->home_rank[r->sources[i]] = i;
    if (r->may_return)
        for (int i = 0; i < r->count[K_FOUNDATION]; i++) r->sources[ns++] = r->first[K_FOUNDATION] + i;
    r->nsources = ns;
    int np = 0;
    int pk[4] = {K_WASTE, K_TABLEAU, K_CELL, K_RESERVE};
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < r->count[pk[j]]; i++) r->plain[np++] = r->first[pk[j]] + i;
    r->nplain = np;
    /* what the header's soundness notes allow */
    /* what the build takes, over every card: */
    int below = 1;          /* each card it takes is of a lower rank */
    int in_suit_below = 1;  /* ... and of its suit */
    int one_below = 1;      /* ... and it takes at most one card, one rank below in its suit */
    for (int onto = 0; onto < 52; onto++) {
        one_below &= r->build_n[onto] <= 1;
        for (int k = 0; k < r->build_n[onto]; k++) {
            int c = r->build_list[onto][k];
            below &= p_rank(c) < p_rank(onto);
            in_suit_below &= p_suit(c) == p_suit(onto) && p_rank(c) < p_rank(onto);
            one_below &= p_suit(c) == p_suit(onto) && p_rank(c) + 1 == p_rank(onto);
        }
    }
    /* the rules both notes on foundation cards coming back ask for */
    int returns_rules = r->may_return && r->copies == 1 && r->base == 1 && r->found_dir == D_UP && r->found_same
        && !r->found_wrap && !r->complete_runs && r->count[K_HOLE] == 0 && r->fill != F_RESERVE
        && r->stock_to != S_TABLEAU && !r->needs_no_empty && !r->redeals && !r->has_covers && r->nreach == 0
        && r->win == W_FOUNDATIONS && r->count[K_FOUNDATION] > 0;
    r->returns_idle = returns_rules && in_suit_below;
    r->returns_floor = returns_rules && !in_suit_below && below;
    r->safe_ok = r->found_dir == D_UP && r->found_same && (!r->may_return || r->returns_idle || r->returns_floor)
        && !r->complete_runs && r->count[K_HOLE] == 0 && r->count[K_FOUNDATION] > 0
        && (r->fill != F_RESERVE || !r->needs_no_empty);
    r->safe_deep = r->safe_ok && !r->may_return && r->copies == 1 && r->unit == U_ONE && r->fill != F_RESERVE
        && r->stock_to != S_TABLEAU && !r->needs_no_empty && !r->has_covers && r->nreach == 0 && !r->redeals
        && r->win == W_FOUNDATIONS;
    r->settle_ok = r->safe_ok && !r->returns_floor && r->base == 1 && !r->found_wrap && r->copies == 1
        && r->unit == U_ONE
        && (r->fill == F_NONE || r->fill == F_KINGS) && !r->any_down && !r->has_covers && r->nreach == 0
        && !r->redeals && r->win == W_FOUNDATIONS && r->count[K_TABLEAU] == r->npiles - r->count[K_FOUNDATION];
    for (int t = 0; t < 52; t++) {
        int c = r->build_n[t] == 1 ? r->build_list[t][0] : -1;
        r->settle_card[t] = c >= 0 && p_suit(c) == p_suit(t) && p_rank(c) + 1 == p_rank(t) && r->onto_n[c] == 1
            ? (uint8_t)c : P_NONE;
    }
    p_rules_stock(r, 1);
    r->sym_tab = !r->has_covers && r->nreach == 0 && r->stock_to != S_TABLEAU && r->redeals == 0;
    r->sym_res = r->fill != F_RESERVE;
    r->keep_pass = r->stock_to == S_WASTE && r->passes != 0;
    /* nothing ever goes onto a tableau pile: each holds the bottom cards it
     * held at the search's start, and its length names them (Golf, Black Hole,
     * TriPeaks, Pyramid); a stock that nothing goes back to, the same */
    int builds = 0;
    for (int c = 0; c < 52; c++) builds += r->build_n[c];
    r->fixed_tab = !builds && r->fill == F_NONE && r->stock_to != S_TABLEAU && !r->redeals;
    r->fixed_stock = !(r->stock_to == S_WASTE && r->passes != 1);
    if (r->fixed_tab) r->sym_tab = 0;
    r->settle_ok = r->settle_ok && r->sym_tab;
    r->settle_kings = !r->settle_ok && r->safe_ok && one_below && r->base == 1 && !r->found_wrap && r->copies == 1
        && (r->unit == U_ONE || r->unit == U_SUPERMOVE) && (r->fill == F_NONE || r->fill == F_KINGS)
        && !r->any_down && !r->has_covers && r->nreach == 0 && !r->redeals && r->win == W_FOUNDATIONS
        && r->sym_tab && r->ntab + r->count[K_FOUNDATION] + r->count[K_CELL] == r->npiles;
    r->cell_onto = r->settle_kings && r->unit == U_SUPERMOVE && r->count[K_CELL] > 0;
    int settles = 0;
    for (int t = 0; t < 52 && r->settle_ok; t++) settles |= r->settle_card[t] != P_NONE;
    r->commute = r->copies == 1 && (!r->count[K_STOCK] || r->stock_to == S_TABLEAU) && !r->count[K_WASTE]
        && !r->count[K_HOLE] && !r->has_covers && r->nreach == 0 && r->fill != F_RESERVE && r->win == W_FOUNDATIONS
        && !settles && !r->settle_kings;
    r->commute_groups = r->commute && (r->unit == U_RUN || r->unit == U_FACE_UP);
    r->undo_back = !r->commute && r->count[K_CELL] > 0;
    r->through_spaces = (r->unit == U_RUN || r->unit == U_ONE) && r->fill == F_ANY && !r->count[K_CELL]
        && !r->has_covers && (r->any_down || r->count[K_STOCK]);
    r->short_found = r->complete_runs || (r->found_same && (r->found_dir == D_UP || r->found_dir == D_DOWN));
    r->pairs_stranded = r->hole_pairs > 0 && r->count[K_HOLE] > 0 && r->count[K_FOUNDATION] == 0
        && r->count[K_CELL] == 0 && r->fixed_tab && r->win != W_ONE_PILE;
    if (r->pairs_stranded) p_rules_ties(r);
    r->lone_safe = r->pairs_stranded && r->hole_pairs <= 13 && r->nreach == 0
        && !r->needs_no_empty;
    r->lone_waste = r->lone_safe && r->count[K_WASTE] > 0 && r->stock_to == S_WASTE && r->passes == 1;
    return NULL;
}

/* The packing of the key's fixed part for a search from position s: a fixed
 * pile only ever gets shorter, so its length at the start bounds it. */
static void p_rules_fit(PRules *r, const PState *s)
{
    memset(r->len_bits, 0, sizeof r->len_bits);
    r->packed = r->fixed_tab;
    r->key_fixed = r->packed && (!r->count[K_FOUNDATION] || r->short_found) && !r->count[K_CELL]
        && !r->count[K_RESERVE] && (!r->count[K_STOCK] || r->fixed_stock) && !r->count[K_WASTE];
    if (!r->packed) return;
    for (int p = 0; p < r->ntab; p++)
        while ((1 << r->len_bits[p]) <= s->len[p]) r->len_bits[p]++;
    if (r->count[K_STOCK] && r->fixed_stock) {
        int p = r->first[K_STOCK];
        while ((1 << r->len_bits[p]) <= s->len[p]) r->len_bits[p]++;
    }
}

/* ---- the position ------------------------------------------------------- */

static void p_state_free(PState *s)
{
    free(s->ops); free(s->marks); free(s->snaps);
    s->ops = NULL; s->marks = NULL; s->snaps = NULL;
}

/* Copy the position (the cards, face-down counts, pass and redeals) of
 * `from` into `to`, leaving `to`'s undo log alone. */
static void p_copy_position(const PRules *r, PState *to, const PState *from)
{
    for (int p = 0; p < r->npiles; p++) memcpy(to->cards[p], from->cards[p], from->len[p]);
    memcpy(to->len, from->len, sizeof to->len);
    memcpy(to->down, from->down, sizeof to->down);
    to->pass_number = from->pass_number;
    to->redeals_used = from->redeals_used;
    to->shuffle_seed = from->shuffle_seed;
}

static int p_grow(void **buf, int *cap, int need, size_t item)
{
    if (need <= *cap) return 0;
    int c = *cap ? *cap : 64;
    while (c < need) c *= 2;
    void *p = realloc(*buf, (size_t)c * item);
    if (!p) return -1;
    *buf = p;
    *cap = c;
    return 0;
}

static inline int p_op(PState *s, POp op)
{
    if (s->nops >= s->capops && p_grow((void **)&s->ops, &s->capops, s->nops + 1, sizeof(POp))) return -1;
    s->ops[s->nops++] = op;
    return 0;
}

static int p_transfer(const PRules *r, PState *s, int a, int b, int n)
{
    POp op = {OP_T, (uint8_t)a, (uint8_t)b, (uint8_t)n, s->down[a], s->down[b]};
    if (p_op(s, op)) return -1;
    if (n == 1) s->cards[b][s->len[b]] = s->cards[a][s->len[a] - 1];
    else memcpy(&s->cards[b][s->len[b]], &s->cards[a][s->len[a] - n], (size_t)n);
    s->len[b] = (uint8_t)(s->len[b] + n);
    s->len[a] = (uint8_t)(s->len[a] - n);
    if (s->down[a] > s->len[a]) s->down[a] = s->len[a];
    if (r->kind_of[b] == K_STOCK) s->down[b] = s->len[b];
    return 0;
}

static inline int p_in(const int *a, int n, int x)
{
    for (int i = 0; i < n; i++)
        if (a[i] == x) return 1;
    return 0;
}

static inline int p_covered(const PRules *r, const PState *s, int pile)
{
    if (!r->has_covers || pile >= r->ntab) return 0;
    for (int w = 0; w < 2; w++) {
        uint64_t m = r->covers[pile][w];
        while (m) {
            int q = __builtin_ctzll(m) + 64 * w;
            if (s->len[q]) return 1;
            m &= m - 1;
        }
    }
    return 0;
}

/* Card c's place in a foundation that starts with rank `base` and builds up
 * one rank at a time (wrapping from King to Ace): 1 for the base rank, 13 for
 * the rank below it. */
static inline int p_place(int c, int base) { return (p_rank(c) - base + 13) % 13 + 1; }

/* The rank every foundation starts with; 0 when none is set yet. */
static int p_found_base(const PRules *r, const PState *s)
{
    if (r->base) return r->base;
    int f0 = r->first[K_FOUNDATION];
    for (int i = 0; i < r->count[K_FOUNDATION]; i++)
        if (s->len[f0 + i]) return p_rank(s->cards[f0 + i][0]);
    return 0;
}

/* home[c] = 1 for each card c a foundation takes now (none where the
 * foundations take whole runs): the card above a foundation's top, and on an
 * empty foundation its base (any card while the base is still open). */
static void p_home_cards(const PRules *r, const PState *s, uint8_t home[52])
{
    memset(home, 0, 52);
    if (r->complete_runs || !r->count[K_FOUNDATION]) return;
    int base = p_found_base(r, s), f0 = r->first[K_FOUNDATION];
    for (int i = 0; i < r->count[K_FOUNDATION]; i++) {
        int f = f0 + i;
        if (s->len[f]) {
            int top = p_top(s, f);
            for (int k = 0; k < r->home_n[top]; k++) home[r->home_list[top][k]] = 1;
        } else if (base == 0) {
            memset(home, 1, 52);
            return;
        } else {
            for (int u = 0; u < 4; u++) home[u * 13 + base - 1] = 1;
        }
    }
}

static int p_foundation_for(const PRules *r, const PState *s, int card)
{
    if (r->complete_runs) return -1;
    int base = p_found_base(r, s);
    int f0 = r->first[K_FOUNDATION];
    for (int i = 0; i < r->count[K_FOUNDATION]; i++) {
        int f = f0 + i;
        if (s->len[f]) {
            if (r->home[p_top(s, f)][card]) return f;
        } else if (base == 0 || p_rank(card) == base) {
            return f;
        }
    }
    return -1;
}

static int p_run_length(const PRules *r, const PState *s, int p)
{
    int up = s->len[p] - s->down[p];
    if (up <= 0) return 0;
    const uint8_t *c = s->cards[p];
    int n = s->len[p], len = 1;
    while (len < up && r->run[c[n - len - 1]][c[n - len]]) len++;
    return len;
}

static int p_complete_run_on(const PState *s, int p)
{
    int n = s->len[p];
    if (n - s->down[p] < 13) return 0;
    const uint8_t *run = &s->cards[p][n - 13];
    int suit = p_suit(run[0]);
    for (int i = 0; i < 13; i++)
        if (p_suit(run[i]) != suit || p_rank(run[i]) != 13 - i) return 0;
    return 1;
}

static int p_settle(const PRules *r, PState *s)
{
    int T = r->ntab;
    if (r->complete_runs) {
        int f0 = r->first[K_FOUNDATION];
        for (int p = 0; p < T; p++) {
            if (!p_complete_run_on(s, p)) continue;
            for (int i = 0; i < r->count[K_FOUNDATION]; i++)
                if (!s->len[f0 + i]) {
                    if (p_transfer(r, s, p, f0 + i, 13)) return -1;
                    break;
                }
        }
    }
    if (r->fill == F_RESERVE) {
        int r0 = r->first[K_RESERVE];
        for (int p = 0; p < T; p++) {
            if (s->len[p]) continue;
            int src = -1;
            for (int i = 0; i < r->count[K_RESERVE]; i++)
                if (s->len[r0 + i]) { src = r0 + i; break; }
            if (src < 0) break;
            if (p_transfer(r, s, src, p, 1)) return -1;
        }
    }
    for (int k = 0; k < 2; k++) {
        int kind = k ? K_RESERVE : K_TABLEAU;
        for (int i = 0; i < r->count[kind]; i++) {
            int p = r->first[kind] + i;
            if (s->len[p] && s->down[p] == s->len[p]) {
                if (kind == K_TABLEAU && p_covered(r, s, p)) continue;
                s->down[p]--;
                POp op = {OP_F, (uint8_t)p, 0, 0, 0, 0};
                if (p_op(s, op)) return -1;
            }
        }
    }
    return 0;
}

static uint64_t p_splitmix_next(uint64_t *st)
{
    uint64_t z = (*st += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static uint64_t p_below(uint64_t *st, uint64_t n)
{
    /* limit = 2**64 - (2**64 mod n), as the engine's SplitMix64.below */
    uint64_t rem = (UINT64_MAX % n + 1) % n;
    for (;;) {
        uint64_t x = p_splitmix_next(st);
        if (rem == 0 || x < (uint64_t)0 - rem) return x % n;
    }
}

static int p_redeal(const PRules *r, PState *s)
{
    int T = r->ntab;
    int size = T * 2 + r->total;
    if (p_grow((void **)&s->snaps, &s->capsnaps, (s->nsnaps + 1) * size, 1)) return -1;
    uint8_t *snap = s->snaps + (size_t)s->nsnaps * size;
    uint8_t cards[P_MAXPILES * P_CAP];
    int n = 0;
    memcpy(snap, s->len, (size_t)T);
    memcpy(snap + T, s->down, (size_t)T);
    for (int p = 0; p < T; p++) {
        memcpy(cards + n, s->cards[p], s->len[p]);
        n += s->len[p];
    }
    memcpy(snap + 2 * T, cards, (size_t)n);
    POp op = {OP_R, 0, 0, 0, 0, 0};
    if (p_op(s, op)) return -1;
    s->nsnaps++;
    s->redeals_used++;
    uint64_t st = s->shuffle_seed * 0x100u + (uint64_t)s->redeals_used;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)p_below(&st, (uint64_t)(i + 1));
        uint8_t x = cards[i]; cards[i] = cards[j]; cards[j] = x;
    }
    int per = r->per_pile;
    for (int p = 0; p < T; p++) {
        int lo = p * per, hi = lo + per;
        if (lo > n) lo = n;
        if (hi > n) hi = n;
        memcpy(s->cards[p], cards + lo, (size_t)(hi - lo));
        s->len[p] = (uint8_t)(hi - lo);
        s->down[p] = 0;
    }
    return 0;
}

static int p_may_deal(const PRules *r, const PState *s)
{
    if (r->count[K_STOCK] && !r->needs_no_empty) return s->len[r->first[K_STOCK]] > 0;
    if (!r->count[K_STOCK]) {
        if (s->redeals_used >= r->redeals) return 0;
        for (int p = 0; p < r->ntab; p++)
            if (s->len[p]) return 1;
        return 0;
    }
    if (!s->len[r->first[K_STOCK]]) return 0;
    for (int p = 0; p < r->ntab; p++)
        if (!s->len[p]) return 0;
    return 1;
}

static int p_may_recycle(const PRules *r, const PState *s)
{
    if (r->stock_to != S_WASTE) return 0;
    return !s->len[r->first[K_STOCK]] && s->len[r->first[K_WASTE]]
        && (r->passes == 0 || s->pass_number < r->passes);
}

/* Play a move the generator listed; -1 only when memory runs out. */
static int p_play(const PRules *r, PState *s, uint32_t m)
{
    if (s->nmarks >= s->capmarks && p_grow((void **)&s->marks, &s->capmarks, s->nmarks + 1, sizeof(int)))
        return -1;
    s->marks[s->nmarks++] = s->nops;
    int src = m & 0xFF, dst = (m >> 8) & 0xFF, n = (m >> 16) & 0xFF, pair = (int)(m >> 24);
    int recycle = dst < r->npiles && r->kind_of[dst] == K_STOCK;
    if (dst != P_NONE && !recycle) {
        int target = dst == P_ANYF ? p_foundation_for(r, s, p_top(s, src)) : dst;
        if (target < 0) return -2;
        if (p_transfer(r, s, src, target, n)) return -1;
        if (pair != P_NONE && p_transfer(r, s, pair, target, 1)) return -1;
    } else if (dst == P_NONE && !r->count[K_STOCK]) {
        if (p_redeal(r, s)) return -1;
    } else if (dst == P_NONE) {
        int stock = r->first[K_STOCK];
        if (r->stock_to == S_WASTE || r->stock_to == S_HOLE) {
            int to = r->first[r->stock_to == S_WASTE ? K_WASTE : K_HOLE];
            int k = r->draw < s->len[stock] ? r->draw : s->len[stock];
            for (int i = 0; i < k; i++)
                if (p_transfer(r, s, stock, to, 1)) return -1;
        } else {
            for (int p = 0; p < r->ntab && s->len[stock]; p++)
                if (p_transfer(r, s, stock, p, 1)) return -1;
        }
    } else { /* the recycle */
        POp op = {OP_P, 0, 0, 0, 0, 0};
        if (p_op(s, op)) return -1;
        s->pass_number++;
        int waste = r->first[K_WASTE], stock = r->first[K_STOCK];
        while (s->len[waste])
            if (p_transfer(r, s, waste, stock, 1)) return -1;
    }
    return p_settle(r, s);
}

/* Put the waste's bottom `waste` cards of the sequence the stock and the
 * waste hold in the waste and the rest in the stock. Stock moves only move
 * cards between the two, and the waste read from its bottom, then the stock
 * from its top, is always the same sequence (a deal moves the stock's top
 * card onto the waste, a turn of the waste moves its cards back from its top
 * down): where the two piles split is all that changes. */
static void p_stock_split(const PRules *r, PState *s, int waste)
{
    int w = r->first[K_WASTE], st = r->first[K_STOCK], lw = s->len[w], total = lw + s->len[st];
    uint8_t seq[2 * P_CAP];
    memcpy(seq, s->cards[w], (size_t)lw);
    for (int i = lw; i < total; i++) seq[i] = s->cards[st][total - 1 - i];
    memcpy(s->cards[w], seq, (size_t)waste);
    for (int j = 0; j < total - waste; j++) s->cards[st][j] = seq[total - 1 - j];
    s->len[w] = (uint8_t)waste;
    s->len[st] = (uint8_t)(total - waste);
}

static void p_undo(const PRules *r, PState *s)
{
    int mark = s->marks[--s->nmarks];
    int T = r->ntab;
    while (s->nops > mark) {
        POp op = s->ops[--s->nops];
        if (op.type == OP_T) {
            memcpy(&s->cards[op.a][s->len[op.a]], &s->cards[op.b][s->len[op.b] - op.n], op.n);
            s->len[op.a] = (uint8_t)(s->len[op.a] + op.n);
            s->len[op.b] = (uint8_t)(s->len[op.b] - op.n);
            s->down[op.a] = op.da;
            s->down[op.b] = op.db;
        } else if (op.type == OP_F) {
            s->down[op.a]++;
        } else if (op.type == OP_P) {
            s->pass_number--;
        } else if (op.type == OP_S) {
            p_stock_split(r, s, op.a);
            s->down[r->first[K_WASTE]] = op.da;
            s->down[r->first[K_STOCK]] = op.db;
            s->pass_number -= op.b;
        } else {
            int size = T * 2 + r->total;
            uint8_t *snap = s->snaps + (size_t)(--s->nsnaps) * size;
            int n = 0;
            for (int p = 0; p < T; p++) {
                s->len[p] = snap[p];
                s->down[p] = snap[T + p];
                memcpy(s->cards[p], snap + 2 * T + n, s->len[p]);
                n += s->len[p];
            }
            s->redeals_used--;
        }
    }
}

static int p_is_won(const PRules *r, const PState *s)
{
    int T = r->ntab;
    if (r->win == W_TABLEAU_EMPTY) {
        for (int p = 0; p < T; p++)
            if (s->len[p]) return 0;
        return 1;
    }
    if (r->win == W_ONE_PILE) {
        int held = 0, cards = 0;
        for (int p = 0; p < T; p++) {
            held += s->len[p] > 0;
            cards += s->len[p];
        }
        return held == 1 && cards == r->total;
    }
    int home = 0;
    for (int i = 0; i < r->count[K_FOUNDATION]; i++) home += s->len[r->first[K_FOUNDATION] + i];
    for (int i = 0; i < r->count[K_HOLE]; i++) home += s->len[r->first[K_HOLE] + i];
    return home == r->total;
}

/* Whether a tableau card of s can never meet a partner (the notes on
 * pairs_stranded): the position is lost. */
static int p_stranded(const PRules *r, const PState *s)
{
    uint64_t at[14][2] = {{0}}; /* the tableau piles holding a card of each rank */
    int elsewhere[14] = {0};    /* the cards of each rank in the stock, the waste or the reserve */
    for (int p = 0; p < r->ntab; p++)
        for (int i = 0; i < s->len[p]; i++) at[p_rank(s->cards[p][i])][p / 64] |= 1ULL << (p % 64);
    int kinds[3] = {K_STOCK, K_WASTE, K_RESERVE};
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < r->count[kinds[j]]; i++) {
            int p = r->first[kinds[j]] + i;
            for (int k = 0; k < s->len[p]; k++) elsewhere[p_rank(s->cards[p][k])]++;
        }
    int need[14] = {0}; /* the tableau cards of each rank whose partners are all out of the tableau */
    for (int p = 0; p < r->ntab; p++)
        for (int i = 0; i < s->len[p]; i++) {
            int rank = p_rank(s->cards[p][i]), want = r->hole_pairs - rank;
            if (rank == r->hole_pairs) continue;
            if (want < 1 || want > 13) return 1;
            if ((at[want][0] & ~r->tied[p][0]) || (at[want][1] & ~r->tied[p][1])) continue;
            if (++need[rank] > elsewhere[want]) return 1;
        }
    return 0;
}

/* ---- the row of whole piles (the row search in _pcore.c) ----------------
 * Where only whole piles move on the tableau, each going by its top card
 * (unit U_PILE), spaces take nothing, no card is face down, one deck lies
 * all on the tableau and nothing else is there (no foundations, cells,
 * reserve, stock, waste or hole; no covers, redeal or complete runs), and
 * the game is won with one pile (Accordion):
 *  (1) A position's moves are read from the piles that hold cards, in
 *      order, and from their top cards only: the build table on the two
 *      tops, the reach counting only the piles that hold cards. A move puts
 *      the moving pile's top card on the target's place in the row and
 *      takes the moving pile out of the row; the game is won when one pile
 *      is left. So two positions with the same row of top cards have the
 *      same moves, each leading them to positions with the same row again:
 *      one is won exactly when the other is, and the key is that row (its
 *      length, then the cards).
 *  (2) The top cards only ever lose one card at a time: a move leaves the
 *      moving pile's top card on top and takes the target's top card out of
 *      the row. Join two top cards when either fits on the other. A top
 *      card b leaves the row only under a top card a that fits on it, so
 *      joined to it; the graph only loses cards (and their edges), so a
 *      group of top cards joined to each other (a connected component)
 *      never loses its last card, which nothing joined to it is left to
 *      cover. A position whose top cards form two groups or more keeps at
 *      least two piles for ever: it is lost, and the search goes no further
 *      from it (p_row_joined). One deck: each card is one top card.
 */

/* Whether the rules and the position s fit the row search (above). */
static int p_row_fit(const PRules *r, const PState *s)
{
    if (r->unit != U_PILE || r->fill != F_NONE || r->win != W_ONE_PILE || r->has_covers || r->redeals
        || r->complete_runs || r->copies != 1)
        return 0;
    for (int k = 0; k < K_KINDS; k++)
        if (k != K_TABLEAU && r->count[k]) return 0;
    int cards = 0;
    for (int p = 0; p < r->ntab; p++) {
        if (s->down[p]) return 0;
        cards += s->len[p];
    }
    return cards == r->total;
}

/* The cards each card is joined to (either fits on the other), as bits. */
static void p_row_joins(const PRules *r, uint64_t *join)
{
    for (int c = 0; c < 52; c++) {
        join[c] = 0;
        for (int x = 0; x < 52; x++)
            if (x != c && (r->build[c][x] || r->build[x][c])) join[c] |= 1ULL << x;
    }
}

/* Whether the top cards `tops` (bits) form one group: (2) above. */
static inline int p_row_joined(const uint64_t *join, uint64_t tops)
{
    if (!tops) return 1;
    uint64_t seen = tops & -tops, todo = seen;
    while (todo) {
        int c = __builtin_ctzll(todo);
        todo &= todo - 1;
        uint64_t more = join[c] & tops & ~seen;
        seen |= more;
        todo |= more;
    }
    return seen == tops;
}

/* ---- the move generator (the engine's legal_moves) ------------------------ */

static inline uint32_t p_code(int src, int dst, int n, int pair)
{
    return (uint32_t)src | (uint32_t)dst << 8 | (uint32_t)n << 16 | (uint32_t)pair << 24;
}

static void p_sort_u32(uint32_t *a, int n)
{
    for (int i = 1; i < n; i++) {
        uint32_t x = a[i];
        int j = i - 1;
        while (j >= 0 && a[j] > x) { a[j + 1] = a[j]; j--; }
        a[j + 1] = x;
    }
}

/* The open tableau piles (of at most 64) that card c may be built on, as a
 * set: through the cards c goes on when they are few, else pile by pile. */
static inline uint64_t p_onto_piles(const PRules *r, const PState *s, const uint64_t *tops, const int *open_top,
                                    int nopen, int c)
{
    uint64_t m = 0;
    if (r->onto_n[c] <= nopen) {
        for (int i = 0; i < r->onto_n[c]; i++) m |= tops[r->onto_list[c][i]];
        return m;
    }
    for (int i = 0; i < nopen; i++)
        if (r->build[p_top(s, open_top[i])][c]) m |= 1ULL << open_top[i];
    return m;
}

/* The moves of the position, in the engine's order (p_moves); with `only`
 * a pile, those from that pile alone, in the same order. */
static int p_moves_of(const PRules *r, const PState *s, uint32_t *out, int only)
{
    int T = r->ntab, nm = 0;
    int c0 = r->first[K_CELL], nc = r->count[K_CELL];
    int free_cells[32], nfree = 0;
    for (int i = 0; i < nc; i++)
        if (!s->len[c0 + i]) free_cells[nfree++] = c0 + i;
    int reserve_held = 0;
    for (int i = 0; i < r->count[K_RESERVE]; i++) reserve_held |= s->len[r->first[K_RESERVE] + i] > 0;
    int space_ok = r->fill != F_NONE && !(r->fill == F_RESERVE && reserve_held);
    int kings_only = r->fill == F_KINGS;
    long onto_pile = 1L << 30, onto_space = 1L << 30;
    if (r->unit == U_SUPERMOVE) {
        int empty = 0;
        if (r->fill == F_ANY)
            for (int p = 0; p < T; p++) empty += !s->len[p];
        onto_pile = (long)(nfree + 1) << empty;
        onto_space = (long)(nfree + 1) << (empty > 0 ? empty - 1 : 0);
    }
    /* the tableau piles that take cards: top card (face up), or spaces; with
     * at most 64 piles, also as a set of piles a top card (tops[card]) */
    int open_top[128], nopen = 0, spaces[128], nspace = 0;
    for (int p = 0; p < T; p++) {
        if (r->has_covers && p_covered(r, s, p)) continue;
        if (s->len[p]) {
            if (s->down[p] != s->len[p]) open_top[nopen++] = p;
        } else if (space_ok) {
            spaces[nspace++] = p;
        }
    }
    int masks = T <= 64;
    uint64_t tops[52];
    if (masks) {
        memset(tops, 0, sizeof tops);
        for (int i = 0; i < nopen; i++) tops[p_top(s, open_top[i])] |= 1ULL << open_top[i];
    }
    /* the cards the foundations take */
    uint8_t home[52];
    p_home_cards(r, s, home);
    uint8_t hole_takes[52];
    int hole = r->count[K_HOLE] ? r->first[K_HOLE] : -1;
    memset(hole_takes, 0, sizeof hole_takes);
    if (hole >= 0 && !r->hole_pairs) {
        if (s->len[hole]) memcpy(hole_takes, r->hole[p_top(s, hole)], 52);
        else memset(hole_takes, 1, sizeof hole_takes);
    }
    /* reach: for each pile that holds cards, its place among those */
    int held_at[128], held[128], nheld = 0;
    if (r->nreach) {
        for (int p = 0; p < T; p++) {
            held_at[p] = -1;
            if (s->len[p]) { held_at[p] = nheld; held[nheld++] = p; }
        }
    }
    uint32_t home_moves[P_MAXPILES * 2];
    int home_keys[P_MAXPILES * 2], nhome = 0;
    int order[P_MAXPILES], norder = 0;
    if (r->by_count) {
        for (int i = 0; i < r->nplain; i++) order[norder++] = r->plain[i];
        if (r->may_return) { /* the foundations that hold cards, by their top card's suit */
            int f0 = r->first[K_FOUNDATION];
            int fs[32], nf = 0;
            for (int i = 0; i < r->count[K_FOUNDATION]; i++)
                if (s->len[f0 + i]) fs[nf++] = f0 + i;
            for (int i = 1; i < nf; i++) {
                int x = fs[i], j = i - 1;
                while (j >= 0 && (p_suit(p_top(s, fs[j])) > p_suit(p_top(s, x))
                                  || (p_suit(p_top(s, fs[j])) == p_suit(p_top(s, x)) && fs[j] > x))) {
                    fs[j + 1] = fs[j];
                    j--;
                }
                fs[j + 1] = x;
            }
            for (int i = 0; i < nf; i++) order[norder++] = fs[i];
        }
    } else {
        for (int i = 0; i < r->nsources; i++) order[norder++] = r->sources[i];
    }
    static _Thread_local uint32_t keyed[P_MAXMOVES];
    for (int oi = 0; oi < norder; oi++) {
        int src = order[oi];
        if (only >= 0 && src != only) continue;
        int size = s->len[src], up = size - s->down[src];
        if (up <= 0) continue;
        int kind = r->kind_of[src];
        if (r->has_covers && kind == K_TABLEAU && p_covered(r, s, src)) continue;
        int top = p_top(s, src);
        if (kind != K_FOUNDATION) {
            if (home[top]) {
                if (r->by_count) { home_keys[nhome] = r->home_rank[src]; home_moves[nhome++] = p_code(src, P_ANYF, 1, P_NONE); }
                else out[nm++] = p_code(src, P_ANYF, 1, P_NONE);
            }
            if (hole_takes[top]) {
                if (r->by_count) { home_keys[nhome] = r->home_rank[src]; home_moves[nhome++] = p_code(src, hole, 1, P_NONE); }
                else out[nm++] = p_code(src, hole, 1, P_NONE);
            }
        }
        /* the reach of a tableau source: the piles it may go onto */
        int allowed[P_MAXREACH], nallowed = 0;
        if (r->nreach && kind == K_TABLEAU) {
            int i = held_at[src];
            for (int k = 0; k < r->nreach; k++)
                if (i - r->reach[k] >= 0) allowed[nallowed++] = held[i - r->reach[k]];
        }
#define P_REACHES(t) (!r->nreach || kind != K_TABLEAU || p_in(allowed, nallowed, (t)))
        if (kind != K_TABLEAU || r->unit == U_ONE) {
            int cand[256], ncand = 0;
            if (masks) {
                uint64_t m = p_onto_piles(r, s, tops, open_top, nopen, top);
                for (; m; m &= m - 1) cand[ncand++] = __builtin_ctzll(m);
            } else {
                for (int i = 0; i < nopen; i++)
                    if (r->build[p_top(s, open_top[i])][top]) cand[ncand++] = open_top[i];
            }
            if (nspace && !(kings_only && p_rank(top) != 13) && (r->pile_to_space || kind != K_TABLEAU || size > 1)) {
                for (int i = 0; i < nspace; i++) cand[ncand++] = spaces[i];
                for (int i = 1; i < ncand; i++) {
                    int x = cand[i], j = i - 1;
                    while (j >= 0 && cand[j] > x) { cand[j + 1] = cand[j]; j--; }
                    cand[j + 1] = x;
                }
            }
            for (int i = 0; i < ncand; i++) {
                int t = cand[i];
                if (t != src && P_REACHES(t)) out[nm++] = p_code(src, t, 1, P_NONE);
            }
        } else {
            int counts[P_CAP + 1], ncount = 0;
            if (r->unit == U_RUN || r->unit == U_SUPERMOVE) {
                int len = p_run_length(r, s, src);
                for (int k = 1; k <= len; k++) counts[ncount++] = k;
            } else if (r->unit == U_PILE) {
                if (up == size) counts[ncount++] = size;
            } else if (r->unit == U_FACE_UP) {
                for (int k = 1; k <= up; k++) counts[ncount++] = k;
            } else { /* whole pile */
                int run = p_run_length(r, s, src);
                counts[ncount++] = 1;
                if (run == size && run > 1) counts[ncount++] = run;
            }
            int nk = 0;
            const uint8_t *c = s->cards[src];
            for (int ci = 0; ci < ncount; ci++) {
                int k = counts[ci];
                if (k > onto_pile) continue;
                int head = c[size - (r->unit == U_PILE ? 1 : k)];  /* a whole pile goes by its top card */
                if (masks) {
                    for (uint64_t m = p_onto_piles(r, s, tops, open_top, nopen, head); m; m &= m - 1) {
                        int t = __builtin_ctzll(m);
                        if (P_REACHES(t)) keyed[nk++] = r->by_count ? (uint32_t)(k << 8 | t) : (uint32_t)(t << 8 | k);
                    }
                    continue;
                }
                for (int i = 0; i < nopen; i++) {
                    int t = open_top[i];
                    if (r->build[p_top(s, t)][head] && P_REACHES(t))
                        keyed[nk++] = r->by_count ? (uint32_t)(k << 8 | t) : (uint32_t)(t << 8 | k);
                }
            }
            if (nspace) {
                for (int ci = 0; ci < ncount; ci++) {
                    int k = counts[ci];
                    if (k <= onto_space && (!kings_only || p_rank(c[size - (r->unit == U_PILE ? 1 : k)]) == 13)
                        && (r->pile_to_space || k != size))
                        for (int i = 0; i < nspace; i++)
                            if (P_REACHES(spaces[i]))
                                keyed[nk++] = r->by_count ? (uint32_t)(k << 8 | spaces[i]) : (uint32_t)(spaces[i] << 8 | k);
                }
            }
            if (nk > 1) p_sort_u32(keyed, nk);
            for (int i = 0; i < nk; i++) {
                int t = r->by_count ? (int)(keyed[i] & 0xFF) : (int)(keyed[i] >> 8);
                int k = r->by_count ? (int)(keyed[i] >> 8) : (int)(keyed[i] & 0xFF);
                if (t != src) out[nm++] = p_code(src, t, k, P_NONE);
            }
        }
#undef P_REACHES
        if (nfree && kind != K_CELL && kind != K_FOUNDATION)
            for (int i = 0; i < nfree; i++) out[nm++] = p_code(src, free_cells[i], 1, P_NONE);
    }
    if (nhome) {
        /* a stable sort by the source's rank, put in front */
        for (int i = 1; i < nhome; i++) {
            uint32_t x = home_moves[i];
            int kx = home_keys[i], j = i - 1;
            while (j >= 0 && home_keys[j] > kx) { home_moves[j + 1] = home_moves[j]; home_keys[j + 1] = home_keys[j]; j--; }
            home_moves[j + 1] = x;
            home_keys[j + 1] = kx;
        }
        memmove(out + nhome, out, (size_t)nm * sizeof *out);
        memcpy(out, home_moves, (size_t)nhome * sizeof *out);
        nm += nhome;
    }
    if (r->hole_pairs) {
        int fsrc[P_MAXPILES], frank[P_MAXPILES], nf = 0;
        for (int i = 0; i < r->nsources; i++) {
            int p = r->sources[i];
            int kind = r->kind_of[p];
            if (s->len[p] && s->down[p] < s->len[p] && kind != K_FOUNDATION
                && !(kind == K_TABLEAU && p_covered(r, s, p))) {
                fsrc[nf] = p;
                frank[nf++] = p_rank(p_top(s, p));
            }
        }
        for (int i = 0; i < nf; i++) {
            if (only >= 0 && fsrc[i] != only) continue;
            if (frank[i] == r->hole_pairs) out[nm++] = p_code(fsrc[i], hole, 1, P_NONE);
            for (int j = i + 1; j < nf; j++)
                if (frank[i] + frank[j] == r->hole_pairs) out[nm++] = p_code(fsrc[i], hole, 1, fsrc[j]);
        }
    }
    int deal_from = r->count[K_STOCK] ? r->first[K_STOCK] : 0;
    if ((only < 0 || only == deal_from) && p_may_deal(r, s)) out[nm++] = p_code(deal_from, P_NONE, 1, P_NONE);
    if ((only < 0 || only == r->first[K_WASTE]) && p_may_recycle(r, s))
        out[nm++] = p_code(r->first[K_WASTE], r->first[K_STOCK], 1, P_NONE);
    return nm;
}

/* The moves of the position, in the order the engine lists them
 * (PatienceGame.legal_moves). */
static int p_moves(const PRules *r, const PState *s, uint32_t *out)
{
    return p_moves_of(r, s, out, -1);
}

/* ---- the canonical key ------------------------------------------------------ */

/* Where the key keeps a foundation as its length and top card. */
static inline int p_short_pile(const PRules *r, int p)
{
    return r->kind_of[p] == K_FOUNDATION && r->short_found;
}

/* The order of piles within a sorted group: by the bytes the key writes. */
static inline int p_pile_cmp(const PRules *r, const PState *s, int a, int b)
{
    if (s->len[a] != s->len[b]) return s->len[a] - s->len[b];
    if (p_short_pile(r, a)) return s->len[a] ? p_top(s, a) - p_top(s, b) : 0;
    if (r->any_down && s->down[a] != s->down[b]) return s->down[a] - s->down[b];
    return memcmp(s->cards[a], s->cards[b], s->len[a]);
}

/* Whether the key sorts the piles of a kind (see the symmetry notes). */
static inline int p_sorted_group(const PRules *r, int kind)
{
    if (kind == K_TABLEAU) return r->sym_tab && !r->packed;
    if (kind == K_RESERVE) return r->sym_res;
    return kind == K_FOUNDATION || kind == K_CELL;
}

/* The face-down cards of a pile that the key leaves out: a tableau pile
 * that keeps its place (the group is not sorted) holds under its face-up
 * cards the bottom cards it held when the search began, all face down still
 * (cards only ever go on top, and a face-down card leaves only once turned;
 * a redeal turns every card up). */
static inline int p_hidden(const PRules *r, int kind, int down)
{
    return kind == K_TABLEAU && !p_sorted_group(r, K_TABLEAU) ? down : 0;
}

/* One group of piles into o, in place order or sorted (an insertion sort of
 * pile numbers: the groups are small); the key's length. The piles of a
 * sorted group, in the key's order, go to places (when not NULL). */
static int p_group_key(const PRules *r, const PState *s, int kind, uint8_t *o, uint8_t *places)
{
    int count = r->count[kind], f = r->first[kind], sorted = p_sorted_group(r, kind);
    if (!count) return 0;
    /* Foundations kept short, and free cells of one card each, a byte or two
     * a pile: the same bytes and places as below, from one small word a
     * pile (its length, then its top card; the pile's number last, so that
     * equal piles keep their order, as the insertion sort below keeps it) */
    int shorts = kind == K_FOUNDATION && r->short_found;
    if (sorted && count <= 32 && (shorts || (kind == K_CELL && !r->any_down))) {
        uint32_t v[32];
        int i = 0;
        for (; i < count; i++) {
            int p = f + i, n = s->len[p];
            if (n > 1 && !shorts) break;
            uint32_t w = (uint32_t)n << 16 | (uint32_t)(n ? p_top(s, p) : 0) << 8 | (uint32_t)i;
            int j = i - 1;
            while (j >= 0 && v[j] > w) { v[j + 1] = v[j]; j--; }
            v[j + 1] = w;
        }
        if (i == count) {
            int k = 0;
            for (i = 0; i < count; i++) {
                int n = (int)(v[i] >> 16);
                if (places) places[i] = (uint8_t)(f + (int)(v[i] & 0xFF));
                o[k++] = (uint8_t)n;
                if (shorts || n) o[k++] = (uint8_t)(v[i] >> 8);
            }
            return k;
        }
    }
    int order[P_MAXPILES];
    if (sorted) {
        /* each pile's first bytes as one word: the piles mostly differ there */
        uint64_t word[P_MAXPILES];
        for (int i = 0; i < count; i++) {
            int p = f + i, n = s->len[p];
            uint64_t w = (uint64_t)n << 56;
            if (p_short_pile(r, p)) {
                if (n) w |= (uint64_t)p_top(s, p) << 48;
            } else {
                /* the first cards, the first one highest: 7 bytes, or 6 after
                 * the face-down count (read as one big-endian word) */
                int room = 7;
                if (r->any_down) { w |= (uint64_t)s->down[p] << 48; room = 6; }
                int take = n < room ? n : room;
                if (take) {
                    uint64_t front;
                    memcpy(&front, s->cards[p], 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
                    front = __builtin_bswap64(front);
#endif
                    w |= (front >> (64 - 8 * take)) << (8 * (room - take));
                }
            }
            int j = i - 1;
            while (j >= 0 && (word[j] > w || (word[j] == w && p_pile_cmp(r, s, order[j], p) > 0))) {
                order[j + 1] = order[j];
                word[j + 1] = word[j];
                j--;
            }
            order[j + 1] = p;
            word[j + 1] = w;
        }
    } else {
        for (int i = 0; i < count; i++) order[i] = f + i;
    }
    int k = 0;
    for (int i = 0; i < count; i++) {
        int p = order[i], n = s->len[p];
        if (sorted && places) places[i] = (uint8_t)p;
        o[k++] = (uint8_t)n;
        if (p_short_pile(r, p)) {
            o[k++] = n ? (uint8_t)p_top(s, p) : 0;
            continue;
        }
        if (r->any_down) o[k++] = s->down[p];
        int hide = p_hidden(r, kind, s->down[p]);
        /* 8 bytes at a time: o has room past any key (P_KEYMAX), and the
         * piles' arrays lie in one block */
        for (int m = hide; m < n; m += 8) memcpy(o + k + m - hide, s->cards[p] + m, 8);
        k += n - hide;
    }
    return k;
}

/* The canonical key of the position into o (at most P_KEYMAX bytes); its
 * length. Fixed piles (r->packed) go first, as a bit stream of their lengths
 * (and face-down counts), r->len_bits each, with the hole's top card. Where
 * each pile of the sorted groups went, when places is not NULL: the pile
 * numbers in the key's order, group after group (P_MAXPILES at most). */
static int p_key_places(const PRules *r, const PState *s, uint8_t *o, uint8_t *places)
{
    int k = 0;
    int stock = r->count[K_STOCK] ? r->first[K_STOCK] : -1;
    if (r->packed) {
        uint32_t acc = 0;
        int nb = 0;
        for (int p = 0; p < r->ntab; p++) {
            acc |= (uint32_t)s->len[p] << nb;
            nb += r->len_bits[p];
            if (r->any_down) { acc |= (uint32_t)s->down[p] << nb; nb += r->len_bits[p]; }
            while (nb >= 8) { o[k++] = (uint8_t)acc; acc >>= 8; nb -= 8; }
        }
        if (stock >= 0 && r->fixed_stock) { acc |= (uint32_t)s->len[stock] << nb; nb += r->len_bits[stock]; }
        if (r->count[K_HOLE]) { /* its top card, 52 when empty, in 6 bits */
            int p = r->first[K_HOLE];
            while (nb >= 8) { o[k++] = (uint8_t)acc; acc >>= 8; nb -= 8; }
            acc |= (uint32_t)(s->len[p] ? p_top(s, p) : 52) << nb;
            nb += 6;
        }
        while (nb > 0) { o[k++] = (uint8_t)acc; acc >>= 8; nb -= 8; }
    }
    int kinds[4] = {K_TABLEAU, K_FOUNDATION, K_CELL, K_RESERVE};
    for (int j = 0; j < 4; j++) {
        if (kinds[j] == K_TABLEAU && r->packed) continue;
        k += p_group_key(r, s, kinds[j], o + k, places);
        if (places && p_sorted_group(r, kinds[j])) places += r->count[kinds[j]];
    }
    if (stock >= 0) {
        if (!r->packed || !r->fixed_stock) o[k++] = s->len[stock];
        if (!r->fixed_stock) { memcpy(o + k, s->cards[stock], s->len[stock]); k += s->len[stock]; }
    }
    if (r->count[K_WASTE]) { int p = r->first[K_WASTE]; o[k++] = s->len[p]; memcpy(o + k, s->cards[p], s->len[p]); k += s->len[p]; }
    if (r->count[K_HOLE] && !r->packed) { int p = r->first[K_HOLE]; o[k++] = s->len[p] ? (uint8_t)p_top(s, p) : 255; }
    if (r->keep_pass) { o[k++] = (uint8_t)(s->pass_number & 0xFF); o[k++] = (uint8_t)(s->pass_number >> 8); }
    if (r->redeals) o[k++] = (uint8_t)s->redeals_used;
    return k;
}

static int p_key(const PRules *r, const PState *s, uint8_t *o)
{
    return p_key_places(r, s, o, NULL);
}

/* The places of the sorted groups (p_key_places) as a few bytes: each
 * group's order as its Lehmer code, the digits in mixed radix, in chunks of
 * at most 2**56 written 7 bits a byte; their length. */
static int p_places_put(const PRules *r, const uint8_t *places, uint8_t *o)
{
    int k = 0, kinds[4] = {K_TABLEAU, K_FOUNDATION, K_CELL, K_RESERVE};
    uint64_t v = 0, room = 1;
    for (int j = 0; j < 4; j++) {
        if (!p_sorted_group(r, kinds[j])) continue;
        int count = r->count[kinds[j]], f = r->first[kinds[j]];
        uint8_t used[P_MAXPILES] = {0};
        for (int i = 0; i < count; i++) {
            int q = places[i] - f, digit = 0;
            for (int m = 0; m < q; m++) digit += !used[m];
            used[q] = 1;
            uint64_t radix = (uint64_t)(count - i);
            if (radix < 2) continue;
            if (room > (1ULL << 56) / radix) {
                while (v >= 0x80) { o[k++] = (uint8_t)(v | 0x80); v >>= 7; }
                o[k++] = (uint8_t)v;
                v = 0;
                room = 1;
            }
            v = v * radix + (uint64_t)digit;
            room *= radix;
        }
        places += count;
    }
    if (room > 1) {
        while (v >= 0x80) { o[k++] = (uint8_t)(v | 0x80); v >>= 7; }
        o[k++] = (uint8_t)v;
    }
    return k;
}

/* Read what p_places_put wrote back into places. */
static void p_places_get(const PRules *r, const uint8_t *in, uint8_t *places)
{
    int kinds[4] = {K_TABLEAU, K_FOUNDATION, K_CELL, K_RESERVE};
    /* the digits' radices, in order, and where each chunk ends */
    uint8_t radix[P_MAXPILES], digit[P_MAXPILES];
    int nd = 0;
    for (int j = 0; j < 4; j++)
        if (p_sorted_group(r, kinds[j]))
            for (int i = 0; i < r->count[kinds[j]]; i++) radix[nd++] = (uint8_t)(r->count[kinds[j]] - i);
    int start = 0;
    while (start < nd) {
        uint64_t room = 1;
        int end = start;
        for (; end < nd; end++) {
            if (radix[end] < 2) { digit[end] = 0; continue; }
            if (room > (1ULL << 56) / radix[end]) break;
            room *= radix[end];
        }
        if (room > 1) {
            uint64_t v = 0;
            for (int shift = 0;; shift += 7) {
                v |= (uint64_t)(*in & 0x7F) << shift;
                if (!(*in++ & 0x80)) break;
            }
            for (int d = end - 1; d >= start; d--) {
                if (radix[d] < 2) continue;
                digit[d] = (uint8_t)(v % radix[d]);
                v /= radix[d];
            }
        }
        start = end;
    }
    nd = 0;
    for (int j = 0; j < 4; j++) {
        if (!p_sorted_group(r, kinds[j])) continue;
        int count = r->count[kinds[j]], f = r->first[kinds[j]];
        uint8_t used[P_MAXPILES] = {0};
        for (int i = 0; i < count; i++) {
            int d = digit[nd++], q = 0;
            while (used[q] || d > 0) { d -= !used[q]; q++; }
            used[q] = 1;
            places[i] = (uint8_t)(f + q);
        }
        places += count;
    }
}

/* Under the top card of a hole rebuilt by p_decode, the cards no other
 * pile holds (root: a position of the same search). */
static void p_fill_hole(const PRules *r, const PState *root, PState *s)
{
    if (!r->count[K_HOLE]) return;
    int hole = r->first[K_HOLE], h = s->len[hole];
    if (h < 2) return;
    int left[52] = {0}, top = p_top(s, hole), k = 0;
    for (int p = 0; p < r->npiles; p++)
        for (int m = 0; m < root->len[p]; m++) left[root->cards[p][m]]++;
    for (int p = 0; p < r->npiles; p++)
        if (p != hole)
            for (int m = 0; m < s->len[p]; m++) left[s->cards[p][m]]--;
    left[top]--;
    for (int c = 0; c < 52 && k < h - 1; c++)
        for (int m = 0; m < left[c] && k < h - 1; m++) s->cards[hole][k++] = (uint8_t)c;
}

/* ---- the position a key names ------------------------------------------------ */

/* Rebuild into s a position whose key is key[0..n), given root, a position
 * the same search started from: every pile the key keeps whole comes back as
 * it is written, a sorted group's piles to their places (as p_key_places
 * gave them; when places is NULL, in the key's order: the position is then
 * the key's canonical one, the same up to the symmetry the key leaves out); a
 * fixed pile (lengths only) comes back as the bottom cards root's pile held;
 * a foundation kept as length and top card is rebuilt down from its top, one
 * rank a card in its suit; the hole gets its length (the cards no other pile
 * holds) and top card, and the cards under it are left as they were (nothing
 * reads them; p_fill_hole puts the right ones there). The pass
 * number and redeals come from root when the key leaves them out (then
 * nothing reads them), the redeals' shuffle seed always. The undo log is left alone. 0, or -1 when the key
 * does not fit the rules (a bug). */
static int p_decode(const PRules *r, const PState *root, const uint8_t *key, int n, const uint8_t *places,
                    PState *s)
{
    int k = 0, T = r->ntab, hole_top = 255;
    int stock = r->count[K_STOCK] ? r->first[K_STOCK] : -1;
    for (int p = 0; p < r->npiles; p++) { s->len[p] = 0; s->down[p] = 0; }
    if (r->packed) {
        uint32_t acc = 0;
        int nb = 0;
#define P_TAKE(bits, out) do { \
        while (nb < (bits)) { if (k >= n) return -1; acc |= (uint32_t)key[k++] << nb; nb += 8; } \
        (out) = (uint8_t)(acc & ((1u << (bits)) - 1)); acc >>= (bits); nb -= (bits); } while (0)
        for (int p = 0; p < T; p++) {
            P_TAKE(r->len_bits[p], s->len[p]);
            if (r->any_down) P_TAKE(r->len_bits[p], s->down[p]);
            if (s->len[p] > root->len[p] || s->down[p] > s->len[p]) return -1;
            memcpy(s->cards[p], root->cards[p], s->len[p]);
        }
        if (stock >= 0 && r->fixed_stock) P_TAKE(r->len_bits[stock], s->len[stock]);
        if (r->count[K_HOLE]) {
            uint8_t top;
            P_TAKE(6, top);
            hole_top = top == 52 ? 255 : top;
        }
#undef P_TAKE
    }
    int kinds[4] = {K_TABLEAU, K_FOUNDATION, K_CELL, K_RESERVE};
    for (int j = 0; j < 4; j++) {
        if (kinds[j] == K_TABLEAU && r->packed) continue;
        int sorted = places && p_sorted_group(r, kinds[j]);
        for (int i = 0; i < r->count[kinds[j]]; i++) {
            int p = sorted ? places[i] : r->first[kinds[j]] + i;
            if (k >= n) return -1;
            int len = key[k++];
            if (len > P_CAP) return -1;
            s->len[p] = (uint8_t)len;
            if (p_short_pile(r, p)) {
                if (k >= n) return -1;
                int c = key[k++];
                if (!len) continue;
                if (r->complete_runs) { /* King down to Ace */
                    if (len != 13) return -1;
                    for (int m = 0; m < 13; m++) s->cards[p][m] = (uint8_t)(p_suit(c) * 13 + 12 - m);
                    continue;
                }
                int step = r->found_dir == D_UP ? -1 : 1; /* a card's rank, down from the top */
                for (int m = len - 1; m >= 0; m--) {
                    s->cards[p][m] = (uint8_t)c;
                    int rank = p_rank(c) + step;
                    rank = rank < 1 ? 13 : rank > 13 ? 1 : rank;
                    c = p_suit(c) * 13 + rank - 1;
                }
                continue;
            }
            if (r->any_down) {
                if (k >= n) return -1;
                s->down[p] = key[k++];
            }
            int hide = p_hidden(r, kinds[j], s->down[p]);
            if (k + len - hide > n || s->down[p] > len || hide > root->down[p]) return -1;
            memcpy(s->cards[p], root->cards[p], (size_t)hide);
            memcpy(s->cards[p] + hide, key + k, (size_t)(len - hide));
            k += len - hide;
        }
        if (sorted) places += r->count[kinds[j]];
    }
    if (stock >= 0) {
        if (!r->packed || !r->fixed_stock) {
            if (k >= n) return -1;
            s->len[stock] = key[k++];
        }
        if (r->fixed_stock) {
            if (s->len[stock] > root->len[stock]) return -1;
            memcpy(s->cards[stock], root->cards[stock], s->len[stock]);
        } else {
            if (k + s->len[stock] > n) return -1;
            memcpy(s->cards[stock], key + k, s->len[stock]);
            k += s->len[stock];
        }
        s->down[stock] = s->len[stock];
    }
    if (r->count[K_WASTE]) {
        int p = r->first[K_WASTE];
        if (k >= n || k + 1 + key[k] > n) return -1;
        s->len[p] = key[k++];
        memcpy(s->cards[p], key + k, s->len[p]);
        k += s->len[p];
    }
    s->pass_number = root->pass_number;
    s->redeals_used = root->redeals_used;
    s->shuffle_seed = root->shuffle_seed;
    if (r->count[K_HOLE]) {
        if (!r->packed) {
            if (k >= n) return -1;
            hole_top = key[k++];
        }
        /* its length: the cards no other pile holds (every position of a
         * search holds the same cards); its top card: the key's */
        int hole = r->first[K_HOLE], h = 0;
        for (int p = 0; p < r->npiles; p++) h += root->len[p] - (p == hole ? 0 : s->len[p]);
        if (h < 0 || h > P_CAP || (h > 0) != (hole_top != 255)) return -1;
        s->len[hole] = (uint8_t)h;
        if (h) s->cards[hole][h - 1] = (uint8_t)hole_top;
    }
    if (r->keep_pass) {
        if (k + 2 > n) return -1;
        s->pass_number = key[k] | key[k + 1] << 8;
        k += 2;
    }
    if (r->redeals) {
        if (k >= n) return -1;
        s->redeals_used = key[k++];
    }
    return k == n ? 0 : -1;
}

#endif
