/* The checks the C tests share: each failed one is printed with its line and counted
 * in failures, and main returns non-zero when any failed. */
#ifndef HABITCORE_TEST_EXPECT_H
#define HABITCORE_TEST_EXPECT_H

#include <stdio.h>

static int failures = 0;

#define EXPECT(cond)                                                     \
    do {                                                                 \
        if (!(cond)) {                                                   \
            fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                  \
        }                                                                \
    } while (0)

#define EXPECT_STATUS(call, expected)                                                         \
    do {                                                                                      \
        int32_t got_ = (call);                                                                \
        if (got_ != (expected)) {                                                             \
            fprintf(stderr, "%s:%d: %s gave %d (%s), expected %d\n", __FILE__, __LINE__, #call, \
                    got_, hc_last_error_message(), (expected));                               \
            failures++;                                                                       \
        }                                                                                     \
    } while (0)

#endif
