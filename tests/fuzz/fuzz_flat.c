// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: makedumpfile's flattened format (formats/flat.h):
 * detection, indexing and reassembly of the input as a whole stream.
 * Invariants: every indexed record lies inside the stream and inside
 * the reassembled file; reassembly into a memfd succeeds for an index
 * that was accepted and yields a file of out_size bytes.
 */
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "flat.h"
#include "fuzz_common.h"

struct stream {
	const uint8_t *data;
	size_t size;
};

static struct oc_error *stream_read(void *arg, uint64_t offset, void *buf,
				    size_t len)
{
	const struct stream *s = arg;

	if (offset > s->size || len > s->size - offset)
		return oc_error_format(OC_ERR_FORMAT,
				       "short read of %zu bytes at %llu", len,
				       (unsigned long long)offset);
	memcpy(buf, s->data + offset, len);
	return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct stream s = { data, size };
	struct oc_flat_index index;
	struct oc_error *err;

	(void)oc_flat_detect(data, size);
	memset(&index, 0, sizeof(index));
	err = oc_flat_index(stream_read, &s, size, &index);
	if (err) {
		fuzz_check_error(err);
		oc_flat_index_deinit(&index);
		return 0;
	}
	for (size_t i = 0; i < index.nr; i++) {
		const struct oc_flat_record *r = &index.records[i];

		FUZZ_ASSERT(r->src <= size && r->size <= size - r->src);
		FUZZ_ASSERT(r->dst + r->size >= r->dst);
		FUZZ_ASSERT(r->dst + r->size <= index.out_size);
	}
	/* reassembly makes a sparse file of out_size bytes */
	if (index.out_size <= (1ull << 32)) {
		int src = memfd_create("fuzz-flat-src", 0);
		int dst = memfd_create("fuzz-flat-dst", 0);
		struct stat st;

		if (src < 0 || dst < 0)
			abort();
		if (size && write(src, data, size) != (ssize_t)size)
			abort();
		err = oc_flat_reassemble(src, &index, dst);
		FUZZ_ASSERT(!err || err->code == OC_ERR_OS);
		if (!err) {
			FUZZ_ASSERT(!fstat(dst, &st));
			FUZZ_ASSERT((uint64_t)st.st_size == index.out_size);
		}
		fuzz_check_error(err);
		close(src);
		close(dst);
	}
	oc_flat_index_deinit(&index);
	return 0;
}
