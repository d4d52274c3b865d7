//! Finds libhabitcore: `$HABITCORE_LIB_DIR` (the folder holding libhabitcore.so) if set,
//! else `pkg-config --libs habitcore` (at least 1.0), else the linker's default search path.
use std::env;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=HABITCORE_LIB_DIR");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_LIBDIR");
    if let Ok(dir) = env::var("HABITCORE_LIB_DIR") {
        println!("cargo:rustc-link-search=native={dir}");
        println!("cargo:rustc-link-lib=dylib=habitcore");
        // For this crate's own tests; dependents read it as DEP_HABITCORE_LIB_DIR.
        println!("cargo:rustc-link-arg=-Wl,-rpath,{dir}");
        println!("cargo:lib_dir={dir}");
        return;
    }
    let pkg_config = env::var("PKG_CONFIG").unwrap_or_else(|_| "pkg-config".into());
    let found = Command::new(&pkg_config).args(["--atleast-version=1.0", "habitcore"]).status().map(|s| s.success());
    if matches!(found, Ok(true)) {
        let output = Command::new(&pkg_config).args(["--libs", "habitcore"]).output().expect("pkg-config --libs habitcore");
        let libs = String::from_utf8(output.stdout).expect("pkg-config printed UTF-8");
        for token in libs.split_whitespace() {
            if let Some(dir) = token.strip_prefix("-L") {
                println!("cargo:rustc-link-search=native={dir}");
                println!("cargo:rustc-link-arg=-Wl,-rpath,{dir}");
                println!("cargo:lib_dir={dir}");
            } else if let Some(lib) = token.strip_prefix("-l") {
                println!("cargo:rustc-link-lib=dylib={lib}");
            }
        }
        return;
    }
    println!("cargo:warning=habitcore: neither HABITCORE_LIB_DIR nor pkg-config found it; trying the default search path");
    println!("cargo:rustc-link-lib=dylib=habitcore");
}
