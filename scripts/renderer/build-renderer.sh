#!/usr/bin/env bash
# Builds GitBook's open-source renderer (github.com/GitbookIO/gitbook, packages/gitbook) OUTSIDE
# this repository, configured to read everything from a Quire instance. Nothing of GitBook's code
# is kept in Quire: this script clones it from GITBOOK_RENDERER_REPO into GITBOOK_RENDERER_DIR and
# builds it there, as docs/gitbook-renderer.md describes.
#
#   GITBOOK_RENDERER_REPO  git URL or path of the GitbookIO/gitbook repository
#                          (default https://github.com/GitbookIO/gitbook.git)
#   GITBOOK_RENDERER_REF   commit or branch to build (default: the repository's HEAD)
#   GITBOOK_RENDERER_DIR   where to build (default /tmp/gitbook-renderer); reused when present
#   GITBOOK_API_URL        Quire's public URL, inlined at build time (the client appends /v1)
#   GITBOOK_URL            the renderer's own public URL (default http://localhost:3100)
#   STEP                   install | build | all (default all)
set -euo pipefail

REPO="${GITBOOK_RENDERER_REPO:-https://github.com/GitbookIO/gitbook.git}"
DIR="${GITBOOK_RENDERER_DIR:-/tmp/gitbook-renderer}"
STEP="${STEP:-all}"
: "${GITBOOK_API_URL:?set GITBOOK_API_URL to the Quire URL the renderer reads (e.g. http://127.0.0.1:3000)}"
export GITBOOK_API_URL
export GITBOOK_URL="${GITBOOK_URL:-http://localhost:3100}"
# The renderer falls back to this bearer token when a request carries none; Quire needs none,
# since every site request gets its own site token from POST /v1/urls/published.
export GITBOOK_API_TOKEN="${GITBOOK_API_TOKEN:-quire-renderer-no-fallback-token}"
export GITBOOK_DISABLE_TRACKING=true
export NEXT_TELEMETRY_DISABLED=1 TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1

if [ ! -d "$DIR/.git" ]; then
  git clone --quiet "$REPO" "$DIR"
  if [ -n "${GITBOOK_RENDERER_REF:-}" ]; then git -C "$DIR" checkout --quiet "$GITBOOK_RENDERER_REF"; fi
fi
cd "$DIR"

BUN_DIR="$DIR/.quire-bun"
if [ ! -x "$BUN_DIR/node_modules/.bin/bun" ]; then
  # The renderer's package manager (packageManager: bun@1.3.7), from the npm registry.
  mkdir -p "$BUN_DIR" && npm install --silent --prefix "$BUN_DIR" bun@1.3.7
fi
export PATH="$BUN_DIR/node_modules/.bin:$PATH"

if [ "$STEP" = install ] || [ "$STEP" = all ]; then
  # The lockfile pins @gitbook/api@0.195.0, which the npm registry mirror may not have; Quire
  # tests against 0.202.0, so the renderer is built with the same client.
  sed -i 's/"@gitbook\/api": "0\.195\.0"/"@gitbook\/api": "0.202.0"/' package.json
  bun install --ignore-scripts
fi

if [ "$STEP" = build ] || [ "$STEP" = all ]; then
  bunx turbo run build --filter='gitbook^...'
  cd packages/gitbook
  # Next's type check fails on one upstream file (AdaptiveVisitorContextProvider.tsx); the build
  # itself is sound, so the local copy skips the check.
  if ! grep -q ignoreBuildErrors next.config.mjs; then
    sed -i 's/^const nextConfig = {/const nextConfig = {\n    typescript: { ignoreBuildErrors: true },/' next.config.mjs
    grep -q ignoreBuildErrors next.config.mjs || { echo "could not set typescript.ignoreBuildErrors in next.config.mjs" >&2; exit 1; }
  fi
  # Fonts are downloaded from the internet by scripts/download-fonts.ts: skipped here.
  npx --no-install next build --webpack
fi
