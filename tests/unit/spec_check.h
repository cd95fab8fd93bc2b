/* spec_check.h -- launch-spec helpers shared by the unit tests
 * (test_spec.c, test_tex.c, test_tmap.c). */
#ifndef OA_SPEC_CHECK_H
#define OA_SPEC_CHECK_H

#include "test.h"
#include "run/spec.h"

/* spec_parse of text (named s.json) with its stderr captured into err. */
int spec_parse_capture(const char *text, Spec *s, char *err, size_t nerr);
/* text must be refused with msg in the message; with_pos: and the
 * message must name a position (s.json:1:). */
void want_spec_error(TestState *t_, const char *text, const char *msg, int with_pos);

#endif
