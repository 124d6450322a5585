# feecscope Energy Model; read back with feecscope --em FILE
feecscope-em 1
kernel
source profile rb5: device-tree facts, v6.0-v6.8 EM arithmetic (uW; cost = fmax*power/freq)
unit uW
cpus 8
capacity 0 284
capacity 1 284
capacity 2 284
capacity 3 284
capacity 4 871
capacity 5 871
capacity 6 871
capacity 7 1024
pd pd0 cpus=0-3 flags=0x3 has_inefficient=1 states=17
ps frequency=300000 power=10162 cost=61134 inefficient=1 performance=0
ps frequency=403200 power=13651 cost=61104 inefficient=1 performance=0
ps frequency=518400 power=17547 cost=61089 inefficient=0 performance=0
ps frequency=614400 power=20799 cost=61097 inefficient=0 performance=0
ps frequency=691200 power=23407 cost=61118 inefficient=0 performance=0
ps frequency=787200 power=28183 cost=64614 inefficient=0 performance=0
ps frequency=883200 power=32055 cost=65503 inefficient=0 performance=0
ps frequency=979200 power=37006 cost=68207 inefficient=0 performance=0
ps frequency=1075200 power=42276 cost=70963 inefficient=0 performance=0
ps frequency=1171200 power=47263 cost=72831 inefficient=0 performance=0
ps frequency=1248000 power=53005 cost=76653 inefficient=0 performance=0
ps frequency=1344000 power=59990 cost=80558 inefficient=0 performance=0
ps frequency=1420800 power=66531 cost=84512 inefficient=0 performance=0
ps frequency=1516800 power=75346 cost=89652 inefficient=0 performance=0
ps frequency=1612800 power=86772 cost=97102 inefficient=0 performance=0
ps frequency=1708800 power=99271 cost=104848 inefficient=0 performance=0
ps frequency=1804800 power=114064 cost=114064 inefficient=0 performance=0
pd pd1 cpus=4-6 flags=0x1 has_inefficient=1 states=18
ps frequency=710400 power=93036 cost=316825 inefficient=0 performance=0
ps frequency=825600 power=115584 cost=338688 inefficient=0 performance=0
ps frequency=940800 power=140503 cost=361293 inefficient=0 performance=0
ps frequency=1056000 power=165987 cost=380261 inefficient=0 performance=0
ps frequency=1171200 power=195673 cost=404177 inefficient=0 performance=0
ps frequency=1286400 power=225370 cost=423830 inefficient=0 performance=0
ps frequency=1382400 power=253726 cost=444020 inefficient=0 performance=0
ps frequency=1478400 power=287170 cost=469914 inefficient=0 performance=0
ps frequency=1574400 power=319643 cost=491158 inefficient=0 performance=0
ps frequency=1670400 power=357924 cost=518372 inefficient=0 performance=0
ps frequency=1766400 power=398900 cost=546319 inefficient=0 performance=0
ps frequency=1862400 power=451646 cost=586674 inefficient=0 performance=0
ps frequency=1958400 power=489287 cost=604413 inefficient=0 performance=0
ps frequency=2054400 power=544066 cost=640675 inefficient=0 performance=0
ps frequency=2150400 power=591502 cost=665439 inefficient=0 performance=0
ps frequency=2246400 power=653216 cost=703463 inefficient=0 performance=0
ps frequency=2342400 power=706245 cost=729400 inefficient=0 performance=0
ps frequency=2419200 power=762543 cost=762543 inefficient=0 performance=0
pd pd2 cpus=7 flags=0x1 has_inefficient=1 states=20
ps frequency=844800 power=124328 cost=418194 inefficient=0 performance=0
ps frequency=960000 power=149381 cost=442167 inefficient=0 performance=0
ps frequency=1075200 power=176440 cost=466305 inefficient=0 performance=0
ps frequency=1190400 power=203101 cost=484821 inefficient=0 performance=0
ps frequency=1305600 power=231434 cost=503709 inefficient=0 performance=0
ps frequency=1401600 power=257984 cost=523036 inefficient=0 performance=0
ps frequency=1516800 power=293204 cost=549293 inefficient=0 performance=0
ps frequency=1632000 power=331128 cost=576552 inefficient=0 performance=0
ps frequency=1747200 power=375745 cost=611101 inefficient=0 performance=0
ps frequency=1862400 power=419104 cost=639457 inefficient=0 performance=0
ps frequency=1977600 power=470339 cost=675826 inefficient=0 performance=0
ps frequency=2073600 power=514974 cost=705705 inefficient=0 performance=0
ps frequency=2169600 power=616343 cost=807245 inefficient=0 performance=0
ps frequency=2265600 power=643622 cost=807254 inefficient=0 performance=0
ps frequency=2361600 power=684386 cost=823488 inefficient=0 performance=0
ps frequency=2457600 power=740700 cost=856434 inefficient=0 performance=0
ps frequency=2553600 power=807455 cost=898521 inefficient=0 performance=0
ps frequency=2649600 power=877995 cost=941617 inefficient=0 performance=0
ps frequency=2745600 power=952422 cost=985723 inefficient=0 performance=0
ps frequency=2841600 power=1030839 cost=1030839 inefficient=0 performance=0
end
