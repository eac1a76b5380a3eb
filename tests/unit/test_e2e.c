/* test_e2e.c - nvcc-generated kernels (tests/e2e/e2e.cu) run by the functional
 * emulator through the simulator API, each checked against a CPU reference. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/sim.h"

typedef struct {
    ws_sim *sim;
    ws_module *mod;
    char err[1024];
} env;

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) {
        buf[n] = 0;
        *len = (size_t)n;
    }
    return buf;
}

static int setup(void **state)
{
    env *e = calloc(1, sizeof *e);
    ws_config cfg;
    ws_config_defaults(&cfg);
    e->sim = ws_sim_create(&cfg);
    size_t len = 0;
    char *ptx = read_file(WS_SOURCE_DIR "/tests/e2e/e2e.ptx", &len);
    assert_non_null(ptx);
    ws_err rc = ws_module_load(e->sim, ptx, len, "e2e.ptx", &e->mod, e->err, sizeof e->err);
    if (rc != WS_OK)
        fprintf(stderr, "load: %s\n", e->err);
    assert_int_equal(rc, WS_OK);
    free(ptx);
    *state = e;
    return 0;
}

static int teardown(void **state)
{
    env *e = *state;
    ws_sim_destroy(e->sim);
    free(e);
    return 0;
}

/* Launches kernel `name` with arguments laid out per its .param list. */
static ws_err launch(env *e, const char *name, uint32_t gx, uint32_t gy, uint32_t bx, uint32_t by,
                     uint32_t smem, void **args)
{
    int k = ws_module_kernel(e->mod, name);
    assert_true(k >= 0);
    const ptx_module *m = ws_module_ptx(e->mod);
    const ptx_func *f = &m->funcs[k];
    uint8_t buf[256] = {0};
    for (uint32_t i = 0; i < f->n_params; i++) {
        const ptx_symbol *s = &m->syms[f->params[i]];
        memcpy(buf + s->addr, args[i], s->size);
    }
    ws_launch_desc d = {{gx, gy, 1}, {bx, by, 1}, smem, buf, f->param_size};
    ws_err rc = ws_launch(e->sim, e->mod, k, &d, e->err, sizeof e->err);
    if (rc != WS_OK)
        fprintf(stderr, "launch %s: %s\n", name, e->err);
    return rc;
}

static uint64_t dalloc(env *e, const void *host, size_t bytes)
{
    uint64_t p;
    assert_int_equal(ws_mem_alloc(e->sim, bytes, &p), WS_OK);
    if (host)
        assert_int_equal(ws_mem_write(e->sim, p, host, bytes), WS_OK);
    else
        assert_int_equal(ws_mem_set(e->sim, p, 0, 1, bytes), WS_OK);
    return p;
}

static void dread(env *e, void *host, uint64_t p, size_t bytes)
{
    assert_int_equal(ws_mem_read(e->sim, host, p, bytes), WS_OK);
}

static uint32_t rng_state = 12345;
static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

static void t_nested_loops(void **state)
{
    env *e = *state;
    int n = 200;
    uint64_t d = dalloc(e, NULL, n * 4);
    void *args[] = {&d, &n};
    assert_int_equal(launch(e, "nested_loops", 4, 1, 64, 1, 0, args), WS_OK);
    int got[200];
    dread(e, got, d, sizeof got);
    for (int i = 0; i < n; i++) {
        int acc = 0;
        for (int j = 0; j < i % 7; j++)
            for (int k = 0; k <= j; k++)
                acc += (j * k) ^ i;
        assert_int_equal(got[i], acc);
    }
}

static void t_divergent(void **state)
{
    env *e = *state;
    int n = 300, in[300], init[300], got[300];
    for (int i = 0; i < n; i++) {
        in[i] = (int)(rnd() % 400) - 50;
        init[i] = 7777;
    }
    uint64_t din = dalloc(e, in, sizeof in), dout = dalloc(e, init, sizeof init);
    void *args[] = {&dout, &din, &n};
    assert_int_equal(launch(e, "divergent", 3, 1, 128, 1, 0, args), WS_OK);
    dread(e, got, dout, sizeof got);
    for (int i = 0; i < n; i++) {
        int v = in[i], r;
        if (v < 0) {
            assert_int_equal(got[i], 7777);
            continue;
        }
        if (v % 3 == 0) r = v * 2;
        else if (v % 3 == 1) { r = 0; for (int k = 0; k < v % 5; k++) r += k * v; }
        else r = -v;
        while (r > 100) r -= 37;
        assert_int_equal(got[i], r);
    }
}

static void t_smem_reduce(void **state)
{
    env *e = *state;
    float in[1024], got[4];
    for (int i = 0; i < 1024; i++)
        in[i] = (float)(rnd() % 1000) * 0.25f;   /* exact in float: sums are exact */
    uint64_t din = dalloc(e, in, sizeof in), dout = dalloc(e, NULL, sizeof got);
    void *args[] = {&din, &dout};
    assert_int_equal(launch(e, "smem_reduce", 4, 1, 256, 1, 0, args), WS_OK);
    dread(e, got, dout, sizeof got);
    for (int b = 0; b < 4; b++) {
        double s = 0;
        for (int t = 0; t < 256; t++)
            s += in[b * 256 + t];
        assert_true(got[b] == (float)s);
    }
    /* dynamic shared memory */
    int data[3 * 96], ref[3 * 96];
    for (int i = 0; i < 3 * 96; i++)
        data[i] = (int)rnd();
    for (int b = 0; b < 3; b++)
        for (int t = 0; t < 96; t++)
            ref[b * 96 + t] = data[b * 96 + 95 - t];
    uint64_t dd = dalloc(e, data, sizeof data);
    void *a2[] = {&dd};
    assert_int_equal(launch(e, "dyn_smem_reverse", 3, 1, 96, 1, 96 * 4, a2), WS_OK);
    dread(e, data, dd, sizeof data);
    assert_memory_equal(data, ref, sizeof ref);
}

static void t_atomics(void **state)
{
    env *e = *state;
    int n = 1000, in[1000];
    int hist_ref[17] = {0}, max_ref = INT32_MIN;
    unsigned long long sum_ref = 0;
    double fsum_ref = 0;
    for (int i = 0; i < n; i++) {
        in[i] = (int)(rnd() % 100000);
        hist_ref[in[i] & 15]++;
        hist_ref[16] += in[i] & 1;
        sum_ref += (unsigned long long)in[i] * 1000003ull;
        fsum_ref += in[i] & 255;
        if (in[i] > max_ref) max_ref = in[i];
    }
    int minit = INT32_MIN;
    uint64_t dh = dalloc(e, NULL, 17 * 4), ds = dalloc(e, NULL, 8), df = dalloc(e, NULL, 4),
             dm = dalloc(e, &minit, 4), di = dalloc(e, in, sizeof in);
    void *args[] = {&dh, &ds, &df, &dm, &di, &n};
    assert_int_equal(launch(e, "atomics", 8, 1, 128, 1, 0, args), WS_OK);
    int hist[17], maxv;
    unsigned long long s;
    float fs;
    dread(e, hist, dh, sizeof hist);
    dread(e, &s, ds, 8);
    dread(e, &fs, df, 4);
    dread(e, &maxv, dm, 4);
    assert_memory_equal(hist, hist_ref, sizeof hist);
    assert_true(s == sum_ref);
    assert_true(fs == (float)fsum_ref);   /* < 2^24: every partial sum is exact */
    assert_int_equal(maxv, max_ref);
}

static void t_warp_ops(void **state)
{
    env *e = *state;
    int in[64], out[640];
    for (int i = 0; i < 64; i++)
        in[i] = (int)(rnd() % 2000);
    uint64_t din = dalloc(e, in, sizeof in), dout = dalloc(e, NULL, sizeof out);
    void *args[] = {&dout, &din};
    assert_int_equal(launch(e, "warp_ops", 2, 1, 32, 1, 0, args), WS_OK);
    dread(e, out, dout, sizeof out);
    for (int w = 0; w < 2; w++) {
        const int *v = &in[w * 32];
        unsigned ballot = 0, am = 0;
        int any = 0, all = 1;
        for (int l = 0; l < 32; l++) {
            ballot |= (unsigned)(v[l] & 1) << l;
            any |= v[l] > 1000;
            all &= v[l] >= 0;
            if (v[l] & 2) am |= 1u << l;
        }
        for (int l = 0; l < 32; l++) {
            const int *o = &out[(w * 32 + l) * 10];
            assert_int_equal(o[0], l + 3 < 32 ? v[l + 3] : v[l]);
            assert_int_equal(o[1], l >= 5 ? v[l - 5] : v[l]);
            assert_int_equal(o[2], v[l ^ 9]);
            assert_int_equal(o[3], v[(l * 7) & 31]);
            assert_int_equal(o[4], (l & 7) + 2 < 8 ? v[l + 2] : v[l]);
            assert_int_equal((unsigned)o[5], ballot);
            assert_int_equal(o[6], any);
            assert_int_equal(o[7], all);
            assert_int_equal((unsigned)o[8], (v[l] & 2) ? am : 0);
            unsigned mt = 0;
            for (int k = 0; k < 32; k++)
                mt |= (unsigned)((v[k] & 3) == (v[l] & 3)) << k;
            assert_int_equal((unsigned)o[9], mt);
        }
    }
}

static int fib_ref(int n) { return n < 2 ? n : fib_ref(n - 1) + fib_ref(n - 2); }

static void t_calls(void **state)
{
    env *e = *state;
    int n = 100, got[100];
    float fgot[100];
    uint64_t d = dalloc(e, NULL, sizeof got), df = dalloc(e, NULL, sizeof fgot);
    void *args[] = {&d, &df, &n};
    assert_int_equal(launch(e, "calls", 2, 1, 64, 1, 0, args), WS_OK);
    dread(e, got, d, sizeof got);
    dread(e, fgot, df, sizeof fgot);
    for (int i = 0; i < n; i++) {
        assert_int_equal(got[i], fib_ref(i % 12));
        float a = 0.5f * (float)i, r;
        if (i & 1) r = a * (float)i;
        else r = (float)((3.0 * i) / (i + 1)) + a;
        assert_true(fgot[i] == r);
    }
}

static unsigned long long umulhi(unsigned long long a, unsigned long long b)
{
    return (unsigned long long)(((unsigned __int128)a * b) >> 64);
}

static void t_math64(void **state)
{
    env *e = *state;
    enum { N = 64 };
    long long in[2 * N];
    unsigned long long out[8 * N];
    for (int i = 0; i < 2 * N; i++)
        in[i] = (long long)(((uint64_t)rnd() << 32) | rnd()) >> (rnd() % 40);
    in[0] = INT64_MIN;
    in[1] = -1;   /* INT64_MIN / -1 */
    in[3] = 0;
    uint64_t din = dalloc(e, in, sizeof in), dout = dalloc(e, NULL, sizeof out);
    int n = N;
    void *args[] = {&dout, &din, &n};
    assert_int_equal(launch(e, "math64", 1, 1, 64, 1, 0, args), WS_OK);
    dread(e, out, dout, sizeof out);
    for (int i = 0; i < N; i++) {
        long long a = in[2 * i], b = in[2 * i + 1];
        unsigned long long ua = (unsigned long long)a, ub = (unsigned long long)b;
        const unsigned long long *o = &out[8 * i];
        assert_true(o[0] == ua * ub);
        if (b && !(a == INT64_MIN && b == -1)) {
            assert_true(o[1] == (unsigned long long)(a / b));
            assert_true(o[2] == (unsigned long long)(a % b));
        }
        assert_true(o[3] == umulhi(ua, ub));
        assert_true(o[4] == ua >> (ub & 63));
        assert_true(o[5] == (unsigned long long)(a >> (ub & 63)));
        double da = (double)a, db = (double)b, q = db != 0.0 ? da / db : 0.0;
        double r = sqrt(fabs(da)) + fma(da, 1e-9, db);
        unsigned long long bq, br;
        memcpy(&bq, &q, 8);
        memcpy(&br, &r, 8);
        assert_true(o[6] == bq);
        assert_true(o[7] == br);
    }
}

static uint16_t f2h(float f)  /* round-to-nearest-even binary16, reference */
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000, exp = (x >> 23) & 0xff, man = x & 0x7fffff;
    if (exp == 0xff)
        return (uint16_t)(sign | 0x7c00 | (man ? 0x200 : 0));
    int e = (int)exp - 127 + 15;
    if (e >= 31)
        return (uint16_t)(sign | 0x7c00);
    if (e <= 0) {
        if (e < -10)
            return (uint16_t)sign;
        man |= 0x800000;
        int shift = 14 - e;
        uint32_t half = 1u << (shift - 1), rem = man & ((1u << shift) - 1), r = man >> shift;
        if (rem > half || (rem == half && (r & 1)))
            r++;
        return (uint16_t)(sign | r);
    }
    uint32_t r = man >> 13, rem = man & 0x1fff;
    uint32_t h = sign | ((uint32_t)e << 10) | r;
    if (rem > 0x1000 || (rem == 0x1000 && (r & 1)))
        h++;
    return (uint16_t)h;
}

static void t_conversions(void **state)
{
    env *e = *state;
    enum { N = 96 };
    float fin[N];
    int iin[N];
    double din[N];
    for (int i = 0; i < N; i++) {
        fin[i] = ((float)(int)(rnd() % 20001) - 10000.0f) / 64.0f;
        iin[i] = (int)rnd();
        din[i] = ((double)(int)rnd()) / 3.0;
    }
    fin[0] = 2.5f; fin[1] = -2.5f; fin[2] = 3.5f; fin[3] = 0.5f; fin[4] = 1e10f; fin[5] = -1e10f;
    fin[6] = NAN; fin[7] = 65519.0f; fin[8] = 1e-6f; fin[9] = 1.0009765625f;
    iin[0] = 16777217; iin[1] = -16777217; iin[2] = INT32_MAX;
    din[0] = 2.5; din[1] = -3.5; din[2] = 1e300;
    uint64_t dfi = dalloc(e, fin, sizeof fin), dii = dalloc(e, iin, sizeof iin), ddi = dalloc(e, din, sizeof din);
    uint64_t dio = dalloc(e, NULL, N * 6 * 4), dfo = dalloc(e, NULL, N * 5 * 4), dho = dalloc(e, NULL, N * 2);
    int n = N;
    void *args[] = {&dio, &dfo, &dho, &dfi, &dii, &ddi, &n};
    assert_int_equal(launch(e, "conversions", 1, 1, N, 1, 0, args), WS_OK);
    int io[N * 6];
    float fo[N * 5];
    uint16_t ho[N];
    dread(e, io, dio, sizeof io);
    dread(e, fo, dfo, sizeof fo);
    dread(e, ho, dho, sizeof ho);
    for (int i = 0; i < N; i++) {
        float f = fin[i];
        int sat_rn, sat_rz, sat_rd, sat_ru;
        if (isnan(f)) {
            sat_rn = sat_rz = sat_rd = sat_ru = 0;
        } else {
            double c[4] = {nearbyint(f), trunc(f), floor(f), ceil(f)};
            int *dst[4] = {&sat_rn, &sat_rz, &sat_rd, &sat_ru};
            for (int k = 0; k < 4; k++)
                *dst[k] = c[k] >= 2147483647.0 ? INT32_MAX : c[k] <= -2147483648.0 ? INT32_MIN : (int)c[k];
        }
        assert_int_equal(io[6 * i + 0], sat_rn);
        assert_int_equal(io[6 * i + 1], sat_rz);
        assert_int_equal(io[6 * i + 2], sat_rd);
        assert_int_equal(io[6 * i + 3], sat_ru);
        unsigned u = isnan(f) || f <= 0 ? 0 : f >= 4294967295.0f ? 0xffffffffu : (unsigned)f;
        assert_int_equal(io[6 * i + 4], (int)u);
        double d = din[i], rd = nearbyint(d);
        int di = rd >= 2147483647.0 ? INT32_MAX : rd <= -2147483648.0 ? INT32_MIN : (int)rd;
        assert_int_equal(io[6 * i + 5], di);
        assert_true(fo[5 * i + 0] == (float)iin[i]);
        /* round toward zero of an int to float */
        float rz = (float)iin[i];
        if ((double)rz != (double)iin[i] && fabs((double)rz) > fabs((double)iin[i]))
            rz = nextafterf(rz, 0.0f);
        assert_true(fo[5 * i + 1] == rz);
        assert_true(fo[5 * i + 2] == (float)d);
        float sat = isnan(f) ? 0.0f : f < 0 ? 0.0f : f > 1 ? 1.0f : f;
        assert_true(fo[5 * i + 3] == sat);
        float q = f / (float)(iin[i] | 1);
        assert_true(fo[5 * i + 4] == q || (isnan(q) && isnan(fo[5 * i + 4])));
        if (!isnan(f))
            assert_int_equal(ho[i], f2h(f));
        else
            assert_true((ho[i] & 0x7c00) == 0x7c00 && (ho[i] & 0x3ff));
    }
}

static void t_local_const(void **state)
{
    env *e = *state;
    int n = 64, idx[64], got[64];
    for (int i = 0; i < n; i++)
        idx[i] = (int)(rnd() % 1000);
    uint64_t di = dalloc(e, idx, sizeof idx), dout = dalloc(e, NULL, sizeof got);
    void *args[] = {&dout, &di, &n};
    assert_int_equal(launch(e, "local_array", 1, 1, 64, 1, 0, args), WS_OK);
    dread(e, got, dout, sizeof got);
    for (int i = 0; i < n; i++) {
        int s = 0;
        for (int k = 0; k < 8; k++)
            s += (idx[(i + k) % n] % 24) * i + 1;
        assert_int_equal(got[i], s);
    }
    int ct[64];
    for (int i = 0; i < 64; i++)
        ct[i] = i * i - 5;
    uint64_t cptr, cbytes;
    assert_int_equal(ws_module_global(e->mod, "ctab", &cptr, &cbytes), WS_OK);
    assert_int_equal(cbytes, sizeof ct);
    assert_int_equal(ws_mem_write(e->sim, cptr, ct, sizeof ct), WS_OK);
    void *a2[] = {&dout, &n};
    assert_int_equal(launch(e, "const_table", 1, 1, 64, 1, 0, a2), WS_OK);
    dread(e, got, dout, sizeof got);
    const int g[8] = {3, 1, 4, 1, 5, 9, 2, 6};
    for (int i = 0; i < n; i++)
        assert_int_equal(got[i], ct[i & 63] * g[i & 7]);
}

static void t_grid2d(void **state)
{
    env *e = *state;
    int w = 48, h = 20, got[48 * 20];
    uint64_t d = dalloc(e, NULL, sizeof got);
    void *args[] = {&d, &w};
    assert_int_equal(launch(e, "grid2d", 3, 5, 16, 4, 0, args), WS_OK);
    dread(e, got, d, sizeof got);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            assert_int_equal(got[y * w + x], x * 1000 + y);
}

static void t_oob_reported(void **state)
{
    env *e = *state;
    int n = 32;
    uint64_t d = dalloc(e, NULL, 32 * 4);
    void *args[] = {&d, &n};
    assert_int_equal(launch(e, "oob", 1, 1, 32, 1, 0, args), WS_E_ILLEGAL_ADDRESS);
    assert_non_null(strstr(e->err, "kernel 'oob'"));
    assert_non_null(strstr(e->err, "thread (0,0,0) of CTA (0,0,0)"));
    assert_non_null(strstr(e->err, "out-of-bounds global store"));
    assert_non_null(strstr(e->err, "e2e.ptx:"));
    /* a launch with a too-large block fails before running */
    assert_int_equal(launch(e, "oob", 1, 1, 1025, 1, 0, args), WS_E_INVALID_VALUE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(t_nested_loops, setup, teardown),
        cmocka_unit_test_setup_teardown(t_divergent, setup, teardown),
        cmocka_unit_test_setup_teardown(t_smem_reduce, setup, teardown),
        cmocka_unit_test_setup_teardown(t_atomics, setup, teardown),
        cmocka_unit_test_setup_teardown(t_warp_ops, setup, teardown),
        cmocka_unit_test_setup_teardown(t_calls, setup, teardown),
        cmocka_unit_test_setup_teardown(t_math64, setup, teardown),
        cmocka_unit_test_setup_teardown(t_conversions, setup, teardown),
        cmocka_unit_test_setup_teardown(t_local_const, setup, teardown),
        cmocka_unit_test_setup_teardown(t_grid2d, setup, teardown),
        cmocka_unit_test_setup_teardown(t_oob_reported, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
