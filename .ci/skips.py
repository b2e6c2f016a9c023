#!/usr/bin/python3
"""Lists the tests that ctest skipped, each with its reason, from ctest's log of the last run.

Usage: skips.py [--expected REGEX] BUILD_DIR (reads BUILD_DIR/Testing/Temporary/LastTest.log). ctest names skipped
tests ("The following tests did not run: ... (Skipped)") but --output-on-failure prints no output
of theirs, so the reason would be lost; its log keeps every test's output (though it calls a skip
"Test Passed."). A test skipped when its output holds a skip line that only a skip prints. Reasons are taken from the test's output: GoogleTest's
"<file>:<line>: Skipped" and the lines after it, the "[rank R] SKIPPED <test>: <reason>" lines of
tests/mpi_gtest_main.cpp and tests/gtest_main.cpp, or the "SKIP: <reason>" line of the shell tests.
Exits 0: the list is information, ctest's exit code is the verdict; with --expected, exits 1
when a test whose name does not match REGEX (re.fullmatch) was skipped, naming it on an
"unexpected skip:" line (CI, as root on a fresh root, expects only the skips a newcomer sees).
"""

import re
import sys


def reasons(output):
    """The skip reasons found in one test's output, in order, without repeats."""
    lines = output.splitlines()
    # The explicit lines: "[rank R] SKIPPED <test>: <reason>", "SKIPPED <test>: <reason>" and
    # "SKIP: <reason>".
    found = []
    for line in lines:
        m = re.match(r"(?:\[rank \d+\] )?SKIPPED (\S+: .*)$", line)
        m = m or re.match(r"SKIP: (.*)$", line)
        if m:
            found.append(m.group(1))
    if not found:  # GoogleTest's own: "<file>:<line>: Skipped", the message, "[  SKIPPED ] <test>"
        for i, line in enumerate(lines):
            if re.match(r".+:\d+: Skipped$", line):
                message = []
                for follow in lines[i + 1:]:
                    if follow.startswith("[  SKIPPED ]"):
                        break
                    message.append(follow.strip())
                found.append(" ".join(m for m in message if m) or "(no message)")
    return list(dict.fromkeys(found))


def outputs(log):
    """(test name, output) for every test in a LastTest.log text."""
    pattern = re.compile(r"^\d+/\d+ Test: (.+?)\n.*?^Output:\n-+\n(.*?)<end of output>",
                         re.S | re.M)
    return [(m.group(1), m.group(2)) for m in pattern.finditer(log)]


def skipped(output):
    """True when the output holds a line only a skipped test prints."""
    return re.search(r"^(\[  SKIPPED \] |(\[rank \d+\] )?SKIPPED \S+: |SKIP: )", output,
                     re.M) is not None


def main(argv):
    if argv[1:] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    expected = None
    if len(argv) == 4 and argv[1] == "--expected":
        try:
            expected = re.compile(argv[2])
        except re.error as e:
            print(f"skips.py: error: --expected: not a regular expression: {e}", file=sys.stderr)
            return 2
        argv = [argv[0], argv[3]]
    if len(argv) != 2:
        print("usage: skips.py [--expected REGEX] BUILD_DIR", file=sys.stderr)
        return 2
    path = f"{argv[1]}/Testing/Temporary/LastTest.log"
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            log = f.read()
    except OSError as e:
        print(f"== skipped tests: unknown ({path}: {e.strerror}) ==")
        return 1 if expected else 0
    found = [(name, reasons(out) or ["no reason printed"])
             for name, out in outputs(log) if skipped(out)]
    print(f"== skipped tests: {len(found) or 'none'} ==")
    for name, why in found:
        print(f"{name}: {'; '.join(why)}")
    unexpected = [name for name, _ in found if expected and not expected.fullmatch(name)]
    for name in unexpected:
        print(f"unexpected skip: {name} (only tests matching {expected.pattern} may skip here)")
    return 1 if unexpected else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
