//! The LLVM bitstream container format (llvm/docs/BitCodeFormat.rst), as DXIL's LLVM 3.7
//! bitcode uses it.
//!
//! The stream is a sequence of little-endian 32-bit words read least significant bit first.
//! Everything in it is a block or a record; which one comes next is told by an *abbreviation
//! id* of the enclosing block's width: 0 `END_BLOCK`, 1 `ENTER_SUBBLOCK`, 2 `DEFINE_ABBREV`,
//! 3 `UNABBREV_RECORD`, and 4 on the abbreviations defined for the block (first those the
//! `BLOCKINFO` block registered for its id, then its own, in order). [`parse`] turns the whole
//! stream into a tree of [`Block`]s holding [`Record`]s and nested blocks in stream order, so
//! the IR reader above never sees abbreviations or bit positions.
//!
//! Every read is bounds-checked and every count is checked against the bits left before
//! anything is allocated for it: malformed input gives a [`BitError`], never a panic, and
//! never an allocation larger than the input could describe.

use core::fmt;

/// The block id of `BLOCKINFO`, the block that defines abbreviations for other blocks.
pub const BLOCKINFO_BLOCK_ID: u32 = 0;

/// How deep blocks may nest. LLVM modules nest three deep (module, function, constants); the
/// cap only stops hostile input from exhausting the stack through recursion.
const MAX_DEPTH: usize = 32;

/// Why a bitstream could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BitError {
    /// Bit position where reading failed.
    pub bit: u64,
    /// What was wrong.
    pub what: &'static str,
}

impl fmt::Display for BitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bitstream error at bit {}: {}", self.bit, self.what)
    }
}

/// One record: its code, its operands and, when its abbreviation ends in a blob, the blob.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Record {
    /// The record code.
    pub code: u32,
    /// The operands, after the code. Char6 operands are already decoded to their characters.
    pub ops: Vec<u64>,
    /// The blob operand, if the record's abbreviation has one.
    pub blob: Option<Vec<u8>>,
}

impl Record {
    /// The operands read as bytes of a string (records such as names store one character per
    /// operand), or `None` if an operand does not fit a byte.
    pub fn string(&self, from: usize) -> Option<String> {
        let bytes: Option<Vec<u8>> = self.ops.get(from..)?.iter().map(|&o| u8::try_from(o).ok()).collect();
        Some(String::from_utf8_lossy(&bytes?).into_owned())
    }
}

/// An item of a block, in stream order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    /// A record.
    Record(Record),
    /// A nested block.
    Block(Block),
}

/// A block: its id and its contents in stream order. `BLOCKINFO` blocks are consumed by the
/// reader and do not appear in the tree.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Block {
    /// The block id.
    pub id: u32,
    /// Records and nested blocks, in stream order.
    pub items: Vec<Item>,
}

impl Block {
    /// The records directly in this block.
    pub fn records(&self) -> impl Iterator<Item = &Record> {
        self.items.iter().filter_map(|i| match i {
            Item::Record(r) => Some(r),
            Item::Block(_) => None,
        })
    }

    /// The blocks directly in this block.
    pub fn blocks(&self) -> impl Iterator<Item = &Block> {
        self.items.iter().filter_map(|i| match i {
            Item::Block(b) => Some(b),
            Item::Record(_) => None,
        })
    }
}

/// One operand of an abbreviation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum AbbrevOp {
    Literal(u64),
    Fixed(u32),
    Vbr(u32),
    Array,
    Char6,
    Blob,
}

/// An abbreviation, validated when defined: an `Array` is second to last and followed by a
/// scalar element operand, a `Blob` is last.
type Abbrev = Vec<AbbrevOp>;

/// A bit cursor over the stream.
struct Cursor<'a> {
    data: &'a [u8],
    /// Position in bits.
    pos: u64,
}

impl<'a> Cursor<'a> {
    fn err(&self, what: &'static str) -> BitError {
        BitError { bit: self.pos, what }
    }

    fn bits_left(&self) -> u64 {
        (self.data.len() as u64 * 8).saturating_sub(self.pos)
    }

    /// Reads `width` (0–64) bits, least significant first.
    fn fixed(&mut self, width: u32) -> Result<u64, BitError> {
        if width > 64 {
            return Err(self.err("field wider than 64 bits"));
        }
        if (width as u64) > self.bits_left() {
            return Err(self.err("read past the end of the stream"));
        }
        let mut value = 0u64;
        let mut done = 0u32;
        while done < width {
            let byte = self.data[(self.pos / 8) as usize];
            let shift = (self.pos % 8) as u32;
            let take = (8 - shift).min(width - done);
            let bits = (byte as u64 >> shift) & ((1u64 << take) - 1);
            value |= bits << done;
            done += take;
            self.pos += take as u64;
        }
        Ok(value)
    }

    /// Reads a variable bit rate value of chunk `width` (2–32): chunks of `width - 1` value
    /// bits, the top bit of each saying another chunk follows.
    fn vbr(&mut self, width: u32) -> Result<u64, BitError> {
        if !(2..=32).contains(&width) {
            return Err(self.err("VBR chunk width outside 2..=32"));
        }
        let hi = 1u64 << (width - 1);
        let mut value = 0u64;
        let mut shift = 0u32;
        loop {
            let chunk = self.fixed(width)?;
            let payload = chunk & (hi - 1);
            if shift >= 64 || (shift > 0 && payload >> (64 - shift) != 0) {
                return Err(self.err("VBR value does not fit 64 bits"));
            }
            value |= payload << shift;
            if chunk & hi == 0 {
                return Ok(value);
            }
            shift += width - 1;
        }
    }

    fn align32(&mut self) -> Result<(), BitError> {
        let to = self.pos.div_ceil(32) * 32;
        if to > self.data.len() as u64 * 8 {
            return Err(self.err("alignment runs past the end of the stream"));
        }
        self.pos = to;
        Ok(())
    }

    /// A count read from the stream, refused when even one bit per element would not fit in
    /// what is left, so that no allocation exceeds the input's own size.
    fn count(&mut self, width: u32) -> Result<usize, BitError> {
        let n = self.vbr(width)?;
        if n > self.bits_left() {
            return Err(self.err("count larger than the rest of the stream"));
        }
        Ok(n as usize)
    }
}

/// The abbreviations `BLOCKINFO` registered, by block id.
#[derive(Default)]
struct BlockInfo {
    abbrevs: Vec<(u32, Vec<Abbrev>)>,
}

impl BlockInfo {
    fn for_block(&self, id: u32) -> &[Abbrev] {
        self.abbrevs.iter().find(|(b, _)| *b == id).map(|(_, a)| a.as_slice()).unwrap_or(&[])
    }

    fn for_block_mut(&mut self, id: u32) -> &mut Vec<Abbrev> {
        if let Some(i) = self.abbrevs.iter().position(|(b, _)| *b == id) {
            return &mut self.abbrevs[i].1;
        }
        self.abbrevs.push((id, Vec::new()));
        &mut self.abbrevs.last_mut().expect("just pushed").1
    }
}

struct Reader<'a> {
    cur: Cursor<'a>,
    info: BlockInfo,
}

const END_BLOCK: u64 = 0;
const ENTER_SUBBLOCK: u64 = 1;
const DEFINE_ABBREV: u64 = 2;
const UNABBREV_RECORD: u64 = 3;

/// `BLOCKINFO` record code that selects the block the following abbreviations are for.
const BLOCKINFO_CODE_SETBID: u32 = 1;

impl Reader<'_> {
    fn define_abbrev(&mut self) -> Result<Abbrev, BitError> {
        let n = self.cur.count(5)?;
        let mut ops = Vec::with_capacity(n);
        for _ in 0..n {
            let op = if self.cur.fixed(1)? == 1 {
                AbbrevOp::Literal(self.cur.vbr(8)?)
            } else {
                match self.cur.fixed(3)? {
                    // A zero-width fixed or VBR field carries no bits: it is the literal 0.
                    1 => match self.cur.vbr(5)? {
                        0 => AbbrevOp::Literal(0),
                        w if w <= 64 => AbbrevOp::Fixed(w as u32),
                        _ => return Err(self.cur.err("fixed abbreviation operand wider than 64 bits")),
                    },
                    2 => match self.cur.vbr(5)? {
                        0 => AbbrevOp::Literal(0),
                        w if (2..=32).contains(&w) => AbbrevOp::Vbr(w as u32),
                        _ => return Err(self.cur.err("VBR abbreviation operand width outside 2..=32")),
                    },
                    3 => AbbrevOp::Array,
                    4 => AbbrevOp::Char6,
                    5 => AbbrevOp::Blob,
                    _ => return Err(self.cur.err("unknown abbreviation operand encoding")),
                }
            };
            ops.push(op);
        }
        for (i, op) in ops.iter().enumerate() {
            let ok = match op {
                AbbrevOp::Array => i + 2 == ops.len() && !matches!(ops[i + 1], AbbrevOp::Array | AbbrevOp::Blob),
                AbbrevOp::Blob => i + 1 == ops.len(),
                _ => true,
            };
            if !ok {
                return Err(self.cur.err("array or blob not at the end of an abbreviation"));
            }
        }
        if ops.is_empty() || matches!(ops[0], AbbrevOp::Array | AbbrevOp::Blob) {
            return Err(self.cur.err("abbreviation without a scalar record code"));
        }
        Ok(ops)
    }

    fn scalar(&mut self, op: AbbrevOp) -> Result<u64, BitError> {
        match op {
            AbbrevOp::Literal(v) => Ok(v),
            AbbrevOp::Fixed(w) => self.cur.fixed(w),
            AbbrevOp::Vbr(w) => self.cur.vbr(w),
            AbbrevOp::Char6 => {
                let c = self.cur.fixed(6)? as u8;
                Ok(match c {
                    0..=25 => b'a' + c,
                    26..=51 => b'A' + c - 26,
                    52..=61 => b'0' + c - 52,
                    62 => b'.',
                    _ => b'_',
                } as u64)
            }
            AbbrevOp::Array | AbbrevOp::Blob => Err(self.cur.err("array or blob used as a scalar")),
        }
    }

    fn abbreviated_record(&mut self, abbrev: &Abbrev) -> Result<Record, BitError> {
        let code = self.scalar(abbrev[0])?;
        let mut rec = Record {
            code: u32::try_from(code).map_err(|_| self.cur.err("record code over 32 bits"))?,
            ..Record::default()
        };
        let mut i = 1;
        while i < abbrev.len() {
            match abbrev[i] {
                AbbrevOp::Array => {
                    let n = self.cur.count(6)?;
                    let elt = abbrev[i + 1];
                    rec.ops.reserve(n);
                    for _ in 0..n {
                        rec.ops.push(self.scalar(elt)?);
                    }
                    i += 2;
                }
                AbbrevOp::Blob => {
                    let n = self.cur.count(6)?;
                    self.cur.align32()?;
                    if (n as u64) * 8 > self.cur.bits_left() {
                        return Err(self.cur.err("blob runs past the end of the stream"));
                    }
                    let at = (self.cur.pos / 8) as usize;
                    rec.blob = Some(self.cur.data[at..at + n].to_vec());
                    self.cur.pos += n as u64 * 8;
                    self.cur.align32()?;
                    i += 1;
                }
                op => {
                    rec.ops.push(self.scalar(op)?);
                    i += 1;
                }
            }
        }
        Ok(rec)
    }

    /// Reads a block's body after its `ENTER_SUBBLOCK` header, up to and including its
    /// `END_BLOCK`.
    fn block(&mut self, id: u32, width: u32, end: u64, depth: usize) -> Result<Block, BitError> {
        if depth > MAX_DEPTH {
            return Err(self.cur.err("blocks nested too deeply"));
        }
        let mut block = Block { id, items: Vec::new() };
        let mut abbrevs: Vec<Abbrev> = self.info.for_block(id).to_vec();
        // Inside BLOCKINFO, SETBID chooses which block DEFINE_ABBREV registers for.
        let mut info_target: Option<u32> = None;
        loop {
            match self.cur.fixed(width)? {
                END_BLOCK => {
                    self.cur.align32()?;
                    if self.cur.pos != end {
                        return Err(self.cur.err("block ends where its length does not say"));
                    }
                    return Ok(block);
                }
                ENTER_SUBBLOCK => {
                    let sub = self.enter(depth + 1)?;
                    if let Some(sub) = sub {
                        block.items.push(Item::Block(sub));
                    }
                }
                DEFINE_ABBREV => {
                    let a = self.define_abbrev()?;
                    if id == BLOCKINFO_BLOCK_ID {
                        let target = info_target.ok_or(self.cur.err("BLOCKINFO abbreviation before SETBID"))?;
                        self.info.for_block_mut(target).push(a);
                    } else {
                        abbrevs.push(a);
                    }
                }
                UNABBREV_RECORD => {
                    let code = self.cur.vbr(6)?;
                    let code = u32::try_from(code).map_err(|_| self.cur.err("record code over 32 bits"))?;
                    let n = self.cur.count(6)?;
                    let mut ops = Vec::with_capacity(n);
                    for _ in 0..n {
                        ops.push(self.cur.vbr(6)?);
                    }
                    self.record(&mut block, &mut info_target, Record { code, ops, blob: None })?;
                }
                a => {
                    let abbrev = abbrevs.get((a - 4) as usize).ok_or(self.cur.err("abbreviation id not defined"))?;
                    let rec = self.abbreviated_record(abbrev)?;
                    self.record(&mut block, &mut info_target, rec)?;
                }
            }
            if self.cur.pos > end {
                return Err(self.cur.err("block content runs past its length"));
            }
        }
    }

    fn record(&mut self, block: &mut Block, info_target: &mut Option<u32>, rec: Record) -> Result<(), BitError> {
        if block.id == BLOCKINFO_BLOCK_ID {
            // BLOCKNAME and SETRECORDNAME only name things for dump tools: ignored.
            if rec.code == BLOCKINFO_CODE_SETBID {
                let bid = rec.ops.first().copied().ok_or(self.cur.err("SETBID without a block id"))?;
                *info_target = Some(u32::try_from(bid).map_err(|_| self.cur.err("SETBID block id over 32 bits"))?);
            }
        } else {
            block.items.push(Item::Record(rec));
        }
        Ok(())
    }

    /// Reads an `ENTER_SUBBLOCK` header (the abbreviation id already read) and the block.
    /// Returns `None` for a `BLOCKINFO` block, whose content went into `self.info`.
    fn enter(&mut self, depth: usize) -> Result<Option<Block>, BitError> {
        let id = self.cur.vbr(8)?;
        let id = u32::try_from(id).map_err(|_| self.cur.err("block id over 32 bits"))?;
        let width = self.cur.vbr(4)?;
        if !(1..=32).contains(&width) {
            return Err(self.cur.err("abbreviation width outside 1..=32"));
        }
        self.cur.align32()?;
        let words = self.cur.fixed(32)?;
        let end = self.cur.pos + words * 32;
        if end > self.cur.data.len() as u64 * 8 {
            return Err(self.cur.err("block length runs past the end of the stream"));
        }
        let b = self.block(id, width as u32, end, depth)?;
        Ok((id != BLOCKINFO_BLOCK_ID).then_some(b))
    }
}

/// The magic every LLVM IR bitcode file starts with: "BC" 0xC0DE.
pub const BITCODE_MAGIC: [u8; 4] = [b'B', b'C', 0xC0, 0xDE];

/// Parses a bitcode stream (starting with [`BITCODE_MAGIC`]) into its top-level blocks.
///
/// Guarantees: returns the blocks in stream order with every record's operands decoded and
/// every abbreviation applied; `BLOCKINFO` blocks are applied and dropped. Fails with a
/// [`BitError`] on any malformation (truncation, undefined abbreviation, block length
/// disagreeing with its content, counts beyond the input); never panics.
pub fn parse(data: &[u8]) -> Result<Vec<Block>, BitError> {
    if data.len() < 4 || data[..4] != BITCODE_MAGIC {
        return Err(BitError { bit: 0, what: "stream does not start with BC 0xC0DE" });
    }
    let mut r = Reader { cur: Cursor { data, pos: 32 }, info: BlockInfo::default() };
    let mut blocks = Vec::new();
    // At the top level the abbreviation width is 2 and only blocks may appear. Writers pad
    // the stream to a word, so trailing zero bits are no more blocks.
    while r.cur.bits_left() >= 32 {
        match r.cur.fixed(2)? {
            ENTER_SUBBLOCK => {
                if let Some(b) = r.enter(1)? {
                    blocks.push(b);
                }
            }
            END_BLOCK if data[(r.cur.pos / 8) as usize..].iter().all(|&b| b == 0) => break,
            _ => return Err(r.cur.err("only blocks may appear at the top level")),
        }
    }
    Ok(blocks)
}

/// Reads `count` VBR6 values from the start of `bytes`, as `METADATA_STRINGS` stores its
/// string lengths. Guarantees the same error-not-panic behaviour as [`parse`].
pub fn read_vbr6_list(bytes: &[u8], count: usize) -> Result<Vec<u64>, BitError> {
    let mut c = Cursor { data: bytes, pos: 0 };
    if count as u64 > c.bits_left() {
        return Err(c.err("count larger than the rest of the stream"));
    }
    (0..count).map(|_| c.vbr(6)).collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A bit writer for hand-built streams, the mirror of [`Cursor`].
    #[derive(Default)]
    pub(crate) struct Writer {
        pub bytes: Vec<u8>,
        pub bit: u64,
    }

    impl Writer {
        /// A writer that has already written the bitcode magic.
        pub fn bitcode() -> Self {
            let mut w = Writer::default();
            for b in BITCODE_MAGIC {
                w.fixed(b as u64, 8);
            }
            w
        }

        pub fn fixed(&mut self, v: u64, width: u32) {
            for i in 0..width {
                if self.bit.is_multiple_of(8) {
                    self.bytes.push(0);
                }
                if (v >> i) & 1 == 1 {
                    *self.bytes.last_mut().unwrap() |= 1 << (self.bit % 8);
                }
                self.bit += 1;
            }
        }

        pub fn vbr(&mut self, mut v: u64, width: u32) {
            let hi = 1u64 << (width - 1);
            loop {
                if v < hi {
                    self.fixed(v, width);
                    return;
                }
                self.fixed((v & (hi - 1)) | hi, width);
                v >>= width - 1;
            }
        }

        pub fn align32(&mut self) {
            while !self.bit.is_multiple_of(32) {
                self.fixed(0, 1);
            }
        }

        /// Enters a block; returns the byte index of its length word, for [`Writer::end`].
        pub fn enter(&mut self, width: u32, id: u32, new_width: u32) -> usize {
            self.fixed(ENTER_SUBBLOCK, width);
            self.vbr(id as u64, 8);
            self.vbr(new_width as u64, 4);
            self.align32();
            let at = self.bytes.len();
            self.fixed(0, 32);
            at
        }

        /// Ends a block entered at `len_at`, patching its length.
        pub fn end(&mut self, width: u32, len_at: usize) {
            self.fixed(END_BLOCK, width);
            self.align32();
            let words = ((self.bytes.len() - len_at - 4) / 4) as u32;
            self.bytes[len_at..len_at + 4].copy_from_slice(&words.to_le_bytes());
        }

        pub fn unabbrev(&mut self, width: u32, code: u32, ops: &[u64]) {
            self.fixed(UNABBREV_RECORD, width);
            self.vbr(code as u64, 6);
            self.vbr(ops.len() as u64, 6);
            for &o in ops {
                self.vbr(o, 6);
            }
        }
    }

    /// Writes a block tree, as the inverse of [`parse`]: records unabbreviated, except that a
    /// record with a blob gets an abbreviation of its own (literal code, a VBR6 per operand,
    /// the blob) defined just before it, since only abbreviations carry blobs.
    pub(crate) fn write_tree(w: &mut Writer, width: u32, b: &Block) {
        let inner = 4;
        let at = w.enter(width, b.id, inner);
        let mut next_abbrev = 4;
        for item in &b.items {
            match item {
                Item::Record(Record { code, ops, blob: Some(blob) }) => {
                    w.fixed(DEFINE_ABBREV, inner);
                    w.vbr(ops.len() as u64 + 2, 5);
                    w.fixed(1, 1);
                    w.vbr(u64::from(*code), 8);
                    for _ in ops {
                        w.fixed(0, 1);
                        w.fixed(2, 3);
                        w.vbr(6, 5);
                    }
                    w.fixed(0, 1);
                    w.fixed(5, 3);
                    w.fixed(next_abbrev, inner);
                    next_abbrev += 1;
                    for &o in ops {
                        w.vbr(o, 6);
                    }
                    w.vbr(blob.len() as u64, 6);
                    w.align32();
                    for &byte in blob {
                        w.fixed(u64::from(byte), 8);
                    }
                    w.align32();
                }
                Item::Record(r) => w.unabbrev(inner, r.code, &r.ops),
                Item::Block(sub) => write_tree(w, inner, sub),
            }
        }
        w.end(inner, at);
    }

    #[test]
    fn fixed_and_vbr_fields_read_back() {
        let mut w = Writer::default();
        w.fixed(5, 3);
        w.vbr(1000, 6);
        w.fixed(u64::MAX, 64);
        w.vbr(u64::MAX, 32);
        w.fixed(1, 1);
        let mut c = Cursor { data: &w.bytes, pos: 0 };
        assert_eq!(c.fixed(3), Ok(5));
        assert_eq!(c.vbr(6), Ok(1000));
        assert_eq!(c.fixed(64), Ok(u64::MAX));
        assert_eq!(c.vbr(32), Ok(u64::MAX));
        assert_eq!(c.fixed(1), Ok(1));
    }

    #[test]
    fn vbr_longer_than_64_bits_is_an_error() {
        let mut w = Writer::default();
        for _ in 0..14 {
            w.fixed(0x3F, 6);
        }
        w.fixed(1, 6);
        let mut c = Cursor { data: &w.bytes, pos: 0 };
        assert!(c.vbr(6).is_err());
    }

    #[test]
    fn reading_past_the_end_is_an_error() {
        let mut c = Cursor { data: &[0xFF], pos: 0 };
        assert_eq!(c.fixed(8), Ok(0xFF));
        assert!(c.fixed(1).is_err());
        assert!(c.vbr(4).is_err());
    }

    #[test]
    fn unabbreviated_records_and_nested_blocks() {
        let mut w = Writer::bitcode();
        let outer = w.enter(2, 8, 3);
        w.unabbrev(3, 1, &[7, 300]);
        let inner = w.enter(3, 9, 4);
        w.unabbrev(4, 2, &[]);
        w.end(4, inner);
        w.unabbrev(3, 5, &[1]);
        w.end(3, outer);
        let blocks = parse(&w.bytes).unwrap();
        assert_eq!(blocks.len(), 1);
        let b = &blocks[0];
        assert_eq!(b.id, 8);
        assert_eq!(b.items.len(), 3);
        assert_eq!(b.items[0], Item::Record(Record { code: 1, ops: vec![7, 300], blob: None }));
        assert_eq!(
            b.items[1],
            Item::Block(Block { id: 9, items: vec![Item::Record(Record { code: 2, ..Record::default() })] })
        );
        assert_eq!(b.records().nth(1).unwrap().code, 5);
    }

    /// Writes a DEFINE_ABBREV: literal code `code`, then fixed(3), vbr(6), array of char6,
    /// at abbreviation width `width`.
    fn define_test_abbrev(w: &mut Writer, width: u32, code: u64) {
        w.fixed(DEFINE_ABBREV, width);
        w.vbr(5, 5);
        w.fixed(1, 1);
        w.vbr(code, 8);
        w.fixed(0, 1);
        w.fixed(1, 3);
        w.vbr(3, 5);
        w.fixed(0, 1);
        w.fixed(2, 3);
        w.vbr(6, 5);
        w.fixed(0, 1);
        w.fixed(3, 3);
        w.fixed(0, 1);
        w.fixed(4, 3);
    }

    fn write_test_abbrev_record(w: &mut Writer, width: u32, id: u64) {
        w.fixed(id, width);
        w.fixed(6, 3);
        w.vbr(99, 6);
        w.vbr(3, 6);
        for c in [0u64, 26 + 1, 62] {
            w.fixed(c, 6);
        }
    }

    #[test]
    fn local_abbreviation_with_literal_fixed_vbr_and_char6_array() {
        let mut w = Writer::bitcode();
        let b = w.enter(2, 8, 4);
        define_test_abbrev(&mut w, 4, 17);
        write_test_abbrev_record(&mut w, 4, 4);
        w.end(4, b);
        let blocks = parse(&w.bytes).unwrap();
        assert_eq!(
            blocks[0].items,
            vec![Item::Record(Record {
                code: 17,
                ops: vec![6, 99, b'a' as u64, b'B' as u64, b'.' as u64],
                blob: None
            })]
        );
        assert_eq!(blocks[0].records().next().unwrap().string(2).as_deref(), Some("aB."));
    }

    #[test]
    fn blockinfo_abbreviations_apply_to_the_named_block_only() {
        let mut w = Writer::bitcode();
        let m = w.enter(2, 8, 3);
        let info = w.enter(3, BLOCKINFO_BLOCK_ID, 2);
        w.unabbrev(2, BLOCKINFO_CODE_SETBID, &[11]);
        define_test_abbrev(&mut w, 2, 4);
        w.unabbrev(2, 2, &[b'x' as u64]); // BLOCKNAME, ignored
        w.end(2, info);
        let c = w.enter(3, 11, 4);
        // A local abbreviation comes after the BLOCKINFO one: id 5.
        define_test_abbrev(&mut w, 4, 9);
        write_test_abbrev_record(&mut w, 4, 4);
        write_test_abbrev_record(&mut w, 4, 5);
        w.end(4, c);
        let other = w.enter(3, 12, 4);
        w.fixed(4, 4); // no abbreviation 4 in block 12
        w.align32();
        w.end(4, other);
        w.end(3, m);
        let err = parse(&w.bytes).unwrap_err();
        assert_eq!(err.what, "abbreviation id not defined");

        // The same without the faulty block parses, and BLOCKINFO itself is dropped.
        let mut w2 = Writer::bitcode();
        let m = w2.enter(2, 8, 3);
        let info = w2.enter(3, BLOCKINFO_BLOCK_ID, 2);
        w2.unabbrev(2, BLOCKINFO_CODE_SETBID, &[11]);
        define_test_abbrev(&mut w2, 2, 4);
        w2.end(2, info);
        let c = w2.enter(3, 11, 4);
        define_test_abbrev(&mut w2, 4, 9);
        write_test_abbrev_record(&mut w2, 4, 4);
        write_test_abbrev_record(&mut w2, 4, 5);
        w2.end(4, c);
        w2.end(3, m);
        let blocks = parse(&w2.bytes).unwrap();
        assert_eq!(blocks[0].items.len(), 1);
        let sub = blocks[0].blocks().next().unwrap();
        let codes: Vec<u32> = sub.records().map(|r| r.code).collect();
        assert_eq!(codes, vec![4, 9]);
    }

    #[test]
    fn blob_operand_is_aligned_and_kept() {
        let mut w = Writer::bitcode();
        let b = w.enter(2, 8, 4);
        w.fixed(DEFINE_ABBREV, 4);
        w.vbr(2, 5);
        w.fixed(1, 1);
        w.vbr(35, 8);
        w.fixed(0, 1);
        w.fixed(5, 3);
        w.fixed(4, 4);
        w.vbr(5, 6);
        w.align32();
        for &c in b"hello" {
            w.fixed(c as u64, 8);
        }
        w.align32();
        w.end(4, b);
        let blocks = parse(&w.bytes).unwrap();
        let r = blocks[0].records().next().unwrap();
        assert_eq!((r.code, r.blob.as_deref()), (35, Some(&b"hello"[..])));
    }

    #[test]
    fn zero_width_fixed_is_literal_zero() {
        let mut w = Writer::bitcode();
        let b = w.enter(2, 8, 4);
        w.fixed(DEFINE_ABBREV, 4);
        w.vbr(2, 5);
        w.fixed(1, 1);
        w.vbr(3, 8);
        w.fixed(0, 1);
        w.fixed(1, 3);
        w.vbr(0, 5);
        w.fixed(4, 4);
        w.end(4, b);
        let blocks = parse(&w.bytes).unwrap();
        assert_eq!(blocks[0].records().next().unwrap().ops, vec![0]);
    }

    #[test]
    fn malformed_abbreviations_are_errors() {
        // An array as the last operand has no element type.
        let mut w = Writer::bitcode();
        let b = w.enter(2, 8, 4);
        w.fixed(DEFINE_ABBREV, 4);
        w.vbr(2, 5);
        w.fixed(1, 1);
        w.vbr(3, 8);
        w.fixed(0, 1);
        w.fixed(3, 3);
        w.end(4, b);
        assert!(parse(&w.bytes).is_err());
    }

    #[test]
    fn wrong_block_length_is_an_error() {
        let mut w = Writer::bitcode();
        let b = w.enter(2, 8, 3);
        w.unabbrev(3, 1, &[1]);
        w.end(3, b);
        w.bytes[b] += 1;
        w.fixed(0, 32);
        assert!(parse(&w.bytes).is_err());
    }

    #[test]
    fn huge_counts_do_not_allocate() {
        let mut w = Writer::bitcode();
        let b = w.enter(2, 8, 3);
        w.fixed(UNABBREV_RECORD, 3);
        w.vbr(1, 6);
        w.vbr(1 << 40, 6);
        w.align32();
        w.end(3, b);
        assert_eq!(parse(&w.bytes).unwrap_err().what, "count larger than the rest of the stream");
    }

    #[test]
    fn bad_magic_is_an_error() {
        assert!(parse(b"BC\xC0").is_err());
        assert!(parse(b"XC\xC0\xDE").is_err());
        assert_eq!(parse(&BITCODE_MAGIC), Ok(vec![]));
    }
}
