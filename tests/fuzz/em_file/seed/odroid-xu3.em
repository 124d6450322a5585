# feecscope Energy Model; read back with feecscope --em FILE
feecscope-em 1
kernel
source profile odroid-xu3: device-tree facts, v6.0-v6.8 EM arithmetic (uW; cost = fmax*power/freq)
unit uW
cpus 8
capacity 0 389
capacity 1 389
capacity 2 389
capacity 3 389
capacity 4 1024
capacity 5 1024
capacity 6 1024
capacity 7 1024
pd pd0 cpus=0-3 flags=0x1 has_inefficient=1 states=8
ps frequency=600000 power=47410 cost=102721 inefficient=0 performance=0
ps frequency=700000 power=59889 cost=111222 inefficient=0 performance=0
ps frequency=800000 power=75645 cost=122923 inefficient=0 performance=0
ps frequency=900000 power=91355 cost=131957 inefficient=0 performance=0
ps frequency=1000000 power=111288 cost=144674 inefficient=0 performance=0
ps frequency=1100000 power=133674 cost=157978 inefficient=0 performance=0
ps frequency=1200000 power=158645 cost=171865 inefficient=0 performance=0
ps frequency=1300000 power=190198 cost=190198 inefficient=0 performance=0
pd pd1 cpus=4-7 flags=0x1 has_inefficient=1 states=12
ps frequency=700000 power=180488 cost=464112 inefficient=0 performance=0
ps frequency=800000 power=217736 cost=489906 inefficient=0 performance=0
ps frequency=900000 power=258198 cost=516396 inefficient=0 performance=0
ps frequency=1000000 power=301992 cost=543585 inefficient=0 performance=0
ps frequency=1100000 power=349233 cost=571472 inefficient=0 performance=0
ps frequency=1200000 power=400037 cost=600055 inefficient=0 performance=0
ps frequency=1300000 power=454521 cost=629336 inefficient=0 performance=0
ps frequency=1400000 power=536660 cost=689991 inefficient=0 performance=0
ps frequency=1500000 power=601137 cost=721364 inefficient=0 performance=0
ps frequency=1600000 power=684790 cost=770388 inefficient=0 performance=0
ps frequency=1700000 power=774133 cost=819670 inefficient=0 performance=0
ps frequency=1800000 power=871875 cost=871875 inefficient=0 performance=0
end
