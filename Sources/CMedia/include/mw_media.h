#ifndef MW_MEDIA_H
#define MW_MEDIA_H
// A thin wrapper over FFmpeg's libraries (libavformat, libavcodec, libswscale, libavfilter) and
// PulseAudio's simple API, for myworkout-media (SPEC §19). Opening a source, decoding its video
// and audio in order, exact seeks, scaling a picture to RGB, and time-stretching the sound
// (atempo keeps the pitch) are FFmpeg's; the clock, the queues and the scheduling are Swift's.
#include <stddef.h>
#include <stdint.h>

typedef struct mw_media mw_media;

typedef struct {
  int64_t duration_ms;  // 0 when the source does not say
  int has_video;
  int has_audio;
  int width;            // the picture's display size (sample aspect and rotation applied)
  int height;
  int frame_ms;         // one frame's length (from the stream's rate; 40 when unknown)
  int rotation;         // clockwise degrees the frames are turned to be shown (0, 90, 180, 270)
} mw_media_info;

enum {
  MW_READ_END = 0,
  MW_READ_VIDEO = 1,
  MW_READ_AUDIO = 2,
  MW_READ_SKIPPED = 3,  // a damaged packet or frame was skipped; read again
  MW_READ_ERROR = -1,
};

/// Opens a file path or URL; `headers` (may be NULL) are HTTP headers ("Name: value\r\n" each).
/// `timeout_ms` bounds each network read. With `sound` 0 the sound track is read but never
/// decoded (no AUDIO reads; see mw_media_sound_read). NULL with `reason` filled when it cannot
/// be played.
mw_media *mw_media_open(const char *url, const char *headers, int timeout_ms, int sound,
                        char *reason, int reason_size);
void mw_media_info_get(const mw_media *media, mw_media_info *info);
/// Decodes until there is a picture (held until the next read; `pts_ms`) or sound (`samples`:
/// 48 kHz stereo s16, `*count` frames, valid until the next read; `pts_ms` its media time).
/// END at the end; ERROR with `reason` when the source fails for good.
int mw_media_read(mw_media *media, int64_t *pts_ms, const int16_t **samples, int *count,
                  char *reason, int reason_size);
/// The held picture's display size (its sample aspect and the rotation applied): the size
/// `info` gave, unless the pictures changed size mid-way (a stream that switched quality).
void mw_media_picture_size(mw_media *media, int *width, int *height);
/// Scales the held picture to `width`x`height` RGB24 (`rgb` holds width*height*3 bytes), turned
/// as the stream's display matrix says (a phone's portrait video stands up).
int mw_media_convert(mw_media *media, int width, int height, uint8_t *rgb);
/// Moves to `ms`: the next pictures and sound start at that exact time (decoded forward from
/// the keyframe before it).
int mw_media_seek(mw_media *media, int64_t ms);
/// Whether a seek to `ms` can be made on the source as it stands: its input seeks (a file, a
/// server with byte ranges), the seek decodes on from where decoding stands, or what it reads
/// first lies ahead of what was read. A stream from a server without byte ranges reads only
/// forward: another seek (a seek back) must open it again.
int mw_media_can_seek(mw_media *media, int64_t ms);
/// Packets read from the source since it opened (what a seek costs in reading, for tests).
int64_t mw_media_packets_read(const mw_media *media);
/// The media time (ms) the sound track has been read to, decoded or not: -1 before any, and
/// after a seek that reads again from a keyframe until its sound is read.
int64_t mw_media_sound_read(const mw_media *media);
/// The sound's speed in hundredths (25...10000), pitch kept.
int mw_media_set_tempo(mw_media *media, int hundredths);
/// Makes a blocking read give up at once (from another thread); 0 lets reads wait again.
void mw_media_interrupt(mw_media *media, int on);
void mw_media_close(mw_media *media);

typedef struct mw_sound mw_sound;
/// A playback stream on the sound server (PulseAudio's API), or on ALSA's default device when no
/// server answers: 48 kHz, stereo, s16, about 100 ms of buffer. NULL with `reason` when neither
/// opens.
mw_sound *mw_sound_open(const char *name, char *reason, int reason_size);
/// Blocks until the bytes are queued (opening the stream again if it rests). 0 on success.
int mw_sound_write(mw_sound *sound, const void *data, size_t bytes);
/// Microseconds between what was written and what is heard now.
int64_t mw_sound_latency_us(mw_sound *sound);
/// Drops what is queued and not yet heard.
void mw_sound_flush(mw_sound *sound);
/// Rests while nothing is to play (what is queued is dropped): the sound server's stream is
/// corked (kept, waking nothing here), ALSA's device closed. The next write plays again.
void mw_sound_rest(mw_sound *sound);
/// Whether resting keeps the stream (a sound server's, corked: play goes on at once) rather
/// than closing the device.
int mw_sound_rest_keeps(const mw_sound *sound);
void mw_sound_close(mw_sound *sound);



/// An eventfd for waking a poll from another thread (non-blocking, close-on-exec); -1 on error.
int mw_wake_create(void);
/// Ends this process when its parent ends (even while stopped); -1 when the parent is gone.
int mw_die_with_parent(void);
#endif
