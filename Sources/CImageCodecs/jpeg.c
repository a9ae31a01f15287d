// libjpeg(-turbo) under setjmp: the error handler longjmps back to `decode`, which returns a
// status; `mwi_jpeg_run` (which owns every allocation) then frees what was made.

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

#include "internal.h"

/// A bit-flipped progressive file can hold thousands of tiny scans that take minutes to
/// decode; real encoders write about ten. djpeg's -maxscans guards against the same.
enum { MAX_SCANS = 500 };

/// Everything that must survive a longjmp lives here, in the frame of `mwi_jpeg_run`, which
/// does not call setjmp itself: its contents stay well defined after the jump.
typedef struct {
  struct jpeg_error_mgr errors;  // first, so that cinfo->err can be cast back to the job
  struct jpeg_progress_mgr progress;
  struct jpeg_decompress_struct cinfo;
  jmp_buf jump;
  mwi_status status;  // what a longjmp reports (set before the jump where it is not DAMAGED)
  char *message;
  int created;
  uint8_t *pixels;
} jpeg_job;

static void on_error(j_common_ptr cinfo) {
  jpeg_job *job = (jpeg_job *)cinfo->err;
  char text[JMSG_LENGTH_MAX];
  job->errors.format_message(cinfo, text);
  if (job->status == MWI_OK) job->status = MWI_DAMAGED;
  snprintf(job->message, MWI_MESSAGE_SIZE, "JPEG: %s", text);
  longjmp(job->jump, 1);
}

/// Warnings (corrupt data the library can step over) are silent, except the end of the data
/// before the end of the image: the library would fill the rest with grey; we call it truncated.
static void on_message(j_common_ptr cinfo, int level) {
  jpeg_job *job = (jpeg_job *)cinfo->err;
  if (level >= 0) return;
  job->errors.num_warnings++;
  if (job->errors.msg_code == JWRN_JPEG_EOF) {
    job->status = MWI_TRUNCATED;
    on_error(cinfo);
  }
}

static void on_progress(j_common_ptr cinfo) {
  jpeg_job *job = (jpeg_job *)cinfo->err;
  if (job->cinfo.input_scan_number > MAX_SCANS) {
    job->status = MWI_DAMAGED;
    snprintf(job->message, MWI_MESSAGE_SIZE, "JPEG: more than %d scans", MAX_SCANS);
    longjmp(job->jump, 1);
  }
}

/// The largest reduction (8, 4, 2, else 1) after which the image still covers the box on at
/// least one axis, so that fitting it into the box never enlarges it. 0 in the box: full size.
static unsigned int scale_denominator(uint32_t width, uint32_t height, uint32_t min_width,
                                      uint32_t min_height) {
  if (min_width == 0 || min_height == 0) return 1;
  for (unsigned int denominator = 8; denominator > 1; denominator /= 2) {
    if ((uint64_t)width >= (uint64_t)min_width * denominator ||
        (uint64_t)height >= (uint64_t)min_height * denominator)
      return denominator;
  }
  return 1;
}

/// CMYK as 4 bytes per pixel, in place, to RGBA. Adobe's files (with an APP14 marker, as
/// Photoshop writes them) store the inks inverted.
static void cmyk_to_rgba(uint8_t *pixels, size_t count, int inverted) {
  for (size_t i = 0; i < count; i++) {
    uint8_t *p = pixels + i * 4;
    unsigned int c = inverted ? p[0] : 255u - p[0];
    unsigned int m = inverted ? p[1] : 255u - p[1];
    unsigned int y = inverted ? p[2] : 255u - p[2];
    unsigned int k = inverted ? p[3] : 255u - p[3];
    p[0] = (uint8_t)((c * k + 127) / 255);
    p[1] = (uint8_t)((m * k + 127) / 255);
    p[2] = (uint8_t)((y * k + 127) / 255);
    p[3] = 255;
  }
}

static mwi_status decode(jpeg_job *job, const uint8_t *data, size_t size, int header_only,
                         uint32_t min_width, uint32_t min_height, uint64_t max_pixels,
                         mwi_header *header, mwi_image *image) {
  if (setjmp(job->jump)) return job->status;
  j_decompress_ptr cinfo = &job->cinfo;
  jpeg_create_decompress(cinfo);
  job->created = 1;
  job->progress.progress_monitor = on_progress;
  cinfo->progress = &job->progress;
  jpeg_mem_src(cinfo, data, (unsigned long)size);
  jpeg_read_header(cinfo, TRUE);
  header->format = MWI_FORMAT_JPEG;
  header->width = cinfo->image_width;
  header->height = cinfo->image_height;
  if ((uint64_t)cinfo->image_width * cinfo->image_height > max_pixels) {
    mwi_too_large_message(job->message, cinfo->image_width, cinfo->image_height, max_pixels);
    return MWI_TOO_LARGE;
  }
  if (header_only) return MWI_OK;

  int cmyk = 0;
  switch (cinfo->jpeg_color_space) {
  case JCS_GRAYSCALE:
  case JCS_YCbCr:
  case JCS_RGB:
    cinfo->out_color_space = JCS_EXT_RGBA;
    break;
  case JCS_CMYK:
  case JCS_YCCK:
    cinfo->out_color_space = JCS_CMYK;  // the library turns YCCK into CMYK; we do the rest
    cmyk = 1;
    break;
  default:
    snprintf(job->message, MWI_MESSAGE_SIZE, "JPEG: colour space %d is not supported",
             (int)cinfo->jpeg_color_space);
    return MWI_UNSUPPORTED;
  }
  cinfo->scale_num = 1;
  cinfo->scale_denom =
      scale_denominator(cinfo->image_width, cinfo->image_height, min_width, min_height);
  jpeg_start_decompress(cinfo);
  uint32_t width = cinfo->output_width;
  uint32_t height = cinfo->output_height;
  if (cinfo->output_components != 4) {
    snprintf(job->message, MWI_MESSAGE_SIZE, "JPEG: %d components after conversion",
             cinfo->output_components);
    return MWI_UNSUPPORTED;
  }
  job->pixels = malloc((size_t)width * height * 4);
  if (job->pixels == NULL) {
    snprintf(job->message, MWI_MESSAGE_SIZE, "JPEG: no memory for %ux%u pixels", width, height);
    return MWI_NO_MEMORY;
  }
  while (cinfo->output_scanline < height) {
    JSAMPROW row = job->pixels + (size_t)cinfo->output_scanline * width * 4;
    jpeg_read_scanlines(cinfo, &row, 1);
  }
  // Not jpeg_finish_decompress: every pixel has arrived, and what follows (the end marker)
  // is not needed to show them.
  if (cmyk) cmyk_to_rgba(job->pixels, (size_t)width * height, cinfo->saw_Adobe_marker);
  image->width = width;
  image->height = height;
  image->source_width = cinfo->image_width;
  image->source_height = cinfo->image_height;
  image->scale_denominator = cinfo->scale_denom;
  return MWI_OK;
}

mwi_status mwi_jpeg_run(const uint8_t *data, size_t size, int header_only, uint32_t min_width,
                        uint32_t min_height, uint64_t max_pixels, mwi_header *header,
                        mwi_image *image, char *message) {
  jpeg_job *job = calloc(1, sizeof *job);
  if (job == NULL) {
    snprintf(message, MWI_MESSAGE_SIZE, "JPEG: no memory for the decoder");
    return MWI_NO_MEMORY;
  }
  job->message = message;
  job->cinfo.err = jpeg_std_error(&job->errors);
  job->errors.error_exit = on_error;
  job->errors.emit_message = on_message;
  mwi_status status =
      decode(job, data, size, header_only, min_width, min_height, max_pixels, header, image);
  if (job->created) jpeg_destroy_decompress(&job->cinfo);
  if (status == MWI_OK && !header_only) {
    image->pixels = job->pixels;
  } else {
    free(job->pixels);
  }
  free(job);
  return status;
}
