"""Tests of experiments/common.py (the experiment harness).

Run from anywhere:  python3 -m unittest discover -s tests/experiments
               or:  cd tests/experiments && python3 -m unittest
A fake warpsim (a small Python script written to a temporary directory) stands in for
the simulator, so these tests need no build.
"""
import json
import os
import stat as st
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "experiments"))
import common as C  # noqa: E402
import plots as P  # noqa: E402


# Fake warpsim. `run ... --json F WORKLOAD ...`: workload "good*" writes a report and
# prints PASS; "fail" prints FAIL and exits 1; "crash" exits 4 without a report;
# "badlaunch" passes but a launch reports a fault; "nojson" passes without a report.
# Every run appends its argv to $FAKE_LOG. `config`: exit $FAKE_CONFIG_RC. `list`: a
# listing in warpsim's format.
FAKE = textwrap.dedent('''\
    #!/usr/bin/env python3
    import json, os, sys
    a = sys.argv[1:]
    if a[0] == "list":
        print("workloads (warpsim run NAME):")
        print("  good1   first")
        print("  good2   second")
        print("  ubench_chase  probe")
        print("")
        print("configuration presets (--config NAME):")
        print("  gtx480  x")
        print("")
        print("warp schedulers (--sched NAME, core.scheduler; timing mode):")
        print("  lrr     round robin")
        print("  gto     greedy")
        sys.exit(0)
    if a[0] == "config":
        sys.exit(int(os.environ.get("FAKE_CONFIG_RC", "0")))
    with open(os.environ["FAKE_LOG"], "a") as f:
        f.write(" ".join(a) + "\\n")
    if "--set" in a and "mem.model=detailed" in a and os.environ.get("FAKE_DETAILED_RC"):
        sys.exit(int(os.environ["FAKE_DETAILED_RC"]))
    js = a[a.index("--json") + 1] if "--json" in a else os.devnull
    wl = [x for x in a if x in ("good1", "good2", "fail", "crash", "badlaunch", "nojson",
                                "ubench_chase")][0]
    sched = a[a.index("--sched") + 1] if "--sched" in a else "lrr"
    cyc = {"lrr": 1000, "gto": 800}.get(sched, 500) * (2 if wl == "good2" else 1)
    doc = {"config": {}, "launches": [{"kernel": "k", "result": "ok", "cycles": cyc,
           "warp_insts": 2000, "mem": {"model": "simple"}}],
           "total": {"warp_insts": 2000, "cycles": cyc, "stall_cycles": cyc // 10,
                     "warps_in_flight_sum": 300, "active_sm_cycles": 100,
                     "resfail_csf": 1, "resfail_mshrf": 2, "resfail_mqf": 3,
                     "ldst_stall_cycles": 7}}
    if wl == "crash":
        print("warpsim: illegal address", file=sys.stderr)
        sys.exit(4)
    if wl == "badlaunch":
        doc["launches"][0]["result"] = "illegal_address"
    if wl != "nojson":
        with open(js, "w") as f:
            json.dump(doc, f)
    if wl == "fail":
        print("fail [small]: FAIL (3 mismatches)")
        sys.exit(1)
    print(wl + " [small]: PASS")
''')


def make_fake(d):
    p = os.path.join(d, "warpsim")
    with open(p, "w") as f:
        f.write(FAKE)
    os.chmod(p, os.stat(p).st_mode | st.S_IXUSR)
    return p


def doc_of(**total):
    return {"launches": [], "total": total}


def matrix_of(cells, workloads, configs):
    """Matrix from {(w, c): total dict or None (failed run)}."""
    res = {}
    for w in workloads:
        for c in configs:
            t = cells[(w, c)]
            res[(w, c)] = (C.Result(w, c, True, doc_of(**t), path=f"/x/{w}__{c}.json") if t is not None
                           else C.Result(w, c, False, error="exit 1"))
    return C.Matrix(workloads, configs, res)


class Means(unittest.TestCase):
    def test_geomean(self):
        self.assertAlmostEqual(C.geomean([1.0, 4.0]), 2.0)
        self.assertAlmostEqual(C.geomean([2.0, 2.0, 2.0]), 2.0)
        self.assertEqual(C.geomean([0.0, 5.0]), 0.0)
        self.assertIsNone(C.geomean([-1.0, 5.0]))
        self.assertIsNone(C.geomean([]))

    def test_amean(self):
        self.assertAlmostEqual(C.amean([1.0, 4.0]), 2.5)
        self.assertIsNone(C.amean([]))

    def test_div(self):
        self.assertEqual(C.div(6.0, 3.0), 2.0)
        self.assertIsNone(C.div(1.0, 0.0))
        self.assertIsNone(C.div(None, 2.0))


class Labels(unittest.TestCase):
    def test_nice_range(self):
        self.assertEqual(C.nice_range(0.0, 0.93), (0.0, 1.0, 0.2))
        self.assertEqual(C.nice_range(0.0, 7.0), (0.0, 8.0, 2.0))   # 7/6 -> step 2
        self.assertEqual(C.nice_range(0.0, 0.0), (0.0, 1.0, 0.2))   # all zero: 0..1
        lo, hi, step = C.nice_range(-3.0, 9.0)
        self.assertEqual((lo, hi, step), (-4.0, 10.0, 2.0))

    def test_nice_step(self):
        self.assertEqual(C.nice_step(12.0), 2.0)
        self.assertEqual(C.nice_step(1.4), 0.25)
        self.assertEqual(C.nice_step(600.0), 100.0)

    def test_tick_label(self):
        self.assertEqual(C.tick_label(0.25, 0.25), "0.25")
        self.assertEqual(C.tick_label(0.4, 0.2), "0.4")
        self.assertEqual(C.tick_label(20.0, 5.0), "20")
        self.assertEqual(C.tick_label(2.5, 2.5), "2.5")
        self.assertEqual(C.tick_label(50000.0, 10000.0), "50k")

    def test_short(self):
        self.assertEqual(C.short(1.0), "1.00")
        self.assertEqual(C.short(0.5), "0.500")
        self.assertEqual(C.short(12.34), "12.3")
        self.assertEqual(C.short(250.0), "250")
        self.assertEqual(C.short(12345.0), "12.3k")
        self.assertEqual(C.short(2.5e6), "2.5M")
        self.assertEqual(C.short(-0.25), "-0.250")
        self.assertEqual(C.short(0.0), "0")


class Tables(unittest.TestCase):
    def table(self):
        cells = {("a", "x"): 1.0, ("a", "y"): 4.0,
                 ("b", "x"): 2.0, ("b", "y"): 2.0,
                 ("c", "x"): C.FAIL, ("c", "y"): 3.0,
                 ("d", "x"): None, ("d", "y"): 1.0}
        return C.Table("t", "Title", ["a", "b", "c", "d"], ["x", "y"], cells, unit="u", fmt="{:.2f}")

    def test_means_over_complete_rows(self):
        t = self.table()
        self.assertEqual(t.means_over, ["a", "b"])
        self.assertEqual(t.excluded, ["c", "d"])
        self.assertAlmostEqual(t.value("geomean", "x"), 2 ** 0.5)
        self.assertAlmostEqual(t.value("geomean", "y"), 8 ** 0.5)
        self.assertAlmostEqual(t.value("mean", "x"), 1.5)
        self.assertAlmostEqual(t.value("mean", "y"), 3.0)

    def test_text(self):
        want = "\n".join([
            "Title [u]",
            "workload     x     y",
            "--------------------",
            "a         1.00  4.00",
            "b         2.00  2.00",
            "c         FAIL  3.00",
            "d          n/a  1.00",
            "--------------------",
            "geomean   1.41  2.83",
            "mean      1.50  3.00",
            "  note: means exclude c, d (FAIL or n/a in some column)",
        ])
        self.assertEqual(self.table().text(), want)

    def test_csv(self):
        want = ("workload,x,y\n"
                "a,1.0,4.0\n"
                "b,2.0,2.0\n"
                "c,FAIL,3.0\n"
                "d,n/a,1.0\n"
                f"geomean,{C.geomean([1.0, 2.0])!r},{C.geomean([4.0, 2.0])!r}\n"
                "mean,1.5,3.0\n")
        self.assertEqual(self.table().csv(), want)

    def test_json(self):
        j = self.table().to_json()
        self.assertEqual(j["columns"], ["x", "y"])
        self.assertEqual(j["rows"][2], {"name": "c", "values": {"x": "FAIL", "y": 3.0}})
        self.assertEqual(j["rows"][3]["values"]["x"], None)
        self.assertEqual(j["means"]["mean"], {"x": 1.5, "y": 3.0})
        self.assertEqual(j["excluded_from_means"], ["c", "d"])

    def test_no_means_when_no_complete_row(self):
        t = C.Table("t", "T", ["a"], ["x"], {("a", "x"): C.FAIL})
        self.assertEqual(t.mean_rows, [])
        self.assertIn("no means", t.text())

    def test_write_is_deterministic(self):
        with tempfile.TemporaryDirectory() as d:
            p1 = C.write_table(self.table(), os.path.join(d, "1"))
            p2 = C.write_table(self.table(), os.path.join(d, "2"))
            want = ["t.csv", "t.json"] + ([] if P.pyplot() is None else ["t.png", "t.pdf"])
            self.assertEqual([os.path.basename(p) for p in p1], want)
            for a, b in zip(p1, p2):
                with open(a, "rb") as fa, open(b, "rb") as fb:
                    self.assertEqual(fa.read(), fb.read())


class MetricTables(unittest.TestCase):
    def matrix(self):
        t = {("w1", "lrr"): dict(warp_insts=100, cycles=100, stall_cycles=10),
             ("w1", "gto"): dict(warp_insts=100, cycles=50, stall_cycles=0),
             ("w2", "lrr"): None,
             ("w2", "gto"): dict(warp_insts=300, cycles=100, stall_cycles=5),
             ("w3", "lrr"): dict(warp_insts=100, cycles=200, stall_cycles=0),
             ("w3", "gto"): dict(warp_insts=100, cycles=100, stall_cycles=4)}
        return matrix_of(t, ["w1", "w2", "w3"], ["lrr", "gto"])

    def test_ipc_table(self):
        t = C.metric_table(self.matrix(), "ipc", "IPC", C.ipc)
        self.assertEqual(t.cells[("w1", "lrr")], 1.0)
        self.assertEqual(t.cells[("w1", "gto")], 2.0)
        self.assertIs(t.cells[("w2", "lrr")], C.FAIL)
        self.assertEqual(t.cells[("w2", "gto")], 3.0)
        self.assertEqual(t.means_over, ["w1", "w3"])
        self.assertAlmostEqual(t.value("geomean", "lrr"), 0.5 ** 0.5)

    def test_normalised(self):
        t = C.metric_table(self.matrix(), "n", "IPC / LRR", C.ipc, normalise_to="lrr")
        self.assertEqual(t.cells[("w1", "lrr")], 1.0)
        self.assertEqual(t.cells[("w1", "gto")], 2.0)
        # base run failed: every cell of the row is FAIL, not a number
        self.assertIs(t.cells[("w2", "gto")], C.FAIL)
        self.assertEqual(t.cells[("w3", "gto")], 2.0)
        self.assertIn("divided by its lrr", t.note)

    def test_normalised_zero_base_is_na(self):
        t = C.metric_table(self.matrix(), "s", "stall", C.total("stall_cycles"), normalise_to="lrr")
        self.assertEqual(t.cells[("w1", "gto")], 0.0)
        self.assertIsNone(t.cells[("w3", "gto")])    # 4 / 0
        self.assertIn("n/a", t.text())

    def test_missing_stat_names_key_and_run(self):
        m = self.matrix()
        with self.assertRaises(C.ExperimentError) as e:
            C.metric_table(m, "x", "X", C.total("no_such_stat"))
        self.assertIn("'no_such_stat'", str(e.exception))
        self.assertIn("w1__lrr.json", str(e.exception))
        with self.assertRaises(C.MissingStat) as e2:
            C.stat(doc_of(cycles=1), "warp_insts")
        self.assertEqual(e2.exception.key, "warp_insts")
        self.assertIn("cycles", str(e2.exception))

    def test_derived(self):
        d = doc_of(warp_insts=90, cycles=30, warps_in_flight_sum=50, active_sm_cycles=10,
                   resfail_csf=1, resfail_mshrf=2, resfail_mqf=4)
        self.assertEqual(C.ipc(d), 3.0)
        self.assertEqual(C.warps_in_flight(d), 5.0)
        self.assertEqual(C.resfails(d), 7.0)
        self.assertIsNone(C.ipc(doc_of(warp_insts=1, cycles=0)))

    def test_runs_csv(self):
        s = C.runs_csv(self.matrix(), ["cycles"])
        lines = s.splitlines()
        self.assertEqual(lines[0], "workload,config,status,cycles,error")
        self.assertEqual(lines[1], "w1,lrr,ok,100.0,")
        self.assertEqual(lines[3], "w2,lrr,FAIL,,exit 1")


class L1D(unittest.TestCase):
    def launch(self, mem):
        return {"result": "ok", "mem": mem}

    def test_simple_model_is_na(self):
        d = {"launches": [self.launch({"model": "simple", "requests": 4})], "total": {}}
        self.assertIsNone(C.l1d_counts(d))
        self.assertIsNone(C.l1d_miss_rate(d))

    def test_hits_misses_summed_over_launches(self):
        d = {"launches": [self.launch({"model": "detailed", "l1d": {"hits": 30, "misses": 10}}),
                          self.launch({"model": "detailed", "l1d": {"accesses": 60, "misses": 30}})],
             "total": {}}
        self.assertEqual(C.l1d_counts(d), (40.0, 100.0))
        self.assertAlmostEqual(C.l1d_miss_rate(d), 0.4)

    def test_per_sm_list_and_merges(self):
        mem = {"model": "detailed",
               "caches": {"l1d": [{"hits": 5, "misses": 3, "merges": 2}, {"hits": 10, "misses": 0}]}}
        d = {"launches": [self.launch(mem)], "total": {}}
        self.assertEqual(C.l1d_counts(d), (3.0, 20.0))

    def test_detailed_model_layout(self):
        # what src/mem/detailed.c writes: totals over the SMs plus a per_sm array
        mem = {"model": "detailed",
               "l1d": {"accesses": 100, "hits": 50, "misses": 20, "merges": 10, "bypasses": 20,
                       "per_sm": [{"accesses": 100, "hits": 50, "misses": 20, "merges": 10}]},
               "l2": {"accesses": 40, "hits": 0, "misses": 40}}
        d = {"launches": [self.launch(mem)], "total": {}}
        self.assertEqual(C.l1d_counts(d), (20.0, 80.0))   # bypasses are not lookups
        self.assertAlmostEqual(C.l1d_miss_rate(d), 0.25)

    def test_flat_keys(self):
        d = {"launches": [self.launch({"model": "detailed", "l1d_accesses": 8, "l1d_misses": 2})],
             "total": {}}
        self.assertEqual(C.l1d_counts(d), (2.0, 8.0))

    def test_cached_model_without_l1d_is_an_error(self):
        d = {"launches": [self.launch({"model": "detailed", "l2": {"hits": 1}})], "total": {}}
        with self.assertRaises(C.MissingStat) as e:
            C.l1d_counts(d)
        self.assertIn("l1d", str(e.exception))
        self.assertIn("l2", str(e.exception))

    def test_l1d_without_counts_is_an_error(self):
        d = {"launches": [self.launch({"model": "detailed", "l1d": {"evictions": 1}})], "total": {}}
        with self.assertRaises(C.MissingStat):
            C.l1d_counts(d)


class CheckRun(unittest.TestCase):
    def setUp(self):
        self.d = tempfile.TemporaryDirectory()
        self.p = os.path.join(self.d.name, "r.json")
        with open(self.p, "w") as f:
            json.dump({"launches": [{"result": "ok"}], "total": {"cycles": 1}}, f)

    def tearDown(self):
        self.d.cleanup()

    def test_pass(self):
        doc, err = C.check_run("atax", 0, "atax [small]: PASS\n", self.p)
        self.assertEqual(err, "")
        self.assertEqual(doc["total"]["cycles"], 1)

    def test_nonzero_exit(self):
        doc, err = C.check_run("atax", 4, "boom\n", self.p)
        self.assertIsNone(doc)
        self.assertTrue(err.startswith("exit 4"), err)
        self.assertIn("boom", err)

    def test_reason_is_the_simulator_error_line(self):
        out = ("SM 0: 8 warps resident\n  warp slot 0 ...\n"
               "warpsim: deadlock at cycle 99: no progress\n"
               "warpsim: cuLaunchKernel(k): CUDA_ERROR_LAUNCH_TIMEOUT\n"
               "main.c:86: cuLaunchKernel(...) failed\n")
        doc, err = C.check_run("atax", 4, out, self.p)
        self.assertEqual(err, "exit 4: warpsim: deadlock at cycle 99: no progress")
        self.assertEqual(C.failure_reason("x" * 300, 20), "x" * 17 + "...")
        self.assertEqual(C.failure_reason(""), "(no output)")

    def test_fail_verdict_with_exit_0(self):
        doc, err = C.check_run("atax", 0, "atax [small]: FAIL (2 mismatches)\n", self.p)
        self.assertIsNone(doc)
        self.assertIn("FAIL (2 mismatches)", err)

    def test_no_verdict(self):
        doc, err = C.check_run("atax", 0, "something else\n", self.p)
        self.assertIsNone(doc)
        self.assertIn("no PASS verdict", err)

    def test_launch_fault(self):
        with open(self.p, "w") as f:
            json.dump({"launches": [{"kernel": "k", "result": "watchdog"}], "total": {}}, f)
        doc, err = C.check_run("atax", 0, "atax [small]: PASS\n", self.p)
        self.assertIsNone(doc)
        self.assertIn("watchdog", err)

    def test_no_json(self):
        doc, err = C.check_run("atax", 0, "atax [small]: PASS\n", self.p + ".missing")
        self.assertIsNone(doc)
        self.assertIn("no readable JSON", err)


class RunMatrix(unittest.TestCase):
    def setUp(self):
        self.d = tempfile.TemporaryDirectory()
        self.ws = make_fake(self.d.name)
        self.out = os.path.join(self.d.name, "out")
        self.log = os.path.join(self.d.name, "calls.log")
        os.environ["FAKE_LOG"] = self.log
        self.configs = [C.Config("lrr", ["--sched", "lrr"]), C.Config("gto", ["--sched", "gto"])]

    def tearDown(self):
        for k in ("FAKE_LOG", "FAKE_CONFIG_RC", "FAKE_DETAILED_RC"):
            os.environ.pop(k, None)
        self.d.cleanup()

    def calls(self):
        if not os.path.exists(self.log):
            return 0
        with open(self.log) as f:
            return len(f.read().splitlines())

    def run_m(self, wls, **kw):
        kw.setdefault("quiet", True)
        return C.run_matrix(self.ws, self.out, wls, self.configs, ["--mode", "timing"],
                            ["--size", "small"], jobs=2, **kw)

    def test_results_and_failures(self):
        m = self.run_m(["good1", "fail", "crash", "badlaunch", "nojson"])
        self.assertEqual(self.calls(), 10)
        self.assertTrue(m.get("good1", "gto").ok)
        self.assertEqual(m.get("good1", "gto").doc["total"]["cycles"], 800)
        fails = {(r.workload, r.config): r.error for r in m.failures()}
        self.assertEqual(len(fails), 8)
        self.assertIn("FAIL (3 mismatches)", fails[("fail", "lrr")])
        self.assertIn("exit 4", fails[("crash", "lrr")])
        self.assertIn("illegal_address", fails[("badlaunch", "gto")])
        self.assertIn("no readable JSON", fails[("nojson", "gto")])
        names = sorted(os.listdir(self.out))
        self.assertIn("good1__lrr.json", names)
        self.assertIn("good1__lrr.cmd", names)
        self.assertIn("good1__lrr.log", names)
        self.assertNotIn("fail__lrr.json", names)        # a failed run leaves no report
        self.assertIn("fail__lrr.failed.json", names)    # ... only one marked as failed
        self.assertFalse(any(n.endswith(".tmp") for n in names))
        # the run command: base args, config args, JSON, workload, workload args
        with open(self.log) as f:
            line = [l for l in f.read().splitlines() if " good1 " in l + " " and "--sched gto" in l][0]
        self.assertTrue(line.startswith("run --mode timing --sched gto --no-report --json "), line)
        self.assertTrue(line.endswith("good1 --size small"), line)

    def test_reuse_force_and_changed_command(self):
        self.run_m(["good1"])
        self.assertEqual(self.calls(), 2)
        m = self.run_m(["good1"])
        self.assertEqual(self.calls(), 2)                # reused
        self.assertTrue(m.get("good1", "lrr").reused)
        self.assertEqual(m.get("good1", "lrr").doc["total"]["cycles"], 1000)
        self.assertFalse(m.get("good1", "lrr").other_binary)
        with open(self.ws, "a") as f:                    # "rebuild" the simulator
            f.write("# changed\n")
        m = self.run_m(["good1"])
        self.assertEqual(self.calls(), 2)                # still reused, but flagged
        self.assertTrue(m.get("good1", "lrr").other_binary)
        self.run_m(["good1"], force=True)
        self.assertEqual(self.calls(), 4)                # --force reruns
        C.run_matrix(self.ws, self.out, ["good1"], self.configs, ["--mode", "timing"],
                     ["--size", "default"], jobs=1, quiet=True)
        self.assertEqual(self.calls(), 6)                # another command: rerun

    def test_failed_rerun_removes_stale_report(self):
        self.run_m(["good1"])
        os.environ["FAKE_DETAILED_RC"] = "3"
        m = C.run_matrix(self.ws, self.out, ["good1"], self.configs,
                         ["--mode", "timing", "--set", "mem.model=detailed"], ["--size", "small"],
                         jobs=1, quiet=True)
        self.assertFalse(m.get("good1", "lrr").ok)
        self.assertFalse(os.path.exists(os.path.join(self.out, "good1__lrr.json")))

    def test_unavailable_config_not_run(self):
        m = self.run_m(["good1"], unavailable={"gto": "policy 'gto' missing"})
        self.assertEqual(self.calls(), 1)
        self.assertFalse(m.get("good1", "gto").ok)
        self.assertEqual(m.get("good1", "gto").error, "policy 'gto' missing")

    def test_listing_and_probe(self):
        self.assertEqual(C.list_workloads(self.ws), ["good1", "good2", "ubench_chase"])
        self.assertEqual(C.list_scheds(self.ws), ["lrr", "gto"])
        os.environ["FAKE_CONFIG_RC"] = "3"
        ok, why = C.probe_mem_model(self.ws, [])
        self.assertFalse(ok)
        self.assertIn("exits 3", why)
        args, desc = C.memory_model_args(self.ws, [], [])
        self.assertEqual(args, [])
        self.assertIn("not usable", desc)
        os.environ["FAKE_CONFIG_RC"] = "0"
        os.environ["FAKE_DETAILED_RC"] = "1"              # config accepts it, a run does not
        ok, why = C.probe_mem_model(self.ws, [])
        self.assertFalse(ok)
        self.assertIn("probe run", why)
        del os.environ["FAKE_DETAILED_RC"]
        self.assertEqual(C.probe_mem_model(self.ws, []), (True, ""))
        self.assertEqual(C.memory_model_args(self.ws, [], [])[0], ["--set", "mem.model=detailed"])
        args, desc = C.memory_model_args(self.ws, ["mem.model=simple"], [])
        self.assertEqual(args, [])
        self.assertIn("mem.model=simple (from --set)", desc)

    def test_check_config(self):
        C.check_config(self.ws, ["--config", "gtx480"])
        os.environ["FAKE_CONFIG_RC"] = "3"
        with self.assertRaises(C.ExperimentError) as e:
            C.check_config(self.ws, ["--set", "gpu.n_sm=0"])
        self.assertIn("exits 3", str(e.exception))

    def test_find_warpsim(self):
        self.assertEqual(C.find_warpsim(self.ws), os.path.abspath(self.ws))
        with self.assertRaises(C.ExperimentError):
            C.find_warpsim(os.path.join(self.d.name, "nope"))


@unittest.skipIf(P.pyplot() is None, "matplotlib is not installed (tools/deps.sh)")
class Charts(unittest.TestCase):
    def table(self):
        cells = {("a", "x"): 1.0, ("a", "y"): 2.0, ("b", "x"): C.FAIL, ("b", "y"): None,
                 ("c", "x"): 0.5, ("c", "y"): 1.5}
        return C.Table("t", "My & chart", ["a", "b", "c"], ["x", "y"], cells, baseline=1.0, ylabel="IPC")

    def test_bar_chart(self):
        fig = P.bar_chart(self.table())
        ax = fig.axes[0]
        self.assertEqual(ax.get_title(), "My & chart")
        self.assertEqual(ax.get_ylabel(), "IPC")
        self.assertEqual(ax.get_xlabel(), "workload")
        self.assertEqual([t.get_text() for t in ax.get_xticklabels()], ["a", "b", "c", "geomean", "mean"])
        # 4 numeric cells + geomean and mean rows (over a, c) x 2 columns
        bars = [p for p in ax.patches if p.get_height() != 0]
        self.assertEqual(len(bars), 8)
        self.assertEqual(max(p.get_height() for p in bars), 2.0)
        texts = [t.get_text() for t in ax.texts]
        for want in ("FAIL", "n/a", "2.00", "0.500"):
            self.assertIn(want, texts)
        self.assertEqual([t.get_text() for t in ax.get_legend().get_texts()], ["x", "y"])
        P.pyplot().close(fig)

    def test_stacked_and_line(self):
        fig = P.stacked_chart("S", ["w1", "w2"], ["issued", "idle"], {("w1", "issued"): 1, ("w1", "idle"): 3,
                              ("w2", "issued"): 2}, "issue slots (%)", shares=True)
        heights = [p.get_height() for p in fig.axes[0].patches]
        self.assertEqual(heights, [25.0, 100.0, 75.0, 0.0])
        P.pyplot().close(fig)
        fig = P.line_chart("L", [("lrr", [(8, 1.0), (16, 1.2), (32, None)])], "MSHR entries", "IPC")
        self.assertEqual(fig.axes[0].get_xlabel(), "MSHR entries")
        self.assertEqual(list(fig.axes[0].lines[0].get_xdata()), [8, 16])
        P.pyplot().close(fig)

    def test_png_and_pdf_written(self):
        with tempfile.TemporaryDirectory() as d:
            paths = P.save(P.bar_chart(self.table()), os.path.join(d, "f"))
            for p in paths:
                with open(p, "rb") as f:
                    head = f.read(8)
                self.assertTrue(head.startswith(b"\x89PNG") or head.startswith(b"%PDF"), p)


if __name__ == "__main__":
    unittest.main()
