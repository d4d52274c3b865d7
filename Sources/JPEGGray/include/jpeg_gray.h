/* proofcheck's JPEG decoding through libjpeg's own API (jpeglib.h, Debian's
 * libjpeg62-turbo). C, because libjpeg reports errors by longjmp: a setjmp error
 * manager here turns every error and every warning into a return code, so a
 * corrupt file never exits the process and never unwinds through Swift frames. */
#ifndef JPEG_GRAY_H
#define JPEG_GRAY_H

#include <stddef.h>
#include <stdint.h>

#define JPEG_GRAY_OK 0
#define JPEG_GRAY_UNDECODABLE 1  /* libjpeg's own words are in message */
#define JPEG_GRAY_CMYK 2         /* CMYK or YCCK: a print file, not a phone photo */
#define JPEG_GRAY_BUFFER 3       /* the caller's buffer does not fit the scaled size */

#define JPEG_GRAY_MESSAGE_SIZE 200

typedef struct jpeg_gray_info {
    int32_t width;   /* the photo's own size */
    int32_t height;
    char message[JPEG_GRAY_MESSAGE_SIZE];
} jpeg_gray_info;

/* Reads the header into info (the photo's size); then, unless pixels is NULL,
 * decodes the luma (the JPEG's Y channel, JCS_GRAYSCALE) scaled by
 * scale_eighths/8 (1...8) in libjpeg's IDCT into pixels (capacity bytes): a
 * scaled_width x scaled_height image without padding. Any libjpeg warning
 * (corrupt or cut data) fails the decode. */
int32_t jpeg_gray_decode(const uint8_t *data, size_t size, int32_t scale_eighths, uint8_t *pixels, size_t capacity,
                         int32_t *scaled_width, int32_t *scaled_height, jpeg_gray_info *info);

#endif
