/* The hub header's HC_HUB_*_INIT macros as hc_hub_<struct>_init functions, as
 * Sources/HabitCoreDefaults does for habitcore.h: each default is written once, in
 * include/habitcore_hub.h. C, because Swift cannot expand these macros. */
#include <stddef.h>

#include "habitcore_hub.h"

/* Records the thread's error message (Sources/HabitHubABI/HubErrors.swift); not exported. */
int32_t habitcore_hub_internal_fail(int32_t status, const char *message);

#define HC_DEFAULTS_FAIL habitcore_hub_internal_fail
#include "struct_defaults.h"

HC_DEFINE_INIT(hc_hub_sync_options, HC_HUB_SYNC_OPTIONS_INIT, sizeof(hc_hub_sync_options))
HC_DEFINE_INIT(hc_hub_sync_summary, HC_HUB_SYNC_SUMMARY_INIT, sizeof(hc_hub_sync_summary))
HC_DEFINE_INIT(hc_hub_status, HC_HUB_STATUS_INIT, sizeof(hc_hub_status))
