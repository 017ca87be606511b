#!/usr/bin/env bash
# Render the pictures README.md and docs/books.md show from the shipped templates:
#   bash scripts/readme-images.sh [BINARY]      (default: target/release/puzzlebook)
# Needs pdftoppm and pdftotext (Debian: poppler-utils). Writes docs/img/*.png.
set -euo pipefail
cd "$(dirname "$0")/.."
pb="${1:-target/release/puzzlebook}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
export SOURCE_DATE_EPOCH=1700000000
book() { "$pb" book --template "templates/$1.toml" --out "$tmp/$1.pdf" >/dev/null 2>&1; }
# The first page whose first line holds $2 (a section's heading, "Answers").
page_of() {
    local n
    n="$(pdftotext -enc UTF-8 "$tmp/$1.pdf" - |
        awk -v h="$2" 'BEGIN { RS = "\f" } { split($0, l, "\n"); if (index(l[1], h) > 0) { print NR; exit } }')"
    [[ -n "$n" ]] || { echo "no page of $1 starts with '$2'" >&2; exit 1; }
    echo "$n"
}
shot() { # book heading name: the page a heading starts (a failed lookup stops the script)
    local page
    page="$(page_of "$1" "$2")"
    pdftoppm -png -r 60 -f "$page" -l "$page" -singlefile "$tmp/$1.pdf" "docs/img/$3"
}
for t in flip-6x9 numbrix-6x9 number-match carcassonne catan-almanac; do book "$t"; done
shot flip-6x9 'The classic 5' book-flip
shot numbrix-6x9 'Medium' book-numbrix
shot number-match 'Warm-up: two adds' book-number-match
shot carcassonne 'Medium landscapes' book-carcassonne
shot catan-almanac 'players: reds apart' book-catan
shot number-match 'Answers' book-answers
"$pb" cover --template templates/numbrix-6x9.toml --out "$tmp/cover.pdf" >/dev/null 2>&1
pdftoppm -png -r 30 -singlefile "$tmp/cover.pdf" docs/img/cover-numbrix-6x9
ls -l docs/img
