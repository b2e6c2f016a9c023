// The comops program: command line, launch, machine limits, the sweep, reporters, exit code.
#pragma once

namespace comops {

/// Runs comops; returns the process exit code (0 ok, 1 wrong results, 2 usage, 3 runtime).
int run_comops(int argc, char** argv);

}  // namespace comops
