"""scripts/examples/github-actions-comops.yml, the GitHub Actions workflow for users' CI: parsed
with PyYAML (python3-yaml), its steps in order, and every command it runs present in this tree
(scripts, track.py subcommands and their options, comops options)."""

import os
import re
import shlex
import unittest

import helpers
from helpers import run_script

try:
    import yaml
except ImportError:
    yaml = None

WORKFLOW = os.path.join(helpers.SCRIPTS, "examples", "github-actions-comops.yml")
AB_JOB = os.path.join(helpers.SCRIPTS, "ab_job.sh")
needs_yaml = unittest.skipIf(yaml is None, "PyYAML is missing (apt-get install python3-yaml)")


def load():
    with open(WORKFLOW, encoding="utf-8") as f:
        return yaml.safe_load(f)


def steps():
    return load()["jobs"]["ab"]["steps"]


def commands(step):
    """The shell commands of a run step, continuation lines joined, comments and control lines
    (if ...; fi) left out."""
    text = re.sub(r"\\\n\s*", " ", step.get("run", ""))
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#") and not line.startswith("if "):
            out.extend(part.strip() for part in line.split("|"))
    return out


def step_index(predicate, what):
    for i, step in enumerate(steps()):
        if predicate(step):
            return i
    raise AssertionError(f"the workflow has no step that {what}")


def runs(fragment):
    return lambda step: any(fragment in c for c in commands(step))


def uses(action):
    return lambda step: step.get("uses", "").split("@")[0] == action


@needs_yaml
class WorkflowTest(unittest.TestCase):
    def test_triggers_and_container(self):
        doc = load()
        on = doc.get("on", doc.get(True))  # YAML 1.1 reads a bare "on" as true
        self.assertEqual(set(on), {"push", "pull_request"})
        self.assertEqual(on["push"], {"branches": ["main"]})
        job = doc["jobs"]["ab"]
        self.assertEqual(job["container"], "debian:12")  # what scripts/setup.sh is written for
        self.assertIn("github.event.pull_request.base.sha", job["env"]["BASE"])
        self.assertIn("github.event.before", job["env"]["BASE"])

    def test_steps_in_order(self):
        checkout = step_index(uses("actions/checkout"), "checks out")
        self.assertEqual(steps()[checkout]["with"]["fetch-depth"], 0)  # the base commit too
        setup = step_index(runs("bash scripts/setup.sh"), "runs scripts/setup.sh")
        restore = step_index(uses("actions/cache/restore"), "restores the history")
        ab = step_index(runs('bash scripts/ab_job.sh --base "$BASE" --out ab'),
                        "runs the A/B job")
        track = step_index(runs("scripts/track.py check"), "checks the history")
        upload = step_index(uses("actions/upload-artifact"), "uploads the outputs")
        save = step_index(uses("actions/cache/save"), "saves the history")
        self.assertEqual(sorted([checkout, setup, restore, ab, track, upload, save]),
                         [checkout, setup, restore, ab, track, upload, save])
        self.assertEqual(steps()[upload]["with"]["path"], "ab/")
        self.assertEqual(steps()[upload]["if"], "always()")
        # the cache: one path, restored by prefix, saved under a new key by pushes only
        cached = {steps()[restore]["with"]["path"], steps()[save]["with"]["path"]}
        self.assertEqual(cached, {"comops-history"})
        self.assertEqual(steps()[restore]["with"]["restore-keys"], "comops-history-")
        self.assertIn("github.event_name == 'push'", steps()[save]["if"])
        # the dashboard reads the A/B job's verdict file
        self.assertTrue(runs("--ab ab/ab.json")(steps()[track]))

    def test_scripts_it_runs_exist(self):
        named = set()
        for step in steps():
            for command in commands(step):
                named.update(re.findall(r"scripts/[\w./-]+", command))
        named.discard("scripts/ab_job.sh")  # AbJobScriptTest: from the ab-job work
        self.assertEqual(named, {"scripts/setup.sh", "scripts/track.py"})
        for path in named:
            self.assertTrue(os.path.isfile(os.path.join(helpers.REPO, path)), path)

    def test_track_commands_and_options_exist(self):
        seen = 0
        for step in steps():
            for command in commands(step):
                words = shlex.split(command)
                if "scripts/track.py" not in words:
                    continue
                sub = words[words.index("scripts/track.py") + 1]
                proc = run_script("track.py", sub, "--help")
                self.assertEqual(proc.returncode, 0, proc.stderr)
                for option in (w for w in words if w.startswith("--")):
                    self.assertIn(option, proc.stdout, f"track.py {sub}: {option}")
                seen += 1
        self.assertEqual(seen, 4)  # archive, add, check, report

    def test_comops_options_are_the_ci_sweep(self):
        # the head's sweep is .ci/tracking.sh's, so its points match the committed history's
        (sweep,) = [c for s in steps() for c in commands(s) if c.startswith("build/comops")]
        with open(os.path.join(helpers.REPO, ".ci", "tracking.sh"), encoding="utf-8") as f:
            ci = re.sub(r"\\\n\s*", " ", f.read())
        options = [w for w in shlex.split(sweep) if w.startswith("-") and w != "--json"]
        self.assertEqual(options, ["--backend=mpi,shm", "--op=pingpong,broadcast,reduce",
                                   "--sizes=8,64K", "--np-bytes=64K", "-r", "--progress=never"])
        for option in options:
            self.assertIn(option, ci)


@needs_yaml
@unittest.skipUnless(os.path.isfile(AB_JOB), "scripts/ab_job.sh is not in this tree (the A/B "
                     "job of issue 26 adds it)")
class AbJobScriptTest(unittest.TestCase):
    def test_ab_job_takes_the_options_the_workflow_passes(self):
        with open(AB_JOB, encoding="utf-8") as f:
            text = f.read()
        (command,) = [c for s in steps() for c in commands(s) if "scripts/ab_job.sh" in c]
        for option in (w for w in shlex.split(command) if w.startswith("--")):
            self.assertIn(option, text)


if __name__ == "__main__":
    unittest.main()
