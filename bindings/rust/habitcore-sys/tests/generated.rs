//! src/bindings.rs is exactly what generate.py makes of the headers today.
use std::process::Command;

#[test]
fn bindings_match_the_headers() {
    let dir = env!("CARGO_MANIFEST_DIR");
    let status = Command::new("python3")
        .args([&format!("{dir}/generate.py"), "--check"])
        .status()
        .expect("python3 runs generate.py");
    assert!(status.success(), "src/bindings.rs is stale: run python3 habitcore-sys/generate.py");
}

#[test]
fn every_header_function_is_declared() {
    let dir = env!("CARGO_MANIFEST_DIR");
    let header = std::fs::read_to_string(format!("{dir}/../../../include/habitcore.h")).unwrap();
    let bindings = std::fs::read_to_string(format!("{dir}/src/bindings.rs")).unwrap();
    let mut count = 0;
    for line in header.lines() {
        let Some(open) = line.find("hc_").filter(|_| !line.starts_with(' ') && line.contains('(') && !line.starts_with("typedef") && !line.starts_with("#") && !line.starts_with("/*") && !line.starts_with(" *")) else { continue };
        let name: String = line[open..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        assert!(bindings.contains(&format!("pub fn {name}(")), "{name} is not declared");
        count += 1;
    }
    assert!(count > 100, "only {count} functions found in the header");
}
