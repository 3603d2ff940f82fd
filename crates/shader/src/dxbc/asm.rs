//! A small DXBC assembler for tests: fxc-like text to the tokens of the tokenized program
//! format ([`super::tokens`] reads them back), and [`container`] to a whole shader.
//!
//! There is no fxc on Linux; test shaders are written in this text, kept in the repository,
//! and assembled when the tests run. The syntax is fxc's disassembly, one instruction a line:
//!
//! ```text
//! cs_5_0
//! dcl_uav_raw u0
//! dcl_input vThreadID.x
//! dcl_temps 1
//! dcl_thread_group 4, 1, 1
//! ishl r0.x, vThreadID.x, l(2)
//! store_raw u0.x, r0.x, vThreadID.x
//! ret
//! ```
//!
//! Operands: `r0.xy`, `-|r1.x|`, `v0`, `o0.xyzw`, `x0[r1.x + 2].y`, `cb0[3].xyzw`,
//! `cb0[r0.x + 1].x`, `icb[r0.x + 0].x`, `l(1.0, 2, 0x3, -4)`, `l(7)`, `d(1.5, -2.0)` (doubles,
//! as .xy and .zw), `d(0.25)`, `t0`, `u0.xyzw`,
//! `s0`, `g0`, `null`, the compute system values (`vThreadID`, `vThreadGroupID`,
//! `vThreadIDInGroup`, `vThreadIDInGroupFlattened`), `vPrim`, `oDepth`, `rasterizer`; shader model 5.1
//! ranges `T0[1]`, `U0[r0.x + 1]`, `CB0[0][3]` (id, register, row) with declarations
//! `dcl_uav_raw U0[1:3], space=2`. Suffixes: `_sat`, `_nz` / `_z`, `_uint` (resinfo),
//! `(1,0,0)` texel offsets after a sampling mnemonic. `//` starts a comment.
//! Errors name the line; the assembler never panics.

use super::opcodes;
use super::tokens::ty;

/// Why a text does not assemble: (line number from 1, what).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AsmError(pub usize, pub String);

impl core::fmt::Display for AsmError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "line {}: {}", self.0, self.1)
    }
}

type R<T> = Result<T, String>;

/// Splits `s` at commas outside parentheses, brackets and braces.
fn split(s: &str) -> Vec<&str> {
    let (mut depth, mut start, mut out) = (0i32, 0, Vec::new());
    for (i, c) in s.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    if !s[start..].trim().is_empty() {
        out.push(s[start..].trim());
    }
    out
}

/// A number: decimal or `0x` hex integer (two's complement when negative), or a float.
fn number(s: &str) -> R<u32> {
    let s = s.trim();
    let (neg, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s),
    };
    if let Some(h) = body.strip_prefix("0x") {
        let v = u32::from_str_radix(h, 16).map_err(|_| format!("bad number {s}"))?;
        return Ok(if neg { v.wrapping_neg() } else { v });
    }
    if body.contains(['.', 'e', 'E']) || body == "inf" || body == "nan" {
        let f: f32 = s.parse().map_err(|_| format!("bad float {s}"))?;
        return Ok(f.to_bits());
    }
    let v: i64 = s.parse().map_err(|_| format!("bad integer {s}"))?;
    if !(i64::from(i32::MIN)..=i64::from(u32::MAX)).contains(&v) {
        return Err(format!("{s} does not fit 32 bits"));
    }
    Ok(v as u32)
}

/// A double immediate's bits: a float, or `0x` followed by the 64 bits.
fn double(s: &str) -> R<u64> {
    let s = s.trim();
    if let Some(h) = s.strip_prefix("0x") {
        return u64::from_str_radix(h, 16).map_err(|_| format!("bad double bits {s}"));
    }
    s.parse::<f64>().map(f64::to_bits).map_err(|_| format!("bad double {s}"))
}

fn comp(c: char) -> R<u32> {
    match c {
        'x' | 'r' => Ok(0),
        'y' | 'g' => Ok(1),
        'z' | 'b' => Ok(2),
        'w' | 'a' => Ok(3),
        _ => Err(format!("bad component {c}")),
    }
}

/// Register names without an index, and their operand types.
const NAMED: &[(&str, u32)] = &[
    ("vOutputControlPointID", 22),
    ("vForkInstanceID", 23),
    ("vJoinInstanceID", 24),
    ("vDomain", 28),
    ("vThreadIDInGroupFlattened", ty::THREAD_ID_IN_GROUP_FLATTENED),
    ("vThreadIDInGroup", ty::THREAD_ID_IN_GROUP),
    ("vThreadGroupID", ty::THREAD_GROUP_ID),
    ("vThreadID", ty::THREAD_ID),
    ("vCoverage", ty::COVERAGE_MASK),
    ("vGSInstanceID", ty::GS_INSTANCE_ID),
    ("vPrim", ty::INPUT_PRIMITIVEID),
    ("oDepthGE", ty::OUTPUT_DEPTH_GE),
    ("oDepthLE", ty::OUTPUT_DEPTH_LE),
    ("oDepth", ty::OUTPUT_DEPTH),
    ("oMask", ty::OUTPUT_COVERAGE_MASK),
    ("null", ty::NULL),
    ("rasterizer", ty::RASTERIZER),
];

/// Register prefixes and their operand types, longest first.
const PREFIXES: &[(&str, u32)] = &[
    ("vicp", 25),
    ("vocp", 26),
    ("vpc", 27),
    ("icb", ty::IMMEDIATE_CONSTANT_BUFFER),
    ("cb", ty::CONSTANT_BUFFER),
    ("CB", ty::CONSTANT_BUFFER),
    ("r", ty::TEMP),
    ("v", ty::INPUT),
    ("o", ty::OUTPUT),
    ("x", ty::INDEXABLE_TEMP),
    ("s", ty::SAMPLER),
    ("S", ty::SAMPLER),
    ("t", ty::RESOURCE),
    ("T", ty::RESOURCE),
    ("u", ty::UAV),
    ("U", ty::UAV),
    ("g", ty::TGSM),
    ("m", ty::STREAM),
    ("l", ty::LABEL),
];

/// Whether an operand is written (mask) or read (swizzle).
#[derive(Clone, Copy, PartialEq)]
enum Role {
    Dst,
    Src,
    /// A declaration's operand: a mask, or none for resources.
    Decl,
}

/// Encodes one index (immediate and/or relative) into `out`, returning its representation.
fn index(s: &str, out: &mut Vec<u32>) -> R<u32> {
    let s = s.trim();
    // `r0.x + 2`, `r0.x`, `2`.
    let (reg, imm) = match s.rfind('+') {
        Some(p) => (Some(s[..p].trim()), number(&s[p + 1..])?),
        None if s.starts_with(|c: char| c.is_ascii_digit()) => (None, number(s)?),
        None => (Some(s), 0),
    };
    match reg {
        None => {
            out.push(imm);
            Ok(0)
        }
        Some(r) => {
            let rel = operand(r, Role::Src)?;
            if imm != 0 || s.contains('+') {
                out.push(imm);
                out.extend(rel);
                Ok(3)
            } else {
                out.extend(rel);
                Ok(2)
            }
        }
    }
}

/// Encodes an operand.
fn operand(text: &str, role: Role) -> R<Vec<u32>> {
    let mut s = text.trim();
    let mut modifier = 0u32;
    if let Some(r) = s.strip_prefix('-') {
        modifier = 1;
        s = r.trim();
    }
    if s.starts_with('|') {
        let end = s[1..].find('|').ok_or("unclosed |")? + 1;
        let (inner, rest) = (&s[1..end], s[end + 1..].trim());
        if !rest.is_empty() {
            return Err(format!("text after |...|: {rest}"));
        }
        modifier |= 2;
        s = inner.trim();
    }
    // Immediates.
    if let Some(body) = s.strip_prefix("l(").and_then(|b| b.strip_suffix(')')) {
        let vals = split(body).into_iter().map(number).collect::<R<Vec<_>>>()?;
        let (n, tokc) = match vals.len() {
            1 => (1, 1),
            4 => (4, 2),
            k => return Err(format!("an immediate of {k} values")),
        };
        let mut out = vec![tokc | ty::IMMEDIATE32 << 12];
        out.extend(&vals[..n]);
        return Ok(out);
    }
    // Double immediates: `d(1.5)` (one double), `d(1.5, -2.0)` (two, as .xy and .zw); each a
    // float or the `0x` bits, written low word first.
    if let Some(body) = s.strip_prefix("d(").and_then(|b| b.strip_suffix(')')) {
        let vals = split(body).into_iter().map(double).collect::<R<Vec<_>>>()?;
        let (tokc, n) = match vals.len() {
            1 => (1, 1),
            2 => (2, 4),
            k => return Err(format!("a double immediate of {k} values (one or two)")),
        };
        let mut out = vec![tokc | ty::IMMEDIATE64 << 12];
        for k in 0..n {
            let v = vals.get(k).copied().unwrap_or(0);
            out.extend([v as u32, (v >> 32) as u32]);
        }
        return Ok(out);
    }
    // Register name and indices.
    let (name_end, mut rest) = match s.find(['[', '.']) {
        Some(p) => (p, &s[p..]),
        None => (s.len(), ""),
    };
    let name = &s[..name_end];
    let mut idx_words = Vec::new();
    let mut reps = Vec::new();
    let opty;
    if let Some(&(_, t)) = NAMED.iter().find(|(n, _)| *n == name) {
        opty = t;
    } else {
        let &(p, t) = PREFIXES
            .iter()
            .find(|(p, _)| name.starts_with(p) && name[p.len()..].chars().all(|c| c.is_ascii_digit()))
            .ok_or_else(|| format!("unknown register {name}"))?;
        opty = t;
        let num = &name[p.len()..];
        if !num.is_empty() {
            reps.push(0);
            idx_words.push(number(num)?);
        }
    }
    while let Some(r) = rest.strip_prefix('[') {
        let end = r.find(']').ok_or("unclosed [")?;
        let inner = &r[..end];
        // Declarations' ranges `[lo:hi]`.
        if let Some((lo, hi)) = inner.split_once(':') {
            reps.extend([0, 0]);
            idx_words.push(number(lo)?);
            idx_words.push(if hi.trim() == "*" { u32::MAX } else { number(hi)? });
        } else {
            reps.push(index(inner, &mut idx_words)?);
        }
        rest = &r[end + 1..];
    }
    if reps.len() > 3 {
        return Err(format!("{text}: more than three indices"));
    }
    // Components.
    let comps: Option<&str> = rest.strip_prefix('.');
    if !rest.is_empty() && comps.is_none() {
        return Err(format!("unexpected {rest}"));
    }
    let no_comps = matches!(opty, ty::NULL | ty::LABEL | ty::STREAM)
        || (role == Role::Decl
            && matches!(opty, ty::SAMPLER | ty::RESOURCE | ty::UAV | ty::TGSM | ty::CONSTANT_BUFFER))
        || (comps.is_none() && matches!(opty, ty::SAMPLER));
    let one = matches!(opty, ty::INPUT_PRIMITIVEID | ty::OUTPUT_DEPTH | ty::OUTPUT_DEPTH_GE | ty::OUTPUT_DEPTH_LE)
        || matches!(opty, ty::OUTPUT_COVERAGE_MASK | ty::COVERAGE_MASK | ty::THREAD_ID_IN_GROUP_FLATTENED | 22..=24)
            && comps.is_none();
    let mut tok = if no_comps {
        0
    } else if one {
        1
    } else {
        let letters: Vec<u32> = comps.unwrap_or("xyzw").chars().map(comp).collect::<R<_>>()?;
        if letters.is_empty() || letters.len() > 4 {
            return Err(format!("{text}: bad components"));
        }
        match role {
            Role::Dst | Role::Decl => {
                let m = letters.iter().fold(0, |m, c| m | 1 << c);
                2 | m << 4
            }
            Role::Src => {
                let sw = (0..4).fold(0, |w, k| w | letters[k.min(letters.len() - 1)] << (2 * k));
                2 | 1 << 2 | sw << 4
            }
        }
    };
    tok |= opty << 12 | (reps.len() as u32) << 20;
    for (d, r) in reps.iter().enumerate() {
        tok |= r << (22 + 3 * d);
    }
    let mut out = vec![tok];
    if modifier != 0 {
        out[0] |= 1 << 31;
        out.push(1 | modifier << 6);
    }
    out.extend(idx_words);
    Ok(out)
}

/// `D3D10_SB_NAME` of a system-value name in a declaration.
fn sv_name(s: &str) -> R<u32> {
    Ok(match s {
        "position" => 1,
        "clip_distance" => 2,
        "cull_distance" => 3,
        "rendertarget_array_index" => 4,
        "viewport_array_index" => 5,
        "vertex_id" => 6,
        "primitive_id" => 7,
        "instance_id" => 8,
        "is_front_face" => 9,
        "sampleIndex" => 10,
        _ => return Err(format!("unknown system value {s}")),
    })
}

/// `D3D10_SB_RESOURCE_DIMENSION` of a declaration suffix.
fn dimension(s: &str) -> R<u32> {
    Ok(match s {
        "buffer" => 1,
        "texture1d" => 2,
        "texture2d" => 3,
        "texture2dms" => 4,
        "texture3d" => 5,
        "texturecube" => 6,
        "texture1darray" => 7,
        "texture2darray" => 8,
        "texture2dmsarray" => 9,
        "texturecubearray" => 10,
        _ => return Err(format!("unknown resource dimension {s}")),
    })
}

/// The return-type DWORD of `(float,float,float,float)`.
fn return_types(s: &str) -> R<u32> {
    let body = s.trim().strip_prefix('(').and_then(|b| b.strip_suffix(')')).ok_or("expected (type,...)")?;
    let ts: Vec<&str> = body.split(',').map(str::trim).collect();
    if ts.len() != 4 {
        return Err("four return types".into());
    }
    ts.iter().enumerate().try_fold(0, |w, (k, t)| {
        let v = match *t {
            "unorm" => 1,
            "snorm" => 2,
            "sint" => 3,
            "uint" => 4,
            "float" => 5,
            "mixed" => 6,
            "double" => 7,
            _ => return Err(format!("unknown return type {t}")),
        };
        Ok(w | v << (4 * k))
    })
}

/// The `space=N` DWORD of a shader model 5.1 declaration, if `args` ends with one.
fn space(args: &mut Vec<&str>) -> R<Option<u32>> {
    match args.last().and_then(|a| a.strip_prefix("space=")) {
        Some(n) => {
            let v = number(n)?;
            args.pop();
            Ok(Some(v))
        }
        None => Ok(None),
    }
}

/// Encodes one line (without its comment) into `out`; `sm51`: the program is 5.1.
fn line(text: &str, sm51: bool, out: &mut Vec<u32>) -> R<()> {
    let (mnemonic, rest) = match text.find(char::is_whitespace) {
        Some(p) => (&text[..p], text[p..].trim()),
        None => (text, ""),
    };
    let mut args = split(rest);
    // Texel offsets: `sample_indexable(2,0,0)` style suffix `sample(1,-1,0)`.
    let (mnemonic, offsets) = match mnemonic.find('(') {
        Some(p) => {
            let body = mnemonic[p + 1..].strip_suffix(')').ok_or("unclosed offsets")?;
            let o = body.split(',').map(|v| number(v).map(|n| n as i32)).collect::<R<Vec<_>>>()?;
            if o.len() != 3 || o.iter().any(|v| !(-8..=7).contains(v)) {
                return Err("offsets are three values in -8..=7".into());
            }
            (&mnemonic[..p], Some(o))
        }
        None => (mnemonic, None),
    };
    let start = out.len();
    let emit_ops = |out: &mut Vec<u32>, args: &[&str], role: Role| -> R<()> {
        for a in args {
            out.extend(operand(a, role)?);
        }
        Ok(())
    };
    // Declarations.
    let decl = |op: u32, controls: u32| op | controls << 11;
    let mut tok = None;
    match mnemonic {
        "dcl_globalFlags" => {
            let flags = args.iter().try_fold(0u32, |f, a| {
                Ok::<u32, String>(
                    f | match *a {
                        "refactoringAllowed" => 1,
                        "enableDoublePrecisionFloatOps" => 2,
                        "forceEarlyDepthStencil" => 4,
                        "enableRawAndStructuredBuffers" => 8,
                        _ => return Err(format!("unknown global flag {a}")),
                    },
                )
            })?;
            tok = Some(decl(106, flags));
        }
        "dcl_temps" | "dcl_maxout" | "dcl_gsinstances" => {
            let op = opcodes::by_name(mnemonic).ok_or("?")?.0;
            out.push(decl(op, 0));
            out.push(number(args.first().ok_or("a count")?)?);
        }
        "hs_decls" | "hs_control_point_phase" | "hs_fork_phase" | "hs_join_phase" => {
            tok = Some(decl(opcodes::by_name(mnemonic).ok_or("?")?.0, 0));
        }
        "dcl_input_control_point_count" | "dcl_output_control_point_count" => {
            let n = number(args.first().ok_or("a count")?)?;
            if n > 32 {
                return Err("at most 32 control points".into());
            }
            tok = Some(decl(opcodes::by_name(mnemonic).ok_or("?")?.0, n));
        }
        "dcl_tessellator_domain" | "dcl_tessellator_partitioning" | "dcl_tessellator_output_primitive" => {
            let v = match args.first().copied().unwrap_or("") {
                "domain_isoline" | "partitioning_integer" | "output_point" => 1,
                "domain_tri" | "partitioning_pow2" | "output_line" => 2,
                "domain_quad" | "partitioning_fractional_odd" | "output_triangle_cw" => 3,
                "partitioning_fractional_even" | "output_triangle_ccw" => 4,
                o => return Err(format!("{mnemonic} {o}")),
            };
            tok = Some(decl(opcodes::by_name(mnemonic).ok_or("?")?.0, v));
        }
        "dcl_hs_max_tessfactor" | "dcl_hs_fork_phase_instance_count" | "dcl_hs_join_phase_instance_count" => {
            let a = args.first().ok_or("a value")?;
            let a = a.strip_prefix("l(").and_then(|b| b.strip_suffix(')')).unwrap_or(a);
            out.push(decl(opcodes::by_name(mnemonic).ok_or("?")?.0, 0));
            out.push(number(a)?);
        }
        "dcl_inputprimitive" | "dcl_outputtopology" => {
            let v = match (mnemonic, args.first().copied()) {
                ("dcl_inputprimitive", Some("point")) => 1,
                ("dcl_inputprimitive", Some("line")) => 2,
                ("dcl_inputprimitive", Some("triangle")) => 3,
                ("dcl_inputprimitive", Some("lineadj")) => 6,
                ("dcl_inputprimitive", Some("triangleadj")) => 7,
                ("dcl_outputtopology", Some("pointlist")) => 1,
                ("dcl_outputtopology", Some("linestrip")) => 3,
                ("dcl_outputtopology", Some("trianglestrip")) => 5,
                (_, o) => return Err(format!("{mnemonic} {o:?}")),
            };
            tok = Some(decl(opcodes::by_name(mnemonic).ok_or("?")?.0, v));
        }
        "dcl_thread_group" => {
            out.push(decl(155, 0));
            if args.len() != 3 {
                return Err("dcl_thread_group x, y, z".into());
            }
            for a in &args {
                out.push(number(a)?);
            }
        }
        "dcl_indexableTemp" => {
            // dcl_indexableTemp x0[8], 4
            let a = args.first().ok_or("x#[n], components")?;
            let (reg, n) = a.strip_prefix('x').and_then(|r| r.strip_suffix(']')?.split_once('[')).ok_or("x#[n]")?;
            out.extend([decl(105, 0), number(reg)?, number(n)?, number(args.get(1).ok_or("components")?)?]);
        }
        "dcl_input" | "dcl_output" | "dcl_stream" => {
            let op = opcodes::by_name(mnemonic).ok_or("?")?.0;
            out.push(decl(op, 0));
            emit_ops(out, &args, Role::Decl)?;
        }
        "dcl_input_sgv" | "dcl_input_siv" | "dcl_output_sgv" | "dcl_output_siv" => {
            let op = opcodes::by_name(mnemonic).ok_or("?")?.0;
            out.push(decl(op, 0));
            emit_ops(out, &args[..1.min(args.len())], Role::Decl)?;
            out.push(sv_name(args.get(1).ok_or("a system value")?)?);
        }
        m if m.starts_with("dcl_input_ps") => {
            // dcl_input_ps linear v0.xy / dcl_input_ps_siv linear noperspective v0.xyzw, position
            let (mode_and_reg, sv) = (args.first().ok_or("interpolation and register")?, args.get(1));
            let words: Vec<&str> = mode_and_reg.split_whitespace().collect();
            let (reg, modes) = words.split_last().ok_or("a register")?;
            let mode = match modes.join(" ").as_str() {
                "constant" => 1,
                "linear" => 2,
                "linear centroid" => 3,
                "linear noperspective" => 4,
                "linear noperspective centroid" => 5,
                "linear sample" => 6,
                "linear noperspective sample" => 7,
                other => return Err(format!("unknown interpolation {other}")),
            };
            let op = opcodes::by_name(m).ok_or("?")?.0;
            out.push(decl(op, mode));
            out.extend(operand(reg, Role::Decl)?);
            if op != 98 {
                out.push(sv_name(sv.ok_or("a system value")?)?);
            }
        }
        "dcl_immediateConstantBuffer" => {
            // dcl_immediateConstantBuffer { { 1.0, 2, 3, 4 }, { ... } }
            let body = rest.trim().strip_prefix('{').and_then(|b| b.strip_suffix('}')).ok_or("{ ... }")?;
            let mut data = Vec::new();
            for v in split(body) {
                let row = v.trim().strip_prefix('{').and_then(|b| b.strip_suffix('}')).ok_or("{ x, y, z, w }")?;
                let vals = split(row).into_iter().map(number).collect::<R<Vec<_>>>()?;
                if vals.len() != 4 {
                    return Err("rows of four values".into());
                }
                data.extend(vals);
            }
            out.push(opcodes::CUSTOMDATA | 3 << 11);
            out.push(data.len() as u32 + 2);
            out.extend(data);
            return Ok(());
        }
        "dcl_constantbuffer" => {
            let s = space(&mut args)?;
            let dynamic = match args.get(1).copied() {
                Some("dynamicIndexed") => 1,
                Some("immediateIndexed") | None => 0,
                Some(o) => return Err(format!("unknown access pattern {o}")),
            };
            out.push(decl(89, dynamic));
            let a = args.first().ok_or("a constant buffer")?;
            if sm51 {
                // CB0[lo:hi][size]: id, lo, hi; then the size and space DWORDs.
                let (range, size) = a.rsplit_once('[').ok_or("CB#[lo:hi][size]")?;
                out.extend(operand(range, Role::Decl)?);
                out.push(number(size.strip_suffix(']').ok_or("]")?)?);
                out.push(s.unwrap_or(0));
            } else {
                out.extend(operand(a, Role::Decl)?);
            }
        }
        m if m == "dcl_sampler"
            || m == "dcl_resource_raw"
            || m == "dcl_uav_raw"
            || m == "dcl_resource_structured"
            || m == "dcl_uav_structured"
            || m.starts_with("dcl_resource_")
            || m.starts_with("dcl_uav_typed_") =>
        {
            let s = space(&mut args)?;
            let (op, controls, reg, words): (u32, u32, &str, Vec<u32>) = if m == "dcl_sampler" {
                let mode = match args.get(1).copied() {
                    Some("mode_default") | None => 0,
                    Some("mode_comparison") => 1,
                    Some("mode_mono") => 2,
                    Some(o) => return Err(format!("unknown sampler mode {o}")),
                };
                (90, mode, args.first().ok_or("a sampler")?, vec![])
            } else if m == "dcl_resource_raw" || m == "dcl_uav_raw" {
                (if m == "dcl_uav_raw" { 157 } else { 161 }, 0, args.first().ok_or("a register")?, vec![])
            } else if m == "dcl_resource_structured" || m == "dcl_uav_structured" {
                let stride = number(args.get(1).ok_or("a stride")?)?;
                (if m == "dcl_uav_structured" { 158 } else { 162 }, 0, args.first().ok_or("a register")?, vec![stride])
            } else {
                // dcl_resource_texture2d (float,float,float,float) t0
                let uav = m.starts_with("dcl_uav_typed_");
                let dim = dimension(m.trim_start_matches("dcl_uav_typed_").trim_start_matches("dcl_resource_"))?;
                let a = args.first().ok_or("(types) register")?;
                let p = a.rfind(')').ok_or("(types) register")?;
                let rt = return_types(&a[..=p])?;
                (if uav { 156 } else { 88 }, dim, a[p + 1..].trim(), vec![rt])
            };
            out.push(decl(op, controls));
            out.extend(operand(reg, Role::Decl)?);
            out.extend(words);
            if sm51 {
                out.push(s.unwrap_or(0));
            }
        }
        "dcl_tgsm_raw" => {
            out.push(decl(159, 0));
            out.extend(operand(args.first().ok_or("g#")?, Role::Decl)?);
            out.push(number(args.get(1).ok_or("a byte count")?)?);
        }
        "dcl_tgsm_structured" => {
            out.push(decl(160, 0));
            out.extend(operand(args.first().ok_or("g#")?, Role::Decl)?);
            out.push(number(args.get(1).ok_or("a stride")?)?);
            out.push(number(args.get(2).ok_or("a count")?)?);
        }
        _ => {}
    }
    if out.len() > start || tok.is_some() {
        if let Some(t) = tok {
            out.push(t);
        }
        let n = out.len() - start;
        out[start] |= (n as u32) << 24;
        return Ok(());
    }
    // Executable instructions: mnemonic[_sat][_nz|_z][_uint].
    let mut name = mnemonic;
    let mut controls = 0u32;
    loop {
        if let Some(n) = name.strip_suffix("_sat") {
            controls |= 1 << 2; // bit 13
            name = n;
        } else if let Some(n) = name.strip_suffix("_nz").filter(|n| opcodes::by_name(n).is_some()) {
            controls |= 1 << 7; // bit 18
            name = n;
        } else if let Some(n) = name.strip_suffix("_z").filter(|n| opcodes::by_name(n).is_some()) {
            name = n;
        } else if let Some(n) = name.strip_suffix("_uint").filter(|n| matches!(*n, "resinfo" | "sampleinfo")) {
            controls |= if *n == *"resinfo" { 2 } else { 1 };
            name = n;
        } else if let Some(n) = name.strip_suffix("_rcpFloat").filter(|n| *n == "resinfo") {
            controls |= 1;
            name = n;
        } else {
            break;
        }
    }
    let info = opcodes::by_name(name).ok_or_else(|| format!("unknown instruction {mnemonic}"))?;
    if opcodes::is_declaration(info.0) {
        return Err(format!("{name}: declaration syntax not supported by this assembler"));
    }
    if name == "sync" {
        // sync_g_t: _t syncs the group, _g / _ugroup / _uglobal fence memory.
        return Err("write sync as sync_g_t, sync_t, sync_ugroup_t, ...".into());
    }
    if args.len() != usize::from(info.2) + usize::from(info.3) {
        return Err(format!("{name} takes {} operands", info.2 + info.3));
    }
    out.push(info.0 | controls << 11);
    if let Some(o) = offsets {
        out[start] |= 1 << 31;
        out.push(1 | (o[0] as u32 & 0xF) << 9 | (o[1] as u32 & 0xF) << 13 | (o[2] as u32 & 0xF) << 17);
    }
    for (k, a) in args.iter().enumerate() {
        let role = if k < usize::from(info.2) { Role::Dst } else { Role::Src };
        // Atomics write through their resource operand: a mask like a destination.
        out.extend(operand(a, role)?);
    }
    let n = out.len() - start;
    if n > 127 {
        return Err("an instruction longer than 127 DWORDs".into());
    }
    out[start] |= (n as u32) << 24;
    Ok(())
}

/// `sync` with its flags (`_t` threads in group 0x800, `_g` group shared memory 0x1000,
/// `_ugroup` 0x2000, `_uglobal` 0x4000 of the opcode token).
fn sync(mnemonic: &str) -> Option<u32> {
    let mut flags = 0;
    for part in mnemonic.strip_prefix("sync")?.split('_').filter(|p| !p.is_empty()) {
        flags |= match part {
            "t" => 0x800,
            "g" => 0x1000,
            "ugroup" => 0x2000,
            "uglobal" => 0x4000,
            _ => return None,
        };
    }
    Some(190 | flags | 1 << 24)
}

/// Assembles a program: its version token (`cs_5_0`, `vs_4_1`, `ps_5_1`, ...), length token
/// and instructions.
pub fn assemble(text: &str) -> Result<Vec<u32>, AsmError> {
    let mut out = Vec::new();
    let mut sm51 = false;
    for (n, raw) in text.lines().enumerate() {
        let l = raw.split("//").next().unwrap_or("").trim();
        if l.is_empty() {
            continue;
        }
        if out.is_empty() {
            let kind = ["ps", "vs", "gs", "hs", "ds", "cs"]
                .iter()
                .position(|p| l.starts_with(&format!("{p}_")))
                .ok_or_else(|| AsmError(n + 1, format!("expected a profile, not {l}")))?;
            let v: Vec<&str> = l.split('_').collect();
            let num = |s: Option<&&str>| s.and_then(|s| s.parse::<u32>().ok()).filter(|v| *v <= 15);
            let (Some(major), Some(minor)) = (num(v.get(1)), num(v.get(2))) else {
                return Err(AsmError(n + 1, format!("bad profile {l}")));
            };
            sm51 = (major, minor) >= (5, 1);
            out.extend([(kind as u32) << 16 | major << 4 | minor, 0]);
            continue;
        }
        if let Some(t) = l.strip_prefix("sync").and(sync(l)) {
            out.push(t);
            continue;
        }
        line(l, sm51, &mut out).map_err(|e| AsmError(n + 1, e))?;
    }
    if out.is_empty() {
        return Err(AsmError(0, "no profile".into()));
    }
    out[1] = out.len() as u32;
    Ok(out)
}

/// The tokens as the bytes of a `SHDR` / `SHEX` part.
pub fn bytes(tokens: &[u32]) -> Vec<u8> {
    tokens.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// A whole shader container: the assembled program (`SHEX` from shader model 5, `SHDR`
/// before) with the given input and output signatures (`ISGN` / `OSGN`; a shader model 5
/// geometry shader's outputs as `OSG5`, with each element's stream) and, optionally, an
/// embedded root signature payload (`RTS0`); the checksum sealed.
pub fn container(
    text: &str,
    inputs: &[rd3d12_core::shader::SignatureElement],
    outputs: &[rd3d12_core::shader::SignatureElement],
    rts0: Option<&[u8]>,
) -> Result<Vec<u8>, AsmError> {
    container_with(text, inputs, outputs, &[], None, rts0)
}

/// [`container`] with a patch constant signature (`PCSG`, written when not empty, its tess
/// factors named for `domain`).
pub fn container_with(
    text: &str,
    inputs: &[rd3d12_core::shader::SignatureElement],
    outputs: &[rd3d12_core::shader::SignatureElement],
    patch: &[rd3d12_core::shader::SignatureElement],
    domain: Option<rd3d12_core::shader::TessDomain>,
    rts0: Option<&[u8]>,
) -> Result<Vec<u8>, AsmError> {
    use rd3d12_core::shader::{signature_part, SignatureLayout};
    let t = assemble(text)?;
    let major = (t[0] >> 4) & 0xF;
    let prog = bytes(&t);
    // fxc writes a shader model 5 geometry shader's outputs with their streams (OSG5).
    let gs5 = t[0] >> 16 == 2 && major >= 5;
    let olayout = if gs5 { SignatureLayout::V5 } else { SignatureLayout::V0 };
    let (i, o) = (signature_part(inputs, SignatureLayout::V0, None), signature_part(outputs, olayout, None));
    let pc = signature_part(patch, SignatureLayout::V0, domain);
    let mut parts: Vec<([u8; 4], &[u8])> = vec![(*b"ISGN", &i), (if gs5 { *b"OSG5" } else { *b"OSGN" }, &o)];
    if !patch.is_empty() {
        parts.push((*b"PCSG", &pc));
    }
    if let Some(r) = rts0 {
        parts.push((*b"RTS0", r));
    }
    parts.push((if major >= 5 { *b"SHEX" } else { *b"SHDR" }, &prog));
    Ok(rd3d12_core::dxbc::build(&parts))
}

/// A whole shader container from a fixture source: the assembly text with, before its
/// profile line, the container's other parts as directives:
///
/// * `.input NAME INDEX REGISTER MASK TYPE [SYSTEM_VALUE]` — an `ISGN` element, e.g.
///   `.input POSITION 0 0 xyzw float`, `.input SV_VertexID 0 1 x uint vertex_id`;
/// * `.output ...` — an `OSGN` element, e.g. `.output SV_Target 0 0 xyzw float target`; a
///   geometry shader's may end with `stream=N` (shader model 5 writes `OSG5`, with streams);
/// * `.patch ...` — a `PCSG` element (`tess_factor`, `inside_tess_factor` system values),
///   `.domain quad|tri|isoline` the domain that names them;
/// * `.root_uav REGISTER` / `.root_srv` / `.root_cbv` — a root descriptor parameter of an
///   embedded root signature (version 1.0, visible to every stage) in an `RTS0` part.
pub fn source(text: &str) -> Result<Vec<u8>, AsmError> {
    use rd3d12_core::root_signature::{ParameterKind, RootDescriptor, RootParameter, RootSignatureDesc, Version};
    use rd3d12_core::shader::{ComponentType, SemanticKind, SignatureElement};
    let (mut inputs, mut outputs, mut params) = (Vec::new(), Vec::new(), Vec::new());
    let (mut patch, mut domain) = (Vec::new(), None);
    let mut program = String::new();
    for (n, raw) in text.lines().enumerate() {
        let l = raw.split("//").next().unwrap_or("").trim();
        let err = |e: String| AsmError(n + 1, e);
        let Some(d) = l.strip_prefix('.') else {
            program.push_str(raw);
            program.push('\n');
            continue;
        };
        program.push('\n');
        let w: Vec<&str> = d.split_whitespace().collect();
        match w.as_slice() {
            ["domain", d] => {
                use rd3d12_core::shader::TessDomain as T;
                domain = Some(match *d {
                    "isoline" => T::Isoline,
                    "tri" => T::Tri,
                    "quad" => T::Quad,
                    o => return Err(err(format!("unknown domain {o}"))),
                });
            }
            [kind @ ("input" | "output" | "patch"), name, index, reg, mask, ty, rest @ ..] => {
                let mut stream = 0;
                let mut sv = Vec::new();
                for w in rest {
                    match w.strip_prefix("stream=") {
                        Some(n) => stream = number(n).map_err(err)?,
                        None => sv.push(*w),
                    }
                }
                let m =
                    mask.chars().map(comp).collect::<R<Vec<u32>>>().map_err(err)?.iter().fold(0u8, |m, c| m | 1 << c);
                let component = match *ty {
                    "float" => ComponentType::F32,
                    "uint" => ComponentType::U32,
                    "int" => ComponentType::I32,
                    t => return Err(err(format!("unknown component type {t}"))),
                };
                let semantic = match sv.first().copied() {
                    None => SemanticKind::Arbitrary,
                    Some("position") => SemanticKind::Position,
                    Some("target") => SemanticKind::Target,
                    Some("depth") => SemanticKind::Depth,
                    Some("vertex_id") => SemanticKind::VertexId,
                    Some("instance_id") => SemanticKind::InstanceId,
                    Some("primitive_id") => SemanticKind::PrimitiveId,
                    Some("is_front_face") => SemanticKind::IsFrontFace,
                    Some("tess_factor") => SemanticKind::TessFactor,
                    Some("inside_tess_factor") => SemanticKind::InsideTessFactor,
                    Some(o) => return Err(err(format!("unknown system value {o}"))),
                };
                let first = m.trailing_zeros();
                let e = SignatureElement {
                    name: (*name).to_owned(),
                    semantic_indices: vec![number(index).map_err(err)?],
                    semantic,
                    component,
                    rows: 1,
                    cols: m.count_ones(),
                    start_row: number(reg).map_err(err)? as i32,
                    start_col: first as i32,
                    mask: m,
                    rw_mask: m,
                    stream,
                    ..Default::default()
                };
                match *kind {
                    "input" => inputs.push(e),
                    "output" => outputs.push(e),
                    _ => patch.push(e),
                }
            }
            [kind @ ("root_uav" | "root_srv" | "root_cbv"), reg] => {
                let d = RootDescriptor { shader_register: number(reg).map_err(err)?, register_space: 0, flags: 0 };
                let kind = match *kind {
                    "root_uav" => ParameterKind::Uav(d),
                    "root_srv" => ParameterKind::Srv(d),
                    _ => ParameterKind::Cbv(d),
                };
                params.push(RootParameter { kind, visibility: 0 });
            }
            _ => return Err(err(format!("unknown directive .{d}"))),
        }
    }
    let rts0 = (!params.is_empty()).then(|| {
        let mut r = RootSignatureDesc::new(Version::V1_0);
        r.parameters = params;
        r.encode_rts0()
    });
    container_with(&program, &inputs, &outputs, &patch, domain, rts0.as_deref())
}
