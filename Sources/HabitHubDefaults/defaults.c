/* The hub header's HC_HUB_*_INIT macros as hc_hub_<struct>_init functions, as
 * Sources/HabitCoreDefaults does for habitcore.h: each default is written once, in
 * include/habitcore_hub.h. C, because Swift cannot expand these macros. */
#include <stddef.h>
#include <string.h>

#include "habitcore_hub.h"

/* Records the thread's error message (Sources/HabitHubABI/HubErrors.swift); not exported. */
int32_t habitcore_hub_internal_fail(int32_t status, const char *message);

/* Copies defaults into the caller's struct_size bytes; bytes past what this library
 * knows are a newer caller's fields: zeroed. */
static int32_t fill(const char *function, void *out, uint32_t struct_size, const void *defaults, size_t known,
                    size_t first_release) {
    if (out == NULL) return habitcore_hub_internal_fail(HC_E_INVALID, function);
    if (struct_size < first_release) return habitcore_hub_internal_fail(HC_E_INVALID, function);
    memset(out, 0, struct_size);
    memcpy(out, defaults, struct_size < known ? struct_size : known);
    memcpy(out, &struct_size, sizeof struct_size);
    return HC_OK;
}

#define HC_HUB_DEFINE_INIT(type, macro, first_release)                                           \
    int32_t type##_init(type *out, uint32_t struct_size) {                                       \
        static const type defaults = macro;                                                      \
        return fill(#type "_init: out is NULL or struct_size is below the struct's first size", \
                    out, struct_size, &defaults, sizeof defaults, first_release);                \
    }

HC_HUB_DEFINE_INIT(hc_hub_sync_options, HC_HUB_SYNC_OPTIONS_INIT, sizeof(hc_hub_sync_options))
HC_HUB_DEFINE_INIT(hc_hub_sync_summary, HC_HUB_SYNC_SUMMARY_INIT, sizeof(hc_hub_sync_summary))
HC_HUB_DEFINE_INIT(hc_hub_status, HC_HUB_STATUS_INIT, sizeof(hc_hub_status))
