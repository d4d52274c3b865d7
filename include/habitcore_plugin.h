/*
 * habitcore_plugin.h: what a proof verifier plugin exports, and what the host
 * gives it. A plugin includes only this header and never links against
 * libhabitcore: everything it may call comes through hc_host_services.
 *
 * A shared-object plugin exports one data symbol, HC_PLUGIN_ENTRY_SYMBOL
 * ("hc_plugin_entry"), an hc_plugin whose first field is HC_PLUGIN_ABI_VERSION.
 * The host reads that field before it calls anything, loads plugins with
 * RTLD_NOW | RTLD_LOCAL and never unloads them. Structs only grow at the end;
 * each starts with its size or version so either side can tell.
 *
 * Callbacks, in both directions, take their payload last, as void *user_data:
 * the host's in hc_host_services.user_data, the plugin's from its init.
 *
 * Threads: the host calls verify from one thread at a time per plugin.
 */
#ifndef HABITCORE_PLUGIN_H
#define HABITCORE_PLUGIN_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 1: habitcore 0.x. 2: habitcore 1.0 (HC_OUTCOME_* names, named log levels,
 * user_data last, destroy). A host refuses a plugin of another version, naming both. */
#define HC_PLUGIN_ABI_VERSION 2u
#define HC_PLUGIN_ENTRY_SYMBOL "hc_plugin_entry"

/* Outcomes of verdicts, decisions and reviews (habitcore.h uses the same). */
#define HC_OUTCOME_APPROVED 1 /* the proof holds: the day's completion is appended */
#define HC_OUTCOME_REJECTED 2 /* the proof does not hold */
#define HC_OUTCOME_NEEDS_REVIEW 3 /* a person decides (hc_proof_review) */
#define HC_OUTCOME_ERROR 4 /* a verifier failed to judge */

/* The evidence to judge. Borrowed: valid during the call only. */
typedef struct hc_plugin_evidence {
    uint32_t struct_size;
    int32_t reserved;           /* 0 */
    const char *path;           /* a file holding the bytes */
    const uint8_t *bytes;       /* the same bytes in memory */
    int64_t size;
    const char *media_type;     /* "image/jpeg", "image/png", ... */
    const char *sha256;         /* 64 lowercase hex digits */
    int64_t taken_at_ms;        /* what the caller says (UTC ms); 0 when unknown */
    int64_t received_at_ms;     /* when the host received it (UTC ms) */
    int64_t habit_id;
    const char *habit_name;
    const char *metadata_json;  /* the caller's metadata as a JSON object, or NULL */
    /* Since habitcore 0.2: present when struct_size reaches past them
     * (HC_PLUGIN_HAS_FIELD(evidence, session)). */
    int64_t proof_id;           /* 0 when only testing (hc_plugin_test): nothing is kept */
    int32_t day;                /* the store's day the proof counts for, days since 1970-01-01 */
    int32_t utc_offset_s;       /* the store's offset from UTC at received_at_ms, seconds east */
    int32_t day_start_minutes;  /* when the store's day begins, minutes after local midnight */
    int32_t reserved2;          /* 0 */
    const char *config_json;    /* this plugin's settings in this store (hc_plugin_configure), or NULL */
    void *session;              /* pass to the host's fingerprint services during this call */
} hc_plugin_evidence;

/* Whether a struct that starts with struct_size carries a field. */
#define HC_PLUGIN_HAS_FIELD(pointer, field) \
    ((pointer)->struct_size >= (uint32_t)((const char *)&(pointer)->field - (const char *)(pointer) + sizeof((pointer)->field)))

/* What the plugin answers: filled in place (the buffers belong to the host). */
typedef struct hc_plugin_verdict {
    uint32_t struct_size;
    int32_t outcome;        /* HC_OUTCOME_* */
    double confidence;      /* 0.0 ... 1.0 */
    char reason_code[64];   /* a short code: lowercase, digits, '_', '.', '-' */
    char message[512];      /* for people */
    char signals[512];      /* named findings, comma-separated ("exif_missing,screenshot") */
} hc_plugin_verdict;

/* Log levels for hc_host_services.log. */
#define HC_LOG_DEBUG 0
#define HC_LOG_INFO 1
#define HC_LOG_WARNING 2
#define HC_LOG_ERROR 3

/* Services the host offers. */
typedef struct hc_host_services {
    uint32_t struct_size;
    uint32_t abi_version;   /* HC_PLUGIN_ABI_VERSION of the host */
    void *user_data;        /* pass back as the last argument of every service */
    /* Writes a line to the host's log at level HC_LOG_*. */
    void (*log)(int32_t level, const char *message, void *user_data);
    /* Since habitcore 0.2 (HC_PLUGIN_HAS_FIELD(services, fingerprint_keep)): fingerprints,
     * small values (at most HC_PLUGIN_FINGERPRINT_MAX bytes) a plugin keeps with a proof
     * to recognise later evidence by, stored by the host in the store with the proof's
     * verdicts. A plugin sees only the fingerprints it kept itself (by plugin id), under
     * a kind it names (1-64 of a-z 0-9 - _ .). session is evidence->session; both
     * calls are valid only during verify and return 0, or an HC_E_* status of
     * habitcore.h (1 invalid argument, 4 store failure, 8 misuse: a stale session).
     * fingerprints_read calls visit for each fingerprint of that kind kept with the
     * store's other proofs, oldest first, passing visit_user_data back; the bytes are
     * borrowed for the visit; a visit returning non-zero stops the walk (the call then
     * returns 0). */
    int32_t (*fingerprints_read)(void *session, const char *kind,
                                 int32_t (*visit)(int64_t proof_id, const uint8_t *bytes, int64_t size, void *visit_user_data),
                                 void *visit_user_data, void *user_data);
    /* Keeps a fingerprint with this proof (kept only if the proof is recorded: not
     * when testing). At most 16 per proof and plugin. */
    int32_t (*fingerprint_keep)(void *session, const char *kind, const uint8_t *bytes, int64_t size, void *user_data);
} hc_host_services;

#define HC_PLUGIN_FINGERPRINT_MAX 4096

/* The one symbol a shared-object plugin exports. */
typedef struct hc_plugin {
    uint32_t abi_version;     /* HC_PLUGIN_ABI_VERSION: read before anything else */
    uint32_t reserved;        /* 0 */
    const char *id;           /* 1-64 of a-z 0-9 - _ . ; names the verifier in policies */
    const char *version;      /* the plugin's own version, kept with each verdict */
    const char *description;
    /* Called once, after loading, before any verify; may be NULL. What it stores in
     * *out_user_data is passed to verify and destroy. host (and its table) lives as
     * long as the process. Returns 0 on success; anything else refuses the plugin
     * (destroy is not called then). */
    int32_t (*init)(const hc_host_services *host, void **out_user_data);
    /* Judges one piece of evidence into *out (struct_size set, outcome
     * HC_OUTCOME_ERROR and empty strings on entry): the same shape as a verifier
     * callback (hc_verify_callback). Returns 0; anything else makes the verdict an error. */
    int32_t (*verify)(const hc_plugin_evidence *evidence, hc_plugin_verdict *out, void *user_data);
    /* Releases what init made, once, when a host is done with the plugin before its
     * process ends (a host that refuses the plugin after init; a helper process that
     * ran it); may be NULL. A host that keeps the plugin until it exits lets the
     * process end release it. No other call follows destroy. */
    void (*destroy)(void *user_data);
} hc_plugin;

#ifdef __cplusplus
}
#endif

#endif /* HABITCORE_PLUGIN_H */
