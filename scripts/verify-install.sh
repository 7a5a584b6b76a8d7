#!/usr/bin/env bash
# Run by hand (it downloads Claude Code and the MCP Inspector): installs pancake-mcp each way the
# README says, from a fresh clone of this repository's committed HEAD, and connects each install
# from Claude Code's CLI (`claude mcp add`, then `claude mcp list` must show it connected) and from
# the MCP Inspector's CLI (tools/list, with its schema portability check). Everything runs against
# --demo, so no shop credentials are needed; Claude Code gets a throwaway HOME.
#
#   bash scripts/verify-install.sh            # versions below, or override:
#   CLAUDE_CODE=@anthropic-ai/claude-code@2.1.330 INSPECTOR=@modelcontextprotocol/inspector@2.12.0 bash scripts/verify-install.sh
#
# The git-URL path installs from git+file://<this repository>, the same mechanism npm uses for
# git+https://github.com/... (a clone, a dev install, the prepare script's build, a pack).
set -euo pipefail

CLAUDE_CODE=${CLAUDE_CODE:-@anthropic-ai/claude-code@latest}
INSPECTOR=${INSPECTOR:-@modelcontextprotocol/inspector@latest}
REPO=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/pancake-verify-XXXXXX")
TOKEN="verify-install-token-$(date +%s)"
HTTP_PID=""
cleanup() {
  if [ -n "$HTTP_PID" ]; then kill "$HTTP_PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT
step() { printf '\n=== %s\n' "$*"; }

step "tools: $CLAUDE_CODE, $INSPECTOR (into $WORK/tools)"
mkdir -p "$WORK/tools" && (cd "$WORK/tools" && npm init -y >/dev/null && npm install --no-audit --no-fund --loglevel=error "$CLAUDE_CODE" "$INSPECTOR" >/dev/null)
CLAUDE="$WORK/tools/node_modules/.bin/claude"
INSPECT="$WORK/tools/node_modules/.bin/mcp-inspector"
"$CLAUDE" --version

step "1. from a clone: npm ci && npm run build"
git clone --quiet "$REPO" "$WORK/clone"
(cd "$WORK/clone" && git log -1 --format='commit %h %s' && npm ci --no-audit --no-fund --loglevel=error >/dev/null && npm run build --silent)
CLONE_CMD=(node "$WORK/clone/dist/cli.js")

step "2. from a packed tarball: npm pack, npm i -g ./pancake-mcp-*.tgz"
(cd "$WORK/clone" && npm pack --silent --ignore-scripts >/dev/null)
npm install --global --prefix "$WORK/tarball" --no-audit --no-fund --loglevel=error "$WORK"/clone/pancake-mcp-*.tgz >/dev/null
TARBALL_CMD=("$WORK/tarball/bin/pancake-mcp")
echo "installed: $(ls "$WORK/tarball/lib/node_modules/pancake-mcp") (no node_modules: $([ -d "$WORK/tarball/lib/node_modules/pancake-mcp/node_modules" ] && echo no || echo yes))"

step "3. from the git URL: npm pack git+file://$REPO, npm i -g ./pancake-mcp-*.tgz"
# npm pack builds a git package (dev install, prepare) before packing it. A one-step
# `npm i -g git+...` does not: npm skips a git package's devDependencies on global installs
# (https://github.com/npm/cli/issues/8440), so its build cannot run.
mkdir -p "$WORK/git-pack" && (cd "$WORK/git-pack" && npm pack --silent "git+file://$REPO" >/dev/null)
npm install --global --prefix "$WORK/git" --no-audit --no-fund --loglevel=error "$WORK"/git-pack/pancake-mcp-*.tgz >/dev/null
GIT_CMD=("$WORK/git/bin/pancake-mcp")

step "4. over HTTP: pancake-mcp --http with a bearer token"
PORT=$((20000 + RANDOM % 20000))
PANCAKE_MCP_TOKEN=$TOKEN "${TARBALL_CMD[@]}" --demo --http --port "$PORT" 2>"$WORK/http.log" &
HTTP_PID=$!
for _ in $(seq 1 50); do grep -q "ready on" "$WORK/http.log" 2>/dev/null && break; sleep 0.2; done
URL="http://127.0.0.1:$PORT/mcp"
echo "serving $URL"

step "Claude Code: claude mcp add (one per install path), then claude mcp list"
export HOME="$WORK/home" && mkdir -p "$HOME" "$WORK/project" && cd "$WORK/project"
"$CLAUDE" mcp add pancake-clone -- "${CLONE_CMD[@]}" --demo >/dev/null
"$CLAUDE" mcp add pancake-tarball -- "${TARBALL_CMD[@]}" --demo >/dev/null
"$CLAUDE" mcp add pancake-git -- "${GIT_CMD[@]}" --demo >/dev/null
"$CLAUDE" mcp add --transport http pancake-http "$URL" --header "Authorization: Bearer $TOKEN" >/dev/null
"$CLAUDE" mcp add --transport http pancake-http-wrong-token "$URL" --header "Authorization: Bearer wrong-token-0123456789" >/dev/null
"$CLAUDE" mcp list | tee "$WORK/claude-list.txt"
for name in pancake-clone pancake-tarball pancake-git pancake-http; do
  grep -q "^$name: .*Connected" "$WORK/claude-list.txt" || { echo "FAIL: $name is not connected in claude mcp list" >&2; exit 1; }
done

step "MCP Inspector CLI: tools/list through each install path (--strict: schema portability)"
inspect() {
  local label=$1
  shift
  local out
  out=$("$INSPECT" --cli "$@" --method tools/list --strict 2>"$WORK/inspect.err")
  echo "$label: $(node -e 'const r = JSON.parse(require("fs").readFileSync(0, "utf8")); console.log(r.tools.length + " tools")' <<<"$out"); portability: $(tr '\n' ' ' <"$WORK/inspect.err" | cut -c1-300)"
}
inspect clone "${CLONE_CMD[@]}" --demo
inspect tarball "${TARBALL_CMD[@]}" --demo
inspect git "${GIT_CMD[@]}" --demo
inspect "clone, all toolsets" "${CLONE_CMD[@]}" --demo --toolsets all
inspect http "$URL" --transport http --header "Authorization: Bearer $TOKEN"
step "all install paths connected"
