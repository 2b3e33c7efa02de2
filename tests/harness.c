/* harness.c - runs every suite and prints "N passed, N failed". */
#include "harness.h"
#include <string.h>

int harness_failed_checks;
static int passed, failed;
static const char *only;

void run_test(const char *name, void (*fn)(void))
{
	int before = harness_failed_checks;

	if (only && !strstr(name, only))
		return;
	fn();
	if (harness_failed_checks == before) {
		passed++;
	} else {
		failed++;
		fprintf(stderr, "FAIL %s\n", name);
	}
}

int main(int argc, char **argv)
{
	only = argc > 1 ? argv[1] : NULL;
	suite_core();
	suite_disk();
	suite_sim();
	suite_trace();
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
