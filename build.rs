//! Lays out the `slugd` binary's code for a small resident set: in a
//! release build on x86_64 Linux, where rustc links with LLD (the default
//! from Rust 1.90), the functions a running service executes are placed
//! together, in the order `data/link-order.txt` lists them
//! (`scripts/link_order.sh` writes it from a profile of a service at
//! work). Kernels map a program's pages in blocks around each page it
//! touches, so code spread over the whole binary makes nearly all of it
//! resident; placed together, about a third is (docs/figures.md,
//! "Memory"). Names the file lists that a build does not have are left
//! out silently, so a stale file costs memory, never a failed build.
//! `SLUGD_LINK_ORDER=0` turns it off (for a linker other than LLD).

use std::env;
use std::path::Path;
use std::process::Command;

/// The first Rust release whose x86_64 Linux target links with LLD.
const LLD_FROM_MINOR: u32 = 90;

fn main() {
    println!("cargo:rerun-if-changed=data/link-order.txt");
    println!("cargo:rerun-if-env-changed=SLUGD_LINK_ORDER");
    let target = env::var("TARGET").unwrap_or_default();
    let release = env::var("PROFILE").is_ok_and(|p| p == "release");
    let off = env::var("SLUGD_LINK_ORDER").is_ok_and(|v| v == "0");
    if target != "x86_64-unknown-linux-gnu" || !release || off || !links_with_lld() {
        return;
    }
    let dir = env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let order = Path::new(&dir).join("data/link-order.txt");
    if !order.is_file() {
        return;
    }
    println!(
        "cargo:rustc-link-arg-bins=-Wl,--symbol-ordering-file={}",
        order.display()
    );
    println!("cargo:rustc-link-arg-bins=-Wl,--no-warn-symbol-ordering");
}

/// Whether the compiler is one that links this target with LLD: 1.90 or
/// later (`rustc -V` says `rustc 1.95.0 (...)`).
fn links_with_lld() -> bool {
    let rustc = env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let Ok(out) = Command::new(rustc).arg("-V").output() else {
        return false;
    };
    let version = String::from_utf8_lossy(&out.stdout);
    let mut numbers = version
        .split_whitespace()
        .nth(1)
        .unwrap_or("")
        .split('.')
        .map(|n| n.parse::<u32>().unwrap_or(0));
    let (major, minor) = (numbers.next().unwrap_or(0), numbers.next().unwrap_or(0));
    major > 1 || (major == 1 && minor >= LLD_FROM_MINOR)
}
