# Battery life against data written per day, per device: idle (or, with --sleep-from, sleep)
# power sets the ceiling on the left, energy per GB bends the line down on the right, and a
# line ends where its device writes flat out; below a day it reads in hours (YS = 24). Each line's days at the left are written
# beside it. On the right, the currents the battery feeds (asleep, idle, writing) on a log
# axis: a µA sleep and mA writes are four decades apart, and a linear axis shows the sleep
# as nothing.
# Usage: gnuplot -c battery.gp DATADIR   (meta.gp; battery.dat: MiB/day days days_lo
# days_hi (the 95 % interval, NaN: unknown), a block per line; labels.dat: x days label
# device below rgb; currents.dat: x amps label rgb).
load ARG1.'/meta.gp'
dat = ARG1.'/battery.dat'
lab = ARG1.'/labels.dat'
cur = ARG1.'/currents.dat'

# The sleep figure's source is a line of its own under the title, smaller: a file name
# and the run's extent are long.
head = sprintf("Battery life vs data written per day\n%s", BATTERY).NOTE.(SLEEP eq '' ? '' : "\n")
if (DUMB) { set title head.SLEEP font ',14' } else { set multiplot title head font ',14'; set origin 0, 0; set size 0.7, 0.87 }
if (!DUMB && SLEEP ne '') { set label 99 SLEEP at screen 0.5, 0.885 center font ',10' }
set xlabel 'data written per day'
set ylabel sprintf('battery life (%s)', YUNIT)
set logscale x
set xrange [1:XMAX]
set xtics ('1 MiB' 1, '10 MiB' 10, '100 MiB' 100, '1 GiB' 1024, '10 GiB' 10240, '100 GiB' 102400, '1 TiB' 1048576)
if (YLOG) { set logscale y; set mytics 10 } else { set mytics 2 }
set yrange [YLO*YS:YHI*YS]
set format y '%g'
if (!DUMB) { set grid xtics ytics mxtics mytics lc rgb '#e4e4e4' }
set border 3
set tics nomirror
set key outside bottom center horizontal reverse Left samplen 2 width 2 maxrows 2 font ',11'
# A line that lies on a later one is drawn wider (LW): the later shows as its core.
# Under each line, the band of its 95 % interval (from the idle power's and J/GB's own).
plot for [i=1:(DUMB ? 0 : NLINES)] dat index (i-1) using 1:($3*YS):($4*YS) with filledcurves fs transparent solid 0.2 noborder lc rgb COL[LDEV[i]] notitle, \
     for [i=1:NLINES] dat index (i-1) using 1:($2*YS) with lines lw LW[i] lc rgb COL[LDEV[i]] lt LDEV[i] title LINE[i], \
     lab using 1:($2*YS):($5 == 0 ? strcol(3) : ''):6 with labels left offset char 1,0.8 font ',10' tc rgb variable notitle, \
     lab using 1:($2*YS):($5 == 1 ? strcol(3) : ''):6 with labels left offset char 1,-0.8 font ',10' tc rgb variable notitle

if (DUMB) { exit }
# The currents panel: a bar per device in each group, the sleep bar grey (one system's).
set origin 0.7, 0.08
set size 0.3, 0.79
unset label 99
unset logscale
unset grid
unset key
set logscale y
set yrange [CYLO:CYHI]
set ytics ()
do for [i=1:NCT] { set ytics add (CTL[i] CT[i]) }
set mytics 10
set grid ytics lc rgb '#e4e4e4'
set xrange [0.4:NCAT + 0.6]
if (HAVE_SLEEP) { set xtics ('asleep' 1, IDLE_TIC 2, 'writing' 3) } else { set xtics (IDLE_TIC 1, 'writing' 2) }
# An idle bar drawn from a baseline in doubt is marked '?', and said under the panel.
set xlabel 'current at the supply (log)'.(IDLE_NOTE eq '' ? '' : "\n".IDLE_NOTE)
set ylabel ''
plot cur using 1:2:($1 - CBW):($1 + CBW):(CYLO):2:4 with boxxyerror fs solid 0.85 noborder lc rgb variable notitle, \
     cur using 1:2:3 with labels left rotate by 90 offset char 0,0.4 font ",9" notitle
unset multiplot
