#!/usr/bin/env bash
# Fails when a tracked C++ file differs from what clang-format 14 makes of it under the
# repository's .clang-format, naming each such file. Other clang-format versions format
# differently, so only 14 is accepted.
set -euo pipefail
top=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
cd "$top"
if ! command -v clang-format-14 >/dev/null 2>&1; then
    echo "format_check: clang-format-14 not found (packaging/bootstrap.sh installs it)" >&2
    exit 1
fi
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    mapfile -t files < <(git ls-files -- '*.h' '*.cpp')
else
    mapfile -t files < <(find . -path ./build\* -prune -o \( -name '*.h' -o -name '*.cpp' \) -print | sort)
fi
bad=()
for file in "${files[@]}"; do
    if ! clang-format-14 --style=file --dry-run --Werror "$file" >/dev/null 2>&1; then
        bad+=("$file")
    fi
done
if [ ${#bad[@]} -gt 0 ]; then
    printf 'format_check: not formatted: %s\n' "${bad[@]}" >&2
    echo "format_check: ${#bad[@]} of ${#files[@]} files differ; run clang-format-14 -i on them" >&2
    exit 1
fi
echo "format_check: ${#files[@]} files formatted"
