// SPDX-License-Identifier: GPL-2.0
/*
 * The BTF file the collector's choices are read from (live_btf.h): mapped or
 * read, an ELF's .BTF found by libbpf, then scanned by btf_scan.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <bpf/btf.h>
#include "live_btf.h"

/* The whole file: mapped (private, read-only) if the kernel allows it, else read. */
static void *load_file(int fd, size_t size, bool *mapped)
{
	void *p = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	size_t got = 0;

	*mapped = p != MAP_FAILED;
	if (*mapped)
		return p;
	p = malloc(size ? size : 1);
	while (p && got < size) {
		ssize_t n = pread(fd, (char *)p + got, size - got, got); /* sysfs: a page per call */

		if (n <= 0) {
			free(p);
			errno = n ? errno : EIO;
			return NULL;
		}
		got += n;
	}
	return p;
}

int fs_btf_facts_read(const char *path, struct fs_btf_facts *f, char *err, size_t errlen)
{
	char why[160];
	struct stat st;
	bool mapped = false;
	void *data = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc = -1;

	if (fd < 0 || fstat(fd, &st) || !(data = load_file(fd, st.st_size, &mapped))) {
		snprintf(err, errlen, "%s: cannot read BTF: %s", path, strerror(errno));
		goto out;
	}
	f->mapped = mapped;
	if (st.st_size >= 4 && !memcmp(data, "\177ELF", 4)) { /* a vmlinux: libbpf finds .BTF */
		struct btf *btf = btf__parse(path, NULL);
		__u32 sz = 0;
		const void *raw = btf ? btf__raw_data(btf, &sz) : NULL;

		if (!raw) {
			snprintf(err, errlen, "%s: cannot read BTF: %s", path, strerror(errno));
		} else if (fs_btf_facts_scan(raw, sz, f, why, sizeof(why))) {
			snprintf(err, errlen, "%s: cannot read BTF: %s", path, why);
		} else {
			rc = 0;
		}
		btf__free(btf);
		goto out;
	}
	if (fs_btf_facts_scan(data, st.st_size, f, why, sizeof(why)))
		snprintf(err, errlen, "%s: cannot read BTF: %s", path, why);
	else
		rc = 0;
out:
	if (data && mapped)
		munmap(data, st.st_size);
	else
		free(data);
	if (fd >= 0)
		close(fd);
	return rc;
}
