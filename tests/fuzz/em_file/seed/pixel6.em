# feecscope Energy Model; read back with feecscope --em FILE
feecscope-em 1
kernel
source profile pixel6: device-tree facts, v6.0-v6.8 EM arithmetic (uW; cost = fmax*power/freq)
unit uW
cpus 8
capacity 0 160
capacity 1 160
capacity 2 160
capacity 3 160
capacity 4 498
capacity 5 498
capacity 6 1024
capacity 7 1024
pd pd0 cpus=0-3 flags=0x1 has_inefficient=1 states=11
ps frequency=300000 power=6055 cost=36390 inefficient=0 performance=0
ps frequency=574000 power=14464 cost=45433 inefficient=0 performance=0
ps frequency=738000 power=19730 cost=48202 inefficient=0 performance=0
ps frequency=930000 power=29049 cost=56317 inefficient=0 performance=0
ps frequency=1098000 power=38963 cost=63980 inefficient=0 performance=0
ps frequency=1197000 power=44774 cost=67441 inefficient=0 performance=0
ps frequency=1328000 power=53976 cost=73282 inefficient=0 performance=0
ps frequency=1401000 power=59818 cost=76982 inefficient=0 performance=0
ps frequency=1598000 power=77246 cost=87155 inefficient=0 performance=0
ps frequency=1704000 power=88630 cost=93779 inefficient=0 performance=0
ps frequency=1803000 power=103597 cost=103597 inefficient=0 performance=0
pd pd1 cpus=4-5 flags=0x1 has_inefficient=1 states=14
ps frequency=400000 power=29085 cost=163821 inefficient=0 performance=0
ps frequency=553000 power=45288 cost=184509 inefficient=0 performance=0
ps frequency=696000 power=62430 cost=202090 inefficient=0 performance=0
ps frequency=799000 power=76597 cost=215986 inefficient=0 performance=0
ps frequency=910000 power=94908 cost=234975 inefficient=0 performance=0
ps frequency=1024000 power=113600 cost=249942 inefficient=0 performance=0
ps frequency=1197000 power=148980 cost=280410 inefficient=0 performance=0
ps frequency=1328000 power=178004 cost=301990 inefficient=0 performance=0
ps frequency=1491000 power=226271 cost=341910 inefficient=0 performance=0
ps frequency=1663000 power=283670 cost=384310 inefficient=0 performance=0
ps frequency=1836000 power=348897 cost=428139 inefficient=0 performance=0
ps frequency=1999000 power=427730 cost=482078 inefficient=0 performance=0
ps frequency=2130000 power=509780 cost=539218 inefficient=0 performance=0
ps frequency=2253000 power=599556 cost=599556 inefficient=0 performance=0
pd pd2 cpus=6-7 flags=0x1 has_inefficient=1 states=17
ps frequency=500000 power=81250 cost=455325 inefficient=0 performance=0
ps frequency=851000 power=170998 cost=563027 inefficient=0 performance=0
ps frequency=984000 power=211467 cost=602165 inefficient=0 performance=0
ps frequency=1106000 power=264005 cost=668844 inefficient=0 performance=0
ps frequency=1277000 power=330493 cost=725169 inefficient=0 performance=0
ps frequency=1426000 power=406208 cost=798173 inefficient=0 performance=0
ps frequency=1582000 power=493840 cost=874677 inefficient=0 performance=0
ps frequency=1745000 power=606098 cost=973230 inefficient=0 performance=0
ps frequency=1826000 power=667631 cost=1024480 inefficient=0 performance=0
ps frequency=2048000 power=837123 cost=1145321 inefficient=0 performance=0
ps frequency=2188000 power=982115 cost=1257717 inefficient=0 performance=0
ps frequency=2252000 power=1057595 cost=1315888 inefficient=0 performance=0
ps frequency=2401000 power=1227871 cost=1432942 inefficient=0 performance=0
ps frequency=2507000 power=1394283 cost=1558349 inefficient=0 performance=0
ps frequency=2630000 power=1601842 cost=1706601 inefficient=0 performance=0
ps frequency=2704000 power=1757600 cost=1821300 inefficient=0 performance=0
ps frequency=2802000 power=2030997 cost=2030997 inefficient=0 performance=0
end
