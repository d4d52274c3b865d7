/* proofcheck.c: what proofcheck costs on a 12-megapixel phone JPEG, and what
 * matching against 10,000 earlier proofs adds, against baselines in the same run:
 * decoding the same file with libjpeg at full size (what any hasher starts with)
 * and at the size proofcheck decodes to.
 *
 * Part 1 loads libhabitcore_proofcheck.so with dlopen and is its host, handing it
 * 0 or 10,000 fingerprints from memory. Part 2 goes through habitcore: a real store
 * holding 10,000 fingerprints in SQLite, hc_plugin_test (which also reads the file
 * and hashes it with SHA-256).
 * Usage: proofcheck PLUGIN.so PHOTO.jpg FOLDER
 * Without the photo (forensics-samples-files is not on a fresh machine) it makes a
 * 4000x3000 JPEG of its own, a textured gradient at quality 90, and says so. */
#include <dlfcn.h>
#include "bench.h"
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <jpeglib.h>

#define STORED 10000
#define HASHES 8
#define BLOB (2 + HASHES * 33)
#define ROUNDS 10

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

static int32_t read_fingerprints(void *session, const char *kind,
                                 int32_t (*visit)(int64_t, const uint8_t *, int64_t, void *), void *visit_user_data,
                                 void *user_data) {
    (void)user_data, (void)session, (void)kind;
    for (int i = 0; i < offered; i++) {
        if (visit(i + 1, stored[i], BLOB, visit_user_data) != 0) break;
    }
    return 0;
}

static int32_t keep_fingerprint(void *session, const char *kind, const uint8_t *bytes, int64_t size, void *user_data) {
    (void)user_data, (void)session, (void)kind, (void)bytes, (void)size;
    return 0;
}

static void log_line(int32_t level, const char *message, void *user_data) {
    (void)user_data, (void)level;
    fprintf(stderr, "plugin: %s\n", message);
}

static unsigned char *read_file(const char *path, long *size) {
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    fseek(file, 0, SEEK_END);
    *size = ftell(file);
    fseek(file, 0, SEEK_SET);
    unsigned char *bytes = malloc((size_t)*size);
    if (!bytes || fread(bytes, 1, (size_t)*size, file) != (size_t)*size) fail("cannot read the photo");
    fclose(file);
    return bytes;
}

/* A 4000x3000 photo-sized JPEG (quality 90): a gradient with a pseudo-random texture,
 * so that the entropy decoder has a phone photo's work to do. */
static unsigned char *made_photo(long *size) {
    enum { WIDTH = 4000, HEIGHT = 3000 };
    struct jpeg_compress_struct cinfo;
    struct jpeg_error_mgr errors;
    cinfo.err = jpeg_std_error(&errors);
    jpeg_create_compress(&cinfo);
    unsigned char *out = NULL;
    unsigned long length = 0;
    jpeg_mem_dest(&cinfo, &out, &length);
    cinfo.image_width = WIDTH;
    cinfo.image_height = HEIGHT;
    cinfo.input_components = 3;
    cinfo.in_color_space = JCS_RGB;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, 90, TRUE);
    jpeg_start_compress(&cinfo, TRUE);
    unsigned char *row = malloc(WIDTH * 3);
    unsigned long long state = 0x9E3779B97F4A7C15ULL;
    while (cinfo.next_scanline < HEIGHT) {
        unsigned y = cinfo.next_scanline;
        for (unsigned x = 0; x < WIDTH; x++) {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            int noise = (int)(state >> 59) - 16;
            row[3 * x] = (unsigned char)(40 + x * 160 / WIDTH + noise);
            row[3 * x + 1] = (unsigned char)(60 + y * 140 / HEIGHT + noise);
            row[3 * x + 2] = (unsigned char)(120 + ((x / 250 + y / 250) % 2) * 60 + noise);
        }
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    free(row);
    *size = (long)length;
    return out;
}

/* The mean of ROUNDS decodes through libjpeg at scale num/8, in milliseconds:
 * RGB (what a hasher that starts from pixels reads) or the grey Y channel. */
static double decode_ms(const unsigned char *jpeg, long size, int num, J_COLOR_SPACE space, int *w, int *h) {
    unsigned char *pixels = NULL;
    double started = 0;
    for (int round = -1; round < ROUNDS; round++) {
        if (round == 0) started = now();
        struct jpeg_decompress_struct cinfo;
        struct jpeg_error_mgr errors;
        cinfo.err = jpeg_std_error(&errors);
        jpeg_create_decompress(&cinfo);
        jpeg_mem_src(&cinfo, jpeg, (unsigned long)size);
        if (jpeg_read_header(&cinfo, TRUE) != JPEG_HEADER_OK) fail("header");
        cinfo.out_color_space = space;
        cinfo.scale_num = (unsigned)num;
        cinfo.scale_denom = 8;
        jpeg_start_decompress(&cinfo);
        size_t stride = (size_t)cinfo.output_width * (size_t)cinfo.output_components;
        if (!pixels) pixels = malloc(stride * cinfo.output_height);
        while (cinfo.output_scanline < cinfo.output_height) {
            JSAMPROW line = pixels + cinfo.output_scanline * stride;
            jpeg_read_scanlines(&cinfo, &line, 1);
        }
        *w = (int)cinfo.output_width;
        *h = (int)cinfo.output_height;
        jpeg_finish_decompress(&cinfo);
        jpeg_destroy_decompress(&cinfo);
    }
    double ms = (now() - started) * 1000 / ROUNDS;
    free(pixels);
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
        if (plugin->verify(&evidence, verdict, state) != 0) fail("verify failed");
    }
    return (now() - started) * 1000 / ROUNDS;
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
    check(hc_plugin_add(NULL, store, HC_PLUGIN_SHARED_OBJECT_IN_PROCESS, plugin_path, NULL, 0), "plugin add");
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
    const char *photo = argv[2];
    if (!jpeg) {
        jpeg = made_photo(&size);
        photo = "a made 4000x3000 photo (quality 90)";
        char made[4096];
        snprintf(made, sizeof made, "%s/made-photo.jpg", argv[3]);
        FILE *file = fopen(made, "wb");
        if (!file || fwrite(jpeg, 1, (size_t)size, file) != (size_t)size || fclose(file) != 0) fail("cannot write the made photo");
        argv[2] = strdup(made);
    }
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
    double full = decode_ms(jpeg, size, 8, JCS_RGB, &full_w, &full_h);
    double small = decode_ms(jpeg, size, 2, JCS_GRAYSCALE, &small_w, &small_h);
    offered = 0;
    double alone = verify_ms(plugin, state, jpeg, size, &verdict);
    offered = STORED;
    double matched = verify_ms(plugin, state, jpeg, size, &verdict);
    printf("proofcheck: %s, %dx%d, %.1f MB (mean of %d rounds, after one warm-up)\n\n", photo, full_w, full_h, size / 1e6, ROUNDS);
    printf("%-62s %9s %10s\n", "case", "ms/photo", "/decode");
    printf("%-62s %9.2f %9.2fx\n", "baseline: libjpeg decode, full size, RGB", full, 1.0);
    printf("%-62s %9.2f %9.2fx\n", "baseline: libjpeg decode at 1/4 (what proofcheck reads), grey", small, small / full);
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
