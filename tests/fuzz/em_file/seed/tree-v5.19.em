# feecscope Energy Model; read back with feecscope --em FILE
feecscope-em 1
kernel 5.19.0
source debugfs tests/fixtures/em/v5.19; capacities tests/fixtures/em/v5.19/cpu_capacity
unit mW
cpus 4
capacity 0 462
capacity 1 462
capacity 2 1024
capacity 3 1024
pd cpu0 cpus=0-1 flags=0x2 has_inefficient=1 states=3
ps frequency=533000 power=28 cost=96870 inefficient=1 performance=0
ps frequency=999000 power=70 cost=129209 inefficient=0 performance=0
ps frequency=1844000 power=245 cost=245000 inefficient=0 performance=0
pd cpu2 cpus=2-3 flags=0 has_inefficient=1 states=3
ps frequency=903000 power=243 cost=635621 inefficient=0 performance=0
ps frequency=1805000 power=804 cost=1052104 inefficient=0 performance=0
ps frequency=2362000 power=1571 cost=1571000 inefficient=0 performance=0
end
