# alloc.sh -- the program's allocator (src/cli/alloc.c) through its own test
# program (tests/alloc/alloc_test.c), which prints the PASS/FAIL lines.
"$(dirname "$OA")/alloc-test"
