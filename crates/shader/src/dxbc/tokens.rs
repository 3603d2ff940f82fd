//! The token stream of a `SHDR` / `SHEX` part, decoded after Microsoft's
//! `D3D12TokenizedProgramFormat.hpp`: the version and length tokens, then instructions.
//!
//! * Opcode token: `[10:0]` opcode, `[23:11]` opcode-specific controls (`[13]` saturate,
//!   `[18]` test non-zero, resource dimensions, flags), `[30:24]` length in DWORDs with the
//!   opcode token, `[31]` extended opcode tokens follow (`[5:0]` type: 1 sample controls with
//!   the u/v/w texel offsets in `[12:9]`, `[16:13]`, `[20:17]`; 2 resource dimension; 3
//!   resource return type; `[31]` another follows). `customdata` has its length in DWORD 1.
//! * Operand token: `[1:0]` components (0, 1, 4), `[3:2]` selection mode (mask, swizzle,
//!   select-1) with its `[11:4]` field, `[19:12]` operand type, `[21:20]` index dimension,
//!   `[24:22]`, `[27:25]`, `[30:28]` each index's representation (immediate 32 / 64,
//!   relative, immediate + relative), `[31]` extended operand token (`[5:0]` type 1:
//!   `[13:6]` modifier neg/abs/absneg, `[16:14]` min precision, `[17]` non-uniform).
//!   Immediates (`l(...)`, `d(...)`) follow the token; relative indices are nested operands.
//!
//! Every read is bounds-checked: a malformed stream is a [`TokenError`], never a panic, and
//! nested relative operands stop at a small depth.

use super::opcodes;
use core::fmt;

/// Why a token stream is malformed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenError {
    /// The DWORD where it was found.
    pub at: usize,
    /// What is wrong.
    pub what: String,
}

impl fmt::Display for TokenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "malformed DXBC token stream at DWORD {}: {}", self.at, self.what)
    }
}

type R<T> = Result<T, TokenError>;

/// Operand types (`D3D10_SB_OPERAND_TYPE`) the lowering names.
#[allow(missing_docs)]
pub mod ty {
    pub const TEMP: u32 = 0;
    pub const INPUT: u32 = 1;
    pub const OUTPUT: u32 = 2;
    pub const INDEXABLE_TEMP: u32 = 3;
    pub const IMMEDIATE32: u32 = 4;
    pub const IMMEDIATE64: u32 = 5;
    pub const SAMPLER: u32 = 6;
    pub const RESOURCE: u32 = 7;
    pub const CONSTANT_BUFFER: u32 = 8;
    pub const IMMEDIATE_CONSTANT_BUFFER: u32 = 9;
    pub const LABEL: u32 = 10;
    pub const INPUT_PRIMITIVEID: u32 = 11;
    pub const OUTPUT_DEPTH: u32 = 12;
    pub const NULL: u32 = 13;
    pub const RASTERIZER: u32 = 14;
    pub const OUTPUT_COVERAGE_MASK: u32 = 15;
    pub const STREAM: u32 = 16;
    pub const UAV: u32 = 30;
    pub const TGSM: u32 = 31;
    pub const THREAD_ID: u32 = 32;
    pub const THREAD_GROUP_ID: u32 = 33;
    pub const THREAD_ID_IN_GROUP: u32 = 34;
    pub const COVERAGE_MASK: u32 = 35;
    pub const THREAD_ID_IN_GROUP_FLATTENED: u32 = 36;
    pub const GS_INSTANCE_ID: u32 = 37;
    pub const OUTPUT_DEPTH_GE: u32 = 38;
    pub const OUTPUT_DEPTH_LE: u32 = 39;
    /// The highest operand type the format defines (`D3D11_SB_OPERAND_TYPE_INNER_COVERAGE`).
    pub const LAST: u32 = 42;
}

/// How a 4-component operand selects its components.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Select {
    /// Not a 4-component operand (0 or 1 component).
    None,
    /// A write mask, bit k for component k.
    Mask(u8),
    /// A swizzle: the source component of each of x, y, z, w.
    Swizzle([u8; 4]),
    /// One component.
    One(u8),
}

impl Select {
    /// The source component read for destination component `k`.
    pub fn comp(self, k: usize) -> usize {
        match self {
            Select::Swizzle(s) => s[k & 3] as usize,
            Select::One(c) => c as usize,
            Select::Mask(_) | Select::None => k & 3,
        }
    }

    /// The write mask (all four for non-mask selections).
    pub fn mask(self) -> u8 {
        match self {
            Select::Mask(m) => m,
            Select::None => 1,
            _ => 0xF,
        }
    }
}

/// One index of an operand: an immediate plus, optionally, a relative register.
#[derive(Debug, Clone, PartialEq)]
pub struct Index {
    /// The immediate part.
    pub imm: u64,
    /// The register added to it (its selected component).
    pub rel: Option<Box<Operand>>,
}

/// Source modifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Modifier {
    /// Negate.
    pub neg: bool,
    /// Absolute value (before negation).
    pub abs: bool,
}

/// An operand.
#[derive(Debug, Clone, PartialEq)]
pub struct Operand {
    /// `D3D10_SB_OPERAND_TYPE`.
    pub ty: u32,
    /// Components: 0, 1 or 4.
    pub comps: u8,
    /// Component selection.
    pub select: Select,
    /// The indices (0 to 3).
    pub index: Vec<Index>,
    /// Source modifiers.
    pub modifier: Modifier,
    /// `[17]` of the extended operand: the index is not uniform across the wave (SM 5.1).
    pub non_uniform: bool,
    /// The immediate values of `l(...)` (4 or 1) / `d(...)` (as pairs of DWORDs).
    pub imm: Vec<u32>,
}

/// An instruction (or declaration).
#[derive(Debug, Clone, PartialEq)]
pub struct Inst {
    /// DWORD offset in the program.
    pub at: usize,
    /// The opcode.
    pub opcode: u32,
    /// The whole opcode token (its opcode-specific controls).
    pub token: u32,
    /// The texel offsets of a sample-controls extended opcode (u, v, w).
    pub offsets: [i8; 3],
    /// Resource return types of an extended opcode (4 bits per component), if given.
    pub return_type: Option<u32>,
    /// Operands.
    pub operands: Vec<Operand>,
    /// A declaration's plain DWORDs after its operands, a customdata block's contents.
    pub extra: Vec<u32>,
}

impl Inst {
    /// `[13]`: saturate the result.
    pub fn saturate(&self) -> bool {
        self.token & (1 << 13) != 0
    }

    /// `[18]`: the condition tests non-zero (`_nz`) rather than zero (`_z`).
    pub fn nonzero(&self) -> bool {
        self.token & (1 << 18) != 0
    }

    /// The opcode-specific control bits `[23:11]`.
    pub fn controls(&self) -> u32 {
        (self.token >> 11) & 0x1FFF
    }

    /// The mnemonic.
    pub fn name(&self) -> &'static str {
        opcodes::info(self.opcode).map_or("?", |e| e.1)
    }
}

/// A decoded program.
#[derive(Debug, Clone, PartialEq)]
pub struct Program {
    /// Program type (0 pixel … 5 compute).
    pub kind: u32,
    /// Shader model major version.
    pub major: u32,
    /// Minor version.
    pub minor: u32,
    /// The instructions in order.
    pub insts: Vec<Inst>,
}

/// The deepest nesting of relative operands the reader accepts.
const MAX_DEPTH: u32 = 3;

struct Reader<'a> {
    t: &'a [u32],
    at: usize,
    end: usize,
}

impl Reader<'_> {
    fn err<T>(&self, what: impl Into<String>) -> R<T> {
        Err(TokenError { at: self.at, what: what.into() })
    }

    fn next(&mut self) -> R<u32> {
        if self.at >= self.end {
            return self.err("the instruction ends before its operands do");
        }
        self.at += 1;
        Ok(self.t[self.at - 1])
    }

    fn operand(&mut self, depth: u32) -> R<Operand> {
        if depth > MAX_DEPTH {
            return self.err("relative indices nest too deep");
        }
        let tok = self.next()?;
        let ty = (tok >> 12) & 0xFF;
        if ty > ty::LAST {
            return self.err(format!("unknown operand type {ty}"));
        }
        let (comps, select) = match tok & 3 {
            0 => (0, Select::None),
            1 => (1, Select::None),
            2 => {
                let f = (tok >> 4) & 0xFF;
                let s = match (tok >> 2) & 3 {
                    0 => Select::Mask((f & 0xF) as u8),
                    1 => Select::Swizzle([0, 1, 2, 3].map(|k| ((f >> (2 * k)) & 3) as u8)),
                    2 => Select::One((f & 3) as u8),
                    m => return self.err(format!("component selection mode {m}")),
                };
                (4, s)
            }
            _ => return self.err("N-component operands are not defined"),
        };
        let mut modifier = Modifier::default();
        let mut non_uniform = false;
        let mut ext = tok >> 31 != 0;
        while ext {
            let e = self.next()?;
            ext = e >> 31 != 0;
            match e & 0x3F {
                0 => {}
                1 => {
                    match (e >> 6) & 0xFF {
                        0 => {}
                        1 => modifier.neg = true,
                        2 => modifier.abs = true,
                        3 => modifier = Modifier { neg: true, abs: true },
                        m => return self.err(format!("operand modifier {m}")),
                    }
                    non_uniform = (e >> 17) & 1 != 0;
                }
                t => return self.err(format!("extended operand type {t}")),
            }
        }
        let mut imm = Vec::new();
        match ty {
            ty::IMMEDIATE32 | ty::IMMEDIATE64 => {
                let per = if ty == ty::IMMEDIATE64 { 2 } else { 1 };
                let n = match comps {
                    1 => per,
                    4 => 4 * per,
                    _ => return self.err("an immediate without components"),
                };
                for _ in 0..n {
                    imm.push(self.next()?);
                }
            }
            _ => {}
        }
        let dims = (tok >> 20) & 3;
        let mut index = Vec::new();
        for d in 0..dims {
            let rep = (tok >> (22 + 3 * d)) & 7;
            let immediate = match rep {
                0 | 3 => u64::from(self.next()?),
                1 | 4 => {
                    let hi = u64::from(self.next()?);
                    hi << 32 | u64::from(self.next()?)
                }
                2 => 0,
                r => return self.err(format!("index representation {r}")),
            };
            let rel = if matches!(rep, 2..=4) { Some(Box::new(self.operand(depth + 1)?)) } else { None };
            index.push(Index { imm: immediate, rel });
        }
        Ok(Operand { ty, comps, select, index, modifier, non_uniform, imm })
    }
}

/// Decodes a `SHDR` / `SHEX` part.
///
/// Guarantees: the version token names a program type 0–5 and the length token lies within
/// the part; every instruction's length is at least 1 and within the program; every opcode
/// is one [`opcodes::TABLE`] defines; an executable instruction's operands fill its length
/// exactly and number its destinations plus sources; operand types are known. Anything else
/// is an error.
pub fn decode(part: &[u8]) -> R<Program> {
    let words: Vec<u32> = part.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    let bad = |at, what: &str| Err(TokenError { at, what: what.into() });
    if words.len() < 2 {
        return bad(0, "the program is shorter than its version and length tokens");
    }
    let (version, len) = (words[0], words[1] as usize);
    let kind = version >> 16;
    if kind > 5 {
        return bad(0, "unknown program type");
    }
    if len < 2 || len > words.len() {
        return bad(1, "the program length exceeds the part");
    }
    let (major, minor) = ((version >> 4) & 0xF, version & 0xF);
    let mut insts = Vec::new();
    let mut at = 2;
    while at < len {
        let tok = words[at];
        let opcode = tok & 0x7FF;
        let Some(info) = opcodes::info(opcode) else {
            return bad(at, &format!("unknown opcode {opcode}"));
        };
        let n = if opcode == opcodes::CUSTOMDATA {
            match words.get(at + 1) {
                Some(&n) => n as usize,
                None => return bad(at, "a customdata block without its length"),
            }
        } else {
            ((tok >> 24) & 0x7F) as usize
        };
        if n == 0 || n > len - at || (opcode == opcodes::CUSTOMDATA && n < 2) {
            return bad(at, &format!("{} has length {n}", info.1));
        }
        let mut r = Reader { t: &words, at: at + 1, end: at + n };
        let mut inst = Inst {
            at,
            opcode,
            token: tok,
            offsets: [0; 3],
            return_type: None,
            operands: Vec::new(),
            extra: Vec::new(),
        };
        if opcode == opcodes::CUSTOMDATA {
            inst.extra = words[at + 2..at + n].to_vec();
            insts.push(inst);
            at += n;
            continue;
        }
        let mut ext = tok >> 31 != 0;
        while ext {
            let e = r.next()?;
            ext = e >> 31 != 0;
            match e & 0x3F {
                1 => {
                    let off = |k: u32| (((e >> (9 + 4 * k)) & 0xF) as i8) << 4 >> 4;
                    inst.offsets = [off(0), off(1), off(2)];
                }
                2 => {}
                3 => inst.return_type = Some((e >> 6) & 0xFFFF),
                t => return r.err(format!("extended opcode type {t}")),
            }
        }
        if opcodes::is_declaration(opcode) {
            for _ in 0..opcodes::declaration_operands(opcode) {
                inst.operands.push(r.operand(0)?);
            }
            inst.extra = words[r.at..r.end].to_vec();
        } else {
            if opcode == 120 {
                // fcall: the interface call site's function-table index, then the operand.
                inst.extra.push(r.next()?);
            }
            while r.at < r.end {
                inst.operands.push(r.operand(0)?);
            }
            let want = usize::from(info.2) + usize::from(info.3);
            if inst.operands.len() != want {
                return bad(at, &format!("{} has {} operands, not {want}", info.1, inst.operands.len()));
            }
        }
        insts.push(inst);
        at += n;
    }
    Ok(Program { kind, major, minor, insts })
}
