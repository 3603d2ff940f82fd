//! One thread group of a compute shader that parsed: the interpreter must turn whatever the
//! module holds (wrong operand types, bad value ids, odd control flow) into an error value,
//! never a panic. Resources are unbound (reads are 0, writes are dropped).
#![no_main]

use libfuzzer_sys::fuzz_target;
use rd3d12_swgpu::draw::Bindings;
use rd3d12_core::shader::Stage;

struct Unbound;
impl Bindings for Unbound {}

fuzz_target!(|data: &[u8]| {
    let Ok(p) = rd3d12_shader::dxil::parse(data) else { return };
    if p.dx.stage != Stage::Compute {
        return;
    }
    let Some(entry) = p.dx.entry_points.first() else { return };
    let _ = rd3d12_swgpu::compute::dispatch(&p, entry, [1, 1, 1], &Unbound);
});
