# feecscope Energy Model; read back with feecscope --em FILE
feecscope-em 1
kernel
source debugfs tests/fixtures/em/v6.12; capacities tests/fixtures/em/v6.12/cpus/cpuN/cpu_capacity; kernel release unknown: flags bit 0 read as MICROWATTS (v6.0+), pass --kernel for a 5.19 tree
unit uW
cpus 4
capacity 0 462
capacity 1 462
capacity 2 1024
capacity 3 1024
pd cpu0 cpus=0-1 flags=0x1 has_inefficient=1 states=3
ps frequency=533000 power=28728 cost=2160 inefficient=0 performance=133
ps frequency=999000 power=70329 cost=2813 inefficient=0 performance=250
ps frequency=1844000 power=245436 cost=5312 inefficient=0 performance=462
pd cpu2 cpus=2-3 flags=0x1 has_inefficient=1 states=3
ps frequency=903000 power=243358 cost=6223 inefficient=0 performance=391
ps frequency=1805000 power=804127 cost=10282 inefficient=0 performance=782
ps frequency=2362000 power=1571911 cost=15350 inefficient=0 performance=1024
end
