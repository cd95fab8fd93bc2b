/* spec_check.c -- launch-spec helpers shared by the unit tests. */
#include <string.h>

#include "spec_check.h"

int
spec_parse_capture(const char *text, Spec *s, char *err, size_t nerr)
{
	TestStderr c;
	int r;

	test_stderr_begin(&c);
	r = spec_parse("s.json", text, strlen(text), s);
	test_stderr_end(&c, err, nerr);
	return r;
}

void
want_spec_error(TestState *t_, const char *text, const char *msg, int with_pos)
{
	Spec s;
	char e[2048];

	if (spec_parse_capture(text, &s, e, sizeof e) == 0) {
		FAIL("accepted: %s", text);
		spec_free(&s);
		return;
	}
	if (!strstr(e, msg))
		FAIL("message \"%s\" not in \"%s\"", msg, e);
	if (with_pos && !strstr(e, "s.json:1:"))
		FAIL("no position in \"%s\"", e);
}
