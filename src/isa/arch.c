/* arch.c -- the architectures we know, looked up by name. */
#include <ctype.h>
#include <string.h>

#include "isa/isa_impl.h"

static const Arch *const arches[] = { &arch_sm80, &arch_sm90 };

const Arch *
arch_lookup(const char *name)
{
	size_t i;
	int sm;

	if (!strncmp(name, "sm_", 3) || !strncmp(name, "SM_", 3))
		name += 3;
	else if (!strncmp(name, "sm", 2) || !strncmp(name, "SM", 2))
		name += 2;
	if (!isdigit((uchar)name[0]) || !isdigit((uchar)name[1]) || name[2])
		return NULL;
	sm = (name[0] - '0') * 10 + name[1] - '0';
	for (i = 0; i < NELEM(arches); i++)
		if (arches[i]->sm == sm)
			return arches[i];
	return NULL;
}

const char *
arch_name(const Arch *a)
{
	return a->name;
}

int
arch_sm(const Arch *a)
{
	return a->sm;
}
