#!/usr/bin/env bash
# Build Solvitaire (thecharlieblake/Solvitaire) twice, for the patience solver's
# comparison (benchmarks/patience_solver.py --solvitaire) and its agreement test:
#
#   DEST/bin/solvitaire        as shipped
#   DEST/bin/solvitaire-fixed  with three fixes:
#     - its rules parser reads the key its presets use, "only complete pile
#       moves" (as shipped it reads "complete piles", so its Spider games let
#       single cards go to the foundations);
#     - its Spider games (Spider, Spiderette, Will o' the Wisp, Simple Simon:
#       built in any suit, runs of one suit move together) play Spider's
#       rules, in three places of its move generator. As shipped, a run of
#       two or more cards goes only onto a card of its own suit (the group's
#       policy, "same-suit", is read for the card it goes onto too, where a
#       single card goes onto any suit); a complete run goes home only when
#       it is the whole pile (is_ordered_pile asks for 13 cards); and a pile
#       of one card never moves to a space, which changes nothing where the
#       piles are interchangeable but is a move of its own where the stock
#       deals a card to each pile by its place. Fixed, a run goes where its
#       lowest card may go, a complete run goes home from the top of any pile
#       (turning up the card under it), and the one-card pile's move is kept
#       where the stock deals onto the tableau. From a position of
#       Spiderette's deal 21 (one stock deal made, two left) the fixed build
#       reaches 1,269,332 positions, as cardtable's move generator does, where
#       the build with the parser's fix alone reaches 10,736
#       (tests/solver/test_patience_peers.py holds the count on smaller
#       positions);
#     - its deal parser reads the filled cells of a deal, "cells": one card or
#       "" a cell, as many as the preset has (Eight Off, Seahaven Towers). As
#       shipped, deal_parser.cpp has a parse_cells that places them, but it
#       reads an empty cell's "" as a card (the release build aborts: stoi's
#       std::invalid_argument), and the deal schema it then validates the
#       deal against has no "cells" key, so a deal with every cell filled is
#       refused too ("additionalProperties: #/cells"). The fix adds the key to
#       the schema (a list of cards and ""s, the schema's own
#       "cardarraywithempty") and places only the filled cells; place_card
#       keeps the cells in the solver's order, so which of them are filled
#       does not matter.
#
#   benchmarks/build_solvitaire.sh [SOURCE [DEST]]
#
# SOURCE is a clone URL or a local repository (default the GitHub repository),
# DEST the folder it is built in (default /root/peers/solvitaire). It checks out
# commit 2815238fdb51 (26 October 2020, version 0.10.1), drops the googletest
# download and the unit tests from CMakeLists.txt (the configure step would fetch
# googletest from GitHub) and -Werror (g++ 12 warns where its authors' compiler
# did not), and builds the release target. Needs git, cmake, g++ and Boost's
# program_options and system libraries (Debian: cmake g++
# libboost-program-options-dev libboost-system-dev). Both binaries are built
# in one tree: the fixed one recompiles four files.
set -euo pipefail
SOURCE=${1:-https://github.com/thecharlieblake/Solvitaire}
DEST=${2:-/root/peers/solvitaire}
COMMIT=2815238fdb513239ce906a386cbac25619ecfaf7
PARSER=src/main/input-output/input/json-parsing/rules_parser.cpp
DEALS=src/main/input-output/input/json-parsing/deal_parser.cpp

if [ ! -d "$DEST/src/.git" ]; then
    mkdir -p "$DEST"
    git clone -q "$SOURCE" "$DEST/src"
fi
cd "$DEST/src"
git checkout -q -f "$COMMIT"
python3 - <<'EOF'
text = open("CMakeLists.txt").read()
banner = "#" * 79 + "\n## "
a, b = text.index("# Download and unpack googletest"), text.index(banner + "compile options")
text = text[:a] + text[b:]
a, b = text.index("add_executable(unit_tests"), text.index(banner + "packaging")
text = text[:a] + text[b:]
open("CMakeLists.txt", "w").write(text.replace(" -Werror", ""))
EOF

build() {  # the release target, copied to DEST/bin/$1; the compiler's warnings go to DEST/build-$1.log
    if ! { cmake -S . -B build -DCMAKE_BUILD_TYPE=RELEASE &&
           cmake --build build -j"$(nproc)" --target solvitaire; } >"$DEST/build-$1.log" 2>&1; then
        tail -n 40 "$DEST/build-$1.log" >&2
        echo "build_solvitaire.sh: the build of $1 failed (all of it in $DEST/build-$1.log)" >&2
        exit 1
    fi
    mkdir -p "$DEST/bin"
    cp build/bin/solvitaire "$DEST/bin/$1"
}
build solvitaire
sed -i 's/"complete piles"/"only complete pile moves"/g' "$PARSER"
grep -q '"only complete pile moves"' "$PARSER"
DEALS="$DEALS" python3 - <<'PATCH'
import os
search = "src/main/game/search-state/"
edits = {  # path: ((as shipped, fixed), ...), each found exactly once
    os.environ["DEALS"]: (  # the deal's filled cells
        ('    "hole": {"$ref": "#/definitions/card"},\n',
         '    "hole": {"$ref": "#/definitions/card"},\n'
         '    "cells": {"$ref": "#/definitions/cardarraywithempty"},\n'),
        ("            gs.place_card(*p.second, card(json_card->GetString()));\n",
         "            if (json_card->GetStringLength() > 0) gs.place_card(*p.second, card(json_card->GetString()));\n"),
    ),
    search + "game_state.legal_moves.cpp": (  # Spider's rules
        ("        if (is_next_built_group_card(piles[add_ref].top_card(),  piles[rem_ref][r])) {\n",
         "        if (is_next_tableau_card(piles[add_ref].top_card(),  piles[rem_ref][r])) {\n"),
        ("                    && !(piles[t_from].size() == 1 && piles[to].empty())) {\n",
         "                    && !(piles[t_from].size() == 1 && piles[to].empty()\n"
         "                         && !(rules.stock_size > 0 && rules.stock_deal_t == sdt::TABLEAU_PILES))) {\n"),
        ("                    moves.emplace_back(move::mtype::built_group, tab_pr, found_pr, rules.max_rank);\n",
         "                    moves.emplace_back(move::mtype::built_group, tab_pr, found_pr, rules.max_rank,\n"
         "                                       piles[tab_pr].size() > rules.max_rank\n"
         "                                       && piles[tab_pr][rules.max_rank].is_face_down());\n"),
    ),
    search + "game_state.dominance_moves.cpp": (
        ("    if (piles[pr].size() != rules.max_rank) return false;\n",
         "    if (piles[pr].size() < rules.max_rank) return false;\n"),
    ),
}
for path, pairs in edits.items():
    text = open(path).read()
    for old, new in pairs:
        if text.count(old) != 1:
            raise SystemExit(f"build_solvitaire.sh: {path} does not hold once: {old.strip()}")
        text = text.replace(old, new)
    open(path, "w").write(text)
PATCH
build solvitaire-fixed
git checkout -q -- "$PARSER" "$DEALS" CMakeLists.txt src/main/game/search-state
"$DEST/bin/solvitaire" --version
echo "built $DEST/bin/solvitaire and $DEST/bin/solvitaire-fixed"
