#ifndef PROOFCHECK_ENTRY_H
#define PROOFCHECK_ENTRY_H

#include "habitcore_plugin.h"

#define PROOFCHECK_VERSION "0.3.0" /* released with habitcore */

/* Implemented in Swift (Sources/Proofcheck/Plugin.swift). */
int32_t proofcheck_init(const hc_host_services *host, void **state);
int32_t proofcheck_verify(void *state, const hc_plugin_evidence *evidence, hc_plugin_verdict *out);

extern const hc_plugin hc_plugin_entry;

#endif
