#include "jpeg_gray.h"

#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include <jpeglib.h>

/* libjpeg's error manager, extended with where to jump back to. */
typedef struct trap {
    struct jpeg_error_mgr manager;
    jmp_buf back;
    jpeg_gray_info *info;
} trap;

static void keep_message(j_common_ptr cinfo) {
    trap *t = (trap *)cinfo->err;
    char text[JMSG_LENGTH_MAX];
    t->manager.format_message(cinfo, text);
    snprintf(t->info->message, sizeof t->info->message, "%s", text);
}

/* libjpeg's default calls exit(); ours returns to the setjmp below. */
static void on_error(j_common_ptr cinfo) {
    keep_message(cinfo);
    longjmp(((trap *)cinfo->err)->back, 1);
}

/* Warnings (level < 0: corrupt data, a premature end) fail the decode, as
 * TurboJPEG's TJFLAG_STOPONWARNING did; trace messages are ignored. */
static void on_message(j_common_ptr cinfo, int level) {
    if (level < 0) on_error(cinfo);
}

static void quiet(j_common_ptr cinfo) { (void)cinfo; }

/* Points cinfo's errors at t. The setjmp stays in each caller: it must be taken
 * in the frame that is still alive when libjpeg jumps back. */
static void trap_errors(struct jpeg_decompress_struct *cinfo, trap *t, jpeg_gray_info *info) {
    memset(t, 0, sizeof *t);
    t->info = info;
    cinfo->err = jpeg_std_error(&t->manager);
    t->manager.error_exit = on_error;
    t->manager.emit_message = on_message;
    t->manager.output_message = quiet;
}

int32_t jpeg_gray_decode(const uint8_t *data, size_t size, int32_t scale_eighths, uint8_t *pixels, size_t capacity,
                         int32_t *scaled_width, int32_t *scaled_height, jpeg_gray_info *info) {
    struct jpeg_decompress_struct cinfo;
    trap t;
    memset(info, 0, sizeof *info);
    *scaled_width = 0;
    *scaled_height = 0;
    if (data == NULL || size == 0 || scale_eighths < 1 || scale_eighths > 8) {
        snprintf(info->message, sizeof info->message, "nothing to decode");
        return JPEG_GRAY_UNDECODABLE;
    }
    trap_errors(&cinfo, &t, info);
    if (setjmp(t.back)) {
        jpeg_destroy_decompress(&cinfo);
        return JPEG_GRAY_UNDECODABLE;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    info->width = (int32_t)cinfo.image_width;
    info->height = (int32_t)cinfo.image_height;
    if (cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK) {
        jpeg_destroy_decompress(&cinfo);
        return JPEG_GRAY_CMYK;
    }
    if (pixels == NULL) { /* the header was all the caller asked for */
        jpeg_destroy_decompress(&cinfo);
        return JPEG_GRAY_OK;
    }
    /* Grey output is the Y channel itself: the luma PDQ computes from RGB. */
    cinfo.out_color_space = JCS_GRAYSCALE;
    cinfo.scale_num = (unsigned int)scale_eighths;
    cinfo.scale_denom = 8;
    jpeg_calc_output_dimensions(&cinfo);
    size_t row = cinfo.output_width;
    if (cinfo.output_components != 1 || row == 0 || cinfo.output_height == 0 || row > capacity / cinfo.output_height) {
        snprintf(info->message, sizeof info->message, "scaled to %ux%u, more than the %zu bytes given",
                 cinfo.output_width, cinfo.output_height, capacity);
        jpeg_destroy_decompress(&cinfo);
        return JPEG_GRAY_BUFFER;
    }
    jpeg_start_decompress(&cinfo);
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW line = pixels + (size_t)cinfo.output_scanline * row;
        jpeg_read_scanlines(&cinfo, &line, 1);
    }
    jpeg_finish_decompress(&cinfo);
    *scaled_width = (int32_t)cinfo.output_width;
    *scaled_height = (int32_t)cinfo.output_height;
    jpeg_destroy_decompress(&cinfo);
    return JPEG_GRAY_OK;
}
