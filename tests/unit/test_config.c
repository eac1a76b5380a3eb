/* test_config.c - the parameter table: defaults, presets, overrides and error messages. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "doc_fresh.h"

#include "gpu/config.h"

static char *dump_ini(const ws_config *c)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    ws_config_print_ini(c, f);
    fclose(f);
    char *out = strdup(buf);   /* a copy: gcc -O2 mistakes buf for a dangling pointer */
    free(buf);
    return out;
}

/* Writes text to a fresh temporary .ini file; returns its path (static storage per call). */
static void write_tmp(char *path, size_t n, const char *text)
{
    snprintf(path, n, "/tmp/ws_test_config_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
}

static void test_defaults(void **state)
{
    (void)state;
    ws_config c;
    ws_config_defaults(&c);
    assert_string_equal(c.gpu.name, "GeForce GTX 480");
    assert_int_equal(c.gpu.n_sm, 15);
    assert_int_equal(c.gpu.warp_size, 32);
    assert_int_equal(c.gpu.max_threads_per_sm, 1536);
    assert_int_equal(c.gpu.max_warps_per_sm, 48);
    assert_int_equal(c.gpu.max_ctas_per_sm, 8);
    assert_int_equal(c.gpu.max_threads_per_cta, 1024);
    assert_int_equal(c.gpu.regs_per_sm, 32768);
    assert_int_equal(c.gpu.shared_per_sm, 49152);
    assert_int_equal(c.gpu.core_mhz, 700);
    assert_int_equal(c.gpu.mem_mhz, 924);
    assert_int_equal(c.gpu.mem_bus_bits, 384);
    assert_true(c.gpu.dram_bytes == 1536ull << 20);
    assert_true(c.gpu.l2_bytes == 768ull << 10);
    assert_int_equal(c.gpu.compute_major, 2);
    assert_int_equal(c.gpu.compute_minor, 0);
    assert_int_equal(c.sim.mode, WS_MODE_FUNCTIONAL);
    char err[256];
    assert_int_equal(ws_config_check(&c, err, sizeof err), 0);
    /* every row documented; section.key unique over the schema; one block per section */
    ws_cfg_schema s;
    ws_config_schema(&s);
    size_t rows = 0;
    const char *secs[64];
    size_t n_secs = 0;
    for (size_t t = 0; t < s.n; t++)
        for (const ws_cfg_param *p = s.tab[t]->rows; p->key; p++, rows++) {
            assert_non_null(p->desc);
            assert_true(strlen(p->desc) > 5);
            size_t base;
            assert_ptr_equal(ws_cfg_find(&s, p->section, p->key, &base), p);
            assert_int_equal(base, s.base[t]);
            if (!n_secs || strcmp(secs[n_secs - 1], p->section)) {
                for (size_t k = 0; k < n_secs; k++)
                    assert_string_not_equal(secs[k], p->section);
                assert_true(n_secs < 64);
                secs[n_secs++] = p->section;
            }
            /* a plug-in's fields lie inside its struct, its struct inside ws_config */
            if (s.tab[t]->owner) {
                assert_true(p->off < s.tab[t]->size);
                assert_true(s.base[t] + s.tab[t]->size <= sizeof(ws_config));
            }
        }
    assert_true(rows >= 29);
}

static void test_presets(void **state)
{
    (void)state;
    ws_config d, c;
    char err[256] = "";
    ws_config_defaults(&d);
    assert_int_equal(ws_config_load(&c, "gtx480", err, sizeof err), 0);
    char *a = dump_ini(&d), *b = dump_ini(&c);
    assert_string_equal(a, b);   /* the default is the GTX480 preset */
    free(a);
    free(b);

    assert_int_equal(ws_config_load(&c, "hd7970", err, sizeof err), 0);
    assert_string_equal(c.gpu.name, "Radeon HD 7970");
    assert_int_equal(c.gpu.n_sm, 32);
    assert_int_equal(c.gpu.warp_size, 64);
    assert_int_equal(c.gpu.max_warps_per_sm, 40);
    assert_int_equal(c.gpu.max_threads_per_sm, 2560);
    assert_int_equal(c.gpu.shared_per_sm, 65536);
    assert_int_equal(c.gpu.core_mhz, 925);
    assert_int_equal(c.gpu.mem_mhz, 1375);
    assert_true(c.gpu.dram_bytes == 3ull << 30);

    /* every preset sets every [gpu], [func] and [sim] key, each with its source; the
     * timing sections may rely on the defaults */
    for (size_t i = 0; ws_config_preset_name(i); i++) {
        const char *t = ws_config_preset(ws_config_preset_name(i));
        assert_non_null(t);
        for (size_t k = 0; ws_cfg_machine[k]; k++)
        for (const ws_cfg_param *p = ws_cfg_machine[k]->rows; p->key; p++) {
            if (strcmp(p->section, "gpu") && strcmp(p->section, "func") &&
                strcmp(p->section, "sim"))
                continue;
            char pat[96];
            snprintf(pat, sizeof pat, "\n%s = ", p->key);
            if (!strstr(t, pat))
                fail_msg("preset %s lacks %s.%s", ws_config_preset_name(i), p->section, p->key);
        }
    }
    assert_null(ws_config_preset_name(4));

    /* the large preset (scale): GPGPU-Sim's SM7_QV100 sizes on the Fermi SM model */
    assert_int_equal(ws_config_load(&c, "qv100", err, sizeof err), 0);
    assert_string_equal(c.core.model, "fermi");
    assert_int_equal(c.gpu.n_sm, 80);
    assert_int_equal(c.gpu.max_warps_per_sm, 64);
    assert_int_equal(c.dram.channels, 32);
    assert_true(c.gpu.l2_bytes == 6u << 20);
    assert_int_equal(c.l2.size * c.l2.banks * c.dram.channels, c.gpu.l2_bytes);
    assert_int_equal(c.gpu.mem_bus_bits, 4096);

    /* seed 001's platform: its Table 1 on the gtx480 values */
    assert_int_equal(ws_config_load(&c, "seed001", err, sizeof err), 0);
    assert_int_equal(c.gpu.n_sm, 30);
    assert_int_equal(c.gpu.shared_per_sm, 16384);
    assert_int_equal(c.l1d.size, 49152);
    assert_int_equal(c.l2.size * c.l2.banks * c.dram.channels, c.gpu.l2_bytes);
    assert_int_equal(c.icnt.mhz, 700);
    assert_int_equal(c.core.lat_pipeline, d.core.lat_pipeline);   /* the rest is gtx480's */

    assert_int_equal(ws_config_load(&c, "nosuch", err, sizeof err), -1);
    assert_non_null(strstr(err, "nosuch"));
    assert_non_null(strstr(err, "gtx480"));
}

static void test_override(void **state)
{
    (void)state;
    ws_config c;
    char err[256] = "";
    ws_config_defaults(&c);
    assert_int_equal(ws_config_set(&c, "gpu.n_sm=30", err, sizeof err), 0);
    assert_int_equal(c.gpu.n_sm, 30);
    assert_int_equal(ws_config_set(&c, " sim.mode = timing , sim.seed=0x10,gpu.shared_per_sm=64K",
                                   err, sizeof err),
                     0);
    assert_int_equal(c.sim.mode, WS_MODE_TIMING);
    assert_true(c.sim.seed == 16);
    assert_int_equal(c.gpu.shared_per_sm, 65536);
    assert_int_equal(ws_config_set(&c, "gpu.name=\"A, B\",gpu.warp_size=64", err, sizeof err), 0);
    assert_string_equal(c.gpu.name, "A, B");
    assert_int_equal(c.gpu.warp_size, 64);
    assert_int_equal(ws_config_set(&c, "gpu.dram_bytes=2G", err, sizeof err), 0);
    assert_true(c.gpu.dram_bytes == 2ull << 30);

    char buf[64];
    assert_int_equal(ws_config_get(&c, "gpu.n_sm", buf, sizeof buf), 0);
    assert_string_equal(buf, "30");
    assert_int_equal(ws_config_get(&c, "sim.mode", buf, sizeof buf), 0);
    assert_string_equal(buf, "timing");
    assert_int_equal(ws_config_get(&c, "gpu.nope", buf, sizeof buf), -1);
}

static void test_range_errors(void **state)
{
    (void)state;
    ws_config c;
    char err[256] = "";
    ws_config_defaults(&c);
    assert_int_equal(ws_config_set(&c, "gpu.n_sm=0", err, sizeof err), -1);
    assert_non_null(strstr(err, "gpu.n_sm"));
    assert_non_null(strstr(err, "'0'"));
    assert_non_null(strstr(err, "[1, 1024]"));
    assert_int_equal(c.gpu.n_sm, 15);   /* unchanged */
    assert_int_equal(ws_config_set(&c, "gpu.n_sm=1025", err, sizeof err), -1);
    assert_int_equal(ws_config_set(&c, "gpu.n_sm=-1", err, sizeof err), -1);
    assert_int_equal(ws_config_set(&c, "gpu.name=\"\"", err, sizeof err), -1);
    assert_non_null(strstr(err, "gpu.name"));
    /* 2^64 overflows, 16E (2^64) too */
    assert_int_equal(ws_config_set(&c, "sim.seed=18446744073709551616", err, sizeof err), -1);
    assert_int_equal(ws_config_set(&c, "sim.seed=18446744073709551615", err, sizeof err), 0);

    /* cross-parameter check */
    assert_int_equal(ws_config_set(&c, "gpu.max_threads_per_cta=2048", err, sizeof err), 0);
    assert_int_equal(ws_config_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "gpu.max_threads_per_cta"));
    ws_config_defaults(&c);
    assert_int_equal(ws_config_set(&c, "gpu.warp_size=48", err, sizeof err), 0);
    assert_int_equal(ws_config_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "gpu.warp_size"));
}

static void test_unknown_key(void **state)
{
    (void)state;
    ws_config c;
    char err[256] = "";
    ws_config_defaults(&c);
    assert_int_equal(ws_config_set(&c, "gpu.n_smx=3", err, sizeof err), -1);
    assert_non_null(strstr(err, "unknown key 'gpu.n_smx'"));
    assert_int_equal(ws_config_set(&c, "nosection.key=3", err, sizeof err), -1);
    assert_non_null(strstr(err, "nosection.key"));
    assert_int_equal(ws_config_set(&c, "n_sm=3", err, sizeof err), -1);
    assert_non_null(strstr(err, "section.key=value"));
}

/* A scheduler's own key ([sched] rows in its file) loads, range-checks, dumps and lands
 * in that scheduler's parameter struct. */
static void test_plugin_keys(void **state)
{
    (void)state;
    ws_config c;
    char err[256] = "", buf[64];
    ws_config_defaults(&c);
    assert_int_equal(ws_config_get(&c, "sched.two_level_active", buf, sizeof buf), 0);
    assert_string_equal(buf, "8");
    assert_int_equal(ws_config_set(&c, "sched.two_level_active=5", err, sizeof err), 0);
    assert_int_equal(ws_config_get(&c, "sched.two_level_active", buf, sizeof buf), 0);
    assert_string_equal(buf, "5");
    uint32_t active = 0;   /* two-level's parameter struct: one uint32_t */
    assert_int_equal(ws_config_params(&c, "two-level", &active, sizeof active), 0);
    assert_int_equal(active, 5);
    assert_int_equal(ws_config_set(&c, "sched.two_level_active=0", err, sizeof err), -1);
    assert_non_null(strstr(err, "sched.two_level_active: bad value '0': out of range [1, 1024]"));
    assert_int_equal(ws_config_set(&c, "sched.recency_bits=17", err, sizeof err), -1);
    assert_non_null(strstr(err, "sched.recency_bits"));
    /* the same through an INI file, with its line */
    assert_int_equal(ws_config_apply_ini(&c, "[sched]\nlrr_quantum = 7\nrecency_den = 0\n",
                                         "p.ini", err, sizeof err), -1);
    assert_non_null(strstr(err, "p.ini:3: sched.recency_den: bad value '0'"));
    assert_int_equal(ws_config_get(&c, "sched.lrr_quantum", buf, sizeof buf), 0);
    assert_string_equal(buf, "7");
    /* unknown [sched] keys are named, in --set and in files */
    assert_int_equal(ws_config_set(&c, "sched.two_level_activ=3", err, sizeof err), -1);
    assert_non_null(strstr(err, "unknown key 'sched.two_level_activ'"));
    assert_int_equal(ws_config_apply_ini(&c, "[sched]\nnosuch = 1\n", "q.ini", err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "q.ini:2: unknown key 'sched.nosuch'"));
    /* every key of every scheduler is in the dump and the JSON, whichever is selected */
    ws_config_defaults(&c);
    assert_int_equal(ws_config_set(&c, "core.scheduler=lrr,sched.static_threshold=2.5,"
                                       "sched.static_shared=true,sched.max_num_warp=9",
                                   err, sizeof err), 0);
    char *ini = dump_ini(&c);
    assert_non_null(strstr(ini, "\n[sched]\n"));
    assert_non_null(strstr(ini, "\nstatic_threshold = 2.5\n"));
    assert_non_null(strstr(ini, "\nmax_num_warp = 9\n"));
    ws_config d;
    ws_config_defaults(&d);
    assert_int_equal(ws_config_apply_ini(&d, ini, "dump.ini", err, sizeof err), 0);
    char *ini2 = dump_ini(&d);
    assert_string_equal(ini, ini2);
    free(ini);
    free(ini2);
    cJSON *j = ws_config_json(&c);
    cJSON *sched = cJSON_GetObjectItemCaseSensitive(j, "sched");
    assert_non_null(sched);
    assert_int_equal(cJSON_GetArraySize(sched), 16); /* 15 + sched.recency_per_sm */
    assert_true(cJSON_GetObjectItemCaseSensitive(sched, "static_threshold")->valuedouble == 2.5);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(sched, "static_shared")));
    cJSON_Delete(j);
    /* "known:" lists come from the registries */
    const char *name;
    assert_int_equal(ws_plugin_at(WS_PLUGIN_SCHED, 0, &name, NULL), 0);
    assert_string_equal(name, "lrr");
    assert_int_equal(ws_plugin_at(WS_PLUGIN_DIV, 0, &name, NULL), 0);
    assert_string_equal(name, "simt-stack");
    assert_int_equal(ws_plugin_at(WS_PLUGIN_DIV, 1, &name, NULL), 0);
    assert_string_equal(name, "path-table");
    assert_int_equal(ws_plugin_at(WS_PLUGIN_DIV, 2, &name, NULL), -1);
}

static void test_bad_type(void **state)
{
    (void)state;
    ws_config c;
    char err[256] = "";
    ws_config_defaults(&c);
    assert_int_equal(ws_config_set(&c, "gpu.n_sm=abc", err, sizeof err), -1);
    assert_non_null(strstr(err, "'abc'"));
    assert_non_null(strstr(err, "unsigned integer"));
    assert_int_equal(ws_config_set(&c, "gpu.n_sm=12x", err, sizeof err), -1);
    assert_int_equal(ws_config_set(&c, "gpu.n_sm=1.5", err, sizeof err), -1);
    assert_int_equal(ws_config_set(&c, "sim.mode=fast", err, sizeof err), -1);
    assert_non_null(strstr(err, "sim.mode"));
    assert_non_null(strstr(err, "functional timing"));
}

static void test_file_errors(void **state)
{
    (void)state;
    ws_config c;
    char err[512] = "", path[64];
    write_tmp(path, sizeof path,
              "; comment\n[gpu]\nn_sm = 20\nwarp_size = 33x\nregs_per_sm = 65536\n");
    assert_int_equal(ws_config_load(&c, path, err, sizeof err), -1);
    char want[128];
    snprintf(want, sizeof want, "%s:4: gpu.warp_size: bad value '33x'", path);
    assert_non_null(strstr(err, want));
    unlink(path);

    write_tmp(path, sizeof path, "[gpu]\nn_sm = 20\n\n[sim]\nspeed = 3\n");
    assert_int_equal(ws_config_load(&c, path, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s:5: unknown key 'sim.speed'", path);
    assert_non_null(strstr(err, want));
    unlink(path);

    write_tmp(path, sizeof path, "[gpu]\nn_sm = 20\n[nosuch]\nx = 1\n");
    assert_int_equal(ws_config_load(&c, path, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s:4: unknown section [nosuch]", path);
    assert_non_null(strstr(err, want));
    unlink(path);

    write_tmp(path, sizeof path, "[gpu]\nn_sm = 20\nthis line has no equals sign\n");
    assert_int_equal(ws_config_load(&c, path, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s:3: syntax error", path);
    assert_non_null(strstr(err, want));
    unlink(path);

    /* inih reads at most 200 bytes a line; longer lines are an error, not split */
    char longf[400];
    snprintf(longf, sizeof longf, "[gpu]\n; %0250d\nn_sm = 20\n", 0);
    write_tmp(path, sizeof path, longf);
    assert_int_equal(ws_config_load(&c, path, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s:2: line longer than", path);
    assert_non_null(strstr(err, want));
    unlink(path);

    /* a valid partial file applies on top of the defaults */
    write_tmp(path, sizeof path, "[gpu]\nn_sm = 20 ; twenty SMs\n");
    assert_int_equal(ws_config_load(&c, path, err, sizeof err), 0);
    assert_int_equal(c.gpu.n_sm, 20);
    assert_int_equal(c.gpu.warp_size, 32);
    unlink(path);

    /* cross-parameter check names the file */
    write_tmp(path, sizeof path, "[gpu]\nmax_shared_per_cta = 64K\n");
    assert_int_equal(ws_config_load(&c, path, err, sizeof err), -1);
    assert_non_null(strstr(err, "gpu.max_shared_per_cta (65536) exceeds gpu.shared_per_sm"));
    assert_non_null(strstr(err, path));
    unlink(path);

    assert_int_equal(ws_config_load(&c, "/nonexistent/x.ini", err, sizeof err), -1);
    assert_non_null(strstr(err, "/nonexistent/x.ini"));
}

static void test_roundtrip(void **state)
{
    (void)state;
    ws_config c, d;
    char err[256] = "", path[64];
    ws_config_defaults(&c);
    assert_int_equal(ws_config_set(&c, "gpu.n_sm=7,gpu.name=\"Test GPU\",sim.mode=timing,"
                                       "sim.seed=18446744073709551615",
                                   err, sizeof err),
                     0);
    char *a = dump_ini(&c);
    assert_non_null(strstr(a, "[gpu]\nname = \"Test GPU\"\nn_sm = 7\n"));
    write_tmp(path, sizeof path, a);
    assert_int_equal(ws_config_load(&d, path, err, sizeof err), 0);
    char *b = dump_ini(&d);
    assert_string_equal(a, b);
    unlink(path);
    free(a);
    free(b);
}

static void test_json(void **state)
{
    (void)state;
    ws_config c;
    char err[256];
    ws_config_defaults(&c);
    assert_int_equal(ws_config_set(&c, "sim.seed=18446744073709551615", err, sizeof err), 0);
    cJSON *j = ws_config_json(&c);
    assert_non_null(j);
    cJSON *gpu = cJSON_GetObjectItemCaseSensitive(j, "gpu");
    assert_true(cJSON_IsObject(gpu));
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(gpu, "n_sm")->valuedouble, 15);
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(gpu, "name")->valuestring,
                        "GeForce GTX 480");
    cJSON *sim = cJSON_GetObjectItemCaseSensitive(j, "sim");
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(sim, "mode")->valuestring, "functional");
    /* beyond 2^53: kept exact as a string */
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(sim, "seed")->valuestring,
                        "18446744073709551615");
    assert_true(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(gpu, "dram_bytes")));
    cJSON_Delete(j);
}

static void test_doc(void **state)
{
    (void)state;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ws_config_print_doc(f);
    fclose(f);
    assert_non_null(strstr(buf, "## [gpu]"));
    assert_non_null(strstr(buf, "| `gpu.n_sm` | uint | `15` | 1..1024 |"));
    assert_non_null(strstr(buf, "| `sim.mode` | enum | `functional` | functional, timing |"));
    assert_non_null(strstr(buf, "`hd7970` (Radeon HD 7970, 32 SMs): AMD Radeon HD 7970"));
    assert_non_null(strstr(buf, "`qv100` (Quadro GV100, 80 SMs): NVIDIA Quadro GV100 sizes"));
    free(buf);
}

/* docs/CONFIG.md is the output of `warpsim config --doc`, kept in the repository. */
static void test_doc_fresh(void **state)
{
    (void)state;
    assert_doc_fresh(ws_config_print_doc, "docs/CONFIG.md", "warpsim config --doc");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),     cmocka_unit_test(test_presets),
        cmocka_unit_test(test_override),     cmocka_unit_test(test_range_errors),
        cmocka_unit_test(test_unknown_key),  cmocka_unit_test(test_bad_type),
        cmocka_unit_test(test_file_errors),  cmocka_unit_test(test_roundtrip),
        cmocka_unit_test(test_json),         cmocka_unit_test(test_doc),
        cmocka_unit_test(test_doc_fresh),    cmocka_unit_test(test_plugin_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
