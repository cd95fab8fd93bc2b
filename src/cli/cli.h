/* cli.h -- subcommand entry points (see commands.def). */
#ifndef OA_CLI_H
#define OA_CLI_H

#define CMD(name, help) int cmd_##name(int argc, char **argv);
#include "commands.def"
#undef CMD

/* The program's heap (alloc.c): a compile of a large module ahead, so the
 * rest of the heap is better in huge pages than in small ones (a no-op
 * under the sanitizers). */
void heap_large(void);

#endif
