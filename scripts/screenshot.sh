#!/usr/bin/env bash
# Takes the README's screenshots: the release build in a 1280x720 Xvfb screen (interpolated,
# unless options say otherwise), the full panel (A), the ship flown up and to the right, captured with ImageMagick. Needs xvfb, xdotool and
# imagemagick.
set -euo pipefail
cd "$(dirname "$0")/.."
# Usage: scripts/screenshot.sh [OUT [APP OPTIONS...]]; the book's compare-mode picture is
#   scripts/screenshot.sh docs/compare.webp --compare fred-and-george
# A .webp is written 960 pixels wide at quality 65, as the book's pictures are (the site must
# stay under 3 MB gzipped); any other name gets the screen as it is.
out=${1:-docs/screenshot.webp}
shift || true
if [ "$#" -eq 0 ]; then set -- --strategy interpolated; fi
cargo build --release --quiet
runtime=$(mktemp -d); chmod 700 "$runtime"
Xvfb :77 -screen 0 1280x720x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null || true; rm -rf "$runtime"' EXIT
sleep 1
DISPLAY=:77 XDG_RUNTIME_DIR=$runtime ./target/release/looplab "$@" --vsync off --cap 60 \
  --exit-after 9 >/dev/null 2>&1 &
app=$!
DISPLAY=:77 xdotool search --sync --name Looplab >/dev/null
sleep 3
DISPLAY=:77 xdotool search --sync --name Looplab windowfocus --sync \
  key a keydown Right keydown Up sleep 0.7 keyup Up sleep 0.6 keyup Right
sleep 1.5
case "$out" in
  *.webp)
    DISPLAY=:77 import -window root "png:$out.png"
    convert "$out.png" -resize 960x -quality 65 -define webp:method=6 "$out"
    rm -f "$out.png" ;;
  *) DISPLAY=:77 import -window root "$out" ;;
esac
wait $app
echo "wrote $out"
