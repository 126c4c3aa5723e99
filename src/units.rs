//! Sizes as users write and read them: memory budgets in the units `--memory` and
//! `--gpu-memory` take ([`parse_size`] and its inverse [`size_to_give`]), and figures
//! with an SI prefix for messages ([`with_si_prefix`]: `16.6 kbp`, `4.2 MB`). No crate
//! writes both bases and bytes with their prefixes; these are a few lines each.
//!
//! Kept against the parse-size crate (1.1, binary mode, K = 1024), which accepts another
//! syntax: of 30 sizes as users write them, 12 parse differently (`5 G`, `16 GiB`, `1e3`,
//! `1_000`, `16P` accepted there and refused here; ` 2MiB `, `.5G`, `+5G`, `16GBB`
//! refused there; `1.5` is 2 bytes there, 1 here; an overflow an error there, saturated
//! here), and its errors do not name the size given (`invalid digit found in string`
//! against `'12X': expected a size such as 16G or 512M`). Swapping it in would change
//! which `--memory` values are accepted; the case table is
//! `scripts/units_vs_parse_size` (`cargo run` there; BENCHMARKS.md, "Hand-written
//! components").

/// The unit letters of a memory size, each 1024 times the one before.
const BINARY_UNITS: [(&str, u64); 4] = [
    ("T", 1 << 40),
    ("G", 1 << 30),
    ("M", 1 << 20),
    ("K", 1 << 10),
];

/// Parses a byte size: a number with an optional K, M, G or T (powers of 1024; a
/// trailing `B` or `iB` allowed), as `--memory 16G` gives it.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let usage = || format!("'{text}': expected a size such as 16G or 512M");
    let t = text.trim();
    let (number, unit) = match t.char_indices().find(|(_, c)| c.is_ascii_alphabetic()) {
        Some((i, _)) => t.split_at(i),
        None => (t, ""),
    };
    let unit = unit.to_ascii_uppercase();
    let scale = match unit.trim_end_matches(['B', 'I']) {
        "" => 1,
        letter => match BINARY_UNITS.iter().find(|(u, _)| *u == letter) {
            Some(&(_, scale)) => scale,
            None => return Err(usage()),
        },
    };
    let value: f64 = number.parse().map_err(|_| usage())?;
    if !(value.is_finite() && value >= 0.0) {
        return Err(usage());
    }
    Ok((value * scale as f64) as u64)
}

/// `bytes` as a size to give `--memory` or `--gpu-memory`: in its largest unit with
/// one decimal, rounded up so that the size given back is at least `bytes` (`227.6M`);
/// under 1 KiB the plain number.
pub fn size_to_give(bytes: u64) -> String {
    match BINARY_UNITS.iter().find(|&&(_, scale)| bytes >= scale) {
        Some(&(unit, scale)) => {
            let tenths = (bytes as u128 * 10).div_ceil(scale as u128);
            format!("{}.{}{unit}", tenths / 10, tenths % 10)
        }
        None => bytes.to_string(),
    }
}

/// `value` of `unit` with an SI prefix and one decimal (`16.6 kbp`, `1.2 GB`); under
/// 1000 the plain number (`512 bp`).
pub fn with_si_prefix(value: u64, unit: &str) -> String {
    const PREFIXES: [(&str, f64); 4] = [("T", 1e12), ("G", 1e9), ("M", 1e6), ("k", 1e3)];
    match PREFIXES.iter().find(|&&(_, scale)| value as f64 >= scale) {
        Some(&(prefix, scale)) => format!("{:.1} {prefix}{unit}", value as f64 / scale),
        None => format!("{value} {unit}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_in_powers_of_1024() {
        assert_eq!(parse_size("512"), Ok(512));
        assert_eq!(parse_size("16G"), Ok(16 << 30));
        assert_eq!(parse_size("1.5k"), Ok(1536));
        assert_eq!(parse_size(" 2MiB "), Ok(2 << 20));
        assert_eq!(parse_size("3TB"), Ok(3 << 40));
        for bad in ["lots", "12X", "-1G", "G", "NaNG"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_size_to_give_is_never_below_the_bytes_and_parses_back() {
        assert_eq!(size_to_give(0), "0");
        assert_eq!(size_to_give(1023), "1023");
        assert_eq!(size_to_give(1024), "1.0K");
        assert_eq!(size_to_give(97_805_200), "93.3M");
        assert_eq!(size_to_give(16 << 30), "16.0G");
        assert_eq!(size_to_give((16 << 30) + 1), "16.1G");
        for bytes in [1025, 97_805_200, 238_588_500, 5 << 40, u64::MAX / 2] {
            let given = parse_size(&size_to_give(bytes)).unwrap();
            assert!(given >= bytes, "{bytes}: {given}");
            assert!(given - bytes < given / 100 + 1024, "{bytes}: {given}");
        }
    }

    #[test]
    fn si_prefixes_keep_a_decimal() {
        assert_eq!(with_si_prefix(512, "bp"), "512 bp");
        assert_eq!(with_si_prefix(16_569, "bp"), "16.6 kbp");
        assert_eq!(with_si_prefix(63_025_520, "bp"), "63.0 Mbp");
        assert_eq!(with_si_prefix(1_200_000_000, "B"), "1.2 GB");
        assert_eq!(with_si_prefix(3_100_000_000_000, "B"), "3.1 TB");
    }
}
