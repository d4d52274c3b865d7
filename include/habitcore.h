/*
 * habitcore.h: the C interface of libhabitcore, a habit engine.
 *
 * This header is the whole contract. C, C++, Python (ctypes), Rust and the
 * habitctl command line reach the engine only through it.
 *
 * Conventions (see docs/ABI.md in the source tree):
 *  - Every fallible function returns an int32_t status: HC_OK (0) or an HC_E_*
 *    code. On failure the words are in hc_last_error_message() (thread-local)
 *    and, for calls on a store, also in hc_store_errmsg(store).
 *  - Out parameters come first. Whatever is returned through `T **out` belongs
 *    to the caller and is released with the matching hc_*_free (or hc_free for
 *    strings). Out parameters are written only on HC_OK.
 *  - Strings are UTF-8 and NUL-terminated. Invalid UTF-8 is HC_E_INVALID.
 *  - Dates are local calendar days, as day numbers: days since 1970-01-01
 *    (negative before it), between 0001-01-01 and 9999-12-31. hc_date_parse
 *    and hc_date_format convert from and to "YYYY-MM-DD".
 *  - Instants are UTC milliseconds since 1970-01-01T00:00Z (int64_t, names ending
 *    in _ms). "Now", one rule: an instant a call is asked to act or answer at (an
 *    at_ms parameter, hc_entry_input.at_ms) of 0 means now, the library's clock at
 *    the call. That holds for hc_entry_append, hc_store_routine_at,
 *    hc_credit_unlock_state, hc_credit_session_end, hc_shield_state (Since 1.1.
 *    Before, it answered for 1970-01-01) and hc_shield_snapshot_write, and for any
 *    later call taking an at_ms. Read as given are: the bounds of a range (from_ms,
 *    to_ms: both ends are read alike), an instant that names something recorded
 *    (a reminder's at_ms in hc_reminder_fired and hc_reminder_snooze), a fact the
 *    caller reports (hc_proof_input.taken_at_ms: 0 is "unknown"), and the utc_ms
 *    that hc_store_local_day converts (hc_store_today is its "now").
 *  - Option, input and result structs start with struct_size. Fill one with
 *    its HC_<STRUCT>_INIT macro in C, or with hc_<struct>_init(&s, sizeof s)
 *    from a language that cannot expand macros: both give the same defaults.
 *    The library reads and writes no further than struct_size, so a caller built
 *    against an older header keeps working. Structs the library allocates carry
 *    their own struct_size.
 *  - Three shapes of "list", each named once here and by that name below:
 *    Caller buffers: the caller's array, one rule for every call that fills one
 *    (T *out, int64_t capacity, int64_t *out_count): the call writes
 *    min(capacity, total) elements, sets *out_count to the total, and takes
 *    out == NULL with capacity == 0 as "how many?". A short buffer is not an
 *    error: compare *out_count with capacity. A negative capacity, or out == NULL
 *    with a capacity, is HC_E_INVALID.
 *    List handles: a snapshot the library allocates, hc_<x>_list, read with
 *    hc_<x>_list_count and hc_<x>_list_get (elements borrowed until the list is
 *    freed) and released with hc_<x>_list_free; it never changes once opened.
 *    JSON text: a document the library writes as a string (names ending in
 *    _json), released with hc_free; its layout is in docs/FORMATS.md.
 *  - Callbacks take their payload as the last parameter, void *user_data: the
 *    pointer the caller registered, passed back untouched.
 *  - A NULL, closed or foreign handle is HC_E_MISUSE, never a crash.
 *  - Threads, one rule per kind of call; each function's @thread tag names its
 *    rule (see Tags):
 *    @thread any: no handle; any thread, at any time, from several at once.
 *    @thread store: a call on a store handle. A handle may be shared by several
 *      threads: the library holds a lock per handle for each call, so calls on one
 *      handle run one at a time (a second waits for the first) and calls on
 *      different handles run at once. An explicit transaction (hc_store_begin)
 *      belongs to the handle, not to a thread: give each thread its own handle if
 *      threads use explicit transactions. Several processes may open the same
 *      file; writers wait for each other (busy timeout 5 s, a read-only handle
 *      100 ms: hc_store_set_busy_timeout).
 *    @thread hub: the same rule for a hub handle (habitcore_hub.h).
 *    @thread list: reads a list handle, which never changes: any thread, from
 *      several at once.
 *    @thread release: closes or frees a handle: any thread, once, when no other
 *      thread is still using that handle or anything borrowed from it.
 *    @thread first: once per process, before anything else touches SQLite.
 *  - Re-entrant calls. Since 1.1. A callback runs while the call that runs it
 *    holds its store handle (a verifier, a progress report, a release). A call
 *    on that same handle from inside the callback, on the thread running it, is
 *    refused at once with HC_E_MISUSE ("a call on this store from inside a
 *    callback the store is running is refused: ..."), never a deadlock; it
 *    changes nothing, its message is in hc_last_error_message() and
 *    hc_store_errmsg(store), and the outer call goes on with whatever the
 *    callback returns. Calls on another handle, even one open on the same file,
 *    work inside a callback as anywhere; other threads calling the handle wait
 *    for the outer call, as always.
 *  - Versions: a function's @since tag gives the release that added it (its symbol
 *    version: HC_1.1 for 1.1, so a program that calls it names 1.1 to the dynamic
 *    linker and will not start with an older libhabitcore.so.1). Every other
 *    declaration is in 1.0 unless its comment, or its section's, says "Since 1.1.".
 *    docs/ABI.md and CHANGELOG.md in the source tree list the releases.
 *  - Tags. The comment of every function ends with one tag line, in one format,
 *    read and checked by scripts/header-tags.py:
 *        @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_MISUSE
 *    @since: the release that added it. @thread: its rule above (two names: both
 *    hold). @status: every status code it returns, in the codes' numeric order, or
 *    "none" when it returns no status. Any call may also return HC_E_INTERNAL (a bug
 *    in habitcore), which no tag lists. "Codes:" in the prose before says why a
 *    code comes back where that is not plain.
 *  - Sections. The header has one section per capability; a function's section,
 *    not its prefix, says which capability it belongs to (hc_store_set_timezone is
 *    in Calendar, hc_store_export in Files: names are the ABI and never change).
 */
#ifndef HABITCORE_H
#define HABITCORE_H

#include <stddef.h>
#include <stdint.h>

#include "habitcore_plugin.h" /* the evidence and verdict structs verifiers share */

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Versions                                                                  */
/* ------------------------------------------------------------------------ */

#define HC_VERSION_MAJOR 1
#define HC_VERSION_MINOR 1
#define HC_VERSION_PATCH 0
/* MAJOR * 1000000 + MINOR * 1000 + PATCH */
#define HC_VERSION_NUMBER (HC_VERSION_MAJOR * 1000000 + HC_VERSION_MINOR * 1000 + HC_VERSION_PATCH)
#define HC_VERSION_STRING "1.1.0"
/* Bumped only when an existing declaration changes incompatibly. 0.x was 1; 1.0
 * made the conventions above uniform and is 2 (SONAME libhabitcore.so.1). From 1.0
 * on, declarations only grow: a changed one gets a new name. */
#define HC_ABI_VERSION 2

/* The library's HC_VERSION_NUMBER. Never fails.
 * @since 1.0 @thread any @status none */
int32_t hc_version_number(void);
/* The library's HC_VERSION_STRING: a static string, never freed.
 * @since 1.0 @thread any @status none */
const char *hc_version_string(void);
/* The library's HC_ABI_VERSION. Bindings compare it with the one they were
 * written for before any other call. Never fails.
 * @since 1.0 @thread any @status none */
int32_t hc_abi_version(void);

/* ------------------------------------------------------------------------ */
/* Status codes and errors                                                   */
/* ------------------------------------------------------------------------ */

#define HC_OK 0
#define HC_E_INVALID 1   /* an argument is out of range, malformed or NULL */
#define HC_E_NOT_FOUND 2 /* no such habit, entry or file */
#define HC_E_CONFLICT 3  /* the request clashes with what is stored (duplicate name, entry already undone, archived habit) */
#define HC_E_IO 4        /* the file system or SQLite failed to read or write */
#define HC_E_CORRUPT 5   /* the store or an input file is not what it claims to be */
#define HC_E_BUSY 6      /* another process held the store for longer than the busy timeout */
#define HC_E_TOO_NEW 7   /* the store was written by a newer habitcore (schema version above ours) */
#define HC_E_MISUSE 8    /* NULL, closed or foreign handle; call out of order */
#define HC_E_NOMEM 9     /* out of memory */
#define HC_E_READONLY 10 /* a write on a store opened with HC_OPEN_READONLY */
#define HC_E_INTERNAL 11 /* a bug in habitcore: please report it */
#define HC_E_INSUFFICIENT 12 /* a spend larger than the available credits; nothing was written */
#define HC_E_CANCELLED 13 /* a callback asked to stop; nothing was written. Since 1.1. */

/* A short English name for a status code ("HC_E_INVALID: invalid argument").
 * Static string, never freed; unknown codes get "unknown status".
 * @since 1.0 @thread any @status none */
const char *hc_status_string(int32_t status);

/* The message of the last failed call made by this thread, or "" if none.
 * Library-owned; valid until this thread's next call into the library.
 * @since 1.0 @thread any @status none */
const char *hc_last_error_message(void);

/* Releases a string or buffer the library allocated (export text, time zone
 * name). NULL and pointers the library did not hand out are ignored.
 * @since 1.0 @thread any @status none */
void hc_free(void *ptr);

/* ------------------------------------------------------------------------ */
/* Dates                                                                     */
/* ------------------------------------------------------------------------ */

/* "no date": ask the library to choose (today, in the store's home zone).
 * An enum constant (INT32_MIN) so that bindings that import C constants see it. */
enum { HC_DAY_NONE = -2147483647 - 1 };
/* Bytes hc_date_format needs, with the NUL. */
#define HC_DATE_BUFSIZE 11

/* Parses "YYYY-MM-DD" (exactly that shape, a real calendar date, year 0001 to
 * 9999) into *out_day. Codes: HC_E_INVALID ("2026-02-30", NULL, junk).
 * @since 1.0 @thread any @status HC_OK HC_E_INVALID */
int32_t hc_date_parse(int32_t *out_day, const char *text);

/* Writes day as "YYYY-MM-DD" and a NUL into buf, which holds buf_size bytes
 * (at least HC_DATE_BUFSIZE). Codes: HC_E_INVALID (NULL buf, small buffer, day out of range).
 * @since 1.0 @thread any @status HC_OK HC_E_INVALID */
int32_t hc_date_format(char *buf, int32_t buf_size, int32_t day);

/* ------------------------------------------------------------------------ */
/* Store: open, close, errors                                                */
/* ------------------------------------------------------------------------ */

typedef struct hc_store hc_store;

#define HC_OPEN_READONLY 0x1u  /* never write; the file must exist */
#define HC_OPEN_NOCREATE 0x2u  /* fail with HC_E_NOT_FOUND if the file does not exist */
#define HC_OPEN_SYNC_FULL 0x4u /* fsync every commit: survives power loss, slower. The
                                  default (WAL, synchronous=NORMAL) survives any crash of
                                  the process but may lose the last commits on power loss. */

/* Opens (and on first use creates) the store at path: a SQLite file in WAL
 * mode. Creates or migrates the schema forward. *out receives a handle the
 * caller closes with hc_store_close. flags: HC_OPEN_* bits or 0.
 * Codes: HC_E_INVALID (NULL or empty path, unknown flags), HC_E_CORRUPT (not a habitcore store).
 * @since 1.0 @thread any @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_CORRUPT HC_E_BUSY HC_E_TOO_NEW HC_E_NOMEM */
int32_t hc_store_open(hc_store **out, const char *path, uint32_t flags);

/* For a process whose SQLite serves habitcore alone (a screen-time extension, a
 * widget): turns off SQLite's memory statistics for the whole process
 * (sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0)), so that none of the thousands of
 * allocations a cold open and ask make takes SQLite's global memory mutex; a cold
 * read-only open, hc_shield_state and close then run about an eighth faster.
 * Afterwards sqlite3_memory_used() reads 0 and a soft heap limit is not enforced,
 * for the host's SQLite use as for ours. Call it once, first: before any SQLite
 * use in the process, habitcore's or the host's, while no other thread uses SQLite.
 * HC_OK, or HC_E_MISUSE when SQLite is already initialised in this process
 * (nothing changed).
 * @since 1.1 @thread first @status HC_OK HC_E_MISUSE */
int32_t hc_process_disable_sqlite_statistics(void);

/* How long calls on this handle wait for another
 * connection's lock before HC_E_BUSY, in milliseconds (0...600000; 0: not at
 * all). A store opened with HC_OPEN_READONLY waits 100 ms by default (in WAL mode
 * only a writer's recovery or closing checkpoint makes a reader wait), any other
 * 5000 ms. Codes: HC_E_INVALID (out of range).
 * @since 1.1 @thread store @status HC_OK HC_E_INVALID HC_E_MISUSE */
int32_t hc_store_set_busy_timeout(hc_store *store, int32_t ms);

/* Closes the store and releases the handle, rolling back an open explicit
 * transaction. NULL is a no-op returning HC_OK; a foreign or closed handle is
 * HC_E_MISUSE. After it, the handle must not be used: calls on it return
 * HC_E_MISUSE. Do not close a handle another thread is still using.
 * @since 1.0 @thread release @status HC_OK HC_E_MISUSE */
int32_t hc_store_close(hc_store *store);

/* The message of the last failed call on this handle, or "". Library-owned;
 * valid until the next call on this handle. With several threads on one
 * handle prefer hc_last_error_message(). A bad handle gives a fixed message.
 * @since 1.0 @thread store @status none */
const char *hc_store_errmsg(hc_store *store);

/* The schema version of the open store file.
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_MISUSE */
int32_t hc_store_schema_version(int32_t *out_version, hc_store *store);

/* ------------------------------------------------------------------------ */
/* Calendar: the home zone, the day start, local days                        */
/* ------------------------------------------------------------------------ */

/* Sets the store's home time zone: an IANA name ("America/New_York", read from
 * the system's tz database, $TZDIR or /usr/share/zoneinfo), "UTC", or a fixed
 * offset "+05:30" / "-08:00". It decides which local day "now" falls on; it
 * never moves stored entries. Codes: HC_E_INVALID (malformed name), HC_E_NOT_FOUND (no
 * such zone), HC_E_CORRUPT (unreadable zone file).
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_CORRUPT HC_E_MISUSE HC_E_READONLY */
int32_t hc_store_set_timezone(hc_store *store, const char *tz);

/* The home time zone's name into *out (free with hc_free). Default "UTC".
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_MISUSE HC_E_NOMEM */
int32_t hc_store_timezone(char **out, hc_store *store);

/* Sets the day-start time, in minutes after local midnight (0..1439). With
 * 180 (03:00), something done at 01:30 counts for the day before.
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_IO HC_E_MISUSE HC_E_READONLY */
int32_t hc_store_set_day_start(hc_store *store, int32_t minutes);

/* The day-start time in minutes after midnight.
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_MISUSE */
int32_t hc_store_day_start(int32_t *out_minutes, hc_store *store);

/* The local day that the UTC instant utc_ms (milliseconds since 1970-01-01T00:00Z)
 * falls on in the home zone, after the day-start shift.
 * Codes: HC_E_INVALID (NULL, instant outside years 1..9999).
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_MISUSE */
int32_t hc_store_local_day(int32_t *out_day, hc_store *store, int64_t utc_ms);

/* Today's local day in the home zone, from the system clock.
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_MISUSE */
int32_t hc_store_today(int32_t *out_day, hc_store *store);

/* The UTC instant (ms) of local time `minute` (0..1439 after midnight) of the
 * local day `day` in the home zone: the inverse of hc_store_local_day. A minute
 * before the day start falls on the next calendar date (with a 03:00 day start,
 * 01:30 of a day is the night after it). A time the clocks skip is the first
 * minute after the gap; a time they read twice is its first occurrence (the rule
 * reminders follow). Codes: HC_E_INVALID (NULL, minute or day out of range).
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_MISUSE */
int32_t hc_store_utc_ms(int64_t *out_utc_ms, hc_store *store, int32_t day, int32_t minute);

/* ------------------------------------------------------------------------ */
/* Transactions                                                              */
/* ------------------------------------------------------------------------ */

/* Explicit transactions: everything between begin and commit is written at
 * once or not at all, and is much faster for many appends. begin while one is
 * open is HC_E_MISUSE; so are commit and rollback without one. Writers in
 * other processes wait until commit.
 * @since 1.0 @thread store @status HC_OK HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_READONLY */
int32_t hc_store_begin(hc_store *store);
/* @since 1.0 @thread store @status HC_OK HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_READONLY */
int32_t hc_store_commit(hc_store *store);
/* @since 1.0 @thread store @status HC_OK HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_READONLY */
int32_t hc_store_rollback(hc_store *store);

/* ------------------------------------------------------------------------ */
/* Files: export, import, backup, other apps' data                           */
/* ------------------------------------------------------------------------ */

#define HC_FORMAT_JSON 1  /* one JSON document */
#define HC_FORMAT_JSONL 2 /* JSON Lines: a header line, then one habit or entry per line */

/* The whole store as text in the given format, into *out (free with hc_free):
 * settings, habits with their schedules and streak policies, every entry with its
 * retry key, and (schema_version 2) every other table a person's history
 * lives in: vacations, the credit ledger with its accounts, rules, step reports and
 * sessions, award rules, unlocks, referral redemptions, events and their
 * acknowledgements, proofs with their verdicts, fingerprints and kept copies, proof
 * policies, reminders with their quiet hours, snoozes and deliveries, and (Since
 * 1.1.) shield rules with their versions, emergency unlocks and the store's zone
 * changes. Left out: registered plugins (paths to programs on this machine, not to
 * be run from a backup restored elsewhere), verifications under way, the shield
 * revision (a counter) and the sync state (a restored store is a new replica). The
 * layout is documented in docs/FORMATS.md and carries a schema_version.
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_IO HC_E_MISUSE HC_E_NOMEM */
int32_t hc_store_export(char **out, hc_store *store, int32_t format);

/* A consistent copy of the whole store (SQLite's online backup API, so
 * other handles and processes may keep writing) in a new file at path, created
 * 0600; an existing file is never overwritten (HC_E_CONFLICT). The copy opens with
 * hc_store_open like the original.
 * Codes: HC_E_INVALID (NULL or empty path), HC_E_NOT_FOUND (no such folder).
 * @since 1.1 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_CONFLICT HC_E_IO HC_E_BUSY HC_E_MISUSE */
int32_t hc_store_backup(hc_store *store, const char *path);

/* Imports text produced by hc_store_export (any store's) into this store: its
 * habits are added with new ids and its entries follow them, undo links kept.
 * Into a store without habits it is a restore: the other tables of a whole export
 * are written back too, ids and all (export -> import into a new store -> export
 * gives the same document); into a store with habits only habits and entries are
 * added.
 * All or nothing: on any error nothing is written and the message names the
 * line (JSONL) or the element (JSON) at fault. A habit whose name is already
 * active here is HC_E_CONFLICT.
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_CONFLICT HC_E_IO HC_E_CORRUPT HC_E_BUSY HC_E_MISUSE HC_E_READONLY */
int32_t hc_store_import(hc_store *store, const char *text, int32_t format); /* format: also HC_FORMAT_DETECT */

/* Since 1.1. How far a long export or import has come: done of total units (see
 * each call), both >= 0, done <= total. Called on the thread that made the call,
 * at most about 50 times a second and at least at the start and the end (done ==
 * total, once everything is done: its answer is ignored). Return 0 to go on,
 * nonzero to cancel: the call then stops, writes nothing and returns
 * HC_E_CANCELLED. A call on the same store handle from inside it is refused with
 * HC_E_MISUSE (see "Re-entrant calls" at the top). */
typedef int32_t (*hc_transfer_progress)(int64_t done, int64_t total, void *user_data);

/* hc_store_export written to a file: the same bytes, written record by
 * record from one read snapshot, so memory stays flat however large the store (the
 * text is never whole in memory). The file appears at path whole or not at all:
 * the bytes go to a temporary file beside it (0600), synced and renamed over path
 * at the end; an existing file at path is replaced. A symbolic link at path is
 * followed: the file it names is replaced (or created) and the link stays. A device
 * or FIFO at path is written through, never replaced (opening a FIFO waits for a
 * reader); there the bytes are not atomic. progress (NULL: none) counts
 * records: habits, entries and rows of other tables. On any error or a cancel,
 * path is left as it was and the temporary file is removed.
 * Codes: HC_E_INVALID (NULL or empty path, bad format), HC_E_NOT_FOUND (no such folder).
 * @since 1.1 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_CANCELLED */
int32_t hc_store_export_file(hc_store *store, const char *path, int32_t format, hc_transfer_progress progress,
                             void *user_data);

/* hc_store_import of a file's text: the same checks, the same messages
 * naming the line or element, the same store, all or nothing in one transaction.
 * JSON Lines are read a line at a time and each record written as read, so memory
 * stays flat however large the file; a JSON document (HC_FORMAT_JSON, or what
 * HC_FORMAT_DETECT finds) is read whole. progress (NULL: none) counts the file's
 * size in bytes, done as read; a cancel writes nothing. Codes: HC_E_INVALID (NULL or empty path, not a regular file, bad
 * format, a bad record), HC_E_NOT_FOUND (no such file).
 * @since 1.1 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_CONFLICT HC_E_IO HC_E_CORRUPT HC_E_BUSY HC_E_TOO_NEW HC_E_MISUSE HC_E_READONLY HC_E_CANCELLED */
int32_t hc_store_import_file(hc_store *store, const char *path, int32_t format, hc_transfer_progress progress,
                             void *user_data); /* format: also HC_FORMAT_DETECT */

/* Imports Loop Habit Tracker's CSV export: the text of Habits.csv and of the
 * top-level Checkmarks.csv, as Loop writes them. Yes/no habits become checkmark
 * habits, measurable ones counter habits; each frequency n/d becomes "times:n/d"
 * (1/1: "daily"), so strength gives Loop's scores. Marks: YES_MANUAL (2) a done
 * entry, SKIP (3) a skip entry; a measurable habit's cell is Loop's stored integer,
 * thousandths of the amount (2500 is 2.5; YES_MANUAL and YES_AUTO there are 0.002
 * and 0.001). YES_AUTO on a yes/no habit, NO, UNKNOWN and empty cells add nothing
 * (Loop derives them). Checkmarks.csv's header is matched to Habits.csv in order, so
 * a name with a comma (unquoted there) and two habits of one name both import;
 * the later of two active habits with one name is named "Name (2)". A habit starts
 * on its first recorded day. Question, Description and Color become the habit's
 * question, description and colour (one that is not #RRGGBB is left out), Position
 * its position (hc_habit_options). A measurable habit's Target Value of 0 (Loop allows
 * it; since 1.1 taken, as hc_store_import_loop_db takes it) becomes 0.001.
 * All or nothing, the error naming the file and line.
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_CONFLICT HC_E_IO HC_E_CORRUPT HC_E_BUSY HC_E_MISUSE HC_E_READONLY */
int32_t hc_store_import_loop_csv(hc_store *store, const char *habits_csv, const char *checkmarks_csv);

/* Imports Loop Habit Tracker's CSV export as Loop hands it to its users: the zip
 * ("Loop Habits CSV <date>.zip") in memory, size bytes at data. Its Habits.csv and
 * Checkmarks.csv (at the top, or in one folder) are read as hc_store_import_loop_csv
 * reads them; each habit's folder ("001 Name/Checkmarks.csv", 001 its Position)
 * gives the notes, each kept on the entry made that day (a note on a day Loop has
 * no check, skip or number for is not kept: notes here live on entries). Entries
 * stored or deflated, each checked against its CRC-32; zip64, encrypted and other
 * methods are refused; at most 256 MiB inflated. All or nothing, the error naming
 * the zip entry, file and line. The store only reads data during the call.
 * Codes: HC_E_INVALID (not a zip, not Loop's export, bad rows), HC_E_CORRUPT (a damaged
 * archive).
 * @since 1.1 @thread store @status HC_OK HC_E_INVALID HC_E_CONFLICT HC_E_IO HC_E_CORRUPT HC_E_BUSY HC_E_MISUSE HC_E_READONLY */
int32_t hc_store_import_loop_zip(hc_store *store, const uint8_t *data, int64_t size);

/* Exports the store in Loop Habit Tracker's CSV format, as Loop's exporter writes
 * it: Habits.csv into *out_habits_csv and the top-level Checkmarks.csv into
 * *out_checkmarks_csv, both allocated here and released with hc_free (on error
 * both are left NULL). Checkmarks.csv has a row per day, newest first, from the
 * oldest day with an entry to to_day (HC_DAY_NONE: today; at most 100000 days).
 * A schedule is written as the frequency strength uses (see hc_habit_strength);
 * a checkmark day as YES_MANUAL, SKIP, YES_AUTO (the days Loop fills in from the
 * frequency, by Loop's rule) or UNKNOWN; a number as whole thousandths, named as
 * Loop names 0..3 (NO, YES_AUTO, YES_MANUAL, SKIP). A Loop export imported with
 * hc_store_import_loop_csv and exported again is the same table, except an
 * explicit NO (no entry here), which comes back UNKNOWN. Habits in the app's order
 * (position, then id), numbered from 1; Question, Description and Color from the
 * habit's display fields (hc_habit). Measurements are left out.
 * @since 1.1 @thread store @status HC_OK HC_E_INVALID HC_E_IO HC_E_MISUSE HC_E_NOMEM */
int32_t hc_store_export_loop_csv(char **out_habits_csv, char **out_checkmarks_csv, hc_store *store, int32_t to_day);

/* Imports HabitBull's CSV export (HabitName, HabitDescription, HabitCategory,
 * CalendarDate, Value, CommentText), as Loop Habit Tracker imports it: a daily
 * habit per name, in the order names first appear, its category as its group, its
 * HabitDescription as its description; a habit with any value above 1 is a counter (target 1,
 * HabitBull has none), else a checkmark; value 1 is done, above 1 an amount, 0 or
 * below nothing; the comment is the entry's note; a later row for the same habit
 * and day replaces an earlier one; dates YYYY-MM-DD or M/D/YYYY, up to the day
 * after today. Names equal under case folding: the later becomes "Name (2)". A
 * habit starts on its first recorded day. All or nothing, the error naming the
 * line.
 * @since 1.1 @thread store @status HC_OK HC_E_INVALID HC_E_CONFLICT HC_E_IO HC_E_CORRUPT HC_E_BUSY HC_E_MISUSE HC_E_READONLY */
int32_t hc_store_import_habitbull_csv(hc_store *store, const char *csv);

/* Imports Loop Habit Tracker's full backup ("Export full backup": its SQLite
 * database) from path, opened read-only and left as it is. Every schema version of
 * Loop's migrations (9 to 25) is read by the columns it has: habits with their
 * frequency (as hc_store_import_loop_csv maps it), numeric type, target (Loop's
 * target 0 becomes 0.001), target type, unit, archived; repetitions with their
 * values (yes/no: 2 a check, 3 a skip; numbers in thousandths, 3 a skip) and, from
 * version 25, notes (kept on the entry of that day); colour (as #RRGGBB), description,
 * question and position as the habit's display fields (see docs/FORMATS.md); a
 * reminder (hour and minute; weekdays from version 11, before it every day) as a
 * reminder rule of the habit from its first day: that time, Loop's weekday mask
 * (bit 0 Saturday ... bit 6 Friday) as HC weekday bits (bit 0 Sunday), no message,
 * HC_QUIET_DEFER; a NULL hour or minute or no weekday is none; an hour, minute or
 * mask out of range is HC_E_INVALID naming the row. Habits in Loop's order; a
 * repetition of a missing habit, or a second of the same day, is left out, as
 * Loop's own migration drops them. All or nothing, the error naming the table row.
 * Codes: HC_E_INVALID (not a Loop backup, bad rows), HC_E_TOO_NEW (a version above 25).
 * @since 1.1 @thread store @status HC_OK HC_E_INVALID HC_E_CONFLICT HC_E_IO HC_E_CORRUPT HC_E_BUSY HC_E_TOO_NEW HC_E_MISUSE HC_E_READONLY */
int32_t hc_store_import_loop_db(hc_store *store, const char *path);

/* ------------------------------------------------------------------------ */
/* Habits                                                                    */
/* ------------------------------------------------------------------------ */

#define HC_KIND_CHECKMARK 1   /* done or not */
#define HC_KIND_COUNTER 2     /* a count per day against a target */
#define HC_KIND_DURATION 3    /* seconds per day against a target */
#define HC_KIND_MEASUREMENT 4 /* a value recorded now and then, no daily target */
#define HC_KIND_QUIT 5        /* Since 1.1. A habit being quit: relapses logged, clean days kept (see "Quit habits") */

#define HC_DIRECTION_AT_LEAST 1 /* reach the target; for measurements: higher is better */
#define HC_DIRECTION_AT_MOST 2  /* stay at or under it; for measurements: lower is better */

#define HC_ROUTINE_ANYTIME 0 /* any time of day (the default) */
#define HC_ROUTINE_MORNING 1 /* the morning */
#define HC_ROUTINE_DAY 2 /* the day */
#define HC_ROUTINE_EVENING 3 /* the evening */

/*
 * What a habit is. Schedules are text:
 *   "daily"                     every day
 *   "days:mon,wed,fri"          specific weekdays
 *   "every:3"                   every 3 days from the start day (1..365)
 *   "monthdays:1,15,31"         days of the month (31 in a short month: its last day)
 *   "weekly:3"                  3 times per week (1..7)
 *   "monthly:5"                 5 times per month (1..31)
 *   "times:2/3"                 2 times in every 3 days (1 <= N <= M <= 365): blocks of
 *                               M days counted from the first day the schedule governed
 * Limits: name 1..200 bytes, group and unit up to 200 and 32 bytes, no control
 * characters; target finite, > 0 and <= 1e12 (checkmarks: 1; measurements: ignored;
 * quit habits: 0 or more, what a clean day saves). A quit habit's schedule is its
 * allowance (daily, weekly:N or monthly:N) and its direction is always at most: see
 * "Quit habits".
 * Display fields (Since 1.1.): description up to 4096 bytes, question up to 500, icon up to
 * 64, colour "#RRGGBB"; anything else is HC_E_INVALID naming the field, nothing written.
 */
typedef struct hc_habit_options {
    uint32_t struct_size; /* sizeof(hc_habit_options), set by HC_HABIT_OPTIONS_INIT */
    int32_t kind;         /* HC_KIND_* */
    const char *name;
    double target;
    int32_t direction;      /* HC_DIRECTION_* */
    int32_t routine;        /* HC_ROUTINE_* */
    const char *group_name; /* optional group ("system"), NULL for none */
    const char *unit;       /* optional unit label, NULL for none */
    const char *schedule;   /* NULL means "daily" */
    int32_t start_day;      /* HC_DAY_NONE means today */
    int32_t proof_required; /* 0 or 1 */
    /* Since 1.1. (Read when struct_size covers them; a caller of 1.0's size creates
     * habits without them and cannot name them in hc_habit_update): what a frontend
     * shows. The engine decides nothing by them; imports and exports keep them.
     * Strings are read during the call only (the library copies them); NULL or ""
     * means none. */
    const char *description; /* free text, up to 4096 bytes; line feeds and tabs allowed */
    const char *question;    /* the question asked each day, up to 500 bytes, one line */
    const char *colour;      /* "#RRGGBB": "#" and six hex digits of either case, kept as given */
    const char *icon;        /* opaque to the library: the app's icon name or an emoji, up to 64 bytes, one line */
    int64_t position;        /* the app's order of habits, smaller first; any int64; 0 by default */
} hc_habit_options;

#define HC_HABIT_OPTIONS_INIT                                                                   \
    { (uint32_t)sizeof(hc_habit_options), HC_KIND_CHECKMARK, NULL, 1.0, HC_DIRECTION_AT_LEAST, \
      HC_ROUTINE_ANYTIME, NULL, NULL, NULL, HC_DAY_NONE, 0, NULL, NULL, NULL, NULL, 0 }
/* Fills *out with the defaults of HC_HABIT_OPTIONS_INIT (see "Option, input and result structs").
 * Codes: HC_E_INVALID (NULL, struct_size below its first release).
 * @since 1.0 @thread any @status HC_OK HC_E_INVALID */
int32_t hc_habit_options_init(hc_habit_options *out, uint32_t struct_size);

/* Bits naming the fields hc_habit_update changes. */
#define HC_HABIT_FIELD_NAME 0x01u
#define HC_HABIT_FIELD_TARGET 0x02u    /* target and direction */
#define HC_HABIT_FIELD_GROUP 0x04u /* group_name (NULL clears it) */
#define HC_HABIT_FIELD_UNIT 0x08u /* unit (NULL clears it) */
#define HC_HABIT_FIELD_ROUTINE 0x10u
#define HC_HABIT_FIELD_PROOF 0x20u /* proof_required */
#define HC_HABIT_FIELD_SCHEDULE 0x40u  /* applies from today on; earlier days keep theirs */
#define HC_HABIT_FIELD_START_DAY 0x80u
/* Since 1.1. The display fields; options.struct_size must cover them. */
#define HC_HABIT_FIELD_DESCRIPTION 0x100u
#define HC_HABIT_FIELD_QUESTION 0x200u
#define HC_HABIT_FIELD_COLOUR 0x400u
#define HC_HABIT_FIELD_ICON 0x800u
#define HC_HABIT_FIELD_POSITION 0x1000u

/* A habit as stored. Allocated by the library, released with hc_habit_free; its
 * strings belong to it and live as long as it does. */
typedef struct hc_habit {
    uint32_t struct_size; /* the library's sizeof(hc_habit) */
    int32_t kind;
    int64_t id; /* stable, never reused */
    const char *name;
    double target;
    int32_t direction;
    int32_t routine;
    const char *group_name; /* NULL when none */
    const char *unit;       /* NULL when none */
    const char *schedule;   /* the schedule in force today, canonical text */
    int32_t start_day;
    int32_t proof_required;
    int32_t archived_day; /* HC_DAY_NONE while active */
    int64_t created_at_ms;
    /* Since 1.1. (Present when struct_size covers them): the display fields of
     * hc_habit_options, owned by the habit like name (NULL when none). */
    const char *description;
    const char *question;
    const char *colour;
    const char *icon;
    int64_t position;
} hc_habit;

/* Creates a habit; its id goes to *out_id. Names are unique (ignoring ASCII
 * case) among active habits. Codes: HC_E_INVALID (the message names the field),
 * HC_E_CONFLICT (name taken).
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_CONFLICT HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_READONLY */
int32_t hc_habit_create(int64_t *out_id, hc_store *store, const hc_habit_options *options);

/* The habit with this id (active or archived) into *out; free with
 * hc_habit_free.
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_MISUSE HC_E_NOMEM */
int32_t hc_habit_get(hc_habit **out, hc_store *store, int64_t id);

/* The active habit with this name (ASCII case ignored) into *out.
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_MISUSE HC_E_NOMEM */
int32_t hc_habit_find(hc_habit **out, hc_store *store, const char *name);

/* Releases a habit from hc_habit_get or hc_habit_find. NULL is ignored.
 * @since 1.0 @thread release @status none */
void hc_habit_free(hc_habit *habit);

/* Which settings judge a day, and how a change to them reads the past (the one place
 * this is stated):
 *  - Effective-dated (a habit keeps every version, each from the day it applies from,
 *    and each day is judged by the version in force on it; a change never rewrites
 *    the days before the day it applies from): the schedule, target and direction
 *    (HC_HABIT_FIELD_TARGET), the proof requirement (HC_HABIT_FIELD_PROOF), group
 *    membership (HC_HABIT_FIELD_GROUP) and archived or not (hc_habit_archive). Every
 *    answer about a day reads that day's version: day states, streaks, strength,
 *    completion, day scores, global streaks, group rates, completion credits, awards,
 *    reminders, shields and exports. Sync carries the versions and merges them per
 *    habit and day (the later write of one day's version wins). A stretch archived and
 *    later restored is excused (neither kept nor missed); nothing is due from the day
 *    a habit is archived on while it stays archived.
 *  - Whole-history (a change reads every day anew): the streak policy's miss allowance,
 *    open day and off days (hc_store_set_streak_policy, hc_habit_set_streak_policy),
 *    the week start, the start day, the kind (never changes), and the fields that
 *    judge nothing: name, unit, routine, description, question, colour, icon, position.
 * A change applies from today by default, or from an earlier day (hc_habit_update_from,
 * hc_habit_archive_from), never a later one; the days from it through today are
 * re-judged, and their completion credits follow in the same transaction: minutes
 * earned on a day that is no longer done are taken back (an adjust entry, reason
 * "'NAME' re-judged not done by its settings from DATE"), a day that became done earns
 * them ("'NAME' done under its settings from DATE"). */

/* Changes the fields named by the HC_HABIT_FIELD_* bits in fields, taking
 * their values from options; other fields of options are not read. The kind
 * never changes. The effective-dated settings (above) change from today on; the
 * days before keep the versions they had. A display bit with an options.struct_size
 * of 1.0 (which has no such field) is HC_E_INVALID.
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_CONFLICT HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_READONLY */
int32_t hc_habit_update(hc_store *store, int64_t id, const hc_habit_options *options, uint32_t fields);

/* hc_habit_update with the effective-dated settings changed from from_day on
 * (HC_DAY_NONE: today; a day after today is HC_E_INVALID; a day before the start day
 * means the start day): the version in force on from_day takes the new values from
 * that day, and so does every later version. *out_first and *out_last (either may be
 * NULL) receive the days re-judged, from_day through today, or HC_DAY_NONE both when
 * nothing that judges a day changed.
 * @since 1.1 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_CONFLICT HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_READONLY */
int32_t hc_habit_update_from(hc_store *store, int64_t id, const hc_habit_options *options, uint32_t fields, int32_t from_day,
                             int32_t *out_first, int32_t *out_last);

/* Archives (archived = 1, from today) or restores (archived = 0, from today) a
 * habit. Its entries stay. Restoring is HC_E_CONFLICT if an active habit has its name.
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_CONFLICT HC_E_IO HC_E_MISUSE HC_E_READONLY */
int32_t hc_habit_archive(hc_store *store, int64_t id, int32_t archived);

/* hc_habit_archive from from_day on (HC_DAY_NONE: today; not after today):
 * archived, nothing is due from that day; restored, days are due again from it and
 * the stretch archived before stays excused. *out_first and *out_last as
 * hc_habit_update_from gives them.
 * @since 1.1 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_CONFLICT HC_E_IO HC_E_MISUSE HC_E_READONLY */
int32_t hc_habit_archive_from(hc_store *store, int64_t id, int32_t archived, int32_t from_day, int32_t *out_first, int32_t *out_last);

typedef struct hc_habit_list hc_habit_list;
#define HC_LIST_INCLUDE_ARCHIVED 0x1u

/* A snapshot of the habits, ordered by id, into *out; free with
 * hc_habit_list_free. flags: 0 or HC_LIST_INCLUDE_ARCHIVED.
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_IO HC_E_MISUSE HC_E_NOMEM */
int32_t hc_habit_list_open(hc_habit_list **out, hc_store *store, uint32_t flags);
/* The number of habits in the list.
 * @since 1.0 @thread list @status HC_OK HC_E_INVALID HC_E_MISUSE */
int32_t hc_habit_list_count(int64_t *out_count, const hc_habit_list *list);
/* The habit at index (0-based) into *out: borrowed, valid until the list is
 * freed. Codes: HC_E_INVALID (index out of range).
 * @since 1.0 @thread list @status HC_OK HC_E_INVALID HC_E_MISUSE */
int32_t hc_habit_list_get(const hc_habit **out, const hc_habit_list *list, int64_t index);
/* Releases the list and every habit in it. NULL is ignored.
 * @since 1.0 @thread release @status none */
void hc_habit_list_free(hc_habit_list *list);

/* ------------------------------------------------------------------------ */
/* The completion ledger                                                     */
/* ------------------------------------------------------------------------ */

#define HC_ENTRY_DONE 1   /* the habit was done that day */
#define HC_ENTRY_AMOUNT 2 /* value adds to the day (counter, duration); a reading (measurement) */
#define HC_ENTRY_TOTAL 3  /* value is a source's cumulative figure for the day: the highest counts */
#define HC_ENTRY_SKIP 4   /* the day is excused */
#define HC_ENTRY_UNDO 5   /* cancels the entry named in `undoes`; appended by hc_entry_undo */
#define HC_ENTRY_RELAPSE 6 /* Since 1.1. A quit habit's relapse at at_ms; value: an optional amount (>= 0) */

#define HC_SOURCE_MANUAL 1 /* logged by hand (the default) */
#define HC_SOURCE_IMPORT 2 /* brought in by an import */
#define HC_SOURCE_HEALTH 3 /* reported by a health service */
#define HC_SOURCE_PROOF 4 /* appended by an approved proof */

/*
 * One entry to append. Which kinds a habit takes:
 *   checkmark: DONE, SKIP;  counter, duration: DONE, AMOUNT, TOTAL, SKIP;
 *   measurement: AMOUNT (a reading), SKIP;  quit: RELAPSE (Since 1.1.).
 * value: finite, |value| <= 1e12; AMOUNT may be negative (a correction, or a
 * measurement's reading below zero), TOTAL and RELAPSE are >= 0; DONE and SKIP carry none (kept
 * as 0), and -0.0 is kept as 0.0. day: the local date it counts for, kept as given
 * (travel never moves it); HC_DAY_NONE derives it from at_ms in the home zone.
 * A day more than one day after today is refused here: a guard against a mistyped
 * date, by this device's clock.
 *
 * An entry's own fields follow one rule wherever the entry comes from: its value as
 * above, a day in 0001-01-01...9999-12-31, recorded_at_ms in the years 0001 to 9999,
 * a note of at most 4096 bytes. hc_entry_append, the imports and hc_sync_apply take
 * exactly the same entries (the day-after-today guard is this call's alone: history
 * a device wrote with its clock ahead imports and syncs as written), so nothing one
 * device stores can stop another's sync or the import of its export.
 */
typedef struct hc_entry_input {
    uint32_t struct_size; /* set by HC_ENTRY_INPUT_INIT */
    int32_t kind;         /* HC_ENTRY_DONE .. HC_ENTRY_SKIP, or HC_ENTRY_RELAPSE */
    int64_t habit_id;
    int32_t day;    /* HC_DAY_NONE: from at_ms */
    int32_t source; /* HC_SOURCE_* */
    double value;
    int64_t at_ms;    /* when it happened, UTC ms; 0 means now */
    const char *note; /* optional, up to 4096 bytes */
    /* Read when struct_size covers it: optional retry key, 1 to 200
     * bytes of UTF-8 without control characters. Appending with a key that already
     * appended an entry of the same habit appends nothing and returns that entry's id
     * (HC_OK), so a caller that does not know whether a call went through can repeat
     * it; the same key for another habit is HC_E_CONFLICT. Keys travel with their
     * entries through export and import. */
    const char *key;
} hc_entry_input;

#define HC_ENTRY_INPUT_INIT \
    { (uint32_t)sizeof(hc_entry_input), HC_ENTRY_DONE, 0, HC_DAY_NONE, HC_SOURCE_MANUAL, 0.0, 0, NULL, NULL }
/* Fills *out with the defaults of HC_ENTRY_INPUT_INIT (see "Option, input and result structs").
 * Codes: HC_E_INVALID (NULL, struct_size below its first release).
 * @since 1.0 @thread any @status HC_OK HC_E_INVALID */
int32_t hc_entry_input_init(hc_entry_input *out, uint32_t struct_size);

/* An entry as stored. */
typedef struct hc_entry {
    uint32_t struct_size; /* the library's sizeof(hc_entry) */
    int32_t kind;         /* HC_ENTRY_* */
    int64_t id;           /* increasing in append order */
    int64_t habit_id;
    int32_t day;
    int32_t source;
    double value;
    int64_t recorded_at_ms; /* UTC ms when it happened (at_ms, or when appended) */
    int64_t undoes;         /* UNDO entries: the id they cancel; otherwise 0 */
    int64_t undone_by;      /* the id of the UNDO entry that cancelled this one, or 0 */
    const char *note;       /* NULL when none */
} hc_entry;

/* Appends one entry; its id goes to *out_id (may be NULL). Once this returns
 * HC_OK the entry is committed (or, inside hc_store_begin, will be at commit).
 * Codes: HC_E_INVALID (the message names the field), HC_E_NOT_FOUND (habit), HC_E_CONFLICT
 * (archived habit).
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_CONFLICT HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_READONLY */
int32_t hc_entry_append(int64_t *out_id, hc_store *store, const hc_entry_input *entry);

/* Cancels entry_id by appending an UNDO entry for the same habit and day; the
 * undo's id goes to *out_undo_id (may be NULL). Nothing is deleted. An entry
 * is undone at most once; an UNDO cannot itself be undone (log again instead).
 * Codes: HC_E_CONFLICT (already undone, or an UNDO).
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_CONFLICT HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_READONLY */
int32_t hc_entry_undo(int64_t *out_undo_id, hc_store *store, int64_t entry_id);

/* Cancels the most recent entry of the habit on day (HC_DAY_NONE: today) that
 * still stands. HC_E_NOT_FOUND when there is none. Otherwise as hc_entry_undo.
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_CONFLICT HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_READONLY */
int32_t hc_entry_undo_last(int64_t *out_undo_id, hc_store *store, int64_t habit_id, int32_t day);

typedef struct hc_entry_list hc_entry_list;

/* A snapshot of the entries of habit_id (0: all habits) with from_day <= day
 * <= to_day, in append order, UNDO entries included, into *out; free with
 * hc_entry_list_free. Codes: HC_E_NOT_FOUND (habit).
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_MISUSE HC_E_NOMEM */
int32_t hc_entry_list_open(hc_entry_list **out, hc_store *store, int64_t habit_id, int32_t from_day, int32_t to_day);
/* The number of entries in the list.
 * @since 1.0 @thread list @status HC_OK HC_E_INVALID HC_E_MISUSE */
int32_t hc_entry_list_count(int64_t *out_count, const hc_entry_list *list);
/* The entry at index into *out: borrowed, valid until the list is freed.
 * @since 1.0 @thread list @status HC_OK HC_E_INVALID HC_E_MISUSE */
int32_t hc_entry_list_get(const hc_entry **out, const hc_entry_list *list, int64_t index);
/* Releases the list. NULL is ignored.
 * @since 1.0 @thread release @status none */
void hc_entry_list_free(hc_entry_list *list);

/* The state of one habit on one day: the fold of that day's standing entries.
 * This layout is frozen; a richer state will come under a new name. */
typedef struct hc_day_state {
    int32_t day;
    uint32_t flags; /* HC_DAY_* bits */
    double value;   /* checkmark: 1 if done; counter, duration: the day's total; measurement: the latest reading;
                       quit: the day's relapses (done: none) */
    int32_t entry_count; /* standing entries that day (UNDOs and what they cancel excluded) */
    int32_t reserved;    /* 0 */
} hc_day_state;

#define HC_DAY_DONE 0x1u        /* done: checked, target reached (at least), kept under (at most), or a reading taken */
#define HC_DAY_SKIPPED 0x2u     /* excused by a skip entry and not done */
#define HC_DAY_HAS_ENTRIES 0x4u /* at least one standing entry */

/*
 * The day's total of a habit: what hc_day_state.value holds for that day.
 * The fold: standing AMOUNT entries add up; for TOTAL entries each source's
 * highest report counts, and the sources add up; for a measurement the latest
 * reading is the value.
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_MISUSE */
int32_t hc_habit_day_total(double *out_total, hc_store *store, int64_t habit_id, int32_t day);

/* The states of a habit for every day from from_day to to_day (at most 100000
 * days; the total is to_day - from_day + 1), oldest first, into a caller buffer
 * (see "Caller buffers" at the top).
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_MISUSE */
int32_t hc_habit_day_states(hc_day_state *out, int64_t capacity, int64_t *out_count, hc_store *store,
                            int64_t habit_id, int32_t from_day, int32_t to_day);

/* ------------------------------------------------------------------------ */
/* Schedules: how days are judged                                            */
/* ------------------------------------------------------------------------ */

/*
 * How days are judged (the same rules for the store-backed and the pure calls):
 *  - Nothing is due before a habit's start day or from its archive day on. Each day
 *    is judged by the schedule in force on it: a change never rewrites the past.
 *  - Day-based schedules (daily, days:, every:, monthdays:) make each due day an
 *    occurrence; every:N counts from the first day that schedule governed;
 *    monthdays:31 falls on a shorter month's last day.
 *  - Quota schedules (weekly:N, monthly:N, times:N/M) make each period an occurrence:
 *    a week from the store's first weekday (Monday unless set), a calendar month, or
 *    a block of M days counted from the first day the schedule governed (as every:N
 *    counts), cut to the days the schedule governs. Its quota is min(N, the period's
 *    days not excused). Streaks of times:N/M count blocks (HC_STREAK_UNIT_PERIODS).
 *  - A day is done as hc_day_state says (HC_DAY_DONE). Excused days (a skip entry,
 *    or a vacation) neither break a streak nor add to it; a period whose days are
 *    all excused is excused.
 *  - The occurrence holding as_of stays open while not done: today never breaks a
 *    streak. At-most habits are judged only once the day is over.
 *  - Streaks count kept occurrences in a row (days, or weeks/months for quota
 *    schedules); a missed one ends a streak, unless the streak policy below
 *    forgives it.
 *
 * Streak policies: each app's own rule, as a setting. The store has one (which
 * the global streaks follow); a habit may set its own miss allowance and open
 * day, each falling back to the store's. A store that never set one, and every
 * store made by 0.2.0 or earlier, has the defaults, which are the rules above.
 *  - Miss allowance N (0..31, default 0): a streak survives up to N missed
 *    occurrences in a row; they are counted (current_forgiven, longest_forgiven),
 *    never added to the length; N + 1 in a row end it. N = 1 is Numu's "never miss
 *    twice". The same holds for weekly and monthly quotas, per period.
 *  - Open day: the occurrence holding as_of, not yet kept, leaves the streak as it
 *    was (HC_OPEN_DAY_PREVIOUS, the default: today never breaks a streak) or counts
 *    as a miss (HC_OPEN_DAY_ZERO: with allowance 0 the current streak shows 0 until
 *    it is kept; with allowance 1 it is the one miss forgiven, as Numu counts).
 *  - Off days (the global perfect-day streak only): a day on which no habit is due
 *    is skipped (HC_OFF_DAYS_SKIP, the default) or counts as a missed day
 *    (HC_OFF_DAYS_BREAK, as MorningProof's morning streak). A habit's own streak
 *    never judges the days its schedule leaves free.
 */

#define HC_STREAK_UNIT_DAYS 1 /* days */
#define HC_STREAK_UNIT_WEEKS 2 /* weeks (weekly quotas) */
#define HC_STREAK_UNIT_MONTHS 3 /* months (monthly quotas) */
#define HC_STREAK_UNIT_PERIODS 4 /* times:N/M: blocks of M days */

/* A run of kept occurrences; length 0 means none. An element of caller arrays:
 * this layout is frozen. */
typedef struct hc_streak {
    int32_t first_day;    /* first day of its first occurrence */
    int32_t last_day;     /* last day of its last kept occurrence */
    int32_t length;       /* kept occurrences */
    int32_t excused_days; /* excused days it spans */
} hc_streak;

/* Filled by the streak calls. The caller sets struct_size (HC_STREAK_RESULT_INIT);
 * the library writes no further than it. */
typedef struct hc_streak_result {
    uint32_t struct_size;
    int32_t unit;      /* HC_STREAK_UNIT_* of the schedule in force at as_of */
    hc_streak current; /* still going at as_of; length 0 if the last judged occurrence was missed */
    hc_streak longest;
    /* Read when struct_size covers it (a caller built with 0.2.0's smaller struct gets the fields above only): */
    int32_t current_forgiven; /* missed occurrences the allowance forgave in the current streak, trailing ones included */
    int32_t longest_forgiven; /* the same inside the longest */
} hc_streak_result;

#define HC_STREAK_RESULT_INIT { (uint32_t)sizeof(hc_streak_result), 0, {0, 0, 0, 0}, {0, 0, 0, 0}, 0, 0 }
/* Fills *out with the defaults of HC_STREAK_RESULT_INIT (see "Option, input and result structs").
 * Codes: HC_E_INVALID (NULL, struct_size below its first release).
 * @since 1.0 @thread any @status HC_OK HC_E_INVALID */
int32_t hc_streak_result_init(hc_streak_result *out, uint32_t struct_size);

/* The rules of a habit, for the pure calls that need no store. */
typedef struct hc_habit_rules {
    uint32_t struct_size; /* set by HC_HABIT_RULES_INIT */
    int32_t kind;         /* HC_KIND_*: for the strength of numbers */
    double target;
    int32_t direction;
    int32_t start_day;
    const char *schedule; /* NULL means "daily" */
    int32_t week_start;   /* 0 = Sunday ... 6 = Saturday */
} hc_habit_rules;

#define HC_HABIT_RULES_INIT \
    { (uint32_t)sizeof(hc_habit_rules), HC_KIND_CHECKMARK, 1.0, HC_DIRECTION_AT_LEAST, 0, NULL, 1 }
/* Fills *out with the defaults of HC_HABIT_RULES_INIT (see "Option, input and result structs").
 * Codes: HC_E_INVALID (NULL, struct_size below its first release).
 * @since 1.0 @thread any @status HC_OK HC_E_INVALID */
int32_t hc_habit_rules_init(hc_habit_rules *out, uint32_t struct_size);

/* Sets the first day of the week for weekly quotas: 0 = Sunday ... 6 = Saturday.
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_IO HC_E_MISUSE HC_E_READONLY */
int32_t hc_store_set_week_start(hc_store *store, int32_t weekday);
/* The first day of the week (default 1, Monday).
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_MISUSE */
int32_t hc_store_week_start(int32_t *out_weekday, hc_store *store);

/* ------------------------------------------------------------------------ */
/* Vacations                                                                 */
/* ------------------------------------------------------------------------ */

/* A vacation: days excused for one habit, or (habit_id 0) for all. Frozen layout. */
typedef struct hc_vacation {
    int64_t id;
    int64_t habit_id; /* 0: every habit */
    int32_t from_day;
    int32_t to_day;
} hc_vacation;

/* Adds a vacation from from_day to to_day inclusive; its id to *out_id (may be NULL).
 * Codes: HC_E_NOT_FOUND (habit).
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_READONLY */
int32_t hc_vacation_add(int64_t *out_id, hc_store *store, int64_t habit_id, int32_t from_day, int32_t to_day);
/* Removes a vacation.
 * @since 1.0 @thread store @status HC_OK HC_E_NOT_FOUND HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_READONLY */
int32_t hc_vacation_remove(hc_store *store, int64_t vacation_id);
/* The vacations, by start day, into a caller buffer (see "Caller buffers").
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_IO HC_E_MISUSE */
int32_t hc_vacation_list(hc_vacation *out, int64_t capacity, int64_t *out_count, hc_store *store);

/* ------------------------------------------------------------------------ */
/* Streaks and streak policies                                               */
/* ------------------------------------------------------------------------ */

/* A habit's streaks as of as_of (HC_DAY_NONE: today) into *out, and all its
 * runs, longest first (the more recent first among equals), into the caller
 * buffer best (see "Caller buffers"; best_capacity 0 with best NULL when only
 * *out is wanted).
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_MISUSE */
int32_t hc_habit_streaks(hc_streak_result *out, hc_streak *best, int64_t best_capacity, int64_t *out_best_count,
                         hc_store *store, int64_t habit_id, int32_t as_of);

/* The same computation without a store, for frontends that keep their own data:
 * days holds day_count states (any order, days without entries may be left out;
 * HC_DAY_SKIPPED marks excused days). Uses the same code as hc_habit_streaks.
 * @since 1.0 @thread any @status HC_OK HC_E_INVALID */
int32_t hc_streak_compute(hc_streak_result *out, hc_streak *best, int64_t best_capacity, int64_t *out_best_count,
                           const hc_habit_rules *rules, const hc_day_state *days, int64_t day_count, int32_t as_of);

/* The store-wide streaks (HorizonFrame's daily ritual) as of as_of:
 * perfect days (at least one habit due, every due habit done; days with nothing
 * due neither break nor add) and active days (at least one habit done).
 * Both follow the store's streak policy (off days: the perfect-day streak only).
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_IO HC_E_MISUSE */
int32_t hc_store_streaks(hc_streak_result *out_perfect, hc_streak_result *out_active, hc_store *store, int32_t as_of);

#define HC_OPEN_DAY_PREVIOUS 1 /* an open occurrence leaves the streak as it was (default) */
#define HC_OPEN_DAY_ZERO 2     /* an open occurrence counts as a miss */
#define HC_OFF_DAYS_SKIP 1     /* a day with nothing due is skipped (default) */
#define HC_OFF_DAYS_BREAK 2    /* a day with nothing due breaks the perfect-day streak */
#define HC_POLICY_INHERIT (-1) /* miss_allowance of a habit: the store's */

/* A streak policy (see "Streak policies" above). The caller sets struct_size
 * (HC_STREAK_POLICY_INIT: the defaults). For a habit, miss_allowance
 * HC_POLICY_INHERIT and open_day 0 follow the store; off_days is the store's only
 * (0 for a habit). */
typedef struct hc_streak_policy {
    uint32_t struct_size;
    int32_t miss_allowance; /* 0..31 */
    int32_t open_day;       /* HC_OPEN_DAY_* */
    int32_t off_days;       /* HC_OFF_DAYS_* */
} hc_streak_policy;

#define HC_STREAK_POLICY_INIT { (uint32_t)sizeof(hc_streak_policy), 0, HC_OPEN_DAY_PREVIOUS, HC_OFF_DAYS_SKIP }
/* Fills *out with the defaults of HC_STREAK_POLICY_INIT (see "Option, input and result structs").
 * Codes: HC_E_INVALID (NULL, struct_size below its first release).
 * @since 1.0 @thread any @status HC_OK HC_E_INVALID */
int32_t hc_streak_policy_init(hc_streak_policy *out, uint32_t struct_size);

/* Sets the store-wide streak policy: every field is required.
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_READONLY */
int32_t hc_store_set_streak_policy(hc_store *store, const hc_streak_policy *policy);
/* The store-wide streak policy into *out (struct_size set by the caller).
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_IO HC_E_CORRUPT HC_E_MISUSE */
int32_t hc_store_streak_policy(hc_streak_policy *out, hc_store *store);

#define HC_POLICY_OWN 0x1u /* hc_habit_streak_policy: the habit's own fields, inherited ones as HC_POLICY_INHERIT / 0 */

/* Sets a habit's own miss allowance and open day (HC_POLICY_INHERIT / 0: the
 * store's); off_days must be 0. Applies to every day, past ones too: it is how
 * the history is read, not a change in it.
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_READONLY */
int32_t hc_habit_set_streak_policy(hc_store *store, int64_t habit_id, const hc_streak_policy *policy);
/* The policy a habit's streaks follow into *out: its own fields over the
 * store's, off_days the store's; with HC_POLICY_OWN in flags, the habit's own
 * fields only (off_days 0).
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_CORRUPT HC_E_MISUSE */
int32_t hc_habit_streak_policy(hc_streak_policy *out, hc_store *store, int64_t habit_id, uint32_t flags);

/* hc_streak_compute under a streak policy (NULL: the defaults; off_days is not
 * read). The same fold as every other streak call.
 * @since 1.0 @thread any @status HC_OK HC_E_INVALID */
int32_t hc_streak_compute_with_policy(hc_streak_result *out, hc_streak *best, int64_t best_capacity, int64_t *out_best_count,
                                       const hc_habit_rules *rules, const hc_streak_policy *policy, const hc_day_state *days,
                                       int64_t day_count, int32_t as_of);

/* ------------------------------------------------------------------------ */
/* Scores, strength and completion                                           */
/* ------------------------------------------------------------------------ */

/* The score of one day across all habits. Frozen layout. */
typedef struct hc_day_score {
    int32_t day;
    int32_t due;     /* habits due, excused ones left out */
    int32_t done;    /* of those, done */
    int32_t excused; /* habits excused that day */
    double score;    /* done / due, 0.0 to 1.0; -1.0 when nothing is due */
} hc_day_score;

/* Daily scores for every day from from_day to to_day (at most 100000 days; the
 * total is to_day - from_day + 1) into a caller buffer (see "Caller buffers").
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_IO HC_E_MISUSE */
int32_t hc_store_day_scores(hc_day_score *out, int64_t capacity, int64_t *out_count, hc_store *store, int32_t from_day,
                      int32_t to_day);

/*
 * Habit strength: Loop Habit Tracker's score (uhabits-core ScoreList), the same
 * number for every day that is over (to 1e-6, checked against Loop's own tables
 * and its CSV export). Each day from the start day takes one step
 * s = s_prev * m + v * (1 - m), m = 0.5 ^ (sqrt(n / d) / 13), n/d the frequency
 * "n times in d days". v comes from a window over the last days, the day included:
 *  - checkmarks: done days in the last d days against n, at most 1; below once a
 *    day both doubled (2n in 2d days), so irregular weeks still reach 1;
 *  - counters and durations, at least: the last d days' sum against the target,
 *    at most 1; at most: 1 - (sum - target) / target within 0..1, starting at 1.
 *    Amounts count in thousandths, and a skipped day adds 0.003, as Loop stores them.
 * A skipped or vacation day takes no step (the value stays). Schedules Loop lacks
 * use the frequency they amount to: days:mon,wed,fri 3/7, every:N 1/N, monthdays
 * with k days k/30, weekly:N N/7, monthly:N N/30, times:N/M N/M, daily 1/1; a
 * schedule change starts its own window. Our one difference: the open day (today
 * for hc_habit_strength, to_day for hc_strength_compute) moves the value only once
 * done. Days before the start day are 0; after archiving the value stays; an
 * at-most day with a skip entry that is within its limit counts as done (the day
 * rule of hc_day_state), where Loop would hold the value. Measurements have no
 * strength (0).
 * The value at the end of each day from from_day to to_day goes into a caller
 * buffer, as for hc_store_day_scores.
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_MISUSE */
int32_t hc_habit_strength(double *out, int64_t capacity, int64_t *out_count, hc_store *store, int64_t habit_id,
                          int32_t from_day, int32_t to_day);
/* The same without a store (see hc_streak_compute for days).
 * @since 1.0 @thread any @status HC_OK HC_E_INVALID */
int32_t hc_strength_compute(double *out, int64_t capacity, int64_t *out_count, const hc_habit_rules *rules,
                            const hc_day_state *days, int64_t day_count, int32_t from_day, int32_t to_day);

/*
 * Rates and the quota rule, stated once:
 *  - A habit's completion (hc_habit_completion) counts its occurrences within the
 *    range: kept / judged, quota periods by their done days up to the quota against
 *    the quota. The current occurrence (the one holding today, not yet kept: this
 *    week of a weekly:3, today itself) is left out of kept, judged and rate, and
 *    given beside them (Since 1.1.): current_kept of current_required, its done days
 *    so far up to its quota (2 of 3 on a Wednesday; today not done yet is 0 of 1),
 *    and rate_with_current counts it as that fraction. An at-most day is not judged
 *    before it ends and is not given.
 *  - A day across habits reads quota habits (weekly:N, monthly:N, times:N/M) one of
 *    two ways. Due until met (hc_store_day_scores, hc_group_completion, hc_store_due,
 *    perfect days): a quota habit is due on each day of its period until its quota
 *    is met (a day done is due and done; once met, its later days are not due).
 *    Day-based (hc_group_day_rates's rate, as Numu shows a system's day): quota
 *    habits are left out of due and done, and each one's period progress is given
 *    beside it. hc_group_day_rates gives both readings.
 */

/* How often occurrences were kept. The caller sets struct_size (HC_COMPLETION_INIT). */
typedef struct hc_completion {
    uint32_t struct_size;
    int32_t kept;    /* kept occurrences (quota periods: done days up to the quota) */
    int32_t judged;  /* occurrences over (quota periods: their quotas); open and excused left out */
    int32_t excused; /* excused occurrences */
    double rate;     /* kept / judged, 0.0 to 1.0; -1.0 when nothing was judged */
    /* Since 1.1. (A caller passing the 1.0 struct_size gets the fields above only.) */
    int32_t current_kept;     /* hc_habit_completion: the current, unfinished occurrence in the range: done so far, up to its quota; else 0 */
    int32_t current_required; /* its quota (1 for a day); 0 when none is open in the range */
    double rate_with_current; /* (kept + current_kept) / (judged + current_required); -1.0 when both are 0 */
} hc_completion;

#define HC_COMPLETION_INIT { (uint32_t)sizeof(hc_completion), 0, 0, 0, 0.0, 0, 0, 0.0 }
/* Fills *out with the defaults of HC_COMPLETION_INIT (see "Option, input and result structs").
 * Codes: HC_E_INVALID (NULL, struct_size below its first release).
 * @since 1.0 @thread any @status HC_OK HC_E_INVALID */
int32_t hc_completion_init(hc_completion *out, uint32_t struct_size);

/* A habit's completion over the occurrences lying within from_day..to_day.
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_MISUSE */
int32_t hc_habit_completion(hc_completion *out, hc_store *store, int64_t habit_id, int32_t from_day, int32_t to_day);

/* A group's (Numu's "system") completion: on as_of (HC_DAY_NONE: today) into
 * *out_day, counting due habits and done ones, and over from_day..to_day into
 * *out_window, counting due habit-days. Group names ignore ASCII case.
 * Codes: HC_E_NOT_FOUND (no such group).
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_MISUSE */
int32_t hc_group_completion(hc_completion *out_day, hc_completion *out_window, hc_store *store, const char *group,
                            int32_t as_of, int32_t from_day, int32_t to_day);

/* A quota habit's period holding a day, as of that day. An element of caller
 * buffers: this layout is frozen. Since 1.1. */
typedef struct hc_quota_progress {
    int64_t habit_id;
    int32_t period_first; /* the period's first day */
    int32_t done;         /* done days from period_first to the day */
    int32_t required;     /* the period's quota (excused days taken off) */
    int32_t met;          /* 1 when done >= required */
} hc_quota_progress;

/* One day of a group, read both ways (see "Rates and the quota rule"). The caller
 * sets struct_size (HC_GROUP_DAY_INIT). Since 1.1. */
typedef struct hc_group_day {
    uint32_t struct_size;
    int32_t day;
    /* Day-based (Numu's day rate): habits whose schedule names days; quota habits left out. */
    int32_t due;          /* due, excused ones left out */
    int32_t done;         /* of those, done */
    int32_t excused;      /* excused that day */
    int32_t quota_habits; /* quota habits beside it: those whose period holds the day (an all-excused period left out) */
    double rate;          /* done / due, 0.0 to 1.0; -1.0 when none is due */
    int32_t quota_met;    /* of the quota habits, those whose quota is met by the day */
    /* Due until met (hc_group_completion's day, the daily score): every habit. */
    int32_t all_due;
    int32_t all_done;
    int32_t all_excused;
    double all_rate;      /* all_done / all_due; -1.0 when none is due */
} hc_group_day;

#define HC_GROUP_DAY_INIT { (uint32_t)sizeof(hc_group_day), 0, 0, 0, 0, 0, 0.0, 0, 0, 0, 0, 0.0 }
/* Fills *out with the defaults of HC_GROUP_DAY_INIT (see "Option, input and result structs").
 * Codes: HC_E_INVALID (NULL, struct_size below its first release).
 * @since 1.1 @thread any @status HC_OK HC_E_INVALID */
int32_t hc_group_day_init(hc_group_day *out, uint32_t struct_size);

/* A group's (Numu's "system") day (HC_DAY_NONE: today) read both ways into *out,
 * and each quota habit's period progress, by habit id, into the caller buffer
 * quota (see "Caller buffers"; quota NULL with quota_capacity 0 when only *out and
 * the count are wanted). group NULL reads every habit but
 * measurements; names ignore ASCII case. Archived habits count on the days before
 * their archive day. Codes: HC_E_NOT_FOUND (no such group).
 * @since 1.1 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_MISUSE */
int32_t hc_group_day_rates(hc_group_day *out, hc_quota_progress *quota, int64_t quota_capacity, int64_t *out_quota_count,
                           hc_store *store, const char *group, int32_t day);

#define HC_DUE_PENDING 1 /* due and not done yet */
#define HC_DUE_DONE 2 /* done */
#define HC_DUE_EXCUSED 3 /* skipped or on vacation */

/* ------------------------------------------------------------------------ */
/* Due today and routines                                                    */
/* ------------------------------------------------------------------------ */

/* One habit due on a day. Frozen layout. */
typedef struct hc_due_item {
    int64_t habit_id;
    int32_t routine; /* HC_ROUTINE_* */
    int32_t state;   /* HC_DUE_* */
    double value;    /* the day's value so far */
    double target;
} hc_due_item;

/* What is due on day (HC_DAY_NONE: today), grouped by routine (morning, day,
 * evening, anytime) and by name within one: Void's dashboard in one call. Quota
 * habits are due until their period's quota is met. Into a caller buffer (see
 * "Caller buffers").
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_IO HC_E_MISUSE */
int32_t hc_store_due(hc_due_item *out, int64_t capacity, int64_t *out_count, hc_store *store, int32_t day);

/*
 * Routines by the clock (Void): the morning, day and evening start at three
 * times, in minutes after the store's day start (0 <= morning < day < evening <
 * 1440). Defaults 300, 660, 1080: 05:00, 11:00 and 18:00 with the day starting at
 * midnight; a day start of 03:00 shifts them to 08:00, 14:00 and 21:00. From the
 * morning start to the day start it is morning, then day until the evening start,
 * otherwise (the night and the early hours included) evening.
 */
/* @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_IO HC_E_MISUSE HC_E_READONLY */
int32_t hc_store_set_routine_bounds(hc_store *store, int32_t morning, int32_t day, int32_t evening);
/* The three bounds (any out pointer may be NULL).
 * @since 1.0 @thread store @status HC_OK HC_E_IO HC_E_CORRUPT HC_E_MISUSE */
int32_t hc_store_routine_bounds(int32_t *out_morning, int32_t *out_day, int32_t *out_evening, hc_store *store);
/* The routine (HC_ROUTINE_MORNING, _DAY or _EVENING) at the UTC instant at_ms
 * (0: now), in the home zone.
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_IO HC_E_CORRUPT HC_E_MISUSE */
int32_t hc_store_routine_at(int32_t *out_routine, hc_store *store, int64_t at_ms);

/* Writes, for a widget, a complication or a watch face that cannot open SQLite
 * nor wake at the day boundary, what "today" shows at at_ms (UTC ms; 0: now) as
 * a small JSON file at path ({"format":"habitcore-today","version":1,...}, every
 * field in docs/FORMATS.md): today's due habits with their value, target, state
 * and current streak, the day score, the last weeks as a grid of cells, the
 * routine now, and every instant up to and including the next day start where
 * what it shows changes (a routine boundary, the day start), each with the
 * routine and the day's state from then on (the next day's due list, score and
 * streaks after the day start), so an app can hand a widget a timeline; plus the
 * store revision it reflects (hc_store_revision's number). The same store state
 * and at_ms give the same bytes. Written atomically, read from one snapshot of
 * the store, on a store opened read-only too, as hc_shield_snapshot_write.
 * Codes: HC_E_INVALID (NULL or empty path, bad at_ms), HC_E_IO (cannot write).
 * @since 1.1 @thread store @status HC_OK HC_E_INVALID HC_E_IO HC_E_CORRUPT HC_E_BUSY HC_E_MISUSE */
int32_t hc_today_snapshot_write(hc_store *store, const char *path, int64_t at_ms);

/* ------------------------------------------------------------------------ */
/* Measurements                                                              */
/* ------------------------------------------------------------------------ */

/* Readings of a measurement habit. The caller sets struct_size (HC_MEASUREMENT_STATS_INIT). */
typedef struct hc_measurement_stats {
    uint32_t struct_size;
    int32_t count;      /* days with a reading in the window */
    int32_t latest_day; /* HC_DAY_NONE when count is 0 */
    double latest;
    int32_t best_day;   /* the best by the habit's direction (at least: highest) */
    double best;
    double change;      /* latest minus the window's first reading; 0 with fewer than two */
} hc_measurement_stats;

#define HC_MEASUREMENT_STATS_INIT { (uint32_t)sizeof(hc_measurement_stats), 0, HC_DAY_NONE, 0.0, HC_DAY_NONE, 0.0, 0.0 }
/* Fills *out with the defaults of HC_MEASUREMENT_STATS_INIT (see "Option, input and result
 * structs").
 * Codes: HC_E_INVALID (NULL, struct_size below its first release).
 * @since 1.0 @thread any @status HC_OK HC_E_INVALID */
int32_t hc_measurement_stats_init(hc_measurement_stats *out, uint32_t struct_size);

/* A measurement habit's readings from from_day to to_day. Codes: HC_E_INVALID (not a
 * measurement habit).
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_MISUSE */
int32_t hc_habit_measurements(hc_measurement_stats *out, hc_store *store, int64_t habit_id, int32_t from_day,
                              int32_t to_day);

/* ------------------------------------------------------------------------ */
/* Quit habits. Since 1.1.                                                   */
/* ------------------------------------------------------------------------ */

/*
 * A quit habit (HC_KIND_QUIT) is a habit a person is giving up. Relapses are
 * entries (HC_ENTRY_RELAPSE, appended with hc_entry_append): append-only like every
 * entry, at the instant at_ms (0: now), with an optional note and amount (what was
 * smoked, spent, eaten: >= 0, 0 for none); hc_entry_undo takes one back as it takes
 * back any entry. They sync, export, import and back up as entries do.
 *
 * How it is read, one rule each:
 *  - A day is clean while no relapse stands on it. hc_day_state: value is the day's
 *    relapses, HC_DAY_DONE a clean day. Like an at-most habit, a day is decided once it
 *    is over: today is clean so far and never breaks a streak.
 *  - Streaks, strength, scores, completion, day scores, global streaks, group rates
 *    and awards read those clean days, every day judged (a streak is a clean run of
 *    days, HC_STREAK_UNIT_DAYS, whatever the allowance). A vacation or an archived
 *    stretch excuses days there as for any habit; the clean runs below count calendar
 *    days and ignore them (quitting does not pause).
 *  - The allowance is the schedule, versioned by the day it applies from like every
 *    schedule: "daily" allows no relapse (the period is the day), "weekly:N" at most N
 *    relapses a week (weeks from the store's first weekday, hc_store_set_week_start),
 *    "monthly:N" at most N a calendar month; other schedules are HC_E_INVALID. A
 *    period is judged by the version in force on it, cut to the days that version
 *    governs. The direction is always HC_DIRECTION_AT_MOST (any other is ignored).
 *  - The target is what a clean day saves, money or time in the habit's unit (0: none
 *    counted), versioned the same way: a new price applies from its day on.
 *  - Awards: HC_METRIC_LONGEST_STREAK of a quit habit is its longest clean run and
 *    HC_METRIC_CURRENT_STREAK its current one (as its streaks count them); completions
 *    count its clean days. Reminders: a reminder rule of a quit habit fires at its times
 *    every day, relapse or not (a check-in). Shields: a quit habit never lifts a shield
 *    on the day itself (the day is decided only once it is over, as an at-most habit's
 *    is): a shield that should open on a clean day waits for a habit that is done,
 *    not for a quit habit.
 *  - Loop: its habits import as they are (an at-most numeric habit stays a counter kept
 *    at most; Loop has no quit habit). hc_store_export_loop_csv writes a quit habit as
 *    a daily numeric habit of its relapses per day ("relapses"), at most 0: Loop shows a
 *    day with none as kept; the allowance and the saving stay here. Imported back, it is
 *    a counter kept at most 0.001.
 */

/* The allowance period of hc_quit_status. */
#define HC_QUIT_PERIOD_DAY 1   /* "daily": no relapse allowed */
#define HC_QUIT_PERIOD_WEEK 2  /* "weekly:N" */
#define HC_QUIT_PERIOD_MONTH 3 /* "monthly:N" */

/* Where a quit habit stands. The caller sets struct_size (HC_QUIT_STATUS_INIT). Days
 * are in the store's zone and day start at at_ms; clean runs count calendar days and
 * count the day answered for while it is clean. */
typedef struct hc_quit_status {
    uint32_t struct_size;
    int32_t as_of;              /* the day answered for: at_ms's local day */
    int64_t at_ms;              /* the instant answered for */
    int64_t last_relapse_id;    /* the last standing relapse on or before as_of (latest day, then instant); 0: none */
    int64_t last_relapse_ms;    /* its instant; 0 when none */
    int32_t last_relapse_day;   /* its day; HC_DAY_NONE when none */
    int32_t days_since;         /* calendar days from the last relapse's day (none: the start day) to as_of */
    int64_t since_ms;           /* ms from the last relapse (none: the start day's first instant) to at_ms, >= 0: a live clock */
    int32_t current_clean_days; /* clean days in a row through as_of */
    int32_t best_clean_days;    /* the longest clean run (the earliest among equals) ... */
    int32_t best_clean_first;   /* ... its first day (HC_DAY_NONE when 0) */
    int32_t best_clean_last;    /* ... and last day (HC_DAY_NONE when 0) */
    int32_t clean_days;         /* clean days from the first day (the start, or an earlier relapse) to as_of */
    int32_t period;             /* HC_QUIT_PERIOD_* of the version in force on as_of */
    int32_t period_first;       /* the period holding as_of, cut to that version's days */
    int32_t period_last;
    int32_t period_relapses;    /* standing relapses in it */
    int32_t allowance;          /* relapses it allows (0 for daily) */
    int32_t over_allowance;     /* 1 when period_relapses > allowance */
    int32_t periods_within;     /* periods in a row within their allowance, through the current one while within */
    int32_t week_relapses;      /* relapses in the week holding as_of (the store's week start) */
    int32_t month_relapses;     /* relapses in the calendar month holding as_of */
    int64_t relapses;           /* standing relapses on or before as_of */
    double relapse_amount;      /* the sum of their amounts */
    double saved;               /* each clean day's target summed: money or time saved, in the habit's unit */
} hc_quit_status;

#define HC_QUIT_STATUS_INIT                                                                                          \
    { (uint32_t)sizeof(hc_quit_status), HC_DAY_NONE, 0, 0, 0, HC_DAY_NONE, 0, 0, 0, 0, HC_DAY_NONE, HC_DAY_NONE, 0, \
      HC_QUIT_PERIOD_DAY, HC_DAY_NONE, HC_DAY_NONE, 0, 0, 0, 0, 0, 0, 0, 0.0, 0.0 }
/* Fills *out with the defaults of HC_QUIT_STATUS_INIT (see "Option, input and result structs").
 * Codes: HC_E_INVALID (NULL, struct_size below its first release).
 * @since 1.1 @thread any @status HC_OK HC_E_INVALID */
int32_t hc_quit_status_init(hc_quit_status *out, uint32_t struct_size);

/* Where the quit habit habit_id stands at at_ms (0: now), into *out (see
 * hc_quit_status). Relapses dated after at_ms's day are not counted yet.
 * Codes: HC_E_INVALID (out NULL or its struct_size unknown, not a quit habit, at_ms
 * outside the years 0001 to 9999), HC_E_NOT_FOUND (habit).
 * @since 1.1 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_MISUSE */
int32_t hc_quit_status_get(hc_quit_status *out, hc_store *store, int64_t habit_id, int64_t at_ms);

/* ------------------------------------------------------------------------ */
/* Timers. Since 1.1.                                                        */
/* ------------------------------------------------------------------------ */

/*
 * A timer times a duration habit (HC_KIND_DURATION) live: started, paused, resumed,
 * stopped, or discarded (started by mistake: it adds nothing). The rules, one each:
 *  - A timer is its events, never a row that changes: each is appended at an instant
 *    (ms; 0: now) and synced, backed up, exported and imported as a record of its own.
 *    A timer's id is its start's. A crash or a kill loses nothing: a running timer is
 *    its start, and shows its elapsed time in any process that opens the store.
 *  - Its state is the fold of its events ordered by instant, then by action (pause,
 *    resume, stop, discard), never by arrival: every replica holding the same events
 *    shows the same state. The earliest stop or discard ends it (two devices stopping
 *    one timer stop it once); a pause while paused, a resume while running and every
 *    event after the end are ignored. Locally such an event is refused instead:
 *    HC_E_CONFLICT (already paused, running, stopped or discarded), and an instant
 *    before the start is HC_E_INVALID.
 *  - Elapsed time is the running spans' instants subtracted, never wall-clock
 *    arithmetic: a DST change or a zone change moves nothing.
 *  - Which day: a timer's time counts, whole, to the day it started, in the store's
 *    zone and day start at the start (carried with the start, so every replica counts
 *    it there); it never splits across midnight or the day start.
 *  - One duration amount: once stopped (by an event or by its target), a timer adds its
 *    running seconds (whole, rounded down) to its day, once: the day's value, streaks,
 *    strength, awards, shields, the snapshot and exports' folds read it as an amount
 *    entry of its day. It is not an entry of the ledger (hc_entry_list does not list it
 *    and hc_entry_undo cannot take it back): no second record exists that two devices
 *    could both write. A running or paused timer adds nothing yet; a discarded one never.
 *  - Several timers may run at once, on one habit or on several.
 *  - Auto-complete (HC_TIMER_AUTO_COMPLETE at the start): the timer stops itself at
 *    the instant its own running time reaches the habit's target in force on its day
 *    (seconds); the day's other entries do not move that instant, so every replica
 *    computes the same one, and no event is written for it.
 *  - Shields: a timer's time counts from its end on, as an entry's counts from when it
 *    was recorded: the instant it was stopped, or the instant an auto-complete timer
 *    reaches its target. That completion is known ahead, so a running auto-complete
 *    timer is in the shield plan: when its time makes the day done, hc_shield_state
 *    before it gives that instant as next_change_ms (HC_SHIELD_CAUSE_COMPLETION, as
 *    any completion) and hc_shield_transitions lists the lift there, on the whole
 *    minute at or after it (lifts round up: a completion at 10:10:20 lifts at 10:11).
 *    A running timer without auto-complete, or a paused one, lifts nothing until it
 *    stops. A pause, resume, stop or discard moves the shield revision, so a plan
 *    made before it is stale, not wrong. A state or transition at an instant counts
 *    the timers ended by that instant, not by now: asked for an instant before a stop
 *    already written, the timer has not lifted the shield; asked for one after a stop
 *    dated later than now, it has.
 *  - Awards: HC_METRIC_FOCUSED_SECONDS counts stopped timers' seconds (a habit's, any
 *    habit's or all habits' summed, by scope).
 *  - Credits: a day a timer fills earns a rewarded habit's minutes as a typed amount does
 *    (see "Credits", Habits), an auto-completed one from its completion instant on.
 *  - A habit archived on or before the start's day takes no new timer (HC_E_INVALID).
 */

/* Timer actions (hc_timer_act takes PAUSE...DISCARD; a start is hc_timer_start). */
#define HC_TIMER_ACTION_START 1
#define HC_TIMER_ACTION_PAUSE 2
#define HC_TIMER_ACTION_RESUME 3
#define HC_TIMER_ACTION_STOP 4
#define HC_TIMER_ACTION_DISCARD 5

/* Timer states. */
#define HC_TIMER_RUNNING 1
#define HC_TIMER_PAUSED 2
#define HC_TIMER_STOPPED 3
#define HC_TIMER_DISCARDED 4

/* hc_timer_start flags. */
#define HC_TIMER_AUTO_COMPLETE 0x1u /* stop at the instant its running time reaches the day's target */

/* Where a timer stands at an instant. The caller sets struct_size for
 * hc_timer_status_get (HC_TIMER_STATUS_INIT); a list's elements carry the library's. */
typedef struct hc_timer_status {
    uint32_t struct_size;
    int32_t state;          /* HC_TIMER_* */
    int64_t id;             /* the timer's id (its start's) */
    int64_t habit_id;
    int64_t at_ms;          /* the instant answered for */
    int64_t started_at_ms;
    int64_t elapsed_ms;     /* running ms: through at_ms while it runs or is paused, through its end once stopped; 0 discarded */
    int64_t ended_at_ms;    /* when it stopped, completed itself or was discarded; 0 while running or paused */
    int64_t seconds;        /* what it adds to its day: elapsed whole seconds once stopped, else 0 */
    int32_t day;            /* the day its time counts to */
    uint32_t flags;         /* HC_TIMER_AUTO_COMPLETE when started with it */
    int32_t completed;      /* 1 when it stopped by reaching its target */
} hc_timer_status;

#define HC_TIMER_STATUS_INIT \
    { (uint32_t)sizeof(hc_timer_status), HC_TIMER_RUNNING, 0, 0, 0, 0, 0, 0, 0, HC_DAY_NONE, 0u, 0 }
/* Fills *out with the defaults of HC_TIMER_STATUS_INIT (see "Option, input and result structs").
 * Codes: HC_E_INVALID (NULL, struct_size below its first release).
 * @since 1.1 @thread any @status HC_OK HC_E_INVALID */
int32_t hc_timer_status_init(hc_timer_status *out, uint32_t struct_size);

/* Starts a timer on the duration habit habit_id at at_ms (0: now); its id to *out_id
 * (may be NULL). flags: 0 or HC_TIMER_AUTO_COMPLETE.
 * Codes: HC_E_INVALID (not a duration habit, archived, unknown flags, at_ms outside the
 * years 0001 to 9999), HC_E_NOT_FOUND (habit).
 * @since 1.1 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_READONLY */
int32_t hc_timer_start(int64_t *out_id, hc_store *store, int64_t habit_id, uint32_t flags, int64_t at_ms);

/* Pauses, resumes, stops or discards timer timer_id at at_ms (0: now): action is
 * HC_TIMER_ACTION_PAUSE, _RESUME, _STOP or _DISCARD.
 * Codes: HC_E_INVALID (action out of range, at_ms before the start or outside the years
 * 0001 to 9999), HC_E_NOT_FOUND (timer), HC_E_CONFLICT (already paused, running, stopped,
 * completed or discarded).
 * @since 1.1 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_CONFLICT HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_READONLY */
int32_t hc_timer_act(hc_store *store, int64_t timer_id, int32_t action, int64_t at_ms);

/* Where timer timer_id stands at at_ms (0: now), into *out (see hc_timer_status).
 * Codes: HC_E_INVALID (out NULL or its struct_size unknown, at_ms outside the years
 * 0001 to 9999), HC_E_NOT_FOUND (timer).
 * @since 1.1 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_MISUSE */
int32_t hc_timer_status_get(hc_timer_status *out, hc_store *store, int64_t timer_id, int64_t at_ms);

typedef struct hc_timer_list hc_timer_list;

/* The timers running or paused at at_ms (0: now), oldest first, into *out; free with
 * hc_timer_list_free.
 * @since 1.1 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_MISUSE HC_E_NOMEM */
int32_t hc_timer_list_open(hc_timer_list **out, hc_store *store, int64_t at_ms);
/* The number of timers.
 * @since 1.1 @thread list @status HC_OK HC_E_INVALID HC_E_MISUSE */
int32_t hc_timer_list_count(int64_t *out_count, const hc_timer_list *list);
/* The timer at index: borrowed, valid until the list is freed.
 * @since 1.1 @thread list @status HC_OK HC_E_INVALID HC_E_MISUSE */
int32_t hc_timer_list_get(const hc_timer_status **out, const hc_timer_list *list, int64_t index);
/* Releases the list. NULL is ignored.
 * @since 1.1 @thread release @status none */
void hc_timer_list_free(hc_timer_list *list);

/* ------------------------------------------------------------------------ */
/* Credits: steps and habits earn minutes, minutes unlock apps               */
/* ------------------------------------------------------------------------ */

/*
 * The credit ledger (rules stated once, here and in the README):
 *  - Credits are whole minutes. Each account's entries are append-only: EARN (+),
 *    SPEND (-), ADJUST (+ or -), EXPIRE (-); each has the local day it counts for,
 *    the UTC time it was written, a reason and what caused it. The balance is the
 *    fold of the entries; nothing is ever updated.
 *  - Account 1 is the default account; account_id 0 in any call means it.
 *  - Rules take effect from a day on (today or later only), so a change never
 *    re-rates a day already lived: steps per minute (default 100), minutes one
 *    completed day of a habit earns (default 0), the expiry policy (default
 *    HC_EXPIRY_END_OF_DAY).
 *  - Steps: a health source reports a day's cumulative total, as often as it
 *    likes. The day earns floor(highest total / steps per minute) minutes in all;
 *    a report that is not higher earns nothing and takes nothing back.
 *  - Habits: when a rewarded habit's day becomes done, each rewarding account earns
 *    the rule's minutes for that day, once; when an undo makes the day not done,
 *    an ADJUST entry takes them back, even if they were spent: the balance may
 *    then be negative (a debt that later earnings pay back). Imported history
 *    earns nothing. The day is judged by its merged history, timers' amounts included:
 *    a timer's stop earns in its own write, and one that arrives by sync and ends a
 *    timer sooner takes them back; a day time alone changes (an auto-complete timer
 *    completes, which no event records, or an event dated ahead of the clock comes due)
 *    is counted by the balance from that instant on and written, once, by the store's
 *    next write of a rewarded habit or an account, or its next sync apply.
 *    A timer's settlement names no entry (cause_id 0).
 *  - Expiry: days are folded in order. Under HC_EXPIRY_END_OF_DAY a positive
 *    balance left when a day is over expires (credits for a past day, reported
 *    late, are expired at once); a negative balance never expires. Under
 *    HC_EXPIRY_CARRY_OVER nothing expires. The EXPIRE entries are written on the
 *    account's next write; the balance counts them either way.
 *  - Spending checks and spends in one write transaction: with several threads
 *    and processes spending at once, the sum of the spends never exceeds what was
 *    available. A spend larger than the balance is HC_E_INSUFFICIENT and writes
 *    nothing.
 *  - Limits, checked before any arithmetic: steps 0..1000000 a day, minutes
 *    1..525600 per spend (adjust: -525600..525600, not 0), steps per minute
 *    1..100000, minutes per completion 0..1440, reasons up to 500 bytes.
 */
#define HC_CREDIT_EARN 1 /* minutes earned */
#define HC_CREDIT_SPEND 2 /* minutes spent */
#define HC_CREDIT_ADJUST 3 /* a correction by hand */
#define HC_CREDIT_EXPIRE 4 /* minutes expired */
#define HC_CREDIT_REFUND 5 /* unused minutes of an unlock session ended early (cause HC_CAUSE_SESSION) */

#define HC_CAUSE_STEPS 1       /* a step sync; steps holds the reported total */
#define HC_CAUSE_HABIT_ENTRY 2 /* cause_id: the habit entry (or undo) that changed the day; habit_id set */
#define HC_CAUSE_SESSION 3     /* cause_id: the unlock session the spend opened, or the refund is for */
#define HC_CAUSE_MANUAL 4 /* by hand */
#define HC_CAUSE_EXPIRY 5 /* the expiry rule */

#define HC_EXPIRY_END_OF_DAY 1
#define HC_EXPIRY_CARRY_OVER 2

#define HC_RULE_STEPS_PER_MINUTE 1 /* value: steps that earn one minute */
#define HC_RULE_HABIT_MINUTES 2    /* value: minutes per completed day of habit_id */
#define HC_RULE_EXPIRY 3           /* value: HC_EXPIRY_* */

#define HC_ACCOUNT_DEFAULT 1

/* Creates a named account (names are unique, case-insensitively); its id goes
 * to *out_id.
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_CONFLICT HC_E_IO HC_E_MISUSE HC_E_READONLY */
int32_t hc_credit_account_create(int64_t *out_id, hc_store *store, const char *name);
/* The id of the account named name.
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_MISUSE */
int32_t hc_credit_account_find(int64_t *out_id, hc_store *store, const char *name);

/* Records a rule of kind HC_RULE_* with value, effective from from_day
 * (HC_DAY_NONE: today; earlier than today is HC_E_INVALID); habit_id only for
 * HC_RULE_HABIT_MINUTES (else 0). The rule's id goes to *out_id (may be NULL).
 * Days already lived keep their credits; the days the rule covers that already
 * hold steps or completions (today's) are recounted to it at once, as every
 * device that receives the rule recounts them (see the sync merge rules).
 * Codes: HC_E_NOT_FOUND (account or habit).
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_READONLY */
int32_t hc_credit_rule_set(int64_t *out_id, hc_store *store, int64_t account_id, int32_t kind, int64_t habit_id,
                           int64_t value, int32_t from_day);

typedef struct hc_credit_rule {
    uint32_t struct_size; /* the library's sizeof(hc_credit_rule) */
    int32_t kind;         /* HC_RULE_* */
    int64_t id;
    int64_t account_id;
    int64_t habit_id; /* 0 unless HC_RULE_HABIT_MINUTES */
    int64_t value;
    int32_t from_day;
    int32_t reserved; /* 0 */
} hc_credit_rule;

/* An account's rules in the order they were recorded, into a caller buffer (see
 * "Caller buffers").
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_MISUSE */
int32_t hc_credit_rule_list(hc_credit_rule *out, int64_t capacity, int64_t *out_count, hc_store *store, int64_t account_id);

/* What a step report did. The caller sets struct_size (HC_STEP_SYNC_INIT). */
typedef struct hc_step_sync {
    uint32_t struct_size;
    int32_t day;
    int64_t steps;      /* the day's highest total so far, this report included */
    int64_t earned_now; /* minutes this report earned */
    int64_t day_earned; /* minutes the day's steps earned in all */
} hc_step_sync;

#define HC_STEP_SYNC_INIT { (uint32_t)sizeof(hc_step_sync), 0, 0, 0, 0 }
/* Fills *out with the defaults of HC_STEP_SYNC_INIT (see "Option, input and result structs").
 * Codes: HC_E_INVALID (NULL, struct_size below its first release).
 * @since 1.0 @thread any @status HC_OK HC_E_INVALID */
int32_t hc_step_sync_init(hc_step_sync *out, uint32_t struct_size);

/* Reports the cumulative step total of day (HC_DAY_NONE: today; a later day is
 * HC_E_INVALID). Idempotent: only a higher total earns. Codes: HC_E_NOT_FOUND (account).
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_READONLY */
int32_t hc_credit_sync_steps(hc_step_sync *out, hc_store *store, int64_t account_id, int32_t day, int64_t steps);

#define HC_SPEND_UNLOCK 0x1u /* open an unlock session of that many minutes (queued after running ones) */

/* Spends minutes from the account now, checking the balance in the same
 * transaction; the spend entry's id goes to *out_entry_id (may be NULL).
 * reason may be NULL. Codes: HC_E_INSUFFICIENT (nothing written).
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_READONLY HC_E_INSUFFICIENT */
int32_t hc_credit_spend(int64_t *out_entry_id, hc_store *store, int64_t account_id, int64_t minutes, const char *reason,
                        uint32_t flags);

/* A correction by hand (minutes > 0 adds, < 0 removes; the balance may go below
 * zero). Otherwise as hc_credit_spend, without HC_E_INSUFFICIENT.
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_READONLY */
int32_t hc_credit_adjust(int64_t *out_entry_id, hc_store *store, int64_t account_id, int64_t minutes, const char *reason);

/* A day of an account. The caller sets struct_size (HC_CREDIT_DAY_INIT). */
typedef struct hc_credit_day {
    uint32_t struct_size;
    int32_t day;
    int64_t steps;      /* the highest total reported */
    int64_t carried_in; /* the balance the day started with */
    int64_t earned;    /* by steps and completions, net of their corrections (an undo, a recount) */
    int64_t spent;     /* as a positive number */
    int64_t adjusted;  /* by hand (hc_credit_adjust), + or - */
    int64_t expired;   /* as a positive number, written or not yet */
    int64_t available; /* at the end of the day; for today, now */
    /* Read when struct_size covers it (a caller built with 0.2.0's smaller struct gets the fields above only): */
    int64_t refunded; /* given back by sessions ended early (HC_CREDIT_REFUND) */
} hc_credit_day;

#define HC_CREDIT_DAY_INIT { (uint32_t)sizeof(hc_credit_day), 0, 0, 0, 0, 0, 0, 0, 0, 0 }
/* Fills *out with the defaults of HC_CREDIT_DAY_INIT (see "Option, input and result structs").
 * Codes: HC_E_INVALID (NULL, struct_size below its first release).
 * @since 1.0 @thread any @status HC_OK HC_E_INVALID */
int32_t hc_credit_day_init(hc_credit_day *out, uint32_t struct_size);

/* The summary of day (HC_DAY_NONE: today).
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_MISUSE */
int32_t hc_credit_day_summary(hc_credit_day *out, hc_store *store, int64_t account_id, int32_t day);
/* The minutes that can be spent now (negative: a debt).
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_MISUSE */
int32_t hc_credit_balance(int64_t *out_available, hc_store *store, int64_t account_id);

/* Whether apps are unlocked. The caller sets struct_size (HC_UNLOCK_STATE_INIT). */
typedef struct hc_unlock_state {
    uint32_t struct_size;
    int32_t active;     /* 1 when a session runs at the asked time */
    int64_t session_id; /* the running session, or 0 */
    int64_t start_ms;
    int64_t until_ms; /* when the last queued session ends (UTC ms), or 0 */
} hc_unlock_state;

#define HC_UNLOCK_STATE_INIT { (uint32_t)sizeof(hc_unlock_state), 0, 0, 0, 0 }
/* Fills *out with the defaults of HC_UNLOCK_STATE_INIT (see "Option, input and result structs").
 * Codes: HC_E_INVALID (NULL, struct_size below its first release).
 * @since 1.0 @thread any @status HC_OK HC_E_INVALID */
int32_t hc_unlock_state_init(hc_unlock_state *out, uint32_t struct_size);

/* The unlock state at at_ms (UTC ms; 0: now).
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_MISUSE */
int32_t hc_credit_unlock_state(hc_unlock_state *out, hc_store *store, int64_t account_id, int64_t at_ms);

/*
 * Ends unlock session session_id (as hc_unlock_state.session_id names it) at the
 * UTC instant at_ms (0: now), as Zeno does when the person re-blocks; at_ms may
 * be later than now (an end set ahead) or earlier (reported late), not before the
 * session was bought. Sessions run in the order bought, each starting when bought
 * or when the one before ends; ending one early moves up those queued after it
 * (a queued one ended before it started never runs and refunds all its minutes).
 * The unused time is refunded in whole minutes rounded up, in the person's
 * favour: 30 s into 10 minutes refunds 10, 61 s refunds 9, 9 min 59 s refunds 1,
 * at its end 0. The refund is an HC_CREDIT_REFUND entry (HC_CAUSE_SESSION,
 * cause_id the session) counting for the local day at_ms falls on, or today if
 * that day is already over: a session bought at 23:55 and ended at 00:01 refunds
 * its minutes to the new day, where daily expiry cannot take them. Its minutes
 * go to *out_refund_minutes (may be NULL). A session that already ended (ended
 * early before, or over by itself before at_ms) is HC_E_CONFLICT, and nothing
 * is written.
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_CONFLICT HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_READONLY */
int32_t hc_credit_session_end(int64_t *out_refund_minutes, hc_store *store, int64_t session_id, int64_t at_ms);

/* A credit entry as stored. */
typedef struct hc_credit_entry {
    uint32_t struct_size; /* the library's sizeof(hc_credit_entry) */
    int32_t kind;         /* HC_CREDIT_* */
    int64_t id;           /* increasing in append order */
    int64_t account_id;
    int64_t minutes; /* signed as it moves the balance */
    int32_t day;
    int32_t cause;   /* HC_CAUSE_* */
    int64_t at_ms;
    int64_t cause_id; /* 0 when none */
    int64_t habit_id; /* 0 when none */
    int64_t steps;    /* HC_CAUSE_STEPS: the reported total; else 0 */
    const char *reason; /* NULL when none */
} hc_credit_entry;

typedef struct hc_credit_list hc_credit_list;

/* A snapshot of an account's entries with from_day <= day <= to_day, in append
 * order, into *out; free with hc_credit_list_free.
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_MISUSE HC_E_NOMEM */
int32_t hc_credit_list_open(hc_credit_list **out, hc_store *store, int64_t account_id, int32_t from_day, int32_t to_day);
/* The number of entries.
 * @since 1.0 @thread list @status HC_OK HC_E_INVALID HC_E_MISUSE */
int32_t hc_credit_list_count(int64_t *out_count, const hc_credit_list *list);
/* The entry at index: borrowed, valid until the list is freed.
 * @since 1.0 @thread list @status HC_OK HC_E_INVALID HC_E_MISUSE */
int32_t hc_credit_list_get(const hc_credit_entry **out, const hc_credit_list *list, int64_t index);
/* Releases the list. NULL is ignored.
 * @since 1.0 @thread release @status none */
void hc_credit_list_free(hc_credit_list *list);


/* ------------------------------------------------------------------------ */
/* Awards, referrals and events                                              */
/* ------------------------------------------------------------------------ */

/*
 * Awards (rules stated once, here and in the README):
 *  - A catalogue of rules lives in the store: the built-in one on a new store
 *    (streaks 3, 7, 14, 30, 100, 365; completions 1, 10, 50, 100, 500, 1000;
 *    perfect days 7, 30; habits 1, 3, 5, 10; referrals 1, 5, 10; verified
 *    proofs 7, 30), or one loaded from JSON (docs/FORMATS.md), which replaces it.
 *  - A rule has an id, a title, a description, an icon name, a tier (1..10), a
 *    metric (HC_METRIC_*), a scope (HC_SCOPE_*) and a threshold (1..10^9). An
 *    award is its id: it is unlocked at most once, ever.
 *  - Evaluating as of a day judges the history as it stands and unlocks each
 *    award whose metric reached its threshold on some day up to then, recording
 *    that day and the entry (or credit entry, habit, referral) that crossed it.
 *    Streak awards look at every run, not just the current one, so evaluating
 *    after every event or once at the end gives the same set.
 *  - An unlocked award stays unlocked when a later undo lowers its metric, and is
 *    not unlocked again when the metric climbs back.
 *  - Metrics: streaks count occurrences as the streak rules above judge them
 *    (current and longest streak unlock alike; they differ in the value shown);
 *    completions are the days a habit was done; perfect days and the active-day
 *    streak are the global ones above; verified proofs are standing entries
 *    whose source is HC_SOURCE_PROOF; habits created count archived ones too;
 *    active habits (Since 1.1.) count, on each day, the habits created by then and
 *    not archived (archived from their archive day on): the value is the count on
 *    the day asked, and the award unlocks on the first day the count reached the
 *    threshold, caused by the habit whose creation brought it there, so "five
 *    active focuses" is an award; credits earned sum EARN entries of every
 *    account; referrals redeemed count hc_referral_redeem calls that succeeded.
 *  - Scope: one habit; any habit (the best single habit; the first to cross);
 *    all habits (counts summed; for streaks, the perfect-day streak). The
 *    store-wide metrics (perfect days, active-day streak, habits created, active
 *    habits, credits, referrals) take HC_SCOPE_ALL only.
 */
#define HC_METRIC_CURRENT_STREAK 1
#define HC_METRIC_LONGEST_STREAK 2
#define HC_METRIC_TOTAL_COMPLETIONS 3
#define HC_METRIC_PERFECT_DAYS 4
#define HC_METRIC_ACTIVE_DAY_STREAK 5
#define HC_METRIC_VERIFIED_PROOFS 6
#define HC_METRIC_HABITS_CREATED 7
#define HC_METRIC_CREDITS_EARNED 8
#define HC_METRIC_REFERRALS_REDEEMED 9
#define HC_METRIC_ACTIVE_HABITS 10 /* habits not archived, beside habits created. Since 1.1. */
#define HC_METRIC_FOCUSED_SECONDS 11 /* stopped timers' seconds (see "Timers"). Since 1.1. */

#define HC_SCOPE_HABIT 1 /* one habit */
#define HC_SCOPE_ANY 2 /* the best single habit, the first to cross */
#define HC_SCOPE_ALL 3 /* all habits together */

/* What crossed an award's threshold (cause_id names it). */
#define HC_AWARD_CAUSE_NONE 0          /* e.g. a kept at-most day with nothing logged */
#define HC_AWARD_CAUSE_HABIT_ENTRY 1   /* a habit entry */
#define HC_AWARD_CAUSE_CREDIT_ENTRY 2  /* a credit entry */
#define HC_AWARD_CAUSE_HABIT_CREATED 3 /* a habit (its creation) */
#define HC_AWARD_CAUSE_REFERRAL 4      /* a referral redemption */

/* An award: a rule, its progress, and its unlock if recorded. Strings are
 * borrowed from the list. */
typedef struct hc_award {
    uint32_t struct_size; /* the library's sizeof(hc_award) */
    int32_t metric;       /* HC_METRIC_* */
    const char *id;
    const char *title;
    const char *description;
    const char *icon;
    int32_t tier;
    int32_t scope;     /* HC_SCOPE_* */
    int64_t habit_id;  /* HC_SCOPE_HABIT: the habit; else 0 */
    int64_t threshold;
    int64_t value;     /* hc_award_list_open_progress: the metric as of the day asked; else 0 */
    int32_t unlocked;  /* 1 when unlocked */
    int32_t unlocked_day;   /* the day the threshold was crossed; HC_DAY_NONE when locked */
    int64_t unlocked_at_ms; /* when the unlock was recorded (UTC ms); 0 when locked */
    int32_t cause_kind;     /* HC_AWARD_CAUSE_* */
    int32_t reserved;       /* 0 */
    int64_t cause_id;       /* 0 when none */
    int64_t cause_habit_id; /* the habit whose history crossed it; 0 when none */
} hc_award;

typedef struct hc_award_list hc_award_list;

/* Replaces the catalogue with the JSON document json (docs/FORMATS.md). Every
 * rule is checked first: an unknown field or metric, a bad value or an unknown
 * habit is HC_E_INVALID / HC_E_NOT_FOUND with the rule and the field named in the
 * message, and nothing changes. Unlocks already recorded stay.
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_READONLY */
int32_t hc_award_catalog_load(hc_store *store, const char *json);
/* Puts the built-in catalogue back.
 * @since 1.0 @thread store @status HC_OK HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_READONLY */
int32_t hc_award_catalog_reset(hc_store *store);
/* The catalogue as a JSON document, to free with hc_free.
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_IO HC_E_MISUSE HC_E_NOMEM */
int32_t hc_award_catalog_json(char **out_json, hc_store *store);

/* Evaluates the catalogue as of as_of (HC_DAY_NONE: today) and records the awards
 * newly unlocked, each once even with several processes evaluating at once; they
 * go to *out (possibly empty), free with hc_award_list_free.
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_NOMEM HC_E_READONLY */
int32_t hc_award_evaluate(hc_award_list **out, hc_store *store, int32_t as_of);
/* Every unlocked award in the order unlocked, as the rule was when unlocked
 * (it stays listed after the catalogue changes).
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_IO HC_E_MISUSE HC_E_NOMEM */
int32_t hc_award_list_open_unlocked(hc_award_list **out, hc_store *store);
/* Every award of the catalogue in catalogue order, with its metric's value as of
 * as_of (HC_DAY_NONE: today) and its unlock when recorded. Records nothing.
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_IO HC_E_MISUSE HC_E_NOMEM */
int32_t hc_award_list_open_progress(hc_award_list **out, hc_store *store, int32_t as_of);
/* The number of awards.
 * @since 1.0 @thread list @status HC_OK HC_E_INVALID HC_E_MISUSE */
int32_t hc_award_list_count(int64_t *out_count, const hc_award_list *list);
/* The award at index: borrowed, valid until the list is freed.
 * @since 1.0 @thread list @status HC_OK HC_E_INVALID HC_E_MISUSE */
int32_t hc_award_list_get(const hc_award **out, const hc_award_list *list, int64_t index);
/* Releases the list. NULL is ignored.
 * @since 1.0 @thread release @status none */
void hc_award_list_free(hc_award_list *list);

/* This store's referral code (8 characters from 23456789ABCDEFGHJKMNPQRSTUVWXYZ,
 * made on first use and then fixed), to free with hc_free. Codes: HC_E_READONLY (none made yet).
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_IO HC_E_MISUSE HC_E_NOMEM HC_E_READONLY */
int32_t hc_referral_code(char **out_code, hc_store *store);
/* Records a code redeemed from someone else (case, spaces and dashes ignored);
 * the redemption's id goes to *out_id (may be NULL). A code counts once: again is
 * HC_E_CONFLICT, as is the store's own code.
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_CONFLICT HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_READONLY */
int32_t hc_referral_redeem(int64_t *out_id, hc_store *store, const char *code);

/*
 * Events: what an app tells its user about, recorded once each in the store.
 *  - HC_EVENT_AWARD_UNLOCKED when an award is unlocked (value: its threshold);
 *    HC_EVENT_STREAK_MILESTONE when a habit's current run reaches 3, 7, 14, 21,
 *    30, 50, 75, 100, 150, 200, 250, 300, 365, 500, 730, 1000 or a multiple of 365
 *    past it, the highest reached, once per run (value: the length);
 *    HC_EVENT_TARGET_REACHED when an at-least habit's day (today or yesterday)
 *    becomes done, once per habit and day even if undone and redone (value: the
 *    day's total).
 *  - Events are recorded when read: each read first evaluates the awards as of
 *    today and looks at the entries appended since the last read. at_ms is when
 *    the entry that caused the event was recorded.
 *  - Ids increase; a reader keeps the last id it handled as its cursor. With
 *    HC_EVENTS_ACK a read returns only events no reader has acknowledged and
 *    acknowledges them in the same transaction: each event goes to exactly one
 *    reader, however many processes read.
 */
#define HC_EVENT_AWARD_UNLOCKED 1 /* an award was unlocked; value is its threshold */
#define HC_EVENT_STREAK_MILESTONE 2 /* a habit's current run reached a milestone; value is its length */
#define HC_EVENT_TARGET_REACHED 3 /* an at-least habit's day became done; value is the day's total */

#define HC_EVENTS_ACK 0x1u

typedef struct hc_event {
    uint32_t struct_size; /* the library's sizeof(hc_event) */
    int32_t kind;         /* HC_EVENT_* */
    int64_t id;
    int64_t at_ms;
    int32_t day;
    int32_t acknowledged; /* 1 once a reader acknowledged it */
    int64_t habit_id;     /* 0 when none */
    int64_t entry_id;     /* 0 when none */
    double value;
    const char *award_id; /* HC_EVENT_AWARD_UNLOCKED: the award; else NULL */
} hc_event;

typedef struct hc_event_list hc_event_list;

/* Events with id > after_id, oldest first, at most limit (1..10000), into *out;
 * flags 0 or HC_EVENTS_ACK. On a read-only store nothing is recorded and
 * HC_EVENTS_ACK is HC_E_READONLY.
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_NOMEM HC_E_READONLY */
int32_t hc_event_list_read(hc_event_list **out, hc_store *store, int64_t after_id, int64_t limit, uint32_t flags);
/* The number of events.
 * @since 1.0 @thread list @status HC_OK HC_E_INVALID HC_E_MISUSE */
int32_t hc_event_list_count(int64_t *out_count, const hc_event_list *list);
/* The event at index: borrowed, valid until the list is freed.
 * @since 1.0 @thread list @status HC_OK HC_E_INVALID HC_E_MISUSE */
int32_t hc_event_list_get(const hc_event **out, const hc_event_list *list, int64_t index);
/* Releases the list. NULL is ignored.
 * @since 1.0 @thread release @status none */
void hc_event_list_free(hc_event_list *list);


/* ------------------------------------------------------------------------ */
/* Proofs: verdict hooks and the plugin host                                 */
/* ------------------------------------------------------------------------ */

/*
 * Proofs (rules stated once, here and in the README):
 *  - A proof names a habit and its evidence (a file, or bytes), a media type, when
 *    it was taken if known, and metadata. The store keeps the evidence's SHA-256 and
 *    size, and a copy only with HC_PROOF_KEEP_COPY. The proof's day is the local day
 *    the engine received it.
 *  - Verdicts (outcome, confidence 0..1, reason code, message, signals, verifier id
 *    and version, duration) are appended, never overwritten: each verifier's, the
 *    policy's decision, and reviews by hand. A proof's state is its latest decision
 *    or review.
 *  - Built-in checks run before any plugin: evidence whose SHA-256 matches an
 *    earlier proof of the store is rejected as "reused_evidence"; a proof received
 *    outside the policy's window (local time of receipt, not what the photo claims)
 *    as "outside_window"; with one per day, a second proof for a habit day that
 *    already has an approved one as "already_verified".
 *  - Policy (per habit, else the store's, else the default: no verifiers, all,
 *    0.80, 0.50, no window, one per day). Each verifier's verdict is classed:
 *    approved with confidence >= approve_threshold approves; approved between
 *    review_threshold and it goes to review; approved below it rejects
 *    ("low_confidence"); needs_review, rejected and error stand. HC_POLICY_ALL: any
 *    rejection rejects, else any error is an error, else any review goes to review,
 *    else approved. HC_POLICY_ANY: any approval approves, else review, else
 *    rejected, else error. No verifier: needs review. Nothing approves by default.
 *  - An approved proof appends a completion (HC_ENTRY_DONE, HC_SOURCE_PROOF) for its
 *    day, which counts for streaks; a rejected one appends none; one that needs
 *    review waits for hc_proof_review, which records who and why and, when it
 *    approves, appends the completion then.
 *  - Verifiers: callbacks registered on a store handle (hc_verifier_register; they
 *    live as long as the handle), and plugins registered in the store: shared
 *    objects (include/habitcore_plugin.h) and executables (one JSON request on
 *    stdin, one JSON line on stdout, stderr their log; killed after their timeout,
 *    10 s by default, or past 1 MiB of output). A plugin that crashes, hangs, exits
 *    non-zero or prints garbage gives an error verdict with the reason.
 *  - Verifiers run outside the store's write lock, so other writers are not held
 *    up while a plugin thinks.
 */
/* A proof was decided, by the policy or a review (value: the HC_OUTCOME_*;
 * entry_id: the completion it logged, if any); an event like those above. */
#define HC_EVENT_PROOF_VERDICT 4 /* a proof was decided; value is the HC_OUTCOME_* */

/* Outcomes: HC_OUTCOME_* in habitcore_plugin.h (one set for verdicts, plugins and reviews). */

#define HC_STAGE_VERIFIER 1 /* a verifier (built-in checks: verifier id "habitcore") */
#define HC_STAGE_DECISION 2 /* the policy over the verifiers (verifier id "policy") */
#define HC_STAGE_REVIEW 3   /* a person (verifier id "review") */

#define HC_PROOF_KEEP_COPY 0x1u /* keep the evidence bytes in the store */

/* A proof to submit. The caller sets struct_size (HC_PROOF_INPUT_INIT). */
typedef struct hc_proof_input {
    uint32_t struct_size;
    uint32_t flags; /* HC_PROOF_KEEP_COPY */
    int64_t habit_id;
    const char *path;     /* the evidence file; or NULL with bytes */
    const uint8_t *bytes; /* the evidence in memory, when path is NULL */
    int64_t size;         /* of bytes */
    const char *media_type;    /* NULL: guessed from the first bytes (image/jpeg, image/png) */
    int64_t taken_at_ms;       /* when the caller says it was taken (UTC ms); 0: unknown */
    const char *metadata_json; /* a JSON object (up to 4 KiB) or NULL */
} hc_proof_input;

#define HC_PROOF_INPUT_INIT { (uint32_t)sizeof(hc_proof_input), 0u, 0, NULL, NULL, 0, NULL, 0, NULL }
/* Fills *out with the defaults of HC_PROOF_INPUT_INIT (see "Option, input and result structs").
 * Codes: HC_E_INVALID (NULL, struct_size below its first release).
 * @since 1.0 @thread any @status HC_OK HC_E_INVALID */
int32_t hc_proof_input_init(hc_proof_input *out, uint32_t struct_size);

/* What a submission (or a test run) came to. The caller sets struct_size (HC_PROOF_RESULT_INIT). */
typedef struct hc_proof_result {
    uint32_t struct_size;
    int32_t outcome;  /* HC_OUTCOME_* */
    int64_t proof_id; /* 0 for hc_plugin_test */
    int64_t entry_id; /* the completion appended when approved; else 0 */
    double confidence;
    int32_t day;      /* the proof's day */
    int32_t reserved; /* 0 */
    char reason_code[64];
    char message[512];
} hc_proof_result;

#define HC_PROOF_RESULT_INIT { (uint32_t)sizeof(hc_proof_result), 0, 0, 0, 0.0, 0, 0, {0}, {0} }
/* Fills *out with the defaults of HC_PROOF_RESULT_INIT (see "Option, input and result structs").
 * Codes: HC_E_INVALID (NULL, struct_size below its first release).
 * @since 1.0 @thread any @status HC_OK HC_E_INVALID */
int32_t hc_proof_result_init(hc_proof_result *out, uint32_t struct_size);

/* Submits a proof: the built-in checks, the policy's verifiers, the decision, and
 * the completion when approved, all recorded. Evidence up to 64 MiB. A verdict
 * that is not approved is still HC_OK: read out->outcome. Codes: HC_E_NOT_FOUND (habit,
 * file). Calls verifiers on the calling thread.
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_NOMEM HC_E_READONLY */
int32_t hc_proof_submit(hc_proof_result *out, hc_store *store, const hc_proof_input *input);

/* Decides a proof that needs review (or ended in an error) by hand: outcome
 * HC_OUTCOME_APPROVED or HC_OUTCOME_REJECTED, with who (reviewer) and why (reason),
 * both required. Approving appends the completion for the proof's day; its id goes
 * to *out_entry_id (may be NULL; 0 when rejected). Codes: HC_E_CONFLICT (already approved
 * or rejected).
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_CONFLICT HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_READONLY */
int32_t hc_proof_review(int64_t *out_entry_id, hc_store *store, int64_t proof_id, int32_t outcome, const char *reviewer,
                        const char *reason);

/* The evidence bytes a proof keeps (submitted with HC_PROOF_KEEP_COPY, or
 * received by sync with HC_SYNC_EVIDENCE) into out: caller buffer rules, in bytes.
 * Codes: HC_E_NOT_FOUND (no such proof, or no evidence kept).
 * @since 1.1 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_MISUSE */
int32_t hc_proof_evidence(uint8_t *out, int64_t capacity, int64_t *out_count, hc_store *store, int64_t proof_id);

/* A verdict as recorded. Strings are borrowed from the list; NULL when absent. */
typedef struct hc_verdict {
    uint32_t struct_size; /* the library's sizeof(hc_verdict) */
    int32_t outcome;      /* HC_OUTCOME_* */
    int64_t id;           /* increasing in append order */
    int64_t proof_id;
    int64_t habit_id;
    int32_t stage; /* HC_STAGE_* */
    int32_t day;   /* the proof's day */
    double confidence;
    int64_t duration_us;
    int64_t at_ms;
    int64_t entry_id; /* the completion a decision or review appended; else 0 */
    const char *verifier_id;
    const char *verifier_version;
    const char *reason_code;
    const char *message;
    const char *signals;  /* comma-separated */
    const char *reviewer; /* HC_STAGE_REVIEW only */
    const char *sha256;   /* the proof's evidence */
} hc_verdict;

typedef struct hc_verdict_list hc_verdict_list;

/* Verdicts in append order: of one proof (proof_id), or of a habit's proofs
 * (habit_id), or all (both 0).
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_MISUSE HC_E_NOMEM */
int32_t hc_verdict_list_open(hc_verdict_list **out, hc_store *store, int64_t habit_id, int64_t proof_id);
/* The number of verdicts.
 * @since 1.0 @thread list @status HC_OK HC_E_INVALID HC_E_MISUSE */
int32_t hc_verdict_list_count(int64_t *out_count, const hc_verdict_list *list);
/* The verdict at index: borrowed, valid until the list is freed.
 * @since 1.0 @thread list @status HC_OK HC_E_INVALID HC_E_MISUSE */
int32_t hc_verdict_list_get(const hc_verdict **out, const hc_verdict_list *list, int64_t index);
/* Releases the list. NULL is ignored.
 * @since 1.0 @thread release @status none */
void hc_verdict_list_free(hc_verdict_list *list);

#define HC_POLICY_ALL 1 /* every verifier must approve */
#define HC_POLICY_ANY 2 /* one approval is enough */

/* How proofs are judged. The caller sets struct_size (HC_PROOF_POLICY_INIT: the defaults). */
typedef struct hc_proof_policy {
    uint32_t struct_size;
    int32_t mode;             /* HC_POLICY_* */
    double approve_threshold; /* 0.0 ... 1.0; default 0.80 */
    double review_threshold;  /* 0.0 ... approve_threshold; default 0.50 */
    int32_t window_start;     /* minutes after local midnight, 0..1439; -1: no window */
    int32_t window_end;       /* 1..1440, exclusive; a window may wrap past midnight */
    int32_t one_per_day;      /* 1: one approved proof per habit and day */
    int32_t reserved;         /* 0 */
    const char *verifiers;    /* verifier ids, comma-separated, run in order; NULL or "": none */
} hc_proof_policy;

#define HC_PROOF_POLICY_INIT { (uint32_t)sizeof(hc_proof_policy), HC_POLICY_ALL, 0.80, 0.50, -1, -1, 1, 0, NULL }
/* Fills *out with the defaults of HC_PROOF_POLICY_INIT (see "Option, input and result structs").
 * Codes: HC_E_INVALID (NULL, struct_size below its first release).
 * @since 1.0 @thread any @status HC_OK HC_E_INVALID */
int32_t hc_proof_policy_init(hc_proof_policy *out, uint32_t struct_size);

/* Sets the policy of a habit (habit_id > 0) or the store's (0). Verifier ids need
 * not be registered yet: one that is missing when a proof comes gives an error
 * verdict.
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_READONLY */
int32_t hc_proof_policy_set(hc_store *store, int64_t habit_id, const hc_proof_policy *policy);

/* A verifier callback: fills *out (struct_size set, outcome HC_OUTCOME_ERROR on
 * entry) and returns 0; anything else makes its verdict an error. user_data is
 * what was registered. Called on the thread that submits, while the store handle
 * is held: a call on the same handle from inside it is refused with HC_E_MISUSE
 * (see "Re-entrant calls" at the top). */
typedef int32_t (*hc_verify_callback)(const hc_plugin_evidence *evidence, hc_plugin_verdict *out, void *user_data);

/* Registers callback as verifier id (1-64 of a-z 0-9 - _ .) on this store handle,
 * replacing one of the same id; callback NULL removes it. It lives as long as the
 * handle. To learn when user_data is no longer
 * used, register with hc_verifier_register_v2.
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_MISUSE */
int32_t hc_verifier_register(hc_store *store, const char *id, const char *version, hc_verify_callback callback,
                             void *user_data);

/* Releases a verifier's user_data: called once, when habitcore will never call back
 * with it again. */
typedef void (*hc_release_callback)(void *user_data);

/* hc_verifier_register, plus release (may be NULL): habitcore calls release(user_data)
 * exactly once, when the verifier is replaced, removed (callback NULL for its id) or
 * its store handle closed, and never calls callback with that user_data after it. A
 * verification running on another thread finishes first: release then runs on that
 * thread, else on the one that replaced, removed or closed. So a binding can hand a
 * closure's box as user_data and free it in release, with no registry of its own.
 * When the call fails, or callback is NULL (a removal, which releases the verifier
 * it replaces), release is not called for this user_data: it stays the caller's.
 * A call on the same store handle from inside release is refused with HC_E_MISUSE
 * (see "Re-entrant calls" at the top).
 * @since 1.1 @thread store @status HC_OK HC_E_INVALID HC_E_MISUSE */
int32_t hc_verifier_register_v2(hc_store *store, const char *id, const char *version, hc_verify_callback callback,
                                void *user_data, hc_release_callback release);

/* Plugin kinds. A shared object (HC_PLUGIN_SHARED_OBJECT) runs isolated, in a process
 * of its own: habitcore-plugin-runner, installed in the same directory as
 * libhabitcore.so (or named by the environment variable HABITCORE_PLUGIN_RUNNER),
 * loads it and answers as an executable plugin does, so a plugin that crashes, hangs
 * or aborts gives an HC_OUTCOME_ERROR verdict whose message names the signal
 * ("killed by SIGSEGV"), and the host goes on. Isolation is the default because a
 * plugin is foreign code and the host is someone's app: one bad plugin must not end
 * the session (as audio hosts run plugins out of process); it costs a process start
 * per verification (a few milliseconds) and its fingerprints travel as JSON.
 * HC_PLUGIN_SHARED_OBJECT_IN_PROCESS loads the plugin into the calling
 * process, for trusted plugins such as libhabitcore_proofcheck.so: faster, no
 * helper needed, but a crash in it is a crash of the host. */
#define HC_PLUGIN_SHARED_OBJECT 1 /* a shared object exporting hc_plugin_entry, run isolated in the runner */
#define HC_PLUGIN_EXECUTABLE 2 /* an executable: one JSON request on stdin, one JSON line back */
#define HC_PLUGIN_SHARED_OBJECT_IN_PROCESS 3 /* a shared object loaded into this process */

/* Registers a plugin in the store. path is a file, or the bare name of a plugin
 * installed with this library when no such file is in the working folder
 * ("proofcheck": libhabitcore_proofcheck.so in habitcore/plugins/ beside
 * libhabitcore.so.1, else beside it); the real path is kept. A shared object is
 * loaded and checked now (its id and version come from its hc_plugin_entry; id must
 * be NULL), isolated in the runner or in-process as its kind says; an isolated shared
 * object or an executable gets timeout_ms (0: 10000; at most 600000; an in-process
 * one takes 0), an executable its id (NULL: its file name). A missing runner is
 * HC_E_NOT_FOUND. The id
 * goes to *out_id, to free with hc_free (may be NULL). A refused plugin is
 * HC_E_INVALID with the path and the reason. Codes: HC_E_CONFLICT (id taken).
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_CONFLICT HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_READONLY */
int32_t hc_plugin_add(char **out_id, hc_store *store, int32_t kind, const char *path, const char *id, int64_t timeout_ms);
/* Removes a registered plugin.
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_READONLY */
int32_t hc_plugin_remove(hc_store *store, const char *id);
/* The registered plugins as a JSON array of {"id","kind","path","version",
 * "timeout_ms","config"} ("kind": "shared_object", "executable" or
 * "shared_object_in_process"), to free with hc_free.
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_IO HC_E_MISUSE HC_E_NOMEM */
int32_t hc_plugin_list_json(char **out_json, hc_store *store);
/* Runs one verifier (callback or plugin) on a file and reports its verdict in
 * *out (proof_id 0), recording nothing.
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_MISUSE */
int32_t hc_plugin_test(hc_proof_result *out, hc_store *store, const char *id, const char *path);

/* ---- Plugin settings and fingerprints --------------------------------------------
 *
 *  - A plugin's settings are per store: a JSON object the host hands it with each
 *    piece of evidence (hc_plugin_evidence.config_json; "config" in an executable's
 *    request). The plugin reads them; one it cannot read answers an error verdict
 *    naming the setting (see it with hc_plugin_test).
 *  - Shared-object plugins may keep fingerprints with a proof through their host
 *    services (habitcore_plugin.h) and compare later evidence with them: proofcheck
 *    keeps PDQ hashes that way. Fingerprints are written with the proof's verdicts,
 *    append-only, and are never kept by hc_plugin_test.
 *  - libhabitcore_proofcheck.so, built with this library, is the reference plugin:
 *    near-duplicates (PDQ), EXIF capture time, screenshot, download and edit signals,
 *    decodability and size. Its settings: docs/PROOFCHECK.md.
 */

/* Sets a registered plugin's settings in this store (a JSON object of at most 4 KiB),
 * or clears them with NULL. Codes: HC_E_INVALID (not a JSON object, too long),
 * HC_E_NOT_FOUND (no such plugin).
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_READONLY */
int32_t hc_plugin_configure(hc_store *store, const char *id, const char *config_json);

/* ---- Scripting guarantees -----------------------------------------------------
 *
 *  - Habit names (hc_habit_create, hc_habit_update, imports) are stored in Unicode
 *    NFC. Two names are the same when equal under full Unicode case folding
 *    ("Straße" and "STRASSE", "Café" precomposed and decomposed): an active name
 *    taken that way is HC_E_CONFLICT, and hc_habit_find matches that way. A name
 *    holding an invisible or text-reordering character (bidi controls such as
 *    U+202E, zero-width spaces, soft hyphens, BOMs, every other format or
 *    default-ignorable character) is HC_E_INVALID; ZWJ, ZWNJ, variation selectors
 *    and the tags of an emoji flag are allowed.
 *  - hc_entry_input.key makes an append safe to retry (see hc_entry_input).
 *  - HC_OPEN_READONLY needs no write access: a store whose -wal file is missing or
 *    empty (closed cleanly) that this process may not write, or whose folder it may
 *    not write, is read as immutable and nothing is created beside it. Since 1.1.
 *    A writer keeps its -wal (emptied on its last close) and -shm files
 *    (SQLite's persistent WAL), so readers never need to create them. A read-write open of a store
 *    file this process may not write is HC_E_READONLY before anything is created.
 *    -wal and -shm files take the store file's own permissions (SQLite's rule).
 *  - Imports check every record with the rules of the call that writes it (entries
 *    by the one rule of an entry's fields stated at hc_entry_input, any valid date
 *    included; created_at_ms in the years 0001 to 9999, names as above, keys),
 *    naming the line or element at fault; nothing is written when one fails.
 */

#define HC_FORMAT_DETECT 3 /* hc_store_import only: JSON or JSON Lines, read from the text:
                              JSON Lines when its first line is a whole JSON object
                              whose "type" is "header" */

/* ------------------------------------------------------------------------ */
/* Reminders                                                                 */
/* ------------------------------------------------------------------------ */

/*
 * Reminders: when to nudge, decided once for every app (rules stated once, here
 * and in the README).
 *  - A habit has any number of reminder rules. A rule is a local time of day
 *    (minute 0..1439), the weekdays it applies (0: every day the habit is due), an
 *    optional message, and what quiet hours do to it (HC_QUIET_*).
 *  - Rules and the store's quiet hours are effective-dated, like schedules: a
 *    change or removal takes effect from a day on, today or later, so no day
 *    already lived is rewritten; a rule's (or the quiet hours') first version also
 *    governs the days before it.
 *  - A rule's minute on habit day D is read on D's calendar date in the store's
 *    zone, or on the next date when it is before the day start (with a 03:00 day
 *    start, 01:30 of D is the night after D). A time the clocks skip (spring
 *    forward) fires at the first minute after the gap; a time they read twice (fall
 *    back) fires once, at its first occurrence.
 *  - Quiet hours: a window [start, end) of local minutes, wrapping past midnight
 *    when start > end (22:00-07:00). A reminder inside them moves to their end
 *    (HC_QUIET_DEFER) or is dropped (HC_QUIET_DROP); one that would move past the
 *    end of its day is dropped. A snooze is never moved: the person chose it.
 *  - A reminder is silenced when its habit's day is done, excused (a skip, a
 *    vacation), not due by the schedule in force (for weekly/monthly quotas: once
 *    the period's quota is met), before the habit's start or from its archive day
 *    on, or not on the rule's weekdays. At-most habits are decided only once their
 *    day is over, so being within the limit never silences their reminders. The
 *    ledger is read when asked: log, skip or undo, and the answer follows.
 *  - Each reminder instant is named by its rule, its day and at_ms. Delivery is
 *    recorded once per instant (hc_reminder_fired, or HC_REMINDERS_CLAIM), so
 *    several processes asking at once deliver each instant once; a snooze
 *    (hc_reminder_snooze) is a new instant of the same rule and day, silenced the
 *    same way. Deliveries and snoozes are append-only records.
 */
#define HC_QUIET_DEFER 1 /* inside quiet hours: move to their end (the default) */
#define HC_QUIET_DROP 2  /* inside quiet hours: not sent */

/* A reminder rule. The caller sets struct_size (HC_REMINDER_RULE_INIT). */
typedef struct hc_reminder_rule {
    uint32_t struct_size;
    int32_t minute;      /* local time of day, 0..1439 */
    int64_t id;          /* listed rules: the rule; ignored on input */
    int64_t habit_id;    /* hc_reminder_rule_add: the habit; listed rules: theirs */
    int32_t weekdays;    /* bits, 1 << 0 = Sunday ... 1 << 6 = Saturday; 0: every due day */
    int32_t quiet;       /* HC_QUIET_* */
    int32_t from_day;    /* listed rules: the first day of the version in force; ignored on input */
    int32_t reserved;    /* 0 */
    const char *message; /* up to 500 bytes, or NULL; listed rules: borrowed from the list */
} hc_reminder_rule;

#define HC_REMINDER_RULE_INIT { (uint32_t)sizeof(hc_reminder_rule), 0, 0, 0, 0, HC_QUIET_DEFER, 0, 0, NULL }
/* Fills *out with the defaults of HC_REMINDER_RULE_INIT (see "Option, input and result structs").
 * Codes: HC_E_INVALID (NULL, struct_size below its first release).
 * @since 1.0 @thread any @status HC_OK HC_E_INVALID */
int32_t hc_reminder_rule_init(hc_reminder_rule *out, uint32_t struct_size);

/* Adds a reminder rule to rule->habit_id (not archived); its id goes to *out_id
 * (may be NULL). It applies from today on and, as a first version, to the days
 * before too. The message is copied. Codes: HC_E_CONFLICT (archived habit).
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_CONFLICT HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_READONLY */
int32_t hc_reminder_rule_add(int64_t *out_id, hc_store *store, const hc_reminder_rule *rule);
/* Changes rule rule_id to *rule (minute, weekdays, quiet, message; habit_id is
 * not read) from from_day on (HC_DAY_NONE: today; an earlier day than today is
 * HC_E_INVALID).
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_READONLY */
int32_t hc_reminder_rule_update(hc_store *store, int64_t rule_id, const hc_reminder_rule *rule, int32_t from_day);
/* Removes rule rule_id from from_day on (HC_DAY_NONE: today); days before keep it.
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_READONLY */
int32_t hc_reminder_rule_remove(hc_store *store, int64_t rule_id, int32_t from_day);

typedef struct hc_reminder_rule_list hc_reminder_rule_list;

/* The rules in force on day (HC_DAY_NONE: today) of habit_id (0: every habit),
 * by id, into *out; free with hc_reminder_rule_list_free.
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_CORRUPT HC_E_MISUSE HC_E_NOMEM */
int32_t hc_reminder_rule_list_open(hc_reminder_rule_list **out, hc_store *store, int64_t habit_id, int32_t day);
/* The number of rules.
 * @since 1.0 @thread list @status HC_OK HC_E_INVALID HC_E_MISUSE */
int32_t hc_reminder_rule_list_count(int64_t *out_count, const hc_reminder_rule_list *list);
/* The rule at index: borrowed, valid until the list is freed.
 * @since 1.0 @thread list @status HC_OK HC_E_INVALID HC_E_MISUSE */
int32_t hc_reminder_rule_list_get(const hc_reminder_rule **out, const hc_reminder_rule_list *list, int64_t index);
/* Releases the list. NULL is ignored.
 * @since 1.0 @thread release @status none */
void hc_reminder_rule_list_free(hc_reminder_rule_list *list);

/* Sets the store's quiet hours from from_day on (HC_DAY_NONE: today; earlier than
 * today is HC_E_INVALID): local minutes start..end (0..1439, start != end), or
 * none with start = end = -1.
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_READONLY */
int32_t hc_store_set_quiet_hours(hc_store *store, int32_t start, int32_t end, int32_t from_day);
/* The quiet hours in force on day (HC_DAY_NONE: today): -1 and -1 when none. Either
 * out pointer may be NULL.
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_IO HC_E_CORRUPT HC_E_MISUSE */
int32_t hc_store_quiet_hours(int32_t *out_start, int32_t *out_end, hc_store *store, int32_t day);

#define HC_REMINDER_SCHEDULED 1 /* the rule's own instant (perhaps moved by quiet hours) */
#define HC_REMINDER_SNOOZED 2   /* a snooze's instant */

/* One reminder instant. Strings are borrowed from the list. */
typedef struct hc_reminder {
    uint32_t struct_size; /* the library's sizeof(hc_reminder) */
    int32_t kind;         /* HC_REMINDER_SCHEDULED or HC_REMINDER_SNOOZED */
    int64_t at_ms;        /* when to nudge, UTC ms */
    int64_t habit_id;
    int64_t rule_id;
    int32_t day;          /* the habit day it is about */
    int32_t local_minute; /* the local wall-clock minute of at_ms, 0..1439 */
    int64_t original_ms;  /* before quiet hours moved it, or the instant snoozed; else at_ms */
    int32_t deferred;     /* 1 when quiet hours moved it */
    int32_t fired;        /* 1 when its delivery is recorded */
    const char *message;  /* the rule's message, or NULL */
} hc_reminder;

typedef struct hc_reminder_list hc_reminder_list;

#define HC_REMINDERS_PENDING 0x1u /* leave out reminders already delivered */
#define HC_REMINDERS_CLAIM 0x2u   /* pending ones only, each recorded as delivered in the same
                                     write transaction: with several processes asking at
                                     once, each instant goes to exactly one of them */

/* Every reminder instant with from_ms <= at_ms < to_ms (UTC ms; at most 92 days),
 * ordered by at_ms, then habit, then rule, into *out; free with
 * hc_reminder_list_free. flags: 0, HC_REMINDERS_PENDING or HC_REMINDERS_CLAIM
 * (an app's timer asks with from_ms = its last look, to_ms = now + 1, and CLAIM).
 * Codes: HC_E_READONLY (CLAIM on a read-only store).
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_IO HC_E_CORRUPT HC_E_BUSY HC_E_MISUSE HC_E_NOMEM HC_E_READONLY */
int32_t hc_reminder_list_open(hc_reminder_list **out, hc_store *store, int64_t from_ms, int64_t to_ms, uint32_t flags);
/* The number of reminders.
 * @since 1.0 @thread list @status HC_OK HC_E_INVALID HC_E_MISUSE */
int32_t hc_reminder_list_count(int64_t *out_count, const hc_reminder_list *list);
/* The reminder at index: borrowed, valid until the list is freed.
 * @since 1.0 @thread list @status HC_OK HC_E_INVALID HC_E_MISUSE */
int32_t hc_reminder_list_get(const hc_reminder **out, const hc_reminder_list *list, int64_t index);
/* Releases the list. NULL is ignored.
 * @since 1.0 @thread release @status none */
void hc_reminder_list_free(hc_reminder_list *list);

/* Records that the reminder (rule_id, day, at_ms) was delivered. *out_recorded
 * (may be NULL) is 1 when this call recorded it, 0 when it had been already (by
 * any process): deliver only on 1. HC_E_NOT_FOUND when no such reminder is due
 * any more (the habit's day was done or excused since, or the rule changed).
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_READONLY */
int32_t hc_reminder_fired(int32_t *out_recorded, hc_store *store, int64_t rule_id, int32_t day, int64_t at_ms);
/* Snoozes the reminder (rule_id, day, at_ms) to until_ms (after at_ms, at most a
 * day later): a new instant of the same reminder, listed by hc_reminder_list_open with
 * kind HC_REMINDER_SNOOZED; the one snoozed counts as delivered. Snoozing the same
 * instant to the same time again changes nothing. Codes: HC_E_NOT_FOUND (as hc_reminder_fired).
 * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_READONLY */
int32_t hc_reminder_snooze(hc_store *store, int64_t rule_id, int32_t day, int64_t at_ms, int64_t until_ms);

/* ------------------------------------------------------------------------- */
/* Shields. Since 1.1.                                                       */
/* ------------------------------------------------------------------------- */
/*
 * Shields: when a person's apps are blocked, answered once for every app and
 * extension. The conventions, stated once here:
 *  - A rule shields a window of local time on the calendar dates its days select
 *    (schedule text as habits use it: daily, days:mon,fri, every:N, monthdays:1,15;
 *    quotas are refused). The window opens at start_minute (or the store's day
 *    start) and ends at end_minute (or the next local midnight). A window whose
 *    end is not after its start crosses midnight and belongs to the date it starts
 *    on: a Friday-only 21:00-05:00 window shields Saturday 00:30. start == end is
 *    refused.
 *  - The habit day whose completions lift a window is the one holding its last
 *    minute (with day start 04:00, a 00:00-09:00 window on D is lifted by D's
 *    completions; a completion at 03:30 counts for D-1 and does not).
 *  - A window lifts for the rest of it when its habits are done: all of them
 *    (HC_SHIELD_LIFT_ALL) or any (HC_SHIELD_LIFT_ANY); a habit that requires proof
 *    counts as done only once a proof is accepted. It lifts while a credit unlock
 *    session runs (session_lifts) and while an emergency unlock runs. With
 *    excused_lifts, an excused day (vacation, skip) counts as done from the start.
 *  - cutoff_lifts = 0 keeps the shield past the cutoff until the habits are done
 *    or the window's habit day ends.
 *  - A local time the clocks skip is read as DeviceActivity reads it: moved forward
 *    by the gap (02:30 is 03:30); a time read twice is its first occurrence.
 *    Windows follow the store's zone (hc_store_set_timezone records each change);
 *    a window in progress ends on its wall-clock end read in the new zone (at the
 *    change itself if that time had passed there).
 *  - The state is shielded or not; a transition is where it flips, so adjacent
 *    shielded stretches merge (never "unshield at 05:00, shield at 05:00").
 *    Instants that lift round up to the minute and those that shield round down:
 *    rounding never unshields early. Every transition is a whole minute. Whether
 *    habits were done in time is read on the instants recorded, before rounding:
 *    Bed done at 08:59:10 with a 09:00 cutoff lifts at 09:00 (since_ms), and from
 *    then on the window reads HC_SHIELD_COMPLETED, not HC_SHIELD_CUTOFF_PASSED; one
 *    done at 09:00:00 or later is past the cutoff. After a passed cutoff,
 *    outstanding lists the habits not done before it (a later completion of the
 *    same habit day does not change what the cutoff found).
 *  - State is level-triggered: every wake-up (an extension callback, the app in
 *    the foreground, a widget reload) asks hc_shield_state for now and applies it
 *    idempotently. next_change is the next time-driven change assuming no new
 *    records (a running auto-complete timer's completion is one: see "Timers");
 *    `earlier` says which events could end the state sooner.
 *  - Rules take effect from a day on (as credit rules do); before, a rule's
 *    reason is HC_SHIELD_NOT_IN_EFFECT.
 *  - The revision changes with every write that can change a shield (entries,
 *    timer events, proofs, sessions, vacations, settings, rules, emergency unlocks,
 *    zones), from any process: a plan registered with an older revision is stale.
 */

#define HC_SHIELD_LIFT_ALL 1 /* every habit done */
#define HC_SHIELD_LIFT_ANY 2 /* one habit done */

#define HC_SHIELD_BUDGET_UNLIMITED 0 /* emergency unlocks are not counted */
#define HC_SHIELD_BUDGET_WEEK 1      /* budget_count per week (the store's week start) */
#define HC_SHIELD_BUDGET_MONTH 2     /* budget_count per calendar month */

#define HC_SHIELD_DAY_START (-1) /* start_minute: the store's day start */
#define HC_SHIELD_MIDNIGHT (-1)  /* end_minute: the next local midnight */
#define HC_SHIELD_MAX_HABITS 16

/* Why a rule is (not) shielded. */
#define HC_SHIELD_WINDOW_OPEN 1     /* shielded: the window is open, habits outstanding */
#define HC_SHIELD_UNTIL_DONE 2      /* shielded: past the cutoff, kept until done */
#define HC_SHIELD_OUTSIDE_WINDOW 3  /* not shielded: no window now */
#define HC_SHIELD_COMPLETED 4       /* not shielded: lifted by completion at since_ms */
#define HC_SHIELD_SESSION 5         /* not shielded: a credit unlock session until until_ms */
#define HC_SHIELD_EMERGENCY 6       /* not shielded: an emergency unlock until until_ms */
#define HC_SHIELD_CUTOFF_PASSED 7   /* not shielded: the cutoff passed, habits outstanding */
#define HC_SHIELD_EXCUSED 8         /* not shielded: an excused day (vacation, skip) */
#define HC_SHIELD_NOT_IN_EFFECT 9   /* not shielded: the rule is not in effect */

/* What caused a transition. */
#define HC_SHIELD_CAUSE_WINDOW_START 1
#define HC_SHIELD_CAUSE_CUTOFF 2
#define HC_SHIELD_CAUSE_COMPLETION 3
#define HC_SHIELD_CAUSE_SESSION_START 4
#define HC_SHIELD_CAUSE_SESSION_END 5
#define HC_SHIELD_CAUSE_EMERGENCY_START 6
#define HC_SHIELD_CAUSE_EMERGENCY_END 7
#define HC_SHIELD_CAUSE_EXCUSED 8
#define HC_SHIELD_CAUSE_RULE_CHANGE 9
#define HC_SHIELD_CAUSE_DAY_END 10

/* Events that could end a state before its next time-driven change. */
#define HC_SHIELD_EARLIER_COMPLETION 0x1u  /* the outstanding habits done */
#define HC_SHIELD_EARLIER_SESSION 0x2u     /* a credit unlock session bought */
#define HC_SHIELD_EARLIER_EMERGENCY 0x4u   /* an emergency unlock (budget left) */
#define HC_SHIELD_EARLIER_SESSION_END 0x8u /* the running session ended early */

/* How DST or a zone change placed a transition's local time. */
#define HC_SHIELD_MOVED_GAP 0x1u         /* in the spring-forward gap: moved forward by it */
#define HC_SHIELD_MOVED_REPEATED 0x2u    /* read twice (clocks set back): the first occurrence */
#define HC_SHIELD_MOVED_ZONE_CHANGE 0x4u /* skipped by a change of the store's zone: the change */

/* A shield rule (what a version of it says). Initialise with HC_SHIELD_RULE_INIT
 * or hc_shield_rule_init. Listed rules borrow their strings and habit_ids from the list. */
typedef struct hc_shield_rule {
    uint32_t struct_size;
    int32_t start_minute;    /* 0..1439, or HC_SHIELD_DAY_START */
    int32_t end_minute;      /* 0..1439 (the cutoff), or HC_SHIELD_MIDNIGHT */
    int32_t lift;            /* HC_SHIELD_LIFT_* */
    int32_t session_lifts;   /* 1: a running credit unlock session lifts it */
    int32_t cutoff_lifts;    /* 1: the cutoff ends it; 0: it stays until done */
    int32_t excused_lifts;   /* 1: an excused day (vacation, skip) lifts it */
    int32_t fail_closed;     /* 1: an app that cannot read the store shields; 0: it does not */
    int32_t budget_period;   /* HC_SHIELD_BUDGET_* */
    int32_t budget_count;    /* emergency unlocks per period, >= 0 (0: none) */
    int32_t from_day;        /* listed rules: the first day of this version; ignored on input */
    int32_t reserved;        /* 0 */
    int64_t id;              /* listed rules: the rule; ignored on input */
    int64_t habit_count;     /* 1..HC_SHIELD_MAX_HABITS */
    const int64_t *habit_ids; /* the habits whose completion lifts it */
    const char *name;        /* up to 200 bytes */
    const char *key;         /* opaque to the engine: the app's set of blocked apps; up to 500 bytes */
    const char *days;        /* schedule text; NULL: daily */
} hc_shield_rule;

#define HC_SHIELD_RULE_INIT { (uint32_t)sizeof(hc_shield_rule), HC_SHIELD_DAY_START, HC_SHIELD_MIDNIGHT, HC_SHIELD_LIFT_ALL, \
    1, 1, 1, 1, HC_SHIELD_BUDGET_UNLIMITED, 0, 0, 0, 0, 0, NULL, NULL, NULL, NULL }

/* Fills *out with HC_SHIELD_RULE_INIT's defaults for its first struct_size bytes.
 * Codes: HC_E_INVALID (out is NULL, or struct_size is below the first
 * sizeof(hc_shield_rule)).
 * @since 1.1 @thread any @status HC_OK HC_E_INVALID */
int32_t hc_shield_rule_init(hc_shield_rule *out, uint32_t struct_size);

/* Adds a rule in effect from from_day on (HC_DAY_NONE: today); its id goes to
 * *out_id. Every habit must exist. Codes: HC_E_INVALID (a bad field: a time outside
 * 00:00-23:59, start == end, no habits, a negative budget, a quota schedule),
 * HC_E_NOT_FOUND (a habit). Nothing is written on error.
 * @since 1.1 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_READONLY */
int32_t hc_shield_rule_add(int64_t *out_id, hc_store *store, const hc_shield_rule *rule, int32_t from_day);
/* Changes a rule from from_day on (today or later; HC_DAY_NONE: today), checked as
 * hc_shield_rule_add checks a new one. Codes: HC_E_NOT_FOUND (no such rule, or a habit).
 * @since 1.1 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_READONLY */
int32_t hc_shield_rule_update(hc_store *store, int64_t rule_id, const hc_shield_rule *rule, int32_t from_day);
/* Removes a rule from from_day on (today or later; HC_DAY_NONE: today).
 * @since 1.1 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_READONLY */
int32_t hc_shield_rule_remove(hc_store *store, int64_t rule_id, int32_t from_day);

typedef struct hc_shield_rule_list hc_shield_rule_list;
/* The rules in force on day (HC_DAY_NONE: today), by id, into *out; free with
 * hc_shield_rule_list_free.
 * @since 1.1 @thread store @status HC_OK HC_E_INVALID HC_E_IO HC_E_MISUSE */
int32_t hc_shield_rule_list_open(hc_shield_rule_list **out, hc_store *store, int32_t day);
/* The number of rules.
 * @since 1.1 @thread list @status HC_OK HC_E_INVALID HC_E_MISUSE */
int32_t hc_shield_rule_list_count(int64_t *out_count, const hc_shield_rule_list *list);
/* The rule at index: borrowed, valid until the list is freed.
 * @since 1.1 @thread list @status HC_OK HC_E_INVALID HC_E_MISUSE */
int32_t hc_shield_rule_list_get(const hc_shield_rule **out, const hc_shield_rule_list *list, int64_t index);
/* Frees a list; NULL is a no-op.
 * @since 1.1 @thread release @status none */
void hc_shield_rule_list_free(hc_shield_rule_list *list);

/* One rule's state at an instant (what hc_shield_state writes). Written by the library (its own sizeof). */
typedef struct hc_shield_status {
    uint32_t struct_size;     /* sizeof(hc_shield_status) */
    int32_t shielded;         /* 1 or 0 */
    int64_t rule_id;
    int32_t reason;           /* HC_SHIELD_WINDOW_OPEN ... */
    int32_t fail_closed;      /* the rule's choice for an unreadable store */
    int32_t window_day;       /* the start date of the window concerned (0: none) */
    int32_t habit_day;        /* the habit day whose completions lift it (0: none) */
    int64_t window_start_ms;  /* the window concerned (0: none) */
    int64_t window_end_ms;
    int64_t since_ms;         /* COMPLETED, EXCUSED: lifted at (0 otherwise) */
    int64_t until_ms;         /* SESSION, EMERGENCY: lifted until (0 otherwise) */
    int64_t next_change_ms;   /* the next time-driven change; 0: none within 62 days */
    int32_t next_cause;       /* HC_SHIELD_CAUSE_* of that change (0: none) */
    uint32_t earlier;         /* HC_SHIELD_EARLIER_* bits */
    int32_t emergency_left;   /* emergency unlocks left this period; -1: unlimited */
    int32_t outstanding_count; /* habits not done for habit_day (CUTOFF_PASSED: not done before the cutoff; at most HC_SHIELD_MAX_HABITS) */
    int64_t outstanding[HC_SHIELD_MAX_HABITS];
} hc_shield_status;

/* Every rule's state at at_ms (UTC ms; 0: now), by rule id, into the caller's buffer out
 * (capacity elements): min(capacity, total) are written and *out_count gets the
 * total; out == NULL with capacity 0 asks for the total. *out_revision (may be
 * NULL) gets the store's shield revision, read in the same snapshot (one read
 * transaction).
 * Works on a store opened read-only.
 * @since 1.1 @thread store @status HC_OK HC_E_INVALID HC_E_IO HC_E_CORRUPT HC_E_BUSY HC_E_MISUSE */
int32_t hc_shield_state(hc_shield_status *out, int64_t capacity, int64_t *out_count, int64_t *out_revision, hc_store *store,
                        int64_t at_ms);

/* One change of a rule's state. Written by the library (its own sizeof). */
typedef struct hc_shield_transition {
    uint32_t struct_size;    /* sizeof(hc_shield_transition) */
    int32_t shielded;        /* the state from at_ms on */
    int64_t rule_id;
    int64_t at_ms;           /* UTC, a whole minute */
    int32_t local_day;       /* the local date (day number) and minute at at_ms, in the zone then in force */
    int32_t local_minute;
    int32_t offset_seconds;  /* that zone's UTC offset at at_ms */
    uint32_t moved;          /* HC_SHIELD_MOVED_* bits */
    int32_t from_reason;     /* HC_SHIELD_* reason just before at_ms */
    int32_t to_reason;       /* and from at_ms on */
    int32_t cause;           /* HC_SHIELD_CAUSE_* */
    int32_t reserved;        /* 0 */
    char zone[72];           /* the zone's name, NUL-terminated */
} hc_shield_transition;

/* Every instant in [from_ms, to_ms) (at most 92 days) where a rule's shielded
 * state flips, by instant then rule, into out as hc_shield_state does (capacity,
 * *out_count the total, NULL/0 asks). transitions(a, c) is transitions(a, b)
 * followed by transitions(b, c). *out_revision (may be NULL) as hc_shield_state.
 * @since 1.1 @thread store @status HC_OK HC_E_INVALID HC_E_IO HC_E_CORRUPT HC_E_BUSY HC_E_MISUSE */
int32_t hc_shield_transitions(hc_shield_transition *out, int64_t capacity, int64_t *out_count, int64_t *out_revision,
                              hc_store *store, int64_t from_ms, int64_t to_ms);

/* The store's shield revision: it changes with every write that can change a
 * shield, from any process.
 * @since 1.1 @thread store @status HC_OK HC_E_INVALID HC_E_IO HC_E_MISUSE */
int32_t hc_shield_revision(int64_t *out_revision, hc_store *store);

/* Records an emergency unlock of rule_id now, for minutes (1..1440), with an
 * optional reason (up to 500 bytes): an append-only record, in one short write
 * transaction that checks the rule's budget, so unlocks from several processes
 * (the app, its shield extension) never exceed it; the wait for another writer
 * is the store's busy timeout. *out_id (may be NULL) gets its id. Unlocks granted
 * offline on two synced devices are all kept by the merge and counted on both, so a
 * budget can end exceeded (emergency_left 0; see the sync merge rules).
 * Codes: HC_E_CONFLICT (rule not in effect today), HC_E_INSUFFICIENT (past the
 * budget; nothing recorded).
 * @since 1.1 @thread store @status HC_OK HC_E_INVALID HC_E_NOT_FOUND HC_E_CONFLICT HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_READONLY HC_E_INSUFFICIENT */
int32_t hc_shield_emergency_unlock(int64_t *out_id, hc_store *store, int64_t rule_id, int32_t minutes, const char *reason);

/* Writes, for an extension too small to open SQLite, each rule's state at at_ms
 * (UTC ms; 0: now), the transitions of the following 24 hours and the store's
 * revision as a small JSON file at path ({"format":"habitcore-shields","version":1,
 * "revision":R,"at_ms":T,"rules":[{"rule_id","key","shielded","reason",
 * "fail_closed","next_change_ms"}],"transitions":[{"rule_id","at_ms","shielded",
 * "cause"}]}), atomically: written beside it, synced, then renamed over it (a
 * symbolic link's target is replaced and the link stays; a device or FIFO is
 * written through, as hc_store_export_file does). Read
 * from one snapshot of the store; works on a store opened read-only. Codes: HC_E_INVALID
 * (NULL or empty path, bad at_ms), HC_E_IO (cannot write).
 * @since 1.1 @thread store @status HC_OK HC_E_INVALID HC_E_IO HC_E_CORRUPT HC_E_BUSY HC_E_MISUSE */
int32_t hc_shield_snapshot_write(hc_store *store, const char *path, int64_t at_ms);

/* ------------------------------------------------------------------------ */
/* Sync between a person's devices. Since 1.1.                               */
/* ------------------------------------------------------------------------ */
/*
 * Each store is a replica with a random 16-byte id made at its creation (or at
 * the first writable open of an older store, which then gives its existing
 * records this id). Every syncable write is logged as an op, in the same
 * transaction as the write, with a global id (replica id, that replica's
 * sequence number) and a hybrid logical clock stamp. Records refer to each other
 * by global id (an entry to its habit, an undo to the entry it cancels), never by
 * local integer id, which stay per store. The transport is the caller's: pass the
 * state of one store to the other, its changes back, apply them.
 *
 * What syncs: habits (creation and every field, archiving too), schedules,
 * ledger entries (done, amounts, totals, skips, undos), vacations, proofs' records
 * and their verdicts, the settings timezone, day_start_minutes and week_start, the
 * streak policies (the store's and each habit's own) and the routine bounds,
 * credit accounts, spends, adjustments, refunds and step reports, credit rules,
 * shield rules (with every version) and emergency unlocks, award unlocks, and the
 * store's zone-change history. What stays on the device: the evidence bytes of
 * proofs unless asked for (HC_SYNC_EVIDENCE), fingerprints, plugin registrations,
 * caches, events and their cursors (each device announces on its own), reminders,
 * unlock sessions, entry retry keys, the award catalogue and referral redemptions.
 *
 * A copy made by hc_store_backup is a replica of its own (a new id) holding the
 * same records under the same global ids, so original and copy may both write on
 * and merge. A store file copied by other means, or restored from an older copy
 * of itself, keeps the id it had then; when it writes on, its history forks from
 * what its peers hold under that id, and the next exchange settles it (a state
 * carries the stamp of the op at each replica's number, so the peer sees the fork):
 *
 * Clocks. An op stamped more than a day ahead of the receiving device's clock is
 * not taken (counted in ops_waiting; its peers send it again) until that clock is
 * within a day of it, so one device's wrong clock cannot drag every replica's
 * hybrid clock to its limit, where stamps stop growing and later edits would tie.
 *
 * Forks. Two histories of a replica fork at the first sequence number where they
 * hold different ops. Of the two ops there, the later one (higher clock stamp,
 * then kind, then payload bytes) starts the branch that moves. Each op of the
 * moving branch from that number on moves on its own: it becomes op 1 of a replica
 * derived from the replica, its number and the op itself, so every store gives it
 * the same id whatever order it meets the branches in (three copies writing at once
 * included). A store holding a moving op moves it; a store receiving one takes it
 * moved (counted in ops_forked); changesets carry every move their store knows of,
 * and a store told of a move moves its own copy of that op when the op derives it.
 * When the replica is the store's own, the replica of its first moved op becomes
 * its own and it writes on there; records keep their local ids. A state carries,
 * at a ladder of numbers below each replica's highest (seen, seen-1, seen-2,
 * seen-4 ... 1), the stamp there and a digest of every op up to there, so two stores
 * find the last number up to which they hold the same ops however much more one of
 * them holds, even when one holds a replica's numbers from two branches. An op names each record by its global id and the clock
 * stamp of the op that made it: a record named before it moved (a third device
 * logged under the copy's habit before the fork was found) is found under its new
 * id everywhere, and an op naming it waits (ops_waiting) until it arrives, never
 * taken for the other record that had its id. Ops written before 1.1 name records
 * by id alone: one of them naming a record that moved is read as naming the op
 * that stayed under that id.
 *
 * Merge rules (the same on every replica, so every order of exchanges ends in the
 * same records; hc_sync_canonical shows them):
 *  - a record this store cannot apply yet never stops the rest of a changeset or
 *    later ones: it is kept in the log, passed on to peers, counted in ops_waiting,
 *    and applied at a later hc_sync_apply once it can be. It waits for a record it
 *    names that has not arrived (below), or for a time zone: a timezone setting or
 *    zone change naming a zone this machine's tz database lacks (a name newer than
 *    its tzdata, as Europe/Kyiv on an older system) waits until the database has it.
 *    Ops waiting for a record are tried again at each apply that applies an op or
 *    moves one, those waiting for a zone at every apply. A store keeps at most
 *    1,000,000 ops waiting: past that, an apply leaves further waiting ops out of
 *    its log (counted in ops_waiting; they are not held, so peers send them again)
 *    and applies the rest;
 *  - ledger entries, proofs and verdicts are a union of records; a record whose
 *    habit, proof or entry has not arrived waits for it (ops_waiting); an undo
 *    whose entry has not arrived
 *    waits for it (counted in ops_waiting) and is applied when it does; an entry
 *    undone on two devices is cancelled once (the second undo changes nothing);
 *  - habit fields (a habit's own streak policy among them) and synced settings
 *    (time zone, day start, week start, the store's streak policy, the routine
 *    bounds): the last writer wins per field, by hybrid logical clock stamp, ties
 *    broken by the higher replica id; archiving and restoring are the archived-day
 *    field;
 *  - two active habits with one name (created offline on two devices): the one
 *    with the smaller global id keeps the name, the other shows it followed by
 *    " (<replica prefix>-<seq>)"; no habit is dropped;
 *  - settings versions (schedule, target and direction, proof, group, archived):
 *    by effective date, one per habit and day, last writer wins per day (history
 *    keeps the versions it had);
 *  - vacations: an observed-remove set: a removal cancels the vacation it saw,
 *    a vacation added elsewhere meanwhile stays;
 *  - shield rules: a rule is one record everywhere (its global id is its creation);
 *    what it says merges as schedules do: one version per rule and effective day,
 *    the last writer wins per day (by stamp, then replica id), a removal from a day
 *    on included; a version naming a habit that has not arrived waits for it;
 *  - emergency unlocks: a union of records, none ever dropped; each device's budget
 *    counts every device's unlocks once merged, so two devices that each granted
 *    the last allowed unlock offline keep both: the budget is then exceeded and
 *    emergency_left is 0 on both (see hc_shield_emergency_unlock);
 *  - a merge that changes shield rules or unlocks moves the shield revision;
 *  - credits: the facts travel, the rest is derived. A spend, a manual
 *    adjustment and a refund are a union of records; step reports too, and a
 *    day's highest total wins per account (as locally: two devices reporting
 *    5,000 and 7,000 steps for one day earn 7,000's minutes, once). Earnings and
 *    expiries are never sent: after an apply that brought facts of an account,
 *    its step earnings are topped up and its written expiries corrected to the
 *    fold's, so every replica holds the ledger of a store that received every
 *    fact directly (the fold never reads written expiries);
 *  - spends made offline on two devices are both kept, never dropped: together
 *    they may take the balance below zero; it then shows the debt (a negative
 *    hc_credit_balance, never expired) that later earnings repay; a spend is
 *    still refused locally while the balance is short (HC_E_INSUFFICIENT);
 *  - credit accounts: one name (compared without case) is one account on every
 *    replica, created by whichever record names it first;
 *  - unlock sessions stay on the device that bought them (they unlock its apps):
 *    their spend and any refund travel as plain spends and refunds;
 *  - credit rules (steps per minute, habit rewards, the expiry policy): by
 *    effective date, the last writer wins per account, kind, habit and day; after
 *    a merge (and after a local rule change) the days a rule covers are recounted:
 *    step earnings and completion rewards are brought to what the final rules
 *    give (an `adjust` entry when a day earned more than it is now owed), and
 *    hc_credit_day.earned counts those corrections, so replicas that reached one
 *    ledger by different paths show the same day;
 *  - completion rewards follow the merged ledger: a completion that arrives earns
 *    its reward on the device that receives it, an undo that arrives takes it back;
 *  - award unlocks: every device's unlock is kept as a record; per award, the one
 *    with the earliest crossing day stands (ties: the smaller global id), and that
 *    is what hc_award_list_open_unlocked and evaluation see, so an award is unlocked once
 *    in the merged history. Each device announces an award at most once
 *    (HC_EVENT_AWARD_UNLOCKED, keyed by the award): a merged unlock is announced on
 *    a device that had not announced it, never again on one that had;
 *  - zone changes: a union of records, read in order of their instants (shields
 *    end a window in progress by the history every device holds); the zone itself
 *    is the timezone setting (last writer wins);
 *  - streaks, scores and the rest are computed from the merged records, exactly
 *    as on a store that had received every record directly.
 */

/* What hc_sync_apply did. The caller sets struct_size (HC_SYNC_SUMMARY_INIT). */
typedef struct hc_sync_summary {
    uint32_t struct_size;
    int64_t ops_received;      /* ops in the changeset */
    int64_t ops_new;           /* of those, not held before (the rest were duplicates) */
    int64_t ops_applied;       /* ops that changed records (new ones, or earlier ones that waited) */
    int64_t ops_superseded;    /* ops kept in the log that changed nothing: an older value, a second undo */
    int64_t ops_waiting;       /* ops still waiting: for a record they name, a time zone this machine lacks,
                                  or this device's clock (stamped more than a day ahead of it: not taken, peers send them again) */
    int64_t habits_changed;    /* applied habit creations, field changes and schedules */
    int64_t entries_added;     /* applied ledger entries */
    int64_t vacations_changed; /* applied vacation additions and removals */
    int64_t settings_changed;  /* applied settings and zone changes */
    int64_t proofs_changed;    /* applied proofs and verdicts */
    int64_t credits_changed;   /* applied credit accounts, spends, adjustments, refunds, step reports and rules */
    /* Since 1.1. Ops of a forked replica's moving branch, taken under their moved
     * ids (see "Forks" above). */
    int64_t ops_forked;
} hc_sync_summary;

#define HC_SYNC_SUMMARY_INIT { (uint32_t)sizeof(hc_sync_summary), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 }
/* Fills *out with the defaults of HC_SYNC_SUMMARY_INIT (see "Option, input and result structs").
 * Codes: HC_E_INVALID (NULL, struct_size below its first release).
 * @since 1.1 @thread any @status HC_OK HC_E_INVALID */
int32_t hc_sync_summary_init(hc_sync_summary *out, uint32_t struct_size);

/* The store's replica id: 16 bytes into out (capacity: bytes; *out_count: 16).
 * Caller buffer rules.
 * @since 1.1 @thread store @status HC_OK HC_E_INVALID HC_E_IO HC_E_CORRUPT HC_E_MISUSE */
int32_t hc_sync_replica(uint8_t *out, int64_t capacity, int64_t *out_count, hc_store *store);

/* What this store has seen, as a version vector (per replica, the highest sequence
 * number up to which it holds every op), in bytes (format in docs/FORMATS.md,
 * "Sync"): caller buffer rules, in bytes. Give it to a peer's hc_sync_changes.
 * Read from one snapshot, after one write that keeps the digests of the ops this
 * store wrote since it last synced (a read-only handle sums them in memory).
 * @since 1.1 @thread store @status HC_OK HC_E_INVALID HC_E_IO HC_E_BUSY HC_E_MISUSE */
int32_t hc_sync_state(uint8_t *out, int64_t capacity, int64_t *out_count, hc_store *store);

/* The replicas a sync state (bytes from hc_sync_state) names, in ascending id order:
 * each one's 16-byte id into out_replicas (16 bytes a replica) and, at the same
 * index of out_seqs, the highest sequence number up to which the store that made
 * the state holds every op of that replica. Caller buffer rules, counted in
 * replicas: both arrays hold capacity of them (both NULL with capacity 0: how many).
 * An empty state names none. Codes: HC_E_INVALID (bytes that are not a sync state).
 * @since 1.1 @thread any @status HC_OK HC_E_INVALID */
int32_t hc_sync_state_replicas(uint8_t *out_replicas, int64_t *out_seqs, int64_t capacity, int64_t *out_count,
                               const uint8_t *state, int64_t state_size);

/* Every op this store holds that a peer in peer_state (bytes from the peer's
 * hc_sync_state; NULL with size 0: a peer that has nothing) lacks, as one changeset
 * (a self-describing, versioned, checksummed byte buffer, format in
 * docs/FORMATS.md), allocated into *out (free with hc_free) with its size in
 * *out_size. An empty changeset is valid and applies as nothing. Read from one
 * snapshot, after the write hc_sync_state makes. Codes: HC_E_INVALID (bad peer state).
 * @since 1.1 @thread store @status HC_OK HC_E_INVALID HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_NOMEM */
int32_t hc_sync_changes(uint8_t **out, int64_t *out_size, hc_store *store, const uint8_t *peer_state, int64_t peer_state_size);

/* Flags of hc_sync_changes_v2. */
#define HC_SYNC_EVIDENCE 0x1u /* proofs travel with their kept evidence bytes */

/* As hc_sync_changes, with flags: 0, or HC_SYNC_EVIDENCE: every proof the changeset
 * carries whose evidence this store keeps (HC_PROOF_KEEP_COPY, or received so)
 * carries the bytes too, and the receiver keeps them for that proof when they hash
 * to its sha256 (see hc_proof_evidence); without it, evidence stays on the device.
 * Evidence goes with the proofs the changeset carries: for proofs a peer already
 * holds without it, ask with an empty peer_state. Photos make changesets large: one past
 * 256 MiB is HC_E_NOMEM (ask without
 * evidence, or more often). Unknown flags are HC_E_INVALID. Otherwise as
 * hc_sync_changes.
 * @since 1.1 @thread store @status HC_OK HC_E_INVALID HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_NOMEM */
int32_t hc_sync_changes_v2(uint8_t **out, int64_t *out_size, hc_store *store, const uint8_t *peer_state, int64_t peer_state_size,
                           uint32_t flags);

/* Applies a changeset from hc_sync_changes (any replica's, in any order, any
 * number of times) by the merge rules above. The whole buffer is validated first:
 * a truncated, damaged, oversized (above 256 MiB) or hostile one (a record no local
 * write could have made: an entry against the rule at hc_entry_input, a setting its
 * setter refuses, a malformed zone name) is HC_E_INVALID with the message naming the
 * record at fault, and nothing is written. Then, in one transaction, unseen ops are
 * logged and applied (or wait, as the merge rules say); ops already held change
 * nothing. *out (may be NULL; struct_size set) gets the summary.
 * @since 1.1 @thread store @status HC_OK HC_E_INVALID HC_E_IO HC_E_CORRUPT HC_E_BUSY HC_E_MISUSE HC_E_READONLY */
int32_t hc_sync_apply(hc_sync_summary *out, hc_store *store, const uint8_t *changes, int64_t size);

/* The synced records as text that does not depend on local ids (records by global
 * id, in global id order; format in docs/FORMATS.md), into *out (free with hc_free):
 * two replicas that have exchanged everything give byte-for-byte the same text.
 * @since 1.1 @thread store @status HC_OK HC_E_INVALID HC_E_IO HC_E_MISUSE HC_E_NOMEM */
int32_t hc_sync_canonical(char **out, hc_store *store);

/* ------------------------------------------------------------------------ */
/* Changes: the store revision and the change feed                          */
/* ------------------------------------------------------------------------ */

/*
 * Changes (for a UI, a widget or an automation that refreshes only what changed):
 *  - Every write that syncs logs an op (see Sync); the store numbers the ops in the
 *    order this file logged them, its own and other replicas' alike, and the store
 *    revision is the highest number. It grows with every commit of such a write by
 *    any process and never goes back; reading it is one index lookup and writes
 *    nothing, also on a read-only store.
 *  - Writes that log no op (they stay on the device and do not sync) do not move it:
 *    proof policies, reminder rules, quiet hours, snoozes and deliveries, the award
 *    catalogue, events and their acknowledgements, plugins, proof runs, and store
 *    settings other than those that sync; nor does a setting or a habit's streak
 *    policy set to what it already is.
 *  - A change says what an op reached: an area (HC_CHANGE_*), a habit (0: not one
 *    habit's, e.g. a store setting or a vacation of every habit) and the days
 *    first_day..last_day it can change the judgement of. A setting in force from a
 *    day on reaches that day through HC_CHANGE_LAST_DAY; what names no day (a name,
 *    a store setting, a zone change) reaches HC_CHANGE_FIRST_DAY..HC_CHANGE_LAST_DAY.
 *  - A reader keeps the highest revision it handled as its cursor and reads again
 *    after it: each change comes once and in order. HC_CHANGES_MERGED asks for the
 *    compact form: one change per area and habit for each run of overlapping or
 *    touching days, at the latest revision among those it stands for.
 */
#define HC_CHANGE_HABIT 1    /* a habit's definition or its settings from a day on */
#define HC_CHANGE_ENTRY 2    /* an entry of a day */
#define HC_CHANGE_PROOF 3    /* a proof or a verdict on it */
#define HC_CHANGE_VACATION 4 /* a vacation added or removed */
#define HC_CHANGE_SETTING 5  /* a store setting that follows the person (week start, day start) */
#define HC_CHANGE_ZONE 6     /* the store's time zone */
#define HC_CHANGE_CREDIT 7   /* a credit account, fact, step report or rule */
#define HC_CHANGE_AWARD 8    /* an award unlocked */
#define HC_CHANGE_SHIELD 9   /* a shield rule, its settings from a day on, an emergency unlock */

#define HC_CHANGE_FIRST_DAY (-719162) /* 0001-01-01: the first day a change reaches when it names none */
#define HC_CHANGE_LAST_DAY 2932896    /* 9999-12-31: the last day */

#define HC_CHANGES_MERGED 0x1u

typedef struct hc_change {
    uint32_t struct_size; /* the library's sizeof(hc_change) */
    int32_t area;         /* HC_CHANGE_* */
    int64_t revision;     /* the store revision the change came in at */
    int64_t habit_id;     /* 0 when not one habit's */
    int32_t first_day;
    int32_t last_day;
} hc_change;

typedef struct hc_change_list hc_change_list;

/* The store revision into *out_revision: 0 for a store no write has reached.
 * @since 1.1 @thread store @status HC_OK HC_E_INVALID HC_E_IO HC_E_BUSY HC_E_MISUSE */
int32_t hc_store_revision(int64_t *out_revision, hc_store *store);
/* The changes of the ops logged after revision after (>= 0), oldest first, from at most
 * limit (1..10000) ops, into *out; flags 0 or HC_CHANGES_MERGED. The last change's
 * revision is the cursor to read after next; an empty list: nothing new.
 * @since 1.1 @thread store @status HC_OK HC_E_INVALID HC_E_IO HC_E_CORRUPT HC_E_BUSY HC_E_MISUSE HC_E_NOMEM */
int32_t hc_change_list_read(hc_change_list **out, hc_store *store, int64_t after, int64_t limit, uint32_t flags);
/* The number of changes.
 * @since 1.1 @thread list @status HC_OK HC_E_INVALID HC_E_MISUSE */
int32_t hc_change_list_count(int64_t *out_count, const hc_change_list *list);
/* The change at index: borrowed, valid until the list is freed.
 * @since 1.1 @thread list @status HC_OK HC_E_INVALID HC_E_MISUSE */
int32_t hc_change_list_get(const hc_change **out, const hc_change_list *list, int64_t index);
/* Releases the list. NULL is ignored.
 * @since 1.1 @thread release @status none */
void hc_change_list_free(hc_change_list *list);

#ifdef __cplusplus
}
#endif

#endif /* HABITCORE_H */
