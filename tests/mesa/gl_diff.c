/* Mesa's GL on rd3d12 against llvmpipe, scene by scene: each scene renders into a 64x64 RGBA8
 * framebuffer object and prints a hash of its pixels (FNV-1a over glReadPixels). xtask runs the
 * program on llvmpipe and on d3d12 over rd3d12 and requires equal hashes for every scene, so
 * the shaders Mesa compiles to DXIL and rd3d12's interpreter, rasterizer, sampler and output
 * merger reproduce llvmpipe's pixels exactly. The scenes avoid what GL leaves to the
 * implementation (no geometry edge crosses a pixel center; no transcendental functions; no
 * color whose 8-bit conversion is a tie: D3D rounds x.5 up, llvmpipe to even; no blending:
 * llvmpipe blends 8-bit targets in 8-bit fixed point, D3D in float, one unit apart at times):
 *   instancing   four instances of a quarter quad, gl_InstanceID picking colors from a UBO;
 *   mip3, mip0   glGenerateMipmap on a 64x64 texture, textureLod at LOD 3 and 0
 *                (LINEAR_MIPMAP_NEAREST, mag LINEAR);
 *   blit         glBlitFramebuffer with GL_NEAREST, then a 32x32 region scaled 2x with GL_LINEAR;
 *   mrt0, mrt1   two render targets written by one fragment shader;
 *   itex         an R32UI texture read with texelFetch, discard on a value test, integer
 *                arithmetic turned into colors;
 *   stencil      REPLACE then EQUAL/INCR stencil passes on a DEPTH24_STENCIL8 renderbuffer;
 *   depth        gl_FragDepth with GL_GREATER against a cleared depth of 0.25;
 *   array_wrap   a 2D array texture with MIRRORED_REPEAT and REPEAT, layer from uv;
 *   cube         a cube map sampled in two direction sets (face selection);
 *   attribs      normalized-byte colors, integer (ivec2) per-instance offsets with a divisor,
 *                flat shading (Mesa reads the provoking vertex with GetAttributeAtVertex);
 *   math         loops, a local array indexed dynamically, findMSB, bitfieldExtract,
 *                bitfieldReverse, packUnorm4x8/unpackUnorm4x8 (GLSL ES 3.10);
 *   float_rt     an RGBA16F render target written outside [0, 1], then sampled;
 *   scissor_mask glClearBufferfv and a draw under scissor rectangles and a color mask;
 *   shadow       a DEPTH_COMPONENT32F texture sampled with a LEQUAL comparison;
 *   points       GL_POINTS of sizes 1, 2, 4 and 8 from gl_PointSize, colored by gl_PointCoord
 *                (Mesa's d3d12 driver draws them as quads from a geometry shader; odd sizes
 *                above 1 would put gl_PointCoord on 8-bit ties);
 *   compute_image a GLES 3.1 compute shader: groupshared memory with a barrier, imageStore into
 *                an RGBA8 image, and an atomic counter (printed as "atomic_counter N");
 *   texsubimage  RGB8 uploads with UNPACK_ALIGNMENT 1, ROW_LENGTH, SKIP_PIXELS and SKIP_ROWS;
 *   swizzle      GL_TEXTURE_SWIZZLE_* (D3D12 shader component mappings, ZERO and ONE included);
 *   formats      R11F_G11F_B10F, RGB9_E5, RGB10_A2 and RGB565 textures sampled (values where
 *                llvmpipe's truncating 10/6/5-to-8-bit conversions equal D3D's exact ones);
 *   msaa_resolve a triangle into a 4x renderbuffer, resolved by glBlitFramebuffer (colors 0
 *                and 252, so every coverage average is exact);
 *   indirect     glDrawElementsIndirect with a primitive restart and glDrawArraysIndirect,
 *                positions from gl_VertexID (draw parameters through the command signature);
 *   texfetch     texelFetch and textureSize per mip level, textureGrad;
 *   int_rt       an RGBA32I target: glClearBufferiv, integer outputs, glReadPixels of
 *                RGBA_INTEGER (printed as "int_rt HASH");
 *   copytex      glCopyTexSubImage2D from the framebuffer, then sampled;
 *   ssbo_frag    a fragment shader appending to a storage buffer with atomicAdd (printed as
 *                "ssbo_frag HASH");
 *   vertex_formats half-float, normalized-short, INT_2_10_10_10_REV and integer attributes
 *                (no -2 in the 2-bit field: Mesa 22.3's lowering does not clamp it to -1);
 *   ubo_range    a uniform block bound with glBindBufferRange at an aligned offset;
 *   tex3d        glTexImage3D/glTexSubImage3D and a 3D texture sampled per slice;
 *   stencil_tex  stencil-operation results sampled as GL_STENCIL_INDEX (the stencil plane's
 *                SRV);
 *   lod_clamp    BASE_LEVEL/MAX_LEVEL (SRV mip range) and MIN_LOD/MAX_LOD (sampler);
 *   gather_offset textureGatherOffset (component 0 and 3) and textureOffset with wrap modes;
 *   int_textures R16I, RG8UI and R32F read with texelFetch;
 *   sample_shading a 4x target drawn per sample (gl_SampleID, a `sample in` varying), resolved;
 *   geometry     an application geometry shader (EXT_geometry_shader) emitting two triangles;
 *   blend_float  blending on an RGBA32F target (exact there): ADD, MIN/MAX, REVERSE_SUBTRACT
 *                with a constant color, read back as floats;
 *   faces_stencil front-face culling with glFrontFace(GL_CW), two-sided stencil;
 *   render_targets drawing into an array layer, a mip level, a cube face and a 3D slice;
 *   base_vertex  glDrawElements(Instanced)BaseVertexOES, positions from gl_VertexID;
 *   texture_buffer samplerBuffer views (RGBA32F, and R8 with glTexBufferRange at 256 bytes);
 *   cube_array_border a cube map array and CLAMP_TO_BORDER with a float border color;
 *   blend_indexed per-target blend functions and color masks on two RGBA16F targets;
 *   image_atomic imageAtomicAdd/Max on an r32ui image (printed as "image_atomic HASH");
 *   layered      a geometry shader writing gl_Layer and gl_ViewportIndex into a layered 2D array
 *                framebuffer with three viewports (OES_viewport_array);
 *   formats2     RGBA4 and RGB5_A1 render targets (B4G4R4A4 / B5G5R5A1), R8_SNORM, RG16_SNORM,
 *                R16 and RGBA16 textures (SNORM8 codes where llvmpipe's decode agrees with c/127);
 *   depth_range  glDepthRangef(0.25, 0.75) (viewport depth range), gl_FragCoord.z, a LESS test,
 *                32-bit indices with a 0xFFFFFFFF restart through glDrawRangeElements;
 *   lines        GL_LINES and GL_LINE_STRIP between pixel centers;
 *   tex_misc     an LOD bias, textureProj, textureLodOffset, a samplerCubeShadow comparison and a
 *                sampler object;
 *   sample_position gl_SamplePosition and gl_NumSamples per sample (RenderTargetGetSamplePosition
 *                and RenderTargetGetSampleCount), resolved;
 *   xfb          transform feedback (D3D12 stream output) of two draws around a pause, with
 *                GL_RASTERIZER_DISCARD and a PRIMITIVES_WRITTEN query (printed as numbers).
 *                Last: afterwards Mesa 22.3 adds a geometry shader to indexed strip draws, and
 *                its indirect draws then send their draw parameters to that shader's root
 *                constants (a Mesa bug that Windows would show the same way).
 *
 * usage: gl_diff   (prints "NAME HASH ..." per scene) */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl31.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
static GLuint prog(const char*vs,const char*fs){GLuint p=glCreateProgram();const char*s[2]={vs,fs};GLenum k[2]={GL_VERTEX_SHADER,GL_FRAGMENT_SHADER};
for(int i=0;i<2;i++){GLuint sh=glCreateShader(k[i]);glShaderSource(sh,1,&s[i],0);glCompileShader(sh);GLint ok;glGetShaderiv(sh,GL_COMPILE_STATUS,&ok);if(!ok){char b[999];glGetShaderInfoLog(sh,999,0,b);fprintf(stderr,"%s\n",b);}glAttachShader(p,sh);}
glLinkProgram(p);GLint ok;glGetProgramiv(p,GL_LINK_STATUS,&ok);if(!ok){char b[999];glGetProgramInfoLog(p,999,0,b);fprintf(stderr,"link %s\n",b);}return p;}
static GLuint cprog(const char*cs){GLuint p=glCreateProgram();GLuint sh=glCreateShader(GL_COMPUTE_SHADER);glShaderSource(sh,1,&cs,0);glCompileShader(sh);GLint ok;glGetShaderiv(sh,GL_COMPILE_STATUS,&ok);if(!ok){char b[999];glGetShaderInfoLog(sh,999,0,b);fprintf(stderr,"%s\n",b);}glAttachShader(p,sh);glLinkProgram(p);return p;}
static unsigned char px[64*64*4];
static void dump(const char*name){memset(px,0xAA,sizeof px);glReadPixels(0,0,64,64,GL_RGBA,GL_UNSIGNED_BYTE,px);unsigned long h=1469598103934665603UL;for(size_t i=0;i<sizeof px;i++){h^=px[i];h*=1099511628211UL;}
printf("%s %016lx  p(5,5)=%d,%d,%d,%d p(40,20)=%d,%d,%d,%d err=%x\n",name,h,px[4*(5*64+5)],px[4*(5*64+5)+1],px[4*(5*64+5)+2],px[4*(5*64+5)+3],px[4*(20*64+40)],px[4*(20*64+40)+1],px[4*(20*64+40)+2],px[4*(20*64+40)+3],glGetError());
FILE*f=fopen(getenv("DUMP")?getenv("DUMP"):"/dev/null","ab");if(f){fwrite(px,1,sizeof px,f);fclose(f);}}
static const char*VS="#version 300 es\nlayout(location=0) in vec2 pos;out vec2 uv;void main(){uv=pos*0.5+0.5;gl_Position=vec4(pos,0.0,1.0);}\n";
int main(){
 PFNEGLGETPLATFORMDISPLAYEXTPROC gd=(PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
 EGLDisplay d=gd(EGL_PLATFORM_SURFACELESS_MESA,EGL_DEFAULT_DISPLAY,NULL);EGLint a,b;eglInitialize(d,&a,&b);
 eglBindAPI(EGL_OPENGL_ES_API);const EGLint ca[]={EGL_CONTEXT_MAJOR_VERSION,3,EGL_CONTEXT_MINOR_VERSION,1,EGL_NONE};
 EGLContext c=eglCreateContext(d,EGL_NO_CONFIG_KHR,EGL_NO_CONTEXT,ca);eglMakeCurrent(d,EGL_NO_SURFACE,EGL_NO_SURFACE,c);
 fprintf(stderr,"%s\n",glGetString(GL_RENDERER));
 GLuint rt[2],fbo;glGenTextures(2,rt);for(int i=0;i<2;i++){glBindTexture(GL_TEXTURE_2D,rt[i]);glTexStorage2D(GL_TEXTURE_2D,1,GL_RGBA8,64,64);}
 glGenFramebuffers(1,&fbo);glBindFramebuffer(GL_FRAMEBUFFER,fbo);glFramebufferTexture2D(GL_FRAMEBUFFER,GL_COLOR_ATTACHMENT0,GL_TEXTURE_2D,rt[0],0);
 glViewport(0,0,64,64);
 float quad[12]={-1,-1,1,-1,-1,1,-1,1,1,-1,1,1};GLuint vb;glGenBuffers(1,&vb);glBindBuffer(GL_ARRAY_BUFFER,vb);glBufferData(GL_ARRAY_BUFFER,sizeof quad,quad,GL_STATIC_DRAW);
 glVertexAttribPointer(0,2,GL_FLOAT,0,0,0);glEnableVertexAttribArray(0);
 // 1. instancing + UBO: 4 instances, each a quarter-size quad offset by instance, color from UBO array
 {GLuint p=prog("#version 300 es\nlayout(location=0) in vec2 pos;flat out int inst;void main(){inst=gl_InstanceID;vec2 o=vec2(float(gl_InstanceID%2),float(gl_InstanceID/2))-0.5;gl_Position=vec4(pos*0.5+o,0.0,1.0);}\n",
  "#version 300 es\nprecision mediump float;flat in int inst;layout(std140) uniform U{vec4 col[4];};out vec4 o;void main(){o=col[inst];}\n");
  glUseProgram(p);float cols[16]={1,0,0,1, 0,1,0,1, 0,0,1,1, 1,1,0,1};GLuint ub;glGenBuffers(1,&ub);glBindBuffer(GL_UNIFORM_BUFFER,ub);glBufferData(GL_UNIFORM_BUFFER,sizeof cols,cols,GL_STATIC_DRAW);
  glUniformBlockBinding(p,glGetUniformBlockIndex(p,"U"),0);glBindBufferBase(GL_UNIFORM_BUFFER,0,ub);
  glClearColor(0,0,0,1);glClear(GL_COLOR_BUFFER_BIT);glDrawArraysInstanced(GL_TRIANGLES,0,6,4);dump("instancing");}
 // 2. mipmaps: 64x64 checker texture, generate mips, sample at LOD 3 via textureLod
 {unsigned char*t=malloc(64*64*4);for(int y=0;y<64;y++)for(int x=0;x<64;x++){unsigned char v=((x/4+y/4)&1)?255:0;t[4*(y*64+x)]=v;t[4*(y*64+x)+1]=x*4;t[4*(y*64+x)+2]=y*4;t[4*(y*64+x)+3]=255;}
  GLuint tex;glGenTextures(1,&tex);glBindTexture(GL_TEXTURE_2D,tex);glTexImage2D(GL_TEXTURE_2D,0,GL_RGBA8,64,64,0,GL_RGBA,GL_UNSIGNED_BYTE,t);glGenerateMipmap(GL_TEXTURE_2D);
  glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_MIN_FILTER,GL_LINEAR_MIPMAP_NEAREST);glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_MAG_FILTER,GL_LINEAR);
  GLuint p=prog("#version 300 es\nlayout(location=0) in vec2 pos;out vec2 uv;void main(){uv=pos*0.5+0.5;gl_Position=vec4(pos,0.0,1.0);}\n",
   "#version 300 es\nprecision mediump float;in vec2 uv;uniform sampler2D t;uniform float lod;out vec4 o;void main(){o=textureLod(t,uv,lod);}\n");
  glUseProgram(p);glUniform1i(glGetUniformLocation(p,"t"),0);glUniform1f(glGetUniformLocation(p,"lod"),3.0);glDrawArrays(GL_TRIANGLES,0,6);dump("mip3");
  glUniform1f(glGetUniformLocation(p,"lod"),0.0);glDrawArrays(GL_TRIANGLES,0,6);dump("mip0");free(t);}
 // 3. blit 32x32 region to full with linear filter
 {GLuint src,sf;glGenTextures(1,&src);glBindTexture(GL_TEXTURE_2D,src);glTexStorage2D(GL_TEXTURE_2D,1,GL_RGBA8,64,64);glGenFramebuffers(1,&sf);glBindFramebuffer(GL_READ_FRAMEBUFFER,fbo);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER,sf);glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER,GL_COLOR_ATTACHMENT0,GL_TEXTURE_2D,src,0);
  glBlitFramebuffer(0,0,64,64,0,0,64,64,GL_COLOR_BUFFER_BIT,GL_NEAREST);
  glBindFramebuffer(GL_READ_FRAMEBUFFER,sf);glBindFramebuffer(GL_DRAW_FRAMEBUFFER,fbo);glBlitFramebuffer(8,8,40,40,0,0,64,64,GL_COLOR_BUFFER_BIT,GL_LINEAR);
  glBindFramebuffer(GL_FRAMEBUFFER,fbo);dump("blit");}
 // 4. MRT
 {glFramebufferTexture2D(GL_FRAMEBUFFER,GL_COLOR_ATTACHMENT1,GL_TEXTURE_2D,rt[1],0);GLenum bufs[2]={GL_COLOR_ATTACHMENT0,GL_COLOR_ATTACHMENT1};glDrawBuffers(2,bufs);
  GLuint p=prog("#version 300 es\nlayout(location=0) in vec2 pos;out vec2 uv;void main(){uv=pos*0.5+0.5;gl_Position=vec4(pos,0.0,1.0);}\n",
   "#version 300 es\nprecision mediump float;in vec2 uv;layout(location=0) out vec4 a;layout(location=1) out vec4 b;void main(){a=vec4(uv,0.25,1.0);b=vec4(1.0-uv.x,0.5,uv.y,1.0);}\n");
  glUseProgram(p);glDrawArrays(GL_TRIANGLES,0,6);glReadBuffer(GL_COLOR_ATTACHMENT0);dump("mrt0");glReadBuffer(GL_COLOR_ATTACHMENT1);dump("mrt1");glReadBuffer(GL_COLOR_ATTACHMENT0);
  GLenum one[1]={GL_COLOR_ATTACHMENT0};glDrawBuffers(1,one);}
 // 5. integer texture + texelFetch, and discard + math functions
 {unsigned int it[16*16];for(int i=0;i<256;i++)it[i]=i*12345u;GLuint tex;glGenTextures(1,&tex);glActiveTexture(GL_TEXTURE1);glBindTexture(GL_TEXTURE_2D,tex);glTexImage2D(GL_TEXTURE_2D,0,GL_R32UI,16,16,0,GL_RED_INTEGER,GL_UNSIGNED_INT,it);
  glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_MIN_FILTER,GL_NEAREST);glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_MAG_FILTER,GL_NEAREST);
  GLuint p=prog("#version 300 es\nlayout(location=0) in vec2 pos;void main(){gl_Position=vec4(pos,0.0,1.0);}\n",
   "#version 300 es\nprecision highp float;precision highp usampler2D;uniform usampler2D t;out vec4 o;void main(){ivec2 c=ivec2(gl_FragCoord.xy)/4;uint v=texelFetch(t,c,0).r;if((v&7u)==3u)discard;"
   "o=vec4(float(v%256u)/255.0,float((v>>8u)%256u)/255.0,float(c.x)/15.0,float(c.y)/15.0);}\n");
  glUseProgram(p);glUniform1i(glGetUniformLocation(p,"t"),1);glClearColor(0.125,0.25,0.375,0.625);glClear(GL_COLOR_BUFFER_BIT);glDrawArrays(GL_TRIANGLES,0,6);dump("itex");glActiveTexture(GL_TEXTURE0);}
 {GLuint ds;glGenRenderbuffers(1,&ds);glBindRenderbuffer(GL_RENDERBUFFER,ds);glRenderbufferStorage(GL_RENDERBUFFER,GL_DEPTH24_STENCIL8,64,64);
  glBindFramebuffer(GL_FRAMEBUFFER,fbo);glFramebufferRenderbuffer(GL_FRAMEBUFFER,GL_DEPTH_STENCIL_ATTACHMENT,GL_RENDERBUFFER,ds);
  glBindBuffer(GL_ARRAY_BUFFER,vb);glVertexAttribPointer(0,2,GL_FLOAT,0,0,0);glEnableVertexAttribArray(0);}
 GLuint flat=prog("#version 300 es\nlayout(location=0) in vec2 pos;uniform vec4 xf;void main(){gl_Position=vec4(pos*xf.xy+xf.zw,0.0,1.0);}\n","#version 300 es\nprecision mediump float;uniform vec4 col;uniform float z;out vec4 o;void main(){o=col;gl_FragDepth=z;}\n");
 glUseProgram(flat);GLint xf=glGetUniformLocation(flat,"xf"),col=glGetUniformLocation(flat,"col"),zz=glGetUniformLocation(flat,"z");
 // 1. stencil: draw quad A writing stencil 1 (scaled 0.5), then full quad only where stencil==1
 glClearColor(0,0,0,1);glClearStencil(0);glClearDepthf(1);glClear(GL_COLOR_BUFFER_BIT|GL_DEPTH_BUFFER_BIT|GL_STENCIL_BUFFER_BIT);
 glEnable(GL_STENCIL_TEST);glStencilFunc(GL_ALWAYS,1,0xFF);glStencilOp(GL_KEEP,GL_KEEP,GL_REPLACE);
 glUniform4f(xf,0.5,0.5,-0.25,-0.25);glUniform4f(col,0.25,0.25,0.25,1);glUniform1f(zz,0.5);glDrawArrays(GL_TRIANGLES,0,6);
 glStencilFunc(GL_EQUAL,1,0xFF);glStencilOp(GL_KEEP,GL_KEEP,GL_INCR);glUniform4f(xf,1,1,0,0);glUniform4f(col,1,0.5,0.25,1);glDrawArrays(GL_TRIANGLES,0,6);
 glStencilFunc(GL_EQUAL,2,0xFF);glUniform4f(xf,0.25,0.25,0.5,0.5);glUniform4f(col,0,1,0,1);glDrawArrays(GL_TRIANGLES,0,6);
 glDisable(GL_STENCIL_TEST);dump("stencil");
 // 2. depth with gl_FragDepth and GL_GREATER
 glClear(GL_COLOR_BUFFER_BIT|GL_DEPTH_BUFFER_BIT);glEnable(GL_DEPTH_TEST);glClearDepthf(0.25);glClear(GL_DEPTH_BUFFER_BIT);glDepthFunc(GL_GREATER);
 glUniform4f(xf,0.5,0.5,-0.5,0);glUniform4f(col,1,0,0,1);glUniform1f(zz,0.5);glDrawArrays(GL_TRIANGLES,0,6);
 glUniform4f(xf,0.75,0.25,0.25,0.5);glUniform4f(col,0,0,1,1);glUniform1f(zz,0.125);glDrawArrays(GL_TRIANGLES,0,6);
 glUniform4f(xf,1,1,0,0);glUniform4f(col,0,1,1,1);glUniform1f(zz,0.375);glDrawArrays(GL_TRIANGLES,0,6);glDisable(GL_DEPTH_TEST);dump("depth");
 // 4. texture array + cube map + 3D texture + wrap modes
 {GLuint ta;glGenTextures(1,&ta);glBindTexture(GL_TEXTURE_2D_ARRAY,ta);unsigned char t[4*4*3*4];for(int i=0;i<48;i++){t[4*i]=(i*37)&255;t[4*i+1]=(i*91)&255;t[4*i+2]=(i/16)*100;t[4*i+3]=255;}
  glTexImage3D(GL_TEXTURE_2D_ARRAY,0,GL_RGBA8,4,4,3,0,GL_RGBA,GL_UNSIGNED_BYTE,t);glTexParameteri(GL_TEXTURE_2D_ARRAY,GL_TEXTURE_MIN_FILTER,GL_NEAREST);glTexParameteri(GL_TEXTURE_2D_ARRAY,GL_TEXTURE_MAG_FILTER,GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D_ARRAY,GL_TEXTURE_WRAP_S,GL_MIRRORED_REPEAT);glTexParameteri(GL_TEXTURE_2D_ARRAY,GL_TEXTURE_WRAP_T,GL_REPEAT);
  GLuint p=prog("#version 300 es\nlayout(location=0) in vec2 pos;out vec2 uv;void main(){uv=pos*1.5+0.5;gl_Position=vec4(pos,0.0,1.0);}\n",
   "#version 300 es\nprecision mediump float;precision mediump sampler2DArray;in vec2 uv;uniform sampler2DArray t;out vec4 o;void main(){float layer=floor(uv.x*1.5);o=texture(t,vec3(uv,layer));}\n");
  glUseProgram(p);glUniform1i(glGetUniformLocation(p,"t"),0);glDrawArrays(GL_TRIANGLES,0,6);dump("array_wrap");
  GLuint cube;glGenTextures(1,&cube);glBindTexture(GL_TEXTURE_CUBE_MAP,cube);for(int f=0;f<6;f++){unsigned char cf[2*2*4];for(int i=0;i<4;i++){cf[4*i]=f*40;cf[4*i+1]=i*60;cf[4*i+2]=255-f*40;cf[4*i+3]=255;}glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X+f,0,GL_RGBA8,2,2,0,GL_RGBA,GL_UNSIGNED_BYTE,cf);}
  glTexParameteri(GL_TEXTURE_CUBE_MAP,GL_TEXTURE_MIN_FILTER,GL_NEAREST);glTexParameteri(GL_TEXTURE_CUBE_MAP,GL_TEXTURE_MAG_FILTER,GL_NEAREST);
  GLuint pc=prog("#version 300 es\nlayout(location=0) in vec2 pos;out vec2 uv;void main(){uv=pos;gl_Position=vec4(pos,0.0,1.0);}\n",
   "#version 300 es\nprecision mediump float;in vec2 uv;uniform samplerCube t;out vec4 o;void main(){vec3 d=vec3(uv.x*2.0,uv.y*2.0,0.3);if(uv.x+uv.y>0.0)d=d.zxy;o=texture(t,d);}\n");
  glUseProgram(pc);glActiveTexture(GL_TEXTURE2);glBindTexture(GL_TEXTURE_CUBE_MAP,cube);glUniform1i(glGetUniformLocation(pc,"t"),2);glDrawArrays(GL_TRIANGLES,0,6);dump("cube");glActiveTexture(GL_TEXTURE0);}
 // 5. vertex attributes of several formats: normalized bytes, ints, and a second buffer with divisor
 {unsigned char colb[6*4];for(int i=0;i<6;i++){colb[4*i]=i*40;colb[4*i+1]=255-i*40;colb[4*i+2]=128;colb[4*i+3]=255;}
  GLuint cb;glGenBuffers(1,&cb);glBindBuffer(GL_ARRAY_BUFFER,cb);glBufferData(GL_ARRAY_BUFFER,sizeof colb,colb,GL_STATIC_DRAW);glVertexAttribPointer(1,4,GL_UNSIGNED_BYTE,GL_TRUE,0,0);glEnableVertexAttribArray(1);
  short off[4]={-1,1,2,0};GLuint ob;glGenBuffers(1,&ob);glBindBuffer(GL_ARRAY_BUFFER,ob);glBufferData(GL_ARRAY_BUFFER,sizeof off,off,GL_STATIC_DRAW);glVertexAttribIPointer(2,2,GL_SHORT,0,0);glEnableVertexAttribArray(2);glVertexAttribDivisor(2,1);
  GLuint p=prog("#version 300 es\nlayout(location=0) in vec2 pos;layout(location=1) in vec4 c;layout(location=2) in ivec2 o2;flat out vec4 fc;void main(){fc=c;gl_Position=vec4(pos*0.25+vec2(o2)*0.25,0.0,1.0);}\n",
   "#version 300 es\nprecision mediump float;flat in vec4 fc;out vec4 o;void main(){o=fc;}\n");
  glUseProgram(p);glClearColor(0,0,0,1);glClear(GL_COLOR_BUFFER_BIT);glDrawArraysInstanced(GL_TRIANGLES,0,6,2);dump("attribs");
  glDisableVertexAttribArray(1);glDisableVertexAttribArray(2);}
  glDisableVertexAttribArray(1);glDisableVertexAttribArray(2);glBindBuffer(GL_ARRAY_BUFFER,vb);glVertexAttribPointer(0,2,GL_FLOAT,0,0,0);glEnableVertexAttribArray(0);glVertexAttribDivisor(2,0);
 // 1. shader math: loops, local arrays with dynamic indexing, bit ops, packing
 {GLuint p=prog("#version 310 es\nlayout(location=0) in vec2 pos;out vec2 uv;void main(){uv=pos*0.5+0.5;gl_Position=vec4(pos,0.0,1.0);}\n","#version 310 es\nprecision highp float;precision highp int;in vec2 uv;out vec4 o;\n"
  "void main(){ivec2 c=ivec2(gl_FragCoord.xy);int arr[8];for(int i=0;i<8;i++)arr[i]=i*i+c.x;int s=0;for(int i=0;i<c.y%8;i++)s+=arr[(i+c.x)%8];\n"
  "uint u=uint(c.x*c.y+7);int msb=findMSB(u);uint bx=bitfieldExtract(u,2,5);uint r=bitfieldReverse(u)>>24;uint pk=packUnorm4x8(vec4(uv,0.5,1.0));vec4 up=unpackUnorm4x8(pk^0x0F0F0F0Fu);\n"
  "o=vec4(float(s%256)/255.0,float(msb*16+int(bx))/255.0,float(r)/255.0,up.x);}\n");
  glUseProgram(p);glDrawArrays(GL_TRIANGLES,0,6);dump("math");}
 // 3. float render target RGBA16F then sampled, and RGB10_A2 / RGB565 targets read back
 {GLuint ft,ff;glGenTextures(1,&ft);glBindTexture(GL_TEXTURE_2D,ft);glTexStorage2D(GL_TEXTURE_2D,1,GL_RGBA16F,64,64);glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_MIN_FILTER,GL_NEAREST);glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_MAG_FILTER,GL_NEAREST);
  glGenFramebuffers(1,&ff);glBindFramebuffer(GL_FRAMEBUFFER,ff);glFramebufferTexture2D(GL_FRAMEBUFFER,GL_COLOR_ATTACHMENT0,GL_TEXTURE_2D,ft,0);
  GLuint w=prog(VS,"#version 300 es\nprecision highp float;in vec2 uv;out vec4 o;void main(){o=vec4(uv*4.0-1.0,uv.x*uv.y*8.0,-0.5);}\n");glUseProgram(w);glDrawArrays(GL_TRIANGLES,0,6);
  glBindFramebuffer(GL_FRAMEBUFFER,fbo);GLuint r=prog(VS,"#version 300 es\nprecision highp float;in vec2 uv;uniform sampler2D t;out vec4 o;void main(){vec4 v=texture(t,uv);o=vec4(fract(v.x),clamp(v.y,0.0,1.0),v.z/8.0,-v.w);}\n");
  glUseProgram(r);glBindTexture(GL_TEXTURE_2D,ft);glUniform1i(glGetUniformLocation(r,"t"),0);glDrawArrays(GL_TRIANGLES,0,6);dump("float_rt");
  glBindFramebuffer(GL_FRAMEBUFFER,fbo);}
 // 4. scissor + color mask + glClearBufferfv + depth texture compare sampling
 {glEnable(GL_SCISSOR_TEST);glScissor(8,8,40,20);float cl[4]={0.25,0.75,0.125,1};glClearBufferfv(GL_COLOR,0,cl);glColorMask(GL_TRUE,GL_FALSE,GL_TRUE,GL_TRUE);glScissor(20,0,20,64);
  GLuint q=prog(VS,"#version 300 es\nprecision highp float;in vec2 uv;out vec4 o;void main(){o=vec4(uv.y,1.0,uv.x,1.0);}\n");glUseProgram(q);glDrawArrays(GL_TRIANGLES,0,6);
  glColorMask(GL_TRUE,GL_TRUE,GL_TRUE,GL_TRUE);glDisable(GL_SCISSOR_TEST);dump("scissor_mask");
  GLuint dt;glGenTextures(1,&dt);glBindTexture(GL_TEXTURE_2D,dt);float dd[16*16];for(int i=0;i<256;i++)dd[i]=(float)(i%16)/16.0f;glTexImage2D(GL_TEXTURE_2D,0,GL_DEPTH_COMPONENT32F,16,16,0,GL_DEPTH_COMPONENT,GL_FLOAT,dd);
  glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_COMPARE_MODE,GL_COMPARE_REF_TO_TEXTURE);glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_COMPARE_FUNC,GL_LEQUAL);glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_MIN_FILTER,GL_NEAREST);glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_MAG_FILTER,GL_NEAREST);
  GLuint s=prog(VS,"#version 300 es\nprecision highp float;precision highp sampler2DShadow;in vec2 uv;uniform sampler2DShadow t;out vec4 o;void main(){float r=texture(t,vec3(uv,uv.y));o=vec4(r,1.0-r,0.5,1.0);}\n");
  glUseProgram(s);glUniform1i(glGetUniformLocation(s,"t"),0);glDrawArrays(GL_TRIANGLES,0,6);dump("shadow");}
 {float v[5*3]={5.5f,5.5f,1, 20,10,2, 40,20,4, 12,40,8, 50,50,4};for(int i=0;i<5;i++){v[3*i]=v[3*i]/32.0f-1.0f;v[3*i+1]=v[3*i+1]/32.0f-1.0f;}
  GLuint pb;glGenBuffers(1,&pb);glBindBuffer(GL_ARRAY_BUFFER,pb);glBufferData(GL_ARRAY_BUFFER,sizeof v,v,GL_STATIC_DRAW);glVertexAttribPointer(0,3,GL_FLOAT,0,0,0);
  GLuint p=prog("#version 300 es\nlayout(location=0) in vec3 pos;flat out int id;void main(){id=gl_VertexID;gl_PointSize=pos.z;gl_Position=vec4(pos.xy,0.0,1.0);}\n",
   "#version 300 es\nprecision highp float;flat in int id;out vec4 o;void main(){o=vec4(gl_PointCoord*0.75,float(id+1)/8.0,1.0);}\n");
  glUseProgram(p);glClearColor(0,0,0,1);glClear(GL_COLOR_BUFFER_BIT);glDrawArrays(GL_POINTS,0,5);dump("points");
  glBindBuffer(GL_ARRAY_BUFFER,vb);glVertexAttribPointer(0,2,GL_FLOAT,0,0,0);}
 // compute: image store + shared memory + atomic counter
 {GLuint img;glGenTextures(1,&img);glBindTexture(GL_TEXTURE_2D,img);glTexStorage2D(GL_TEXTURE_2D,1,GL_RGBA8,64,64);
  GLuint cp=cprog("#version 310 es\nlayout(local_size_x=8,local_size_y=8) in;layout(rgba8,binding=0) writeonly uniform highp image2D img;shared uint s[64];layout(binding=0) uniform atomic_uint cnt;\n"
   "void main(){uint i=gl_LocalInvocationIndex;s[i]=i*3u+gl_WorkGroupID.x;barrier();uint v=s[63u-i];if((v&15u)==0u)atomicCounterIncrement(cnt);imageStore(img,ivec2(gl_GlobalInvocationID.xy),vec4(float(v&255u)/255.0,float(gl_WorkGroupID.y)/8.0,float(i)/64.0,1.0));}\n");
  GLuint ac;glGenBuffers(1,&ac);glBindBuffer(GL_ATOMIC_COUNTER_BUFFER,ac);unsigned zero=0;glBufferData(GL_ATOMIC_COUNTER_BUFFER,4,&zero,GL_DYNAMIC_COPY);glBindBufferBase(GL_ATOMIC_COUNTER_BUFFER,0,ac);
  glUseProgram(cp);glBindImageTexture(0,img,0,GL_FALSE,0,GL_WRITE_ONLY,GL_RGBA8);glDispatchCompute(8,8,1);glMemoryBarrier(GL_ALL_BARRIER_BITS);
  GLuint rf;glGenFramebuffers(1,&rf);glBindFramebuffer(GL_FRAMEBUFFER,rf);glFramebufferTexture2D(GL_FRAMEBUFFER,GL_COLOR_ATTACHMENT0,GL_TEXTURE_2D,img,0);dump("compute_image");
  unsigned *cv=(unsigned*)glMapBufferRange(GL_ATOMIC_COUNTER_BUFFER,0,4,GL_MAP_READ_BIT);printf("atomic_counter %u err=%x\n",cv?*cv:0xFFFFFFFF,glGetError());if(cv)glUnmapBuffer(GL_ATOMIC_COUNTER_BUFFER);}
 // texsubimage: RGB8 uploads with GL_UNPACK_ALIGNMENT 1, ROW_LENGTH 37, SKIP_PIXELS 3 and
 // SKIP_ROWS 2 into a sub-rectangle, sampled with NEAREST.
 {unsigned char*t=malloc(37*40*3);for(int i=0;i<37*40*3;i++)t[i]=(unsigned char)(i*7+i/111);
  GLuint tex;glGenTextures(1,&tex);glBindTexture(GL_TEXTURE_2D,tex);glTexStorage2D(GL_TEXTURE_2D,1,GL_RGB8,32,32);
  glPixelStorei(GL_UNPACK_ALIGNMENT,1);glPixelStorei(GL_UNPACK_ROW_LENGTH,37);glPixelStorei(GL_UNPACK_SKIP_PIXELS,3);glPixelStorei(GL_UNPACK_SKIP_ROWS,2);
  glTexSubImage2D(GL_TEXTURE_2D,0,0,0,32,32,GL_RGB,GL_UNSIGNED_BYTE,t);glTexSubImage2D(GL_TEXTURE_2D,0,5,9,13,7,GL_RGB,GL_UNSIGNED_BYTE,t+100);
  glPixelStorei(GL_UNPACK_ALIGNMENT,4);glPixelStorei(GL_UNPACK_ROW_LENGTH,0);glPixelStorei(GL_UNPACK_SKIP_PIXELS,0);glPixelStorei(GL_UNPACK_SKIP_ROWS,0);
  glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_MIN_FILTER,GL_NEAREST);glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_MAG_FILTER,GL_NEAREST);
  GLuint p=prog(VS,"#version 300 es\nprecision highp float;in vec2 uv;uniform sampler2D t;out vec4 o;void main(){o=texture(t,uv);}\n");
  glUseProgram(p);glUniform1i(glGetUniformLocation(p,"t"),0);glDrawArrays(GL_TRIANGLES,0,6);dump("texsubimage");free(t);}
 // swizzle: GL_TEXTURE_SWIZZLE_* (D3D12 shader component mappings) on an RGBA8 texture,
 // with ZERO and ONE, and an R8 texture read as (r, r, r, 1) through swizzles.
 {unsigned char t[16]={10,20,30,40, 50,60,70,80, 90,100,110,120, 130,140,150,160};GLuint tex[2];glGenTextures(2,tex);
  glBindTexture(GL_TEXTURE_2D,tex[0]);glTexImage2D(GL_TEXTURE_2D,0,GL_RGBA8,2,2,0,GL_RGBA,GL_UNSIGNED_BYTE,t);
  glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_MIN_FILTER,GL_NEAREST);glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_MAG_FILTER,GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_SWIZZLE_R,GL_BLUE);glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_SWIZZLE_G,GL_ZERO);glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_SWIZZLE_B,GL_ALPHA);glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_SWIZZLE_A,GL_ONE);
  glActiveTexture(GL_TEXTURE1);glBindTexture(GL_TEXTURE_2D,tex[1]);glPixelStorei(GL_UNPACK_ALIGNMENT,1);glTexImage2D(GL_TEXTURE_2D,0,GL_R8,2,2,0,GL_RED,GL_UNSIGNED_BYTE,t);glPixelStorei(GL_UNPACK_ALIGNMENT,4);
  glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_MIN_FILTER,GL_NEAREST);glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_MAG_FILTER,GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_SWIZZLE_G,GL_RED);glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_SWIZZLE_B,GL_RED);
  GLuint p=prog(VS,"#version 300 es\nprecision highp float;in vec2 uv;uniform sampler2D a,b;out vec4 o;void main(){o=uv.x<0.5?texture(a,uv):texture(b,uv);}\n");
  glUseProgram(p);glUniform1i(glGetUniformLocation(p,"a"),0);glUniform1i(glGetUniformLocation(p,"b"),1);glDrawArrays(GL_TRIANGLES,0,6);dump("swizzle");glActiveTexture(GL_TEXTURE0);}
 // formats: R11F_G11F_B10F, RGB9_E5, RGB10_A2 and RGB565 textures uploaded from floats/packed
 // words and sampled with NEAREST, one per quadrant, scaled into [0, 1].
 {GLuint tex[4];glGenTextures(4,tex);float f[4*4*3];for(int i=0;i<48;i++)f[i]=(float)(i%7)*0.375f+(float)(i/12)*0.125f;
  unsigned rgb10a2[16];unsigned short r565[16];for(int i=0;i<16;i++){unsigned c[3]={(unsigned)(i*61),(unsigned)(i*37),(unsigned)(1023-i*50)};
   /* llvmpipe turns 10-, 6- and 5-bit UNORM into 8 bits by truncating or replicating bits;
      D3D converts exactly (rounding to nearest). Keep to values where they all agree. */
   for(int k=0;k<3;k++){while((c[k]*255u+511u)/1023u!=(c[k]>>2)||(c[k]*255u)/1023u!=(c[k]>>2)){c[k]--;}}
   rgb10a2[i]=c[0]|(c[1]<<10)|(c[2]<<20)|((unsigned)(i%4)<<30);
   unsigned r=(unsigned)(i*2+1)&31u,g=(unsigned)(i*4+3)&63u,b=(unsigned)(31-i)&31u;
   while((r*255u+15u)/31u!=((r<<3)|(r>>2))){r--;}
   while((g*255u+31u)/63u!=((g<<2)|(g>>4))){g--;}
   while((b*255u+15u)/31u!=((b<<3)|(b>>2))){b--;}
   r565[i]=(unsigned short)((r<<11)|(g<<5)|b);}
  glBindTexture(GL_TEXTURE_2D,tex[0]);glTexImage2D(GL_TEXTURE_2D,0,GL_R11F_G11F_B10F,4,4,0,GL_RGB,GL_FLOAT,f);
  glBindTexture(GL_TEXTURE_2D,tex[1]);glTexImage2D(GL_TEXTURE_2D,0,GL_RGB9_E5,4,4,0,GL_RGB,GL_FLOAT,f);
  glBindTexture(GL_TEXTURE_2D,tex[2]);glTexImage2D(GL_TEXTURE_2D,0,GL_RGB10_A2,4,4,0,GL_RGBA,GL_UNSIGNED_INT_2_10_10_10_REV,rgb10a2);
  glBindTexture(GL_TEXTURE_2D,tex[3]);glTexImage2D(GL_TEXTURE_2D,0,GL_RGB565,4,4,0,GL_RGB,GL_UNSIGNED_SHORT_5_6_5,r565);
  for(int i=0;i<4;i++){glActiveTexture(GL_TEXTURE0+i);glBindTexture(GL_TEXTURE_2D,tex[i]);glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_MIN_FILTER,GL_NEAREST);glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_MAG_FILTER,GL_NEAREST);}
  GLuint p=prog(VS,"#version 300 es\nprecision highp float;in vec2 uv;uniform sampler2D t[4];out vec4 o;void main(){vec2 q=fract(uv*2.0);int k=int(uv.x>=0.5)+2*int(uv.y>=0.5);vec4 v;\n"
   "if(k==0)v=texture(t[0],q)/4.0;else if(k==1)v=texture(t[1],q)/4.0;else if(k==2)v=texture(t[2],q);else v=texture(t[3],q);o=vec4(v.rgb,1.0);}\n");
  glUseProgram(p);int u[4]={0,1,2,3};glUniform1iv(glGetUniformLocation(p,"t"),4,u);glDrawArrays(GL_TRIANGLES,0,6);dump("formats");glActiveTexture(GL_TEXTURE0);}
 // msaa_resolve: a triangle whose edges cross pixels into a 4x RGBA8 renderbuffer, colors 0 and
 // 252 so every coverage average is exact, resolved with glBlitFramebuffer.
 {GLuint rb,mf;glGenRenderbuffers(1,&rb);glBindRenderbuffer(GL_RENDERBUFFER,rb);glRenderbufferStorageMultisample(GL_RENDERBUFFER,4,GL_RGBA8,64,64);
  glGenFramebuffers(1,&mf);glBindFramebuffer(GL_FRAMEBUFFER,mf);glFramebufferRenderbuffer(GL_FRAMEBUFFER,GL_COLOR_ATTACHMENT0,GL_RENDERBUFFER,rb);
  glClearColor(0,0,0,0);glClear(GL_COLOR_BUFFER_BIT);float tri[6]={-0.9f,-0.8f,0.83f,-0.31f,-0.27f,0.94f};GLuint tb;glGenBuffers(1,&tb);glBindBuffer(GL_ARRAY_BUFFER,tb);glBufferData(GL_ARRAY_BUFFER,sizeof tri,tri,GL_STATIC_DRAW);glVertexAttribPointer(0,2,GL_FLOAT,0,0,0);
  GLuint p=prog(VS,"#version 300 es\nprecision highp float;in vec2 uv;out vec4 o;void main(){o=vec4(252.0/255.0,0.0,252.0/255.0,252.0/255.0);}\n");glUseProgram(p);glDrawArrays(GL_TRIANGLES,0,3);
  glBindFramebuffer(GL_READ_FRAMEBUFFER,mf);glBindFramebuffer(GL_DRAW_FRAMEBUFFER,fbo);glBlitFramebuffer(0,0,64,64,0,0,64,64,GL_COLOR_BUFFER_BIT,GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER,fbo);dump("msaa_resolve");glBindBuffer(GL_ARRAY_BUFFER,vb);glVertexAttribPointer(0,2,GL_FLOAT,0,0,0);glClearColor(0,0,0,1);}
 // indirect: glDrawElementsIndirect (a triangle strip with a primitive restart) and
 // glDrawArraysIndirect (first 3), positions looked up by gl_VertexID: Mesa passes the draw
 // parameters as root constants through the command signature (no flat varyings here: with
 // them Mesa 22.3 adds a geometry shader and sends the constants to its parameter instead).
 {GLuint va;glGenVertexArrays(1,&va);glBindVertexArray(va);
  unsigned short idx[9]={0,4,1,5,0xFFFF,2,6,3,7};GLuint ib;glGenBuffers(1,&ib);glBindBuffer(GL_ELEMENT_ARRAY_BUFFER,ib);glBufferData(GL_ELEMENT_ARRAY_BUFFER,sizeof idx,idx,GL_STATIC_DRAW);
  unsigned cmds[4+5]={3,1,8,0, 9,1,0,0,0};GLuint ind;glGenBuffers(1,&ind);glBindBuffer(GL_DRAW_INDIRECT_BUFFER,ind);glBufferData(GL_DRAW_INDIRECT_BUFFER,sizeof cmds,cmds,GL_STATIC_DRAW);
  GLuint p=prog("#version 310 es\nconst vec2 P[12]=vec2[12](vec2(-0.75,-0.75),vec2(-0.25,-0.75),vec2(0.25,-0.75),vec2(0.75,-0.75),vec2(-0.75,0.25),vec2(-0.25,0.25),vec2(0.25,0.25),vec2(0.75,0.25),\n"
   "vec2(-0.5,0.5),vec2(0.75,0.5),vec2(-0.5,1.0),vec2(0,0));void main(){gl_Position=vec4(P[gl_VertexID],0.0,1.0);}\n",
   "#version 310 es\nprecision highp float;uniform vec4 c;out vec4 o;void main(){o=c;}\n");
  glUseProgram(p);glClear(GL_COLOR_BUFFER_BIT);glEnable(GL_PRIMITIVE_RESTART_FIXED_INDEX);glUniform4f(glGetUniformLocation(p,"c"),0.25,0.5,0.75,1.0);glDrawElementsIndirect(GL_TRIANGLE_STRIP,GL_UNSIGNED_SHORT,(void*)16);glDisable(GL_PRIMITIVE_RESTART_FIXED_INDEX);
  glUniform4f(glGetUniformLocation(p,"c"),1.0,0.0,0.5,1.0);glDrawArraysIndirect(GL_TRIANGLES,(void*)0);dump("indirect");glBindVertexArray(0);}
 // texfetch: texelFetch from mip levels 0..2 and textureSize of a 16x8 texture with distinct
 // per-level contents, and textureGrad with explicit gradients.
 {GLuint tex;glGenTextures(1,&tex);glBindTexture(GL_TEXTURE_2D,tex);glTexStorage2D(GL_TEXTURE_2D,3,GL_RGBA8,16,8);for(int l=0;l<3;l++){int w=16>>l,h=8>>l;unsigned char*t=malloc(w*h*4);for(int i=0;i<w*h;i++){t[4*i]=(unsigned char)(l*80+i);t[4*i+1]=(unsigned char)(i*5);t[4*i+2]=(unsigned char)(255-i);t[4*i+3]=255;}
  glTexSubImage2D(GL_TEXTURE_2D,l,0,0,w,h,GL_RGBA,GL_UNSIGNED_BYTE,t);free(t);}glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_MIN_FILTER,GL_NEAREST_MIPMAP_NEAREST);glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_MAG_FILTER,GL_NEAREST);
  GLuint p=prog(VS,"#version 300 es\nprecision highp float;in vec2 uv;uniform highp sampler2D t;out vec4 o;void main(){int l=min(int(uv.y*4.0),2);ivec2 s=textureSize(t,l);ivec2 c=ivec2(uv*vec2(s));\n"
   "vec4 a=texelFetch(t,c,l);vec4 g=textureGrad(t,uv,vec2(0.25,0.0),vec2(0.0,0.125));o=vec4(a.r,g.g,float(s.x+s.y)/32.0,a.b);}\n");
  glUseProgram(p);glUniform1i(glGetUniformLocation(p,"t"),0);glDrawArrays(GL_TRIANGLES,0,6);dump("texfetch");}
 // int_rt: an RGBA32I render target cleared with glClearBufferiv, drawn with integer outputs,
 // read back with glReadPixels(GL_RGBA_INTEGER, GL_INT) and hashed.
 {GLuint it,ifb;glGenTextures(1,&it);glBindTexture(GL_TEXTURE_2D,it);glTexStorage2D(GL_TEXTURE_2D,1,GL_RGBA32I,64,64);glGenFramebuffers(1,&ifb);glBindFramebuffer(GL_FRAMEBUFFER,ifb);glFramebufferTexture2D(GL_FRAMEBUFFER,GL_COLOR_ATTACHMENT0,GL_TEXTURE_2D,it,0);
  int cl[4]={-7,123456,-2000000000,42};glClearBufferiv(GL_COLOR,0,cl);glEnable(GL_SCISSOR_TEST);glScissor(10,10,40,30);
  GLuint p=prog(VS,"#version 300 es\nprecision highp float;precision highp int;in vec2 uv;layout(location=0) out ivec4 o;void main(){ivec2 c=ivec2(gl_FragCoord.xy);o=ivec4(c.x*c.y-500,-c.x,c.y<<20,int(uv.x*1000.0));}\n");
  glUseProgram(p);glDrawArrays(GL_TRIANGLES,0,6);glDisable(GL_SCISSOR_TEST);static int ip[64*64*4];glReadPixels(0,0,64,64,GL_RGBA_INTEGER,GL_INT,ip);
  unsigned long h=1469598103934665603UL;for(size_t i=0;i<sizeof ip;i++){h^=((unsigned char*)ip)[i];h*=1099511628211UL;}printf("int_rt %016lx p(5,5)=%d,%d,%d,%d p(20,20)=%d,%d,%d,%d err=%x\n",h,ip[4*(5*64+5)],ip[4*(5*64+5)+1],ip[4*(5*64+5)+2],ip[4*(5*64+5)+3],ip[4*(20*64+20)],ip[4*(20*64+20)+1],ip[4*(20*64+20)+2],ip[4*(20*64+20)+3],glGetError());
  glBindFramebuffer(GL_FRAMEBUFFER,fbo);}
 // copytex: glCopyTexSubImage2D of a region of the framebuffer into a texture, then sampled.
 {GLuint p0=prog(VS,"#version 300 es\nprecision highp float;in vec2 uv;out vec4 o;void main(){o=vec4(uv,fract(uv.x*uv.y*16.0),1.0);}\n");glUseProgram(p0);glDrawArrays(GL_TRIANGLES,0,6);
  GLuint tex;glGenTextures(1,&tex);glBindTexture(GL_TEXTURE_2D,tex);glTexStorage2D(GL_TEXTURE_2D,1,GL_RGBA8,32,32);glCopyTexSubImage2D(GL_TEXTURE_2D,0,4,6,10,3,20,24);
  glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_MIN_FILTER,GL_NEAREST);glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_MAG_FILTER,GL_NEAREST);
  GLuint p=prog(VS,"#version 300 es\nprecision highp float;in vec2 uv;uniform sampler2D t;out vec4 o;void main(){o=texture(t,uv).bgra;}\n");glUseProgram(p);glUniform1i(glGetUniformLocation(p,"t"),0);glDrawArrays(GL_TRIANGLES,0,6);dump("copytex");}
 // ssbo_frag: a fragment shader appending to a storage buffer with atomicAdd (each covered
 // pixel of a 16x16 scissor writes its coordinate at the returned slot); the slot count and a
 // hash of the sorted... contents summed per row are printed.
 {GLint n=0;glGetIntegerv(GL_MAX_FRAGMENT_SHADER_STORAGE_BLOCKS,&n);if(n>0){GLuint sb;glGenBuffers(1,&sb);glBindBuffer(GL_SHADER_STORAGE_BUFFER,sb);static unsigned z[1+256+64];memset(z,0,sizeof z);glBufferData(GL_SHADER_STORAGE_BUFFER,sizeof z,z,GL_DYNAMIC_COPY);glBindBufferBase(GL_SHADER_STORAGE_BUFFER,0,sb);
  GLuint p=prog("#version 310 es\nlayout(location=0) in vec2 pos;out vec2 uv;void main(){uv=pos*0.5+0.5;gl_Position=vec4(pos,0.0,1.0);}\n","#version 310 es\nprecision highp float;in vec2 uv;layout(std430,binding=0) buffer B{uint count;uint slots[256];uint rows[64];};out vec4 o;void main(){uint s=atomicAdd(count,1u);ivec2 c=ivec2(gl_FragCoord.xy);slots[s&255u]=1u;atomicAdd(rows[c.y],uint(c.x));o=vec4(uv,0.0,1.0);}\n");
  glEnable(GL_SCISSOR_TEST);glScissor(20,30,16,16);glUseProgram(p);glDrawArrays(GL_TRIANGLES,0,6);glDisable(GL_SCISSOR_TEST);glMemoryBarrier(GL_ALL_BARRIER_BITS);
  unsigned*r=(unsigned*)glMapBufferRange(GL_SHADER_STORAGE_BUFFER,0,sizeof z,GL_MAP_READ_BIT);unsigned long h=1469598103934665603UL;for(size_t i=0;r&&i<sizeof z;i++){h^=((unsigned char*)r)[i];h*=1099511628211UL;}
  printf("ssbo_frag %016lx count=%u row30=%u err=%x\n",r?h:0,r?r[0]:0,r?r[1+256+30]:0,glGetError());if(r){glUnmapBuffer(GL_SHADER_STORAGE_BUFFER);}}else printf("ssbo_frag none\n");}
 // vertex_formats: attributes as half floats, normalized shorts, INT_2_10_10_10_REV and
 // unnormalized ints (glVertexAttribIPointer), one quad per format pair.
 {struct V{unsigned short h[2];short n[2];unsigned p;int iv[2];};struct V v[6];const float q[12]={-1,-1,1,-1,-1,1,-1,1,1,-1,1,1};
  const unsigned short hx[4]={0xB800,0x3800,0xB400,0x3A00};/* -0.5 0.5 -0.25 0.75 */
  for(int i=0;i<6;i++){v[i].h[0]=q[2*i]<0?hx[0]:hx[1];v[i].h[1]=q[2*i+1]<0?hx[2]:hx[3];v[i].n[0]=(short)(i*5000-12000);v[i].n[1]=(short)(32767-i*9000);
   v[i].p=(unsigned)(i*100)|((unsigned)(511-i*64)<<10)|((unsigned)(1023-i*3)<<20)|((unsigned)((i%3)==2?3:(i%3))<<30);v[i].iv[0]=i*7-20;v[i].iv[1]=1000000*i;}
  GLuint b,va;glGenVertexArrays(1,&va);glBindVertexArray(va);glGenBuffers(1,&b);glBindBuffer(GL_ARRAY_BUFFER,b);glBufferData(GL_ARRAY_BUFFER,sizeof v,v,GL_STATIC_DRAW);
  glVertexAttribPointer(0,2,GL_HALF_FLOAT,0,sizeof(struct V),(void*)0);glVertexAttribPointer(1,2,GL_SHORT,1,sizeof(struct V),(void*)4);
  glVertexAttribPointer(2,4,GL_INT_2_10_10_10_REV,1,sizeof(struct V),(void*)8);glVertexAttribIPointer(3,2,GL_INT,sizeof(struct V),(void*)12);for(int i=0;i<4;i++)glEnableVertexAttribArray(i);
  GLuint p=prog("#version 300 es\nlayout(location=0) in vec2 pos;layout(location=1) in vec2 n;layout(location=2) in vec4 w;layout(location=3) in ivec2 iv;flat out vec4 c;\n"
   "void main(){c=vec4(n.x*0.5+0.5,w.y*0.5+0.5,float(iv.x+20)/64.0,float(iv.y/1000000)/8.0+w.w/8.0);gl_Position=vec4(pos,0.0,1.0);}\n",
   "#version 300 es\nprecision highp float;flat in vec4 c;out vec4 o;void main(){o=c;}\n");
  glUseProgram(p);glClearColor(0,0,0,1);glClear(GL_COLOR_BUFFER_BIT);glDrawArrays(GL_TRIANGLES,0,6);dump("vertex_formats");glBindVertexArray(0);}
 // ubo_range: a uniform block bound with glBindBufferRange at a 256-byte-aligned offset (the
 // D3D12 CBV placement alignment), std140 arrays of vec4 and a struct.
 {GLint al=0;glGetIntegerv(GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT,&al);if(al<16)al=256;float*u=calloc(1,(size_t)al*2+256);for(int i=0;i<64;i++)u[al/4+i]=(float)i/64.0f;
  GLuint ub;glGenBuffers(1,&ub);glBindBuffer(GL_UNIFORM_BUFFER,ub);glBufferData(GL_UNIFORM_BUFFER,al*2+256,u,GL_STATIC_DRAW);free(u);
  GLuint p=prog(VS,"#version 300 es\nprecision highp float;in vec2 uv;struct S{vec4 a;float b;};layout(std140) uniform U{vec4 arr[8];S s;vec4 tail;};out vec4 o;\n"
   "void main(){int k=int(uv.x*8.0);o=vec4(arr[k].x,arr[7-k].w,s.b,tail.z);}\n");
  glUseProgram(p);glUniformBlockBinding(p,glGetUniformBlockIndex(p,"U"),2);glBindBufferRange(GL_UNIFORM_BUFFER,2,ub,al,256);glDrawArrays(GL_TRIANGLES,0,6);dump("ubo_range");}
 // tex3d: a 4x4x4 RGBA8 3D texture uploaded with glTexImage3D and sampled NEAREST through
 // four slices; then glTexSubImage3D of one slice.
 {unsigned char t[4*4*4*4];for(int i=0;i<256;i++){t[4*i]=(unsigned char)(i*4);t[4*i+1]=(unsigned char)(255-i);t[4*i+2]=(unsigned char)((i/16)*60);t[4*i+3]=255;}
  GLuint tex;glGenTextures(1,&tex);glBindTexture(GL_TEXTURE_3D,tex);glTexImage3D(GL_TEXTURE_3D,0,GL_RGBA8,4,4,4,0,GL_RGBA,GL_UNSIGNED_BYTE,t);
  unsigned char s[4*4*4];memset(s,200,sizeof s);glTexSubImage3D(GL_TEXTURE_3D,0,1,1,2,2,2,1,GL_RGBA,GL_UNSIGNED_BYTE,s);
  glTexParameteri(GL_TEXTURE_3D,GL_TEXTURE_MIN_FILTER,GL_NEAREST);glTexParameteri(GL_TEXTURE_3D,GL_TEXTURE_MAG_FILTER,GL_NEAREST);
  GLuint p=prog(VS,"#version 300 es\nprecision highp float;precision highp sampler3D;in vec2 uv;uniform sampler3D t;out vec4 o;void main(){vec2 q=fract(uv*2.0);float z=(floor(uv.x*2.0)+2.0*floor(uv.y*2.0)+0.5)/4.0;o=texture(t,vec3(q,z));}\n");
  glUseProgram(p);glUniform1i(glGetUniformLocation(p,"t"),0);glDrawArrays(GL_TRIANGLES,0,6);dump("tex3d");glBindTexture(GL_TEXTURE_3D,0);}
 // stencil_tex: a DEPTH24_STENCIL8 texture filled by stencil operations, then its stencil
 // plane sampled as an integer texture (GL_DEPTH_STENCIL_TEXTURE_MODE = GL_STENCIL_INDEX).
 {GLuint ds,sf;glGenTextures(1,&ds);glBindTexture(GL_TEXTURE_2D,ds);glTexStorage2D(GL_TEXTURE_2D,1,GL_DEPTH24_STENCIL8,64,64);glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_MIN_FILTER,GL_NEAREST);glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_MAG_FILTER,GL_NEAREST);
  glGenFramebuffers(1,&sf);glBindFramebuffer(GL_FRAMEBUFFER,sf);glFramebufferTexture2D(GL_FRAMEBUFFER,GL_COLOR_ATTACHMENT0,GL_TEXTURE_2D,rt[1],0);glFramebufferTexture2D(GL_FRAMEBUFFER,GL_DEPTH_STENCIL_ATTACHMENT,GL_TEXTURE_2D,ds,0);
  glClearBufferfi(GL_DEPTH_STENCIL,0,1.0f,3);glEnable(GL_STENCIL_TEST);glStencilFunc(GL_ALWAYS,0,0xFF);glStencilOp(GL_KEEP,GL_KEEP,GL_INCR);
  GLuint w=prog(VS,"#version 300 es\nprecision highp float;in vec2 uv;out vec4 o;void main(){if(fract(uv.x*4.0)>0.5)discard;o=vec4(1);}\n");glUseProgram(w);
  for(int i=0;i<3;i++){glEnable(GL_SCISSOR_TEST);glScissor(0,0,64,16*(i+1));glDrawArrays(GL_TRIANGLES,0,6);}glDisable(GL_SCISSOR_TEST);glDisable(GL_STENCIL_TEST);
  glBindFramebuffer(GL_FRAMEBUFFER,fbo);glBindTexture(GL_TEXTURE_2D,ds);glTexParameteri(GL_TEXTURE_2D,GL_DEPTH_STENCIL_TEXTURE_MODE,GL_STENCIL_INDEX);
  GLuint r=prog(VS,"#version 300 es\nprecision highp float;precision highp usampler2D;in vec2 uv;uniform usampler2D t;out vec4 o;void main(){uint s=texture(t,uv).r;o=vec4(float(s)/8.0,float(s&1u),0.25,1.0);}\n");
  glUseProgram(r);glUniform1i(glGetUniformLocation(r,"t"),0);glDrawArrays(GL_TRIANGLES,0,6);dump("stencil_tex");}
 // lod_clamp: GL_TEXTURE_BASE_LEVEL / MAX_LEVEL (the SRV's mip range) and MIN_LOD / MAX_LOD
 // (the sampler's) on a 32x32 texture with one flat color per level, minified with
 // NEAREST_MIPMAP_NEAREST over a 64x64 target at several scales.
 {GLuint tex;glGenTextures(1,&tex);glBindTexture(GL_TEXTURE_2D,tex);glTexStorage2D(GL_TEXTURE_2D,6,GL_RGBA8,32,32);for(int l=0;l<6;l++){int n=32>>l;unsigned char*t=malloc(n*n*4);for(int i=0;i<n*n;i++){t[4*i]=(unsigned char)(l*40);t[4*i+1]=(unsigned char)(250-l*40);t[4*i+2]=(unsigned char)(l*20);t[4*i+3]=255;}
  glTexSubImage2D(GL_TEXTURE_2D,l,0,0,n,n,GL_RGBA,GL_UNSIGNED_BYTE,t);free(t);}
  glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_MIN_FILTER,GL_NEAREST_MIPMAP_NEAREST);glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_MAG_FILTER,GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_BASE_LEVEL,1);glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_MAX_LEVEL,4);glTexParameterf(GL_TEXTURE_2D,GL_TEXTURE_MIN_LOD,0.0f);glTexParameterf(GL_TEXTURE_2D,GL_TEXTURE_MAX_LOD,2.0f);
  GLuint p=prog(VS,"#version 300 es\nprecision highp float;in vec2 uv;uniform sampler2D t;out vec4 o;void main(){float s=exp2(floor(uv.y*4.0)*2.0-2.0);o=texture(t,uv*s)+vec4(0.0,0.0,float(textureSize(t,0).x)/64.0,0.0);}\n");
  glUseProgram(p);glUniform1i(glGetUniformLocation(p,"t"),0);glDrawArrays(GL_TRIANGLES,0,6);dump("lod_clamp");}
 // gather_offset: textureGatherOffset with a constant offset and textureOffset on a 16x16 R8
 // texture (ES 3.1), component 0 and the alpha channel of an RGBA texture.
 {unsigned char t[16*16*4];for(int i=0;i<256;i++){t[4*i]=(unsigned char)(i);t[4*i+1]=(unsigned char)(i*3);t[4*i+2]=(unsigned char)(i*7);t[4*i+3]=(unsigned char)(255-i);}
  GLuint tex;glGenTextures(1,&tex);glBindTexture(GL_TEXTURE_2D,tex);glTexImage2D(GL_TEXTURE_2D,0,GL_RGBA8,16,16,0,GL_RGBA,GL_UNSIGNED_BYTE,t);glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_MIN_FILTER,GL_NEAREST);glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_MAG_FILTER,GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_WRAP_S,GL_REPEAT);glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_WRAP_T,GL_MIRRORED_REPEAT);
  GLuint p=prog("#version 310 es\nlayout(location=0) in vec2 pos;out vec2 uv;void main(){uv=pos*0.5+0.5;gl_Position=vec4(pos,0.0,1.0);}\n",
   "#version 310 es\nprecision highp float;in vec2 uv;uniform highp sampler2D t;out vec4 o;void main(){vec2 c=(floor(uv*16.0)+1.0)/16.0;vec4 g=textureGatherOffset(t,c,ivec2(-2,3));vec4 a=textureGatherOffset(t,c,ivec2(1,-1),3);vec4 s=textureOffset(t,uv,ivec2(3,-4));\n"
   "o=vec4(g.x,g.w,a.y,s.b);}\n");
  glUseProgram(p);glUniform1i(glGetUniformLocation(p,"t"),0);glDrawArrays(GL_TRIANGLES,0,6);dump("gather_offset");}
 // int_textures: R16I and RG8UI textures read with texelFetch, R32F with a float texelFetch.
 {short a[16];unsigned char b[32];float f[16];for(int i=0;i<16;i++){a[i]=(short)(i*2000-15000);b[2*i]=(unsigned char)(i*16);b[2*i+1]=(unsigned char)(255-i*9);f[i]=(float)i*0.0625f-0.25f;}
  GLuint tx[3];glGenTextures(3,tx);glPixelStorei(GL_UNPACK_ALIGNMENT,1);
  glActiveTexture(GL_TEXTURE0);glBindTexture(GL_TEXTURE_2D,tx[0]);glTexImage2D(GL_TEXTURE_2D,0,GL_R16I,4,4,0,GL_RED_INTEGER,GL_SHORT,a);
  glActiveTexture(GL_TEXTURE1);glBindTexture(GL_TEXTURE_2D,tx[1]);glTexImage2D(GL_TEXTURE_2D,0,GL_RG8UI,4,4,0,GL_RG_INTEGER,GL_UNSIGNED_BYTE,b);
  glActiveTexture(GL_TEXTURE2);glBindTexture(GL_TEXTURE_2D,tx[2]);glTexImage2D(GL_TEXTURE_2D,0,GL_R32F,4,4,0,GL_RED,GL_FLOAT,f);glPixelStorei(GL_UNPACK_ALIGNMENT,4);
  for(int i=0;i<3;i++){glActiveTexture(GL_TEXTURE0+i);glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_MIN_FILTER,GL_NEAREST);glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_MAG_FILTER,GL_NEAREST);}glActiveTexture(GL_TEXTURE0);
  GLuint p=prog(VS,"#version 300 es\nprecision highp float;precision highp isampler2D;precision highp usampler2D;in vec2 uv;uniform isampler2D a;uniform usampler2D b;uniform sampler2D f;out vec4 o;\n"
   "void main(){ivec2 c=ivec2(uv*4.0);int x=texelFetch(a,c,0).r;uvec2 y=texelFetch(b,c,0).rg;float z=texelFetch(f,c,0).r;o=vec4(float(x+16000)/40000.0,float(y.x)/255.0,float(y.y)/255.0,z+0.25);}\n");
  glUseProgram(p);glUniform1i(glGetUniformLocation(p,"a"),0);glUniform1i(glGetUniformLocation(p,"b"),1);glUniform1i(glGetUniformLocation(p,"f"),2);glDrawArrays(GL_TRIANGLES,0,6);dump("int_textures");}
 // sample_shading: a 4x renderbuffer drawn by a fragment shader that reads gl_SampleID and a
 // `sample in` varying (OES_sample_variables / OES_shader_multisample_interpolation), so it
 // runs per sample; each sample's color comes from its index and from which eighth of the
 // target its own position falls in; resolved with glBlitFramebuffer.
 {GLuint rb,mf;glGenRenderbuffers(1,&rb);glBindRenderbuffer(GL_RENDERBUFFER,rb);glRenderbufferStorageMultisample(GL_RENDERBUFFER,4,GL_RGBA8,64,64);
  glGenFramebuffers(1,&mf);glBindFramebuffer(GL_FRAMEBUFFER,mf);glFramebufferRenderbuffer(GL_FRAMEBUFFER,GL_COLOR_ATTACHMENT0,GL_RENDERBUFFER,rb);glClearColor(0,0,0,0);glClear(GL_COLOR_BUFFER_BIT);
  GLuint p=prog("#version 310 es\n#extension GL_OES_shader_multisample_interpolation : require\nlayout(location=0) in vec2 pos;sample out vec2 sp;void main(){sp=pos*0.5+0.5;gl_Position=vec4(pos,0.0,1.0);}\n",
   "#version 310 es\n#extension GL_OES_sample_variables : require\n#extension GL_OES_shader_multisample_interpolation : require\nprecision highp float;sample in vec2 sp;out vec4 o;\n"
   "void main(){o=vec4(float(gl_SampleID)*60.0/255.0,floor(sp.x*64.0)*4.0/255.0,floor(sp.y*8.0)*30.0/255.0,1.0);}\n");
  glUseProgram(p);glDrawArrays(GL_TRIANGLES,0,6);glBindFramebuffer(GL_READ_FRAMEBUFFER,mf);glBindFramebuffer(GL_DRAW_FRAMEBUFFER,fbo);glBlitFramebuffer(0,0,64,64,0,0,64,64,GL_COLOR_BUFFER_BIT,GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER,fbo);dump("sample_shading");glClearColor(0,0,0,1);}
 // geometry: an application geometry shader (EXT_geometry_shader) turning each triangle into
 // itself and a copy moved right, with a per-copy flat color.
 {GLuint p=glCreateProgram();const char*src[3]={"#version 310 es\nlayout(location=0) in vec2 pos;void main(){gl_Position=vec4(pos*0.4-0.5,0.0,1.0);}\n",
   "#version 310 es\n#extension GL_EXT_geometry_shader : require\nlayout(triangles) in;layout(triangle_strip,max_vertices=6) out;flat out int copy;\n"
   "void main(){for(int c=0;c<2;c++){for(int i=0;i<3;i++){copy=c;gl_Position=gl_in[i].gl_Position+vec4(float(c)*0.875,float(c)*0.25,0.0,0.0);EmitVertex();}EndPrimitive();}}\n",
   "#version 310 es\nprecision highp float;flat in int copy;out vec4 o;void main(){o=copy==0?vec4(1.0,0.5,0.0,1.0):vec4(0.0,0.25,1.0,1.0);}\n"};
  GLenum k[3]={GL_VERTEX_SHADER,0x8DD9/*GL_GEOMETRY_SHADER_EXT*/,GL_FRAGMENT_SHADER};for(int i=0;i<3;i++){GLuint sh=glCreateShader(k[i]);glShaderSource(sh,1,&src[i],0);glCompileShader(sh);GLint ok;glGetShaderiv(sh,GL_COMPILE_STATUS,&ok);if(!ok){char b[999];glGetShaderInfoLog(sh,999,0,b);fprintf(stderr,"%s\n",b);}glAttachShader(p,sh);}
  glLinkProgram(p);glUseProgram(p);glClear(GL_COLOR_BUFFER_BIT);glDrawArrays(GL_TRIANGLES,0,6);dump("geometry");}
 // blend_float: blending on an RGBA32F target, where it is exact: ADD with SRC_ALPHA /
 // ONE_MINUS_SRC_ALPHA, then MIN and MAX per channel and FUNC_REVERSE_SUBTRACT with
 // CONSTANT_COLOR; read back as floats and hashed.
 {GLuint ft,ff;glGenTextures(1,&ft);glBindTexture(GL_TEXTURE_2D,ft);glTexStorage2D(GL_TEXTURE_2D,1,GL_RGBA32F,64,64);glGenFramebuffers(1,&ff);glBindFramebuffer(GL_FRAMEBUFFER,ff);glFramebufferTexture2D(GL_FRAMEBUFFER,GL_COLOR_ATTACHMENT0,GL_TEXTURE_2D,ft,0);
  float cl[4]={0.5f,0.25f,0.125f,1.0f};glClearBufferfv(GL_COLOR,0,cl);
  GLuint p=prog(VS,"#version 300 es\nprecision highp float;in vec2 uv;uniform vec4 k;out vec4 o;void main(){o=vec4(floor(uv*8.0)/8.0,k.x,floor(uv.x*4.0)/4.0);}\n");glUseProgram(p);GLint kl=glGetUniformLocation(p,"k");
  glEnable(GL_BLEND);glBlendFunc(GL_SRC_ALPHA,GL_ONE_MINUS_SRC_ALPHA);glUniform4f(kl,0.75f,0,0,0);glDrawArrays(GL_TRIANGLES,0,6);
  glBlendEquationSeparate(GL_MIN,GL_MAX);glUniform4f(kl,0.375f,0,0,0);glDrawArrays(GL_TRIANGLES,0,6);
  glBlendEquation(GL_FUNC_REVERSE_SUBTRACT);glBlendFuncSeparate(GL_CONSTANT_COLOR,GL_ONE,GL_ONE,GL_ONE_MINUS_DST_ALPHA);glBlendColor(0.5f,0.25f,1.0f,0.5f);glUniform4f(kl,0.0625f,0,0,0);glDrawArrays(GL_TRIANGLES,0,6);
  glBlendEquation(GL_FUNC_ADD);glBlendFunc(GL_ONE,GL_ZERO);glDisable(GL_BLEND);
  static float fp[64*64*4];glReadPixels(0,0,64,64,GL_RGBA,GL_FLOAT,fp);unsigned long h=1469598103934665603UL;for(size_t i=0;i<sizeof fp;i++){h^=((unsigned char*)fp)[i];h*=1099511628211UL;}
  printf("blend_float %016lx p(5,5)=%g,%g,%g,%g p(40,20)=%g,%g,%g,%g err=%x\n",h,fp[4*(5*64+5)],fp[4*(5*64+5)+1],fp[4*(5*64+5)+2],fp[4*(5*64+5)+3],fp[4*(20*64+40)],fp[4*(20*64+40)+1],fp[4*(20*64+40)+2],fp[4*(20*64+40)+3],glGetError());
  glBindFramebuffer(GL_FRAMEBUFFER,fbo);}
 // faces_stencil: glFrontFace(GL_CW) with front-face culling, then two-sided stencil
 // (glStencilFuncSeparate/glStencilOpSeparate) counting front and back triangles differently.
 {GLuint dsr,sf;glGenRenderbuffers(1,&dsr);glBindRenderbuffer(GL_RENDERBUFFER,dsr);glRenderbufferStorage(GL_RENDERBUFFER,GL_DEPTH24_STENCIL8,64,64);glFramebufferRenderbuffer(GL_FRAMEBUFFER,GL_DEPTH_STENCIL_ATTACHMENT,GL_RENDERBUFFER,dsr);sf=fbo;(void)sf;
  float t[4*6]={-0.9f,-0.9f,0.1f,-0.9f,-0.9f,0.1f, 0.9f,0.9f,0.9f,-0.1f,-0.1f,0.9f, -0.8f,0.8f,0.8f,-0.8f,0.8f,0.8f, -0.8f,0.8f,-0.8f,-0.8f,0.8f,-0.8f};GLuint tb;glGenBuffers(1,&tb);glBindBuffer(GL_ARRAY_BUFFER,tb);glBufferData(GL_ARRAY_BUFFER,sizeof t,t,GL_STATIC_DRAW);glVertexAttribPointer(0,2,GL_FLOAT,0,0,0);
  GLuint p=prog("#version 300 es\nlayout(location=0) in vec2 pos;void main(){gl_Position=vec4(pos,0.0,1.0);}\n","#version 300 es\nprecision highp float;uniform vec4 c;out vec4 o;void main(){o=gl_FrontFacing?c:c.bgra;}\n");glUseProgram(p);
  glClearColor(0,0,0,1);glClearStencil(0);glClear(GL_COLOR_BUFFER_BIT|GL_STENCIL_BUFFER_BIT);glEnable(GL_CULL_FACE);glFrontFace(GL_CW);glCullFace(GL_FRONT);glUniform4f(glGetUniformLocation(p,"c"),1,0.5,0,1);glDrawArrays(GL_TRIANGLES,0,6);glDisable(GL_CULL_FACE);glFrontFace(GL_CCW);
  glEnable(GL_STENCIL_TEST);glStencilFuncSeparate(GL_FRONT,GL_ALWAYS,0,0xFF);glStencilFuncSeparate(GL_BACK,GL_ALWAYS,0,0xFF);glStencilOpSeparate(GL_FRONT,GL_KEEP,GL_KEEP,GL_INCR);glStencilOpSeparate(GL_BACK,GL_KEEP,GL_KEEP,GL_INVERT);
  glColorMask(0,0,0,0);glDrawArrays(GL_TRIANGLES,6,6);glColorMask(1,1,1,1);glStencilFuncSeparate(GL_FRONT_AND_BACK,GL_EQUAL,1,0x0F);glStencilOp(GL_KEEP,GL_KEEP,GL_KEEP);glUniform4f(glGetUniformLocation(p,"c"),0,1,0.25,1);
  glBindBuffer(GL_ARRAY_BUFFER,vb);glVertexAttribPointer(0,2,GL_FLOAT,0,0,0);glDrawArrays(GL_TRIANGLES,0,6);glStencilFuncSeparate(GL_FRONT_AND_BACK,GL_EQUAL,0xFE,0xFF);glUniform4f(glGetUniformLocation(p,"c"),0.5,0.5,1,1);glDrawArrays(GL_TRIANGLES,0,6);glDisable(GL_STENCIL_TEST);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER,GL_DEPTH_STENCIL_ATTACHMENT,GL_RENDERBUFFER,0);dump("faces_stencil");}
 // render_targets: drawing into a 2D array layer, a mip level, a cube face and a 3D slice
 // (RTV array/mip/W slices), each read back by sampling it into the 64x64 target.
 {GLuint arr,mip,cube,vol,f2;glGenFramebuffers(1,&f2);glBindFramebuffer(GL_FRAMEBUFFER,f2);
  GLuint w=prog(VS,"#version 300 es\nprecision highp float;in vec2 uv;uniform vec4 c;out vec4 o;void main(){o=c*vec4(uv,1.0,1.0);}\n");glUseProgram(w);GLint cl=glGetUniformLocation(w,"c");
  glGenTextures(1,&arr);glBindTexture(GL_TEXTURE_2D_ARRAY,arr);glTexStorage3D(GL_TEXTURE_2D_ARRAY,1,GL_RGBA8,16,16,3);glFramebufferTextureLayer(GL_FRAMEBUFFER,GL_COLOR_ATTACHMENT0,arr,0,2);glViewport(0,0,16,16);glUniform4f(cl,1,0.5,0.25,1);glDrawArrays(GL_TRIANGLES,0,6);
  glGenTextures(1,&mip);glBindTexture(GL_TEXTURE_2D,mip);glTexStorage2D(GL_TEXTURE_2D,3,GL_RGBA8,32,32);glFramebufferTexture2D(GL_FRAMEBUFFER,GL_COLOR_ATTACHMENT0,GL_TEXTURE_2D,mip,1);glUniform4f(cl,0.25,1,0.5,1);glDrawArrays(GL_TRIANGLES,0,6);
  glGenTextures(1,&cube);glBindTexture(GL_TEXTURE_CUBE_MAP,cube);glTexStorage2D(GL_TEXTURE_CUBE_MAP,1,GL_RGBA8,16,16);glFramebufferTexture2D(GL_FRAMEBUFFER,GL_COLOR_ATTACHMENT0,GL_TEXTURE_CUBE_MAP_NEGATIVE_Y,cube,0);glUniform4f(cl,0.5,0.25,1,1);glDrawArrays(GL_TRIANGLES,0,6);
  glGenTextures(1,&vol);glBindTexture(GL_TEXTURE_3D,vol);glTexStorage3D(GL_TEXTURE_3D,1,GL_RGBA8,16,16,4);glFramebufferTextureLayer(GL_FRAMEBUFFER,GL_COLOR_ATTACHMENT0,vol,0,3);glUniform4f(cl,1,1,0.5,1);glDrawArrays(GL_TRIANGLES,0,6);
  glViewport(0,0,64,64);glBindFramebuffer(GL_FRAMEBUFFER,fbo);
  GLuint r=prog(VS,"#version 300 es\nprecision highp float;precision highp sampler2DArray;precision highp sampler3D;in vec2 uv;uniform sampler2DArray a;uniform sampler2D m;uniform samplerCube c;uniform sampler3D v;out vec4 o;\n"
   "void main(){vec2 q=fract(uv*2.0);int k=int(uv.x>=0.5)+2*int(uv.y>=0.5);if(k==0)o=texture(a,vec3(q,2.0));else if(k==1)o=textureLod(m,q,1.0);else if(k==2)o=texture(c,vec3(q.x*2.0-1.0,-1.0,q.y*2.0-1.0));else o=texture(v,vec3(q,0.875));}\n");
  glUseProgram(r);glActiveTexture(GL_TEXTURE0);glBindTexture(GL_TEXTURE_2D_ARRAY,arr);glActiveTexture(GL_TEXTURE1);glBindTexture(GL_TEXTURE_2D,mip);glActiveTexture(GL_TEXTURE2);glBindTexture(GL_TEXTURE_CUBE_MAP,cube);glActiveTexture(GL_TEXTURE3);glBindTexture(GL_TEXTURE_3D,vol);
  GLuint tx[4]={arr,mip,cube,vol};GLenum tg[4]={GL_TEXTURE_2D_ARRAY,GL_TEXTURE_2D,GL_TEXTURE_CUBE_MAP,GL_TEXTURE_3D};for(int i=0;i<4;i++){glActiveTexture(GL_TEXTURE0+i);glBindTexture(tg[i],tx[i]);glTexParameteri(tg[i],GL_TEXTURE_MIN_FILTER,GL_NEAREST);glTexParameteri(tg[i],GL_TEXTURE_MAG_FILTER,GL_NEAREST);}
  glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_MIN_FILTER,GL_NEAREST_MIPMAP_NEAREST);(void)tx;glActiveTexture(GL_TEXTURE1);glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_MIN_FILTER,GL_NEAREST_MIPMAP_NEAREST);
  glUniform1i(glGetUniformLocation(r,"a"),0);glUniform1i(glGetUniformLocation(r,"m"),1);glUniform1i(glGetUniformLocation(r,"c"),2);glUniform1i(glGetUniformLocation(r,"v"),3);glDrawArrays(GL_TRIANGLES,0,6);glActiveTexture(GL_TEXTURE0);dump("render_targets");}
 // base_vertex: glDrawElementsBaseVertexOES and glDrawElementsInstancedBaseVertexOES with
 // positions looked up by gl_VertexID (index + base vertex in GL; Mesa adds the base itself).
 {typedef void (*DEBV)(GLenum,GLsizei,GLenum,const void*,GLint);typedef void (*DEIBV)(GLenum,GLsizei,GLenum,const void*,GLsizei,GLint);
  DEBV debv=(DEBV)eglGetProcAddress("glDrawElementsBaseVertexOES");DEIBV deibv=(DEIBV)eglGetProcAddress("glDrawElementsInstancedBaseVertexOES");
  GLuint va;glGenVertexArrays(1,&va);glBindVertexArray(va);unsigned short idx[6]={0,1,2,2,1,3};GLuint ib;glGenBuffers(1,&ib);glBindBuffer(GL_ELEMENT_ARRAY_BUFFER,ib);glBufferData(GL_ELEMENT_ARRAY_BUFFER,sizeof idx,idx,GL_STATIC_DRAW);
  GLuint p=prog("#version 310 es\nconst vec2 P[12]=vec2[12](vec2(-1,-1),vec2(-0.5,-1),vec2(-1,-0.5),vec2(-0.5,-0.5),vec2(0,0),vec2(0.5,0),vec2(0,0.5),vec2(0.5,0.5),vec2(0.25,-1),vec2(1,-1),vec2(0.25,-0.25),vec2(1,-0.25));\n"
   "flat out int inst;void main(){inst=gl_InstanceID;gl_Position=vec4(P[gl_VertexID]+vec2(0.0,float(gl_InstanceID)*0.25),0.0,1.0);}\n",
   "#version 310 es\nprecision highp float;flat in int inst;uniform vec4 c;out vec4 o;void main(){o=c+vec4(0.0,0.0,float(inst)*0.25,0.0);}\n");
  glUseProgram(p);glClear(GL_COLOR_BUFFER_BIT);GLint cl=glGetUniformLocation(p,"c");if(debv&&deibv){glUniform4f(cl,1,0,0,1);debv(GL_TRIANGLES,6,GL_UNSIGNED_SHORT,0,0);glUniform4f(cl,0,1,0,1);debv(GL_TRIANGLES,6,GL_UNSIGNED_SHORT,0,4);
  glUniform4f(cl,0.5,0.5,0,1);deibv(GL_TRIANGLES,6,GL_UNSIGNED_SHORT,0,2,8);}dump("base_vertex");glBindVertexArray(0);}
 // texture_buffer: texelFetch from samplerBuffer views of one buffer as RGBA32F and R8
 // (EXT_texture_buffer: typed buffer SRVs), with glTexBufferRange at an offset.
 {static float data[1024];for(int i=0;i<1024;i++)data[i]=(float)(i%16)/16.0f;GLuint b;glGenBuffers(1,&b);glBindBuffer(0x8C2A/*GL_TEXTURE_BUFFER*/,b);glBufferData(0x8C2A,sizeof data,data,GL_STATIC_DRAW);
  typedef void (*TB)(GLenum,GLenum,GLuint);typedef void (*TBR)(GLenum,GLenum,GLuint,GLintptr,GLsizeiptr);TB tb=(TB)eglGetProcAddress("glTexBufferEXT");TBR tbr=(TBR)eglGetProcAddress("glTexBufferRangeEXT");
  GLuint t[2];glGenTextures(2,t);glActiveTexture(GL_TEXTURE0);glBindTexture(0x8C2A,t[0]);if(tb)tb(0x8C2A,GL_RGBA32F,b);glActiveTexture(GL_TEXTURE1);glBindTexture(0x8C2A,t[1]);GLint al=16;glGetIntegerv(0x919F/*TEXTURE_BUFFER_OFFSET_ALIGNMENT*/,&al);if(tbr&&al>0&&256%al==0)tbr(0x8C2A,GL_R8,b,256,64);
  GLuint p=prog("#version 310 es\nlayout(location=0) in vec2 pos;out vec2 uv;void main(){uv=pos*0.5+0.5;gl_Position=vec4(pos,0.0,1.0);}\n","#version 310 es\n#extension GL_EXT_texture_buffer : require\nprecision highp float;precision highp samplerBuffer;in vec2 uv;uniform samplerBuffer a,r;out vec4 o;void main(){int i=int(uv.x*16.0);vec4 v=texelFetch(a,i);float w=texelFetch(r,int(uv.y*64.0)).r;o=vec4(v.x,v.w,w,float(textureSize(a))/16.0);}\n");
  glUseProgram(p);glUniform1i(glGetUniformLocation(p,"a"),0);glUniform1i(glGetUniformLocation(p,"r"),1);glDrawArrays(GL_TRIANGLES,0,6);dump("texture_buffer");glActiveTexture(GL_TEXTURE0);}
 // cube_array_border: a cube map array (layer 1 sampled) and CLAMP_TO_BORDER with a float
 // border color (EXT_texture_cube_map_array, EXT_texture_border_clamp).
 {GLuint ca;glGenTextures(1,&ca);glBindTexture(0x9009/*CUBE_MAP_ARRAY*/,ca);glTexStorage3D(0x9009,1,GL_RGBA8,4,4,12);unsigned char px6[4*4*4];for(int f=0;f<12;f++){for(int i=0;i<16;i++){px6[4*i]=(unsigned char)(f*20);px6[4*i+1]=(unsigned char)(i*16);px6[4*i+2]=(unsigned char)(255-f*20);px6[4*i+3]=255;}glTexSubImage3D(0x9009,0,0,0,f,4,4,1,GL_RGBA,GL_UNSIGNED_BYTE,px6);}
  glTexParameteri(0x9009,GL_TEXTURE_MIN_FILTER,GL_NEAREST);glTexParameteri(0x9009,GL_TEXTURE_MAG_FILTER,GL_NEAREST);
  GLuint bt;glActiveTexture(GL_TEXTURE1);glGenTextures(1,&bt);glBindTexture(GL_TEXTURE_2D,bt);unsigned char q4[16]={255,0,0,255,0,255,0,255,0,0,255,255,255,255,255,255};glTexImage2D(GL_TEXTURE_2D,0,GL_RGBA8,2,2,0,GL_RGBA,GL_UNSIGNED_BYTE,q4);
  glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_MIN_FILTER,GL_NEAREST);glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_MAG_FILTER,GL_NEAREST);glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_WRAP_S,0x812D/*CLAMP_TO_BORDER*/);glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_WRAP_T,0x812D);
  float bc[4]={0.25f,0.5f,0.75f,1.0f};glTexParameterfv(GL_TEXTURE_2D,0x1004/*BORDER_COLOR*/,bc);
  GLuint p=prog("#version 310 es\nlayout(location=0) in vec2 pos;out vec2 uv;void main(){uv=pos*0.5+0.5;gl_Position=vec4(pos,0.0,1.0);}\n","#version 310 es\n#extension GL_EXT_texture_cube_map_array : require\nprecision highp float;precision highp samplerCubeArray;in vec2 uv;uniform samplerCubeArray c;uniform sampler2D b;out vec4 o;\n"
   "void main(){if(uv.x<0.5){vec2 q=uv*vec2(4.0,2.0)-1.0;o=texture(c,vec4(q.x,1.0,q.y,1.0));}else{o=texture(b,uv*3.0-vec2(2.0,1.0));}}\n");
  glUseProgram(p);glUniform1i(glGetUniformLocation(p,"c"),0);glUniform1i(glGetUniformLocation(p,"b"),1);glActiveTexture(GL_TEXTURE0);glDrawArrays(GL_TRIANGLES,0,6);dump("cube_array_border");}
 // blend_indexed: per-target blending and color masks (OES_draw_buffers_indexed) on two
 // RGBA16F targets (exact arithmetic), read back as floats.
 {GLuint ft[2],ff;glGenTextures(2,ft);glGenFramebuffers(1,&ff);glBindFramebuffer(GL_FRAMEBUFFER,ff);for(int i=0;i<2;i++){glBindTexture(GL_TEXTURE_2D,ft[i]);glTexStorage2D(GL_TEXTURE_2D,1,GL_RGBA16F,64,64);glFramebufferTexture2D(GL_FRAMEBUFFER,GL_COLOR_ATTACHMENT0+i,GL_TEXTURE_2D,ft[i],0);}
  GLenum bufs[2]={GL_COLOR_ATTACHMENT0,GL_COLOR_ATTACHMENT1};glDrawBuffers(2,bufs);float c0[4]={0.5f,0.5f,0.5f,0.5f};glClearBufferfv(GL_COLOR,0,c0);glClearBufferfv(GL_COLOR,1,c0);
  typedef void (*BFI)(GLuint,GLenum,GLenum);typedef void (*BEI)(GLuint,GLenum);typedef void (*CMI)(GLuint,GLboolean,GLboolean,GLboolean,GLboolean);typedef void (*EI)(GLenum,GLuint);
  BFI bfi=(BFI)eglGetProcAddress("glBlendFunciOES");BEI bei=(BEI)eglGetProcAddress("glBlendEquationiOES");CMI cmi=(CMI)eglGetProcAddress("glColorMaskiOES");EI ei=(EI)eglGetProcAddress("glEnableiOES");
  GLuint p=prog(VS,"#version 300 es\nprecision highp float;in vec2 uv;layout(location=0) out vec4 a;layout(location=1) out vec4 b;void main(){a=vec4(floor(uv*4.0)/4.0,0.25,0.75);b=a.wzyx;}\n");glUseProgram(p);
  if(bfi&&bei&&cmi&&ei){ei(GL_BLEND,0);ei(GL_BLEND,1);bfi(0,GL_ONE,GL_ONE);bei(0,GL_FUNC_ADD);bfi(1,GL_DST_COLOR,GL_SRC_ALPHA);bei(1,GL_FUNC_SUBTRACT);cmi(1,1,0,1,1);glDrawArrays(GL_TRIANGLES,0,6);glDisable(GL_BLEND);cmi(1,1,1,1,1);}
  static unsigned short hp[2][64*64*4];unsigned long h=1469598103934665603UL;for(int i=0;i<2;i++){glReadBuffer(GL_COLOR_ATTACHMENT0+i);glReadPixels(0,0,64,64,GL_RGBA,GL_HALF_FLOAT,hp[i]);for(size_t k=0;k<sizeof hp[i];k++){h^=((unsigned char*)hp[i])[k];h*=1099511628211UL;}}
  glReadBuffer(GL_COLOR_ATTACHMENT0);printf("blend_indexed %016lx p0=%04x,%04x,%04x,%04x p1=%04x,%04x,%04x,%04x err=%x\n",h,hp[0][4*(20*64+40)],hp[0][4*(20*64+40)+1],hp[0][4*(20*64+40)+2],hp[0][4*(20*64+40)+3],hp[1][4*(20*64+40)],hp[1][4*(20*64+40)+1],hp[1][4*(20*64+40)+2],hp[1][4*(20*64+40)+3],glGetError());
  GLenum one=GL_COLOR_ATTACHMENT0;glDrawBuffers(1,&one);glBindFramebuffer(GL_FRAMEBUFFER,fbo);}
 // image_atomic: a compute shader adding into an r32ui image with imageAtomicAdd/Max
 // (OES_shader_image_atomic), then the image read back through a framebuffer.
 {GLuint im;glGenTextures(1,&im);glBindTexture(GL_TEXTURE_2D,im);glTexStorage2D(GL_TEXTURE_2D,1,GL_R32UI,8,8);unsigned z[64];memset(z,0,sizeof z);glTexSubImage2D(GL_TEXTURE_2D,0,0,0,8,8,GL_RED_INTEGER,GL_UNSIGNED_INT,z);
  GLuint cp=cprog("#version 310 es\n#extension GL_OES_shader_image_atomic : require\nlayout(local_size_x=16,local_size_y=4) in;layout(r32ui,binding=0) uniform highp uimage2D img;\n"
   "void main(){uvec2 g=gl_GlobalInvocationID.xy;ivec2 c=ivec2(g.x%8u,g.y%7u);imageAtomicAdd(img,c,g.x+1u);imageAtomicMax(img,ivec2(7,7),g.x*g.y);}\n");
  glUseProgram(cp);glBindImageTexture(0,im,0,GL_FALSE,0,GL_READ_WRITE,GL_R32UI);glDispatchCompute(2,4,1);glMemoryBarrier(GL_ALL_BARRIER_BITS);
  GLuint rf;glGenFramebuffers(1,&rf);glBindFramebuffer(GL_FRAMEBUFFER,rf);glFramebufferTexture2D(GL_FRAMEBUFFER,GL_COLOR_ATTACHMENT0,GL_TEXTURE_2D,im,0);unsigned out[64*4];glReadPixels(0,0,8,8,GL_RGBA_INTEGER,GL_UNSIGNED_INT,out);
  unsigned long h=1469598103934665603UL;for(int i=0;i<64;i++){h^=out[4*i];h*=1099511628211UL;}printf("image_atomic %016lx v00=%u v77=%u err=%x\n",h,out[0],out[4*63],glGetError());glBindFramebuffer(GL_FRAMEBUFFER,fbo);}
 // layered: a geometry shader writing gl_Layer sends each copy of a quad to another layer of a
 // layered 2D-array framebuffer (SV_RenderTargetArrayIndex), and gl_ViewportIndex picks one of
 // three viewports (OES_viewport_array, SV_ViewportArrayIndex); the layers are then sampled.
 {GLuint arr,lf;glGenTextures(1,&arr);glBindTexture(GL_TEXTURE_2D_ARRAY,arr);glTexStorage3D(GL_TEXTURE_2D_ARRAY,1,GL_RGBA8,32,32,3);glTexParameteri(GL_TEXTURE_2D_ARRAY,GL_TEXTURE_MIN_FILTER,GL_NEAREST);glTexParameteri(GL_TEXTURE_2D_ARRAY,GL_TEXTURE_MAG_FILTER,GL_NEAREST);
  glGenFramebuffers(1,&lf);glBindFramebuffer(GL_FRAMEBUFFER,lf);typedef void (*FT)(GLenum,GLenum,GLuint,GLint);FT ft=(FT)eglGetProcAddress("glFramebufferTextureEXT");if(ft)ft(GL_FRAMEBUFFER,GL_COLOR_ATTACHMENT0,arr,0);
  glClearColor(0,0,0,1);glClear(GL_COLOR_BUFFER_BIT);typedef void (*VAV)(GLuint,GLsizei,const GLfloat*);VAV vav=(VAV)eglGetProcAddress("glViewportArrayvOES");
  float vps[12]={0,0,32,32, 4,4,16,16, 16,0,16,32};if(vav)vav(0,3,vps);
  GLuint p=glCreateProgram();const char*src[3]={"#version 310 es\nlayout(location=0) in vec2 pos;void main(){gl_Position=vec4(pos,0.0,1.0);}\n",
   "#version 310 es\n#extension GL_EXT_geometry_shader : require\n#extension GL_OES_viewport_array : require\nlayout(triangles,invocations=3) in;layout(triangle_strip,max_vertices=3) out;flat out int l;\n"
   "void main(){for(int i=0;i<3;i++){l=gl_InvocationID;gl_Layer=gl_InvocationID;gl_ViewportIndex=gl_InvocationID;gl_Position=gl_in[i].gl_Position;EmitVertex();}EndPrimitive();}\n",
   "#version 310 es\n#extension GL_EXT_geometry_shader : require\n#extension GL_OES_viewport_array : require\nprecision highp float;flat in int l;out vec4 o;void main(){o=vec4(l==0?1.0:0.0,gl_Layer==1?1.0:0.0,gl_ViewportIndex==2?1.0:0.0,1.0);}\n"};
  GLenum k[3]={GL_VERTEX_SHADER,0x8DD9,GL_FRAGMENT_SHADER};for(int i=0;i<3;i++){GLuint sh=glCreateShader(k[i]);glShaderSource(sh,1,&src[i],0);glCompileShader(sh);GLint ok;glGetShaderiv(sh,GL_COMPILE_STATUS,&ok);if(!ok){char b[999];glGetShaderInfoLog(sh,999,0,b);fprintf(stderr,"%s\n",b);}glAttachShader(p,sh);}
  glLinkProgram(p);glUseProgram(p);glDrawArrays(GL_TRIANGLES,0,6);glViewport(0,0,64,64);glBindFramebuffer(GL_FRAMEBUFFER,fbo);
  GLuint r=prog(VS,"#version 300 es\nprecision highp float;precision highp sampler2DArray;in vec2 uv;uniform sampler2DArray a;out vec4 o;void main(){o=texture(a,vec3(fract(uv*vec2(2.0,1.0)),floor(uv.x*2.0)+floor(uv.y*2.0)));}\n");
  glUseProgram(r);glUniform1i(glGetUniformLocation(r,"a"),0);glDrawArrays(GL_TRIANGLES,0,6);dump("layered");}
 // formats2: RGBA4 and RGB5_A1 render targets (D3D's B4G4R4A4 / B5G5R5A1), R8_SNORM and
 // RG16_SNORM textures and R16 / RGBA16 UNORM textures (EXT_render_snorm, EXT_texture_norm16),
 // each sampled into one quadrant.
 {GLuint rt4,rt5,f4;glGenTextures(1,&rt4);glBindTexture(GL_TEXTURE_2D,rt4);glTexStorage2D(GL_TEXTURE_2D,1,GL_RGBA4,16,16);glGenTextures(1,&rt5);glBindTexture(GL_TEXTURE_2D,rt5);glTexStorage2D(GL_TEXTURE_2D,1,GL_RGB5_A1,16,16);
  glGenFramebuffers(1,&f4);glBindFramebuffer(GL_FRAMEBUFFER,f4);GLuint w=prog(VS,"#version 300 es\nprecision highp float;in vec2 uv;out vec4 o;void main(){o=vec4(floor(uv*4.0)/3.0,0.4,floor(uv.x*2.0));}\n");glUseProgram(w);glViewport(0,0,16,16);
  for(int i=0;i<2;i++){glFramebufferTexture2D(GL_FRAMEBUFFER,GL_COLOR_ATTACHMENT0,GL_TEXTURE_2D,i?rt5:rt4,0);glDrawArrays(GL_TRIANGLES,0,6);}glViewport(0,0,64,64);glBindFramebuffer(GL_FRAMEBUFFER,fbo);
  signed char sn[16];short sn16[32];unsigned short u16[16],u16x4[64];for(int i=0;i<16;i++){int c=i*17-128;
   /* llvmpipe's SNORM8 decode is not exactly c/127: keep to codes whose 8-bit result does
      not depend on it (those where c/127 and c/128 round alike). */
   while(c<127&&(int)((c/127.0f*0.5f+0.5f)*255.0f+0.5f)!=(int)((c/128.0f*0.5f+0.5f)*255.0f+0.5f))c++;
   sn[i]=(signed char)c;sn16[2*i]=(short)(i*4369-32768);sn16[2*i+1]=(short)(32767-i*3000);u16[i]=(unsigned short)(i*4369);for(int c=0;c<4;c++)u16x4[4*i+c]=(unsigned short)(i*4000+c*257);}
  GLuint tx[4];glGenTextures(4,tx);glPixelStorei(GL_UNPACK_ALIGNMENT,1);
  glActiveTexture(GL_TEXTURE2);glBindTexture(GL_TEXTURE_2D,tx[0]);glTexImage2D(GL_TEXTURE_2D,0,GL_R8_SNORM,4,4,0,GL_RED,GL_BYTE,sn);
  glActiveTexture(GL_TEXTURE3);glBindTexture(GL_TEXTURE_2D,tx[1]);glTexImage2D(GL_TEXTURE_2D,0,0x8F99/*RG16_SNORM*/,4,4,0,GL_RG,GL_SHORT,sn16);
  glActiveTexture(GL_TEXTURE4);glBindTexture(GL_TEXTURE_2D,tx[2]);glTexImage2D(GL_TEXTURE_2D,0,0x822A/*R16*/,4,4,0,GL_RED,GL_UNSIGNED_SHORT,u16);
  glActiveTexture(GL_TEXTURE5);glBindTexture(GL_TEXTURE_2D,tx[3]);glTexImage2D(GL_TEXTURE_2D,0,0x805B/*RGBA16*/,4,4,0,GL_RGBA,GL_UNSIGNED_SHORT,u16x4);glPixelStorei(GL_UNPACK_ALIGNMENT,4);
  glActiveTexture(GL_TEXTURE0);glBindTexture(GL_TEXTURE_2D,rt4);glActiveTexture(GL_TEXTURE1);glBindTexture(GL_TEXTURE_2D,rt5);
  for(int i=0;i<6;i++){glActiveTexture(GL_TEXTURE0+i);glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_MIN_FILTER,GL_NEAREST);glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_MAG_FILTER,GL_NEAREST);}glActiveTexture(GL_TEXTURE0);
  GLuint p=prog(VS,"#version 300 es\nprecision highp float;in vec2 uv;uniform sampler2D t[6];out vec4 o;void main(){vec2 q=fract(uv*vec2(3.0,2.0));int k=int(uv.x*3.0)+3*int(uv.y*2.0);vec4 v;\n"
   "if(k==0)v=texture(t[0],q);else if(k==1)v=texture(t[1],q);else if(k==2)v=texture(t[2],q)*0.5+0.5;else if(k==3)v=texture(t[3],q)*0.5+0.5;else if(k==4)v=texture(t[4],q);else v=texture(t[5],q);o=vec4(v.rgb,1.0);}\n");
  glUseProgram(p);int u[6]={0,1,2,3,4,5};glUniform1iv(glGetUniformLocation(p,"t"),6,u);glDrawArrays(GL_TRIANGLES,0,6);dump("formats2");}
 // depth_range: glDepthRangef(0.25, 0.75) with a LESS test against two overlapping quads at
 // z = -0.5 and 0.5, and uint32 indices with a 0xFFFFFFFF restart through glDrawRangeElements.
 {GLuint dsr;glGenRenderbuffers(1,&dsr);glBindRenderbuffer(GL_RENDERBUFFER,dsr);glRenderbufferStorage(GL_RENDERBUFFER,GL_DEPTH_COMPONENT24,64,64);glFramebufferRenderbuffer(GL_FRAMEBUFFER,GL_DEPTH_ATTACHMENT,GL_RENDERBUFFER,dsr);
  float v[8*3]={-0.75f,-0.75f,0.5f, 0.25f,-0.75f,0.5f, -0.75f,0.25f,0.5f, 0.25f,0.25f,0.5f, -0.25f,-0.25f,-0.5f, 0.75f,-0.25f,-0.5f, -0.25f,0.75f,-0.5f, 0.75f,0.75f,-0.5f};
  unsigned idx[9]={0,1,2,3,0xFFFFFFFFu,6,7,4,5};GLuint va,b,ib;glGenVertexArrays(1,&va);glBindVertexArray(va);glGenBuffers(1,&b);glBindBuffer(GL_ARRAY_BUFFER,b);glBufferData(GL_ARRAY_BUFFER,sizeof v,v,GL_STATIC_DRAW);glVertexAttribPointer(0,3,GL_FLOAT,0,0,0);glEnableVertexAttribArray(0);
  glGenBuffers(1,&ib);glBindBuffer(GL_ELEMENT_ARRAY_BUFFER,ib);glBufferData(GL_ELEMENT_ARRAY_BUFFER,sizeof idx,idx,GL_STATIC_DRAW);
  GLuint p=prog("#version 300 es\nlayout(location=0) in vec3 pos;out float z;void main(){z=pos.z;gl_Position=vec4(pos,1.0);}\n","#version 300 es\nprecision highp float;in float z;out vec4 o;void main(){o=vec4(gl_FragCoord.z,z*0.5+0.5,0.25,1.0);}\n");
  glUseProgram(p);glClearColor(0,0,0,1);glClearDepthf(1.0f);glClear(GL_COLOR_BUFFER_BIT|GL_DEPTH_BUFFER_BIT);glEnable(GL_DEPTH_TEST);glDepthFunc(GL_LESS);glDepthRangef(0.25f,0.75f);glEnable(GL_PRIMITIVE_RESTART_FIXED_INDEX);
  glDrawRangeElements(GL_TRIANGLE_STRIP,0,7,9,GL_UNSIGNED_INT,0);glDisable(GL_PRIMITIVE_RESTART_FIXED_INDEX);glDepthRangef(0.0f,1.0f);glDisable(GL_DEPTH_TEST);glFramebufferRenderbuffer(GL_FRAMEBUFFER,GL_DEPTH_ATTACHMENT,GL_RENDERBUFFER,0);
  dump("depth_range");glBindVertexArray(0);}
 // lines: GL_LINES and GL_LINE_STRIP between pixel centers (horizontal, vertical, 45 degrees),
 // width 1, flat colors per primitive type. (No line loop: its closing segment runs up from a
 // pixel center, where llvmpipe leaves out the first pixel and D3D's diamond-exit rule keeps it.)
 {float v[10*2]={4.5f,4.5f,40.5f,4.5f, 8.5f,10.5f,8.5f,50.5f, 12.5f,12.5f,30.5f,30.5f, 50.5f,8.5f,60.5f,8.5f, 60.5f,20.5f,50.5f,20.5f};for(int i=0;i<20;i++)v[i]=v[i]/32.0f-1.0f;
  GLuint va,b;glGenVertexArrays(1,&va);glBindVertexArray(va);glGenBuffers(1,&b);glBindBuffer(GL_ARRAY_BUFFER,b);glBufferData(GL_ARRAY_BUFFER,sizeof v,v,GL_STATIC_DRAW);glVertexAttribPointer(0,2,GL_FLOAT,0,0,0);glEnableVertexAttribArray(0);
  GLuint p=prog("#version 300 es\nlayout(location=0) in vec2 pos;void main(){gl_Position=vec4(pos,0.0,1.0);}\n","#version 300 es\nprecision highp float;uniform vec4 c;out vec4 o;void main(){o=c;}\n");glUseProgram(p);GLint cl=glGetUniformLocation(p,"c");
  glClear(GL_COLOR_BUFFER_BIT);glUniform4f(cl,1,0,0,1);glDrawArrays(GL_LINES,0,6);glUniform4f(cl,0,1,0,1);glDrawArrays(GL_LINE_STRIP,6,4);dump("lines");glBindVertexArray(0);}
 // tex_misc: texture() with an LOD bias, textureProj, textureLodOffset and a samplerCubeShadow
 // comparison, through one sampler object bound to two units.
 {GLuint tex;glGenTextures(1,&tex);glBindTexture(GL_TEXTURE_2D,tex);glTexStorage2D(GL_TEXTURE_2D,4,GL_RGBA8,8,8);for(int l=0;l<4;l++){int n=8>>l;unsigned char t[8*8*4];for(int i=0;i<n*n;i++){t[4*i]=(unsigned char)(l*60+i);t[4*i+1]=(unsigned char)(i*9);t[4*i+2]=(unsigned char)(200-l*50);t[4*i+3]=255;}glTexSubImage2D(GL_TEXTURE_2D,l,0,0,n,n,GL_RGBA,GL_UNSIGNED_BYTE,t);}
  GLuint smp;glGenSamplers(1,&smp);glSamplerParameteri(smp,GL_TEXTURE_MIN_FILTER,GL_NEAREST_MIPMAP_NEAREST);glSamplerParameteri(smp,GL_TEXTURE_MAG_FILTER,GL_NEAREST);glSamplerParameteri(smp,GL_TEXTURE_WRAP_S,GL_REPEAT);glBindSampler(0,smp);
  GLuint cs;glActiveTexture(GL_TEXTURE1);glGenTextures(1,&cs);glBindTexture(GL_TEXTURE_CUBE_MAP,cs);glTexStorage2D(GL_TEXTURE_CUBE_MAP,1,GL_DEPTH_COMPONENT32F,4,4);float dd[16];for(int f=0;f<6;f++){for(int i=0;i<16;i++)dd[i]=(float)((i+f)%8)/8.0f;glTexSubImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X+f,0,0,0,4,4,GL_DEPTH_COMPONENT,GL_FLOAT,dd);}
  glTexParameteri(GL_TEXTURE_CUBE_MAP,GL_TEXTURE_MIN_FILTER,GL_NEAREST);glTexParameteri(GL_TEXTURE_CUBE_MAP,GL_TEXTURE_MAG_FILTER,GL_NEAREST);glTexParameteri(GL_TEXTURE_CUBE_MAP,GL_TEXTURE_COMPARE_MODE,GL_COMPARE_REF_TO_TEXTURE);glTexParameteri(GL_TEXTURE_CUBE_MAP,GL_TEXTURE_COMPARE_FUNC,GL_GEQUAL);glActiveTexture(GL_TEXTURE0);
  GLuint p=prog(VS,"#version 300 es\nprecision highp float;precision highp samplerCubeShadow;in vec2 uv;uniform sampler2D t;uniform samplerCubeShadow c;out vec4 o;void main(){vec4 a=texture(t,uv,1.0);vec4 b=textureProj(t,vec3(uv*2.0,2.0));vec4 d=textureLodOffset(t,uv,1.0,ivec2(1,-1));\n"
   "float s=texture(c,vec4(normalize(vec3(uv.x*2.0-1.0,1.0,uv.y*2.0-1.0)),0.5));o=vec4(a.r,b.g,d.b,s);}\n");
  glUseProgram(p);glUniform1i(glGetUniformLocation(p,"t"),0);glUniform1i(glGetUniformLocation(p,"c"),1);glDrawArrays(GL_TRIANGLES,0,6);glBindSampler(0,0);dump("tex_misc");}
 // sample_position: a per-sample shader writing gl_SamplePosition and gl_NumSamples
 // (RenderTargetGetSamplePosition / GetSampleCount) into a 4x target, resolved.
 {GLuint rb,mf;glGenRenderbuffers(1,&rb);glBindRenderbuffer(GL_RENDERBUFFER,rb);glRenderbufferStorageMultisample(GL_RENDERBUFFER,4,GL_RGBA8,64,64);
  glGenFramebuffers(1,&mf);glBindFramebuffer(GL_FRAMEBUFFER,mf);glFramebufferRenderbuffer(GL_FRAMEBUFFER,GL_COLOR_ATTACHMENT0,GL_RENDERBUFFER,rb);glClearColor(0,0,0,0);glClear(GL_COLOR_BUFFER_BIT);
  GLuint p=prog("#version 310 es\nlayout(location=0) in vec2 pos;void main(){gl_Position=vec4(pos,0.0,1.0);}\n",
   "#version 310 es\n#extension GL_OES_sample_variables : require\nprecision highp float;out vec4 o;\n"
   "void main(){o=vec4(gl_SamplePosition.x*0.5,gl_SamplePosition.y*0.5,float(gl_NumSamples)/8.0,float(gl_SampleID)*0.25);}\n");
  glUseProgram(p);glDrawArrays(GL_TRIANGLES,0,6);
  static unsigned char s4[64*64*4];(void)s4;glBindFramebuffer(GL_READ_FRAMEBUFFER,mf);glBindFramebuffer(GL_DRAW_FRAMEBUFFER,fbo);glBlitFramebuffer(0,0,64,64,0,0,64,64,GL_COLOR_BUFFER_BIT,GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER,fbo);dump("sample_position");glClearColor(0,0,0,1);}
 // transform feedback: a vertex shader's vec4 and flat ivec2 captured interleaved from two draws
 // of one triangle each, paused in between (a draw outside the capture), with the rasterizer
 // discarding; GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, then the captured words printed.
 {const char*src[2]={"#version 300 es\nlayout(location=0) in vec2 pos;out vec4 a;flat out ivec2 b;void main(){a=vec4(pos*2.0,float(gl_VertexID),0.5);b=ivec2(gl_VertexID*3,-gl_VertexID);gl_Position=vec4(pos,0.0,1.0);}\n",
   "#version 300 es\nprecision mediump float;in vec4 a;flat in ivec2 b;out vec4 o;void main(){o=a+vec4(b,0,0);}\n"};
  GLenum k[2]={GL_VERTEX_SHADER,GL_FRAGMENT_SHADER};GLuint p=glCreateProgram();for(int i=0;i<2;i++){GLuint sh=glCreateShader(k[i]);glShaderSource(sh,1,&src[i],0);glCompileShader(sh);glAttachShader(p,sh);}
  const char*vary[2]={"a","b"};glTransformFeedbackVaryings(p,2,vary,GL_INTERLEAVED_ATTRIBS);glLinkProgram(p);GLint ok;glGetProgramiv(p,GL_LINK_STATUS,&ok);if(!ok)fprintf(stderr,"xfb link failed\n");
  GLuint tb,tf,q;glGenBuffers(1,&tb);glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER,tb);glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER,6*24,0,GL_DYNAMIC_READ);
  glGenTransformFeedbacks(1,&tf);glBindTransformFeedback(GL_TRANSFORM_FEEDBACK,tf);glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER,0,tb);glGenQueries(1,&q);
  glUseProgram(p);glEnable(GL_RASTERIZER_DISCARD);glBeginQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN,q);glBeginTransformFeedback(GL_TRIANGLES);
  glDrawArrays(GL_TRIANGLES,0,3);glPauseTransformFeedback();glDrawArrays(GL_TRIANGLES,0,6);glResumeTransformFeedback();glDrawArrays(GL_TRIANGLES,3,3);
  glEndTransformFeedback();glEndQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN);glDisable(GL_RASTERIZER_DISCARD);
  GLuint n=0;glGetQueryObjectuiv(q,GL_QUERY_RESULT,&n);
  const float*w=(const float*)glMapBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER,0,6*24,GL_MAP_READ_BIT);
  unsigned long h=1469598103934665603UL^n;for(int i=0;w&&i<6*24;i++){h^=((const unsigned char*)w)[i];h*=1099511628211UL;}
  printf("xfb %016lx primitives=%u",w?h:0,n);
  for(int i=0;w&&i<6;i++){const int*iv=(const int*)(w+6*i+4);printf(" (%g %g %g %g %d %d)",w[6*i],w[6*i+1],w[6*i+2],w[6*i+3],iv[0],iv[1]);}
  if(w){glUnmapBuffer(GL_TRANSFORM_FEEDBACK_BUFFER);}
  printf(" err=%x\n",glGetError());glBindTransformFeedback(GL_TRANSFORM_FEEDBACK,0);}
 return 0;}
