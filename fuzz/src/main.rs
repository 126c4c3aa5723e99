//! The AFL++ harness: `galign-fuzz TARGET FILE` runs one fuzz target on the bytes of
//! FILE (AFL++ passes its test case as `@@`). Built and run by `fuzz/run.sh`; the
//! targets are in `targets.rs`, which the corpus replay test shares.

mod targets;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, target, file] = args.as_slice() else {
        eprintln!(
            "usage: galign-fuzz TARGET FILE (targets: {})",
            targets::TARGETS.join(", ")
        );
        std::process::exit(2);
    };
    let data = std::fs::read(file).expect("cannot read the test case");
    let dir = std::env::temp_dir().join(format!("galign-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("cannot create the work folder");
    let result = targets::run(target, &data, &dir);
    let _ = std::fs::remove_dir_all(&dir);
    if let Err(message) = result {
        assert!(!message.is_empty(), "an empty error message");
    }
}
