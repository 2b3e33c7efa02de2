/* harness.c - runs every suite and prints "N passed, N failed". */
#include "harness.h"
#include <string.h>

/* core's ANTIC_WARN_ON count (sim/invariants.c): a test must break none */
extern unsigned long antic_warnings;

int harness_failed_checks;
static int passed, failed;
static const char *only;

void run_test(const char *name, void (*fn)(void))
{
	int before = harness_failed_checks;
	unsigned long warnings = antic_warnings;

	if (only && !strstr(name, only))
		return;
	fn();
	if (antic_warnings != warnings) {
		fprintf(stderr, "  %lu core invariants broken\n", antic_warnings - warnings);
		harness_failed_checks++;
	}
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
	suite_invariants();
	suite_wcache();
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
