#!/usr/bin/env bash
# Try git-ctx on the Acme billing example without touching this checkout:
# copy .contextia-example into a temporary directory, make it its own git repository,
# put `git-ctx` on PATH (so `git ctx …` works) and run a few commands there. Builds git-ctx
# first when this checkout has not been built (npm ci installs, it does not build).
#
#   scripts/try-example.sh            run check, list, for and TASK-042, then remove the copy
#   scripts/try-example.sh --keep     keep the copy and print its path to explore further
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
keep=0
[[ "${1:-}" == "--keep" ]] && keep=1

# the man page is the last thing `npm run build` writes: without it the build is missing or partial
if [[ ! -f "$here/dist/cli.cjs" || ! -f "$here/man/man1/git-ctx.1" ]]; then
  echo "building git-ctx (npm run build)…" >&2
  (cd "$here" && npm run build --silent)
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/git-ctx-example.XXXXXX")"
cleanup() { if [[ $keep -eq 0 ]]; then rm -rf "$work"; fi; }
trap cleanup EXIT

mkdir -p "$work/bin" "$work/acme-billing"
cat >"$work/bin/git-ctx" <<SH
#!/bin/sh
exec node "$here/bin/git-ctx.js" "\$@"
SH
chmod +x "$work/bin/git-ctx"
export PATH="$work/bin:$PATH"

cp -R "$here/.contextia-example/." "$work/acme-billing/"
cd "$work/acme-billing"
git init -q -b main
git -c user.name="Example" -c user.email="example@example.com" -c commit.gpgsign=false add -A
git -c user.name="Example" -c user.email="example@example.com" -c commit.gpgsign=false commit -q -m "Acme billing example"

run() {
  echo
  echo "\$ git ctx $*"
  git ctx "$@"
}

status=0
run check || status=$?
run list
run for src/billing/invoice/totals.ts || status=$?
run TASK-042 || status=$?

echo
if [[ $keep -eq 1 ]]; then
  echo "The example repository is at $work/acme-billing (git-ctx is on PATH via $work/bin)."
  echo "  cd $work/acme-billing && PATH=$work/bin:\$PATH git ctx show DEC-BILLING-001"
fi
exit $status
