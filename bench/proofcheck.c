/* proofcheck.c: what proofcheck costs on a 12-megapixel phone JPEG, and what
 * matching against 10,000 earlier proofs adds, against baselines in the same run:
 * decoding the same file with libjpeg-turbo at full size (what any hasher starts
 * with) and at the size proofcheck decodes to.
 *
 * Part 1 loads libhabitcore_proofcheck.so with dlopen and is its host, handing it
 * 0 or 10,000 fingerprints from memory. Part 2 goes through habitcore: a real store
 * holding 10,000 fingerprints in SQLite, hc_plugin_test (which also reads the file
 * and hashes it with SHA-256).
 * Usage: proofcheck PLUGIN.so PHOTO.jpg FOLDER */
#include <dlfcn.h>
#include <habitcore.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <turbojpeg.h>

#define STORED 10000
#define HASHES 8
#define BLOB (2 + HASHES * 33)
#define ROUNDS 10

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void fail(const char *what) {
    fprintf(stderr, "proofcheck bench: %s\n", what);
    exit(1);
}

/* Fingerprints in proofcheck's format 1: version, count, then quality and 32 bytes per hash. */
static unsigned char stored[STORED][BLOB];
static int offered = 0; /* how many of them the host hands out */

static void make_fingerprints(void) {
    unsigned long long state = 0x5EED;
    for (int i = 0; i < STORED; i++) {
        stored[i][0] = 1;
        stored[i][1] = HASHES;
        for (int h = 0; h < HASHES; h++) {
            stored[i][2 + h * 33] = 100;
            for (int b = 0; b < 32; b++) {
                state = state * 6364136223846793005ULL + 1442695040888963407ULL;
                stored[i][3 + h * 33 + b] = (unsigned char)(state >> 56);
            }
        }
    }
}

static int32_t read_fingerprints(void *host, void *session, const char *kind,
                                 int32_t (*visit)(void *, int64_t, const uint8_t *, int64_t), void *context) {
    (void)host, (void)session, (void)kind;
    for (int i = 0; i < offered; i++) {
        if (visit(context, i + 1, stored[i], BLOB) != 0) break;
    }
    return 0;
}

static int32_t keep_fingerprint(void *host, void *session, const char *kind, const uint8_t *bytes, int64_t size) {
    (void)host, (void)session, (void)kind, (void)bytes, (void)size;
    return 0;
}

static void log_line(void *host, int32_t level, const char *message) {
    (void)host, (void)level;
    fprintf(stderr, "plugin: %s\n", message);
}

static unsigned char *read_file(const char *path, long *size) {
    FILE *file = fopen(path, "rb");
    if (!file) fail("cannot open the photo (install forensics-samples-files)");
    fseek(file, 0, SEEK_END);
    *size = ftell(file);
    fseek(file, 0, SEEK_SET);
    unsigned char *bytes = malloc((size_t)*size);
    if (!bytes || fread(bytes, 1, (size_t)*size, file) != (size_t)*size) fail("cannot read the photo");
    fclose(file);
    return bytes;
}

/* The mean of ROUNDS decodes at scale num/denom, in milliseconds. */
static double decode_ms(const unsigned char *jpeg, long size, int num, int denom, int format, int *w, int *h) {
    tjhandle handle = tjInitDecompress();
    int width, height, subsampling, colourspace;
    if (tjDecompressHeader3(handle, jpeg, (unsigned long)size, &width, &height, &subsampling, &colourspace) != 0) fail("header");
    *w = (width * num + denom - 1) / denom;
    *h = (height * num + denom - 1) / denom;
    unsigned char *pixels = malloc((size_t)*w * (size_t)*h * (size_t)tjPixelSize[format]);
    double started = now();
    for (int round = 0; round < ROUNDS; round++) {
        if (tjDecompress2(handle, jpeg, (unsigned long)size, pixels, *w, 0, *h, format, 0) != 0) fail(tjGetErrorStr2(handle));
    }
    double ms = (now() - started) * 1000 / ROUNDS;
    free(pixels);
    tjDestroy(handle);
    return ms;
}

static double verify_ms(const hc_plugin *plugin, void *state, const unsigned char *jpeg, long size, hc_plugin_verdict *verdict) {
    hc_plugin_evidence evidence;
    memset(&evidence, 0, sizeof evidence);
    evidence.struct_size = sizeof evidence;
    evidence.path = "photo.jpg";
    evidence.bytes = jpeg;
    evidence.size = size;
    evidence.media_type = "image/jpeg";
    evidence.sha256 = "";
    evidence.received_at_ms = (int64_t)time(NULL) * 1000;
    evidence.proof_id = STORED + 1;
    evidence.day = (int32_t)(time(NULL) / 86400);
    evidence.session = &evidence;
    double started = now();
    for (int round = 0; round < ROUNDS; round++) {
        memset(verdict, 0, sizeof *verdict);
        verdict->struct_size = sizeof *verdict;
        if (plugin->verify(state, &evidence, verdict) != 0) fail("verify failed");
    }
    return (now() - started) * 1000 / ROUNDS;
}

static void check(int32_t status, const char *what) {
    if (status != HC_OK) {
        fprintf(stderr, "%s: %s (%s)\n", what, hc_status_string(status), hc_last_error_message());
        exit(1);
    }
}

/* A store with one habit, STORED proofs and their fingerprints, proofcheck registered. */
static hc_store *store_with_fingerprints(const char *folder, const char *plugin_path) {
    char path[4096];
    snprintf(path, sizeof path, "%s/proofcheck-bench.db", folder);
    remove(path);
    hc_store *store = NULL;
    check(hc_store_open(&store, path, 0), "open");
    hc_habit_options options = HC_HABIT_OPTIONS_INIT;
    options.name = "Made bed";
    int64_t habit = 0;
    check(hc_habit_create(&habit, store, &options), "habit");
    check(hc_plugin_add(NULL, store, HC_PLUGIN_SHARED_OBJECT, plugin_path, NULL, 0), "plugin add");
    sqlite3 *db = NULL;
    if (sqlite3_open(path, &db) != SQLITE_OK) fail("sqlite3_open");
    sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
    sqlite3_stmt *proof = NULL, *fingerprint = NULL;
    sqlite3_prepare_v2(db, "INSERT INTO proofs(habit_id, day, sha256, size, media_type, received_at_ms) VALUES(?1, 20000, hex(randomblob(32)), 1, 'image/jpeg', 0)", -1, &proof, NULL);
    sqlite3_prepare_v2(db, "INSERT INTO proof_fingerprints(proof_id, verifier_id, kind, value) VALUES(last_insert_rowid(), 'proofcheck', 'pdq', ?1)", -1, &fingerprint, NULL);
    for (int i = 0; i < STORED; i++) {
        sqlite3_bind_int64(proof, 1, habit);
        if (sqlite3_step(proof) != SQLITE_DONE) fail(sqlite3_errmsg(db));
        sqlite3_reset(proof);
        sqlite3_bind_blob(fingerprint, 1, stored[i], BLOB, SQLITE_STATIC);
        if (sqlite3_step(fingerprint) != SQLITE_DONE) fail(sqlite3_errmsg(db));
        sqlite3_reset(fingerprint);
    }
    sqlite3_finalize(proof);
    sqlite3_finalize(fingerprint);
    if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) fail(sqlite3_errmsg(db));
    sqlite3_close(db);
    return store;
}

int main(int argc, char **argv) {
    if (argc < 4) fail("usage: proofcheck PLUGIN.so PHOTO.jpg FOLDER");
    long size = 0;
    unsigned char *jpeg = read_file(argv[2], &size);
    make_fingerprints();

    void *library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!library) fail(dlerror());
    const hc_plugin *plugin = dlsym(library, HC_PLUGIN_ENTRY_SYMBOL);
    if (!plugin || plugin->abi_version != HC_PLUGIN_ABI_VERSION) fail("not a habitcore plugin");
    hc_host_services services;
    memset(&services, 0, sizeof services);
    services.struct_size = sizeof services;
    services.abi_version = HC_PLUGIN_ABI_VERSION;
    services.log = log_line;
    services.fingerprints_read = read_fingerprints;
    services.fingerprint_keep = keep_fingerprint;
    void *state = NULL;
    if (plugin->init(&services, &state) != 0) fail("init");

    int full_w, full_h, small_w, small_h;
    hc_plugin_verdict verdict;
    verify_ms(plugin, state, jpeg, size, &verdict); /* warm-up */
    double full = decode_ms(jpeg, size, 1, 1, TJPF_RGB, &full_w, &full_h);
    double small = decode_ms(jpeg, size, 1, 4, TJPF_GRAY, &small_w, &small_h);
    offered = 0;
    double alone = verify_ms(plugin, state, jpeg, size, &verdict);
    offered = STORED;
    double matched = verify_ms(plugin, state, jpeg, size, &verdict);
    printf("proofcheck: %s, %dx%d, %.1f MB (mean of %d rounds, after one warm-up)\n\n", argv[2], full_w, full_h, size / 1e6, ROUNDS);
    printf("%-62s %9s %10s\n", "case", "ms/photo", "/decode");
    printf("%-62s %9.2f %9.2fx\n", "baseline: libjpeg-turbo decode, full size, RGB", full, 1.0);
    printf("%-62s %9.2f %9.2fx\n", "baseline: libjpeg-turbo decode at 1/4 (what proofcheck reads), grey", small, small / full);
    printf("%-62s %9.2f %9.2fx\n", "proofcheck verify, no earlier proofs", alone, alone / full);
    printf("%-62s %9.2f %9.2fx\n", "proofcheck verify, 10,000 earlier proofs (8 hashes each)", matched, matched / full);
    printf("\nmatching 10,000 earlier proofs adds %.2f ms (%.3f us a proof); verdict: %s\n", matched - alone,
           (matched - alone) * 1000 / STORED, verdict.reason_code);

    hc_store *store = store_with_fingerprints(argv[3], argv[1]);
    hc_proof_result result = HC_PROOF_RESULT_INIT;
    check(hc_plugin_test(&result, store, "proofcheck", argv[2]), "warm-up");
    double started = now();
    for (int round = 0; round < ROUNDS; round++) check(hc_plugin_test(&result, store, "proofcheck", argv[2]), "plugin test");
    double through = (now() - started) * 1000 / ROUNDS;
    printf("%-62s %9.2f %9.2fx\n", "hc_plugin_test: file, SHA-256, 10,000 fingerprints from SQLite", through, through / full);
    check(hc_store_close(store), "close");
    return 0;
}
