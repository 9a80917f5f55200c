#!/usr/bin/env bash
# Installs every system package the build and the tests need (Debian apt + npm).
# Idempotent and quick when everything is present: it only calls apt/npm for what is missing.
#   scripts/bootstrap.sh           everything `make test` and `make bench` need
#   scripts/bootstrap.sh --build   only what building the seven binaries needs (`make start`)
set -euo pipefail
cd "$(dirname "$0")/.."
build_only=0
[[ ${1:-} == --build ]] && build_only=1

# What compiling and linking the product needs (the pixel font atlas is generated at build time).
APT_PACKAGES=(
  build-essential cmake ninja-build ccache pkg-config git python3
  nlohmann-json3-dev libsqlitecpp-dev libsqlite3-dev libcpp-httplib-dev
  libtree-sitter-dev libspdlog-dev libfmt-dev
  libyaml-cpp-dev libgumbo-dev zlib1g-dev libssl-dev openssl libbrotli-dev unicode-data
  fonts-spleen unifont libgtest-dev libgmock-dev
)
# (GoogleTest too: configuring the release tree finds it, so `make start` and `make test` share it.)
# What the tests, sanitizer trees, benchmarks and the realworld generator run.
((build_only)) || APT_PACKAGES+=(
  python3-yaml sqlite3
  clang libclang-rt-14-dev libc++-14-dev libc++abi-14-dev clang-format clang-tidy wrk hyperfine chromium time
  strace valgrind curl procps binutils
)
# Node.js may come from NodeSource, whose nodejs bundles npm and conflicts with
# Debian's npm package: only ask apt for them when the commands are missing.
command -v node >/dev/null 2>&1 || APT_PACKAGES+=(nodejs)
command -v npm >/dev/null 2>&1 || APT_PACKAGES+=(npm)

missing=()
for p in "${APT_PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if ((${#missing[@]})); then
  echo "bootstrap: installing ${missing[*]}" >&2
  SUDO=""
  if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if ((build_only)); then
  echo "bootstrap: ok (build)" >&2
  exit 0
fi

# npm packages for the e2e tests and benchmarks (pinned by tests/e2e/package-lock.json).
# tests/e2e/agents holds the real coding agents (Codex CLI, Gemini CLI, opencode, Qwen Code) in
# their own tree so they can be updated without touching the shared client install. (Qwen Code
# declares node >= 22; its one-shot mode works on Debian 12's node 20, which the tests use.)
for dir in tests/e2e tests/e2e/agents; do
  stamp=$dir/node_modules/.caveman-lock-stamp
  if [[ ! -f $stamp ]] || ! cmp -s $dir/package-lock.json "$stamp"; then
    echo "bootstrap: npm ci in $dir" >&2
    # The agents' lock omits other platforms' optional binaries (opencode-darwin-*, …), which
    # `npm ci` rejects as out of sync; `npm install` installs the locked versions all the same.
    if [[ $dir == tests/e2e/agents ]]; then
      (cd $dir && npm install --no-audit --no-fund --no-save --loglevel=error)
    else
      (cd $dir && npm ci --no-audit --no-fund --loglevel=error)
    fi
    cp $dir/package-lock.json "$stamp"
  fi
done
# Markup sources for the realworld evaluation (bench/realworld/): published npm tarballs, unpacked
# only (no install scripts run), re-fetched when the pinned list changes.
markup=bench/realworld/markup-src
if ! cmp -s bench/realworld/markup-packages.txt "$markup/.stamp" 2>/dev/null; then
  echo "bootstrap: npm pack the realworld markup packages" >&2
  rm -rf "$markup" && mkdir -p "$markup"
  grep -v '^#' bench/realworld/markup-packages.txt | while read -r spec; do
    [[ -n $spec ]] || continue
    tgz=$(cd "$markup" && npm pack --silent --loglevel=error "$spec" | tail -n 1)
    dir="$markup/${tgz%.tgz}"
    mkdir -p "$dir" && tar -xzf "$markup/$tgz" -C "$dir" && rm "$markup/$tgz"
  done
  cp bench/realworld/markup-packages.txt "$markup/.stamp"
fi
echo "bootstrap: ok" >&2
