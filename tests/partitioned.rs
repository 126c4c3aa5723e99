//! Bucket-partitioned suffix sorting against the whole-text sorter on real references:
//! the parts, concatenated, are the suffix array, whatever the part size.

mod common;

use galign::reference::read_fasta;
use galign::sa::partition::suffix_array_in_parts;

#[test]
fn partitioned_suffix_arrays_of_real_references_equal_the_whole_build() {
    for name in [
        "ref/ecoli_K12_MG1655.fa.gz",
        "ref/kpneumoniae_HS11286.fa.gz",
        "ref/celegans_ce_htslib_1Mb.fa.gz",
        "ref/lambda_virus.fa.gz",
    ] {
        let Some(path) = common::shared_file(name) else {
            continue;
        };
        let reference = read_fasta(&path).expect("reads");
        let text = &reference.text;
        let want: Vec<u32> = galign::sa::suffix_array(text);
        for parts in [2, 13] {
            let max_part = text.len().div_ceil(parts);
            let mut got = Vec::with_capacity(text.len());
            let mut emitted = 0;
            suffix_array_in_parts::<u32>(text, max_part, |part| {
                assert!(part.len() <= max_part, "{name}: part of {}", part.len());
                emitted += 1;
                got.extend(part);
            });
            assert!(emitted >= parts, "{name}: {emitted} parts for {parts}");
            assert!(
                got == want,
                "{name}: partitioned suffix array differs ({parts} parts)"
            );
        }
    }
}
