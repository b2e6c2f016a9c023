"""Every command path that the README, docs/, scripts/README.md, the results' READMEs and .ci/run
name still works (issue 39): each path (scripts/NAME.py, scripts/NAME.sh, .ci/NAME.sh,
.ci/NAME.py, results/.../NAME.sh, tests/scripts/NAME.py) exists, and each command among them
(scripts/*.py, scripts/*.sh, .ci/*.py) answers --help with exit 0 and its usage on stdout within
20 s, run from the checkout's root with HOME and TMPDIR in a temporary folder, changing nothing
that `git status` sees and leaving nothing in TMPDIR. Library modules (no command line) and the
few commands not to be run are exempt, each with its reason. The other paths are checked for
existence only: .ci/*.sh are CI's stages, which .ci/run runs as root in its fresh root and which
take no arguments; results/**/*.sh are the recipes of a committed result; tests/scripts/*.py are
tests."""

import glob
import importlib.util
import os
import re
import subprocess
import sys
import tempfile
import unittest

import helpers

# The texts that name commands (globs from the checkout's root).
SOURCES = ("README.md", "docs/**/*.md", "scripts/README.md", "results/**/README.md", ".ci/run")
# A command path, anchored at a character that cannot be part of a path, so that
# tests/scripts/x.py is not read as scripts/x.py, nor ../scripts/x.sh (a link's target) at all.
PATH = re.compile(r"(?<![\w./-])(?:\./)?((?:scripts|\.ci|tests/scripts)/[\w-][\w.-]*\.(?:py|sh)"
                  r"|results(?:/[\w.-]+)*/[\w-][\w.-]*\.sh)(?![\w/-]|\.\w)")
# The paths that are commands, so must answer --help (unless exempt below).
COMMAND = re.compile(r"(scripts/[^/]+\.(py|sh)|\.ci/[^/]+\.py)")
HELP_TIMEOUT = 20

# scripts/ modules that other scripts import, with no command line of their own.
LIBRARIES = {
    "scripts/ab_sequential.py": "the sequential test's statistics, imported by ab_gate.py",
    "scripts/changepoint.py": "the change-point detection, imported by track.py",
    "scripts/comops_results.py": "loads and validates results files, imported by every script",
    "scripts/em3d_figures.py": "the EM3D figure, imported by plot.py",
    "scripts/track_aggregate.py": "a commit's runs folded, imported by track.py (archive "
                                  "--aggregate)",
    "scripts/track_events.py": "one step reported once, imported by track.py",
    "scripts/track_ingest.py": "a results file as tracked points, imported by track.py",
    "scripts/track_paired.py": "the paired history, imported by track.py (track.py paired)",
    "scripts/track_report_paired.py": "the dashboard's paired section, imported by "
                                      "track_report.py",
    "scripts/track_sim_pool.py": "resampled histories, imported by track_sim.py",
    "scripts/track_store.py": "the SQLite database, imported by track.py",
}
# Commands not run with --help at all: at most a handful, each with its reason.
EXEMPT = {
    ".ci/run": "CI itself: as root it builds a fresh Debian root with mmdebstrap and runs the "
               "README's commands in it; it takes no arguments",
    ".ci/fresh_root.sh": "a library of functions that .ci/run sources; no command line",
}
MAIN = re.compile(r"^if __name__ == ['\"]__main__['\"]:", re.M)


def source_files():
    """The texts that name commands, relative to the checkout's root, sorted."""
    found = set()
    for pattern in SOURCES:
        found.update(os.path.relpath(p, helpers.REPO)
                     for p in glob.glob(os.path.join(helpers.REPO, pattern), recursive=True))
    return sorted(found)


def named_paths(text):
    """The command paths a text names, in order, with repeats."""
    return [m.group(1) for m in PATH.finditer(text)]


def occurrences():
    """{path: ["doc:line", ...]} over every text that names commands."""
    found = {}
    for doc in source_files():
        with open(os.path.join(helpers.REPO, doc), encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                for path in named_paths(line):
                    found.setdefault(path, []).append(f"{doc}:{number}")
    return found


def commands():
    """The named paths that must answer --help, sorted (a missing one is the other test's)."""
    return sorted(p for p in occurrences()
                  if COMMAND.fullmatch(p) and p not in LIBRARIES and p not in EXEMPT
                  and os.path.isfile(os.path.join(helpers.REPO, p)))


def git_status():
    """The checkout's changed and untracked files (read only: no index refresh written)."""
    return subprocess.run(["git", "-C", helpers.REPO, "status", "--porcelain",
                           "--untracked-files=all"], capture_output=True, text=True,
                          env=dict(os.environ, GIT_OPTIONAL_LOCKS="0"), check=True,
                          timeout=60).stdout.splitlines()


def run_help(path, home, tmp):
    """Runs PATH --help from the checkout's root (Python scripts with this interpreter, others
    directly, as the docs do) in a session of its own, killed with what it started on timeout."""
    cmd = [sys.executable, path] if path.endswith(".py") else [os.path.join(".", path)]
    env = dict(HOME=home, TMPDIR=tmp, PYTHONDONTWRITEBYTECODE="1", MPLBACKEND="Agg")
    return helpers.run_command(cmd + ["--help"], env=env, timeout=HELP_TIMEOUT, cwd=helpers.REPO,
                               stdin=subprocess.DEVNULL)


class DocumentedPathTest(unittest.TestCase):
    def test_the_pattern_takes_whole_paths_only(self):
        text = ("run tests/scripts/run_tests.py, ./scripts/plot.py and `scripts/setup.sh`; "
                "[a](../scripts/bisect.sh) $repo/scripts/a.sh scripts/track.py's .ci/skips.py "
                "(.ci/openmpi.sh) results/ab/placement/analyze.sh scripts/x.py.bak "
                "*scripts/ab_job.sh* bench/harness_overhead.sh xscripts/y.sh")
        self.assertEqual(named_paths(text), [
            "tests/scripts/run_tests.py", "scripts/plot.py", "scripts/setup.sh",
            "scripts/track.py", ".ci/skips.py", ".ci/openmpi.sh",
            "results/ab/placement/analyze.sh", "scripts/ab_job.sh"])

    def test_the_texts_name_the_known_commands(self):
        sources = source_files()
        for doc in ("README.md", "docs/contributing.md", "scripts/README.md", "results/README.md",
                    ".ci/run"):
            self.assertIn(doc, sources)
        found = occurrences()
        for path in ("scripts/setup.sh", "scripts/plot.py", ".ci/skips.py", ".ci/tracking.sh",
                     "results/ab/measure.sh", "tests/scripts/run_tests.py"):
            self.assertIn(path, found)

    def test_every_named_path_exists(self):
        missing = [f"{where}: {path}" for path, places in sorted(occurrences().items())
                   if not os.path.isfile(os.path.join(helpers.REPO, path)) for where in places]
        if missing:
            self.fail("named but missing (fix the text, or the path):\n" + "\n".join(missing))

    def test_library_modules_have_no_command_line(self):
        for path, reason in LIBRARIES.items():
            with self.subTest(path=path):
                self.assertTrue(reason)
                with open(os.path.join(helpers.REPO, path), encoding="utf-8") as f:
                    self.assertIsNone(MAIN.search(f.read()), f"{path} has a command line")
        # and every module of scripts/ without one is listed, so none passes unnoticed
        for full in glob.glob(os.path.join(helpers.SCRIPTS, "*.py")):
            path = os.path.relpath(full, helpers.REPO)
            with open(full, encoding="utf-8") as f:
                if not MAIN.search(f.read()):
                    self.assertIn(path, LIBRARIES)

    def test_exemptions_are_few_and_exist(self):
        self.assertLessEqual(len(EXEMPT), 5)
        for path, reason in EXEMPT.items():
            with self.subTest(path=path):
                self.assertTrue(reason)
                self.assertTrue(os.path.isfile(os.path.join(helpers.REPO, path)))


@unittest.skipUnless(all(importlib.util.find_spec(m) for m in ("numpy", "scipy")),
                     "numpy or scipy is missing (apt-get install python3-numpy python3-scipy): "
                     "most scripts import them")
class CommandHelpTest(unittest.TestCase):
    def setUp(self):
        try:
            self.status = git_status()
        except (OSError, subprocess.CalledProcessError) as e:
            self.skipTest(f"no git status of {helpers.REPO} ({e}): a checkout is needed")

    def test_every_command_answers_help_on_stdout(self):
        names = commands()
        self.assertGreaterEqual(len(names), 20, names)
        for path in names:
            with self.subTest(path=path), tempfile.TemporaryDirectory(
                    prefix="comops-help-") as tmp:
                home, tmpdir = os.path.join(tmp, "home"), os.path.join(tmp, "tmp")
                os.mkdir(home)
                os.mkdir(tmpdir)
                if path.endswith(".sh"):
                    self.assertTrue(os.access(os.path.join(helpers.REPO, path), os.X_OK),
                                    f"{path} is not executable")
                proc = run_help(path, home, tmpdir)
                before, self.status = self.status, git_status()  # a change is this command's
                said = f"\n--- stdout:\n{proc.stdout}--- stderr:\n{proc.stderr}"
                self.assertEqual(proc.returncode, 0, f"{path} --help exited {proc.returncode}"
                                 + said)
                name = re.escape(os.path.basename(path))
                self.assertRegex(proc.stdout, re.compile(rf"^\s*usage:.*\b{name}\b", re.I | re.M),
                                 f"{path} --help printed no usage line on stdout" + said)
                self.assertEqual(os.listdir(tmpdir), [], f"{path} --help left files in TMPDIR")
                self.assertEqual(self.status, before, f"{path} --help changed the checkout")


if __name__ == "__main__":
    unittest.main()
