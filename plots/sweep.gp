# Record-size sweep (iozone's matrix): MB/s (top) and energy per GB (bottom) against the
# record size, a line per device (colour) and operation (marker and dashes); invalid
# points are open markers that no line runs through (an invalid J/GB is often the outlier),
# uncertain ones are ringed.
# Usage: gnuplot -c sweep.gp DATADIR   (meta.gp; sweep.dat: bs MB/s j_per_gb (in JPGUNIT) valid
# uncertain, an index block per line; LDEV[i], LOP[i]: line i's device and operation).
load ARG1.'/meta.gp'
dat = ARG1.'/sweep.dat'

# write, rewrite, read, reread, randread, randwrite, randrw
array PTF[7] = [7, 5, 9, 11, 13, 15, 3]
array PTO[7] = [6, 4, 8, 10, 12, 14, 1]
array DT[7] = [1, 2, 3, 4, 5, 6, 7]

if (HASPOWER) { set multiplot layout 2,1 title 'Record-size sweep'.NOTE font ',15' } \
else { set multiplot layout 1,1 title 'Record-size sweep' font ',15' }
if (!DUMB) { set grid xtics ytics mytics lc rgb '#e0e0e0' }
set border 3
set tics nomirror
set logscale xy
# Decades in SI (100 m, 1 k, 1 M), never 1e+06: '%.0s' is the mantissa, '%c' its prefix.
set format y '%.0s %c'
set xrange [XMIN:XMAX]
set xtics ()
do for [k=1:NXT] { set xtics add (XT[k] XV[k]) }
set xlabel 'record size'
# The key in the right margin of the top panel; both panels share the x extent.
# The key's column holds a device name of 48 characters with its (EMULATED) mark.
set lmargin at screen 0.08
set rmargin at screen 0.62
set key at screen 0.64, screen 0.90 left top vertical reverse Left samplen 3 font ',10'

set title 'Throughput (higher is better)' font ',12'
set ylabel 'MB/s'
plot for [i=1:NLINES] dat index (i-1) using 1:($4==1 ? $2 : NaN) with linespoints lw 2 dt DT[LOP[i]] pt PTF[LOP[i]] ps 1.4 lc rgb COL[LDEV[i]] lt LDEV[i] notitle, \
     for [i=1:NLINES] dat index (i-1) using 1:($4==0 ? $2 : NaN) with points pt PTO[LOP[i]] ps 1.4 lw 2 lc rgb COL[LDEV[i]] notitle, \
     for [i=1:NLINES] dat index (i-1) using 1:($5==1 ? $2 : NaN) with points pt 6 ps 2.8 lw 1.5 lc rgb COL[LDEV[i]] notitle, \
     for [d=1:NDEV] keyentry with lines lw 3 lc rgb COL[d] lt d title (DEVIN[d] ? DEVKEY[d] : ''), \
     for [k=1:NKEYOP] keyentry with linespoints lw 1.5 dt DT[KEYOP[k]] pt PTF[KEYOP[k]] lc rgb '#404040' title OPNAME[KEYOP[k]], \
     for [i=1:HASINVALID] keyentry with points pt 6 ps 1.4 lw 2 lc rgb '#404040' title 'invalid (open marker, not joined)', \
     for [i=1:HASUNCERTAIN] keyentry with points pt 6 ps 2.8 lw 1.5 lc rgb '#404040' title 'uncertain (ringed)'

if (HASPOWER) {
	set title 'Energy per GB moved (lower is better)' font ',12'
	set ylabel JPGUNIT
	set format y '%.10g'
	unset key
	plot for [i=1:NLINES] dat index (i-1) using 1:($4==1 ? $3 : NaN) with linespoints lw 2 dt DT[LOP[i]] pt PTF[LOP[i]] ps 1.4 lc rgb COL[LDEV[i]] lt LDEV[i] notitle, \
	     for [i=1:NLINES] dat index (i-1) using 1:($4==0 ? $3 : NaN) with points pt PTO[LOP[i]] ps 1.4 lw 2 lc rgb COL[LDEV[i]] notitle, \
	     for [i=1:NLINES] dat index (i-1) using 1:($5==1 ? $3 : NaN) with points pt 6 ps 2.8 lw 1.5 lc rgb COL[LDEV[i]] notitle
}
unset multiplot
