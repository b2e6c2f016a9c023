#!/usr/bin/python3
"""The C++ and Python functions longer than a limit.

  function_length.py [--max N] [--allow FILE:FUNCTION ...] PATH ...

PATH: C++ or Python files, or directories whose .cpp, .hpp and .py files (recursively, __pycache__
folders skipped) are read; a file named as a PATH is read whatever its suffix (C++ unless it ends
in .py).

C++: a function's length runs from its first line (the signature, or the template line above it)
to its closing brace, blank lines, comments, lambdas and local classes inside it included: what
pmccabe counts. pmccabe itself reads C, and C++ throws its counts off without a word (a brace or a
quote inside a raw string, `namespace a::b`, alignas, extern "C"), so this script reads the code
itself: it blanks comments, string and character literals (raw ones included) and preprocessor
lines, each line staying where it was, then matches the braces. A brace at namespace or class
scope opens a function body when the text before it, from the end of the previous declaration,
holds a parameter list and no `=` before it (a constructor's member initialisers are skipped
over); a namespace, extern "C", class, struct or union opens a scope that holds functions;
anything else (an enum, an initialiser) holds none. Braces that do not match are an error, not a
guess.

Python: the standard library's ast reads the file; each def and async def is a function, from its
first line (its first decorator's, where it has one) to its last line (end_lineno), blank lines,
comments, nested functions, classes and lambdas inside it included. A method is named
Class.method, a function nested in another outer.inner (each enclosing class and function, joined
by dots); a nested function counts in its parent's lines and is measured on its own as well. The
LINE reported is the def's. A file that does not parse is an error.

--max N: the most lines a function may have (default 80). --allow FILE:FUNCTION: this function of
FILE (as the report names both, e.g. harness/ops/op_queries.cpp:comops::table or
scripts/comops_results.py:Results.options) may be longer; it is named on a line
"allowed: ..." instead; repeatable.

Exit status: 0 no function is too long; 1 some are, each on a line
"FILE:LINE: FUNCTION is N lines, more than M"; 2 bad usage, or a file that cannot be read, whose
braces do not match or (Python) that does not parse: one line on stderr,
"function_length.py: error: FILE:LINE: ...".
"""

import argparse
import ast
import bisect
import os
import re
import sys
import warnings
from typing import NamedTuple

PYTHON_SUFFIX = ".py"
SUFFIXES = (".cpp", ".hpp", PYTHON_SUFFIX)  # what a directory PATH yields
SKIPPED_DIRS = ("__pycache__",)
RAW_PREFIXES = ("R", "u8R", "LR", "uR", "UR")
CHAR_PREFIXES = ("L", "u", "U", "u8")
ACCESS = re.compile(r"^\s*(?:(?:public|private|protected)\s*:(?!:)\s*)+")
SCOPE = re.compile(r"^(?:inline\s+)?namespace\b\s*(\w*(?:\s*::\s*\w+)*)\s*$|^extern\s*\"\"\s*$")
RECORD = re.compile(r"^(?:class|struct|union)\b\s*(\w*)")
TEMPLATE = re.compile(r"^template\s*<")
ATTRIBUTES = re.compile(r"^\s*(?:\[\[(?:[^\]]|\][^\]])*\]\]\s*)+")
SPECIFIER = re.compile(r"\b(?:alignas|__attribute__|__declspec)\s*\(")
OPERATOR = re.compile(r"\boperator\b\s*(?:\(\s*\)|[^\s(]+)\s*\(")
OPERATOR_NAME = re.compile(r"\boperator\b.*")
CTOR_INIT = re.compile(r"\)[\w\s]*:(?!:)")  # ") :", ") noexcept :" before member initialisers
# A function's (qualified) name at the end of the text before its parameter list.
NAME = re.compile(
    r"((?:[\w~]+(?:\s*<[^()]*>)?\s*::\s*)*(?:operator\b.*|~?\w+(?:\s*<[^()]*>)?))\s*$")


class Function(NamedTuple):
    file: str
    line: int  # the line of its name (the signature; Python: the def)
    name: str
    lines: int  # first line (the template line or first decorator, where there is one) to the last


class Brace(NamedTuple):
    # "scope" (namespace, class), "function", "data", "block" (inside a function or data) or
    # "nested" (inside a declaration's parentheses, or a constructor's member initialiser)
    kind: str
    name: str
    line: int  # the brace's
    first: int = 0  # a function's first line
    signature: int = 0  # a function's signature line


class SourceError(Exception):
    """A file whose functions cannot be told: braces that do not match, Python that does not
    parse. Its text is one line, "FILE:LINE: what"."""


class BraceError(SourceError):
    pass


def word_before(text, i):
    """The identifier or number characters just before index i (a literal's prefix)."""
    start = i
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] in "_."):
        start -= 1
    return text[start:i]


def literal_end(text, start):
    """The index just past the string or character literal whose opening quote is at start."""
    quote, i = text[start], start + 1
    while i < len(text) and text[i] != quote:
        if text[i] == "\\":
            i += 1
        elif text[i] == "\n":  # unterminated: it ends with its line
            return i
        i += 1
    return min(i + 1, len(text))


def raw_end(text, start):
    """The index just past the raw string whose quote is at start (R"delim( ... )delim")."""
    paren = text.find("(", start)
    if paren < 0:
        return len(text)
    close = text.find(")" + text[start + 1 : paren] + '"', paren)
    return len(text) if close < 0 else close + paren - start + 1


def directive_end(text, start):
    """The index of the newline that ends the preprocessor line at start (continuations too)."""
    i = start
    while True:
        end = text.find("\n", i)
        if end < 0:
            return len(text)
        if not text[i:end].rstrip().endswith("\\"):
            return end
        i = end + 1


def blank(text):
    """text with its comments, literals and preprocessor lines blanked, newlines kept in place.

    A string literal becomes "", a character literal 0."""
    out = []
    i, line_start = 0, True
    while i < len(text):
        c, two = text[i], text[i : i + 2]
        if line_start and c == "#":
            end = directive_end(text, i)
            out.append(" " + "\n" * text.count("\n", i, end))
        elif two == "//":
            end = text.find("\n", i)
            end = len(text) if end < 0 else end
            out.append(" ")
        elif two == "/*":
            end = text.find("*/", i + 2)
            end = len(text) if end < 0 else end + 2
            out.append(" " + "\n" * text.count("\n", i, end))
        elif c in "\"'":
            word = word_before(text, i)
            if c == '"' and word in RAW_PREFIXES:
                end = raw_end(text, i)
                out.append('"' + "\n" * text.count("\n", i, end) + '"')
            elif c == "'" and word and word not in CHAR_PREFIXES:
                end = i + 1  # a digit separator (1'000)
                out.append(c)
            else:
                end = literal_end(text, i)
                out.append('""' if c == '"' else "0")
        else:
            end = i + 1
            out.append(c)
        if c == "\n":
            line_start = True
        elif not c.isspace():
            line_start = False
        i = end
    return "".join(out)


def flatten(head):
    """head with what its () and [] hold removed."""
    out, depth = [], 0
    for c in head:
        if c in "([":
            if depth == 0:
                out.append(c)
            depth += 1
        elif c in ")]" and depth > 0:
            depth -= 1
            if depth == 0:
                out.append(c)
        elif depth == 0:
            out.append(c)
    return "".join(out)


def spaces(m):
    return re.sub(r"[^\n]", " ", m.group())


def strip_template(head):
    """head with its leading template <...> clauses blanked."""
    while TEMPLATE.match(head.lstrip()):
        depth, i = 0, head.index("<")
        for i in range(i, len(head)):
            if head[i] == "<":
                depth += 1
            elif head[i] == ">" and head[i - 1] != "-":
                depth -= 1
                if depth == 0:
                    break
        head = re.sub(r"[^\n]", " ", head[: i + 1]) + head[i + 1 :]
    return head


def parameters_at(head):
    """The index of head's parameter list: its first ( outside template arguments (an
    operator's own parentheses aside), or -1."""
    m = OPERATOR.search(head)
    if m:
        return m.end() - 1
    depth = 0
    for i, c in enumerate(head):
        if c == "<":
            depth += 1
        elif c == ">" and depth > 0 and head[i - 1] != "-":
            depth -= 1
        elif c == "(" and depth == 0:
            return i
    return -1


def declaration(head):
    """head with its access specifiers, template clauses, attributes, alignas and __attribute__
    blanked: the same length, so that an index into it is one into head."""
    head = ACCESS.sub(spaces, head, count=1)
    head = strip_template(head)
    head = ATTRIBUTES.sub(spaces, head, count=1)
    for m in reversed(list(SPECIFIER.finditer(head))):
        depth = 0
        for end in range(m.end() - 1, len(head)):
            depth += {"(": 1, ")": -1}.get(head[end], 0)
            if depth == 0:
                break
        blanked = re.sub(r"[^\n]", " ", head[m.start() : end + 1])
        head = head[: m.start()] + blanked + head[end + 1 :]
    return head


def classify(head):
    """What a brace at namespace or class scope opens, from the text before it (since the
    previous declaration): ("scope", name) (a namespace, extern "C": name "", a class),
    ("function", name), ("initialisers", name) (the first member initialiser of a constructor)
    or ("data", "") (an enum, an initialiser)."""
    head = declaration(head).strip()
    m = SCOPE.match(head)
    if m:
        extern = m.group(1) is None
        return "scope", "" if extern else re.sub(r"\s+", "", m.group(1)) or "(anonymous namespace)"
    flat = flatten(head)
    m = RECORD.match(head)
    if m and "(" not in flat:
        return "scope", m.group(1) or "(anonymous)"
    at = parameters_at(head)
    if at < 0 or "=" in flatten(OPERATOR_NAME.sub("", head[:at])) or re.match(r"enum\b", head):
        return "data", ""
    m = NAME.search(head[:at])
    name = re.sub(r"\s+", "", m.group(1)) if m else "?"
    if CTOR_INIT.search(flat) and head.rstrip()[-1:] not in (")", "}"):
        return "initialisers", name
    return "function", name


class Scanner:
    """The functions of one file, from its blanked text: the braces matched one by one."""

    def __init__(self, name, text):
        self.name, self.text = name, text
        self.newlines = [i for i, c in enumerate(text) if c == "\n"]
        self.scopes = []  # a Brace per open brace
        self.found = []
        self.head_start = 0  # where the declaration the next brace belongs to starts
        self.pending = None  # a constructor among its member initialisers: (name, head start)

    def line_of(self, index):
        return bisect.bisect_left(self.newlines, index) + 1

    def in_function(self):
        return any(b.kind != "scope" for b in self.scopes)

    def open_brace(self, i, parens):
        if self.in_function():
            self.scopes.append(Brace("block", "", self.line_of(i)))
            return
        if parens > 0:  # in a declaration: a default argument, a lambda in an initialiser
            self.scopes.append(Brace("nested", "", self.line_of(i)))
            return
        head = self.text[self.head_start : i]
        kind, what = classify(head)
        if self.pending is not None and kind != "scope":
            follows_initialiser = head.rstrip()[-1:] in (")", "}")
            kind, what = ("function" if follows_initialiser else "initialisers"), self.pending[0]
        start = self.pending[1] if self.pending is not None else self.head_start
        if kind == "initialisers":
            self.pending = (what, start)
            self.scopes.append(Brace("nested", "", self.line_of(i)))
            self.head_start = i + 1
            return
        self.pending = None
        decl = self.text[start:i]
        access = ACCESS.match(decl)
        first = start + (access.end() if access else len(decl) - len(decl.lstrip()))
        signature = first
        if kind == "function":
            signature += max(parameters_at(declaration(self.text[first:i])), 0)
        self.scopes.append(
            Brace(kind, what, self.line_of(i), self.line_of(first), self.line_of(signature)))
        self.head_start = i + 1

    def close_brace(self, i):
        if not self.scopes:
            raise BraceError(f"{self.name}:{self.line_of(i)}: a }} that closes nothing")
        brace = self.scopes.pop()
        if brace.kind == "function":
            outer = [b.name for b in self.scopes if b.kind == "scope" and b.name]
            name = "::".join(outer + [brace.name])
            lines = self.line_of(i) - brace.first + 1
            self.found.append(Function(self.name, brace.signature, name, lines))
        if brace.kind in ("scope", "function", "data"):
            self.head_start = i + 1

    def run(self):
        parens = 0
        for i, c in enumerate(self.text):
            if c in "([":
                parens += 1
            elif c in ")]":
                parens = max(parens - 1, 0)
            elif c == "{":
                self.open_brace(i, parens)
            elif c == "}":
                self.close_brace(i)
            elif c == ";" and parens == 0 and not self.in_function():
                self.head_start, self.pending = i + 1, None
        if self.scopes:
            raise BraceError(f"{self.name}:{self.scopes[-1].line}: a {{ that is never closed")
        return sorted(self.found, key=lambda f: f.line)


def functions_in(name, text):
    """Every function of the file `name`, whose blanked text is `text`, by line."""
    return Scanner(name, text).run()


def python_functions(name, source):
    """Every function (def, async def) of the Python file `name`, whose text (str or bytes) is
    `source`, by line; SourceError when it does not parse."""
    try:
        with warnings.catch_warnings():  # an invalid escape in a string is not ours to report
            warnings.simplefilter("ignore")
            tree = ast.parse(source, filename=name)
    except (SyntaxError, ValueError) as e:  # ValueError: a null byte, an undecodable byte
        line = getattr(e, "lineno", None)
        what = " ".join(str(getattr(e, "msg", None) or e).split())
        raise SourceError(f"{name}:{line or 1}: does not parse as Python ({what})") from None
    found = []

    def visit(node, outer):  # outer: the names of the classes and functions around node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                first = min([child.lineno] + [d.lineno for d in child.decorator_list])
                found.append(Function(name, child.lineno, ".".join(outer + [child.name]),
                                      child.end_lineno - first + 1))
            named = isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            visit(child, outer + [child.name] if named else outer)

    visit(tree, [])
    return sorted(found, key=lambda f: f.line)


def sources(paths):
    """The C++ and Python files named or found under paths, in order, each once."""
    found = []
    for path in paths:
        if os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS)
                found += [os.path.join(root, f) for f in sorted(files) if f.endswith(SUFFIXES)]
        else:
            found.append(path)
    return list(dict.fromkeys(os.path.normpath(f) for f in found))


def measure(files):
    """Every function of files, in order."""
    functions = []
    for name in files:
        if name.endswith(PYTHON_SUFFIX):
            with open(name, "rb") as f:  # ast reads a coding declaration; UTF-8 without one
                functions += python_functions(name, f.read())
            continue
        with open(name, encoding="utf-8", errors="replace") as f:
            functions += functions_in(name, blank(f.read()))
    return functions


def main(argv):
    parser = argparse.ArgumentParser(
        prog="function_length.py", description="C++ and Python functions longer than a limit.")
    parser.add_argument("paths", nargs="+", metavar="PATH")
    parser.add_argument("--max", type=int, default=80, metavar="N")
    parser.add_argument("--allow", action="append", default=[], metavar="FILE:FUNCTION")
    args = parser.parse_args(argv)
    try:
        files = sources(args.paths)
        functions = measure(files)
    except (OSError, SourceError) as e:
        print(f"function_length.py: error: {e}", file=sys.stderr)
        return 2
    allowed = set()
    for a in args.allow:
        file, _, function = a.partition(":")
        allowed.add(f"{os.path.normpath(file)}:{function}")
    too_long = 0
    for f in functions:
        if f.lines <= args.max:
            continue
        text = f"{f.file}:{f.line}: {f.name} is {f.lines} lines, more than {args.max}"
        if f"{f.file}:{f.name}" in allowed:
            print(f"allowed: {text}")
            continue
        print(text)
        too_long += 1
    if too_long:
        print(f"{too_long} function(s) over {args.max} lines: split them by phase")
        return 1
    print(f"{len(functions)} functions in {len(files)} files, none over {args.max} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
