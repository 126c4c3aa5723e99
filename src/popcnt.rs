//! Bit counts at the hardware's speed without raising the binary's CPU floor: the x86-64
//! baseline has no POPCNT, so Rust emulates `count_ones` (a dozen instructions), and the
//! FM index's Occ queries and sampled-row ranks count bits at every step. A search
//! declared with [`with_popcnt!`] is compiled twice, once with POPCNT, and the copy is
//! chosen at run time; the binary still runs on every x86-64 CPU.

/// Defines `fn NAME(ARGS)` that runs `BODY(ARGS)` compiled with POPCNT where the CPU has
/// it, else as compiled for any CPU. `BODY` must be `#[inline(always)]` (and so must
/// what it calls that counts bits), so that it is compiled into each copy.
macro_rules! with_popcnt {
    ($(#[$meta:meta])* $vis:vis fn $name:ident($($arg:ident: $ty:ty),* $(,)?) => $body:path) => {
        $(#[$meta])*
        $vis fn $name($($arg: $ty),*) {
            /// The body compiled with POPCNT.
            ///
            /// # Safety
            /// The CPU must have POPCNT.
            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = "popcnt")]
            unsafe fn popcnt_copy($($arg: $ty),*) {
                $body($($arg),*)
            }
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("popcnt") {
                // SAFETY: the CPU has POPCNT, the one instruction the copy adds.
                return unsafe { popcnt_copy($($arg),*) };
            }
            $body($($arg),*)
        }
    };
}
pub(crate) use with_popcnt;
