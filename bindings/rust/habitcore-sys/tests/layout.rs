//! Every struct's size and field offsets, as Rust lays out the generated declarations,
//! equal a C compiler's for the header.
use std::process::Command;

#[test]
fn layouts_match_a_c_compiler() {
    let dir = env!("CARGO_MANIFEST_DIR");
    let include = format!("{dir}/../../../include");
    let mut c = String::from("#include <stdio.h>\n#include <stddef.h>\n#include \"habitcore.h\"\nint main(void) {\n");
    let mut expected = Vec::new();
    for (name, size, fields) in habitcore_sys::layouts() {
        c += &format!("printf(\"{name} %zu\\n\", sizeof({name}));\n");
        expected.push(format!("{name} {size}"));
        for (field, offset) in fields {
            c += &format!("printf(\"{name}.{field} %zu\\n\", offsetof({name}, {field}));\n");
            expected.push(format!("{name}.{field} {offset}"));
        }
    }
    c += "return 0;\n}\n";
    let out = std::env::temp_dir().join(format!("habitcore-sys-layout-{}", std::process::id()));
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("layout.c"), c).unwrap();
    let built = Command::new("cc")
        .args(["-I", &include, out.join("layout.c").to_str().unwrap(), "-o", out.join("layout").to_str().unwrap()])
        .status()
        .expect("cc runs");
    assert!(built.success());
    let printed = Command::new(out.join("layout")).output().unwrap();
    let printed = String::from_utf8(printed.stdout).unwrap();
    let _ = std::fs::remove_dir_all(&out);
    assert_eq!(printed.lines().collect::<Vec<_>>(), expected);
    assert!(expected.len() > 200);
}

#[test]
fn the_library_is_the_abi_these_declarations_describe() {
    unsafe {
        assert_eq!(habitcore_sys::hc_abi_version(), habitcore_sys::HC_ABI_VERSION);
        assert_eq!(habitcore_sys::hc_version_number() / 1_000_000, habitcore_sys::HC_VERSION_MAJOR);
    }
}
