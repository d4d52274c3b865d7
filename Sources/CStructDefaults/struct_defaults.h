/* struct_defaults.h: the one body of every hc_<struct>_init, shared by the two
 * libraries' defaults.c (Sources/HabitStructDefaults for habitcore.h,
 * Sources/HabitHubDefaults for habitcore_hub.h). Before including it, a file
 * includes its public header (for the HC_ codes and the structs) and defines
 * HC_DEFAULTS_FAIL as its library's error recorder:
 * int32_t HC_DEFAULTS_FAIL(int32_t status, const char *message). */
#ifndef HABITCORE_STRUCT_DEFAULTS_H
#define HABITCORE_STRUCT_DEFAULTS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifndef HC_DEFAULTS_FAIL
#error "define HC_DEFAULTS_FAIL (the library's error recorder) before including struct_defaults.h"
#endif

/* Copies defaults (known bytes: this library's sizeof) into the caller's
 * struct_size bytes. Bytes past what this library knows are a newer caller's
 * fields: zeroed. A size below the struct's first release cannot be a real one. */
static int32_t hc_fill_defaults(const char *function, void *out, uint32_t struct_size, const void *defaults,
                                size_t known, size_t first_release) {
    if (out == NULL) return HC_DEFAULTS_FAIL(HC_E_INVALID, function);
    if (struct_size < first_release) return HC_DEFAULTS_FAIL(HC_E_INVALID, function);
    memset(out, 0, struct_size);
    memcpy(out, defaults, struct_size < known ? struct_size : known);
    memcpy(out, &struct_size, sizeof struct_size); /* struct_size: the caller's */
    return HC_OK;
}

/* Defines type##_init from the header's macro. first_release: the struct's size in
 * the release that introduced it (offsetof its first later field once it grew). */
#define HC_DEFINE_INIT(type, macro, first_release)                                               \
    int32_t type##_init(type *out, uint32_t struct_size) {                                       \
        static const type defaults = macro;                                                      \
        return hc_fill_defaults(#type "_init: out is NULL or struct_size is below the struct's first size", \
                                out, struct_size, &defaults, sizeof defaults, first_release);    \
    }

#endif
