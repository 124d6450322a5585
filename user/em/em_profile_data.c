// SPDX-License-Identifier: GPL-2.0
/*
 * Built-in device profiles: device-tree facts (OPPs, capacity-dmips-mhz,
 * dynamic-power-coefficient, cpuinfo.max_freq) copied from the device-facts
 * TSVs by tests/tools/em-tsv-to-c.sh. No power, cost or capacity here: those
 * are computed by em_dt.c with the kernel's arithmetic.
 *
 * Deliberate repetition: a variant profile (rb5-dpc205: rb5 with the silver
 * DPC before upstream 775a5283c25d) comes from its own TSV and repeats its
 * base's provenance lines and clusters, so each profile reads whole, as `em
 * -e NAME` prints it; only OPP lists are shared (written once below).
 */
#include "em_internal.h"

/* OPP lists that more than one profile has, written once. */
#define FS_OPPS_RB5_PD0 \
				{ 300000, 568000 }, \
				{ 403200, 568000 }, \
				{ 518400, 568000 }, \
				{ 614400, 568000 }, \
				{ 691200, 568000 }, \
				{ 787200, 584000 }, \
				{ 883200, 588000 }, \
				{ 979200, 600000 }, \
				{ 1075200, 612000 }, \
				{ 1171200, 620000 }, \
				{ 1248000, 636000 }, \
				{ 1344000, 652000 }, \
				{ 1420800, 668000 }, \
				{ 1516800, 688000 }, \
				{ 1612800, 716000 }, \
				{ 1708800, 744000 }, \
				{ 1804800, 776000 },

#define FS_OPPS_RB5_PD1 \
				{ 710400, 588000 }, \
				{ 825600, 608000 }, \
				{ 940800, 628000 }, \
				{ 1056000, 644000 }, \
				{ 1171200, 664000 }, \
				{ 1286400, 680000 }, \
				{ 1382400, 696000 }, \
				{ 1478400, 716000 }, \
				{ 1574400, 732000 }, \
				{ 1670400, 752000 }, \
				{ 1766400, 772000 }, \
				{ 1862400, 800000 }, \
				{ 1958400, 812000 }, \
				{ 2054400, 836000 }, \
				{ 2150400, 852000 }, \
				{ 2246400, 876000 }, \
				{ 2342400, 892000 }, \
				{ 2419200, 912000 },

#define FS_OPPS_RB5_PD2 \
				{ 844800, 576000 }, \
				{ 960000, 592000 }, \
				{ 1075200, 608000 }, \
				{ 1190400, 620000 }, \
				{ 1305600, 632000 }, \
				{ 1401600, 644000 }, \
				{ 1516800, 660000 }, \
				{ 1632000, 676000 }, \
				{ 1747200, 696000 }, \
				{ 1862400, 712000 }, \
				{ 1977600, 732000 }, \
				{ 2073600, 748000 }, \
				{ 2169600, 800000 }, \
				{ 2265600, 800000 }, \
				{ 2361600, 808000 }, \
				{ 2457600, 824000 }, \
				{ 2553600, 844000 }, \
				{ 2649600, 864000 }, \
				{ 2745600, 884000 }, \
				{ 2841600, 904000 },

#define FS_OPPS_RK3588_PD1 \
				{ 1200000, 675000 }, \
				{ 1416000, 725000 }, \
				{ 1608000, 762500 }, \
				{ 1800000, 850000 }, \
				{ 2016000, 925000 }, \
				{ 2208000, 987500 }, \
				{ 2400000, 1000000 },

#define FS_OPPS_RCAR_H3_PD1 \
				{ 800000, 820000 }, \
				{ 1000000, 820000 }, \
				{ 1200000, 820000 },

const struct fs_dt_device fs_dt_devices[] = {
	{
		.name = "hikey960",
		.desc = "HiSilicon Hi3660 (HiKey960)",
		.provenance =
			"facts: device-facts table hikey960.tsv (frequency, voltage, coefficients only)\n"
			"source: DT: arch/arm64/boot/dts/hisilicon/hi3660.dtsi; torvalds/linux blob seen at commit 05909cd9a0c8811731b38697af13075e8954314f and identical values in u-boot/u-boot dts/upstream (subtree 'v7.1-dts' of the Linux devicetree-rebasing repo) commit d0a838bdc629e7e90cd34536e54ac45391282c0f\n"
			"source: cpufreq driver: cpufreq-dt (stub clock), EM via dev_pm_opp_of_register_em()\n"
			"arch: 64-bit\n"
			"note: DPC is only present on cpu0 and cpu4 (the policy CPUs), which is where the kernel reads it.\n"
			"note: LISA lisa/platforms/hikey960.yml (ARM-software/lisa) records little cap_max 462, matching."
			,
		.nr_clusters = 2,
		.cl = {
			{ .name = "pd0", .cpus = "0-3", .core = "Cortex-A53",
			  .dmips_mhz = 592, .dpc = 110, .cpuinfo_max_khz = 1844000, .nr_opps = 5, .opp = {
				{ 533000, 700000 },
				{ 999000, 800000 },
				{ 1402000, 900000 },
				{ 1709000, 1000000 },
				{ 1844000, 1100000 },
			} },
			{ .name = "pd1", .cpus = "4-7", .core = "Cortex-A73",
			  .dmips_mhz = 1024, .dpc = 550, .cpuinfo_max_khz = 2362000, .nr_opps = 5, .opp = {
				{ 903000, 700000 },
				{ 1421000, 800000 },
				{ 1805000, 900000 },
				{ 2112000, 1000000 },
				{ 2362000, 1100000 },
			} },
		},
	},
	{
		.name = "pixel4",
		.desc = "Qualcomm SM8150 (Pixel 4 SoC) - mainline DT EM with sample LUT voltages",
		.provenance =
			"facts: device-facts table pixel4_sm8150.tsv (frequency, voltage, coefficients only)\n"
			"source: DT: arch/arm64/boot/dts/qcom/sm8150.dtsi in u-boot/u-boot dts/upstream (subtree 'v7.1-dts' of the Linux devicetree-rebasing repo) commit d0a838bdc629e7e90cd34536e54ac45391282c0f (capacity-dmips-mhz 488/1024/1024, dynamic-power-coefficient 232/369/421, added by Danny Lin Dec 2020; OPP frequency tables)\n"
			"source: Voltages: kdrag0n/freqbench commit db815e594804ee4f5dcaa1bfdc513e8d5f262524 (per-device OSM/EPSS LUT voltage dumps), results/sm8150/voltages.txt (Asus ZenFone 6, SM8150-AA); the frequency list equals the DT OPP tables exactly.\n"
			"arch: 64-bit\n"
			"note: UNVERIFIED: voltages are one chip's fused LUT (ZenFone 6), not a Pixel 4 unit; per-chip voltages differ by a few tens of mV. Whether 2841.6 MHz (prime) is a boost-flagged LUT entry on Pixel 4 is unknown; treated as a normal OPP.\n"
			"note: The shipping Pixel 4 kernel (android-msm-coral-4.14) did not use this EM: it used QCOM \"sched-energy-costs\" tables with WALT; no stock copy of those tables could be verified (indexed trees are custom kernels with edited tables)."
			,
		.nr_clusters = 3,
		.cl = {
			{ .name = "pd0", .cpus = "0-3", .core = "Kryo 485 Silver (Cortex-A55)",
			  .dmips_mhz = 488, .dpc = 232, .cpuinfo_max_khz = 1785600, .nr_opps = 18, .opp = {
				{ 300000, 600000 },
				{ 403200, 600000 },
				{ 499200, 600000 },
				{ 576000, 600000 },
				{ 672000, 600000 },
				{ 768000, 620000 },
				{ 844800, 632000 },
				{ 940800, 648000 },
				{ 1036800, 668000 },
				{ 1113600, 680000 },
				{ 1209600, 700000 },
				{ 1305600, 720000 },
				{ 1382400, 736000 },
				{ 1478400, 756000 },
				{ 1555200, 756000 },
				{ 1632000, 776000 },
				{ 1708800, 800000 },
				{ 1785600, 816000 },
			} },
			{ .name = "pd1", .cpus = "4-6", .core = "Kryo 485 Gold (Cortex-A76)",
			  .dmips_mhz = 1024, .dpc = 369, .cpuinfo_max_khz = 2419200, .nr_opps = 17, .opp = {
				{ 710400, 756000 },
				{ 825600, 756000 },
				{ 940800, 756000 },
				{ 1056000, 756000 },
				{ 1171200, 756000 },
				{ 1286400, 756000 },
				{ 1401600, 756000 },
				{ 1497600, 776000 },
				{ 1612800, 804000 },
				{ 1708800, 824000 },
				{ 1804800, 844000 },
				{ 1920000, 860000 },
				{ 2016000, 888000 },
				{ 2131200, 920000 },
				{ 2227200, 944000 },
				{ 2323200, 972000 },
				{ 2419200, 1000000 },
			} },
			{ .name = "pd2", .cpus = "7", .core = "Kryo 485 Prime (Cortex-A76)",
			  .dmips_mhz = 1024, .dpc = 421, .cpuinfo_max_khz = 2841600, .nr_opps = 20, .opp = {
				{ 825600, 756000 },
				{ 940800, 756000 },
				{ 1056000, 756000 },
				{ 1171200, 756000 },
				{ 1286400, 756000 },
				{ 1401600, 756000 },
				{ 1497600, 756000 },
				{ 1612800, 756000 },
				{ 1708800, 756000 },
				{ 1804800, 772000 },
				{ 1920000, 792000 },
				{ 2016000, 808000 },
				{ 2131200, 828000 },
				{ 2227200, 840000 },
				{ 2323200, 860000 },
				{ 2419200, 884000 },
				{ 2534400, 912000 },
				{ 2649600, 936000 },
				{ 2745600, 960000 },
				{ 2841600, 984000 },
			} },
		},
	},
	{
		.name = "rb5",
		.desc = "Qualcomm SM8250 / QRB5165 (Qualcomm RB5) - DT EM with sample LUT voltages",
		.provenance =
			"facts: device-facts table rb5_sm8250.tsv (frequency, voltage, coefficients only)\n"
			"source: DT: arch/arm64/boot/dts/qcom/sm8250.dtsi in u-boot/u-boot dts/upstream (subtree 'v7.1-dts' of the Linux devicetree-rebasing repo) commit d0a838bdc629e7e90cd34536e54ac45391282c0f (capacity-dmips-mhz 448/1024/1024, dynamic-power-coefficient 105/379/444; OPP frequency tables)\n"
			"source: Voltages: kdrag0n/freqbench commit db815e594804ee4f5dcaa1bfdc513e8d5f262524 (per-device OSM/EPSS LUT voltage dumps), results/sm8250/voltages_k30su.txt (Redmi K30S Ultra, SM8250).\n"
			"source: RB5 anchors from Vincent Guittot, \"arm64: dts: qcom: sm8250: correct dynamic power coefficients\" (upstream commit 775a5283c25d, measured on v6.4-rc6 with DPC 205): max capacity CPU0 284, CPU4 871; CPU0 OPP 1612800 cap 253 cost 191704; CPU4 OPP 710400 cost 343217. These imply RB5 LUT silver@1612.8MHz = 720 mV and gold@710.4MHz = 612 mV (K30S Ultra: 716 / 588 mV), and a prime cpuinfo.max_freq of 2841600 kHz (capacities reproduced below).\n"
			"arch: 64-bit\n"
			"note: UNVERIFIED: voltages are from a phone with the same SoC, not from an RB5 (see anchors).\n"
			"note: The DT prime table also lists 3091200 kHz (SM8250-AC speed bin); it is not in the sample LUT and RB5 capacities show a 2841.6 MHz prime max, so it is omitted.\n"
			"note: Silver DPC 105 is the value since the 2023 fix (upstream 775a5283c25d, ~v6.6; backported to 5.15/6.1/6.5 stable); rb5_sm8250_dpc205.tsv gives the pre-fix variant."
			,
		.nr_clusters = 3,
		.cl = {
			{ .name = "pd0", .cpus = "0-3", .core = "Kryo 585 Silver (Cortex-A55)",
			  .dmips_mhz = 448, .dpc = 105, .cpuinfo_max_khz = 1804800, .nr_opps = 17, .opp = {
				FS_OPPS_RB5_PD0
			} },
			{ .name = "pd1", .cpus = "4-6", .core = "Kryo 585 Gold (Cortex-A77)",
			  .dmips_mhz = 1024, .dpc = 379, .cpuinfo_max_khz = 2419200, .nr_opps = 18, .opp = {
				FS_OPPS_RB5_PD1
			} },
			{ .name = "pd2", .cpus = "7", .core = "Kryo 585 Prime (Cortex-A77)",
			  .dmips_mhz = 1024, .dpc = 444, .cpuinfo_max_khz = 2841600, .nr_opps = 20, .opp = {
				FS_OPPS_RB5_PD2
			} },
		},
	},
	{
		.name = "rb5-dpc205",
		.desc = "Qualcomm SM8250 / QRB5165 (Qualcomm RB5) - DT EM with sample LUT voltages",
		.provenance =
			"facts: device-facts table rb5_sm8250_dpc205.tsv (frequency, voltage, coefficients only)\n"
			"source: DT: arch/arm64/boot/dts/qcom/sm8250.dtsi in u-boot/u-boot dts/upstream (subtree 'v7.1-dts' of the Linux devicetree-rebasing repo) commit d0a838bdc629e7e90cd34536e54ac45391282c0f (capacity-dmips-mhz 448/1024/1024, dynamic-power-coefficient 205/379/444; OPP frequency tables)\n"
			"source: Voltages: kdrag0n/freqbench commit db815e594804ee4f5dcaa1bfdc513e8d5f262524 (per-device OSM/EPSS LUT voltage dumps), results/sm8250/voltages_k30su.txt (Redmi K30S Ultra, SM8250).\n"
			"source: RB5 anchors from Vincent Guittot, \"arm64: dts: qcom: sm8250: correct dynamic power coefficients\" (upstream commit 775a5283c25d, measured on v6.4-rc6 with DPC 205): max capacity CPU0 284, CPU4 871; CPU0 OPP 1612800 cap 253 cost 191704; CPU4 OPP 710400 cost 343217. These imply RB5 LUT silver@1612.8MHz = 720 mV and gold@710.4MHz = 612 mV (K30S Ultra: 716 / 588 mV), and a prime cpuinfo.max_freq of 2841600 kHz (capacities reproduced below).\n"
			"arch: 64-bit\n"
			"note: UNVERIFIED: voltages are from a phone with the same SoC, not from an RB5 (see anchors).\n"
			"note: The DT prime table also lists 3091200 kHz (SM8250-AC speed bin); it is not in the sample LUT and RB5 capacities show a 2841.6 MHz prime max, so it is omitted.\n"
			"note: Variant with the original silver DPC 205 (mainline DTs before 775a5283c25d; the RB5 anchor numbers were taken with it)."
			,
		.nr_clusters = 3,
		.cl = {
			{ .name = "pd0", .cpus = "0-3", .core = "Kryo 585 Silver (Cortex-A55)",
			  .dmips_mhz = 448, .dpc = 205, .cpuinfo_max_khz = 1804800, .nr_opps = 17, .opp = {
				FS_OPPS_RB5_PD0
			} },
			{ .name = "pd1", .cpus = "4-6", .core = "Kryo 585 Gold (Cortex-A77)",
			  .dmips_mhz = 1024, .dpc = 379, .cpuinfo_max_khz = 2419200, .nr_opps = 18, .opp = {
				FS_OPPS_RB5_PD1
			} },
			{ .name = "pd2", .cpus = "7", .core = "Kryo 585 Prime (Cortex-A77)",
			  .dmips_mhz = 1024, .dpc = 444, .cpuinfo_max_khz = 2841600, .nr_opps = 20, .opp = {
				FS_OPPS_RB5_PD2
			} },
		},
	},
	{
		.name = "juno-r0",
		.desc = "Arm Juno r0 (2xA57 + 4xA53), SCPI firmware DVFS",
		.provenance =
			"facts: device-facts table juno_r0.tsv (frequency, voltage, coefficients only)\n"
			"source: DT: arch/arm64/boot/dts/arm/juno.dts (capacity-dmips-mhz, dynamic-power-coefficient) in u-boot/u-boot dts/upstream (subtree 'v7.1-dts' of the Linux devicetree-rebasing repo) commit d0a838bdc629e7e90cd34536e54ac45391282c0f\n"
			"source: OPPs (freq + voltage) are NOT in DT: provided by SCP firmware via SCPI (scpi-cpufreq adds them, then dev_pm_opp_of_register_em() uses the DT DPC). Values from ARM-software/SCP-firmware product/juno/scp_ramfw/config_dvfs.c commit d129f7d754984426ec44c5aa08e130ad3e063842 (cpu_group_*_r0)\n"
			"source: Validation: ARM-software/lisa tests/assets/sched_load/plat_info.yml (HEAD bb5ff50d0ff5f5e3620634dc3342103dcfa1d6d2) holds an EM read from /sys/kernel/debug/energy_model on kernel 4.19: A53 mW 42/58/79/97/119, A57 mW 160/239/343/454/583, capacities 446/1024 - all reproduced here.\n"
			"arch: 64-bit\n"
			"note: Logical CPU numbers assume boot on A53_0 (cpu@100), the Juno default: cpu0=A53_0, cpu1/2=big cpu@0/@1, cpu3-5=A53_1..3 (matches LISA plat_info).\n"
			"note: With juno-scmi.dts the EM power comes from SCMI perf (firmware power table built as DPC_mW*MHz*V^2 in double, truncated to mW); for these OPPs that gives the same mW values, and v6.0+ kernels multiply by 1000 (mW power scale) instead of computing uW from the DPC."
			,
		.nr_clusters = 2,
		.cl = {
			{ .name = "pd0", .cpus = "0,3,4,5", .core = "Cortex-A53",
			  .dmips_mhz = 578, .dpc = 140, .cpuinfo_max_khz = 850000, .nr_opps = 5, .opp = {
				{ 450000, 820000 },
				{ 575000, 850000 },
				{ 700000, 900000 },
				{ 775000, 950000 },
				{ 850000, 1000000 },
			} },
			{ .name = "pd1", .cpus = "1-2", .core = "Cortex-A57",
			  .dmips_mhz = 1024, .dpc = 530, .cpuinfo_max_khz = 1100000, .nr_opps = 5, .opp = {
				{ 450000, 820000 },
				{ 625000, 850000 },
				{ 800000, 900000 },
				{ 950000, 950000 },
				{ 1100000, 1000000 },
			} },
		},
	},
	{
		.name = "juno-r2",
		.desc = "Arm Juno r2 (2xA72 + 4xA53), SCPI firmware DVFS",
		.provenance =
			"facts: device-facts table juno_r2.tsv (frequency, voltage, coefficients only)\n"
			"source: DT: arch/arm64/boot/dts/arm/juno-r2.dts (capacity-dmips-mhz, dynamic-power-coefficient) in u-boot/u-boot dts/upstream (subtree 'v7.1-dts' of the Linux devicetree-rebasing repo) commit d0a838bdc629e7e90cd34536e54ac45391282c0f\n"
			"source: OPPs from ARM-software/SCP-firmware product/juno/scp_ramfw/config_dvfs.c commit d129f7d754984426ec44c5aa08e130ad3e063842 (cpu_group_*_r2)\n"
			"arch: 64-bit\n"
			"note: Logical CPU numbers assume boot on A53_0 (cpu@100), the Juno default: cpu0=A53_0, cpu1/2=big cpu@0/@1, cpu3-5=A53_1..3 (matches LISA plat_info).\n"
			"note: UNVERIFIED: OPP list is the open SCP-firmware one; boards running the older Arm SCP binary may expose a different OPP set. No recorded r2 EM dump found (LISA doc/traces/juno_r2_plat_info.yml exists but its blob is missing from the snapshot).\n"
			"note: juno-r1.dts has no dynamic-power-coefficient (no DT-derived EM on r1)."
			,
		.nr_clusters = 2,
		.cl = {
			{ .name = "pd0", .cpus = "0,3,4,5", .core = "Cortex-A53",
			  .dmips_mhz = 485, .dpc = 140, .cpuinfo_max_khz = 950000, .nr_opps = 3, .opp = {
				{ 450000, 820000 },
				{ 800000, 900000 },
				{ 950000, 1000000 },
			} },
			{ .name = "pd1", .cpus = "1-2", .core = "Cortex-A72",
			  .dmips_mhz = 1024, .dpc = 450, .cpuinfo_max_khz = 1200000, .nr_opps = 3, .opp = {
				{ 600000, 820000 },
				{ 1000000, 900000 },
				{ 1200000, 1000000 },
			} },
		},
	},
	{
		.name = "rk3399",
		.desc = "Rockchip RK3399 (generic rk3399.dtsi OPPs: RockPro64, ROCK Pi 4, ...)",
		.provenance =
			"facts: device-facts table rk3399.tsv (frequency, voltage, coefficients only)\n"
			"source: DT: arch/arm64/boot/dts/rockchip/rk3399-base.dtsi (dmips/DPC) + rk3399.dtsi (OPP tables) in u-boot/u-boot dts/upstream (subtree 'v7.1-dts' of the Linux devicetree-rebasing repo) commit d0a838bdc629e7e90cd34536e54ac45391282c0f\n"
			"source: cpufreq driver: cpufreq-dt\n"
			"arch: 64-bit\n"
			"note: opp-microvolt has <target min max>; the EM uses the target (first) value."
			,
		.nr_clusters = 2,
		.cl = {
			{ .name = "pd0", .cpus = "0-3", .core = "Cortex-A53",
			  .dmips_mhz = 485, .dpc = 100, .cpuinfo_max_khz = 1416000, .nr_opps = 6, .opp = {
				{ 408000, 825000 },
				{ 600000, 825000 },
				{ 816000, 850000 },
				{ 1008000, 925000 },
				{ 1200000, 1000000 },
				{ 1416000, 1125000 },
			} },
			{ .name = "pd1", .cpus = "4-5", .core = "Cortex-A72",
			  .dmips_mhz = 1024, .dpc = 436, .cpuinfo_max_khz = 1800000, .nr_opps = 8, .opp = {
				{ 408000, 825000 },
				{ 600000, 825000 },
				{ 816000, 825000 },
				{ 1008000, 875000 },
				{ 1200000, 950000 },
				{ 1416000, 1025000 },
				{ 1608000, 1100000 },
				{ 1800000, 1200000 },
			} },
		},
	},
	{
		.name = "rk3399-op1",
		.desc = "Rockchip RK3399-OP1 (Chromebook \"gru\": kevin/bob/scarlet)",
		.provenance =
			"facts: device-facts table rk3399_op1.tsv (frequency, voltage, coefficients only)\n"
			"source: DT: rk3399-base.dtsi (dmips/DPC) + rockchip/rk3399-op1.dtsi (OPP tables) in u-boot/u-boot dts/upstream (subtree 'v7.1-dts' of the Linux devicetree-rebasing repo) commit d0a838bdc629e7e90cd34536e54ac45391282c0f\n"
			"arch: 64-bit\n"
			"note: LISA has a \"cros-kevin\" platform (old EAS-v1 model) for this board; this is the DPC EM."
			,
		.nr_clusters = 2,
		.cl = {
			{ .name = "pd0", .cpus = "0-3", .core = "Cortex-A53",
			  .dmips_mhz = 485, .dpc = 100, .cpuinfo_max_khz = 1512000, .nr_opps = 7, .opp = {
				{ 408000, 800000 },
				{ 600000, 825000 },
				{ 816000, 850000 },
				{ 1008000, 900000 },
				{ 1200000, 975000 },
				{ 1416000, 1100000 },
				{ 1512000, 1150000 },
			} },
			{ .name = "pd1", .cpus = "4-5", .core = "Cortex-A72",
			  .dmips_mhz = 1024, .dpc = 436, .cpuinfo_max_khz = 2016000, .nr_opps = 9, .opp = {
				{ 408000, 800000 },
				{ 600000, 800000 },
				{ 816000, 825000 },
				{ 1008000, 850000 },
				{ 1200000, 900000 },
				{ 1416000, 975000 },
				{ 1608000, 1050000 },
				{ 1800000, 1150000 },
				{ 2016000, 1250000 },
			} },
		},
	},
	{
		.name = "rk3576",
		.desc = "Rockchip RK3576",
		.provenance =
			"facts: device-facts table rk3576.tsv (frequency, voltage, coefficients only)\n"
			"source: DT: arch/arm64/boot/dts/rockchip/rk3576.dtsi in u-boot/u-boot dts/upstream (subtree 'v7.1-dts' of the Linux devicetree-rebasing repo) commit d0a838bdc629e7e90cd34536e54ac45391282c0f\n"
			"source: cpufreq driver: cpufreq-dt\n"
			"arch: 64-bit\n"
			"note: Many low OPPs share 700 mV: with integer rounding several of them come out inefficient."
			,
		.nr_clusters = 2,
		.cl = {
			{ .name = "pd0", .cpus = "0-3", .core = "Cortex-A53",
			  .dmips_mhz = 485, .dpc = 120, .cpuinfo_max_khz = 2016000, .nr_opps = 9, .opp = {
				{ 408000, 700000 },
				{ 600000, 700000 },
				{ 816000, 700000 },
				{ 1008000, 700000 },
				{ 1200000, 700000 },
				{ 1416000, 725000 },
				{ 1608000, 750000 },
				{ 1800000, 825000 },
				{ 2016000, 900000 },
			} },
			{ .name = "pd1", .cpus = "4-7", .core = "Cortex-A72",
			  .dmips_mhz = 1024, .dpc = 320, .cpuinfo_max_khz = 2208000, .nr_opps = 10, .opp = {
				{ 408000, 700000 },
				{ 600000, 700000 },
				{ 816000, 700000 },
				{ 1008000, 700000 },
				{ 1200000, 700000 },
				{ 1416000, 712500 },
				{ 1608000, 737500 },
				{ 1800000, 800000 },
				{ 2016000, 862500 },
				{ 2208000, 925000 },
			} },
		},
	},
	{
		.name = "rk3588",
		.desc = "Rockchip RK3588/RK3588S (ROCK 5, Orange Pi 5, ...)",
		.provenance =
			"facts: device-facts table rk3588.tsv (frequency, voltage, coefficients only)\n"
			"source: DT: arch/arm64/boot/dts/rockchip/rk3588-base.dtsi (dmips/DPC) + rk3588-opp.dtsi in u-boot/u-boot dts/upstream (subtree 'v7.1-dts' of the Linux devicetree-rebasing repo) commit d0a838bdc629e7e90cd34536e54ac45391282c0f\n"
			"source: cpufreq driver: cpufreq-dt (SCMI clocks, regulators in DT)\n"
			"arch: 64-bit\n"
			"note: Three frequency domains: A55 x4, A76 x2 (b0/b1), A76 x2 (b2/b3); tables of the two A76 PDs are identical."
			,
		.nr_clusters = 3,
		.cl = {
			{ .name = "pd0", .cpus = "0-3", .core = "Cortex-A55",
			  .dmips_mhz = 530, .dpc = 228, .cpuinfo_max_khz = 1800000, .nr_opps = 5, .opp = {
				{ 1008000, 675000 },
				{ 1200000, 712500 },
				{ 1416000, 762500 },
				{ 1608000, 850000 },
				{ 1800000, 950000 },
			} },
			{ .name = "pd1", .cpus = "4-5", .core = "Cortex-A76",
			  .dmips_mhz = 1024, .dpc = 416, .cpuinfo_max_khz = 2400000, .nr_opps = 7, .opp = {
				FS_OPPS_RK3588_PD1
			} },
			{ .name = "pd2", .cpus = "6-7", .core = "Cortex-A76",
			  .dmips_mhz = 1024, .dpc = 416, .cpuinfo_max_khz = 2400000, .nr_opps = 7, .opp = {
				FS_OPPS_RK3588_PD1
			} },
		},
	},
	{
		.name = "mt8173",
		.desc = "MediaTek MT8173 (Chromebook \"oak\"/\"elm\"/\"hana\")",
		.provenance =
			"facts: device-facts table mt8173.tsv (frequency, voltage, coefficients only)\n"
			"source: DT: arch/arm64/boot/dts/mediatek/mt8173.dtsi in u-boot/u-boot dts/upstream (subtree 'v7.1-dts' of the Linux devicetree-rebasing repo) commit d0a838bdc629e7e90cd34536e54ac45391282c0f\n"
			"source: cpufreq driver: mediatek-cpufreq\n"
			"arch: 64-bit\n"
			"note: LISA has a \"cros-elm\" platform (old EAS-v1 model) for this SoC."
			,
		.nr_clusters = 2,
		.cl = {
			{ .name = "pd0", .cpus = "0-1", .core = "Cortex-A53",
			  .dmips_mhz = 740, .dpc = 263, .cpuinfo_max_khz = 1703000, .nr_opps = 8, .opp = {
				{ 507000, 859000 },
				{ 702000, 908000 },
				{ 1001000, 983000 },
				{ 1105000, 1009000 },
				{ 1209000, 1034000 },
				{ 1300000, 1057000 },
				{ 1508000, 1109000 },
				{ 1703000, 1125000 },
			} },
			{ .name = "pd1", .cpus = "2-3", .core = "Cortex-A72",
			  .dmips_mhz = 1024, .dpc = 530, .cpuinfo_max_khz = 2106000, .nr_opps = 8, .opp = {
				{ 507000, 828000 },
				{ 702000, 867000 },
				{ 1001000, 927000 },
				{ 1209000, 968000 },
				{ 1404000, 1007000 },
				{ 1612000, 1049000 },
				{ 1807000, 1089000 },
				{ 2106000, 1125000 },
			} },
		},
	},
	{
		.name = "mt8183",
		.desc = "MediaTek MT8183 (Chromebooks \"kukui\"/\"jacuzzi\")",
		.provenance =
			"facts: device-facts table mt8183.tsv (frequency, voltage, coefficients only)\n"
			"source: DT: arch/arm64/boot/dts/mediatek/mt8183.dtsi in u-boot/u-boot dts/upstream (subtree 'v7.1-dts' of the Linux devicetree-rebasing repo) commit d0a838bdc629e7e90cd34536e54ac45391282c0f\n"
			"source: cpufreq driver: mediatek-cpufreq (registers the EM from DT OPPs + DPC)\n"
			"arch: 64-bit\n"
			"note: OPPs carry required-opps to the CCI table; not relevant for the CPU EM."
			,
		.nr_clusters = 2,
		.cl = {
			{ .name = "pd0", .cpus = "0-3", .core = "Cortex-A53",
			  .dmips_mhz = 741, .dpc = 84, .cpuinfo_max_khz = 1989000, .nr_opps = 16, .opp = {
				{ 793000, 650000 },
				{ 910000, 687500 },
				{ 1014000, 718750 },
				{ 1131000, 756250 },
				{ 1248000, 800000 },
				{ 1326000, 818750 },
				{ 1417000, 850000 },
				{ 1508000, 868750 },
				{ 1586000, 893750 },
				{ 1625000, 906250 },
				{ 1677000, 931250 },
				{ 1716000, 943750 },
				{ 1781000, 975000 },
				{ 1846000, 1000000 },
				{ 1924000, 1025000 },
				{ 1989000, 1050000 },
			} },
			{ .name = "pd1", .cpus = "4-7", .core = "Cortex-A73",
			  .dmips_mhz = 1024, .dpc = 211, .cpuinfo_max_khz = 1989000, .nr_opps = 16, .opp = {
				{ 793000, 700000 },
				{ 910000, 725000 },
				{ 1014000, 750000 },
				{ 1131000, 775000 },
				{ 1248000, 800000 },
				{ 1326000, 825000 },
				{ 1417000, 850000 },
				{ 1508000, 875000 },
				{ 1586000, 900000 },
				{ 1625000, 912500 },
				{ 1677000, 931250 },
				{ 1716000, 950000 },
				{ 1781000, 975000 },
				{ 1846000, 1000000 },
				{ 1924000, 1025000 },
				{ 1989000, 1050000 },
			} },
		},
	},
	{
		.name = "mt8186",
		.desc = "MediaTek MT8186 (Chromebooks \"corsola\")",
		.provenance =
			"facts: device-facts table mt8186.tsv (frequency, voltage, coefficients only)\n"
			"source: DT: arch/arm64/boot/dts/mediatek/mt8186.dtsi in u-boot/u-boot dts/upstream (subtree 'v7.1-dts' of the Linux devicetree-rebasing repo) commit d0a838bdc629e7e90cd34536e54ac45391282c0f\n"
			"source: cpufreq driver: mediatek-cpufreq\n"
			"arch: 64-bit\n"
			"note: UNVERIFIED: some board DTs may delete the two highest big OPPs (they carry labels cluster1_opp_14/15 for that purpose)."
			,
		.nr_clusters = 2,
		.cl = {
			{ .name = "pd0", .cpus = "0-5", .core = "Cortex-A55",
			  .dmips_mhz = 382, .dpc = 84, .cpuinfo_max_khz = 2000000, .nr_opps = 16, .opp = {
				{ 500000, 600000 },
				{ 774000, 675000 },
				{ 875000, 700000 },
				{ 975000, 725000 },
				{ 1075000, 750000 },
				{ 1175000, 775000 },
				{ 1275000, 800000 },
				{ 1375000, 825000 },
				{ 1500000, 856250 },
				{ 1618000, 875000 },
				{ 1666000, 900000 },
				{ 1733000, 925000 },
				{ 1800000, 950000 },
				{ 1866000, 981250 },
				{ 1933000, 1006250 },
				{ 2000000, 1031250 },
			} },
			{ .name = "pd1", .cpus = "6-7", .core = "Cortex-A76",
			  .dmips_mhz = 1024, .dpc = 335, .cpuinfo_max_khz = 2050000, .nr_opps = 16, .opp = {
				{ 774000, 675000 },
				{ 835000, 693750 },
				{ 919000, 718750 },
				{ 1002000, 743750 },
				{ 1085000, 775000 },
				{ 1169000, 800000 },
				{ 1308000, 843750 },
				{ 1419000, 875000 },
				{ 1530000, 912500 },
				{ 1670000, 956250 },
				{ 1733000, 981250 },
				{ 1796000, 1012500 },
				{ 1860000, 1037500 },
				{ 1923000, 1062500 },
				{ 1986000, 1093750 },
				{ 2050000, 1118750 },
			} },
		},
	},
	{
		.name = "pixel6",
		.desc = "Google Tensor G1 / gs101 (Pixel 6) - mainline DT EM",
		.provenance =
			"facts: device-facts table pixel6_gs101.tsv (frequency, voltage, coefficients only)\n"
			"source: DT: arch/arm64/boot/dts/exynos/google/gs101.dtsi in u-boot/u-boot dts/upstream (subtree 'v7.1-dts' of the Linux devicetree-rebasing repo) commit d0a838bdc629e7e90cd34536e54ac45391282c0f (cpucl0/1/2 OPP tables with opp-microvolt, clocks via ACPM DVFS)\n"
			"arch: 64-bit\n"
			"note: UNVERIFIED: which cpufreq driver registers the EM on mainline gs101 (ACPM clock + cpufreq-dt assumed). The production Pixel 6 kernel uses Google's own EM tables, not this one."
			,
		.nr_clusters = 3,
		.cl = {
			{ .name = "pd0", .cpus = "0-3", .core = "Cortex-A55",
			  .dmips_mhz = 250, .dpc = 70, .cpuinfo_max_khz = 1803000, .nr_opps = 11, .opp = {
				{ 300000, 537500 },
				{ 574000, 600000 },
				{ 738000, 618750 },
				{ 930000, 668750 },
				{ 1098000, 712500 },
				{ 1197000, 731250 },
				{ 1328000, 762500 },
				{ 1401000, 781250 },
				{ 1598000, 831250 },
				{ 1704000, 862500 },
				{ 1803000, 906250 },
			} },
			{ .name = "pd1", .cpus = "4-5", .core = "Cortex-A76",
			  .dmips_mhz = 620, .dpc = 284, .cpuinfo_max_khz = 2253000, .nr_opps = 14, .opp = {
				{ 400000, 506250 },
				{ 553000, 537500 },
				{ 696000, 562500 },
				{ 799000, 581250 },
				{ 910000, 606250 },
				{ 1024000, 625000 },
				{ 1197000, 662500 },
				{ 1328000, 687500 },
				{ 1491000, 731250 },
				{ 1663000, 775000 },
				{ 1836000, 818750 },
				{ 1999000, 868750 },
				{ 2130000, 918750 },
				{ 2253000, 968750 },
			} },
			{ .name = "pd2", .cpus = "6-7", .core = "Cortex-X1",
			  .dmips_mhz = 1024, .dpc = 650, .cpuinfo_max_khz = 2802000, .nr_opps = 17, .opp = {
				{ 500000, 500000 },
				{ 851000, 556250 },
				{ 984000, 575000 },
				{ 1106000, 606250 },
				{ 1277000, 631250 },
				{ 1426000, 662500 },
				{ 1582000, 693750 },
				{ 1745000, 731250 },
				{ 1826000, 750000 },
				{ 2048000, 793750 },
				{ 2188000, 831250 },
				{ 2252000, 850000 },
				{ 2401000, 887500 },
				{ 2507000, 925000 },
				{ 2630000, 968750 },
				{ 2704000, 1000000 },
				{ 2802000, 1056250 },
			} },
		},
	},
	{
		.name = "odroid-xu3",
		.desc = "Samsung Exynos 5422 (Odroid-XU3/XU4/HC1), 32-bit ARM",
		.provenance =
			"facts: device-facts table odroid_xu3_exynos5422.tsv (frequency, voltage, coefficients only)\n"
			"source: DT: arch/arm/boot/dts/samsung/exynos5422-cpus.dtsi (dmips/DPC) + exynos5420.dtsi (OPP tables) in u-boot/u-boot dts/upstream (subtree 'v7.1-dts' of the Linux devicetree-rebasing repo) commit d0a838bdc629e7e90cd34536e54ac45391282c0f\n"
			"source: cpufreq driver: cpufreq-dt\n"
			"arch: 32-bit\n"
			"note: 32-bit kernel: the v5.15..v5.19 x1000 cost scaling does not apply (cost_v5_15 == cost_v5).\n"
			"note: An older EM dump posted by Lukasz Luba (linux-samsung-soc, 2019) shows 1.0 V at 1 GHz for the A15s, i.e. a different OPP table than today's DT (987.5 mV); not used."
			,
		.nr_clusters = 2,
		.cl = {
			{ .name = "pd0", .cpus = "0-3", .core = "Cortex-A7",
			  .dmips_mhz = 539, .dpc = 90, .cpuinfo_max_khz = 1300000, .nr_opps = 8, .opp = {
				{ 600000, 937500 },
				{ 700000, 975000 },
				{ 800000, 1025000 },
				{ 900000, 1062500 },
				{ 1000000, 1112500 },
				{ 1100000, 1162500 },
				{ 1200000, 1212500 },
				{ 1300000, 1275000 },
			} },
			{ .name = "pd1", .cpus = "4-7", .core = "Cortex-A15",
			  .dmips_mhz = 1024, .dpc = 310, .cpuinfo_max_khz = 1800000, .nr_opps = 12, .opp = {
				{ 700000, 912500 },
				{ 800000, 937500 },
				{ 900000, 962500 },
				{ 1000000, 987500 },
				{ 1100000, 1012500 },
				{ 1200000, 1037500 },
				{ 1300000, 1062500 },
				{ 1400000, 1112500 },
				{ 1500000, 1137500 },
				{ 1600000, 1175000 },
				{ 1700000, 1212500 },
				{ 1800000, 1250000 },
			} },
		},
	},
	{
		.name = "rcar-h3",
		.desc = "Renesas R-Car H3 ES2+ (r8a77951; Salvator-X(S), ULCB)",
		.provenance =
			"facts: device-facts table rcar_h3_r8a77951.tsv (frequency, voltage, coefficients only)\n"
			"source: DT: arch/arm64/boot/dts/renesas/r8a77951.dtsi in u-boot/u-boot dts/upstream (subtree 'v7.1-dts' of the Linux devicetree-rebasing repo) commit d0a838bdc629e7e90cd34536e54ac45391282c0f\n"
			"source: cpufreq driver: cpufreq-dt\n"
			"arch: 64-bit\n"
			"note: 1700 MHz A57 OPP is turbo-mode: it is in the EM (and sets the EM fmax) but is excluded from cpuinfo.max_freq, so capacities are normalised at 1600 MHz (boost disabled by default).\n"
			"note: Logical CPUs assume boot on A57_0 (cpu@0): cpu0-3 = A57, cpu4-7 = A53."
			,
		.nr_clusters = 2,
		.cl = {
			{ .name = "pd0", .cpus = "0-3", .core = "Cortex-A57",
			  .dmips_mhz = 1024, .dpc = 854, .cpuinfo_max_khz = 1600000, .nr_opps = 5, .opp = {
				{ 500000, 830000 },
				{ 1000000, 830000 },
				{ 1500000, 830000 },
				{ 1600000, 900000 },
				{ 1700000, 960000 }, /* turbo */
			} },
			{ .name = "pd1", .cpus = "4-7", .core = "Cortex-A53",
			  .dmips_mhz = 535, .dpc = 277, .cpuinfo_max_khz = 1200000, .nr_opps = 3, .opp = {
				FS_OPPS_RCAR_H3_PD1
			} },
		},
	},
	{
		.name = "rzg2m",
		.desc = "Renesas RZ/G2M (r8a774a1)",
		.provenance =
			"facts: device-facts table rzg2m_r8a774a1.tsv (frequency, voltage, coefficients only)\n"
			"source: DT: arch/arm64/boot/dts/renesas/r8a774a1.dtsi in u-boot/u-boot dts/upstream (subtree 'v7.1-dts' of the Linux devicetree-rebasing repo) commit d0a838bdc629e7e90cd34536e54ac45391282c0f\n"
			"source: cpufreq driver: cpufreq-dt\n"
			"arch: 64-bit\n"
			"note: All OPPs at 820 mV, so power is linear in f and lower OPPs tie on cost (rounding decides efficiency)."
			,
		.nr_clusters = 2,
		.cl = {
			{ .name = "pd0", .cpus = "0-1", .core = "Cortex-A57",
			  .dmips_mhz = 1024, .dpc = 854, .cpuinfo_max_khz = 1500000, .nr_opps = 3, .opp = {
				{ 500000, 820000 },
				{ 1000000, 820000 },
				{ 1500000, 820000 },
			} },
			{ .name = "pd1", .cpus = "2-5", .core = "Cortex-A53",
			  .dmips_mhz = 560, .dpc = 277, .cpuinfo_max_khz = 1200000, .nr_opps = 3, .opp = {
				FS_OPPS_RCAR_H3_PD1
			} },
		},
	},
};

const int fs_dt_nr_devices = sizeof(fs_dt_devices) / sizeof(fs_dt_devices[0]);
