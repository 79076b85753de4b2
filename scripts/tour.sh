#!/usr/bin/env bash
# Makes the README's animation of the guided tour: the release build in a 1280x720 Xvfb
# screen started with --tour, walked to a few stops by the Enter key, a second or so of each
# stop captured once its claim has had time to come true, assembled into a GIF with
# ImageMagick. Needs xvfb, xdotool and imagemagick.
#
#   scripts/tour.sh                    # docs/tour.gif: stops 1, 3, 8 and 13
#   scripts/tour.sh /tmp/t.gif 2,4,5   # other stops (their numbers in the tour)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-docs/tour.gif}
stops=${2:-1,3,8,13}
cargo build --release --quiet
work=$(mktemp -d)
runtime=$(mktemp -d); chmod 700 "$runtime"
Xvfb :78 -screen 0 1280x720x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null || true; rm -rf "$work" "$runtime"' EXIT
sleep 1
export DISPLAY=:78
XDG_RUNTIME_DIR=$runtime ./target/release/looplab --tour --vsync off --cap 60 --bullets 300 \
  --exit-after 180 >/dev/null 2>&1 &
app=$!
xdotool search --sync --name Looplab >/dev/null
sleep 1
at=1
frames=()
for stop in ${stops//,/ }; do
  while [ "$at" -lt "$stop" ]; do
    xdotool search --sync --name Looplab windowfocus --sync key Return
    at=$((at + 1))
    sleep 0.3
  done
  # The stops that ask which of two unnamed lanes is smoother or sooner (7, 13, 15 and 17 in
  # the window's tour; see `feel` in src/tour/stops.rs): their question first, then B.
  case " 7 13 15 17 " in
    *" $stop "*)
      sleep 2
      for i in 1 2 3; do
        shot="$work/$(printf '%02d-asked-%d' "$stop" "$i").png"
        import -window root "$shot"
        if [ "$i" -eq 3 ]; then frames+=(-delay 300 "$shot"); else frames+=(-delay 20 "$shot"); fi
      done
      xdotool search --sync --name Looplab windowfocus --sync key b
      ;;
  esac
  # Every stop's claim comes true within about three seconds here (see the README).
  sleep 3.5
  for i in 1 2 3 4 5 6 7 8; do
    shot="$work/$(printf '%02d-%d' "$stop" "$i").png"
    import -window root "$shot"
    # Each stop's last picture stays up long enough to read its panel.
    if [ "$i" -eq 8 ]; then frames+=(-delay 400 "$shot"); else frames+=(-delay 20 "$shot"); fi
  done
done
kill $app 2>/dev/null || true
convert "${frames[@]}" -resize 75% -loop 0 -layers Optimize "$out"
echo "wrote $out ($(du -h "$out" | cut -f1))"
