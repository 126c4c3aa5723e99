//! Large arrays backed by 2 MiB pages where the kernel allows it.
//!
//! The CPU suffix sort scatters positions into a text-sized array (and, on repeat-rich
//! text, writes a rank a suffix at random places); with 4 KiB pages nearly every such
//! write misses the TLB (chr20: a 252 MB array). Asking for transparent huge pages
//! (`MADV_HUGEPAGE`, honoured when the kernel's setting is `madvise` or `always`) cut
//! the initial scatter by about a third on the CI-class machine, the whole CPU index
//! by ~5%. Where the kernel ignores the advice the arrays are ordinary ones. Not used
//! for arrays the GPU path fills: a huge page is cleared whole at its first touch, and
//! where free memory is fragmented the kernel compacts it first.

/// Arrays smaller than this are left alone (a huge page would mostly be padding).
const LEAST_BYTES: usize = 8 << 20;
/// The huge page size advised for.
const HUGE_PAGE: usize = 2 << 20;

/// `vec![T::default(); n]` whose memory the kernel is asked to back with huge pages
/// (where it is large enough to be worth it). A large zeroed allocation comes fresh
/// from the system, its pages not yet touched: the advice is given before the first
/// touch, and the pages are still zeroed lazily by the tasks that fill them.
pub fn huge_vec<T: Clone + Default>(n: usize) -> Vec<T> {
    let v = vec![T::default(); n];
    advise(v.as_ptr() as usize, n * std::mem::size_of::<T>());
    v
}

/// Advises huge pages for the whole 2 MiB pages inside `[start, start + bytes)`.
fn advise(start: usize, bytes: usize) {
    if bytes < LEAST_BYTES {
        return;
    }
    let first = start.next_multiple_of(HUGE_PAGE);
    let end = (start + bytes) / HUGE_PAGE * HUGE_PAGE;
    if end > first {
        #[cfg(target_os = "linux")]
        // SAFETY: the range lies inside an allocation this process owns; the advice
        // changes how it is backed, never its contents, and failure is harmless.
        unsafe {
            libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn huge_vectors_hold_default_values() {
        for n in [0, 1, 1000, (LEAST_BYTES / 4) + 3] {
            let v: Vec<u32> = huge_vec(n);
            assert_eq!(v.len(), n);
            assert!(v.iter().all(|&x| x == 0));
        }
    }

    /// The `VmFlags` line of the mapping in `/proc/self/smaps` that holds `address`.
    fn vm_flags_at(address: usize) -> String {
        let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
        let mut inside = false;
        for line in smaps.lines() {
            let range = line
                .split_whitespace()
                .next()
                .and_then(|r| r.split_once('-'));
            let bounds = range.and_then(|(a, b)| {
                let a = usize::from_str_radix(a, 16).ok()?;
                Some((a, usize::from_str_radix(b, 16).ok()?))
            });
            if let Some((start, end)) = bounds {
                inside = (start..end).contains(&address);
            } else if inside && line.starts_with("VmFlags:") {
                return line.to_string();
            }
        }
        panic!("no mapping holds {address:#x}");
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn large_vectors_are_advised_onto_huge_pages() {
        if !std::path::Path::new("/sys/kernel/mm/transparent_hugepage").exists() {
            return; // a kernel without transparent huge pages refuses the advice
        }
        let large: Vec<u64> = huge_vec(LEAST_BYTES / 8 + 3 * HUGE_PAGE / 8);
        let inside = (large.as_ptr() as usize).next_multiple_of(HUGE_PAGE);
        let flags = vm_flags_at(inside);
        assert!(flags.contains(" hg"), "no huge-page advice: {flags}");
    }
}
