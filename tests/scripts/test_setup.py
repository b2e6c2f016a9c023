"""scripts/setup.sh on the machines a newcomer brings, with stub commands on PATH in place of
dpkg, apt, update-alternatives, sudo, id and cmake: no MPI installed at all (update-alternatives
--query exits 2), Open MPI installed and chosen by the alternatives, an Open MPI build that must
keep MPICH the default, a user who is not root with and without sudo; and every way it cannot
succeed (registry unreachable, a package not found, an install or build that fails, bad
COMOPS_MPI, an unforeseen failing command) ends with exactly one "setup.sh: error:" line and a
non-zero exit, never silently. The real proof, a fresh Debian 12 root, is .ci/run's."""

import os
import shutil
import stat
import subprocess
import unittest

import helpers

SETUP = os.path.join(helpers.SCRIPTS, "setup.sh")
# Real commands setup.sh may use besides the stubbed ones (the stub PATH holds only these).
REAL = ("dirname", "sed", "grep", "mktemp", "env", "tail", "rm", "nproc", "cat")
MPICH_ALTERNATIVES = {"mpi": "/usr/bin/mpicc.mpich", "mpirun": "/usr/bin/mpirun.mpich",
                      "mpi-x86_64-linux-gnu": "/usr/include/x86_64-linux-gnu/mpich"}
OPENMPI_ALTERNATIVES = {"mpi": "/usr/bin/mpicc.openmpi", "mpirun": "/usr/bin/mpirun.openmpi",
                        "mpi-x86_64-linux-gnu": "/usr/lib/x86_64-linux-gnu/openmpi/include"}
MPICH_PACKAGES = ("build-essential cmake pkg-config git mpich libmpich-dev hwloc libhwloc-dev "
                  "libcli11-dev nlohmann-json3-dev libfmt-dev libgtest-dev libbenchmark-dev "
                  "libbenchmark-tools python3-matplotlib python3-scipy python3-yaml python3-numpy "
                  "rumur "
                  "iproute2 procps "
                  "util-linux clang slurmctld slurmd slurm-client munge chromium").split()
# The packages from here on are installed without their recommends (setup.sh's lean list).
LEAN_FROM = MPICH_PACKAGES.index("iproute2")

# Each stub appends "NAME ARGS" to $STUB/calls and reads its state from files in $STUB.
STUBS = {
    "dpkg-query": r'''
pkg=${!#}
grep -qx -- "$pkg" "$STUB/installed" 2>/dev/null || exit 1
printf 'install ok installed'
''',
    "update-alternatives": r'''
case $1 in
  --query)
    [[ -f $STUB/alt.$2 ]] || { echo "update-alternatives: error: no alternatives for $2" >&2; exit 2; }
    printf 'Name: %s\nLink: /usr/bin/x\nStatus: auto\nBest: %s\nValue: %s\n' "$2" "$(cat "$STUB/alt.$2")" "$(cat "$STUB/alt.$2")" ;;
  --set) printf '%s' "$3" >"$STUB/alt.$2" ;;
  *) exit 2 ;;
esac
''',
    "apt-get": r'''
[[ $1 == update ]] && {
  [[ -f $STUB/update_fails ]] && {
    echo "Ign:1 http://registry.invalid/debian bookworm InRelease"
    echo "W: Failed to fetch http://registry.invalid/debian/dists/bookworm/InRelease  Temporary failure resolving 'registry.invalid'"
    echo "E: Some index files failed to download. They have been ignored, or old ones used instead."
    exit 100
  }
  exit 0
}
[[ $1 == install ]] || exit 100
[[ -f $STUB/install_fails ]] && { echo "E: Sub-process /usr/bin/dpkg returned an error code (1)"; exit 100; }
for p in "${@:2}"; do
  [[ $p == -* ]] && continue
  echo "$p" >>"$STUB/installed"
  # the packages' postinst scripts: Open MPI's alternatives outrank MPICH's (Debian's priorities)
  case $p in
    mpich) [[ -f $STUB/alt.mpi ]] || { printf /usr/bin/mpicc.mpich >"$STUB/alt.mpi"
             printf /usr/bin/mpirun.mpich >"$STUB/alt.mpirun"
             printf /usr/include/x86_64-linux-gnu/mpich >"$STUB/alt.mpi-x86_64-linux-gnu"; } ;;
    openmpi-bin) printf /usr/bin/mpicc.openmpi >"$STUB/alt.mpi"
             printf /usr/bin/mpirun.openmpi >"$STUB/alt.mpirun"
             printf /usr/lib/x86_64-linux-gnu/openmpi/include >"$STUB/alt.mpi-x86_64-linux-gnu" ;;
  esac
done
''',
    "apt-cache": r'''
pkg=${!#}
grep -qx -- "$pkg" "$STUB/unknown" 2>/dev/null && { echo "E: No packages found" >&2; exit 100; }
echo "Package: $pkg"
''',
    "sudo": r'''
[[ $1 == -n && $2 == true ]] && exit 0
"$@"
''',
    "id": r'''
[[ $1 == -u ]] && { cat "$STUB/uid"; exit 0; }
exit 1
''',
    "cmake": r'''
[[ $1 == --build && -f $STUB/build_fails ]] && {
  echo "src/x.cpp:1:1: error: 'x' does not name a type" >&2; exit 2; }
exit 0
''',
}


class SetupScriptTest(helpers.TempDirTest):
    def setUp(self):
        super().setUp()
        self.stub = self.path("stub")
        self.bin = self.path("bin")
        os.makedirs(self.stub)
        os.makedirs(self.bin)
        repo_scripts = self.path("repo", "scripts")
        os.makedirs(repo_scripts)
        self.script = os.path.join(repo_scripts, "setup.sh")
        shutil.copy(SETUP, self.script)
        for name in REAL:
            os.symlink(shutil.which(name), os.path.join(self.bin, name))
        for name in STUBS:
            self.add_stub(name)
        self.write("uid", "0")

    def add_stub(self, name):
        path = os.path.join(self.bin, name)
        with open(path, "w") as f:
            f.write(f'#!/bin/bash\necho "{name} $*" >>"$STUB/calls"\n' + STUBS[name])
        os.chmod(path, stat.S_IRWXU)

    def write(self, name, text):
        with open(os.path.join(self.stub, name), "w") as f:
            f.write(text)

    def read(self, name):
        path = os.path.join(self.stub, name)
        return open(path).read() if os.path.exists(path) else ""

    def install(self, packages):
        self.write("installed", "".join(p + "\n" for p in packages))

    def choose(self, alternatives):
        for name, value in alternatives.items():
            self.write("alt." + name, value)

    def alternatives(self):
        return {name: self.read("alt." + name) for name in MPICH_ALTERNATIVES}

    def calls(self, command):
        return [c for c in self.read("calls").splitlines() if c.split(" ", 1)[0] == command]

    def run_setup(self, **env):
        full = {"PATH": self.bin, "STUB": self.stub, "TMPDIR": self.tmp, "HOME": self.tmp}
        full.update(env)
        return subprocess.run(["/bin/bash", self.script], capture_output=True, text=True,
                              env=full, stdin=subprocess.DEVNULL, timeout=60)

    def assertBuilt(self, proc, mpi="mpich", build="build"):
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertNotIn("error", proc.stderr)
        self.assertEqual(self.calls("cmake"),
                         [f"cmake -S . -B {build} -DCMAKE_BUILD_TYPE=Release -DCOMOPS_MPI={mpi}",
                          f"cmake --build {build} -j{self.nproc()}"])

    def nproc(self):
        return subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip()

    def assertFailsWithOneLine(self, proc, *fragments, status=1):
        self.assertEqual(proc.returncode, status, proc.stdout + proc.stderr)
        errors = [line for line in proc.stderr.splitlines() if line.startswith("setup.sh: error:")]
        self.assertEqual(len(errors), 1, proc.stderr)
        self.assertEqual(proc.stderr.splitlines()[-1], errors[0])
        for fragment in fragments:
            self.assertIn(fragment, errors[0])
        return errors[0]

    def test_a_machine_with_no_mpi_installs_everything_and_builds(self):
        # update-alternatives --query exits 2 for every MPI alternative: the defect that ended
        # setup.sh silently with exit 2 on a fresh Debian 12 machine.
        proc = self.run_setup()
        self.assertBuilt(proc)
        self.assertIn("setup.sh: installing " + " ".join(MPICH_PACKAGES), proc.stderr)
        self.assertEqual(self.calls("apt-get"), [
            "apt-get update -qq --error-on=any",
            "apt-get install -y -qq " + " ".join(MPICH_PACKAGES[:LEAN_FROM]),
            "apt-get install -y -qq --no-install-recommends " + " ".join(MPICH_PACKAGES[LEAN_FROM:])])
        self.assertEqual(self.alternatives(), MPICH_ALTERNATIVES)
        self.assertEqual([c for c in self.calls("update-alternatives") if "--set" in c], [])
        self.assertEqual([f for f in os.listdir(self.tmp) if f.startswith("comops-setup")], [])

    def test_nothing_missing_installs_nothing(self):
        self.install(MPICH_PACKAGES)
        self.choose(MPICH_ALTERNATIVES)
        proc = self.run_setup()
        self.assertBuilt(proc)
        self.assertEqual(proc.stderr, "")
        self.assertEqual(self.calls("apt-get"), [])

    def test_open_mpi_chosen_by_the_alternatives_stays_chosen(self):
        # The user's own choice of default MPI is theirs: an MPICH build installs what it lacks
        # and leaves the alternatives on Open MPI.
        self.install([p for p in MPICH_PACKAGES if p != "rumur"] + ["openmpi-bin"])
        self.choose(OPENMPI_ALTERNATIVES)
        proc = self.run_setup()
        self.assertBuilt(proc)
        self.assertIn("setup.sh: installing rumur", proc.stderr)
        self.assertEqual(self.alternatives(), OPENMPI_ALTERNATIVES)
        self.assertEqual([c for c in self.calls("update-alternatives") if "--set" in c], [])

    def test_an_open_mpi_build_keeps_mpich_the_default(self):
        self.install(MPICH_PACKAGES)
        self.choose(MPICH_ALTERNATIVES)
        proc = self.run_setup(COMOPS_MPI="openmpi", COMOPS_BUILD_DIR="build-openmpi")
        self.assertBuilt(proc, mpi="openmpi", build="build-openmpi")
        self.assertIn("apt-get install -y -qq openmpi-bin libopenmpi-dev", self.calls("apt-get"))
        self.assertEqual(self.alternatives(), MPICH_ALTERNATIVES)
        self.assertIn("setup.sh: keeping the default MPI: alternative mpi stays /usr/bin/mpicc.mpich",
                      proc.stderr)

    def test_an_open_mpi_build_on_a_machine_with_no_mpi_makes_mpich_the_default(self):
        proc = self.run_setup(COMOPS_MPI="openmpi", COMOPS_BUILD_DIR="build-openmpi")
        self.assertBuilt(proc, mpi="openmpi", build="build-openmpi")
        self.assertEqual(self.alternatives(), MPICH_ALTERNATIVES)
        self.assertEqual(sorted(c for c in self.calls("update-alternatives") if "--set" in c),
                         sorted(f"update-alternatives --set {a} {v}"
                                for a, v in MPICH_ALTERNATIVES.items()))

    def test_a_user_without_sudo_gets_one_line(self):
        self.write("uid", "1000")
        os.remove(os.path.join(self.bin, "sudo"))
        line = self.assertFailsWithOneLine(self.run_setup(), "not root", "no sudo", "run it as root")
        self.assertIn("mpich", line)
        self.assertEqual(self.calls("apt-get"), [])
        self.assertEqual(self.calls("cmake"), [])

    def test_a_user_with_sudo_installs_through_it(self):
        self.write("uid", "1000")
        proc = self.run_setup()
        self.assertBuilt(proc)
        self.assertIn("sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq --error-on=any",
                      self.calls("sudo"))
        self.assertEqual(len(self.calls("sudo")), 4)  # -n true, update, two installs

    def test_a_user_without_sudo_builds_when_nothing_is_missing(self):
        self.write("uid", "1000")
        os.remove(os.path.join(self.bin, "sudo"))
        self.install(MPICH_PACKAGES)
        self.choose(MPICH_ALTERNATIVES)
        self.assertBuilt(self.run_setup())

    def test_an_unreachable_registry_gets_one_line(self):
        self.write("update_fails", "")
        line = self.assertFailsWithOneLine(self.run_setup(), "apt-get update failed (exit 100)",
                                           "Failed to fetch", "check the network")
        self.assertEqual(self.calls("apt-get"), ["apt-get update -qq --error-on=any"])
        self.assertEqual(self.calls("cmake"), [])
        # the whole apt output is kept where the line says
        log = line.rsplit("the whole output: ", 1)[1]
        self.assertIn("Temporary failure resolving", open(log).read())

    def test_a_package_not_found_is_named(self):
        self.write("unknown", "rumur\nchromium\n")
        self.assertFailsWithOneLine(self.run_setup(),
                                    "not in this machine's apt sources: rumur chromium",
                                    "Debian 12 bookworm")
        self.assertEqual(self.calls("apt-get"), ["apt-get update -qq --error-on=any"])

    def test_a_failing_install_gets_one_line(self):
        self.write("install_fails", "")
        self.assertFailsWithOneLine(self.run_setup(), "apt-get install failed (exit 100)",
                                    "E: Sub-process /usr/bin/dpkg returned an error code (1)")
        self.assertEqual(self.calls("cmake"), [])

    def test_a_failing_build_gets_one_line_after_the_compiler(self):
        self.install(MPICH_PACKAGES)
        self.choose(MPICH_ALTERNATIVES)
        self.write("build_fails", "")
        proc = self.run_setup()
        self.assertFailsWithOneLine(proc, "the build failed (cmake --build build)")
        self.assertIn("does not name a type", proc.stderr)

    def test_a_bad_comops_mpi_exits_2(self):
        self.assertFailsWithOneLine(self.run_setup(COMOPS_MPI="mvapich"), "COMOPS_MPI is 'mvapich'",
                                    "use mpich or openmpi", status=2)
        self.assertEqual(self.read("calls"), "")

    def test_an_unforeseen_failure_names_its_command_and_line(self):
        # no mktemp: the apt log cannot be made, a step setup.sh has no message of its own for
        os.remove(os.path.join(self.bin, "mktemp"))
        line = self.assertFailsWithOneLine(self.run_setup(), "failed with exit status 127")
        with open(self.script) as f:
            number = next(i for i, text in enumerate(f, 1) if "log=$(mktemp" in text)
        self.assertIn(f"line {number}: 'log=$(mktemp", line)


if __name__ == "__main__":
    unittest.main()
