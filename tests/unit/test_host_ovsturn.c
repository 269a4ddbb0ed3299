/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_host_ovsturn.c: what became of the ovs-vswitchd behind the socket between two samples,
 * which decides the stop, restart and answers-again events (backends/host/src_host.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "backends/host/ovs/host_ovs.h"

static void test_turns(void **state)
{
	(void)state;
	/* The first to answer, and one that keeps answering: nothing to say. */
	assert_int_equal(host_ovs_turn(0, false, 40, true), HOST_OVS_SAME);
	assert_int_equal(host_ovs_turn(40, true, 40, true), HOST_OVS_SAME);
	/* Never answered, still not: nothing either. */
	assert_int_equal(host_ovs_turn(0, false, 0, false), HOST_OVS_SAME);
	/* It answered and no longer does: once, not at every sample after. */
	assert_int_equal(host_ovs_turn(40, true, 0, false), HOST_OVS_STOPPED);
	assert_int_equal(host_ovs_turn(40, false, 0, false), HOST_OVS_SAME);
	/* Another pid answers: a restart, with or without a sample between that failed. */
	assert_int_equal(host_ovs_turn(40, false, 41, true), HOST_OVS_RESTARTED);
	assert_int_equal(host_ovs_turn(40, true, 41, true), HOST_OVS_RESTARTED);
	/* The same pid answers again (SIGCONT after SIGSTOP). */
	assert_int_equal(host_ovs_turn(40, false, 40, true), HOST_OVS_BACK);
	/* Answering, pid unknown (no SO_PEERCRED): no restart claimed. */
	assert_int_equal(host_ovs_turn(40, true, 0, true), HOST_OVS_SAME);
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_turns)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
