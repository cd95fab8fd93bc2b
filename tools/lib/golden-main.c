/* golden-main.c -- a stand-alone "openassembler golden" for tools/isa-learn,
 * built from src/util, src/isa and the tables only. */
int cmd_golden(int argc, char **argv);

int
main(int argc, char **argv)
{
	return cmd_golden(argc, argv);
}
