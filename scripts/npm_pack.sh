#!/usr/bin/env bash
# Builds the npm tarballs for caveman-mcp: the MIT launcher package and the platform package
# caveman-mcp-linux-x64 with the compiled binary inside (the esbuild/optionalDependencies
# pattern). Output: build/npm/*.tgz. Usage: scripts/npm_pack.sh [BIN_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/release/bin}
out=build/npm
version=$(node -p 'require("./mcp/package.json").version')
os=$(node -p 'process.platform')
arch=$(node -p 'process.arch')
platform_pkg="caveman-mcp-$os-$arch"
rm -rf "$out" && mkdir -p "$out/$platform_pkg/bin"

cp "$bin/caveman-mcp" "$out/$platform_pkg/bin/caveman-mcp"
chmod 0755 "$out/$platform_pkg/bin/caveman-mcp"
cp LICENSE "$out/$platform_pkg/"
cat > "$out/$platform_pkg/package.json" <<JSON
{
  "name": "$platform_pkg",
  "version": "$version",
  "description": "The caveman-mcp binary for $os-$arch (used by the caveman-mcp launcher)",
  "license": "MIT",
  "os": ["$os"],
  "cpu": ["$arch"],
  "files": ["bin/caveman-mcp", "LICENSE"]
}
JSON
(cd "$out/$platform_pkg" && npm pack --silent --pack-destination .. >/dev/null)
(cd mcp && npm pack --silent --pack-destination "../$out" >/dev/null)
ls "$out"/*.tgz
