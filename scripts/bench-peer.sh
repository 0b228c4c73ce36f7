#!/usr/bin/env bash
# Times one percentile attack in Broadside and in the numba peer, in one run,
# and prints the two rates and their ratio.
#
# The case is the peer's: a torpedo against a destroyer launching 2 ICMs at
# range 3. Broadside's figure is the median of the `resolve` benchmark
# `resolve_attack::torpedo_vs_destroyer_2_icms_range_3` (board reset
# included, events discarded); the peer's is its own timing of ten million
# attacks on one thread, after a warm-up that compiles it.
#
#   scripts/bench-peer.sh            both, then the ratio
#
# Environment: PEERS (the folder holding percentile_attack.py, default
# ../shared/peers beside the checkout), PEER_VENV (a Python virtual
# environment with numpy and numba, made there with pip when missing;
# default target/peer-venv), PEER_ATTACKS (default 10000000).
set -euo pipefail
cd "$(dirname "$0")/.."

PEERS=${PEERS:-../shared/peers}
PEER_VENV=${PEER_VENV:-target/peer-venv}
PEER_ATTACKS=${PEER_ATTACKS:-10000000}
peer="$PEERS/percentile_attack.py"
[ -f "$peer" ] || { echo "bench-peer: no peer at $peer (set PEERS)" >&2; exit 2; }

if [ ! -x "$PEER_VENV/bin/python" ]; then
    echo "bench-peer: making a Python environment with numpy and numba in $PEER_VENV" >&2
    python3 -m venv "$PEER_VENV"
    "$PEER_VENV/bin/pip" install --quiet numpy numba
fi

echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%Y-%m-%dT%H:%MZ), revision $(git rev-parse --short HEAD)"

# Divan prints fastest, slowest, median and mean; the median is the third
# time on the benchmark's line.
line=$(cargo bench --quiet -p broadside-percentile --bench resolve -- \
    --sample-count 500 resolve_attack::torpedo_vs_destroyer_2_icms_range_3 2>/dev/null \
    | grep 'torpedo_vs_destroyer_2_icms_range_3')
ours=$(echo "$line" | awk -F'│' '{print $3}' | awk '
    { v = $1; u = $2 }
    END {
        if (u == "ns") ns = v; else if (u == "µs") ns = v * 1000;
        else if (u == "ps") ns = v / 1000; else ns = -1
        printf "%.2f", ns
    }')
echo "broadside: ${ours} ns an attack (median of 500 samples of 1,000)"

peer_line=$("$PEER_VENV/bin/python" "$peer" numba "$PEER_ATTACKS")
echo "peer:      $peer_line"
peer_ns=$(echo "$peer_line" | sed -E 's/.* sec=([0-9.]+) .*/\1/' | awk -v n="$PEER_ATTACKS" '{printf "%.2f", $1 * 1e9 / n}')
echo "peer:      ${peer_ns} ns an attack"
awk -v ours="$ours" -v peer="$peer_ns" 'BEGIN {
    printf "ratio:     %.2f (peer time / broadside time; above 1, broadside is faster)\n", peer / ours
}'
