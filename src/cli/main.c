/* main.c -- the openassembler driver: dispatch to a subcommand. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const struct {
	const char *name, *help;
	int (*run)(int, char **);
} commands[] = {
#define CMD(name, help) { #name, help, cmd_##name },
#include "commands.def"
#undef CMD
};

static void
usage(FILE *f)
{
	size_t i;

	fputs("usage: openassembler COMMAND [ARGS...]\n\ncommands:\n", f);
	for (i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
	fputs("\nopenassembler COMMAND --help for a command's options.\n", f);
}

int
main(int argc, char **argv)
{
	size_t i;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2;
	}
	for (i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "openassembler: error: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 1;
}
