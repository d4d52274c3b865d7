/* reentry.c DIR: calls on a store from inside the callbacks it runs (a verifier, its
 * release, export and import progress). A call on the handle running the callback is
 * refused at once with HC_E_MISUSE and a message naming the rule, and the outer call
 * goes on with the callback's answer; a call on a second handle on the same file works;
 * another thread calling the running handle waits instead of being refused. An alarm
 * turns a deadlock into a failure. Prints "ok" and the counts; exits 1 on any mismatch. */
#include <habitcore.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "expect.h"

static const char rule[] = "a call on this store from inside a callback the store is running is refused";

typedef struct context {
    hc_store *running; /* the handle whose call runs the callback */
    hc_store *other;   /* a second handle on the same file */
    int calls;
} context;

/* What every callback checks: refused on its own handle (reads, writes and close
 * alike, the message on the thread and on the handle), fine on the other. */
static void call_back_in(context *c) {
    int32_t version = 0, minutes = 0;
    c->calls++;
    EXPECT_STATUS(hc_store_schema_version(&version, c->running), HC_E_MISUSE);
    EXPECT(strstr(hc_last_error_message(), rule) != NULL);
    EXPECT(strstr(hc_store_errmsg(c->running), rule) != NULL);
    EXPECT_STATUS(hc_store_set_day_start(c->running, 60), HC_E_MISUSE);
    EXPECT_STATUS(hc_store_close(c->running), HC_E_MISUSE);
    EXPECT_STATUS(hc_store_schema_version(&version, c->other), HC_OK);
    EXPECT(version > 0);
    EXPECT_STATUS(hc_store_day_start(&minutes, c->other), HC_OK);
}

static int32_t verify(const hc_plugin_evidence *evidence, hc_plugin_verdict *out, void *user_data) {
    (void)evidence;
    call_back_in(user_data);
    out->outcome = HC_OUTCOME_APPROVED;
    out->confidence = 1.0;
    snprintf(out->reason_code, sizeof out->reason_code, "reentered");
    return 0;
}

static void release(void *user_data) {
    call_back_in(user_data);
}

/* A thread calling the running handle while a progress callback holds it. */
typedef struct waiter {
    hc_store *store;
    volatile int done;
    int32_t status;
} waiter;

static void *wait_for_store(void *arg) {
    waiter *w = arg;
    int32_t version = 0;
    w->status = hc_store_schema_version(&version, w->store);
    w->done = 1;
    return NULL;
}

typedef struct progress_context {
    context base;
    waiter waiter;
    pthread_t thread;
    int started;
} progress_context;

static int32_t progress(int64_t done, int64_t total, void *user_data) {
    (void)done, (void)total;
    progress_context *p = user_data;
    call_back_in(&p->base);
    if (!p->started) {
        /* Still waiting a while later: it queues behind this call, not refused. */
        p->started = 1;
        p->waiter.store = p->base.running;
        EXPECT(pthread_create(&p->thread, NULL, wait_for_store, &p->waiter) == 0);
        usleep(200 * 1000);
        EXPECT(!p->waiter.done);
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: reentry DIR\n");
        return 2;
    }
    alarm(60); /* a deadlock ends as SIGALRM, not a hung test */
    char path[4096], exported[4096], imported[4096];
    snprintf(path, sizeof path, "%s/reentry.db", argv[1]);
    snprintf(exported, sizeof exported, "%s/export.jsonl", argv[1]);
    snprintf(imported, sizeof imported, "%s/imported.db", argv[1]);

    hc_store *store = NULL, *second = NULL, *target = NULL;
    int64_t habit_id = 0;
    EXPECT_STATUS(hc_store_open(&store, path, 0), HC_OK);
    EXPECT_STATUS(hc_store_open(&second, path, 0), HC_OK);
    hc_habit_options walk = HC_HABIT_OPTIONS_INIT;
    walk.name = "Walk";
    EXPECT_STATUS(hc_habit_create(&habit_id, store, &walk), HC_OK);
    hc_proof_policy policy = HC_PROOF_POLICY_INIT;
    policy.verifiers = "reentrant";
    EXPECT_STATUS(hc_proof_policy_set(store, 0, &policy), HC_OK);

    /* A verifier: its answer still decides the proof. */
    context verifier = {store, second, 0};
    EXPECT_STATUS(hc_verifier_register_v2(store, "reentrant", "1", verify, &verifier, release), HC_OK);
    uint8_t bytes[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 1};
    hc_proof_input proof = HC_PROOF_INPUT_INIT;
    hc_proof_result result = HC_PROOF_RESULT_INIT;
    proof.habit_id = habit_id;
    proof.bytes = bytes;
    proof.size = sizeof bytes;
    EXPECT_STATUS(hc_proof_submit(&result, store, &proof), HC_OK);
    EXPECT(result.outcome == HC_OUTCOME_APPROVED && result.entry_id > 0);
    EXPECT(strcmp(result.reason_code, "reentered") == 0);
    EXPECT(verifier.calls == 1);
    /* Its release, run by the replacing call. */
    EXPECT_STATUS(hc_verifier_register_v2(store, "reentrant", "2", NULL, NULL, NULL), HC_OK);
    EXPECT(verifier.calls == 2);

    /* Export progress, with a second thread waiting for the handle meanwhile. */
    progress_context out = {{store, second, 0}, {NULL, 0, -1}, 0, 0};
    EXPECT_STATUS(hc_store_export_file(store, exported, HC_FORMAT_JSONL, progress, &out), HC_OK);
    EXPECT(out.base.calls >= 2 && out.started);
    if (out.started) {
        EXPECT(pthread_join(out.thread, NULL) == 0);
        EXPECT(out.waiter.done && out.waiter.status == HC_OK);
    }
    EXPECT(access(exported, F_OK) == 0);

    /* Import progress, into a store of its own; the other handle is the first store. */
    EXPECT_STATUS(hc_store_open(&target, imported, 0), HC_OK);
    progress_context in = {{target, store, 0}, {NULL, 0, -1}, 1, 0};
    EXPECT_STATUS(hc_store_import_file(target, exported, HC_FORMAT_DETECT, progress, &in), HC_OK);
    EXPECT(in.base.calls >= 2);
    hc_habit *found = NULL;
    EXPECT_STATUS(hc_habit_find(&found, target, "Walk"), HC_OK);
    EXPECT(found != NULL);
    hc_habit_free(found);

    /* Outside any callback the handles are as before. */
    int32_t version = 0;
    EXPECT_STATUS(hc_store_schema_version(&version, store), HC_OK);
    EXPECT(strcmp(hc_store_errmsg(store), "") == 0);
    EXPECT_STATUS(hc_store_close(target), HC_OK);
    EXPECT_STATUS(hc_store_close(second), HC_OK);
    EXPECT_STATUS(hc_store_close(store), HC_OK);
    printf("%s verifier %d export %d import %d\n", failures == 0 ? "ok" : "FAILED", verifier.calls, out.base.calls,
           in.base.calls);
    return failures == 0 ? 0 : 1;
}
