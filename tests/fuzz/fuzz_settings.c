/*
 * fuzz_settings.c - libFuzzer target: NAME=VALUE as --set takes it. Bad
 * values must be refused with a reason and leave the settings unchanged.
 */
#include "../../sim/job.h"
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct sim_settings s, before;
	char buf[256], err[256], *eq;

	if (size >= sizeof(buf))
		return 0;
	memcpy(buf, data, size);
	buf[size] = 0;
	eq = strchr(buf, '=');
	if (!eq)
		return 0;
	*eq = 0;
	sim_default_settings(&s);
	before = s;
	err[0] = 0;
	if (settings_apply(&s, buf, eq + 1, err, sizeof(err))) {
		if (!err[0] || memcmp(&s, &before, sizeof(s)))
			abort();
	}
	return 0;
}
