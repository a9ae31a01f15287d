// libpng under setjmp: any error inside the library longjmps back to `decode`, which returns a
// status; `mwi_png_run` (which owns every allocation) then frees what was made.

#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/// Everything that must survive a longjmp lives here, in the frame of `mwi_png_run`, which does
/// not call setjmp itself: its contents stay well defined after the jump.
typedef struct {
  const uint8_t *data;
  size_t size;
  size_t offset;
  mwi_status status;  // what a longjmp reports (set before png_error where it is not DAMAGED)
  char *message;
  uint64_t max_pixels;
  int size_checked;
  mwi_header *header;
  png_structp png;
  png_infop info;
  uint8_t *pixels;
  png_bytep *rows;
} png_job;

/// Refuses an image over the pixel limit as soon as its IHDR (always the first chunk) has been
/// read: before any other chunk, and so also for a file that holds nothing else.
static void check_size(png_structp png, png_job *job) {
  png_uint_32 width = png_get_image_width(png, job->info);
  png_uint_32 height = png_get_image_height(png, job->info);
  if (job->size_checked || width == 0) return;
  job->size_checked = 1;
  job->header->format = MWI_FORMAT_PNG;
  job->header->width = width;
  job->header->height = height;
  if ((uint64_t)width * height > job->max_pixels) {
    mwi_too_large_message(job->message, width, height, job->max_pixels);
    job->status = MWI_TOO_LARGE;
    png_error(png, "too large");
  }
}

static void read_bytes(png_structp png, png_bytep out, size_t length) {
  png_job *job = png_get_io_ptr(png);
  check_size(png, job);
  if (length > job->size - job->offset) {
    job->status = MWI_TRUNCATED;
    png_error(png, "the file ends before the image does");
  }
  memcpy(out, job->data + job->offset, length);
  job->offset += length;
}

static void on_error(png_structp png, png_const_charp text) {
  png_job *job = png_get_error_ptr(png);
  if (job->status == MWI_TOO_LARGE) png_longjmp(png, 1);  // the message is written already
  if (job->status == MWI_OK) job->status = MWI_DAMAGED;
  snprintf(job->message, MWI_MESSAGE_SIZE, "PNG: %s", text);
  png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp text) {
  (void)png;
  (void)text;  // warnings (bad ancillary chunks) do not stop a picture from showing
}

static mwi_status decode(png_job *job, int header_only, mwi_image *image) {
  if (setjmp(png_jmpbuf(job->png))) return job->status;
  png_structp png = job->png;
  png_infop info = job->info;
  png_set_read_fn(png, job, read_bytes);
  png_read_info(png, info);
  check_size(png, job);  // done already, unless the IHDR was the last thing read
  if (header_only) return MWI_OK;
  png_uint_32 width = png_get_image_width(png, info);
  png_uint_32 height = png_get_image_height(png, info);

  int color_type = png_get_color_type(png, info);
  png_set_expand(png);  // palette -> RGB, grey below 8 bits -> 8 bits, tRNS -> alpha
  png_set_strip_16(png);
  png_set_gray_to_rgb(png);
  if (!(color_type & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, info, PNG_INFO_tRNS))
    png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
  png_set_interlace_handling(png);
  png_read_update_info(png, info);
  if (png_get_rowbytes(png, info) != (size_t)width * 4) {
    snprintf(job->message, MWI_MESSAGE_SIZE, "PNG: a pixel layout that does not convert to RGBA");
    return MWI_UNSUPPORTED;
  }
  job->pixels = malloc((size_t)width * height * 4);
  job->rows = malloc(sizeof(png_bytep) * height);
  if (job->pixels == NULL || job->rows == NULL) {
    snprintf(job->message, MWI_MESSAGE_SIZE, "PNG: no memory for %ux%u pixels", width, height);
    return MWI_NO_MEMORY;
  }
  for (png_uint_32 row = 0; row < height; row++)
    job->rows[row] = job->pixels + (size_t)row * width * 4;
  // Reads every pass of an interlaced image; chunks after the image data are not needed.
  png_read_image(png, job->rows);
  image->width = image->source_width = width;
  image->height = image->source_height = height;
  image->scale_denominator = 1;
  return MWI_OK;
}

mwi_status mwi_png_run(const uint8_t *data, size_t size, int header_only, uint64_t max_pixels,
                       mwi_header *header, mwi_image *image, char *message) {
  png_job job;
  memset(&job, 0, sizeof job);
  job.data = data;
  job.size = size;
  job.message = message;
  job.max_pixels = max_pixels;
  job.header = header;
  job.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &job, on_error, on_warning);
  if (job.png != NULL) job.info = png_create_info_struct(job.png);
  if (job.png == NULL || job.info == NULL) {
    png_destroy_read_struct(&job.png, NULL, NULL);
    snprintf(message, MWI_MESSAGE_SIZE, "PNG: no memory for the decoder");
    return MWI_NO_MEMORY;
  }
  mwi_status status = decode(&job, header_only, image);
  png_destroy_read_struct(&job.png, &job.info, NULL);
  free(job.rows);
  if (status == MWI_OK && !header_only) {
    image->pixels = job.pixels;
  } else {
    free(job.pixels);
  }
  return status;
}
