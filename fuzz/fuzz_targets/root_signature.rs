//! Serialized root signatures as D3D12CreateRootSignatureDeserializer and CreateRootSignature
//! receive them: the input is an RTS0 part, sealed into a container (with its checksum, which
//! the deserializer checks, so that mutations reach the part's reader). Whatever deserializes
//! must survive validation and conversion, and its serialization must deserialize to the same
//! description.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rd3d12_core::root_signature::{DeviceLimits, RootSignatureDesc, Version};

fuzz_target!(|data: &[u8]| {
    let mut blob = rd3d12_core::dxbc::build(&[(*b"RTS0", data)]);
    rd3d12_core::dxbc::seal(&mut blob);
    let Ok(desc) = RootSignatureDesc::deserialize(&blob) else { return };
    let valid = desc.validate().is_ok();
    for v in Version::ALL {
        if let Ok(c) = desc.convert(v) {
            let _ = c.validate();
        }
    }
    if valid {
        let blob = desc.serialize().expect("a valid description serializes");
        let back = RootSignatureDesc::deserialize(&blob).expect("a serialized description deserializes");
        assert_eq!(back, desc, "serialize/deserialize round trip");
    }
    for tier in 1..=3 {
        let l =
            DeviceLimits { max_version: Version::V1_2, binding_tier: tier, feature_level: 0xc100, raytracing: true };
        let _ = desc.check_device(&l);
    }
});
