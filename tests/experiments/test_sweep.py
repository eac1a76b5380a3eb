"""Tests of experiments/sweep.py and experiments/sweep (sweep files, expansion, reuse,
the tidy CSV, failure handling). A fake warpsim (test_common.FAKE) stands in for the
simulator; the Slurm backend's end-to-end test is tests/sweep/slurm_e2e.py."""
import csv
import io
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
EXP = os.path.join(os.path.dirname(os.path.dirname(HERE)), "experiments")
sys.path.insert(0, EXP)
sys.path.insert(0, HERE)
import sweep as S  # noqa: E402
import sweep_slurm  # noqa: E402
from test_common import make_fake  # noqa: E402

HAVE_TOML = S.tomllib is not None

SPEC = """
name = "t"
workloads = ["good1", "good2"]
sizes = ["small"]
policies = ["lrr", "gto"]
set = ["mem.model=simple"]
[matrix]
"l1d.mshr_entries" = [16, 32]
"""


@unittest.skipUnless(HAVE_TOML, "needs Python 3.11 (tomllib)")
class TestExpand(unittest.TestCase):
    def sweep(self, text):
        with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as f:
            f.write(text)
        self.addCleanup(os.remove, f.name)
        return S.load(f.name)

    def test_cross_product_in_order(self):
        runs = self.sweep(SPEC).runs()
        self.assertEqual(len(runs), 2 * 2 * 2)
        self.assertEqual(runs[0].name, "good1__small__gtx480__lrr__l1d.mshr_entries=16")
        self.assertEqual(runs[1].name, "good1__small__gtx480__lrr__l1d.mshr_entries=32")
        self.assertEqual(runs[-1].name, "good2__small__gtx480__gto__l1d.mshr_entries=32")
        self.assertEqual(runs[1].config.args, ["--mode", "timing", "--config", "gtx480", "--set",
                                               "mem.model=simple", "--set", "l1d.mshr_entries=32",
                                               "--sched", "lrr"])
        self.assertEqual(runs[1].workload_args, ["--size", "small", "--quiet"])

    def test_variants_and_defaults(self):
        sw = self.sweep('workloads = "good1"\n[[variant]]\nname = "base"\nset = ["a.b=0"]\n'
                        '[[variant]]\nname = "q8"\nset = ["a.b=8", "a.c=true"]\n')
        runs = sw.runs()
        self.assertEqual([r.name for r in runs], ["good1__default__gtx480__default__base",
                                                  "good1__default__gtx480__default__q8"])
        self.assertNotIn("--sched", runs[0].config.args)
        self.assertEqual(runs[1].config.args[-4:], ["--set", "a.b=8", "--set", "a.c=true"])

    def test_bool_matrix_value(self):
        runs = self.sweep('workloads = ["good1"]\n[matrix]\n"core.skip_idle" = [true, false]\n').runs()
        self.assertEqual([r.matrix["core.skip_idle"] for r in runs], ["1", "0"])

    def test_errors(self):
        for text, what in (('workloads = []', "empty"), ('sizes = ["small"]', "required"),
                           ('workloads = ["a"]\nbogus = 1', "unknown key"),
                           ('workloads = ["a"]\nset = ["nokey"]', "key=value"),
                           ('workloads = ["a"]\nmode = "fast"', "mode"),
                           ('workloads = ["a"]\n[slurm]\nqueue = "x"', "unknown [slurm]"),
                           ('workloads = ["a", "a"]', "same name"),
                           ('workloads = [', "TOML")):
            with self.assertRaises(S.SweepError, msg=text) as cm:
                self.sweep(text).runs()
            self.assertIn(what, str(cm.exception))


@unittest.skipUnless(HAVE_TOML, "needs Python 3.11 (tomllib)")
class TestRunAndGather(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.d = self.tmp.name
        self.warpsim = make_fake(self.d)
        self.log = os.path.join(self.d, "argv.log")
        os.environ["FAKE_LOG"] = self.log
        self.out = os.path.join(self.d, "out")

    def write(self, text):
        p = os.path.join(self.d, "s.toml")
        with open(p, "w") as f:
            f.write(text)
        return p

    def cli(self, *args):
        return subprocess.run([sys.executable, os.path.join(EXP, "sweep"), *args, "--warpsim", self.warpsim,
                               "--out", self.out], capture_output=True, text=True,
                              env=dict(os.environ, FAKE_LOG=self.log))

    def nruns(self):
        if not os.path.exists(self.log):
            return 0
        with open(self.log) as f:
            return len(f.read().splitlines())

    def text(self):
        with open(os.path.join(self.out, "results.csv")) as f:
            return f.read()

    def rows(self):
        with open(os.path.join(self.out, "results.csv"), newline="") as f:
            return list(csv.DictReader(f))

    def test_run_reuse_and_csv_schema(self):
        p = self.write(SPEC)
        r = self.cli("run", p, "-j", "2", "--quiet")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.strip(), os.path.join(self.out, "results.csv"))
        self.assertEqual(self.nruns(), 8)
        with open(os.path.join(self.out, "results.csv"), newline="") as f:
            header = next(csv.reader(f))
        self.assertEqual(header[:11], S.RUN_COLUMNS + ["set.l1d.mshr_entries"] + S.STATUS_COLUMNS)
        self.assertEqual(len(header), len(set(header)))
        rows = self.rows()
        self.assertEqual(len(rows), 8)      # one launch per run
        self.assertEqual(rows[0]["run"], "good1__small__gtx480__lrr__l1d.mshr_entries=16")
        self.assertEqual(rows[0]["status"], "ok")
        self.assertEqual(rows[0]["launch"], "0")
        self.assertEqual(rows[0]["kernel"], "k")
        self.assertEqual(rows[0]["set.l1d.mshr_entries"], "16")
        self.assertNotIn("mem", header)     # objects are not columns
        # a second run reuses everything; listing says so; a changed sweep runs only what is new
        first = self.text()
        r = self.cli("run", p, "--quiet")
        self.assertEqual(r.returncode, 0)
        self.assertEqual(self.nruns(), 8)
        self.assertEqual(self.text(), first)
        self.assertIn("0 to run, 8 reusable", self.cli("list", p).stdout)
        self.write(SPEC.replace("[16, 32]", "[16, 32, 64]"))
        r = self.cli("run", p, "--quiet")
        self.assertEqual(self.nruns(), 12)
        self.assertIn("4 ran, 8 reused", r.stderr)
        r = self.cli("run", p, "--quiet", "--force")
        self.assertEqual(self.nruns(), 24)

    def test_failed_runs_are_reported_never_numbers(self):
        p = self.write('workloads = ["good1", "fail", "crash", "badlaunch", "nojson"]\nsizes = ["small"]\n')
        r = self.subprocess_known(p)
        self.assertEqual(r.returncode, 1, r.stderr)
        rows = {x["workload"]: x for x in self.rows()}
        self.assertEqual(rows["good1"]["status"], "ok")
        self.assertNotEqual(rows["good1"]["cycles"], "")
        stats = [h for h in rows["good1"] if h not in S.RUN_COLUMNS + S.STATUS_COLUMNS]
        for w, why in (("fail", "FAIL (3 mismatches)"), ("crash", "warpsim: illegal address"),
                       ("badlaunch", "illegal_address"), ("nojson", "no readable JSON")):
            self.assertEqual(rows[w]["status"], "FAIL", w)
            self.assertIn(why, rows[w]["error"])
            self.assertTrue(all(rows[w][h] == "" for h in stats), w)
            self.assertIn(f"FAIL {w}__small__gtx480__default: ", r.stderr)
        # a failed run is not reused: it runs again
        n = self.nruns()
        self.subprocess_known(p)
        self.assertEqual(self.nruns(), n + 4)

    def subprocess_known(self, p):
        # the fake's `list` knows good1/good2 only: gather/run of other names goes
        # through the module API (the CLI checks names against `warpsim list`)
        sw = S.load(p)
        runs = sw.runs()
        S.run_local(self.warpsim, self.out, runs, jobs=2, quiet=True)
        header, rows = S.gather(self.out, runs, C_digest(self.warpsim), sw.matrix_keys)
        S.write_csv(os.path.join(self.out, "results.csv"), header, rows)
        fails = [r for r in rows if r[header.index("status")] == "FAIL"]
        err = "".join(f"FAIL {r[0]}: {r[header.index('error')]}\n" for r in fails)
        return subprocess.CompletedProcess([], 1 if fails else 0, "", err)

    def test_unknown_workload_is_a_setup_error(self):
        r = self.cli("run", self.write('workloads = ["nosuch"]\n'), "--quiet")
        self.assertEqual(r.returncode, 2)
        self.assertIn("unknown workload(s) nosuch", r.stderr)

    def test_task_dies_without_status_is_a_failure_with_reason(self):
        sw = S.load(self.write('workloads = ["good1"]\n'))
        runs = sw.runs()
        header, rows = S.gather(self.out, runs, "", sw.matrix_keys)
        self.assertEqual(rows[0][header.index("status")], "FAIL")
        self.assertIn("no result", rows[0][header.index("error")])


class TestProgress(unittest.TestCase):
    class Stream(io.StringIO):
        def __init__(self, tty):
            super().__init__()
            self.tty = tty

        def isatty(self):
            return self.tty

    def test_terminal_line(self):
        st = self.Stream(True)
        p = S.Progress(4, stream=st)
        p.reused = 1
        p.update(1, 0, "reused a")
        p.update(3, 1, "FAIL b")
        self.assertIn(" ETA ", st.getvalue())
        p.update(4, 1, "ok c")
        p.finish()
        out = st.getvalue()
        self.assertIn("\r\033[K[sweep] 3/4 done, 1 failed, ", out)
        self.assertTrue(out.endswith("elapsed\n"))        # no ETA once all are done
        self.assertNotIn("FAIL b", out)

    def test_not_a_terminal_and_quiet(self):
        st = self.Stream(False)
        p = S.Progress(2, stream=st)
        p.update(1, 1, "FAIL x  why")
        p.finish()
        self.assertEqual(st.getvalue(), "[1/2] FAIL x  why\n")
        st = self.Stream(True)
        p = S.Progress(2, quiet=True, stream=st)
        p.update(1, 0, "ok y")
        p.tick()
        p.finish()
        self.assertEqual(st.getvalue(), "")


class TestSlurmPieces(unittest.TestCase):
    def test_sbatch_argv(self):
        argv = sweep_slurm.sbatch_argv({"partition": "gpu", "time": "1:00:00", "mem": "4G", "max_parallel": 50,
                                        "sbatch_args": ["--account=a1"]}, 10, "/x/t.sh", "/x", "s")
        self.assertEqual(argv, ["sbatch", "--parsable", "--job-name=ws-s", "--output=/x/%A_%a.out",
                                "--array=0-9%50", "--partition=gpu", "--time=1:00:00", "--mem=4G",
                                "--account=a1", "/x/t.sh"])

    def test_unavailable_is_a_clear_error(self):
        old = os.environ.get("PATH", "")
        os.environ["PATH"] = "/nonexistent"
        try:
            self.assertIn("sbatch", sweep_slurm.available())
            with self.assertRaises(S.SweepError):
                sweep_slurm.run_slurm("/bin/true", tempfile.gettempdir(), [], {})
        finally:
            os.environ["PATH"] = old


def C_digest(p):
    return S.C.file_digest(p)


if __name__ == "__main__":
    unittest.main()
