// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * model.c
 *
 * Storage and counters of the model page table, and the TLB model (see
 * model.h).
 */

#include <stdio.h>
#include <string.h>

#include "model.h"

uint64_t model_pt[2 * MODEL_NR_PTES] __attribute__((aligned(4096)));
struct model_counts model_counts;
unsigned int model_unfolded[MODEL_MAX_UNFOLDS];

static int model_paused;

/*
 * The TLB model (see model.h).  Each slot of model_pt[] has at most one live
 * non-contiguous translation ([0]) and one live contiguous translation
 * ([1]); a contiguous translation is the one TLB entry of its whole block,
 * kept in every slot of the block with the output address of that slot.
 * A violation is reported, then the new translation replaces the old one of
 * its kind, so that a test can go on.
 */
#define MODEL_NR_SLOTS		(2 * MODEL_NR_PTES)

struct model_tlb_slot {
	bool live[2];
	bool pending[2];	/* invalidation issued, not completed */
	uint64_t pfn[2];
	uint64_t attrs[2];
	bool writable[2];	/* walked from a writable entry */
};

static struct model_tlb_slot model_slots[MODEL_NR_SLOTS];
static unsigned int model_cont = 1;
static model_decode_t model_decode;
static bool model_tlb_any_pending;
struct model_tlb_state model_tlb;
char model_tlb_report[256];

/* The hardware walks slot @idx whose entry decodes to @x: cache it. */
static void model_tlb_walk(unsigned int idx, const struct model_xlat *x)
{
	unsigned int first = idx, n = 1, kind = x->cont, j;

	if (!x->valid)
		return;
	if (x->cont) {
		first = idx - idx % model_cont;
		n = model_cont;
	}
	for (j = first; j < first + n && j < MODEL_NR_SLOTS; j++) {
		struct model_tlb_slot *s = &model_slots[j];

		/*
		 * A store over a live translation does not take away the
		 * write permission the hardware may have cached with it.
		 */
		if (!s->live[kind]) {
			model_tlb.live++;
			s->writable[kind] = x->writable;
		} else {
			s->writable[kind] |= x->writable;
		}
		s->live[kind] = true;
		s->pending[kind] = false;
		s->pfn[kind] = x->pfn - idx + j;
		s->attrs[kind] = x->attrs;
	}
}

/* Walk the entries of slots [@first, @end); none entries map nothing. */
static void model_tlb_walk_table(unsigned int first, unsigned int end)
{
	struct model_xlat x;
	unsigned int i;

	for (i = first; i < end && i < MODEL_NR_SLOTS; i++) {
		if (!model_pt[i])
			continue;
		model_decode(model_pt[i], &x);
		model_tlb_walk(i, &x);
	}
}

void model_tlb_reset(unsigned int cont_ptes, model_decode_t decode)
{
	memset(model_slots, 0, sizeof(model_slots));
	memset(&model_tlb, 0, sizeof(model_tlb));
	model_tlb_report[0] = '\0';
	model_cont = cont_ptes;
	model_decode = decode;
	model_tlb_any_pending = false;
	model_tlb_walk_table(0, MODEL_NR_SLOTS);
}

void model_tlb_off(void)
{
	model_decode = NULL;
}

bool model_tlb_live(unsigned int idx, bool cont)
{
	return idx < MODEL_NR_SLOTS && model_slots[idx].live[cont];
}

bool model_tlb_writable(unsigned int idx)
{
	const struct model_tlb_slot *s;

	if (idx >= MODEL_NR_SLOTS)
		return false;
	s = &model_slots[idx];
	return (s->live[0] && s->writable[0]) || (s->live[1] && s->writable[1]);
}

static const char *const kind_name[] = { "non-contiguous", "contiguous" };

/*
 * Slot @j is about to get the translation (@kind, @pfn, @attrs): a live
 * translation of the other kind, or of the same kind to another output
 * address or with other attributes, must have been invalidated and the
 * invalidation completed first.
 */
static bool model_tlb_check(unsigned int idx, unsigned int j,
			    unsigned int kind, uint64_t pfn, uint64_t attrs)
{
	const struct model_tlb_slot *s = &model_slots[j];
	unsigned int k;

	for (k = 0; k < 2; k++) {
		if (!s->live[k])
			continue;
		if (k == kind && s->pfn[k] == pfn && s->attrs[k] == attrs)
			continue;
		if (!model_tlb.violations)
			snprintf(model_tlb_report, sizeof(model_tlb_report),
				 "break-before-make violation: store to PTE %u of a valid %s entry (pfn 0x%llx, attrs 0x%llx) while PTE %u has a live %s translation (pfn 0x%llx, attrs 0x%llx)%s",
				 idx, kind_name[kind],
				 (unsigned long long)(pfn - j + idx),
				 (unsigned long long)attrs, j, kind_name[k],
				 (unsigned long long)s->pfn[k],
				 (unsigned long long)s->attrs[k],
				 s->pending[k] ?
				 ", invalidated but not completed" :
				 ", never invalidated");
		return false;
	}
	return true;
}

void model_tlb_store(const volatile void *p)
{
	const volatile uint64_t *q = p;
	unsigned int idx, first, n, j;
	struct model_xlat x;
	bool ok = true;

	if (!model_decode || !model_owns(p))
		return;
	idx = q - model_pt;
	model_decode(*q, &x);
	if (!x.valid)
		return;
	first = idx;
	n = 1;
	if (x.cont) {
		first = idx - idx % model_cont;
		n = model_cont;
	}
	for (j = first; j < first + n && j < MODEL_NR_SLOTS && ok; j++)
		ok = model_tlb_check(idx, j, x.cont, x.pfn - idx + j, x.attrs);
	/* One violation per store, however many slots it conflicts in. */
	if (!ok)
		model_tlb.violations++;
	model_tlb_walk(idx, &x);
}

/*
 * A TLB invalidation of [@start, @end): it removes every translation of
 * those addresses, a contiguous one for its whole block, once completed.
 */
static void model_tlb_invalidate(unsigned long start, unsigned long end)
{
	unsigned long a;
	unsigned int j, b;

	if (!model_decode)
		return;
	for (a = start; a < end; a += 1UL << MODEL_PAGE_SHIFT) {
		if (a < MODEL_BASE_ADDR)
			continue;
		j = (a - MODEL_BASE_ADDR) >> MODEL_PAGE_SHIFT;
		if (j >= MODEL_NR_SLOTS)
			break;
		model_slots[j].pending[0] = model_slots[j].live[0];
		model_tlb_any_pending = true;
		if (!model_slots[j].live[1])
			continue;
		for (b = j - j % model_cont; b < j - j % model_cont + model_cont;
		     b++)
			model_slots[b].pending[1] = true;
	}
}

void model_note_tlb_sync(void)
{
	unsigned int j, k, blk;
	bool dropped;

	if (!model_decode || !model_tlb_any_pending)
		return;
	model_tlb_any_pending = false;
	for (j = 0; j < MODEL_NR_SLOTS; j++) {
		dropped = false;
		for (k = 0; k < 2; k++) {
			if (!model_slots[j].pending[k])
				continue;
			model_slots[j].pending[k] = false;
			model_slots[j].live[k] = false;
			model_tlb.dropped++;
			dropped = true;
		}
		if (!dropped)
			continue;
		/*
		 * What still maps the slot may be walked again at once: its
		 * own entry, or any contiguous entry of its block.
		 */
		blk = j - j % model_cont;
		model_tlb_walk_table(blk, blk + model_cont);
	}
}

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
	model_tlb_invalidate(start, end);
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
