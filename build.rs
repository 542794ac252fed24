//! Lays out the `slugd` binary's code for a small resident set: in a
//! release build on x86_64 Linux whose linker is LLD (rustup's Rust from
//! 1.90 links with it), the functions a running service executes are
//! placed together, in the order `data/link-order.txt` lists them
//! (`scripts/link_order.sh` writes it from a profile of a service at
//! work). Kernels map a program's pages in blocks around each page it
//! touches, so code spread over the whole binary makes nearly all of it
//! resident; placed together, about a third is (docs/figures.md,
//! "Second pass").
//!
//! Whether the linker takes the order is tried first, by linking an empty
//! program with the same compiler, target, flags and linker: a linker
//! that does not (GNU ld, a distribution's rustc) gets nothing, and the
//! build goes on as without this file. Names the list has that a build
//! does not (another compiler's, whose symbol names differ) are skipped
//! silently, so a stale list costs memory, never a failed build; the
//! compiler the list was made with is in `data/link-order.rustc`, and a
//! build with another says so in a warning. `SLUGD_LINK_ORDER=0` turns
//! it all off.

use std::env;
use std::fs;
use std::path::PathBuf;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=data/link-order.txt");
    println!("cargo:rerun-if-changed=data/link-order.rustc");
    println!("cargo:rerun-if-env-changed=SLUGD_LINK_ORDER");
    let target = env::var("TARGET").unwrap_or_default();
    let release = env::var("PROFILE").is_ok_and(|p| p == "release");
    let off = env::var("SLUGD_LINK_ORDER").is_ok_and(|v| v == "0");
    if target != "x86_64-unknown-linux-gnu" || !release || off {
        return;
    }
    let dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let order = dir.join("data/link-order.txt");
    if !order.is_file() {
        return;
    }
    // Each as an argument of its own after -Xlinker: a path with a comma
    // would be split by -Wl.
    let args = [
        format!("--symbol-ordering-file={}", order.display()),
        "--no-warn-symbol-ordering".to_owned(),
    ];
    if !linker_takes(&args, &target) {
        return;
    }
    for arg in &args {
        println!("cargo:rustc-link-arg-bins=-Xlinker");
        println!("cargo:rustc-link-arg-bins={arg}");
    }
    let made_with = fs::read_to_string(dir.join("data/link-order.rustc")).unwrap_or_default();
    let this = rustc_version();
    if made_with.trim() != this.trim() {
        println!(
            "cargo:warning=data/link-order.txt was made with {:?}, this is {:?}: run scripts/link_order.sh for the smaller resident set",
            made_with.trim(),
            this.trim()
        );
    }
}

/// Whether an empty program links with `args` given to the linker, by the
/// compiler, target, flags and linker cargo builds this package with.
fn linker_takes(args: &[String], target: &str) -> bool {
    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets it"));
    let source = out.join("link_probe.rs");
    if fs::write(&source, "fn main() {}\n").is_err() {
        return false;
    }
    let mut rustc = Command::new(rustc());
    rustc
        .arg("--target")
        .arg(target)
        .arg("--crate-name")
        .arg("link_probe")
        .arg("-o")
        .arg(out.join("link_probe"))
        .arg(&source);
    // The flags cargo passes every compilation (RUSTFLAGS, config), which
    // may choose the linker.
    if let Ok(flags) = env::var("CARGO_ENCODED_RUSTFLAGS") {
        rustc.args(flags.split('\x1f').filter(|f| !f.is_empty()));
    }
    if let Ok(linker) = env::var("RUSTC_LINKER") {
        rustc.arg("-C").arg(format!("linker={linker}"));
    }
    for arg in args {
        rustc.arg("-C").arg("link-arg=-Xlinker");
        rustc.arg("-C").arg(format!("link-arg={arg}"));
    }
    rustc
        .current_dir(&out)
        .output()
        .is_ok_and(|o| o.status.success())
}

fn rustc() -> String {
    env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned())
}

/// `rustc -V`, as `data/link-order.rustc` holds it.
fn rustc_version() -> String {
    Command::new(rustc())
        .arg("-V")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default()
}
