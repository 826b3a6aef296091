# Performance against power: one panel per job, a point per device, and the Pareto front
# (nothing else is both faster and cheaper) as the staircase of the best performance for a
# power budget. Labels are placed by iowatt where they cover no point, label or front;
# many jobs make small panels (COMPACT) whose points are told apart by colour alone, in
# the key under the title, so that 34 jobs fit one screen-sized chart. The results of one
# device make one panel of its jobs (ONEDEV), without a front: no job is another's rival.
# Usage: gnuplot -c perf-power.gp DATADIR   (meta.gp; perf.dat: active power (in XUNIT) perf
# device valid, the label in one of eight columns by placement (right, below, above, left,
# above-right, below-right, above-left, below-left; "" in the others) and its x y, then
# the point's 95 % intervals x_lo x_hi y_lo y_hi (drawn as error bars); one index block
# per job; front.dat: the staircase per job; the layout: COLS, RH, PW, TOPF, KEYF).
load ARG1.'/meta.gp'
dat = ARG1.'/perf.dat'
front = ARG1.'/front.dat'

set multiplot title 'Performance vs power: up and to the left is better'.NOTE font ',15'
# The key, once for every panel: devices by colour, the front, open markers.
set origin 0, 1 - TOPF
set size 1, KEYF
unset border
unset xtics
unset ytics
set xrange [0:1]
set yrange [0:1]
set key center center horizontal reverse Left samplen 2 font ',10' maxrows 2 width 1
# (a line above the range: gnuplot 5.4 asserts on a plot of key entries alone)
plot 2 notitle, \
     for [d=1:NDEV] keyentry with points pt (DUMB ? d : 7) ps 1.6 lc rgb COL[d] title DEVKEY[d], \
     for [i=1:!ONEDEV] keyentry with lines dt 2 lw 2 lc rgb '#707070' title 'Pareto front', \
     for [i=1:HASINVALID] keyentry with points pt 6 ps 1.6 lw 2 lc rgb '#404040' title 'invalid (open marker)'
unset key

if (!DUMB) { set grid xtics ytics mytics lc rgb '#e0e0e0' }
set border 3
set xtics nomirror
set ytics nomirror
set logscale y
set mytics 10
# Decades in SI (100 k, 1 M), never 1e+06; power in the unit its figures choose (XUNIT).
set format y '%.0s %c'
set format x '%.10g'
# Small panels take smaller type.
FTITLE = COMPACT ? ',10' : ',13'
FAXIS = COMPACT ? ',10' : ',12'
FTICS = COMPACT ? ',9' : ',12'
set xlabel 'active power ('.XUNIT.')' font FAXIS
set tics font FTICS
do for [k=1:NJOBS] {
	set origin ((k-1)%COLS) * PW, 1 - TOPF - (floor((k-1)/COLS) + 1) * RH
	set size PW, RH
	set title JOB[k] font FTITLE
	set ylabel YLAB[k] font FAXIS
	set xrange [0:XMAX[k]]
	set xtics 0, XSTEP[k]
	set yrange [YLO[k]:YHI[k]]
	# The front's file has no valid point when every point is invalid: not plotted then.
	if (HASFRONT[k]) {
		plot front index (k-1) using 1:2 with lines dt 2 lw 2 lc rgb '#707070' notitle, \
		     for [d=1:NDEV] dat index (k-1) using 1:(($3==d) ? $2 : NaN):15:16:17:18 with xyerrorbars pt 0 lw 1.2 lc rgb COL[d] notitle, \
		     for [d=1:NDEV] dat index (k-1) using 1:(($3==d && $4==1) ? $2 : NaN) with points pt (DUMB ? d : 7) ps (COMPACT ? 1.4 : 2) lc rgb COL[d] notitle, \
		     for [d=1:NDEV] dat index (k-1) using 1:(($3==d && $4==0) ? $2 : NaN) with points pt (DUMB ? d : 6) ps (COMPACT ? 1.4 : 2) lw 2 lc rgb COL[d] notitle, \
		     dat index (k-1) using 13:14:5 with labels left offset char 1.5,0 font ',10' notitle, \
		     dat index (k-1) using 13:14:6 with labels center offset char 0,-1.3 font ',10' notitle, \
		     dat index (k-1) using 13:14:7 with labels center offset char 0,1.3 font ',10' notitle, \
		     dat index (k-1) using 13:14:8 with labels right offset char -1.5,0 font ',10' notitle, \
		     dat index (k-1) using 13:14:9 with labels left offset char -0.4,1.3 font ',10' notitle, \
		     dat index (k-1) using 13:14:10 with labels left offset char -0.4,-1.3 font ',10' notitle, \
		     dat index (k-1) using 13:14:11 with labels right offset char 0.4,1.3 font ',10' notitle, \
		     dat index (k-1) using 13:14:12 with labels right offset char 0.4,-1.3 font ',10' notitle
	} else {
		plot for [d=1:NDEV] dat index (k-1) using 1:(($3==d) ? $2 : NaN):15:16:17:18 with xyerrorbars pt 0 lw 1.2 lc rgb COL[d] notitle, \
		     for [d=1:NDEV] dat index (k-1) using 1:(($3==d && $4==1) ? $2 : NaN) with points pt (DUMB ? d : 7) ps (COMPACT ? 1.4 : 2) lc rgb COL[d] notitle, \
		     for [d=1:NDEV] dat index (k-1) using 1:(($3==d && $4==0) ? $2 : NaN) with points pt (DUMB ? d : 6) ps (COMPACT ? 1.4 : 2) lw 2 lc rgb COL[d] notitle, \
		     dat index (k-1) using 13:14:5 with labels left offset char 1.5,0 font ',10' notitle, \
		     dat index (k-1) using 13:14:6 with labels center offset char 0,-1.3 font ',10' notitle, \
		     dat index (k-1) using 13:14:7 with labels center offset char 0,1.3 font ',10' notitle, \
		     dat index (k-1) using 13:14:8 with labels right offset char -1.5,0 font ',10' notitle, \
		     dat index (k-1) using 13:14:9 with labels left offset char -0.4,1.3 font ',10' notitle, \
		     dat index (k-1) using 13:14:10 with labels left offset char -0.4,-1.3 font ',10' notitle, \
		     dat index (k-1) using 13:14:11 with labels right offset char 0.4,1.3 font ',10' notitle, \
		     dat index (k-1) using 13:14:12 with labels right offset char 0.4,-1.3 font ',10' notitle
	}
}
unset multiplot
