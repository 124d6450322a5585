/* SPDX-License-Identifier: GPL-2.0 */
/* The version feecscope reports (`feecscope version`, JSON, Perfetto) and writes into recordings. */
#ifndef FEECSCOPE_VERSION_H
#define FEECSCOPE_VERSION_H

#ifndef FS_VERSION_STRING
#define FS_VERSION_STRING "0.1"
#endif

#endif /* FEECSCOPE_VERSION_H */
