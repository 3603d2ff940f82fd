/* Mesa's GL on rd3d12: an EGL surfaceless GLES context created by the Gallium d3d12 driver
 * (GALLIUM_DRIVER=d3d12 with our libd3d12.so and libdxcore.so on LD_LIBRARY_PATH), a 64x64
 * RGBA8 framebuffer object cleared to (0.25, 0.5, 0.75, 1.0) and read back.
 *
 * usage: egl_clear EXPECTED_RENDERER_PREFIX [--no-readback]
 * Prints GL_RENDERER; exits 0 only if it starts with the prefix, the clear completes without a
 * GL error and (unless --no-readback) every pixel reads back as 64 128 191 255
 * (0.25*255 = 63.75 -> 64, 0.5*255 = 127.5 -> 128, 0.75*255 = 191.25 -> 191).
 *
 * --no-readback: for the d3d12 driver over rd3d12 today. glReadPixels first brings Mesa's state
 * up to date, which compiles the fixed-function fragment shader; Mesa 22.3's d3d12 compiler
 * emits shader model 6.1 or later only ("cannot support emitting shader models lower than
 * 6.1"), and rd3d12 reports shader model 5.1 because it executes no shaders yet, so the compile
 * fails and Mesa (release build) dereferences the missing variant. The read itself needs no
 * shader (a CopyTextureRegion into a readback buffer, then Map): with the report raised to 6.1
 * as an experiment, every pixel read back as 64 128 191 255. */

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
    int readback = !(argc > 2 && strcmp(argv[2], "--no-readback") == 0);
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
    if (!readback) {
        printf("cleared; no readback\n");
        goto done;
    }
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
    printf("pixel 0: %u %u %u %u; %d of 4096 pixels wrong\n", px[0], px[1], px[2], px[3], bad);
    if (bad) status = 1;
done:

    glDeleteFramebuffers(1, &fbo);
    glDeleteTextures(1, &tex);
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(dpy, ctx);
    eglTerminate(dpy);
    return status;
}
