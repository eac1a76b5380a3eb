"""Tests of the helpers experiments/common.py gained for seeds 001 and 003 (memory-level
counters, L2 MPKI, per-launch policies, mean kinds, string tables) and end-to-end runs of
experiments/seed001/run and experiments/seed003/run against a fake warpsim.

Run from anywhere:  python3 -m unittest discover -s tests/experiments
"""
import csv
import json
import os
import stat as st
import subprocess
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "experiments"))
import common as C  # noqa: E402


def launch(mem, policy=None, **kw):
    d = {"result": "ok", "mem": mem, **kw}
    if policy is not None:
        d["policy"] = policy
    return d


def detailed(l2_misses, **l1d):
    return {"model": "detailed", "l1d": dict(l1d), "l2": {"accesses": 2 * l2_misses, "misses": l2_misses}}


class MemCounters(unittest.TestCase):
    def test_summed_over_launches(self):
        d = {"launches": [launch(detailed(30)), launch(detailed(12))], "total": {"warp_insts": 2000}}
        self.assertEqual(C.mem_counter("l2", "misses")(d), 42.0)
        self.assertEqual(C.mem_counter("l2", "accesses")(d), 84.0)
        self.assertAlmostEqual(C.l2_mpki(d), 21.0)          # 1000 * 42 / 2000

    def test_simple_model_is_na(self):
        d = {"launches": [launch({"model": "simple"})], "total": {"warp_insts": 10}}
        self.assertIsNone(C.mem_counter("l2", "misses")(d))
        self.assertIsNone(C.l2_mpki(d))
        self.assertIsNone(C.l2_mpki({"launches": [], "total": {"warp_insts": 10}}))

    def test_no_instructions_is_na(self):
        d = {"launches": [launch(detailed(5))], "total": {"warp_insts": 0}}
        self.assertIsNone(C.l2_mpki(d))

    def test_missing_level_or_key_is_an_error(self):
        d = {"launches": [launch({"model": "detailed", "l1d": {}})], "total": {}}
        with self.assertRaises(C.MissingStat) as e:
            C.mem_counter("l2", "misses")(d)
        self.assertIn("'l2'", str(e.exception))
        self.assertIn("l1d", str(e.exception))              # what is there
        d = {"launches": [launch({"model": "detailed", "l2": {"hits": 3}})], "total": {}}
        with self.assertRaises(C.MissingStat) as e:
            C.mem_counter("l2", "misses")(d)
        self.assertIn("'l2.misses'", str(e.exception))
        self.assertIn("hits", str(e.exception))

    def test_non_number_is_an_error(self):
        d = {"launches": [launch({"model": "detailed", "l2": {"misses": "7"}})], "total": {}}
        with self.assertRaises(C.ExperimentError):
            C.mem_counter("l2", "misses")(d)


class Policies(unittest.TestCase):
    def doc(self, *pols):
        return {"launches": [launch({}, p) for p in pols], "total": {}}

    def test_choice(self):
        self.assertEqual(C.policy_choice("static-select(lrr)"), "lrr")
        self.assertEqual(C.policy_choice("static-select(gto)"), "gto")
        self.assertEqual(C.policy_choice("gto"), "gto")
        self.assertEqual(C.policy_choice("motrr-recency"), "motrr-recency")

    def test_launch_policies(self):
        d = self.doc("static-select(lrr)", "gto")
        d["launches"].append({"result": "ok"})
        self.assertEqual(C.launch_policies(d), ["static-select(lrr)", "gto", "?"])

    def test_mix(self):
        self.assertEqual(C.policy_mix(self.doc("static-select(lrr)", "static-select(lrr)")), "lrr")
        self.assertEqual(C.policy_mix(self.doc("static-select(gto)", "static-select(lrr)",
                                               "static-select(lrr)")), "lrr 2/gto 1")
        # equal counts: in order of the first launch
        self.assertEqual(C.policy_mix(self.doc("static-select(gto)", "static-select(lrr)")), "gto 1/lrr 1")
        self.assertEqual(C.policy_mix(self.doc()), "")


class MeanKinds(unittest.TestCase):
    cells = {("a", "x"): 0.0, ("b", "x"): 4.0, ("c", "x"): None}

    def test_mean_only(self):
        t = C.Table("t", "T", ["a", "b", "c"], ["x"], self.cells, means=("mean",), fmt="{:.1f}")
        self.assertEqual([n for n, _ in t.mean_rows], ["mean"])
        self.assertEqual(t.value("mean", "x"), 2.0)
        self.assertIsNone(t.value("geomean", "x"))
        self.assertEqual(t.excluded, ["c"])
        self.assertEqual(t.text().splitlines()[-2], "mean      2.0")

    def test_true_false_unchanged(self):
        t = C.Table("t", "T", ["a", "b"], ["x"], self.cells)
        self.assertEqual([n for n, _ in t.mean_rows], ["geomean", "mean"])
        self.assertEqual(t.value("geomean", "x"), 0.0)
        self.assertEqual(C.Table("t", "T", ["a"], ["x"], self.cells, means=False).mean_rows, [])

    def test_unknown_kind(self):
        with self.assertRaises(ValueError):
            C.Table("t", "T", ["a"], ["x"], self.cells, means=("median",))


class MeanRatio(unittest.TestCase):
    def test_over_complete_pairs(self):
        def res(w, c, cyc):
            return (C.Result(w, c, True, {"launches": [], "total": {"cycles": cyc}}) if cyc is not None
                    else C.Result(w, c, False, error="x"))
        cyc = {("w1", "a"): 50, ("w1", "b"): 100, ("w2", "a"): 200, ("w2", "b"): 100,
               ("w3", "a"): None, ("w3", "b"): 100, ("w4", "a"): 10, ("w4", "b"): 0}
        m = C.Matrix(["w1", "w2", "w3", "w4"], ["a", "b"], {k: res(*k, v) for k, v in cyc.items()})
        g, a, used = C.mean_ratio(m, C.total("cycles"), "a", "b")
        self.assertEqual(used, ["w1", "w2"])                 # w3 failed, w4 divides by 0
        self.assertAlmostEqual(g, 1.0)                       # sqrt(0.5 * 2)
        self.assertAlmostEqual(a, 1.25)
        g, a, used = C.mean_ratio(m, C.total("cycles"), "a", "b", rows=["w2"])
        self.assertEqual((g, a, used), (2.0, 2.0, ["w2"]))


class StringTables(unittest.TestCase):
    def test_plain_table(self):
        want = "\n".join([
            "T",
            "name  kind   n",
            "--------------",
            "ab    lrr   10",
            "c     gto    2",
        ])
        self.assertEqual(C.plain_table("T", ["name", "kind", "n"], [["ab", "lrr", 10], ["c", "gto", 2]],
                                       left=2), want)

    def test_rows_csv(self):
        self.assertEqual(C.rows_csv(["a", "b"], [["x,y", 1]]), 'a,b\n"x,y",1\n')


# ---------------------------------------------------------------------------------------
# end-to-end runs of the seed scripts

# Fake warpsim. Workloads: per kernel, (static decision, cycles under gto, cycles under
# lrr, L2 misses gto, L2 misses lrr); static-select runs each kernel as its decision.
# "crashy" exits 4 like a deadlocked run. REOD: l1d.request_queues > 0 takes 80 % of the
# cycles and turns CSF fails into nothing. FAKE_SIMPLE=1: the memory model is simple.
FAKE = textwrap.dedent('''\
    #!/usr/bin/env python3
    import json, os, sys
    K = {"scp": [("scalar_prod", "lrr", 1000, 1100, 50, 60)],
         "histo": [("histo_2d", "lrr", 1000, 900, 40, 30)],
         "sad": [("k1", "gto", 100, 200, 10, 10), ("k2", "lrr", 300, 200, 10, 10),
                 ("k3", "lrr", 300, 200, 10, 10)],
         "atax": [("atax_ax", "gto", 1000, 1000, 10, 10)],
         "mvt": [("mvt_row", "gto", 2000, 2000, 10, 10)],
         "ubench_chase": [("chase", "gto", 10, 10, 1, 1)],
         "crashy": [("c", "gto", 1, 1, 1, 1)]}
    a = sys.argv[1:]
    if a[0] == "list":
        print("workloads (warpsim run NAME):")
        for k in K:
            print("  " + k + "  x")
        print("")
        print("warp schedulers (--sched NAME, core.scheduler; timing mode):")
        for s in ("lrr", "gto", "static-select"):
            print("  " + s + "  x")
        sys.exit(0)
    if a[0] == "config":
        sys.exit(0)
    sets = dict(a[i + 1].split("=", 1) for i in range(len(a)) if a[i] == "--set")
    sched = a[a.index("--sched") + 1] if "--sched" in a else "gto"
    wl = [x for x in a if x in K][0]
    if wl == "crashy":
        print("warpsim: crashy: launch 0 (c): deadlock", file=sys.stderr)
        sys.exit(4)
    simple = os.environ.get("FAKE_SIMPLE") == "1" or sets.get("mem.model") == "simple"
    q = int(sets.get("l1d.request_queues", "0"))
    launches, tot = [], {}
    for name, dec, cg, cl, mg, ml in K[wl]:
        pol = dec if sched == "static-select" else sched
        cyc = (cl if pol == "lrr" else cg) * (4 if q else 5) // 5
        csf = 0 if q else 92
        st = {"cycles": cyc, "warp_insts": 1000, "active_sm_cycles": cyc * 10,
              "resfail_csf": csf, "resfail_mshrf": 1, "resfail_mqf": 7, "ldst_stall_cycles": csf + 8,
              "queue_occupancy_sum": 300 + 100 * q, "queued_cycles": 0, "queued_reqs": 100,
              "stall_cycles": 1, "warps_in_flight_sum": 1, "mem_reqs": 100}
        mem = ({"model": "simple"} if simple else
               {"model": "detailed", "l1d": {"hits": 5, "misses": 5, "merges": 0},
                "l2": {"misses": ml if pol == "lrr" else mg}})
        launches.append(dict(st, kernel=name, result="ok", mem=mem,
                             policy=("static-select(%s)" % pol) if sched == "static-select" else pol))
        for k, v in st.items():
            tot[k] = tot.get(k, 0) + v
    tot["ipc"] = tot["warp_insts"] / tot["cycles"]
    for k in ("mix_ld_global", "mix_ld_global_pct", "mem_lat_mean", "host_seconds", "reod_full_cycles"):
        tot[k] = 1
    doc = {"config": {"sched": {"lrr_quantum": 0, "static_threshold": 1}}, "launches": launches,
           "total": tot}
    if "--json" in a:
        with open(a[a.index("--json") + 1], "w") as f:
            json.dump(doc, f)
    print(wl + " [small]: PASS")
''')


class SeedScripts(unittest.TestCase):
    def setUp(self):
        self.d = tempfile.TemporaryDirectory()
        self.ws = os.path.join(self.d.name, "warpsim")
        with open(self.ws, "w") as f:
            f.write(FAKE)
        os.chmod(self.ws, os.stat(self.ws).st_mode | st.S_IXUSR)
        self.out = os.path.join(self.d.name, "out")

    def tearDown(self):
        self.d.cleanup()

    def run_seed(self, seed, *args, env=None):
        e = dict(os.environ)
        e.update(env or {})
        r = subprocess.run([sys.executable, os.path.join(REPO, "experiments", seed, "run"), "--size", "small",
                            "-j", "2", "--warpsim", self.ws, "--out", self.out, *args],
                           capture_output=True, text=True, env=e, timeout=300)
        return r.returncode, r.stdout, r.stderr

    def table(self, name):
        with open(os.path.join(self.out, name + ".json")) as f:
            return json.load(f)

    def test_seed001(self):
        rc, out, err = self.run_seed("seed001", "--workloads", "scp,histo,sad")
        self.assertEqual(rc, 0, err + out)
        fig12 = {r["name"]: r["values"] for r in self.table("fig12_exec_time_norm_gto")["rows"]}
        self.assertEqual(fig12["scp"], {"gto": 1.0, "lrr": 1.1, "static-select": 1.1})
        self.assertEqual(fig12["histo"], {"gto": 1.0, "lrr": 0.9, "static-select": 0.9})
        # sad: k1 gto 100 + k2, k3 lrr 200 each = 500 vs gto 700, lrr 600
        self.assertAlmostEqual(fig12["sad"]["static-select"], 500 / 700)
        fig13 = {r["name"]: r["values"] for r in self.table("fig13_l2_mpki_norm_gto")["rows"]}
        self.assertAlmostEqual(fig13["scp"]["lrr"], 1.2)
        self.assertAlmostEqual(fig13["histo"]["static-select"], 0.75)
        with open(os.path.join(self.out, "selection.csv")) as f:
            sel = {r["workload"]: r for r in csv.DictReader(f)}
        self.assertEqual(sel["scp"]["picked"], "lrr")
        self.assertEqual(sel["scp"]["faster"], "gto")
        self.assertEqual(sel["scp"]["right pick"], "MISS")
        self.assertEqual(sel["histo"]["right pick"], "yes")
        self.assertEqual(sel["sad"]["picked"], "lrr 2/gto 1")
        self.assertEqual(sel["sad"]["right pick"], "mixed")
        self.assertEqual(sel["sad"]["static/best time"], f"{500 / 600:.3f}")
        self.assertIn("GTO faster than LRR on SCP, GUPS (time LRR/GTO > 1): scp 1.100x yes", out)
        self.assertIn("LRR faster than GTO on HISTO, SAD (time LRR/GTO < 1): histo 0.900x yes", out)
        self.assertIn("ours misses scp", out)
        with open(os.path.join(self.out, "summary.json")) as f:
            s = json.load(f)["summary"]
        g = (1.1 * 0.9 * 500 / 700) ** (1 / 3)
        self.assertAlmostEqual(s["static_vs_gto_time"]["ours_geomean"], g)
        self.assertIn(f"{(1 - g) * 100:.1f} % lower execution time than GTO", out)

    def test_seed001_failed_run(self):
        rc, out, err = self.run_seed("seed001", "--workloads", "scp,crashy")
        self.assertEqual(rc, 1, err + out)
        self.assertIn("crashy__gto: exit 4: warpsim: crashy: launch 0 (c): deadlock", out)
        rows = {r["name"]: r["values"] for r in self.table("fig12_exec_time_norm_gto")["rows"]}
        self.assertEqual(rows["crashy"]["lrr"], "FAIL")

    def test_seed003(self):
        rc, out, err = self.run_seed("seed003", "--workloads", "atax,mvt")
        self.assertEqual(rc, 0, err + out)
        shares = {r["name"]: r["values"] for r in self.table("fig2_resfail_shares_base")["rows"]}
        for k, v in {"CSF": 92.0, "MSHRF": 1.0, "MQF": 7.0}.items():
            self.assertAlmostEqual(shares["atax"][k], v)
        sp = {r["name"]: r["values"] for r in self.table("speedup_vs_base")["rows"]}
        self.assertAlmostEqual(sp["mvt"]["reod-8x4"], 1.25)
        self.assertEqual(sp["mvt"]["base"], 1.0)
        occ = {r["name"]: r["values"] for r in self.table("queue_occupancy")["rows"]}
        self.assertAlmostEqual(occ["atax"]["reod-8x4"], 1100 / 8000)
        qt = {r["name"]: r["values"] for r in self.table("queue_time")["rows"]}
        self.assertAlmostEqual(qt["atax"]["reod-4x4"], 7.0)   # (300 + 400) / 100
        self.assertIn("queued_cycles is 0 in every run", out)
        self.assertIn("reod-8x4     speedup over baseline  +25.0%", out)
        self.assertIn("baseline CSF   share of reservation fails   mean  92.0%   pooled  92.0%", out)
        by = {r["name"]: r["values"] for r in self.table("resfail_shares_by_config")["rows"]}
        self.assertAlmostEqual(by["reod-32x1"]["MQF"], 87.5)

    def test_seed003_needs_detailed_memory(self):
        rc, out, err = self.run_seed("seed003", "--workloads", "atax", "--set", "mem.model=simple")
        self.assertEqual(rc, 2)
        self.assertIn("REOD needs the detailed memory model", err)
        rc, out, err = self.run_seed("seed003", "--workloads", "atax", "--set", "l1d.queue_depth=2")
        self.assertEqual(rc, 2)
        self.assertIn("sets the REOD keys itself", err)

    def test_seed003_survey(self):
        rc, out, err = self.run_seed("seed003", "--survey")
        self.assertEqual(rc, 1, err + out)                    # crashy fails
        with open(os.path.join(self.out, "survey.csv")) as f:
            rows = {r["workload"]: r for r in csv.DictReader(f)}
        self.assertEqual(rows["crashy"]["chosen"], "")
        self.assertEqual(rows["crashy"]["ld_global %"], "FAIL")
        self.assertIn("atax", rows)


if __name__ == "__main__":
    unittest.main()
