#!/usr/bin/env bash
# conda-build script of workflows/conda/meta.yaml: galign from the source tree,
# with the locked dependencies (Cargo.lock), into $PREFIX/bin.
set -euxo pipefail

# rust-htslib's bindgen needs libclang; ISA-L's build (isal-sys) nasm and autotools.
export LIBCLANG_PATH="${BUILD_PREFIX}/lib"
export CARGO_HOME="${SRC_DIR}/.cargo-home"

cargo-bundle-licenses --format yaml --output THIRDPARTY.yml
cargo install --locked --no-track --root "${PREFIX}" --path .
"${PREFIX}/bin/galign" --version
