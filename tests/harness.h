/*
 * harness.h - a minimal test runner: each test is a function; CHECK
 * records a failure with file and line and the test goes on.
 */
#ifndef TESTS_HARNESS_H
#define TESTS_HARNESS_H

#include <stdio.h>

extern int harness_failed_checks;

#define CHECK(cond) do { if (!(cond)) { harness_failed_checks++; \
	fprintf(stderr, "  %s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); } } while (0)
#define CHECK_EQ(a, b) do { unsigned long long _a = (unsigned long long)(a), _b = (unsigned long long)(b); \
	if (_a != _b) { harness_failed_checks++; fprintf(stderr, "  %s:%d: %s == %llu, expected %s == %llu\n", \
	__FILE__, __LINE__, #a, _a, #b, _b); } } while (0)

struct test_case {
	const char *name;
	void (*fn)(void);
};

void suite_core(void);
void suite_disk(void);
void suite_sim(void);
void suite_trace(void);
void suite_invariants(void);
void suite_wcache(void);
void run_test(const char *name, void (*fn)(void));

#define RUN(fn) run_test(#fn, fn)

#endif
