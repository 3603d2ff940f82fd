/* Mesa's GL on rd3d12, a small scene: a 64x64 RGBA8 framebuffer object with a
 * DEPTH24_STENCIL8 renderbuffer, a 2x2 texture uploaded with glTexImage2D and sampled
 * (GL_NEAREST), the depth test and blending. On the d3d12 driver every step runs through
 * rd3d12: the texture upload is a copy, the draws run the DXIL Mesa compiles from the GLSL on
 * the CPU backend with a D24_UNORM_S8_UINT depth-stencil view, and the result is read back.
 *
 * usage: gl_scene EXPECTED_RENDERER_PREFIX
 *
 * The scene, drawn as full-screen quads (two triangles) at depth z (NDC):
 *   1. z = 0: the texture, opaque. uv = pos * 0.5 + 0.5 maps texel (0,0) red, (1,0) green,
 *      (0,1) blue, (1,1) white onto the four 32x32 quadrants (texel row 0 at the bottom, as
 *      glReadPixels returns rows; no pixel center lies on a texel edge: centers are at k + 0.5);
 *   2. z = 0.5 with no texture bound (samples black): behind quad 1, every fragment fails
 *      GL_LESS, the image does not change;
 *   3. z = -0.5, the texture again with alpha 0.5 and blending SRC_ALPHA, ONE_MINUS_SRC_ALPHA:
 *      color 0.5 * c + 0.5 * c = c, alpha 0.5 * 0.5 + 0.5 * 1.0 = 0.75 -> 191 (191.25).
 * Expected: every pixel is its quadrant's color with alpha 191. Without a working depth test,
 * quad 2 would blacken the image and quad 3 leave colors at 128 (0.5 * 255). */

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>
#include <stdio.h>
#include <string.h>

static int fail(const char *what) {
    fprintf(stderr, "gl_scene: %s failed (EGL error 0x%x, GL error 0x%x)\n", what, eglGetError(), glGetError());
    return 1;
}

static GLuint program(const char *vs, const char *fs) {
    GLuint p = glCreateProgram();
    const char *src[2] = {vs, fs};
    GLenum kind[2] = {GL_VERTEX_SHADER, GL_FRAGMENT_SHADER};
    for (int i = 0; i < 2; i++) {
        GLuint sh = glCreateShader(kind[i]);
        glShaderSource(sh, 1, &src[i], NULL);
        glCompileShader(sh);
        GLint ok = 0;
        glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
        if (!ok) return 0;
        glAttachShader(p, sh);
        glDeleteShader(sh);
    }
    glBindAttribLocation(p, 0, "pos");
    glLinkProgram(p);
    GLint linked = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &linked);
    return linked ? p : 0;
}

int main(int argc, char **argv) {
    const char *want = argc > 1 ? argv[1] : "";
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    if (!get_display) return fail("eglGetProcAddress");
    EGLDisplay dpy = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    EGLint major, minor;
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, &major, &minor)) return fail("eglInitialize");
    if (!eglBindAPI(EGL_OPENGL_ES_API)) return fail("eglBindAPI");
    const EGLint ctx_attrs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE};
    EGLContext ctx = eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, ctx_attrs);
    if (ctx == EGL_NO_CONTEXT || !eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) return fail("context");
    const char *renderer = (const char *)glGetString(GL_RENDERER);
    printf("GL_RENDERER: %s\n", renderer ? renderer : "(null)");
    int status = 0;
    if (!renderer || strncmp(renderer, want, strlen(want)) != 0) {
        fprintf(stderr, "gl_scene: GL_RENDERER does not start with \"%s\"\n", want);
        status = 1;
    }

    GLuint color, fbo, depth;
    glGenTextures(1, &color);
    glBindTexture(GL_TEXTURE_2D, color);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 64, 64);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, color, 0);
    glGenRenderbuffers(1, &depth);
    glBindRenderbuffer(GL_RENDERBUFFER, depth);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, 64, 64);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, depth);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) return fail("framebuffer completeness");
    glViewport(0, 0, 64, 64);
    glClearColor(0, 0, 0, 1);
    glClearDepthf(1);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);

    static const unsigned char texels[16] = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255};
    GLuint tex;
    glGenTextures(1, &tex);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 2, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);

    GLuint prog = program("#version 300 es\nin vec2 pos;\nout vec2 uv;\nuniform float z;\n"
                          "void main() { uv = pos * 0.5 + 0.5; gl_Position = vec4(pos, z, 1.0); }\n",
                          "#version 300 es\nprecision mediump float;\nin vec2 uv;\nuniform sampler2D tex;\n"
                          "uniform float alpha;\nout vec4 o;\nvoid main() { o = vec4(texture(tex, uv).rgb, alpha); }\n");
    if (!prog) return fail("the program");
    glUseProgram(prog);
    glUniform1i(glGetUniformLocation(prog, "tex"), 0);
    GLint z = glGetUniformLocation(prog, "z"), alpha = glGetUniformLocation(prog, "alpha");
    static const float quad[12] = {-1, -1, 1, -1, -1, 1, -1, 1, 1, -1, 1, 1};
    GLuint vbo;
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, 0);
    glEnableVertexAttribArray(0);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);

    glUniform1f(z, 0.0f);
    glUniform1f(alpha, 1.0f);
    glDrawArrays(GL_TRIANGLES, 0, 6);
    glBindTexture(GL_TEXTURE_2D, 0);
    glUniform1f(z, 0.5f);
    glDrawArrays(GL_TRIANGLES, 0, 6);
    glBindTexture(GL_TEXTURE_2D, tex);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glUniform1f(z, -0.5f);
    glUniform1f(alpha, 0.5f);
    glDrawArrays(GL_TRIANGLES, 0, 6);
    if (glGetError() != GL_NO_ERROR) return fail("drawing");

    static unsigned char px[64 * 64 * 4];
    memset(px, 0xAA, sizeof px);
    glReadPixels(0, 0, 64, 64, GL_RGBA, GL_UNSIGNED_BYTE, px);
    if (glGetError() != GL_NO_ERROR) return fail("glReadPixels");
    int bad = 0;
    for (int y = 0; y < 64; y++)
        for (int x = 0; x < 64; x++) {
            const unsigned char *t = texels + 4 * ((y >= 32) * 2 + (x >= 32));
            const unsigned char want_px[4] = {t[0], t[1], t[2], 191};
            const unsigned char *p = px + 4 * (y * 64 + x);
            if (memcmp(p, want_px, 4) != 0 && bad++ < 4)
                fprintf(stderr, "gl_scene: pixel (%d,%d) = %u %u %u %u, expected %u %u %u %u\n", x, y, p[0], p[1], p[2],
                        p[3], want_px[0], want_px[1], want_px[2], want_px[3]);
        }
    printf("gl_scene: %d of 4096 pixels wrong\n", bad);
    if (bad) status = 1;

    glDeleteBuffers(1, &vbo);
    glDeleteProgram(prog);
    glDeleteTextures(1, &tex);
    glDeleteRenderbuffers(1, &depth);
    glDeleteFramebuffers(1, &fbo);
    glDeleteTextures(1, &color);
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(dpy, ctx);
    eglTerminate(dpy);
    return status;
}
