//! GPU virtual addresses of buffers. On the CPU adapter (cache-coherent UMA) a buffer's GPU
//! virtual address is its host address; the registry maps an address back to the buffer's memory
//! so commands that take addresses (WriteBufferImmediate, root views, vertex/index buffer views)
//! can check them and reach the bytes safely, whatever the application passes.

use crate::resource::Memory;
use std::collections::BTreeMap;
use std::sync::RwLock;

#[derive(Default)]
pub struct VaRegistry {
    /// Start address → (length, memory of the buffer).
    map: RwLock<BTreeMap<u64, (u64, Memory)>>,
}

impl VaRegistry {
    pub fn insert(&self, start: u64, len: u64, mem: Memory) {
        if start != 0 {
            self.map.write().unwrap_or_else(|e| e.into_inner()).insert(start, (len, mem));
        }
    }

    pub fn remove(&self, start: u64) {
        self.map.write().unwrap_or_else(|e| e.into_inner()).remove(&start);
    }

    /// The buffer memory holding `[va, va + len)` and the offset of `va` in it, if one buffer
    /// holds all of it. Aliasing placed buffers may overlap; any of them serves.
    pub fn resolve(&self, va: u64, len: u64) -> Option<(Memory, u64)> {
        let map = self.map.read().unwrap_or_else(|e| e.into_inner());
        map.range(..=va).rev().take(64).find_map(|(start, (blen, mem))| {
            let off = va - start;
            (off.checked_add(len)? <= *blen).then(|| (mem.clone(), off))
        })
    }
}
