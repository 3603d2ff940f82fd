/* Mesa's desktop OpenGL (4.2 core on d3d12) over rd3d12 against llvmpipe, scene by scene, as
 * gl_diff does for OpenGL ES: each scene renders into a 64x64 RGBA8 framebuffer object and prints
 * a hash of its pixels; xtask requires equal hashes on both drivers. These are the features GL ES
 * 3.1 does not have, each reaching a different part of D3D12:
 *   clip_distance  gl_ClipDistance[0..1] (SV_ClipDistance) cutting a triangle;
 *   depth_clamp    GL_DEPTH_CLAMP (DepthClipEnable = FALSE) with geometry past the far plane;
 *   logic_op       glLogicOp(GL_XOR) on an RGBA8 target (output-merger logic operations);
 *   provoking      glProvokingVertex(GL_FIRST_VERTEX_CONVENTION) with flat varyings;
 *   tex1d          a 1D texture and a 1D array texture, and rendering into a 1D texture
 *                  (TEXTURE1D views);
 *   cond_render    glBeginConditionalRender on an occlusion query that passed and one that did
 *                  not (predication);
 *   fp64           double-precision arithmetic in a fragment shader;
 *   primid         gl_PrimitiveID in a fragment shader without a geometry shader;
 *   draw_tf        glDrawTransformFeedback: points captured by transform feedback drawn again,
 *                  their count taken from the stream-output filled size;
 *   lod_bias       GL_TEXTURE_LOD_BIAS (the sampler's MipLODBias), away from the LOD ties
 *                  where GL (round half down) and D3D (round half up) pick different mips;
 *   dual_source    dual-source blending (SRC1 factors) on an RGBA32F target, read as floats;
 *   sample_mask    glSampleMaski (the pipeline's SampleMask) with glMinSampleShading(1.0);
 *   rect_restart   a sampler2DRect, and a strip with glPrimitiveRestartIndex(7);
 *   blend_depth    constant-color blending and MAX on RGBA16F, a depth-only pass and a pass with
 *                  depth writes off (read as halves);
 *   copy_buffer    glCopyBufferSubData at unaligned offsets (printed as "copy_buffer HASH");
 *   multi_draw     glMultiDrawArraysIndirectCountARB with gl_DrawIDARB and gl_BaseInstanceARB;
 *   tess_*         tessellation: every domain, partitioning and output primitive on one patch,
 *                  factors above 64, a geometry shader after the domain shader, a culled patch
 *                  (see the comment at the scenes);
 *   bc_textures    BC7 and BC6H (signed and unsigned) blocks of pseudo-random bits, sampled
 *                  (BC4/BC5 are left out: llvmpipe interpolates their endpoints in 8 bits, D3D
 *                  exactly);
 *   ms_fetch       texelFetch of each sample of a 4x texture, written with gl_SampleMaskIn;
 *   pcf            a depth comparison with LINEAR filtering (four comparisons weighted);
 *   queries        PRIMITIVES_GENERATED, SAMPLES_PASSED and ANY_SAMPLES_PASSED (printed);
 *   int_ops        uaddCarry, usubBorrow, umulExtended, imulExtended, bitfieldInsert, bitCount,
 *                  findLSB, packHalf2x16, frexp, ldexp, roundEven, fma, trunc;
 *   shared_atomics a compute shader's groupshared atomics whose end state is order-free, gathered
 *                  with storage-buffer atomics (printed);
 *   sampler_array  a sampler2D[4] and a uniform block array indexed by a uniform (descriptor
 *                  ranges indexed in the shader);
 *   ssbo_ops       std430 structs with a vec3, an unsized array's length(), atomicCompSwap and
 *                  atomicExchange on storage-buffer words (printed);
 *   image_formats  a compute shader storing into r32f 3D and rgba16f 2D-array images (imageSize),
 *                  then sampled;
 *   fans           a triangle fan with restart from 8-bit indices;
 *   pbo            a texture uploaded from a pixel-unpack buffer with a row length, and pixels
 *                  read into a pixel-pack buffer (printed as "pbo_read HASH");
 *   dattrib        double-precision vertex attributes;
 *   frag_coord     origin_upper_left / pixel_center_integer gl_FragCoord, noperspective varyings;
 *   stencil_wrap   INCR_WRAP, DECR_WRAP and INVERT under stencil write masks, EQUAL tests with a
 *                  read mask;
 *   dispatch_indirect glDispatchComputeIndirect at an offset (printed);
 *   getteximage    glGetTexImage of a 3D mip and 2D-array layers written at offsets (printed);
 *   blend_saturate SRC_ALPHA_SATURATE and DST_ALPHA factors on RGBA32F (printed as floats);
 *   drawbuffers_gap glDrawBuffers with GL_NONE between two targets;
 *   tbo_rgb32f     RGB32F and RG8I texture buffers;
 *   counter_frag   an atomic counter incremented per fragment (printed);
 *   gather_int     textureGather of components 1 and 3 on signed and unsigned integer textures;
 *   base_vertex_neg negative base vertices (with a base instance), a constant generic attribute
 *                  and a byte attribute at an odd offset;
 *   stencil_export gl_FragStencilRefARB (SV_StencilRef, PSSpecifiedStencilRefSupported) with
 *                  REPLACE;
 *   no_attachments a framebuffer without attachments (ARB_framebuffer_no_attachments: a pipeline
 *                  without targets and a zero SampleDesc), image stores and an image atomic
 *                  counting fragments (printed);
 *   many_varyings  28 vec4 varyings with flat and noperspective arrays (signature packing);
 *   many_textures  20 textures in one fragment shader;
 *   map_range      glMapBufferRange and glBufferSubData on a vertex buffer between draws;
 *   sync           glFenceSync/glClientWaitSync and timestamp queries (printed);
 *   compute_prefix a prefix sum in groupshared memory with barriers inside a loop (printed);
 *   compute_blur   an image filter through a groupshared tile with a halo;
 *   compute_3d     a 3D dispatch of 3D thread groups (printed);
 *   xfb_skip       transform feedback with gl_SkipComponents gaps, interleaved and separate,
 *                  from a geometry shader (printed);
 *   gs_invocations an instanced geometry shader (invocations = 3) on line adjacency.
 * (LINEAR filtering across cube faces is left out: llvmpipe's face coordinates differ in the
 * last bit.)
 * (textureQueryLOD is left out: llvmpipe approximates the logarithm.)
 * (glPolygonMode(GL_LINE) is left out: llvmpipe and D3D's wireframe differ in which corner
 * pixels the half-open edges keep.)
 *
 * usage: gl_desktop   (prints "NAME HASH ..." per scene) */
#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glcorearb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static GLuint shader(GLenum k, const char *src)
{
    GLuint sh = glCreateShader(k);
    glShaderSource(sh, 1, &src, 0);
    glCompileShader(sh);
    GLint ok;
    glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char b[999];
        glGetShaderInfoLog(sh, 999, 0, b);
        fprintf(stderr, "%s\n", b);
    }
    return sh;
}
/* A program of the given stages (tcs, tes and gs may be NULL). */
static GLuint prog5(const char *vs, const char *tcs, const char *tes, const char *gs, const char *fs)
{
    GLuint p = glCreateProgram();
    glAttachShader(p, shader(GL_VERTEX_SHADER, vs));
    if (tcs) glAttachShader(p, shader(GL_TESS_CONTROL_SHADER, tcs));
    if (tes) glAttachShader(p, shader(GL_TESS_EVALUATION_SHADER, tes));
    if (gs) glAttachShader(p, shader(GL_GEOMETRY_SHADER, gs));
    glAttachShader(p, shader(GL_FRAGMENT_SHADER, fs));
    glLinkProgram(p);
    GLint ok;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        char b[999];
        glGetProgramInfoLog(p, 999, 0, b);
        fprintf(stderr, "link %s\n", b);
    }
    return p;
}
static GLuint prog(const char *vs, const char *fs)
{
    return prog5(vs, NULL, NULL, NULL, fs);
}
/* FNV-1a over n bytes: what the scenes print of buffers and pixels. */
static unsigned long fnv(const void *p, size_t n)
{
    const unsigned char *b = (const unsigned char *)p;
    unsigned long h = 1469598103934665603UL;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 1099511628211UL;
    }
    return h;
}
/* A linked program of one compute shader. */
static GLuint compute_prog(const char *src)
{
    GLuint p = glCreateProgram();
    glAttachShader(p, shader(GL_COMPUTE_SHADER, src));
    glLinkProgram(p);
    return p;
}
static unsigned char px[64 * 64 * 4];
static void dump(const char *name)
{
    memset(px, 0xAA, sizeof px);
    glReadPixels(0, 0, 64, 64, GL_RGBA, GL_UNSIGNED_BYTE, px);
    unsigned long h = fnv(px, sizeof px);
    const unsigned char *a = px + 4 * (5 * 64 + 5), *b = px + 4 * (20 * 64 + 40);
    printf("%s %016lx  p(5,5)=%d,%d,%d,%d p(40,20)=%d,%d,%d,%d err=%x\n", name, h, a[0], a[1], a[2], a[3], b[0], b[1],
           b[2], b[3], glGetError());
    FILE *f = fopen(getenv("DUMP") ? getenv("DUMP") : "/dev/null", "ab");
    if (f) {
        fwrite(px, 1, sizeof px, f);
        fclose(f);
    }
}
static const char *VS = "#version 420 core\nlayout(location=0) in vec2 pos;out vec2 uv;void main(){uv=pos*0.5+0.5;gl_Position=vec4(pos,0.0,1.0);}\n";
static GLuint quad_vao(const float *v, size_t bytes, int comps)
{
    GLuint va, b;
    glGenVertexArrays(1, &va);
    glBindVertexArray(va);
    glGenBuffers(1, &b);
    glBindBuffer(GL_ARRAY_BUFFER, b);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)bytes, v, GL_STATIC_DRAW);
    glVertexAttribPointer(0, comps, GL_FLOAT, GL_FALSE, 0, 0);
    glEnableVertexAttribArray(0);
    return va;
}
int main(void)
{
    PFNEGLGETPLATFORMDISPLAYEXTPROC gd = (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    EGLDisplay d = gd(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    EGLint a, b;
    eglInitialize(d, &a, &b);
    eglBindAPI(EGL_OPENGL_API);
    const EGLint ca[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 2, EGL_CONTEXT_OPENGL_PROFILE_MASK,
                         EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    EGLContext c = eglCreateContext(d, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, ca);
    if (!c || !eglMakeCurrent(d, EGL_NO_SURFACE, EGL_NO_SURFACE, c)) {
        fprintf(stderr, "no OpenGL 4.2 core context\n");
        return 1;
    }
    fprintf(stderr, "%s\n", glGetString(GL_RENDERER));
    GLuint rt, fbo;
    glGenTextures(1, &rt);
    glBindTexture(GL_TEXTURE_2D, rt);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 64, 64);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, rt, 0);
    glViewport(0, 0, 64, 64);
    const float quad[12] = {-1, -1, 1, -1, -1, 1, -1, 1, 1, -1, 1, 1};
    GLuint qva = quad_vao(quad, sizeof quad, 2);

    /* clip_distance */
    {
        const float tri[6] = {-0.9f, -0.9f, 0.9f, -0.9f, -0.9f, 0.9f};
        GLuint va = quad_vao(tri, sizeof tri, 2);
        GLuint p = prog("#version 420 core\nlayout(location=0) in vec2 pos;out float gl_ClipDistance[2];out vec2 uv;void main(){uv=pos;gl_ClipDistance[0]=0.4-pos.x;gl_ClipDistance[1]=pos.y+0.6;gl_Position=vec4(pos,0.0,1.0);}\n",
                        "#version 420 core\nin vec2 uv;out vec4 o;void main(){o=vec4(1.0,floor(uv.x*4.0+4.0)/8.0,0.25,1.0);}\n");
        glUseProgram(p);
        glEnable(GL_CLIP_DISTANCE0);
        glEnable(GL_CLIP_DISTANCE1);
        glClearColor(0, 0, 0, 1);
        glClear(GL_COLOR_BUFFER_BIT);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glDisable(GL_CLIP_DISTANCE0);
        glDisable(GL_CLIP_DISTANCE1);
        dump("clip_distance");
        (void)va;
    }
    /* depth_clamp */
    {
        GLuint ds;
        glGenRenderbuffers(1, &ds);
        glBindRenderbuffer(GL_RENDERBUFFER, ds);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT32F, 64, 64);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, ds);
        GLuint p = prog("#version 420 core\nlayout(location=0) in vec2 pos;uniform float z;out vec2 uv;void main(){uv=pos;gl_Position=vec4(pos*0.75,z,1.0);}\n",
                        "#version 420 core\nin vec2 uv;uniform vec4 c;out vec4 o;void main(){o=c*vec4(1.0,uv.y*0.5+0.5,1.0,1.0);}\n");
        glUseProgram(p);
        glBindVertexArray(qva);
        glClearDepth(1.0);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        glEnable(GL_DEPTH_TEST);
        glDepthFunc(GL_LEQUAL);
        glEnable(GL_DEPTH_CLAMP);
        glUniform1f(glGetUniformLocation(p, "z"), 1.5f);
        glUniform4f(glGetUniformLocation(p, "c"), 1, 0, 0, 1);
        glDrawArrays(GL_TRIANGLES, 0, 6);
        glDisable(GL_DEPTH_CLAMP);
        glUniform1f(glGetUniformLocation(p, "z"), 1.25f);
        glUniform4f(glGetUniformLocation(p, "c"), 0, 0, 1, 1);
        glDrawArrays(GL_TRIANGLES, 0, 6);
        glDisable(GL_DEPTH_TEST);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, 0);
        dump("depth_clamp");
    }
    /* logic_op */
    {
        GLuint p = prog(VS, "#version 420 core\nin vec2 uv;out vec4 o;void main(){o=vec4(floor(uv*8.0)/8.0,0.5,1.0);}\n");
        glUseProgram(p);
        glBindVertexArray(qva);
        glClearColor(0.2f, 0.6f, 1.0f, 0.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glEnable(GL_COLOR_LOGIC_OP);
        glLogicOp(GL_XOR);
        glDrawArrays(GL_TRIANGLES, 0, 6);
        glLogicOp(GL_AND_REVERSE);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glDisable(GL_COLOR_LOGIC_OP);
        glClearColor(0, 0, 0, 1);
        dump("logic_op");
    }
    /* provoking */
    {
        const float v[12] = {-0.75f, -0.75f, 0.75f, -0.75f, -0.75f, 0.75f, 0.75f, -0.75f, 0.75f, 0.75f, -0.75f, 0.75f};
        GLuint va = quad_vao(v, sizeof v, 2);
        GLuint p = prog("#version 420 core\nlayout(location=0) in vec2 pos;flat out vec4 c;void main(){c=vec4(float(gl_VertexID%3)/2.0,float(gl_VertexID/3),0.5,1.0);gl_Position=vec4(pos,0.0,1.0);}\n",
                        "#version 420 core\nflat in vec4 c;out vec4 o;void main(){o=c;}\n");
        glUseProgram(p);
        glClear(GL_COLOR_BUFFER_BIT);
        glProvokingVertex(GL_FIRST_VERTEX_CONVENTION);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glProvokingVertex(GL_LAST_VERTEX_CONVENTION);
        glDrawArrays(GL_TRIANGLES, 3, 3);
        dump("provoking");
        (void)va;
    }
    /* tex1d */
    {
        unsigned char t[16 * 4], ta[8 * 3 * 4];
        for (int i = 0; i < 16; i++) {
            t[4 * i] = (unsigned char)(i * 16);
            t[4 * i + 1] = (unsigned char)(255 - i * 8);
            t[4 * i + 2] = 40;
            t[4 * i + 3] = 255;
        }
        for (int i = 0; i < 24; i++) {
            ta[4 * i] = (unsigned char)(i * 10);
            ta[4 * i + 1] = (unsigned char)(i * 3);
            ta[4 * i + 2] = (unsigned char)(250 - i * 10);
            ta[4 * i + 3] = 255;
        }
        GLuint tx[3];
        glGenTextures(3, tx);
        glActiveTexture(GL_TEXTURE0);
        glBindTexture(GL_TEXTURE_1D, tx[0]);
        glTexImage1D(GL_TEXTURE_1D, 0, GL_RGBA8, 16, 0, GL_RGBA, GL_UNSIGNED_BYTE, t);
        glTexParameteri(GL_TEXTURE_1D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_1D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glActiveTexture(GL_TEXTURE1);
        glBindTexture(GL_TEXTURE_1D_ARRAY, tx[1]);
        glTexImage2D(GL_TEXTURE_1D_ARRAY, 0, GL_RGBA8, 8, 3, 0, GL_RGBA, GL_UNSIGNED_BYTE, ta);
        glTexParameteri(GL_TEXTURE_1D_ARRAY, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_1D_ARRAY, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        /* A 1D render target: 32 texels written through a 32x1 viewport. */
        glActiveTexture(GL_TEXTURE2);
        glBindTexture(GL_TEXTURE_1D, tx[2]);
        glTexStorage1D(GL_TEXTURE_1D, 1, GL_RGBA8, 32);
        glTexParameteri(GL_TEXTURE_1D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_1D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        GLuint f1;
        glGenFramebuffers(1, &f1);
        glBindFramebuffer(GL_FRAMEBUFFER, f1);
        glFramebufferTexture1D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_1D, tx[2], 0);
        glViewport(0, 0, 32, 1);
        GLuint w = prog(VS, "#version 420 core\nin vec2 uv;out vec4 o;void main(){o=vec4(floor(uv.x*32.0)/32.0,0.75,0.25,1.0);}\n");
        glUseProgram(w);
        glBindVertexArray(qva);
        glDrawArrays(GL_TRIANGLES, 0, 6);
        glViewport(0, 0, 64, 64);
        glBindFramebuffer(GL_FRAMEBUFFER, fbo);
        GLuint p = prog(VS, "#version 420 core\nin vec2 uv;uniform sampler1D a;uniform sampler1DArray b;uniform sampler1D r;out vec4 o;\n"
                            "void main(){if(uv.y<0.34)o=texture(a,uv.x);else if(uv.y<0.67)o=texture(b,vec2(uv.x,floor(uv.y*9.0)-3.0));else o=texture(r,uv.x);}\n");
        glUseProgram(p);
        glUniform1i(glGetUniformLocation(p, "a"), 0);
        glUniform1i(glGetUniformLocation(p, "b"), 1);
        glUniform1i(glGetUniformLocation(p, "r"), 2);
        glDrawArrays(GL_TRIANGLES, 0, 6);
        glActiveTexture(GL_TEXTURE0);
        dump("tex1d");
    }
    /* cond_render */
    {
        GLuint q[2];
        glGenQueries(2, q);
        GLuint p = prog(VS, "#version 420 core\nin vec2 uv;uniform vec4 c;out vec4 o;void main(){o=c;}\n");
        glUseProgram(p);
        glBindVertexArray(qva);
        glClear(GL_COLOR_BUFFER_BIT);
        GLint cl = glGetUniformLocation(p, "c");
        glUniform4f(cl, 0.25f, 0.25f, 0.25f, 1);
        glBeginQuery(GL_SAMPLES_PASSED, q[0]);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glEndQuery(GL_SAMPLES_PASSED);
        glEnable(GL_SCISSOR_TEST);
        glScissor(0, 0, 0, 0);
        glBeginQuery(GL_SAMPLES_PASSED, q[1]);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glEndQuery(GL_SAMPLES_PASSED);
        glDisable(GL_SCISSOR_TEST);
        glBeginConditionalRender(q[0], GL_QUERY_WAIT);
        glUniform4f(cl, 1, 0, 0, 1);
        glDrawArrays(GL_TRIANGLES, 3, 3);
        glEndConditionalRender();
        glBeginConditionalRender(q[1], GL_QUERY_WAIT);
        glUniform4f(cl, 0, 1, 0, 1);
        glDrawArrays(GL_TRIANGLES, 0, 6);
        glEndConditionalRender();
        GLuint n0 = 0, n1 = 0;
        glGetQueryObjectuiv(q[0], GL_QUERY_RESULT, &n0);
        glGetQueryObjectuiv(q[1], GL_QUERY_RESULT, &n1);
        printf("cond_render_counts %u %u\n", n0, n1);
        dump("cond_render");
    }
    /* fp64 */
    {
        GLuint p = prog(VS, "#version 420 core\n#extension GL_ARB_gpu_shader_fp64 : require\nin vec2 uv;out vec4 o;void main(){double x=double(uv.x)*1.0e10+1.0;double y=x-1.0e10*double(uv.x);dvec2 v=dvec2(uv)*3.0LF;double s=sqrt(v.x*v.x+v.y*v.y);\n"
                            "o=vec4(float(y)*0.5,float(s/5.0),float(fract(v.x*v.y)),1.0);}\n");
        glUseProgram(p);
        glBindVertexArray(qva);
        glDrawArrays(GL_TRIANGLES, 0, 6);
        dump("fp64");
    }
    /* primid: gl_PrimitiveID read by a fragment shader with no geometry shader
     * (SV_PrimitiveID into the pixel shader), over a strip of 6 triangles. */
    {
        float v[16];
        for (int i = 0; i < 8; i++) {
            v[2 * i] = (float)(i / 2) * 0.5f - 0.75f;
            v[2 * i + 1] = (i % 2) ? 0.5f : -0.5f;
        }
        GLuint va = quad_vao(v, sizeof v, 2);
        GLuint p = prog("#version 420 core\nlayout(location=0) in vec2 pos;void main(){gl_Position=vec4(pos,0.0,1.0);}\n",
                        "#version 420 core\nout vec4 o;void main(){o=vec4(float(gl_PrimitiveID)/8.0,float(gl_PrimitiveID%2),0.5,1.0);}\n");
        glUseProgram(p);
        glClear(GL_COLOR_BUFFER_BIT);
        glDrawArrays(GL_TRIANGLE_STRIP, 0, 8);
        dump("primid");
        (void)va;
    }
    /* draw_tf: points captured by transform feedback (rasterizer discard), then drawn again
     * with glDrawTransformFeedback: the vertex count comes from the stream-output filled size. */
    {
        GLuint tp = glCreateProgram();
        glAttachShader(tp, shader(GL_VERTEX_SHADER, "#version 420 core\nout vec4 q;void main(){float i=float(gl_VertexID);q=vec4(i*0.125-0.875,0.5-i*0.0625,i/13.0,1.0);gl_Position=q;}\n"));
        const char *vary[1] = {"q"};
        glTransformFeedbackVaryings(tp, 1, vary, GL_INTERLEAVED_ATTRIBS);
        glLinkProgram(tp);
        GLuint tb, tf, va;
        glGenBuffers(1, &tb);
        glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, tb);
        glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, 64 * 16, 0, GL_DYNAMIC_COPY);
        glGenTransformFeedbacks(1, &tf);
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, tf);
        glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, tb);
        glGenVertexArrays(1, &va);
        glBindVertexArray(va);
        glUseProgram(tp);
        glEnable(GL_RASTERIZER_DISCARD);
        glBeginTransformFeedback(GL_POINTS);
        glDrawArrays(GL_POINTS, 0, 13);
        glEndTransformFeedback();
        glDisable(GL_RASTERIZER_DISCARD);
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
        glBindBuffer(GL_ARRAY_BUFFER, tb);
        glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, 0);
        glEnableVertexAttribArray(0);
        GLuint p = prog("#version 420 core\nlayout(location=0) in vec4 q;out float c;void main(){c=q.z;gl_PointSize=2.0;gl_Position=vec4(q.xy,0.0,1.0);}\n",
                        "#version 420 core\nin float c;out vec4 o;void main(){o=vec4(c,1.0-c,0.5,1.0);}\n");
        glUseProgram(p);
        glEnable(GL_PROGRAM_POINT_SIZE);
        glClear(GL_COLOR_BUFFER_BIT);
        glDrawTransformFeedback(GL_POINTS, tf);
        glDisable(GL_PROGRAM_POINT_SIZE);
        dump("draw_tf");
    }
    /* lod_bias: GL_TEXTURE_LOD_BIAS on the texture (the D3D sampler's MipLODBias) with
     * NEAREST_MIPMAP_NEAREST on a texture with one color per level. */
    {
        GLuint tex;
        glGenTextures(1, &tex);
        glBindTexture(GL_TEXTURE_2D, tex);
        glTexStorage2D(GL_TEXTURE_2D, 5, GL_RGBA8, 16, 16);
        for (int l = 0; l < 5; l++) {
            int n = 16 >> l;
            unsigned char t[16 * 16 * 4];
            for (int i = 0; i < n * n; i++) {
                t[4 * i] = (unsigned char)(l * 50);
                t[4 * i + 1] = (unsigned char)(250 - l * 50);
                t[4 * i + 2] = 100;
                t[4 * i + 3] = 255;
            }
            glTexSubImage2D(GL_TEXTURE_2D, l, 0, 0, n, n, GL_RGBA, GL_UNSIGNED_BYTE, t);
        }
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glTexParameterf(GL_TEXTURE_2D, GL_TEXTURE_LOD_BIAS, 1.25f);
        GLuint p = prog(VS, "#version 420 core\nin vec2 uv;uniform sampler2D t;out vec4 o;void main(){o=texture(t,uv*exp2(floor(uv.y*3.0)));}\n");
        glUseProgram(p);
        glBindVertexArray(qva);
        glUniform1i(glGetUniformLocation(p, "t"), 0);
        glDrawArrays(GL_TRIANGLES, 0, 6);
        dump("lod_bias");
    }
    /* dual_source: dual-source blending (GL_SRC1_COLOR / GL_ONE_MINUS_SRC1_ALPHA, D3D12's
     * SRC1 blend factors) on an RGBA32F target, read back as floats. */
    {
        GLuint ft, ff;
        glGenTextures(1, &ft);
        glBindTexture(GL_TEXTURE_2D, ft);
        glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA32F, 64, 64);
        glGenFramebuffers(1, &ff);
        glBindFramebuffer(GL_FRAMEBUFFER, ff);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, ft, 0);
        const float cl[4] = {0.5f, 0.25f, 0.75f, 1.0f};
        glClearBufferfv(GL_COLOR, 0, cl);
        GLuint p = prog(VS, "#version 420 core\nin vec2 uv;layout(location=0,index=0) out vec4 o0;layout(location=0,index=1) out vec4 o1;\n"
                            "void main(){o0=vec4(floor(uv*4.0)/4.0,0.5,0.25);o1=vec4(0.5,floor(uv.y*8.0)/8.0,0.125,floor(uv.x*2.0)/2.0);}\n");
        glUseProgram(p);
        glBindVertexArray(qva);
        glEnable(GL_BLEND);
        glBlendFuncSeparate(GL_SRC1_COLOR, GL_ONE_MINUS_SRC1_ALPHA, GL_ONE, GL_SRC1_ALPHA);
        glDrawArrays(GL_TRIANGLES, 0, 6);
        glBlendFunc(GL_ONE, GL_ZERO);
        glDisable(GL_BLEND);
        static float fp[64 * 64 * 4];
        glReadPixels(0, 0, 64, 64, GL_RGBA, GL_FLOAT, fp);
        unsigned long h = fnv(fp, sizeof fp);
        const float *a = fp + 4 * (20 * 64 + 40);
        printf("dual_source %016lx p(40,20)=%g,%g,%g,%g err=%x\n", h, a[0], a[1], a[2], a[3], glGetError());
        glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    }
    /* sample_mask: glSampleMaski(0, 0x5) on a 4x target (the pipeline's SampleMask) and
     * glMinSampleShading(1.0) (per-sample shading) with a gl_SampleID color, resolved. */
    {
        GLuint rb, mf;
        glGenRenderbuffers(1, &rb);
        glBindRenderbuffer(GL_RENDERBUFFER, rb);
        glRenderbufferStorageMultisample(GL_RENDERBUFFER, 4, GL_RGBA8, 64, 64);
        glGenFramebuffers(1, &mf);
        glBindFramebuffer(GL_FRAMEBUFFER, mf);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
        glClearColor(0, 0, 0, 0);
        glClear(GL_COLOR_BUFFER_BIT);
        GLuint p = prog(VS, "#version 420 core\n#extension GL_ARB_sample_shading : require\nin vec2 uv;out vec4 o;void main(){o=vec4(float(gl_SampleID)*60.0/255.0,uv.x<0.5?240.0/255.0:0.0,120.0/255.0,1.0);}\n");
        glUseProgram(p);
        glBindVertexArray(qva);
        glEnable(GL_SAMPLE_MASK);
        glSampleMaski(0, 0x5);
        glEnable(GL_SAMPLE_SHADING);
        glMinSampleShading(1.0f);
        glDrawArrays(GL_TRIANGLES, 0, 6);
        glDisable(GL_SAMPLE_SHADING);
        glDisable(GL_SAMPLE_MASK);
        glBindFramebuffer(GL_READ_FRAMEBUFFER, mf);
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo);
        glBlitFramebuffer(0, 0, 64, 64, 0, 0, 64, 64, GL_COLOR_BUFFER_BIT, GL_NEAREST);
        glBindFramebuffer(GL_FRAMEBUFFER, fbo);
        glClearColor(0, 0, 0, 1);
        dump("sample_mask");
    }
    /* rect_restart: a sampler2DRect read with unnormalized coordinates, and a triangle strip
     * with a custom primitive-restart index (glPrimitiveRestartIndex(7)). */
    {
        unsigned char t[5 * 3 * 4];
        for (int i = 0; i < 15; i++) {
            t[4 * i] = (unsigned char)(i * 17);
            t[4 * i + 1] = (unsigned char)(255 - i * 13);
            t[4 * i + 2] = 90;
            t[4 * i + 3] = 255;
        }
        GLuint tex;
        glGenTextures(1, &tex);
        glBindTexture(GL_TEXTURE_RECTANGLE, tex);
        glTexImage2D(GL_TEXTURE_RECTANGLE, 0, GL_RGBA8, 5, 3, 0, GL_RGBA, GL_UNSIGNED_BYTE, t);
        glTexParameteri(GL_TEXTURE_RECTANGLE, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_RECTANGLE, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        const float v[16] = {-1, -1, -1, 0, 0, -1, 0, 0, 0.25f, 0.25f, 1, 0.25f, 0.25f, 1, 1, 1};
        GLuint va = quad_vao(v, sizeof v, 2);
        const unsigned short idx[9] = {0, 1, 2, 3, 7, 4, 5, 6, 7};
        GLuint ib;
        glGenBuffers(1, &ib);
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ib);
        glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof idx, idx, GL_STATIC_DRAW);
        GLuint p = prog("#version 420 core\nlayout(location=0) in vec2 pos;out vec2 uv;void main(){uv=pos*0.5+0.5;gl_Position=vec4(pos,0.0,1.0);}\n",
                        "#version 420 core\nin vec2 uv;uniform sampler2DRect t;out vec4 o;void main(){o=texture(t,uv*vec2(5.0,3.0));}\n");
        glUseProgram(p);
        glUniform1i(glGetUniformLocation(p, "t"), 0);
        glClear(GL_COLOR_BUFFER_BIT);
        glEnable(GL_PRIMITIVE_RESTART);
        glPrimitiveRestartIndex(7);
        glDrawElements(GL_TRIANGLE_STRIP, 9, GL_UNSIGNED_SHORT, 0);
        glDisable(GL_PRIMITIVE_RESTART);
        dump("rect_restart");
        (void)va;
    }
    /* blend_depth: blending with GL_CONSTANT_COLOR / GL_ONE_MINUS_CONSTANT_COLOR and
     * glBlendEquation(GL_MAX) on an RGBA16F target, then a depth-only pass (color mask off) with
     * GL_GREATER and glDepthMask toggling, read as halves. (Not GL_CONSTANT_ALPHA: Mesa 22.3
     * passes the whole blend color for it when the alpha factor also uses it.) */
    {
        GLuint ft, ff, ds;
        glGenTextures(1, &ft);
        glBindTexture(GL_TEXTURE_2D, ft);
        glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA16F, 64, 64);
        glGenRenderbuffers(1, &ds);
        glBindRenderbuffer(GL_RENDERBUFFER, ds);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT16, 64, 64);
        glGenFramebuffers(1, &ff);
        glBindFramebuffer(GL_FRAMEBUFFER, ff);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, ft, 0);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, ds);
        const float cl[4] = {0.25f, 0.5f, 0.75f, 0.5f};
        glClearBufferfv(GL_COLOR, 0, cl);
        glClearBufferfi(GL_DEPTH_STENCIL, 0, 0.5f, 0);
        glClearDepth(0.5);
        glClear(GL_DEPTH_BUFFER_BIT);
        GLuint p = prog("#version 420 core\nlayout(location=0) in vec2 pos;uniform float z;out vec2 uv;void main(){uv=pos*0.5+0.5;gl_Position=vec4(pos,z,1.0);}\n",
                        "#version 420 core\nin vec2 uv;uniform vec4 c;out vec4 o;void main(){o=c*vec4(floor(uv*4.0)/4.0,1.0,1.0);}\n");
        glUseProgram(p);
        glBindVertexArray(qva);
        GLint zl = glGetUniformLocation(p, "z"), cl2 = glGetUniformLocation(p, "c");
        glEnable(GL_BLEND);
        glBlendColor(0.25f, 0.5f, 0.75f, 0.25f);
        glBlendFunc(GL_CONSTANT_COLOR, GL_ONE_MINUS_CONSTANT_COLOR);
        glUniform1f(zl, 0.0f);
        glUniform4f(cl2, 1, 1, 1, 1);
        glDrawArrays(GL_TRIANGLES, 0, 6);
        glBlendEquation(GL_MAX);
        glUniform4f(cl2, 0.5f, 0.5f, 0.5f, 0.75f);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glBlendEquation(GL_FUNC_ADD);
        glDisable(GL_BLEND);
        glEnable(GL_DEPTH_TEST);
        glDepthFunc(GL_GREATER);
        glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
        glUniform1f(zl, 0.5f);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
        glDepthMask(GL_FALSE);
        glUniform1f(zl, 0.25f);
        glUniform4f(cl2, 0, 1, 0, 1);
        glDrawArrays(GL_TRIANGLES, 0, 6);
        glDepthMask(GL_TRUE);
        glDisable(GL_DEPTH_TEST);
        static unsigned short hp[64 * 64 * 4];
        glReadPixels(0, 0, 64, 64, GL_RGBA, GL_HALF_FLOAT, hp);
        unsigned long h = fnv(hp, sizeof hp);
        printf("blend_depth %016lx p(40,20)=%04x,%04x,%04x,%04x err=%x\n", h, hp[4 * (20 * 64 + 40)], hp[4 * (20 * 64 + 40) + 1],
               hp[4 * (20 * 64 + 40) + 2], hp[4 * (20 * 64 + 40) + 3], glGetError());
        glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    }
    /* copy_buffer: glCopyBufferSubData (CopyBufferRegion) at unaligned offsets, read back. */
    {
        unsigned char t[2048];
        for (int i = 0; i < 2048; i++) t[i] = (unsigned char)(i * 7 + i / 64);
        GLuint bb[2];
        glGenBuffers(2, bb);
        glBindBuffer(GL_COPY_READ_BUFFER, bb[0]);
        glBufferData(GL_COPY_READ_BUFFER, sizeof t, t, GL_STATIC_DRAW);
        glBindBuffer(GL_COPY_WRITE_BUFFER, bb[1]);
        glBufferData(GL_COPY_WRITE_BUFFER, sizeof t, 0, GL_STATIC_DRAW);
        glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 100, 36, 500);
        unsigned char back[1024];
        glGetBufferSubData(GL_COPY_WRITE_BUFFER, 0, sizeof back, back);
        printf("copy_buffer %016lx b[36]=%u b[535]=%u err=%x\n", fnv(back, sizeof back), back[36], back[535], glGetError());
    }
    /* multi_draw: glMultiDrawArraysIndirectCountARB with three commands and a count buffer of
     * two, gl_DrawIDARB and gl_BaseInstanceARB in the shader (ExecuteIndirect with a count
     * buffer and per-draw root constants). */
    {
        typedef void (*MDAIC)(GLenum, const void *, GLintptr, GLsizei, GLsizei);
        MDAIC md = (MDAIC)eglGetProcAddress("glMultiDrawArraysIndirectCountARB");
        const unsigned cmds[12] = {3, 1, 0, 0, 3, 2, 3, 5, 3, 1, 0, 0};
        const unsigned count = 2;
        GLuint ib, cb;
        glGenBuffers(1, &ib);
        glBindBuffer(GL_DRAW_INDIRECT_BUFFER, ib);
        glBufferData(GL_DRAW_INDIRECT_BUFFER, sizeof cmds, cmds, GL_STATIC_DRAW);
        glGenBuffers(1, &cb);
        glBindBuffer(0x80EE /* GL_PARAMETER_BUFFER_ARB */, cb);
        glBufferData(0x80EE, sizeof count, &count, GL_STATIC_DRAW);
        GLuint p = prog("#version 420 core\n#extension GL_ARB_shader_draw_parameters : require\nlayout(location=0) in vec2 pos;flat out vec4 c;\n"
                        "void main(){c=vec4(float(gl_DrawIDARB)*0.5+0.25,float(gl_BaseInstanceARB)/8.0,float(gl_InstanceID)*0.5+0.25,1.0);gl_Position=vec4(pos*0.5+vec2(float(gl_InstanceID)*0.5-0.25,float(gl_DrawIDARB)*0.5-0.25),0.0,1.0);}\n",
                        "#version 420 core\nflat in vec4 c;out vec4 o;void main(){o=c;}\n");
        glUseProgram(p);
        glBindVertexArray(qva);
        glClear(GL_COLOR_BUFFER_BIT);
        if (md) md(GL_TRIANGLES, 0, 0, 3, 16);
        glBindBuffer(GL_DRAW_INDIRECT_BUFFER, 0);
        dump("multi_draw");
    }
    /* bc_textures: BC7 blocks twice (one sampled transposed), BC6H signed and BC6H unsigned
     * float blocks, all of pseudo-random bits, sampled NEAREST, one texture per quadrant. */
    {
        unsigned seed = 12345u;
        unsigned char blocks[16 * 16];
        for (size_t i = 0; i < sizeof blocks; i++) { seed = seed * 1103515245u + 12345u; blocks[i] = (unsigned char)(seed >> 16); }
        const GLenum fmts[4] = {GL_COMPRESSED_RGBA_BPTC_UNORM, GL_COMPRESSED_RGB_BPTC_SIGNED_FLOAT, GL_COMPRESSED_RGBA_BPTC_UNORM, GL_COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT};
        const int bsize[4] = {16, 16, 16, 16};
        GLuint tex[4];
        glGenTextures(4, tex);
        for (int k = 0; k < 4; k++) {
            glActiveTexture(GL_TEXTURE0 + k);
            glBindTexture(GL_TEXTURE_2D, tex[k]);
            glCompressedTexImage2D(GL_TEXTURE_2D, 0, fmts[k], 16, 16, 0, bsize[k] * 16, blocks + (k == 2 ? 7 : 0));
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        }
        GLuint p = prog(VS, "#version 420 core\nin vec2 uv;layout(binding=0) uniform sampler2D a;layout(binding=1) uniform sampler2D b;layout(binding=2) uniform sampler2D c;layout(binding=3) uniform sampler2D d;out vec4 o;\n"
                            "void main(){vec2 t=fract(uv*2.0);int q=int(uv.x*2.0)+2*int(uv.y*2.0);vec4 v=q==0?texture(a,t.yx):q==1?vec4(clamp(texture(b,t).rgb,-4.0,4.0)/8.0+0.5,1.0):q==2?texture(c,t):vec4(texture(d,t).rgb/(texture(d,t).rgb+1.0),1.0);o=v;}\n");
        glUseProgram(p);
        glBindVertexArray(qva);
        glDrawArrays(GL_TRIANGLES, 0, 6);
        glActiveTexture(GL_TEXTURE0);
        dump("bc_textures");
    }
    /* ms_fetch: a triangle drawn into a 4x multisample texture, every sample then read with
     * texelFetch(sampler2DMS) and shown side by side; and gl_SampleMaskIn per sample. */
    {
        GLuint ms, fb;
        glGenTextures(1, &ms);
        glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, ms);
        glTexImage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, 4, GL_RGBA8, 16, 16, GL_TRUE);
        glGenFramebuffers(1, &fb);
        glBindFramebuffer(GL_FRAMEBUFFER, fb);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D_MULTISAMPLE, ms, 0);
        glViewport(0, 0, 16, 16);
        glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        const float tri[6] = {-0.9f, -0.8f, 0.85f, -0.3f, -0.2f, 0.95f};
        GLuint va = quad_vao(tri, sizeof tri, 2);
        GLuint p = prog("#version 420 core\nlayout(location=0) in vec2 pos;void main(){gl_Position=vec4(pos,0.0,1.0);}\n",
                        "#version 420 core\nout vec4 o;void main(){o=vec4(float(gl_SampleMaskIn[0])/15.0,0.75,0.25,1.0);}\n");
        glUseProgram(p);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glBindFramebuffer(GL_FRAMEBUFFER, fbo);
        glViewport(0, 0, 64, 64);
        GLuint q = prog(VS, "#version 420 core\nin vec2 uv;uniform sampler2DMS m;out vec4 o;void main(){ivec2 c=ivec2(uv*32.0);int s=c.x/16+2*(c.y/16);o=texelFetch(m,c%16,s);}\n");
        glUseProgram(q);
        glBindVertexArray(qva);
        glDrawArrays(GL_TRIANGLES, 0, 6);
        (void)va;
        dump("ms_fetch");
    }
    /* pcf: a DEPTH_COMPONENT32F texture with a comparison and LINEAR filtering (D3D's
     * COMPARISON_MIN_MAG_LINEAR: four comparisons, bilinearly weighted). */
    {
        GLuint dt;
        glGenTextures(1, &dt);
        glBindTexture(GL_TEXTURE_2D, dt);
        float depth[8 * 8];
        for (int i = 0; i < 64; i++) depth[i] = (float)((i * 37) % 64) / 64.0f;
        glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT32F, 8, 8, 0, GL_DEPTH_COMPONENT, GL_FLOAT, depth);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_FUNC, GL_LEQUAL);
        GLuint p = prog(VS, "#version 420 core\nin vec2 uv;uniform sampler2DShadow s;out vec4 o;void main(){float r=floor(uv.y*4.0)/4.0+0.1;o=vec4(texture(s,vec3(uv,r)),r,0.5,1.0);}\n");
        glUseProgram(p);
        glBindVertexArray(qva);
        glDrawArrays(GL_TRIANGLES, 0, 6);
        dump("pcf");
    }
    /* queries: GL_PRIMITIVES_GENERATED and GL_SAMPLES_PASSED around two draws, and
     * GL_ANY_SAMPLES_PASSED around a draw under an empty scissor (printed as numbers). */
    {
        GLuint q[3];
        glGenQueries(3, q);
        GLuint p = prog("#version 420 core\nlayout(location=0) in vec2 pos;void main(){gl_Position=vec4(pos,0.0,1.0);}\n",
                        "#version 420 core\nout vec4 o;void main(){o=vec4(1.0);}\n");
        glUseProgram(p);
        glBindVertexArray(qva);
        glBeginQuery(GL_PRIMITIVES_GENERATED, q[0]);
        glBeginQuery(GL_SAMPLES_PASSED, q[1]);
        glDrawArrays(GL_TRIANGLES, 0, 6);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glEndQuery(GL_SAMPLES_PASSED);
        glEndQuery(GL_PRIMITIVES_GENERATED);
        /* Under an empty scissor rectangle: nothing passes. */
        glBeginQuery(GL_ANY_SAMPLES_PASSED, q[2]);
        glEnable(GL_SCISSOR_TEST);
        glScissor(0, 0, 0, 0);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glDisable(GL_SCISSOR_TEST);
        glEndQuery(GL_ANY_SAMPLES_PASSED);
        GLuint r[3];
        for (int i = 0; i < 3; i++) glGetQueryObjectuiv(q[i], GL_QUERY_RESULT, &r[i]);
        printf("queries %u %u %u err=%x\n", r[0], r[1], r[2], glGetError());
    }
    /* int_ops: GLSL's integer and packing built-ins in a fragment shader (bitfieldInsert,
     * uaddCarry, usubBorrow, umulExtended, imulExtended, bitCount, findLSB, packHalf2x16, frexp,
     * ldexp, roundEven, fma, trunc), folded into colors. */
    {
        GLuint p = prog(VS, "#version 420 core\n#extension GL_ARB_gpu_shader5 : require\nin vec2 uv;out vec4 o;\n"
                            "void main(){uvec2 c=uvec2(uv*64.0);uint a=c.x*2654435761u^c.y*40503u,b=c.y*2246822519u+c.x;\n"
                            "uint carry,borrow,hi,lo;int ihi,ilo;uint s=uaddCarry(a,b,carry);uint d=usubBorrow(a,b,borrow);umulExtended(a,b,hi,lo);imulExtended(int(a),int(b),ihi,ilo);\n"
                            "uint f=bitfieldInsert(a,b,int(c.x%20u),int(c.y%12u));uint n=uint(bitCount(a))+uint(findLSB(b|0x80000000u));\n"
                            "uint h=packHalf2x16(vec2(float(c.x)/7.0,-float(c.y)*3.25));vec2 uh=unpackHalf2x16(h);int e;float m=frexp(float(a&0xFFFFu)+0.5,e);\n"
                            "float l=ldexp(m,e-10);float r=roundEven(float(c.x)*0.5)+trunc(-float(c.y)*0.3)+fma(uv.x,3.0,uv.y);\n"
                            "uint x=s^d^hi^lo^uint(ihi)^uint(ilo)^f^n^h^floatBitsToUint(uh.x*uh.y+l+r)^carry^(borrow<<1);\n"
                            "o=vec4(float(x&255u),float((x>>8)&255u),float((x>>16)&255u),float(x>>24))/255.0;}\n");
        glUseProgram(p);
        glBindVertexArray(qva);
        glDrawArrays(GL_TRIANGLES, 0, 6);
        dump("int_ops");
    }
    /* shared_atomics: a compute shader (ARB_compute_shader) using groupshared atomics whose end
     * state does not depend on the order the threads run in: sums, maxima, ORs, one winning
     * compare-and-swap per cell, and exchanges summed with what is left; then storage-buffer
     * atomics gather every group's results (printed as "shared_atomics HASH"). */
    {
        GLuint p = compute_prog(
            "#version 420 core\n#extension GL_ARB_compute_shader : require\n#extension GL_ARB_shader_storage_buffer_object : require\n"
            "layout(local_size_x=64) in;layout(std430,binding=0) buffer B{uint v[];};shared uint add[8],mx[8],orr[8],win[4],cas[4],xch,acc;\n"
            "void main(){uint i=gl_LocalInvocationIndex;if(i<8u){add[i]=0u;mx[i]=0u;orr[i]=0u;}if(i<4u){win[i]=0u;cas[i]=0u;}if(i==0u){xch=0u;acc=0u;}barrier();\n"
            "atomicAdd(add[i%8u],i+1u);atomicMax(mx[(i*3u)%8u],i*i+gl_WorkGroupID.x);atomicOr(orr[i%5u],1u<<(i%31u));\n"
            "if(atomicCompSwap(cas[i%4u],0u,i+1u)==0u)atomicAdd(win[i%4u],1u);atomicAdd(acc,atomicExchange(xch,i+1u));barrier();\n"
            "if(i<8u){atomicAdd(v[i],add[i]);atomicMax(v[8u+i],mx[i]);atomicOr(v[16u+i],orr[i]);}if(i<4u)atomicAdd(v[24u+i],win[i]);if(i==0u)atomicAdd(v[28],acc+xch);}\n");
        GLuint sb;
        glGenBuffers(1, &sb);
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, sb);
        unsigned init[29] = {0};
        glBufferData(GL_SHADER_STORAGE_BUFFER, sizeof init, init, GL_DYNAMIC_READ);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, sb);
        glUseProgram(p);
        glDispatchCompute(4, 1, 1);
        glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
        unsigned out[29];
        glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, sizeof out, out);
        unsigned long h = fnv(out, sizeof out);
        printf("shared_atomics %016lx v[0]=%u v[24]=%u v[28]=%u err=%x\n", h, out[0], out[24], out[28], glGetError());
    }
    /* sampler_array: a sampler2D[4] and a uniform block array indexed with dynamically uniform
     * values (descriptor ranges indexed in the shader). */
    {
        GLuint tex[4];
        glGenTextures(4, tex);
        for (int k = 0; k < 4; k++) {
            unsigned char t[4 * 4 * 4];
            for (int i = 0; i < 16; i++) { t[4*i] = (unsigned char)(60 * k + 10); t[4*i+1] = (unsigned char)(i * 16); t[4*i+2] = (unsigned char)(200 - 40 * k); t[4*i+3] = 255; }
            glActiveTexture(GL_TEXTURE0 + k);
            glBindTexture(GL_TEXTURE_2D, tex[k]);
            glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, t);
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        }
        glActiveTexture(GL_TEXTURE0);
        GLuint ub[3];
        glGenBuffers(3, ub);
        for (int k = 0; k < 3; k++) {
            float v[4] = {0.25f * (float)k, 0.5f, 1.0f - 0.25f * (float)k, 1.0f};
            glBindBuffer(GL_UNIFORM_BUFFER, ub[k]);
            glBufferData(GL_UNIFORM_BUFFER, sizeof v, v, GL_STATIC_DRAW);
            glBindBufferBase(GL_UNIFORM_BUFFER, (GLuint)k, ub[k]);
        }
        GLuint p = prog(VS, "#version 420 core\n#extension GL_ARB_gpu_shader5 : require\nin vec2 uv;layout(binding=0) uniform sampler2D s[4];layout(std140,binding=0) uniform U{vec4 c;} u[3];uniform int pick;out vec4 o;\n"
                            "void main(){o=texture(s[pick],uv)*0.4+u[pick%3].c*0.35+texture(s[(pick+1)&3],uv.yx)*0.2;}\n");
        glUseProgram(p);
        glBindVertexArray(qva);
        for (int k = 0; k < 4; k++) {
            glUniform1i(glGetUniformLocation(p, "pick"), k);
            glViewport(16 * k, 0, 16, 64);
            glDrawArrays(GL_TRIANGLES, 0, 6);
        }
        glViewport(0, 0, 64, 64);
        dump("sampler_array");
    }
    /* ssbo_ops: a storage buffer of std430 structs with a vec3, its unsized array's length(),
     * atomicCompSwap and atomicExchange on buffer words (printed as "ssbo_ops HASH"). */
    {
        GLuint p = compute_prog(
            "#version 420 core\n#extension GL_ARB_compute_shader : require\n#extension GL_ARB_shader_storage_buffer_object : require\n"
            "layout(local_size_x=16) in;struct S{vec3 p;uint n;};layout(std430,binding=1) buffer B{uint count;uint flag[4];S s[];};\n"
            "void main(){uint i=gl_GlobalInvocationID.x;uint len=uint(s.length());if(i<len){s[i].p=s[i].p*2.0+vec3(float(i));s[i].n=len*100u+i;}\n"
            "atomicCompSwap(flag[i%4u],0u,i+1u);atomicAdd(count,1u);atomicExchange(flag[3],7u);}\n");
        float init[1 + 4 + 10 * 4];
        memset(init, 0, sizeof init);
        for (int i = 0; i < 10; i++) { init[5 + 4 * i] = (float)i; init[6 + 4 * i] = 0.5f; init[7 + 4 * i] = -(float)i; }
        GLuint sb;
        glGenBuffers(1, &sb);
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, sb);
        glBufferData(GL_SHADER_STORAGE_BUFFER, sizeof init + 12, NULL, GL_DYNAMIC_READ);
        glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, 4, init);
        glBufferSubData(GL_SHADER_STORAGE_BUFFER, 4, 16, init + 1);
        /* std430: the struct array starts at 32 (vec3 alignment 16). */
        glBufferSubData(GL_SHADER_STORAGE_BUFFER, 32, 40 * 4, init + 5);
        glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 1, sb, 0, 32 + 40 * 4);
        glUseProgram(p);
        glDispatchCompute(1, 1, 1);
        glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
        unsigned out[8 + 40];
        glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, sizeof out, out);
        /* flag[0..2] hold the first thread to reach them: order-dependent, so only flag[3]. */
        printf("ssbo_ops count=%u flag3=%u n0=%u n9=%u p9=%g,%g,%g err=%x\n", out[0], out[4], out[8 + 3], out[8 + 39], *(float *)&out[8 + 36], *(float *)&out[8 + 37], *(float *)&out[8 + 38], glGetError());
    }
    /* image_formats: a compute shader writing an r32f 3D image and an rgba16f 2D array image
     * (imageStore, imageSize), then both sampled in a fragment shader. */
    {
        GLuint t3, ta;
        glGenTextures(1, &t3);
        glBindTexture(GL_TEXTURE_3D, t3);
        glTexStorage3D(GL_TEXTURE_3D, 1, GL_R32F, 8, 8, 4);
        glGenTextures(1, &ta);
        glBindTexture(GL_TEXTURE_2D_ARRAY, ta);
        glTexStorage3D(GL_TEXTURE_2D_ARRAY, 1, GL_RGBA16F, 8, 8, 3);
        GLuint p = compute_prog(
            "#version 420 core\n#extension GL_ARB_compute_shader : require\n#extension GL_ARB_shader_image_size : require\n"
            "layout(local_size_x=8,local_size_y=8) in;layout(r32f,binding=0) writeonly uniform image3D v;layout(rgba16f,binding=1) writeonly uniform image2DArray a;\n"
            "void main(){ivec3 g=ivec3(gl_GlobalInvocationID);ivec3 sv=imageSize(v),sa=imageSize(a);if(g.z<sv.z)imageStore(v,g,vec4(float(g.x+g.y*8+g.z*64)/256.0));\n"
            "if(g.z<sa.z)imageStore(a,g,vec4(float(g.x)/8.0,float(g.y)/8.0,float(g.z)/4.0,float(sa.z)/4.0));}\n");
        glUseProgram(p);
        glBindImageTexture(0, t3, 0, GL_TRUE, 0, GL_WRITE_ONLY, GL_R32F);
        glBindImageTexture(1, ta, 0, GL_TRUE, 0, GL_WRITE_ONLY, GL_RGBA16F);
        glDispatchCompute(1, 1, 4);
        glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT);
        glActiveTexture(GL_TEXTURE0);
        glBindTexture(GL_TEXTURE_3D, t3);
        glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glActiveTexture(GL_TEXTURE1);
        glBindTexture(GL_TEXTURE_2D_ARRAY, ta);
        glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glActiveTexture(GL_TEXTURE0);
        GLuint q = prog(VS, "#version 420 core\nin vec2 uv;layout(binding=0) uniform sampler3D v;layout(binding=1) uniform sampler2DArray a;out vec4 o;\n"
                            "void main(){float z=floor(uv.y*4.0);vec4 x=texture(a,vec3(fract(uv*vec2(1.0,4.0)),z));o=vec4(texture(v,vec3(uv.x,fract(uv.y*4.0),(z+0.5)/4.0)).r,x.x,x.y*0.5+x.z*0.5,x.w);}\n");
        glUseProgram(q);
        glBindVertexArray(qva);
        glDrawArrays(GL_TRIANGLES, 0, 6);
        dump("image_formats");
    }
    /* fans: a triangle fan with a restart index, drawn from 8-bit indices (D3D12 has neither:
     * Mesa rewrites them into 16-bit triangle lists), flat integers from the first vertex (Mesa
     * 22.3 reads only float flat varyings at GL's default last vertex). */
    {
        const float pts[16] = {0.0f, 0.0f, 0.9f, 0.1f, 0.6f, 0.7f, -0.1f, 0.95f, -0.8f, 0.4f, -0.7f, -0.6f, 0.2f, -0.9f, 0.85f, -0.5f};
        quad_vao(pts, sizeof pts, 2);
        const unsigned char idx[12] = {0, 1, 2, 3, 4, 255, 0, 5, 6, 7, 1, 0};
        GLuint ib;
        glGenBuffers(1, &ib);
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ib);
        glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof idx, idx, GL_STATIC_DRAW);
        GLuint p = prog("#version 420 core\nlayout(location=0) in vec2 pos;flat out int id;void main(){id=gl_VertexID;gl_Position=vec4(pos,0.0,1.0);}\n",
                        "#version 420 core\nflat in int id;out vec4 o;void main(){o=vec4(float(id)/8.0,float(gl_PrimitiveID)/8.0,0.5,1.0);}\n");
        glUseProgram(p);
        glEnable(GL_PRIMITIVE_RESTART);
        glPrimitiveRestartIndex(255);
        glProvokingVertex(GL_FIRST_VERTEX_CONVENTION);
        glClear(GL_COLOR_BUFFER_BIT);
        glDrawElements(GL_TRIANGLE_FAN, 11, GL_UNSIGNED_BYTE, 0);
        glProvokingVertex(GL_LAST_VERTEX_CONVENTION);
        glDisable(GL_PRIMITIVE_RESTART);
        dump("fans");
    }
    /* pbo: a texture uploaded from a pixel-unpack buffer at an offset with GL_UNPACK_ROW_LENGTH,
     * drawn, then read back into a pixel-pack buffer at an offset (texture <-> buffer copies
     * with pitches D3D12 aligns to 256 bytes). */
    {
        unsigned char src[40 * 30 * 4 + 64];
        for (size_t i = 0; i < sizeof src; i++) src[i] = (unsigned char)(i * 7 + (i >> 8) * 13);
        GLuint ub;
        glGenBuffers(1, &ub);
        glBindBuffer(GL_PIXEL_UNPACK_BUFFER, ub);
        glBufferData(GL_PIXEL_UNPACK_BUFFER, sizeof src, src, GL_STATIC_DRAW);
        GLuint tex;
        glGenTextures(1, &tex);
        glBindTexture(GL_TEXTURE_2D, tex);
        glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 33, 29);
        glPixelStorei(GL_UNPACK_ROW_LENGTH, 40);
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 33, 29, GL_RGBA, GL_UNSIGNED_BYTE, (void *)64);
        glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
        glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        GLuint p = prog(VS, "#version 420 core\nin vec2 uv;uniform sampler2D t;out vec4 o;void main(){o=texture(t,uv);}\n");
        glUseProgram(p);
        glBindVertexArray(qva);
        glDrawArrays(GL_TRIANGLES, 0, 6);
        dump("pbo");
        GLuint pb;
        glGenBuffers(1, &pb);
        glBindBuffer(GL_PIXEL_PACK_BUFFER, pb);
        glBufferData(GL_PIXEL_PACK_BUFFER, 100 + 37 * 21 * 4, NULL, GL_STREAM_READ);
        glReadPixels(3, 5, 37, 21, GL_RGBA, GL_UNSIGNED_BYTE, (void *)100);
        unsigned char back[100 + 37 * 21 * 4];
        glGetBufferSubData(GL_PIXEL_PACK_BUFFER, 0, sizeof back, back);
        glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
        unsigned long h = fnv(back + 100, sizeof back - 100);
        printf("pbo_read %016lx err=%x\n", h, glGetError());
    }
    /* dattrib: double-precision vertex attributes (dvec2 positions, a double weight) read with
     * glVertexAttribLPointer. */
    {
        const double pts[9] = {-0.9, -0.9, 0.25, 0.9, -0.5, 0.5, -0.3, 0.9, 0.75};
        GLuint va, b;
        glGenVertexArrays(1, &va);
        glBindVertexArray(va);
        glGenBuffers(1, &b);
        glBindBuffer(GL_ARRAY_BUFFER, b);
        glBufferData(GL_ARRAY_BUFFER, sizeof pts, pts, GL_STATIC_DRAW);
        glVertexAttribLPointer(0, 2, GL_DOUBLE, 24, 0);
        glVertexAttribLPointer(1, 1, GL_DOUBLE, 24, (void *)16);
        glEnableVertexAttribArray(0);
        glEnableVertexAttribArray(1);
        GLuint p = prog("#version 420 core\nlayout(location=0) in dvec2 pos;layout(location=1) in double w;out float c;void main(){c=float(w*2.0);gl_Position=vec4(vec2(pos*0.75lf),0.0,1.0);}\n",
                        "#version 420 core\nin float c;out vec4 o;void main(){o=vec4(floor(c*4.0)/4.0+0.125,0.5,0.25,1.0);}\n");
        glUseProgram(p);
        glClear(GL_COLOR_BUFFER_BIT);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        dump("dattrib");
    }
    /* frag_coord: gl_FragCoord with layout(origin_upper_left, pixel_center_integer), and
     * noperspective, perspective and flat (first vertex) varyings on a triangle with w != 1. */
    {
        const float tri[12] = {-0.9f, -0.9f, 0.5f, 1.0f, 1.6f, -0.4f, 0.0f, 2.0f, -0.2f, 0.9f, 0.5f, 1.0f};
        GLuint va, b;
        glGenVertexArrays(1, &va);
        glBindVertexArray(va);
        glGenBuffers(1, &b);
        glBindBuffer(GL_ARRAY_BUFFER, b);
        glBufferData(GL_ARRAY_BUFFER, sizeof tri, tri, GL_STATIC_DRAW);
        glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, 0);
        glEnableVertexAttribArray(0);
        GLuint p = prog("#version 420 core\nlayout(location=0) in vec4 pos;noperspective out float np;out float pe;flat out int f;void main(){np=float(gl_VertexID)*0.5;pe=np;f=gl_VertexID+1;gl_Position=pos;}\n",
                        "#version 420 core\nlayout(origin_upper_left, pixel_center_integer) in vec4 gl_FragCoord;noperspective in float np;in float pe;flat in int f;out vec4 o;\n"
                        "void main(){o=vec4(floor(gl_FragCoord.xy/8.0)/8.0,floor(np*8.0+0.37)/8.0+floor(pe*4.0+0.21)/32.0,float(f)/4.0);}\n");
        glUseProgram(p);
        glProvokingVertex(GL_FIRST_VERTEX_CONVENTION);
        glClear(GL_COLOR_BUFFER_BIT);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glProvokingVertex(GL_LAST_VERTEX_CONVENTION);
        dump("frag_coord");
    }
    /* stencil_wrap: INCR_WRAP, DECR_WRAP and INVERT with read and write masks on a
     * DEPTH24_STENCIL8 renderbuffer, the stencil then shown by EQUAL tests. */
    {
        GLuint rb, fb;
        glGenRenderbuffers(1, &rb);
        glBindRenderbuffer(GL_RENDERBUFFER, rb);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, 64, 64);
        glGenFramebuffers(1, &fb);
        glBindFramebuffer(GL_FRAMEBUFFER, fb);
        GLuint ct;
        glGenTextures(1, &ct);
        glBindTexture(GL_TEXTURE_2D, ct);
        glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 64, 64);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, ct, 0);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, rb);
        glClearStencil(1);
        glClearColor(0, 0, 0, 1);
        glClear(GL_COLOR_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
        GLuint p = prog("#version 420 core\nlayout(location=0) in vec2 pos;uniform vec2 off;uniform float s;void main(){gl_Position=vec4(pos*s+off,0.0,1.0);}\n",
                        "#version 420 core\nuniform vec4 c;out vec4 o;void main(){o=c;}\n");
        glUseProgram(p);
        glBindVertexArray(qva);
        GLint off = glGetUniformLocation(p, "off"), sc = glGetUniformLocation(p, "s"), col = glGetUniformLocation(p, "c");
        glEnable(GL_STENCIL_TEST);
        glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
        glStencilFunc(GL_ALWAYS, 0, 0xFF);
        glUniform1f(sc, 0.5f);
        glStencilOp(GL_KEEP, GL_KEEP, GL_DECR_WRAP);
        glUniform2f(off, -0.5f, -0.5f); glDrawArrays(GL_TRIANGLES, 0, 6); glDrawArrays(GL_TRIANGLES, 0, 6);
        glStencilOp(GL_KEEP, GL_KEEP, GL_INCR_WRAP);
        glStencilMask(0x0F);
        glUniform2f(off, 0.5f, -0.5f); glDrawArrays(GL_TRIANGLES, 0, 6);
        glStencilOp(GL_KEEP, GL_KEEP, GL_INVERT);
        glStencilMask(0xF0);
        glUniform2f(off, -0.5f, 0.5f); glDrawArrays(GL_TRIANGLES, 0, 6);
        glStencilMask(0xFF);
        glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
        glStencilOp(GL_KEEP, GL_KEEP, GL_KEEP);
        glUniform1f(sc, 1.0f);
        glUniform2f(off, 0.0f, 0.0f);
        const unsigned vals[5] = {0xFF, 1, 2, 0xF1, 0x0F};
        for (int k = 0; k < 5; k++) {
            glStencilFunc(GL_EQUAL, (GLint)vals[k], k == 4 ? 0x0F : 0xFF);
            glUniform4f(col, 0.2f * (float)k + 0.13f, 0.9f - 0.15f * (float)k, 0.55f, 1.0f);
            glDrawArrays(GL_TRIANGLES, 0, 6);
        }
        glDisable(GL_STENCIL_TEST);
        dump("stencil_wrap");
        glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    }
    /* dispatch_indirect: glDispatchComputeIndirect (ExecuteIndirect with dispatch arguments) at
     * an offset in the indirect buffer (printed as numbers). */
    {
        GLuint p = compute_prog(
            "#version 420 core\n#extension GL_ARB_compute_shader : require\n#extension GL_ARB_shader_storage_buffer_object : require\n"
            "layout(local_size_x=4,local_size_y=2) in;layout(std430,binding=0) buffer B{uint v[];};\n"
            "void main(){uvec3 g=gl_WorkGroupID;atomicAdd(v[0],1u);atomicMax(v[1],g.x*100u+g.y*10u+g.z);atomicAdd(v[2],gl_NumWorkGroups.x*gl_NumWorkGroups.y*gl_NumWorkGroups.z);}\n");
        GLuint sb, ib;
        glGenBuffers(1, &sb);
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, sb);
        unsigned z[3] = {0, 0, 0};
        glBufferData(GL_SHADER_STORAGE_BUFFER, sizeof z, z, GL_DYNAMIC_READ);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, sb);
        const unsigned args[5] = {99, 3, 2, 4, 99};
        glGenBuffers(1, &ib);
        glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, ib);
        glBufferData(GL_DISPATCH_INDIRECT_BUFFER, sizeof args, args, GL_STATIC_DRAW);
        glUseProgram(p);
        glDispatchComputeIndirect(4);
        glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
        unsigned out[3];
        glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, sizeof out, out);
        printf("dispatch_indirect %u %u %u err=%x\n", out[0], out[1], out[2], glGetError());
    }
    /* getteximage: glGetTexImage of mip 1 of a 3D texture and of a 2D array texture's layers
     * after glTexSubImage3D at offsets (texture-to-buffer copies; printed as hashes). */
    {
        GLuint t3, ta;
        unsigned char data[16 * 16 * 8 * 4];
        for (size_t i = 0; i < sizeof data; i++) data[i] = (unsigned char)(i * 31 + (i >> 9));
        glGenTextures(1, &t3);
        glBindTexture(GL_TEXTURE_3D, t3);
        glTexStorage3D(GL_TEXTURE_3D, 3, GL_RGBA8, 16, 16, 8);
        glTexSubImage3D(GL_TEXTURE_3D, 1, 1, 2, 1, 6, 5, 3, GL_RGBA, GL_UNSIGNED_BYTE, data);
        unsigned char back[8 * 8 * 4 * 4];
        memset(back, 0, sizeof back);
        glGetTexImage(GL_TEXTURE_3D, 1, GL_RGBA, GL_UNSIGNED_BYTE, back);
        unsigned long h = fnv(back, sizeof back);
        glGenTextures(1, &ta);
        glBindTexture(GL_TEXTURE_2D_ARRAY, ta);
        glTexStorage3D(GL_TEXTURE_2D_ARRAY, 2, GL_RG16, 12, 10, 4);
        glTexSubImage3D(GL_TEXTURE_2D_ARRAY, 0, 3, 1, 1, 7, 6, 2, GL_RG, GL_UNSIGNED_SHORT, data);
        glTexSubImage3D(GL_TEXTURE_2D_ARRAY, 1, 0, 0, 3, 6, 5, 1, GL_RG, GL_UNSIGNED_SHORT, data + 100);
        unsigned char back2[12 * 10 * 4 * 4 + 6 * 5 * 4 * 4];
        memset(back2, 0, sizeof back2);
        glGetTexImage(GL_TEXTURE_2D_ARRAY, 0, GL_RG, GL_UNSIGNED_SHORT, back2);
        glGetTexImage(GL_TEXTURE_2D_ARRAY, 1, GL_RG, GL_UNSIGNED_SHORT, back2 + 12 * 10 * 4 * 4);
        unsigned long h2 = fnv(back2, sizeof back2);
        printf("getteximage %016lx %016lx err=%x\n", h, h2, glGetError());
    }
    /* blend_saturate: GL_SRC_ALPHA_SATURATE and GL_ONE_MINUS_DST_ALPHA factors on an RGBA32F
     * target (exact in float), read back as floats (printed). */
    {
        GLuint t, fb;
        glGenTextures(1, &t);
        glBindTexture(GL_TEXTURE_2D, t);
        glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA32F, 8, 8);
        glGenFramebuffers(1, &fb);
        glBindFramebuffer(GL_FRAMEBUFFER, fb);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t, 0);
        glViewport(0, 0, 8, 8);
        glClearColor(0.25f, 0.5f, 0.75f, 0.375f);
        glClear(GL_COLOR_BUFFER_BIT);
        GLuint p = prog(VS, "#version 420 core\nin vec2 uv;out vec4 o;void main(){o=vec4(0.5,0.25,2.0,0.75);}\n");
        glUseProgram(p);
        glBindVertexArray(qva);
        glEnable(GL_BLEND);
        glBlendFuncSeparate(GL_SRC_ALPHA_SATURATE, GL_ONE_MINUS_DST_ALPHA, GL_ONE, GL_DST_ALPHA);
        glDrawArrays(GL_TRIANGLES, 0, 6);
        glDisable(GL_BLEND);
        float px4[4];
        glReadPixels(3, 3, 1, 1, GL_RGBA, GL_FLOAT, px4);
        printf("blend_saturate %g %g %g %g err=%x\n", px4[0], px4[1], px4[2], px4[3], glGetError());
        glBindFramebuffer(GL_FRAMEBUFFER, fbo);
        glViewport(0, 0, 64, 64);
        glClearColor(0, 0, 0, 1);
    }
    /* drawbuffers_gap: glDrawBuffers with GL_NONE between two targets (an empty render target
     * slot) and a fragment shader writing three outputs. */
    {
        GLuint t[2], fb;
        glGenTextures(2, t);
        glGenFramebuffers(1, &fb);
        glBindFramebuffer(GL_FRAMEBUFFER, fb);
        for (int k = 0; k < 2; k++) {
            glBindTexture(GL_TEXTURE_2D, t[k]);
            glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 64, 64);
            glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + 2 * k, GL_TEXTURE_2D, t[k], 0);
        }
        const GLenum bufs[3] = {GL_COLOR_ATTACHMENT0, GL_NONE, GL_COLOR_ATTACHMENT2};
        glDrawBuffers(3, bufs);
        glClear(GL_COLOR_BUFFER_BIT);
        GLuint p = prog(VS, "#version 420 core\nin vec2 uv;layout(location=0) out vec4 a;layout(location=1) out vec4 b;layout(location=2) out vec4 c;void main(){a=vec4(uv,0.25,1.0);b=vec4(1.0);c=vec4(0.75,uv.yx,1.0);}\n");
        glUseProgram(p);
        glBindVertexArray(qva);
        glDrawArrays(GL_TRIANGLES, 0, 6);
        glReadBuffer(GL_COLOR_ATTACHMENT2);
        dump("drawbuffers_gap");
        glReadBuffer(GL_COLOR_ATTACHMENT0);
        glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    }
    /* tbo_rgb32f: a texture buffer of GL_RGB32F (a 12-byte-element buffer SRV) and GL_RG8I. */
    {
        float f[3 * 16];
        for (int i = 0; i < 48; i++) f[i] = (float)i / 47.0f;
        GLuint b[2], t[2];
        glGenBuffers(2, b);
        glGenTextures(2, t);
        glBindBuffer(GL_TEXTURE_BUFFER, b[0]);
        glBufferData(GL_TEXTURE_BUFFER, sizeof f, f, GL_STATIC_DRAW);
        signed char s8[32];
        for (int i = 0; i < 32; i++) s8[i] = (signed char)(i * 9 - 128);
        glBindBuffer(GL_TEXTURE_BUFFER, b[1]);
        glBufferData(GL_TEXTURE_BUFFER, sizeof s8, s8, GL_STATIC_DRAW);
        glActiveTexture(GL_TEXTURE0);
        glBindTexture(GL_TEXTURE_BUFFER, t[0]);
        glTexBuffer(GL_TEXTURE_BUFFER, GL_RGB32F, b[0]);
        glActiveTexture(GL_TEXTURE1);
        glBindTexture(GL_TEXTURE_BUFFER, t[1]);
        glTexBuffer(GL_TEXTURE_BUFFER, GL_RG8I, b[1]);
        glActiveTexture(GL_TEXTURE0);
        GLuint p = prog(VS, "#version 420 core\nin vec2 uv;layout(binding=0) uniform samplerBuffer a;layout(binding=1) uniform isamplerBuffer c;out vec4 o;\n"
                            "void main(){int i=int(uv.x*16.0);vec3 v=texelFetch(a,i).rgb;ivec2 w=texelFetch(c,int(uv.y*16.0)).rg;o=vec4(v.x,v.z,float(w.x+128)/256.0+0.001,float(textureSize(a)+textureSize(c))/32.0);}\n");
        glUseProgram(p);
        glBindVertexArray(qva);
        glDrawArrays(GL_TRIANGLES, 0, 6);
        dump("tbo_rgb32f");
    }
    /* counter_frag: an atomic counter (ARB_shader_atomic_counters) incremented by every fragment
     * of a triangle, and its value before each increment shown (printed count). */
    {
        GLuint ab;
        glGenBuffers(1, &ab);
        glBindBuffer(GL_ATOMIC_COUNTER_BUFFER, ab);
        unsigned zero[2] = {0, 0};
        glBufferData(GL_ATOMIC_COUNTER_BUFFER, sizeof zero, zero, GL_DYNAMIC_READ);
        glBindBufferBase(GL_ATOMIC_COUNTER_BUFFER, 0, ab);
        GLuint p = prog(VS, "#version 420 core\nin vec2 uv;layout(binding=0,offset=4) uniform atomic_uint n;out vec4 o;void main(){uint k=atomicCounterIncrement(n);o=vec4(uv,0.5,1.0);}\n");
        glUseProgram(p);
        glBindVertexArray(qva);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glMemoryBarrier(GL_ATOMIC_COUNTER_BARRIER_BIT);
        unsigned back[2];
        glGetBufferSubData(GL_ATOMIC_COUNTER_BUFFER, 0, sizeof back, back);
        printf("counter_frag %u %u err=%x\n", back[0], back[1], glGetError());
    }
    /* gather_int: textureGather on an isampler2D and a usampler2D, components 1 and 3. */
    {
        GLuint t[2];
        glGenTextures(2, t);
        int idata[4 * 4 * 4];
        for (int i = 0; i < 64; i++) idata[i] = i * 37 - 1000;
        glActiveTexture(GL_TEXTURE0);
        glBindTexture(GL_TEXTURE_2D, t[0]);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32I, 4, 4, 0, GL_RGBA_INTEGER, GL_INT, idata);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glActiveTexture(GL_TEXTURE1);
        glBindTexture(GL_TEXTURE_2D, t[1]);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA16UI, 4, 4, 0, GL_RGBA_INTEGER, GL_UNSIGNED_SHORT, idata);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glActiveTexture(GL_TEXTURE0);
        GLuint p = prog(VS, "#version 420 core\n#extension GL_ARB_gpu_shader5 : require\nin vec2 uv;layout(binding=0) uniform isampler2D a;layout(binding=1) uniform usampler2D b;out vec4 o;\n"
                            "void main(){ivec4 g=textureGather(a,uv,1);uvec4 h=textureGather(b,uv,3);o=vec4(float((g.x^g.y^g.z^g.w)&255)/255.0,float((h.x+h.y*3u+h.z*5u+h.w*7u)&255u)/255.0,0.5,1.0);}\n");
        glUseProgram(p);
        glBindVertexArray(qva);
        glDrawArrays(GL_TRIANGLES, 0, 6);
        dump("gather_int");
    }
    /* base_vertex_neg: glDrawElementsBaseVertex with a negative base vertex and
     * glDrawElementsInstancedBaseVertexBaseInstance, positions and colors from the indexed
     * vertices; plus a generic attribute left constant (glVertexAttrib4f, no array) and a
     * byte attribute at an odd offset in its buffer. */
    {
        float v[10 * 2];
        for (int i = 0; i < 10; i++) { v[2 * i] = -0.9f + 0.18f * (float)i; v[2 * i + 1] = (i & 1) ? 0.8f : -0.8f; }
        unsigned char bytes[1 + 10 * 4];
        for (int i = 0; i < 41; i++) bytes[i] = (unsigned char)(i * 23);
        GLuint va, b[3];
        glGenVertexArrays(1, &va);
        glBindVertexArray(va);
        glGenBuffers(3, b);
        glBindBuffer(GL_ARRAY_BUFFER, b[0]);
        glBufferData(GL_ARRAY_BUFFER, sizeof v, v, GL_STATIC_DRAW);
        glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, 0);
        glEnableVertexAttribArray(0);
        glBindBuffer(GL_ARRAY_BUFFER, b[1]);
        glBufferData(GL_ARRAY_BUFFER, sizeof bytes, bytes, GL_STATIC_DRAW);
        glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, 4, (void *)1);
        glEnableVertexAttribArray(1);
        glDisableVertexAttribArray(2);
        glVertexAttrib4f(2, 0.25f, 0.125f, 0.625f, 1.0f);
        const unsigned short idx[6] = {7, 8, 9, 8, 9, 10};
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, b[2]);
        glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof idx, idx, GL_STATIC_DRAW);
        GLuint p = prog("#version 420 core\nlayout(location=0) in vec2 pos;layout(location=1) in vec4 c;layout(location=2) in vec4 k;flat out vec4 col;\n"
                        "void main(){col=vec4(c.rg,k.b,float(gl_VertexID)/16.0+float(gl_InstanceID)/4.0);gl_Position=vec4(pos+vec2(0.0,float(gl_InstanceID)*0.05),0.0,1.0);}\n",
                        "#version 420 core\nflat in vec4 col;out vec4 o;void main(){o=col;}\n");
        glUseProgram(p);
        glProvokingVertex(GL_FIRST_VERTEX_CONVENTION);
        glClear(GL_COLOR_BUFFER_BIT);
        glDrawElementsBaseVertex(GL_TRIANGLES, 3, GL_UNSIGNED_SHORT, 0, -6);
        glDrawElementsInstancedBaseVertexBaseInstance(GL_TRIANGLES, 3, GL_UNSIGNED_SHORT, (void *)6, 2, -3, 5);
        glProvokingVertex(GL_LAST_VERTEX_CONVENTION);
        dump("base_vertex_neg");
    }
    /* stencil_export: a fragment shader writing gl_FragStencilRefARB (SV_StencilRef) with
     * REPLACE, the stencil then shown by EQUAL passes. */
    {
        GLuint rb, fb, ct;
        glGenRenderbuffers(1, &rb);
        glBindRenderbuffer(GL_RENDERBUFFER, rb);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, 64, 64);
        glGenTextures(1, &ct);
        glBindTexture(GL_TEXTURE_2D, ct);
        glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 64, 64);
        glGenFramebuffers(1, &fb);
        glBindFramebuffer(GL_FRAMEBUFFER, fb);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, ct, 0);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, rb);
        glClearStencil(0);
        glClearColor(0, 0, 0, 1);
        glClear(GL_COLOR_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
        GLuint p = prog(VS, "#version 420 core\n#extension GL_ARB_shader_stencil_export : require\nin vec2 uv;out vec4 o;void main(){o=vec4(0.0);gl_FragStencilRefARB=int(uv.x*4.0)+4*int(uv.y*4.0)+1;}\n");
        glUseProgram(p);
        glBindVertexArray(qva);
        glEnable(GL_STENCIL_TEST);
        glStencilFunc(GL_ALWAYS, 200, 0xFF);
        glStencilOp(GL_KEEP, GL_KEEP, GL_REPLACE);
        glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
        const float tri[6] = {-0.9f, -0.9f, 0.95f, -0.6f, -0.3f, 0.9f};
        GLuint va = quad_vao(tri, sizeof tri, 2);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
        glStencilOp(GL_KEEP, GL_KEEP, GL_KEEP);
        GLuint q = prog(VS, "#version 420 core\nin vec2 uv;uniform vec4 c;out vec4 o;void main(){o=c;}\n");
        glUseProgram(q);
        glBindVertexArray(qva);
        for (int k = 0; k <= 17; k++) {
            glStencilFunc(GL_EQUAL, k == 17 ? 200 : k, 0xFF);
            glUniform4f(glGetUniformLocation(q, "c"), (float)(k % 4) / 4.0f + 0.13f, (float)(k / 4) / 5.0f + 0.13f, k == 17 ? 0.91f : 0.31f, 1.0f);
            glDrawArrays(GL_TRIANGLES, 0, 6);
        }
        glDisable(GL_STENCIL_TEST);
        (void)va;
        dump("stencil_export");
        glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    }
    /* no_attachments: ARB_framebuffer_no_attachments — a 48x40 framebuffer with no attachment
     * (D3D12 draws with no render target or depth view, bounded by the viewport), the fragment
     * shader storing gl_FragCoord-derived colors into an image and counting fragments with an
     * image atomic; the image is then shown. */
    {
        GLuint img, cnt, fb;
        glGenTextures(1, &img);
        glBindTexture(GL_TEXTURE_2D, img);
        glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 64, 64);
        unsigned char zeros[64 * 64 * 4];
        memset(zeros, 0, sizeof zeros);
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 64, 64, GL_RGBA, GL_UNSIGNED_BYTE, zeros);
        glGenTextures(1, &cnt);
        glBindTexture(GL_TEXTURE_2D, cnt);
        glTexStorage2D(GL_TEXTURE_2D, 1, GL_R32UI, 1, 1);
        unsigned zero = 0;
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 1, 1, GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
        glGenFramebuffers(1, &fb);
        glBindFramebuffer(GL_FRAMEBUFFER, fb);
        glFramebufferParameteri(GL_FRAMEBUFFER, GL_FRAMEBUFFER_DEFAULT_WIDTH, 48);
        glFramebufferParameteri(GL_FRAMEBUFFER, GL_FRAMEBUFFER_DEFAULT_HEIGHT, 40);
        glViewport(0, 0, 48, 40);
        glBindImageTexture(0, img, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
        glBindImageTexture(1, cnt, 0, GL_FALSE, 0, GL_READ_WRITE, GL_R32UI);
        GLuint p = prog("#version 420 core\nlayout(location=0) in vec2 pos;void main(){gl_Position=vec4(pos*1.2,0.0,1.0);}\n",
                        "#version 420 core\nlayout(rgba8,binding=0) writeonly uniform image2D img;layout(r32ui,binding=1) uniform uimage2D n;\n"
                        "void main(){ivec2 c=ivec2(gl_FragCoord.xy);imageStore(img,c,vec4(vec2(c)/64.0,0.5,1.0));imageAtomicAdd(n,ivec2(0),1u);}\n");
        glUseProgram(p);
        glBindVertexArray(qva);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glMemoryBarrier(GL_ALL_BARRIER_BITS);
        unsigned count = 0;
        glBindTexture(GL_TEXTURE_2D, cnt);
        glGetTexImage(GL_TEXTURE_2D, 0, GL_RED_INTEGER, GL_UNSIGNED_INT, &count);
        glBindFramebuffer(GL_FRAMEBUFFER, fbo);
        glViewport(0, 0, 64, 64);
        glBindTexture(GL_TEXTURE_2D, img);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        GLuint q = prog(VS, "#version 420 core\nin vec2 uv;uniform sampler2D t;out vec4 o;void main(){o=texture(t,uv);}\n");
        glUseProgram(q);
        glDrawArrays(GL_TRIANGLES, 0, 6);
        printf("no_attachments_count %u\n", count);
        dump("no_attachments");
    }
    /* many_varyings: 28 vec4 varyings plus a flat ivec4 array and a noperspective vec2 array,
     * summed in the fragment shader (signature packing and linking of many rows). */
    {
        char vs[4096], fs[4096];
        int n = snprintf(vs, sizeof vs, "#version 420 core\nlayout(location=0) in vec2 pos;out vec4 v[28];flat out ivec4 fi[2];noperspective out vec2 np[3];\nvoid main(){for(int i=0;i<28;i++)v[i]=vec4(pos*float(i+1)/28.0,float(i)/28.0,1.0);fi[0]=ivec4(gl_VertexID);fi[1]=ivec4(7,8,9,10);for(int i=0;i<3;i++)np[i]=pos*0.5*float(i);gl_Position=vec4(pos,0.0,1.0);}\n");
        (void)n;
        snprintf(fs, sizeof fs, "#version 420 core\nin vec4 v[28];flat in ivec4 fi[2];noperspective in vec2 np[3];out vec4 o;\nvoid main(){vec4 s=vec4(0.0);for(int i=0;i<28;i++)s+=v[i]*(i%%2==0?1.0:-0.5);o=vec4(fract(s.xy*0.37),float(fi[0].x+fi[1].w)/16.0,0.875-0.375*step(0.0,np[1].x)+0.0625*step(0.0,np[2].y));}\n");
        GLuint p = prog(vs, fs);
        glUseProgram(p);
        const float tri[6] = {-0.9f, -0.8f, 0.85f, -0.3f, -0.2f, 0.95f};
        quad_vao(tri, sizeof tri, 2);
        glProvokingVertex(GL_FIRST_VERTEX_CONVENTION);
        glClear(GL_COLOR_BUFFER_BIT);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glProvokingVertex(GL_LAST_VERTEX_CONVENTION);
        dump("many_varyings");
    }
    /* many_textures: 20 sampled textures in one fragment shader (a descriptor table of 20
     * SRVs), each a 1x1 color. */
    {
        GLuint t[20];
        glGenTextures(20, t);
        for (int k = 0; k < 20; k++) {
            unsigned char c[4] = {(unsigned char)(k * 12 + 3), (unsigned char)(250 - k * 11), (unsigned char)(k * 37 % 251), 255};
            glActiveTexture(GL_TEXTURE0 + k);
            glBindTexture(GL_TEXTURE_2D, t[k]);
            glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, c);
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        }
        glActiveTexture(GL_TEXTURE0);
        char fs[4096];
        int at = snprintf(fs, sizeof fs, "#version 420 core\nin vec2 uv;");
        for (int k = 0; k < 20; k++) at += snprintf(fs + at, sizeof fs - (size_t)at, "layout(binding=%d) uniform sampler2D s%d;", k, k);
        at += snprintf(fs + at, sizeof fs - (size_t)at, "out vec4 o;void main(){int k=int(uv.x*5.0)+5*int(uv.y*4.0);vec4 c=vec4(0.0);");
        for (int k = 0; k < 20; k++) at += snprintf(fs + at, sizeof fs - (size_t)at, "if(k==%d)c=texture(s%d,uv);", k, k);
        snprintf(fs + at, sizeof fs - (size_t)at, "o=c;}\n");
        GLuint p = prog(VS, fs);
        glUseProgram(p);
        glBindVertexArray(qva);
        glDrawArrays(GL_TRIANGLES, 0, 6);
        dump("many_textures");
    }
    /* map_range: glMapBufferRange writes (GL_MAP_INVALIDATE_RANGE_BIT) into a vertex buffer
     * between draws, and glBufferSubData on a buffer the previous draw read. */
    {
        GLuint b, va;
        glGenVertexArrays(1, &va);
        glBindVertexArray(va);
        glGenBuffers(1, &b);
        glBindBuffer(GL_ARRAY_BUFFER, b);
        glBufferData(GL_ARRAY_BUFFER, 6 * 2 * sizeof(float), NULL, GL_DYNAMIC_DRAW);
        glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, 0);
        glEnableVertexAttribArray(0);
        GLuint p = prog("#version 420 core\nlayout(location=0) in vec2 pos;void main(){gl_Position=vec4(pos,0.0,1.0);}\n",
                        "#version 420 core\nuniform vec4 c;out vec4 o;void main(){o=c;}\n");
        glUseProgram(p);
        glClear(GL_COLOR_BUFFER_BIT);
        for (int k = 0; k < 3; k++) {
            float *m = (float *)glMapBufferRange(GL_ARRAY_BUFFER, 0, 6 * sizeof(float), GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_RANGE_BIT);
            float x = -0.9f + 0.6f * (float)k;
            const float tri[6] = {x, -0.9f, x + 0.5f, -0.9f, x, 0.5f};
            if (m) memcpy(m, tri, sizeof tri);
            glUnmapBuffer(GL_ARRAY_BUFFER);
            glUniform4f(glGetUniformLocation(p, "c"), 0.13f + 0.3f * (float)k, 0.77f, 0.33f, 1.0f);
            glDrawArrays(GL_TRIANGLES, 0, 3);
            const float up[6] = {x + 0.5f, 0.9f, x + 0.1f, 0.9f, x + 0.5f, -0.2f};
            glBufferSubData(GL_ARRAY_BUFFER, 0, sizeof up, up);
            glDrawArrays(GL_TRIANGLES, 0, 3);
        }
        dump("map_range");
    }
    /* sync: a glFenceSync waited with glClientWaitSync, and a timestamp query pair
     * (printed: the wait result and whether time moved forward). */
    {
        GLuint q[2];
        glGenQueries(2, q);
        glQueryCounter(q[0], GL_TIMESTAMP);
        glBindVertexArray(qva);
        glDrawArrays(GL_TRIANGLES, 0, 6);
        glQueryCounter(q[1], GL_TIMESTAMP);
        GLsync s = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
        GLenum w = glClientWaitSync(s, GL_SYNC_FLUSH_COMMANDS_BIT, 5000000000ull);
        GLuint64 t0 = 0, t1 = 0;
        glGetQueryObjectui64v(q[0], GL_QUERY_RESULT, &t0);
        glGetQueryObjectui64v(q[1], GL_QUERY_RESULT, &t1);
        glDeleteSync(s);
        printf("sync %s %d err=%x\n", (w == GL_ALREADY_SIGNALED || w == GL_CONDITION_SATISFIED) ? "signaled" : "not-signaled", t1 >= t0 && t0 != 0, glGetError());
    }
    /* compute_prefix: a Hillis-Steele prefix sum over 256 values in groupshared memory, with
     * barriers inside the loop, per group of 256 threads, 3 groups (printed as a hash). */
    {
        GLuint p = compute_prog(
            "#version 420 core\n#extension GL_ARB_compute_shader : require\n#extension GL_ARB_shader_storage_buffer_object : require\n"
            "#extension GL_ARB_arrays_of_arrays : require\nlayout(local_size_x=256) in;layout(std430,binding=0) buffer B{uint v[];};shared uint s[2][256];\n"
            "void main(){uint i=gl_LocalInvocationID.x,g=gl_WorkGroupID.x*256u;s[0][i]=v[g+i];barrier();uint src=0u;\n"
            "for(uint d=1u;d<256u;d<<=1u){uint x=s[src][i];if(i>=d)x+=s[src][i-d];s[1u-src][i]=x;src=1u-src;barrier();}\n"
            "v[g+i]=s[src][i];}\n");
        unsigned data[768];
        for (int i = 0; i < 768; i++) data[i] = (unsigned)(i * 7 % 13 + 1);
        GLuint sb;
        glGenBuffers(1, &sb);
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, sb);
        glBufferData(GL_SHADER_STORAGE_BUFFER, sizeof data, data, GL_DYNAMIC_READ);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, sb);
        glUseProgram(p);
        glDispatchCompute(3, 1, 1);
        glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
        unsigned out[768];
        glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, sizeof out, out);
        unsigned long h = fnv(out, sizeof out);
        printf("compute_prefix %016lx last=%u,%u,%u err=%x\n", h, out[255], out[511], out[767], glGetError());
    }
    /* compute_blur: an image filtered through a groupshared tile with a one-pixel halo (8x8
     * groups over a 32x32 rgba8 image, imageLoad/imageStore), then shown. */
    {
        GLuint src, dst;
        unsigned char px0[32 * 32 * 4];
        for (int i = 0; i < 32 * 32; i++) { px0[4*i] = (unsigned char)((i % 32) * 8); px0[4*i+1] = (unsigned char)((i / 32) * 8); px0[4*i+2] = (unsigned char)(((i % 32) ^ (i / 32)) * 8); px0[4*i+3] = 255; }
        glGenTextures(1, &src);
        glBindTexture(GL_TEXTURE_2D, src);
        glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 32, 32);
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 32, 32, GL_RGBA, GL_UNSIGNED_BYTE, px0);
        glGenTextures(1, &dst);
        glBindTexture(GL_TEXTURE_2D, dst);
        glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 32, 32);
        GLuint p = compute_prog(
            "#version 420 core\n#extension GL_ARB_compute_shader : require\n"
            "#extension GL_ARB_arrays_of_arrays : require\nlayout(local_size_x=8,local_size_y=8) in;layout(rgba8,binding=0) readonly uniform image2D a;layout(rgba8,binding=1) writeonly uniform image2D b;\n"
            "shared vec4 t[10][10];\n"
            "void main(){ivec2 l=ivec2(gl_LocalInvocationID.xy),g=ivec2(gl_WorkGroupID.xy)*8;\n"
            "for(int k=int(gl_LocalInvocationIndex);k<100;k+=64){ivec2 c=ivec2(k%10,k/10);t[c.y][c.x]=imageLoad(a,clamp(g+c-1,ivec2(0),ivec2(31)));}\n"
            "memoryBarrierShared();barrier();vec4 s=vec4(0.0);for(int y=0;y<3;y++)for(int x=0;x<3;x++)s+=t[l.y+y][l.x+x]*((x==1&&y==1)?0.51:0.06125);\n"
            "imageStore(b,g+l,s);}\n");
        glUseProgram(p);
        glBindImageTexture(0, src, 0, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA8);
        glBindImageTexture(1, dst, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
        glDispatchCompute(4, 4, 1);
        glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT);
        glBindTexture(GL_TEXTURE_2D, dst);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        GLuint q = prog(VS, "#version 420 core\nin vec2 uv;uniform sampler2D t;out vec4 o;void main(){o=texture(t,uv);}\n");
        glUseProgram(q);
        glBindVertexArray(qva);
        glDrawArrays(GL_TRIANGLES, 0, 6);
        dump("compute_blur");
    }
    /* compute_3d: a 3D dispatch of (4,4,4)-thread groups writing each thread's flattened ids
     * into a storage buffer (printed as a hash). */
    {
        GLuint p = compute_prog(
            "#version 420 core\n#extension GL_ARB_compute_shader : require\n#extension GL_ARB_shader_storage_buffer_object : require\n"
            "layout(local_size_x=4,local_size_y=4,local_size_z=4) in;layout(std430,binding=0) buffer B{uint v[];};\n"
            "void main(){uvec3 n=gl_NumWorkGroups*gl_WorkGroupSize;uvec3 id=gl_GlobalInvocationID;uint at=id.x+n.x*(id.y+n.y*id.z);\n"
            "v[at]=gl_LocalInvocationIndex*1000000u+gl_WorkGroupID.x*10000u+gl_WorkGroupID.y*100u+gl_WorkGroupID.z;}\n");
        GLuint sb;
        glGenBuffers(1, &sb);
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, sb);
        glBufferData(GL_SHADER_STORAGE_BUFFER, 8 * 12 * 8 * 4, NULL, GL_DYNAMIC_READ);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, sb);
        glUseProgram(p);
        glDispatchCompute(2, 3, 2);
        glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
        unsigned out[8 * 12 * 8];
        glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, sizeof out, out);
        unsigned long h = fnv(out, sizeof out);
        printf("compute_3d %016lx v[767]=%u err=%x\n", h, out[767], glGetError());
    }
    /* xfb_skip: transform feedback of interleaved varyings with gl_SkipComponents gaps into one
     * buffer, and of separate attributes into two buffers (SO declarations with gaps and
     * several slots), from a geometry shader emitting two triangles per input (printed). */
    {
        const char *vs = "#version 420 core\nlayout(location=0) in vec2 pos;out vec2 p;void main(){p=pos;}\n";
        const char *gs = "#version 420 core\nlayout(points) in;layout(triangle_strip,max_vertices=6) out;in vec2 p[];out vec4 a;out float b;out ivec2 c;\n"
                         "void main(){for(int t=0;t<2;t++){for(int k=0;k<3;k++){a=vec4(p[0],float(t),float(k));b=float(t*3+k)*0.5;c=ivec2(t,k*7);gl_Position=vec4(p[0]+vec2(float(k)*0.1,float(t)*0.1),0.0,1.0);EmitVertex();}EndPrimitive();}}\n";
        const char *fs = "#version 420 core\nout vec4 o;void main(){o=vec4(1.0);}\n";
        unsigned long hs[2];
        for (int mode = 0; mode < 2; mode++) {
            GLuint p = glCreateProgram();
            glAttachShader(p, shader(GL_VERTEX_SHADER, vs));
            glAttachShader(p, shader(GL_GEOMETRY_SHADER, gs));
            glAttachShader(p, shader(GL_FRAGMENT_SHADER, fs));
            if (mode == 0) {
                const char *v[5] = {"b", "gl_SkipComponents2", "a", "gl_SkipComponents1", "c"};
                glTransformFeedbackVaryings(p, 5, v, GL_INTERLEAVED_ATTRIBS);
            } else {
                const char *v[2] = {"a", "c"};
                glTransformFeedbackVaryings(p, 2, v, GL_SEPARATE_ATTRIBS);
            }
            glLinkProgram(p);
            GLuint b[2];
            glGenBuffers(2, b);
            for (int k = 0; k < 2; k++) {
                glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, b[k]);
                unsigned char z[1024];
                memset(z, 0xCD, sizeof z);
                glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, sizeof z, z, GL_DYNAMIC_READ);
                glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, (GLuint)k, b[k]);
            }
            const float pts[4] = {-0.5f, -0.5f, 0.25f, 0.5f};
            quad_vao(pts, sizeof pts, 2);
            glUseProgram(p);
            glEnable(GL_RASTERIZER_DISCARD);
            glBeginTransformFeedback(GL_TRIANGLES);
            glDrawArrays(GL_POINTS, 0, 2);
            glEndTransformFeedback();
            glDisable(GL_RASTERIZER_DISCARD);
            unsigned char out[2][1024];
            for (int k = 0; k < 2; k++) {
                glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, b[k]);
                glGetBufferSubData(GL_TRANSFORM_FEEDBACK_BUFFER, 0, sizeof out[k], out[k]);
            }
            hs[mode] = fnv(out, sizeof out);
        }
        printf("xfb_skip %016lx %016lx err=%x\n", hs[0], hs[1], glGetError());
    }
    /* gs_invocations: an instanced geometry shader (layout(invocations=3)) on line adjacency
     * input, one color and offset per invocation. */
    {
        const float pts[8] = {-0.9f, -0.9f, -0.6f, -0.2f, 0.3f, 0.1f, 0.8f, 0.7f};
        quad_vao(pts, sizeof pts, 2);
        GLuint p = glCreateProgram();
        glAttachShader(p, shader(GL_VERTEX_SHADER, "#version 420 core\nlayout(location=0) in vec2 pos;void main(){gl_Position=vec4(pos,0.0,1.0);}\n"));
        glAttachShader(p, shader(GL_GEOMETRY_SHADER, "#version 420 core\n#extension GL_ARB_gpu_shader5 : require\nlayout(lines_adjacency,invocations=3) in;layout(triangle_strip,max_vertices=4) out;flat out vec4 c;\n"
                                                     "void main(){vec4 d=vec4(0.0,float(gl_InvocationID)*0.15,0.0,0.0);c=vec4(float(gl_InvocationID)/3.0+0.13,gl_in[0].gl_Position.x*0.5+0.5,0.7,1.0);\n"
                                                     "gl_Position=gl_in[1].gl_Position+d;EmitVertex();gl_Position=gl_in[2].gl_Position+d;EmitVertex();gl_Position=gl_in[1].gl_Position+d+vec4(0.0,0.1,0.0,0.0);EmitVertex();gl_Position=gl_in[2].gl_Position+d+vec4(0.05,0.12,0.0,0.0);EmitVertex();}\n"));
        glAttachShader(p, shader(GL_FRAGMENT_SHADER, "#version 420 core\nflat in vec4 c;out vec4 o;void main(){o=c;}\n"));
        glLinkProgram(p);
        glUseProgram(p);
        glClear(GL_COLOR_BUFFER_BIT);
        glDrawArrays(GL_LINES_ADJACENCY, 0, 4);
        dump("gs_invocations");
    }
    /* tess_*: tessellation (hull shader, tessellator, domain shader) on one patch of 3 or 4
     * control points, its factors from uniforms. The evaluation shaders bend the patch's edges,
     * so the outline depends on every edge point the tessellator makes. Filled scenes are
     * colored by facing (the output primitive's winding: Mesa turns GL's ccw into D3D's cw);
     * point_mode scenes color each point by its gl_TessCoord (SV_DomainLocation), exact at
     * points; isolines draw their lines. "big" asks for factors above 64 (clamped). tess_gs
     * follows the domain shader with a geometry shader that shrinks each triangle toward its
     * center, which shows the triangulation itself; tess_culled draws two patches, the second
     * with an outer factor of 0 (culled) chosen by gl_PrimitiveID. (gl_PrimitiveIDIn in a
     * geometry shader after tessellation is left out: D3D's SV_PrimitiveID there is the patch's,
     * llvmpipe counts the tessellated primitives.) These scenes come last: after a tessellation
     * program, Mesa 22.3's d3d12 driver compiles the next programs' vertex shaders as if
     * tessellation followed them (no y flip, GL depth), whatever D3D12 runs them on. */
    {
        const float cps[16] = {-0.9f, -0.9f, 0.9f, -0.7f, -0.5f, 0.9f, 0.8f, 0.85f,
                               -0.9f, -0.9f, 0.9f, -0.7f, -0.5f, 0.9f, 0.8f, 0.85f};
        GLuint va = quad_vao(cps, sizeof cps, 2);
        const char *vs = "#version 420 core\nlayout(location=0) in vec2 pos;out vec2 p;void main(){p=pos;}\n";
        const char *fill = "#version 420 core\nin vec3 tc;out vec4 o;void main(){o=gl_FrontFacing?vec4(0.875,0.625,0.125,1.0):vec4(0.125,0.375,0.875,1.0);}\n";
        const char *dots = "#version 420 core\nin vec3 tc;out vec4 o;void main(){o=vec4(floor(tc*4.0)/4.0+0.125,1.0);}\n";
        const char *gs = "#version 420 core\nlayout(triangles) in;layout(triangle_strip,max_vertices=3) out;in vec3 tc[];out vec3 tg;\n"
                         "void main(){vec4 c=(gl_in[0].gl_Position+gl_in[1].gl_Position+gl_in[2].gl_Position)/3.0;for(int i=0;i<3;i++){tg=tc[i];gl_Position=mix(gl_in[i].gl_Position,c,0.25);EmitVertex();}EndPrimitive();}\n";
        const char *gs_fs = "#version 420 core\nin vec3 tg;out vec4 o;void main(){o=vec4(0.25,0.75,0.5,1.0);}\n";
        static const struct {
            const char *name, *layout;
            int n, patches;
            float o[4], i[2];
        } sc[] = {
            {"tess_tri_odd", "triangles, fractional_odd_spacing, ccw", 3, 1, {3.0f, 4.5f, 2.0f, 1.0f}, {5.3f, 1.0f}},
            {"tess_tri_even_cw", "triangles, fractional_even_spacing, cw", 3, 1, {2.2f, 7.5f, 3.9f, 1.0f}, {3.1f, 1.0f}},
            {"tess_tri_int", "triangles, equal_spacing, ccw", 3, 1, {1.0f, 3.0f, 6.0f, 1.0f}, {4.0f, 1.0f}},
            {"tess_quad_even", "quads, fractional_even_spacing, ccw", 4, 1, {2.5f, 6.0f, 3.3f, 1.0f}, {4.2f, 2.7f}},
            {"tess_quad_odd_cw", "quads, fractional_odd_spacing, cw", 4, 1, {1.5f, 2.0f, 7.7f, 3.1f}, {5.5f, 1.2f}},
            {"tess_quad_int", "quads, equal_spacing, ccw", 4, 1, {3.0f, 2.0f, 5.0f, 4.0f}, {3.0f, 6.0f}},
            {"tess_iso", "isolines, equal_spacing", 4, 1, {5.0f, 3.0f, 1.0f, 1.0f}, {1.0f, 1.0f}},
            {"tess_iso_odd", "isolines, fractional_odd_spacing", 4, 1, {4.0f, 6.5f, 1.0f, 1.0f}, {1.0f, 1.0f}},
            {"tess_points_tri", "triangles, equal_spacing, point_mode", 3, 1, {3.0f, 4.0f, 5.0f, 1.0f}, {4.0f, 1.0f}},
            {"tess_points_quad", "quads, fractional_even_spacing, point_mode", 4, 1, {3.5f, 2.2f, 6.1f, 4.9f}, {5.4f, 3.3f}},
            {"tess_points_iso", "isolines, fractional_even_spacing, point_mode", 4, 1, {3.0f, 5.5f, 1.0f, 1.0f}, {1.0f, 1.0f}},
            {"tess_big", "triangles, fractional_odd_spacing, ccw", 3, 1, {63.0f, 40.5f, 70.0f, 1.0f}, {33.3f, 1.0f}},
            {"tess_gs", "triangles, fractional_even_spacing, ccw", 3, 2, {4.0f, 3.5f, 5.0f, 1.0f}, {2.5f, 1.0f}},
            {"tess_culled", "quads, equal_spacing, ccw", 4, 2, {2.0f, 3.0f, 4.0f, 5.0f}, {2.0f, 3.0f}},
        };
        for (unsigned k = 0; k < sizeof sc / sizeof sc[0]; k++) {
            char tcs[1024], tes[1024];
            /* tess_culled: patch 1 gets outer factor 0. */
            snprintf(tcs, sizeof tcs,
                     "#version 420 core\nlayout(vertices=%d) out;in vec2 p[];out vec2 q[];uniform vec4 outer;uniform vec2 inner;uniform int cull;\n"
                     "void main(){q[gl_InvocationID]=p[gl_InvocationID]*(1.0-0.5*float(gl_PrimitiveID));float z=(cull!=0&&gl_PrimitiveID==1)?0.0:1.0;"
                     "gl_TessLevelOuter[0]=outer.x;gl_TessLevelOuter[1]=outer.y*z;gl_TessLevelOuter[2]=outer.z;gl_TessLevelOuter[3]=outer.w;"
                     "gl_TessLevelInner[0]=inner.x;gl_TessLevelInner[1]=inner.y;}\n",
                     sc[k].n);
            if (sc[k].n == 3)
                snprintf(tes, sizeof tes,
                         "#version 420 core\nlayout(%s) in;in vec2 q[];out vec3 tc;\n"
                         "void main(){vec3 t=gl_TessCoord;tc=t;vec2 P=q[0]*t.x+q[1]*t.y+q[2]*t.z+0.3*vec2(t.x*t.y+t.y*t.z,t.z*t.x-t.x*t.y);gl_Position=vec4(P,0.0,1.0);}\n",
                         sc[k].layout);
            else
                snprintf(tes, sizeof tes,
                         "#version 420 core\nlayout(%s) in;in vec2 q[];out vec3 tc;\n"
                         "void main(){vec2 t=gl_TessCoord.xy;tc=vec3(t,0.5);vec2 a=mix(q[0],q[1],t.x),b=mix(q[2],q[3],t.x);"
                         "vec2 P=mix(a,b,t.y)+vec2(0.3*t.y*(1.0-t.y),0.25*t.x*(1.0-t.x));gl_Position=vec4(P,0.0,1.0);}\n",
                         sc[k].layout);
            const int with_gs = strcmp(sc[k].name, "tess_gs") == 0;
            GLuint p = prog5(vs, tcs, tes, with_gs ? gs : NULL,
                             with_gs ? gs_fs : strstr(sc[k].layout, "point_mode") ? dots : fill);
            glUseProgram(p);
            glUniform4f(glGetUniformLocation(p, "outer"), sc[k].o[0], sc[k].o[1], sc[k].o[2], sc[k].o[3]);
            glUniform2f(glGetUniformLocation(p, "inner"), sc[k].i[0], sc[k].i[1]);
            glUniform1i(glGetUniformLocation(p, "cull"), strcmp(sc[k].name, "tess_culled") == 0);
            glPatchParameteri(GL_PATCH_VERTICES, sc[k].n);
            glBindVertexArray(va);
            glClearColor(0, 0, 0, 1);
            glClear(GL_COLOR_BUFFER_BIT);
            /* Two patches: 3 + 3 of the first six control points, or 4 + 4. */
            glDrawArrays(GL_PATCHES, 0, sc[k].n * sc[k].patches);
            dump(sc[k].name);
        }
    }
    return 0;
}
