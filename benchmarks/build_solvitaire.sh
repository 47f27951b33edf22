#!/usr/bin/env bash
# Build Solvitaire (thecharlieblake/Solvitaire) twice, for the patience solver's
# comparison (benchmarks/patience_solver.py --solvitaire) and its agreement test:
#
#   DEST/bin/solvitaire        as shipped
#   DEST/bin/solvitaire-fixed  with its rules parser reading the key its presets
#                              use, "only complete pile moves" (as shipped it reads
#                              "complete piles", so its Spider games let single
#                              cards go to the foundations)
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
# in one tree: the fixed one recompiles one file.
set -euo pipefail
SOURCE=${1:-https://github.com/thecharlieblake/Solvitaire}
DEST=${2:-/root/peers/solvitaire}
COMMIT=2815238fdb513239ce906a386cbac25619ecfaf7
PARSER=src/main/input-output/input/json-parsing/rules_parser.cpp

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
build solvitaire-fixed
git checkout -q -- "$PARSER" CMakeLists.txt
"$DEST/bin/solvitaire" --version
echo "built $DEST/bin/solvitaire and $DEST/bin/solvitaire-fixed"
