#!/usr/bin/env bash
# CI: rebuild the Action bundle and fail when it differs from the committed one, so that
# action/dist/index.js always is the build of the committed source (actions/typescript-action's
# check-dist). Run after `npm ci`.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f action/dist/index.js ]; then
  echo "action/dist/index.js is missing: run npm run build:action and commit it" >&2
  exit 1
fi
committed="$(mktemp)"
trap 'cp "$committed" action/dist/index.js; rm -f "$committed"' EXIT
cp action/dist/index.js "$committed"
node scripts/build-action.mjs
if ! cmp -s "$committed" action/dist/index.js; then
  echo "action/dist/index.js differs from a fresh build of the source." >&2
  echo "Run 'npm run build:action' and commit action/dist/index.js." >&2
  git --no-pager diff --no-index --stat "$committed" action/dist/index.js >&2 || true
  exit 1
fi
echo "action/dist/index.js matches a fresh build"
