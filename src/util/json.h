/* json.h -- a small, strict JSON parser (RFC 8259) into an arena.
 *
 *   Src src = {path, text, len};
 *   Json *j = json_parse(&arena, &src);   // NULL after a diag_at() error
 *
 * Strict: no comments, no trailing commas, no duplicate keys, no NaN or
 * Infinity, no leading zeros, no control characters in strings, nesting
 * at most JSON_MAXDEPTH deep, nothing but white space after the value.
 * Every node remembers its byte offset so that later checks (a spec's
 * unknown key, a wrong type) can point at it with json_error(). */
#ifndef OA_JSON_H
#define OA_JSON_H

#include "util/util.h"

enum { JSON_MAXDEPTH = 128 };

typedef enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ } JsonKind;

typedef struct Json Json;
struct Json {
	JsonKind kind;
	size_t pos;             /* byte offset of the value in the source */
	int b;                  /* J_BOOL */
	double num;             /* J_NUM: value as a double (strtod) */
	const char *text;       /* J_NUM: the exact source text; J_STR: decoded UTF-8 */
	size_t len;             /* length of text (a J_STR may hold \u0000) */
	size_t n;               /* J_ARR, J_OBJ: number of elements / members */
	Json **elem;            /* J_ARR: elements; J_OBJ: member values */
	const char **key;       /* J_OBJ: member names (decoded) */
	size_t *keypos;         /* J_OBJ: byte offset of each name */
};

Json *json_parse(Arena *a, const Src *src);
/* Member of an object by name, or NULL. */
Json *json_get(const Json *obj, const char *key);
const char *json_kind_name(JsonKind k);   /* "number", "object", ... */
/* Exact integer value of a J_NUM written without fraction or exponent
 * (or with an exponent that keeps it integral); 0 if it is not one or
 * does not fit in i64.  json_u64 likewise for u64. */
int json_i64(const Json *j, i64 *v);
int json_u64(const Json *j, u64 *v);

#endif
