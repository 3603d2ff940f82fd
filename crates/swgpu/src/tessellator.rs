//! The fixed-function tessellator: the domain points of one patch and the primitives joining them.
//!
//! The output has to equal, point for point and index for index, what the reference hardware tessellator of
//! Direct3D 11 produces (WARP and Mesa's llvmpipe both run it), so every rounding step below is deliberate. The
//! rules are those of the D3D11.3 Functional Specification, chapter "Tessellator" (TessFactor ranges and
//! interpretation, partitioning, and the isoline / tri / quad tessellation patterns), restated here as this module
//! implements them.
//!
//! # Tess factors
//!
//! * **Culling.** A patch whose edge factors (SV_TessFactor; all of them that the domain reads) are not all
//!   greater than zero produces nothing; NaN counts as "not greater than zero". Inside factors never cull.
//! * **Range.** Factors are clamped into the range of the partitioning: integer and pow2 [1, 64], fractional_odd
//!   [1, 63], fractional_even [2, 64]. A NaN inside factor becomes the minimum. Pow2 is only a convention of the
//!   HLSL helper code: the hardware treats it exactly like integer.
//! * **Rounding and parity.** Integer (and pow2) factors are rounded up to a whole number and each keeps its own
//!   parity: odd numbers tessellate as "odd", even numbers as "even", and an inside factor of exactly 1 counts as
//!   even (which gives a centre point). Fractional partitionings give every factor the same parity and keep the
//!   fraction.
//! * **Isoline factors.** SV_TessFactor\[0\] is the line *density* (how many lines, at v = 0, 1/n, …; always
//!   integer-partitioned: clamped to [1, 64] and rounded up) and SV_TessFactor\[1\] the line *detail* (segments
//!   per line along u, partitioned as declared). This is the order of the DXIL/DXBC signature (LINEDEN then
//!   LINEDET) and of llvmpipe's outer levels.
//! * **fractional_odd picture frame.** When any edge factor (for quads also any inside factor as written, before
//!   clamping) exceeds 1 by more than 2^-17, inside factors are raised to at least 1 + 2^-16, so an inner ring
//!   exists and the edges can be stitched to it.
//! * **Fixed point.** The processed factors become unsigned 16.16 fixed point (round to nearest, ties to even) and
//!   every position is computed in that fixed point; coordinates become f32 only when a point is emitted (exactly:
//!   the values are multiples of 2^-16). Opposite edges of neighbouring patches with the same factor therefore
//!   produce identical coordinates.
//! * **Minimal patch.** With integer or fractional_odd partitioning, a tri or quad whose factors are all exactly 1
//!   (after processing) is just its corners: a quad gives (0,0), (1,0), (1,1), (0,1) and two triangles, a tri gives
//!   (0,1), (0,0), (1,0) and one triangle.
//!
//! # Points along one factor
//!
//! A factor `T` cuts a unit edge into segments that are symmetric about its middle. Half of the factor,
//! `h = T / 2` (for odd parity `T / 2 + 1/2`, so the middle is a segment rather than a point), sits between two
//! whole numbers. Each point of a half edge has a position on the uniform grid of `floor(h)` half-segments and one
//! on the grid of `ceil(h)` half-segments; its actual position blends the two by `frac(h)`. The point that does not
//! exist on the coarser grid (it shares the position of its neighbour there) is chosen by a ruler function, so as
//! `T` grows new points grow out of existing ones in a fixed order instead of every point sliding. The other half
//! edge is the mirror image (`1 - x`, computed in fixed point), and the exact middle is exactly 0.5.
//!
//! # Rings and point order
//!
//! Tri and quad points are emitted in concentric rings, outermost first. Each ring is walked "clockwise" side by
//! side, every side contributing its points except the corner that starts the next side:
//!
//! * quad outer ring: from (0,1) down the u = 0 edge, along v = 0, up the u = 1 edge, back along v = 1;
//! * tri outer ring: from (0,1) down the u = 0 edge, along v = 0 to (1,0), back along u + v = 1;
//! * inner rings follow the same pattern, with the inside factor(s) giving the positions; ring `r` drops `r`
//!   points from both ends of every side. Tri inner rings are pulled towards the centre in barycentric space (the
//!   perpendicular coordinate is scaled by 2/3 and the along-side coordinates shifted back by half of it).
//! * The middle: a tri ends with the centre point (1/3, 1/3) when its inside parity is even, or with a ring of three
//!   points when it is odd. A quad whose inside direction with fewer points (u on a tie) is even ends with a line of
//!   points at u = 0.5 (a column) or v = 0.5 (a row); otherwise its innermost ring is two points wide.
//!
//! Isolines are line after line (v ascending), each line's points in u order.
//!
//! # Stitching
//!
//! Each ring is joined to the ring around it side by side, always emitting a triangle that either advances along
//! the inner row or along the outer row:
//!
//! * between the outer ring (edge factors) and the first inner ring, the two rows have unrelated point counts; the
//!   advances of each half side are interleaved by ruler order (the order in which points appear as a factor
//!   grows), the second half mirrors the first, and the middle gets a quad, a triangle or nothing depending on the
//!   two parities;
//! * deeper rings differ by exactly one point at each end of a side: a corner triangle at both ends and a run of
//!   quads whose diagonals are mirrored about the middle of the side;
//! * a two-point-wide quad centre is a strip of quads; the degenerate line centre is reached by the ring stitches
//!   themselves.
//!
//! Triangles are generated clockwise, meaning a positive `(b - a) × (c - a)` in (u, v) (clockwise in a picture with
//! u to the right and v downwards); [`OutputPrimitive::TriangleCcw`] swaps the last two indices of every
//! triangle. Point output lists every point once, in order; line output on an isoline lists the segments of every
//! line. (Line output of a tri or quad, which D3D does not allow, joins the points in generation order, as the
//! reference does; triangle output of an isoline gives its lines.)

/// Tessellator domain (DXIL HS/DS state: 1 isoline, 2 tri, 3 quad).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Domain {
    /// Isolines: SV_TessFactor\[0\] = line density (number of lines), \[1\] = line detail (segments per line).
    Isoline,
    /// Triangle: SV_TessFactor\[0..3\] for the edges u = 0, v = 0, w = 0; SV_InsideTessFactor\[0\].
    Tri,
    /// Quad: SV_TessFactor\[0..4\] for the edges u = 0, v = 0, u = 1, v = 1; SV_InsideTessFactor\[0\] along u,
    /// \[1\] along v.
    Quad,
}

impl Domain {
    /// The domain for a DXIL tessellator-domain value; `None` for 0 (undefined) and unknown values.
    pub fn from_dxil(value: u32) -> Option<Self> {
        match value {
            1 => Some(Self::Isoline),
            2 => Some(Self::Tri),
            3 => Some(Self::Quad),
            _ => None,
        }
    }

    /// How many SV_TessFactor values the domain reads.
    pub fn outer_factor_count(self) -> usize {
        match self {
            Self::Isoline => 2,
            Self::Tri => 3,
            Self::Quad => 4,
        }
    }

    /// How many SV_InsideTessFactor values the domain reads.
    pub fn inner_factor_count(self) -> usize {
        match self {
            Self::Isoline => 0,
            Self::Tri => 1,
            Self::Quad => 2,
        }
    }
}

/// Partitioning (DXIL: 1 integer, 2 pow2, 3 fractional_odd, 4 fractional_even).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Partitioning {
    /// Factors in [1, 64], rounded up to whole numbers.
    Integer,
    /// Same as [`Partitioning::Integer`] for the hardware (rounding to a power of two is HLSL helper code).
    Pow2,
    /// Factors in [1, 63], odd spacing, fractions kept.
    FractionalOdd,
    /// Factors in [2, 64], even spacing, fractions kept.
    FractionalEven,
}

impl Partitioning {
    /// The partitioning for a DXIL tessellator-partitioning value; `None` for 0 (undefined) and unknown values.
    pub fn from_dxil(value: u32) -> Option<Self> {
        match value {
            1 => Some(Self::Integer),
            2 => Some(Self::Pow2),
            3 => Some(Self::FractionalOdd),
            4 => Some(Self::FractionalEven),
            _ => None,
        }
    }
}

/// Output primitive (DXIL: 1 point, 2 line, 3 triangle_cw, 4 triangle_ccw).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputPrimitive {
    /// One index per point.
    Point,
    /// Two indices per line segment.
    Line,
    /// Three indices per triangle, clockwise: positive `(b - a) × (c - a)` in (u, v).
    TriangleCw,
    /// Three indices per triangle, counter-clockwise: negative `(b - a) × (c - a)` in (u, v).
    TriangleCcw,
}

impl OutputPrimitive {
    /// The output primitive for a DXIL tessellator-output-primitive value; `None` for 0 and unknown values.
    pub fn from_dxil(value: u32) -> Option<Self> {
        match value {
            1 => Some(Self::Point),
            2 => Some(Self::Line),
            3 => Some(Self::TriangleCw),
            4 => Some(Self::TriangleCcw),
            _ => None,
        }
    }
}

/// How many indices make one primitive of [`Tessellation::indices`] for this domain and output primitive: 1 for
/// points, 2 for lines (including the isoline domain asked for triangles), 3 for tri/quad triangles.
pub fn vertices_per_primitive(domain: Domain, output: OutputPrimitive) -> usize {
    match (domain, output) {
        (_, OutputPrimitive::Point) => 1,
        (Domain::Isoline, _) | (_, OutputPrimitive::Line) => 2,
        _ => 3,
    }
}

/// What a patch tessellates into.
#[derive(Debug, Clone, PartialEq)]
pub struct Tessellation {
    /// Domain points `(u, v)`, as the domain shader's SV_DomainLocation reads its first two components. For the tri
    /// domain the third barycentric coordinate is not stored: [`domain_location`] derives it the way llvmpipe does.
    pub points: Vec<[f32; 2]>,
    /// Primitives as indices into `points`: 1 per point, 2 per line, 3 per triangle (see
    /// [`vertices_per_primitive`]); empty, with no points, when the patch is culled.
    pub indices: Vec<u32>,
}

impl Tessellation {
    fn culled() -> Self {
        Self { points: Vec::new(), indices: Vec::new() }
    }

    /// True when the patch was culled (no points).
    pub fn is_culled(&self) -> bool {
        self.points.is_empty()
    }
}

/// SV_DomainLocation for a tessellated point: tri gives `(u, v, (1 - u) - v)` evaluated in f32 in that order,
/// exactly as llvmpipe computes the third component; isoline and quad give `(u, v, 0)`.
pub fn domain_location(domain: Domain, p: [f32; 2]) -> [f32; 3] {
    match domain {
        Domain::Tri => [p[0], p[1], (1.0 - p[0]) - p[1]],
        Domain::Isoline | Domain::Quad => [p[0], p[1], 0.0],
    }
}

/// Tessellates one patch.
///
/// `outer` holds SV_TessFactor as the patch-constant phase wrote it (first 2 entries used for isolines: density
/// then detail; 3 for tri; 4 for quad), `inner` SV_InsideTessFactor (none for isolines, 1 for tri, 2 for quad).
/// Unused entries are ignored. Clamping, rounding and culling are done here, as the hardware does them.
pub fn tessellate(
    domain: Domain,
    partitioning: Partitioning,
    output: OutputPrimitive,
    outer: &[f32; 4],
    inner: &[f32; 2],
) -> Tessellation {
    let rules = Rules::of(partitioning);
    match domain {
        Domain::Isoline => isoline(rules, output, outer[0], outer[1]),
        Domain::Tri => match prepare(rules, [outer[0], outer[1], outer[2]], [inner[0]], false) {
            Prepared::Culled => Tessellation::culled(),
            Prepared::Minimal => minimal_tri(output),
            Prepared::Rings(f) => tri(output, &f),
        },
        Domain::Quad => match prepare(rules, *outer, *inner, true) {
            Prepared::Culled => Tessellation::culled(),
            Prepared::Minimal => minimal_quad(output),
            Prepared::Rings(f) => quad(output, &f),
        },
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Fixed point

/// Unsigned 16.16 fixed point, the number format of every tessellator position. Arithmetic on it wraps like the
/// 32-bit hardware registers it models (it never actually overflows for valid factors).
type Fx = u32;

const FX_ONE: Fx = 1 << 16;
const FX_HALF: Fx = 1 << 15;
/// 1/3 and 2/3, truncated to 16 fractional bits.
const FX_THIRD: Fx = 0x5555;
const FX_TWO_THIRDS: Fx = 0xAAAA;

/// A processed factor (finite, within [1, 64]) to fixed point, rounding to nearest with ties to even.
fn fx_from_factor(x: f32) -> Fx {
    // x * 2^16 is exact in f64, so this is the only rounding.
    (f64::from(x) * f64::from(FX_ONE)).round_ties_even() as Fx
}

/// Fixed point to f32: whole part plus fraction, each converted exactly, summed in f32.
fn fx_to_f32(x: Fx) -> f32 {
    (x >> 16) as f32 + (x & 0xFFFF) as f32 / 65536.0
}

/// `1 / n` in fixed point, rounded to nearest (n in 1..=64 never produces a tie).
const fn fx_reciprocal(n: u32) -> Fx {
    (FX_ONE + n / 2) / n
}

const RECIPROCALS: [Fx; 65] = {
    let mut table = [0; 65];
    let mut n = 1;
    while n < 65 {
        table[n] = fx_reciprocal(n as u32);
        n += 1;
    }
    table
};

/// `value` with its most significant set bit cleared (0 stays 0).
fn clear_top_bit(value: i32) -> i32 {
    if value <= 0 {
        0
    } else {
        value & !(1 << (31 - value.leading_zeros()))
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Points along one factor

/// Everything needed to place the points of one processed factor along a unit edge.
#[derive(Debug, Clone, Copy)]
struct Spacing {
    odd: bool,
    /// Points from a corner up to, not including, the middle: `ceil(h)`.
    half_points: i32,
    /// Points of a half edge with an index above this one sit one step further along the coarse (`floor(h)`) grid
    /// than their index: the ruler-function insertion point. Out of range when `h` is whole.
    split: i32,
    /// `frac(h)`: how far the points have moved from the coarse grid towards the fine (`ceil(h)`) grid.
    blend: Fx,
    /// Segment length of the full edge on the coarse and the fine grid.
    coarse_step: Fx,
    fine_step: Fx,
}

impl Spacing {
    fn new(factor: Fx, odd: bool) -> Self {
        let mut half = factor.wrapping_add(1) / 2;
        // Odd spacing puts a segment, not a point, in the middle. A factor of exactly 1 with even parity (an integer
        // inside factor of 1) is spaced like 2.
        if odd || half == FX_HALF {
            half += FX_HALF;
        }
        let coarse = half & !0xFFFF;
        let fine = if half & 0xFFFF != 0 { coarse + FX_ONE } else { half };
        let coarse_whole = (coarse >> 16) as i32;
        let half_points = (fine >> 16) as i32;
        let split = if coarse == fine {
            half_points + 1
        } else if !odd {
            (clear_top_bit(coarse_whole) << 1) + 1
        } else if coarse == FX_ONE {
            0
        } else {
            (clear_top_bit(coarse_whole - 1) << 1) + 1
        };
        let segments = |h: Fx| ((h.wrapping_mul(2) >> 16) - u32::from(odd)) as usize;
        Self {
            odd,
            half_points,
            split,
            blend: half - coarse,
            coarse_step: RECIPROCALS[segments(coarse)],
            fine_step: RECIPROCALS[segments(fine)],
        }
    }

    /// Number of points on the full edge, both ends included.
    fn point_count(&self) -> i32 {
        2 * self.half_points + i32::from(!self.odd)
    }

    /// Points a half side advances past during the first-ring stitch (its middle excluded).
    fn stitch_half(&self) -> i32 {
        self.half_points - i32::from(self.odd)
    }

    /// Position of point `index` (0 at one end, `point_count() - 1` at the other).
    fn coord(&self, index: i32) -> Fx {
        // Far half: mirror onto the near half, complement at the end.
        let (near, mirrored) = if index >= self.half_points {
            (2 * self.half_points - index - i32::from(self.odd), true)
        } else {
            (index, false)
        };
        if near == self.half_points {
            return FX_HALF;
        }
        let on_fine = near as u32;
        let on_coarse = if near > self.split { on_fine.wrapping_sub(1) } else { on_fine };
        let coarse_pos = on_coarse.wrapping_mul(self.coarse_step);
        let fine_pos = on_fine.wrapping_mul(self.fine_step);
        let blended = coarse_pos
            .wrapping_mul(FX_ONE - self.blend)
            .wrapping_add(fine_pos.wrapping_mul(self.blend))
            .wrapping_add(FX_HALF)
            >> 16;
        if mirrored {
            FX_ONE.wrapping_sub(blended)
        } else {
            blended
        }
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Factor processing

/// What a partitioning does to factors.
#[derive(Debug, Clone, Copy)]
struct Rules {
    min: f32,
    max: f32,
    /// Integer or pow2: round up, parity per factor.
    whole: bool,
    /// Parity of every factor for the fractional partitionings.
    odd: bool,
}

impl Rules {
    fn of(partitioning: Partitioning) -> Self {
        match partitioning {
            Partitioning::Integer | Partitioning::Pow2 => Self { min: 1.0, max: 64.0, whole: true, odd: false },
            Partitioning::FractionalOdd => Self { min: 1.0, max: 63.0, whole: false, odd: true },
            Partitioning::FractionalEven => Self { min: 2.0, max: 64.0, whole: false, odd: false },
        }
    }

    /// Clamps (NaN to `min`) and, for whole partitionings, rounds up.
    fn process(&self, factor: f32, min: f32) -> f32 {
        let clamped = if factor.is_nan() { min } else { factor.max(min).min(self.max) };
        if self.whole {
            clamped.ceil()
        } else {
            clamped
        }
    }

    /// Parity of a processed factor; `inside` makes a whole factor of 1 even.
    fn odd(&self, processed: f32, inside: bool) -> bool {
        if self.whole {
            (processed as i32) & 1 == 1 && !(inside && processed == 1.0)
        } else {
            self.odd
        }
    }
}

/// True for edge factors that cull the patch: zero, negative or NaN.
fn culls(factor: f32) -> bool {
    factor.is_nan() || factor <= 0.0
}

/// The processed factors of a tri (3 edges, 1 inside) or quad (4 edges, 2 inside) patch.
#[derive(Debug, Clone, Copy)]
struct Factors<const E: usize, const I: usize> {
    edges: [Spacing; E],
    inside: [Spacing; I],
    /// Points per inside direction, at least 3 (even) or 4 (odd) so the first ring always exists.
    inside_points: [i32; I],
}

enum Prepared<const E: usize, const I: usize> {
    Culled,
    /// Every factor is exactly 1: just the corners.
    Minimal,
    Rings(Factors<E, I>),
}

/// Clamps, rounds and classifies the factors of a tri or quad patch. `frame_from_raw_inside` makes the
/// fractional_odd picture-frame rule look at the inside factors as written too (quads do, tris do not).
fn prepare<const E: usize, const I: usize>(
    rules: Rules,
    outer: [f32; E],
    inner: [f32; I],
    frame_from_raw_inside: bool,
) -> Prepared<E, I> {
    if outer.iter().any(|&f| culls(f)) {
        return Prepared::Culled;
    }
    let edges = outer.map(|f| rules.process(f, rules.min));
    let mut inside_min = rules.min;
    if !rules.whole && rules.odd {
        // Anything that will not round to exactly 1.0 in fixed point forces an inner ring.
        const ABOVE_ONE: f32 = 1.0 + 1.0 / 131072.0;
        let raw_inside = if frame_from_raw_inside { &inner[..] } else { &[] };
        if edges.iter().chain(raw_inside).any(|&f| f > ABOVE_ONE) {
            inside_min = 1.0 + 1.0 / 65536.0;
        }
    }
    let inside = inner.map(|f| rules.process(f, inside_min));
    let edges_fx = edges.map(fx_from_factor);
    let inside_fx = inside.map(fx_from_factor);
    if (rules.whole || rules.odd) && edges_fx.iter().chain(&inside_fx).all(|&f| f == FX_ONE) {
        return Prepared::Minimal;
    }
    let edges = std::array::from_fn(|e| Spacing::new(edges_fx[e], rules.odd(edges[e], false)));
    let inside: [Spacing; I] = std::array::from_fn(|i| Spacing::new(inside_fx[i], rules.odd(inside[i], true)));
    let inside_points = inside.map(|s| s.point_count().max(if s.odd { 4 } else { 3 }));
    Prepared::Rings(Factors { edges, inside, inside_points })
}

// ---------------------------------------------------------------------------------------------------------------
// Output

/// The tessellation being built.
struct Mesh {
    points: Vec<[f32; 2]>,
    indices: Vec<u32>,
    counter_clockwise: bool,
}

impl Mesh {
    fn new(output: OutputPrimitive, point_capacity: usize) -> Self {
        let index_capacity = match output {
            OutputPrimitive::Point => point_capacity,
            OutputPrimitive::Line => 2 * point_capacity,
            // A triangulation has at most about two triangles per point.
            OutputPrimitive::TriangleCw | OutputPrimitive::TriangleCcw => 6 * point_capacity,
        };
        Self {
            points: Vec::with_capacity(point_capacity),
            indices: Vec::with_capacity(index_capacity),
            counter_clockwise: output == OutputPrimitive::TriangleCcw,
        }
    }

    fn point(&mut self, u: Fx, v: Fx) {
        self.points.push([fx_to_f32(u), fx_to_f32(v)]);
    }

    /// A triangle given clockwise; stored in the requested winding.
    fn triangle(&mut self, a: u32, b: u32, c: u32) {
        if self.counter_clockwise {
            self.indices.extend_from_slice(&[a, c, b]);
        } else {
            self.indices.extend_from_slice(&[a, b, c]);
        }
    }

    /// Point output (every point once) or the reference's in-order line list for a tri/quad patch.
    fn index_points_in_order(&mut self, output: OutputPrimitive) {
        let count = self.points.len() as u32;
        match output {
            OutputPrimitive::Point => self.indices.extend(0..count),
            _ => self.indices.extend((1..count).flat_map(|p| [p - 1, p])),
        }
    }

    fn finish(self) -> Tessellation {
        Tessellation { points: self.points, indices: self.indices }
    }
}

fn is_triangles(output: OutputPrimitive) -> bool {
    matches!(output, OutputPrimitive::TriangleCw | OutputPrimitive::TriangleCcw)
}

// ---------------------------------------------------------------------------------------------------------------
// Rings and stitching

/// One side of a ring: the point indices met walking from one of its corners to the next. A ring's points are
/// stored contiguously; a side reads `len` of them cyclically from `start`, forwards or backwards, so the last side
/// of a closed ring ends on the ring's first point.
#[derive(Debug, Clone, Copy)]
struct Side {
    base: u32,
    len: u32,
    start: u32,
    backwards: bool,
}

impl Side {
    fn at(&self, k: u32) -> u32 {
        let offset = if self.backwards {
            (self.start + self.len - k % self.len) % self.len
        } else {
            (self.start + k) % self.len
        };
        self.base + offset
    }

    /// The same `count` points walked from the other end.
    fn reversed(self, count: u32) -> Self {
        let far_end = self.at(count - 1) - self.base;
        Self { start: far_end, backwards: !self.backwards, ..self }
    }
}

/// Where a ring's points are stored and how its sides walk them.
#[derive(Debug, Clone, Copy)]
enum Ring {
    /// A closed ring of `sides` sides; `counts[s]` points on side `s`, both corners included.
    Closed { first: u32, counts: [u32; 4], sides: usize },
    /// A degenerate innermost ring: `len` points in a line (one point for a tri centre). Side `lead` walks the
    /// line forwards, the side after it is the far end, the next one walks back, the last one is the near end.
    Line { first: u32, len: u32, lead: usize },
}

impl Ring {
    fn stored(&self) -> u32 {
        match *self {
            Ring::Closed { counts, sides, .. } => counts[..sides].iter().map(|c| c - 1).sum(),
            Ring::Line { len, .. } => len,
        }
    }

    fn side(&self, s: usize) -> Side {
        match *self {
            Ring::Closed { first, counts, .. } => Side {
                base: first,
                len: self.stored(),
                start: counts[..s].iter().map(|c| c - 1).sum(),
                backwards: false,
            },
            Ring::Line { first, len, lead } => {
                let (start, backwards) = match (s + 4 - lead) % 4 {
                    0 => (0, false),
                    1 => (len - 1, false),
                    2 => (len - 1, true),
                    _ => (0, false),
                };
                Side { base: first, len, start, backwards }
            }
        }
    }
}

/// Ruler order for a half edge of up to 32 segments: `RULER[k]` is the slot (counted from the corner) of the k-th
/// point to appear as a factor grows; a half side with `n` points to step past uses the slots below `n`. Slot 0
/// first, then 32, then 16, 8, 17, 4, 18, 9, 19, 2, …: after the corner and the middle, each level of the binary
/// subdivision, interleaved with the far half of the edge.
const RULER: [i32; 33] = {
    let mut order = [0; 33];
    order[1] = 32;
    let mut k = 2;
    while k < 33 {
        let n = (k - 1) as u32;
        let level = n.trailing_zeros();
        order[k] = (1 << (4 - level)) + (n >> (level + 1)) as i32;
        k += 1;
    }
    order
};

/// How a quad between two rows is cut into two triangles, and in which order its corners are listed. `i0`/`o0` are
/// the current inner/outer points, `i1`/`o1` the next ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum QuadCut {
    /// Diagonal i0-o1: (i0, o0, o1), (i0, o1, i1).
    Forward,
    /// Diagonal i0-o1, outer row first: (o0, o1, i0), (i0, o1, i1).
    ForwardFromOuter,
    /// Diagonal o0-i1: (o0, i1, i0), (o0, o1, i1).
    Backward,
}

/// How a strip of quads is cut.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum StripCut {
    /// Every quad [`QuadCut::Forward`].
    Forward,
    /// Every quad [`QuadCut::ForwardFromOuter`] except the middle one, [`QuadCut::Backward`].
    MiddleBackward,
}

/// The band between two facing rows: `inner` (on the ring being joined) and `outer` (on the ring around it), both
/// walked in the same direction. `i` and `o` are how far each row has been consumed.
struct Seam<'m> {
    mesh: &'m mut Mesh,
    inner: Side,
    outer: Side,
    i: u32,
    o: u32,
}

impl<'m> Seam<'m> {
    fn new(mesh: &'m mut Mesh, inner: Side, outer: Side) -> Self {
        Self { mesh, inner, outer, i: 0, o: 0 }
    }

    fn inner_at(&self, ahead: u32) -> u32 {
        self.inner.at(self.i + ahead)
    }

    fn outer_at(&self, ahead: u32) -> u32 {
        self.outer.at(self.o + ahead)
    }

    fn emit(&mut self, a: u32, b: u32, c: u32) {
        self.mesh.triangle(a, b, c);
    }

    /// Triangle on the next outer segment, apex on the current inner point.
    fn step_outer(&mut self) {
        let (a, b, c) = (self.outer_at(0), self.outer_at(1), self.inner_at(0));
        self.emit(a, b, c);
        self.o += 1;
    }

    /// Triangle on the next inner segment, apex on the current outer point.
    fn step_inner(&mut self) {
        let (a, b, c) = (self.inner_at(0), self.outer_at(0), self.inner_at(1));
        self.emit(a, b, c);
        self.i += 1;
    }

    /// Quad between the current and next points of both rows.
    fn quad(&mut self, cut: QuadCut) {
        let (i0, i1, o0, o1) = (self.inner_at(0), self.inner_at(1), self.outer_at(0), self.outer_at(1));
        match cut {
            QuadCut::Forward => {
                self.emit(i0, o0, o1);
                self.emit(i0, o1, i1);
            }
            QuadCut::ForwardFromOuter => {
                self.emit(o0, o1, i0);
                self.emit(i0, o1, i1);
            }
            QuadCut::Backward => {
                self.emit(o0, i1, i0);
                self.emit(o0, o1, i1);
            }
        }
        self.i += 1;
        self.o += 1;
    }

    /// Joins the outer ring to the first inner ring, whose rows come from unrelated factors.
    fn transition(&mut self, inner: &Spacing, outer: &Spacing) {
        let (inner_half, outer_half) = (inner.stitch_half(), outer.stitch_half());
        // First half side: in ruler order, the inner row steps before the outer one. Slot 0 is the corner, which
        // only the outer row steps past (the inner ring starts one point in).
        for (k, &slot) in RULER.iter().enumerate() {
            if k > 0 && slot < inner_half {
                self.step_inner();
            }
            if slot < outer_half {
                self.step_outer();
            }
        }
        // The middle: an even row has a point there, an odd row a segment.
        match (inner.odd, outer.odd) {
            (false, false) => {}
            (true, true) => {
                let (i0, i1, o0, o1) = (self.inner_at(0), self.inner_at(1), self.outer_at(0), self.outer_at(1));
                self.emit(i0, o0, i1);
                self.emit(i1, o0, o1);
                self.i += 1;
                self.o += 1;
            }
            (false, true) => {
                let (i0, o0, o1) = (self.inner_at(0), self.outer_at(0), self.outer_at(1));
                self.emit(i0, o0, o1);
                self.o += 1;
            }
            (true, false) => self.step_inner(),
        }
        // Second half side: the mirror image, slots in reverse, outer before inner.
        for (k, &slot) in RULER.iter().enumerate().rev() {
            if slot < outer_half {
                self.step_outer();
            }
            if k > 0 && slot < inner_half {
                self.step_inner();
            }
        }
    }

    /// Joins two inner rings: the outer row has two more points than the `inner_count` of the inner row. Corner
    /// triangles at both ends; in between, each quad's diagonal runs from the inner row towards the nearer end of
    /// the side on the outer row, so the pattern is mirrored about the middle.
    fn trapezoid(&mut self, inner_count: u32) {
        self.step_outer();
        let half = inner_count / 2;
        for _ in 0..half {
            self.quad(QuadCut::Backward);
        }
        for _ in half..inner_count.saturating_sub(1) {
            self.quad(QuadCut::Forward);
        }
        self.step_outer();
    }

    /// A strip of `quads` quads between two rows of equal length.
    fn strip(&mut self, quads: u32, cut: StripCut) {
        let middle = quads.div_ceil(2);
        for k in 1..=quads {
            self.quad(match cut {
                StripCut::Forward => QuadCut::Forward,
                StripCut::MiddleBackward if k == middle => QuadCut::Backward,
                StripCut::MiddleBackward => QuadCut::ForwardFromOuter,
            });
        }
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Domains

fn isoline(rules: Rules, output: OutputPrimitive, density: f32, detail: f32) -> Tessellation {
    if culls(density) || culls(detail) {
        return Tessellation::culled();
    }
    // Density is always integer-partitioned in [1, 64]; detail follows the declared partitioning.
    let lines_factor = Rules::of(Partitioning::Integer).process(density, 1.0);
    let detail = rules.process(detail, rules.min);
    let across = Spacing::new(fx_from_factor(lines_factor), (lines_factor as i32) & 1 == 1);
    let along = Spacing::new(fx_from_factor(detail), rules.odd(detail, false));
    let lines = across.point_count() - 1; // no line at v = 1
    let per_line = along.point_count();
    let mut mesh = Mesh::new(output, (lines * per_line) as usize);
    for line in 0..lines {
        let v = across.coord(line);
        for p in 0..per_line {
            mesh.point(along.coord(p), v);
        }
    }
    if output == OutputPrimitive::Point {
        mesh.indices.extend(0..mesh.points.len() as u32);
    } else {
        for line in 0..lines as u32 {
            let first = line * per_line as u32;
            mesh.indices.extend((first + 1..first + per_line as u32).flat_map(|p| [p - 1, p]));
        }
    }
    mesh.finish()
}

fn minimal_tri(output: OutputPrimitive) -> Tessellation {
    let mut mesh = Mesh::new(output, 3);
    mesh.point(0, FX_ONE);
    mesh.point(0, 0);
    mesh.point(FX_ONE, 0);
    if is_triangles(output) {
        mesh.triangle(0, 1, 2);
    } else {
        mesh.index_points_in_order(output);
    }
    mesh.finish()
}

fn minimal_quad(output: OutputPrimitive) -> Tessellation {
    let mut mesh = Mesh::new(output, 4);
    mesh.point(0, 0);
    mesh.point(FX_ONE, 0);
    mesh.point(FX_ONE, FX_ONE);
    mesh.point(0, FX_ONE);
    if is_triangles(output) {
        mesh.triangle(0, 1, 3);
        mesh.triangle(1, 2, 3);
    } else {
        mesh.index_points_in_order(output);
    }
    mesh.finish()
}

fn tri(output: OutputPrimitive, f: &Factors<3, 1>) -> Tessellation {
    let counts = f.edges.map(|s| s.point_count());
    let inside = &f.inside[0];
    let n = f.inside_points[0];
    let capacity = counts.iter().sum::<i32>() + 3 * (n / 2) * (n / 2) + 1;
    let mut mesh = Mesh::new(output, capacity as usize);

    // Outer ring: from (0,1) down u = 0, along v = 0, back along w = 0.
    for (s, (spacing, &count)) in f.edges.iter().zip(&counts).enumerate() {
        let last = count - 1;
        for k in 0..last {
            match s {
                0 => mesh.point(0, spacing.coord(last - k)),
                1 => mesh.point(spacing.coord(k), 0),
                _ => {
                    let u = spacing.coord(last - k);
                    mesh.point(u, FX_ONE.wrapping_sub(u));
                }
            }
        }
    }
    // Inner rings, pulled into the triangle: at inside position `r` the distance from each edge is 2/3 of it, and
    // the along-side coordinate loses half of that distance.
    for r in 1..n / 2 {
        let last = n - 1 - r;
        let inset = (inside.coord(r).wrapping_mul(FX_TWO_THIRDS).wrapping_add(FX_HALF)) >> 16;
        let shift = inset.wrapping_add(1) / 2;
        for s in 0..3 {
            for k in 0..last - r {
                match s {
                    0 => mesh.point(inset, inside.coord(last - k).wrapping_sub(shift)),
                    1 => mesh.point(inside.coord(r + k).wrapping_sub(shift), inset),
                    _ => {
                        let u = inside.coord(last - k).wrapping_sub(shift);
                        mesh.point(u, FX_ONE.wrapping_sub(u).wrapping_sub(inset));
                    }
                }
            }
        }
    }
    if !inside.odd {
        mesh.point(FX_THIRD, FX_THIRD);
    }
    if !is_triangles(output) {
        mesh.index_points_in_order(output);
        return mesh.finish();
    }

    let as_counts = |c: [i32; 3]| [c[0] as u32, c[1] as u32, c[2] as u32, 0];
    let mut outer_ring = Ring::Closed { first: 0, counts: as_counts(counts), sides: 3 };
    let mut next_first = outer_ring.stored();
    for r in 1..(n + 1) / 2 {
        let count = (n - 2 * r) as u32;
        let ring = if count == 1 {
            Ring::Line { first: next_first, len: 1, lead: 0 }
        } else {
            Ring::Closed { first: next_first, counts: [count; 4], sides: 3 }
        };
        for s in 0..3 {
            let mut seam = Seam::new(&mut mesh, ring.side(s), outer_ring.side(s));
            if r == 1 {
                seam.transition(inside, &f.edges[s]);
            } else {
                seam.trapezoid(count);
            }
        }
        next_first += ring.stored();
        outer_ring = ring;
    }
    if inside.odd {
        // The innermost ring is a lone triangle.
        if let Ring::Closed { first, .. } = outer_ring {
            mesh.triangle(first, first + 1, first + 2);
        }
    }
    mesh.finish()
}

/// The middle of a quad once its rings are done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum QuadCentre {
    /// A line of points at v = 0.5 (u has more points and v is even).
    Row,
    /// A line of points at u = 0.5 (v has at least as many points and u is even).
    Column,
    /// The innermost ring is two points wide: a strip of quads fills it.
    Strip,
}

fn quad(output: OutputPrimitive, f: &Factors<4, 2>) -> Tessellation {
    let counts = f.edges.map(|s| s.point_count());
    let [along_u, along_v] = &f.inside;
    let [nu, nv] = f.inside_points;
    let centre = if nu > nv && !along_v.odd {
        QuadCentre::Row
    } else if nv >= nu && !along_u.odd {
        QuadCentre::Column
    } else {
        QuadCentre::Strip
    };
    let mut mesh = Mesh::new(output, (counts.iter().sum::<i32>() + nu * nv) as usize);

    // Outer ring: from (0,1) down u = 0, along v = 0, up u = 1, back along v = 1.
    for (s, (spacing, &count)) in f.edges.iter().zip(&counts).enumerate() {
        let last = count - 1;
        for k in 0..last {
            match s {
                0 => mesh.point(0, spacing.coord(last - k)),
                1 => mesh.point(spacing.coord(k), 0),
                2 => mesh.point(FX_ONE, spacing.coord(k)),
                _ => mesh.point(spacing.coord(last - k), FX_ONE),
            }
        }
    }
    // Inner rings: ring `r` runs between inside positions r and n - 1 - r of each direction.
    let point_rings = nu.min(nv) / 2;
    for r in 1..point_rings {
        let (far_u, far_v) = (nu - 1 - r, nv - 1 - r);
        let (near_u_pos, near_v_pos) = (along_u.coord(r), along_v.coord(r));
        let (far_u_pos, far_v_pos) = (along_u.coord(far_u), along_v.coord(far_v));
        for k in 0..far_v - r {
            mesh.point(near_u_pos, along_v.coord(far_v - k));
        }
        for k in 0..far_u - r {
            mesh.point(along_u.coord(r + k), near_v_pos);
        }
        for k in 0..far_v - r {
            mesh.point(far_u_pos, along_v.coord(r + k));
        }
        for k in 0..far_u - r {
            mesh.point(along_u.coord(far_u - k), far_v_pos);
        }
    }
    match centre {
        QuadCentre::Row => {
            for p in point_rings..=nu - 1 - point_rings {
                mesh.point(along_u.coord(p), FX_HALF);
            }
        }
        QuadCentre::Column => {
            for p in (point_rings..=nv - 1 - point_rings).rev() {
                mesh.point(FX_HALF, along_v.coord(p));
            }
        }
        QuadCentre::Strip => {}
    }
    if !is_triangles(output) {
        mesh.index_points_in_order(output);
        return mesh.finish();
    }

    let mut outer_ring = Ring::Closed {
        first: 0,
        counts: [counts[0] as u32, counts[1] as u32, counts[2] as u32, counts[3] as u32],
        sides: 4,
    };
    let mut next_first = outer_ring.stored();
    let rings = ((nu + 1) / 2).min((nv + 1) / 2);
    for r in 1..rings {
        let (cu, cv) = ((nu - 2 * r) as u32, (nv - 2 * r) as u32);
        let ring = match centre {
            QuadCentre::Row if r == rings - 1 => Ring::Line { first: next_first, len: cu, lead: 1 },
            QuadCentre::Column if r == rings - 1 => Ring::Line { first: next_first, len: cv, lead: 0 },
            _ => Ring::Closed { first: next_first, counts: [cv, cu, cv, cu], sides: 4 },
        };
        for (s, &inner_count) in [cv, cu, cv, cu].iter().enumerate() {
            let mut seam = Seam::new(&mut mesh, ring.side(s), outer_ring.side(s));
            if r == 1 {
                // Sides 0 and 2 run along v, sides 1 and 3 along u.
                let inside = if s % 2 == 0 { along_v } else { along_u };
                seam.transition(inside, &f.edges[s]);
            } else {
                seam.trapezoid(inner_count);
            }
        }
        next_first += ring.stored();
        outer_ring = ring;
    }
    if let (QuadCentre::Strip, Ring::Closed { counts: c, .. }) = (centre, outer_ring) {
        if nu > nv {
            // Two rows: the bottom side (v low, u ascending) and the top side walked back to u ascending.
            let bottom = outer_ring.side(1);
            let top = outer_ring.side(3).reversed(c[3]);
            Seam::new(&mut mesh, top, bottom).strip(c[1] - 1, StripCut::Forward);
        } else {
            // Two columns: the left side (v descending) and the right side walked back to v descending.
            let left = outer_ring.side(0);
            let right = outer_ring.side(2).reversed(c[2]);
            let cut = if along_v.odd { StripCut::MiddleBackward } else { StripCut::Forward };
            Seam::new(&mut mesh, right, left).strip(c[0] - 1, cut);
        }
    }
    mesh.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL_PARTITIONINGS: [Partitioning; 4] =
        [Partitioning::Integer, Partitioning::Pow2, Partitioning::FractionalOdd, Partitioning::FractionalEven];

    fn tess(
        domain: Domain,
        partitioning: Partitioning,
        output: OutputPrimitive,
        outer: [f32; 4],
        inner: [f32; 2],
    ) -> Tessellation {
        tessellate(domain, partitioning, output, &outer, &inner)
    }

    fn fx(n: u32) -> f32 {
        n as f32 / 65536.0
    }

    /// `(b - a) × (c - a)` in (u, v), exact for tessellator coordinates (multiples of 2^-16 in [0, 1]).
    fn cross(t: &Tessellation, tri: &[u32]) -> f64 {
        let p = |i: u32| t.points[i as usize].map(f64::from);
        let (a, b, c) = (p(tri[0]), p(tri[1]), p(tri[2]));
        (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    }

    #[test]
    fn tri_all_ones_is_one_triangle_on_the_corners() {
        for partitioning in [Partitioning::Integer, Partitioning::Pow2, Partitioning::FractionalOdd] {
            let t = tess(Domain::Tri, partitioning, OutputPrimitive::TriangleCw, [1.0; 4], [1.0; 2]);
            assert_eq!(t.points, vec![[0.0, 1.0], [0.0, 0.0], [1.0, 0.0]]);
            assert_eq!(t.indices, vec![0, 1, 2]);
            let t = tess(Domain::Tri, partitioning, OutputPrimitive::TriangleCcw, [1.0; 4], [1.0; 2]);
            assert_eq!(t.indices, vec![0, 2, 1]);
        }
        // Factors below the minimum clamp up to it: 0.25 is 1 for integer partitioning.
        let t =
            tess(Domain::Tri, Partitioning::Integer, OutputPrimitive::TriangleCw, [0.25, 1.0, 0.5, 9.0], [0.1, 9.0]);
        assert_eq!(t.points.len(), 3);
    }

    #[test]
    fn quad_integer_all_ones_is_two_triangles_on_the_corners() {
        let t = tess(Domain::Quad, Partitioning::Integer, OutputPrimitive::TriangleCw, [1.0; 4], [1.0; 2]);
        assert_eq!(t.points, vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]);
        assert_eq!(t.indices, vec![0, 1, 3, 1, 2, 3]);
        // Fractional even cannot go below 2, so it never takes the shortcut.
        let t = tess(Domain::Quad, Partitioning::FractionalEven, OutputPrimitive::TriangleCw, [1.0; 4], [1.0; 2]);
        assert_eq!(t.points.len(), 9);
    }

    #[test]
    fn quad_integer_two_is_a_fan_around_the_centre() {
        // Outer ring from (0,1) down u = 0, along v = 0, up u = 1, back along v = 1; inside factor 2 (even) leaves
        // the centre as the only inner point, and every outer segment makes one triangle with it.
        let t = tess(Domain::Quad, Partitioning::Integer, OutputPrimitive::TriangleCw, [2.0; 4], [2.0; 2]);
        let expected_points = [
            [0.0, 1.0],
            [0.0, 0.5],
            [0.0, 0.0],
            [0.5, 0.0],
            [1.0, 0.0],
            [1.0, 0.5],
            [1.0, 1.0],
            [0.5, 1.0],
            [0.5, 0.5],
        ];
        assert_eq!(t.points, expected_points);
        assert_eq!(t.indices, [0, 1, 8, 1, 2, 8, 2, 3, 8, 3, 4, 8, 4, 5, 8, 5, 6, 8, 6, 7, 8, 7, 0, 8]);
        for tri in t.indices.chunks(3) {
            assert!(cross(&t, tri) > 0.0, "clockwise means a positive cross product");
        }
    }

    #[test]
    fn tri_integer_two_has_the_centre_point() {
        // 6 outer points and the centre (1/3 truncated to 16 bits); 6 triangles around it.
        let t = tess(Domain::Tri, Partitioning::Integer, OutputPrimitive::TriangleCw, [2.0; 4], [2.0; 2]);
        let third = fx(0x5555);
        assert_eq!(t.points, [[0.0, 1.0], [0.0, 0.5], [0.0, 0.0], [0.5, 0.0], [1.0, 0.0], [0.5, 0.5], [third, third]]);
        assert_eq!(t.indices, [0, 1, 6, 1, 2, 6, 2, 3, 6, 3, 4, 6, 4, 5, 6, 5, 0, 6]);
    }

    #[test]
    fn isoline_density_two_detail_three() {
        // SV_TessFactor[0] = 2 lines (v = 0 and 1/2; none at v = 1), [1] = 3 segments per line. Thirds are
        // computed in 16.16 fixed point: 1/3 is 0x5555 and 2/3 is its mirror 1 - 0x5555 = 0xAAAB.
        let t = tess(Domain::Isoline, Partitioning::Integer, OutputPrimitive::Line, [2.0, 3.0, 0.0, 0.0], [0.0; 2]);
        let (a, b) = (fx(0x5555), fx(0xAAAB));
        assert_eq!(t.points, [[0.0, 0.0], [a, 0.0], [b, 0.0], [1.0, 0.0], [0.0, 0.5], [a, 0.5], [b, 0.5], [1.0, 0.5]]);
        assert_eq!(t.indices, [0, 1, 1, 2, 2, 3, 4, 5, 5, 6, 6, 7]);
        let points =
            tess(Domain::Isoline, Partitioning::Integer, OutputPrimitive::Point, [2.0, 3.0, 0.0, 0.0], [0.0; 2]);
        assert_eq!(points.points, t.points);
        assert_eq!(points.indices, (0..8).collect::<Vec<_>>());
        // Density is always integer partitioned: 2.5 lines round up to 3 even with fractional detail.
        let t =
            tess(Domain::Isoline, Partitioning::FractionalOdd, OutputPrimitive::Line, [2.5, 1.0, 0.0, 0.0], [0.0; 2]);
        let vs: Vec<f32> = t.points.iter().map(|p| p[1]).collect();
        assert_eq!(vs, [0.0, 0.0, fx(0x5555), fx(0x5555), fx(0xAAAB), fx(0xAAAB)]);
    }

    #[test]
    fn fractional_odd_one_and_a_half_grows_segments_at_the_ends() {
        // h = 1.5/2 + 1/2 = 1.25: the coarse grid has 1 segment, the fine grid 3. The point next to each end sits
        // at 1/3 on the fine grid and 0 on the coarse one, blended by 0.25: 0x5555 * 0.25 rounds to 0x1555
        // (about 1/12). The middle segment is the large one.
        let t =
            tess(Domain::Isoline, Partitioning::FractionalOdd, OutputPrimitive::Line, [1.0, 1.5, 0.0, 0.0], [0.0; 2]);
        let us: Vec<f32> = t.points.iter().map(|p| p[0]).collect();
        assert_eq!(us, [0.0, fx(0x1555), fx(0x10000 - 0x1555), 1.0]);
        assert_eq!(t.indices, [0, 1, 1, 2, 2, 3]);
    }

    #[test]
    fn fractional_even_two_and_a_half_grows_points_out_of_the_middle() {
        // h = 1.25 between 1 (half-segments of 1/2) and 2 (half-segments of 1/4): the point after the corner moves
        // from 1/2 towards 1/4 by 0.25, to 0.4375; the middle stays at exactly 0.5.
        let t =
            tess(Domain::Isoline, Partitioning::FractionalEven, OutputPrimitive::Point, [1.0, 2.5, 0.0, 0.0], [0.0; 2]);
        let us: Vec<f32> = t.points.iter().map(|p| p[0]).collect();
        assert_eq!(us, [0.0, 0.4375, 0.5, 0.5625, 1.0]);
    }

    #[test]
    fn counter_clockwise_only_swaps_the_last_two_indices() {
        for domain in [Domain::Tri, Domain::Quad] {
            for partitioning in ALL_PARTITIONINGS {
                for (outer, inner) in [([3.0, 5.5, 7.25, 2.0], [4.5, 6.0]), ([1.0, 1.0, 9.0, 1.0], [1.0, 2.0])] {
                    let cw = tess(domain, partitioning, OutputPrimitive::TriangleCw, outer, inner);
                    let ccw = tess(domain, partitioning, OutputPrimitive::TriangleCcw, outer, inner);
                    assert_eq!(cw.points, ccw.points);
                    let swapped: Vec<u32> = cw.indices.chunks(3).flat_map(|t| [t[0], t[2], t[1]]).collect();
                    assert_eq!(swapped, ccw.indices);
                }
            }
        }
    }

    #[test]
    fn point_output_lists_every_point_once() {
        for domain in [Domain::Isoline, Domain::Tri, Domain::Quad] {
            for partitioning in ALL_PARTITIONINGS {
                let (outer, inner) = ([3.0, 5.5, 7.25, 2.0], [4.5, 6.0]);
                let points = tess(domain, partitioning, OutputPrimitive::Point, outer, inner);
                let triangles = tess(domain, partitioning, OutputPrimitive::TriangleCw, outer, inner);
                assert_eq!(points.points, triangles.points);
                assert_eq!(points.indices, (0..points.points.len() as u32).collect::<Vec<_>>());
            }
        }
        // Quad integer 3: 12 outer points and a 2x2 inner ring.
        let t = tess(Domain::Quad, Partitioning::Integer, OutputPrimitive::Point, [3.0; 4], [3.0; 2]);
        assert_eq!(t.points.len(), 16);
        assert_eq!(vertices_per_primitive(Domain::Quad, OutputPrimitive::Point), 1);
    }

    #[test]
    fn culling_needs_every_used_edge_factor_above_zero() {
        for partitioning in ALL_PARTITIONINGS {
            for bad in [0.0, -0.0, -3.0, f32::NAN, f32::NEG_INFINITY] {
                for edge in 0..4 {
                    let mut outer = [5.0; 4];
                    outer[edge] = bad;
                    let quad = tess(Domain::Quad, partitioning, OutputPrimitive::TriangleCw, outer, [5.0; 2]);
                    assert!(quad.is_culled() && quad.indices.is_empty());
                    let tri = tess(Domain::Tri, partitioning, OutputPrimitive::TriangleCw, outer, [5.0; 2]);
                    assert_eq!(tri.is_culled(), edge < 3, "the tri ignores SV_TessFactor[3]");
                    let iso = tess(Domain::Isoline, partitioning, OutputPrimitive::Line, outer, [5.0; 2]);
                    assert_eq!(iso.is_culled(), edge < 2);
                    assert_eq!(iso.indices.is_empty(), edge < 2);
                }
                // Inside factors never cull: they fall back to the minimum.
                let t = tess(Domain::Quad, partitioning, OutputPrimitive::TriangleCw, [5.0; 4], [bad, bad]);
                assert!(!t.is_culled());
            }
            // Tiny positive factors (even denormals) clamp up instead of culling.
            let t = tess(Domain::Tri, partitioning, OutputPrimitive::TriangleCw, [1e-40, 1e-3, 0.5, 0.0], [0.0; 2]);
            assert!(!t.is_culled());
        }
    }

    #[test]
    fn factors_clamp_to_the_partitioning_range() {
        let cases = [
            (Partitioning::Integer, 64.0, [65.0, 1000.0, f32::INFINITY]),
            (Partitioning::Pow2, 64.0, [64.5, 1e9, f32::INFINITY]),
            (Partitioning::FractionalOdd, 63.0, [63.5, 64.0, f32::INFINITY]),
            (Partitioning::FractionalEven, 64.0, [64.01, 70.0, f32::INFINITY]),
        ];
        for (partitioning, max, above) in cases {
            for domain in [Domain::Isoline, Domain::Tri, Domain::Quad] {
                // Isoline density (SV_TessFactor[0]) is always integer partitioned, up to 64.
                let density_max = if domain == Domain::Isoline { 64.0 } else { max };
                let at_max =
                    tess(domain, partitioning, OutputPrimitive::TriangleCw, [density_max, max, max, max], [max; 2]);
                for f in above {
                    let t = tess(domain, partitioning, OutputPrimitive::TriangleCw, [f; 4], [f; 2]);
                    assert!(t == at_max, "{domain:?} {partitioning:?} {f}");
                }
            }
        }
        // 64 integer segments: 65 points per edge, 4225 on the quad.
        let t = tess(Domain::Quad, Partitioning::Integer, OutputPrimitive::Point, [100.0; 4], [100.0; 2]);
        assert_eq!(t.points.len(), 65 * 65);
        // Fractional even's minimum is 2: 0.5 behaves like 2.
        let two = tess(Domain::Tri, Partitioning::FractionalEven, OutputPrimitive::TriangleCw, [2.0; 4], [2.0; 2]);
        let half = tess(Domain::Tri, Partitioning::FractionalEven, OutputPrimitive::TriangleCw, [0.5; 4], [0.5; 2]);
        assert_eq!(two, half);
    }

    #[test]
    fn integer_partitioning_rounds_up_and_pow2_is_the_same() {
        let up =
            tess(Domain::Quad, Partitioning::Integer, OutputPrimitive::TriangleCw, [2.01, 3.0, 4.5, 5.0], [2.2, 6.9]);
        let whole =
            tess(Domain::Quad, Partitioning::Integer, OutputPrimitive::TriangleCw, [3.0, 3.0, 5.0, 5.0], [3.0, 7.0]);
        assert_eq!(up, whole);
        let pow2 =
            tess(Domain::Quad, Partitioning::Pow2, OutputPrimitive::TriangleCw, [2.01, 3.0, 4.5, 5.0], [2.2, 6.9]);
        assert_eq!(pow2, whole);
    }

    #[test]
    fn inside_factor_one_with_integer_partitioning_still_gets_a_centre() {
        // An inside factor of 1 counts as even: the outer edges stitch to a centre point.
        let t = tess(Domain::Tri, Partitioning::Integer, OutputPrimitive::TriangleCw, [3.0, 1.0, 2.0, 0.0], [1.0, 0.0]);
        assert_eq!(t.points.len(), 3 + 1 + 2 + 1);
        assert_eq!(*t.points.last().unwrap(), [fx(0x5555), fx(0x5555)]);
        assert_eq!(t.indices.len(), 3 * 6);
    }

    #[test]
    fn domain_location_derives_w_like_llvmpipe() {
        let t = tess(Domain::Tri, Partitioning::FractionalOdd, OutputPrimitive::Point, [5.3; 4], [7.7; 2]);
        for &p in &t.points {
            let [u, v, w] = domain_location(Domain::Tri, p);
            assert_eq!([u, v], p);
            assert_eq!(w.to_bits(), ((1.0f32 - p[0]) - p[1]).to_bits());
            assert!(w >= 0.0);
        }
        assert_eq!(domain_location(Domain::Quad, [0.25, 0.75]), [0.25, 0.75, 0.0]);
        assert_eq!(domain_location(Domain::Isoline, [0.25, 0.5]), [0.25, 0.5, 0.0]);
    }

    #[test]
    fn dxil_values() {
        assert_eq!(Domain::from_dxil(1), Some(Domain::Isoline));
        assert_eq!(Domain::from_dxil(3), Some(Domain::Quad));
        assert_eq!(Domain::from_dxil(0), None);
        assert_eq!(Partitioning::from_dxil(2), Some(Partitioning::Pow2));
        assert_eq!(Partitioning::from_dxil(4), Some(Partitioning::FractionalEven));
        assert_eq!(Partitioning::from_dxil(5), None);
        assert_eq!(OutputPrimitive::from_dxil(3), Some(OutputPrimitive::TriangleCw));
        assert_eq!(OutputPrimitive::from_dxil(0), None);
        assert_eq!((Domain::Tri.outer_factor_count(), Domain::Tri.inner_factor_count()), (3, 1));
        assert_eq!(vertices_per_primitive(Domain::Isoline, OutputPrimitive::TriangleCw), 2);
        assert_eq!(vertices_per_primitive(Domain::Quad, OutputPrimitive::TriangleCcw), 3);
    }

    /// Factor sets for the sweeps: 0.5 to 70 in steps of 0.37, uniform and mixed per edge.
    fn sweep() -> Vec<([f32; 4], [f32; 2])> {
        let values: Vec<f32> = (0..=188).map(|k| 0.5 + 0.37 * k as f32).collect();
        let n = values.len();
        let mut sets = Vec::new();
        for k in 0..n {
            sets.push(([values[k]; 4], [values[k]; 2]));
            let outer = [values[k], values[(k * 7 + 3) % n], values[(k * 11 + 5) % n], values[(k * 13 + 1) % n]];
            sets.push((outer, [values[(k * 5 + 2) % n], values[(k * 3 + 7) % n]]));
        }
        sets
    }

    fn check_invariants(
        domain: Domain,
        partitioning: Partitioning,
        output: OutputPrimitive,
        outer: [f32; 4],
        inner: [f32; 2],
    ) {
        let t = tess(domain, partitioning, output, outer, inner);
        let what = format!("{domain:?} {partitioning:?} {output:?} {outer:?} {inner:?}");
        assert!(!t.is_culled(), "{what}");
        let per = vertices_per_primitive(domain, output);
        assert_eq!(t.indices.len() % per, 0, "{what}");
        let mut used = vec![false; t.points.len()];
        for &i in &t.indices {
            used[i as usize] = true;
        }
        assert!(used.iter().all(|&u| u), "every point is used: {what}");
        for &[u, v] in &t.points {
            assert!((0.0..=1.0).contains(&u) && (0.0..=1.0).contains(&v), "{what}");
            if domain == Domain::Tri {
                assert!(u + v <= 1.0, "{what}");
            }
        }
        match per {
            3 => {
                let sign = if output == OutputPrimitive::TriangleCw { 1.0 } else { -1.0 };
                let mut area = 0.0;
                for tri in t.indices.chunks(3) {
                    assert!(tri[0] != tri[1] && tri[1] != tri[2] && tri[0] != tri[2], "{what}: {tri:?}");
                    let c = cross(&t, tri) * sign;
                    assert!(c >= 0.0, "{what}: {tri:?} winds the wrong way");
                    area += c / 2.0;
                }
                // Consistently wound triangles that cover exactly the domain's area do not overlap.
                assert_eq!(area, if domain == Domain::Quad { 1.0 } else { 0.5 }, "{what}");
            }
            2 if domain == Domain::Isoline => {
                for line in t.indices.chunks(2) {
                    let (a, b) = (t.points[line[0] as usize], t.points[line[1] as usize]);
                    assert!(line[0] != line[1] && a[1] == b[1] && a[0] <= b[0], "{what}");
                }
            }
            _ => {}
        }
    }

    #[test]
    fn sweep_invariants() {
        for (outer, inner) in sweep() {
            for partitioning in ALL_PARTITIONINGS {
                for output in [OutputPrimitive::TriangleCw, OutputPrimitive::TriangleCcw] {
                    check_invariants(Domain::Tri, partitioning, output, outer, inner);
                    check_invariants(Domain::Quad, partitioning, output, outer, inner);
                }
                for output in [OutputPrimitive::Point, OutputPrimitive::Line] {
                    check_invariants(Domain::Isoline, partitioning, output, outer, inner);
                }
            }
        }
    }

    /// How many points the outer ring has (they come first).
    fn outer_ring_len(domain: Domain, partitioning: Partitioning, outer: [f32; 4], inner: [f32; 2]) -> usize {
        fn len<const E: usize, const I: usize>(prepared: Prepared<E, I>) -> usize {
            match prepared {
                Prepared::Culled => 0,
                Prepared::Minimal => E,
                Prepared::Rings(f) => f.edges.iter().map(|s| s.point_count() as usize - 1).sum(),
            }
        }
        let rules = Rules::of(partitioning);
        match domain {
            Domain::Tri => len(prepare(rules, [outer[0], outer[1], outer[2]], [inner[0]], false)),
            _ => len(prepare(rules, outer, inner, true)),
        }
    }

    /// The positions along edge `edge` of the outer-ring points on it, sorted.
    fn edge_positions(
        domain: Domain,
        partitioning: Partitioning,
        edge: usize,
        outer: [f32; 4],
        inner: [f32; 2],
    ) -> Vec<f32> {
        let t = tess(domain, partitioning, OutputPrimitive::TriangleCw, outer, inner);
        let ring = outer_ring_len(domain, partitioning, outer, inner);
        let mut positions: Vec<f32> = t.points[..ring]
            .iter()
            .filter_map(|&[u, v]| match (domain, edge) {
                (_, 0) => (u == 0.0).then_some(v),
                (_, 1) => (v == 0.0).then_some(u),
                (Domain::Tri, _) => (u + v == 1.0).then_some(u),
                (_, 2) => (u == 1.0).then_some(v),
                _ => (v == 1.0).then_some(u),
            })
            .collect();
        positions.sort_by(f32::total_cmp);
        positions
    }

    #[test]
    fn edges_depend_only_on_their_own_factor() {
        // Every edge of every tri and quad patch with the same factor (and partitioning) gets the same positions,
        // whatever the other factors are: neighbouring patches meet without cracks.
        let others = [([2.0, 9.5, 33.3, 64.0], [1.0, 17.2]), ([50.0, 1.0, 3.7, 6.0], [63.9, 2.5])];
        for partitioning in ALL_PARTITIONINGS {
            for k in 0..=188 {
                let f = 0.5 + 0.37 * k as f32;
                let mut expected: Option<Vec<f32>> = None;
                for (domain, edges) in [(Domain::Tri, 3), (Domain::Quad, 4)] {
                    for edge in 0..edges {
                        for (mut outer, inner) in others {
                            outer[edge] = f;
                            let got = edge_positions(domain, partitioning, edge, outer, inner);
                            assert_eq!(got.first(), Some(&0.0));
                            assert_eq!(got.last(), Some(&1.0));
                            match &expected {
                                None => expected = Some(got),
                                Some(e) => assert_eq!(&got, e, "{partitioning:?} factor {f} {domain:?} edge {edge}"),
                            }
                        }
                    }
                }
                // The same positions are those of an isoline's detail factor, mirrored symmetric about 0.5.
                let e = expected.unwrap();
                assert!(e.iter().zip(e.iter().rev()).all(|(a, b)| *a == 1.0 - *b));
            }
        }
    }
}
