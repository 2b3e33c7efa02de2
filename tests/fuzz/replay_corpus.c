/*
 * replay_corpus.c - runs a libFuzzer target over saved inputs without
 * libFuzzer (gcc, under ASan and UBSan in make check), so the corpora and
 * the crashes kept under tests/fuzz/ stay regression tests even where
 * clang is not installed. Usage: replay_corpus DIR|FILE...
 */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static long runs;

static int one(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf;
	long n;

	if (!f)
		return -1;
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return -1;
	}
	buf = malloc((size_t)n + 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, (size_t)n);
	free(buf);
	runs++;
	return 0;
}

int main(int argc, char **argv)
{
	int i, bad = 0;

	for (i = 1; i < argc; i++) {
		struct stat st;
		DIR *d;
		struct dirent *e;

		if (stat(argv[i], &st)) {
			fprintf(stderr, "replay_corpus: %s: no such file\n", argv[i]);
			bad = 1;
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			bad |= one(argv[i]) != 0;
			continue;
		}
		d = opendir(argv[i]);
		while (d && (e = readdir(d))) {
			char p[4096];

			if (e->d_name[0] == '.')
				continue;
			snprintf(p, sizeof(p), "%s/%s", argv[i], e->d_name);
			bad |= one(p) != 0;
		}
		if (d)
			closedir(d);
	}
	printf("replay_corpus: %ld inputs\n", runs);
	return bad || !runs;
}
