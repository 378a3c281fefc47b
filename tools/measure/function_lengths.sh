#!/usr/bin/env bash
# Function lengths (lines from signature to closing brace) of the C++ files under the given
# folders, from Universal Ctags (Debian package universal-ctags): a summary line per folder and
# the longest functions. Usage: tools/measure/function_lengths.sh [--top N] DIR...
# At another commit: git archive <commit> service | tar -x -C /tmp/old && run it on /tmp/old/service.
set -euo pipefail
top=10
if [[ ${1:-} == --top ]]; then
    top=$2
    shift 2
fi
[[ $# -gt 0 ]] || set -- service
command -v ctags >/dev/null || { echo "function_lengths: needs ctags (apt-get install universal-ctags)" >&2; exit 2; }
for dir in "$@"; do
    lengths=$(ctags -x --_xformat="%{name} %{input}:%{line} %{end}" --kinds-C++=f --languages=C++ \
        -R "$dir" 2>/dev/null | awk '$3 != "" {split($2, a, ":"); print $3 - a[2] + 1, $2, $1}' |
        sort -rn)
    echo "$lengths" | awk -v dir="$dir" '
        { n[NR] = $1; total += $1; if ($1 > 40) long++; if ($1 > 60) vlong++ }
        END {
            median = NR % 2 ? n[(NR + 1) / 2] : (n[NR / 2] + n[NR / 2 + 1]) / 2
            printf "%s: %d functions, median %s lines, longest %d, over 40 lines: %d, over 60: %d\n",
                   dir, NR, median, n[1], long + 0, vlong + 0
        }'
    echo "$lengths" | head -n "$top" | sed 's/^/  /'
done
