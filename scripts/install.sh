#!/usr/bin/env bash
# Installs habitcore from this source tree:
#     scripts/install.sh [--prefix DIR]        (default /usr/local; DESTDIR is honoured)
# Builds the self-contained release (scripts/build-release.sh), then installs, stripped,
#   lib/libhabitcore.so.VERSION with its .so.MAJOR (the SONAME) and .so links,
#   lib/libhabitcore_hub.so.VERSION with its links and include/habitcore_hub.h (the
#   PostgreSQL sync hub's client; habitctl hub loads it from here),
#   lib/habitcore/plugins/libhabitcore_proofcheck.so (habitctl plugin add --so proofcheck),
#   lib/habitcore/habitcore-plugin-runner (the library runs shared-object plugins in it),
#   include/habitcore.h and habitcore_plugin.h, lib/pkgconfig/habitcore.pc and
#   habitcore_hub.pc, bin/habitctl (RUNPATH $ORIGIN/../lib), share/man/man1/habitctl.1
#   and the bash, zsh and fish completions (both made by habitctl itself from its --help
#   text), share/habitcore/valgrind.supp (the Swift runtime's one-time allocations, for
#   valgrind --suppressions=...), the debug information of each binary apart: FILE's in
#   .debug/FILE.debug beside it (named by its .gnu_debuglink: gdb and valgrind find it
#   from any prefix) and linked from lib/debug/.build-id/NN/REST.debug (the build id:
#   where Debian's tools look under /usr),
#   share/habitcore/uninstall.txt: every file installed; remove them with
#     xargs rm -f < PREFIX/share/habitcore/uninstall.txt
# It ends by printing what a shell needs to find the library in that prefix.
set -euo pipefail
prefix=/usr/local
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) [ $# -ge 2 ] || { echo "install.sh: --prefix needs a folder" >&2; exit 2; }; prefix="$2"; shift 2 ;;
        --prefix=*) prefix="${1#--prefix=}"; shift ;;
        -h | --help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "install.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
case "$prefix" in
    /*) prefix="${prefix%/}" ;;
    *) echo "install.sh: --prefix must be an absolute path, not '$prefix'" >&2; exit 2 ;;
esac
root="$(cd "$(dirname "$0")/.." && pwd)"
built="$("$root/scripts/build-release.sh")"
# The version is written once, in the header.
version="$(sed -n 's/^#define HC_VERSION_STRING "\(.*\)"$/\1/p' "$root/include/habitcore.h")"
[ -n "$version" ] || { echo "install.sh: no HC_VERSION_STRING in include/habitcore.h" >&2; exit 1; }
major="${version%%.*}"
dest="${DESTDIR:-}$prefix"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
installed=()

put() { # MODE SOURCE PATH: a file, at PATH under the prefix
    install -D -m "$1" "$2" "$dest/$3"
    installed+=("$prefix/$3")
}
link() { # TARGET PATH: a symbolic link
    mkdir -p "$(dirname "$dest/$2")"
    ln -sfn "$1" "$dest/$2"
    installed+=("$prefix/$2")
}

binary() { # SOURCE PATH: an executable or library, stripped, its debug information apart
    local name debug id
    name="$(basename "$2")"
    debug="$(dirname "$2")/.debug/$name.debug"
    # Compressed (zlib, as Debian's debug packages are): gdb and valgrind read it so.
    objcopy --only-keep-debug --compress-debug-sections=zlib "$1" "$scratch/$name.debug"
    strip --strip-unneeded -o "$scratch/$name" "$1"
    # The link names the debug file and holds its checksum; gdb and valgrind look for it
    # in .debug/ beside the binary, wherever that was installed.
    (cd "$scratch" && objcopy --add-gnu-debuglink="$name.debug" "$name")
    put 755 "$scratch/$name" "$2"
    put 644 "$scratch/$name.debug" "$debug"
    id="$(readelf -n "$1" | sed -n 's/^ *Build ID: \([0-9a-f]*\)$/\1/p')"
    [ -n "$id" ] || { echo "install.sh: $1 has no build id" >&2; exit 1; }
    # From lib/debug/.build-id/NN/: up to the prefix, then to the debug file.
    link "../../../../$debug" "lib/debug/.build-id/${id:0:2}/${id:2}.debug"
}

binary "$built/libhabitcore.so" "lib/libhabitcore.so.$version"
link "libhabitcore.so.$version" "lib/libhabitcore.so.$major"
link "libhabitcore.so.$major" "lib/libhabitcore.so"
binary "$built/libhabitcore_hub.so" "lib/libhabitcore_hub.so.$version"
link "libhabitcore_hub.so.$version" "lib/libhabitcore_hub.so.$major"
link "libhabitcore_hub.so.$major" "lib/libhabitcore_hub.so"
put 644 "$root/include/habitcore_hub.h" "include/habitcore_hub.h"
binary "$built/libhabitcore_proofcheck.so" "lib/habitcore/plugins/libhabitcore_proofcheck.so"
binary "$built/habitcore-plugin-runner" "lib/habitcore/habitcore-plugin-runner"
put 644 "$root/include/habitcore.h" "include/habitcore.h"
put 644 "$root/include/habitcore_plugin.h" "include/habitcore_plugin.h"
binary "$built/habitctl" "bin/habitctl"
put 644 "$root/scripts/valgrind.supp" "share/habitcore/valgrind.supp"

cat > "$scratch/habitcore.pc" <<PC
prefix=$prefix
libdir=\${prefix}/lib
includedir=\${prefix}/include
plugindir=\${libdir}/habitcore/plugins

Name: habitcore
Description: The habit engine: habits, ledgers, streaks, scores, credits, awards and photo proofs on SQLite
Version: $version
Libs: -L\${libdir} -lhabitcore
Cflags: -I\${includedir}
PC
put 644 "$scratch/habitcore.pc" "lib/pkgconfig/habitcore.pc"

cat > "$scratch/habitcore_hub.pc" <<PC
prefix=$prefix
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: habitcore_hub
Description: Syncing habitcore stores through a PostgreSQL hub (links libpq)
Version: $version
Requires: habitcore = $version
Libs: -L\${libdir} -lhabitcore_hub
Cflags: -I\${includedir}
PC
put 644 "$scratch/habitcore_hub.pc" "lib/pkgconfig/habitcore_hub.pc"

"$built/habitctl" manual > "$scratch/habitctl.1"
put 644 "$scratch/habitctl.1" "share/man/man1/habitctl.1"
"$built/habitctl" completions bash > "$scratch/bash"
put 644 "$scratch/bash" "share/bash-completion/completions/habitctl"
"$built/habitctl" completions zsh > "$scratch/zsh"
put 644 "$scratch/zsh" "share/zsh/site-functions/_habitctl"
"$built/habitctl" completions fish > "$scratch/fish"
put 644 "$scratch/fish" "share/fish/vendor_completions.d/habitctl.fish"

list="share/habitcore/uninstall.txt"
installed+=("$prefix/$list")
mkdir -p "$dest/share/habitcore"
printf '%s\n' "${installed[@]}" > "$dest/$list"
echo "habitcore $version installed in ${DESTDIR:-}$prefix ($((${#installed[@]})) files; the list: $prefix/$list)"

# What a shell needs to build against and run with this prefix (README.md, Install).
# pkg-config and the dynamic loader search /usr and /usr/local by themselves; the loader
# reads new libraries there from its cache, which ldconfig refreshes.
case "$prefix" in
    /usr | /usr/local)
        echo "Refresh the dynamic loader's cache so programs find libhabitcore.so.$major:"
        echo "    ldconfig" ;;
    *)
        shown="$prefix"
        home="${HOME:-}"
        case "$prefix" in "${home%/}"/?*) [ -n "${home%/}" ] && shown="\$HOME${prefix#"${home%/}"}" ;; esac
        echo "For pkg-config and the dynamic loader to find habitcore in $prefix:"
        echo "    export PKG_CONFIG_PATH=\"$shown/lib/pkgconfig\${PKG_CONFIG_PATH:+:\$PKG_CONFIG_PATH}\""
        echo "    export LD_LIBRARY_PATH=\"$shown/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}\""
        echo "(or link with -Wl,-rpath,$prefix/lib instead of setting LD_LIBRARY_PATH)" ;;
esac
