#!/usr/bin/env bash
# Makes the README's animation: three seconds of the same scene and the same steering at 10
# updates a second, catch-up above and interpolated below, rendered offscreen by
# `looplab motion` and assembled into a GIF with ImageMagick. Needs imagemagick and a
# Vulkan driver (mesa-vulkan-drivers gives lavapipe); no display.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-docs/motion.gif}
cargo build --release --quiet
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
./target/release/looplab motion --out "$work/raw" --strategies catch-up,interpolated \
  --ups 10 --fps 25 --seconds 3 --width 640 --bullets 300
mkdir "$work/pair"
# Each picture is cut to the stream and the metronome (the overlay's column, hidden here,
# and the lower demonstrations are left out), then the two are stacked.
for top in "$work"/raw/catch-up-*.png; do
  n=${top##*-}
  convert "$top" "$work/raw/interpolated-$n" -crop 482x218+158+0 +repage -append \
    "$work/pair/$n"
done
convert -delay 4 -loop 0 "$work"/pair/*.png -layers Optimize "$out"
echo "wrote $out ($(du -h "$out" | cut -f1))"
