#!/usr/bin/env bash
# Makes the app's own sample class videos (SPEC §19) with the ffmpeg command-line tool: a figure
# that moves to a beat over a coloured floor, with a simple drum-and-bass track, 320x180 at 24
# frames a second, H.264 and Opus (16 kb/s) in MP4. Several classes share a clip; each class's
# listed duration in classes.csv is its clip's. Run it again after changing a clip's line below:
#   Assets/videos/make-videos.sh
set -euo pipefail
cd "$(dirname "$0")"

# name, seconds, beats per minute, floor colour, dancer colour, bass root (Hz)
clips=(
  "bounce 240 96 0x1d2b53 0xffa300 55"
  "groove 300 104 0x3b1e4a 0x29adff 62"
  "popping 360 112 0x12372a 0xff77a8 49"
  "waacking 420 120 0x4a1d1d 0xffec27 58"
)

for clip in "${clips[@]}"; do
  read -r name seconds bpm floor dancer root <<<"$clip"
  beat="(t*$bpm/60)"
  # The dancer: a body that sways with the bar and bounces on each beat, a head, two arms that
  # swing in turn; the light over the floor pulses with the beat.
  video="color=c=$floor:s=320x180:r=24:d=$seconds,format=yuv420p,
    drawbox=x=0:y=140:w=320:h=40:color=black@0.35:t=fill,
    eq=brightness='0.06*cos(2*PI*$beat)'[floor];
    color=c=$dancer:s=26x56:r=24:d=$seconds[body];
    color=c=white:s=20x20:r=24:d=$seconds[head];
    color=c=$dancer:s=36x8:r=24:d=$seconds[arm1];
    color=c=$dancer:s=36x8:r=24:d=$seconds[arm2];
    [floor][body]overlay=x='147+50*sin(PI*$beat/2)':y='84-10*abs(sin(PI*$beat))'[a];
    [a][head]overlay=x='150+50*sin(PI*$beat/2)':y='62-10*abs(sin(PI*$beat))'[b];
    [b][arm1]overlay=x='112+50*sin(PI*$beat/2)':y='88-22*abs(sin(PI*$beat))'[c];
    [c][arm2]overlay=x='172+50*sin(PI*$beat/2)':y='88-22*abs(cos(PI*$beat))'[v]"
  # A kick on every beat, a bass note that walks up four steps a bar, a tick on the off-beats.
  audio="aevalsrc='0.55*sin(2*PI*52*t)*exp(-9*mod($beat,1)*60/$bpm)
    +0.22*sin(2*PI*$root*(1+mod(floor($beat),4)/4)*t)
    +0.08*sin(2*PI*3520*t)*exp(-40*mod($beat+0.5,1)*60/$bpm)':s=48000:d=$seconds,
    aformat=channel_layouts=stereo,asetnsamples=960[s]"
  ffmpeg -hide_banner -loglevel error -y \
    -filter_complex "$video;$audio" -map "[v]" -map "[s]" \
    -c:v libx264 -preset slow -crf 33 -g 48 -pix_fmt yuv420p \
    -c:a libopus -b:a 16k -movflags +faststart -t "$seconds" "$name.mp4"
  echo "$name.mp4: $(stat -c %s "$name.mp4") bytes, $seconds s"
done
