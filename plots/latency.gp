# Completion latency percentiles per job and device on a log axis: p50 (dot), p99 (triangle),
# p99.9 (square), joined by a line in the device's colour.
# Usage: gnuplot -c latency.gp DATADIR   (meta.gp; latency.dat: x p50_ms p99_ms p999_ms rgb valid
# invalid-label label_y).
load ARG1.'/meta.gp'
dat = ARG1.'/latency.dat'

set title 'Completion latency percentiles (lower is better)'.NOTE font ',15'
set ylabel 'latency (ms)'
set logscale y
set format y '%g'
if (!DUMB) { set grid ytics mytics lc rgb '#e0e0e0' }
set border 3
set tics nomirror
set xrange [0.5:NJOBS+0.5]
set key outside bottom center horizontal reverse Left samplen 1 width 2 maxrows 2 font ',11'
plot dat using 1:2:($1):($1):2:4:5 with boxxyerror lw 3 lc rgb variable notitle, \
     dat using 1:2:5 with points pt 7 ps 1.6 lc rgb variable notitle, \
     dat using 1:3:5 with points pt 9 ps 1.8 lc rgb variable notitle, \
     dat using 1:4:5 with points pt 5 ps 1.5 lc rgb variable notitle, \
     dat using 1:8:7 with labels rotate by 90 left offset 0,1.2 font ',10' tc rgb '#C00000' notitle, \
     for [i=1:NDEV] keyentry with lines lw 3 lc rgb COL[i] title DEV[i], \
     keyentry with points pt 7 lc rgb '#404040' title 'p50', \
     keyentry with points pt 9 lc rgb '#404040' title 'p99', \
     keyentry with points pt 5 lc rgb '#404040' title 'p99.9'
