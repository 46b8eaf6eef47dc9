desc: --time-unit=i --massif-out-file=massif.out.i
cmd: ./prog 40
time_unit: i
#-----------
snapshot=0
#-----------
time=0
mem_heap_B=0
mem_heap_extra_B=0
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=1
#-----------
time=137757
mem_heap_B=4096
mem_heap_extra_B=8
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=2
#-----------
time=142622
mem_heap_B=20480
mem_heap_extra_B=16
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=3
#-----------
time=162286
mem_heap_B=20480
mem_heap_extra_B=16
mem_stacks_B=0
heap_tree=detailed
n2: 20480 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n1: 16384 0x1091E4: scratch_work (prog.c:28)
  n1: 16384 0x109285: step (prog.c:42)
   n0: 16384 0x1092F8: main (prog.c:51)
 n1: 4096 0x109191: cache_add (prog.c:18)
  n1: 4096 0x109277: step (prog.c:41)
   n0: 4096 0x1092F8: main (prog.c:51)
#-----------
snapshot=4
#-----------
time=185530
mem_heap_B=24576
mem_heap_extra_B=24
mem_stacks_B=0
heap_tree=detailed
n2: 24576 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n1: 16384 0x1091E4: scratch_work (prog.c:28)
  n1: 16384 0x109285: step (prog.c:42)
   n0: 16384 0x1092F8: main (prog.c:51)
 n1: 8192 0x109191: cache_add (prog.c:18)
  n1: 8192 0x109277: step (prog.c:41)
   n0: 8192 0x1092F8: main (prog.c:51)
#-----------
snapshot=5
#-----------
time=208774
mem_heap_B=28672
mem_heap_extra_B=32
mem_stacks_B=0
heap_tree=detailed
n2: 28672 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n1: 16384 0x1091E4: scratch_work (prog.c:28)
  n1: 16384 0x109285: step (prog.c:42)
   n0: 16384 0x1092F8: main (prog.c:51)
 n1: 12288 0x109191: cache_add (prog.c:18)
  n1: 12288 0x109277: step (prog.c:41)
   n0: 12288 0x1092F8: main (prog.c:51)
#-----------
snapshot=6
#-----------
time=213006
mem_heap_B=32768
mem_heap_extra_B=40
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=7
#-----------
time=232018
mem_heap_B=32768
mem_heap_extra_B=40
mem_stacks_B=0
heap_tree=detailed
n2: 32768 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n1: 16384 0x109191: cache_add (prog.c:18)
  n1: 16384 0x109277: step (prog.c:41)
   n0: 16384 0x1092F8: main (prog.c:51)
 n1: 16384 0x1091E4: scratch_work (prog.c:28)
  n1: 16384 0x109285: step (prog.c:42)
   n0: 16384 0x1092F8: main (prog.c:51)
#-----------
snapshot=8
#-----------
time=236250
mem_heap_B=36864
mem_heap_extra_B=48
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=9
#-----------
time=255262
mem_heap_B=36864
mem_heap_extra_B=48
mem_stacks_B=0
heap_tree=detailed
n2: 36864 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n1: 20480 0x109191: cache_add (prog.c:18)
  n1: 20480 0x109277: step (prog.c:41)
   n0: 20480 0x1092F8: main (prog.c:51)
 n1: 16384 0x1091E4: scratch_work (prog.c:28)
  n1: 16384 0x109285: step (prog.c:42)
   n0: 16384 0x1092F8: main (prog.c:51)
#-----------
snapshot=10
#-----------
time=259494
mem_heap_B=40960
mem_heap_extra_B=56
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=11
#-----------
time=278506
mem_heap_B=40960
mem_heap_extra_B=56
mem_stacks_B=0
heap_tree=detailed
n2: 40960 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n1: 24576 0x109191: cache_add (prog.c:18)
  n1: 24576 0x109277: step (prog.c:41)
   n0: 24576 0x1092F8: main (prog.c:51)
 n1: 16384 0x1091E4: scratch_work (prog.c:28)
  n1: 16384 0x109285: step (prog.c:42)
   n0: 16384 0x1092F8: main (prog.c:51)
#-----------
snapshot=12
#-----------
time=282738
mem_heap_B=45056
mem_heap_extra_B=64
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=13
#-----------
time=301750
mem_heap_B=45056
mem_heap_extra_B=64
mem_stacks_B=0
heap_tree=detailed
n2: 45056 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n1: 28672 0x109191: cache_add (prog.c:18)
  n1: 28672 0x109277: step (prog.c:41)
   n0: 28672 0x1092F8: main (prog.c:51)
 n1: 16384 0x1091E4: scratch_work (prog.c:28)
  n1: 16384 0x109285: step (prog.c:42)
   n0: 16384 0x1092F8: main (prog.c:51)
#-----------
snapshot=14
#-----------
time=305982
mem_heap_B=49152
mem_heap_extra_B=72
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=15
#-----------
time=324994
mem_heap_B=49152
mem_heap_extra_B=72
mem_stacks_B=0
heap_tree=detailed
n2: 49152 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n1: 32768 0x109191: cache_add (prog.c:18)
  n1: 32768 0x109277: step (prog.c:41)
   n0: 32768 0x1092F8: main (prog.c:51)
 n1: 16384 0x1091E4: scratch_work (prog.c:28)
  n1: 16384 0x109285: step (prog.c:42)
   n0: 16384 0x1092F8: main (prog.c:51)
#-----------
snapshot=16
#-----------
time=329226
mem_heap_B=53248
mem_heap_extra_B=80
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=17
#-----------
time=348238
mem_heap_B=53248
mem_heap_extra_B=80
mem_stacks_B=0
heap_tree=detailed
n2: 53248 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n1: 36864 0x109191: cache_add (prog.c:18)
  n1: 36864 0x109277: step (prog.c:41)
   n0: 36864 0x1092F8: main (prog.c:51)
 n1: 16384 0x1091E4: scratch_work (prog.c:28)
  n1: 16384 0x109285: step (prog.c:42)
   n0: 16384 0x1092F8: main (prog.c:51)
#-----------
snapshot=18
#-----------
time=352470
mem_heap_B=57344
mem_heap_extra_B=88
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=19
#-----------
time=371482
mem_heap_B=57344
mem_heap_extra_B=88
mem_stacks_B=0
heap_tree=detailed
n2: 57344 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n1: 40960 0x109191: cache_add (prog.c:18)
  n1: 40960 0x109277: step (prog.c:41)
   n0: 40960 0x1092F8: main (prog.c:51)
 n1: 16384 0x1091E4: scratch_work (prog.c:28)
  n1: 16384 0x109285: step (prog.c:42)
   n0: 16384 0x1092F8: main (prog.c:51)
#-----------
snapshot=20
#-----------
time=375714
mem_heap_B=61440
mem_heap_extra_B=96
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=21
#-----------
time=394726
mem_heap_B=61440
mem_heap_extra_B=96
mem_stacks_B=0
heap_tree=detailed
n2: 61440 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n1: 45056 0x109191: cache_add (prog.c:18)
  n1: 45056 0x109277: step (prog.c:41)
   n0: 45056 0x1092F8: main (prog.c:51)
 n1: 16384 0x1091E4: scratch_work (prog.c:28)
  n1: 16384 0x109285: step (prog.c:42)
   n0: 16384 0x1092F8: main (prog.c:51)
#-----------
snapshot=22
#-----------
time=398958
mem_heap_B=65536
mem_heap_extra_B=104
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=23
#-----------
time=417970
mem_heap_B=65536
mem_heap_extra_B=104
mem_stacks_B=0
heap_tree=detailed
n2: 65536 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n1: 49152 0x109191: cache_add (prog.c:18)
  n1: 49152 0x109277: step (prog.c:41)
   n0: 49152 0x1092F8: main (prog.c:51)
 n1: 16384 0x1091E4: scratch_work (prog.c:28)
  n1: 16384 0x109285: step (prog.c:42)
   n0: 16384 0x1092F8: main (prog.c:51)
#-----------
snapshot=24
#-----------
time=422202
mem_heap_B=69632
mem_heap_extra_B=112
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=25
#-----------
time=441214
mem_heap_B=69632
mem_heap_extra_B=112
mem_stacks_B=0
heap_tree=detailed
n2: 69632 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n1: 53248 0x109191: cache_add (prog.c:18)
  n1: 53248 0x109277: step (prog.c:41)
   n0: 53248 0x1092F8: main (prog.c:51)
 n1: 16384 0x1091E4: scratch_work (prog.c:28)
  n1: 16384 0x109285: step (prog.c:42)
   n0: 16384 0x1092F8: main (prog.c:51)
#-----------
snapshot=26
#-----------
time=445446
mem_heap_B=73728
mem_heap_extra_B=120
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=27
#-----------
time=464458
mem_heap_B=73728
mem_heap_extra_B=120
mem_stacks_B=0
heap_tree=detailed
n2: 73728 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n1: 57344 0x109191: cache_add (prog.c:18)
  n1: 57344 0x109277: step (prog.c:41)
   n0: 57344 0x1092F8: main (prog.c:51)
 n1: 16384 0x1091E4: scratch_work (prog.c:28)
  n1: 16384 0x109285: step (prog.c:42)
   n0: 16384 0x1092F8: main (prog.c:51)
#-----------
snapshot=28
#-----------
time=468690
mem_heap_B=77824
mem_heap_extra_B=128
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=29
#-----------
time=487702
mem_heap_B=77824
mem_heap_extra_B=128
mem_stacks_B=0
heap_tree=detailed
n2: 77824 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n1: 61440 0x109191: cache_add (prog.c:18)
  n1: 61440 0x109277: step (prog.c:41)
   n0: 61440 0x1092F8: main (prog.c:51)
 n1: 16384 0x1091E4: scratch_work (prog.c:28)
  n1: 16384 0x109285: step (prog.c:42)
   n0: 16384 0x1092F8: main (prog.c:51)
#-----------
snapshot=30
#-----------
time=491934
mem_heap_B=81920
mem_heap_extra_B=136
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=31
#-----------
time=510946
mem_heap_B=81920
mem_heap_extra_B=136
mem_stacks_B=0
heap_tree=detailed
n2: 81920 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n1: 65536 0x109191: cache_add (prog.c:18)
  n1: 65536 0x109277: step (prog.c:41)
   n0: 65536 0x1092F8: main (prog.c:51)
 n1: 16384 0x1091E4: scratch_work (prog.c:28)
  n1: 16384 0x109285: step (prog.c:42)
   n0: 16384 0x1092F8: main (prog.c:51)
#-----------
snapshot=32
#-----------
time=515178
mem_heap_B=86016
mem_heap_extra_B=144
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=33
#-----------
time=534190
mem_heap_B=86016
mem_heap_extra_B=144
mem_stacks_B=0
heap_tree=detailed
n2: 86016 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n1: 69632 0x109191: cache_add (prog.c:18)
  n1: 69632 0x109277: step (prog.c:41)
   n0: 69632 0x1092F8: main (prog.c:51)
 n1: 16384 0x1091E4: scratch_work (prog.c:28)
  n1: 16384 0x109285: step (prog.c:42)
   n0: 16384 0x1092F8: main (prog.c:51)
#-----------
snapshot=34
#-----------
time=538422
mem_heap_B=90112
mem_heap_extra_B=152
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=35
#-----------
time=557434
mem_heap_B=90112
mem_heap_extra_B=152
mem_stacks_B=0
heap_tree=detailed
n2: 90112 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n1: 73728 0x109191: cache_add (prog.c:18)
  n1: 73728 0x109277: step (prog.c:41)
   n0: 73728 0x1092F8: main (prog.c:51)
 n1: 16384 0x1091E4: scratch_work (prog.c:28)
  n1: 16384 0x109285: step (prog.c:42)
   n0: 16384 0x1092F8: main (prog.c:51)
#-----------
snapshot=36
#-----------
time=561666
mem_heap_B=94208
mem_heap_extra_B=160
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=37
#-----------
time=580678
mem_heap_B=94208
mem_heap_extra_B=160
mem_stacks_B=0
heap_tree=detailed
n2: 94208 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n1: 77824 0x109191: cache_add (prog.c:18)
  n1: 77824 0x109277: step (prog.c:41)
   n0: 77824 0x1092F8: main (prog.c:51)
 n1: 16384 0x1091E4: scratch_work (prog.c:28)
  n1: 16384 0x109285: step (prog.c:42)
   n0: 16384 0x1092F8: main (prog.c:51)
#-----------
snapshot=38
#-----------
time=584910
mem_heap_B=98304
mem_heap_extra_B=168
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=39
#-----------
time=603922
mem_heap_B=98304
mem_heap_extra_B=168
mem_stacks_B=0
heap_tree=detailed
n2: 98304 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n1: 81920 0x109191: cache_add (prog.c:18)
  n1: 81920 0x109277: step (prog.c:41)
   n0: 81920 0x1092F8: main (prog.c:51)
 n1: 16384 0x1091E4: scratch_work (prog.c:28)
  n1: 16384 0x109285: step (prog.c:42)
   n0: 16384 0x1092F8: main (prog.c:51)
#-----------
snapshot=40
#-----------
time=608154
mem_heap_B=102400
mem_heap_extra_B=176
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=41
#-----------
time=627166
mem_heap_B=102400
mem_heap_extra_B=176
mem_stacks_B=0
heap_tree=detailed
n2: 102400 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n1: 86016 0x109191: cache_add (prog.c:18)
  n1: 86016 0x109277: step (prog.c:41)
   n0: 86016 0x1092F8: main (prog.c:51)
 n1: 16384 0x1091E4: scratch_work (prog.c:28)
  n1: 16384 0x109285: step (prog.c:42)
   n0: 16384 0x1092F8: main (prog.c:51)
#-----------
snapshot=42
#-----------
time=631398
mem_heap_B=106496
mem_heap_extra_B=184
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=43
#-----------
time=650410
mem_heap_B=106496
mem_heap_extra_B=184
mem_stacks_B=0
heap_tree=detailed
n2: 106496 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n1: 90112 0x109191: cache_add (prog.c:18)
  n1: 90112 0x109277: step (prog.c:41)
   n0: 90112 0x1092F8: main (prog.c:51)
 n1: 16384 0x1091E4: scratch_work (prog.c:28)
  n1: 16384 0x109285: step (prog.c:42)
   n0: 16384 0x1092F8: main (prog.c:51)
#-----------
snapshot=44
#-----------
time=654642
mem_heap_B=110592
mem_heap_extra_B=192
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=45
#-----------
time=673654
mem_heap_B=110592
mem_heap_extra_B=192
mem_stacks_B=0
heap_tree=detailed
n2: 110592 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n1: 94208 0x109191: cache_add (prog.c:18)
  n1: 94208 0x109277: step (prog.c:41)
   n0: 94208 0x1092F8: main (prog.c:51)
 n1: 16384 0x1091E4: scratch_work (prog.c:28)
  n1: 16384 0x109285: step (prog.c:42)
   n0: 16384 0x1092F8: main (prog.c:51)
#-----------
snapshot=46
#-----------
time=677886
mem_heap_B=114688
mem_heap_extra_B=200
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=47
#-----------
time=696898
mem_heap_B=114688
mem_heap_extra_B=200
mem_stacks_B=0
heap_tree=detailed
n2: 114688 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n1: 98304 0x109191: cache_add (prog.c:18)
  n1: 98304 0x109277: step (prog.c:41)
   n0: 98304 0x1092F8: main (prog.c:51)
 n1: 16384 0x1091E4: scratch_work (prog.c:28)
  n1: 16384 0x109285: step (prog.c:42)
   n0: 16384 0x1092F8: main (prog.c:51)
#-----------
snapshot=48
#-----------
time=701130
mem_heap_B=118784
mem_heap_extra_B=208
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=49
#-----------
time=720142
mem_heap_B=118784
mem_heap_extra_B=208
mem_stacks_B=0
heap_tree=detailed
n2: 118784 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n1: 102400 0x109191: cache_add (prog.c:18)
  n1: 102400 0x109277: step (prog.c:41)
   n0: 102400 0x1092F8: main (prog.c:51)
 n1: 16384 0x1091E4: scratch_work (prog.c:28)
  n1: 16384 0x109285: step (prog.c:42)
   n0: 16384 0x1092F8: main (prog.c:51)
#-----------
snapshot=50
#-----------
time=724374
mem_heap_B=122880
mem_heap_extra_B=216
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=51
#-----------
time=743386
mem_heap_B=122880
mem_heap_extra_B=216
mem_stacks_B=0
heap_tree=detailed
n2: 122880 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n1: 106496 0x109191: cache_add (prog.c:18)
  n1: 106496 0x109277: step (prog.c:41)
   n0: 106496 0x1092F8: main (prog.c:51)
 n1: 16384 0x1091E4: scratch_work (prog.c:28)
  n1: 16384 0x109285: step (prog.c:42)
   n0: 16384 0x1092F8: main (prog.c:51)
#-----------
snapshot=52
#-----------
time=747618
mem_heap_B=126976
mem_heap_extra_B=224
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=53
#-----------
time=766630
mem_heap_B=126976
mem_heap_extra_B=224
mem_stacks_B=0
heap_tree=detailed
n2: 126976 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n1: 110592 0x109191: cache_add (prog.c:18)
  n1: 110592 0x109277: step (prog.c:41)
   n0: 110592 0x1092F8: main (prog.c:51)
 n1: 16384 0x1091E4: scratch_work (prog.c:28)
  n1: 16384 0x109285: step (prog.c:42)
   n0: 16384 0x1092F8: main (prog.c:51)
#-----------
snapshot=54
#-----------
time=770862
mem_heap_B=131072
mem_heap_extra_B=232
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=55
#-----------
time=789874
mem_heap_B=131072
mem_heap_extra_B=232
mem_stacks_B=0
heap_tree=detailed
n2: 131072 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n1: 114688 0x109191: cache_add (prog.c:18)
  n1: 114688 0x109277: step (prog.c:41)
   n0: 114688 0x1092F8: main (prog.c:51)
 n1: 16384 0x1091E4: scratch_work (prog.c:28)
  n1: 16384 0x109285: step (prog.c:42)
   n0: 16384 0x1092F8: main (prog.c:51)
#-----------
snapshot=56
#-----------
time=794106
mem_heap_B=135168
mem_heap_extra_B=240
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=57
#-----------
time=813118
mem_heap_B=135168
mem_heap_extra_B=240
mem_stacks_B=0
heap_tree=detailed
n2: 135168 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n1: 118784 0x109191: cache_add (prog.c:18)
  n1: 118784 0x109277: step (prog.c:41)
   n0: 118784 0x1092F8: main (prog.c:51)
 n1: 16384 0x1091E4: scratch_work (prog.c:28)
  n1: 16384 0x109285: step (prog.c:42)
   n0: 16384 0x1092F8: main (prog.c:51)
#-----------
snapshot=58
#-----------
time=817350
mem_heap_B=139264
mem_heap_extra_B=248
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=59
#-----------
time=836362
mem_heap_B=139264
mem_heap_extra_B=248
mem_stacks_B=0
heap_tree=detailed
n2: 139264 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n1: 122880 0x109191: cache_add (prog.c:18)
  n1: 122880 0x109277: step (prog.c:41)
   n0: 122880 0x1092F8: main (prog.c:51)
 n1: 16384 0x1091E4: scratch_work (prog.c:28)
  n1: 16384 0x109285: step (prog.c:42)
   n0: 16384 0x1092F8: main (prog.c:51)
#-----------
snapshot=60
#-----------
time=840594
mem_heap_B=143360
mem_heap_extra_B=256
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=61
#-----------
time=859606
mem_heap_B=143360
mem_heap_extra_B=256
mem_stacks_B=0
heap_tree=detailed
n2: 143360 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n1: 126976 0x109191: cache_add (prog.c:18)
  n1: 126976 0x109277: step (prog.c:41)
   n0: 126976 0x1092F8: main (prog.c:51)
 n1: 16384 0x1091E4: scratch_work (prog.c:28)
  n1: 16384 0x109285: step (prog.c:42)
   n0: 16384 0x1092F8: main (prog.c:51)
#-----------
snapshot=62
#-----------
time=863838
mem_heap_B=147456
mem_heap_extra_B=264
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=63
#-----------
time=882850
mem_heap_B=147456
mem_heap_extra_B=264
mem_stacks_B=0
heap_tree=detailed
n2: 147456 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n1: 131072 0x109191: cache_add (prog.c:18)
  n1: 131072 0x109277: step (prog.c:41)
   n0: 131072 0x1092F8: main (prog.c:51)
 n1: 16384 0x1091E4: scratch_work (prog.c:28)
  n1: 16384 0x109285: step (prog.c:42)
   n0: 16384 0x1092F8: main (prog.c:51)
#-----------
snapshot=64
#-----------
time=887082
mem_heap_B=151552
mem_heap_extra_B=272
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=65
#-----------
time=906094
mem_heap_B=151552
mem_heap_extra_B=272
mem_stacks_B=0
heap_tree=detailed
n2: 151552 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n1: 135168 0x109191: cache_add (prog.c:18)
  n1: 135168 0x109277: step (prog.c:41)
   n0: 135168 0x1092F8: main (prog.c:51)
 n1: 16384 0x1091E4: scratch_work (prog.c:28)
  n1: 16384 0x109285: step (prog.c:42)
   n0: 16384 0x1092F8: main (prog.c:51)
#-----------
snapshot=66
#-----------
time=910326
mem_heap_B=155648
mem_heap_extra_B=280
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=67
#-----------
time=929338
mem_heap_B=155648
mem_heap_extra_B=280
mem_stacks_B=0
heap_tree=detailed
n2: 155648 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n1: 139264 0x109191: cache_add (prog.c:18)
  n1: 139264 0x109277: step (prog.c:41)
   n0: 139264 0x1092F8: main (prog.c:51)
 n1: 16384 0x1091E4: scratch_work (prog.c:28)
  n1: 16384 0x109285: step (prog.c:42)
   n0: 16384 0x1092F8: main (prog.c:51)
#-----------
snapshot=68
#-----------
time=933570
mem_heap_B=159744
mem_heap_extra_B=288
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=69
#-----------
time=952582
mem_heap_B=159744
mem_heap_extra_B=288
mem_stacks_B=0
heap_tree=detailed
n2: 159744 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n1: 143360 0x109191: cache_add (prog.c:18)
  n1: 143360 0x109277: step (prog.c:41)
   n0: 143360 0x1092F8: main (prog.c:51)
 n1: 16384 0x1091E4: scratch_work (prog.c:28)
  n1: 16384 0x109285: step (prog.c:42)
   n0: 16384 0x1092F8: main (prog.c:51)
#-----------
snapshot=70
#-----------
time=956814
mem_heap_B=163840
mem_heap_extra_B=296
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=71
#-----------
time=975826
mem_heap_B=163840
mem_heap_extra_B=296
mem_stacks_B=0
heap_tree=detailed
n2: 163840 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n1: 147456 0x109191: cache_add (prog.c:18)
  n1: 147456 0x109277: step (prog.c:41)
   n0: 147456 0x1092F8: main (prog.c:51)
 n1: 16384 0x1091E4: scratch_work (prog.c:28)
  n1: 16384 0x109285: step (prog.c:42)
   n0: 16384 0x1092F8: main (prog.c:51)
#-----------
snapshot=72
#-----------
time=980058
mem_heap_B=167936
mem_heap_extra_B=304
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=73
#-----------
time=999070
mem_heap_B=167936
mem_heap_extra_B=304
mem_stacks_B=0
heap_tree=detailed
n2: 167936 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n1: 151552 0x109191: cache_add (prog.c:18)
  n1: 151552 0x109277: step (prog.c:41)
   n0: 151552 0x1092F8: main (prog.c:51)
 n1: 16384 0x1091E4: scratch_work (prog.c:28)
  n1: 16384 0x109285: step (prog.c:42)
   n0: 16384 0x1092F8: main (prog.c:51)
#-----------
snapshot=74
#-----------
time=1003302
mem_heap_B=172032
mem_heap_extra_B=312
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=75
#-----------
time=1022314
mem_heap_B=172032
mem_heap_extra_B=312
mem_stacks_B=0
heap_tree=detailed
n2: 172032 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n1: 155648 0x109191: cache_add (prog.c:18)
  n1: 155648 0x109277: step (prog.c:41)
   n0: 155648 0x1092F8: main (prog.c:51)
 n1: 16384 0x1091E4: scratch_work (prog.c:28)
  n1: 16384 0x109285: step (prog.c:42)
   n0: 16384 0x1092F8: main (prog.c:51)
#-----------
snapshot=76
#-----------
time=1026546
mem_heap_B=176128
mem_heap_extra_B=320
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=77
#-----------
time=1045558
mem_heap_B=176128
mem_heap_extra_B=320
mem_stacks_B=0
heap_tree=detailed
n2: 176128 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n1: 159744 0x109191: cache_add (prog.c:18)
  n1: 159744 0x109277: step (prog.c:41)
   n0: 159744 0x1092F8: main (prog.c:51)
 n1: 16384 0x1091E4: scratch_work (prog.c:28)
  n1: 16384 0x109285: step (prog.c:42)
   n0: 16384 0x1092F8: main (prog.c:51)
#-----------
snapshot=78
#-----------
time=1049790
mem_heap_B=180224
mem_heap_extra_B=328
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=79
#-----------
time=1068802
mem_heap_B=180224
mem_heap_extra_B=328
mem_stacks_B=0
heap_tree=peak
n2: 180224 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n1: 163840 0x109191: cache_add (prog.c:18)
  n1: 163840 0x109277: step (prog.c:41)
   n0: 163840 0x1092F8: main (prog.c:51)
 n1: 16384 0x1091E4: scratch_work (prog.c:28)
  n1: 16384 0x109285: step (prog.c:42)
   n0: 16384 0x1092F8: main (prog.c:51)
