"""function_length.py: each function's lines from its first line to its closing brace, whatever
C++ surrounds it (lambdas, templates, nested and anonymous namespaces, classes, constructors'
member initialisers, raw strings, literals and comments with braces in them); each Python def from
its first decorator to its last line (methods as Class.method, nested functions in their parent's
lines and on their own); a function over the limit named with its file, line and length, exit 1;
braces that do not match, or Python that does not parse, exit 2. The guard over the trees (ctest
tree_function_length) fails on a function planted in each of them."""

import os
import re
import textwrap
import unittest

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


# Python around the functions, and text in them that looks like a def or a brace: (name, line of
# the def, lines) of each function, by line, in PY_EXPECTED.
PY_FIXTURE = textwrap.dedent(
    '''\
    """A module docstring: def not_a_function(): {"""
    import functools


    def plain(n):
        text = "def fake(): {"
        return len(text) + n


    @functools.lru_cache(maxsize=None)
    @staticmethod
    def decorated(
            a,
            b):
        return a + b


    class Widget:
        """def in a docstring."""

        @property
        def size(self):
            return 1

        async def fetch(self):
            def inner():
                square = lambda x: x * x  # noqa: E731
                return square(2)
            return inner()

        class Part:
            def name(self):
                return "part"


    def outer():
        class Local:
            def method(self):
                return 0
        return Local
    '''
)

PY_EXPECTED = [
    ("plain", 5, 3),
    ("decorated", 12, 6),  # from its first decorator, line 10
    ("Widget.size", 22, 3),
    ("Widget.fetch", 25, 5),
    ("Widget.fetch.inner", 26, 3),
    ("Widget.Part.name", 32, 2),
    ("outer", 36, 5),
    ("outer.Local.method", 38, 2),
]


def long_python(lines, name="long_one"):
    """Python text of one function of exactly `lines` lines (lines >= 4), a docstring with a def
    and a brace in it and a lambda among them."""
    body = ['    """def fake(): { in a docstring."""', "    f = lambda x: x + 1  # noqa: E731"]
    body += ["    n = f(n)"] * (lines - 2 - len(body))
    return "\n".join([f"def {name}(n):", *body, "    return n"]) + "\n"


def guarded_trees():
    """The folders and files the ctest tree_function_length checks, as tests/scripts/CMakeLists.txt
    lists them in COMOPS_FUNCTION_LENGTH_TREES."""
    with open(os.path.join(helpers.HERE, "CMakeLists.txt")) as f:
        text = f.read()
    listed = re.search(r"set\(COMOPS_FUNCTION_LENGTH_TREES([^)]*)\)", text).group(1)
    return [word for line in listed.splitlines() for word in line.split("#")[0].split()]


def planted_names(trees):
    """Where the planted functions go: a tree named as a file is planted in (C++, or Python for a
    .py); a folder gets a C++ file and a Python file two levels down."""
    names = []
    for tree in trees:
        if os.path.splitext(tree)[1] in (".c", ".cpp", ".hpp", ".py"):
            names.append(tree)
        else:
            names += [os.path.join(tree, "deep", f"planted.{ext}") for ext in ("cpp", "py")]
    return names


def source_of(name, *functions):
    """The text of a file `name` with the functions (name, lines), in C++ or (.py) Python."""
    make = long_python if name.endswith(".py") else long_function
    return "\n".join(make(lines, function) for function, lines in functions)


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


class PythonCountTest(unittest.TestCase):
    def functions(self, text):
        return [(f.name, f.line, f.lines) for f in function_length.python_functions("x.py", text)]

    def test_every_function_of_the_fixture(self):
        self.assertEqual(self.functions(PY_FIXTURE), PY_EXPECTED)

    def test_a_long_function_counted_exactly(self):
        for lines in (80, 81, 200):
            with self.subTest(lines=lines):
                self.assertEqual(self.functions(long_python(lines)), [("long_one", 1, lines)])

    def test_decorators_count(self):
        text = "@a\n@b(\n    1)\ndef f():\n    pass\n"
        self.assertEqual(self.functions(text), [("f", 4, 5)])

    def test_a_nested_function_counts_in_its_parent_and_on_its_own(self):
        inner = textwrap.indent(long_python(81, "inner"), "    ")
        text = "def outer(n):\n" + inner + "    return inner(n)\n"
        self.assertEqual(self.functions(text), [("outer", 1, 83), ("outer.inner", 2, 81)])

    def test_methods_named_by_their_class(self):
        text = "class A:\n    class B:\n        async def m(self):\n            pass\n"
        self.assertEqual(self.functions(text), [("A.B.m", 3, 2)])

    def test_not_python_is_an_error(self):
        for text, line in (("def f(:\n    pass\n", 1), ("x = 1\ndef g():\nreturn 2\n", 3)):
            with self.subTest(text=text):
                with self.assertRaisesRegex(function_length.SourceError,
                                            f"^x.py:{line}: does not parse as Python \\(.+\\)$"):
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

    def test_python_function_too_long_named_with_file_line_and_length(self):
        a = self.write("src/a.py", "import os\n\n\n" + long_python(81) + "\n\n"
                       + long_python(80, "other"))
        self.write("src/__pycache__/b.py", long_python(200))  # never read
        self.write("src/sub/c.cpp", long_function(80))
        proc = helpers.run_script("function_length.py", self.path("src"))
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertEqual(proc.stdout.splitlines(), [
            f"{a}:4: long_one is 81 lines, more than 80",
            "1 function(s) over 80 lines: split them by phase",
        ])
        self.write("src/a.py", long_python(80) + "\n\n" + long_python(80, "other"))
        proc = helpers.run_script("function_length.py", self.path("src"))
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(proc.stdout, "3 functions in 2 files, none over 80 lines\n")

    def test_python_methods_nested_functions_and_decorators_named(self):
        a = self.write("a.py", PY_FIXTURE)
        proc = helpers.run_script("function_length.py", "--max", "4", a)
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertEqual(proc.stdout.splitlines(), [
            f"{a}:12: decorated is 6 lines, more than 4",
            f"{a}:25: Widget.fetch is 5 lines, more than 4",
            f"{a}:36: outer is 5 lines, more than 4",
            "3 function(s) over 4 lines: split them by phase",
        ])

    def test_max_and_allow_python(self):
        a = self.write("a.py", long_python(30) + "\n\n" + long_python(40, "other"))
        b = self.write("b.py", "class Widget:\n" + textwrap.indent(long_python(40, "m"), "    "))
        proc = helpers.run_script("function_length.py", "--max", "30", "--allow",
                                  f"{a}:other", "--allow", f"{b}:Widget.m", a, b)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(proc.stdout.splitlines(), [
            f"allowed: {a}:33: other is 40 lines, more than 30",
            f"allowed: {b}:2: Widget.m is 40 lines, more than 30",
            "3 functions in 2 files, none over 30 lines",
        ])
        proc = helpers.run_script("function_length.py", "--max", "30", "--allow", f"{a}:other", b)
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertIn(f"{b}:2: Widget.m is 40 lines, more than 30\n", proc.stdout)

    def test_python_that_does_not_parse_exits_2(self):
        self.write("src/a.cpp", long_function(10))
        bad = self.write("src/bad.py", "def f():\n    return 1\n\ndef g(:\n    pass\n")
        proc = helpers.run_script("function_length.py", self.path("src"))
        self.assertOneLineError(proc, f"function_length.py: error: {bad}:4: does not parse as "
                                      "Python (")
        self.assertTrue(proc.stderr.startswith("function_length.py: error: "), proc.stderr)
        self.assertEqual(proc.stdout, "")

    def test_the_guard_fails_on_a_function_planted_in_each_tree_and_passes_once_split(self):
        trees = guarded_trees()
        self.assertEqual(trees[:6], ["harness", "comops", "swcc", "bench", "tests", "scripts"])
        self.assertIn(".ci/skips.py", trees)
        args = ["--max", "80", *(self.path(tree) for tree in trees)]
        names = planted_names(trees)
        planted = [self.write(name, source_of(name, (f"planted_{i}", 81)))
                   for i, name in enumerate(names)]
        proc = helpers.run_script("function_length.py", *args)
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertEqual(proc.stdout.splitlines(), [
            *(f"{path}:1: planted_{i} is 81 lines, more than 80" for i, path in
              enumerate(planted)),
            f"{len(names)} function(s) over 80 lines: split them by phase",
        ])
        # Split by phase: two functions of 41 and 40 lines, where one of 81 was.
        for i, name in enumerate(names):
            self.write(name, source_of(name, (f"first_{i}", 41), (f"second_{i}", 40)))
        proc = helpers.run_script("function_length.py", *args)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(proc.stdout, f"{2 * len(names)} functions in {len(names)} files, none "
                                      "over 80 lines\n")
