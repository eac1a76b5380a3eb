/* doc_fresh.h - a committed document must equal what its generator prints now
 * (docs/CONFIG.md from `warpsim config --doc`, docs/STATS.md from `warpsim stats --doc`).
 * Include after <cmocka.h>; needs WS_SOURCE_DIR. */
#ifndef WS_TEST_DOC_FRESH_H
#define WS_TEST_DOC_FRESH_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void assert_doc_fresh(void (*print)(FILE *f), const char *doc, const char *regenerate)
{
    char *want = NULL, path[512];
    size_t wlen = 0;
    FILE *f = open_memstream(&want, &wlen);
    assert_non_null(f);
    print(f);
    fclose(f);
    snprintf(path, sizeof path, "%s/%s", WS_SOURCE_DIR, doc);
    f = fopen(path, "r");
    assert_non_null(f);
    char *have = calloc(1, wlen + 2);
    size_t hlen = fread(have, 1, wlen + 1, f);
    fclose(f);
    int stale = hlen != wlen || memcmp(have, want, wlen);
    free(have);
    free(want);
    if (stale)
        fail_msg("%s is stale: run `%s > %s`", doc, regenerate, doc);
}

#endif
