/* The one symbol libhabitcore_proofcheck.so exports: its hc_plugin, pointing at
 * the Swift functions (exported under these C names by Sources/Proofcheck). */
#include "proofcheck_entry.h"

const hc_plugin hc_plugin_entry = {
    HC_PLUGIN_ABI_VERSION,
    0,
    "proofcheck",
    HC_VERSION_STRING,
    "Reused, doctored and screenshot photos, offline: PDQ near-duplicates, EXIF capture time, "
    "screenshot, download and edit signals, decodability and size.",
    proofcheck_init,
    proofcheck_verify,
    proofcheck_destroy,
};
