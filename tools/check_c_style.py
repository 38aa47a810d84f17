# SPDX-License-Identifier: Apache-2.0
"""The house style of the C sources (csrc/ and tests/c/, every .c and .h), the rules a
reviewer would otherwise check by eye:

- lines at most 120 characters;
- an SPDX-License-Identifier line among the first lines;
- no tab, no trailing space;
- a header's include guard (its first directive: #ifndef X, then #define X) named after
  the file: X ends with the file's name in capitals, non-alphanumerics as _ (field_asm.h:
  P256_FIELD_ASM_H), and the file's last directive is its #endif.

Generated files (a "DO NOT EDIT" line among the first lines) are skipped: their generator
is the place to fix them, and tests/test_generated.py checks that they match it.

Usage: python3 tools/check_c_style.py [FILE_OR_DIR ...] (default: csrc tests/c). Prints
one "path:line: what" per violation and exits 1 if there is any, else 0.
"""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_TREES = ("csrc", os.path.join("tests", "c"))
SUFFIXES = (".c", ".h")
MAX_LINE = 120
HEAD_LINES = 5  # where the SPDX and DO NOT EDIT lines must be

_DIRECTIVE = re.compile(r"^\s*#\s*(\w+)\s*(\S*)")


def guard_name(path):
    """The suffix a header's include guard must end with: field_asm.h -> FIELD_ASM_H."""
    return re.sub(r"[^A-Za-z0-9]", "_", os.path.basename(path)).upper()


def is_generated(lines):
    return any("DO NOT EDIT" in line for line in lines[:HEAD_LINES])


def check_text(path, text):
    """[(line, what)] of the violations in one file's text (path names the file)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if is_generated(lines):
        return []
    out = []
    if not any("SPDX-License-Identifier:" in line for line in lines[:HEAD_LINES]):
        out.append((1, "no SPDX-License-Identifier line in the first %d lines" % HEAD_LINES))
    for no, line in enumerate(lines, 1):
        if len(line) > MAX_LINE:
            out.append((no, "line of %d characters (at most %d)" % (len(line), MAX_LINE)))
        if "\t" in line:
            out.append((no, "tab"))
        if line != line.rstrip():
            out.append((no, "trailing whitespace"))
    if path.endswith(".h"):
        out.extend(check_guard(path, lines))
    return out


def check_guard(path, lines):
    want = guard_name(path)
    directives = [(no, m.group(1), m.group(2)) for no, line in enumerate(lines, 1)
                  for m in [_DIRECTIVE.match(line)] if m]
    if len(directives) < 2 or directives[0][1] != "ifndef" or directives[1][1] != "define" \
            or directives[0][2] != directives[1][2]:
        where = directives[0][0] if directives else 1
        return [(where, "no include guard (#ifndef X, #define X first; X ending in %s)" % want)]
    name = directives[0][2]
    out = []
    if not name.endswith(want) or (len(name) > len(want) and name[-len(want) - 1] != "_"):
        out.append((directives[0][0], "include guard %s not named after the file (...%s)"
                    % (name, want)))
    if directives[-1][1] != "endif":
        out.append((directives[-1][0], "the include guard's #endif is not the last directive"))
    return out


def c_files(args):
    """The .c and .h files named or under the directories named, sorted."""
    found = []
    for arg in args:
        if os.path.isdir(arg):
            for dirpath, dirs, files in os.walk(arg):
                dirs[:] = sorted(d for d in dirs if d != "bin")  # build outputs
                found.extend(os.path.join(dirpath, f) for f in files if f.endswith(SUFFIXES))
        else:
            found.append(arg)
    return sorted(found)


def main(argv):
    args = argv[1:] or [os.path.join(ROOT, t) for t in DEFAULT_TREES]
    files = c_files(args)
    count = 0
    for path in files:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        inside = os.path.abspath(path).startswith(ROOT + os.sep)
        shown = os.path.relpath(path, ROOT) if os.path.isabs(path) and inside else path
        for no, what in check_text(path, text):
            print("%s:%d: %s" % (shown, no, what))
            count += 1
    if count:
        print("check_c_style: %d violation(s) in %d files" % (count, len(files)))
        return 1
    print("check_c_style: %d files, no violation" % len(files))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
