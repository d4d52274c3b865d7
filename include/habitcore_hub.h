/* habitcore_hub.h: syncing habitcore stores through a PostgreSQL hub.
 *
 * A second library, libhabitcore_hub.so (SONAME libhabitcore_hub.so.1), beside
 * libhabitcore.so: it links libpq, so apps that never use a hub never load libpq.
 * It follows habitcore.h's conventions (see docs/ABI.md in the source tree): int32_t
 * status codes (HC_OK, HC_E_*), option and result structs that start with
 * struct_size, a message per handle (hc_hub_errmsg) and per thread
 * (hc_last_error_message() is libhabitcore's; this library keeps its own:
 * hc_hub_last_error_message()), and its tags: each function's comment ends with
 * the tag line habitcore.h describes ("Tags"), @thread hub being habitcore.h's store
 * rule for a hub handle.
 *
 * The hub is a PostgreSQL schema (habitcore) that hc_hub_init creates and migrates.
 * Who may see what is enforced by PostgreSQL: a device connects as its user's own
 * role (hc_hub_user_add) and row-level security keys every row to that role; a
 * trusted server connects as a member of habitcore_service and acts for one user per
 * transaction (the act_as options). See README, "Sync hub". */
#ifndef HABITCORE_HUB_H
#define HABITCORE_HUB_H

#include "habitcore.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A connection to a hub. Opaque; open with hc_hub_open, close with hc_hub_close.
 * One handle is used by one thread at a time (calls on it are serialised by a
 * lock); several handles may be used from several threads. */
typedef struct hc_hub hc_hub;

/* Connects with a libpq connection string or URI (conninfo: "host=/run/pg
 * user=alice password=...", "postgresql://alice@hub.example/habits?sslmode=verify-full");
 * TLS, certificates and SCRAM are libpq's. *out (set to NULL on failure) is closed
 * with hc_hub_close. A failed connection is reconnected by the next call on the
 * handle. Codes: HC_E_INVALID (NULL argument), HC_E_IO (could not connect: see
 * hc_hub_last_error_message).
 * @since 1.0 @thread any @status HC_OK HC_E_INVALID HC_E_IO HC_E_NOMEM */
int32_t hc_hub_open(hc_hub **out, const char *conninfo);

/* Closes the connection and frees the handle; NULL is accepted. Codes: HC_E_MISUSE (not a
 * handle from hc_hub_open, or already closed).
 * @since 1.0 @thread release @status HC_OK HC_E_MISUSE */
int32_t hc_hub_close(hc_hub *hub);

/* The last error message on hub (library-owned, valid until the next call on it);
 * "" for a NULL or foreign handle.
 * @since 1.0 @thread hub @status none */
const char *hc_hub_errmsg(hc_hub *hub);

/* This thread's last error message from this library (library-owned, valid until
 * the thread's next call into it). Never NULL.
 * @since 1.0 @thread any @status none */
const char *hc_hub_last_error_message(void);

/* Admin (a superuser): creates or migrates the hub schema to this library's version,
 * in one transaction; creating the group roles habitcore_device and habitcore_service
 * if they are missing. It also takes from PUBLIC, in the hub's database, what
 * PostgreSQL shows every role of the others (sessions, locks, row counts and sizes,
 * role lists; statistics of the hub's tables), which is why it needs a superuser; what
 * stays visible is in docs/SCALE.md, "What a hub user sees". Running it again changes
 * nothing, and puts back what a restore or a PostgreSQL upgrade dropped. No hub user
 * can delay it: two inits wait for each other on a lock no hub user can hold, and a
 * migration that waits for a table a hub user's open transaction holds ends the
 * sessions of hub users in the database and runs again (their calls are safe to
 * repeat). *out_version (may be NULL) gets the schema version. Codes: HC_E_IO (connection
 * or permission: not a superuser), HC_E_TOO_NEW (a newer library migrated it).
 * @since 1.0 @thread hub @status HC_OK HC_E_IO HC_E_TOO_NEW HC_E_MISUSE */
int32_t hc_hub_init(int32_t *out_version, hc_hub *hub);

#define HC_HUB_USER_DEVICE 0  /* a person's role: sees and writes only its own rows */
#define HC_HUB_USER_SERVICE 1 /* a trusted server's role: acts for one user per transaction */

/* Admin: creates a login role named name (1..63 bytes of [a-z0-9_], not starting with
 * habitcore_ or pg_, the user's name in the hub) with password (stored as a SCRAM
 * verifier), member of habitcore_device (kind HC_HUB_USER_DEVICE) or
 * habitcore_service (HC_HUB_USER_SERVICE) and of nothing else. Codes: HC_E_INVALID (name,
 * password or kind), HC_E_CONFLICT (the role exists).
 * @since 1.0 @thread hub @status HC_OK HC_E_INVALID HC_E_CONFLICT HC_E_IO HC_E_MISUSE */
int32_t hc_hub_user_add(hc_hub *hub, const char *name, const char *password, int32_t kind);

#define HC_HUB_PUSH 0x1u /* send the hub what it lacks */
#define HC_HUB_PULL 0x2u /* apply what the store lacks */

/* How hc_hub_sync runs. The caller sets struct_size (HC_HUB_SYNC_OPTIONS_INIT). */
typedef struct hc_hub_sync_options {
    uint32_t struct_size;
    uint32_t flags;      /* HC_HUB_PUSH | HC_HUB_PULL (the default), or one of them */
    const char *act_as;  /* NULL for a device's own role; a service role names the user */
} hc_hub_sync_options;

#define HC_HUB_SYNC_OPTIONS_INIT { (uint32_t)sizeof(hc_hub_sync_options), HC_HUB_PUSH | HC_HUB_PULL, NULL }

/* @since 1.0 @thread any @status HC_OK HC_E_INVALID */
int32_t hc_hub_sync_options_init(hc_hub_sync_options *out, uint32_t struct_size);

/* What hc_hub_sync did. The caller sets struct_size (HC_HUB_SYNC_SUMMARY_INIT). */
typedef struct hc_hub_sync_summary {
    uint32_t struct_size;
    int64_t records_pushed;  /* records sent that the hub did not hold */
    int64_t records_pulled;  /* records received from the hub */
    int64_t ops_new;         /* of those, ops the store had not seen (hc_sync_summary) */
} hc_hub_sync_summary;

#define HC_HUB_SYNC_SUMMARY_INIT { (uint32_t)sizeof(hc_hub_sync_summary), 0, 0, 0 }

/* @since 1.0 @thread any @status HC_OK HC_E_INVALID */
int32_t hc_hub_sync_summary_init(hc_hub_sync_summary *out, uint32_t struct_size);

/* Syncs store with the user's records at the hub: pulls every record beyond what the
 * store and the hub hold alike and applies them with hc_sync_apply (idempotent),
 * then pushes, in one transaction, every record the hub lacks (records are keyed by
 * user, global id and clock stamp, so a record sent twice is kept once). Pulling
 * first lets a store whose replica forked (restored from an older copy, or copied;
 * see "Forks" in habitcore.h) settle the fork before it pushes: the later branch
 * moves, its own or the one the hub holds. The hub rewrites nothing: it keeps the
 * moves stores push, and a record whose branch moved (its moved copy held) no longer
 * stands, so the other branch's record under its id is kept beside it and stands;
 * a pull sends standing records and every move. Safe to retry at any point: a
 * sync killed or disconnected anywhere loses nothing and duplicates nothing; call it
 * again. store is a handle from libhabitcore's hc_store_open. options may be NULL
 * (push and pull as the connected role). *out (may be NULL; struct_size set) gets
 * the summary. Codes: HC_E_INVALID (options, act_as), HC_E_CONFLICT (a push would leave
 * two different records standing under one id: a fork the store did not settle, refused
 * whole, never dropped in silence), HC_E_IO (connection, refused by the hub's rules),
 * HC_E_CORRUPT (a record the hub holds is damaged), HC_E_MISUSE (handles), and the
 * store's codes from hc_sync_state, hc_sync_changes and hc_sync_apply.
 * @since 1.0 @thread hub store @status HC_OK HC_E_INVALID HC_E_CONFLICT HC_E_IO HC_E_CORRUPT HC_E_BUSY HC_E_MISUSE HC_E_NOMEM HC_E_READONLY */
int32_t hc_hub_sync(hc_hub_sync_summary *out, hc_hub *hub, hc_store *store, const hc_hub_sync_options *options);

/* What the hub holds for the connected user (or act_as, for a service role). */
typedef struct hc_hub_status {
    uint32_t struct_size;
    int32_t schema_version;      /* the hub schema's version; 0: not initialised */
    int64_t records;             /* sync records held for the user */
    int64_t replicas;            /* devices (replicas) that pushed for the user */
    int64_t referral_codes;      /* codes the user registered */
    int64_t referrals_made;      /* other users who redeemed the user's codes */
    int64_t referral_redeemed;   /* 1 when the user redeemed someone's code */
} hc_hub_status;

#define HC_HUB_STATUS_INIT { (uint32_t)sizeof(hc_hub_status), 0, 0, 0, 0, 0, 0 }

/* @since 1.0 @thread any @status HC_OK HC_E_INVALID */
int32_t hc_hub_status_init(hc_hub_status *out, uint32_t struct_size);

/* Fills *out (struct_size set) for the connected user, or for act_as (NULL: the
 * connected role) when connected as a service role.
 * @since 1.0 @thread hub @status HC_OK HC_E_INVALID HC_E_IO HC_E_MISUSE */
int32_t hc_hub_status_get(hc_hub_status *out, hc_hub *hub, const char *act_as);

/* Referral answers ration what they tell of other users' codes: each code a user
 * looks up (registering one new to it, or redeeming one that is not its own before it
 * redeemed any) is a try, recorded and committed before it is answered, so a
 * transaction rolled back takes no try back; a user has 10 tries an hour (a code
 * already tried that hour is answered again without a new one), then HC_E_BUSY for
 * every code, known or not, until the oldest try is an hour old. A service role's
 * tries are the acting user's. */

/* Registers code (4..64 bytes of [A-Za-z0-9_-]) as the connected user's referral
 * code. Codes: HC_E_CONFLICT (another user holds the code; the same user registering it
 * again is HC_OK), HC_E_BUSY (the hour's tries spent).
 * @since 1.0 @thread hub @status HC_OK HC_E_INVALID HC_E_CONFLICT HC_E_IO HC_E_BUSY HC_E_MISUSE */
int32_t hc_hub_referral_register(hc_hub *hub, const char *code);

/* Redeems code for the connected user: records the redemption once, for both users
 * (the referrer sees it in hc_hub_status_get at its next call); HC_OK also when this
 * user already redeemed this code. Codes: HC_E_NOT_FOUND (no such code), HC_E_CONFLICT (the
 * user's own code, or the user already redeemed another code: then every other code,
 * existing or not, answers this), HC_E_BUSY (the hour's tries spent).
 * @since 1.0 @thread hub @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_CONFLICT HC_E_IO HC_E_BUSY HC_E_MISUSE */
int32_t hc_hub_referral_redeem(hc_hub *hub, const char *code);

#ifdef __cplusplus
}
#endif

#endif /* HABITCORE_HUB_H */
