/* test_ui_keys.c: the key table is the one place a key gets its meaning: no code is bound
 * by two rows (the first would silently win and the help screen would list a dead key),
 * every row has a handler and says what it does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tui/console/ui.h"

static void test_codes_unique(void **state)
{
	(void)state;
	for (size_t i = 0; i < ui_nkeydefs; i++) {
		const struct ui_keydef *a = &ui_keydefs[i];
		assert_non_null(a->fn);
		assert_non_null(a->what);
		assert_true(a->codes[0] != 0);
		for (size_t j = 0; j < UI_KEY_CODES && a->codes[j]; j++) {
			assert_ptr_equal(ui_keydef_find(a->codes[j]), a);
			for (size_t k = i + 1; k < ui_nkeydefs; k++)
				for (size_t m = 0; m < UI_KEY_CODES && ui_keydefs[k].codes[m]; m++)
					if (ui_keydefs[k].codes[m] == a->codes[j])
						fail_msg("key %d bound by '%s' and '%s'", a->codes[j],
							 a->keys, ui_keydefs[k].keys);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_codes_unique)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
