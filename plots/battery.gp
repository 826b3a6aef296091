# Battery life against data written per day, per device: idle power sets the ceiling on
# the left, energy per GB bends the line down on the right, and a line ends where its
# device writes flat out. Each line's days at the left are written beside it.
# Usage: gnuplot -c battery.gp DATADIR   (meta.gp; battery.dat: MiB/day days days_lo
# days_hi (the 95 % interval, NaN: unknown), a block per line; labels.dat: x days label
# device below rgb).
load ARG1.'/meta.gp'
dat = ARG1.'/battery.dat'
lab = ARG1.'/labels.dat'

set title sprintf("Battery life vs data written per day\n%s", BATTERY).NOTE font ',14'
set xlabel 'data written per day'
set ylabel 'battery life (days)'
set logscale x
set xrange [1:XMAX]
set xtics ('1 MiB' 1, '10 MiB' 10, '100 MiB' 100, '1 GiB' 1024, '10 GiB' 10240, '100 GiB' 102400, '1 TiB' 1048576)
if (YLOG) { set logscale y; set mytics 10 } else { set mytics 2 }
set yrange [YLO:YHI]
set format y '%g'
if (!DUMB) { set grid xtics ytics mxtics mytics lc rgb '#e4e4e4' }
set border 3
set tics nomirror
set key outside bottom center horizontal reverse Left samplen 2 width 2 maxrows 2 font ',11'
# A line that lies on a later one is drawn wider (LW): the later shows as its core.
# Under each line, the band of its 95 % interval (from the idle power's and J/GB's own).
plot for [i=1:(DUMB ? 0 : NLINES)] dat index (i-1) using 1:3:4 with filledcurves fs transparent solid 0.2 noborder lc rgb COL[LDEV[i]] notitle, \
     for [i=1:NLINES] dat index (i-1) using 1:2 with lines lw LW[i] lc rgb COL[LDEV[i]] lt LDEV[i] title LINE[i], \
     lab using 1:2:($5 == 0 ? strcol(3) : ''):6 with labels left offset char 1,0.8 font ',10' tc rgb variable notitle, \
     lab using 1:2:($5 == 1 ? strcol(3) : ''):6 with labels left offset char 1,-0.8 font ',10' tc rgb variable notitle
