"""run_tests.py, the runner of each ctest entry, and the entries of CMakeLists.txt: a skip shows
as exit 77 (ctest: Skipped) with every skipped test and its reason, a failure still fails, and
every TestCase class is in exactly one entry."""

import glob
import importlib
import inspect
import os
import re
import subprocess
import sys
import unittest

import helpers

RUNNER = os.path.join(helpers.HERE, "run_tests.py")

FAKE = '''
import unittest

class Passing(unittest.TestCase):
    def test_a(self):
        pass

    def test_b(self):
        pass

class SomeSkipped(unittest.TestCase):
    def test_runs(self):
        pass

    def test_needs_widget(self):
        self.skipTest("widget is missing (apt-get install widget)")

@unittest.skip("gadget is missing")
class AllSkipped(unittest.TestCase):
    def test_x(self):
        pass

    def test_y(self):
        pass

class Failing(unittest.TestCase):
    def test_fails(self):
        self.assertEqual(1, 2)

class Erroring(unittest.TestCase):
    def test_raises(self):
        raise RuntimeError("boom")

class UnexpectedSuccess(unittest.TestCase):
    @unittest.expectedFailure
    def test_passes(self):
        pass

class Empty(unittest.TestCase):
    pass
'''


class RunnerTest(helpers.TempDirTest):
    def setUp(self):
        super().setUp()
        with open(self.path("fake_tests.py"), "w") as f:
            f.write(FAKE)

    def run_tests(self, *classes, env=None):
        env = dict(os.environ, PYTHONPATH=self.tmp, PYTHONDONTWRITEBYTECODE="1", **(env or {}))
        env.setdefault("COMOPS_TEST_SKIP_EXIT", "77")
        proc = subprocess.run([sys.executable, RUNNER, "fake_tests", *classes],
                              capture_output=True, text=True, env=env, timeout=120)
        return proc.returncode, proc.stdout.splitlines()

    def test_all_passed_is_0(self):
        status, out = self.run_tests("Passing")
        self.assertEqual(status, 0)
        self.assertEqual(out[-1], "PASSED: fake_tests.Passing: 2 passed, 0 failed, 0 skipped")

    def test_a_skip_is_77_with_each_skipped_test_and_its_reason(self):
        status, out = self.run_tests("Passing", "SomeSkipped", "AllSkipped")
        self.assertEqual(status, 77)
        # the lines tests/gtest_main.cpp prints, which .ci/skips.py reads
        self.assertEqual(out[-4:], [
            "SKIPPED fake_tests.SomeSkipped.test_needs_widget: widget is missing (apt-get "
            "install widget)",
            "SKIPPED fake_tests.AllSkipped.test_x: gadget is missing",
            "SKIPPED fake_tests.AllSkipped.test_y: gadget is missing",
            "fake_tests.Passing fake_tests.SomeSkipped fake_tests.AllSkipped: 3 passed, 0 failed, "
            "3 skipped: a test was skipped (the SKIPPED lines above): exit 77 for ctest"])
        status, _ = self.run_tests("AllSkipped", env={"COMOPS_TEST_SKIP_EXIT": "99"})
        self.assertEqual(status, 99)

    def test_a_failure_fails_even_beside_a_skip(self):
        for classes in (["Failing"], ["Failing", "AllSkipped"], ["Erroring", "Passing"],
                        ["UnexpectedSuccess"]):
            with self.subTest(classes=classes):
                status, out = self.run_tests(*classes)
                self.assertEqual(status, 1)
                self.assertTrue(out[-1].startswith("FAILED: "), out[-1])

    def test_nothing_run_or_an_unknown_class_fails(self):
        status, out = self.run_tests("Empty")
        self.assertEqual(status, 1)
        self.assertEqual(out[-1], "FAILED: fake_tests.Empty: 0 passed, 0 failed, 0 skipped "
                         "(no test ran)")
        status, _ = self.run_tests("NoSuchClass")
        self.assertEqual(status, 1)

    def test_whole_module(self):
        status, out = self.run_tests()
        self.assertEqual(status, 1)  # it has Failing
        self.assertEqual(out[-1], "FAILED: fake_tests: 3 passed, 3 failed, 3 skipped")


def registered():
    """[(name, module, [class ...])] of the comops_scripts_test() calls in CMakeLists.txt."""
    with open(os.path.join(helpers.HERE, "CMakeLists.txt")) as f:
        text = f.read()
    return [tuple([call[0], call[1], call[2:]]) for call in
            (m.group(1).split() for m in re.finditer(r"^comops_scripts_test\(([^)]*)\)", text,
                                                     re.M))]


def test_classes(module_name):
    module = importlib.import_module(module_name)
    return sorted(name for name, obj in vars(module).items()
                  if inspect.isclass(obj) and issubclass(obj, unittest.TestCase)
                  and obj.__module__ == module_name
                  and unittest.TestLoader().getTestCaseNames(obj))


class RegistrationTest(unittest.TestCase):
    def test_every_test_class_is_in_exactly_one_ctest_entry(self):
        entries = registered()
        names = [name for name, _, _ in entries]
        self.assertEqual(len(names), len(set(names)), names)
        self.assertTrue(all(name.startswith("scripts_") for name in names), names)
        modules = sorted(os.path.basename(p)[:-3]
                         for p in glob.glob(os.path.join(helpers.HERE, "test_*.py")))
        self.assertEqual(sorted({module for _, module, _ in entries}), modules)
        for module in modules:
            listed = [classes for _, m, classes in entries if m == module]
            with self.subTest(module=module):
                if [] in listed:  # the whole module: its only entry
                    self.assertEqual(listed, [[]])
                else:
                    flat = sorted(c for classes in listed for c in classes)
                    self.assertEqual(flat, test_classes(module))


if __name__ == "__main__":
    unittest.main()
