# Sourced by the benchmarks that count instructions. valgrind 3.19 cannot read the
# debug information the toolchain writes ("possibly corrupted"), and without it
# callgrind counts nothing: valgrind_copies LIB_DIR OUT_DIR puts copies of the
# release's libraries (and habitctl, which finds them beside itself through RUNPATH
# $ORIGIN) without debug information, symbol tables kept, into OUT_DIR.
valgrind_copies() {
    local lib="$1" out="$2" name
    mkdir -p "$out"
    for name in libhabitcore libhabitcore_hub; do
        [ -e "$lib/$name.so" ] || continue
        strip --strip-debug -o "$out/$name.so" "$lib/$name.so"
        ln -sf "$name.so" "$out/$name.so.1"
    done
    [ -e "$lib/habitctl" ] && strip --strip-debug -o "$out/habitctl" "$lib/habitctl"
    return 0
}
