"""scripts/check_layers.py: the harness's layers include only their own layer or lower ones, and
the backends' folders only what comops/includes.txt allows. The real tree must pass; copies of
small trees with a deliberate upward include, an include of a header in no layer, a file outside
every layer folder, a backend including another it may not and a backend folder without a rule
must fail, each with its exact line."""

import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import unittest

import helpers

CHECK = os.path.join(helpers.SCRIPTS, "check_layers.py")
SOURCE = pathlib.Path(helpers.SCRIPTS).parent


def run(source):
    return subprocess.run([sys.executable, CHECK, str(source)], capture_output=True, text=True,
                          timeout=60)


class RealTreeTest(unittest.TestCase):
    def test_the_checkout_is_layered(self):
        result = run(SOURCE)
        self.assertEqual(result.stdout, "")
        self.assertEqual(result.returncode, 0, result.stderr)


class DeliberateViolationTest(unittest.TestCase):
    def setUp(self):
        self.root = pathlib.Path(tempfile.mkdtemp(prefix="comops-layers-"))
        self.addCleanup(shutil.rmtree, self.root, ignore_errors=True)
        harness = self.root / "harness"
        for layer in ("util", "ops", "report"):
            (harness / layer).mkdir(parents=True)
        (harness / "CMakeLists.txt").write_text("set(COMOPS_HARNESS_LAYERS util ops report)\n")
        (harness / "util" / "stats.hpp").write_text("#pragma once\n")
        (harness / "ops" / "ops.cpp").write_text('#include "harness/util/stats.hpp"\n')
        (harness / "report" / "row.cpp").write_text(
            '#include "harness/ops/ops.hpp"\n#include "harness/version.hpp"\n')
        (harness / "driver.cpp").write_text('#include "harness/report/row.hpp"\n')

    def test_a_layered_tree_passes(self):
        result = run(self.root)
        self.assertEqual((result.returncode, result.stdout), (0, ""))

    def test_an_upward_include_fails_with_its_line(self):
        with open(self.root / "harness" / "util" / "stats.hpp", "a") as f:
            f.write('#include "harness/report/row.hpp"\n')
        result = run(self.root)
        self.assertEqual(result.returncode, 1)
        self.assertEqual(result.stdout,
                         "harness/util/stats.hpp:2: layer util includes the higher layer report "
                         "(harness/report/row.hpp)\n")

    def test_an_include_outside_the_layers_fails(self):
        (self.root / "harness" / "ops" / "ops.cpp").write_text(
            '#include "harness/misc/matmul.hpp"\n#include "harness/driver.hpp"\n')
        result = run(self.root)
        self.assertEqual(result.returncode, 1)
        self.assertEqual(result.stdout,
                         "harness/ops/ops.cpp:1: includes harness/misc/matmul.hpp, which is in no "
                         "layer\nharness/ops/ops.cpp:2: layer ops includes the higher layer top "
                         "(harness/driver.hpp)\n")

    def test_a_file_outside_the_layer_folders_fails(self):
        (self.root / "harness" / "misc").mkdir()
        (self.root / "harness" / "misc" / "x.cpp").write_text("\n")
        result = run(self.root)
        self.assertEqual(result.returncode, 1)
        self.assertEqual(result.stdout,
                         "harness/misc/x.cpp: in no layer folder (util, ops, report)\n")

    def test_no_layer_list_is_a_usage_error(self):
        (self.root / "harness" / "CMakeLists.txt").write_text("# nothing\n")
        result = run(self.root)
        self.assertEqual(result.returncode, 2)
        self.assertEqual(result.stderr, "check_layers.py: error: harness/CMakeLists.txt sets no "
                                        "COMOPS_HARNESS_LAYERS\n")



class BackendIncludesTest(unittest.TestCase):
    RULES = ("# the arrows\ncomops/mpi_common:\ncomops/mpi: comops/mpi_common\n"
             "comops/shm: comops/mpi_common\ncomops/hybrid: comops/shm comops/mpi_common swcc\n")

    def setUp(self):
        self.root = pathlib.Path(tempfile.mkdtemp(prefix="comops-backend-layers-"))
        self.addCleanup(shutil.rmtree, self.root, ignore_errors=True)
        (self.root / "harness" / "util").mkdir(parents=True)
        (self.root / "harness" / "CMakeLists.txt").write_text("set(COMOPS_HARNESS_LAYERS util)\n")
        (self.root / "swcc").mkdir()
        comops = self.root / "comops"
        for folder in ("mpi_common", "mpi", "shm", "hybrid/deep"):
            (comops / folder).mkdir(parents=True)
        (comops / "includes.txt").write_text(self.RULES)
        (comops / "mpi" / "op.cpp").write_text(
            '#include "comops/op.hpp"\n#include "comops/mpi/ops.hpp"\n#include "local.hpp"\n'
            '#include "comops/mpi_common/mpi_comm.hpp"\n#include <mpi.h>\n')
        (comops / "hybrid" / "deep" / "node.cpp").write_text(
            '#include "comops/shm/team.hpp"\n#include "swcc/swcc.hpp"\n#include "fmt/core.h"\n')

    def test_the_allowed_arrows_pass(self):
        result = run(self.root)
        self.assertEqual((result.returncode, result.stdout, result.stderr), (0, "", ""))

    def test_an_arrow_not_listed_fails_with_its_line(self):
        with open(self.root / "comops" / "shm" / "team.cpp", "w") as f:
            f.write('#include "comops/shm/team.hpp"\n#include "comops/mpi/ops.hpp"\n'
                    '#include "harness/util/stats.hpp"\n')
        result = run(self.root)
        self.assertEqual(result.returncode, 1)
        self.assertEqual(result.stdout,
                         "comops/shm/team.cpp:2: comops/shm includes comops/mpi/ops.hpp, and "
                         "comops/includes.txt does not let it include comops/mpi\n"
                         "comops/shm/team.cpp:3: comops/shm includes harness/util/stats.hpp, and "
                         "comops/includes.txt does not let it include harness\n")

    def test_a_folder_without_a_rule_fails(self):
        (self.root / "comops" / "gpu").mkdir()
        result = run(self.root)
        self.assertEqual((result.returncode, result.stdout),
                         (1, "comops/gpu: a folder that comops/includes.txt does not list\n"))

    def test_a_missing_or_malformed_rule_file_is_an_error(self):
        rules = self.root / "comops" / "includes.txt"
        rules.write_text(self.RULES + "comops/mpi: comops/shm\n")
        result = run(self.root)
        self.assertEqual(result.returncode, 2)
        self.assertEqual(result.stderr,
                         'check_layers.py: error: comops/includes.txt:6: not one line "comops/FOLDER: '
                         'FOLDER ..." of a folder not named before: comops/mpi: comops/shm\n')
        rules.unlink()
        result = run(self.root)
        self.assertEqual(result.returncode, 2)
        self.assertRegex(result.stderr, r"^check_layers.py: error: .*comops/includes.txt.*\n$")


if __name__ == "__main__":
    unittest.main()
