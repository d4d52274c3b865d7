/* release.c PATH: hc_verifier_register_v2's release, counted. Each registration gets
 * a tally of its own as user_data; the verifier counts calls, release counts releases
 * and marks the tally so that a call after it is counted as such. Checks that each
 * user_data is released exactly once, when replaced, removed and when the store
 * closes, never on a failed registration or a removal's own user_data, and never
 * called after. Prints "ok" and the counts; exits 1 on any mismatch. */
#include <habitcore.h>
#include <stdio.h>
#include <string.h>

typedef struct tally {
    int calls, releases, calls_after_release;
} tally;

#include "expect.h"

static int32_t verify(const hc_plugin_evidence *evidence, hc_plugin_verdict *out, void *user_data) {
    (void)evidence;
    tally *t = user_data;
    if (t->releases > 0) t->calls_after_release++;
    t->calls++;
    out->outcome = HC_OUTCOME_REJECTED;
    out->confidence = 1.0;
    snprintf(out->reason_code, sizeof out->reason_code, "counted");
    return 0;
}

static void release(void *user_data) {
    ((tally *)user_data)->releases++;
}

/* Submits a proof with bytes of its own (so it is not a resubmission). */
static void submit(hc_store *store, int64_t habit_id, uint8_t seed) {
    uint8_t bytes[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', seed};
    hc_proof_input proof = HC_PROOF_INPUT_INIT;
    hc_proof_result result = HC_PROOF_RESULT_INIT;
    proof.habit_id = habit_id;
    proof.bytes = bytes;
    proof.size = sizeof bytes;
    EXPECT_STATUS(hc_proof_submit(&result, store, &proof), HC_OK);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: release PATH\n");
        return 2;
    }
    hc_store *store = NULL;
    int64_t habit_id = 0;
    tally first = {0}, second = {0}, third = {0}, refused = {0}, removal = {0};
    EXPECT_STATUS(hc_store_open(&store, argv[1], 0), HC_OK);
    hc_habit_options walk = HC_HABIT_OPTIONS_INIT;
    walk.name = "Walk";
    EXPECT_STATUS(hc_habit_create(&habit_id, store, &walk), HC_OK);
    hc_proof_policy policy = HC_PROOF_POLICY_INIT;
    policy.verifiers = "counter";
    EXPECT_STATUS(hc_proof_policy_set(store, 0, &policy), HC_OK);

    /* A failed registration keeps user_data the caller's. */
    EXPECT_STATUS(hc_verifier_register_v2(store, "Not An Id", "1", verify, &refused, release), HC_E_INVALID);
    EXPECT_STATUS(hc_verifier_register_v2(NULL, "counter", "1", verify, &refused, release), HC_E_MISUSE);

    EXPECT_STATUS(hc_verifier_register_v2(store, "counter", "1", verify, &first, release), HC_OK);
    submit(store, habit_id, 1);
    EXPECT(first.calls == 1 && first.releases == 0);
    /* Replaced: the first is released, the second is called from now on. */
    EXPECT_STATUS(hc_verifier_register_v2(store, "counter", "2", verify, &second, release), HC_OK);
    EXPECT(first.releases == 1);
    submit(store, habit_id, 2);
    EXPECT(first.calls == 1 && second.calls == 1 && second.releases == 0);
    /* Removed: the second is released; a removal's own user_data is not. */
    EXPECT_STATUS(hc_verifier_register_v2(store, "counter", "3", NULL, &removal, release), HC_OK);
    EXPECT(second.releases == 1 && removal.releases == 0);
    submit(store, habit_id, 3); /* unknown verifier now: nobody is called */
    EXPECT(second.calls == 1);
    /* Registered again after the removal. */
    EXPECT_STATUS(hc_verifier_register_v2(store, "counter", "4", verify, &third, release), HC_OK);
    submit(store, habit_id, 4);
    EXPECT(third.calls == 1 && third.releases == 0);
    /* Closed: the third is released. */
    EXPECT_STATUS(hc_store_close(store), HC_OK);
    EXPECT(third.releases == 1);

    tally *all[] = {&first, &second, &third};
    for (int i = 0; i < 3; i++) EXPECT(all[i]->releases == 1 && all[i]->calls_after_release == 0);
    EXPECT(refused.releases == 0 && refused.calls == 0 && removal.releases == 0 && removal.calls == 0);
    printf("%s released %d %d %d calls %d %d %d\n", failures == 0 ? "ok" : "FAILED", first.releases, second.releases,
           third.releases, first.calls, second.calls, third.calls);
    return failures == 0 ? 0 : 1;
}
