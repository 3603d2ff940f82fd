/* Mesa's GL on rd3d12, compute: a GLES 3.1 compute shader (64 threads per group, 4 groups)
 * doubles each element of a 256-word shader storage buffer and adds its invocation index; the
 * buffer starts as v[i] = 3i, so it must read back v[i] = 2 * 3i + i = 7i. On the d3d12 driver
 * the dispatch runs the DXIL Mesa compiles from the GLSL on rd3d12's CPU backend, the buffer a
 * raw UAV.
 *
 * usage: gl_compute EXPECTED_RENDERER_PREFIX */

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl31.h>
#include <stdio.h>
#include <string.h>

static int fail(const char *what) {
    fprintf(stderr, "gl_compute: %s failed (EGL error 0x%x, GL error 0x%x)\n", what, eglGetError(), glGetError());
    return 1;
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
    const EGLint ctx_attrs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 1, EGL_NONE};
    EGLContext ctx = eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, ctx_attrs);
    if (ctx == EGL_NO_CONTEXT || !eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) return fail("a GLES 3.1 context");
    const char *renderer = (const char *)glGetString(GL_RENDERER);
    printf("GL_RENDERER: %s\nGL_VERSION: %s\n", renderer ? renderer : "(null)", (const char *)glGetString(GL_VERSION));
    int status = 0;
    if (!renderer || strncmp(renderer, want, strlen(want)) != 0) {
        fprintf(stderr, "gl_compute: GL_RENDERER does not start with \"%s\"\n", want);
        status = 1;
    }

    static const char *src = "#version 310 es\n"
                             "layout(local_size_x = 64) in;\n"
                             "layout(std430, binding = 0) buffer B { uint v[]; };\n"
                             "void main() { uint i = gl_GlobalInvocationID.x; v[i] = v[i] * 2u + i; }\n";
    GLuint sh = glCreateShader(GL_COMPUTE_SHADER);
    glShaderSource(sh, 1, &src, NULL);
    glCompileShader(sh);
    GLint ok = 0;
    glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
    if (!ok) return fail("glCompileShader");
    GLuint prog = glCreateProgram();
    glAttachShader(prog, sh);
    glLinkProgram(prog);
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    if (!ok) return fail("glLinkProgram");
    glUseProgram(prog);

    GLuint init[256];
    for (int i = 0; i < 256; i++) init[i] = 3u * (GLuint)i;
    GLuint buf;
    glGenBuffers(1, &buf);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buf);
    glBufferData(GL_SHADER_STORAGE_BUFFER, sizeof init, init, GL_DYNAMIC_COPY);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buf);
    glDispatchCompute(4, 1, 1);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    if (glGetError() != GL_NO_ERROR) return fail("glDispatchCompute");
    const GLuint *v = (const GLuint *)glMapBufferRange(GL_SHADER_STORAGE_BUFFER, 0, sizeof init, GL_MAP_READ_BIT);
    if (!v) return fail("glMapBufferRange");
    int bad = 0;
    for (int i = 0; i < 256; i++)
        if (v[i] != 7u * (GLuint)i && bad++ < 4) fprintf(stderr, "gl_compute: v[%d] = %u, expected %u\n", i, v[i], 7u * i);
    glUnmapBuffer(GL_SHADER_STORAGE_BUFFER);
    printf("gl_compute: %d of 256 words wrong\n", bad);
    if (bad) status = 1;

    glDeleteBuffers(1, &buf);
    glDeleteProgram(prog);
    glDeleteShader(sh);
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(dpy, ctx);
    eglTerminate(dpy);
    return status;
}
