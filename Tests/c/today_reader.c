/* A reader of the today snapshot (docs/FORMATS.md, "Today snapshot") that knows
 * nothing of habitcore: no header, no library, only the file, as a widget in
 * another language reads it. It checks the format and version, then prints every
 * value as PATH=VALUE, one a line (objects as .key, arrays as [i]; numbers as
 * %.17g, strings as they decode, null as null), so a test can hold it to a full
 * JSON parser. Exit 0 on success, 1 on a file it cannot read, 2 on a wrong format.
 * Usage: today_reader FILE */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *p;
static char format[64];
static double version = -1;

static int fail(const char *why) {
    fprintf(stderr, "today_reader: %s near '%.20s'\n", why, p);
    return 0;
}

static void skip_space(void) {
    while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t') p++;
}

/* A string at p into out (UTF-8; \uXXXX below 0x80 only, which is all the test needs). */
static int read_string(char *out, size_t size) {
    size_t n = 0;
    if (*p != '"') return fail("expected a string");
    p++;
    while (*p && *p != '"') {
        char c = *p++;
        if (c == '\\') {
            c = *p++;
            switch (c) {
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'r': c = '\r'; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'u': {
                char hex[5] = {0};
                if (strlen(p) < 4) return fail("short \\u escape");
                memcpy(hex, p, 4);
                p += 4;
                c = (char)strtol(hex, NULL, 16);
                break;
            }
            default: break; /* \" \\ \/ */
            }
        }
        if (n + 1 >= size) return fail("string too long");
        out[n++] = c;
    }
    if (*p != '"') return fail("unterminated string");
    p++;
    out[n] = 0;
    return 1;
}

static int read_value(char *path, size_t len);

static int read_value(char *path, size_t len) {
    skip_space();
    if (*p == '{') {
        p++;
        skip_space();
        if (*p == '}') { p++; return 1; }
        for (;;) {
            char key[256];
            skip_space();
            if (!read_string(key, sizeof key)) return 0;
            skip_space();
            if (*p++ != ':') return fail("expected ':'");
            int added = snprintf(path + len, 4096 - len, "%s%s", len ? "." : "", key);
            if (added < 0 || len + (size_t)added >= 4096) return fail("path too long");
            /* The two fields a reader checks before anything else. */
            if (len == 0 && strcmp(key, "format") == 0) {
                const char *at = p;
                skip_space();
                if (!read_string(format, sizeof format)) return 0;
                p = at;
            }
            if (len == 0 && strcmp(key, "version") == 0) version = strtod(p, NULL);
            if (!read_value(path, len + (size_t)added)) return 0;
            path[len] = 0;
            skip_space();
            if (*p == ',') { p++; continue; }
            if (*p == '}') { p++; return 1; }
            return fail("expected ',' or '}'");
        }
    }
    if (*p == '[') {
        p++;
        skip_space();
        if (*p == ']') { p++; return 1; }
        for (int index = 0;; index++) {
            int added = snprintf(path + len, 4096 - len, "[%d]", index);
            if (added < 0 || len + (size_t)added >= 4096) return fail("path too long");
            if (!read_value(path, len + (size_t)added)) return 0;
            path[len] = 0;
            skip_space();
            if (*p == ',') { p++; continue; }
            if (*p == ']') { p++; return 1; }
            return fail("expected ',' or ']'");
        }
    }
    if (*p == '"') {
        static char text[65536];
        if (!read_string(text, sizeof text)) return 0;
        printf("%s=%s\n", path, text);
        return 1;
    }
    if (strncmp(p, "null", 4) == 0) { p += 4; printf("%s=null\n", path); return 1; }
    char *end = NULL;
    double number = strtod(p, &end);
    if (end == p) return fail("expected a value");
    p = end;
    printf("%s=%.17g\n", path, number);
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: today_reader FILE\n"); return 1; }
    FILE *file = fopen(argv[1], "rb");
    if (!file) { perror(argv[1]); return 1; }
    static char text[1 << 20];
    size_t size = fread(text, 1, sizeof text - 1, file);
    fclose(file);
    text[size] = 0;
    p = text;
    char path[4096] = "";
    if (!read_value(path, 0)) return 1;
    skip_space();
    if (*p) { fail("text after the document"); return 1; }
    if (strcmp(format, "habitcore-today") != 0 || version != 1) {
        fprintf(stderr, "today_reader: not a habitcore-today version 1 file ('%s', %g)\n", format, version);
        return 2;
    }
    return 0;
}
