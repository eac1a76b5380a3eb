/* fuzz_config.c - libFuzzer target: the configuration loader. The input is applied as
 * INI text and as a WARPSIM_SET override list; the result is checked and dumped. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "gpu/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 14)
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0;
    char err[512];
    ws_config c;
    ws_config_defaults(&c);
    err[0] = 0;
    if (ws_config_apply_ini(&c, text, "fuzz.ini", err, sizeof err) && !err[0])
        abort();   /* every failure carries a message */
    (void)ws_config_check(&c, err, sizeof err);
    cJSON *j = ws_config_json(&c);
    cJSON_Delete(j);
    char buf[256];
    (void)ws_config_get(&c, "core.scheduler", buf, sizeof buf);
    ws_config_defaults(&c);
    err[0] = 0;
    if (ws_config_set(&c, text, err, sizeof err) && !err[0])
        abort();
    (void)ws_config_check(&c, err, sizeof err);
    FILE *f = fopen("/dev/null", "w");
    if (f) {
        ws_config_print_ini(&c, f);
        fclose(f);
    }
    free(text);
    return 0;
}
