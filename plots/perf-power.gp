# Performance against power: one panel per job, a point per device, the Pareto front
# (nothing else is both faster and cheaper) as a dashed line.
# Usage: gnuplot -c perf-power.gp DATADIR   (meta.gp; perf.dat: active_w perf rgb valid label
# placement, then the label once per placement ("" elsewhere) and its x y; one index block
# per job; front.dat: the front's points per job).
load ARG1.'/meta.gp'
dat = ARG1.'/perf.dat'
front = ARG1.'/front.dat'

set multiplot layout ROWS,COLS title 'Performance vs power: up and to the left is better'.NOTE font ',15'
if (!DUMB) { set grid xtics ytics mytics lc rgb '#e0e0e0' }
set border 3
set tics nomirror
set logscale y
set mytics 10
set format y '%g'
set xlabel 'active power (W)'
set key top left reverse Left samplen 1 font ',10' opaque box lc rgb '#d0d0d0'
# Labels right of the point (1), below (2), above (3) or left (4): neighbours do not collide.
do for [k=1:NJOBS] {
	set title JOB[k] font ',13'
	set ylabel YLAB[k]
	set xrange [0:XMAX[k]]
	set yrange [YLO[k]:YHI[k]]
	if (HASFRONT[k]) {
		plot front index (k-1) using 1:2 with lines dt 2 lw 2 lc rgb '#606060' title 'Pareto front', \
		     dat index (k-1) using 1:($4==1 ? $2 : NaN):3 with points pt 7 ps 2 lc rgb variable notitle, \
		     dat index (k-1) using 1:($4==0 ? $2 : NaN):3 with points pt 6 ps 2 lw 2 lc rgb variable notitle, \
		     dat index (k-1) using 11:12:7 with labels left offset char 1.5,0 font ',10' notitle, \
		     dat index (k-1) using 11:12:8 with labels center offset char 0,-1.3 font ',10' notitle, \
		     dat index (k-1) using 11:12:9 with labels center offset char 0,1.3 font ',10' notitle, \
		     dat index (k-1) using 11:12:10 with labels right offset char -1.5,0 font ',10' notitle
	} else {
		plot dat index (k-1) using 1:($4==0 ? $2 : NaN):3 with points pt 6 ps 2 lw 2 lc rgb variable title 'invalid (open marker)', \
		     dat index (k-1) using 11:12:7 with labels left offset char 1.5,0 font ',10' notitle, \
		     dat index (k-1) using 11:12:8 with labels center offset char 0,-1.3 font ',10' notitle, \
		     dat index (k-1) using 11:12:9 with labels center offset char 0,1.3 font ',10' notitle, \
		     dat index (k-1) using 11:12:10 with labels right offset char -1.5,0 font ',10' notitle
	}
	unset key
}
unset multiplot
