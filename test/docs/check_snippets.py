#!/usr/bin/env python3
"""check_snippets.py README FILE...: every region of FILE between the lines
`[snippet:NAME]` and `[/snippet:NAME]` (in a comment) must appear in README,
line for line (common indentation removed), so README's code is the code CI
compiles and runs. Prints what is missing and exits 1."""
import re
import sys
import textwrap


def snippets(path):
    text = open(path).read().splitlines()
    out, name, body = [], None, []
    for line in text:
        start = re.search(r"\[snippet:([\w-]+)\]", line)
        end = re.search(r"\[/snippet:([\w-]+)\]", line)
        if start and name is None:
            name, body = start.group(1), []
        elif end and name == end.group(1):
            out.append((name, textwrap.dedent("\n".join(body)).strip("\n")))
            name = None
        elif name is not None:
            body.append(line)
    if name is not None:
        sys.exit(f"{path}: snippet {name} is not closed")
    return out


def main():
    readme = open(sys.argv[1]).read()
    failed = False
    count = 0
    for path in sys.argv[2:]:
        found = snippets(path)
        if not found:
            print(f"{path}: no snippet markers")
            failed = True
        for name, body in found:
            count += 1
            if body not in readme:
                print(f"{path}: snippet '{name}' is not in {sys.argv[1]} "
                      f"as written; copy it there:\n{body}")
                failed = True
    print(f"{count} snippets checked")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
