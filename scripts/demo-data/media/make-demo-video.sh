#!/usr/bin/env bash
# Draws the demo clip of the generic kinds' demo studies: a red ball rolls right along a table top,
# leaves the table's edge at t=2.5 s and falls to the floor (a "what happens next" stimulus; cut it with
# cutAt=2.4). 320x240, 24 fps, 4 s, no audio. Everything is drawn with ffmpeg's lavfi filters, so
# the output is reproducible from this script alone.
#
# The outputs (demo-ball.webm VP9, demo-ball.mp4 H.264) are committed: `npm run demo` never needs
# ffmpeg. Rerun this only to change the clip:  bash scripts/demo-data/media/make-demo-video.sh
set -euo pipefail
cd "$(dirname "$0")"
command -v ffmpeg >/dev/null || { echo "ffmpeg is needed to redraw the demo clip (apt-get install ffmpeg)" >&2; exit 1; }

W=320 H=240 FPS=24 DUR=4 R=14
# Table: top surface y=150..160 from x=0 to x=190, two legs; floor from y=222.
# Ball centre: rolls at 64 px/s from x=30 (on the table, centre y=150-R) and reaches the edge
# (x=190) at t=2.5 s, then keeps its horizontal speed and falls with g=400 px/s^2 until it rests on
# the floor. The white spot turns with the rolling (angle = distance / R) so the roll is visible.
# A blue bar along the bottom grows with time (a seek lands where the bar says).
XC="min(30+64*t,300)"
YC="min(if(lt(t,2.5),$((150 - R)),$((150 - R))+200*pow(t-2.5,2)),$((222 - R)))"
SPOT="lt(hypot(X-${R}-0.55*${R}*cos(64*T/${R}),Y-${R}-0.55*${R}*sin(64*T/${R})),${R}/3)"

FILTER="
color=c=0xdfe8f0:s=${W}x${H}:r=${FPS}:d=${DUR}[wall];
[wall]drawbox=x=0:y=222:w=${W}:h=18:color=0x8a6d4b:t=fill,
      drawbox=x=0:y=150:w=190:h=10:color=0x6b4f2e:t=fill,
      drawbox=x=166:y=160:w=10:h=62:color=0x6b4f2e:t=fill,
      drawbox=x=14:y=160:w=10:h=62:color=0x6b4f2e:t=fill[scene];
color=c=0xd03030:s=$((2 * R))x$((2 * R)):r=${FPS}:d=${DUR},format=rgba,
  geq=r='if(${SPOT},250,208)':g='if(${SPOT},235,48)':b='if(${SPOT},235,48)':a='if(lt(hypot(X-${R}+0.5,Y-${R}+0.5),${R}),255,0)'[ball];
color=c=0x3060c0:s=${W}x4:r=${FPS}:d=${DUR}[bar];
[scene][ball]overlay=x='${XC}-${R}':y='${YC}-${R}':eval=frame[moved];
[moved][bar]overlay=x='W*t/${DUR}-W':y=${H}-4:eval=frame,format=yuv420p[out]
"

ffmpeg -hide_banner -loglevel error -y -filter_complex "$FILTER" -map "[out]" \
  -c:v libvpx-vp9 -b:v 0 -crf 40 -row-mt 1 -deadline good -an demo-ball.webm
ffmpeg -hide_banner -loglevel error -y -filter_complex "$FILTER" -map "[out]" \
  -c:v libx264 -preset slow -crf 28 -pix_fmt yuv420p -movflags +faststart -an demo-ball.mp4
ls -l demo-ball.webm demo-ball.mp4
