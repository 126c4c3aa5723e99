#!/usr/bin/env bash
# Builds the fuzz harness instrumented for AFL++ (Debian's `afl++` package) with stable
# Rust: LLVM's SanitizerCoverage trace-pc-guard callbacks, which AFL++'s runtime
# (afl-compiler-rt.o) turns into its coverage map and fork server. This is what
# cargo-afl does, without installing it. Output: fuzz/target/x86_64-unknown-linux-gnu/release/galign-fuzz
set -euo pipefail
cd "$(dirname "$0")"
runtime=/usr/lib/afl/afl-compiler-rt.o
[ -f "$runtime" ] || { echo "fuzz/build.sh: $runtime missing: apt-get install afl++" >&2; exit 1; }
export RUSTFLAGS="-C passes=sancov-module -C llvm-args=-sanitizer-coverage-level=3 \
 -C llvm-args=-sanitizer-coverage-trace-pc-guard -C llvm-args=-sanitizer-coverage-prune-blocks=0 \
 -C llvm-args=-sanitizer-coverage-trace-compares -C link-arg=$runtime"
# --target keeps the flags off build scripts and proc macros.
exec cargo build --release --target x86_64-unknown-linux-gnu "$@"
