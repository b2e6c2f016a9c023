#!/usr/bin/env python3
"""Checks the include graph: harness/'s layers, and the arrows between the backends' folders.

The harness: the layers, bottom-up, are the list COMOPS_HARNESS_LAYERS in harness/CMakeLists.txt;
each is a folder harness/<layer>/ and a library. A file of harness/<layer>/ may include
"harness/<lower or same layer>/...", and the files at harness/'s top (the driver, the top layer)
any layer and each other; a lower layer including a top file breaks the layering too. Also
refused: an include of a harness header outside every layer folder (except the generated
harness/version.hpp).

The backends: comops/includes.txt lists, per folder of comops/, the folders its files may
include ("comops/hybrid: comops/shm comops/mpi_common comops/mpi"). A file of comops/<folder>/
may include its own folder, comops/'s shared headers at its top (op.hpp, rma.hpp) and the listed
folders; a quoted include of any other folder of the repository (comops/<other>/, harness/,
swcc/, ...) is refused, and so is a folder of comops/ that the file does not list. A tree without
comops/ has no backends to check.

Prints one line per offending include, file:line, and exits 1; exits 0 when the tree keeps both
rules, 2 on bad usage or a missing or malformed rule file.

Usage: check_layers.py [SOURCE_DIR]   (default: the checkout this script is in)
"""
import pathlib
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"harness/([^"]+)"')
QUOTED = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
RULE = re.compile(r"^(comops/\w+):((?:\s+[\w/]+)*)\s*$")
SHARED = {"comops/op.hpp", "comops/rma.hpp"}
SOURCES = (".cpp", ".hpp", ".in")
LAYERS = re.compile(r"set\(COMOPS_HARNESS_LAYERS\s+([^)]*)\)")
GENERATED = {"version.hpp"}


def layer_order(source: pathlib.Path) -> list:
    """The layers, bottom-up, from harness/CMakeLists.txt."""
    text = (source / "harness" / "CMakeLists.txt").read_text()
    match = LAYERS.search(text)
    if not match:
        raise ValueError("harness/CMakeLists.txt sets no COMOPS_HARNESS_LAYERS")
    return match.group(1).split()


def rank_of(path: pathlib.Path, harness: pathlib.Path, layers: list) -> int:
    """The layer index of a file of harness/: its folder's, or the top for harness/'s own files."""
    parts = path.relative_to(harness).parts
    if len(parts) == 1:
        return len(layers)
    return layers.index(parts[0]) if parts[0] in layers else -1


def name(layers: list, rank: int) -> str:
    """A layer's name; "top" for the driver's files at harness/'s top."""
    return layers[rank] if rank < len(layers) else "top"


def violations(source: pathlib.Path) -> list:
    """One message per include that breaks the layering."""
    harness = source / "harness"
    layers = layer_order(source)
    found = []
    for path in sorted(harness.rglob("*")):
        if path.suffix not in SOURCES:
            continue
        own = rank_of(path, harness, layers)
        where = path.relative_to(source)
        if own < 0:
            found.append(f"{where}: in no layer folder ({', '.join(layers)})")
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            match = INCLUDE.match(line)
            if not match or match.group(1) in GENERATED:
                continue
            parts = match.group(1).split("/")
            if len(parts) > 1 and parts[0] not in layers:
                found.append(f"{where}:{number}: includes harness/{match.group(1)}, "
                             "which is in no layer")
                continue
            target = layers.index(parts[0]) if len(parts) > 1 else len(layers)
            if target > own:
                found.append(f"{where}:{number}: layer {name(layers, own)} includes the higher "
                             f"layer {name(layers, target)} (harness/{match.group(1)})")
    return found


def include_rules(source: pathlib.Path) -> dict:
    """comops/includes.txt: each folder of comops/ -> the folders its files may include."""
    path = source / "comops" / "includes.txt"
    rules = {}
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        match = RULE.match(line)
        if not match or match.group(1) in rules:
            raise ValueError(f"comops/includes.txt:{number}: not one line \"comops/FOLDER: "
                             f"FOLDER ...\" of a folder not named before: {line}")
        rules[match.group(1)] = set(match.group(2).split())
    return rules


def folder_of(include: str, tops: set) -> str:
    """The folder a quoted include names ("comops/shm", "harness", "swcc"), or "" for one of
    no folder of the repository (a file beside the includer, a system or generated header)."""
    parts = include.split("/")
    if len(parts) < 2 or parts[0] not in tops:
        return ""
    if parts[0] == "comops":
        return include if len(parts) == 2 else "comops/" + parts[1]
    return parts[0]


def backend_violations(source: pathlib.Path) -> list:
    """One message per include of comops/<folder>/ that comops/includes.txt does not allow."""
    comops = source / "comops"
    if not comops.is_dir():
        return []
    rules = include_rules(source)
    tops = {p.name for p in source.iterdir() if p.is_dir()} | {"comops"}
    found = []
    for folder in sorted(p for p in comops.iterdir() if p.is_dir()):
        own = f"comops/{folder.name}"
        if own not in rules:
            found.append(f"{own}: a folder that comops/includes.txt does not list")
            continue
        allowed = rules[own] | {own} | SHARED
        for path in sorted(folder.rglob("*")):
            if path.suffix not in SOURCES:
                continue
            for number, line in enumerate(path.read_text().splitlines(), 1):
                match = QUOTED.match(line)
                target = folder_of(match.group(1), tops) if match else ""
                if target and target not in allowed:
                    found.append(f"{path.relative_to(source)}:{number}: {own} includes "
                                 f"{match.group(1)}, and comops/includes.txt does not let it "
                                 f"include {target}")
    return found


def main(argv: list) -> int:
    if argv[1:] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    if len(argv) > 2:
        print("usage: check_layers.py [SOURCE_DIR]", file=sys.stderr)
        return 2
    source = pathlib.Path(argv[1] if len(argv) == 2 else pathlib.Path(__file__).parents[1])
    try:
        found = violations(source) + backend_violations(source)
    except (OSError, ValueError) as e:
        print(f"check_layers.py: error: {e}", file=sys.stderr)
        return 2
    for message in found:
        print(message)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
