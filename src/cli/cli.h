/* cli.h -- subcommand entry points (see commands.def). */
#ifndef OA_CLI_H
#define OA_CLI_H

#define CMD(name, help) int cmd_##name(int argc, char **argv);
#include "commands.def"
#undef CMD

#endif
