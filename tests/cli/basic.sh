# basic.sh -- the driver itself.
. tests/cli/lib.bash
ok version "$OA" version
ok help "$OA" --help
fails unknown_command "$OA" no-such-command
