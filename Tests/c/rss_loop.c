/* rss_loop.c: hostile.c's matrix, which calls every export (its test checks that),
 * run ROUNDS times in one process, each round on a store of its own; prints the
 * resident memory after a warm-up fifth of the rounds and at the end, and fails when
 * it grew by more than LIMIT_KB: a leak on any path of any export shows as growth.
 * Usage: rss_loop WORK_DIR ROUNDS LIMIT_KB */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#define main hostile_main
#include "hostile.c"
#undef main

static long resident_kb(void) {
    long pages = 0, resident = 0;
    FILE *statm = fopen("/proc/self/statm", "r");
    if (!statm) return -1;
    if (fscanf(statm, "%ld %ld", &pages, &resident) != 2) resident = -1;
    fclose(statm);
    return resident < 0 ? -1 : resident * (sysconf(_SC_PAGESIZE) / 1024);
}

int main(int argc, char **argv) {
    if (argc != 4) return 2;
    int rounds = atoi(argv[2]);
    long limit = atol(argv[3]), warm = 0;
    if (rounds < 5) return 2;
    if (!freopen("/dev/null", "w", stdout)) return 2;
    for (int round = 0; round < rounds; round++) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s/round-%d", argv[1], round);
        mkdir(dir, 0700);
        char *args[] = {argv[0], dir, NULL};
        if (hostile_main(2, args) != 0) {
            fprintf(stderr, "round %d: hostile checks failed\n", round);
            return 1;
        }
        if (round + 1 == rounds / 5) warm = resident_kb();
    }
    long end = resident_kb();
    fprintf(stderr, "rss_loop: %d rounds of every export; resident %ld KiB after %d rounds, %ld KiB after %d (%+ld KiB, limit %ld)\n",
            rounds, warm, rounds / 5, end, rounds, end - warm, limit);
    return end - warm > limit ? 1 : 0;
}
