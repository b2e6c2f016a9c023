"""function_length.py: each function's lines from its first line to its closing brace, whatever
C++ surrounds it (lambdas, templates, nested and anonymous namespaces, classes, constructors'
member initialisers, raw strings, literals and comments with braces in them); a function over
the limit named with its file, line and length, exit 1; braces that do not match, exit 2. The
guard over the trees (ctest tree_function_length) fails on a function planted in each of them."""

import os
import re
import textwrap

import helpers

import function_length  # noqa: E402 (helpers puts scripts/ on sys.path)

# Every kind of declaration around the functions, and inside them text that throws a count off
# when it is read as code: pmccabe reports no function at all in this file (namespace a::b).
FIXTURE = textwrap.dedent(
    """\
    // A fixture: { in a comment
    #include <vector>
    #define BRACE {
    namespace outer::inner {
    namespace {
    struct alignas(64) Line {
      int v{0};
    };
    constexpr long kBig = 1'000'000;
    const char* kRaw = R"x({"json": "}"})x";
    template <class T>
    T twice(T t) {
      auto add = [&](T u) {
        return u + t;
      };
      return add(t);
    }
    }  // namespace
    class Widget final : public Base<int> {
     public:
      Widget(int a, int b)
          : a_{a},
            b_(b) {
        check();
      }
      bool operator==(const Widget& o) const { return a_ == o.a_; }
      Widget& operator=(const Widget&) = default;
     private:
      int a_, b_;
    };
    extern "C" {
    int c_entry(void) { return '}'; }
    }
    int defaults(std::vector<int> v = {1, 2}, const char* s = "}") {
      return v[0] + s[0];
    }
    }  // namespace outer::inner
    int after() {
      return 0;
    }
    """
)

# (name, first line, signature line, lines) of each function of FIXTURE, by line.
EXPECTED = [
    ("outer::inner::(anonymous namespace)::twice", 11, 12, 7),
    ("outer::inner::Widget::Widget", 21, 21, 5),
    ("outer::inner::Widget::operator==", 26, 26, 1),
    ("outer::inner::c_entry", 32, 32, 1),
    ("outer::inner::defaults", 34, 34, 3),
    ("after", 38, 38, 3),
]


def long_function(lines, name="long_one"):
    """A function of exactly `lines` lines (lines >= 7), with a lambda and a raw string in it."""
    body = ["  auto f = [](int x) {", '    const char* s = R"({)";', "    return x + s[0];", "  };"]
    body += ["  n += f(n);"] * (lines - 3 - len(body))
    return "\n".join([f"int {name}(int n) {{", *body, "  return n;", "}"]) + "\n"


def guarded_trees():
    """The folders and files the ctest tree_function_length checks, as tests/scripts/CMakeLists.txt
    lists them in COMOPS_FUNCTION_LENGTH_TREES."""
    with open(os.path.join(helpers.HERE, "CMakeLists.txt")) as f:
        text = f.read()
    listed = re.search(r"set\(COMOPS_FUNCTION_LENGTH_TREES([^)]*)\)", text).group(1)
    return [word for line in listed.splitlines() for word in line.split("#")[0].split()]


class CountTest(helpers.TempDirTest):
    def functions(self, text):
        return [(f.name, f.line, f.lines) for f in function_length.functions_in(
            "x.cpp", function_length.blank(text))]

    def test_every_function_of_the_fixture(self):
        want = [(name, signature, lines) for name, _, signature, lines in EXPECTED]
        self.assertEqual(self.functions(FIXTURE), want)

    def test_a_template_line_counts(self):
        first = {name: first for name, first, _, _ in EXPECTED}
        signature = {name: line for name, _, line, _ in EXPECTED}
        name = "outer::inner::(anonymous namespace)::twice"
        self.assertEqual((first[name], signature[name]), (11, 12))
        self.assertEqual(FIXTURE.splitlines()[10], "template <class T>")

    def test_blanking_keeps_every_line_in_place(self):
        blanked = function_length.blank(FIXTURE)
        self.assertEqual(blanked.count("\n"), FIXTURE.count("\n"))
        self.assertNotIn("json", blanked)
        self.assertNotIn("BRACE", blanked)

    def test_a_long_function_counted_exactly(self):
        for lines in (80, 81, 200):
            with self.subTest(lines=lines):
                self.assertEqual(self.functions(long_function(lines)), [("long_one", 1, lines)])

    def test_unmatched_braces_are_an_error(self):
        for text, line in (("int f() {\n  if (x) {\n}\n", 1), ("int f() {\n}\n}\n", 3)):
            with self.subTest(text=text):
                with self.assertRaisesRegex(function_length.BraceError, f"x.cpp:{line}: "):
                    self.functions(text)


class CommandTest(helpers.TempDirTest):
    def write(self, name, text):
        path = self.path(name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_none_too_long(self):
        self.write("src/a.cpp", long_function(80))
        self.write("src/sub/b.hpp", FIXTURE)
        proc = helpers.run_script("function_length.py", self.path("src"))
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(proc.stdout, "7 functions in 2 files, none over 80 lines\n")

    def test_each_function_too_long_named_with_file_line_and_length(self):
        a = self.write("src/a.cpp", "\n" + long_function(81) + long_function(120, "other"))
        self.write("src/b.cpp", long_function(80))
        proc = helpers.run_script("function_length.py", self.path("src"))
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertEqual(proc.stdout.splitlines(), [
            f"{a}:2: long_one is 81 lines, more than 80",
            f"{a}:83: other is 120 lines, more than 80",
            "2 function(s) over 80 lines: split them by phase",
        ])

    def test_max_and_allow(self):
        a = self.write("a.cpp", long_function(30) + long_function(40, "other"))
        proc = helpers.run_script("function_length.py", "--max", "30", "--allow",
                                  f"{a}:other", a)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn(f"allowed: {a}:31: other is 40 lines, more than 30\n", proc.stdout)

    def test_unmatched_braces_exit_2(self):
        a = self.write("a.cpp", "int f() {\n")
        proc = helpers.run_script("function_length.py", a)
        self.assertEqual(proc.returncode, 2, proc.stdout + proc.stderr)
        self.assertEqual(proc.stderr, f"function_length.py: error: {a}:1: a {{ that is never "
                                      "closed\n")

    def test_the_guard_fails_on_a_function_planted_in_each_tree_and_passes_once_split(self):
        trees = guarded_trees()
        self.assertEqual(trees[:5], ["harness", "comops", "swcc", "bench", "tests"])
        args = ["--max", "80", *(self.path(tree) for tree in trees)]
        # A tree named as a file is planted in; a folder gets a file two levels down.
        names = [tree if os.path.splitext(tree)[1] in (".c", ".cpp", ".hpp")
                 else os.path.join(tree, "deep", "planted.cpp") for tree in trees]
        planted = [self.write(name, long_function(81, f"planted_{i}"))
                   for i, name in enumerate(names)]
        proc = helpers.run_script("function_length.py", *args)
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertEqual(proc.stdout.splitlines(), [
            *(f"{path}:1: planted_{i} is 81 lines, more than 80" for i, path in
              enumerate(planted)),
            f"{len(trees)} function(s) over 80 lines: split them by phase",
        ])
        # Split by phase: two functions of 41 and 40 lines, where one of 81 was.
        for i, name in enumerate(names):
            self.write(name, long_function(41, f"first_{i}") + long_function(40, f"second_{i}"))
        proc = helpers.run_script("function_length.py", *args)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(proc.stdout, f"{2 * len(trees)} functions in {len(trees)} files, none "
                                      "over 80 lines\n")
