/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whether feecscope runs on Android: advice about userdebug builds, `adb
 * root` and SELinux applies there and nowhere else (an x86 VM or a Debian
 * board has no such thing).
 */
#ifndef FEECSCOPE_ANDROID_H
#define FEECSCOPE_ANDROID_H

#include <stdbool.h>

/* Android's init sets ANDROID_ROOT for every process; /system/build.prop is there for the others. */
bool fs_on_android(void);

#endif /* FEECSCOPE_ANDROID_H */
