#!/usr/bin/python3
"""Runs one ctest entry of the script tests: a test module, or some of its TestCase classes, and
turns the unittest result into an exit status ctest understands.

  run_tests.py MODULE [CLASS ...]

Exit status: 0 every test ran and passed; 1 a test failed or errored, an expected failure passed,
or nothing ran; COMOPS_TEST_SKIP_EXIT (environment, default 77: the entry's SKIP_RETURN_CODE, so
ctest shows it as Skipped) no failure but some test was skipped. Each skipped test is then named
with its reason on a line "SKIPPED <test>: <reason>", as tests/gtest_main.cpp does for GoogleTest
(ctest prints no output of a Skipped entry; `ctest -V`, Testing/Temporary/LastTest.log and
.ci/skips.py, which reads that log, have them). The entries group the tests that need the same
optional tool (matplotlib, scipy, Google Benchmark's compare.py), so that a skip never hides tests
that ran.
"""

import os
import sys
import unittest

SKIP_STATUS = 77


def main(argv):
    if not argv or argv[0].startswith("-"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    module, classes = argv[0], argv[1:]
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)
    loader = unittest.TestLoader()
    names = [f"{module}.{c}" for c in classes] or [module]
    try:
        suite = loader.loadTestsFromNames(names)
    except (ImportError, AttributeError) as e:
        print(f"run_tests.py: cannot load {', '.join(names)}: {e}", file=sys.stderr)
        return 1
    result = unittest.TextTestRunner(stream=sys.stdout, verbosity=2).run(suite)
    sys.stdout.flush()
    failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
    skipped = result.skipped
    passed = result.testsRun - failed - len(skipped)  # an expected failure counts as passed
    summary = f"{' '.join(names)}: {passed} passed, {failed} failed, {len(skipped)} skipped"
    if failed or result.testsRun == 0:
        print(f"FAILED: {summary}" + (" (no test ran)" if result.testsRun == 0 else ""))
        return 1
    if skipped:
        for test, reason in skipped:
            print(f"SKIPPED {test.id()}: {' '.join(str(reason).split()) or '(no reason)'}")
        status = int(os.environ.get("COMOPS_TEST_SKIP_EXIT", SKIP_STATUS))
        print(f"{summary}: a test was skipped (the SKIPPED lines above): exit {status} for ctest")
        return status
    print(f"PASSED: {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
