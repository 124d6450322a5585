# feecscope Energy Model; read back with feecscope --em FILE
feecscope-em 1
kernel
source profile hikey960: device-tree facts, v6.0-v6.8 EM arithmetic (uW; cost = fmax*power/freq)
unit uW
cpus 8
capacity 0 462
capacity 1 462
capacity 2 462
capacity 3 462
capacity 4 1024
capacity 5 1024
capacity 6 1024
capacity 7 1024
pd pd0 cpus=0-3 flags=0x1 has_inefficient=1 states=5
ps frequency=533000 power=28728 cost=99389 inefficient=0 performance=0
ps frequency=999000 power=70329 cost=129816 inefficient=0 performance=0
ps frequency=1402000 power=124918 cost=164300 inefficient=0 performance=0
ps frequency=1709000 power=187990 cost=202840 inefficient=0 performance=0
ps frequency=1844000 power=245436 cost=245436 inefficient=0 performance=0
pd pd1 cpus=4-7 flags=0x1 has_inefficient=1 states=5
ps frequency=903000 power=243358 cost=636557 inefficient=0 performance=0
ps frequency=1421000 power=500192 cost=831424 inefficient=0 performance=0
ps frequency=1805000 power=804127 cost=1052270 inefficient=0 performance=0
ps frequency=2112000 power=1161600 cost=1299100 inefficient=0 performance=0
ps frequency=2362000 power=1571911 cost=1571911 inefficient=0 performance=0
end
