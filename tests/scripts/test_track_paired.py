"""track.py paired archive / paired check (scripts/track_paired.py): the A/B gate's verdicts, one
per commit against its parent, kept as a history; each step reported once at its commit, an
accepted one as accepted, the chain's breaks, the levels as the ratios' product, the refusals;
ab_gate.py's log_se; the dashboard's section; .ci/paired_history.sh; track_sim_paired.py on the
measured rounds."""

import json
import math
import os
import shutil
import subprocess
import tempfile

import synth
from helpers import REPO, TempDirTest, run_script
from test_ab_gate import PINGPONG, POINTS, SLOW, write_rounds

import ab_gate
import track_paired

DATES = ["2026-12-01T00:00:00Z", "2026-12-02T00:00:00Z", "2026-12-03T00:00:00Z"]


class VerdictRounds(TempDirTest):
    """Verdicts of the real gate on rounds of the fake comops (test_ab_gate.py's): 40 rounds
    unchanged and 40 with the ping-pong 5 % slower, written once for the class."""

    @classmethod
    def setUpClass(cls):
        cls.shared = tempfile.mkdtemp(prefix="comops-paired-rounds-")
        try:
            write_rounds(os.path.join(cls.shared, "same"), 40)
            write_rounds(os.path.join(cls.shared, "slower"), 40, SLOW)
        except BaseException:
            shutil.rmtree(cls.shared)
            raise

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.shared)

    def verdict(self, name, base, head, head_env=None, accept=None):
        rounds = os.path.join(self.shared, "slower" if head_env else "same")
        extra = ["--accept", f"{PINGPONG} {accept}"] if accept else []
        proc = run_script("ab_gate.py", rounds, "--base-rev", base, "--head-rev", head, "--out",
                          self.path(f"out-{name}"), *extra)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        return self.path(f"out-{name}", "ab.json"), os.path.join(rounds, "head-001.json")


class PairedHistoryTest(VerdictRounds):

    def archive(self, verdict, date, *extra):
        ab, head_run = verdict
        os.makedirs(self.path("paired"), exist_ok=True)
        return run_script("track.py", "paired", "archive", ab, "--head-run", head_run,
                          "--dir", self.path("paired"), "--date", date, *extra)

    def check(self, *extra):
        return run_script("track.py", "paired", "check", "--dir", self.path("paired"), *extra)

    def chain(self, slowed_commit, accept=None):
        """c0 <- c1 <- c2 <- c3, the job of slowed_commit with a 5 % slower ping-pong."""
        for i, date in enumerate(DATES, start=1):
            env = SLOW if i == slowed_commit else None
            verdict = self.verdict(f"c{i}", f"c{i - 1}", f"c{i}", env,
                                   accept if i == slowed_commit else None)
            proc = self.archive(verdict, date)
            self.assertEqual(proc.returncode, 0, proc.stderr)

    def test_a_step_is_reported_once_at_its_commit(self):
        self.chain(slowed_commit=2)
        self.assertEqual(sorted(os.listdir(self.path("paired"))),
                         ["20261201T000000Z-c1.json", "20261202T000000Z-c2.json",
                          "20261203T000000Z-c3.json"])
        proc = self.check()
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        lines = proc.stdout.splitlines()
        self.assertRegex(lines[0], r"^paired history of machine m[0-9a-f]{6}: 3 entries, newest "
                                   "c3 against c2$")
        self.assertRegex(lines[1], rf"^slower at c2 \(against c1, 2026-12-02T00:00:00Z\): "
                                   rf"{PINGPONG} ratio 1\.0[4-6]\d \[1\.0\d\d, 1\.\d\d\d\]$")
        self.assertEqual(lines[2], "level since c0 (product of the ratios, approximate 95 % "
                                   "interval):")
        self.assertEqual([line.split(": ")[0].strip() for line in lines[3:6]], POINTS)
        self.assertRegex(lines[3], r"x1\.0[4-6]\d \[1\.0\d\d, 1\.0\d\d\] over 3 commits$")
        self.assertEqual(lines[-1], "verdict: no regression at c3")
        self.assertEqual(len(lines), 7)
        self.assertEqual(proc.stderr, "")

    def test_the_newest_commit_slower_is_red(self):
        self.chain(slowed_commit=3)
        proc = self.check()
        self.assertEqual(proc.returncode, 1, proc.stdout)
        self.assertEqual(proc.stdout.splitlines()[-1], f"verdict: regression at c3: {PINGPONG}")
        self.assertEqual(proc.stderr, f"track.py: the newest commit c3 is slower than its "
                                      f"parent: {PINGPONG}\n")
        proc = self.check("--report-only", "--json")
        self.assertEqual(proc.returncode, 0)
        found = json.loads(proc.stdout)
        self.assertEqual((found["red"], found["failing"], found["exit_status"]),
                         (True, [PINGPONG], 0))
        self.assertEqual([(s["commit"], s["point"]) for s in found["steps"]], [("c3", PINGPONG)])
        self.assertTrue(proc.stderr.endswith("(report only)\n"), proc.stderr)

    def test_an_accepted_step_is_recorded_and_passes(self):
        self.chain(slowed_commit=3, accept="a checksum pass, reviewed")
        proc = self.check()
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        (line,) = [x for x in proc.stdout.splitlines() if x.startswith("accepted at c3 ")]
        self.assertTrue(line.endswith("; Accept-slowdown: a checksum pass, reviewed"), line)
        self.assertEqual(proc.stdout.splitlines()[-1], "verdict: no regression at c3")

    def test_the_entry_keeps_the_verdict(self):
        verdict = self.verdict("c1", "c0", "c1", SLOW)
        proc = self.archive(verdict, DATES[0])
        target = self.path("paired", "20261201T000000Z-c1.json")
        self.assertEqual(proc.stdout, f"{target}\n")
        with open(target) as f:
            entry = json.load(f)
        with open(verdict[0]) as f:
            ab = json.load(f)
        self.assertEqual((entry["schema"], entry["base"], entry["head"], entry["head_sha"],
                          entry["date"]),
                         ("comops-paired-history/1", "c0", "c1", "fake", DATES[0]))
        self.assertEqual(entry["fingerprint"]["options"]["entry"], "paired A/B")
        self.assertEqual(entry["gate"]["verdict"], "slower")
        self.assertEqual(entry["gate"]["rounds"], 40)
        self.assertEqual(entry["points"], [{k: p[k] for k in track_paired.POINT_FIELDS}
                                           for p in ab["points"]])
        self.assertTrue(all(p["log_se"] > 0 for p in entry["points"]))
        again = self.archive(verdict, DATES[0])
        self.assertEqual((again.returncode, again.stdout), (0, f"{target}: already there\n"))
        with open(verdict[0], "w") as f:
            json.dump(dict(ab, rounds=41), f)
        clash = self.archive(verdict, DATES[0])
        self.assertOneLineError(clash, "exists with other content; not replaced")
        self.assertEqual(clash.returncode, 2)

    def test_a_break_in_the_chain_restarts_the_level(self):
        for name, base, head, date in (("a", "c0", "c1", DATES[0]), ("b", "x9", "c2", DATES[1])):
            self.assertEqual(self.archive(self.verdict(name, base, head), date).returncode, 0)
        proc = self.check()
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("chain broken at c2: its base x9 is not the head of the entry before (c1); "
                      "the level starts again there", proc.stdout.splitlines())
        self.assertIn("level since x9 (product of the ratios, approximate 95 % interval):",
                      proc.stdout)
        self.assertRegex(proc.stdout, r"over 1 commits\n")

    def test_the_dashboard_shows_steps_and_levels(self):
        self.chain(slowed_commit=2)
        run = synth.write(self.path("run.json"), {
            "comops_format": 1, "context": synth.context(git_sha="c3", date=DATES[2]),
            "results": [synth.row("mpi", "pingpong", 2, 8, [3.0] * 3)]})
        db = self.path("h.sqlite")
        self.assertEqual(run_script("track.py", "add", "--db", db, run).returncode, 0)
        proc = run_script("track.py", "report", "--db", db, "-o", self.path("site"), "--paired",
                          self.path("paired"))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(self.path("site", "index.html")) as f:
            page = f.read()
        self.assertIn('<section class="paired" id="paired">', page)
        self.assertIn("3 entries of machine m", page)
        self.assertIn("verdict: <strong>no regression at c3</strong>", page)
        self.assertRegex(page, rf'<tr><td class="commit">c2</td><td class="commit">c1</td><td>'
                               rf'{DATES[1]}</td><td>{PINGPONG}</td><td class="num">1\.0\d\d '
                               r'\[1\.0\d\d, 1\.\d\d\d\]</td><td class="regression">slower</td>')
        self.assertRegex(page, rf"<tr><td>{PINGPONG}</td><td class=\"num\">x1\.0\d\d "
                               r"\[1\.0\d\d, 1\.0\d\d\]</td><td class=\"num\">3</td></tr>")
        proc = run_script("track.py", "report", "--db", db, "-o", self.path("site2"), "--paired",
                          self.path("none"))
        self.assertOneLineError(proc, "none: no such directory")
        self.assertFalse(os.path.exists(self.path("site2")))

    def test_refusals(self):
        ab, head_run = self.verdict("c1", "c0", "c1")
        proc = self.archive((head_run, head_run), DATES[0])
        self.assertOneLineError(proc, "head-001.json: not a verdict of the sequential A/B gate")
        self.assertEqual(proc.returncode, 2)
        proc = run_script("track.py", "paired", "archive", ab, "--head-run", head_run, "--dir",
                          self.path("paired"))
        self.assertOneLineError(proc, "head-001.json: no date")  # the fake writes none
        os.makedirs(self.path("paired"), exist_ok=True)
        proc = self.check()
        self.assertOneLineError(proc, "paired: no paired entry (*.json) in it")
        self.assertEqual(proc.returncode, 2)
        with open(self.path("paired", "run.json"), "w") as f:
            json.dump({"comops_format": 1, "context": {}, "results": []}, f)
        self.assertOneLineError(self.check(), "run.json: a run's history file, not a paired "
                                "entry (track.py add and check read those)")
        with open(self.path("paired", "run.json"), "w") as f:
            json.dump({"schema": "comops-paired-history/0"}, f)
        self.assertOneLineError(self.check(), "run.json: not a paired history entry (schema "
                                '"comops-paired-history/0", this track.py reads '
                                "comops-paired-history/1)")
        os.remove(self.path("paired", "run.json"))
        self.assertEqual(self.archive((ab, head_run), DATES[0]).returncode, 0)
        proc = self.check("--machine", "m000000")
        self.assertOneLineError(proc, "no paired entry of machine m000000 (there are: m")
        proc = run_script("track.py", "paired", "check", "--dir", self.path("none"))
        self.assertOneLineError(proc, "none: no such directory")


class LevelTest(TempDirTest):
    def entry(self, base, head, ratio, se, decision="same"):
        return {"base": base, "head": head, "date": "2026-01-01T00:00:00Z", "machine": "m",
                "points": [{"point": "p", "decision": decision, "accepted": None,
                            "ratio": ratio, "ci_low": ratio and ratio - 0.01,
                            "ci_high": ratio and ratio + 0.01,
                            "log_se": se, "used": 30, "pairs": 32}]}

    def test_the_level_is_the_product_with_the_errors_added(self):
        entries = [self.entry("c0", "c1", 1.1, 0.01), self.entry("c1", "c2", 1.0, 0.02),
                   self.entry("c2", "c3", 0.9, 0.02)]
        level = track_paired.check(entries)["levels"]["p"]
        self.assertAlmostEqual(level["level"], 0.99)
        half = 1.959964 * 0.03
        self.assertAlmostEqual(level["low"], 0.99 * math.exp(-half))
        self.assertAlmostEqual(level["high"], 0.99 * math.exp(half))
        self.assertEqual(level["entries"], 3)

    def test_an_unjudged_entry_leaves_no_level(self):
        entries = [self.entry("c0", "c1", 1.1, 0.01), self.entry("c1", "c2", None, None,
                                                                 "not judged")]
        found = track_paired.check(entries)
        self.assertIsNone(found["levels"]["p"])
        self.assertEqual(found["not_judged"], ["p"])
        self.assertIn("  p: no level (an entry did not judge it)",
                      track_paired.report_lines(found))

    def test_median_log_se(self):
        self.assertAlmostEqual(ab_gate.median_log_se([0.0, 0.1, 0.2]),
                               math.sqrt(math.pi / 2) * 0.1 / math.sqrt(3))
        self.assertIsNone(ab_gate.median_log_se([0.1]))


class SimulationTest(TempDirTest):
    ROUNDS = os.path.join(REPO, "results", "ab", "placement", "rounds.json.gz")

    def test_a_25_percent_step_on_the_measured_rounds(self):
        proc = run_script("track_sim_paired.py", self.ROUNDS, "--trials", "1", "--commits", "9",
                          "--scenario", "step25", "--out", self.path("sim"))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(self.path("sim", "simulation.json")) as f:
            sim = json.load(f)
        (summary,) = sim["summaries"]
        self.assertEqual(summary["red_at_step"], {"count": 1, "of": 1, "rate": 1.0})
        self.assertEqual(summary["stepped_found_at_commit"], {"count": 1, "of": 1, "rate": 1.0})
        (trial,) = sim["trials"]["step25"]
        self.assertEqual(len(trial["checks"]), 9)
        self.assertEqual([c["changed"] for c in trial["checks"]], [c["commit"] == 4
                                                                    for c in trial["checks"]])
        self.assertIn([4, trial["stepped"][0]], trial["steps"])
        self.assertAlmostEqual(trial["truth"], 1.25)
        with open(self.path("sim", "README.md")) as f:
            self.assertIn("| step25 | 100 % (1/1) |", f.read())

    def test_bad_usage(self):
        proc = run_script("track_sim_paired.py", self.ROUNDS, "--commits", "5")
        self.assertOneLineError(proc, "--commits 5 leaves no commit after the step")
        self.assertEqual(proc.returncode, 2)
        proc = run_script("track_sim_paired.py", self.path("none.json.gz"))
        self.assertOneLineError(proc, "none.json.gz: not a rounds file")
        self.assertEqual(proc.returncode, 2)


class CiStageTest(VerdictRounds):
    """.ci/paired_history.sh in a tree of its own (.ci/ and scripts/ copied): the gate's verdict
    kept and the history checked, report-only."""

    def tree(self):
        root = self.path("tree")
        shutil.copytree(os.path.join(REPO, "scripts"), os.path.join(root, "scripts"),
                        ignore=shutil.ignore_patterns("__pycache__", "sim_cluster"))
        os.makedirs(os.path.join(root, ".ci"))
        shutil.copy(os.path.join(REPO, ".ci", "paired_history.sh"), os.path.join(root, ".ci"))
        os.makedirs(os.path.join(root, "build", "ab", "rounds"))
        return root

    def stage(self, root):
        return subprocess.run(["bash", os.path.join(root, ".ci", "paired_history.sh")],
                              capture_output=True, text=True, timeout=300)

    def test_keeps_the_verdict_and_checks_report_only(self):
        root = self.tree()
        ab, head_run = self.verdict("c1", "c0", "c1", SLOW)
        shutil.copy(ab, os.path.join(root, "build", "ab", "ab.json"))
        with open(head_run) as f:
            run = json.load(f)
        run["context"]["date"] = DATES[0]
        with open(os.path.join(root, "build", "ab", "rounds", "head-001.json"), "w") as f:
            json.dump(run, f)
        proc = self.stage(root)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(os.listdir(os.path.join(root, "results", "history", "paired")),
                         ["20261201T000000Z-c1.json"])
        self.assertEqual(proc.stdout.splitlines()[-1], f"verdict: regression at c1: {PINGPONG}")
        self.assertIn("(report only)", proc.stderr)

    def test_no_verdict_no_entry(self):
        root = self.tree()
        proc = self.stage(root)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("the gate judged no round; nothing to keep", proc.stdout)
        self.assertFalse(os.path.exists(os.path.join(root, "results")))
