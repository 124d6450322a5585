# feecscope Energy Model; read back with feecscope --em FILE
feecscope-em 1
kernel
source profile juno-r2: device-tree facts, v6.0-v6.8 EM arithmetic (uW; cost = fmax*power/freq)
unit uW
cpus 6
capacity 0 383
capacity 1 1024
capacity 2 1024
capacity 3 383
capacity 4 383
capacity 5 383
pd pd0 cpus=0,3-5 flags=0x1 has_inefficient=1 states=3
ps frequency=450000 power=42361 cost=89428 inefficient=0 performance=0
ps frequency=800000 power=90720 cost=107730 inefficient=0 performance=0
ps frequency=950000 power=133000 cost=133000 inefficient=0 performance=0
pd pd1 cpus=1-2 flags=0x1 has_inefficient=1 states=3
ps frequency=600000 power=181548 cost=363096 inefficient=0 performance=0
ps frequency=1000000 power=364500 cost=437400 inefficient=0 performance=0
ps frequency=1200000 power=540000 cost=540000 inefficient=0 performance=0
end
