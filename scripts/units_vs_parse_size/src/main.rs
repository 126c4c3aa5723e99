//! galign's `parse_size` (src/units.rs, compiled in unchanged) against the parse-size
//! crate in binary mode (`Config::new().with_binary()`, K = 1024): prints every case on
//! which they differ, then the counts, and the crate's error text for `12X`.

#[allow(dead_code)]
#[path = "../../../src/units.rs"]
mod units;

/// Sizes as users write them, accepted or refused by either.
const CASES: [&str; 30] = [
    "512", "16G", "1.5k", " 2MiB ", "3TB", "lots", "12X", "-1G", "G", "NaNG", "1.5", "5 G",
    "16g", "16gb", "16GIB", "16Gi", "16BI", "1e3", "0.5K", "99999999999T", "1_000", "16 GiB",
    ".5G", "5.G", "+5G", "16P", "16IB", "16GBB", "1,5G", "",
];

fn main() {
    let crate_parser = parse_size::Config::new().with_binary();
    let mut differ = 0;
    for case in CASES {
        let galign = units::parse_size(case).ok();
        let other = crate_parser.parse_size(case).ok();
        if galign != other {
            differ += 1;
            println!("{case:?}: galign {galign:?}, parse-size {other:?}");
        }
    }
    println!("{} cases, {} the same, {differ} differ", CASES.len(), CASES.len() - differ);
    let error = crate_parser.parse_size("12X").unwrap_err();
    println!("galign's error: {}", units::parse_size("12X").unwrap_err());
    println!("parse-size's error: {error}");
}
