#!/bin/sh
# Run the git-ctx hook through the pre-commit framework for real, the way a user's project
# does: .pre-commit-config.yaml names this package's repository at a commit, `pre-commit
# install` wires the hook, and real `git commit`s are blocked or let through.
#
# The framework clones the hook repository with git (a local path works offline) and
# installs it with `npm install` + `npm pack` + `npm install -g <tarball>`, which needs
# the npm registry for the package's dependencies.
#
# Usage: scripts/ci-precommit.sh            (from anywhere inside this checkout)
# Needs: pre-commit (Debian: apt-get install -y pre-commit), git, node, npm.
# Exit status: 0 when every expectation held; 1 with the reason otherwise.
set -eu

fail() {
  echo "ci-precommit: FAIL: $*" >&2
  exit 1
}

command -v pre-commit >/dev/null 2>&1 || fail "pre-commit is not installed (apt-get install -y pre-commit)"
src=$(cd "$(dirname -- "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/git-ctx-ci-precommit.XXXXXX")
if [ "${KEEP_WORK:-}" != "1" ]; then
  trap 'rm -rf "$work"' EXIT
fi

# a fixed identity and no user or system configuration, so the run is the same everywhere
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME=ci GIT_AUTHOR_EMAIL=ci@example.com GIT_COMMITTER_NAME=ci GIT_COMMITTER_EMAIL=ci@example.com
export PRE_COMMIT_HOME="$work/pre-commit-home" NO_COLOR=1
unset GIT_DIR GIT_INDEX_FILE GIT_WORK_TREE GIT_CTX_SKIP

# 1. The hook repository: this checkout's files as they are on disk (tracked and untracked,
#    .gitignore honoured), committed into a fresh repository. Copying rather than cloning
#    lets uncommitted work be tested; in CI the checkout is clean and it is the same thing.
pkg="$work/git-ctx-pkg"
mkdir -p "$pkg"
(cd "$src" && git ls-files -z --cached --others --exclude-standard) | (cd "$src" && xargs -0 sh -c 'for f; do [ -f "$f" ] && printf "%s\0" "$f"; done' sh) |
  (cd "$src" && tar --null -T - -cf -) | (cd "$pkg" && tar -xf -)
git -C "$pkg" init -q -b main
git -C "$pkg" add -A
git -C "$pkg" commit -q -m "git-ctx under test"
rev=$(git -C "$pkg" rev-parse HEAD)

# 2. A project that uses it.
proj="$work/project"
mkdir -p "$proj"
cp -R "$src/test/fixtures/hook-repo/." "$proj/"
cat >"$proj/.pre-commit-config.yaml" <<EOF
repos:
  - repo: $pkg
    rev: $rev
    hooks:
      - id: git-ctx
EOF
cd "$proj"
git init -q -b main
git add -A
git commit -q --no-verify -m "project"
pre-commit install >/dev/null

# 3. First use installs the hook environment (npm install, npm pack, npm install -g): do
#    it explicitly so that a packaging failure is reported as such.
pre-commit install-hooks >"$work/install.log" 2>&1 || {
  cat "$work/install.log" >&2
  cat "$PRE_COMMIT_HOME/pre-commit.log" >&2 2>/dev/null || true
  fail "the pre-commit framework could not install the git-ctx hook environment"
}

# 4. A clean commit passes.
echo "# changed" >README.md
git add README.md
git commit -q -m "clean change" >"$work/clean.log" 2>&1 || {
  cat "$work/clean.log" >&2
  fail "a clean commit was blocked"
}
grep -q "git-ctx" "$work/clean.log" || {
  cat "$work/clean.log" >&2
  fail "the git-ctx hook did not run on a clean commit"
}
# verbose: true in .pre-commit-hooks.yaml: the hook's own summary is shown when it passes
# (drift warnings do not fail the hook, and would be hidden otherwise)
grep -q "staged path" "$work/clean.log" || {
  cat "$work/clean.log" >&2
  fail "the hook's output was hidden on a passing commit (verbose: true missing?)"
}

# 5. A staged error blocks.
dec=.contextia/system/rationale/DEC-BILLING-001.md
sed 's/links: { specs: \[SPEC-BILLING-001\] }/links: { specs: [SPEC-BILLING-001, SPEC-MISSING-404] }/' "$dec" >"$dec.tmp" && mv "$dec.tmp" "$dec"
git add "$dec"
before=$(git rev-parse HEAD)
if git commit -q -m "broken link" >"$work/broken.log" 2>&1; then
  cat "$work/broken.log" >&2
  fail "a commit with a broken link was not blocked"
fi
grep -q "SPEC-MISSING-404" "$work/broken.log" || {
  cat "$work/broken.log" >&2
  fail "the block did not name the broken link"
}
[ "$(git rev-parse HEAD)" = "$before" ] || fail "HEAD moved although the commit was blocked"

# 6. The bypass works through the framework too.
GIT_CTX_SKIP=1 git commit -q -m "skipped" >"$work/skip.log" 2>&1 || {
  cat "$work/skip.log" >&2
  fail "GIT_CTX_SKIP=1 did not let the commit through"
}

echo "ci-precommit: ok (pre-commit $(pre-commit --version | sed 's/^pre-commit //'), hook repository at $rev)"
