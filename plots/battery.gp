# Battery life against data written per day, per device: idle power sets the ceiling on
# the left, energy per GB bends the line down on the right.
# Usage: gnuplot -c battery.gp DATADIR   (meta.gp; battery.dat: MiB/day days, a block per line).
load ARG1.'/meta.gp'
dat = ARG1.'/battery.dat'

set title sprintf("Battery life vs data written per day\n%s", BATTERY).NOTE font ',14'
set xlabel 'data written per day'
set ylabel 'battery life (days)'
set logscale xy
set xrange [1:1048576]
set xtics ('1 MiB' 1, '10 MiB' 10, '100 MiB' 100, '1 GiB' 1024, '10 GiB' 10240, '100 GiB' 102400, '1 TiB' 1048576)
set format y '%g'
if (!DUMB) { set grid xtics ytics mxtics mytics lc rgb '#e4e4e4' }
set border 3
set tics nomirror
set key outside bottom center horizontal reverse Left samplen 2 width 2 maxrows 2 font ',11'
plot for [i=1:NLINES] dat index (i-1) using 1:2 with lines lw 3 lc rgb LCOL[i] title LINE[i]
