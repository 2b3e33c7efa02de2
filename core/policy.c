// SPDX-License-Identifier: GPL-2.0
/*
 * policy.c - the one table of policy names: antic-sim's name for each
 * policy, the Linux scheduler that stands for it, and its alias.
 */
#include "sched.h"

const struct antic_policy_name antic_policy_names[ANTIC_NR_POLICIES] = {
	[ANTIC_POL_NOOP] = { ANTIC_NOOP_NAME, ANTIC_NOOP_KERNEL, NULL },
	[ANTIC_POL_DEADLINE] = { ANTIC_DEADLINE_NAME, ANTIC_DEADLINE_KERNEL,
				 NULL },
	/* the module is this scheduler; "as" was 2.6's name for it */
	[ANTIC_POL_AS] = { ANTIC_AS_NAME, ANTIC_AS_NAME, ANTIC_AS_ALIAS },
};

int antic_policy_find(const char *s)
{
	int i;

	for (i = 0; i < ANTIC_NR_POLICIES; i++) {
		const struct antic_policy_name *n = &antic_policy_names[i];

		if (antic_streq(s, n->name) || antic_streq(s, n->kernel) ||
		    (n->alias && antic_streq(s, n->alias)))
			return i;
	}
	return -1;
}
