"""scripts/team_ratios.py on synthetic results: the exact ping-pong and process-over-thread
tables (a wrong row left out, flags shown, mpi beside), and its refusals (one line, exit 2)."""

import json
import unittest

import helpers
import synth


def results(rows, rtt=0.05):
    ctx = synth.context(limits={"cacheline_rtt_us": rtt, "cacheline_cores": [0, 1]})
    return {"comops_format": 1, "context": ctx, "results": rows}


ROWS = [
    synth.row("shm-direct", "pingpong", 2, 8, [0.052] * 3),
    synth.row("shmp-direct", "pingpong", 2, 8, [0.055] * 3),
    synth.row("shm-direct", "broadcast", 2, 65536, [10.0] * 3),
    synth.row("shmp-direct", "broadcast", 2, 65536, [10.5] * 3),
    synth.row("mpi", "broadcast", 2, 65536, [40.0] * 3),
    synth.row("shm-direct", "gather", 2, 1048576, [100.0] * 3),
    synth.row("shmp-direct", "gather", 2, 1048576, [125.0] * 3, contended=True),
    # Below --min-bytes: not compared.
    synth.row("shm-direct", "gather", 2, 8192, [1.0] * 3),
    synth.row("shmp-direct", "gather", 2, 8192, [9.0] * 3),
    # A wrong result: left out, so its pair is not compared.
    synth.row("shm-staged", "scatter", 2, 65536, [12.0] * 3),
    synth.row("shmp-staged", "scatter", 2, 65536, [1.0] * 3, wrong=3),
]


class TeamRatiosTest(helpers.TempDirTest):
    def run_on(self, rows, *args, rtt=0.05):
        path = self.path("results.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(results(rows, rtt), f)
        return helpers.run_script("team_ratios.py", path, *args)

    def test_tables(self):
        proc = self.run_on(ROWS)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        lines = proc.stdout.splitlines()
        self.assertIn("Cache-line round trip: 0.05 us.", lines)
        self.assertIn("| direct | threads | 2 | 0.052 | 1.04x |", lines)
        self.assertIn("| direct | processes | 2 | 0.055 | 1.10x |", lines)
        i = lines.index("| op | scheme | np | bytes | threads us | processes us | "
                        "processes / threads | within goal | mpi us |")
        self.assertEqual(lines[i + 2:i + 4], [
            "| broadcast | direct | 2 | 64K | 10 | 10.5 | 1.050 | yes | 40 |",
            "| gather | direct | 2 | 1M | 100 | 125 C | 1.250 | no |  |"])
        self.assertEqual(lines[i + 4], "")
        self.assertIn("2 points compared, 1 within goal, 1 over it.", lines)

    def test_min_bytes_and_tolerance(self):
        proc = self.run_on(ROWS, "--min-bytes", "8K", "--tolerance", "0.3", "--out",
                           self.path("out.md"))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(proc.stdout, "")
        with open(self.path("out.md"), encoding="utf-8") as f:
            lines = f.read().splitlines()
        self.assertIn("| gather | direct | 2 | 8K | 1 | 9 | 9.000 | no |  |", lines)
        self.assertIn("| gather | direct | 2 | 1M | 100 | 125 C | 1.250 | yes |  |", lines)
        self.assertIn("3 points compared, 2 within goal, 1 over it.", lines)

    def test_refusals(self):
        proc = self.run_on([r for r in ROWS if r["backend"].startswith("shm-")])
        self.assertOneLineError(proc, "needs rows of both shm-SCHEME and shmp-SCHEME")
        proc = helpers.run_script("team_ratios.py", self.path("missing.json"))
        self.assertOneLineError(proc, "missing.json: no such file")
        proc = self.run_on(ROWS, "--min-bytes", "lots")
        self.assertOneLineError(proc, "--min-bytes", "not a size")
        proc = self.run_on(ROWS, "--tolerance", "-1")
        self.assertOneLineError(proc, "--tolerance must be a fraction")


if __name__ == "__main__":
    unittest.main()
