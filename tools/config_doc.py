#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Print the Markdown table of every HYBLAS_* setting from
core/config/hyb_config_vars.def (the README's table), or with --check README,
verify that the README lists every one. Standard library only."""
import re
import sys

DEF = "core/config/hyb_config_vars.def"


def settings(path):
    text = open(path, encoding="utf-8").read()
    out = []
    for m in re.finditer(r"HYB_VAR\(\s*(\w+),\s*(\w+),\s*\w+,\s*\"([^\"]*)\",\s*[^,]+,\s*[^,]+,((?:\s*\"(?:[^\"\\]|\\.)*\")+)\s*\)", text):
        name, typ, default, help_parts = m.group(1), m.group(2), m.group(3), m.group(4)
        helptext = "".join(re.findall(r"\"((?:[^\"\\]|\\.)*)\"", help_parts)).replace('\\"', '"')
        out.append((name, typ.lower(), default, helptext))
    return out


def main():
    root = sys.argv[sys.argv.index("--root") + 1] if "--root" in sys.argv else "."
    rows = settings(f"{root}/{DEF}")
    if "--check" in sys.argv:
        readme = open(sys.argv[sys.argv.index("--check") + 1], encoding="utf-8").read()
        missing = [n for n, *_ in rows if f"`{n}`" not in readme]
        if missing:
            print("README lacks: " + " ".join(missing))
            return 1
        print(f"README lists all {len(rows)} settings")
        return 0
    print("| variable | type | default | meaning |")
    print("|---|---|---|---|")
    for name, typ, default, helptext in rows:
        print(f"| `{name}` | {typ} | `{default or '(none)'}` | {helptext.replace('|', '&#124;')} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
