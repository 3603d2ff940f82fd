/* Mesa's GL on rd3d12: an EGL surfaceless GLES context created by the Gallium d3d12 driver
 * (GALLIUM_DRIVER=d3d12 with our libd3d12.so and libdxcore.so on LD_LIBRARY_PATH), a 64x64
 * RGBA8 framebuffer object cleared to (0.25, 0.5, 0.75, 1.0) and read back, then a triangle
 * drawn over its lower-left half with a GLSL program (a vertex attribute, a uniform color) and
 * read back again.
 *
 * usage: egl_clear EXPECTED_RENDERER_PREFIX
 * Prints GL_RENDERER; exits 0 only if it starts with the prefix and, without a GL error:
 *   - after the clear every pixel reads back as 64 128 191 255
 *     (0.25*255 = 63.75 -> 64, 0.5*255 = 127.5 -> 128, 0.75*255 = 191.25 -> 191);
 *   - after the draw of (-1,-1), (1,-1), (-1,1) in color (0.5, 0.25, 1.0, 1.0), pixel (x, y)
 *     (y from the bottom, as glReadPixels returns rows) is 128 64 255 255 when its center is
 *     inside (x + y < 63) and still the clear color when outside (x + y > 63); the pixels whose
 *     centers lie on the hypotenuse (x + y == 63) belong to whichever side the implementation's
 *     tie rule gives them and are not checked.
 *
 * On the d3d12 driver both steps run through rd3d12: the clear is ClearRenderTargetView, the
 * reads are CopyTextureRegion into a readback buffer, and the draw runs the DXIL Mesa compiled
 * from the GLSL (and from its own fixed-function state) on the CPU backend. */

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char *what) {
    fprintf(stderr, "egl_clear: %s failed (EGL error 0x%x, GL error 0x%x)\n", what, eglGetError(), glGetError());
    return 1;
}

int main(int argc, char **argv) {
    const char *want = argc > 1 ? argv[1] : "";
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    if (!get_display) return fail("eglGetProcAddress(eglGetPlatformDisplayEXT)");
    EGLDisplay dpy = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (dpy == EGL_NO_DISPLAY) return fail("eglGetPlatformDisplayEXT(SURFACELESS)");
    EGLint major, minor;
    if (!eglInitialize(dpy, &major, &minor)) return fail("eglInitialize");
    if (!eglBindAPI(EGL_OPENGL_ES_API)) return fail("eglBindAPI");
    const EGLint ctx_attrs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE};
    EGLContext ctx = eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, ctx_attrs);
    if (ctx == EGL_NO_CONTEXT) return fail("eglCreateContext");
    if (!eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) return fail("eglMakeCurrent");

    const char *renderer = (const char *)glGetString(GL_RENDERER);
    printf("GL_VENDOR: %s\nGL_RENDERER: %s\nGL_VERSION: %s\n", (const char *)glGetString(GL_VENDOR),
           renderer ? renderer : "(null)", (const char *)glGetString(GL_VERSION));
    int status = 0;
    if (!renderer || strncmp(renderer, want, strlen(want)) != 0) {
        fprintf(stderr, "egl_clear: GL_RENDERER does not start with \"%s\"\n", want);
        status = 1;
    }

    GLuint tex, fbo;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 64, 64);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) return fail("framebuffer completeness");
    glViewport(0, 0, 64, 64);
    glClearColor(0.25f, 0.5f, 0.75f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glFinish();
    if (glGetError() != GL_NO_ERROR) return fail("glClear");
    static unsigned char px[64 * 64 * 4];
    memset(px, 0xAA, sizeof px);
    glReadPixels(0, 0, 64, 64, GL_RGBA, GL_UNSIGNED_BYTE, px);
    if (glGetError() != GL_NO_ERROR) return fail("glReadPixels");
    int bad = 0;
    for (int i = 0; i < 64 * 64; i++) {
        const unsigned char *p = px + 4 * i;
        if (p[0] != 64 || p[1] != 128 || p[2] != 191 || p[3] != 255) {
            if (bad++ < 4)
                fprintf(stderr, "egl_clear: pixel %d = %u %u %u %u, expected 64 128 191 255\n", i, p[0], p[1], p[2], p[3]);
        }
    }
    printf("clear: pixel 0: %u %u %u %u; %d of 4096 pixels wrong\n", px[0], px[1], px[2], px[3], bad);
    if (bad) status = 1;

    static const char *vs_src = "#version 300 es\nin vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }\n";
    static const char *fs_src = "#version 300 es\nprecision mediump float;\nuniform vec4 color;\nout vec4 o;\n"
                                "void main() { o = color; }\n";
    GLuint prog = glCreateProgram();
    const char *srcs[2] = {vs_src, fs_src};
    GLenum kinds[2] = {GL_VERTEX_SHADER, GL_FRAGMENT_SHADER};
    for (int k = 0; k < 2; k++) {
        GLuint sh = glCreateShader(kinds[k]);
        glShaderSource(sh, 1, &srcs[k], NULL);
        glCompileShader(sh);
        GLint ok = 0;
        glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
        if (!ok) return fail("glCompileShader");
        glAttachShader(prog, sh);
        glDeleteShader(sh);
    }
    glBindAttribLocation(prog, 0, "pos");
    glLinkProgram(prog);
    GLint linked = 0;
    glGetProgramiv(prog, GL_LINK_STATUS, &linked);
    if (!linked) return fail("glLinkProgram");
    glUseProgram(prog);
    glUniform4f(glGetUniformLocation(prog, "color"), 0.5f, 0.25f, 1.0f, 1.0f);
    static const float tri[6] = {-1, -1, 1, -1, -1, 1};
    GLuint vbo;
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof tri, tri, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, 0);
    glEnableVertexAttribArray(0);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    if (glGetError() != GL_NO_ERROR) return fail("glDrawArrays");
    memset(px, 0xAA, sizeof px);
    glReadPixels(0, 0, 64, 64, GL_RGBA, GL_UNSIGNED_BYTE, px);
    if (glGetError() != GL_NO_ERROR) return fail("glReadPixels after the draw");
    int inside = 0, outside = 0;
    bad = 0;
    for (int y = 0; y < 64; y++)
        for (int x = 0; x < 64; x++) {
            if (x + y == 63) continue;
            const unsigned char *p = px + 4 * (y * 64 + x);
            int in = x + y < 63;
            const unsigned char *want = in ? (const unsigned char[]){128, 64, 255, 255} : (const unsigned char[]){64, 128, 191, 255};
            inside += in;
            outside += !in;
            if (memcmp(p, want, 4) != 0 && bad++ < 4)
                fprintf(stderr, "egl_clear: after the draw pixel (%d,%d) = %u %u %u %u, expected %u %u %u %u\n", x, y,
                        p[0], p[1], p[2], p[3], want[0], want[1], want[2], want[3]);
        }
    printf("draw: %d inside, %d outside checked; %d wrong\n", inside, outside, bad);
    if (bad) status = 1;
    glDeleteBuffers(1, &vbo);
    glDeleteProgram(prog);

    glDeleteFramebuffers(1, &fbo);
    glDeleteTextures(1, &tex);
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(dpy, ctx);
    eglTerminate(dpy);
    return status;
}
