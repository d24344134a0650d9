#!/usr/bin/env bash
# Instructions per one-player random Decathlon game, as bench/engine_throughput.py plays
# it: callgrind counts of 100 games minus those of the start-up alone. Unlike games/s
# this does not move with the load or the host's speed (needs valgrind).
#
#     bash bench/engine_instructions.sh [GAMES]
set -euo pipefail
cd "$(dirname "$0")/.."
games="${1:-100}"
script='
import sys
sys.path.insert(0, "bench")
from engine_throughput import play
from gamenight.core import registry
game = registry.get("decathlon").game
play(game, 1, -1)  # warm imports and caches
for seed in range(int(sys.argv[1])):
    play(game, 1, seed)
'
count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null .venv/bin/python -c "$script" "$1" 2>&1 \
        | grep -o "refs: *[0-9,]*" | tr -dc 0-9
}
start=$(count 0)
total=$(count "$games")
echo "instructions per one-player random Decathlon game: $(( (total - start) / games ))"
