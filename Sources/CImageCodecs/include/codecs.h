#ifndef MYWORKOUT_CIMAGECODECS_CODECS_H
#define MYWORKOUT_CIMAGECODECS_CODECS_H

// A thin wrapper over libpng and libjpeg(-turbo). Both libraries report errors by longjmp,
// which Swift cannot set up; these functions call them under setjmp and return a status code
// and a message instead. Every function is safe on any input: damaged, truncated, empty or
// random bytes give a status, never a crash.

#include <stddef.h>
#include <stdint.h>

typedef enum {
  MWI_OK = 0,
  MWI_EMPTY = 1,        // no bytes at all
  MWI_NOT_IMAGE = 2,    // neither a PNG nor a JPEG signature
  MWI_DAMAGED = 3,      // the library refused the data (the message says why)
  MWI_TRUNCATED = 4,    // the data ended before the image did
  MWI_TOO_LARGE = 5,    // the header claims more pixels than allowed (nothing was decoded)
  MWI_UNSUPPORTED = 6,  // a valid image of a kind this wrapper does not convert
  MWI_NO_MEMORY = 7,    // the pixel buffer could not be allocated
} mwi_status;

typedef enum {
  MWI_FORMAT_UNKNOWN = 0,
  MWI_FORMAT_PNG = 1,
  MWI_FORMAT_JPEG = 2,
} mwi_format;

#define MWI_MESSAGE_SIZE 200

/// What a header says: the format and the full size in pixels.
typedef struct {
  mwi_format format;
  uint32_t width;
  uint32_t height;
} mwi_header;

/// A decoded picture: `width * height` pixels, 4 bytes each (R, G, B, A; straight alpha),
/// row after row. `pixels` is allocated with malloc; free it with `mwi_image_free`.
typedef struct {
  uint8_t *pixels;
  uint32_t width;
  uint32_t height;
  /// The size the header declares (for a JPEG decoded at reduced scale, larger than width/height).
  uint32_t source_width;
  uint32_t source_height;
  /// The JPEG scale used: the image was decoded at 1/scale_denominator (1 for a PNG).
  uint32_t scale_denominator;
} mwi_image;

/// The format by signature alone (the first bytes).
mwi_format mwi_detect(const uint8_t *data, size_t size);

/// Reads only the header. `message` (MWI_MESSAGE_SIZE bytes) receives the reason on failure.
mwi_status mwi_read_header(const uint8_t *data, size_t size, mwi_header *header, char *message);

/// Decodes to 8-bit RGBA. An image whose header claims more than `max_pixels` pixels is refused
/// with MWI_TOO_LARGE before anything is decoded. A JPEG is decoded at 1/2, 1/4 or 1/8 scale
/// when the result, fitted (aspect kept) into `min_width` x `min_height`, would lose nothing:
/// the largest reduction whose result still covers the box on at least one axis. 0 x 0 means
/// full size. On failure `image->pixels` is NULL, `message` says why, and `source_width` and
/// `source_height` hold the header's size if it was read (as for MWI_TOO_LARGE), else 0.
mwi_status mwi_decode(const uint8_t *data, size_t size, uint32_t min_width, uint32_t min_height,
                      uint64_t max_pixels, mwi_image *image, char *message);

/// Frees the pixels of a decoded image (safe on a failed or freed one).
void mwi_image_free(mwi_image *image);

#endif
