#include "mw_media.h"

#include <libavcodec/avcodec.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavfilter/avfilter.h>
#include <libavformat/avformat.h>
#include <libavutil/channel_layout.h>
#include <libavutil/display.h>
#include <libavutil/opt.h>
#include <libswresample/swresample.h>
#include <libswscale/swscale.h>
#include <dlfcn.h>
#include <pthread.h>
#include <alsa/asoundlib.h>
#include <pulse/error.h>
#include <pulse/pulseaudio.h>
#include <stdatomic.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

// Pictures that end this much before the length a source gives end a file cut short (the
// player's `cutShortBy`).
enum { MW_CUT_SHORT_MS = 2000 };

// At most this many packets are held after a seek (those read to find its first keyframe), and
// read to find it.
enum { MW_HELD_PACKETS = 512, MW_LANDING_PACKETS = 16384 };

// A seek decodes on from where decoding stands at most this far (ms): further, the keyframe.
enum { MW_DECODE_ON_MS = 10000 };

// A seek's picture is given once the sound is this far past its time (ms) with no later
// picture read: the picture before the time is the one on screen there (a still stretch), and
// the sound after it must not pile up unplayed while a player waits for the picture.
enum { MW_STILL_GIVEN_MS = 1000 };

struct mw_media {
  AVFormatContext *format;
  AVCodecContext *video;
  AVCodecContext *audio;
  int video_index, audio_index;
  AVPacket *packet;
  AVFrame *frame;      // the held picture
  // After a seek: the latest picture before its time (the one on screen at it, unless a picture
  // comes at that very time), and the picture after it, read to know it was the latest.
  AVFrame *before, *after;
  int64_t before_ms, after_ms;
  int has_before, has_after;
  // The last seek decodes on from where decoding stood (see reached_by_decoding_on).
  int decoding_on;
  // Packets read from the demuxer since the source opened.
  int64_t packets_read;
  AVFrame *sound;      // a decoded audio frame
  AVFrame *filtered;   // what the filter graph gives
  // The sound becomes 48 kHz stereo S16 through libswresample at 1x, through a libavfilter
  // graph (atempo, then aformat) at any other speed.
  SwrContext *resampler;
  int16_t *converted;  // what the resampler gave, `pending` frames of it not yet put out
  int converted_capacity, pending;
  AVFilterGraph *graph;
  AVFilterContext *source, *sink;
  int tempo;           // hundredths
  int64_t skip_until;  // ms: pictures and sound before this are decoded and dropped
  // Where the source's times start (AV_TIME_BASE): media time counts from there, as ffplay
  // and mpv count it (an MPEG-TS file's start at 1.4 s, or before 0 where its clock wrapped).
  int64_t start_us;
  // Packets a seek read to see where it landed, read again first (oldest at `held_first`).
  AVPacket *held[MW_HELD_PACKETS];
  int held_first, held_count;
  // Since the last seek: the latest picture packet read (its dts, in the stream's time base)
  // and the latest picture the decoder gave (media ms), for a seek that may decode on instead.
  int64_t read_dts, decoded_ms;
  // Since the last seek: where the latest sound packet read ends (media ms).
  int64_t audio_read_ms;
  // Sound that ends by this media time was given before a fallback from decoding on, and is
  // not given again.
  int64_t sound_floor;
  // The media time of the sound: `audio_anchor` (ms) plus `audio_out` samples put out at 48 kHz
  // since, each standing for tempo/100 of media time. Counted in samples, not summed in whole
  // milliseconds: an AAC frame's 21.33 ms taken as 21 put the pictures 1.6 % behind the sound.
  int64_t audio_anchor;
  int64_t audio_out;
  int audio_primed;  // audio_anchor is set
  int video_draining, audio_draining, at_end;
  struct SwsContext *scaler;
  // libswscale writes 32-bit pixels three times as fast as RGB24 (0.14 against 0.42 ms a frame
  // at 400x112 here: its SIMD paths are for four-byte pixels); they are packed to RGB24 after.
  uint8_t *rgba;
  size_t rgba_size;
  mw_media_info info;
  atomic_int interrupted;
};

static void describe(int err, char *reason, int size) {
  if (!reason || size <= 0) return;
  char text[AV_ERROR_MAX_STRING_SIZE] = {0};
  av_strerror(err, text, sizeof text);
  snprintf(reason, size, "%s", text);
}

// The input's own error (a refused reconnect, a 404 when it found the file gone), or 0: it
// says more than the demuxer's "invalid data" for bytes that did not come.
static int input_error(const AVIOContext *pb) {
  return pb && pb->error < 0 && pb->error != AVERROR_EOF ? pb->error : 0;
}

static int interrupt_callback(void *opaque) {
  mw_media *media = opaque;
  return atomic_load(&media->interrupted);
}

static AVCodecContext *open_decoder(AVStream *stream, int threads) {
  const AVCodec *codec = avcodec_find_decoder(stream->codecpar->codec_id);
  if (!codec) return NULL;
  AVCodecContext *context = avcodec_alloc_context3(codec);
  if (!context) return NULL;
  if (avcodec_parameters_to_context(context, stream->codecpar) < 0) goto fail;
  context->thread_count = threads;
  context->pkt_timebase = stream->time_base;
  if (avcodec_open2(context, codec, NULL) < 0) goto fail;
  return context;
fail:
  avcodec_free_context(&context);
  return NULL;
}

// libavfilter, opened the first time the speed is not 1x: with the libraries only it brings
// (text to speech voices, SVG, Vulkan, BLAS: 28 in Debian 12) it costs 12 MiB of memory, and at
// 1x the sound needs only libswresample. NULL functions when it cannot be opened.
static struct {
  int loaded;  // every function below found
  void (*graph_free)(AVFilterGraph **);
  AVFilterGraph *(*graph_alloc)(void);
  int (*graph_create_filter)(AVFilterContext **, const AVFilter *, const char *, const char *,
                             void *, AVFilterGraph *);
  const AVFilter *(*get_by_name)(const char *);
  AVFilterInOut *(*inout_alloc)(void);
  void (*inout_free)(AVFilterInOut **);
  int (*graph_parse_ptr)(AVFilterGraph *, const char *, AVFilterInOut **, AVFilterInOut **,
                         void *);
  int (*graph_config)(AVFilterGraph *, void *);
  int (*sink_get_frame)(AVFilterContext *, AVFrame *);
  int (*source_add_frame)(AVFilterContext *, AVFrame *);
} lavfi;

static void load_avfilter_once(void) {
  void *library = dlopen("libavfilter.so." AV_STRINGIFY(LIBAVFILTER_VERSION_MAJOR),
                         RTLD_NOW | RTLD_LOCAL);
  if (!library) return;
#define MW_SYMBOL(field, name)                                  \
  *(void **)&lavfi.field = dlsym(library, name);               \
  if (!lavfi.field) return;
  MW_SYMBOL(graph_free, "avfilter_graph_free")
  MW_SYMBOL(graph_alloc, "avfilter_graph_alloc")
  MW_SYMBOL(graph_create_filter, "avfilter_graph_create_filter")
  MW_SYMBOL(get_by_name, "avfilter_get_by_name")
  MW_SYMBOL(inout_alloc, "avfilter_inout_alloc")
  MW_SYMBOL(inout_free, "avfilter_inout_free")
  MW_SYMBOL(graph_parse_ptr, "avfilter_graph_parse_ptr")
  MW_SYMBOL(sink_get_frame, "av_buffersink_get_frame")
  MW_SYMBOL(source_add_frame, "av_buffersrc_add_frame")
  MW_SYMBOL(graph_config, "avfilter_graph_config")
#undef MW_SYMBOL
  lavfi.loaded = 1;
}

// 0 when libavfilter's functions are there. Once per process, whichever thread asks first (the
// player has one decoding thread; the tests open many sources at once).
static int load_avfilter(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, load_avfilter_once);
  return lavfi.loaded ? 0 : -1;
}

static void free_sound_path(mw_media *media) {
  if (media->graph) lavfi.graph_free(&media->graph);
  swr_free(&media->resampler);
  media->pending = 0;
}

// The decoder's channel layout, or the usual one for its channel count.
static AVChannelLayout decoder_layout(const AVCodecContext *audio) {
  AVChannelLayout layout;
  if (audio->ch_layout.order == AV_CHANNEL_ORDER_UNSPEC ||
      av_channel_layout_copy(&layout, &audio->ch_layout) < 0) {
    av_channel_layout_default(&layout, audio->ch_layout.nb_channels);
  }
  return layout;
}

static int build_graph(mw_media *media) {
  AVCodecContext *audio = media->audio;
  media->graph = lavfi.graph_alloc();
  if (!media->graph) return AVERROR(ENOMEM);
  char layout[128] = {0};
  AVChannelLayout channels = decoder_layout(audio);
  av_channel_layout_describe(&channels, layout, sizeof layout);
  av_channel_layout_uninit(&channels);
  char args[512];
  snprintf(args, sizeof args, "time_base=1/%d:sample_rate=%d:sample_fmt=%s:channel_layout=%s",
           audio->sample_rate, audio->sample_rate, av_get_sample_fmt_name(audio->sample_fmt),
           layout);
  int err = lavfi.graph_create_filter(&media->source, lavfi.get_by_name("abuffer"), "in", args,
                                      NULL, media->graph);
  if (err < 0) return err;
  err = lavfi.graph_create_filter(&media->sink, lavfi.get_by_name("abuffersink"), "out", NULL,
                                  NULL, media->graph);
  if (err < 0) return err;
  // atempo takes 0.5...100 per stage; slower than 0.5 is two stages.
  char chain[256] = "";
  double tempo = media->tempo / 100.0;
  if (tempo < 0.5) {
    snprintf(chain, sizeof chain, "atempo=0.5,atempo=%.4f,", tempo / 0.5);
  } else {
    snprintf(chain, sizeof chain, "atempo=%.4f,", tempo);
  }
  char description[512];
  snprintf(description, sizeof description,
           "%saformat=sample_fmts=s16:sample_rates=48000:channel_layouts=stereo", chain);
  AVFilterInOut *outputs = lavfi.inout_alloc();
  AVFilterInOut *inputs = lavfi.inout_alloc();
  outputs->name = av_strdup("in");
  outputs->filter_ctx = media->source;
  inputs->name = av_strdup("out");
  inputs->filter_ctx = media->sink;
  err = lavfi.graph_parse_ptr(media->graph, description, &inputs, &outputs, NULL);
  lavfi.inout_free(&inputs);
  lavfi.inout_free(&outputs);
  if (err < 0) return err;
  return lavfi.graph_config(media->graph, NULL);
}

static int build_resampler(mw_media *media) {
  AVCodecContext *audio = media->audio;
  AVChannelLayout stereo = AV_CHANNEL_LAYOUT_STEREO;
  AVChannelLayout channels = decoder_layout(audio);
  int err = swr_alloc_set_opts2(&media->resampler, &stereo, AV_SAMPLE_FMT_S16, 48000, &channels,
                                audio->sample_fmt, audio->sample_rate, 0, NULL);
  av_channel_layout_uninit(&channels);
  if (err < 0) return err;
  return swr_init(media->resampler);
}

// The sound's way to 48 kHz stereo S16 for the current speed, empty (nothing pending).
static int build_sound_path(mw_media *media) {
  free_sound_path(media);
  int err;
  if (media->tempo == 100) {
    err = build_resampler(media);
  } else {
    err = load_avfilter() < 0 ? AVERROR(ENOSYS) : build_graph(media);
  }
  if (err < 0) free_sound_path(media);
  return err;
}

// A decoded audio frame (NULL: the end) into the sound's way.
static void push_sound(mw_media *media, AVFrame *frame) {
  if (media->graph) {
    if (lavfi.source_add_frame(media->source, frame) < 0) return;
  } else if (media->resampler) {
    int in = frame ? frame->nb_samples : 0;
    int room = swr_get_out_samples(media->resampler, in);
    if (room <= 0) return;
    if (room > media->converted_capacity) {
      int16_t *grown = realloc(media->converted, (size_t)room * 4);
      if (!grown) return;
      media->converted = grown;
      media->converted_capacity = room;
    }
    uint8_t *out[1] = {(uint8_t *)media->converted};
    int made = swr_convert(media->resampler, out, room,
                           frame ? (const uint8_t **)frame->extended_data : NULL, in);
    media->pending = made > 0 ? made : 0;
  }
}

// Nothing read or decoded since a seek (or the open) yet.
static void forget_reading(mw_media *media) {
  media->read_dts = AV_NOPTS_VALUE;
  media->decoded_ms = INT64_MIN;
  media->audio_read_ms = AV_NOPTS_VALUE;
}

mw_media *mw_media_open(const char *url, const char *headers, int timeout_ms, int sound,
                        char *reason, int reason_size) {
  mw_media *media = calloc(1, sizeof *media);
  if (!media) return NULL;
  media->tempo = 100;
  media->video_index = media->audio_index = -1;
  forget_reading(media);
  media->sound_floor = INT64_MIN;
  media->format = avformat_alloc_context();
  media->format->interrupt_callback.callback = interrupt_callback;
  media->format->interrupt_callback.opaque = media;
  AVDictionary *options = NULL;
  if (headers && *headers) av_dict_set(&options, "headers", headers, 0);
  char timeout[32];
  snprintf(timeout, sizeof timeout, "%lld", (long long)timeout_ms * 1000);
  av_dict_set(&options, "rw_timeout", timeout, 0);
  av_dict_set(&options, "timeout", timeout, 0);
  // Over HTTP: a connection cut mid-way (a proxy, an instance gone) is opened again at the
  // byte where it stopped, three times in 4 s. Not reconnect_on_network_error as well: it
  // retries each of those openings three times in 4 s of its own, and a server gone for good
  // kept a paused player reading for 16 s and more before it could say so.
  av_dict_set(&options, "reconnect", "1", 0);
  av_dict_set(&options, "reconnect_delay_max", "4", 0);
  int err = avformat_open_input(&media->format, url, NULL, &options);
  av_dict_free(&options);
  if (err < 0) {
    describe(err, reason, reason_size);
    media->format = NULL;
    mw_media_close(media);
    return NULL;
  }
  err = avformat_find_stream_info(media->format, NULL);
  if (err < 0) {
    describe(err, reason, reason_size);
    mw_media_close(media);
    return NULL;
  }
  int64_t start = media->format->start_time;
  media->start_us = start != AV_NOPTS_VALUE ? start : 0;
  int v = av_find_best_stream(media->format, AVMEDIA_TYPE_VIDEO, -1, -1, NULL, 0);
  int a = av_find_best_stream(media->format, AVMEDIA_TYPE_AUDIO, -1, v, NULL, 0);
  if (v >= 0) {
    AVStream *stream = media->format->streams[v];
    // One thread up to 1080p30: it decodes such a frame in 4 ms here (12 % of a core, twice
    // that at 2x), and frame threads cost more CPU for the same frames (720p24: 2.3 ms a frame
    // on one thread, 2.6-2.7 on two or three; 1080p30: 4.0 against 4.9). Above that (1080p60,
    // 4K) one thread may not keep up, and frames come in time before they come cheap.
    // HEVC, VP9 and AV1 cost about twice as much a picture: one thread up to 720p30 for them.
    AVRational rate = av_guess_frame_rate(media->format, stream, NULL);
    double fps = rate.num > 0 && rate.den > 0 ? av_q2d(rate) : 30;
    double pixels = (double)stream->codecpar->width * stream->codecpar->height * fps;
    enum AVCodecID id = stream->codecpar->codec_id;
    double heavy = id == AV_CODEC_ID_HEVC || id == AV_CODEC_ID_VP9 || id == AV_CODEC_ID_AV1;
    media->video = open_decoder(stream, pixels > (heavy ? 1280.0 * 720 : 1920.0 * 1080) * 31 ? 0 : 1);
    if (media->video) media->video_index = v;
  }
  if (a >= 0 && !sound) {
    // Muted: the sound track is read for its times (where it ends, a still stretch) and never
    // decoded, resampled or stretched (a sixth of the player process's CPU on the shipped clip).
    media->audio_index = a;
  } else if (a >= 0) {
    media->audio = open_decoder(media->format->streams[a], 1);
    if (media->audio) {
      media->audio_index = a;
      if (build_sound_path(media) < 0) {
        avcodec_free_context(&media->audio);
        media->audio_index = -1;
      }
    }
  }
  if (media->video_index < 0) {
    snprintf(reason, reason_size, "%s",
             v >= 0 ? "the video's format cannot be decoded" : "the file has no video");
    mw_media_close(media);
    return NULL;
  }
  // Streams nobody plays are not even demuxed.
  for (unsigned i = 0; i < media->format->nb_streams; i++) {
    if ((int)i != media->video_index && (int)i != media->audio_index)
      media->format->streams[i]->discard = AVDISCARD_ALL;
  }
  media->packet = av_packet_alloc();
  media->frame = av_frame_alloc();
  media->before = av_frame_alloc();
  media->after = av_frame_alloc();
  media->sound = av_frame_alloc();
  media->filtered = av_frame_alloc();
  AVStream *stream = media->format->streams[media->video_index];
  mw_media_info *info = &media->info;
  info->has_video = 1;
  info->has_audio = media->audio_index >= 0;
  int64_t duration = media->format->duration;
  info->duration_ms = duration > 0 ? duration / 1000 : 0;
  info->width = media->video->width;
  info->height = media->video->height;
  AVRational sar = av_guess_sample_aspect_ratio(media->format, stream, NULL);
  if (sar.num > 0 && sar.den > 0 && sar.num != sar.den)
    info->width = (int)av_rescale(info->width, sar.num, sar.den);
  // The display matrix (a phone's portrait video): turned as FFmpeg's own tools turn it, to the
  // nearest quarter turn.
  const int32_t *matrix =
      (const int32_t *)av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, NULL);
  if (matrix) {
    double theta = -av_display_rotation_get(matrix);
    if (theta == theta) {  // not NaN
      long quarters = lround(theta / 90.0) % 4;
      info->rotation = (int)((quarters + 4) % 4) * 90;
    }
  }
  if (info->rotation == 90 || info->rotation == 270) {
    int width = info->width;
    info->width = info->height;
    info->height = width;
  }
  AVRational rate = av_guess_frame_rate(media->format, stream, NULL);
  info->frame_ms = rate.num > 0 && rate.den > 0 ? (int)(1000LL * rate.den / rate.num) : 40;
  if (info->frame_ms <= 0) info->frame_ms = 40;
  if (info->width <= 0 || info->height <= 0) {
    snprintf(reason, reason_size, "the video has no picture size");
    mw_media_close(media);
    return NULL;
  }
  return media;
}

void mw_media_info_get(const mw_media *media, mw_media_info *info) { *info = media->info; }

static int64_t to_ms(int64_t value, AVRational base) {
  if (value == AV_NOPTS_VALUE) return AV_NOPTS_VALUE;
  return av_rescale_q(value, base, (AVRational){1, 1000});
}

// A stream's timestamp as media time (ms from the source's start), AV_NOPTS_VALUE kept. The
// start is taken off in the stream's own time base, so that rounding happens once.
static int64_t media_ms(const mw_media *media, int64_t value, int stream) {
  if (value == AV_NOPTS_VALUE) return AV_NOPTS_VALUE;
  AVRational base = media->format->streams[stream]->time_base;
  return to_ms(value - av_rescale_q(media->start_us, AV_TIME_BASE_Q, base), base);
}

// Media time `ms` as the source's own time (AV_TIME_BASE), for a seek.
static int64_t source_time(const mw_media *media, int64_t ms) {
  return ms * 1000 + media->start_us;
}

// The media time (ms) of the next sample put out: output samples times the tempo.
static int64_t sound_time(const mw_media *media) {
  return media->audio_anchor + media->audio_out * 1000 * media->tempo / 100 / 48000;
}

// How far the sound has come (ms; AV_NOPTS_VALUE before any since the seek): the sound put out,
// or, muted (read, never decoded), the sound read.
static int64_t sound_reached(const mw_media *media) {
  if (!media->audio) return media->audio_read_ms;
  return media->audio_primed ? sound_time(media) : AV_NOPTS_VALUE;
}

// Sound from the filter graph, if it has some: 1 with samples set, 0 when it needs more.
static int pull_sound(mw_media *media, int64_t *pts_ms, const int16_t **samples, int *count) {
  int frames = 0;
  const int16_t *data = NULL;
  if (media->graph) {
    av_frame_unref(media->filtered);
    if (lavfi.sink_get_frame(media->sink, media->filtered) < 0) return 0;
    frames = media->filtered->nb_samples;
    data = (const int16_t *)media->filtered->data[0];
  } else {
    if (media->pending <= 0) return 0;
    frames = media->pending;
    data = media->converted;
    media->pending = 0;
  }
  int64_t start = sound_time(media);
  media->audio_out += frames;
  if (sound_time(media) <= media->skip_until || sound_time(media) <= media->sound_floor) return 2;
  *pts_ms = start;
  *samples = data;
  *count = frames;
  return 1;
}

// A demuxer says its data is invalid when the input could not seek to a sample (MP4 after a
// seek whose new request failed): for a source read over HTTP, the connection's own error, as
// one more request finds it (0 when the server answers: the data is invalid indeed). The
// request goes to the protocol itself: avio_seek answers from its buffer when the place asked
// for is in it (the file's start, for a player that had read little), and asks nobody.
static int network_error(mw_media *media) {
  const char *url = media->format->url;
  if (!url || (strncmp(url, "http://", 7) != 0 && strncmp(url, "https://", 8) != 0)) return 0;
  AVIOContext *pb = media->format->pb;
  if (!pb || !pb->seek) return 0;
  // Somewhere other than where the protocol stands, or it answers without a request.
  int64_t err = pb->seek(pb->opaque, pb->pos == 0 ? 1 : 0, SEEK_SET);
  if (err < 0) return err != AVERROR_EOF ? (int)err : 0;
  // Back where the buffer says the protocol stands.
  pb->seek(pb->opaque, pb->pos, SEEK_SET);
  return 0;
}

// Whether the source's bytes ended before the source did: an input error, or the end of the
// input reached short of the size it announced (HTTP's Content-Length). A file whose index
// comes after its samples ends its packets before its bytes, but without reaching their end.
static int source_stopped(AVIOContext *pb) {
  if (!pb) return 0;
  int error = input_error(pb);
  if (error && error != AVERROR_EXIT) return 1;
  if (!pb->eof_reached) return 0;
  int64_t size = avio_size(pb);
  return size > 0 && avio_tell(pb) < size;
}

// A packet from the demuxer, counted.
static int read_packet(mw_media *media, AVPacket *packet) {
  int err = av_read_frame(media->format, packet);
  if (err >= 0) media->packets_read++;
  return err;
}

int64_t mw_media_packets_read(const mw_media *media) { return media->packets_read; }

int64_t mw_media_sound_read(const mw_media *media) {
  return media->audio_read_ms == AV_NOPTS_VALUE ? -1 : media->audio_read_ms;
}

// Lets go of the oldest packet held (the ring holds one at least).
static void drop_oldest(mw_media *media) {
  av_packet_free(&media->held[media->held_first]);
  media->held_first = (media->held_first + 1) % MW_HELD_PACKETS;
  media->held_count--;
}

// The next packet: one a seek held, else the demuxer's.
static int next_packet(mw_media *media, AVPacket *packet) {
  if (media->held_count == 0) return read_packet(media, packet);
  av_packet_move_ref(packet, media->held[media->held_first]);
  drop_oldest(media);
  return 0;
}

static void drop_held(mw_media *media) {
  while (media->held_count > 0) drop_oldest(media);
  media->held_first = 0;
}

// Holds a packet read to see where a seek landed; when the ring is full the oldest goes (sound
// from before the picture's keyframe, and so from before the seek's time).
static void hold(mw_media *media, AVPacket *packet) {
  if (media->held_count == MW_HELD_PACKETS) drop_oldest(media);
  media->held[(media->held_first + media->held_count) % MW_HELD_PACKETS] = packet;
  media->held_count++;
}

// Reads on from where a seek landed to its first picture keyframe: 1 when that is at or before
// `ms` (it and the sound read on the way are held, to be read again; the pictures before it,
// which cannot be decoded from there, are let go), 0 when the pictures pass `ms` first (the
// keyframe before `ms` lies before the landing). A read that fails (the end, a lost connection)
// or a long way with no keyframe says 1: the reading after the seek meets it as it would have.
static int landed_before(mw_media *media, int64_t ms) {
  for (int read = 0; read < MW_LANDING_PACKETS; read++) {
    AVPacket *packet = av_packet_alloc();
    if (!packet) return 1;
    if (read_packet(media, packet) < 0) {
      av_packet_free(&packet);
      return 1;
    }
    if (packet->stream_index != media->video_index) {
      hold(media, packet);
      continue;
    }
    int64_t pts = media_ms(media, packet->pts != AV_NOPTS_VALUE ? packet->pts : packet->dts,
                           packet->stream_index);
    if (pts != AV_NOPTS_VALUE && pts > ms) {
      av_packet_free(&packet);
      return 0;
    }
    if (packet->flags & AV_PKT_FLAG_KEY) {
      hold(media, packet);
      return 1;
    }
    av_packet_free(&packet);
  }
  return 1;
}

// To the source's start: its first time, or, for a format searched by its times where that
// lands past the first keyframe (MPEG-TS; not Ogg, whose pages a byte seek breaks, as ffplay
// knows), its first byte.
static int seek_to_start(mw_media *media) {
  AVFormatContext *format = media->format;
  if ((format->iformat->flags & (AVFMT_TS_DISCONT | AVFMT_NO_BYTE_SEEK)) == AVFMT_TS_DISCONT &&
      strcmp(format->iformat->name, "ogg") != 0 &&
      avformat_seek_file(format, -1, 0, 0, 0, AVSEEK_FLAG_BYTE) >= 0)
    return 0;
  int64_t start = source_time(media, 0);
  int err = avformat_seek_file(format, -1, INT64_MIN, start, start, 0);
  return err < 0 ? av_seek_frame(format, -1, start, AVSEEK_FLAG_BACKWARD) : err;
}

// Moves the demuxer to a keyframe at or before `ms`. A format with an index (MP4, Matroska)
// lands there at once; one without (MPEG-TS, Ogg) is searched by its times, which lands on any
// packet near them (a walk-through's seek in a TS file showed nothing until the next keyframe,
// two seconds on): it is sought again 1, 3, 7, 15… s further back until the first keyframe
// read from the landing is at or before `ms`, and at last from the start.
static int seek_before(mw_media *media, int64_t ms) {
  int64_t back = 0;
  for (int tries = 0;; tries++) {
    drop_held(media);
    int64_t at_ms = ms - back;
    if (at_ms <= 0 || tries == 12) return seek_to_start(media);
    int64_t at = source_time(media, at_ms);
    int err = avformat_seek_file(media->format, -1, INT64_MIN, at, at, 0);
    if (err < 0) err = av_seek_frame(media->format, -1, at, AVSEEK_FLAG_BACKWARD);
    if (err < 0 || landed_before(media, ms)) return err;
    back = back * 2 + 1000;
  }
}

static int seek_exactly(mw_media *media, int64_t ms);

// Decoding on reached no picture before the seek's time (a picture past it, or the end): the
// one on screen there was given before the seek (a still stretch longer than the two frames
// checked). From the keyframe, then; the sound given since the seek is not given again.
static void fall_back_to_keyframe(mw_media *media) {
  int64_t given = media->audio_primed ? sound_time(media) : INT64_MIN;
  seek_exactly(media, media->skip_until);  // a failure shows in the reads that follow
  media->sound_floor = given;
}

// Gives `from` (a picture kept aside) as the held picture.
static int give(mw_media *media, AVFrame *from, int64_t ms, int64_t *pts_ms) {
  av_frame_unref(media->frame);
  av_frame_move_ref(media->frame, from);
  *pts_ms = ms;
  return MW_READ_VIDEO;
}

int mw_media_read(mw_media *media, int64_t *pts_ms, const int16_t **samples, int *count,
                  char *reason, int reason_size) {
  if (media->has_after) {
    media->has_after = 0;
    return give(media, media->after, media->after_ms, pts_ms);
  }
  for (;;) {
    // A still stretch: the sound has gone well past the seek's time and no picture came after
    // the one kept aside. It is the one on screen there.
    int64_t reached = sound_reached(media);
    if (media->has_before && reached != AV_NOPTS_VALUE &&
        reached > media->skip_until + MW_STILL_GIVEN_MS) {
      media->has_before = 0;
      return give(media, media->before, media->before_ms, pts_ms);
    }
    if (media->audio) {
      int pulled = pull_sound(media, pts_ms, samples, count);
      if (pulled == 1) return MW_READ_AUDIO;
      if (pulled == 2) continue;
    }
    // A picture waiting in the decoder.
    int err = avcodec_receive_frame(media->video, media->frame);
    if (err == 0) {
      int64_t pts = media_ms(media, media->frame->best_effort_timestamp, media->video_index);
      if (pts == AV_NOPTS_VALUE) pts = 0;
      if (pts > media->decoded_ms) media->decoded_ms = pts;
      if (media->frame->decode_error_flags || (media->frame->flags & AV_FRAME_FLAG_CORRUPT)) {
        return MW_READ_SKIPPED;
      }
      // Before a seek's time: kept aside while it is the latest. A picture lasts until the next
      // one, which need not come a frame later (a still stretch with no pictures: Theora's
      // repeated frames, a screen recording): the latest before the time is the one on screen
      // at it, even a second before.
      // Decoding on that meets a picture before the time has what it needs (it is later than
      // every picture given before the seek).
      if (pts < media->skip_until) {
        av_frame_unref(media->before);
        av_frame_move_ref(media->before, media->frame);
        media->before_ms = pts;
        media->has_before = 1;
        media->decoding_on = 0;
        continue;
      }
      if (media->decoding_on && pts > media->skip_until) {
        fall_back_to_keyframe(media);
        continue;
      }
      media->decoding_on = 0;
      if (media->has_before) {
        media->has_before = 0;
        if (pts > media->skip_until) {
          av_frame_move_ref(media->after, media->frame);
          media->after_ms = pts;
          media->has_after = 1;
          return give(media, media->before, media->before_ms, pts_ms);
        }
        av_frame_unref(media->before);
      }
      *pts_ms = pts;
      return MW_READ_VIDEO;
    }
    if (err == AVERROR_EOF) media->video_draining = 2;
    if (media->audio) {
      err = avcodec_receive_frame(media->audio, media->sound);
      if (err == 0) {
        int64_t pts = media_ms(media, media->sound->best_effort_timestamp, media->audio_index);
        int64_t length = (int64_t)media->sound->nb_samples * 1000 / media->audio->sample_rate;
        if (pts != AV_NOPTS_VALUE && pts + length <= media->skip_until) continue;
        if (!media->audio_primed) {
          media->audio_anchor = pts == AV_NOPTS_VALUE ? media->skip_until : pts;
          media->audio_out = 0;
          media->audio_primed = 1;
        }
        push_sound(media, media->sound);
        continue;
      }
    }
    if (media->at_end) {
      if (media->video_draining != 2) continue;
      if (media->decoding_on) {
        fall_back_to_keyframe(media);
        continue;
      }
      // The pictures ended before the seek's time: the last one is on screen there, unless they
      // ended well before the length the source gives, and well before the time (a file cut
      // short: nothing there to show; the player says so).
      if (media->has_before) {
        media->has_before = 0;
        int64_t length = media->info.duration_ms;
        if (length <= 0 || length - media->skip_until <= MW_CUT_SHORT_MS ||
            media->skip_until - media->before_ms <= MW_CUT_SHORT_MS)
          return give(media, media->before, media->before_ms, pts_ms);
        av_frame_unref(media->before);
      }
      return MW_READ_END;
    }
    err = next_packet(media, media->packet);
    if (err < 0 && err != AVERROR_EXIT && source_stopped(media->format->pb)) {
      // The bytes stopped before the source's end (a server gone mid-class, a connection cut
      // for good after the reconnects): not the video's end.
      int error = input_error(media->format->pb);
      describe(error ? error : AVERROR(ECONNRESET), reason, reason_size);
      return MW_READ_ERROR;
    }
    if (err == AVERROR_EOF || (err < 0 && avio_feof(media->format->pb) && err != AVERROR_EXIT)) {
      media->at_end = 1;
      avcodec_send_packet(media->video, NULL);
      if (media->audio) {
        avcodec_send_packet(media->audio, NULL);
        push_sound(media, NULL);
      }
      continue;
    }
    if (err < 0) {
      int error = input_error(media->format->pb);
      if (!error && err == AVERROR_INVALIDDATA) error = network_error(media);
      describe(error ? error : err, reason, reason_size);
      return MW_READ_ERROR;
    }
    int index = media->packet->stream_index;
    if (index == media->video_index) {
      // Before a seek's target, a frame no other frame refers to (most B-frames) is not
      // decoded at all: it would be dropped anyway, and a long way from a keyframe (720p with
      // ten seconds between them) that is much of the seek's time.
      // Its length is its own duration where the container gives one (a still stretch), else
      // one frame: a skipped frame must never be the one on screen at the seek's time.
      int64_t pts = media_ms(media, media->packet->pts, index);
      int64_t length = media->packet->duration > 0
                           ? to_ms(media->packet->duration, media->format->streams[index]->time_base)
                           : 0;
      if (length < media->info.frame_ms) length = media->info.frame_ms;
      media->video->skip_frame = pts != AV_NOPTS_VALUE && pts + length <= media->skip_until
                                     ? AVDISCARD_NONREF
                                     : AVDISCARD_DEFAULT;
      int64_t dts = media->packet->dts;
      if (dts != AV_NOPTS_VALUE && (media->read_dts == AV_NOPTS_VALUE || dts > media->read_dts))
        media->read_dts = dts;
      err = avcodec_send_packet(media->video, media->packet);
    } else if (index == media->audio_index) {
      int64_t end = media_ms(media, media->packet->pts, index);
      if (end != AV_NOPTS_VALUE) {
        end += to_ms(media->packet->duration, media->format->streams[index]->time_base);
        // A time past the source's length is not one (Vorbis in Ogg gave 24.9 hours just after
        // a seek: a granule position read as a wrapped 32-bit count).
        int64_t length = media->info.duration_ms;
        if ((length <= 0 || end <= length + MW_CUT_SHORT_MS) &&
            (media->audio_read_ms == AV_NOPTS_VALUE || end > media->audio_read_ms))
          media->audio_read_ms = end;
      }
      if (media->audio) err = avcodec_send_packet(media->audio, media->packet);
    }
    av_packet_unref(media->packet);
    if (err < 0 && err != AVERROR(EAGAIN)) return MW_READ_SKIPPED;
  }
}

void mw_media_picture_size(mw_media *media, int *width, int *height) {
  AVFrame *frame = media->frame;
  *width = media->info.width;
  *height = media->info.height;
  if (!frame->data[0] || frame->width <= 0 || frame->height <= 0) return;
  AVStream *stream = media->format->streams[media->video_index];
  int w = frame->width, h = frame->height;
  AVRational sar = av_guess_sample_aspect_ratio(media->format, stream, frame);
  if (sar.num > 0 && sar.den > 0 && sar.num != sar.den) w = (int)av_rescale(w, sar.num, sar.den);
  if (w <= 0) return;
  int turned = media->info.rotation == 90 || media->info.rotation == 270;
  *width = turned ? h : w;
  *height = turned ? w : h;
}

int mw_media_convert(mw_media *media, int width, int height, uint8_t *rgb) {
  AVFrame *frame = media->frame;
  if (!frame->data[0] || width <= 0 || height <= 0) return -1;
  int rotation = media->info.rotation;
  int turned = rotation == 90 || rotation == 270;
  // Scaled as the frame stands, then turned into place.
  int scaled_w = turned ? height : width;
  int scaled_h = turned ? width : height;
  media->scaler = sws_getCachedContext(media->scaler, frame->width, frame->height, frame->format,
                                       scaled_w, scaled_h, AV_PIX_FMT_RGBA, SWS_AREA, NULL, NULL,
                                       NULL);
  if (!media->scaler) return -1;
  int stride = FFALIGN(scaled_w * 4, 64);
  size_t size = (size_t)stride * scaled_h;
  if (size > media->rgba_size) {
    av_free(media->rgba);
    media->rgba = av_malloc(size);
    media->rgba_size = media->rgba ? size : 0;
    if (!media->rgba) return -1;
  }
  uint8_t *planes[4] = {media->rgba, NULL, NULL, NULL};
  int strides[4] = {stride, 0, 0, 0};
  if (sws_scale(media->scaler, (const uint8_t *const *)frame->data, frame->linesize, 0,
                frame->height, planes, strides) <= 0)
    return -1;
  if (rotation == 0) {
    for (int y = 0; y < height; y++) {
      const uint8_t *from = media->rgba + (size_t)y * stride;
      uint8_t *to = rgb + (size_t)y * width * 3;
      int x = 0;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
      // Four pixels at a time: four words read, three written, in half the time of the byte
      // copy below (which took 5 % of the CPU of video at 200x60).
      for (; x + 4 <= width; x += 4, from += 16, to += 12) {
        uint32_t p0, p1, p2, p3;
        memcpy(&p0, from, 4);
        memcpy(&p1, from + 4, 4);
        memcpy(&p2, from + 8, 4);
        memcpy(&p3, from + 12, 4);
        uint32_t w0 = (p0 & 0xFFFFFF) | p1 << 24;
        uint32_t w1 = (p1 >> 8 & 0xFFFF) | p2 << 16;
        uint32_t w2 = (p2 >> 16 & 0xFF) | p3 << 8;
        memcpy(to, &w0, 4);
        memcpy(to + 4, &w1, 4);
        memcpy(to + 8, &w2, 4);
      }
#endif
      for (; x < width; x++, from += 4, to += 3) {
        to[0] = from[0];
        to[1] = from[1];
        to[2] = from[2];
      }
    }
    return 0;
  }
  // Output pixel (x, y) from the scaled frame's (sx, sy): a quarter turn clockwise takes the
  // frame's bottom-left to the top-left, anticlockwise its top-right; half a turn both ways.
  for (int y = 0; y < height; y++) {
    uint8_t *to = rgb + (size_t)y * width * 3;
    for (int x = 0; x < width; x++, to += 3) {
      int sx, sy;
      switch (rotation) {
        case 90: sx = y; sy = scaled_h - 1 - x; break;
        case 270: sx = scaled_w - 1 - y; sy = x; break;
        default: sx = scaled_w - 1 - x; sy = scaled_h - 1 - y; break;
      }
      const uint8_t *from = media->rgba + (size_t)sy * stride + (size_t)sx * 4;
      to[0] = from[0];
      to[1] = from[1];
      to[2] = from[2];
    }
  }
  return 0;
}

// Whether the picture at `ms` is reached sooner by decoding on than by a seek: it lies ahead of
// every picture the decoder gave (by two frames, so that the one on screen at `ms` is likely
// still to come; see the fallback in mw_media_read), at most MW_DECODE_ON_MS ahead, after the
// sound read so far (sound read past it was given before the seek, and would be missing), and
// the index, which must reach past `ms` (Matroska's cues are read at its first seek; Ogg and
// MPEG-TS have only what was read, so never), says the keyframe before it was read already (a
// seek would decode from there again: → with ten seconds between keyframes did so, 240 ms at
// 720p). Decoding on from where it stands is exact: the decoder holds every picture it refers
// to.
static int reached_by_decoding_on(mw_media *media, int64_t ms) {
  if (media->at_end || media->video_draining || media->read_dts == AV_NOPTS_VALUE ||
      media->decoded_ms == INT64_MIN || ms < media->decoded_ms + 2 * media->info.frame_ms ||
      ms > media->decoded_ms + MW_DECODE_ON_MS ||
      (media->audio_read_ms != AV_NOPTS_VALUE && media->audio_read_ms > ms) ||
      (media->format->iformat->flags & (AVFMT_TS_DISCONT | AVFMT_GENERIC_INDEX)))
    return 0;
  AVStream *stream = media->format->streams[media->video_index];
  int64_t at = av_rescale_q(source_time(media, ms), AV_TIME_BASE_Q, stream->time_base);
  int index = av_index_search_timestamp(stream, at, AVSEEK_FLAG_BACKWARD);
  if (index < 0 || index + 1 >= avformat_index_get_entries_count(stream)) return 0;
  const AVIndexEntry *keyframe = avformat_index_get_entry(stream, index);
  return keyframe && keyframe->timestamp <= media->read_dts;
}

// The demuxer and decoders to `ms`, from the keyframe before it.
// What the next reads give starts at `ms`: pictures and sound before it are dropped, the sound
// is anchored anew, the held picture let go.
static void aim_at(mw_media *media, int64_t ms) {
  media->sound_floor = INT64_MIN;
  media->skip_until = ms;
  media->audio_primed = 0;
  if (media->audio) build_sound_path(media);
  av_frame_unref(media->frame);
}

static int seek_exactly(mw_media *media, int64_t ms) {
  media->decoding_on = 0;
  int err = seek_before(media, ms);
  forget_reading(media);
  avcodec_flush_buffers(media->video);
  if (media->audio) avcodec_flush_buffers(media->audio);
  aim_at(media, ms);
  media->at_end = 0;
  media->video_draining = 0;
  return err < 0 ? err : 0;
}

int mw_media_seek(mw_media *media, int64_t ms) {
  if (ms < 0) ms = 0;
  media->has_before = media->has_after = 0;
  av_frame_unref(media->before);
  av_frame_unref(media->after);
  if (reached_by_decoding_on(media, ms)) {
    media->decoding_on = 1;
    aim_at(media, ms);
    return 0;
  }
  return seek_exactly(media, ms);
}

// Whether reading on from where the input stands reaches what a seek to `ms` reads first: the
// keyframe before it and the sound there, by the index that names their bytes (MP4's; one read
// so far in others), lie at or after the input's position. An input that reads only forward
// gets there by reading, as FFmpeg's reader does for a forward seek (a review found every seek
// but one that decodes on opened such a stream again, downloading it from its start).
static int reached_by_reading_on(mw_media *media, int64_t ms) {
  // The reader also goes back within what it holds of what it read.
  const AVIOContext *pb = media->format->pb;
  int64_t position = avio_tell(media->format->pb) - (pb->buf_ptr - pb->buffer);
  int streams[2] = {media->video_index, media->audio_index};
  for (int k = 0; k < 2; k++) {
    if (streams[k] < 0) continue;
    AVStream *stream = media->format->streams[streams[k]];
    int64_t at = av_rescale_q(source_time(media, ms), AV_TIME_BASE_Q, stream->time_base);
    int index = av_index_search_timestamp(stream, at, AVSEEK_FLAG_BACKWARD);
    const AVIndexEntry *entry = index < 0 ? NULL : avformat_index_get_entry(stream, index);
    if (!entry || entry->pos < position) return 0;
  }
  return 1;
}

int mw_media_can_seek(mw_media *media, int64_t ms) {
  const AVIOContext *pb = media->format->pb;
  if (!pb || (pb->seekable & AVIO_SEEKABLE_NORMAL)) return 1;
  if (ms < 0) ms = 0;
  return reached_by_decoding_on(media, ms) || reached_by_reading_on(media, ms);
}

int mw_media_set_tempo(mw_media *media, int hundredths) {
  if (hundredths < 25) hundredths = 25;
  if (hundredths > 10000) hundredths = 10000;
  // The samples put out so far stand for the old tempo's media time.
  media->audio_anchor = sound_time(media);
  media->audio_out = 0;
  media->tempo = hundredths;
  return media->audio ? build_sound_path(media) : 0;
}

void mw_media_interrupt(mw_media *media, int on) { atomic_store(&media->interrupted, on); }

void mw_media_close(mw_media *media) {
  if (!media) return;
  drop_held(media);
  free_sound_path(media);
  free(media->converted);
  avcodec_free_context(&media->video);
  avcodec_free_context(&media->audio);
  if (media->format) avformat_close_input(&media->format);
  av_packet_free(&media->packet);
  av_frame_free(&media->frame);
  av_frame_free(&media->before);
  av_frame_free(&media->after);
  av_frame_free(&media->sound);
  av_frame_free(&media->filtered);
  sws_freeContext(media->scaler);
  av_free(media->rgba);
  free(media);
}

/// PulseAudio through its asynchronous API, on a threaded main loop: a stream that can be corked.
/// (The simple API's stream can only be freed, and a stream opened again after a pause waited for
/// the sink: on an idle null sink, up to its 2-s block, 0.7–1.7 s measured, where mpv, which
/// corks, went on in 50–80 ms.) Timing is asked for after each write, not on libpulse's timer,
/// which runs on while corked: a corked stream wakes nothing in this process.
typedef struct {
  pa_threaded_mainloop *loop;
  pa_context *context;
  pa_stream *stream;
  int corked;
} mw_pulse;

struct mw_sound {
  // PulseAudio's stream, or, when no sound server answered at the open, ALSA's default device
  // (closed while the sound rests, see mw_sound_rest).
  mw_pulse *pulse;
  snd_pcm_t *pcm;
  char name[64];
};

enum { MW_SOUND_RATE = 48000, MW_SOUND_CHANNELS = 2, MW_SOUND_FRAME = 4 };

/// alsa-lib writes its own complaints to stderr (a missing card's config lines); the reason
/// returned says what matters.
static void mw_alsa_quiet(const char *file, int line, const char *function, int err,
                          const char *format, ...) {
  (void)file, (void)line, (void)function, (void)err, (void)format;
}

/// ALSA's default device (`ALSA_CONFIG_PATH` and `~/.asoundrc` choose it, as for any ALSA
/// program), with about 100 ms of buffer as the PulseAudio stream has; NULL when it cannot play.
static snd_pcm_t *mw_alsa_open(void) {
  snd_lib_error_set_handler(mw_alsa_quiet);
  snd_pcm_t *pcm = NULL;
  int err = snd_pcm_open(&pcm, "default", SND_PCM_STREAM_PLAYBACK, 0);
  if (err >= 0) {
    err = snd_pcm_set_params(pcm, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED,
                             MW_SOUND_CHANNELS, MW_SOUND_RATE, 1, 100000);
    if (err < 0) {
      snd_pcm_close(pcm);
      pcm = NULL;
    }
  }
  return pcm;
}

static void mw_pulse_signal(void *loop) { pa_threaded_mainloop_signal(loop, 0); }
static void mw_pulse_context_changed(pa_context *context, void *loop) {
  (void)context;
  mw_pulse_signal(loop);
}
static void mw_pulse_stream_changed(pa_stream *stream, void *loop) {
  (void)stream;
  mw_pulse_signal(loop);
}
static void mw_pulse_writable(pa_stream *stream, size_t bytes, void *loop) {
  (void)stream, (void)bytes;
  mw_pulse_signal(loop);
}
static void mw_pulse_done(pa_stream *stream, int success, void *loop) {
  (void)stream, (void)success;
  mw_pulse_signal(loop);
}

/// Whether the stream (and its context) can still play (the loop's lock held).
static int mw_pulse_good(const mw_pulse *pulse) {
  return pa_context_get_state(pulse->context) == PA_CONTEXT_READY &&
         pa_stream_get_state(pulse->stream) == PA_STREAM_READY;
}

/// Waits for `operation` to end, or for the stream to fail (the loop's lock held).
static void mw_pulse_await(mw_pulse *pulse, pa_operation *operation) {
  if (!operation) return;
  while (pa_operation_get_state(operation) == PA_OPERATION_RUNNING && mw_pulse_good(pulse))
    pa_threaded_mainloop_wait(pulse->loop);
  pa_operation_unref(operation);
}

static void mw_pulse_free(mw_pulse *pulse) {
  if (!pulse) return;
  if (pulse->loop) pa_threaded_mainloop_stop(pulse->loop);
  if (pulse->stream) {
    pa_stream_disconnect(pulse->stream);
    pa_stream_unref(pulse->stream);
  }
  if (pulse->context) {
    pa_context_disconnect(pulse->context);
    pa_context_unref(pulse->context);
  }
  if (pulse->loop) pa_threaded_mainloop_free(pulse->loop);
  free(pulse);
}

/// A playback stream on the sound server; NULL when none answers.
static mw_pulse *mw_pulse_open(const char *name) {
  pa_sample_spec spec = {
      .format = PA_SAMPLE_S16LE, .rate = MW_SOUND_RATE, .channels = MW_SOUND_CHANNELS};
  // About 100 ms queued: a pause or seek is heard at once, and a busy moment does not starve.
  pa_buffer_attr attributes = {
      .maxlength = (uint32_t)-1,
      .tlength = (uint32_t)pa_usec_to_bytes(100000, &spec),
      .prebuf = (uint32_t)-1,
      .minreq = (uint32_t)pa_usec_to_bytes(20000, &spec),
      .fragsize = (uint32_t)-1,
  };
  mw_pulse *pulse = calloc(1, sizeof *pulse);
  if (!pulse) return NULL;
  pulse->loop = pa_threaded_mainloop_new();
  if (!pulse->loop) goto fail;
  pulse->context = pa_context_new(pa_threaded_mainloop_get_api(pulse->loop), name);
  if (!pulse->context) goto fail;
  pa_context_set_state_callback(pulse->context, mw_pulse_context_changed, pulse->loop);
  // As pa_simple_new connects: the server the environment and client.conf name.
  if (pa_context_connect(pulse->context, NULL, PA_CONTEXT_NOFLAGS, NULL) < 0) goto fail;
  pa_threaded_mainloop_lock(pulse->loop);
  if (pa_threaded_mainloop_start(pulse->loop) < 0) goto unlock;
  for (;;) {
    pa_context_state_t state = pa_context_get_state(pulse->context);
    if (state == PA_CONTEXT_READY) break;
    if (!PA_CONTEXT_IS_GOOD(state)) goto unlock;
    pa_threaded_mainloop_wait(pulse->loop);
  }
  pulse->stream = pa_stream_new(pulse->context, "class", &spec, NULL);
  if (!pulse->stream) goto unlock;
  pa_stream_set_state_callback(pulse->stream, mw_pulse_stream_changed, pulse->loop);
  pa_stream_set_write_callback(pulse->stream, mw_pulse_writable, pulse->loop);
  // Not PA_STREAM_AUTO_TIMING_UPDATE: its timer goes on while the stream is corked.
  if (pa_stream_connect_playback(pulse->stream, NULL, &attributes,
                                 PA_STREAM_INTERPOLATE_TIMING | PA_STREAM_ADJUST_LATENCY, NULL,
                                 NULL) < 0)
    goto unlock;
  for (;;) {
    pa_stream_state_t state = pa_stream_get_state(pulse->stream);
    if (state == PA_STREAM_READY) break;
    if (!PA_STREAM_IS_GOOD(state)) goto unlock;
    pa_threaded_mainloop_wait(pulse->loop);
  }
  pa_threaded_mainloop_unlock(pulse->loop);
  return pulse;
unlock:
  pa_threaded_mainloop_unlock(pulse->loop);
fail:
  mw_pulse_free(pulse);
  return NULL;
}

/// Queues all the bytes, waiting for room as pa_simple_write does; -1 when the stream failed.
static int mw_pulse_write(mw_pulse *pulse, const uint8_t *data, size_t bytes) {
  pa_threaded_mainloop_lock(pulse->loop);
  if (pulse->corked && mw_pulse_good(pulse)) {
    mw_pulse_await(pulse, pa_stream_cork(pulse->stream, 0, mw_pulse_done, pulse->loop));
    pulse->corked = 0;
  }
  while (bytes > 0) {
    size_t room;
    while (mw_pulse_good(pulse) && (room = pa_stream_writable_size(pulse->stream)) == 0)
      pa_threaded_mainloop_wait(pulse->loop);
    if (!mw_pulse_good(pulse) || room == (size_t)-1) {
      pa_threaded_mainloop_unlock(pulse->loop);
      return -1;
    }
    size_t now = room < bytes ? room : bytes;
    if (pa_stream_write(pulse->stream, data, now, NULL, 0, PA_SEEK_RELATIVE) < 0) {
      pa_threaded_mainloop_unlock(pulse->loop);
      return -1;
    }
    data += now;
    bytes -= now;
  }
  // What is heard, learnt again from the server for the next latency read.
  pa_operation *update = pa_stream_update_timing_info(pulse->stream, NULL, NULL);
  if (update) pa_operation_unref(update);
  pa_threaded_mainloop_unlock(pulse->loop);
  return 0;
}

mw_sound *mw_sound_open(const char *name, char *reason, int reason_size) {
  mw_pulse *pulse = mw_pulse_open(name);
  snd_pcm_t *pcm = NULL;
  if (!pulse) {
    pcm = mw_alsa_open();
    if (!pcm) {
      snprintf(reason, reason_size, "no server or device");
      return NULL;
    }
  }
  mw_sound *sound = calloc(1, sizeof *sound);
  sound->pulse = pulse;
  sound->pcm = pcm;
  snprintf(sound->name, sizeof sound->name, "%s", name);
  return sound;
}

int mw_sound_write(mw_sound *sound, const void *data, size_t bytes) {
  if (sound->pulse) return mw_pulse_write(sound->pulse, data, bytes);
  // ALSA's device, opened again if it rested.
  if (!sound->pcm && !(sound->pcm = mw_alsa_open())) return -1;
  const char *next = data;
  snd_pcm_uframes_t left = bytes / MW_SOUND_FRAME;
  while (left > 0) {
    snd_pcm_sframes_t written = snd_pcm_writei(sound->pcm, next, left);
    if (written < 0) {
      // An underrun (the decoder was late) or a suspend: start again where it stopped.
      if (snd_pcm_recover(sound->pcm, (int)written, 1) < 0) return -1;
      continue;
    }
    next += written * MW_SOUND_FRAME;
    left -= (snd_pcm_uframes_t)written;
  }
  return 0;
}

int64_t mw_sound_latency_us(mw_sound *sound) {
  if (sound->pulse) {
    mw_pulse *pulse = sound->pulse;
    pa_usec_t latency = 0;
    int negative = 0;
    pa_threaded_mainloop_lock(pulse->loop);
    // No timing yet (PA_ERR_NODATA): 0, as pa_simple_get_latency then says.
    int failed = pa_stream_get_latency(pulse->stream, &latency, &negative) < 0;
    pa_threaded_mainloop_unlock(pulse->loop);
    return failed ? 0 : negative ? -(int64_t)latency : (int64_t)latency;
  }
  snd_pcm_sframes_t queued = 0;
  if (!sound->pcm || snd_pcm_delay(sound->pcm, &queued) < 0 || queued < 0) return 0;
  return (int64_t)queued * 1000000 / MW_SOUND_RATE;
}

void mw_sound_flush(mw_sound *sound) {
  if (sound->pulse) {
    mw_pulse *pulse = sound->pulse;
    pa_threaded_mainloop_lock(pulse->loop);
    if (mw_pulse_good(pulse))
      mw_pulse_await(pulse, pa_stream_flush(pulse->stream, mw_pulse_done, pulse->loop));
    pa_threaded_mainloop_unlock(pulse->loop);
    return;
  }
  if (!sound->pcm) return;
  snd_pcm_drop(sound->pcm);
  snd_pcm_prepare(sound->pcm);
}

void mw_sound_rest(mw_sound *sound) {
  if (sound->pulse) {
    // Corked, what is queued dropped: the server keeps the stream, and the next write uncorks
    // it. (A corked stream does not keep its sink from suspending when idle: after a long
    // pause a real card takes its own time to resume, for mpv too.)
    mw_pulse *pulse = sound->pulse;
    pa_threaded_mainloop_lock(pulse->loop);
    if (!pulse->corked && mw_pulse_good(pulse)) {
      mw_pulse_await(pulse, pa_stream_cork(pulse->stream, 1, mw_pulse_done, pulse->loop));
      mw_pulse_await(pulse, pa_stream_flush(pulse->stream, mw_pulse_done, pulse->loop));
      pulse->corked = 1;
    }
    pa_threaded_mainloop_unlock(pulse->loop);
    return;
  }
  if (sound->pcm) snd_pcm_close(sound->pcm);
  sound->pcm = NULL;
}

int mw_sound_rest_keeps(const mw_sound *sound) { return sound->pulse != NULL; }

void mw_sound_close(mw_sound *sound) {
  if (!sound) return;
  mw_pulse_free(sound->pulse);
  if (sound->pcm) snd_pcm_close(sound->pcm);
  free(sound);
}

#include <sys/eventfd.h>
int mw_wake_create(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>
int mw_die_with_parent(void) {
  pid_t parent = getppid();
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) return -1;
  // The parent may have gone before the call.
  return getppid() == parent ? 0 : -1;
}
