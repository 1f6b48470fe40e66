#!/usr/bin/env bash
# Install git-ctx the way users will, from the tarball `npm pack` makes (not the checkout),
# and run every front end from it: globally (CLI, `git ctx --help` man page) and as a
# devDependency of a project (check, the pre-commit hook through a real commit, the MCP
# server through a real client call with the configuration `mcp config --write` wrote).
#
# Usage: scripts/ci-pack.sh        Needs: git, node, npm, the npm registry (for the
# package's dependencies; the npm cache is used when warm), man (for the man page check).
# Exit status: 0 when every expectation held; 1 with the reason otherwise.
set -euo pipefail

fail() {
  echo "ci-pack: FAIL: $*" >&2
  exit 1
}

src=$(cd "$(dirname -- "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/git-ctx-ci-pack.XXXXXX")
if [ "${KEEP_WORK:-}" != "1" ]; then
  trap 'rm -rf "$work"' EXIT
fi
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null NO_COLOR=1
export GIT_AUTHOR_NAME=ci GIT_AUTHOR_EMAIL=ci@example.com GIT_COMMITTER_NAME=ci GIT_COMMITTER_EMAIL=ci@example.com
export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false
unset GIT_DIR GIT_INDEX_FILE GIT_WORK_TREE GIT_CTX_SKIP

# 1. The tarball (prepack builds dist/ and the man page: npm pack runs it; installing the
#    tarball runs no script of the package).
(cd "$src" && npm pack --silent --pack-destination "$work" >"$work/pack.out") || fail "npm pack failed"
tarball="$work/$(tail -n 1 "$work/pack.out")"
[ -f "$tarball" ] || fail "npm pack did not name a tarball: $(cat "$work/pack.out")"
listing=$(tar -tzf "$tarball")
for f in package/LICENSE package/bin/git-ctx.js package/dist/cli.cjs package/dist/cli/main.js package/hooks/pre-commit package/man/man1/git-ctx.1 package/action.yml; do
  grep -qx "$f" <<<"$listing" || fail "the tarball lacks $f"
done
if grep -q '^package/src/\|^package/test/' <<<"$listing"; then fail "the tarball ships sources or tests"; fi
# only what the build writes: the one bundle, and tsc's module of a source file that exists
# (scripts/build-cli-bundle.mjs removes what an earlier build left, DEC-067)
if grep '^package/dist/[^/]*\.cjs$' <<<"$listing" | grep -qvx 'package/dist/cli.cjs'; then fail "the tarball ships a bundle no build writes: $(grep '^package/dist/[^/]*\.cjs$' <<<"$listing" | grep -vx 'package/dist/cli.cjs' | tr '\n' ' ')"; fi
while IFS= read -r f; do
  m=${f#package/dist/}
  m=${m%.d.ts}
  m=${m%.js}
  [ -f "$src/src/$m.ts" ] || fail "the tarball ships $f, whose source src/$m.ts is gone"
done < <(grep '^package/dist/.*\.\(js\|d\.ts\)$' <<<"$listing")

# 2. Global install, into its own prefix (as npm install -g does into /usr/local).
prefix="$work/global"
npm install -g --prefix "$prefix" "$tarball" >"$work/global.log" 2>&1 || { cat "$work/global.log" >&2; fail "npm install -g of the tarball failed"; }
"$prefix/bin/git-ctx" --version | grep -qx "$(node -p "require('$src/package.json').version")" || fail "the global git-ctx does not print the package version"
proj="$work/project"
mkdir -p "$proj"
cp -R "$src/test/fixtures/hook-repo/." "$proj/"
(cd "$proj" && git init -q -b main && git add -A && git commit -q -m project)
(cd "$proj" && PATH="$prefix/bin:$PATH" git ctx check >"$work/check-global.log") || { cat "$work/check-global.log" >&2; fail "git ctx check (global install) failed"; }
if command -v man >/dev/null 2>&1; then
  # git turns `git ctx --help` into `man git-ctx`; npm linked the page under <prefix>/share/man
  (cd "$proj" && PATH="$prefix/bin:$PATH" MANPATH="$prefix/share/man" MANPAGER=cat PAGER=cat git ctx --help >"$work/man.txt" 2>&1) || { cat "$work/man.txt" >&2; fail "git ctx --help did not open the man page"; }
  grep -q "GIT-CTX(1)" "$work/man.txt" || { cat "$work/man.txt" >&2; fail "git ctx --help showed no man page"; }
else
  echo "ci-pack: man is not installed: skipping the man page check" >&2
fi

# 3. As a devDependency of the project, with no git-ctx on PATH.
cat >"$proj/package.json" <<'JSON'
{ "name": "pack-consumer", "private": true }
JSON
(cd "$proj" && npm install --save-dev "$tarball" >"$work/dev.log" 2>&1) || { cat "$work/dev.log" >&2; fail "npm install --save-dev of the tarball failed"; }
printf 'node_modules/\n' >"$proj/.gitignore"
# no installed package may exclude Node 22.12 (engines), the oldest Node git-ctx supports
node -e '
const fs = require("fs"), path = require("path");
const bad = [];
const major = (s) => { const m = /(\d+)/.exec(s); return m ? Number(m[1]) : 0; };
function walk(dir) {
  for (const n of fs.readdirSync(dir)) {
    if (n.startsWith(".")) continue;
    const p = path.join(dir, n);
    if (n.startsWith("@")) { walk(p); continue; }
    const pj = path.join(p, "package.json");
    if (!fs.existsSync(pj)) continue;
    const e = (JSON.parse(fs.readFileSync(pj, "utf8")).engines || {}).node;
    if (e && !e.includes("||") && /^>=?\s*\d/.test(e.trim()) && major(e) > 22) bad.push(`${n}: engines.node ${e}`);
    if (fs.existsSync(path.join(p, "node_modules"))) walk(path.join(p, "node_modules"));
  }
}
walk(process.argv[1]);
if (bad.length) { console.error(bad.join("\n")); process.exit(1); }
' "$proj/node_modules" || fail "an installed dependency excludes Node 22 (engines)"
nopath=$(printf '%s' "$PATH" | tr ':' '\n' | grep -v node_modules | paste -sd: -)
command -v git-ctx >/dev/null 2>&1 && nopath=$(printf '%s' "$nopath" | tr ':' '\n' | grep -vx "$(dirname "$(command -v git-ctx)")" | paste -sd: -)
(cd "$proj" && PATH="$nopath" npx --no-install git-ctx check >"$work/check-dev.log") || { cat "$work/check-dev.log" >&2; fail "npx --no-install git-ctx check (devDependency) failed"; }

# the hook: installed by the project's copy, run by a real commit
(cd "$proj" && PATH="$nopath" node_modules/.bin/git-ctx hooks install >"$work/hooks.log") || { cat "$work/hooks.log" >&2; fail "hooks install failed"; }
echo "# changed" >>"$proj/README.md"
(cd "$proj" && git add README.md && PATH="$nopath" git commit -q -m "a change" >"$work/commit.log" 2>&1) || { cat "$work/commit.log" >&2; fail "a clean commit was blocked"; }
grep -q "staged path" "$work/commit.log" || { cat "$work/commit.log" >&2; fail "the hook did not run git-ctx on commit"; }

# the MCP server: the entry `mcp config --write` wrote, started by a real MCP client
(cd "$proj" && PATH="$nopath" node_modules/.bin/git-ctx mcp config --client claude-code --write >"$work/mcp-config.log") || { cat "$work/mcp-config.log" >&2; fail "mcp config --write failed"; }
cat >"$proj/mcp-call.mjs" <<'JS'
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
// the SDK the tarball brought in, resolved from git-ctx's own dependencies
const require = createRequire(new URL('./node_modules/git-ctx/package.json', import.meta.url));
const sdk = (p) => import(require.resolve(`@modelcontextprotocol/sdk/${p}`));
const { Client } = await sdk('client/index.js');
const { StdioClientTransport } = await sdk('client/stdio.js');
const entry = JSON.parse(readFileSync('.mcp.json', 'utf8')).mcpServers['git-ctx'];
const client = new Client({ name: 'ci-pack', version: '1.0.0' });
await client.connect(new StdioClientTransport({ command: entry.command, args: entry.args, cwd: process.cwd(), env: process.env }));
const r = await client.callTool({ name: 'check', arguments: {} });
console.log(r.content.map((c) => c.text).join(''));
await client.close();
JS
(cd "$proj" && PATH="$nopath" node mcp-call.mjs >"$work/mcp.log" 2>&1) || { cat "$work/mcp.log" >&2; fail "the MCP client call failed"; }
grep -Eq "[0-9]+ artifacts? checked" "$work/mcp.log" || { cat "$work/mcp.log" >&2; fail "the MCP check tool gave no result"; }

echo "ci-pack: ok ($(basename "$tarball"): global install, devDependency, check, hook, MCP, man page)"
