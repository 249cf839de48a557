// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * model.c
 *
 * Storage and counters of the model page table (see model.h).
 */

#include <stdio.h>
#include <string.h>

#include "model.h"

uint64_t model_pt[2 * MODEL_NR_PTES] __attribute__((aligned(4096)));
struct model_counts model_counts;
unsigned int model_unfolded[MODEL_MAX_UNFOLDS];

static int model_paused;

void model_reset_counts(void)
{
	memset(&model_counts, 0, sizeof(model_counts));
	memset(model_unfolded, 0, sizeof(model_unfolded));
}

bool model_owns(const volatile void *p)
{
	const volatile uint64_t *q = p;

	return q >= model_pt && q < model_pt + 2 * MODEL_NR_PTES;
}

void model_pause(void)
{
	model_paused++;
}

void model_resume(void)
{
	model_paused--;
}

void model_note_read(const volatile void *p)
{
	if (model_owns(p) && !model_paused)
		model_counts.reads++;
}

void model_note_write(const volatile void *p)
{
	if (model_owns(p) && !model_paused)
		model_counts.writes++;
}

/*
 * Called for the first store after a contpte block was emptied for
 * conversion: that store starts the repaint of the block, contiguous (a
 * fold) or not (an unfold).
 */
void model_note_convert(const volatile void *p, bool to_cont)
{
	const volatile uint64_t *q = p;

	if (!model_owns(p))
		return;
	if (to_cont) {
		model_counts.folds++;
		return;
	}
	if (model_counts.unfolds < MODEL_MAX_UNFOLDS)
		model_unfolded[model_counts.unfolds] = q - model_pt;
	model_counts.unfolds++;
}

void model_note_tlbi(unsigned long start, unsigned long end,
		     unsigned long stride)
{
	if (model_paused)
		return;
	model_counts.tlbi++;
	model_counts.tlbi_pages += (end - start) / stride;
}

void model_note_warn(const char *file, int line, const char *cond)
{
	model_counts.warns++;
	fprintf(stderr, "WARNING at %s:%d: %s\n", file, line, cond);
}
