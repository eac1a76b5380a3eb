/* test_progress.c - the progress hook of a simulation (gpu/sim.h ws_progress) and the
 * progress line it feeds (api/progress.h): reports in both modes, CTAs counted to the
 * grid, one final report per launch, statistics unchanged by observing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "api/progress.h"
#include "gpu/sim.h"

/* A kernel long enough for the timing loop to poll (a loop of 200 dependent adds). */
static const char *PTX =
    ".version 7.5\n.target sm_75\n.address_size 64\n"
    ".visible .entry k(.param .u64 out)\n{\n"
    ".reg .pred %p<2>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [out];\nmov.u32 %r1, 0;\nmov.u32 %r2, 0;\n"
    "L: add.u32 %r2, %r2, %r1;\nadd.u32 %r1, %r1, 1;\nsetp.lt.u32 %p1, %r1, 200;\n@%p1 bra L;\n"
    "st.global.u32 [%rd1], %r2;\nexit;\n}\n";

typedef struct {
    int calls, finals;
    uint64_t last_ctas, last_cycles, total;
    int monotone;
    size_t launch;
} seen;

static void cb(void *user, const ws_progress *p)
{
    seen *s = user;
    s->calls++;
    if (p->ctas_done < s->last_ctas || (p->cycles && p->cycles < s->last_cycles))
        s->monotone = 0;
    s->last_ctas = p->ctas_done;
    s->last_cycles = p->cycles;
    s->total = p->ctas_total;
    s->launch = p->launch;
    assert_string_equal(p->kernel, "k");
    if (p->done) {
        s->finals++;
        s->last_ctas = s->last_cycles = 0;
    }
}

static const ws_launch_stats *run(const char *mode, seen *sn, ws_sim **out)
{
    ws_config cfg;
    char err[512];
    ws_config_defaults(&cfg);
    assert_int_equal(ws_config_set(&cfg, mode, err, sizeof err), 0);
    ws_sim *s = ws_sim_create(&cfg);
    if (sn)
        ws_sim_set_progress(s, cb, sn);
    ws_module *m;
    assert_int_equal(ws_module_load(s, PTX, strlen(PTX), "t.ptx", &m, err, sizeof err), WS_OK);
    uint64_t o;
    assert_int_equal(ws_mem_alloc(s, 4096, &o), WS_OK);
    ws_launch_desc d = {{60, 1, 1}, {128, 1, 1}, 0, &o, sizeof o};
    for (int i = 0; i < 2; i++)
        assert_int_equal(ws_launch(s, m, ws_module_kernel(m, "k"), &d, err, sizeof err), WS_OK);
    *out = s;
    size_t n;
    const ws_launch_stats *ls = ws_sim_launches(s, &n);
    assert_int_equal(n, 2);
    return ls;
}

static void t_hook(void **state)
{
    (void)state;
    const char *modes[2] = {"sim.mode=timing", "sim.mode=functional"};
    for (int k = 0; k < 2; k++) {
        seen sn = {0, 0, 0, 0, 0, 1, 0};
        ws_sim *a, *b;
        const ws_launch_stats *with = run(modes[k], &sn, &a);
        const ws_launch_stats *without = run(modes[k], NULL, &b);
        assert_int_equal(sn.finals, 2);
        assert_true(sn.calls > 2);           /* reports during the launches too */
        assert_true(sn.monotone);
        assert_int_equal(sn.total, 60);
        assert_int_equal(sn.launch, 1);
        for (int i = 0; i < 2; i++) {        /* observing changes nothing */
            assert_int_equal(with[i].cycles, without[i].cycles);
            assert_int_equal(with[i].warp_insts, without[i].warp_insts);
            assert_int_equal(with[i].t.stall_cycles, without[i].t.stall_cycles);
        }
        ws_sim_destroy(a);
        ws_sim_destroy(b);
    }
}

static void t_format(void **state)
{
    (void)state;
    char buf[256];
    ws_progress p = {2, "hotspot_step", "timing", 120, 400, 1234567, 4500000, 0, 1.0, 0};
    ws_progress_format(&p, 3, buf, sizeof buf);
    assert_string_equal(buf, "warpsim: launch 3 hotspot_step  CTAs 120/400 (30%)  1.23M cycles  "
                             "4.50M warp inst/s  ETA 2s");
    p.ctas_done = 0;
    p.cycles = 0;
    ws_progress_format(&p, 1, buf, sizeof buf);
    assert_string_equal(buf, "warpsim: launch 1 hotspot_step  CTAs 0/400 (0%)  4.50M warp inst/s  ETA ?");
}

static void t_not_a_terminal(void **state)
{
    (void)state;
    FILE *f = tmpfile();
    ws_progress_display d;
    assert_int_equal(ws_progress_display_init(&d, f), 0);
    fclose(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_hook),
        cmocka_unit_test(t_format),
        cmocka_unit_test(t_not_a_terminal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
