#ifndef MYWORKOUT_CIMAGECODECS_INTERNAL_H
#define MYWORKOUT_CIMAGECODECS_INTERNAL_H

// Shared between codecs.c (dispatch) and the two library wrappers; not part of the module.

#include "include/codecs.h"

/// Decodes (or, with `header_only`, reads the header of) a PNG / a JPEG. `image` and `header`
/// are filled on success; `message` gets the reason on failure.
mwi_status mwi_png_run(const uint8_t *data, size_t size, int header_only, uint64_t max_pixels,
                       mwi_header *header, mwi_image *image, char *message);
mwi_status mwi_jpeg_run(const uint8_t *data, size_t size, int header_only, uint32_t min_width,
                        uint32_t min_height, uint64_t max_pixels, mwi_header *header,
                        mwi_image *image, char *message);

/// Writes the "too large" refusal message.
void mwi_too_large_message(char *message, uint32_t width, uint32_t height, uint64_t max_pixels);

#endif
