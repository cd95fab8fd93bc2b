/* test_tex.c -- texture/surface launch specs (one test per error
 * message) and the shared sampling model (src/run/tex.c). */
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "spec_check.h"
#include "run/tex.h"

/* every refusal here (positions: test_spec.c) */
#define want_error(t, text, msg) want_spec_error(t, text, msg, 0)

#define T(x) "{\"args\":[{\"name\":\"t\",\"texture\":\"f32\",\"size\":[4]" x "}]}"

TEST(tex_spec_errors)
{
	want_error(t_, T(",\"filter\":\"cubic\""), "unknown filter \"cubic\"");
	want_error(t_, T(",\"address\":\"wrap\""), "address mode \"wrap\" needs normalized coordinates");
	want_error(t_, T(",\"address\":[\"clamp\",\"clamp\"]"), "address needs one mode per dimension (1)");
	want_error(t_, T(",\"address\":\"edge\""), "unknown address mode \"edge\"");
	want_error(t_, T(",\"channels\":3"), "channels must be 1, 2 or 4");
	want_error(t_, T(",\"read\":\"normalized\""), "read mode \"normalized\" needs an 8- or 16-bit integer format");
	want_error(t_, T(",\"linear\":1"), "linear must be true or false");
	want_error(t_, T(",\"gather\":true"), "unknown key \"gather\" in texture argument");
	want_error(t_, "{\"args\":[{\"name\":\"t\",\"texture\":\"f32\"}]}", "\"t\" needs a \"size\"");
	want_error(t_, "{\"args\":[{\"name\":\"t\",\"texture\":\"f32\",\"size\":[]}]}", "size must have 1 to 3 dimensions");
	want_error(t_, "{\"args\":[{\"name\":\"t\",\"texture\":\"f32\",\"size\":[2,2],\"linear\":true}]}",
		   "a linear texture is one-dimensional");
	want_error(t_, "{\"args\":[{\"name\":\"t\",\"texture\":\"f64\",\"size\":[2]}]}", "texture format f64 is not supported");
	want_error(t_, "{\"args\":[{\"name\":\"t\",\"texture\":\"u8\",\"size\":[2],\"filter\":\"linear\"}]}",
		   "linear filtering needs a float format or read mode \"normalized\"");
	want_error(t_, "{\"args\":[{\"name\":\"s\",\"surface\":\"f32\",\"size\":[2],\"filter\":\"point\"}]}",
		   "unknown key \"filter\" in surface argument");
	want_error(t_, "{\"args\":[{\"name\":\"t\",\"texture\":\"f32\",\"size\":[2]}],\"buffers\":[{\"name\":\"s\",\"surface\":\"u8\",\"size\":[2]}]}",
		   "the spec's \"buffers\" hold buffers only");
	want_error(t_, "{\"args\":[{\"name\":\"t\",\"texture\":\"f32\",\"size\":[2]},{\"name\":\"p\",\"pointer\":\"t\"}]}",
		   "which is not a buffer");
}

static Spec sp;
static Launch ln;

/* A launch of one texture/surface argument from spec text. */
static const SpecArg *
one(TestState *t_, const char *text)
{
	char e[2048];

	if (spec_parse_capture(text, &sp, e, sizeof e)) {
		FAIL("%s", e);
		return NULL;
	}
	launch_init(&ln, &sp);
	return &sp.args[0];
}

static void
done(void)
{
	launch_free(&ln);
	spec_free(&sp);
}

static float
f(u32 b)
{
	float x;
	memcpy(&x, &b, 4);
	return x;
}

TEST(tex_model_point_and_modes)
{
	const SpecArg *a = one(t_, "{\"args\":[{\"name\":\"t\",\"texture\":\"f32\",\"size\":[4],\"normalized\":true,"
				"\"address\":\"wrap\",\"init\":{\"values\":[10,20,30,40]}}]}");
	u32 o[4];
	float c;

	if (!a)
		return;
	c = 1.3f;                        /* wrap: 0.3 * 4 = texel 1 */
	tex_sample(a, ln.data[0], &c, o);
	CHECK(f(o[0]) == 20.0f && o[1] == 0 && o[2] == 0 && f(o[3]) == 1.0f);
	c = -0.1f;                       /* wrap: 0.9 -> texel 3 */
	tex_sample(a, ln.data[0], &c, o);
	CHECK(f(o[0]) == 40.0f);
	CHECK(launch_tex_arg(&ln, launch_tex_handle(0), 0) == 0);
	CHECK(launch_tex_arg(&ln, launch_tex_handle(0), 1) == -1);
	CHECK(launch_tex_arg(&ln, launch_tex_handle(1), 0) == -1);
	done();

	a = one(t_, "{\"args\":[{\"name\":\"t\",\"texture\":\"f32\",\"size\":[4],\"normalized\":true,"
		    "\"address\":\"mirror\",\"init\":{\"values\":[10,20,30,40]}}]}");
	if (!a)
		return;
	c = 1.1f;                        /* mirror: floor 1 is odd -> 1 - 0.1 = 0.9 -> texel 3 */
	tex_sample(a, ln.data[0], &c, o);
	CHECK(f(o[0]) == 40.0f);
	c = -0.2f;                       /* floor -1 odd -> 1 - 0.8 = 0.2 -> texel 0 */
	tex_sample(a, ln.data[0], &c, o);
	CHECK(f(o[0]) == 10.0f);
	done();
}

TEST(tex_model_linear_weights)
{
	const SpecArg *a = one(t_, "{\"args\":[{\"name\":\"t\",\"texture\":\"f32\",\"size\":[4],\"filter\":\"linear\","
				"\"address\":\"border\",\"init\":{\"values\":[0,256,512,768]}}]}");
	u32 o[4];
	float c;

	if (!a)
		return;
	c = 1.5f;                        /* texel centre: exactly texel 1 */
	tex_sample(a, ln.data[0], &c, o);
	CHECK(f(o[0]) == 256.0f);
	c = 1.5f + 1.0f / 1024;          /* weight 1/1024 rounds to 0 in 8 fractional bits */
	tex_sample(a, ln.data[0], &c, o);
	CHECK(f(o[0]) == 256.0f);
	c = 1.5f + 3.0f / 1024;          /* 3/1024 = 0.75/256 rounds to 1/256 */
	tex_sample(a, ln.data[0], &c, o);
	CHECK(f(o[0]) == 257.0f);
	c = 0.25f;                       /* x_B = -0.25: 0.75 of border 0, 0.25 of texel 0... of 0 */
	tex_sample(a, ln.data[0], &c, o);
	CHECK(f(o[0]) == 0.0f);
	c = 4.0f;                        /* x_B = 3.5: half of texel 3, half border */
	tex_sample(a, ln.data[0], &c, o);
	CHECK(f(o[0]) == 384.0f);
	done();

	a = one(t_, "{\"args\":[{\"name\":\"t\",\"texture\":\"u8\",\"channels\":2,\"size\":[2],\"read\":\"normalized\","
		    "\"init\":{\"values\":[255,0,51,17]}}]}");
	if (!a)
		return;
	c = 1.2f;                        /* point, clamp: texel 1 = (0.2, 17/255), z 0, w 1 */
	tex_sample(a, ln.data[0], &c, o);
	CHECK(f(o[0]) == 0.2f && f(o[1]) == (float)(17 / 255.0) && o[2] == 0 && f(o[3]) == 1.0f);
	c = 7.0f;
	tex_sample(a, ln.data[0], &c, o);
	CHECK(f(o[0]) == 0.2f);
	done();
}

TEST(tex_model_fetch_and_surface)
{
	const SpecArg *a = one(t_, "{\"args\":[{\"name\":\"t\",\"texture\":\"s8\",\"size\":[3],\"linear\":true,"
				"\"init\":{\"values\":[-5,6,7]}}]}");
	u32 o[4], v = 0;
	i32 i;

	if (!a)
		return;
	i = 0;
	tex_fetch(a, ln.data[0], &i, o);
	CHECK(o[0] == (u32)-5 && o[3] == 1);
	i = 3;
	tex_fetch(a, ln.data[0], &i, o);
	CHECK(o[0] == 0 && o[3] == 0);
	done();

	a = one(t_, "{\"args\":[{\"name\":\"s\",\"surface\":\"u16\",\"size\":[4,2],\"init\":{\"range\":{\"start\":1,\"step\":1}}}]}");
	if (!a)
		return;
	CHECK(surf_access(a, ln.data[0], 4, 1, 0, 4, SURF_TRAP, &v, 0) == 0 && v == (7u | 8u << 16));
	CHECK(surf_access(a, ln.data[0], 8, 1, 0, 4, SURF_TRAP, &v, 0) == -1);
	CHECK(surf_access(a, ln.data[0], 2, 0, 0, 4, SURF_TRAP, &v, 0) == -1);   /* misaligned */
	CHECK(surf_access(a, ln.data[0], 8, 1, 0, 4, SURF_ZERO, &v, 0) == 0 && v == 0);
	CHECK(surf_access(a, ln.data[0], 12, 5, 0, 4, SURF_CLAMP, &v, 0) == 0 && v == (7u | 8u << 16));
	v = 0xabcd;
	CHECK(surf_access(a, ln.data[0], 2, 0, 0, 2, SURF_TRAP, &v, 1) == 0 && ((u16 *)ln.data[0])[1] == 0xabcd);
	CHECK(surf_access(a, ln.data[0], 2, 9, 0, 2, SURF_ZERO, &v, 1) == 0);
	done();
}
