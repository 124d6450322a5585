# feecscope Energy Model; read back with feecscope --em FILE
feecscope-em 1
kernel
source debugfs tests/fixtures/em/v5.4; capacities tests/fixtures/em/v5.4/cpu_capacity
unit mW
cpus 4
capacity 0 462
capacity 1 462
capacity 2 1024
capacity 3 1024
pd pd0 cpus=0-1 flags=0 has_inefficient=0 states=3
ps frequency=533000 power=28 cost=96 inefficient=0 performance=0
ps frequency=999000 power=70 cost=129 inefficient=0 performance=0
ps frequency=1844000 power=245 cost=245 inefficient=0 performance=0
pd pd2 cpus=2-3 flags=0 has_inefficient=0 states=3
ps frequency=903000 power=243 cost=635 inefficient=0 performance=0
ps frequency=1805000 power=804 cost=1052 inefficient=0 performance=0
ps frequency=2362000 power=1571 cost=1571 inefficient=0 performance=0
end
