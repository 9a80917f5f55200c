#!/usr/bin/env bash
# Builds the npm tarballs (the esbuild/optionalDependencies pattern: a small MIT launcher package
# plus a per-platform package holding the native binaries):
#   caveman-<v>.tgz                 launcher: bin entries for all seven binaries (npm/caveman)
#   caveman-<os>-<arch>-<v>.tgz     the seven binaries (debug info stripped), os/cpu/libc-gated
#   caveman-mcp-<v>.tgz             the caveman-mcp-only launcher (mcp/package.json)
#   caveman-mcp-<os>-<arch>-<v>.tgz its binary
# The binaries must come from the release preset (CAVEMAN_PORTABLE_RUNTIME: libstdc++ and
# libgcc linked statically); scripts/check_portable.py checks them before anything is packed.
# Usage: scripts/npm_pack.sh [BIN_DIR [OUT_DIR]]   (defaults build/release/bin, build/npm)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/release/bin}
out=${2:-build/npm}
binaries=(caveman caveman-proxy caveman-engine caveman-mcp caveman-shrink caveman-browse cavemem)
version=$(node -p 'require("./mcp/package.json").version')
launcher_version=$(node -p 'require("./npm/caveman/package.json").version')
os=$(node -p 'process.platform')
arch=$(node -p 'process.arch')
[[ $launcher_version == "$version" ]] ||
  { echo "npm_pack: npm/caveman is $launcher_version, mcp/package.json $version" >&2; exit 1; }
for b in "${binaries[@]}"; do
  got=$("$bin/$b" version --json </dev/null | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).version))')
  [[ $got == "$version" ]] || { echo "npm_pack: $bin/$b is version $got, the packages $version" >&2; exit 1; }
done
python3 scripts/check_portable.py "${binaries[@]/#/$bin/}" >&2

rm -rf "$out" && mkdir -p "$out"
out=$(cd "$out" && pwd)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

# platform_package NAME DESCRIPTION BINARY...
platform_package() {
  local name=$1 description=$2; shift 2
  local dir=$stage/$name files=""
  mkdir -p "$dir/bin"
  for b in "$@"; do
    objcopy --strip-debug "$bin/$b" "$dir/bin/$b"
    chmod 0755 "$dir/bin/$b"
    files+="\"bin/$b\", "
  done
  cp LICENSE "$dir/"
  cat > "$dir/package.json" <<JSON
{
  "name": "$name",
  "version": "$version",
  "description": "$description",
  "license": "MIT",
  "os": ["$os"],
  "cpu": ["$arch"],
  "libc": ["glibc"],
  "files": [${files}"LICENSE"]
}
JSON
  (cd "$dir" && npm pack --silent --pack-destination "$out" >/dev/null)
}

platform_package "caveman-$os-$arch" \
  "The Caveman binaries for $os-$arch (used by the caveman launcher package)" "${binaries[@]}"
platform_package "caveman-mcp-$os-$arch" \
  "The caveman-mcp binary for $os-$arch (used by the caveman-mcp launcher)" caveman-mcp

cp -r npm/caveman "$stage/caveman" && cp LICENSE "$stage/caveman/"
(cd "$stage/caveman" && npm pack --silent --pack-destination "$out" >/dev/null)
(cd mcp && npm pack --silent --pack-destination "$out" >/dev/null)
ls "$out"/*.tgz
