#!/usr/bin/env python3
"""Checks that harness/'s layers include only their own layer or lower ones.

The layers, bottom-up, are the list COMOPS_HARNESS_LAYERS in harness/CMakeLists.txt; each is a
folder harness/<layer>/ and a library. A file of harness/<layer>/ may include
"harness/<lower or same layer>/...", and the files at harness/'s top (the driver, the top layer)
any layer and each other; a lower layer including a top file breaks the layering too. Also refused: an include of a harness header outside every layer folder (except the
generated harness/version.hpp). Prints one line per offending include, file:line, and exits 1;
exits 0 when the tree is layered, 2 on bad usage.

Usage: check_layers.py [SOURCE_DIR]   (default: the checkout this script is in)
"""
import pathlib
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"harness/([^"]+)"')
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
        if path.suffix not in (".cpp", ".hpp", ".in"):
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


def main(argv: list) -> int:
    if argv[1:] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    if len(argv) > 2:
        print("usage: check_layers.py [SOURCE_DIR]", file=sys.stderr)
        return 2
    source = pathlib.Path(argv[1] if len(argv) == 2 else pathlib.Path(__file__).parents[1])
    try:
        found = violations(source)
    except (OSError, ValueError) as e:
        print(f"check_layers.py: error: {e}", file=sys.stderr)
        return 2
    for message in found:
        print(message)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
