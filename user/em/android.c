// SPDX-License-Identifier: GPL-2.0
/* Whether this is Android (android.h). */
#include <stdlib.h>
#include <unistd.h>
#include "android.h"

bool fs_on_android(void)
{
	return getenv("ANDROID_ROOT") || access("/system/build.prop", F_OK) == 0;
}
