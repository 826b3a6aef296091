# Write saturation (after SNIA PTS's WSAT): each round's MB/s and IOPS (top), active power and
# energy per GB (bottom) against the GB the run had written by its end, a line per device
# (colour) and job; the rounds of the steady window are ringed, invalid rounds open.
# Usage: gnuplot -c wsat.gp DATADIR   (meta.gp; wsat.dat: gb MB/s IOPS W (WUNIT) J/GB (JPGUNIT)
# valid in_window, an index block per line; LDEV[i] line i's device, LTITLE[i] its verdict).
load ARG1.'/meta.gp'
dat = ARG1.'/wsat.dat'

if (HASPOWER) { set multiplot layout 2,2 title 'Write saturation: figures against data written'.NOTE font ',15' } \
else { set multiplot layout 1,2 title 'Write saturation: figures against data written' font ',15' }
if (!DUMB) { set grid xtics ytics lc rgb '#e0e0e0' }
set border 3
set tics nomirror
set xlabel 'GB written (10^9 B)'
set xrange [0:*]
set yrange [0:*]
set format y '%.10g'

# valid rounds joined; invalid ones open markers, not joined; the steady window ringed
set title 'Throughput (MB/s)' font ',12'
set key bottom left reverse Left samplen 2 font ',9'
plot for [i=1:NLINES] dat index (i-1) using 1:($6==1 ? $2 : NaN) with linespoints lw 2 pt 7 ps 0.8 lc rgb COL[LDEV[i]] title LTITLE[i], \
     for [i=1:NLINES] dat index (i-1) using 1:($6==0 ? $2 : NaN) with points pt 6 ps 1.2 lc rgb COL[LDEV[i]] notitle, \
     for [i=1:NLINES] dat index (i-1) using 1:($7==1 ? $2 : NaN) with points pt 6 ps 2.2 lw 1.5 lc rgb COL[LDEV[i]] notitle, \
     for [i=1:HASWINDOW] keyentry with points pt 6 ps 2.2 lw 1.5 lc rgb '#404040' title 'steady window (ringed)', \
     for [i=1:HASINVALID] keyentry with points pt 6 ps 1.2 lc rgb '#404040' title 'invalid round (open)'

unset key
set title 'IOPS' font ',12'
plot for [i=1:NLINES] dat index (i-1) using 1:($6==1 ? $3 : NaN) with linespoints lw 2 pt 7 ps 0.8 lc rgb COL[LDEV[i]] notitle, \
     for [i=1:NLINES] dat index (i-1) using 1:($6==0 ? $3 : NaN) with points pt 6 ps 1.2 lc rgb COL[LDEV[i]] notitle, \
     for [i=1:NLINES] dat index (i-1) using 1:($7==1 ? $3 : NaN) with points pt 6 ps 2.2 lw 1.5 lc rgb COL[LDEV[i]] notitle

if (HASPOWER) {
	set title 'Active power ('.WUNIT.')' font ',12'
	plot for [i=1:NLINES] dat index (i-1) using 1:($6==1 ? $4 : NaN) with linespoints lw 2 pt 7 ps 0.8 lc rgb COL[LDEV[i]] notitle, \
	     for [i=1:NLINES] dat index (i-1) using 1:($6==0 ? $4 : NaN) with points pt 6 ps 1.2 lc rgb COL[LDEV[i]] notitle, \
	     for [i=1:NLINES] dat index (i-1) using 1:($7==1 ? $4 : NaN) with points pt 6 ps 2.2 lw 1.5 lc rgb COL[LDEV[i]] notitle
	set title 'Energy per GB written ('.JPGUNIT.', lower is better)' font ',12'
	plot for [i=1:NLINES] dat index (i-1) using 1:($6==1 ? $5 : NaN) with linespoints lw 2 pt 7 ps 0.8 lc rgb COL[LDEV[i]] notitle, \
	     for [i=1:NLINES] dat index (i-1) using 1:($6==0 ? $5 : NaN) with points pt 6 ps 1.2 lc rgb COL[LDEV[i]] notitle, \
	     for [i=1:NLINES] dat index (i-1) using 1:($7==1 ? $5 : NaN) with points pt 6 ps 2.2 lw 1.5 lc rgb COL[LDEV[i]] notitle
}
unset multiplot
