/* SPDX-License-Identifier: GPL-2.0-or-later */
/* thread_state.c: state letters. */
#include "core/thread_state.h"

static const char *const ethread_state_names[ETHREAD_STATE_COUNT] = {"R", "S", "I", "D"};

const char *ethread_state_name(enum ethread_state s)
{
	return (unsigned)s < ETHREAD_STATE_COUNT ? ethread_state_names[s] : "?";
}
