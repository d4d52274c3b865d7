/* image_size.c: a shared-object verifier. It reads the image's own header (PNG
 * IHDR, or a JPEG's start-of-frame) and approves a photo of at least 64 x 64
 * pixels; anything it cannot read as an image is rejected with the reason.
 * Build: cc -shared -fPIC -I include examples/plugins/image_size.c -o image_size.so
 * Register: habitctl plugin add --so ./image_size.so */
#include <habitcore_plugin.h>
#include <stdio.h>
#include <string.h>

#define MIN_SIDE 64

static const hc_host_services *host;

static int32_t start(const hc_host_services *services, void **out_user_data) {
    if (services->abi_version != HC_PLUGIN_ABI_VERSION) return 1;
    host = services;
    *out_user_data = NULL;
    return 0;
}

static uint32_t be16(const uint8_t *p) { return (uint32_t)p[0] << 8 | p[1]; }
static uint32_t be32(const uint8_t *p) { return be16(p) << 16 | be16(p + 2); }

/* Width and height from the header; 0 when the bytes are not a PNG or JPEG we can read. */
static int dimensions(const uint8_t *b, int64_t n, uint32_t *w, uint32_t *h) {
    static const uint8_t png[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (n >= 24 && memcmp(b, png, 8) == 0 && memcmp(b + 12, "IHDR", 4) == 0) {
        *w = be32(b + 16);
        *h = be32(b + 20);
        return 1;
    }
    if (n >= 4 && b[0] == 0xFF && b[1] == 0xD8) {
        int64_t i = 2;
        while (i + 4 <= n && b[i] == 0xFF) {
            uint8_t marker = b[i + 1];
            uint32_t length = be16(b + i + 2);
            if (length < 2) return 0;
            /* SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the size. */
            if (marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC) {
                if (i + 9 > n) return 0;
                *h = be16(b + i + 5);
                *w = be16(b + i + 7);
                return 1;
            }
            i += 2 + (int64_t)length;
        }
    }
    return 0;
}

static int32_t verify(const hc_plugin_evidence *evidence, hc_plugin_verdict *out, void *user_data) {
    (void)user_data;
    uint32_t w = 0, h = 0;
    if (!evidence->bytes || !dimensions(evidence->bytes, evidence->size, &w, &h)) {
        out->outcome = HC_OUTCOME_REJECTED;
        out->confidence = 0.95;
        snprintf(out->reason_code, sizeof out->reason_code, "not_an_image");
        snprintf(out->message, sizeof out->message, "no PNG or JPEG header in %lld bytes", (long long)evidence->size);
        return 0;
    }
    if (w < MIN_SIDE || h < MIN_SIDE) {
        out->outcome = HC_OUTCOME_REJECTED;
        out->confidence = 0.9;
        snprintf(out->reason_code, sizeof out->reason_code, "too_small");
        snprintf(out->message, sizeof out->message, "%ux%u is below %dx%d", w, h, MIN_SIDE, MIN_SIDE);
        snprintf(out->signals, sizeof out->signals, "small_image");
        return 0;
    }
    out->outcome = HC_OUTCOME_APPROVED;
    out->confidence = 0.9;
    snprintf(out->reason_code, sizeof out->reason_code, "image_ok");
    snprintf(out->message, sizeof out->message, "a %ux%u image", w, h);
    if (host && host->log) host->log(HC_LOG_DEBUG, "image_size: checked one image", host->user_data);
    return 0;
}

#if defined(__GNUC__)
__attribute__((visibility("default")))
#endif
const hc_plugin hc_plugin_entry = {
    HC_PLUGIN_ABI_VERSION, 0, "image-size", "1.0.0", "approves PNG and JPEG photos of at least 64x64 pixels", start, verify, NULL,
};
