#!/usr/bin/python3
"""Lists the tests that ctest skipped, each with its reason, from ctest's JUnit file.

Usage: skips.py CTEST_JUNIT_XML (written by ctest --output-junit). ctest names skipped tests
("The following tests did not run: ... (Skipped)") but --output-on-failure prints no output of
theirs, so the reason would be lost. Reasons are taken from the test's output: GoogleTest's
"<file>:<line>: Skipped" and the lines after it, the "[rank R] SKIPPED <test>: <reason>" lines of
tests/mpi_gtest_main.cpp and tests/gtest_main.cpp, or the "SKIP: <reason>" line of the shell tests.
Always exits 0: the list is information, ctest's exit code is the verdict.
"""

import re
import sys
import xml.etree.ElementTree as ET


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


def main(argv):
    if len(argv) != 2:
        print("usage: skips.py CTEST_JUNIT_XML", file=sys.stderr)
        return 2
    try:
        root = ET.parse(argv[1]).getroot()
    except (OSError, ET.ParseError) as e:
        print(f"== skipped tests: unknown ({argv[1]}: {e}) ==")
        return 0
    skipped = []
    for case in root.iter("testcase"):
        mark = case.find("skipped")
        if case.get("status") != "notrun" and mark is None:
            continue
        out = case.findtext("system-out") or ""
        why = reasons(out) or [mark.get("message", "no reason printed") if mark is not None
                               else "no reason printed"]
        skipped.append((case.get("name"), why))
    print(f"== skipped tests: {len(skipped) or 'none'} ==")
    for name, why in skipped:
        print(f"{name}: {'; '.join(why)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
