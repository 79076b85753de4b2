#!/usr/bin/env bash
# Makes the README's animations: three seconds of the same scene and the same steering at
# 10 updates a second under several strategies, one above the other, rendered offscreen by
# `looplab motion` and assembled into a GIF with ImageMagick. Needs imagemagick and a
# Vulkan driver (mesa-vulkan-drivers gives lavapipe); no display.
#
#   scripts/motion.sh                          # docs/motion.gif: catch-up, interpolated
#   scripts/motion.sh docs/feel.gif interpolated,predicted,predicted-kept
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-docs/motion.gif}
strategies=${2:-catch-up,interpolated}
cargo build --release --quiet
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
./target/release/looplab motion --out "$work/raw" --strategies "$strategies" \
  --ups 10 --fps 25 --seconds 3 --width 640 --bullets 300
mkdir "$work/stack"
IFS=, read -r -a names <<< "$strategies"
# Each picture is cut to the stream and the metronome (the overlay's column, hidden here,
# and the lower demonstrations are left out), then the strategies are stacked in order.
for first in "$work/raw/${names[0]}"-*.png; do
  n=${first##*-}
  frames=()
  for s in "${names[@]}"; do
    frames+=("$work/raw/$s-$n")
  done
  convert "${frames[@]}" -crop 482x218+158+0 +repage -append "$work/stack/$n"
done
convert -delay 4 -loop 0 "$work"/stack/*.png -layers Optimize "$out"
echo "wrote $out ($(du -h "$out" | cut -f1))"
