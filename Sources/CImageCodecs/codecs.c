// Dispatch by signature to the libpng and libjpeg wrappers (png.c, jpeg.c).

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static const uint8_t png_signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

mwi_format mwi_detect(const uint8_t *data, size_t size) {
  if (data == NULL) return MWI_FORMAT_UNKNOWN;
  if (size >= sizeof png_signature && memcmp(data, png_signature, sizeof png_signature) == 0)
    return MWI_FORMAT_PNG;
  if (size >= 3 && data[0] == 0xFF && data[1] == 0xD8 && data[2] == 0xFF) return MWI_FORMAT_JPEG;
  return MWI_FORMAT_UNKNOWN;
}

void mwi_too_large_message(char *message, uint32_t width, uint32_t height, uint64_t max_pixels) {
  snprintf(message, MWI_MESSAGE_SIZE, "%ux%u is %llu pixels, over the limit of %llu", width,
           height, (unsigned long long)width * height, (unsigned long long)max_pixels);
}

static mwi_status run(const uint8_t *data, size_t size, int header_only, uint32_t min_width,
                      uint32_t min_height, uint64_t max_pixels, mwi_header *header,
                      mwi_image *image, char *message) {
  message[0] = '\0';
  if (data == NULL || size == 0) {
    snprintf(message, MWI_MESSAGE_SIZE, "the file is empty");
    return MWI_EMPTY;
  }
  switch (mwi_detect(data, size)) {
  case MWI_FORMAT_PNG:
    return mwi_png_run(data, size, header_only, max_pixels, header, image, message);
  case MWI_FORMAT_JPEG:
    return mwi_jpeg_run(data, size, header_only, min_width, min_height, max_pixels, header, image,
                        message);
  case MWI_FORMAT_UNKNOWN:
    break;
  }
  snprintf(message, MWI_MESSAGE_SIZE, "not a PNG or JPEG file");
  return MWI_NOT_IMAGE;
}

mwi_status mwi_read_header(const uint8_t *data, size_t size, mwi_header *header, char *message) {
  memset(header, 0, sizeof *header);
  return run(data, size, 1, 0, 0, UINT64_MAX, header, NULL, message);
}

mwi_status mwi_decode(const uint8_t *data, size_t size, uint32_t min_width, uint32_t min_height,
                      uint64_t max_pixels, mwi_image *image, char *message) {
  mwi_header header;
  memset(&header, 0, sizeof header);
  memset(image, 0, sizeof *image);
  mwi_status status =
      run(data, size, 0, min_width, min_height, max_pixels, &header, image, message);
  if (status != MWI_OK) {  // the header's size, when it was read (for MWI_TOO_LARGE)
    image->source_width = header.width;
    image->source_height = header.height;
  }
  return status;
}

void mwi_image_free(mwi_image *image) {
  if (image == NULL) return;
  free(image->pixels);
  image->pixels = NULL;
}
