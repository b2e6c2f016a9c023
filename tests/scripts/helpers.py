"""Shared by the script tests: paths, running a script, a temporary directory per test."""

import os
import signal
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SCRIPTS = os.path.join(REPO, "scripts")
sys.path.insert(0, SCRIPTS)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def run_command(cmd, env=None, timeout=300, **popen):
    """Runs cmd in a session of its own, so that a timeout ends what it started too (mpiexec and
    its ranks, say); env adds to this environment, popen goes to Popen (cwd, stdin)."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, **(env or {})), start_new_session=True, **popen)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def run_script(name, *args, env=None, timeout=300):
    """Runs scripts/<name> (Python scripts with this interpreter, others directly)."""
    path = os.path.join(SCRIPTS, name)
    cmd = [sys.executable, path] if name.endswith(".py") else [path]
    return run_command(cmd + [str(a) for a in args], env=env, timeout=timeout)


class TempDirTest(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="comops-scripts-")
        self.tmp = self._tmp.name

    def tearDown(self):
        self._tmp.cleanup()

    def path(self, *parts):
        return os.path.join(self.tmp, *parts)

    def assertOneLineError(self, proc, *fragments):
        """Exit 2 with exactly one stderr line that contains every fragment."""
        self.assertEqual(proc.returncode, 2, proc.stdout + proc.stderr)
        lines = proc.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, proc.stderr)
        for fragment in fragments:
            self.assertIn(fragment, lines[0])
