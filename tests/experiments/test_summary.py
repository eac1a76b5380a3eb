"""tools/summary.py: the main job's newcomer summary and its issue-slot figure."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(os.path.dirname(os.path.dirname(HERE)), "tools", "summary.py")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "experiments"))
import plots  # noqa: E402

LAUNCH = {"kernel": "k", "cycles": 1000, "warp_insts": 500, "slot_issued": 500, "slot_scoreboard": 300,
          "slot_mem_stall": 200, "sched_slots": 1000}
DOC = {"config_source": "gtx480 + sim.mode=timing", "config": {"gpu": {"n_sm": 10}},
       "launches": [LAUNCH, dict(LAUNCH, kernel="j")],
       "total": {"cycles": 2000, "warp_insts": 1000, "sched_slots": 2000, "slot_issued": 1000,
                 "slot_scoreboard": 600, "slot_mem_stall": 400, "l1d_accesses": 100, "l1d_hits": 25,
                 "l2_accesses": 50, "l2_hits": 40, "host_seconds": 2.0}}


class Summary(unittest.TestCase):
    def test_summary(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "r.json")
            with open(p, "w") as f:
                json.dump(DOC, f)
            png = os.path.join(d, "slots.png")
            r = subprocess.run([sys.executable, TOOL, p, "--png", png], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            out = r.stdout
            for want in ("cycles            2,000", "IPC               0.500", "50.0 %  issued",
                         "30.0 %  waiting on a register", "20.0 %  LD/ST pipeline stalled",
                         "L1D hit ratio     25.0 %", "L2 hit ratio 80.0 %", "1.00k cycles/s",
                         "500 warp instructions/s"):
                self.assertIn(want, out)
            if plots.pyplot() is not None:
                self.assertIn(f"breakdown figure  {png}", out)
                self.assertTrue(os.path.exists(png) and os.path.exists(png[:-4] + ".pdf"))

    def test_functional_report(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "r.json")
            with open(p, "w") as f:
                json.dump({"launches": [], "total": {"warp_insts": 5}}, f)
            r = subprocess.run([sys.executable, TOOL, p], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0)
            self.assertIn("functional run", r.stdout)


if __name__ == "__main__":
    unittest.main()
