/* test_stats.c - statistics registry: registration, formulas, totals and printers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "doc_fresh.h"

/* Runs stmt with FILE *f writing into a memory buffer; buf gets the text (free it). */
#define CAPTURE(buf, stmt)                                  \
    do {                                                    \
        size_t len_ = 0;                                    \
        FILE *f = open_memstream(&(buf), &len_);            \
        assert_non_null(f);                                 \
        stmt;                                               \
        fclose(f);                                          \
    } while (0)

#include "api/report.h"
#include "util/stats.h"

typedef struct {
    ws_stats *s;
    int kernel, grid, warp, thread, slots, secs, eff, rate, pct, regs;
} fixture;

static int setup(void **state)
{
    fixture *fx = calloc(1, sizeof *fx);
    char err[256];
    fx->s = ws_stats_create();
    fx->kernel = ws_stats_add_text(fx->s, "kernel", "kernel name", 0, err, sizeof err);
    fx->grid = ws_stats_add_dim3(fx->s, "grid", "CTAs", "grid dimensions", 0, err, sizeof err);
    fx->warp = ws_stats_add_counter(fx->s, "warp_insts", "insts", "warp instructions", 0, err,
                                    sizeof err);
    fx->thread = ws_stats_add_counter(fx->s, "thread_insts", "insts", "thread instructions", 0,
                                      err, sizeof err);
    fx->slots = ws_stats_add_counter(fx->s, "lane_slots", "lanes", "warp_insts x warp size", 0,
                                     err, sizeof err);
    fx->secs = ws_stats_add_real(fx->s, "host_seconds", "s", "host time", 0, err, sizeof err);
    fx->regs = ws_stats_add_counter(fx->s, "regs", "regs", "registers per thread", WS_STAT_MAX,
                                    err, sizeof err);
    fx->eff = ws_stats_add_formula(fx->s, "simd_efficiency", "", "active lanes per slot",
                                   "thread_insts / lane_slots", 0, err, sizeof err);
    fx->rate = ws_stats_add_formula(fx->s, "thread_rate", "insts/s", "simulation rate",
                                    "thread_insts / host_seconds", 0, err, sizeof err);
    fx->pct = ws_stats_add_formula(fx->s, "odd_pct", "%", "a formula of formulas",
                                   "100 * (1 - simd_efficiency) + -(2 - 2)", WS_STAT_HIDE_ZERO,
                                   err, sizeof err);
    *state = fx;
    return fx->kernel < 0 || fx->pct < 0;
}

static int teardown(void **state)
{
    fixture *fx = *state;
    ws_stats_destroy(fx->s);
    free(fx);
    return 0;
}

static void test_registry(void **state)
{
    fixture *fx = *state;
    char err[256] = "";
    assert_int_equal(ws_stats_count(fx->s), 10);
    assert_int_equal(ws_stats_find(fx->s, "simd_efficiency"), fx->eff);
    assert_int_equal(ws_stats_find(fx->s, "nope"), -1);
    assert_string_equal(ws_stats_name(fx->s, fx->warp), "warp_insts");
    assert_int_equal(ws_stats_kind(fx->s, fx->eff), WS_STAT_FORMULA);
    /* duplicate, bad name, bad formulas */
    assert_int_equal(ws_stats_add_counter(fx->s, "warp_insts", "", "x", 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "warp_insts"));
    assert_int_equal(ws_stats_add_counter(fx->s, "Bad Name", "", "x", 0, err, sizeof err), -1);
    assert_int_equal(ws_stats_add_formula(fx->s, "f1", "", "x", "warp_insts / nope", 0, err,
                                          sizeof err),
                     -1);
    assert_non_null(strstr(err, "unknown statistic 'nope'"));
    assert_int_equal(ws_stats_add_formula(fx->s, "f2", "", "x", "(warp_insts", 0, err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "expected ')'"));
    assert_int_equal(ws_stats_add_formula(fx->s, "f3", "", "x", "kernel * 2", 0, err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "not a number"));
    assert_int_equal(ws_stats_add_formula(fx->s, "f4", "", "x", "1 2", 0, err, sizeof err), -1);
    assert_int_equal(ws_stats_count(fx->s), 10);
    /* frozen once a group exists */
    ws_stats_group *g = ws_stats_group_create(fx->s, "g");
    assert_int_equal(ws_stats_add_counter(fx->s, "late", "", "x", 0, err, sizeof err), -1);
    ws_stats_group_destroy(g);
}

static void test_formula(void **state)
{
    fixture *fx = *state;
    ws_stats_group *g = ws_stats_group_create(fx->s, "launch 0");
    assert_false(ws_stats_is_set(g, fx->eff));   /* inputs unset */
    ws_stats_set(g, fx->warp, 10);
    ws_stats_set(g, fx->thread, 240);
    ws_stats_set(g, fx->slots, 320);
    assert_true(ws_stats_is_set(g, fx->eff));
    assert_true(ws_stats_value(g, fx->eff) == 0.75);
    assert_true(ws_stats_value(g, fx->pct) == 25.0);
    assert_false(ws_stats_is_set(g, fx->rate));   /* host_seconds unset */
    ws_stats_set_real(g, fx->secs, 0.0);
    assert_true(ws_stats_is_set(g, fx->rate));
    assert_true(ws_stats_value(g, fx->rate) == 0.0);   /* x / 0 reports 0 */
    ws_stats_set_real(g, fx->secs, 0.5);
    assert_true(ws_stats_value(g, fx->rate) == 480.0);
    ws_stats_inc(g, fx->warp, 5);
    assert_int_equal(ws_stats_counter(g, fx->warp), 15);
    ws_stats_group_destroy(g);
}

static void test_totals(void **state)
{
    fixture *fx = *state;
    ws_stats_group *a = ws_stats_group_create(fx->s, "a");
    ws_stats_group *b = ws_stats_group_create(fx->s, "b");
    ws_stats_group *t = ws_stats_group_create(fx->s, "total");
    const uint32_t grid[3] = {4, 2, 1};
    ws_stats_set_text(a, fx->kernel, "k1");
    ws_stats_set_dim3(a, fx->grid, grid);
    ws_stats_set(a, fx->thread, 100);
    ws_stats_set(a, fx->slots, 128);
    ws_stats_set(a, fx->regs, 20);
    ws_stats_set(b, fx->thread, 28);
    ws_stats_set(b, fx->slots, 128);
    ws_stats_set(b, fx->regs, 12);
    ws_stats_accumulate(t, a);
    ws_stats_accumulate(t, b);
    assert_int_equal(ws_stats_counter(t, fx->thread), 128);
    assert_int_equal(ws_stats_counter(t, fx->slots), 256);
    assert_int_equal(ws_stats_counter(t, fx->regs), 20);   /* WS_STAT_MAX */
    assert_true(ws_stats_value(t, fx->eff) == 0.5);
    assert_false(ws_stats_is_set(t, fx->kernel));   /* text is not totalled */
    assert_false(ws_stats_is_set(t, fx->grid));
    assert_string_equal(ws_stats_text(a, fx->kernel), "k1");
    assert_string_equal(ws_stats_text(t, fx->kernel), "");

    /* bound counters */
    ws_stats_group_destroy(a);
    ws_stats_group_destroy(b);
    ws_stats_group_destroy(t);
}

static void test_bind(void **state)
{
    (void)state;
    char err[128];
    ws_stats *s = ws_stats_create();
    uint64_t hits = 0;
    int id = ws_stats_add_counter(s, "l1_hits", "accesses", "L1 hits", 0, err, sizeof err);
    ws_stats_bind(s, id, &hits);
    ws_stats_group *g = ws_stats_group_create(s, "sm0");
    hits = 42;
    ws_stats_snapshot(g);
    hits = 50;
    assert_int_equal(ws_stats_counter(g, id), 42);
    ws_stats_group_destroy(g);
    ws_stats_destroy(s);
}

static char *print_text(const ws_stats_group *g)
{
    char *buf = NULL;
    CAPTURE(buf, ws_stats_print_text(g, f));
    char *out = strdup(buf);   /* a copy: gcc -O2 mistakes buf for a dangling pointer */
    free(buf);
    return out;
}

static void test_text(void **state)
{
    fixture *fx = *state;
    ws_stats_group *g = ws_stats_group_create(fx->s, "launch 0: vecadd");
    const uint32_t grid[3] = {4, 1, 1};
    ws_stats_set_text(g, fx->kernel, "vecadd");
    ws_stats_set_dim3(g, fx->grid, grid);
    ws_stats_set(g, fx->warp, 1234567);
    ws_stats_set(g, fx->thread, 32);
    ws_stats_set(g, fx->slots, 32);   /* efficiency 1: odd_pct is 0 and hidden */
    char *t = print_text(g);
    assert_non_null(strstr(t, "== launch 0: vecadd ==\n"));
    assert_non_null(strstr(t, "1,234,567"));
    assert_non_null(strstr(t, "4 x 1 x 1"));
    assert_non_null(strstr(t, "simd_efficiency"));
    assert_non_null(strstr(t, "active lanes per slot"));
    assert_null(strstr(t, "odd_pct"));
    assert_null(strstr(t, "host_seconds"));   /* unset */
    /* columns aligned: every value line has the description at the same column */
    const char *l1 = strstr(t, "  kernel"), *l2 = strstr(t, "  warp_insts");
    assert_non_null(l1);
    assert_non_null(l2);
    assert_int_equal(strstr(l1, "kernel name") - l1, strstr(l2, "warp instructions") - l2);
    free(t);
    ws_stats_set(g, fx->slots, 64);
    t = print_text(g);
    assert_non_null(strstr(t, "odd_pct"));
    assert_non_null(strstr(t, " 50.00 "));   /* percentages: 2 decimals */
    assert_non_null(strstr(t, " 0.5 "));
    free(t);
    ws_stats_group_destroy(g);
}

static void test_json(void **state)
{
    fixture *fx = *state;
    ws_stats_group *g = ws_stats_group_create(fx->s, "x");
    const uint32_t grid[3] = {8, 2, 1};
    ws_stats_set_text(g, fx->kernel, "k");
    ws_stats_set_dim3(g, fx->grid, grid);
    ws_stats_set(g, fx->thread, 48);
    ws_stats_set(g, fx->slots, 64);
    cJSON *j = ws_stats_json(g);
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(j, "kernel")->valuestring, "k");
    cJSON *gr = cJSON_GetObjectItemCaseSensitive(j, "grid");
    assert_int_equal(cJSON_GetArraySize(gr), 3);
    assert_int_equal(cJSON_GetArrayItem(gr, 0)->valueint, 8);
    assert_int_equal(cJSON_GetArrayItem(gr, 1)->valueint, 2);
    assert_true(cJSON_GetObjectItemCaseSensitive(j, "simd_efficiency")->valuedouble == 0.75);
    assert_null(cJSON_GetObjectItemCaseSensitive(j, "warp_insts"));   /* unset */
    assert_true(cJSON_GetObjectItemCaseSensitive(j, "odd_pct")->valuedouble == 25.0);
    char *txt = cJSON_PrintUnformatted(j);
    assert_non_null(strstr(txt, "\"kernel\":\"k\",\"grid\":[8,2,1]"));
    free(txt);
    cJSON_Delete(j);
    ws_stats_group_destroy(g);
}

static void test_doc(void **state)
{
    fixture *fx = *state;
    char *buf = NULL;
    CAPTURE(buf, ws_stats_print_doc(fx->s, f));
    assert_non_null(strstr(buf, "| `simd_efficiency` | - | active lanes per slot; "
                                "`= thread_insts / lane_slots` |\n"));
    assert_non_null(strstr(buf, "| `kernel` | - | kernel name (not in totals) |\n"));
    free(buf);
}

/* The run report of two launches: per-launch values, the mix, formulas and totals. */
static void test_report(void **state)
{
    (void)state;
    ws_config cfg;
    ws_config_defaults(&cfg);   /* warp size 32 */
    ws_report *r = ws_report_create(&cfg, "gtx480 + gpu.n_sm=30");
    assert_non_null(r);
    ws_launch_stats a, b;
    memset(&a, 0, sizeof a);
    snprintf(a.kernel, sizeof a.kernel, "vecadd");
    a.grid[0] = 4, a.grid[1] = a.grid[2] = 1;
    a.block[0] = 256, a.block[1] = a.block[2] = 1;
    a.static_smem = 1024;
    a.mode = "functional";
    a.warp_insts = 100;
    a.thread_insts = 2400;   /* 100 x 32 = 3200 lanes: efficiency 0.75 */
    a.mix[MIX_ALU] = 75;
    a.mix[MIX_LD_GLOBAL] = 25;
    a.host_seconds = 0.5;
    a.result = WS_OK;
    b = a;
    snprintf(b.kernel, sizeof b.kernel, "second");
    b.grid[0] = 2;
    b.warp_insts = 300;
    b.thread_insts = 9600;   /* total: 12000 / (400 x 32) = 0.9375 */
    b.mix[MIX_ALU] = 300;
    b.mix[MIX_LD_GLOBAL] = 0;
    b.host_seconds = 1.5;
    b.result = WS_E_ILLEGAL_ADDRESS;
    char policy[16] = "gto";   /* the report copies strings: the simulation may be gone */
    b.policy = policy;
    assert_int_equal(ws_report_add(r, &a), 0);
    assert_int_equal(ws_report_add(r, &b), 0);
    strcpy(policy, "XXX");
    assert_int_equal(ws_report_count(r), 2);
    assert_int_equal(ws_report_failed(r), 1);

    cJSON *j = ws_report_json(r);
    assert_non_null(j);
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(j, "config_source")->valuestring,
                        "gtx480 + gpu.n_sm=30");
    cJSON *l = cJSON_GetObjectItemCaseSensitive(j, "launches");
    assert_int_equal(cJSON_GetArraySize(l), 2);
    cJSON *l0 = cJSON_GetArrayItem(l, 0), *t = cJSON_GetObjectItemCaseSensitive(j, "total");
#define NUM(o, k) (cJSON_GetObjectItemCaseSensitive((o), (k))->valuedouble)
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(l0, "kernel")->valuestring, "vecadd");
    assert_true(NUM(l0, "ctas") == 4);
    assert_true(NUM(l0, "threads") == 1024);
    assert_true(NUM(l0, "static_smem") == 1024);
    assert_true(NUM(l0, "lane_slots") == 3200);
    assert_true(NUM(l0, "simd_efficiency") == 0.75);
    assert_true(NUM(l0, "mix_alu_pct") == 75);
    assert_true(NUM(l0, "mix_ld_global") == 25);
    assert_true(NUM(l0, "thread_insts_per_sec") == 4800);
    assert_true(NUM(l0, "warp_insts_per_sec") == 200);
    assert_null(cJSON_GetObjectItemCaseSensitive(l0, "cycles"));   /* functional mode */
    assert_null(cJSON_GetObjectItemCaseSensitive(l0, "policy"));
    assert_string_equal(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(l, 1), "policy")->valuestring, "gto");
    assert_string_equal(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(l, 1), "result")->valuestring,
        ws_err_name(WS_E_ILLEGAL_ADDRESS));
    assert_true(NUM(t, "launches") == 2);
    assert_true(NUM(t, "ctas") == 6);
    assert_true(NUM(t, "warp_insts") == 400);
    assert_true(NUM(t, "simd_efficiency") == 0.9375);
    assert_true(NUM(t, "mix_alu_pct") == 93.75);
    assert_true(NUM(t, "host_seconds") == 2.0);
    assert_true(NUM(t, "thread_insts_per_sec") == 6000);
    assert_null(cJSON_GetObjectItemCaseSensitive(t, "kernel"));      /* per launch only */
    assert_null(cJSON_GetObjectItemCaseSensitive(t, "static_smem"));
    assert_true(cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(j, "config")));
#undef NUM
    cJSON_Delete(j);

    char *buf = NULL;
    CAPTURE(buf, ws_report_print_text(r, f, 0));
    assert_non_null(strstr(buf, "warpsim: 2 launches, config gtx480 + gpu.n_sm=30 (GeForce GTX 480)"));
    assert_non_null(strstr(buf, "== launch 0: vecadd =="));
    assert_non_null(strstr(buf, "== launch 1: second =="));
    assert_non_null(strstr(buf, "== total =="));
    assert_non_null(strstr(buf, "256 x 1 x 1"));
    assert_non_null(strstr(buf, "0.9375"));
    assert_null(strstr(buf, "mix_sfu"));   /* zero mix entries are left out of the text */
    free(buf);

    /* many launches: one block per kernel in the text */
    for (int i = 0; i < 8; i++)
        assert_int_equal(ws_report_add(r, &a), 0);
    CAPTURE(buf, ws_report_print_text(r, f, 0));
    assert_non_null(strstr(buf, "warpsim: 10 launches"));
    assert_non_null(strstr(buf, "== kernel vecadd: 9 launches =="));
    assert_non_null(strstr(buf, "== kernel second: 1 launch =="));
    assert_null(strstr(buf, "== launch 0"));
    assert_non_null(strstr(buf, "1 launch failed"));
    const char *k = strstr(buf, "== kernel vecadd");
    unsigned long long ctas = 0;
    assert_int_equal(sscanf(strstr(k, "  ctas "), " ctas %llu", &ctas), 1);
    assert_int_equal(ctas, 36);   /* 9 launches x 4 CTAs */
    free(buf);
    ws_report_destroy(r);

    buf = NULL;
    CAPTURE(buf, ws_report_print_doc(f));
    assert_non_null(strstr(buf, "| `simd_efficiency` | ratio |"));
    assert_non_null(strstr(buf, "`= thread_insts / lane_slots`"));
    assert_non_null(strstr(buf, "| `mix_ld_global_pct` | % |"));
    free(buf);
}

/* A timing-mode launch: cycles, rates, issue slots, unit utilisation, memory latency. */
static void test_report_timing(void **state)
{
    (void)state;
    ws_config cfg;
    ws_config_defaults(&cfg);   /* 700 MHz */
    ws_report *r = ws_report_create(&cfg, "gtx480");
    ws_launch_stats a;
    memset(&a, 0, sizeof a);
    snprintf(a.kernel, sizeof a.kernel, "k");
    a.grid[0] = a.grid[1] = a.grid[2] = 1;
    a.block[0] = 64, a.block[1] = a.block[2] = 1;
    a.mode = "timing";
    a.policy = "gto";
    a.warp_insts = 500;
    a.thread_insts = 16000;
    a.cycles = a.t.cycles = 1400;            /* 2 us at 700 MHz */
    a.t.n_sm = 15;
    a.t.ctas_per_sm = 8;
    char limiter[16] = "warps";
    cJSON *mem = cJSON_Parse("{\"l2_hits\": 7}");
    a.t.occupancy_limiter = limiter;
    a.t.mem = mem;
    a.t.slot[0] = 500;                       /* issued */
    a.t.slot[2] = 300;                       /* scoreboard */
    a.t.idle_slots = 200;                    /* 1000 slots */
    a.t.fu_count[0] = 2;
    a.t.fu_busy[0] = 4200;                   /* of 2 x 15 x 1400 = 42000 */
    a.t.mem_insts = 10;
    a.t.mem_reqs = 40;
    a.t.mem_lat_sum = 4000;
    a.t.mem_lat_n = 10;
    a.t.mem_lat_max = 900;
    a.t.mem_lat_hist[8] = 10;
    a.t.warps_in_flight_sum = 3000;
    a.t.active_sm_cycles = 1000;
    assert_int_equal(ws_report_add(r, &a), 0);
    strcpy(limiter, "XXX");   /* copied at add time */
    cJSON_Delete(mem);        /* the report keeps its own copy of the tree */
    cJSON *j = ws_report_json(r);
    cJSON *l0 = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(j, "launches"), 0);
#define NUM(o, k) (cJSON_GetObjectItemCaseSensitive((o), (k))->valuedouble)
    assert_true(NUM(l0, "cycles") == 1400);
    assert_true(NUM(l0, "ipc") == 500.0 / 1400);
    assert_true(NUM(l0, "opc") == 16000.0 / 1400);
    assert_true(NUM(l0, "sim_seconds") == 1400 / 700e6);
    assert_true(NUM(l0, "sched_slots") == 1000);
    assert_true(NUM(l0, "issue_utilization") == 0.5);
    assert_true(NUM(l0, "slot_scoreboard") == 300);
    assert_true(NUM(l0, "fu_sp_util") == 0.1);
    assert_true(NUM(l0, "reqs_per_mem_inst") == 4);
    assert_true(NUM(l0, "mem_lat_mean") == 400);
    assert_true(NUM(l0, "mem_lat_max") == 900);
    assert_true(NUM(l0, "warps_in_flight") == 3);
    assert_true(NUM(l0, "ctas_per_sm") == 8);
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(l0, "occupancy_limiter")->valuestring,
                        "warps");
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(l0, "policy")->valuestring, "gto");
    cJSON *h = cJSON_GetObjectItemCaseSensitive(l0, "mem_lat_hist");
    assert_int_equal(cJSON_GetArraySize(h), 16);
    assert_true(cJSON_GetArrayItem(h, 8)->valuedouble == 10);
    assert_true(NUM(cJSON_GetObjectItemCaseSensitive(l0, "mem"), "l2_hits") == 7);
#undef NUM
    cJSON_Delete(j);

    char *buf = NULL;
    CAPTURE(buf, ws_report_print_text(r, f, 0));
    assert_non_null(strstr(buf, "issue_utilization"));
    assert_non_null(strstr(buf, "sim_seconds"));
    assert_non_null(strstr(buf, "timing"));
    assert_null(strstr(buf, "mem_lat_sum"));          /* JSON only */
    assert_null(strstr(buf, "warps_in_flight_sum"));
    free(buf);
    ws_report_destroy(r);
}

/* docs/STATS.md is the output of `warpsim stats --doc`, kept in the repository. */
static void test_doc_fresh(void **state)
{
    (void)state;
    assert_doc_fresh(ws_report_print_doc, "docs/STATS.md", "warpsim stats --doc");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_registry, setup, teardown),
        cmocka_unit_test_setup_teardown(test_formula, setup, teardown),
        cmocka_unit_test_setup_teardown(test_totals, setup, teardown),
        cmocka_unit_test(test_bind),
        cmocka_unit_test_setup_teardown(test_text, setup, teardown),
        cmocka_unit_test_setup_teardown(test_json, setup, teardown),
        cmocka_unit_test_setup_teardown(test_doc, setup, teardown),
        cmocka_unit_test(test_report),
        cmocka_unit_test(test_report_timing),
        cmocka_unit_test(test_doc_fresh),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
