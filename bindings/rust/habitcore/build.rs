//! The folder habitcore-sys linked against (DEP_HABITCORE_LIB_DIR) goes into the RUNPATH of
//! this crate's tests and examples, so they run without LD_LIBRARY_PATH. (Doc tests and
//! programs of other crates still need the library on the loader's path.)
fn main() {
    println!("cargo:rerun-if-env-changed=DEP_HABITCORE_LIB_DIR");
    if let Ok(dir) = std::env::var("DEP_HABITCORE_LIB_DIR") {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{dir}");
    }
}
