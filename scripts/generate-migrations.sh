#!/usr/bin/env bash
# Writes the SQL of Migrations/ as Swift source, so that the library carries its schema without
# reading files or SwiftPM resources at run time (`.embedInCode` breaks multi-architecture builds,
# SwiftPM #6969):
#
#   Migrations/NNNN_what.sql             -> Sources/NavStore/SQLite/Migrator+Files.swift
#   Migrations/postgresql/NNNN_what.sql  -> Sources/NavStorePostgreSQL/PostgreSQLMigrator+Files.swift
#
# Each file becomes one raw string literal holding its bytes unchanged, in name order. Adding a
# migration is: drop the .sql file into its folder, run this script, commit both. A test
# (MigrationFilesTests) fails, naming this script, while the Swift source and the folder differ.
#
#   scripts/generate-migrations.sh           write the two files
#   scripts/generate-migrations.sh --check   write nothing; exit 1 when either file is stale
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C

check=false
case "${1-}" in
  --check) check=true ;;
  "") ;;
  *) echo "usage: scripts/generate-migrations.sh [--check]" >&2; exit 64 ;;
esac

fail() { echo "generate-migrations: $*" >&2; exit 65; }

# The Swift source for the .sql files of folder $1: a static property $3 of type $2, with
# access level $4, in a file that imports module $5 (none when empty).
generate() {
  local folder=$1 type=$2 property=$3 access=$4 module=$5
  local files=("$folder"/*.sql)
  [ -e "${files[0]}" ] || fail "no .sql file in $folder"
  cat <<EOF
// Generated from $folder/*.sql by scripts/generate-migrations.sh: do not edit.
// To change the schema, add a numbered .sql file there and run the script (a shipped migration
// is never edited).

EOF
  [ -z "$module" ] || printf 'import %s\n\n' "$module"
  cat <<EOF
extension $type {
    /// The migrations of \`$folder/\`, oldest first:
    /// each file's name without \`.sql\` and its text, byte for byte.
    $access static let $property: [Migration] = [
EOF
  local number=0 file name text hashes
  for file in "${files[@]}"; do
    name=$(basename "$file" .sql)
    number=$((number + 1))
    [[ $name =~ ^[0-9]{4}_[a-z0-9_]+$ ]] || fail "$file: the name is not NNNN_what.sql (digits, then lower-case letters, digits, _)"
    [ "$((10#${name:0:4}))" -eq "$number" ] || fail "$file: expected number $(printf %04d "$number") (numbered 1...n without gaps)"
    iconv -f UTF-8 -t UTF-8 "$file" >/dev/null 2>&1 || fail "$file is not UTF-8 text"
    # A multi-line string literal reads every line break as "\n": a carriage return would not
    # survive byte for byte.
    ! grep -q $'\r' "$file" || fail "$file holds a carriage return (CR): save it with LF line ends"
    # Enough '#' that nothing in the text ends the literal or starts an escape in it.
    text=$(cat "$file"; printf x)
    text=${text%x}
    hashes='#'
    while [[ $text == *"\"$hashes"* || $text == *"\\$hashes"* ]]; do hashes+='#'; done
    printf '        Migration(\n'
    printf '            identifier: "%s",\n' "$name"
    printf '            sql: %s"""\n' "$hashes"
    # Every line is indented as deep as the closing delimiter, which the literal removes again
    # (empty lines stay empty). The literal's last line break is not part of its value, so one
    # more follows the text: a file that ends with a line break gets an empty line before the
    # closing delimiter.
    printf '%s\n' "$text" | sed 's/^./                &/'
    printf '                %s""%s),\n' '"' "$hashes"
  done
  cat <<EOF
    ]
}
EOF
}

targets=(
  "Migrations|Migrator|files|package||Sources/NavStore/SQLite/Migrator+Files.swift"
  "Migrations/postgresql|PostgreSQLMigrator|all|package|NavStore|Sources/NavStorePostgreSQL/PostgreSQLMigrator+Files.swift"
)
stale=()
for target in "${targets[@]}"; do
  IFS='|' read -r folder type property access module output <<<"$target"
  generated=$(mktemp)
  generate "$folder" "$type" "$property" "$access" "$module" >"$generated"
  if $check; then
    cmp -s "$generated" "$output" || stale+=("$output")
    rm -f "$generated"
  else
    mv "$generated" "$output"
    chmod 644 "$output"
    echo "wrote $output"
  fi
done
if [ ${#stale[@]} -gt 0 ]; then
  echo "stale: ${stale[*]} (run scripts/generate-migrations.sh)" >&2
  exit 1
fi
