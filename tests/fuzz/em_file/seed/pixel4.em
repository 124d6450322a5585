# feecscope Energy Model; read back with feecscope --em FILE
feecscope-em 1
kernel
source profile pixel4: device-tree facts, v6.0-v6.8 EM arithmetic (uW; cost = fmax*power/freq)
unit uW
cpus 8
capacity 0 306
capacity 1 306
capacity 2 306
capacity 3 306
capacity 4 871
capacity 5 871
capacity 6 871
capacity 7 1024
pd pd0 cpus=0-3 flags=0x3 has_inefficient=1 states=18
ps frequency=300000 power=25056 cost=149133 inefficient=1 performance=0
ps frequency=403200 power=33658 cost=149056 inefficient=0 performance=0
ps frequency=499200 power=41676 cost=149071 inefficient=0 performance=0
ps frequency=576000 power=48107 cost=149131 inefficient=0 performance=0
ps frequency=672000 power=56125 cost=149132 inefficient=0 performance=0
ps frequency=768000 power=68490 cost=159239 inefficient=0 performance=0
ps frequency=844800 power=78210 cost=165307 inefficient=0 performance=0
ps frequency=940800 power=91572 cost=173799 inefficient=0 performance=0
ps frequency=1036800 power=107250 cost=184708 inefficient=0 performance=0
ps frequency=1113600 power=119399 cost=191450 inefficient=0 performance=0
ps frequency=1209600 power=137439 cost=202886 inefficient=0 performance=0
ps frequency=1305600 power=156950 cost=214652 inefficient=0 performance=0
ps frequency=1382400 power=173680 cost=224336 inefficient=0 performance=0
ps frequency=1478400 power=195977 cost=236699 inefficient=0 performance=0
ps frequency=1555200 power=206187 cost=236733 inefficient=0 performance=0
ps frequency=1632000 power=227998 cost=249456 inefficient=0 performance=0
ps frequency=1708800 power=253603 cost=265000 inefficient=0 performance=0
ps frequency=1785600 power=275744 cost=275744 inefficient=0 performance=0
pd pd1 cpus=4-6 flags=0x3 has_inefficient=1 states=17
ps frequency=710400 power=149736 cost=509911 inefficient=1 performance=0
ps frequency=825600 power=173989 cost=509828 inefficient=1 performance=0
ps frequency=940800 power=198242 cost=509765 inefficient=0 performance=0
ps frequency=1056000 power=222707 cost=510201 inefficient=1 performance=0
ps frequency=1171200 power=246960 cost=510114 inefficient=1 performance=0
ps frequency=1286400 power=271213 cost=510042 inefficient=1 performance=0
ps frequency=1401600 power=295466 cost=509982 inefficient=0 performance=0
ps frequency=1497600 power=332637 cost=537336 inefficient=0 performance=0
ps frequency=1612800 power=384506 cost=576759 inefficient=0 performance=0
ps frequency=1708800 power=427925 cost=605826 inefficient=0 performance=0
ps frequency=1804800 power=474184 cost=635608 inefficient=0 performance=0
ps frequency=1920000 power=523991 cost=660228 inefficient=0 performance=0
ps frequency=2016000 power=586601 cost=703921 inefficient=0 performance=0
ps frequency=2131200 power=665557 cost=755497 inefficient=0 performance=0
ps frequency=2227200 power=732302 cost=795431 inefficient=0 performance=0
ps frequency=2323200 power=809856 cost=843321 inefficient=0 performance=0
ps frequency=2419200 power=892611 cost=892611 inefficient=0 performance=0
pd pd2 cpus=7 flags=0x3 has_inefficient=1 states=20
ps frequency=825600 power=198508 cost=683236 inefficient=1 performance=0
ps frequency=940800 power=226179 cost=683152 inefficient=0 performance=0
ps frequency=1056000 power=254091 cost=683735 inefficient=1 performance=0
ps frequency=1171200 power=281762 cost=683619 inefficient=1 performance=0
ps frequency=1286400 power=309433 cost=683523 inefficient=1 performance=0
ps frequency=1401600 power=337103 cost=683441 inefficient=1 performance=0
ps frequency=1497600 power=360203 cost=683462 inefficient=1 performance=0
ps frequency=1612800 power=387874 cost=683397 inefficient=0 performance=0
ps frequency=1708800 power=410973 cost=683415 inefficient=0 performance=0
ps frequency=1804800 power=452640 cost=712667 inefficient=0 performance=0
ps frequency=1920000 power=507030 cost=750404 inefficient=0 performance=0
ps frequency=2016000 power=554109 cost=781029 inefficient=0 performance=0
ps frequency=2131200 power=615072 cost=820096 inefficient=0 performance=0
ps frequency=2227200 power=661547 cost=844042 inefficient=0 performance=0
ps frequency=2323200 power=723316 cost=884717 inefficient=0 performance=0
ps frequency=2419200 power=795834 cost=934789 inefficient=0 performance=0
ps frequency=2534400 power=887316 cost=994869 inefficient=0 performance=0
ps frequency=2649600 power=977047 cost=1047847 inefficient=0 performance=0
ps frequency=2745600 power=1065042 cost=1102281 inefficient=0 performance=0
ps frequency=2841600 power=1158093 cost=1158093 inefficient=0 performance=0
end
