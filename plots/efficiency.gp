# Efficiency per job: IOPS per mA (top) and energy per GB (bottom), devices side by side.
# Usage: gnuplot -c efficiency.gp DATADIR   (DATADIR holds meta.gp and efficiency.dat,
# written by `iowatt plot --keep-data`). Columns: x iops_per_ma j_per_gb rgb valid device
# text1 text2 invalid label_y1 label_y2 (labels as text, "" for none).
load ARG1.'/meta.gp'
dat = ARG1.'/efficiency.dat'

set multiplot layout 2,1 title 'Storage efficiency per job'.NOTE font ',15'
set style fill solid 0.9 border lc rgb '#404040'
if (!DUMB) { set grid ytics lc rgb '#d0d0d0' }
set xrange [0.5:NJOBS+0.5]
set logscale y
set format y '%g'
set border 3
set tics nomirror
set key outside top center horizontal reverse Left samplen 2 spacing 1.1 width 2 maxrows 2 font ',11'
vrot = VALROT ? 'rotate by 90 left' : 'center'

set title 'IOPS per mA (higher is better)'
set ylabel 'IOPS per mA'
set yrange [YMIN1:*]
plot dat using 1:($5==1 ? $2 : NaN):($1-BOXW/2):($1+BOXW/2):(YMIN1):($5==1 ? $2 : NaN):4 with boxxyerror lc rgb variable notitle, \
     dat using 1:($5==0 ? $2 : NaN):($1-BOXW/2):($1+BOXW/2):(YMIN1):($5==0 ? $2 : NaN):4 with boxxyerror fs pattern 4 border lc rgb variable notitle, \
     dat using 1:10:7 with labels @vrot offset 0,0.7 font ',9' notitle, \
     dat using 1:10:9 with labels rotate by 90 left offset 0,2.2 font ',10' tc rgb '#C00000' notitle, \
     for [i=1:NDEV] keyentry with boxes fs solid 0.9 lc rgb COL[i] title DEV[i], \
     keyentry with boxes fs pattern 4 lc rgb '#404040' title 'invalid run (hatched)'

set title 'Energy per GB moved, active phase (lower is better)'
set ylabel 'J/GB'
set yrange [YMIN2:*]
unset key
plot dat using 1:($5==1 ? $3 : NaN):($1-BOXW/2):($1+BOXW/2):(YMIN2):($5==1 ? $3 : NaN):4 with boxxyerror lc rgb variable notitle, \
     dat using 1:($5==0 ? $3 : NaN):($1-BOXW/2):($1+BOXW/2):(YMIN2):($5==0 ? $3 : NaN):4 with boxxyerror fs pattern 4 border lc rgb variable notitle, \
     dat using 1:11:8 with labels @vrot offset 0,0.7 font ',9' notitle, \
     dat using 1:11:9 with labels rotate by 90 left offset 0,2.2 font ',10' tc rgb '#C00000' notitle
unset multiplot
