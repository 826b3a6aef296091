# Total latency (fio's lat; clat, labelled, for results without it) percentiles per job and device on a log axis: p50 (dot), p99 (triangle),
# p99.9 (square), joined by a line in the device's colour. Only what doubts the latencies
# themselves is marked (a job that did not finish, a device that dropped off): a job whose
# power figures are invalid has sound latencies. No power here, so no EMULATED note.
# Usage: gnuplot -c latency.gp DATADIR   (meta.gp with LATKIND, the title's kind; latency.dat: x p50_ms p99_ms p999_ms
# device problem label_y).
load ARG1.'/meta.gp'
dat = ARG1.'/latency.dat'

set title LATKIND.' percentiles (lower is better)' font ',15'
set ylabel 'latency (ms)'
set logscale y
# Decades as plain numbers of ms (0.01, 1000), not 1e+04.
set format y '%.10g'
if (!DUMB) { set grid ytics mytics lc rgb '#e0e0e0' }
set border 3
set tics nomirror
set xrange [0.5:NJOBS+0.5]
set xtics () scale 0
do for [k=1:NJOBS] { set xtics add ((DUMB && k%2==0 ? "\n" : "").TIC[k] k) }
if (TICROT) { set xtics rotate by 25 right }
# Below the chart; above it on a terminal, where the job names take two lines.
set key outside center horizontal reverse Left samplen 1 width 2 maxrows 2 font ',11'
if (DUMB) { set key top } else { set key bottom }
plot for [d=1:NDEV] dat using 1:($5==d ? $2 : NaN):($1):($1):2:4 with boxxyerror lw 3 lc rgb COL[d] lt d notitle, \
     for [d=1:NDEV] dat using 1:($5==d ? $2 : NaN) with points pt 7 ps 1.6 lc rgb COL[d] notitle, \
     for [d=1:NDEV] dat using 1:($5==d ? $3 : NaN) with points pt 9 ps 1.8 lc rgb COL[d] notitle, \
     for [d=1:NDEV] dat using 1:($5==d ? $4 : NaN) with points pt 5 ps 1.5 lc rgb COL[d] notitle, \
     dat using 1:7:6 with labels rotate by 90 left offset 0,1.2 font ',10' tc rgb '#C00000' notitle, \
     for [d=1:NDEV] keyentry with lines lw 3 lc rgb COL[d] lt d title DEV[d], \
     keyentry with points pt 7 lc rgb '#404040' title 'p50', \
     keyentry with points pt 9 lc rgb '#404040' title 'p99', \
     keyentry with points pt 5 lc rgb '#404040' title 'p99.9'
