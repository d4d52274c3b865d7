#ifndef PROOFCHECK_ENTRY_H
#define PROOFCHECK_ENTRY_H

#include "habitcore.h" /* for HC_VERSION_STRING: proofcheck is released with habitcore */

/* Implemented in Swift (Sources/Proofcheck/Plugin.swift). */
int32_t proofcheck_init(const hc_host_services *host, void **out_user_data);
int32_t proofcheck_verify(const hc_plugin_evidence *evidence, hc_plugin_verdict *out, void *user_data);
void proofcheck_destroy(void *user_data);

extern const hc_plugin hc_plugin_entry;

#endif
