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
//! build with another says so in a warning. The names carry a hash of
//! each crate's features as well, so a binary built in one cargo
//! invocation with the examples or tests (whose dev-dependencies add
//! features) has only about a third of them: build it alone.
//! `SLUGD_LINK_ORDER=0` turns it all off.
//!
//! The same build packs the binary's relative relocations (`-z
//! pack-relative-relocs`, DT_RELR): a position-independent binary has
//! one for each pointer in its read-only data, 17,585 of 24 bytes each,
//! which the loader reads at every start; packed, they are a few
//! kilobytes (docs/figures.md, "Third pass"). Tried the same way, and the
//! probe is run too: a C library older than glibc 2.36 cannot load such a
//! binary, and then it gets nothing.

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
    let relr = ["-z".to_owned(), "pack-relative-relocs".to_owned()];
    if linker_takes(&relr, &target, "relr_probe", true) {
        link_args(&relr);
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
    if !linker_takes(&args, &target, "link_probe", false) {
        return;
    }
    link_args(&args);
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

/// Hands `args` to the linker of the binaries.
fn link_args(args: &[String]) {
    for arg in args {
        println!("cargo:rustc-link-arg-bins=-Xlinker");
        println!("cargo:rustc-link-arg-bins={arg}");
    }
}

/// Whether an empty program (named `name`) links with `args` given to the
/// linker, by the compiler, target, flags and linker cargo builds this
/// package with; with `run`, and runs.
fn linker_takes(args: &[String], target: &str, name: &str, run: bool) -> bool {
    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets it"));
    let source = out.join(format!("{name}.rs"));
    if fs::write(&source, "fn main() {}\n").is_err() {
        return false;
    }
    let mut rustc = Command::new(rustc());
    rustc
        .arg("--target")
        .arg(target)
        .arg("--crate-name")
        .arg(name)
        .arg("-o")
        .arg(out.join(name))
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
    let linked = rustc
        .current_dir(&out)
        .output()
        .is_ok_and(|o| o.status.success());
    linked
        && (!run
            || Command::new(out.join(name))
                .status()
                .is_ok_and(|s| s.success()))
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
