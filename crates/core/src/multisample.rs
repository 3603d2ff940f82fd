//! Multisampling rules shared by the layout math, the shader compiler and the software GPU.

/// D3D12_STANDARD_MULTISAMPLE_PATTERN: the sample positions of `count` samples (1, 2, 4, 8, 16)
/// as (x, y) offsets from the pixel center in 1/16 pixel, y down, in sample-index order (D3D11.3
/// functional spec §19.2.4 "Standard Multisample Quality Levels", which D3D12 keeps). `None`
/// for other counts.
pub fn standard_sample_positions(count: u32) -> Option<&'static [(i8, i8)]> {
    const ONE: [(i8, i8); 1] = [(0, 0)];
    const TWO: [(i8, i8); 2] = [(4, 4), (-4, -4)];
    const FOUR: [(i8, i8); 4] = [(-2, -6), (6, -2), (-6, 2), (2, 6)];
    const EIGHT: [(i8, i8); 8] = [(1, -3), (-1, 3), (5, 1), (-3, -5), (-5, 5), (-7, -1), (3, 7), (7, -7)];
    const SIXTEEN: [(i8, i8); 16] = [
        (1, 1),
        (-1, -3),
        (-3, 2),
        (4, -1),
        (-5, -2),
        (2, 5),
        (5, 3),
        (3, -5),
        (-2, 6),
        (0, -7),
        (-4, -6),
        (-6, 4),
        (-8, 0),
        (7, -4),
        (6, 7),
        (-7, -8),
    ];
    match count {
        1 => Some(&ONE),
        2 => Some(&TWO),
        4 => Some(&FOUR),
        8 => Some(&EIGHT),
        16 => Some(&SIXTEEN),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_patterns_have_distinct_positions_inside_the_pixel() {
        for n in [1u32, 2, 4, 8, 16] {
            let p = standard_sample_positions(n).unwrap();
            assert_eq!(p.len(), n as usize);
            for (i, a) in p.iter().enumerate() {
                assert!((-8..8).contains(&a.0) && (-8..8).contains(&a.1));
                assert!(p[i + 1..].iter().all(|b| b != a));
            }
        }
        assert!(standard_sample_positions(3).is_none());
    }
}
