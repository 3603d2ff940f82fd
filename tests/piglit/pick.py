#!/usr/bin/env python3
"""Writes list.txt, the fixed piglit list of `cargo xtask piglit`, from the `quick` profile of
Debian's piglit (0~git20220119): the groups where Mesa's d3d12 driver over rd3d12 and llvmpipe
were seen to differ (tessellation, geometry shaders, transform feedback, multisample formats,
blits, texture sizes and fetches, images, atomic counters, cube arrays, wrap modes on integer
formats, polygon offset, line stipple, two-sided stencil, texture barrier and views, compute,
storage buffers), with the large generated families thinned to every Nth test.

    piglit run quick -d -p surfaceless_egl /tmp/dry     # a dry run: names only, ~1 minute
    python3 tests/piglit/pick.py /tmp/dry/results.json.bz2 > tests/piglit/list.txt
"""
import bz2, json, re, sys

PATTERNS = [
    # (regex, keep every Nth match)
    (r'^spec@arb_tessellation_shader@execution@built-in-functions@', 6),
    (r'^spec@glsl-1\.50@execution@built-in-functions@', 8),
    (r'^spec@arb_tessellation_shader@execution@', 1),
    (r'^spec@glsl-1\.50@execution@', 1),
    (r'^spec@glsl-1\.30@execution@(?!built-in-functions)', 1),
    (r'^spec@glsl-1\.10@execution@(interpolation|clipping)', 1),
    (r'^spec@glsl-es-3\.00@execution@', 1),
    (r'^spec@ext_transform_feedback@', 1),
    (r'^spec@arb_transform_feedback[23]@', 1),
    (r'^spec@ext_framebuffer_multisample@', 2),
    (r'^spec@arb_texture_multisample@', 1),
    (r'^spec@arb_sample_shading@', 1),
    (r'^spec@arb_shader_image_load_store@(?!compiler|preprocessor)', 1),
    (r'^spec@arb_shader_atomic_counters@(?!compiler|preprocessor)', 1),
    (r'^spec@arb_shader_storage_buffer_object@(?!compiler|preprocessor)', 1),
    (r'^spec@arb_compute_shader@(?!compiler|preprocessor)', 1),
    (r'^spec@!opengl 1\.[0-5]@', 1),
    (r'^hiz@', 1),
    (r'^spec@ext_framebuffer_blit@', 1),
    (r'^spec@arb_framebuffer_object@', 1),
    (r'^spec@arb_texture_barrier@', 1),
    (r'^spec@arb_texture_view@', 1),
    (r'^spec@arb_texture_cube_map_array@(?!preprocessor)', 1),
    (r'^spec@arb_texture_gather@.*(cube|array)', 2),
    (r'^spec@arb_texture_rg@', 1),
    (r'^spec@ext_texture_integer@', 1),
    (r'^spec@arb_texture_rgb10_a2ui@', 1),
    (r'^spec@arb_texture_stencil8@', 1),
    (r'^spec@ext_stencil_two_side@', 1),
]

names = sorted(json.load(bz2.open(sys.argv[1]))['tests'])
seen = [0] * len(PATTERNS)
out = []
for n in names:
    for i, (p, every) in enumerate(PATTERNS):
        if re.search(p, n):
            if seen[i] % every == 0:
                out.append(n)
            seen[i] += 1
            break
print('# cargo xtask piglit: the fixed list (%d tests); made by tests/piglit/pick.py' % len(out))
print('\n'.join(out))
