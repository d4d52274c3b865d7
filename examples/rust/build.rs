// Links against libhabitcore.so from HABITCORE_LIB_DIR (the folder holding it).
fn main() {
    println!("cargo:rerun-if-env-changed=HABITCORE_LIB_DIR");
    if let Ok(dir) = std::env::var("HABITCORE_LIB_DIR") {
        println!("cargo:rustc-link-search=native={}", dir);
        println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir);
    }
    println!("cargo:rustc-link-lib=dylib=habitcore");
}
