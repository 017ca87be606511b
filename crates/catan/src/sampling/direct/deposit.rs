//! The bit deposit (`pdep`): the BMI2 instruction where it is fast, a plain-code one
//! elsewhere (both give the same bits), and the choice between them.
//!
//! This is the one module of the crate with `unsafe` code: the instruction itself, the
//! CPU identification, and the call into code compiled for BMI2, which is sound only
//! after the CPU was checked. A [`Bmi2`] value is the proof of that check.
#![allow(unsafe_code)]

/// Which bit deposit the mask samplers use; both give the same boards, bit for bit.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum BitDeposit {
    /// The CPU's `pdep` where it is fast (BMI2 and POPCNT, not AMD before Zen 3), the
    /// plain code elsewhere.
    #[default]
    Auto,
    /// Always the plain code: what machines without a fast `pdep` get (for tests, and
    /// for measuring that path).
    Plain,
}

impl BitDeposit {
    /// The choice a setting such as an environment variable asks for: unset, empty or
    /// "0" leave it to the CPU ([`BitDeposit::Auto`]); any other value asks for
    /// [`BitDeposit::Plain`]. The library never reads the environment itself.
    pub fn from_plain_setting(value: Option<&std::ffi::OsStr>) -> BitDeposit {
        match value {
            Some(v) if !v.is_empty() && v != "0" => BitDeposit::Plain,
            _ => BitDeposit::Auto,
        }
    }
}

/// Work written once for any bit deposit, run by [`dispatch`].
pub(super) trait WithDeposit {
    /// What the work returns.
    type Output;
    /// Do the work with the deposit `p` (inlined into the caller's code, so that with
    /// [`Bmi2`] it is compiled for BMI2).
    fn run<P: Deposit>(self, p: P) -> Self::Output;
}

/// Run `work` with the deposit `choice` allows: `pdep` (the work compiled for BMI2)
/// when the choice is [`BitDeposit::Auto`] and the CPU runs it fast, else [`Soft`].
#[inline(always)]
pub(super) fn dispatch<W: WithDeposit>(choice: BitDeposit, work: W) -> W::Output {
    #[cfg(target_arch = "x86_64")]
    if choice == BitDeposit::Auto {
        if let Some(b) = Bmi2::detect() {
            // SAFETY: a Bmi2 value exists only when the CPU has BMI2 and POPCNT.
            return unsafe { run_bmi2(b, work) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = choice;
    work.run(Soft)
}

/// `work` compiled with BMI2 and POPCNT enabled.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2,popcnt")]
fn run_bmi2<W: WithDeposit>(b: Bmi2, work: W) -> W::Output {
    work.run(b)
}

/// Parallel bit deposit: the low bits of `src` go, in order, to the set bits of `mask`.
pub(crate) trait Deposit: Copy {
    /// `src`'s low bits spread onto the set bits of `mask`, lowest first.
    fn deposit(self, src: u32, mask: u32) -> u32;
}

/// Bit deposit in plain code, one bit of the mask at a time.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Soft;

impl Deposit for Soft {
    /// A byte of the mask at a time: a byte with c set bits takes the next c bits of
    /// `src`, spread by a 256 x 256 table (counts from a table too: without the POPCNT
    /// instruction `count_ones` is a long sequence).
    #[inline(always)]
    fn deposit(self, mut src: u32, mask: u32) -> u32 {
        let mut out = 0;
        for shift in [0, 8, 16, 24] {
            let byte = ((mask >> shift) & 0xff) as usize;
            out |= u32::from(DEPOSIT8[byte][(src & 0xff) as usize]) << shift;
            src >>= ONES8[byte];
        }
        out
    }
}

/// Set bits of each byte.
static ONES8: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = (b as u32).count_ones() as u8;
        b += 1;
    }
    t
};

/// DEPOSIT8[mask][src]: the low bits of `src` placed on the set bits of an 8-bit mask
/// (the bits of `src` beyond the mask's count are ignored).
static DEPOSIT8: [[u8; 256]; 256] = {
    let mut t = [[0u8; 256]; 256];
    let mut mask = 0;
    while mask < 256 {
        let mut src = 0;
        while src < 256 {
            let (mut out, mut s, mut bit) = (0u8, src, 0);
            while bit < 8 {
                if mask >> bit & 1 == 1 {
                    out |= ((s & 1) << bit) as u8;
                    s >>= 1;
                }
                bit += 1;
            }
            t[mask][src] = out;
            src += 1;
        }
        mask += 1;
    }
    t
};

/// The `pdep` instruction. A value exists only on a CPU with BMI2 (and POPCNT) where
/// `pdep` is fast (AMD processors before Zen 3 run it in microcode, slower than [`Soft`]).
#[cfg(target_arch = "x86_64")]
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bmi2(());

#[cfg(target_arch = "x86_64")]
impl Bmi2 {
    /// The instruction, when this CPU has it and runs it fast (looked at once).
    pub(crate) fn detect() -> Option<Bmi2> {
        use std::sync::OnceLock;
        static FAST: OnceLock<bool> = OnceLock::new();
        let fast = *FAST.get_or_init(|| {
            let features =
                std::is_x86_feature_detected!("bmi2") && std::is_x86_feature_detected!("popcnt");
            if !features {
                return false;
            }
            // SAFETY: leaves 0 (vendor) and 1 (family) exist on every x86-64 processor
            // (`__cpuid` is a safe function in recent Rust, unsafe in older releases).
            #[allow(unused_unsafe)]
            let (vendor, info) =
                unsafe { (std::arch::x86_64::__cpuid(0), std::arch::x86_64::__cpuid(1)) };
            let name = (vendor.ebx, vendor.edx, vendor.ecx);
            // "AuthenticAMD", and "HygonGenuine" (a Zen 1 core).
            let amd = name == (0x6874_7541, 0x6974_6e65, 0x444d_4163)
                || name == (0x6f67_7948, 0x6e65_476e, 0x656e_6975);
            let base = (info.eax >> 8) & 0xf;
            let family = if base == 0xf {
                base + ((info.eax >> 20) & 0xff)
            } else {
                base
            };
            !(amd && family < 0x19)
        });
        fast.then_some(Bmi2(()))
    }
}

#[cfg(target_arch = "x86_64")]
impl Deposit for Bmi2 {
    #[inline(always)]
    fn deposit(self, src: u32, mask: u32) -> u32 {
        // SAFETY: a Bmi2 value exists only when the CPU has BMI2 (see `detect`).
        unsafe { std::arch::x86_64::_pdep_u32(src, mask) }
    }
}
